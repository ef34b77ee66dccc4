"""The menu's number fields say what they take when they refuse a key or hold a value a game
cannot start with (play-test pt1 item 10)."""

from __future__ import annotations

from textual.widgets import Input, Static

from mahjong_tui.ui.screens.menu import MenuScreen

from .helpers import make_app, screen_text, wait_for


async def test_number_fields_say_what_they_take():
    app = make_app(command=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        note = app.screen.query_one("#number-note", Static)
        assert not note.display
        seed = app.screen.query_one("#seed", Input)
        seed.focus()
        await pilot.press("x")  # refused: the field stays blank, the note says why
        await pilot.pause()
        assert seed.value == "" and note.display
        assert "Seed: a whole number (digits), or blank for a random seed." in screen_text(app)
        await pilot.press("5")
        await pilot.pause()
        assert seed.value == "5" and not note.display
        hands = app.screen.query_one("#hands", Input)
        hands.focus()
        await pilot.press("0")  # typed, but no match has 0 hands
        await pilot.pause()
        assert hands.value == "0" and note.display
        assert "Hands: a whole number, 1 or more, or blank for the whole match." in screen_text(app)
        await pilot.press("backspace", "2")
        await pilot.pause()
        assert hands.value == "2" and not note.display
        delay = app.screen.query_one("#delay", Input)
        delay.focus()
        await pilot.press("end", "s")
        await pilot.pause()
        # the field starts at the app's bot pause (make_app: 0) and refuses the letter
        assert delay.value == "0" and "Bot pause: seconds, 0 to 10 (such as 0.4)." in screen_text(app)
        assert "Host LAN table" in screen_text(app)  # the note takes no room of its own at 80x24


async def test_a_fraction_of_hands_and_a_huge_bot_pause_are_refused_whole():
    """Play-test pt4 item 7: ``1.5`` in Hands refused the ``.`` and kept the ``5`` (a 15-hand
    match); ``1e3`` or ``1e400`` (inf) s of bot pause started a table whose bots never moved.
    Now such an entry stays as typed, the note says what the field takes, and New game starts
    nothing."""
    app = make_app(command=None)
    started = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        app.start_game = lambda *a, **k: started.append((a, k))
        note = app.screen.query_one("#number-note", Static)
        hands = app.screen.query_one("#hands", Input)
        hands.focus()
        await pilot.press("1", ".", "5")
        await pilot.pause()
        assert hands.value == "1.5" and note.display
        assert "Hands: a whole number, 1 or more, or blank for the whole match." in screen_text(app)
        app.screen.action_new()
        await pilot.pause()
        assert not started and "Check the numbers: Hands: a whole number" in screen_text(app)
        await pilot.press("backspace", "backspace")
        await pilot.pause()
        assert hands.value == "1" and not note.display
        delay = app.screen.query_one("#delay", Input)
        for typed in ("1e3", "1e400", "10.5"):
            delay.focus()
            delay.value = ""
            await pilot.press(*typed)
            await pilot.pause()
            assert delay.value == typed and note.display, typed
            assert "Bot pause: seconds, 0 to 10 (such as 0.4)." in screen_text(app)
            app.screen.action_new()
            await pilot.pause()
            assert not started, typed
        delay.value = ""
        await pilot.press("1", "0")
        await pilot.pause()
        assert not note.display
        app.screen.action_new()
        await pilot.pause()
        assert started and started[0][1]["bot_delay"] == 10 and started[0][1]["hands"] == 1
