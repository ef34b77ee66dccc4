"""The ``classical`` scoring scheme: Classical Chinese as the DMJL and the BMJA play it.

Rule source: ``assets/rules/dmjl.md`` and ``assets/rules/bmja.md`` (the rule values KDE's
Kajongg publishes for its "Classical Chinese DMJL" and "Classical Chinese BMJA" rulesets,
restated in our own words), ``variants/dmjl.toml`` and ``variants/bmja.toml``.

Every player's hand is scored (``scoring.score_losers``): basic points for each pung, kong,
valued pair and bonus tile, then doublings; the winner adds the points and doublings of the
way he went out.  A hand worth a limit scores the limit instead (``scoring.limits``: 1 = the
limit, 0.5 = half of it, ...).  Total = points × 2^doublings, capped at ``scoring.limit``
unless ``scoring.roof_off`` is true; a limit hand is ``limits × scoring.limit`` either way.
A fraction of a limit is scored only when it is more than the points would give.

Detectors are named by pattern id (:data:`PATTERN_IDS`); a pattern scores only when the
variant file gives it a value in ``[scoring.points]``, ``[scoring.doublings]`` or
``[scoring.limits]``.  The special winning forms (``nine_gates``, ``gates_of_heaven``,
``thirteen_orphans``, ``wriggling_snake``, ``triple_knitting``, ``knitting``,
``all_pair_honours``) are winning hands only where the file values them; the standard form
(four melds and a pair) is always one, with at most ``scoring.max_chows`` chows.

Decisions recorded here:

- the meld the winning tile completed is part of the arrangement being scored: a winning
  discard makes that group exposed (pair and chow too, for ``only_concealed_melds``); the
  best arrangement (highest total before the cap, then most points) is kept;
- ``imperial_jade``: every tile is a green one (bamboo 2, 3, 4, 6, 8 and the green dragon);
- a non-winner's hand is arranged the way that scores it best (melds and valued pairs formed
  from his concealed tiles).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .. import tiles as T
from ..melds import CHOW, CONCEALED_KONG, KONG, PUNG
from .context import HandContext, PatternScore, ScoreResult

PAIR = "pair"

MELD_POINT_IDS = tuple(f"{k}_{c}_{s}" for k in ("pung", "kong") for s in ("exposed", "concealed")
                       for c in ("simple", "terminal", "honour"))
PAIR_IDS = ("pair_own_wind", "pair_prevailing_wind", "pair_dragon")
BONUS_IDS = ("flower", "season", "own_flower", "own_season")
MELD_DOUBLING_IDS = ("dragon_pung", "own_wind_pung", "prevailing_wind_pung")
HAND_IDS = ("own_flower_and_season", "all_flowers", "all_seasons", "three_concealed_pungs",
            "little_three_dragons", "big_three_dragons", "little_four_winds", "big_four_winds")
WINNER_IDS = (
    "mahjong", "last_tile_pair_simple", "last_tile_pair_major", "only_possible_tile", "self_drawn",
    "zero_point_hand", "no_chow", "only_concealed_melds", "half_flush", "full_flush", "purity",
    "concealed_full_flush", "terminals_and_honours", "all_honours", "hidden_treasure",
    "buried_treasure", "heads_and_tails", "fourfold_plenty", "three_great_scholars",
    "three_great_scholars_no_chow", "four_blessings", "imperial_jade", "plum_blossom",
    "plucking_moon", "scratching_pole", "kong_replacement", "last_wall_tile", "last_discard",
    "robbing_kong", "original_call", "twofold_fortune", "heavenly", "earthly",
)
FORM_IDS = ("nine_gates", "gates_of_heaven", "thirteen_orphans", "squirming_snake", "wriggling_snake",
            "triple_knitting", "knitting", "all_pair_honours")
#: A non-winner whose waiting hand one tile would make a win scored by pattern X scores
#: ``calling_X`` (bmja.md "Scoring": calling for a limit hand, or for purity)
CALLING_IDS = tuple(f"calling_{x}" for x in (
    "all_honours", "wriggling_snake", "triple_knitting", "gates_of_heaven", "knitting", "imperial_jade",
    "thirteen_orphans", "three_great_scholars_no_chow", "all_pair_honours", "heads_and_tails", "four_blessings",
    "buried_treasure", "fourfold_plenty", "purity"))

#: Every id this scheme can detect (``variant.py`` validates the variant files against it).
PATTERN_IDS = frozenset(MELD_POINT_IDS + PAIR_IDS + BONUS_IDS + MELD_DOUBLING_IDS + HAND_IDS
                        + WINNER_IDS + FORM_IDS + CALLING_IDS)

DESCRIPTIONS = {
    **{f"{k}_{c}_{e}": f"{e} {k} of {w}" for k in ("pung", "kong") for e in ("exposed", "concealed")
       for c, w in (("simple", "simples (2-8)"), ("terminal", "terminals (1 or 9)"), ("honour", "winds or dragons"))},
    "pair_own_wind": "pair of your own wind", "pair_prevailing_wind": "pair of the prevailing wind",
    "pair_dragon": "pair of dragons", "flower": "flower", "season": "season",
    "own_flower": "your own flower", "own_season": "your own season",
    "dragon_pung": "pung or kong of dragons", "own_wind_pung": "pung or kong of your own wind",
    "prevailing_wind_pung": "pung or kong of the prevailing wind",
    "own_flower_and_season": "your own flower and your own season", "all_flowers": "all four flowers",
    "all_seasons": "all four seasons", "three_concealed_pungs": "three concealed pungs or kongs",
    "little_three_dragons": "two pungs of dragons and a pair of dragons",
    "big_three_dragons": "three pungs of dragons", "little_four_winds": "three pungs of winds and a pair of winds",
    "big_four_winds": "four pungs of winds", "mahjong": "mahjong",
    "last_tile_pair_simple": "the winning tile completed a pair of simples",
    "last_tile_pair_major": "the winning tile completed a pair of terminals or honours",
    "only_possible_tile": "the winning tile was the only one that could complete the hand",
    "self_drawn": "the winning tile drawn from the wall", "zero_point_hand": "no points from melds or pairs",
    "no_chow": "no chow", "only_concealed_melds": "every meld concealed",
    "half_flush": "one suit with winds or dragons", "full_flush": "one suit, no winds or dragons",
    "purity": "one suit, no winds, dragons or chows", "concealed_full_flush": "one suit, all concealed",
    "terminals_and_honours": "only terminals (1 or 9) and honours", "all_honours": "only winds and dragons",
    "hidden_treasure": "four concealed pungs or kongs, self-drawn", "buried_treasure":
        "concealed pungs of one suit with winds or dragons, and a pair",
    "heads_and_tails": "only terminals (1 or 9)", "fourfold_plenty": "four kongs",
    "three_great_scholars": "three pungs of dragons", "three_great_scholars_no_chow":
        "three pungs of dragons, a pung and a pair",
    "four_blessings": "four pungs of winds", "imperial_jade": "only green tiles",
    "plum_blossom": "won with 5 of dots from the dead wall", "plucking_moon": "won with the last tile, 1 of dots",
    "scratching_pole": "won robbing a kong of 2 bamboo", "kong_replacement": "won on a kong's replacement tile",
    "last_wall_tile": "won with the last tile of the wall", "last_discard": "won on the last discard",
    "robbing_kong": "won robbing a kong", "original_call": "mahjong after Original Call",
    "twofold_fortune": "won on the second of two kong replacements", "heavenly": "Blessing of Heaven",
    "earthly": "Blessing of Earth", "nine_gates": "Nine Gates", "gates_of_heaven": "Gates of Heaven",
    "thirteen_orphans": "Thirteen Orphans", "squirming_snake": "Squirming Snake",
    "wriggling_snake": "Wriggling Snake", "triple_knitting": "Triple Knitting", "knitting": "Knitting",
    "all_pair_honours": "seven pairs of terminals and honours",
    **{c: "waiting for " + c[len("calling_"):].replace("_", " ") for c in CALLING_IDS},
}

GREEN = frozenset({T.tile("s", r) for r in (2, 3, 4, 6, 8)} | {T.GREEN})
MAJORS = tuple([T.tile(s, r) for s in "tsm" for r in (1, 9)] + list(T.WINDS) + list(T.DRAGONS))
OWN_FLOWER = dict(zip(T.WINDS, T.FLOWERS))
OWN_SEASON = dict(zip(T.WINDS, T.SEASONS))


# ----------------------------------------------------------------------------------------
# values
# ----------------------------------------------------------------------------------------
class _Values:
    """Pattern values of a variant: ``points``, ``doublings``, ``limits`` tables."""

    def __init__(self, variant):
        sc = variant.scoring
        self.points = dict(sc.get("points", {}))
        self.doublings = dict(sc.get("doublings", {}))
        self.limits = dict(sc.get("limits", {}))
        self.limit = float(sc.get("limit", 0))
        self.roof_off = bool(sc.get("roof_off", False))
        self.max_chows = int(sc.get("max_chows", 4))

    def on(self, pid: str) -> bool:
        return pid in self.points or pid in self.doublings or pid in self.limits


def _is_major(t: int) -> bool:
    return T.is_honour(t) or T.is_terminal(t)


# ----------------------------------------------------------------------------------------
# groups: (kind, tile, size, exposed)
# ----------------------------------------------------------------------------------------
def _meld_items(g, ctx: HandContext, vals: _Values) -> list[tuple[str, str]]:
    """The (pattern id, table) items a group scores (``meld rules``)."""
    kind, t, exposed = g
    out = []
    if kind in (PUNG, KONG):
        cls = "honour" if T.is_honour(t) else ("terminal" if T.is_terminal(t) else "simple")
        out.append(f"{kind}_{cls}_{'exposed' if exposed else 'concealed'}")
        if T.is_dragon(t):
            out.append("dragon_pung")
        if t == ctx.seat_wind:
            out.append("own_wind_pung")
        if t == ctx.prevailing_wind:
            out.append("prevailing_wind_pung")
    elif kind == PAIR:
        if t == ctx.seat_wind:
            out.append("pair_own_wind")
        if t == ctx.prevailing_wind:
            out.append("pair_prevailing_wind")
        if T.is_dragon(t):
            out.append("pair_dragon")
    return [p for p in out if vals.on(p)]


def _bonus_items(ctx: HandContext, vals: _Values) -> list[str]:
    out = []
    for b in ctx.bonus:
        if b in T.FLOWERS:
            out.append("flower")
            if OWN_FLOWER.get(ctx.seat_wind) == b:
                out.append("own_flower")
        elif b in T.SEASONS:
            out.append("season")
            if OWN_SEASON.get(ctx.seat_wind) == b:
                out.append("own_season")
    return [p for p in out if vals.on(p)]


def _hand_items(groups, ctx: HandContext, vals: _Values) -> list[str]:
    """Hand rules (every player): bonus-tile sets, concealed pungs, dragons and winds."""
    out = []
    bonus = set(ctx.bonus)
    if OWN_FLOWER.get(ctx.seat_wind) in bonus and OWN_SEASON.get(ctx.seat_wind) in bonus:
        out.append("own_flower_and_season")
    if set(T.FLOWERS) <= bonus:
        out.append("all_flowers")
    if set(T.SEASONS) <= bonus:
        out.append("all_seasons")
    if sum(1 for k, _, e in groups if k in (PUNG, KONG) and not e) >= 3:
        out.append("three_concealed_pungs")
    dragons = sorted(3 if k in (PUNG, KONG) else 2 for k, t, _ in groups if T.is_dragon(t) and k in (PUNG, KONG, PAIR))
    winds = sorted(3 if k in (PUNG, KONG) else 2 for k, t, _ in groups if T.is_wind(t) and k in (PUNG, KONG, PAIR))
    if dragons == [2, 3, 3]:
        out.append("little_three_dragons")
    if dragons.count(3) == 3:
        out.append("big_three_dragons")
    if winds == [2, 3, 3, 3]:
        out.append("little_four_winds")
    if winds.count(3) == 4:
        out.append("big_four_winds")
    return [p for p in out if vals.on(p)]


class _Score:
    """Points, doublings and the largest limit of a list of items, Kajongg-style totals."""

    def __init__(self, items: list[str], vals: _Values):
        self.items = items
        self.points = sum(vals.points.get(p, 0) for p in items)
        self.doublings = sum(vals.doublings.get(p, 0) for p in items)
        lims = [(vals.limits[p], p) for p in items if p in vals.limits]
        self.limit_item = max(lims)[1] if lims else None
        self.limits = max(lims)[0] if lims else 0
        raw = self.points * 2 ** self.doublings
        self.raw = raw
        capped = raw if vals.roof_off or not vals.limit else min(raw, vals.limit)
        if self.limits and (self.limits >= 1 or self.limits * vals.limit > capped):
            self.items = [self.limit_item]
            self.points = self.doublings = 0
            self.total = self.limits * vals.limit
            self.raw = self.total
        else:
            self.limits = 0
            self.limit_item = None
            self.items = [p for p in items if p not in vals.limits]
            self.total = capped


def _patterns(score: _Score, vals: _Values) -> tuple[PatternScore, ...]:
    counts: dict[str, int] = {}
    for p in score.items:
        counts[p] = counts.get(p, 0) + 1
    out = []
    for p, n in counts.items():
        if p in vals.limits:
            out.append(PatternScore(p, vals.limits[p], n, "limits", DESCRIPTIONS.get(p, p)))
        elif p in vals.doublings:
            out.append(PatternScore(p, vals.doublings[p], n, "doublings", DESCRIPTIONS.get(p, p)))
        else:
            out.append(PatternScore(p, vals.points.get(p, 0), n, "points", DESCRIPTIONS.get(p, p)))
    return tuple(out)


# ----------------------------------------------------------------------------------------
# decompositions
# ----------------------------------------------------------------------------------------
@lru_cache(maxsize=8192)
def _decompose(counts: tuple[int, ...], melds: int, pair: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way ``counts`` (tile code → copies) is exactly ``melds`` pungs/chows + (``pair``) a pair."""
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
    if (melds and T.is_suited(i) and T.rank_of(i) <= 7 and i + 2 < len(c) and c[i + 1] and c[i + 2]):
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out += [((CHOW, i),) + r for r in _decompose(tuple(c), melds - 1, pair)]
    return tuple(out)


