"""The ``fan`` scoring scheme: Yangzhou mahjong (seed 004, yangzhou.md "Winning hands", "Fan table", "Settlement").

Every pattern of the variant's ``[scoring.fan]`` table adds its fan (``count`` times for the
"each" patterns); the exclusion families of ``scoring.exclusions`` keep only their
highest-valued member (G-YZ-5); a win needs at least ``win.minimum`` fan (15, yangzhou.md "Winning hands").
The patterns and their values come from the variant file (``[scoring.patterns]``, detected by
:mod:`~mahjong_tui.scoring.patterns`); this module reads the arrangements and adds the fan up.

Pattern definitions (yangzhou.md "Fan table"):

- ``basic_win`` counts for every win (G-YZ-3);
- ``edge_wait`` / ``single_wait``: the 13-tile hand before the winning tile waited on exactly
  one kind (:func:`~mahjong_tui.scoring.common.waits_of_13`, by shape, common.md "Wait set") and, in the
  arrangement being scored, the winning tile completes a chow as its edge (12→3, 89→7) or
  middle tile / completes the pair;
- ``concealed_triplet``: each pung (not kong) formed only from self-drawn tiles; a pung
  completed by a winning discard, or claimed, is not concealed (common.md "Melds");
- the small chow patterns (``matching_sequences``, ``continuous_sequences``,
  ``elder_younger``) count once per hand (G-YZ-5);
- ``no_terminals`` allows honours (G-YZ-4).

Payments, including the burdened payment (pao) of yangzhou.md "Settlement" / G-YZ-6, come from
:func:`mahjong_tui.scoring.settlement.payments_for_score`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Sequence

from . import patterns as P
from .common import (apply_exclusions, best_scored, not_complete_reason, plain_number, waits_of_13,
                     win_arrangements)
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant
    from .common import Arrangement

UNIT = "fan"
KIND = "fan"


# --------------------------------------------------------------------------------------
# detectors: the pattern library, as variants/yangzhou.toml lists it
# --------------------------------------------------------------------------------------

def detect(variant: "Variant", ctx: HandContext, arr: "Arrangement", waits: Sequence[int] | None) -> list[PatternScore]:
    """The fan patterns of yangzhou.md "Fan table" that ``arr`` scores, before the exclusion families.

    The patterns are the variant's ``[scoring.patterns]`` (:mod:`~mahjong_tui.scoring.patterns`);
    ``waits`` is the wait set of the 13-tile hand before the winning tile (None when there
    is no winning tile); only ids present in the variant's ``[scoring.fan]`` table are
    returned, with the table's values and a count for the "each" patterns.
    """
    hand = P.Hand(variant, ctx, arr)
    hand.__dict__["waits"] = tuple(waits) if waits is not None else None
    return P.scores(variant, P.detect(variant, hand, tables=_TABLES), _TABLES, {"fan": KIND})


_TABLES = ("fan",)


def total_fan(patterns: Iterable[PatternScore]) -> float:
    """Sum of value × count."""
    return sum(p.total for p in patterns)


def score_arrangement(variant: "Variant", ctx: HandContext, arr: "Arrangement",
                      waits: Sequence[int] | None) -> tuple[float, list[PatternScore]]:
    """(total fan, patterns after exclusions) of one arrangement (yangzhou.md "Fan table", G-YZ-5)."""
    patterns = apply_exclusions(variant, detect(variant, ctx, arr, waits))
    return total_fan(patterns), patterns



def __getattr__(name: str):
    """``PATTERN_IDS`` (frozenset) and ``DESCRIPTIONS`` (id → a player's words): the patterns
    ``variants/yangzhou.toml`` lists (:func:`mahjong_tui.scoring.patterns.shipped`)."""
    if name == "PATTERN_IDS":
        return P.shipped("yangzhou", "ids")
    if name == "DESCRIPTIONS":
        return P.shipped("yangzhou", "names")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# --------------------------------------------------------------------------------------
# scheme API
# --------------------------------------------------------------------------------------

def evaluate(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal Yangzhou win and score it (seed 004; yangzhou.md "Winning hands", "Fan table", "Settlement").

    Every arrangement of the hand (:func:`mahjong_tui.scoring.common.arrangements`) is
    scored and the one with the most fan is reported (common.md "Decomposition rule").  ``value`` = total fan,
    unit ``"fan"``.  Below ``win.minimum`` (15) the result has ``winning`` False, the
    breakdown and the total, and a reason such as ``"14 fan: a win needs at least 15"``.
    ``payments`` come from :func:`~mahjong_tui.scoring.settlement.payments_for_score`
    (self-draw: each pays F; discard: the discarder pays 2F; pao: the feeder of the third
    exposed meld pays all, yangzhou.md "Settlement" / G-YZ-6).
    """
    arrs = win_arrangements(variant, ctx)
    if not arrs:
        return ScoreResult(winning=False, unit=UNIT, reason=not_complete_reason(variant))

    waits = list(waits_of_13(variant, ctx)) if ctx.winning_tile is not None else None

    def score(arr: "Arrangement") -> tuple[float, float, list[PatternScore]]:
        total, patterns = score_arrangement(variant, ctx, arr, waits)
        return total, total, patterns

    result = best_scored(arrs, UNIT, score)
    total = result.value
    minimum = variant.win["minimum"]
    if total < minimum:
        return replace(result, winning=False, reason=f"{total} fan: a win needs at least {plain_number(minimum)}")

    from .settlement import payments_for_score

    return replace(result, payments=payments_for_score(variant, result, ctx))


def score_loser(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """A non-winner's hand scores nothing in Yangzhou (yangzhou.md "Settlement": only the winner is paid)."""
    return ScoreResult(winning=False, value=0, unit=UNIT, reason="only the winner scores in this variant")


__all__ = ["evaluate", "score_loser", "detect"]
