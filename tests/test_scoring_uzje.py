"""Ùzje scoring (seed 002; uzje.md "Fan table", "From fan to points", "Settlement"; G-UZ-5…14).

Every expected value is worked out by hand in the comment above it: fan from the table of
``variants/uzje.toml`` (uzje.md "Fan table"), points from the ladder s = (F10 − 25) div 10,
P = 2 5 10 20 50 100 200 500 1000 2000, then 5000 × (1 + (s − 10) div 3).
"""

from __future__ import annotations

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.scoring import evaluate
from mahjong_tui.scoring.fan_ladder import bonus_kind, points_for, tenths
from mahjong_tui.scoring.settlement import settle
from mahjong_tui.variant import load_variant

from .helpers import nonzero_payments, pattern_counts, scorer

UZ = load_variant("uzje")
FLOWERS = UZ.with_options({"flowers": True})
score = scorer(evaluate, UZ)


def fan_of(res) -> dict[str, float]:
    return {p.id: p.value for p in res.patterns}


# --------------------------------------------------------------------------------------------
# The points ladder (uzje.md "From fan to points" check values, G-UZ-8)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fan, points", [
    (2.6, 2), (3, 2), (3.4, 2), (3.6, 5), (4, 5), (5, 10), (6, 20), (7, 50), (8, 100), (9, 200),
    (10, 500), (11, 1000), (12, 2000), (12.6, 5000), (13, 5000), (15, 5000), (15.6, 10000),
    (16, 10000), (19, 15000), (22, 20000), (24, 20000),
])
def test_ladder_check_values(fan, points):
    assert points_for(UZ, tenths(fan)) == points


def test_ladder_limits_and_threshold():
    assert points_for(UZ, 0, limits=2) == 10000        # 2 l: 5000 each, no ladder
    assert points_for(UZ, tenths(2.5)) == 2           # exactly the minimum (six flowers)
    with pytest.raises(ValueError, match="under the minimum"):
        points_for(UZ, tenths(2.4))


# --------------------------------------------------------------------------------------------
# Hands of the fan table
# --------------------------------------------------------------------------------------------

def test_closed_hand_seat_wind_and_arrow_trip_on_a_discard():
    # closed hand 2.6 + seat wind E trip 1 + arrow trip C 1 = 4.6 fan (round South): s = 2 -> 10
    res = score("123s456mEEECCC99s +9s", seat_wind="E", prevailing_wind="S", discarder="S")
    assert pattern_counts(res) == {"closed_hand": 1, "seat_wind": 1, "arrow_trip": 1}
    assert (res.value, res.points) == (4.6, 10)
    assert nonzero_payments(res) == {"E": 10, "S": -10}     # the discarder pays P


def test_self_draw_pays_half_from_each_with_half_points():
    # closed 2.6 + self-draw 1 = 3.6: s = 1 -> 5 points; each pays 2.5, the winner gets 7.5
    # (246m has step 2, the others step 1: no single differences)
    res = score("123s456m789s246mEE +2m", self_draw=True, seat_wind="S", prevailing_wind="E")
    assert pattern_counts(res) == {"self_draw": 1, "closed_hand": 1}
    assert (res.value, res.points) == (3.6, 5)
    assert res.payments == {"E": -2.5, "S": 7.5, "W": -2.5, "N": -2.5}


def test_seven_fan_self_draw_is_paid_25_each():
    # uzje.md "From fan to points" example: closed 2.6 + self-draw 1 + clean suit 3 (socks and E) = 6.6: s = 4 -> 50;
    # each pays 25, the winner gets 75 (seat West, round South: EEE scores no wind)
    res = score("123s456s789s11sEEE +1s", self_draw=True, seat_wind="W", prevailing_wind="S")
    assert pattern_counts(res) == {"self_draw": 1, "closed_hand": 1, "clean_suit": 1}
    assert (res.value, res.points) == (6.6, 50)
    assert nonzero_payments(res) == {"W": 75, "E": -25, "S": -25, "N": -25}