def _declared(ctx: HandContext) -> list[tuple[str, int, bool]]:
    """The declared melds as groups (kind, tile, exposed)."""
    return [(m.kind, m.tiles[0], not m.concealed) for m in ctx.melds]


def _all_tiles(ctx: HandContext) -> list[int]:
    out = list(ctx.concealed)
    for m in ctx.melds:
        out.extend(m.tiles)
    return out


# ----------------------------------------------------------------------------------------
# special forms (whole-hand shapes)
# ----------------------------------------------------------------------------------------
def _one_suit(tiles) -> int | None:
    suits = {T.suit_of(t) for t in tiles if T.is_suited(t)}
    return suits.pop() if len(suits) == 1 else None


def _gates(tiles: list[int]) -> int | None:
    """The extra rank of a 1112345678999 + one hand (all one suit), or None."""
    if any(not T.is_suited(t) for t in tiles) or _one_suit(tiles) is None:
        return None
    ranks = [T.rank_of(t) for t in tiles]
    if ranks.count(1) != 3 or ranks.count(9) != 3 or any(r not in ranks for r in range(2, 9)):
        return None
    extra = [r for r in range(2, 9) if ranks.count(r) == 2]
    return extra[0] if len(extra) == 1 else None


def _knit_triples(tiles: list[int]):
    """Triple Knitting: four same-rank triples across the three suits and a same-rank pair of
    two suits."""
    c = T.counts_of(tiles)
    triples = 0
    for r in range(1, 10):
        while all(c[T.tile(s, r)] for s in "tsm"):
            for s in "tsm":
                c[T.tile(s, r)] -= 1
            triples += 1
    rest = [t for t in range(len(c)) for _ in range(c[t])]
    return triples == 4 and len(rest) == 2 and T.suit_of(rest[0]) != T.suit_of(rest[1]) \
        and T.rank_of(rest[0]) == T.rank_of(rest[1])


