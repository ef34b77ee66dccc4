"""What one of ``ai:strong``'s features is worth in a variant, on the same walls as ``ai:normal``.

Run by hand (minutes; not a test)::

    python tests/bench/ai_feature_screen.py --variant yuxi --deals 600 --seed 11 --jobs 2 \\
        --option ai.strong_reads=false --option ai.strong_look_ahead=false

For each deal: one hand of four ``ai:normal`` (the peer), then four hands with ``ai:strong``
(the variant's ``[ai]`` settings with the ``--option`` overrides applied; variants/README.md
"[ai]") at one seat and ``ai:normal`` at the other three — the same wall, dice and dealer
(``sim.play_deal_hand``, as ``sim --duplicate`` plays a deal).  The figure is
``ai:strong``'s points at its seat minus the four
``ai:normal``'s points at that seat, per hand, averaged over the four seats of a deal; its 95 %
interval is taken over deals (``sim.paired_difference``'s method).  Until ``ai:strong`` first
decides otherwise than ``ai:normal`` would, the two hands are the same move for move, so a
feature that changes few decisions is measured with little noise: this is how the variant
files' ``[ai]`` choices were screened (``tests/bench/ai_results.md``, session 15).  Where the
losers pay the winner (zero-sum), the same edge shows as 4/3 of it in ``sim --duplicate``'s
``points_per_hand_diff`` (the other three seats lose what the one gains).

Prints JSON: ``diff``, ``ci95``, ``deals_changed`` (deals where some hand differed from the
peer's), ``secs``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong_tui.sim import paired_difference, play_deal_hand  # noqa: E402
from mahjong_tui.variant import load_variant, parse_option_assignments  # noqa: E402
from mahjong_tui.workers import run_ordered  # noqa: E402


def _deals(task: tuple) -> list[tuple[float, bool]]:
    """``(variant ref, options, seed, first deal, end deal)`` → per deal ``(strong minus
    normal, points a seat, averaged over the seats; whether any seat's points changed)``."""
    ref, options, seed, lo, hi = task
    # ai:normal reads no strong_* key: one variant object serves every seat of both tables
    variant = load_variant(ref, options)
    out = []
    for d in range(lo, hi):
        peer = play_deal_hand(variant, seed, d, ["ai:normal"] * 4)["points"]
        diffs = []
        for seat in range(4):
            seating = ["ai:normal"] * 4
            seating[seat] = "ai:strong"
            got = play_deal_hand(variant, seed, d, seating)["points"]
            diffs.append(got[seat] - peer[seat])
        out.append((sum(diffs) / 4, any(diffs)))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", default="11")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="ai.strong_KEY=VALUE (repeatable)")
    args = ap.parse_args(argv)
    options = parse_option_assignments(args.option)
    load_variant(args.variant, options)   # a bad option is reported here, before any work
    step = 8
    tasks = [(args.variant, options, args.seed, lo, min(args.deals, lo + step)) for lo in range(0, args.deals, step)]
    t0 = time.perf_counter()
    chunks = run_ordered(_deals, tasks, args.jobs)
    got = [x for c in chunks for x in c]
    stat = paired_difference([g[0] for g in got], [0.0] * len(got))
    print(json.dumps({"variant": args.variant, "seed": args.seed, "options": options, "deals": len(got),
                      "diff": stat["points_per_hand_diff"], "ci95": stat["ci95"],
                      "deals_changed": sum(1 for g in got if g[1]), "secs": round(time.perf_counter() - t0, 1)}))


if __name__ == "__main__":
    main()
