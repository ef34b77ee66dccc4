"""Yangzhou scoring (seed 004; yangzhou.md "Winning hands", "Fan table", "Settlement"): the ``fan`` scheme.

One test per fan id of ``[scoring.fan]`` and per exclusion family, the 15-fan minimum, the
settlement example of yangzhou.md "Settlement" and the burdened payment (pao).  Hands are written in the
hand-string notation (``CLI.md``); each comment adds the fan up by hand.  The winner sits
at East unless a test says otherwise; payments are keyed by seat wind.  Many hands here are
below 15 fan: they are not wins, but their breakdown is still reported and checked.
"""

from __future__ import annotations

import pytest

from mahjong_tui import scoring
from mahjong_tui.scoring import evaluate, fan
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.variant import load_variant

from .helpers import assert_scored, nonzero_payments as paid, pattern_counts as ids, scorer

YZ = load_variant("yangzhou")


score = scorer(evaluate, YZ)


# ---------------------------------------------------------------------------------------
# table, plumbing, minimum
# ---------------------------------------------------------------------------------------

def test_pattern_ids_match_the_variant_table():
    assert set(YZ.scoring["fan"]) == fan.PATTERN_IDS


def test_dispatch_through_scoring_package():
    r = scoring.evaluate(YZ, context_from_notation("123456789m55s777t +7t", discarder="S"))
    assert r.winning and r.unit == "fan" and r.value == 17


def test_score_loser_is_zero():
    r = fan.score_loser(YZ, context_from_notation("123456789m55s77t", winner=False))
    assert r.value == 0 and not r.winning


def test_incomplete_hand_is_not_a_win():
    r = score("123456789m56s777t +7t", discarder="S")
    assert not r.winning and "not a winning hand" in r.reason


def test_seven_pairs_is_not_a_form():
    # yangzhou.md "Winning hands": four melds + pair only.
    assert not score("1122m3344t5566sEE +E", discarder="S").winning


def test_fourteen_fan_is_refused():
    # 234m 234m 567t 678s 88s, won on 5t (13-tile wait 5t/8t: no edge_wait):
    # basic_win 1 + no_melds 1 + sequence_hand 1 + no_terminals 1 + two_identical 10 = 14.
    r = score("223344m567t678s88s +5t", discarder="S")
    assert ids(r) == {"basic_win": 1, "no_melds": 1, "sequence_hand": 1, "no_terminals": 1,
                      "two_identical_sequences": 1}
    assert r.value == 14 and not r.winning
    assert r.reason == "14 fan: a win needs at least 15"
    assert r.payments is None


# ---------------------------------------------------------------------------------------
# settlement (yangzhou.md "Settlement")
# ---------------------------------------------------------------------------------------

def test_gaps_example_discard():
    # 123m 456m 789m 55s + 77t, won on S's 7t (shanpon 5s/7t; the pung completed by the
    # discard is not concealed): pure_straight 15 + basic_win 1 + no_melds 1 = 17;
    # the discarder pays 2 × 17 = 34.
    r = score("123456789m55s777t +7t", discarder="S")
    assert ids(r) == {"pure_straight": 1, "basic_win": 1, "no_melds": 1}
    assert r.winning and r.value == 17
    assert paid(r) == {"E": 34, "S": -34}


def test_gaps_example_self_draw():
    # A 17-fan self-drawn hand: 123m 456m 789m 99s (777t), self-drawn 1m (wait 1m/4m/7m):
    # pure_straight 15 + basic_win 1 + terminal_pair 1 = 17; each pays 17, the winner +51.
    r = assert_scored(score("123456789m99s (777t) +1m", self_draw=True),
                      {"pure_straight": 1, "basic_win": 1, "terminal_pair": 1}, 17)
    assert r.payments == {"E": 51, "S": -17, "W": -17, "N": -17}


