"""Auto-draw (``o`` at the table): Classic's pick-up-only claim prompts pass by themselves.

In Classic the next player may take any discard into hand (``claims.next_player_pickup``), so
a human seat is asked "take it or pass" after nearly every discard of the seat before it.
With auto-draw on for that seat, a prompt whose only choices are ``pickup`` and ``pass`` is
answered ``pass`` without being shown; a prompt that also offers a chow, pung, kong or win is
shown as usual.  The real app is driven by Pilot: locally, in hot-seat (the setting belongs to
the seat at the keyboard), and as a LAN client of a real server on 127.0.0.1.

What was answered, and how, is read from the session's answers (``DeskSession.resolve`` is
wrapped to record them) and, for the LAN client, from the server's own table.
"""

from __future__ import annotations

import asyncio

from mahjong_tui.engine import Action
from mahjong_tui.ui.netsession import open_join
from mahjong_tui.ui.screens.dialogs import PrivacyScreen
from mahjong_tui.ui.screens.lan import join_namespace
from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen
from mahjong_tui.ui.widgets.areas import ActionBar
from tests.net.util import new_table, served
from tests.ui.helpers import make_app, my_request, net_app, next_decision, play, table_screen, wait_for

PICKUP_ONLY = frozenset({"pickup", "pass"})  # spelled out, not read from the session

# Classic, one hand, baseline bots.  Pick-up-only prompts are common in Classic (nearly every
# seed has several for East); these seeds also bring East prompts that offer a pung or chow.
SEED_LOCAL = 10
SEED_HOT = 10
SEED_LAN = 32


def record_answers(session) -> list[tuple]:
    """Wrap ``session.resolve`` (every answer, shown or not, goes through it); returns the
    list it appends ``(request, action, shown)`` to, ``shown`` being whether the request was
    the one on screen."""
    answers: list[tuple] = []
    original = session.resolve

    def resolve(req, action):
        shown = session.request_now is req
        ok = original(req, action)
        if ok:
            answers.append((req, action, shown))
        return ok

    session.resolve = resolve
    return answers


def bar_text(app) -> str:
    return " ".join(table_screen(app).query_one(ActionBar).plain_lines())


def shown_recorder(shown: list):
    """An ``until`` for :func:`tests.ui.helpers.play` that records every request put on screen
    (and never stops the play)."""

    def until(app) -> bool:
        req = my_request(app)
        if req is not None and (not shown or shown[-1] is not req):
            shown.append(req)
        return False

    return until


async def first_decision(pilot, app):
    """Wait until the seat at the keyboard owes its first decision; returns the session and
    the list :func:`record_answers` fills from then on."""
    await wait_for(pilot, lambda: my_request(app) is not None)
    session = table_screen(app).session
    return session, record_answers(session)


async def toggle_auto_draw(pilot, app) -> None:
    await pilot.press("o")
    await pilot.pause()


async def test_auto_draw_passes_pickup_only_prompts_and_shows_the_others():
    # You at East with three bots: with auto-draw on, North's discards bring pick-up-only
    # prompts (never shown), and prompts with a pung or chow (shown); the hand is played to its
    # end.
    app = make_app(seed=SEED_LOCAL, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        session, answers = await first_decision(pilot, app)
        assert "auto-draw" not in bar_text(app)  # off when a game starts
        await toggle_auto_draw(pilot, app)
        assert session.auto_draw == {0}
        assert bar_text(app).count("auto-draw on") == 1  # the line under the prompt says so
        shown: list = []
        await play(pilot, app, until=shown_recorder(shown))
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))  # the game went on
    auto = [(req, action) for req, action, on_screen in answers if not on_screen]
    assert auto, "no pick-up-only prompt came up"
    for req, action in auto:
        assert req.kinds == PICKUP_ONLY and action.kind == "pass" and req not in shown
    assert all(req.kinds != PICKUP_ONLY for req in shown if not req.is_turn)
    richer = [req for req in shown if not req.is_turn and req.kinds & {"chow", "pung", "kong", "win"}]
    assert richer, "no prompt with a chow, pung, kong or win came up"
    assert any("pickup" in req.kinds for req in richer)  # pick-up offered beside a meld: still asked


