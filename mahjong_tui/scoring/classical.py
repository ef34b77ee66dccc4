"""The ``classical`` scoring scheme: Classical Chinese as the DMJL and the BMJA play it.

Rule source: ``assets/rules/dmjl.md`` and ``assets/rules/bmja.md`` (the rule values KDE's
Kajongg publishes for its "Classical Chinese DMJL" and "Classical Chinese BMJA" rulesets,
restated in our own words), ``variants/dmjl.toml`` and ``variants/bmja.toml``.

The patterns are the variant file's ``[scoring.patterns]`` (detectors of the pattern library,
:mod:`mahjong_tui.scoring.patterns`, and of :mod:`mahjong_tui.scoring.patterns_classical`),
valued in ``[scoring.points]``, ``[scoring.doublings]`` and ``[scoring.limits]``; this module
reads the hand and combines what they find:

- a winner's hand is read every way it is complete: four melds and a pair with at most
  ``scoring.max_chows`` chows (each placement of the winning tile; the group a winning discard
  completes counts as exposed), or a special hand the file values (a pattern with detector
  ``special_form``; Squirming Snake only as a standard hand); the best reading is kept (highest
  total before the cap, then most points);
- every player's hand is scored (``scoring.score_losers``): a non-winner's hand is read as the
  melds and pairs of his concealed tiles that score best, with the patterns that apply to
  every player (``applies_to = "every_player"``);
- total = points × 2^doublings, capped at ``scoring.limit`` unless ``scoring.roof_off``; a
  pattern valued in ``[scoring.limits]`` (a fraction of the limit) makes the hand score that
  fraction of the limit instead, when it is a whole limit or more than the points give (the
  largest such pattern counts).
"""

from __future__ import annotations

from functools import lru_cache

from .. import tiles as T
from ..melds import CHOW, CONCEALED_KONG, KONG, PUNG
from . import patterns_classical  # noqa: F401  (registers the detectors the variant files name)
from .common import Arrangement, Group
from .context import HandContext, PatternScore, ScoreResult
from .patterns import Hand, detect, patterns_of, scores

PAIR = "pair"

#: Ids come from the variant files' ``[scoring.patterns]``; the scheme detects none by itself.
PATTERN_IDS: frozenset[str] = frozenset()

MAJORS = tuple([T.tile(s, r) for s in "tsm" for r in (1, 9)] + list(T.WINDS) + list(T.DRAGONS))
#: Special forms that are read as a standard hand only (Kajongg's Squirming Snake)
_STANDARD_ONLY = ("squirming_snake",)


_VALUES: dict = {}


def _values(variant) -> "_Values":
    """:class:`_Values` of ``variant``, kept per variant."""
    hit = _VALUES.get(id(variant.rules))
    if hit is None or hit[0] is not variant.rules:
        if len(_VALUES) > 64:
            _VALUES.clear()
        hit = _VALUES[id(variant.rules)] = (variant.rules, _Values(variant))
    return hit[1]


class _Values:
    """The combiner's settings of a variant."""

    def __init__(self, variant):
        sc = variant.scoring
        self.limit = float(sc.get("limit", 0))
        self.roof_off = bool(sc.get("roof_off", False))
        self.max_chows = int(sc.get("max_chows", 4))
        self.forms = tuple(s.params.form for s in patterns_of(variant)
                           if s.detector == "special_form" and _valued(variant, s.id))


def _valued(variant, pid: str) -> bool:
    sc = variant.scoring
    return any(pid in (sc.get(t) or {}) for t in ("points", "doublings", "limits"))


class _Score:
    """Points, doublings and the largest limit of a breakdown, totalled: points × 2^doublings
    (capped unless the roof is off), or the limit share where that wins."""

    def __init__(self, items: list[PatternScore], vals: _Values):
        self.points = sum(p.total for p in items if p.kind == "points")
        self.doublings = int(sum(p.total for p in items if p.kind == "doublings"))
        lims = [p for p in items if p.kind == "limits"]
        top = max(lims, key=lambda p: p.value) if lims else None
        raw = self.points * 2 ** self.doublings
        capped = raw if vals.roof_off or not vals.limit else min(raw, vals.limit)
        if top is not None and (top.value >= 1 or top.value * vals.limit > capped):
            self.items = [PatternScore(top.id, top.value, 1, "limits", top.description)]
            self.points = self.doublings = 0
            self.total = self.raw = top.value * vals.limit
        else:
            self.items = [p for p in items if p.kind != "limits"]
            self.raw = raw
            self.total = capped