def test_self_drawn_pung_is_a_concealed_triplet():
    # The yangzhou.md "Settlement" discard hand self-drawn: the 777t pung is now all self-drawn → +1 = 18.
    r = score("123456789m55s777t +7t", self_draw=True)
    assert ids(r)["concealed_triplet"] == 1 and r.value == 18
    assert r.payments == {"E": 54, "S": -18, "W": -18, "N": -18}


# Full flush with three claimed pungs: 789m 11m (222m) (444m) (666m), won on 7m (89 waits
# only on 7: edge).  full_flush 60 + basic_win 1 + edge_wait 1 + terminal_pair 1 = 63.
FLUSH = "11789m (222m) (444m) (666m) +7m"


def test_pao_on_a_self_draw():
    # W fed the third exposed meld: W pays the whole 3F = 189, nobody else pays.
    r = assert_scored(score(FLUSH, self_draw=True, fed_third_meld="W"),
                      {"full_flush": 1, "basic_win": 1, "edge_wait": 1, "terminal_pair": 1}, 63)
    assert paid(r) == {"E": 189, "W": -189}


def test_pao_on_a_discard_win():
    # S discards the winning tile, W fed the third meld: W pays 2F = 126, S pays nothing.
    r = score(FLUSH, discarder="S", fed_third_meld="W")
    assert paid(r) == {"E": 126, "W": -126}


def test_no_pao_without_a_feeder():
    r = score(FLUSH, discarder="S")
    assert paid(r) == {"E": 126, "S": -126}


def test_pao_on_all_honours():
    # (EEE) (SSS) (WWW) CCC FF won on W's F (single wait):
    # all_honours 240 + basic 1 + single_wait 1 + no_terminals 1 (honours allowed, G-YZ-4)
    # + concealed_triplet 1 (CCC) + dragon_triplet 1 = 245.  S fed the third meld: 2F = 490.
    r = assert_scored(score("(EEE) (SSS) (WWW) CCCFF +F", discarder="W", fed_third_meld="S"),
                      {"all_honours": 1, "basic_win": 1, "single_wait": 1, "no_terminals": 1,
                       "concealed_triplet": 1, "dragon_triplet": 1}, 245)
    assert paid(r) == {"E": 490, "S": -490}


def test_no_pao_for_a_hand_without_a_liability_pattern():
    # Pure straight hand: the feeder is named but the hand is not a pure-suit/honours hand.
    r = score("123456789m55s777t +7t", discarder="S", fed_third_meld="W")
    assert paid(r) == {"E": 34, "S": -34}


# ---------------------------------------------------------------------------------------
# small patterns (1 fan)
# ---------------------------------------------------------------------------------------

def test_basic_win_always_counts():
    assert ids(score("234m234m234m234m55t +5t", discarder="S"))["basic_win"] == 1


def test_no_melds_allows_concealed_kongs():
    # 123m 456m 789m 55s [7777t], won on 5s (single wait):
    # basic 1 + no_melds 1 + single_wait 1 + pure_straight 15 + concealed_kong 2 = 20.
    assert_scored(score("123456789m55s [7777t] +5s", discarder="S"),
                  {"basic_win": 1, "no_melds": 1, "single_wait": 1, "pure_straight": 1,
                   "concealed_kong": 1}, 20)


def test_no_melds_lost_with_an_exposed_kong():
    # Same with (7777t): basic 1 + single_wait 1 + pure_straight 15 + exposed_kong 1 = 18.
    assert_scored(score("123456789m55s (7777t) +5s", discarder="S"),
                  {"basic_win": 1, "single_wait": 1, "pure_straight": 1, "exposed_kong": 1}, 18)