async def test_auto_draw_off_shows_pickup_only_prompts_and_o_passes_the_one_on_screen():
    app = make_app(seed=SEED_LOCAL, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        session, answers = await first_decision(pilot, app)

        def pickup_prompt(a) -> bool:
            req = my_request(a)
            return req is not None and req.kinds == PICKUP_ONLY

        # off (the default): the pick-up-only prompt is on screen, waiting for the player
        await play(pilot, app, until=pickup_prompt)
        req = my_request(app)
        assert req.kinds == PICKUP_ONLY and not req.future.done()
        assert "into hand" in bar_text(app) and "pass" in bar_text(app)
        # turning auto-draw on answers the prompt on screen with pass, and the game goes on
        await toggle_auto_draw(pilot, app)
        await wait_for(pilot, lambda: req.future.done())
        assert req.future.result() == Action(0, "pass")
        assert answers[-1][0] is req and answers[-1][1].kind == "pass"
        await wait_for(pilot, lambda: my_request(app) is not req and my_request(app) is not None
                       or isinstance(app.screen, HandEndScreen))
        # and off again: the next pick-up-only prompt is shown again
        await toggle_auto_draw(pilot, app)
        assert session.auto_draw == set() and "auto-draw" not in bar_text(app)
        await play(pilot, app, until=pickup_prompt)
        assert pickup_prompt(app)


async def test_auto_draw_belongs_to_the_seat_at_the_keyboard_in_hot_seat():
    # East and South are people at one keyboard (ui/session.py, "Claim rounds"); East turns
    # auto-draw on, South leaves it off.  Nobody presses a call key (the windows close at
    # once).  East's claim prompts are passed unseen (it did not call); South, Classic's next
    # player after East, is asked "take it or draw" after every discard of East's as if it had
    # called: its pick-up-only prompts are shown, each behind a hand-over that says "may claim".
    app = make_app(seats=("human", "human", "ai", "ai"), seed=SEED_HOT, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        await pilot.press("space")
        await wait_for(pilot, lambda: my_request(app) is not None)
        session = table_screen(app).session
        assert session.keyboard == 0
        answers = record_answers(session)
        log: list[tuple] = []
        original_privacy = table_screen(app).privacy

        async def privacy_for(seat, take):
            log.append(("privacy", seat, session.handoff(seat).why))
            await original_privacy(seat, take)

        table_screen(app).privacy = privacy_for
        await toggle_auto_draw(pilot, app)
        assert session.auto_draw == {0}
        shown: list = []
        await play(pilot, app, until=shown_recorder(shown))
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
    auto = [req for req, _action, on_screen in answers if not on_screen]
    assert not any(req.seat == 0 and not req.is_turn for req in shown)
    assert any(req.seat == 0 and req.kinds == PICKUP_ONLY for req in auto)
    assert any(req.seat == 1 and req.kinds == PICKUP_ONLY for req in shown)
    assert not any(req.seat == 1 and not req.is_turn and req.view["discard"]["seat"] == 0 for req in auto)
    east_discards = sum(1 for a in session.table.actions if a.seat == 0 and a.kind == "discard")
    asked = [e for e in log if e[1] == 1 and e[2] == "may claim Player 1's discard"]
    assert east_discards >= 3 and len(asked) >= east_discards - 1  # (the last may end the hand)


async def test_auto_draw_at_a_lan_table_as_a_client():
    # A TUI client at East of a served Classic table with three server-side bots: its
    # pick-up-only prompts are passed by the client, and the server applies those passes.
    table = new_table("classic", seed=SEED_LAN, hands=1)
    async with served(table, seats=("remote", "ai:baseline", "ai:baseline", "ai:baseline"), bot_delay=0) \
            as (server, task):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        app = net_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await next_decision(pilot, app)
            answers = record_answers(session)
            await toggle_auto_draw(pilot, app)
            assert session.auto_draw == {0} and "auto-draw on" in bar_text(app)
            shown: list = []
            await play(pilot, app, until=shown_recorder(shown))
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
            auto = [req for req, _action, on_screen in answers if not on_screen]
            assert auto and all(req.kinds == PICKUP_ONLY for req in auto)
            assert not any(req.kinds == PICKUP_ONLY for req in shown)
            # the server applied passes of East's that were never on screen: the auto passes
            # went over the wire (a pass that a higher claim overtook is not applied)
            shown_passes = sum(1 for _req, action, on_screen in answers if on_screen and action.kind == "pass")
            server_passes = sum(1 for a in table.actions if a.seat == 0 and a.kind == "pass")
            assert shown_passes < server_passes <= shown_passes + len(auto)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.return_code is not None)
        await asyncio.wait_for(task, 10)
    assert app.return_code == 0 and table.phase == "match_over"


async def test_auto_draw_is_kept_by_save_and_resume(tmp_path):
    """Auto-draw is a setting of the player's seat in this match: saved with the match (the
    log header's ``settings``), on again after ``resume``, and the line under the prompt
    says so; a match saved with it off resumes with it off."""
    from mahjong_tui.engine.log import GameLog
    from tests.ui.helpers import save_and_leave

    save = tmp_path / "game.jsonl"
    app = make_app(seed=SEED_LOCAL)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=1)
        await toggle_auto_draw(pilot, app)
        assert table_screen(app).session.auto_draw == {0}
        await save_and_leave(pilot, app, save)
    log = GameLog.load(save)
    assert log.settings == {"auto_draw": [0]}
    resumed = make_app(command="resume", log=log)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(resumed) is not None)
        assert table_screen(resumed).session.auto_draw == {0}
        assert "auto-draw on" in bar_text(resumed)
    # off: nothing in the header, off after resume
    log.settings = {}
    log.save(save)
    assert '"settings"' not in save.read_text().splitlines()[0]
    again = make_app(command="resume", log=GameLog.load(save))
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(again) is not None)
        assert table_screen(again).session.auto_draw == set()