def _knitting(tiles: list[int]) -> bool:
    suits = {T.suit_of(t) for t in tiles}
    if len(suits) != 2:
        return False
    a, b = sorted(suits)
    ca = sorted(T.rank_of(t) for t in tiles if T.suit_of(t) == a)
    cb = sorted(T.rank_of(t) for t in tiles if T.suit_of(t) == b)
    return ca == cb and len(ca) == 7


def _squirming_snake(tiles: list[int]) -> bool:
    """One suit, no honours: 111 and 999, a pair of 2, 5 or 8, and every rank (the rest in
    two chows); declared melds allowed."""
    if any(not T.is_suited(t) for t in tiles) or _one_suit(tiles) is None:
        return False
    ranks = [T.rank_of(t) for t in tiles]
    pairs = [r for r in (2, 5, 8) if ranks.count(r) == 2]
    return ranks.count(1) >= 3 and ranks.count(9) >= 3 and len(pairs) == 1 and len(set(ranks)) == len(ranks) - 5


def _special_forms(ctx: HandContext, vals: _Values) -> list[str]:
    """The special winning forms (by id) this 14-tile hand is, among those the file values."""
    tiles = _all_tiles(ctx)
    if ctx.melds or len(tiles) != 14:
        return []
    out = []
    kinds = set(tiles)
    if kinds == set(MAJORS):
        out.append("thirteen_orphans")
    extra = _gates(tiles)
    if extra is not None:
        out.append("gates_of_heaven")
        if ctx.winning_tile is not None and T.rank_of(ctx.winning_tile) == extra:
            out.append("nine_gates")
    honours = [t for t in tiles if T.is_honour(t)]
    suited = [t for t in tiles if T.is_suited(t)]
    if (honours and set(honours) <= set(T.WINDS) and _one_suit(suited) is not None
            and sorted(T.rank_of(t) for t in suited) == [1, 1, 2, 3, 4, 5, 6, 7, 8, 9]
            and sorted(honours) == sorted(T.WINDS)):
        out.append("wriggling_snake")
    if not honours:
        if _knit_triples(tiles):
            out.append("triple_knitting")
        if _knitting(tiles):
            out.append("knitting")
    if all(_is_major(t) for t in tiles) and len(kinds) == 7 and all(tiles.count(k) == 2 for k in kinds):
        out.append("all_pair_honours")
    return [p for p in out if vals.on(p)]


