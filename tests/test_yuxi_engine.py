"""Yuxi Flower Blooming at the table (seed 000, yuxi.md): bloom tiles, multiple winners,
the self-draw-only basic win, kong on flower, robbing the kong, Ten Old Men."""

from __future__ import annotations

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.melds import PUNG, Meld
from mahjong_tui.variant import load_variant

from .helpers import set_hand

t = T.parse_tile


@pytest.fixture
def table():
    tb = Table(load_variant("yuxi"), 1, hands=3, first_dealer=0)
    assert tb.current == 0 and tb.phase == "turn"
    # mid-hand: not the dealer's first discard (which would make an earthly win)
    tb.discards_made = 4
    return tb


def test_bloom_tiles_face_up_and_dead_wall_kept_at_14(table):
    """yuxi.md "Setting up": 14-tile dead wall, the top tiles of its last two stacks face up."""
    view = table.view(1)
    assert len(view["wall"]["bloom"]) == 2
    assert view["wall"]["dead"] == 12
    # 136 − 14 dead − 53 dealt = 69 live tiles
    assert view["wall"]["live"] == 136 - 14 - 53


def test_multiple_winners_on_one_discard(table):
    """yuxi.md "How a hand goes"/G-YX-5: every player who can win on a discard wins; the discarder pays each
    his own V.  Seat 1: 123s 456s 789s 11s 46s + 5s = full flush ×2.  Seat 2: 111m 222m
    333t 44t 55s + 5s = all triplets ×2.  Discarder pays 2 + 2."""
    set_hand(table, 0, "5s123456789tEEEN")
    set_hand(table, 1, "123456789s11s46s")
    set_hand(table, 2, "111m222m333t44t55s")
    table.apply_decision(Action(0, "discard", t("5s")))
    assert set(table.waiting_for()) == {1, 2}
    assert Action(1, "win", t("5s")) in table.legal_actions(1)
    table.apply_decision(Action(2, "win", t("5s")))
    table.apply_decision(Action(1, "win", t("5s")))
    h = table.history[-1]
    assert sorted(w["seat"] for w in h["winners"]) == [1, 2]
    assert h["deltas"] == [-4, 2, 2, 0]
    ids = {w["seat"]: {p["id"] for p in w["patterns"]} for w in h["winners"]}
    assert ids[1] == {"full_flush"} and ids[2] == {"all_triplets"}
    # G-YX-5: the winner nearest in turn after the discarder deals next
    assert table.dealer == 1


def test_basic_win_only_by_self_draw(table):
    """yuxi.md "Winning hands": a hand with no pattern but basic_win may be won only by self-draw.
    Seat 1: 123m 456t 789s 11s 46s waits on 5s."""
    set_hand(table, 0, "5s123456789tEEEN")
    set_hand(table, 1, "123m456t789s11s46s")
    opts = table._claim_actions(1, 0, t("5s"))
    assert not any(a.kind == "win" for a in opts)
    # the same tile self-drawn: a win is offered
    set_hand(table, 1, "123m456t789s11s456s")
    table.current, table.last_drawn, table.drawn_from = 1, t("5s"), "wall"
    assert Action(1, "win", t("5s")) in table.legal_actions(1)


def test_bloom_tile_win_after_a_kong(table):
    """G-YX-3: after a kong, a face-up bloom tile that completes the hand may be taken to win
    (kong_on_flower).  Dealer holds 1111m 234m 567m 88m 99m; kongs 1m; bloom 9m completes
    234m 567m 88m 999m: full flush ×2 × kong_on_flower ×2 = 4, all three pay 4."""
    set_hand(table, 0, "1111m234m567m88m99m")
    table.wall.bloom[:] = [t("9m"), t("E")]
    table.apply(Action(0, "concealed_kong", t("1m")))
    assert table.phase == "after_kong"
    legal = table.legal_actions(0)
    assert Action(0, "win", t("9m")) in legal and Action(0, "draw") in legal
    table.apply(Action(0, "win", t("9m")))
    h = table.history[-1]
    ids = {p["id"] for p in h["winners"][0]["patterns"]}
    assert ids == {"full_flush", "kong_on_flower"} and h["winners"][0]["value"] == 4
    assert h["deltas"] == [12, -4, -4, -4]


def test_double_kong_on_flower(table):
    """Two kongs in succession, then a bloom-tile win: kong_on_flower ×2 and
    double_kong_on_flower ×2 stack, × full_flush ×2 = 8 (yuxi.md "Scoring table")."""
    set_hand(table, 0, "1111m2222m345m99m8m")
    table.wall.bloom[:] = [t("9m"), t("E")]
    table.wall._dead[-1] = [t("7m")]  # rig the replacement tile
    # no bloom win after the first kong: the replacement is the only choice (forced), drawn
    assert table.apply(Action(0, "concealed_kong", t("1m"))) and table.phase == "after_kong"
    assert table.forced_passes() == [Action(0, "draw")] and table.legal_actions(0) == [Action(0, "draw")]
    table.pass_forced()
    assert table.phase == "turn"
    assert table.hands[0][t("7m")] == 1
    table.apply(Action(0, "concealed_kong", t("2m")))
    assert table.phase == "after_kong"
    table.apply(Action(0, "win", t("9m")))
    w = table.history[-1]["winners"][0]
    assert {p["id"] for p in w["patterns"]} == {"full_flush", "kong_on_flower", "double_kong_on_flower"}
    assert w["value"] == 8


