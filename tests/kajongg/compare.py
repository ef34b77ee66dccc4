"""Score every convertible Kajongg test hand with ``mahjong-tui score`` and compare.

``python tests/kajongg/compare.py`` prints each disagreement and the counts;
``tests/test_dmjl_bmja_kajongg.py`` asserts there are none.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from convert import load_cases  # noqa: E402

VARIANTS = ("dmjl", "bmja")
LIMITS = {"dmjl": 500, "bmja": 1000}


def expected_total(exp: dict, variant: str, roof_off: bool = False) -> int:
    """Kajongg's total for an expectation: a limit hand scores limits × limit; otherwise
    points × 2^doubles, capped at the limit unless the roof is off."""
    if exp["limits"]:
        return round(exp["limits"] * LIMITS[variant])
    raw = int(exp["points"] * 2 ** exp["doubles"])
    return raw if roof_off else min(raw, LIMITS[variant])


def run_score(argv: list[str]) -> dict:
    """Run ``mahjong-tui ARGV`` in this process; its JSON answer."""
    from mahjong_tui.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(argv)
    if rc not in (0, None):
        raise RuntimeError(f"exit {rc}: {' '.join(argv)}")
    return json.loads(out.getvalue())


def ours(res: dict) -> tuple[bool, int, int, float]:
    """(winning, points, doublings, limits) of a ``score --json`` answer."""
    pts = sum(p["value"] * p["count"] for p in res["patterns"] if _kind(res, p) == "points")
    dbl = sum(p["value"] * p["count"] for p in res["patterns"] if _kind(res, p) == "doublings")
    lim = max([p["value"] for p in res["patterns"] if _kind(res, p) == "limits"] or [0])
    return res["winning"], pts, dbl, lim


def _kind(res: dict, p: dict) -> str:
    from mahjong_tui.variant import load_variant

    v = load_variant(res["variant"])
    for table in ("limits", "doublings", "points"):
        if p["id"] in v.scoring.get(table, {}):
            return table
    return "points"


def compare(roof_off: bool = False):
    """Yield (case, variant, expected, got, agrees) for every convertible hand."""
    for case in load_cases():
        conv = case["converted"]
        if conv is None:
            continue
        for variant in VARIANTS:
            exp = case[variant]
            argv = conv.argv(variant)
            if roof_off:
                argv[3:3] = ["--option", "scoring.roof_off=true"]
            try:
                res = run_score(argv)
            except RuntimeError as exc:
                yield case, variant, exp, str(exc), False
                continue
            won, pts, dbl, lim = ours(res)
            want = (exp["won"], exp["points"], exp["doubles"], float(exp["limits"]))
            got = (won, pts, dbl, float(lim))
            total_ok = (not exp["won"] and not won) or res["value"] == expected_total(exp, variant, roof_off)
            if conv.waiting:
                # a waiting hand: its own score as a non-winner's hand
                agrees = not won and want == got and res["value"] == expected_total(exp, variant, roof_off)
            elif not exp["won"] and not won:
                agrees = True   # a 14-tile hand that does not win scores nothing in Kajongg
            else:
                agrees = want == got and total_ok
            yield case, variant, want, (got, res["value"]), agrees


if __name__ == "__main__":
    bad = 0
    n = 0
    for case, variant, want, got, ok in compare("--roof-off" in sys.argv):
        n += 1
        if not ok:
            bad += 1
            print(f"{variant} {case['group']:<22} {case['kajongg']:<55} {case['converted'].hand} "
                  f"{' '.join(case['converted'].situations)} [{case['seat_wind']}{case['prevailing_wind']}]"
                  f"\n    want {want} got {got}")
    print(f"{n - bad}/{n} agree")