# ----------------------------------------------------------------------------------------
# winner
# ----------------------------------------------------------------------------------------
def _standard(ctx: HandContext, vals: _Values):
    """Every standard arrangement: (groups, last group index) with groups (kind, tile, exposed)."""
    decl = _declared(ctx)
    w = ctx.winning_tile
    counts = tuple(T.counts_of(ctx.concealed))
    need = 4 - len(ctx.melds)
    if need < 0:
        return []
    out = []
    win_meld = None
    if w is not None and w not in ctx.concealed:
        win_meld = next((i for i, m in enumerate(ctx.melds) if w in m.tiles), None)
    for dec in _decompose(counts, need, True):
        groups = list(decl) + [(k, t, False) for k, t in dec]
        if sum(1 for k, _, _ in groups if k == CHOW) > vals.max_chows:
            continue
        if win_meld is not None:
            out.append((groups, win_meld))
            continue
        if w is None:
            out.append((groups, None))
            continue
        seen = set()
        for j, (k, t, e) in enumerate(groups[len(decl):], len(decl)):
            holds = (t == w) if k != CHOW else (t <= w <= t + 2)
            if not holds or (k, t) in seen:
                continue
            seen.add((k, t))
            g = list(groups)
            if not ctx.self_draw:
                g[j] = (k, t, True)
            out.append((g, j))
    return out


