"""The README's pictures: SVG screenshots of the real app (issue 21, item 9).

Run by hand from the repository root, after the table's look changes::

    python tests/screenshots.py            # every picture
    python tests/screenshots.py singapore  # those whose name holds "singapore"

It drives the app as a player would (Textual's Pilot, ``App.run_test``): your seat is played
through the keys with the baseline bot's choices (``tests/ui/helpers.play``), the other seats
are bots, and each picture is taken with ``App.save_screenshot`` into
``assets/screenshots/NAME-WxH.svg``.  Every picture is taken at 80x24 (the smallest terminal
the app runs in) and at 160x50, with the faces chosen as for a terminal of that width (no
``--faces``: one-line tiles at 80 columns, boxed tiles and CJK faces at 160), the default
settings (a home folder of its own), the theme pinned, and fixed seeds, so a refresh changes
a picture only where the app's look changed.

The pictures:

- ``singapore-mid-hand``: Singapore, seed 28, your turn once melds are on the table: every
  seat's flowers and animals beside it, the melds with their claimed tiles, the ponds, the
  walls, the instant payments on the status line;
- ``classic-scoring``: Classic, seed 32, the scoring screen of the first hand: the winning
  hand in the groups the scorer read, the patterns and the arithmetic, the payments;
- ``menu``: the main menu (80x24 only);
- ``settings-colour-blind``: the Settings screen with the large face set and the colour-blind
  palette (80x24 only).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# each picture's app has a home folder of its own (shoot): the pictures show the folders a
# player has (~/.config/mahjong-tui/...), no picture sees another's saved games, and no
# settings or saves of the machine's user are read or written
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "MAHJONG_TUI_CONFIG", "MAHJONG_TUI_SAVES"):
    os.environ.pop(_var, None)

from mahjong_tui.ui.app import MahjongApp  # noqa: E402
from mahjong_tui.ui.screens.menu import MenuScreen  # noqa: E402
from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen  # noqa: E402
from mahjong_tui.ui.screens.settings import SettingsScreen  # noqa: E402
from tests.ui.helpers import THEME, my_request, play, wait_for  # noqa: E402

OUT = ROOT / "assets" / "screenshots"
SIZES = ((80, 24), (160, 50))
SEATS = ["human", "ai:baseline", "ai:baseline", "ai:baseline"]


def make(command: str | None, size: tuple[int, int], variant: str = "classic", seed: int = 1) -> MahjongApp:
    """The app as ``mahjong-tui play`` (or, ``command`` None, ``mahjong-tui``) starts it in a
    terminal of ``size``: faces by the terminal, bots without pause, pinned theme."""
    app = MahjongApp(command=command, variant=variant, seats=SEATS, seed=seed, hands=1,
                     bot_delay=0 if command else None,  # the menu shows the settings' pause
                     env={**os.environ, "LANG": "C.UTF-8", "TERM": "xterm-256color"}, width=size[0])
    app.theme = THEME
    app.privacy_guard = 0
    return app


def melds_on_table(app) -> bool:
    """Your turn, with at least two melds exposed at the table."""
    req = my_request(app)
    return (req is not None and req.is_turn
            and sum(len(p["melds"]) for p in req.view["players"]) >= 2)


async def singapore_mid_hand(pilot) -> None:
    await play(pilot, pilot.app, until=melds_on_table)


async def classic_scoring(pilot) -> None:
    app = pilot.app
    await play(pilot, app, until=lambda a: isinstance(a.screen, (HandEndScreen, MatchEndScreen)))
    await wait_for(pilot, lambda: isinstance(app.screen, (HandEndScreen, MatchEndScreen)))


async def menu(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MenuScreen))


async def settings_colour_blind(pilot) -> None:
    from textual.widgets import Select, Switch

    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
    await pilot.press("f3")
    await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
    app.screen.query_one("#set-faces", Select).value = "large"
    app.screen.query_one("#set-colour-blind", Switch).value = True
    await pilot.pause()
    app.screen.query_one("#set-colour-blind", Switch).focus()


#: name → (command, variant, seed, what to do before the picture, sizes)
SHOTS = {
    "singapore-mid-hand": ("play", "singapore", 28, singapore_mid_hand, SIZES),
    "classic-scoring": ("play", "classic", 32, classic_scoring, SIZES),
    "menu": (None, "classic", 1, menu, SIZES[:1]),
    "settings-colour-blind": (None, "classic", 1, settings_colour_blind, SIZES[:1]),
}


async def shoot(name: str, size: tuple[int, int]) -> Path:
    command, variant, seed, before, _ = SHOTS[name]
    filename = f"{name}-{size[0]}x{size[1]}.svg"
    with tempfile.TemporaryDirectory(prefix="mahjong-tui-screenshots-") as home:
        os.environ["HOME"] = home
        app = make(command, size, variant, seed)
        async with app.run_test(size=size) as pilot:
            await before(pilot)
            for _ in range(3):
                await pilot.pause()
            app.save_screenshot(filename=filename, path=str(OUT))
            session = getattr(app, "session", None)
            if session is not None:
                session.stop()
    return OUT / filename


def main(argv: list[str]) -> int:
    wanted = [n for n in SHOTS if not argv or any(a in n for a in argv)]
    if not wanted:
        print(f"no picture is named like {' '.join(argv)}; pictures: {', '.join(SHOTS)}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for name in wanted:
        for size in SHOTS[name][4]:
            start = time.monotonic()
            path = asyncio.run(shoot(name, size))
            print(f"{path.relative_to(ROOT)}  ({time.monotonic() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
