"""Points and doublings: Classic Chinese, Oxenstierna family version.

Rule source: seed ``003_c2c3ebf1c9e04096.txt`` ("Scoring System", "Winning Hand",
"Differences to Classic Chinese Rules"), restated in classic.md "Winning hands", "Scoring" with the gap entries
G-OX-2 … G-OX-6, G-OX-9 and the special-hand rule of classic.md "Special hands".

The VALUES live in the variant file (``[scoring.points]``, ``[scoring.doublings]``,
``[scoring.special]``, ``scoring.limit``); this module holds the detectors by id.  An id that a
house-rule file leaves out of its tables simply never scores.

Scoring (classic.md "Scoring"): every player scores his own hand.  S = points × 2^doublings, capped at
``scoring.limit`` (0 = no cap).  A winner's hand is scored on every arrangement
(:func:`~mahjong_tui.scoring.common.arrangements`) and the best one is used; a special hand
scores its fixed value and nothing else.

Decisions recorded here (not spelled out by the source):

- A special hand is preferred to normal scoring when it is worth at least as much (classic.md "Special hands"
  tie rule); only seven pairs (500) can be beaten by a normal reading of the same tiles (e.g. a
  full-suit chow hand with doublings), and then the normal reading is used (common.md "Decomposition rule").
- ``three_small_masters`` (3 doublings) adds to the two ``dragon_pung`` doublings of its pungs
  (classic.md "Scoring" lists no replacement), so it always reaches the limit; a house file that wants the
  other reading lists ``scoring.exclusions = [["three_small_masters", "dragon_pung"]]``
  (exclusions are applied to every breakdown, :func:`~mahjong_tui.scoring.common.apply_exclusions`).
- ``hidden_treasure``: four concealed pungs/kongs + pair and no picked-up discard anywhere in
  the hand (G-OX-2, G-OX-5); a discard win on the pair qualifies (the pungs stay concealed);
  a discard completing a pung does not (common.md "Melds").
- ``heavenly_blessing`` needs the winner to be East, ``earthly_blessing`` a non-dealer winner.
- ``mahjong_last_tile`` needs a self-drawn win (situation ``last_wall_tile``).
- ``robbing_kong`` doubles on situation ``robbing_kong``, or on ``kong_claimable_discard``
  when ``claims.rob_kong_concealed_pung`` is on (G-OX-4).
- Seven pairs: no declared melds; a picked-up tile does not spoil it (G-OX-2 names pungs only).
"""

from __future__ import annotations

from .. import tiles as T
from ..melds import CHOW, CONCEALED_KONG, KONG, PUNG
from .common import (
    SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, Arrangement, Group, apply_exclusions, arrangements,
    declared_groups, hand_facts, nine_gates,
)
from .context import HandContext, PatternScore, ScoreResult

POINT_IDS = (
    "chow",
    "pung_simple_open", "pung_simple_hidden",
    "pung_terminal_open", "pung_terminal_hidden",
    "pung_honour_open", "pung_honour_hidden",
    "kong_simple_open", "kong_simple_hidden",
    "kong_terminal_open", "kong_terminal_hidden",
    "kong_honour_open", "kong_honour_hidden",
    "pair_honour", "pair_value_wind",
    "bonus_other", "bonus_own",
    "mahjong_discard", "mahjong_self_drawn", "mahjong_last_tile", "worthless_hand",
)
DOUBLING_IDS = (
    "dragon_pung", "own_wind_pung", "prevailing_wind_pung", "all_flowers", "all_seasons",
    "half_suit", "full_suit", "pung_hand", "mahjong_by_dealer", "robbing_kong",
    "three_small_masters",
)
SPECIAL_IDS = (
    "heavenly_blessing", "earthly_blessing", "three_grand_masters", "four_blessings",
    "grand_honours", "thirteen_miracles", "heads_and_tails", "hidden_treasure",
    "grand_waiting", "seven_pairs",
)

#: Every id this scheme can detect (``variant.py`` validates classic.toml against it).
PATTERN_IDS = frozenset(POINT_IDS + DOUBLING_IDS + SPECIAL_IDS)

