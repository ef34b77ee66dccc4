"""DMJL and BMJA at the table: Original Call and the dangerous game (dmjl.md "Play",
"Settlement"), East paying double, every hand scored, the roof.

Deals are rigged with :func:`tests.helpers.rigged_wall`; seat 0 deals (East)."""

from __future__ import annotations

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.melds import PUNG, Meld
from mahjong_tui.scoring.context import ScoreResult
from mahjong_tui.scoring.settlement import settle
from mahjong_tui.variant import load_variant

from .helpers import rig_first_hand, rigged_wall, set_hand

DMJL = load_variant("dmjl")
BMJA = load_variant("bmja")

# East: 123m 456m 789m 23s 55t and a North to throw: discarding N leaves a hand waiting on 1s/4s
HANDS = ["123m456m789m23s55tN", "147t258t369t147sE", "147m258m369mSSWW", "258s369sCCFFPPE"]


def _pass_window(table: Table) -> None:
    while table.phase == "claim":
        for s in table.waiting_for():
            table.apply(Action.of(s, "pass"))


def _discard_drawn(table: Table) -> None:
    seat = table.current
    table.apply(Action.of(seat, "discard", table.last_drawn))
    _pass_window(table)


def test_original_call_with_the_first_discard(monkeypatch):
    # draws: South 6t, West 9s, North 8m, East 9t (not his tile), then 2m 3m 6m, East 4s (wins)
    rig_first_hand(monkeypatch, rigged_wall(DMJL, 0, HANDS, front="6t9s8m9t2m3m6m4s"))
    table = Table(DMJL, seed=1, first_dealer=0)
    legal = table.legal_actions(0)
    # only discarding the North leaves a ready hand, so only it may be announced
    assert [a.tile for a in legal if a.kind == "original_call"] == [T.NORTH]
    events = table.apply(Action.of(0, "original_call", T.NORTH))
    assert {"type": "original_call", "seat": 0} in events
    assert table.called == [True, False, False, False]
    assert table.view(1)["players"][0]["original_call"] is True
    assert "original_call" not in table.view(1)["players"][1]
    _pass_window(table)
    for _ in range(3):
        _discard_drawn(table)
    # East drew 9t: after the call he may only throw the tile he drew
    assert table.current == 0 and table.last_drawn == T.parse_tile("9t")
    assert table.legal_actions(0) == [Action.of(0, "discard", T.parse_tile("9t"))]
    _discard_drawn(table)
    for _ in range(3):
        _discard_drawn(table)
    win = Action.of(0, "win", T.parse_tile("4s"))
    assert win in table.legal_actions(0)
    table.apply(win)
    summary = table.history[-1]
    ids = {p["id"] for p in summary["winners"][0]["patterns"]}
    # 123m 456m 789m 234s 55t, self-drawn by East after Original Call:
    # mahjong 20 + self_drawn 2 (not only_possible_tile: 1s and 4s both win) = 22 points;
    # doublings: zero_point_hand, only_concealed_melds, original_call -> 22 x 8 = 176
    assert ids == {"mahjong", "self_drawn", "zero_point_hand", "only_concealed_melds", "original_call"}
    assert summary["winners"][0]["value"] == 176
    assert "original_call" in summary["winners"][0]["situations"]
    # East wins 176 from each of three, doubled: +1056; the losers' own hands settle between them
    assert summary["deltas"][0] == 1056 and sum(summary["deltas"]) == 0


def test_no_original_call_where_the_variant_has_none(monkeypatch):
    classic = load_variant("classic")
    rig_first_hand(monkeypatch, rigged_wall(classic, 0, HANDS, front="6t9s8m9t"))
    table = Table(classic, seed=1, first_dealer=0)
    assert not any(a.kind == "original_call" for a in table.legal_actions(0))


def test_after_original_call_only_a_win_may_be_claimed(monkeypatch):
    # South throws 5t, which East could pung: after the call he is offered nothing
    rig_first_hand(monkeypatch, rigged_wall(DMJL, 0, ["123m456m789m23s55tN", "147t258t369t147sE",
                                                      "147m258m369mSSWW", "258s369sCCFFPPE"], front="5t"))
    table = Table(DMJL, seed=1, first_dealer=0)
    table.apply(Action.of(0, "original_call", T.NORTH))
    _pass_window(table)
    table.apply(Action.of(1, "discard", T.parse_tile("5t")))
    assert table.legal_actions(0) == [Action.of(0, "pass")]