# ----------------------------------------------------------------------------------------
# readings of a hand
# ----------------------------------------------------------------------------------------
@lru_cache(maxsize=8192)
def _decompose(counts: tuple[int, ...], melds: int, pair: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way ``counts`` (tile code → copies) is exactly ``melds`` pungs/chows and (``pair``)
    one pair: tuples of (kind, lowest tile)."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return ((),) if melds == 0 and not pair else ()
    out = []
    c = list(counts)
    if c[i] >= 3 and melds:
        c[i] -= 3
        out += [((PUNG, i),) + r for r in _decompose(tuple(c), melds - 1, pair)]
        c[i] += 3
    if c[i] >= 2 and pair:
        c[i] -= 2
        out += [((PAIR, i),) + r for r in _decompose(tuple(c), melds, False)]
        c[i] += 2
    if melds and T.is_suited(i) and T.rank_of(i) <= 7 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out += [((CHOW, i),) + r for r in _decompose(tuple(c), melds - 1, pair)]
    return tuple(out)


def _partial(counts: tuple[int, ...]):
    """Every way to take pungs and pairs out of ``counts`` (the rest left over)."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        yield ()
        return
    c = list(counts)
    for size, kind in ((3, PUNG), (2, PAIR)):
        if c[i] >= size:
            c[i] -= size
            for r in _partial(tuple(c)):
                yield ((kind, i),) + r
            c[i] += size
    c[i] -= 1
    yield from _partial(tuple(c))


def _group(kind: str, t: int, *, exposed: bool = False, win: bool = False) -> Group:
    n = {PUNG: 3, KONG: 4, PAIR: 2}.get(kind)
    tiles = (t,) * n if n else (t, t + 1, t + 2)
    return Group(kind, tiles, not exposed, False, None, win)


def _declared(ctx: HandContext, win_meld: int | None) -> list[Group]:
    return [Group(m.kind, tuple(sorted(m.tiles)), bool(m.concealed), True, m.kong_type, i == win_meld)
            for i, m in enumerate(ctx.melds)]


def _all_tiles(ctx: HandContext) -> list[int]:
    return list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]


def _standard(ctx: HandContext, max_chows: int) -> list[list[Group]]:
    """Every standard reading of a winner's hand, with the winning tile placed in each group
    that can hold it (a discard makes that group exposed)."""
    w = ctx.winning_tile
    need = 4 - len(ctx.melds)
    if need < 0 or len(ctx.concealed) != 3 * need + 2:
        return []
    win_meld = None
    if w is not None and w not in ctx.concealed:
        win_meld = next((i for i, m in enumerate(ctx.melds) if w in m.tiles), None)
    decl = _declared(ctx, win_meld)
    out = []
    for dec in _decompose(tuple(T.counts_of(ctx.concealed)), need, True):
        if sum(1 for g in decl if g.kind == CHOW) + sum(1 for k, _ in dec if k == CHOW) > max_chows:
            continue
        if w is None or win_meld is not None:
            out.append(decl + [_group(k, t) for k, t in dec])
            continue
        seen = set()
        for j, (k, t) in enumerate(dec):
            if (t != w if k != CHOW else not t <= w <= t + 2) or (k, t) in seen:
                continue
            seen.add((k, t))
            out.append(decl + [_group(k2, t2, exposed=(i == j and not ctx.self_draw), win=(i == j))
                               for i, (k2, t2) in enumerate(dec)])
    return out


def _one_suit(tiles) -> bool:
    return len({T.suit_of(t) for t in tiles if T.is_suited(t)}) == 1


def _gates_extra(tiles: list[int]) -> int | None:
    """The extra rank of 1112345678999 + one (one suit, no honours), or None."""
    if any(not T.is_suited(t) for t in tiles) or not _one_suit(tiles):
        return None
    ranks = [T.rank_of(t) for t in tiles]
    if ranks.count(1) != 3 or ranks.count(9) != 3 or any(r not in ranks for r in range(2, 9)):
        return None
    extra = [r for r in range(2, 9) if ranks.count(r) == 2]
    return extra[0] if len(extra) == 1 else None


def _triple_knitting(tiles: list[int]) -> bool:
    c = T.counts_of(tiles)
    triples = 0
    for r in range(1, 10):
        while all(c[T.tile(s, r)] for s in "tsm"):
            for s in "tsm":
                c[T.tile(s, r)] -= 1
            triples += 1
    rest = [t for t in range(len(c)) for _ in range(c[t])]
    return (triples == 4 and len(rest) == 2 and T.suit_of(rest[0]) != T.suit_of(rest[1])
            and T.rank_of(rest[0]) == T.rank_of(rest[1]))


def _knitting(tiles: list[int]) -> bool:
    suits = sorted({T.suit_of(t) for t in tiles})
    if len(suits) != 2:
        return False
    a, b = ([sorted(T.rank_of(t) for t in tiles if T.suit_of(t) == s) for s in suits])
    return a == b and len(a) == 7


def special_forms(ctx: HandContext) -> frozenset[str]:
    """The special hands (dmjl.md, bmja.md "Winning hands") the 14 tiles of ``ctx`` make, by
    form name; all but Squirming Snake need every tile concealed, undeclared."""
    return _special_forms(ctx.concealed, tuple(m.tiles for m in ctx.melds), ctx.winning_tile)


@lru_cache(maxsize=16384)
def _special_forms(concealed: tuple[int, ...], meld_tiles: tuple[tuple[int, ...], ...],
                   winning: int | None) -> frozenset[str]:
    tiles = list(concealed) + [t for m in meld_tiles for t in m]
    if len(concealed) + 3 * len(meld_tiles) != 14 or any(T.is_bonus(t) for t in tiles):
        return frozenset()
    out = set()
    ranks = [T.rank_of(t) for t in tiles if T.is_suited(t)]
    if (all(T.is_suited(t) for t in tiles) and _one_suit(tiles) and ranks.count(1) >= 3 and ranks.count(9) >= 3
            and len([r for r in (2, 5, 8) if ranks.count(r) == 2]) == 1 and len(set(ranks)) == len(ranks) - 5):
        out.add("squirming_snake")
    if meld_tiles:
        return frozenset(out)
    kinds = set(tiles)
    if kinds == set(MAJORS):
        out.add("thirteen_orphans")
    extra = _gates_extra(tiles)
    if extra is not None:
        out.add("gates_of_heaven")
        if winning is not None and T.rank_of(winning) == extra:
            out.add("nine_gates")
    honours = sorted(t for t in tiles if T.is_honour(t))
    suited = [t for t in tiles if T.is_suited(t)]
    if honours == sorted(T.WINDS) and _one_suit(suited) and sorted(map(T.rank_of, suited)) == [1, 1, 2, 3, 4, 5, 6, 7, 8, 9]:
        out.add("wriggling_snake")
    if not honours:
        if _triple_knitting(tiles):
            out.add("triple_knitting")
        if _knitting(tiles):
            out.add("knitting")
    if all(T.is_honour(t) or T.is_terminal(t) for t in tiles) and len(kinds) == 7 and all(
            tiles.count(k) == 2 for k in kinds):
        out.add("all_pair_honours")
    return frozenset(out)


def _readings(ctx: HandContext, vals: _Values) -> list[Arrangement]:
    """Every way a winner's hand is complete in this variant."""
    out = [Arrangement("standard", tuple(g)) for g in _standard(ctx, vals.max_chows)]
    forms = special_forms(ctx) if vals.forms else frozenset()
    out += [Arrangement(f, ()) for f in vals.forms if f in forms and f not in _STANDARD_ONLY]
    return out


# ----------------------------------------------------------------------------------------
# questions the detectors ask
# ----------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _kinds() -> tuple[int, ...]:
    return tuple([T.tile(s, r) for s in "tsm" for r in range(1, 10)] + list(T.WINDS) + list(T.DRAGONS))


def _complete(ctx: HandContext, vals: _Values) -> bool:
    """Whether a 14-tile hand is a win in some reading (cheap: the standard form first)."""
    if _standard(ctx, vals.max_chows):
        return True
    if not vals.forms or ctx.melds:
        return False
    return any(f in special_forms(ctx) for f in vals.forms if f not in _STANDARD_ONLY)


_WAITS: dict = {}


def waits_before_win(variant, ctx: HandContext) -> int:
    """How many kinds of tile would have completed the hand before its winning tile (the
    group the winning discard completed goes back to the concealed tiles)."""
    key = (id(variant.rules), ctx.concealed, tuple(m.tiles for m in ctx.melds), ctx.winning_tile)
    hit = _WAITS.get(key)
    if hit is not None and hit[0] is variant.rules:
        return hit[1]
    n = _count_waits(variant, ctx)
    if len(_WAITS) > 4096:
        _WAITS.clear()
    _WAITS[key] = (variant.rules, n)
    return n


def _count_waits(variant, ctx: HandContext) -> int:
    vals = _values(variant)
    w = ctx.winning_tile
    concealed = list(ctx.concealed)
    melds = list(ctx.melds)
    if w in concealed:
        concealed.remove(w)
    else:
        ts = list(melds.pop(next(i for i, m in enumerate(melds) if w in m.tiles)).tiles)
        ts.remove(w)
        concealed += ts
    held = concealed + [t for m in melds for t in m.tiles]
    n = 0
    for t in _kinds():
        if held.count(t) >= 4:
            continue
        c2 = HandContext(tuple(sorted(concealed + [t])), tuple(melds), ctx.bonus, t, True,
                         ctx.seat_wind, ctx.prevailing_wind)
        n += _complete(c2, vals)
    return n


_CALLING: dict = {}


def calling_for(variant, ctx: HandContext) -> frozenset[str]:
    """The pattern ids a win on one more tile would score a waiting (13-tile) hand by: the
    limit of each such win, or its patterns when it is no limit hand."""
    if len(ctx.concealed) + 3 * len(ctx.melds) != 13:
        return frozenset()
    key = (id(variant.rules), ctx.concealed, ctx.melds, ctx.bonus, ctx.seat_wind, ctx.prevailing_wind)
    hit = _CALLING.get(key)
    if hit is None or hit[0] is not variant.rules:
        if len(_CALLING) > 4096:
            _CALLING.clear()
        hit = _CALLING[key] = (variant.rules, _calling_for(variant, ctx))
    return hit[1]


def _calling_for(variant, ctx: HandContext) -> frozenset[str]:
    vals = _values(variant)
    held = _all_tiles(ctx)
    found: set[str] = set()
    for t in _kinds():
        if held.count(t) >= 4:
            continue
        win = HandContext(tuple(sorted(ctx.concealed + (t,))), ctx.melds, ctx.bonus, t, True,
                          ctx.seat_wind, ctx.prevailing_wind)
        if not _complete(win, vals):
            continue
        best = _best_win(variant, win)
        if best is not None:
            found.update(p.id for p in best[1].items)
    return frozenset(found)


# ----------------------------------------------------------------------------------------
# winner and non-winner
# ----------------------------------------------------------------------------------------
def _best_win(variant, ctx: HandContext):
    """The best reading of a winner's hand: (key, score, arrangement), or None."""
    vals = _values(variant)
    best = None
    for arr in _readings(ctx, vals):
        sc = _Score(scores(variant, detect(variant, Hand(variant, ctx, arr))), vals)
        key = (sc.raw, sc.points)
        if best is None or key > best[0]:
            best = (key, sc, arr)
    return best


def evaluate(variant, ctx: HandContext) -> ScoreResult:
    """Whether ``ctx`` is a legal win and what it is worth (points after doublings, the limit
    or the roof).  Not complete: ``winning`` False, value 0, with the reason."""
    unit = variant.scoring.get("unit", "points")
    best = _best_win(variant, ctx)
    if best is None:
        chows = _values(variant).max_chows
        return ScoreResult(False, 0, unit, reason=f"not a complete hand (four melds and a pair with at most "
                                                   f"{chows} chow{'s' if chows != 1 else ''}, or a special hand)")
    _, sc, arr = best
    res = ScoreResult(True, sc.total, unit, arr.form, tuple(sc.items), decomposition=_text(arr.groups),
                      winning_group=next((i for i, g in enumerate(arr.groups) if g.has_winning_tile), None))
    from .settlement import payments_for_score

    return ScoreResult(True, sc.total, unit, arr.form, res.patterns, payments=payments_for_score(variant, res, ctx),
                       decomposition=res.decomposition, winning_group=res.winning_group)


def _text(groups) -> tuple[str, ...]:
    out = []
    for g in groups:
        body = T.format_tiles(g.tiles)
        out.append(f"[{body}]" if g.kong_type == CONCEALED_KONG else f"({body})" if not g.concealed else body)
    return tuple(out)


def score_loser(variant, ctx: HandContext) -> ScoreResult:
    """A non-winner's hand: the patterns that apply to every player, on the reading of his
    concealed tiles (pungs and pairs) that scores best (``winning`` False, ``value`` his score)."""
    vals = _values(variant)
    unit = variant.scoring.get("unit", "points")
    decl = _declared(ctx, None)
    best = None
    for part in _partial(tuple(T.counts_of(ctx.concealed))):
        groups = decl + [_group(k, t) for k, t in part]
        found = detect(variant, Hand(variant, ctx, None, groups=groups), every_player=True)
        sc = _Score(scores(variant, found), vals)
        if best is None or (sc.raw, sc.points) > best[0]:
            best = ((sc.raw, sc.points), sc, groups)
    _, sc, groups = best
    return ScoreResult(False, sc.total, unit, None, tuple(sc.items), reason="not a winner",
                       decomposition=_text(groups))
