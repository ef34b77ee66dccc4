"""Call toggles (issue 22, item 2): no calls ``n`` (auto-pass), auto-win ``u`` and auto-draw
``o``, each a key at the table, shown in the status line and kept with a saved match; and
"Why can't I win with this?" ``y`` (item 6, ui/why.py).

The toggles' answers are read from the session's answers (``DeskSession.resolve`` wrapped, as
in test_auto_draw.py).  The why tests use hands of the rules documents with the value worked
out by hand in a comment, and one Pilot test presses ``y`` at a real table.
"""

from __future__ import annotations

import json

import pytest

from mahjong_tui.config import Settings
from mahjong_tui.engine import Table
from mahjong_tui.engine.log import GameLog
from mahjong_tui.ui.screens.dialogs import WhyScreen
from mahjong_tui.ui.screens.results import HandEndScreen
from mahjong_tui.ui.why import explain
from mahjong_tui.variant import load_variant
from tests.helpers import turn_view
from tests.ui.helpers import make_app, my_request, play, save_and_leave, screen_text, table_screen, wait_for
from tests.ui.test_auto_draw import bar_text, record_answers, shown_recorder

SEED = 10  # Classic, one hand: East is offered pick-ups, pungs and chows (test_auto_draw.py)


async def test_no_calls_passes_every_claim_prompt_unseen():
    app = make_app(seed=SEED, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        session = table_screen(app).session
        answers = record_answers(session)
        await pilot.press("n")
        await pilot.pause()
        assert session.no_calls == {0} and "no calls" in bar_text(app)
        shown: list = []
        await play(pilot, app, until=shown_recorder(shown))
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
    assert all(req.is_turn for req in shown)  # no claim prompt was put on screen
    unseen = [(req, action) for req, action, on_screen in answers if not on_screen]
    assert unseen and all(action.kind == "pass" and not req.is_turn for req, action in unseen)
    assert any(req.kinds & {"pung", "chow", "kong"} for req, _a in unseen)  # more than pick-ups


def claim_view(variant_id: str, hand: str, tile: str, seed: int = 2):
    """A real view of the seat across from the dealer of ``Table(variant, seed)``, holding
    ``hand`` (13 tiles) while the dealer's discard ``tile`` lies there to be claimed."""
    variant = load_variant(variant_id)
    table = Table(variant, seed, hands=1)
    view = json.loads(json.dumps(table.view((table.dealer + 2) % 4)))
    view.update(hand=hand, drawn=None, phase="claim", discard={"seat": table.dealer, "tile": tile})
    return variant, view


def test_why_under_the_minimum():
    # yangzhou.md "Winning hands": a win needs 15 fan.  123m 456m 789s 234t 5t + 5t on a
    # discard: basic win 1 + no melds 1 + sequence hand 1 + continuous sequences (123m 456m)
    # 1 = 4 fan, under 15.
    variant, view = claim_view("yangzhou", "123m456m789s234t5t", "5t")
    lines = explain(variant, view, [])
    assert lines[0] == ("5t completes your hand, but it is not a win on this discard: "
                        "it is under the minimum a win needs (4/15 fan).")
    assert "Ready." in lines[1] and "  5t (3 left): no win: 4/15 fan" in lines


def test_why_a_self_draw_only_hand_on_a_discard():
    # yuxi.md "Winning hands": a basic win (no other pattern) only by self-draw; the same
    # hand has no other Yuxi pattern, so 5t on a discard is no win; self-drawn it is 1
    # multiplier (the basic win).
    variant, view = claim_view("yuxi", "123m456m789s234t5t", "5t")
    lines = explain(variant, view, [])
    assert lines[0] == ("5t completes your hand, but it is not a win on this discard: "
                        "it wins only self-drawn, not on a discard (self-drawn: 1 multiplier).")


def test_why_a_chow_not_claimable():
    # classic.md "Winning hands": the winning tile may not complete a chow.  123m 456m 789s
    # 55t 34t waits on 2t (completing the chow 234t: no win) and 5t (a pung of 5t: a win).
    variant, view = claim_view("classic", "123m456m789s55t34t", "2t")
    lines = explain(variant, view, [])
    assert lines[0] == "2t completes your hand, but it is not a win on this discard: completes a chow."
    assert "  2t (4 left): no win (completes a chow)" in lines
    assert any(line.startswith("  5t (") and "no win" not in line for line in lines)
    # a tile that does not complete the hand says so
    _v, other = claim_view("classic", "123m456m789s55t34t", "7t")
    assert explain(variant, other, [])[0] == "7t does not complete your hand."


def test_why_on_ones_own_turn():
    # 14 tiles that are a complete shape but under Yangzhou's 15 fan self-drawn: said why;
    # 14 tiles that are not complete: how far from ready and the best discards (as analyze).
    variant = load_variant("yangzhou")
    view, legal = turn_view(variant, "123m456m789s234t55t")
    view["drawn"] = "5t"
    lines = explain(variant, view, legal)
    assert lines[0].startswith("Your 14 tiles are a complete shape, but not a win self-drawn on 5t: "
                               "it is under the minimum a win needs (")
    view, legal = turn_view(variant, "123m456m789s234t5tN")
    lines = explain(variant, view, legal)
    # discard N: ready on 2t 5t (123m 456m 789s 234t 5t); the best discard comes first
    assert lines[0] == "Not a complete hand: the right discard leaves you ready."
    assert lines[1].startswith("  discard N: 0 from ready → waits 2t (") and " 5t (" in lines[1]


async def test_pilot_y_explains_the_hand_at_the_keyboard():
    app = make_app(seed=SEED, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, WhyScreen))
        text = screen_text(app)
        assert "Why can't I win with this?" in text and "from ready" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, WhyScreen))
        assert my_request(app) is not None  # the decision still waits


