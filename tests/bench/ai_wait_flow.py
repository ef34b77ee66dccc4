"""How often the other seats throw a ready hand's wait, by public signs (issue 7, session 5).

Run by hand, not a test: ``python tests/bench/ai_wait_flow.py VARIANT SEEDS HANDS``, e.g.
``python tests/bench/ai_wait_flow.py yangzhou 2,3,4 400``.  One ``ai:strong`` (seat 1)
against three ``ai:easy``.  Whenever a seat's discard leaves it ready, each wait that may be
won on a discard is followed until that seat's next discard (one round of the others'
discards): its unseen copies and how many of them the other seats threw.  Printed per class
of the wait — honour / terminal / 2-8 / middle —, by the copies of it already in the ponds
(seen0/1/2+) and by its suit's share of the other seats' suited discards (low < 25 %,
high > 42 %, from 6 such discards on): thrown copies per unseen copy per round.
"""
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, os.environ.get('REPO') or str(Path(__file__).resolve().parents[2]))
from mahjong_tui.variant import load_variant
from mahjong_tui.engine import Table
from mahjong_tui.ai import make_bot
from mahjong_tui import tiles as T
v = load_variant(sys.argv[1]); seeds = [int(x) for x in sys.argv[2].split(',')]; N = int(sys.argv[3])
shape = v.hand_shape
acc = defaultdict(lambda: [0.0, 0.0])   # feature -> [copies exposed, copies discarded]
def vis_of(table, s):
    vis = list(table.hands[s]); pond_seen = [0]*T.NUM_KINDS
    for o in range(4):
        for m in table.melds[o]:
            for t in m.tiles: vis[t] += 1
        for t, c in table.ponds[o]:
            if not c: vis[t] += 1; pond_seen[t] += 1
    return vis, pond_seen
def cls_of(w):
    if T.is_honour(w): return 'honour'
    r = T.rank_of(w)
    return 'term' if r in (1, 9) else ('28' if r in (2, 8) else 'mid')
for seed in seeds:
    table = Table(v, seed, hands=N)
    bots = [make_bot(sp, v, i, seed) for i, sp in enumerate(['ai:strong','ai:easy','ai:easy','ai:easy'])]
    model = bots[0].model
    pending = {}  # seat -> list of (features, w, copies, discarded)
    hidx = table.hand_index
    while table.phase != 'match_over':
        seat = table.waiting_for()[0]
        a = bots[seat].choose(table.lazy_view(seat), table.legal_actions(seat))
        table.apply(a)
        if table.hand_index != hidx or table.phase == 'match_over':
            for s, recs in pending.items():
                for f, w, c, dcount in recs:
                    for ff in f: acc[ff][0] += c; acc[ff][1] += dcount
            pending = {}; hidx = table.hand_index; continue
        if a.kind != 'discard': continue
        t = a.tile
        for s, recs in pending.items():
            if s != seat:
                for r in recs:
                    if r[1] == t: r[3] += 1
        if seat in pending:
            for f, w, c, dcount in pending.pop(seat):
                for ff in f: acc[ff][0] += c; acc[ff][1] += dcount
        cnt = table.hands[seat]; melds = table.melds[seat]
        waits = shape.standard_waits(list(cnt), len(melds))
        if not waits: continue
        conc = tuple(T.tiles_of(cnt))
        vis, pond_seen = vis_of(table, seat)
        # suit flow of opponents' ponds
        sc = defaultdict(int); tot = 0
        for o in range(4):
            if o == seat: continue
            for x, c in table.ponds[o]:
                if T.is_suited(x): sc[T.suit_of(x)] += 1; tot += 1
        recs = []
        for w in waits:
            vs, vd = model.exact(conc, tuple(melds), w, table.seat_wind(seat), table.prevailing_wind)
            if vd <= 0: continue
            c = 4 - vis[w]
            if c <= 0: continue
            who = 'strong' if seat == 0 else 'easy'
            feats = [(who, 'all'), (who, cls_of(w)), (who, cls_of(w), 'seen%d' % min(pond_seen[w], 2))]
            if T.is_suited(w) and tot >= 6:
                share = sc[T.suit_of(w)] / tot
                b = 'low' if share < 0.25 else ('high' if share > 0.42 else 'mid')
                feats.append((who, 'suitflow', b))
                feats.append((who, cls_of(w), 'suitflow', b))
            recs.append([feats, w, c, 0])
        if recs: pending[seat] = recs
for k in sorted(acc, key=str):
    c, d = acc[k]
    print(k, f'copies {c:.0f} discarded {d:.0f} rate/copy/cycle {d/c:.3f}')