def test_sequence_hand_and_edge_wait_middle_tile():
    # 123m 456m 789m 456s 55t, won on 5s into 46s (the only wait: closed = edge_wait):
    # basic 1 + no_melds 1 + sequence_hand 1 + edge_wait 1 + matching_sequences 1 (456m/456s)
    # + pure_straight 15 = 20.
    assert_scored(score("123456789m456s55t +5s", discarder="S"),
                  {"basic_win": 1, "no_melds": 1, "sequence_hand": 1, "edge_wait": 1, "matching_sequences": 1,
                   "pure_straight": 1}, 20)


def test_sequence_hand_needs_no_honours():
    # Four chows but an honour pair: no sequence_hand.
    r = score("123m345m789m (EEE) CC +C", discarder="S")
    assert "sequence_hand" not in ids(r)


def test_edge_wait_on_an_edge_tile():
    # FLUSH: 89m waiting on 7m, the only wait.
    assert ids(score(FLUSH, discarder="S"))["edge_wait"] == 1


def test_no_edge_wait_when_the_hand_waited_on_two_kinds():
    # 12m + 345m: the 13-tile hand waits on 3m and 6m → no edge_wait even if 3m is read as
    # the edge of 123m.  (777t) (999s) 55t: basic 1 only.
    r = score("123345m (777t) (999s) 55t +3m", discarder="S")
    assert "edge_wait" not in ids(r) and r.value == 1


def test_single_wait():
    # 123m 789m 456s (WWW) + 5t alone: waits only on 5t.
    # basic 1 + single_wait 1 + elder_younger 1 = 3.
    assert_scored(score("123m789m456s (WWW) 55t +5t", discarder="S"),
                  {"basic_win": 1, "single_wait": 1, "elder_younger": 1}, 3)


def test_no_single_wait_when_the_hand_waited_on_two_kinds():
    # 111m 2m waits on 2m (111+22) and 3m (11+123): winning 2m completes the pair but the wait
    # was two kinds.  basic 1 + concealed_triplet 1 (111m, all self-drawn) = 2.
    r = score("11122m (555s) (777t) (999s) +2m", discarder="S")
    assert ids(r) == {"basic_win": 1, "concealed_triplet": 1}


def test_missing_one_suit():
    # 234m 345m 567t (CCC) 66t: suits m and t only.  basic 1 + one-kind wait 1 +
    # missing_one_suit 1 + no_terminals 1 + dragon_triplet 1 = 5.
    r = score("234m345m567t (CCC) 66t +6t", discarder="S")
    got = ids(r)
    assert got["missing_one_suit"] == 1 and got["no_terminals"] == 1 and got["dragon_triplet"] == 1
    assert r.value == 5


def test_missing_one_suit_needs_exactly_two_suits():
    # Three suits (pure straight hand) → no; one suit + honours (mixed suit hand) → no.
    assert "missing_one_suit" not in ids(score("123456789m55s777t +7t", discarder="S"))
    assert "missing_one_suit" not in ids(score("123m345m789m (EEE) CC +C", discarder="S"))


def test_terminal_pair():
    assert ids(score("123456789m99s (777t) +1m", self_draw=True))["terminal_pair"] == 1
    assert "terminal_pair" not in ids(score("123456789m55s777t +7t", discarder="S"))


def test_no_terminals_allows_honours():
    # G-YZ-4: the (CCC) hand has no 1 or 9 → no_terminals, honours notwithstanding.
    assert ids(score("234m345m567t (CCC) 66t +6t", discarder="S"))["no_terminals"] == 1
    assert "no_terminals" not in ids(score(FLUSH, discarder="S"))


def test_matching_sequences():
    # 123m 123s (EEE) (555t) 99m, single wait on 9m:
    # basic 1 + single_wait 1 + terminal_pair 1 + matching_sequences 1 = 4.
    r = score("123m123s (EEE) (555t) 99m +9m", discarder="S")
    assert ids(r) == {"basic_win": 1, "single_wait": 1, "terminal_pair": 1, "matching_sequences": 1}


