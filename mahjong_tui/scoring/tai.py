"""The ``tai`` scoring scheme: Singapore / Malaysian mahjong (seed 001; singapore.md "Winning hands", "Tai table", "Settlement").

Every pattern the hand shows adds its value from the variant file — ``[scoring.tai]`` for the
ordinary patterns (breakdown kind ``"tai"``), ``[scoring.special]`` for the limit hands (worth
the limit, 5; kind ``"limit"``) — "count" times for the "each" patterns; the families of
``scoring.exclusions`` keep only their highest-valued member (the "replaces" relations of
singapore.md "Tai table"); the total is capped at ``scoring.limit`` (5).  A win needs ``win.minimum`` tai (1; bonus tiles count, G-SG-5).  The
patterns and values live in the variant file (``[scoring.patterns]``, detected by
:mod:`~mahjong_tui.scoring.patterns`); the patterns are (singapore.md "Tai table"):

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
from . import patterns as P
from .common import (apply_exclusions, best_scored, hand_facts, not_complete_reason, plain_number, robs_the_eighth,
                     win_arrangements)
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant
    from .common import Arrangement

UNIT = "tai"
FLOWER_FORM = "flowers"
_TABLES = ("tai", "special")
_KINDS = {"tai": "tai", "special": "limit"}
#: the detectors of the bonus-tile patterns, the only ones a flower win counts
_BONUS_DETECTORS = ("bonus", "bonus_set")


def __getattr__(name: str):
    """``PATTERN_IDS`` (frozenset), ``ORDER`` (ids in breakdown order) and ``DESCRIPTIONS``
    (id → a player's words): the patterns ``variants/singapore.toml`` lists
    (:func:`mahjong_tui.scoring.patterns.shipped`)."""
    if name == "PATTERN_IDS":
        return P.shipped("singapore", "ids")
    if name == "DESCRIPTIONS":
        return P.shipped("singapore", "names")
    if name == "ORDER":
        return tuple(P.shipped("singapore", "names"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------------------
# detectors: the pattern library, as variants/singapore.toml lists it
# --------------------------------------------------------------------------------------

def breakdown(variant: "Variant", found: list) -> tuple[float, float, list[PatternScore]]:
    """``(capped value, uncapped total, patterns)`` of the detected patterns
    (:func:`mahjong_tui.scoring.patterns.detect`): those the variant values at 0 are left out,
    the exclusion families applied, patterns listed in the file's order, the total capped at
    ``scoring.limit``."""
    patterns = [p for p in P.scores(variant, found, _TABLES, _KINDS) if p.value]
    patterns = apply_exclusions(variant, patterns)
    capped, total = P.combine_sum(variant, patterns)
    return capped, total, patterns


def _bonus_ids(variant: "Variant") -> set[str]:
    return {s.id for s in P.patterns_of(variant) if s.detector in _BONUS_DETECTORS}


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
        def score(arr: "Arrangement") -> tuple[tuple[float, float], float, list[PatternScore]]:
            found = P.detect(variant, P.Hand(variant, ctx, arr, facts=facts), tables=_TABLES)
            value, total, patterns = breakdown(variant, found)
            return (value, total), value, patterns

        result = best_scored(arrs, UNIT, score)
    else:
        # a flower win scores its bonus tiles and itself: the hand is not complete, so nothing
        # about how it was completed (heavenly, replacement, last tile) applies
        only = _bonus_ids(variant)
        if flower == "robbing_the_eighth":
            # the robber takes the eighth flower: it counts among his bonus tiles
            w = ctx.winning_tile
            taken = replace(ctx, bonus=tuple(sorted((*ctx.bonus, w))) if w not in ctx.bonus else ctx.bonus)
            found = P.detect(variant, P.Hand(variant, taken), only=only | {flower}, tables=_TABLES)
        else:
            found = P.detect(variant, P.Hand(variant, ctx, facts=facts), only=only, tables=_TABLES)
        value, _total, patterns = breakdown(variant, found)
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


__all__ = ["evaluate", "score_loser", "flower_win", "breakdown"]
