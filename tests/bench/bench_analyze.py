"""Benchmark of ``analyze --json -`` against the ``mahjong`` package (PyPI), whole process, same run.

Run by hand: ``python tests/bench/bench_analyze.py [--repeat R] [--seed S] [--keep DIR]``.  Not a
test: it prints figures and never asserts on time (DESIGN.md "Conventions").  Goal (issue 23,
item 6): ours at most 0.5x the package's time.

The hand set: 15,320 13-tile hands drawn from the 136-tile set (seed ``S``), 3,830 of each of
four kinds, the mix the usual shanten benchmarks use: *random* (any tiles), *half flush* (one
number suit and honours), *full flush* (one number suit) and *orphan-rich* (terminals and
honours drawn three times as often).  Each hand is written twice: in our hand notation, one
per line, for ``python -m mahjong_tui analyze --variant classic --json -``; and in the
package's one-line notation (``123m456p789s1122z``) for a peer script that computes the same
answers with the package: shanten over all forms (``Shanten.calculate_shanten``), shanten per
form (regular, seven pairs, thirteen orphans) and, for ready hands, the waits (every kind with
fewer than four held whose addition makes shanten -1), printing one JSON object per hand.

Both commands run as whole processes (interpreter start and imports included) reading the
hands on standard input, in the environment of an ordinary shell (byte-code caches, buffered
output); over all hands each is run ``R`` times, alternating, and the fastest run of each is
reported, and each kind of hand once more on its own.  Times are CPU seconds (user + system)
of the child process, steadier than wall time on a shared machine; wall time is printed too.
The package is very slow on one-suit hands (its regular-hand search), so the whole set's ratio
is dominated by the full flushes: the per-kind rows say how the two compare elsewhere.  The answers of the two are compared hand by hand
(shanten, each form's shanten, waits) and any disagreement is counted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mahjong_tui import tiles as T  # noqa: E402
from tests.helpers import PACKAGE_TO_OURS  # noqa: E402

PER_KIND = 3_830
KINDS = ("random", "half flush", "full flush", "orphan-rich")

#: The package's 34 kinds in its one-line notation (``1m``..``9m``, ``1p``.., ``1s``.., ``1z``..``7z``).
_PKG_NAMES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]

PEER = r'''
import json, sys
from mahjong.shanten import Shanten
from mahjong.tile import TilesConverter
sh = Shanten()
out = sys.stdout
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    c = TilesConverter.one_line_string_to_34_array(line)
    forms = {"standard": sh.calculate_shanten_for_regular_hand(c),
             "seven_pairs": sh.calculate_shanten_for_chiitoitsu_hand(c),
             "thirteen_orphans": sh.calculate_shanten_for_kokushi_hand(c)}
    s = sh.calculate_shanten(c)
    waits = []
    if s == 0:
        for k in range(34):
            if c[k] < 4:
                c[k] += 1
                if sh.calculate_shanten(c) == -1:
                    waits.append(k)
                c[k] -= 1
    out.write(json.dumps({"tiles": 13, "shanten": s, "forms": forms, "waits": waits}) + "\n")
'''


def make_hands(seed: int) -> list[list[int]]:
    """``4 * PER_KIND`` 13-tile hands as the package's 34-arrays (counts), kinds in turn."""
    rng = random.Random(seed)
    hands = []
    for i in range(4 * PER_KIND):
        kind = i % 4
        if kind == 0:
            pool = list(range(34))
        elif kind == 1:
            s = rng.randrange(3)
            pool = list(range(9 * s, 9 * s + 9)) + list(range(27, 34))
        elif kind == 2:
            s = rng.randrange(3)
            pool = list(range(9 * s, 9 * s + 9))
        else:
            orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
            pool = list(range(34)) + orphans * 2
        wall = [k for k in pool for _ in range(4)]
        c34 = [0] * 34
        for k in rng.sample(wall, len(wall)):
            if c34[k] < 4:
                c34[k] += 1
                if sum(c34) == 13:
                    break
        hands.append(c34)
    return hands