def test_continuous_sequences():
    # 345m 678m 234s (WWW) 99t: basic 1 + single_wait 1 + terminal_pair 1 + continuous 1 = 4.
    r = score("345m678m234s (WWW) 99t +9t", discarder="S")
    assert ids(r) == {"basic_win": 1, "single_wait": 1, "terminal_pair": 1,
                      "continuous_sequences": 1}


def test_elder_younger():
    # test_single_wait's hand: 123m + 789m.
    r = score("123m789m456s (WWW) 55t +5t", discarder="S")
    assert ids(r)["elder_younger"] == 1 and "continuous_sequences" not in ids(r)


def test_concealed_triplet_self_drawn_counts():
    # 111m 55m 234s 567t (CCC), self-drawn 1m (shanpon 1m/5m): 111m all self-drawn.
    # basic 1 + concealed_triplet 1 + dragon_triplet 1 = 3.
    r = score("111m55m234s567t (CCC) +1m", self_draw=True)
    assert ids(r) == {"basic_win": 1, "concealed_triplet": 1, "dragon_triplet": 1}


def test_concealed_triplet_not_when_completed_by_the_discard():
    # The same, won on a discarded 1m: the pung holds a discard → no concealed_triplet;
    # the claimed (CCC) never counts.  basic 1 + dragon_triplet 1 = 2.
    r = score("111m55m234s567t (CCC) +1m", discarder="S")
    assert ids(r) == {"basic_win": 1, "dragon_triplet": 1}


def test_concealed_triplet_not_for_kongs():
    # [1111m] is a concealed kong (2 fan), not a concealed triplet.
    r = score("55m234s567t [1111m] (CCC) +5m", discarder="S")
    assert "concealed_triplet" not in ids(r) and ids(r)["concealed_kong"] == 1


def test_concealed_triplet_counts_each():
    # 111m 333m 555m concealed + (777m) claimed: three concealed triplets (see
    # test_pure_all_triplets).
    assert ids(score("111m333m555m (777m) 99m +9m", discarder="S"))["concealed_triplet"] == 3


def test_dragon_triplet_each():
    # 123m 456m 99m (CCC) (FFF), single wait on 9m:
    # basic 1 + single_wait 1 + terminal_pair 1 + continuous 1 (123+456) + dragon_triplet 2
    # + mixed_suit 15 = 21.
    r = score("123m456m99m (CCC) (FFF) +9m", discarder="S")
    assert ids(r) == {"basic_win": 1, "single_wait": 1, "terminal_pair": 1,
                      "continuous_sequences": 1, "dragon_triplet": 2, "mixed_suit": 1}
    assert r.value == 21 and r.winning


def test_exposed_and_concealed_kongs_each():
    # 55m (2222m) (3333s) [4444t] [EEEE]: basic 1 + single_wait 1 + no_terminals 1
    # + exposed_kong 2 × 1 + concealed_kong 2 × 2 = 9.
    assert_scored(score("55m (2222m) (3333s) [4444t] [EEEE] +5m", discarder="S"),
                  {"basic_win": 1, "single_wait": 1, "no_terminals": 1, "exposed_kong": 2,
                   "concealed_kong": 2}, 9)


# ---------------------------------------------------------------------------------------
# big patterns
# ---------------------------------------------------------------------------------------

def test_two_identical_sequences():
    assert ids(score("223344m567t678s88s +5t", discarder="S"))["two_identical_sequences"] == 1


def test_pure_straight():
    assert ids(score("123456789m55s777t +7t", discarder="S"))["pure_straight"] == 1


def test_three_suits_same_sequence():
    # 345m 345s 345t (EEE) 99s: basic 1 + single_wait 1 + terminal_pair 1
    # + three_suits_same_sequence 15 (matching_sequences dropped) = 18.
    assert_scored(score("345m345s345t (EEE) 99s +9s", discarder="S"),
                  {"basic_win": 1, "single_wait": 1, "terminal_pair": 1, "three_suits_same_sequence": 1}, 18)