def test_a_dangerous_discard_that_wins_pays_for_all(monkeypatch):
    # South shows three pungs of bamboo (all nine tiles one suit): bamboo is dangerous to throw
    rig_first_hand(monkeypatch, rigged_wall(DMJL, 0, HANDS))
    table = Table(DMJL, seed=1, first_dealer=0)
    table.melds[1] = [Meld(PUNG, (T.parse_tile(x),) * 3, declared=True, concealed=False, from_seat=3)
                      for x in ("2s", "5s", "8s")]
    set_hand(table, 1, "66s99m")    # ...and waits on 6s or 9m
    set_hand(table, 0, "123m456m789m3s55tNN")
    assert table._dangerous(0, T.parse_tile("3s")) and table._dangerous(0, T.parse_tile("6s"))
    assert not table._dangerous(0, T.parse_tile("9m")) and not table._dangerous(0, T.NORTH)
    set_hand(table, 0, "123m456m789m6s55tNN")
    table.apply(Action.of(0, "discard", T.parse_tile("6s")))     # East had safe tiles to throw
    assert Action.of(1, "win", T.parse_tile("6s")) in table.legal_actions(1)
    for s in table.waiting_for():
        table.apply(Action.of(s, "win" if s == 1 else "pass", T.parse_tile("6s") if s == 1 else None))
    summary = table.history[-1]
    v = summary["winners"][0]["value"]
    assert summary["winners"][0]["paid_by"] == 0
    # East pays all that the three would have paid South: 2V (East, double) + V + V
    assert summary["deltas"] == [-4 * v, 4 * v, 0, 0]


def test_a_safe_discard_that_wins_settles_as_usual(monkeypatch):
    rig_first_hand(monkeypatch, rigged_wall(DMJL, 0, HANDS))
    table = Table(DMJL, seed=1, first_dealer=0)
    table.melds[1] = [Meld(PUNG, (T.parse_tile(x),) * 3, declared=True, concealed=False, from_seat=3)
                      for x in ("2s", "5s", "8s")]
    set_hand(table, 1, "66s99m")
    set_hand(table, 0, "123m456m789m6s55t9mN")
    table.apply(Action.of(0, "discard", T.parse_tile("9m")))     # not dangerous: normal payments
    for s in table.waiting_for():
        table.apply(Action.of(s, "win" if s == 1 else "pass", T.parse_tile("9m") if s == 1 else None))
    summary = table.history[-1]
    assert "paid_by" not in summary["winners"][0]
    v = summary["winners"][0]["value"]
    own = {int(s): x for s, x in summary["loser_scores"].items()}
    # each loser pays South his value (East double), then the losers settle their differences
    want = [-2 * v, 4 * v, -v, -v]
    for a, b in ((0, 2), (0, 3), (2, 3)):
        d = (own[a] - own[b]) * (2 if 0 in (a, b) else 1)
        want[a] += d
        want[b] -= d
    assert summary["deltas"] == want


def _res(value):
    return ScoreResult(True, value)


@pytest.mark.parametrize("winner, expected", [(0, [300, -100, -100, -100]), (1, [-200, 200, 0, 0])])
def test_settle_pays_for_all_in_classical_zero_sum(winner, expected):
    # a 50-point win paid by the liable seat 2 (or 1 when East wins) for all three:
    # East winning: 3 x 2 x 50 = 300 from the liable seat alone
    liable_seat = 1 if winner == 0 else 0
    winds = [T.EAST, T.SOUTH, T.WEST, T.NORTH]
    got = settle(DMJL, seat_winds=winds, winners=[(winner, _res(50), None)],
                 losers={s: _res(30) for s in range(4) if s != winner}, self_draw=False,
                 discarder=liable_seat, liable={winner: liable_seat})
    want = [0, 0, 0, 0]
    total = 300 if winner == 0 else 200
    want[winner] = total
    want[liable_seat] = -total
    assert got == want


def test_roof_off_option():
    # 4 kongs... a big hand: concealed pungs of honours with doublings passes 500 only with the roof off
    hand = "EEE SSS CCC 11m (FFF) +1m"
    from mahjong_tui.scoring import evaluate
    from mahjong_tui.scoring.common import context_from_notation

    ctx = context_from_notation(hand, variant=DMJL, self_draw=False)
    capped = evaluate(DMJL, ctx)
    free = evaluate(DMJL.with_options({"scoring.roof_off": True}), ctx)
    assert capped.value == 500 and free.value > 500


def test_bmja_refuses_a_second_chow():
    from mahjong_tui.scoring import evaluate
    from mahjong_tui.scoring.common import context_from_notation

    hand = "123m 456m 777s EEE 55t +5t"
    assert evaluate(DMJL, context_from_notation(hand, variant=DMJL)).winning
    assert not evaluate(BMJA, context_from_notation(hand, variant=BMJA)).winning


def test_score_liable_for_a_dangerous_discard(capsys):
    import json

    from mahjong_tui.cli import main

    hand = "123m456t789sEEE 55m +5m"
    # East's 128 points: South's dangerous discard pays all three shares, doubled to East: 6 x 128
    assert main(["score", "--variant", "dmjl", "--json", "--liable", "S", "--discarder", "S", hand]) == 0
    assert json.loads(capsys.readouterr().out)["payments"] == {"E": 768, "S": -768, "W": 0, "N": 0}
    # self-drawn with nothing exposed: nobody fed the winner anything
    assert main(["score", "--variant", "dmjl", "--by", "self-draw", "--liable", "S", hand]) == 2
    assert "dangerous discard" in capsys.readouterr().err
