"""The ``multiplier`` scoring scheme: Yuxi Flower Blooming mahjong (seed 000, yuxi.md "Winning hands", "Scoring table", "Settlement").

Every pattern of the variant's ``[scoring.multipliers]`` table is a multiplier; the hand's
multiplier M is the product of the multipliers of the patterns that apply (G-YX-7), capped at
``scoring.limit`` (32; 0 = uncapped).  The patterns and their values come from the variant
file (``[scoring.patterns]``, detected by :mod:`~mahjong_tui.scoring.patterns`); this module
reads the arrangements and multiplies.

Rules implemented here (yuxi.md "Winning hands", "Scoring table", "Settlement"):

- forms: four melds + pair, seven pairs (``win.forms``); with ``win.seven_pairs_allow_quads``
  four identical concealed tiles count as two pairs and make the "dragon" seven pairs (yuxi.md "Winning hands");
- the seven-pairs family is exclusive and ``pure_triple_dragon_seven_pairs`` replaces
  ``full_flush`` (``scoring.exclusions``, yuxi.md "Scoring table");
- ``basic_win`` applies only when no other pattern does, and a hand scoring only patterns of
  ``win.self_draw_only_patterns`` (``basic_win``) may be won only by self-draw (yuxi.md "Winning hands");
- situational patterns come from :attr:`HandContext.situations` (CLI.md names):
  ``kong_replacement`` / ``bloom_tile`` → ``kong_on_flower`` (G-YX-3),
  ``double_kong_replacement`` → ``kong_on_flower`` + ``double_kong_on_flower`` (×4),
  ``discard_after_kong`` → ``kong_discard_win``, ``robbing_kong`` → ``robbing_kong`` (G-YX-4),
  ``heavenly`` → ``heavenly_win``, ``earthly`` → ``earthly_win``,
  ``ten_honour_discards`` → ``ten_old_men`` (the engine tracks G-YX-8);
- payments: :func:`mahjong_tui.scoring.settlement.payments_for_score` (yuxi.md "Settlement").
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from .. import tiles as T
from . import patterns as P
from .common import apply_exclusions, best_scored, not_complete_reason, plain_number, win_arrangements
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant
    from .common import Arrangement

UNIT = "multiplier"
KIND = "multipliers"

_TABLES = ("multipliers",)


def is_full_flush(tiles: Iterable[int]) -> bool:
    """Every tile of one number suit, no honours (yuxi.md "Scoring table" ``full_flush``)."""
    suits = set()
    for t in tiles:
        if not T.is_suited(t):
            return False
        suits.add(T.suit_of(t))
    return len(suits) == 1


# --------------------------------------------------------------------------------------
# detectors: the pattern library, as variants/yuxi.toml lists it
# --------------------------------------------------------------------------------------

def detect(variant: "Variant", ctx: HandContext, arr: "Arrangement") -> list[PatternScore]:
    """The patterns of yuxi.md "Scoring table" that ``arr`` (one arrangement of the hand) scores, before the
    exclusions (``basic_win``, ``alone``, only when nothing else does).  The patterns are the
    variant's ``[scoring.patterns]`` (:mod:`~mahjong_tui.scoring.patterns`); only ids present
    in its ``[scoring.multipliers]`` table are returned, with the table's values."""
    found = P.detect(variant, P.Hand(variant, ctx, arr), tables=_TABLES)
    return P.scores(variant, found, _TABLES, {"multipliers": KIND})


def score_arrangement(variant: "Variant", ctx: HandContext, arr: "Arrangement") -> tuple[float, float, list[PatternScore]]:
    """(capped multiplier, uncapped product, patterns) of one arrangement (yuxi.md "Scoring table", G-YX-7)."""
    patterns = apply_exclusions(variant, detect(variant, ctx, arr))
    capped, m = P.combine_product(variant, patterns)
    return capped, m, patterns



def __getattr__(name: str):
    """``PATTERN_IDS`` (frozenset) and ``DESCRIPTIONS`` (id → a player's words): the patterns
    ``variants/yuxi.toml`` lists (:func:`mahjong_tui.scoring.patterns.shipped`)."""
    if name == "PATTERN_IDS":
        return P.shipped("yuxi", "ids")
    if name == "DESCRIPTIONS":
        return P.shipped("yuxi", "names")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# --------------------------------------------------------------------------------------
# scheme API
# --------------------------------------------------------------------------------------

def evaluate(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal Yuxi win and score it (seed 000; yuxi.md "Winning hands", "Scoring table", "Settlement").

    Every arrangement of the hand (:func:`mahjong_tui.scoring.common.arrangements`) is
    scored; the one with the highest capped multiplier is reported (common.md
    "Decomposition rule").  ``value`` = min(M, ``scoring.limit``) in unit ``"multiplier"``; ``payments`` from
    :func:`~mahjong_tui.scoring.settlement.payments_for_score` (V = value × ``scoring.base``).

    ``winning`` is False with a ``reason`` when the tiles form no allowed shape, when the
    value is under ``win.minimum``, or when the hand scores only patterns of
    ``win.self_draw_only_patterns`` (a basic win) and was not self-drawn (yuxi.md "Winning hands").
    """
    arrs = win_arrangements(variant, ctx)
    if not arrs:
        return ScoreResult(winning=False, unit=UNIT, reason=not_complete_reason(variant))

    def score(arr: "Arrangement") -> tuple[tuple[float, float], float, list[PatternScore]]:
        value, raw, patterns = score_arrangement(variant, ctx, arr)
        return (value, raw), value, patterns

    result = best_scored(arrs, UNIT, score)
    value, patterns = result.value, result.patterns

    only = set(variant.win["self_draw_only_patterns"])
    if only and patterns and all(p.id in only for p in patterns) and not ctx.self_draw:
        names = ", ".join(sorted({p.id for p in patterns}))
        return replace(result, winning=False, reason=(
            f"a basic win (no pattern but {names}) may be won only by self-draw, not on a discard"
        ))
    minimum = variant.win["minimum"]
    if minimum and value < minimum:
        return replace(result, winning=False, reason=f"×{value}: a win needs at least ×{plain_number(minimum)}")

    from .settlement import payments_for_score

    return replace(result, payments=payments_for_score(variant, result, ctx))


def score_loser(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """A non-winner's hand scores nothing in Yuxi (yuxi.md "Settlement": only the winner is paid)."""
    return ScoreResult(winning=False, value=0, unit=UNIT, reason="only the winner scores in this variant")


__all__ = ["evaluate", "score_loser", "detect", "is_full_flush"]
