"""The menu's variant options: shown for a variant that has them (a checkbox per on/off
option, a select per one-of option), hidden otherwise; a game or a hosted table started from
the menu is played with them."""

from __future__ import annotations

from textual.widgets import Checkbox, Select

from mahjong_tui.ui.screens.dialogs import QuitScreen
from mahjong_tui.ui.screens.menu import MenuScreen
from tests.ui.helpers import make_app, my_request, screen_text, table_screen, wait_for


async def test_menu_plays_uzje_with_flowers(monkeypatch):
    from mahjong_tui.ui.screens import menu

    monkeypatch.setattr(menu, "SEAT_CHOICES", menu.SEAT_CHOICES + [("AI baseline", "ai:baseline")])
    app = make_app(command=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        screen = app.screen
        assert not screen.query_one("#variant-options").display  # Classic has no options
        assert "Flowers" not in screen_text(app)

        screen.query_one("#variant", Select).value = "uzje"
        await wait_for(pilot, lambda: screen.query_one("#variant-options").display)
        flowers = screen.query_one("#opt-flowers", Checkbox)
        assert flowers.value is False  # the variant's own value
        assert list(screen.query_one("#opt-concealed_quad_mode", Select)._options) == [
            ("known", "known"), ("hidden", "hidden")]
        text = screen_text(app)
        assert "Flowers" in text and "Concealed quads" in text and "New game" in text  # all on 80x24
        await pilot.click("#opt-flowers")
        assert flowers.value is True
        await pilot.pause()
        assert "176 tiles" in screen_text(app)
        assert screen.chosen_options() == {"flowers": True}

        # the Host form starts from the menu's choice and would host with it
        await pilot.click("#host")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "HostScreen")
        await pilot.pause()
        host = app.screen
        assert host.query_one("#opt-flowers", Checkbox).value is True
        assert host.namespace().option == ["flowers=true"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)

        screen.query_one("#seed").value = "5"
        screen.query_one("#hands").value = "1"
        screen.query_one("#delay").value = "0"
        for i in range(1, 4):
            screen.query_one(f"#seat{i}").value = "ai:baseline"
        await pilot.click("#new")
        await wait_for(pilot, lambda: my_request(app) is not None)
        session = table_screen(app).session
        assert session.variant.id == "uzje" and session.variant.tile_count == 176
        assert dict(session.variant.applied_options) == {"flowers": True}
        assert session.game_log().options == {"flowers": True}
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.click("#nosave")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        # another variant hides them again; back to Uzje starts from its own values
        screen.query_one("#variant", Select).value = "yuxi"
        await wait_for(pilot, lambda: not screen.query_one("#variant-options").display)
        assert screen.chosen_options() == {}
        screen.query_one("#variant", Select).value = "uzje"
        await wait_for(pilot, lambda: screen.query_one("#variant-options").display)
        assert flowers.value is False
