"""Where four ``ai:strong`` bots spend a hand (issue 7's speed goal; session 8).

Run by hand: ``python tests/bench/ai_time_split.py VARIANT HANDS`` (e.g. ``classic 40``): plays
``HANDS`` hands from seed 11 after 5 warm-up hands and prints hands/s, the share of the time in
bot decisions, in turn decisions, and in the turns whose discard is the tile just drawn — the
most a shortcut that skipped evaluating those could save.
"""
import sys, time
import mahjong_tui.ai.player as P
from mahjong_tui.sim import simulate
from mahjong_tui.variant import load_variant
from mahjong_tui import tiles as T
v = load_variant(sys.argv[1]); n = int(sys.argv[2])
stats = {"turn": [0, 0.0], "tsumo": [0, 0.0], "choose": [0, 0.0]}
orig_turn, orig_choose = P.LevelBot._turn, P.LevelBot.choose
def turn(self, view, legal):
    t = time.perf_counter(); a = orig_turn(self, view, legal); el = time.perf_counter() - t
    stats["turn"][0] += 1; stats["turn"][1] += el
    d = view.get("drawn")
    if d is not None and a.kind == "discard" and T.name(a.tile) == d:
        stats["tsumo"][0] += 1; stats["tsumo"][1] += el
    return a
def choose(self, view, legal):
    t = time.perf_counter(); a = orig_choose(self, view, legal)
    stats["choose"][0] += 1; stats["choose"][1] += time.perf_counter() - t
    return a
P.LevelBot._turn = turn; P.LevelBot.choose = choose
simulate(v, 5, 7, ["ai:strong"] * 4)
for k in stats: stats[k] = [0, 0.0]
t0 = time.perf_counter(); r = simulate(v, n, 11, ["ai:strong"] * 4); el = time.perf_counter() - t0
print(v.id, f"{n/el:.1f} h/s; all decisions {stats['choose'][1]:.2f}s of {el:.2f}s; turns {stats['turn'][0]} {stats['turn'][1]:.2f}s; tsumogiri {stats['tsumo'][0]} ({100*stats['tsumo'][0]/stats['turn'][0]:.0f}%) {stats['tsumo'][1]:.2f}s ({100*stats['tsumo'][1]/el:.0f}% of all)")