def test_open_hand_without_value_is_not_a_win():
    # a claimed meld, nothing else: 0 fan < 2.5 (G-UZ-5)
    res = score("(123s) 456m789s111mEE +E", seat_wind="S", prevailing_wind="W", discarder="E")
    assert not res.winning and res.reason == "0 fan: a win needs at least 2.5"


def test_zero_read_as_number_makes_a_full_flush():
    # ZZZ read as 000s (or the zeros in 012s 036s 048s): every tile a sock -> full flush 6;
    # closed 2.6: 8.6 fan, s = 6 -> 200 (read as the honour it would be clean suit: 5.6)
    res = score("ZZZ123s456s789s11s +1s", discarder="S", prevailing_wind="W")
    assert pattern_counts(res) == {"closed_hand": 1, "full_flush": 1}
    assert (res.value, res.points) == (8.6, 200)


def test_zero_chosen_group_by_group():
    # one zero in 012s (a number), the other two the pair: read as 00s the pair makes a full
    # flush (6), read as the honour a clean suit (3); the better is kept: 2.6 + 6 = 8.6
    res = score("12s456s789s111sZZZ +2s", discarder="S", prevailing_wind="W")
    assert pattern_counts(res) == {"closed_hand": 1, "full_flush": 1}
    # with EEE no full flush is possible: the pair is read as the honour, clean suit 3;
    # 2.6 + 3 = 5.6: s = 3 -> 20
    res = score("12s456s789sEEEZZZ +2s", discarder="S", seat_wind="W", prevailing_wind="N")
    assert pattern_counts(res) == {"closed_hand": 1, "clean_suit": 1}
    assert (res.value, res.points) == (5.6, 20)


def test_clean_tongs_stacks_with_rock_field():
    # tongs 1 and 16 only (abbreviated): 111t ffft, EEE SSS, ZZ: clean tongs 4 + rock field 3 +
    # closed 2.6 = 9.6 (seat W, round N: no winds) s = 7 -> 500
    res = score("111tffftEEESSSZZ +Z", discarder="S", seat_wind="W", prevailing_wind="N")
    assert pattern_counts(res) == {"closed_hand": 1, "clean_tongs": 1, "rock_field": 1}
    assert (res.value, res.points) == (9.6, 500)
    # all tongs in play: the same hand is a plain clean suit (clean tongs "not used")
    all_tongs = UZ.with_options({"all_tongs": True})
    res = score("111tffftEEESSSZZ +Z", all_tongs, discarder="S", seat_wind="W", prevailing_wind="N")
    assert pattern_counts(res) == {"closed_hand": 1, "clean_suit": 1, "rock_field": 1}


def test_single_differences_on_claimed_ariths():
    # four claimed ariths of step 3 (369 258 147 and 10 13 16 of socks), pair EE: single
    # differences 1.4 + clean suit 3 = 4.4 (not closed) s = 1 -> 5
    res = score("(369s) (258s) (147s) (xcfs) EE +E", discarder="N", seat_wind="S", prevailing_wind="W")
    assert pattern_counts(res) == {"single_differences": 1, "clean_suit": 1}
    assert (res.value, res.points) == (4.4, 5)


def test_all_gems_is_a_limit_by_the_ladder():
    # gems 124 248 48f 139 of socks, ZZ read as 00s: closed 2.6 + all gems 5 + full flush 6 =
    # 13.6: s = 11 -> 5000 (the ladder's first limit)
    res = score("124s248s48fs139sZZ +Z", discarder="N")
    assert pattern_counts(res) == {"closed_hand": 1, "all_gems": 1, "full_flush": 1}
    assert (res.value, res.points) == (13.6, 5000)


