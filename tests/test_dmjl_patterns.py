"""Unit tests of the DMJL/BMJA detectors (mahjong_tui/scoring/patterns_classical.py) and of
the classical combiner (mahjong_tui/scoring/classical.py): one hand each way per detector,
values worked out by hand from assets/rules/dmjl.md and bmja.md "Scoring"."""

from __future__ import annotations

import pytest

from mahjong_tui.scoring import evaluate, score_loser
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.scoring.patterns import DETECTORS
from mahjong_tui.scoring import patterns_classical
from mahjong_tui.variant import load_variant

DMJL = load_variant("dmjl")
BMJA = load_variant("bmja")


def win(hand, variant=DMJL, **kw):
    return evaluate(variant, context_from_notation(hand, variant=variant, **kw))


def ids(hand, variant=DMJL, **kw):
    res = win(hand, variant, **kw)
    assert res.winning, res.reason
    return {p.id for p in res.patterns}


def detected(hand, variant=DMJL, **kw):
    """Every pattern the variant's detectors find in some complete reading of the hand (before
    a limit hand leaves only its limit)."""
    from mahjong_tui.scoring import classical
    from mahjong_tui.scoring.patterns import Hand, detect

    ctx = context_from_notation(hand, variant=variant, **kw)
    readings = classical._readings(ctx, classical._Values(variant))
    assert readings, "not a complete hand"
    return {f.spec.id for arr in readings for f in detect(variant, Hand(variant, ctx, arr))}


def loser(hand, variant=DMJL, **kw):
    return score_loser(variant, context_from_notation(hand, variant=variant, winner=False, **kw))


def test_every_classical_detector_is_documented():
    mine = [n for n, d in DETECTORS.items() if d.fn.__module__ == patterns_classical.__name__]
    assert len(mine) >= 20
    for n in mine:
        assert "dmjl.md" in DETECTORS[n].doc or "bmja.md" in DETECTORS[n].doc, n


def test_pair_of_counts_both_winds_and_dragons():
    # East in the East round: a pair of East is own and prevailing: 2 + 2 points
    assert {"pair_own_wind", "pair_prevailing_wind"} <= ids("123m456t789s234s EE +E", self_draw=True)
    # a non-winner's two dragon pairs both count: 2 + 2 = 4 points
    assert loser("CC PP 123m 456t 789s").value == 4


def test_bonus_tile_and_own_bonus():
    # East holds flower 1 (his own) and season 2: DMJL 4 + 4 points, no own pair
    got = ids("123m456t789s234s EE +E |io", self_draw=True)
    assert {"flower", "season"} <= got and "own_flower_and_season" not in got
    assert "own_flower_and_season" in ids("123m456t789s234s EE +E |ho", self_draw=True)
    # BMJA: the own flower doubles once
    assert "own_flower" in ids("111m 444t 999s (777s) EE +E |o", BMJA, self_draw=True)


def test_concealed_pungs_and_honour_groups():
    # three concealed pungs (a discard completes the fourth, exposed): DMJL doubles once
    assert "three_concealed_pungs" in ids("222m 333t 444s 666s 88s +6s")
    assert "three_concealed_pungs" not in ids("222m 333t (444s) 666s 88s +6s")
    got = ids("CCC FFF PP 123m 456t +6t", self_draw=True)
    assert "little_three_dragons" in got and "big_three_dragons" not in got
    assert "little_four_winds" in detected("EEE SSS WWW NN 222m +2m", self_draw=True)


def test_mahjong_last_tile_pair_and_only_possible_tile():
    # 123m 456t 789s EEE, waiting on 5m alone (a single wait on the pair):
    # 20 + 8 (concealed East pung) + 2 (pair of simples completed) + 2 (only tile) = 32 points
    res = win("123m456t789sEEE 55m +5m", self_draw=False)
    got = {p.id for p in res.patterns}
    assert {"mahjong", "last_tile_pair_simple", "only_possible_tile"} <= got
    # 32 x 2 x 2 (own and prevailing wind pung) = 128
    assert res.value == 128
    # 23m waits on 1m or 4m: not the only possible tile
    assert "only_possible_tile" not in ids("234m456t789sEEE 55m +4m", self_draw=True)
    assert "last_tile_pair_major" in ids("234m456t789s567s NN +N", self_draw=True)


def test_zero_point_hand_no_chow_and_nothing_exposed():
    got = ids("123m456t789s234s 55m +5m", self_draw=True)
    assert {"zero_point_hand", "only_concealed_melds"} <= got and "no_chow" not in got
    got = detected("222m333t444s666s88s +8s", self_draw=True)
    assert "no_chow" in got and "zero_point_hand" not in got
    assert "only_concealed_melds" not in ids("123m456t789s 55m (234s) +5m", self_draw=True)


