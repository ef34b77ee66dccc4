"""The ``fan`` scoring scheme: Yangzhou mahjong (seed 004, yangzhou.md "Winning hands", "Fan table", "Settlement").

Every pattern of the variant's ``[scoring.fan]`` table adds its fan (``count`` times for the
"each" patterns); the exclusion families of ``scoring.exclusions`` keep only their
highest-valued member (G-YZ-5); a win needs at least ``win.minimum`` fan (15, yangzhou.md "Winning hands").
The values come from the variant file; this module only holds the detectors, by pattern id.

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

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Sequence

from .. import tiles as T
from .common import (all_tiles, apply_exclusions, best_scored, not_complete_reason, plain_number, waits_of_13,
                     win_arrangements)
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant
    from .common import Arrangement

UNIT = "fan"
KIND = "fan"

#: Every pattern id this scheme can detect (yangzhou.md "Fan table"); ``variant.py`` validates
#: ``[scoring.fan]`` against it.
PATTERN_IDS: frozenset[str] = frozenset({
    "basic_win", "no_melds", "sequence_hand", "edge_wait", "missing_one_suit", "terminal_pair",
    "no_terminals", "matching_sequences", "continuous_sequences", "elder_younger",
    "concealed_triplet", "single_wait", "dragon_triplet", "exposed_kong", "concealed_kong",
    "two_identical_sequences", "pure_straight", "three_suits_same_sequence", "mixed_suit",
    "four_shared_sequences", "double_two_identical", "full_flush", "three_identical_sequences",
    "pure_all_triplets", "pure_dragon", "all_honours", "four_identical_sequences",
})

#: A player's words for each pattern (seed 004 fan table).
DESCRIPTIONS: dict[str, str] = {
    "basic_win": "Basic Win (Pi Hu)",
    "no_melds": "No Melds (Menqing): nothing claimed",
    "sequence_hand": "Sequence Hand (Ping Hu): four chows, no honours",
    "edge_wait": "Edge Wait (Yazi): waiting on one tile, the edge or middle of a chow",
    "missing_one_suit": "Missing One Suit (Que Yi): a number suit absent",
    "terminal_pair": "Terminal Pair (Yao Tou): a pair of terminals",
    "no_terminals": "No Terminals (Duan Yao): no terminals; honours allowed",
    "matching_sequences": "Matching Sequences (Qi Xiang): same chow in two suits",
    "continuous_sequences": "Continuous Sequences (Lian Fu): two chows of one suit 3 apart",
    "elder_younger": "Elder-Younger (Lao Shao): 123 and 789 of one suit",
    "concealed_triplet": "Concealed Triplet (Zi Ge): a pung of drawn tiles (each)",
    "single_wait": "Single Wait (Du Diao): waiting on the pair alone",
    "dragon_triplet": "Dragon Triplet",
    "exposed_kong": "Exposed Kong (Ming Gang)",
    "concealed_kong": "Concealed Kong (An Gang)",
    "two_identical_sequences": "Two Identical Sequences (Yi Ban)",
    "pure_straight": "Pure Straight (Yi Tiao Long): 123 456 789 of one suit",
    "three_suits_same_sequence": "Three Suits Same Sequence (San Fu Tong)",
    "mixed_suit": "Mixed Suit (Hun Yi Se): one suit and honours",
    "four_shared_sequences": "Four Shared Sequences (Si Fu Tong)",
    "double_two_identical": "Double Two Identical Sequences (Shuang Ban Ban)",
    "full_flush": "Full Flush (Qing Yi Se): one suit, no honours",
    "three_identical_sequences": "Three Identical Sequences (Tie Ban)",
    "pure_all_triplets": "Pure All Triplets (Qing Dui Dui)",
    "pure_dragon": "Pure Dragon (Qing Long): full flush with 123 456 789",
    "all_honours": "All Honours (Feng Qing)",
    "four_identical_sequences": "Four Identical Sequences (Gang Ban)",
}


# --------------------------------------------------------------------------------------
# hand facts
# --------------------------------------------------------------------------------------

def _is_terminal(t: int) -> bool:
    return T.is_suited(t) and T.rank_of(t) in (1, 9)


def _self_drawn(g, ctx: HandContext) -> bool:
    """A group is self-drawn only if it is not declared from a claim, and it does not hold a
    winning tile that came from a discard (common.md "Melds")."""
    if not g.concealed:
        return False
    if g.declared and g.kong_type != "concealed":
        return False
    if g.has_winning_tile and not ctx.self_draw:
        return False
    return True


# --------------------------------------------------------------------------------------
# detectors
# --------------------------------------------------------------------------------------

def detect(variant: "Variant", ctx: HandContext, arr: "Arrangement", waits: Sequence[int] | None) -> list[PatternScore]:
    """The fan patterns of yangzhou.md "Fan table" that ``arr`` scores, before the exclusion families.

    ``waits`` is the wait set of the 13-tile hand before the winning tile (None when there
    is no winning tile); only ids present in the variant's ``[scoring.fan]`` table are
    returned, with the table's values and a count for the "each" patterns.
    """
    table = variant.scoring["fan"]
    found: dict[str, int] = {}

    def add(pid: str, count: int = 1) -> None:
        if count > 0:
            found[pid] = found.get(pid, 0) + count

    tiles = all_tiles(ctx)
    suits = {T.suit_of(t) for t in tiles if T.is_suited(t)}
    honours = [t for t in tiles if T.is_honour(t)]
    groups = list(arr.groups)
    melds = [g for g in groups if g.kind != "pair"]
    pairs = [g for g in groups if g.kind == "pair"]
    chows = [g for g in melds if g.kind == "chow"]
    trips = [g for g in melds if g.kind in ("pung", "kong")]
    kongs = [g for g in melds if g.kind == "kong"]
    chow_starts = Counter(min(g.tiles) for g in chows)   # chow identity = its lowest tile

    add("basic_win")                                    # G-YZ-3
    if all(m.kong_type == "concealed" for m in ctx.melds):
        add("no_melds")
    if len(chows) == 4 and not honours:
        add("sequence_hand")

    if waits is not None and len(set(waits)) == 1:
        wait = arr.wait   # what the winning tile completed in this arrangement (common.md "Decomposition rule")
        if wait in ("edge", "closed"):
            add("edge_wait")
        elif wait == "pair":
            add("single_wait")

    if len(suits) == 2:
        add("missing_one_suit")
    if pairs and _is_terminal(pairs[0].tiles[0]):
        add("terminal_pair")
    if not any(_is_terminal(t) for t in tiles):
        add("no_terminals")

    # chow relations (each small one once per hand, G-YZ-5)
    by_rank: dict[int, set[int]] = {}
    for start in chow_starts:
        by_rank.setdefault(T.rank_of(start), set()).add(T.suit_of(start))
    if any(len(s) >= 2 for s in by_rank.values()):
        add("matching_sequences")
    if any(len(s) >= 3 for s in by_rank.values()):
        add("three_suits_same_sequence")
    if len(chows) == 4 and any(
        len(by_rank[r]) >= 3 and sum(n for st, n in chow_starts.items() if T.rank_of(st) == r) == 4
        for r in by_rank
    ):
        add("four_shared_sequences")
    if any(start + 3 in chow_starts and T.suit_of(start + 3) == T.suit_of(start) for start in chow_starts):
        add("continuous_sequences")
    if any(T.rank_of(start) == 1 and start + 6 in chow_starts for start in chow_starts):
        add("elder_younger")
    straight = any(
        T.rank_of(start) == 1 and start + 3 in chow_starts and start + 6 in chow_starts
        for start in chow_starts
    )
    if straight:
        add("pure_straight")
    most = max(chow_starts.values(), default=0)
    if most >= 2:
        add("two_identical_sequences")
    if sum(n // 2 for n in chow_starts.values()) >= 2:
        add("double_two_identical")
    if most >= 3:
        add("three_identical_sequences")
    if most >= 4:
        add("four_identical_sequences")

    # triplets and kongs
    add("concealed_triplet", sum(1 for g in trips if g.kind == "pung" and _self_drawn(g, ctx)))
    add("dragon_triplet", sum(1 for g in trips if T.is_dragon(g.tiles[0])))
    add("exposed_kong", sum(1 for g in kongs if g.kong_type in ("exposed", "added")))
    add("concealed_kong", sum(1 for g in kongs if g.kong_type == "concealed"))

    # suits
    if len(suits) == 1 and honours:
        add("mixed_suit")
    if len(suits) == 1 and not honours:
        add("full_flush")
        if len(trips) == 4:
            add("pure_all_triplets")
        if straight:
            add("pure_dragon")
    if not suits and tiles:
        add("all_honours")

    return [
        PatternScore(pid, table[pid], n, KIND, DESCRIPTIONS.get(pid, pid))
        for pid, n in found.items() if pid in table
    ]


def total_fan(patterns: Iterable[PatternScore]) -> float:
    """Sum of value × count."""
    return sum(p.total for p in patterns)


def score_arrangement(variant: "Variant", ctx: HandContext, arr: "Arrangement",
                      waits: Sequence[int] | None) -> tuple[float, list[PatternScore]]:
    """(total fan, patterns after exclusions) of one arrangement (yangzhou.md "Fan table", G-YZ-5)."""
    patterns = apply_exclusions(variant, detect(variant, ctx, arr, waits))
    return total_fan(patterns), patterns


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


__all__ = ["PATTERN_IDS", "evaluate", "score_loser", "detect"]