def test_all_powers_with_zeros():
    # powers 149s 49fs 014m 018m (two zeros as 0m), EE: closed 2.6 + all powers 5 = 7.6 -> 100
    res = score("149s49fs14m18mZZEE +E", discarder="N", seat_wind="S", prevailing_wind="W")
    assert pattern_counts(res) == {"closed_hand": 1, "all_powers": 1}
    assert (res.value, res.points) == (7.6, 100)
    assert set(res.decomposition) >= {"014m", "018m"}


def test_twin_melds_count_each_extra_copy():
    # 123s twice, 456m, 246m, EE: twin melds 1 + closed 2.6 = 3.6 -> 5
    res = score("123s123s456m246mEE +E", discarder="N", seat_wind="S", prevailing_wind="W")
    assert pattern_counts(res) == {"closed_hand": 1, "twin_melds": 1}
    assert (res.value, res.points) == (3.6, 5)
    # four times 123s, 55s: three extra copies 3 + single differences 1.4 (four ariths of
    # step 1) + closed 2.6 + full flush 6 = 13: s = 10 -> 5000
    res = score("123s123s123s123s55s +5s", discarder="N")
    assert fan_of(res)["twin_melds"] == 1 and pattern_counts(res)["twin_melds"] == 3
    assert pattern_counts(res) == {"closed_hand": 1, "twin_melds": 3, "single_differences": 1, "full_flush": 1}
    assert res.value == 13 and res.points == 5000


def test_archery_class():
    # CCC FFF PP, 123s 456s: closed 2.6 + arrow trips 2 + archery class 2 + clean suit 3 = 9.6
    # s = 7 -> 500
    res = score("CCCFFFPP123s456s +P", discarder="N", seat_wind="S", prevailing_wind="W")
    assert pattern_counts(res) == {"closed_hand": 1, "arrow_trip": 2, "archery_class": 1, "clean_suit": 1}
    assert (res.value, res.points) == (9.6, 500)


def test_seven_pairs_with_a_zero_pair():
    # 11 33 55 77 99 12 12 of socks and ZZ (read as 00s): closed 2.6 + seven pairs 2 + full
    # flush 6 = 10.6: s = 8 -> 1000
    res = score("11s33s55s77s99sbbsZZ +Z", discarder="N")
    assert res.form == "seven_pairs"
    assert pattern_counts(res) == {"closed_hand": 1, "seven_pairs": 1, "full_flush": 1}
    assert (res.value, res.points) == (10.6, 1000)


def test_four_identical_tiles_are_two_pairs():
    # 1111s 22s 33m 44m ZZ EE (no standard form): closed 2.6 + seven pairs 2 = 4.6 -> 10
    res = score("1111s22s33m44mZZEE +E", discarder="N", seat_wind="S", prevailing_wind="W")
    assert res.form == "seven_pairs" and (res.value, res.points) == (4.6, 10)


@pytest.mark.parametrize("hand, form, limits, points", [
    ("1ft1fs1fmESWNCFPP +P", "thirteen_orphans", {"thirteen_orphans": 1}, 5000),
    ("1ft1fs1fmZESWNCFP +P", "fourteen_orphans", {"fourteen_orphans": 2}, 10000),
    # EEE SSS WWW NNN + 11s: big four winds 1 l + big three winds 1 l (also true) = 2 l
    ("EEESSSWWWNNN11s +1s", "standard", {"big_four_winds": 1, "big_three_winds": 1}, 10000),
    # three winds, C trip, 11s: big three winds 1 l
    ("EEESSSWWWCCC11s +1s", "standard", {"big_three_winds": 1}, 5000),
    # honours only, the zero included: honourable 1 l
    ("ZZZCCCFFFPPPNN +N", "standard", {"honourable": 1}, 5000),
])
def test_limit_hands(hand, form, limits, points):
    res = score(hand, discarder="S", seat_wind="E", prevailing_wind="E")
    assert res.winning and res.form == form
    assert {p.id: p.value for p in res.patterns} == limits           # no fan item is listed
    assert all(p.kind == "limits" for p in res.patterns)
    assert res.points == points
    assert nonzero_payments(res) == {"E": points, "S": -points}


