"""The ``multiplier`` scoring scheme: Yuxi Flower Blooming mahjong (seed 000, yuxi.md "Winning hands", "Scoring table", "Settlement").

Every pattern of the variant's ``[scoring.multipliers]`` table is a multiplier; the hand's
multiplier M is the product of the multipliers of the patterns that apply (G-YX-7), capped at
``scoring.limit`` (32; 0 = uncapped).  The values come from the variant file; this module
only holds the detectors, by pattern id.

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
from .common import all_tiles, apply_exclusions, best_scored, not_complete_reason, plain_number, win_arrangements
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant
    from .common import Arrangement

UNIT = "multiplier"
KIND = "multipliers"

#: Every pattern id this scheme can detect (yuxi.md "Scoring table"); ``variant.py`` validates
#: ``[scoring.multipliers]`` against it.
PATTERN_IDS: frozenset[str] = frozenset({
    "basic_win", "all_triplets", "full_flush", "seven_pairs", "ten_old_men",
    "kong_on_flower", "double_kong_on_flower", "kong_discard_win", "robbing_kong",
    "dragon_seven_pairs", "double_dragon_seven_pairs", "triple_dragon_seven_pairs",
    "pure_triple_dragon_seven_pairs", "four_great_blessings", "heavenly_win", "earthly_win",
})

#: A player's words for each pattern (seed 000 payout table).
DESCRIPTIONS: dict[str, str] = {
    "basic_win": "Basic Win (Ping Hu): no other pattern; self-draw only",
    "all_triplets": "All Triplets (Peng Peng Hu): four pungs/kongs and a pair",
    "full_flush": "Full Flush (Qing Yi Se): one number suit, no honours",
    "seven_pairs": "Seven Pairs (Xiao Qi Dui)",
    "ten_old_men": "Ten Old Men (Shi Lao Tou): first ten discards all honours, none claimed",
    "kong_on_flower": "Kong on Flower (Gang Shang Hua): won on a kong replacement or bloom tile",
    "double_kong_on_flower": "Double Kong on Flower (Shuang Gang Shang Hua): after successive kongs",
    "kong_discard_win": "Kong Discard Win (Gang Shang Pao): won on a discard made after a kong",
    "robbing_kong": "Robbing a Kong (Qiang Gang Hu)",
    "dragon_seven_pairs": "Dragon Seven Pairs (Long Qi Dui): one set of four as two pairs",
    "double_dragon_seven_pairs": "Double Dragon Seven Pairs: two sets of four",
    "triple_dragon_seven_pairs": "Triple Dragon Seven Pairs: three sets of four",
    "pure_triple_dragon_seven_pairs": "Pure Triple Dragon Seven Pairs: triple dragon seven pairs in one suit",
    "four_great_blessings": "Four Great Blessings (Da Si Xi): pungs/kongs of all four winds",
    "heavenly_win": "Heavenly Win (Tian Hu): the dealer's dealt hand",
    "earthly_win": "Earthly Win (Di Hu): on the dealer's first discard",
}

# Situation → pattern ids it scores (yuxi.md "Scoring table"; CLI.md situation names).
_SITUATION_PATTERNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ten_honour_discards", ("ten_old_men",)),
    ("kong_replacement", ("kong_on_flower",)),
    ("bloom_tile", ("kong_on_flower",)),
    ("double_kong_replacement", ("kong_on_flower", "double_kong_on_flower")),
    ("discard_after_kong", ("kong_discard_win",)),
    ("robbing_kong", ("robbing_kong",)),
    ("heavenly", ("heavenly_win",)),
    ("earthly", ("earthly_win",)),
)

_SEVEN_PAIRS_BY_QUADS = {
    0: "seven_pairs",
    1: "dragon_seven_pairs",
    2: "double_dragon_seven_pairs",
    3: "triple_dragon_seven_pairs",
}


# --------------------------------------------------------------------------------------
# hand facts
# --------------------------------------------------------------------------------------

def is_full_flush(tiles: Iterable[int]) -> bool:
    """Every tile of one number suit, no honours (yuxi.md "Scoring table" ``full_flush``)."""
    suits = set()
    for t in tiles:
        if not T.is_suited(t):
            return False
        suits.add(T.suit_of(t))
    return len(suits) == 1


def quad_count(ctx: HandContext) -> int:
    """Kinds held four times among the concealed tiles: the sets of four that a seven-pairs
    hand counts as two pairs each (yuxi.md "Winning hands", ``win.seven_pairs_allow_quads``)."""
    counts = T.counts_of(ctx.concealed)
    return sum(1 for c in counts if c == 4)


# --------------------------------------------------------------------------------------
# detectors
# --------------------------------------------------------------------------------------

def _triplets(arr: "Arrangement") -> list:
    return [g for g in arr.groups if g.kind in ("pung", "kong")]


def detect(variant: "Variant", ctx: HandContext, arr: "Arrangement") -> list[PatternScore]:
    """The patterns of yuxi.md "Scoring table" that ``arr`` (one arrangement of the hand) scores, before the
    exclusions and before ``basic_win`` is considered.  Only ids present in the variant's
    ``[scoring.multipliers]`` table are returned, with the table's values."""
    table = variant.scoring["multipliers"]
    found: list[str] = []
    tiles = all_tiles(ctx)
    flush = is_full_flush(tiles)

    if arr.form == "standard":
        trips = _triplets(arr)
        melds = [g for g in arr.groups if g.kind != "pair"]
        if len(melds) == 4 and len(trips) == 4:
            found.append("all_triplets")
        wind_trips = {g.tiles[0] for g in trips if g.tiles[0] in T.WINDS}
        if wind_trips >= set(T.WINDS):
            found.append("four_great_blessings")
    elif arr.form == "seven_pairs":
        quads = quad_count(ctx) if variant.win["seven_pairs_allow_quads"] else 0
        # seven_pairs is the family's base; each dragon member by its exact number of sets
        # of four (yuxi.md "Scoring table"); the family exclusion keeps only the highest.
        found.append("seven_pairs")
        if quads in _SEVEN_PAIRS_BY_QUADS and quads:
            found.append(_SEVEN_PAIRS_BY_QUADS[quads])
        if quads == 3 and flush:
            found.append("pure_triple_dragon_seven_pairs")
    if flush:
        found.append("full_flush")

    for situation, pids in _SITUATION_PATTERNS:
        if situation in ctx.situations:
            found.extend(p for p in pids if p not in found)

    return [
        PatternScore(pid, table[pid], 1, KIND, DESCRIPTIONS.get(pid, pid))
        for pid in found if pid in table
    ]


def _product(patterns: Iterable[PatternScore]) -> float:
    m: float = 1
    for p in patterns:
        m *= p.value ** p.count
    return m


def _capped(variant: "Variant", m: float) -> float:
    cap = variant.scoring["limit"]
    return min(m, cap) if cap else m


def score_arrangement(variant: "Variant", ctx: HandContext, arr: "Arrangement") -> tuple[float, float, list[PatternScore]]:
    """(capped multiplier, uncapped product, patterns) of one arrangement (yuxi.md "Scoring table", G-YX-7)."""
    patterns = apply_exclusions(variant, detect(variant, ctx, arr))
    table = variant.scoring["multipliers"]
    if not patterns and "basic_win" in table:
        patterns = [PatternScore("basic_win", table["basic_win"], 1, KIND, DESCRIPTIONS["basic_win"])]
    m = _product(patterns)
    return _capped(variant, m), m, patterns


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


__all__ = ["PATTERN_IDS", "evaluate", "score_loser", "detect"]