def test_flushes_and_purity():
    assert "half_flush" in ids("123m456m789mEEE 55m +5m", self_draw=True)
    got = detected("123m456m789m222m 55m +5m", self_draw=True)
    assert {"full_flush", "concealed_full_flush"} <= got   # DMJL: a limit hand
    assert win("123m456m789m222m 55m +5m", self_draw=True).value == 500
    got = ids("111m 333m 555m 99m (777m) +9m", BMJA, self_draw=True)
    assert "purity" in got
    # one suit with a chow: no purity in BMJA (and one chow is all BMJA allows)
    assert "purity" not in ids("123m 333m 555m 99m (777m) +9m", BMJA, self_draw=True)


def test_majors_honours_and_terminals():
    assert "terminals_and_honours" in ids("111m 999t EEE CCC 11s +1s")
    assert win("EEE SSS CCC FFF PP +P", self_draw=True).value == 500          # all honours: limit
    assert win("111m 999t 111s 999s 11t +1t", self_draw=True).value == 500    # heads and tails


def test_hidden_and_buried_treasure():
    assert "hidden_treasure" in detected("222m 333t 444s 666s 88s +6s", self_draw=True)
    assert win("222m 333t 444s 666s 88s +6s", self_draw=False).value < 500
    # BMJA: concealed pungs of one suit with an honour pung and a pair
    assert {p.id for p in win("222m 444m 666m EEE 99m +9m", BMJA).patterns} == {"buried_treasure"}
    assert win("222m 444t 666m EEE 99m +9m", BMJA).value < 1000


def test_dragon_pungs_and_won_with():
    assert {p.id for p in win("CCC FFF PPP 123m 55t +5t", self_draw=True).patterns} == {"three_great_scholars"}
    # BMJA: three great scholars needs no chow; with one it is 8+8+8 (concealed dragon pungs)
    # + 20 + 2 (self-drawn) = 46 points, x 2^4 (three dragon pungs, nothing exposed) = 736
    assert win("CCC FFF PPP 123m 55t +5t", BMJA, self_draw=True).value == 736
    # plum blossom: 5 of dots from the kong box completing the hand
    res = win("555t 111s 22s [9999m] (222t) +5t", self_draw=True, situations=["kong_replacement"])
    assert {p.id for p in res.patterns} == {"plum_blossom"}


def test_original_call_and_blessings():
    assert "original_call" in ids("123m456t789s234s 55m +5m", self_draw=True, situations=["original_call"])
    # three exposed melds: the call no longer doubles
    assert "original_call" not in ids("55m (123m) (456t) (789s) 234s +5m", self_draw=True,
                                      situations=["original_call"])
    assert {p.id for p in win("123m456t789s234s 55m +5m", self_draw=True, situations=["heavenly"]).patterns} == {"heavenly"}
    assert {p.id for p in win("123m456t789s234s 55m +5m", seat_wind="S", discarder="E",
                              situations=["earthly"]).patterns} == {"earthly"}


@pytest.mark.parametrize("hand, variant, form", [
    ("19m19t19sESWNCFPP +P", DMJL, "thirteen_orphans"),
    ("11123456789995m +5m", DMJL, "nine_gates"),
    ("11123456789995m +5m", BMJA, "gates_of_heaven"),
    ("1123456789m ESWN +1m", BMJA, "wriggling_snake"),
    ("2467t 2467s 2467m 8t 8s +8s", BMJA, "triple_knitting"),
    ("2345679t 2345679s +9s", BMJA, "knitting"),
    ("1199m 99t EESS CCPP +P", BMJA, "all_pair_honours"),
])
def test_special_forms(hand, variant, form):
    assert win(hand, variant, self_draw=True).winning
    assert form in detected(hand, variant, self_draw=True)


def test_squirming_snake_is_a_standard_hand():
    # 111 345 678 999 and a pair of 2s, all characters: DMJL limit
    assert "squirming_snake" in detected("111m 345m 678m 999m 22m +2m", self_draw=True)
    assert win("111m 345m 678m 999m 22m +2m", self_draw=True).value == 500
    assert "squirming_snake" not in detected("111m 345m 678m 999m 33m +3m", self_draw=True)


def test_calling_for_a_limit_hand():
    # BMJA: waiting on 8m for the gates of heaven: 0.4 of the limit, more than its points
    res = loser("1112345678999m", BMJA)
    assert res.value == 400 and {p.id for p in res.patterns} == {"calling_gates_of_heaven"}
    # DMJL has no such bonus: 8 + 8 = 16 points for the two concealed terminal pungs
    assert loser("1112345678999m").value == 16


def test_roof_off_lifts_the_cap_but_not_the_limit_hands():
    roof = DMJL.with_options({"scoring.roof_off": True})
    assert win("EEE SSS CCC 11m (FFF) +1m", roof).value > 500
    assert win("EEE SSS CCC FFF PP +P", roof, self_draw=True).value == 500