DESCRIPTIONS = {
    "chow": "chow (no points)",
    "pung_simple_open": "exposed pung of simples (2–8)",
    "pung_simple_hidden": "concealed pung of simples (2–8)",
    "pung_terminal_open": "exposed pung of terminals",
    "pung_terminal_hidden": "concealed pung of terminals",
    "pung_honour_open": "exposed pung of honours",
    "pung_honour_hidden": "concealed pung of honours",
    "kong_simple_open": "exposed kong of simples (2–8)",
    "kong_simple_hidden": "concealed kong of simples (2–8)",
    "kong_terminal_open": "exposed kong of terminals",
    "kong_terminal_hidden": "concealed kong of terminals",
    "kong_honour_open": "exposed kong of honours",
    "kong_honour_hidden": "concealed kong of honours",
    "pair_honour": "pair of honours",
    "pair_value_wind": "pair of your own or the prevailing wind",
    "bonus_other": "flower or season of another wind",
    "bonus_own": "flower or season of your own wind",
    "mahjong_discard": "mahjong on a discard",
    "mahjong_self_drawn": "mahjong by self-draw",
    "mahjong_last_tile": "mahjong on the last tile of the wall",
    "worthless_hand": "mahjong with a worthless hand (all chows, a plain pair, no flowers)",
    "dragon_pung": "pung or kong of dragons",
    "own_wind_pung": "pung or kong of your own wind",
    "prevailing_wind_pung": "pung or kong of the prevailing wind",
    "all_flowers": "all four flowers",
    "all_seasons": "all four seasons",
    "half_suit": "half suit: one suit and honours",
    "full_suit": "full suit: one suit only, or honours only",
    "pung_hand": "pung hand: no chows",
    "mahjong_by_dealer": "mahjong by the dealer (East)",
    "robbing_kong": "mahjong by robbing a kong",
    "three_small_masters": "three small masters: two dragon pungs and a dragon pair",
    "heavenly_blessing": "heavenly blessing: East wins with his dealt tiles",
    "earthly_blessing": "earthly blessing: mahjong on East's first discard",
    "three_grand_masters": "three grand masters: pungs of all three dragons",
    "four_blessings": "four blessings: pungs of all four winds",
    "grand_honours": "grand honours: honours only",
    "thirteen_miracles": "thirteen miracles: one of each terminal and honour, plus a pair",
    "heads_and_tails": "heads and tails: terminals only",
    "hidden_treasure": "hidden treasure: four concealed pungs or kongs and a pair",
    "grand_waiting": "grand waiting: 1112345678999 of one suit, plus one",
    "seven_pairs": "seven pairs",
}

CHOW_REFUSAL = ("the winning tile completes a chow (Oxenstierna rule: a hand may not be completed "
                "by a chow; the last tile must complete a pung, a kong or the pair)")


# ----------------------------------------------------------------------------------------
# Tally of items
# ----------------------------------------------------------------------------------------


class _Tally:
    """Ordered collection of (id → count) for one table of the variant."""

    def __init__(self, variant):
        self.variant = variant
        self.items: dict[str, list] = {}

    def add(self, pid: str, kind: str, count: int = 1) -> None:
        table = {"points": "points", "doublings": "doublings", "special": "special"}[kind]
        if pid not in self.variant.scoring[table] or count <= 0:
            return
        if pid in self.items:
            self.items[pid][1] += count
        else:
            self.items[pid] = [kind, count]

    def value_of(self, pid: str, kind: str) -> float:
        return self.variant.scoring[kind].get(pid, 0)

    def patterns(self) -> tuple[PatternScore, ...]:
        out = []
        for pid, (kind, count) in self.items.items():
            out.append(PatternScore(pid, self.value_of(pid, kind), count, kind, DESCRIPTIONS.get(pid, pid)))
        return tuple(out)

    def total(self, kind: str) -> float:
        return sum(self.value_of(pid, k) * c for pid, (k, c) in self.items.items() if k == kind)


def _cap(variant, value: float) -> float:
    limit = variant.scoring.get("limit", 0) or 0
    if limit and value > limit:
        value = limit
    return _num(value)


