"""The menu's seat labels follow the variant: wind names where seat 1 is East of the first
hand, seat numbers and a note where the dice choose the first dealer (play-test pt1 item 5)."""

from __future__ import annotations

from textual.widgets import Label, Select, Static

from mahjong_tui.engine import Table
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.variant import load_variant

from .helpers import make_app, screen_text, wait_for


def labels(app) -> list[str]:
    return [str(app.screen.query_one(f"#seat-name{i}", Label).render()) for i in range(4)]


async def test_seats_are_numbered_where_the_dice_choose_the_first_dealer():
    # with seed 5 Yuxi's dice make seat 1 someone other than East (play-test pt1)
    assert Table(load_variant("yuxi"), 5).dealer != 0
    app = make_app(command=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        note = app.screen.query_one("#seat-note", Static)
        assert labels(app) == ["1 East", "2 South", "3 West", "4 North"] and not note.display
        for vid, east in (("yuxi", False), ("singapore", True), ("uzje", False), ("yangzhou", False),
                          ("classic", True)):
            app.screen.query_one("#variant", Select).value = vid
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            if east:
                assert labels(app) == ["1 East", "2 South", "3 West", "4 North"], vid
                assert not note.display and "drawn by dice" not in text, vid
            else:
                assert labels(app) == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"], vid
                assert "Winds drawn by dice: seat 1 is not always East." in text, vid
                assert "1 East" not in text, vid
            # the note takes no room of its own: the LAN buttons still fit 80x24
            assert "Host LAN table" in text, vid
