"""The ``tai`` scoring scheme: Singapore / Malaysian mahjong (seed 001; singapore.md "Winning hands", "Tai table", "Settlement").

Every pattern the hand shows adds its value from the variant file — ``[scoring.tai]`` for the
ordinary patterns (breakdown kind ``"tai"``), ``[scoring.special]`` for the limit hands (worth
the limit, 5; kind ``"limit"``) — "count" times for the "each" patterns; the families of
``scoring.exclusions`` keep only their highest-valued member (the "replaces" relations of
singapore.md "Tai table"); the total is capped at ``scoring.limit`` (5).  A win needs ``win.minimum`` tai (1; bonus tiles count, G-SG-5).  The
values live in the variant file; this module holds the detectors, by pattern id (singapore.md "Tai table"):

- bonus tiles: ``animal`` (each), ``complete_animals``, ``seat_flower`` (each season or flower
  of the seat's number, E1 S2 W3 N4; at most 2 exist), ``complete_flower_group`` (each of the
  four seasons / four flowers complete), ``all_eight_flowers`` (all eight held);
- melds: ``dragon_pung`` (each), ``seat_wind_pung``, ``prevailing_wind_pung``,
  ``all_triplets``, ``mixed_terminals``, ``small_three_dragons``, ``big_three_dragons``,
  ``small_four_winds``, ``big_four_winds``, ``hidden_treasure`` (four concealed pungs/kongs,
  nothing claimed, self-drawn), ``eighteen_arhats`` (four kongs);
- tiles: ``half_flush``, ``full_flush``, ``pure_green`` (only 2s 3s 4s 6s 8s F),
  ``all_honours``, ``pure_terminals``, ``nine_gates``
  (:func:`~mahjong_tui.scoring.common.nine_gates`), ``thirteen_wonders`` (the
  ``thirteen_orphans`` form);
- ``ping_hu`` / ``ping_hu_with_bonus`` (G-SG-7): four chows; the pair is no dragon, seat wind
  or prevailing wind; the wait set W(h) of the hand before the winning tile has at least two
  kinds (common.md "Wait set": by shape); no bonus tile held (else ``ping_hu_with_bonus``);
- how the hand was won: ``fully_concealed`` (no claimed meld, self-drawn),
  ``win_on_replacement`` (situation ``kong_replacement`` or ``flower_replacement``),
  ``kong_on_kong`` (``double_kong_replacement``), ``robbing_kong``, ``last_tile`` (self-drawn,
  situation ``last_wall_tile`` or ``last_wall_replacement``), ``heavenly_hand`` (dealer),
  ``earthly_hand`` (non-dealer), ``robbing_the_eighth``, and ``self_draw`` (G-SG-6: 0 by
  default, a house rule may give it a value).

A win on a replacement tile or a heavenly hand counts as self-drawn whatever the caller says
(:func:`mahjong_tui.scoring.evaluate` hands the scheme
:func:`~mahjong_tui.scoring.common.won_context`).  The flower wins of
``[scoring.special]`` (``all_eight_flowers``, ``robbing_the_eighth``) are wins whatever the
shape of the hand (singapore.md "Winning hands"); their form is ``"flowers"``; robbing the eighth is paid as a discard
win by the drawer of the eighth, all eight flowers as a self-draw, whatever the caller says
(singapore.md "Settlement"; :func:`~mahjong_tui.scoring.common.won_context`).  Payments:
:func:`~mahjong_tui.scoring.settlement.payments_for_score` (V = u·2^(tai − 1), singapore.md "Settlement").
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import tiles as T
from .common import (STANDARD, THIRTEEN_ORPHANS, apply_exclusions, best_scored, hand_facts, nine_gates,
                     not_complete_reason, plain_number, robs_the_eighth, waits_of_13, win_arrangements)
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant
    from .common import Arrangement, HandFacts

UNIT = "tai"
FLOWER_FORM = "flowers"

#: Every pattern id this scheme can detect, in the order of the table of singapore.md "Tai table" (breakdowns
#: are listed in this order); ``variant.py`` validates ``[scoring.tai]`` and
#: ``[scoring.special]`` against it.
ORDER: tuple[str, ...] = (
    "animal", "complete_animals", "seat_flower", "complete_flower_group", "dragon_pung",
    "seat_wind_pung", "prevailing_wind_pung", "all_triplets", "half_flush", "full_flush", "ping_hu",
    "ping_hu_with_bonus", "mixed_terminals", "small_three_dragons", "small_four_winds", "pure_green",
    "fully_concealed", "win_on_replacement", "robbing_kong", "last_tile", "self_draw",
    "big_three_dragons", "big_four_winds", "all_honours", "pure_terminals", "hidden_treasure",
    "nine_gates", "thirteen_wonders", "eighteen_arhats", "kong_on_kong", "heavenly_hand",
    "earthly_hand", "all_eight_flowers", "robbing_the_eighth",
)
PATTERN_IDS: frozenset[str] = frozenset(ORDER)
_RANK = {pid: i for i, pid in enumerate(ORDER)}

#: A player's words for each pattern (singapore.md "Tai table").
DESCRIPTIONS: dict[str, str] = {
    "animal": "Animal tile (each)",
    "complete_animals": "All four animals",
    "seat_flower": "Season or flower of your seat's number (each)",
    "complete_flower_group": "Complete set of four seasons or four flowers (each)",
    "dragon_pung": "Pung or kong of dragons (each)",
    "seat_wind_pung": "Pung or kong of your seat wind",
    "prevailing_wind_pung": "Pung or kong of the prevailing wind",
    "all_triplets": "All pungs (Dui Dui Hu): four pungs or kongs and a pair",
    "half_flush": "Half flush: one suit with honours (Hun Yi Se)",
    "full_flush": "Full flush: one suit, no honours (Qing Yi Se)",
    "ping_hu": "Ping Hu: four chows, a plain pair, a many-sided wait, no bonus tiles",
    "ping_hu_with_bonus": "Ping Hu holding bonus tiles",
    "mixed_terminals": "Mixed terminals: pungs of terminals and honours",
    "small_three_dragons": "Small three dragons: two dragon pungs and a dragon pair",
    "small_four_winds": "Small four winds: three wind pungs and a wind pair",
    "pure_green": "All green: only 2 3 4 6 8 of bamboo and green dragons",
    "fully_concealed": "Fully concealed, self-drawn (Men Qian Qing)",
    "win_on_replacement": "Won on a flower or kong replacement",
    "robbing_kong": "Robbing a kong",
    "last_tile": "Won with the last tile of the wall",
    "self_draw": "Self-drawn",
    "big_three_dragons": "Big three dragons (limit)",
    "big_four_winds": "Big four winds (limit)",
    "all_honours": "All honours (limit)",
    "pure_terminals": "All terminals: terminals only (limit)",
    "hidden_treasure": "Hidden treasure: four concealed pungs, self-drawn (limit)",
    "nine_gates": "Nine gates: 1112345678999 of one suit plus one (limit)",
    "thirteen_wonders": "Thirteen wonders (limit)",
    "eighteen_arhats": "Eighteen arhats: four kongs (limit)",
    "kong_on_kong": "Kong on kong: won on the replacement of a second kong in a row (limit)",
    "heavenly_hand": "Heavenly hand: the dealer's dealt hand (limit)",
    "earthly_hand": "Earthly hand: on the dealer's first discard (limit)",
    "all_eight_flowers": "All eight flowers and seasons (limit)",
    "robbing_the_eighth": "Robbing the eighth flower (limit)",
}

_GREEN = frozenset(T.parse_tiles("23468s") + [T.GREEN])


# --------------------------------------------------------------------------------------
# detectors
# --------------------------------------------------------------------------------------

def bonus_items(ctx: HandContext, facts: "HandFacts") -> list[tuple[str, int]]:
    """Patterns of the bonus tiles held, as ``(id, count)`` (singapore.md "Tai table")."""
    out: list[tuple[str, int]] = []
    if facts.animals:
        out.append(("animal", len(facts.animals)))
        if len(facts.animals) == 4:
            out.append(("complete_animals", 1))
    n = T.seat_number(ctx.seat_wind)
    own = sum(1 for b in ctx.bonus if T.is_flower_or_season(b) and T.bonus_number(b) == n)
    if own:
        out.append(("seat_flower", own))
    groups = (len(facts.seasons) == 4) + (len(facts.flowers) == 4)
    if groups:
        out.append(("complete_flower_group", groups))
    if T.SEASONS_AND_FLOWERS <= set(ctx.bonus):
        out.append(("all_eight_flowers", 1))
    return out


def situation_items(ctx: HandContext) -> list[tuple[str, int]]:
    """Patterns of how the hand was won (situations of CLI.md; singapore.md "Tai table")."""
    sits = ctx.situations
    self_drawn = ctx.self_draw
    out: list[tuple[str, int]] = []
    if sits & {"kong_replacement", "double_kong_replacement", "flower_replacement"}:
        out.append(("win_on_replacement", 1))
    if "double_kong_replacement" in sits:
        out.append(("kong_on_kong", 1))
    if "robbing_kong" in sits:
        out.append(("robbing_kong", 1))
    if self_drawn and sits & {"last_wall_tile", "last_wall_replacement"}:
        out.append(("last_tile", 1))
    if "heavenly" in sits and ctx.is_dealer:
        out.append(("heavenly_hand", 1))
    if "earthly" in sits and not ctx.is_dealer:
        out.append(("earthly_hand", 1))
    if robs_the_eighth(ctx):   # the situation alone is not enough: seven held, the eighth won
        out.append(("robbing_the_eighth", 1))
    if self_drawn:
        out.append(("self_draw", 1))
    return out


def hand_items(variant: "Variant", ctx: HandContext, arr: "Arrangement", facts: "HandFacts") -> list[tuple[str, int]]:
    """Patterns of the tiles and of one arrangement of a complete hand (singapore.md "Tai table")."""
    out: list[tuple[str, int]] = []
    self_drawn = ctx.self_draw
    if arr.form == STANDARD:
        trips = arr.triplets
        pair = arr.pair
        dragons = sum(1 for g in trips if T.is_dragon(g.tile))
        winds = sum(1 for g in trips if T.is_wind(g.tile))
        if dragons:
            out.append(("dragon_pung", dragons))
        if any(g.tile == ctx.seat_wind for g in trips):
            out.append(("seat_wind_pung", 1))
        if any(g.tile == ctx.prevailing_wind for g in trips):
            out.append(("prevailing_wind_pung", 1))
        if len(trips) == 4:
            out.append(("all_triplets", 1))
            if facts.terminals_and_honours and facts.has_honours and facts.suits:
                out.append(("mixed_terminals", 1))
            if (all(g.concealed for g in trips) and facts.no_claimed_meld and self_drawn
                    and not ctx.claimed_concealed):
                out.append(("hidden_treasure", 1))
        if dragons == 2 and pair is not None and T.is_dragon(pair.tile):
            out.append(("small_three_dragons", 1))
        if dragons == 3:
            out.append(("big_three_dragons", 1))
        if winds == 3 and pair is not None and T.is_wind(pair.tile):
            out.append(("small_four_winds", 1))
        if winds == 4:
            out.append(("big_four_winds", 1))
        if len(arr.kongs) == 4:
            out.append(("eighteen_arhats", 1))
        if len(arr.chows) == 4 and pair is not None and _plain_pair(ctx, pair.tile) and _many_sided(variant, ctx):
            out.append(("ping_hu_with_bonus" if ctx.bonus else "ping_hu", 1))
    elif arr.form == THIRTEEN_ORPHANS:
        out.append(("thirteen_wonders", 1))
    if facts.one_suit:
        out.append(("half_flush" if facts.has_honours else "full_flush", 1))
    if facts.tiles and set(facts.tiles) <= _GREEN:
        out.append(("pure_green", 1))
    if facts.all_honours:
        out.append(("all_honours", 1))
    if facts.all_terminals:
        out.append(("pure_terminals", 1))
    if nine_gates(variant, ctx, by_tiles=True):   # 1112345678999 + any one of the suit
        out.append(("nine_gates", 1))
    if facts.no_claimed_meld and self_drawn:
        out.append(("fully_concealed", 1))
    return out


def _plain_pair(ctx: HandContext, t: int) -> bool:
    """G-SG-7: the pair of a ping hu is no dragon, seat wind or prevailing wind."""
    return not T.is_dragon(t) and t != ctx.seat_wind and t != ctx.prevailing_wind


def _many_sided(variant: "Variant", ctx: HandContext) -> bool:
    """G-SG-7: the hand before the winning tile waited on at least two kinds (by shape)."""
    return ctx.winning_tile is not None and len(waits_of_13(variant, ctx)) >= 2


def _value_of(variant: "Variant", pid: str) -> tuple[str, float] | None:
    """(table, value) of ``pid``: ``[scoring.tai]`` first, then ``[scoring.special]``."""
    for table in ("tai", "special"):
        tbl = variant.scoring[table]
        if pid in tbl:
            return table, tbl[pid]
    return None


def breakdown(variant: "Variant", items: list[tuple[str, int]]) -> tuple[float, float, list[PatternScore]]:
    """``(capped value, uncapped total, patterns)`` of detected ``(id, count)`` items: ids the
    variant does not value (or values at 0) are left out, the exclusion families applied,
    patterns listed in the singapore.md "Tai table" order, the total capped at ``scoring.limit``."""
    merged: dict[str, int] = {}
    for pid, n in items:
        merged[pid] = merged.get(pid, 0) + n
    patterns = []
    for pid in sorted(merged, key=_RANK.__getitem__):
        got = _value_of(variant, pid)
        if got is None or not got[1]:
            continue
        table, value = got
        kind = "limit" if table == "special" else "tai"
        patterns.append(PatternScore(pid, value, merged[pid], kind, DESCRIPTIONS[pid]))
    patterns = apply_exclusions(variant, patterns)
    total = sum(p.total for p in patterns)
    cap = variant.scoring["limit"]
    return (min(total, cap) if cap else total), total, patterns


# --------------------------------------------------------------------------------------
# scheme API
# --------------------------------------------------------------------------------------

def flower_win(variant: "Variant", ctx: HandContext) -> str | None:
    """The flower win ``ctx`` is, whatever the hand's shape, or None (singapore.md "Winning hands", "Tai table"), where the
    variant's limit hands (``[scoring.special]``) give it a value: ``robbing_the_eighth``
    (:func:`~mahjong_tui.scoring.common.robs_the_eighth`: seven of the four seasons and four
    flowers held, the winning tile the eighth, set aside by another seat; a hand string may
    list the eighth among the held ones too) or ``all_eight_flowers`` (all eight held).  The
    table offers them where ``win.bonus_wins`` is on."""
    allowed = variant.scoring.get("special") or {}
    held = T.SEASONS_AND_FLOWERS & set(ctx.bonus)
    if allowed.get("robbing_the_eighth") and robs_the_eighth(ctx):
        return "robbing_the_eighth"
    if allowed.get("all_eight_flowers") and held == T.SEASONS_AND_FLOWERS:
        return "all_eight_flowers"
    return None


def evaluate(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal Singapore win and score it (seed 001; singapore.md "Winning hands", "Tai table", "Settlement").

    Every arrangement of the hand (:func:`~mahjong_tui.scoring.common.arrangements`, forms
    ``win.forms``) is scored; the one with the most tai (capped, then uncapped) is reported
    (common.md "Decomposition rule").  ``value`` = tai after the cap, unit ``"tai"``.  A hand that is not complete is
    still a win when it is a flower win (:func:`flower_win`; form ``"flowers"``, only the
    bonus-tile patterns and the flower win itself count).  Under ``win.minimum`` the result has
    ``winning`` False, the breakdown and a reason (``"0 tai: a win needs at least 1 tai"``).
    ``payments`` from :func:`~mahjong_tui.scoring.settlement.payments_for_score`.  No exceptions for well-formed
    contexts.
    """
    if not ctx.winner:
        return score_loser(variant, ctx)
    arrs = win_arrangements(variant, ctx)
    flower = flower_win(variant, ctx)
    if not arrs and flower is None:
        return ScoreResult(winning=False, unit=UNIT, reason=not_complete_reason(variant))
    facts = hand_facts(ctx, variant.tiles_rules["ranks"][1])
    if arrs:
        common = bonus_items(ctx, facts) + situation_items(ctx)

        def score(arr: "Arrangement") -> tuple[tuple[float, float], float, list[PatternScore]]:
            value, total, patterns = breakdown(variant, common + hand_items(variant, ctx, arr, facts))
            return (value, total), value, patterns

        result = best_scored(arrs, UNIT, score)
    else:
        # a flower win scores its bonus tiles and itself: the hand is not complete, so nothing
        # about how it was completed (heavenly, replacement, last tile) applies
        if flower == "robbing_the_eighth":
            # the robber takes the eighth flower: it counts among his bonus tiles
            w = ctx.winning_tile
            taken = replace(ctx, bonus=tuple(sorted((*ctx.bonus, w))) if w not in ctx.bonus else ctx.bonus)
            items = bonus_items(taken, hand_facts(taken, variant.tiles_rules["ranks"][1]))
            items.append((flower, 1))
        else:
            items = bonus_items(ctx, facts)  # all_eight_flowers is among them when held
        value, _total, patterns = breakdown(variant, items)
        result = ScoreResult(winning=True, value=plain_number(value), unit=UNIT, form=FLOWER_FORM,
                             patterns=tuple(patterns))
    minimum = variant.win["minimum"]
    if result.value < minimum:
        return replace(result, winning=False,
                       reason=f"{plain_number(result.value)} tai: a win needs at least {plain_number(minimum)} tai")

    from .settlement import payments_for_score

    if result.form == FLOWER_FORM and flower == "all_eight_flowers" and not ctx.self_draw:
        # no other win: this is the flower win, paid as a self-draw (singapore.md "Settlement") whichever tile the
        # caller named (the scheme dispatcher's won_context does it when he named the flower)
        ctx = replace(ctx, self_draw=True, discarder=None)
    return replace(result, payments=payments_for_score(variant, result, ctx))


def score_loser(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """A non-winner's hand scores nothing in Singapore (singapore.md "Settlement": only the winner is paid; the
    bites are instant payments made during play)."""
    return ScoreResult(winning=False, value=0, unit=UNIT, reason="only the winner scores in this variant")


__all__ = ["PATTERN_IDS", "ORDER", "DESCRIPTIONS", "evaluate", "score_loser", "flower_win", "breakdown",
           "bonus_items", "situation_items", "hand_items"]