def _num(x):
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _value_of(variant, patterns) -> float:
    """S = points × 2^doublings, capped at ``scoring.limit`` (classic.md "Scoring")."""
    points = sum(p.total for p in patterns if p.kind == "points")
    doublings = sum(p.total for p in patterns if p.kind == "doublings")
    return _cap(variant, points * 2 ** doublings)


def _finish(variant, tally: _Tally) -> tuple[float, tuple[PatternScore, ...]]:
    """Breakdown after ``scoring.exclusions`` (none in classic.toml; a house file may list e.g.
    ``["three_small_masters", "dragon_pung"]`` to make the former replace the latter) and its value."""
    pats = tuple(apply_exclusions(variant, tally.patterns()))
    return _value_of(variant, pats), pats


def _ranks(variant) -> tuple[int, int]:
    lo, hi = variant.tiles_rules["ranks"]
    return int(lo), int(hi)


def _tile_class(variant, t: int) -> str:
    if T.is_honour(t):
        return "honour"
    lo, hi = _ranks(variant)
    return "terminal" if T.rank_of(t) in (lo, hi) else "simple"


def _triplet_id(variant, g: Group) -> str:
    if g.kind == KONG:
        hidden = g.concealed and g.kong_type in (None, CONCEALED_KONG)
    else:
        hidden = g.concealed
    return f"{'kong' if g.kind == KONG else 'pung'}_{_tile_class(variant, g.tile)}_{'hidden' if hidden else 'open'}"


# ----------------------------------------------------------------------------------------
# Items every player scores (classic.md "The other players"; G-OX-6)
# ----------------------------------------------------------------------------------------


def _all_player_items(variant, ctx: HandContext, tally: _Tally, triplets, n_chows: int, facts) -> None:
    if n_chows:
        tally.add("chow", "points", n_chows)
    for g in triplets:
        tally.add(_triplet_id(variant, g), "points")
    seat_no = T.seat_number(ctx.seat_wind)
    for b in ctx.bonus:
        if T.is_flower_or_season(b):
            tally.add("bonus_own" if T.bonus_number(b) == seat_no else "bonus_other", "points")
    # doublings
    n_dragon = sum(1 for g in triplets if T.is_dragon(g.tile))
    tally.add("dragon_pung", "doublings", n_dragon)
    if any(g.tile == ctx.seat_wind for g in triplets):
        tally.add("own_wind_pung", "doublings")
    if any(g.tile == ctx.prevailing_wind for g in triplets):
        tally.add("prevailing_wind_pung", "doublings")
    if facts.flowers == frozenset(T.FLOWERS):
        tally.add("all_flowers", "doublings")
    if facts.seasons == frozenset(T.SEASONS):
        tally.add("all_seasons", "doublings")
    if facts.tiles:
        if (len(facts.suits) == 1 and not facts.has_honours) or (not facts.suits and facts.has_honours):
            tally.add("full_suit", "doublings")
        elif len(facts.suits) == 1 and facts.has_honours:
            tally.add("half_suit", "doublings")


# ----------------------------------------------------------------------------------------
# Winner
# ----------------------------------------------------------------------------------------


def _pair_items(ctx: HandContext, pair: Group | None, tally: _Tally) -> int:
    """Add the winner's pair points (G-OX-3); return how many point items the pair gave."""
    if pair is None:
        return 0
    t = pair.tile
    n = 0
    if T.is_dragon(t) or T.is_wind(t):
        tally.add("pair_honour", "points")
        n += 1
        if T.is_wind(t) and (t == ctx.seat_wind or t == ctx.prevailing_wind):
            tally.add("pair_value_wind", "points")  # once, even if own = prevailing (G-OX-3)
            n += 1
    return n


