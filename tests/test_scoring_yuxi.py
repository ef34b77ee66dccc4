"""Yuxi Flower Blooming scoring (seed 000; yuxi.md "Winning hands", "Scoring table", "Settlement"): the ``multiplier`` scheme.

One test per pattern id of ``[scoring.multipliers]`` and per exclusion family, the basic-win
self-draw rule, the cap, and the settlement examples of yuxi.md "Settlement".  Hands are written in the
hand-string notation (``CLI.md``); the arithmetic is worked by hand in the comments.
Winner at East unless a test says otherwise; payments are keyed by seat wind.
"""

from __future__ import annotations

import pytest

from mahjong_tui import scoring
from mahjong_tui.scoring import evaluate, multiplier
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.variant import load_variant

from .helpers import nonzero_payments as paid, pattern_counts as ids, scorer

YX = load_variant("yuxi")

# A hand with no pattern at all: chows in three suits, mixed pair.  123m 234m 456t 789s 55s.
PLAIN = "123m234m456t789s55s +5s"


score = scorer(evaluate, YX)


# ---------------------------------------------------------------------------------------
# the table and the scheme plumbing
# ---------------------------------------------------------------------------------------

def test_pattern_ids_match_the_variant_table():
    assert set(YX.scoring["multipliers"]) == multiplier.PATTERN_IDS


def test_dispatch_through_scoring_package():
    r = scoring.evaluate(YX, context_from_notation(PLAIN, self_draw=True))
    assert r.winning and r.unit == "multiplier"


def test_score_loser_is_zero():
    r = multiplier.score_loser(YX, context_from_notation("123m234m456t789s5s", winner=False))
    assert r.value == 0 and not r.winning


def test_incomplete_hand_is_not_a_win():
    r = score("123m234m456t789s56s +5s", self_draw=True)
    assert not r.winning and "not a winning hand" in r.reason and r.payments is None


def test_thirteen_orphans_is_not_a_form():
    # G-YX-6: 19t19s19m ESWN CFP + P is not a winning form in Yuxi.
    r = score("19t19s19mESWNCFPP +P", self_draw=True)
    assert not r.winning


# ---------------------------------------------------------------------------------------
# basic_win (yuxi.md "Winning hands"): only when nothing else applies; self-draw only
# ---------------------------------------------------------------------------------------

def test_basic_win_refused_on_a_discard():
    r = score(PLAIN, discarder="S")
    assert not r.winning
    assert "self-draw" in r.reason
    assert ids(r) == {"basic_win": 1} and r.payments is None


def test_basic_win_allowed_self_drawn():
    # M = 1; each of the three pays 1 × base 1; the winner +3.
    r = score(PLAIN, self_draw=True)
    assert r.winning and r.value == 1 and ids(r) == {"basic_win": 1}
    assert r.payments == {"E": 3, "S": -1, "W": -1, "N": -1}


def test_basic_win_not_listed_when_another_pattern_applies():
    r = score("111m222t333sEEE55m +5m", discarder="S")
    assert "basic_win" not in ids(r)


# ---------------------------------------------------------------------------------------
# hand patterns
# ---------------------------------------------------------------------------------------

def test_all_triplets_on_a_discard():
    # 111m 222t 333s EEE 55m: all_triplets ×2 → M = 2; the discarder (S) pays 2.
    r = score("111m222t333sEEE55m +5m", discarder="S")
    assert r.winning and ids(r) == {"all_triplets": 1} and r.value == 2
    assert paid(r) == {"E": 2, "S": -2}


def test_full_flush():
    # 123m 456m 789m 234m 55m: full_flush ×2 → M = 2 (every arrangement is worth 2).
    r = score("123456789m234m55m +5m", discarder="W")
    assert ids(r) == {"full_flush": 1} and r.value == 2
    assert paid(r) == {"E": 2, "W": -2}


def test_all_triplets_and_full_flush_self_drawn_gaps_example():
    # yuxi.md "Settlement" example: 111m 222m 333m 555m 77m self-drawn.  The pung reading scores
    # all_triplets ×2 × full_flush ×2 = 4 (the chow reading 123m×3 only 2): M = 4,
    # each opponent pays 4, the winner +12.
    r = score("111222333555m77m +7m", self_draw=True)
    assert r.value == 4 and ids(r) == {"all_triplets": 1, "full_flush": 1}
    assert set(r.decomposition) >= {"111m", "222m", "333m", "555m", "77m"}
    assert r.payments == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_seven_pairs():
    # 11m 22m 33t 44t 55s 66s EE: seven_pairs ×2 = 2.
    r = score("1122m3344t5566sEE +E", discarder="N")
    assert r.form == "seven_pairs" and ids(r) == {"seven_pairs": 1} and r.value == 2
    assert paid(r) == {"E": 2, "N": -2}


