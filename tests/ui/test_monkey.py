"""Random keys at the real app (Textual Pilot): no sequence of keys may crash it.

Seeded key sequences (so a failure can be replayed) over the menu and over a hot-seat table
with privacy screens, claims, hints, the keys and rules screens and the quit dialog.  An
exception anywhere in the app fails the test (``run_test`` raises what made the app panic).
Games go to the test's own saves folder (``make_app``)."""

from __future__ import annotations

import random

import pytest

from tests.ui.helpers import make_app

KEYS = list("dwpkcatrxoshqi?0123456789bgjz") + [
    "enter", "space", "left", "right", "home", "end", "escape", "tab", "up", "down", "pageup", "pagedown",
    "ctrl+n", "f2"]


#: keys that leave the app at once from the menu (no dialog): the menu's random keys leave them out
MENU_QUITS = {"q", "ctrl+q"}
MENU_KEYS = [k for k in KEYS if k not in MENU_QUITS]

PRESSES = 150


@pytest.mark.parametrize("command, variant, seats, seed", [
    (None, "classic", ("human", "ai:baseline", "ai:baseline", "ai:baseline"), 11),
    ("play", "singapore", ("human", "ai:baseline", "human", "ai:baseline"), 12),
    ("play", "uzje", ("human", "ai:strong", "ai:baseline", "ai:baseline"), 13),
])
async def test_random_keys_never_crash_the_app(command, variant, seats, seed):
    from mahjong_tui.ui.screens.menu import MenuScreen

    rng = random.Random(seed)
    pressed = runs = 0
    while pressed < PRESSES:  # the app left (the Quit button, the quit dialog): a new one, same keys on
        runs += 1
        app = make_app(seats=seats, variant=variant, seed=seed + runs - 1, hands=2, command=command)
        async with app.run_test(size=(80, 24)) as pilot:
            while pressed < PRESSES:
                keys = MENU_KEYS if isinstance(app.screen, MenuScreen) else KEYS
                await pilot.press(rng.choice(keys))
                if pressed % 5 == 0:
                    await pilot.pause()
                pressed += 1
                if app.return_code is not None:  # left through the quit dialog: fine
                    break
        assert app.return_code in (None, 0)
    assert pressed == PRESSES and runs < 10, (pressed, runs)
