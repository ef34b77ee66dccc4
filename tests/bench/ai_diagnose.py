"""Where ``ai:strong``'s hands are won and lost (issue 7; session 5, Yangzhou).

Run by hand, not a test: ``python tests/bench/ai_diagnose.py VARIANT SEEDS HANDS [SEATS]``,
e.g. ``python tests/bench/ai_diagnose.py yangzhou 2,3 400`` (about a minute per 800 hands).
Plays ``sim``'s loop itself and after every discard measures each seat's 13-tile hand:

- shape-ready (any wait) / legal-ready (a wait the variant's scorer lets win, e.g. >= 15 fan),
  the turn it first gets there, the unseen copies of its legal waits, and what became of
  the hand (won / another seat won / exhaustive draw);
- the plan the ``ai:strong`` model would steer that hand toward (the plan with the highest
  ``P(win) · u(value)`` among those :meth:`LevelBot._gate` keeps — the same evaluator for
  every seat), its distance, and the model's ``P(win)`` for it: per plan family and
  distance, the mean predicted ``P(win)`` against the share of those turns whose hand was
  later won *with that family's pattern* (policy-dependent: a plan given up counts as a
  miss);
- the nearest valued plan's distance: how often a seat's own discard takes it farther, and
  why for the strong seat (its defence chose another discard / a discard after a claim /
  the plan model chose it);
- pung claims offered and taken; the big patterns of each seat class's wins.

The strong seat is seat 1 in the default seating; "easy" figures are per seat, pooled.
"""
import os
import statistics as st
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, os.environ.get('REPO') or str(Path(__file__).resolve().parents[2]))
from mahjong_tui.variant import load_variant
from mahjong_tui.engine import Table
from mahjong_tui.ai import make_bot
from mahjong_tui.ai.player import _Decision
from mahjong_tui.ai.shapeops import HandTables
from mahjong_tui import tiles as T

vid = sys.argv[1]; seeds = [int(x) for x in sys.argv[2].split(',')]; N = int(sys.argv[3])
seats_spec = (sys.argv[4] if len(sys.argv) > 4 else 'ai:strong,ai:easy,ai:easy,ai:easy').split(',')
v = load_variant(vid)
shape = v.hand_shape

def unseen_for(table, s):
    vis = list(table.hands[s])
    for o in range(4):
        for m in table.melds[o]:
            for t in m.tiles: vis[t] += 1
        for t, c in table.ponds[o]:
            if not c: vis[t] += 1
    return [max(0, v.copies_of(k) - vis[k]) if k in v.kinds else 0 for k in range(T.NUM_KINDS)]

def plan_label(ev_bot, table, s):
    view = table.view(s)
    dec = _Decision(ev_bot, view)
    counts = list(table.hands[s]); melds = dec.melds; declared = len(melds)
    ht = HandTables(ev_bot.ops, counts, declared)
    floor, gated = ev_bot._gate(dec, counts, melds, ht)
    active = ev_bot._nearest_plans(gated, counts, declared, ht, melds, None)
    best = None
    for p, vs, vd, dd, dmin, stt in active:
        if p.name == floor: continue
        terms = ev_bot._ev_terms(dec, p, vs, vd, melds)
        if terms is None: continue
        d = dd[None]
        acc = ev_bot._acceptance(p, counts, declared, ht, None, d, dec.unseen, melds)
        ev = ev_bot._ev_plan(dec, terms, d, acc, dec.L) if d > 0 else 0.0
        key = (ev, -d)
        if best is None or key > best[0]:
            best = (key, p.name, d, ev / terms[0] if terms[0] > 0 else 0.0)
    mind = min((r[3] for r in gated if r[0].name != floor), default=99)
    return (best[1], best[2], best[3]) if best else (None, 99, 0), mind