def _is_complete(ctx: HandContext, vals: _Values) -> bool:
    return bool(_standard(ctx, vals)) or bool(_special_forms(ctx, vals))


def _waits(ctx: HandContext, vals: _Values, last_group) -> int:
    """How many tile kinds would have completed the hand before the winning tile."""
    w = ctx.winning_tile
    concealed = list(ctx.concealed)
    melds = list(ctx.melds)
    if w in concealed:
        concealed.remove(w)
    else:
        i = next(i for i, m in enumerate(melds) if w in m.tiles)
        ts = list(melds.pop(i).tiles)
        ts.remove(w)
        concealed += ts
    allt = concealed + [t for m in melds for t in m.tiles]
    n = 0
    for t in _candidate_kinds():
        if allt.count(t) >= 4:
            continue
        c2 = HandContext(tuple(sorted(concealed + [t])), tuple(melds), ctx.bonus, t, True,
                         ctx.seat_wind, ctx.prevailing_wind)
        if _is_complete(c2, vals):
            n += 1
    return n


@lru_cache(maxsize=1)
def _candidate_kinds() -> tuple[int, ...]:
    return tuple([T.tile(s, r) for s in "tsm" for r in range(1, 10)] + list(T.WINDS) + list(T.DRAGONS))


def _winner_items(groups, last, ctx: HandContext, vals: _Values, form: str) -> list[str]:
    """Winner rules for one arrangement; a limit among them leaves only the largest limit."""
    tiles = _all_tiles(ctx)
    sits = ctx.situations
    w = ctx.winning_tile
    out = []
    exposed = [g for g in groups if g[2]]
    chows = any(k == CHOW for k, _, _ in groups)
    if form == "standard":
        lg = groups[last] if last is not None else None
        if lg is not None and lg[0] == PAIR:
            out.append("last_tile_pair_major" if _is_major(lg[1]) else "last_tile_pair_simple")
        if w is not None and vals.on("only_possible_tile") and not (lg is not None and lg[0] == KONG) \
                and _waits(ctx, vals, lg) == 1:
            out.append("only_possible_tile")
        if not any(_meld_items(g, ctx, vals) for g in groups):
            out.append("zero_point_hand")
    if w is not None and ctx.self_draw:
        out.append("self_drawn")
    if not chows:
        out.append("no_chow")
    if not exposed:
        out.append("only_concealed_melds")
    suits = {T.suit_of(t) for t in tiles if T.is_suited(t)}
    honours = any(T.is_honour(t) for t in tiles)
    if len(suits) == 1 and honours:
        out.append("half_flush")
    if len(suits) == 1 and not honours:
        out.append("full_flush")
        if not chows:
            out.append("purity")
        if not exposed:
            out.append("concealed_full_flush")
    if all(_is_major(t) for t in tiles):
        out.append("terminals_and_honours")
    if all(T.is_honour(t) for t in tiles):
        out.append("all_honours")
    if all(T.is_suited(t) and T.is_terminal(t) for t in tiles):
        out.append("heads_and_tails")
    if form == "standard" and not exposed and not chows and w is not None and ctx.self_draw:
        out.append("hidden_treasure")
    if (len(suits) == 1 and sum(1 for k, _, _ in groups if k == PUNG) == 4
            and all((k == PUNG and not e) or k == PAIR for k, _, e in groups)):
        out.append("buried_treasure")
    if sum(1 for m in ctx.melds if m.kind == KONG) == 4:
        out.append("fourfold_plenty")
    dragon_pungs = sum(1 for k, t, _ in groups if k in (PUNG, KONG) and T.is_dragon(t))
    if dragon_pungs == 3:
        out.append("three_great_scholars")
        if not chows:
            out.append("three_great_scholars_no_chow")
    if sum(1 for k, t, _ in groups if k in (PUNG, KONG) and T.is_wind(t)) == 4:
        out.append("four_blessings")
    if all(t in GREEN for t in tiles):
        out.append("imperial_jade")
    if "kong_replacement" in sits:
        out.append("kong_replacement")
        if w == T.tile("t", 5):
            out.append("plum_blossom")
    if "last_wall_tile" in sits:
        out.append("last_wall_tile")
        if w == T.tile("t", 1):
            out.append("plucking_moon")
    if "last_discard" in sits:
        out.append("last_discard")
    if "robbing_kong" in sits:
        out.append("robbing_kong")
        if w == T.tile("s", 2):
            out.append("scratching_pole")
    if "original_call" in sits and len(exposed) < 3:
        out.append("original_call")
    if "double_kong_replacement" in sits:
        out.append("twofold_fortune")
    if "heavenly" in sits and ctx.is_dealer and not exposed:
        out.append("heavenly")
    if "earthly" in sits and not ctx.is_dealer:
        out.append("earthly")
    out = [p for p in out if vals.on(p)]
    lims = [p for p in out if p in vals.limits]
    if lims:
        return [max(lims, key=lambda p: vals.limits[p])]
    return out