def test_limit_hand_value_is_the_fan_counted_before_the_limit():
    # fourteen orphans won on a discard: the fan it would count is closed hand 2.6 (CLI.md)
    res = score("1ft1fs1fmZESWNCFP +P", discarder="S")
    assert res.value == 2.6 and res.points == 10000


@pytest.mark.parametrize("hand, melds_open, points", [
    # concealed: closed 2.6 + ultra-long straight 6 + full flush 6 = 14.6: s = 12 -> 5000
    ("123456789xabcds +ds", False, 5000),
    # one exposed run (G-UZ-13): 6 + 6 = 12 (not closed): s = 9 -> 2000
    ("(123s) 456789xabcds +ds", True, 2000),
])
def test_ultra_long_straight(hand, melds_open, points):
    res = score(hand, discarder="S")
    assert res.form == "ultra_long_straight"
    assert ("closed_hand" in pattern_counts(res)) != melds_open
    assert {"ultra_long_straight", "full_flush"} <= set(pattern_counts(res))
    assert res.points == points


def test_ultra_long_straight_only_with_runs_exposed():
    # an exposed d = 2 arith cannot be part of it (G-UZ-13): no win in that form
    res = score("(135s) 246789xabcds +ds", discarder="S")
    assert res.form != "ultra_long_straight"


# --------------------------------------------------------------------------------------------
# Luck-based wins and lucky tiles
# --------------------------------------------------------------------------------------------

def test_sea_scoop_on_1t():
    # self-draw 1 + closed 2.6 + sea-scoop 1.8 + 3 (the tile is 1t) = 8.4: s = 5 -> 100
    res = score("111t456s789s123mEE +1t", self_draw=True, situations=["last_wall_tile"],
                seat_wind="S", prevailing_wind="W")
    assert fan_of(res)["sea_scoop"] == 4.8
    assert (res.value, res.points) == (8.4, 100)


def test_pond_scoop_on_3m():
    # closed 2.6 + pond-scoop 1.2 + 3 (3m) = 6.8: s = 4 -> 50; on another tile only 1.2
    res = score("123m456s789s111tEE +3m", situations=["last_discard"], discarder="S",
                seat_wind="S", prevailing_wind="W")
    assert fan_of(res)["pond_scoop"] == 4.2 and (res.value, res.points) == (6.8, 50)
    res = score("123m456s789s111tEE +1m", situations=["last_discard"], discarder="S",
                seat_wind="S", prevailing_wind="W")
    assert fan_of(res)["pond_scoop"] == 1.2 and res.value == 3.8


def test_quad_draw_and_the_5t_not_in_play():
    # concealed kong, replacement win: self 1 + closed 2.6 (a concealed quad keeps the hand
    # closed, G-UZ-10) + quad draw 1.6 = 5.2: s = 2 -> 10
    res = score("[EEEE] 123s456s789m11m +1m", self_draw=True, situations=["kong_replacement"],
                seat_wind="S", prevailing_wind="W")
    assert pattern_counts(res) == {"self_draw": 1, "closed_hand": 1, "quad_draw": 1}
    assert (res.value, res.points) == (5.2, 10)
    # 5t is not in play with abbreviated tongs; with all tongs it adds 3
    all_tongs = UZ.with_options({"all_tongs": True})
    res = score("[EEEE] 123s456s789m55t +5t", all_tongs, self_draw=True, situations=["kong_replacement"],
                seat_wind="S", prevailing_wind="W")
    assert fan_of(res)["quad_draw"] == 4.6