agg = defaultdict(list)
C = Counter()
patt = {0: Counter(), 1: Counter()}
winfan = {0: [], 1: []}
for seed in seeds:
    table = Table(v, seed, hands=N)
    bots = [make_bot(sp, v, i, seed) for i, sp in enumerate(seats_spec)]
    ev_bot = make_bot('ai:strong', v, 0, seed)
    strong = [i for i, sp in enumerate(seats_spec) if sp == 'ai:strong']
    seen = 0
    def new_hand():
        return {s: dict(turns=0, shape_ready=None, legal_ready=None, sub15=0, plans=[], live=None, lr_now=False,
                        pung_offer=0, pung_take=0, pung_pass_useful=0, legal_val=None, lr_first_plan=None, dist_hist=[]) for s in range(4)}
    H = new_hand(); hidx = table.hand_index
    while table.phase != 'match_over':
        seat = table.waiting_for()[0]
        view = table.lazy_view(seat)
        legal = table.legal_actions(seat)
        a = bots[seat].choose(view, legal)
        kinds = {x.kind for x in legal}
        if 'pung' in kinds and 'discard' not in kinds:
            H[seat]['pung_offer'] += 1
            if a.kind == 'pung': H[seat]['pung_take'] += 1
        defdrv = False
        after_claim = False
        if a.kind == 'discard' and seat in strong:
            dec = _Decision(bots[seat], view)
            cnt = dec.kn.hand[:]
            ds = sorted({x.tile for x in legal if x.kind == 'discard'})
            evs = bots[seat]._hand_ev(dec, cnt, dec.melds, dec.L, ds)
            bd = max(ds, key=lambda d: (evs.get(d, 0.0), -bots[seat]._isolation(cnt, d), -d))
            defdrv = evs.get(bd, 0) > evs.get(a.tile, 0) + 1e-12
            after_claim = view['drawn'] is None
        table.apply(a)
        if table.hand_index != hidx or table.phase == 'match_over':
            h = table.history[-1]
            winners = {w['seat']: w for w in h['winners']}
            for s in range(4):
                cls = 0 if s in strong else 1
                r = H[s]
                C[(cls, 'hands')] += 1
                if r['shape_ready'] is not None: C[(cls, 'shape_ready')] += 1
                if r['legal_ready'] is not None:
                    C[(cls, 'legal_ready')] += 1; agg[(cls, 'lr_turn')].append(r['legal_ready'])
                    agg[(cls, 'lr_live')].append(r['live'])
                    agg[(cls, 'lr_val')].append(r['legal_val'])
                    if s in winners: C[(cls, 'lr_won')] += 1
                    elif h['result'] == 'draw': C[(cls, 'lr_draw')] += 1
                    else: C[(cls, 'lr_lost')] += 1
                if r['sub15']: C[(cls, 'sub15_ever')] += 1
                if r['shape_ready'] is not None and r['legal_ready'] is None: C[(cls, 'shape_not_legal')] += 1
                C[(cls, 'pung_offer')] += r['pung_offer']; C[(cls, 'pung_take')] += r['pung_take']
                if s in winners:
                    w = winners[s]
                    C[(cls, 'wins')] += 1
                    C[(cls, 'selfdraw' if h['self_draw'] else 'discwin')] += 1
                    if h['discarder'] is not None:
                        C[(cls, 'disc_from_%d' % ((h['discarder'] - s) % 4))] += 1
                    big = [p['id'] for p in w['patterns'] if p['value'] >= 10]
                    patt[cls][','.join(sorted(big)) or 'small-only'] += 1
                    winfan[cls].append(w['value'])
                    if r['lr_first_plan'] is None: C[(cls, 'win_no_lr')] += 1
                else:
                    if h['result'] != 'draw': C[(cls, 'lost_other')] += 1
                    else: C[(cls, 'lost_draw')] += 1
                    if r['dist_hist']:
                        C[(cls, 'end_dist_%d' % min(r['dist_hist'][-1], 4))] += 1
                if r['plans']:
                    fam = lambda n: (n or 'none').split(':')[0]
                    names0 = [p[0] for p in r['plans']]
                    f6 = fam(names0[min(5, len(names0)-1)])
                    C[(cls, 'f6', f6)] += 1
                    if r['legal_ready'] is not None: C[(cls, 'f6lr', f6)] += 1
                    if s in winners: C[(cls, 'f6win', f6)] += 1
                    dh = r['dist_hist']
                    ups = sum(1 for x, y in zip(dh, dh[1:]) if y > x)
                    C[(cls, 'ups')] += ups
                    if ups: C[(cls, 'hands_with_up')] += 1
                if cls == 0 and r['plans']:
                    FAMPAT = {'suit_honours': ('mixed_suit',), 'straight': ('pure_straight', 'pure_dragon'), 'same_sequence': ('three_suits_same_sequence', 'four_shared_sequences'), 'suit': ('full_flush',), 'suit_triplets': ('pure_all_triplets',)}
                    wp = {p['id'] for p in winners[s]['patterns']} if s in winners else set()
                    for (nm_, d_, pw_) in r['plans']:
                        f_ = fam(nm_)
                        got = any(x in wp for x in FAMPAT.get(f_, ()))
                        C[('cal', f_, min(d_, 4), 'n')] += 1
                        C[('cal', f_, min(d_, 4), 'pred')] += pw_
                        C[('cal', f_, min(d_, 4), 'act')] += got
                    names = [p[0] for p in r['plans']]
                    sw = sum(1 for x, y in zip(names, names[1:]) if x != y)
                    agg[(0, 'switches')].append(sw)
                    # plan at turn 6 and final
                    C[('p6', names[min(5, len(names)-1)])] += 1
                    C[('pfin', names[-1])] += 1
                    if s in winners: C[('pwin', names[-1])] += 1
                    # committed at turn 6, kept to end?
                    if len(names) > 6:
                        C[('kept6', names[5] == names[-1])] += 1
            H = new_hand(); hidx = table.hand_index
            continue
        if a.kind == 'discard':
            s = seat; r = H[s]; r['turns'] += 1
            cnt = table.hands[s]; melds = table.melds[s]
            waits = shape.standard_waits(list(cnt), len(melds))
            cls = 0 if s in strong else 1
            (pname, pd, pval), mind = plan_label(ev_bot, table, s)
            r['plans'].append((pname, pd, pval))
            if r['dist_hist'] and mind > r['dist_hist'][-1] and cls == 0:
                C[('upcause', 'def' if defdrv else ('claim' if after_claim else 'ev'))] += 1
            if cls == 0 and defdrv: C[('defdrv',)] += 1
            r['dist_hist'].append(mind)
            if not waits or not any(max(ev_bot.model.exact(tuple(T.tiles_of(cnt)), tuple(melds), w, table.seat_wind(s), table.prevailing_wind)) > 0 for w in waits):
                if r['lr_now']:
                    C[(cls, 'lr_broken')] += 1
                    if defdrv: C[(cls, 'lr_broken_def')] += 1
                r['lr_now'] = False
            if waits:
                if r['shape_ready'] is None: r['shape_ready'] = r['turns']
                conc = tuple(T.tiles_of(cnt))
                lw = []
                for w in waits:
                    vs, vd = ev_bot.model.exact(conc, tuple(melds), w, table.seat_wind(s), table.prevailing_wind)
                    if vs > 0 or vd > 0: lw.append((w, max(vs, vd)))
                if lw:
                    r['lr_now'] = True
                    if r['legal_ready'] is None:
                        r['legal_ready'] = r['turns']
                        un = unseen_for(table, s)
                        r['live'] = sum(un[w] for w, _ in lw)
                        r['legal_val'] = max(x for _, x in lw)
                        r['lr_first_plan'] = pname
                else:
                    r['sub15'] += 1
