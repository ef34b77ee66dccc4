"""Winning on another player's eighth flower, the one rule two variants share: Singapore's
``robbing_the_eighth`` (singapore.md "Tai table": you hold seven of the eight seasons and flowers and another
player draws the eighth: immediate win; singapore.md "Settlement": the drawer of the eighth pays for all)
and Ùzje's ``ivies_on_the_wall`` (uzje.md "Fan table": you hold seven flowers and another player exposes
the eighth: win, any hand, he pays as discarder; G-UZ-14: no other fan, exactly 8 f -> 100 points).

Both scorers read the hand the same way (:func:`mahjong_tui.scoring.common.robs_the_eighth`):
the winning tile is the eighth flower, and a hand string may give it as the winning tile only
(``+r |hijkopq``, as the table passes it) or among the bonus tiles held too (``+r |hijkopqr``,
the winner's bonus tiles once he has taken it).  The winner sits at East; North exposed the
eighth (Bamboo, ``r``).
"""

from __future__ import annotations

import pytest

from mahjong_tui.scoring import evaluate
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.variant import load_variant

from .helpers import nonzero_payments, pattern_counts

SG = load_variant("singapore")
UZ = load_variant("uzje").with_options({"flowers": True})  # G-UZ-15: flowers are an option
# 13 tiles that make no hand: a flower win needs none (a number suit of both variants)
HAND = "123m456s789s1234m"


def _score(variant, bonus: str, **kw):
    return evaluate(variant, context_from_notation(f"{HAND} +r |{bonus}", variant=variant, **kw))


@pytest.mark.parametrize("bonus", ["hijkopq", "hijkopqr"])
def test_the_eighth_as_winning_tile_or_held_scores_the_same(bonus):
    # Singapore: a limit (5 tai), with the bonus-tile tai of the eight (East's spring h and
    # plum o, 2 x seat_flower; both complete groups): V(5) = 16, North pays all 4V = 64
    sg = _score(SG, bonus, situations=["robbing_the_eighth"], discarder="N")
    assert sg.winning and sg.form == "flowers" and sg.value == 5
    assert pattern_counts(sg) == {"seat_flower": 2, "complete_flower_group": 2, "robbing_the_eighth": 1}
    assert nonzero_payments(sg) == {"E": 64, "N": -64}
    # Ùzje: ivies on the wall alone, 8 fan -> 100 points, North pays as discarder
    uz = _score(UZ, bonus, situations=["robbing_the_eighth"], discarder="N")
    assert uz.winning and uz.form == "flowers"
    assert pattern_counts(uz) == {"ivies_on_the_wall": 1} and (uz.value, uz.points) == (8, 100)
    assert nonzero_payments(uz) == {"E": 100, "N": -100}


def test_without_the_situation_all_eight_held_are_own_draws():
    # all eight drawn by the winner: Singapore's all_eight_flowers, Ùzje's crossing_the_sea
    sg = _score(SG, "hijkopqr", self_draw=True)
    assert sg.form == "flowers" and "all_eight_flowers" in pattern_counts(sg)
    uz = _score(UZ, "hijkopqr", self_draw=True)
    assert pattern_counts(uz) == {"crossing_the_sea": 1} and uz.points == 5000
    # seven held and no eighth robbed: no flower win in either
    assert not _score(SG, "hijkopq", discarder="N").winning
    assert not _score(UZ, "hijkopq", discarder="N").winning


def test_the_winning_tile_must_be_the_eighth_flower():
    # seven held, the winning tile a flower already held: nothing was robbed
    assert not evaluate(SG, context_from_notation(f"{HAND} +q |hijkopq", variant=SG,
                                                  situations=["robbing_the_eighth"], discarder="N")).winning
    assert not evaluate(UZ, context_from_notation(f"{HAND} +q |hijkopq", variant=UZ,
                                                  situations=["robbing_the_eighth"], discarder="N")).winning