def _score_standard(variant, ctx: HandContext, arr: Arrangement, facts) -> tuple[float, tuple[PatternScore, ...]]:
    tally = _Tally(variant)
    triplets = arr.triplets
    n_chows = len(arr.chows)
    _all_player_items(variant, ctx, tally, triplets, n_chows, facts)
    pair = arr.pair
    pair_items = _pair_items(ctx, pair, tally)
    has_flowers = any(T.is_flower_or_season(b) for b in ctx.bonus)
    worthless = (n_chows == 4 and pair_items == 0 and not has_flowers
                 and "worthless_hand" in variant.scoring["points"])
    sits = ctx.situations
    if worthless:
        tally.add("worthless_hand", "points")  # replaces the mahjong points (classic.md "Points")
    elif ctx.self_draw and "last_wall_tile" in sits:
        tally.add("mahjong_last_tile", "points")
    elif ctx.self_draw:
        tally.add("mahjong_self_drawn", "points")
    else:
        tally.add("mahjong_discard", "points")
    if n_chows == 0:
        tally.add("pung_hand", "doublings")
    if ctx.is_dealer:
        tally.add("mahjong_by_dealer", "doublings")
    if "robbing_kong" in sits or ("kong_claimable_discard" in sits
                                  and variant.claims.get("rob_kong_concealed_pung", False)):
        tally.add("robbing_kong", "doublings")
    dragon_triplets = sum(1 for g in triplets if T.is_dragon(g.tile))
    if dragon_triplets == 2 and pair is not None and T.is_dragon(pair.tile):
        tally.add("three_small_masters", "doublings")
    return _finish(variant, tally)


def _specials(variant, ctx: HandContext, arrs: list[Arrangement], facts) -> list[tuple[str, Arrangement]]:
    """Special hands present (id, an arrangement showing it), in table order.  Exempt from the
    chow rule (classic.md "Winning hands")."""
    found: list[tuple[str, Arrangement]] = []
    std = [a for a in arrs if a.form == STANDARD]
    sits = ctx.situations
    first = arrs[0]
    if "heavenly" in sits and ctx.is_dealer:
        found.append(("heavenly_blessing", first))
    if "earthly" in sits and not ctx.is_dealer:
        found.append(("earthly_blessing", first))
    for a in std:
        if set(T.DRAGONS) <= {g.tile for g in a.triplets}:
            found.append(("three_grand_masters", a))
            break
    for a in std:
        if set(T.WINDS) <= {g.tile for g in a.triplets}:
            found.append(("four_blessings", a))
            break
    if facts.all_honours:
        found.append(("grand_honours", std[0] if std else first))
    for a in arrs:
        if a.form == THIRTEEN_ORPHANS:
            found.append(("thirteen_miracles", a))
            break
    if facts.all_terminals:
        found.append(("heads_and_tails", std[0] if std else first))
    if not ctx.claimed_concealed:
        for a in std:
            if len(a.triplets) == 4 and all(g.concealed for g in a.triplets):
                found.append(("hidden_treasure", a))
                break
    if nine_gates(variant, ctx):
        found.append(("grand_waiting", std[0] if std else first))
    for a in arrs:
        if a.form == SEVEN_PAIRS:
            found.append(("seven_pairs", a))
            break
    table = variant.scoring["special"]
    return [(pid, a) for pid, a in found if pid in table]


def _completes_chow(variant, arr: Arrangement) -> bool:
    if variant.claims.get("win_completing_chow", True) or arr.form != STANDARD:
        return False
    g = arr.winning_group
    return g is not None and g.kind == CHOW