def test_robbing_an_added_kong(table):
    """G-YX-4: only an added kong can be robbed; the robbed player pays as the discarder.
    Seat 0 adds 5s to his pung; seat 1 (123s 456s 789s 11s 46s) robs it: full flush ×2 ×
    robbing_kong ×2 = 4, paid by seat 0."""
    table.melds[0] = [Meld(PUNG, (t("5s"),) * 3, declared=True, concealed=False, from_seat=2)]
    set_hand(table, 0, "5s1234567tEEE")
    set_hand(table, 1, "123456789s11s46s")
    table.apply_decision(Action(0, "added_kong", t("5s")))
    assert table.phase == "rob" and table.waiting_for() == [1]
    table.apply_decision(Action(1, "win", t("5s")))
    h = table.history[-1]
    w = h["winners"][0]
    assert {p["id"] for p in w["patterns"]} == {"full_flush", "robbing_kong"} and w["value"] == 4
    assert h["deltas"] == [-4, 4, 0, 0] and h["robbed"]


def test_passing_on_a_rob_completes_the_kong(table):
    table.melds[0] = [Meld(PUNG, (t("5s"),) * 3, declared=True, concealed=False, from_seat=2)]
    set_hand(table, 0, "5s1234567tEEE")
    set_hand(table, 1, "123456789s11s46s")
    table.apply_decision(Action(0, "added_kong", t("5s")))
    table.apply_decision(Action(1, "pass"))
    assert table.phase in ("turn", "after_kong")
    assert table.melds[0][0].kong_type == "added"


@pytest.mark.parametrize("claimed,expected", [(False, True), (True, False)])
def test_ten_old_men(table, claimed, expected):
    """G-YX-8: the winner's first ten discards were all honours and none was claimed."""
    honours = [t(c) for c in "ESWNCFPESW"]
    table.ponds[1] = [[h, False] for h in honours]
    if claimed:
        table.ponds[1][4][1] = True
    set_hand(table, 0, "5s123456789tEEEN")
    set_hand(table, 1, "123456789s11s46s")
    table.apply_decision(Action(0, "discard", t("5s")))
    table.apply_decision(Action(1, "win", t("5s")))
    ids = {p["id"] for p in table.history[-1]["winners"][0]["patterns"]}
    assert ("ten_old_men" in ids) is expected


@pytest.mark.parametrize("vid", ["yuxi", "yangzhou"])
def test_first_dealer_is_the_highest_roll(vid):
    """yuxi.md "Setting up" / yangzhou.md "Setting up": every seat rolls 2d6, the highest total deals, the tied re-roll among
    themselves.  The roll comes from the game seed (a replay rolls the same) and is shown in
    the first hand_start event."""
    v = load_variant(vid)
    dealers, rerolls = set(), 0
    for seed in range(40):
        tb = Table(v, seed, hands=1)
        rounds = tb.first_roll
        assert rounds and [s for s, _, _ in rounds[0]] == [0, 1, 2, 3]
        for before, after in zip(rounds, rounds[1:]):
            top = max(a + b for _, a, b in before)
            assert [s for s, a, b in before if a + b == top] == [s for s, _, _ in after]
            assert len(after) >= 2  # only a tie is rolled again
        last = rounds[-1]
        top = max(a + b for _, a, b in last)
        winners = [s for s, a, b in last if a + b == top]
        assert winners == [tb.dealer]
        assert tb.seat_wind(tb.dealer) == T.EAST and tb.current == tb.dealer
        start = next(e for e in tb.events if e["type"] == "hand_start")
        assert start["dealer"] == tb.dealer and start["first_dealer_roll"] == rounds
        assert Table(v, seed, hands=1).dealer == tb.dealer  # same seed, same roll
        dealers.add(tb.dealer)
        rerolls += len(rounds) > 1
    assert dealers == {0, 1, 2, 3} and rerolls > 0  # every seat deals first sometimes; ties happen


def test_classic_first_dealer_is_seat_one():
    """5a draws wind markers: the seating is the draw, seat 1 is East (CLI.md)."""
    tb = Table(load_variant("classic"), 5, hands=1)
    assert tb.dealer == 0 and tb.first_roll == []
    assert "first_dealer_roll" not in next(e for e in tb.events if e["type"] == "hand_start")