def evaluate(variant, ctx: HandContext) -> ScoreResult:
    """Whether ``ctx`` is a legal win and what it is worth (points after doublings, the limit
    or the roof).  Not complete: ``winning`` False, value 0, with the reason."""
    vals = _Values(variant)
    unit = variant.scoring.get("unit", "points")
    best = _best_win(ctx, vals)
    if best is None:
        chows = vals.max_chows
        return ScoreResult(False, 0, unit, reason=f"not a complete hand (four melds and a pair with at most "
                                                   f"{chows} chow{'s' if chows != 1 else ''}, or a special hand)")
    _, sc, form, groups = best
    res = ScoreResult(True, sc.total, unit, form, _patterns(sc, vals),
                      decomposition=tuple(_group_text(g) for g in groups))
    from .settlement import payments_for_score

    return ScoreResult(True, sc.total, unit, form, res.patterns, payments=payments_for_score(variant, res, ctx),
                       decomposition=res.decomposition)


def _best_win(ctx: HandContext, vals: _Values):
    """The best-scoring reading of a winner's hand: (key, score, form, groups), or None."""
    bonus = _bonus_items(ctx, vals)
    best = None
    for groups, last in _standard(ctx, vals):
        items = [p for g in groups for p in _meld_items(g, ctx, vals)] + bonus + _hand_items(groups, ctx, vals)
        items += (["mahjong"] if vals.on("mahjong") else [])
        items += _winner_items(groups, last, ctx, vals, "standard")
        for form in ("nine_gates", "gates_of_heaven"):
            if form in _special_forms(ctx, vals):
                items.append(form)
        if vals.on("squirming_snake") and _squirming_snake(_all_tiles(ctx)):
            items.append("squirming_snake")
        sc = _Score(items, vals)
        key = (sc.raw, sc.points)
        if best is None or key > best[0]:
            best = (key, sc, "standard", groups)
    for form in _special_forms(ctx, vals):
        groups = []
        items = bonus + _hand_items(groups, ctx, vals) + [form] + _winner_items(groups, None, ctx, vals, form)
        sc = _Score(items, vals)
        key = (sc.raw, sc.points)
        if best is None or key > best[0]:
            best = (key, sc, form, groups)
    return best