def test_mixed_suit():
    # 123m 345m 789m (EEE) CC: basic 1 + single_wait 1 + elder_younger 1 + mixed_suit 15 = 18.
    assert_scored(score("123m345m789m (EEE) CC +C", discarder="S"),
                  {"basic_win": 1, "single_wait": 1, "elder_younger": 1, "mixed_suit": 1}, 18)


def test_four_shared_sequences():
    # 345m 345m 345s 345t 99s: four_shared 30 (drops three_suits 15, matching 1 and
    # two_identical 10) + basic 1 + no_melds 1 + sequence_hand 1 + single_wait 1
    # + terminal_pair 1 = 35.
    assert_scored(score("345m345m345s345t99s +9s", discarder="S"),
                  {"four_shared_sequences": 1, "basic_win": 1, "no_melds": 1, "sequence_hand": 1,
                   "single_wait": 1, "terminal_pair": 1}, 35)


def test_double_two_identical():
    # 234m 234m 678s 678s 55t: double_two_identical 30 (drops two_identical 10) + basic 1
    # + no_melds 1 + sequence_hand 1 + single_wait 1 + no_terminals 1 = 35.
    assert_scored(score("234m234m678s678s55t +5t", discarder="S"),
                  {"double_two_identical": 1, "basic_win": 1, "no_melds": 1, "sequence_hand": 1,
                   "single_wait": 1, "no_terminals": 1}, 35)


def test_full_flush():
    assert ids(score(FLUSH, discarder="S"))["full_flush"] == 1


def test_three_identical_sequences():
    # 234m ×3 678s 55t: as chows three_identical 60 (beats the 222m 333m 444m pung reading)
    # + basic 1 + no_melds 1 + sequence_hand 1 + single_wait 1 + no_terminals 1 = 65.
    assert_scored(score("234m234m234m678s55t +5t", discarder="S"),
                  {"three_identical_sequences": 1, "basic_win": 1, "no_melds": 1, "sequence_hand": 1,
                   "single_wait": 1, "no_terminals": 1}, 65)


def test_pure_all_triplets():
    # 111m 333m 555m (777m) 99m: pure_all_triplets 75 (drops full_flush) + basic 1
    # + single_wait 1 + terminal_pair 1 + concealed_triplet 3 = 81.
    assert_scored(score("111m333m555m (777m) 99m +9m", discarder="S"),
                  {"pure_all_triplets": 1, "basic_win": 1, "single_wait": 1, "terminal_pair": 1,
                   "concealed_triplet": 3}, 81)


def test_pure_dragon():
    # 123m 456m 789m (222m) 55m, one-kind wait on 5m: pure_dragon 75 (drops full_flush 60
    # and pure_straight 15) + basic 1 + one-kind wait 1 = 77.
    r = score("123456789m (222m) 55m +5m", discarder="S")
    got = ids(r)
    assert got.get("pure_dragon") == 1 and "full_flush" not in got and "pure_straight" not in got
    assert r.value == 77


def test_all_honours():
    assert ids(score("(EEE) (SSS) (WWW) CCCFF +F", discarder="W"))["all_honours"] == 1


def test_four_identical_sequences():
    # 234m ×4 55t: four_identical 480 + basic 1 + no_melds 1 + sequence_hand 1
    # + single_wait 1 + missing_one_suit 1 + no_terminals 1 = 486.
    assert_scored(score("234m234m234m234m55t +5t", discarder="S"),
                  {"four_identical_sequences": 1, "basic_win": 1, "no_melds": 1, "sequence_hand": 1,
                   "single_wait": 1, "missing_one_suit": 1, "no_terminals": 1}, 486)


# ---------------------------------------------------------------------------------------
# exclusion families (G-YZ-5; yangzhou.md "Fan table")
# ---------------------------------------------------------------------------------------