print('seats', seats_spec, 'seeds', seeds, 'hands', N)
for cls, nm in ((0, 'strong'), (1, 'easy(per seat, pooled)')):
    n = C[(cls, 'hands')]
    print(f'== {nm}: hands {n}')
    def pc(k): return f'{100*C[(cls,k)]/n:.1f}%'
    print(' wins', pc('wins'), 'selfdraw', C[(cls,'selfdraw')], 'discwin', C[(cls,'discwin')], 'disc from +1/+2/+3:', C[(cls,'disc_from_1')], C[(cls,'disc_from_2')], C[(cls,'disc_from_3')])
    print(' shape_ready', pc('shape_ready'), 'legal_ready', pc('legal_ready'), 'shape_not_legal', pc('shape_not_legal'), 'ever sub15 ready', pc('sub15_ever'))
    lr = C[(cls,'legal_ready')]
    print(f" legal-ready -> won {C[(cls,'lr_won')]/lr:.3f} lost {C[(cls,'lr_lost')]/lr:.3f} draw {C[(cls,'lr_draw')]/lr:.3f}; wins without recorded ready {C[(cls,'win_no_lr')]}")
    print(' lr turn median', st.median(agg[(cls,'lr_turn')]), 'mean', round(st.mean(agg[(cls,'lr_turn')]),2), 'live mean', round(st.mean(agg[(cls,'lr_live')]),2), 'val median', st.median(agg[(cls,'lr_val')]))
    print(' pung offers/hand', round(C[(cls,'pung_offer')]/n,2), 'taken', round(C[(cls,'pung_take')]/n,2))
    print(' not won: other won', pc('lost_other'), 'draw', pc('lost_draw'), ' end dist (min real plan):', {d: pc('end_dist_%d'%d) for d in range(5)})
    print(' win fan median', st.median(winfan[cls]) if winfan[cls] else None, 'mean', round(st.mean(winfan[cls]),1) if winfan[cls] else None)
    tot = sum(patt[cls].values())
    print(' big patterns of wins:', [(k, f'{100*c/tot:.0f}%') for k, c in patt[cls].most_common(12)])