def ours_text(c34: list[int]) -> str:
    """Our hand string of a 34-array: tiles sorted by our codes, each named (``T.name``)."""
    codes = sorted(PACKAGE_TO_OURS[k] for k, n in enumerate(c34) for _ in range(n))
    return "".join(T.name(c) for c in codes)


def package_text(c34: list[int]) -> str:
    return "".join(_PKG_NAMES[k] for k, n in enumerate(c34) for _ in range(n))


def _env() -> dict[str, str]:
    """The environment of an ordinary shell: byte-code caches written, standard output buffered."""
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run(cmd: list[str], infile: Path) -> tuple[float, float, list[str]]:
    """``(wall seconds, CPU seconds (user + system), output lines)`` of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with infile.open("rb") as f:
        t0 = time.perf_counter()
        done = subprocess.run(cmd, stdin=f, capture_output=True, check=True, cwd=ROOT, env=_env())
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.decode().splitlines()


def compare(hands: list[list[int]], ours: list[str], pkg: list[str]) -> int:
    """How many hands the two answer differently (shanten, shanten per form, waits)."""
    if len(ours) != len(hands) or len(pkg) != len(hands):
        return max(len(hands) - len(ours), len(hands) - len(pkg), 1)
    by_name = {T.name(PACKAGE_TO_OURS[k]): k for k in range(34)}
    bad = 0
    for o, p in zip(ours, pkg):
        o, p = json.loads(o), json.loads(p)
        waits = sorted(by_name[w] for w in o["waits"])
        if o["shanten"] != p["shanten"] or o["forms"] != p["forms"] or waits != p["waits"]:
            bad += 1
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--keep", type=Path, default=None, help="write the hand files here (else a temporary folder)")
    args = ap.parse_args(argv)

    hands = make_hands(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        peer = where / "peer.py"
        peer.write_text(PEER)
        ours_cmd = [sys.executable, "-m", "mahjong_tui", "analyze", "--variant", "classic", "--json", "-"]
        pkg_cmd = [sys.executable, str(peer)]
        sets = [("all", hands)] + [(kind, hands[i::4]) for i, kind in enumerate(KINDS)]
        rows = []
        for name, group in sets:
            tag = name.replace(" ", "_")
            ours_in, pkg_in = where / f"hands_ours_{tag}.txt", where / f"hands_package_{tag}.txt"
            ours_in.write_text("".join(ours_text(h) + "\n" for h in group))
            pkg_in.write_text("".join(package_text(h) + "\n" for h in group))
            if name == "all":   # warm-up: byte-code caches written, files in the page cache
                run(ours_cmd, where / "hands_ours_all.txt")
            ours, pkg = [], []
            for _ in range(args.repeat if name == "all" else 1):
                wall, cpu, ours_out = run(ours_cmd, ours_in)
                ours.append((cpu, wall))
                wall, cpu, pkg_out = run(pkg_cmd, pkg_in)
                pkg.append((cpu, wall))
            if name == "all":
                ready = sum(json.loads(line)["shanten"] == 0 for line in pkg_out)
                differ = compare(group, ours_out, pkg_out)
            rows.append((name, len(group), min(ours), min(pkg)))
    print(f"{len(hands)} hands of 13 tiles ({PER_KIND} each: {', '.join(KINDS)}), seed {args.seed}, "
          f"{ready} ready; Python {sys.version.split()[0]}; whole processes (start-up included), "
          f"CPU seconds (user + system), best of {args.repeat} for all hands, one run per kind")
    print(f"{'hands':12} {'count':>6} {'ours s':>7} {'pkg s':>7} {'ours/pkg':>9} {'ours wall':>10} {'pkg wall':>9}")
    for name, count, (o_cpu, o_wall), (p_cpu, p_wall) in rows:
        print(f"{name:12} {count:6} {o_cpu:7.2f} {p_cpu:7.2f} {o_cpu / p_cpu:9.2f} {o_wall:10.2f} {p_wall:9.2f}")
    print("ours: python -m mahjong_tui analyze --variant classic --json - ; pkg: the mahjong package "
          "(peer script in this file); goal ours/pkg <= 0.5 for all hands")
    print(f"hands answered differently: {differ}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