@pytest.mark.parametrize("self_draw", [False, True])
def test_robbing_the_eighth_is_paid_as_a_discard_whatever_the_caller_says(self_draw):
    # singapore.md "Settlement": the drawer of the eighth pays for all, as for a discard win:
    # 4 x V(5) = 4 x 16 = 64 from North; uzje.md "Fan table": North pays as discarder the 100 points
    sg = _score(SG, "hijkopq", situations=["robbing_the_eighth"], discarder="N", self_draw=self_draw)
    assert nonzero_payments(sg) == {"E": 64, "N": -64}
    uz = _score(UZ, "hijkopq", situations=["robbing_the_eighth"], discarder="N", self_draw=self_draw)
    assert nonzero_payments(uz) == {"E": 100, "N": -100}
    # the drawer not named: nobody known to pay
    assert _score(SG, "hijkopq", situations=["robbing_the_eighth"], self_draw=self_draw).payments is None


@pytest.mark.parametrize("discarder", [None, "S"])
def test_all_eight_own_flowers_are_paid_as_a_self_draw_whatever_the_caller_says(discarder):
    # singapore.md "Settlement": all_eight_flowers "as a self-draw (each pays 2 x V(5) = 32u)": East +96.
    # Ùzje crossing_the_sea, "all 8 flowers by own draws": 1 limit = 5000 points, each of the
    # three pays P/2 = 2500 (uzje.md "Settlement"), East +7500.
    sg = _score(SG, "hijkopqr", discarder=discarder)
    assert "all_eight_flowers" in pattern_counts(sg) and sg.value == 5
    assert sg.payments == {"E": 96, "S": -32, "W": -32, "N": -32}
    uz = _score(UZ, "hijkopqr", discarder=discarder)
    assert pattern_counts(uz) == {"crossing_the_sea": 1}
    assert uz.payments == {"E": 7500, "S": -2500, "W": -2500, "N": -2500}
    # Singapore: the flower win whichever tile the string names, the hand being no other win
    named = evaluate(SG, context_from_notation(f"{HAND} +1m |hijkopqr", variant=SG, discarder=discarder))
    assert named.form == "flowers" and named.payments == sg.payments


def test_a_complete_hand_won_on_a_discard_while_holding_all_eight_is_a_discard_win():
    # the immediate flower win was not taken (singapore.md "Tai table": an "immediate win"): won later on South's
    # 5t, the hand counts all_eight_flowers (5 tai, V = 16) and is paid as a discard win, as
    # the table pays it: South 2V = 32, West and North V = 16 each
    r = evaluate(SG, context_from_notation("123m456m789s234t55t +5t |hijkopqr", variant=SG, discarder="S"))
    assert r.form == "standard" and "all_eight_flowers" in pattern_counts(r)
    assert r.payments == {"E": 64, "S": -32, "W": -16, "N": -16}


def test_a_complete_hand_scores_robbing_the_eighth_only_with_the_flowers():
    # Singapore: 123m 456m 789s 234t 55t on South's 5t, the situation named but no flowers
    # held and the winning tile no flower: nothing was robbed.  Four chows, plain pair, the
    # wait 2t/5t two-sided, no bonus tile: ping_hu 4 tai (was: + robbing_the_eighth, capped
    # 5).  V(4) = 8: South pays 2V = 16, West and North V = 8 each, East +32.
    r = evaluate(SG, context_from_notation("123m456m789s234t55t +5t", variant=SG,
                                           situations=["robbing_the_eighth"], discarder="S"))
    assert pattern_counts(r) == {"ping_hu": 1} and r.value == 4
    assert r.payments == {"E": 32, "S": -16, "W": -8, "N": -8}
    # seven held but the winning tile an ordinary one: seat_flower (h, o: East's) 2 +
    # complete_flower_group (hijk) 1 + ping_hu_with_bonus 1 = 4 tai, no robbing_the_eighth
    r = evaluate(SG, context_from_notation("123m456m789s234t55t +5t |hijkopq", variant=SG,
                                           situations=["robbing_the_eighth"], discarder="S"))
    assert pattern_counts(r) == {"seat_flower": 2, "complete_flower_group": 1, "ping_hu_with_bonus": 1}
    assert r.value == 4