async def test_the_toggles_are_kept_by_save_and_resume(tmp_path):
    save = tmp_path / "game.jsonl"
    app = make_app(seed=SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=1)
        await pilot.press("u", "n")
        await pilot.pause()
        session = table_screen(app).session
        assert session.auto_win == {0} and session.no_calls == {0}
        assert "auto-win on · no calls" in bar_text(app)
        await save_and_leave(pilot, app, save)
    log = GameLog.load(save)
    assert log.settings == {"auto_win": [0], "no_calls": [0]}
    resumed = make_app(command="resume", log=log)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(resumed) is not None)
        s = table_screen(resumed).session
        assert s.auto_win == {0} and s.no_calls == {0} and s.auto_draw == set()
        assert "auto-win on · no calls" in bar_text(resumed)


def test_auto_draw_is_on_by_default_at_a_classic_table():
    # issue 22, item 2: Classic's take-or-draw prompt would stop nearly every turn
    assert Settings().auto_draw is True


@pytest.mark.parametrize("seed, self_drawn", [(17, False), (32, True)])
async def test_auto_win_declares_a_win_unasked(seed, self_drawn):
    # Classic, East with auto-win on from its first decision and the baseline bot's choices:
    # seed 17 brings East a win on a discard, seed 32 a self-drawn one; either is declared
    # without a prompt, and no prompt offering East a win is ever shown.
    app = make_app(seed=seed, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        session = table_screen(app).session
        answers = record_answers(session)
        await pilot.press("u")
        await pilot.pause()
        assert "auto-win on" in bar_text(app)
        shown: list = []
        await play(pilot, app, until=shown_recorder(shown))
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        winners = [w["seat"] for w in app.screen.summary["winners"]]
    assert not any(any(a.kind == "win" for a in req.legal) for req in shown if req.seat == 0)
    wins = [(req, on_screen) for req, action, on_screen in answers if action.kind == "win"]
    assert [(req.seat, req.is_turn, on_screen) for req, on_screen in wins] == [(0, self_drawn, False)]
    assert winners == [0]


async def test_why_closes_when_the_hand_is_no_longer_shown():
    # hot-seat: East opens "why" on its turn; its discard (made here through the session, as
    # the dialog covers the keys) opens the public call window, where nobody's hand is shown:
    # the dialog about East's hand is gone before the window is drawn
    from mahjong_tui.ui.screens.dialogs import PrivacyScreen

    app = make_app(seats=("human", "human", "ai", "ai"), seed=SEED, hands=1)
    app.call_seconds = 3600
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        await pilot.press("space")
        await wait_for(pilot, lambda: my_request(app) is not None)
        session = table_screen(app).session
        req = my_request(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, WhyScreen))
        session.answer(next(a for a in req.legal if a.kind == "discard"))
        await wait_for(pilot, lambda: session.call_window() is not None)
        await pilot.pause()
        assert not isinstance(app.screen, WhyScreen) and app.screen is table_screen(app)
        assert session.keyboard is None and "call?" in bar_text(app)