def _group_text(g) -> str:
    k, t, e = g
    n = {PUNG: 3, KONG: 4, PAIR: 2}.get(k)
    ts = [t] * n if n else [t, t + 1, t + 2]
    body = T.format_tiles(ts)
    return f"({body})" if e else body


# ----------------------------------------------------------------------------------------
# non-winner
# ----------------------------------------------------------------------------------------
def _partial(counts: tuple[int, ...]):
    """Every way to take pungs, chows and pairs out of ``counts`` (the rest stay single)."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        yield ()
        return
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        for r in _partial(tuple(c)):
            yield ((PUNG, i),) + r
        c[i] += 3
    if c[i] >= 2:
        c[i] -= 2
        for r in _partial(tuple(c)):
            yield ((PAIR, i),) + r
        c[i] += 2
    c[i] -= 1
    for r in _partial(tuple(c)):
        yield r


def _calling_items(ctx: HandContext, vals: _Values) -> list[str]:
    """``calling_X`` for each pattern X that a win on one more tile would be scored by (its
    limit, or ``purity``), where the file values ``calling_X``; a waiting (13-tile) hand only."""
    wanted = [c for c in CALLING_IDS if vals.on(c)]
    if not wanted or len(ctx.concealed) + 3 * len(ctx.melds) != 13:
        return []
    held = _all_tiles(ctx)
    found: set[str] = set()
    for t in _candidate_kinds():
        if held.count(t) >= 4:
            continue
        win = HandContext(tuple(sorted(ctx.concealed + (t,))), ctx.melds, ctx.bonus, t, True,
                          ctx.seat_wind, ctx.prevailing_wind)
        best = _best_win(win, vals)
        if best is None:
            continue
        found.update(best[1].items)
    return [c for c in wanted if c[len("calling_"):] in found]


def score_loser(variant, ctx: HandContext) -> ScoreResult:
    """A non-winner's hand: his melds, valued pairs, bonus tiles and hand rules, arranged the
    way that scores best (``winning`` False, ``value`` his score)."""
    vals = _Values(variant)
    unit = variant.scoring.get("unit", "points")
    decl = _declared(ctx)
    bonus = _bonus_items(ctx, vals) + _calling_items(ctx, vals)
    best = None
    for part in _partial(tuple(T.counts_of(ctx.concealed))):
        groups = decl + [(k, t, False) for k, t in part]
        items = [p for g in groups for p in _meld_items(g, ctx, vals)] + bonus + _hand_items(groups, ctx, vals)
        sc = _Score(items, vals)
        if best is None or (sc.raw, sc.points) > best[0]:
            best = ((sc.raw, sc.points), sc, groups)
    _, sc, groups = best
    return ScoreResult(False, sc.total, unit, None, _patterns(sc, vals), reason="not a winner",
                       decomposition=tuple(_group_text(g) for g in groups))
