"""The bots' distance of hands holding a zero tile against the engine's exact shanten (session 8).

Run by hand, not a test: ``python tests/bench/ai_zero.py [--variant uzje] [--hands 1000]
[--seed 1] [--zeros K]``.  Deals random hands from the variant's wall, keeping those that hold a zero
(G-UZ-11: a zero may be read as the honour or as rank 0 of a suit), and compares:

- 13 tiles: the bot's distance — the free plan's (standard form), and the least over the
  plans it steers by (free, seven pairs, thirteen orphans: its gate) — with the engine's
  exact shanten (``variant.hand_shape``: standard form, and the least over those forms);
- 14 tiles: the distance after each discard (``discard_distances`` of the free plan) with
  the engine's ``shanten_after_discards`` restricted to the standard form.

"physical" is the tables the bots used before session 8 (the zero only an honour), "bot" what
``LevelBot._tables`` gives now (:class:`mahjong_tui.ai.shapeops.ZeroHandTables`).  Prints how
many are too far / equal / too near, and the time per distance.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("REPO") or str(Path(__file__).resolve().parents[2]))
from mahjong_tui import tiles as T  # noqa: E402
from mahjong_tui.ai.player import LevelBot  # noqa: E402
from mahjong_tui.ai.plans import orphans_distance, pairs_from_hist, histogram  # noqa: E402
from mahjong_tui.ai.shapeops import HandTables  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402

FORMS = ("standard", "seven_pairs", "thirteen_orphans")


def deal(rng: random.Random, wall: list[int], n: int, zero: int, zeros: int = 0) -> list[int]:
    """A count array of ``n`` random tiles of ``wall`` holding at least one zero (exactly
    ``zeros`` if that is given)."""
    while True:
        tiles = rng.sample(wall, n)
        if (tiles.count(zero) == zeros) if zeros else (zero in tiles):
            c = [0] * T.NUM_KINDS
            for t in tiles:
                c[t] += 1
            return c


def tally(row: dict, key: str, got: int, exact: int) -> None:
    cell = row.setdefault(key, [0, 0, 0])
    cell[0 if got > exact else 1 if got == exact else 2] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="uzje")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--zeros", type=int, default=0, help="hands holding exactly this many zeros (default: any)")
    a = ap.parse_args()
    v = load_variant(a.variant)
    shape = v.hand_shape
    bot = LevelBot(v, 0, 0, "strong")
    if bot.zops is None:
        sys.exit(f"{a.variant}: the hand shape has no zero tile")
    zero = bot.zops.zero
    full = bot.full_mask
    wall = [k for k in v.kinds if k in bot.ops.unit_of for _ in range(v.copies_of(k))]
    rng = random.Random(a.seed)
    rows: dict = {}
    times = {"physical": 0.0, "bot": 0.0}
    worst = []

    def gate(ht, c) -> int:
        d = ht.distance(full)
        if "seven_pairs" in bot.forms:
            d = min(d, pairs_from_hist(histogram(c, bot.kinds), bot.allow_quads))
        if "thirteen_orphans" in bot.forms:
            d = min(d, orphans_distance(c, bot.orphan_kinds))
        return d

    for _ in range(a.hands):
        c = deal(rng, wall, 13, zero, a.zeros)
        by_form = shape.shanten_by_form(c, 0)
        std = by_form["standard"]
        best = min(s for f, s in by_form.items() if f in FORMS)
        for name, make in (("physical", lambda c=c: HandTables(bot.ops, c, 0)), ("bot", lambda c=c: bot._tables(c, 0))):
            t0 = time.perf_counter()
            ht = make()
            d = ht.distance(full)
            times[name] += time.perf_counter() - t0
            tally(rows, f"13 tiles, standard form: {name}", d, std)
            tally(rows, f"13 tiles, least over the plans' forms: {name}", gate(ht, c), best)
            if name == "bot" and d != std:
                worst.append((d - std, T.format_counts(c)))
        c = deal(rng, wall, 14, zero, a.zeros)
        exact = {}
        for k in bot.kinds:
            if c[k]:
                c[k] -= 1
                exact[k] = shape.shanten_by_form(c, 0)["standard"]
                c[k] += 1
        for name, make in (("physical", lambda c=c: HandTables(bot.ops, c, 0)), ("bot", lambda c=c: bot._tables(c, 0))):
            dd = make().discard_distances(full)
            for k, e in exact.items():
                tally(rows, f"14 tiles, each discard (standard form): {name}", dd[k], e)
    held = f"exactly {a.zeros} zeros" if a.zeros else "a zero"
    print(f"{a.variant}: {a.hands} hands of 13 and of 14 tiles holding {held} (seed {a.seed})")
    print(f"{'':58s} {'too far':>8s} {'equal':>8s} {'too near':>8s}")
    for key, (far, eq, near) in rows.items():
        print(f"{key:58s} {far:8d} {eq:8d} {near:8d}")
    for name, t in times.items():
        print(f"time per 13-tile distance ({name}): {1e6 * t / a.hands:.1f} µs")
    if worst:
        print("bot distance off the exact (first 10):")
        for diff, hand in worst[:10]:
            print(f"  {diff:+d}  {hand}")


if __name__ == "__main__":
    main()