IDENTICAL = {"two_identical_sequences", "double_two_identical", "three_identical_sequences",
             "four_identical_sequences"}
CROSS = {"matching_sequences", "three_suits_same_sequence", "four_shared_sequences"}
SUIT = {"mixed_suit", "full_flush", "pure_all_triplets", "pure_dragon"}
STRAIGHT = {"continuous_sequences", "elder_younger", "pure_straight", "pure_dragon"}


@pytest.mark.parametrize("hand,family,kept", [
    ("234m234m234m234m55t +5t", IDENTICAL, "four_identical_sequences"),
    ("234m234m234m678s55t +5t", IDENTICAL, "three_identical_sequences"),
    ("234m234m678s678s55t +5t", IDENTICAL, "double_two_identical"),
    ("345m345m345s345t99s +9s", CROSS | {"two_identical_sequences"}, "four_shared_sequences"),
    ("345m345s345t (EEE) 99s +9s", CROSS, "three_suits_same_sequence"),
    ("111m333m555m (777m) 99m +9m", SUIT, "pure_all_triplets"),
    ("123456789m (222m) 55m +5m", SUIT | STRAIGHT, "pure_dragon"),
    ("123456789m55s777t +7t", STRAIGHT, "pure_straight"),
])
def test_family_keeps_only_its_highest_member(hand, family, kept):
    got = set(ids(score(hand, discarder="S")))
    assert got & family == {kept}


def test_two_small_members_of_one_family_score_once():
    # yangzhou.md "Fan table": 123m 234m 567m 789m 55s has continuous_sequences (234+567) and elder_younger
    # (123+789): the straight family scores only one of them, 1 fan.
    # basic 1 + no_melds 1 + sequence_hand 1 + single_wait 1 + missing_one_suit 1
    # + one straight-family member 1 = 6.
    r = score("123234567789m55s +5s", discarder="S")
    got = ids(r)
    assert len(set(got) & STRAIGHT) == 1
    assert r.value == 6


def test_best_arrangement_is_scored():
    # 222m 333m 444m 678s 55t as pungs: 3 concealed triplets; as chows: three identical (60).
    r = score("234m234m234m678s55t +5t", discarder="S")
    assert r.decomposition.count("234m") == 3


@pytest.mark.parametrize("pid", sorted(fan.PATTERN_IDS))
def test_every_pattern_has_a_description(pid):
    assert fan.DESCRIPTIONS[pid]


@pytest.mark.parametrize("hand,by_self", [
    ("(123m) 456m 789m 11s 222s +2s", False),     # the winning tile is in the pair, not the chow
    ("(123m) 456m 789m 11s 222s +2m", True),      # a chow claimed to win is claimed on a discard
    ("(123m) (456m) 789m 11s 222s +2m", False),   # only one meld is the winning discard's
])
def test_an_exposed_chow_that_no_claim_could_make_is_not_a_possible_hand(hand, by_self):
    """yangzhou.md "How a hand goes": "no chow claims, except to win" — an exposed chow is the meld the winning discard
    completed, or no possible hand (common.md "Possible hands": an error, not a refused win)."""
    from mahjong_tui.errors import HandError

    with pytest.raises(HandError, match="a chow is claimed only to win"):
        context_from_notation(hand, self_draw=by_self, variant=YZ)


def test_the_chow_the_winning_discard_completed_scores():
    # (123m) claimed on 2m + 456m 789m 11s 222s: basic_win 1, edge_wait 1 (13m waited only on 2m),
    # missing_one_suit 1 (m and s), terminal_pair 1 (11s), pure_straight 15, concealed_triplet 1
    # (222s self-drawn) = 20 fan; not no_melds (the chow is exposed)
    ctx = context_from_notation("(123m) 456m 789m 11s 222s +2m", discarder="S", variant=YZ)
    r = evaluate(YZ, ctx)
    assert r.winning and r.value == 20 and "no_melds" not in ids(r)