def test_seven_pairs_full_flush_beats_the_chow_reading():
    # 11223344556677m: as 123m 123m 456m 456m 77m only full_flush (2); as seven pairs
    # seven_pairs ×2 × full_flush ×2 = 4.  The best reading is reported.
    r = score("11223344556677m +7m", discarder="S")
    assert r.form == "seven_pairs" and r.value == 4
    assert ids(r) == {"seven_pairs": 1, "full_flush": 1}


def test_dragon_seven_pairs():
    # 1111m counts as two pairs: one set of four → dragon_seven_pairs ×4 (seven_pairs dropped).
    r = score("1111m3344t5566sEE +E", discarder="S")
    assert ids(r) == {"dragon_seven_pairs": 1} and r.value == 4


def test_double_dragon_seven_pairs():
    # 1111m 3333t: two sets of four → ×8.
    r = score("1111m3333t5566sEE +E", discarder="S")
    assert ids(r) == {"double_dragon_seven_pairs": 1} and r.value == 8


def test_triple_dragon_seven_pairs():
    # 1111m 3333t 5555s EE: three sets of four → ×16.
    r = score("1111m3333t5555sEE +E", discarder="S")
    assert ids(r) == {"triple_dragon_seven_pairs": 1} and r.value == 16


def test_pure_triple_dragon_seven_pairs_on_a_discard_gaps_example():
    # yuxi.md "Settlement" example: 1111m 3333m 5555m 77m on a discard → pure_triple_dragon_seven_pairs
    # ×32 (replaces triple_dragon_seven_pairs and full_flush); 32 from the discarder.
    r = score("11113333555577m +7m", discarder="W")
    assert ids(r) == {"pure_triple_dragon_seven_pairs": 1} and r.value == 32
    assert paid(r) == {"E": 32, "W": -32}


def test_sets_of_four_do_not_count_without_the_option():
    v = YX.with_options({"win.seven_pairs_allow_quads": False})
    assert not score("1111m3344t5566sEE +E", variant=v, discarder="S").winning


def test_four_great_blessings():
    # EEE SSS WWW NNN 55m: four_great_blessings ×32 × all_triplets ×2 = 64 → capped at 32.
    r = score("EEESSSWWWNNN55m +5m", discarder="S")
    assert ids(r) == {"four_great_blessings": 1, "all_triplets": 1}
    assert r.value == 32
    assert paid(r) == {"E": 32, "S": -32}


# ---------------------------------------------------------------------------------------
# situational patterns
# ---------------------------------------------------------------------------------------

def test_ten_old_men_makes_a_plain_hand_winnable_on_a_discard():
    # The plain hand + ten_old_men ×2 = 2: no longer a basic win, so a discard win is fine.
    r = score(PLAIN, discarder="S", situations=["ten_honour_discards"])
    assert r.winning and ids(r) == {"ten_old_men": 1} and r.value == 2
    assert paid(r) == {"E": 2, "S": -2}


def test_kong_on_flower_on_a_replacement_tile():
    # 123m 456t 789s 55s (6666m), won on the kong replacement 5s: kong_on_flower ×2 = 2;
    # self-draw: each pays 2, winner +6.
    r = score("123m456t789s55s (6666m) +5s", self_draw=True, situations=["kong_replacement"])
    assert ids(r) == {"kong_on_flower": 1} and r.value == 2
    assert r.payments == {"E": 6, "S": -2, "W": -2, "N": -2}


def test_kong_on_flower_on_a_bloom_tile_is_paid_as_a_self_draw():
    # G-YX-3 / G-YX-9: a bloom tile taken after one's own kong → kong_on_flower, all three pay,
    # even when the caller did not mark the win as self-drawn.
    r = score("123m456t789s55s (6666m) +5s", situations=["bloom_tile"])
    assert ids(r) == {"kong_on_flower": 1} and r.value == 2
    assert r.payments == {"E": 6, "S": -2, "W": -2, "N": -2}


