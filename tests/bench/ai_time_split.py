"""Where four ``ai:strong`` bots spend a hand (issue 7's speed goal; session 8).

Run by hand: ``python tests/bench/ai_time_split.py VARIANT HANDS`` (e.g. ``classic 40``): plays
``HANDS`` hands from seed 11 after 5 warm-up hands and prints hands/s, the share of the time in
bot decisions, in turn decisions, and in the turns whose discard is the tile just drawn — the
most a shortcut that skipped evaluating those could save.
"""
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("REPO") or str(Path(__file__).resolve().parents[2]))
import mahjong_tui.ai.player as P  # noqa: E402
from mahjong_tui import tiles as T  # noqa: E402
from mahjong_tui.sim import simulate  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402


def main() -> None:
    variant, hands = load_variant(sys.argv[1]), int(sys.argv[2])
    stats = {"turn": [0, 0.0], "drawn": [0, 0.0], "choose": [0, 0.0]}
    orig_turn, orig_choose = P.LevelBot._turn, P.LevelBot.choose

    def turn(self, view, legal):
        t = time.perf_counter()
        a = orig_turn(self, view, legal)
        el = time.perf_counter() - t
        stats["turn"][0] += 1
        stats["turn"][1] += el
        d = view.get("drawn")
        if d is not None and a.kind == "discard" and T.name(a.tile) == d:
            stats["drawn"][0] += 1
            stats["drawn"][1] += el
        return a

    def choose(self, view, legal):
        t = time.perf_counter()
        a = orig_choose(self, view, legal)
        stats["choose"][0] += 1
        stats["choose"][1] += time.perf_counter() - t
        return a

    P.LevelBot._turn, P.LevelBot.choose = turn, choose
    simulate(variant, 5, 7, ["ai:strong"] * 4)  # warm-up
    for k in stats:
        stats[k] = [0, 0.0]
    t0 = time.perf_counter()
    simulate(variant, hands, 11, ["ai:strong"] * 4)
    el = time.perf_counter() - t0
    (nt, tt), (nd, td), (_, tc) = stats["turn"], stats["drawn"], stats["choose"]
    print(f"{variant.id}: {hands / el:.1f} hands/s; decisions {tc:.2f} s of {el:.2f} s; turns {nt} ({tt:.2f} s); "
          f"discarding the tile just drawn {nd} ({100 * nd / max(1, nt):.0f} % of turns), "
          f"{td:.2f} s ({100 * td / el:.0f} % of all)")


if __name__ == "__main__":
    main()
