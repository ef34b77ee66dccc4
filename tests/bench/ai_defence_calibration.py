"""Is the defence's readiness estimate calibrated? (issue 7, session 5)

Run by hand, not a test: ``python tests/bench/ai_defence_calibration.py VARIANT SEEDS HANDS``,
e.g. ``python tests/bench/ai_defence_calibration.py yangzhou 2,3 300``.  One ``ai:strong``
(seat 1) against three ``ai:easy``.  At each of the strong seat's turns, for each other seat:
the readiness :class:`~mahjong_tui.ai.defence.Defence` gives it (0 when it is not a threat)
against whether that seat really is ready with a legal win on a discard (its waits asked of
the scorer).  Printed by bucket of the estimate, overall and by the seat's declared melds.
"""
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, os.environ.get('REPO') or str(Path(__file__).resolve().parents[2]))
from mahjong_tui.variant import load_variant
from mahjong_tui.engine import Table
from mahjong_tui.ai import make_bot
from mahjong_tui.ai.player import _Decision
from mahjong_tui import tiles as T
v = load_variant(sys.argv[1]); seeds = [int(x) for x in sys.argv[2].split(',')]; N = int(sys.argv[3])
shape = v.hand_shape
B = defaultdict(lambda: [0, 0.0, 0])
for seed in seeds:
    table = Table(v, seed, hands=N)
    bots = [make_bot(sp, v, i, seed) for i, sp in enumerate(['ai:strong','ai:easy','ai:easy','ai:easy'])]
    model = bots[0].model
    while table.phase != 'match_over':
        seat = table.waiting_for()[0]
        legal = table.legal_actions(seat)
        view = table.lazy_view(seat)
        if seat == 0 and any(a.kind == 'discard' for a in legal):
            dec = _Decision(bots[0], view)
            d = dec.defence_for(False)
            rs = {o.seat: r for o, r, val, info in (d.threats if d else [])}
            for o in (1, 2, 3):
                cnt = table.hands[o]; melds = table.melds[o]
                waits = shape.standard_waits(list(cnt), len(melds))
                ready = False
                if waits:
                    conc = tuple(T.tiles_of(cnt))
                    ready = any(model.exact(conc, tuple(melds), w, table.seat_wind(o), table.prevailing_wind)[1] > 0 for w in waits)
                r = rs.get(o, 0.0)
                b = next(x for x in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 2) if r < x)
                nm = min(len(melds), 3)
                for key in (('r<', b), ('melds', nm, 'r<', b)):
                    B[key][0] += 1; B[key][1] += r; B[key][2] += ready
        table.apply(bots[seat].choose(view, legal))
for k in sorted(B, key=str):
    n, sr, act = B[k]
    print(k, f'n={n} predicted {sr/n:.3f} actual ready {act/n:.3f}')