def test_double_kong_on_flower_stacks_to_four():
    # Two kongs in succession, then the replacement wins: kong_on_flower ×2 ×
    # double_kong_on_flower ×2 = 4; each pays 4, winner +12.
    r = score("123m456t55s (6666m) [9999s] +5s", self_draw=True,
              situations=["double_kong_replacement"])
    assert ids(r) == {"kong_on_flower": 1, "double_kong_on_flower": 1} and r.value == 4
    assert r.payments == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_kong_discard_win():
    # The player to the left (N) declared a kong and then discarded the winning tile:
    # kong_discard_win ×2 = 2 from N.
    r = score(PLAIN, discarder="N", situations=["discard_after_kong"])
    assert ids(r) == {"kong_discard_win": 1} and r.value == 2
    assert paid(r) == {"E": 2, "N": -2}


def test_robbing_kong_paid_by_the_robbed_player():
    # W adds 5s to his exposed pung; E robs it: robbing_kong ×2 = 2; W pays as discarder.
    r = score(PLAIN, discarder="W", situations=["robbing_kong"])
    assert ids(r) == {"robbing_kong": 1} and r.value == 2
    assert paid(r) == {"E": 2, "W": -2}


def test_heavenly_win():
    # The dealer's dealt 14 tiles: heavenly_win ×32; paid as a self-draw: each 32, +96.
    r = score(PLAIN, self_draw=True, situations=["heavenly"])
    assert ids(r) == {"heavenly_win": 1} and r.value == 32
    assert r.payments == {"E": 96, "S": -32, "W": -32, "N": -32}


def test_earthly_win_paid_by_the_dealer():
    # South wins on the dealer's first discard: earthly_win ×32, East pays 32.
    r = score(PLAIN, seat_wind="S", situations=["earthly"])
    assert ids(r) == {"earthly_win": 1} and r.value == 32
    assert paid(r) == {"S": 32, "E": -32}


# ---------------------------------------------------------------------------------------
# combining, cap, exclusion families, base
# ---------------------------------------------------------------------------------------

def test_multipliers_multiply():
    # 111m 333m 555m 77m (2222m) on the kong replacement: all_triplets 2 × full_flush 2 ×
    # kong_on_flower 2 = 8.
    r = score("111333555m77m (2222m) +7m", self_draw=True, situations=["kong_replacement"])
    assert ids(r) == {"all_triplets": 1, "full_flush": 1, "kong_on_flower": 1}
    assert r.value == 8


def test_cap_at_32_and_uncapped_option():
    # EEE SSS WWW NNN 55m self-drawn heavenly: 32 × 2 × 32 = 2048 → 32 with the cap (G-YX-7);
    # with scoring.limit = 0 the product stands.
    hand = "EEESSSWWWNNN55m +5m"
    assert score(hand, self_draw=True, situations=["heavenly"]).value == 32
    v = YX.with_options({"scoring.limit": 0})
    assert score(hand, variant=v, self_draw=True, situations=["heavenly"]).value == 2048
    assert score(hand, variant=v, discarder="S").value == 64   # 32 × 2


def test_seven_pairs_family_keeps_only_the_highest():
    # 1111m 3333t 5555s EE would list seven_pairs 2, triple_dragon 16; only triple_dragon
    # scores (family exclusive): 16, not 32.
    r = score("1111m3333t5555sEE +E", discarder="S")
    family = {"seven_pairs", "dragon_seven_pairs", "double_dragon_seven_pairs",
              "triple_dragon_seven_pairs", "pure_triple_dragon_seven_pairs"}
    assert set(ids(r)) & family == {"triple_dragon_seven_pairs"}


def test_pure_triple_dragon_replaces_full_flush_even_uncapped():
    # Without the cap the exclusion still holds: 32 (not 32 × 2 = 64, not 16 × 2 × 32).
    v = YX.with_options({"scoring.limit": 0})
    r = score("11113333555577m +7m", variant=v, discarder="S")
    assert ids(r) == {"pure_triple_dragon_seven_pairs": 1} and r.value == 32


def test_base_score_scales_payments():
    # base 2: V = 2 × M; all_triplets (M = 2) on S's discard → S pays 4.
    v = YX.with_options({"scoring.base": 2})
    r = score("111m222t333sEEE55m +5m", variant=v, discarder="S")
    assert r.value == 2 and paid(r) == {"E": 4, "S": -4}


def test_discard_win_without_known_discarder_has_no_payments():
    r = score("111m222t333sEEE55m +5m")
    assert r.winning and r.payments is None


@pytest.mark.parametrize("pid", sorted(multiplier.PATTERN_IDS))
def test_every_pattern_has_a_description(pid):
    assert multiplier.DESCRIPTIONS[pid]