def evaluate(variant, ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal Classic win and score it (seed 003, classic.md "Winning hands", "Scoring").

    Returns a :class:`ScoreResult` in ``variant.scoring['unit']`` (points): ``value`` = the
    best of the special hands present (fixed value, nothing else counted) and the best
    standard arrangement (points × 2^doublings, capped at ``scoring.limit``); ``patterns``
    the breakdown (kinds ``points`` / ``doublings`` / ``special``); ``payments`` from
    :func:`~mahjong_tui.scoring.settlement.payments_for_score` (None in ``cumulative``).

    ``winning`` is False, with a ``reason``, when the hand is not complete in any allowed form,
    or when (``claims.win_completing_chow`` false, classic.md "Winning hands") every complete standard reading puts the
    winning tile in a chow and no special hand applies.  A non-winner context
    (``ctx.winner`` False) is scored with :func:`score_loser`.  No exceptions for well-formed
    contexts.
    """
    if not ctx.winner:
        return score_loser(variant, ctx)
    unit = variant.scoring["unit"]
    arrs = arrangements(variant, ctx)
    if not arrs:
        forms = ", ".join(f.replace("_", " ") for f in variant.win["forms"])
        return ScoreResult(False, 0, unit, reason=f"not a complete hand (winning forms: {forms})")
    _, hi = _ranks(variant)
    facts = hand_facts(ctx, hi)

    special = None
    for pid, arr in _specials(variant, ctx, arrs, facts):
        val = variant.scoring["special"][pid]
        if special is None or val > special[1]:
            special = (pid, val, arr)

    normal = None
    refused = False
    for arr in arrs:
        if arr.form != STANDARD:
            continue
        if _completes_chow(variant, arr):
            refused = True
            continue
        val, pats = _score_standard(variant, ctx, arr, facts)
        if normal is None or val > normal[0]:
            normal = (val, pats, arr)

    from .settlement import payments_for_score

    if special is not None and (normal is None or special[1] >= normal[0]):
        pid, val, arr = special
        res = ScoreResult(True, _num(val), unit, form=arr.form,
                          patterns=(PatternScore(pid, val, 1, "special", DESCRIPTIONS[pid]),),
                          decomposition=arr.notation(), winning_group=arr.winning_index())
    elif normal is not None:
        val, pats, arr = normal
        res = ScoreResult(True, val, unit, form=STANDARD, patterns=pats,
                          decomposition=arr.notation(), winning_group=arr.winning_index())
    elif refused:
        return ScoreResult(False, 0, unit, reason=CHOW_REFUSAL)
    else:
        forms = sorted({a.form for a in arrs})
        return ScoreResult(False, 0, unit,
                           reason=f"the hand ({', '.join(f.replace('_', ' ') for f in forms)}) scores nothing in this variant")
    return ScoreResult(res.winning, res.value, res.unit, res.form, res.patterns,
                       payments=payments_for_score(variant, res, ctx), decomposition=res.decomposition,
                       winning_group=res.winning_group)


# ----------------------------------------------------------------------------------------
# Losers
# ----------------------------------------------------------------------------------------


def score_loser(variant, ctx: HandContext) -> ScoreResult:
    """Score a non-winner's hand (G-OX-6; seed 003 "points are awarded … to all players").

    Counted: declared melds (claimed pungs/kongs open; declared concealed kongs hidden; chows
    0), one hidden pung for every kind with ≥ 3 concealed copies (open if a picked-up discard
    must be in it, G-OX-2), flowers/seasons, and the "all players" doublings (dragon, own and
    prevailing wind pungs, all flowers/seasons, half and full suit).  No pair, no mahjong
    points.  ``winning`` is False; ``value`` is the player's own score S (capped at the limit);
    ``payments`` None.  With ``scoring.score_losers`` false the value is 0.
    """
    unit = variant.scoring["unit"]
    if not variant.scoring.get("score_losers", False):
        return ScoreResult(False, 0, unit)
    _, hi = _ranks(variant)
    groups = declared_groups(ctx)
    ccounts = T.counts_of(ctx.concealed)
    claimed = T.counts_of(ctx.claimed_concealed)
    for t, n in enumerate(ccounts):
        if n >= 3:
            groups.append(Group(PUNG, (t, t, t), claimed[t] <= n - 3, False, None, False))
    triplets = [g for g in groups if g.is_triplet]
    n_chows = sum(1 for g in groups if g.kind == CHOW)
    tally = _Tally(variant)
    loser_ctx = ctx if not ctx.winner else HandContext(**{**ctx.__dict__, "winner": False})
    _all_player_items(variant, loser_ctx, tally, triplets, n_chows, hand_facts(ctx, hi))
    value, pats = _finish(variant, tally)
    return ScoreResult(False, value, unit, patterns=pats,
                       decomposition=tuple(g.notation() for g in groups))


__all__ = ["PATTERN_IDS", "evaluate", "score_loser", "DESCRIPTIONS", "CHOW_REFUSAL"]
