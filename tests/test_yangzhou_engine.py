"""Yangzhou at the table (seed 004, yangzhou.md): no chow claims, the 15-fan minimum, burdened
payment (pao), dealer rotation."""

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
    tb = Table(load_variant("yangzhou"), 1, hands=3, first_dealer=0)
    tb.discards_made = 4  # mid-hand
    return tb


def test_no_chow_claims_but_a_chow_may_complete_a_win(table):
    """yangzhou.md "How a hand goes": no chow claims, except to win."""
    set_hand(table, 1, "46m19t19sESWNCFP")
    assert table._claim_actions(1, 0, t("5m")) == []


def test_under_fifteen_fan_is_not_offered(table):
    """yangzhou.md "Winning hands": 123m 456t 789s 11s 46s + 5s is a complete shape worth only 7 fan — basic_win,
    no_melds, sequence_hand, edge_wait (46→5, one kind), terminal_pair (11s),
    matching_sequences (456t/456s), continuous_sequences (456s/789s), 1 each: no win offered.
    A mixed-suit hand 123s 456s 789s EE 46s + 5s: mixed_suit 15 + pure_straight 15 + ... ≥ 15: offered."""
    set_hand(table, 1, "123m456t789s11s46s")
    assert not any(a.kind == "win" for a in table._claim_actions(1, 0, t("5s")))
    set_hand(table, 1, "123456789sEE46s")
    assert Action(1, "win", t("5s")) in table._claim_actions(1, 0, t("5s"))


def _pao_setup(table):
    # seat 1: (111s) (222s) fed by seat 2, (333s) fed by seat 3 — his third exposed meld
    table.melds[1] = [Meld(PUNG, (t(x),) * 3, declared=True, concealed=False, from_seat=f)
                      for x, f in (("1s", 2), ("2s", 2), ("3s", 3))]
    set_hand(table, 1, "4567s")
    set_hand(table, 0, "7s123456789tEEEN")


def test_pao_on_a_discard_win(table):
    """yangzhou.md "Settlement": a full flush whose third exposed meld was fed by seat 3: seat 3 pays the
    whole 2F; the discarder (seat 0) pays nothing."""
    _pao_setup(table)
    table.apply_decision(Action(0, "discard", t("7s")))
    table.apply_decision(Action(1, "win", t("7s")))
    h = table.history[-1]
    F = h["winners"][0]["value"]
    assert "full_flush" in {p["id"] for p in h["winners"][0]["patterns"]} and F >= 60
    assert h["deltas"] == [0, 2 * F, 0, -2 * F]


def test_pao_on_a_self_draw(table):
    """Self-drawn: the liable seat pays 3F alone."""
    _pao_setup(table)
    set_hand(table, 1, "45677s")
    table.current, table.last_drawn, table.drawn_from = 1, t("7s"), "wall"
    table.apply(Action(1, "win", t("7s")))
    h = table.history[-1]
    F = h["winners"][0]["value"]
    assert h["deltas"] == [0, 3 * F, 0, -3 * F]


def test_pao_when_another_seat_deals():
    """The same pao with seat 1 the dealer (East): seat 3 (West) still pays the whole 2F, and
    the scorer's ``payments`` for the engine's context — whose melds name their feeders
    counted from the dealer — say the same by seat wind."""
    from mahjong_tui.scoring import evaluate

    tb = Table(load_variant("yangzhou"), 1, hands=3, first_dealer=1)
    tb.discards_made = 4
    _pao_setup(tb)
    tb.current, tb.phase = 0, "turn"
    res = evaluate(tb.variant, tb.context(1, t("7s"), False, (), 0, extra=t("7s")))
    tb.apply_decision(Action(0, "discard", t("7s")))
    tb.apply_decision(Action(1, "win", t("7s")))
    h = tb.history[-1]
    F = h["winners"][0]["value"]
    assert h["deltas"] == [0, 2 * F, 0, -2 * F]
    assert dict(res.payments) == {h["seat_winds"][s]: h["deltas"][s] for s in range(4)} == \
        {"N": 0, "E": 2 * F, "S": 0, "W": -2 * F}


def test_a_draw_rotates_the_deal():
    """yangzhou.md "Setting up": the dealer keeps the deal only by winning; a draw rotates it."""
    v = load_variant("yangzhou")
    from mahjong_tui.ai.baseline import BaselineBot
    from mahjong_tui.sim import play_match

    tb = Table(v, 5, hands=10)
    play_match(tb, [BaselineBot(v, s) for s in range(4)])
    for a, b in zip(tb.history, tb.history[1:]):
        winners = [w["seat"] for w in a["winners"]]
        expected = a["dealer"] if a["dealer"] in winners else (a["dealer"] + 1) % 4
        assert b["dealer"] == expected
