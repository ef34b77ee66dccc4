"""Benchmark of ``mahjong_tui.hand`` against the ``mahjong`` package (PyPI), same hands, same run.

Run by hand: ``python tests/bench/bench_hand.py [--hands N] [--seed S]``.  Not a test: it prints
figures and never asserts on time (DESIGN.md "Conventions").

For N random hands drawn from the 136-tile set and N near-winning hands (a random complete
hand with one or two tiles swapped), half 13 tiles and half 14, it times per hand:

- win check: ours ``HandShape.is_complete`` vs ``Agari.is_agari`` (14-tile hands);
- shanten over all forms: ours ``HandShape.shanten`` vs ``Shanten.calculate_shanten``;
- standard-form shanten: ours (``forms=("standard",)``) vs ``calculate_shanten_for_regular_hand``;
- all discards of a 14-tile hand: ours ``shanten_after_discards`` vs one package call per
  distinct tile.

"Warm" rows repeat the timed pass over the same hands so the lazy caches are filled; "cold"
rows are the first pass of a new ``HandShape`` (cache fills included).  Both count the same
work for the package, whose cost does not depend on a cache.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong.agari import Agari  # noqa: E402
from mahjong.shanten import Shanten  # noqa: E402

from mahjong_tui.hand import STANDARD, HandShape  # noqa: E402
from tests.helpers import from_package, package_melds_and_pair, package_random_hand  # noqa: E402


def _convert(c34: list[int]) -> tuple[list[int], list[int]]:
    return c34, from_package(c34)


def make_hands(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``n`` random hands as (package 34-array, our count array), alternately 13 and 14 tiles."""
    rng = random.Random(seed)
    return [_convert(package_random_hand(rng, 13 + i % 2)) for i in range(n)]


def make_near_hands(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``n`` near-winning hands: a random complete hand (chows and pungs) with one or two
    tiles swapped; alternately 13 tiles (one more dropped) and 14."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        c34 = package_melds_and_pair(rng)
        for _ in range(rng.choice((1, 2))):
            c34[rng.choice([k for k in range(34) if c34[k]])] -= 1
            c34[rng.randrange(34)] += 1
        if len(hands) % 2 == 0:
            c34[rng.choice([k for k in range(34) if c34[k]])] -= 1
        if max(c34) <= 4:
            hands.append(_convert(c34))
    return hands


def per_hand_us(fn, items) -> float:
    start = time.perf_counter()
    for x in items:
        fn(x)
    return (time.perf_counter() - start) / len(items) * 1e6


def package_discards(c34: list[int]) -> dict[int, int]:
    """The package's shanten after each distinct discard of a 14-tile hand."""
    out = {}
    for k, c in enumerate(c34):
        if c:
            c34[k] -= 1
            out[k] = Shanten.calculate_shanten(c34)
            c34[k] += 1
    return out


def measure(hands: list[tuple[list[int], list[int]]], warm: bool) -> list[tuple[str, float, float]]:
    """Rows (measure, ours µs/hand, package µs/hand) for one hand set, on fresh shapes."""
    ours_all = [o for _, o in hands]
    pkg_all = [p for p, _ in hands]
    ours14 = [o for p, o in hands if sum(p) == 14]
    pkg14 = [p for p in pkg_all if sum(p) == 14]
    discards, pkg_discards = ours14[:2000], pkg14[:2000]
    shape = HandShape()
    standard_only = HandShape(forms=(STANDARD,))
    if warm:   # fill the caches with exactly the hands timed below
        for o in ours_all:
            shape.shanten(o)
            standard_only.shanten(o)
        for o in ours14:
            shape.is_complete(o)
        for o in discards:
            shape.shanten_after_discards(o)
    return [
        ("win check (14 tiles)", per_hand_us(shape.is_complete, ours14), per_hand_us(Agari.is_agari, pkg14)),
        ("shanten, all forms", per_hand_us(shape.shanten, ours_all), per_hand_us(Shanten.calculate_shanten, pkg_all)),
        ("shanten, standard form", per_hand_us(standard_only.shanten, ours_all),
         per_hand_us(Shanten.calculate_shanten_for_regular_hand, pkg_all)),
        ("all discards of 14 tiles", per_hand_us(shape.shanten_after_discards, discards),
         per_hand_us(package_discards, pkg_discards)),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()

    sets = {"random": make_hands(args.hands, args.seed), "near-winning": make_near_hands(args.hands, args.seed)}
    print(f"{args.hands} hands per set (half 13 tiles, half 14), seed {args.seed}; "
          f"Python {sys.version.split()[0]}; µs per hand")
    print(f"{'hand set':13} {'measure':26} {'cache':5} {'ours':>8} {'mahjong':>8} {'ours/pkg':>9}")
    for set_name, hands in sets.items():
        for warm in (False, True):
            for name, ours_us, pkg_us in measure(hands, warm):
                print(f"{set_name:13} {name:26} {'warm' if warm else 'cold':5} {ours_us:8.2f} {pkg_us:8.2f} "
                      f"{ours_us / pkg_us:9.2f}")
        shape = HandShape()
        disagree = sum(shape.shanten(o) != Shanten.calculate_shanten(p) for p, o in hands)
        print(f"{set_name:13} shanten disagreements with the package: {disagree}")


if __name__ == "__main__":
    main()