def test_multi_quad_draw_replaces_quad_draw():
    from mahjong_tui.scoring.common import context_from_notation

    # quad, replacement, closed quad, replacement win: 5 instead of quad draw 1.6;
    # self 1 + closed 2.6 + 5 = 8.6: s = 6 -> 200
    res = score("[EEEE] [SSSS] 123s456s11m +1m", self_draw=True, situations=["double_kong_replacement"],
                seat_wind="W", prevailing_wind="N")
    assert pattern_counts(res) == {"self_draw": 1, "closed_hand": 1, "multi_quad_draw": 1}
    assert (res.value, res.points) == (8.6, 200)
    # three quads in the turn, the later two closed: + 3 for the closed quad after the second
    ctx = context_from_notation("[1111s] [2222m] [5555m] 789s11m +1m", variant=UZ, self_draw=True,
                                situations=["double_kong_replacement"])
    from dataclasses import replace

    res = evaluate(UZ, replace(ctx, kong_chain=("exposed", "concealed", "concealed")))
    assert fan_of(res)["multi_quad_draw"] == 8
    # an added quad as the second is not a closed quad: quad draw only
    res = evaluate(UZ, replace(ctx, kong_chain=("exposed", "added"), situations=frozenset({"kong_replacement"})))
    assert "multi_quad_draw" not in pattern_counts(res) and fan_of(res)["quad_draw"] == 1.6


def test_quad_rob_on_2s():
    # closed 2.6 + quad rob 2 + 3 (2s) = 7.6: s = 5 -> 100; the robbed player pays
    res = score("234s456m789m111mEE +2s", situations=["robbing_kong"], discarder="N",
                seat_wind="S", prevailing_wind="W")
    assert fan_of(res)["quad_rob"] == 5 and (res.value, res.points) == (7.6, 100)
    assert nonzero_payments(res) == {"S": 100, "N": -100}


# --------------------------------------------------------------------------------------------
# Bonus tiles, winds, flowers
# --------------------------------------------------------------------------------------------

def test_bonus_tiles_count_every_copy_for_every_indicator():
    # two 5s in hand, indicator 5s: bonus tile 2 x 0.6 = 1.2 + closed 2.6 = 3.8: s = 1 -> 5
    hand = "123s456m55s789m246s +2s"
    res = score(hand, discarder="N", seat_wind="S", prevailing_wind="W", indicators=[T.parse_tile("5s")])
    assert pattern_counts(res) == {"closed_hand": 1, "bonus_tile": 2} and res.value == 3.8
    # two indicators of 5s: each counts separately (G-UZ-6): 4 x 0.6 = 2.4 + 2.6 = 5.0 -> 10
    res = score(hand, discarder="N", seat_wind="S", prevailing_wind="W", indicators=[T.parse_tile("5s")] * 2)
    assert pattern_counts(res)["bonus_tile"] == 4 and (res.value, res.points) == (5, 10)
    # an indicator of zero counts the zeros whatever they are read as (012s, ZZ pair)
    res = score("12s456s789m111mZZZ +2s", discarder="N", seat_wind="S", prevailing_wind="W",
                indicators=[T.ZERO])
    assert pattern_counts(res)["bonus_tile"] == 3


def test_bonus_tile_successor_mode():
    succ = UZ.with_options({"bonus_tile_mode": "successor"})
    assert bonus_kind(succ, T.parse_tile("4s")) == T.parse_tile("5s")
    assert bonus_kind(succ, T.parse_tile("fs")) == T.parse_tile("1s")      # 16 -> 1
    assert bonus_kind(succ, T.parse_tile("ft")) == T.parse_tile("1t")      # abbreviated tongs
    assert bonus_kind(succ, T.parse_tile("N")) == T.EAST
    assert bonus_kind(succ, T.parse_tile("P")) == T.RED
    assert bonus_kind(UZ, T.parse_tile("4s")) == T.parse_tile("4s")        # identity (default)
    res = score("123s456m55s789m246s +2s", succ, discarder="N", seat_wind="S", prevailing_wind="W",
                indicators=[T.parse_tile("4s")])
    assert pattern_counts(res)["bonus_tile"] == 2