print('strong switches/hand mean', round(st.mean(agg[(0,'switches')]),2))
for key in ('p6', 'pfin', 'pwin'):
    items = sorted(((k[1], c) for k, c in C.items() if k[0] == key), key=lambda x: -x[1])
    print(key, items[:14])
print('kept plan from turn 6 to end', C[('kept6', True)], 'of', C[('kept6', True)] + C[('kept6', False)])

for cls in (0, 1):
    n = C[(cls,'hands')]
    print('class', cls, 'dist-ups per hand', round(C[(cls,'ups')]/n, 2), 'hands with up', round(C[(cls,'hands_with_up')]/n, 3))
    for f in ('suit_honours', 'straight', 'same_sequence', 'suit', 'suit_triplets', 'honours', 'none'):
        k = C[(cls,'f6',f)]
        if k: print(f'  f6 {f:14s} share {k/n:.3f} legal-ready {C[(cls,"f6lr",f)]/k:.3f} win {C[(cls,"f6win",f)]/k:.3f}')

print('strong up causes', {k[1]: c for k, c in C.items() if k[0] == 'upcause'}, 'defence-driven discards', C[('defdrv',)])

for f in ('suit_honours', 'straight', 'same_sequence', 'suit'):
    for d in range(5):
        n = C[('cal', f, d, 'n')]
        if n: print(f'cal {f:14s} d={d} n={n:5d} predicted {C[("cal", f, d, "pred")]/n:.3f} actual {C[("cal", f, d, "act")]/n:.3f}')

for cls in (0, 1):
    print('class', cls, 'legal-ready hands broken (a later discard leaves no legal wait):', C[(cls, 'lr_broken')], 'by defence:', C[(cls, 'lr_broken_def')], 'of legal-ready hands', C[(cls, 'legal_ready')])
