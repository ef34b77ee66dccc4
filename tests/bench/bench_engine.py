"""Benchmark: the engine and `analyze` (run by hand: ``python tests/bench/bench_engine.py``).

Prints
- ``analyze`` hands/s on random 13- and 14-tile hands, next to the ``mahjong`` package
  (PyPI) computing shanten + waits for the same 13-tile hands in the same run;
- ``sim`` hands/s for four baseline bots per variant, next to a random-legal-action policy
  (the engine's own cost with trivial decisions) in the same run.

Goal (engine issue): ≥ 200 hands/s for four baseline bots in ``sim``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong_tui import tiles as T  # noqa: E402
from mahjong_tui.cli import analyze_hand  # noqa: E402
from mahjong_tui.engine import Table  # noqa: E402
from mahjong_tui.sim import simulate  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402


def random_hands(n: int, size: int, rng: random.Random) -> list[list[int]]:
    v = load_variant("classic")
    wall = [t for t in v.all_tiles() if not T.is_bonus(t)]
    return [sorted(rng.sample(wall, size)) for _ in range(n)]


def bench_analyze(n: int = 2000) -> None:
    v = load_variant("classic")
    rng = random.Random(1)
    for size in (13, 14):
        hands = [T.format_tiles(h) for h in random_hands(n, size, rng)]
        t0 = time.perf_counter()
        for h in hands:
            analyze_hand(v, h)
        dt = time.perf_counter() - t0
        print(f"analyze {size} tiles: {n / dt:8.0f} hands/s")
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        print("  (the mahjong package is not installed: no comparison)")
        return
    sh = Shanten()
    hands = random_hands(n, 13, random.Random(1))

    def to34(h):
        a = [0] * 34
        for t in h:
            s, r = T.suit_of(t), T.rank_of(t)
            if s >= 0:
                a[{2: 0, 0: 9, 1: 18}[s] + r - 1] += 1
            else:
                a[27 + (T.EAST, T.SOUTH, T.WEST, T.NORTH, T.WHITE, T.GREEN, T.RED).index(t)] += 1
        return a

    arrs = [to34(h) for h in hands]
    t0 = time.perf_counter()
    for a in arrs:
        s = sh.calculate_shanten(a)
        if s == 0:
            for k in range(34):
                if a[k] < 4:
                    a[k] += 1
                    sh.calculate_shanten(a)
                    a[k] -= 1
    dt_pkg = time.perf_counter() - t0
    texts = [T.format_tiles(h) for h in hands]
    t0 = time.perf_counter()
    for h in texts:
        analyze_hand(v, h)
    dt_ours = time.perf_counter() - t0
    print(f"13-tile shanten+waits: ours {n / dt_ours:8.0f} hands/s, mahjong package {n / dt_pkg:8.0f} hands/s "
          f"(ratio ours/package time {dt_ours / dt_pkg:.2f})")


def bench_sim(hands: int = 200) -> None:
    """``sim`` hands/s for four ``ai:baseline`` bots: as a user runs it (a fresh process, cold
    hand-analysis caches) and warm (in this process, after a first run); then where one decision
    goes (µs: legal actions + apply, building the view, the bot), replaying the warm game; and a
    random-legal-action policy (the engine with trivial decisions) for scale."""
    import subprocess

    seats = ["ai:baseline"] * 4
    for vid in ("classic", "yuxi", "yangzhou"):
        v = load_variant(vid)
        out = subprocess.run([sys.executable, "-m", "mahjong_tui", "sim", "--variant", vid, "--hands", str(hands),
                              "--seed", "1", "--seats", ",".join(seats), "--json"],
                             capture_output=True, text=True, check=True,
                             cwd=str(Path(__file__).resolve().parents[2])).stdout
        import json

        cold = json.loads(out)["hands_per_s"]
        simulate(v, hands, 1, seats)  # warm the caches
        warm = simulate(v, hands, 1, seats)
        # the same game, decision by decision: where the time goes
        from mahjong_tui.ai import make_bot

        table, bots = Table(v, 1, hands=hands), [make_bot(s, v, i, 1) for i, s in enumerate(seats)]
        t_view = t_bot = t_apply = 0.0
        n = 0
        while table.phase != "match_over":
            seat = table.waiting_for()[0]
            t0 = time.perf_counter()
            legal = table.legal_actions(seat)
            t1 = time.perf_counter()
            view = table.lazy_view(seat)  # as sim does
            t2 = time.perf_counter()
            action = bots[seat].choose(view, legal)
            t3 = time.perf_counter()
            table.apply(action)
            t4 = time.perf_counter()
            t_apply += (t1 - t0) + (t4 - t3)
            t_view += t2 - t1
            t_bot += t3 - t2
            n += 1
        rng = random.Random(1)
        table = Table(v, 1, hands=hands)
        t0 = time.perf_counter()
        while table.phase != "match_over":
            seat = table.waiting_for()[0]
            table.lazy_view(seat)
            table.apply(rng.choice(table.legal_actions(seat)))
        dt = time.perf_counter() - t0
        print(f"sim {vid:<9} four baseline bots: {cold:7.1f} hands/s fresh process, {warm.hands_per_s:7.1f} warm; "
              f"{n / hands:5.1f} decisions/hand, per decision µs: legal+apply {1e6 * t_apply / n:5.1f}, "
              f"view {1e6 * t_view / n:5.1f}, bot {1e6 * t_bot / n:5.1f}; random legal actions {hands / dt:7.1f} hands/s")


if __name__ == "__main__":
    bench_analyze()
    bench_sim(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