def test_compressed_winds_map_seat_and_round():
    cw = UZ.with_options({"compressed_winds": True})
    # seat West -> H, round South -> V: HHH and VVV each score; closed 2.6 + 1 + 1 = 4.6 -> 10
    res = score("HHHVVV123s456m11m +1m", cw, discarder="N", seat_wind="W", prevailing_wind="S")
    assert pattern_counts(res) == {"closed_hand": 1, "seat_wind": 1, "round_wind": 1}
    assert res.points == 10


def test_seat_flowers_and_orchard():
    hand = "123s456m789s246mEE +2m"
    # seat East: spring h and plum o are East's flowers: 2 x 1.0; k (winter) is not
    res = score(hand + " |hko", FLOWERS, discarder="N", seat_wind="E", prevailing_wind="W")
    assert pattern_counts(res)["seat_flower"] == 2
    # all four seasons: orchard 3 replaces the seat flower of that set; plum still counts
    res = score(hand + " |hijko", FLOWERS, discarder="N", seat_wind="E", prevailing_wind="W")
    assert pattern_counts(res) == {"closed_hand": 1, "orchard": 1, "seat_flower": 1}
    assert res.value == 2.6 + 3 + 1


def test_flower_wins():
    hand = "123s456m789s234mEEP"
    # six flowers, the sixth just received: exactly the minimum, 2 points, a self-draw (1 each)
    res = score(hand + " +r |hijkqr", FLOWERS, self_draw=True, situations=["sixth_flower"], seat_wind="S")
    assert res.form == "flowers" and pattern_counts(res) == {"six_flowers": 1}
    assert res.points == 2 and res.payments == {"E": -1, "S": 3, "W": -1, "N": -1}
    # without the situation (not just received) it is no win
    assert not score(hand + " +r |hijkqr", FLOWERS, self_draw=True, seat_wind="S").winning
    # ivies on the wall: seven held, another player exposes the eighth: 8 fan -> 100, he pays
    res = score(hand[:-1] + " +r |hijkopq", FLOWERS, situations=["robbing_the_eighth"], discarder="N",
                seat_wind="S")
    assert pattern_counts(res) == {"ivies_on_the_wall": 1} and (res.value, res.points) == (8, 100)
    assert nonzero_payments(res) == {"S": 100, "N": -100}
    # crossing the sea: all eight drawn, 1 limit, paid as a self-draw
    res = score(hand + " +r |hijkopqr", FLOWERS, self_draw=True, seat_wind="S")
    assert pattern_counts(res) == {"crossing_the_sea": 1} and res.points == 5000
    assert res.payments["S"] == 7500


# --------------------------------------------------------------------------------------------
# Settlement
# --------------------------------------------------------------------------------------------

def test_several_winners_are_each_paid_by_the_discarder():
    a = score("123s456mEEECCC99s +9s", seat_wind="E", prevailing_wind="S", discarder="N")   # 10
    b = score("123s456m789s246mEE +2m", seat_wind="S", prevailing_wind="W", discarder="N")  # 2.6: 2
    winds = [T.EAST, T.SOUTH, T.WEST, T.NORTH]
    deltas = settle(UZ, seat_winds=winds, winners=[(0, a, None), (1, b, None)], losers={}, self_draw=False,
                    discarder=3)
    assert (a.points, b.points) == (10, 2)
    assert deltas == [10, 2, 0, -12]


def test_no_payments_on_a_draw_and_losers_score_nothing():
    assert settle(UZ, seat_winds=[52, 53, 54, 55], winners=[], losers={}, self_draw=False, discarder=None) == [0] * 4
    from mahjong_tui.scoring import score_loser
    from mahjong_tui.scoring.common import context_from_notation

    assert score_loser(UZ, context_from_notation("123s456m789s234mE", variant=UZ, winner=False)).value == 0
