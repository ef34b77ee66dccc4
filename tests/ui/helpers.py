"""Helpers of the UI tests: build the app, read the screen as text, play a seat through keys."""

from __future__ import annotations

import io
import os
import tempfile
from dataclasses import replace

from rich.console import Console

from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.engine import Action
from mahjong_tui.ui.app import MahjongApp

THEME = "textual-dark"


#: the environment of the tests' apps; ``MAHJONG_TUI_SAVES`` is an empty folder of each app's
#: own (:func:`fresh_env`): local tables journal their moves there (GameSession.open_journal)
#: and the menu offers to resume what it finds, so no test may see another's files
#: (all of them below one temporary folder, removed when the test run ends);
#: ``MAHJONG_TUI_CONFIG`` a settings file of its own, not there at first: no test reads the
#: settings of the machine it runs on, or writes them (the Settings screen saves on leaving)
_SAVES_ROOT = tempfile.TemporaryDirectory(prefix="mahjong-tui-test-saves-")


def _own_folders() -> dict:
    folder = tempfile.mkdtemp(dir=_SAVES_ROOT.name)
    return {"MAHJONG_TUI_SAVES": folder, "MAHJONG_TUI_CONFIG": os.path.join(folder, "settings", "config.toml")}


ENV = {"LANG": "C.UTF-8", "TERM": "xterm-256color", **_own_folders()}


def fresh_env() -> dict:
    """:data:`ENV` with a new, empty saves folder and a settings file of its own."""
    return {**ENV, **_own_folders()}


def make_app(seats=("human", "ai:baseline", "ai:baseline", "ai:baseline"), variant="classic", seed=32, hands=1, faces="compact",
             env=None, command="play", saves=None, **kw) -> MahjongApp:
    """A table app started as by ``mahjong-tui play`` (bots without pause, pinned theme);
    ``saves``: its saves folder (default: a new empty one, :func:`fresh_env`).

    The bots are ``ai:baseline`` (the shanten-greedy bot): the seeds the tests use were found
    for it, and it does not change when the stronger AI levels are tuned."""
    seats = [("ai:baseline" if x == "ai" else x) for x in seats]
    app = MahjongApp(command=command, variant=variant, seats=list(seats), seed=seed, hands=hands, bot_delay=0,
                     faces=faces, env=env or (fresh_env() if saves is None else {**ENV, "MAHJONG_TUI_SAVES": str(saves)}),
                     width=120, **kw)
    app.theme = THEME
    app.privacy_guard = 0
    if env is None and saves is None:
        # the tests were written for Classic's take-or-draw prompts shown: a test's own app
        # starts with auto-draw off (its default, on, is tested in test_settings)
        app.settings = replace(app.settings, auto_draw=False)
    app.call_seconds = 0  # hot-seat call windows close at once (nobody calls) unless a test opens them
    return app


def net_app(session, command: str = "join") -> MahjongApp:
    """The app as ``mahjong-tui join``/``host`` runs it, with a LAN session opened in this
    loop (pinned theme, no privacy guard)."""
    app = MahjongApp(command=command, faces="compact", env=fresh_env(), width=120)
    app.theme = THEME
    app.privacy_guard = 0
    app.settings = replace(app.settings, auto_draw=False)  # as make_app: the tests were written with it off
    app._preset = session
    return app


def screen_text(app) -> str:
    """What the terminal shows now, as plain text (the compositor's full frame)."""
    c = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
                force_terminal=True, color_system=None, legacy_windows=False)
    c.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return c.export_text()


def table_screen(app):
    from mahjong_tui.ui.screens.table import TableScreen

    for s in reversed(app.screen_stack):
        if isinstance(s, TableScreen):
            return s
    return None


async def table_info_text(pilot, app) -> str:
    """Open the LAN table's information screen (``i``) and return what it shows."""
    from mahjong_tui.ui.screens.lan import TableInfoScreen

    await pilot.press("i")
    await wait_for(pilot, lambda: isinstance(app.screen, TableInfoScreen))
    return screen_text(app)


async def settle(pilot, rounds: int = 3) -> None:
    for _ in range(rounds):
        await pilot.pause()


async def wait_for(pilot, predicate, timeout: float = 20.0) -> None:
    """Wait until ``predicate()`` holds (the game runs in a worker), then let the screen
    settle so that what it shows is up to date."""
    import asyncio
    import time

    end = time.monotonic() + timeout
    n = 0
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the UI")
        n += 1
        if n % 20 == 0:
            await pilot.pause()
        else:
            await asyncio.sleep(0.002)
    await pilot.pause()


def my_request(app):
    t = table_screen(app)
    if t is None or app.screen is not t:
        return None
    s = t.session
    req = s.request_now
    if req is None or req.seat != s.keyboard:
        return None
    return req


async def press_action(pilot, app, action: Action) -> None:
    """Make ``action`` through the keys a player would press."""
    t = table_screen(app)
    if action.kind == "discard":
        order = t._order
        idx = order.index(action.tile)
        n = len(order)
        sel = t.selected if t.selected is not None else n - 1
        paths = [
            ["right"] * ((idx - sel) % n),
            ["left"] * ((sel - idx) % n),
            ["home"] + ["right"] * idx,
            ["end"] + ["left"] * (n - 1 - idx),
        ]
        keys = min(paths, key=len)
        await pilot.press(*keys, "d")
        return
    key = next(k for k, c in t.choice_map.items() if c.action == action)
    await pilot.press(key)


def bot_policy(variant, seat):
    bot = make_bot("ai:baseline", variant, seat, 0)

    def decide(req):
        return bot.choose(req.view, req.legal)

    return decide


async def play(pilot, app, *, turns: int | None = None, until=None, pass_claims: bool = False,
               limit: int = 400) -> None:
    """Play the human seat(s) with the baseline bot's choices through the keys.

    Stops before the ``turns``-th own turn is played (so the app waits for a discard), or when
    ``until(app)`` holds, or at the end of the hand.  ``pass_claims``: answer claim prompts
    with ``x``.  Privacy screens are accepted with a key.
    """
    from mahjong_tui.ui.screens.dialogs import PrivacyScreen
    from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen

    played = 0
    for _ in range(limit):
        await wait_for(pilot, lambda: my_request(app) is not None
                       or isinstance(app.screen, (PrivacyScreen, HandEndScreen, MatchEndScreen)))
        if until is not None and until(app):
            return
        if isinstance(app.screen, (HandEndScreen, MatchEndScreen)):
            return
        if isinstance(app.screen, PrivacyScreen):
            await accept_privacy(pilot, app)
            continue
        req = my_request(app)
        if req.is_turn:
            if turns is not None and played >= turns:
                return
            played += 1
        t = table_screen(app)
        action = bot_policy(t.session.variant, req.seat)(req)
        if pass_claims and not req.is_turn:
            await pilot.press("x")
        else:
            await press_action(pilot, app, action)
        await wait_for(pilot, lambda: my_request(app) is not req)


async def accept_privacy(pilot, app) -> list[str]:
    """Accept the privacy screen on top with a key, and its note ("Nothing to claim on 5m",
    a hot-seat claim round) with another; returns the notes read."""
    screen = app.screen
    notes: list[str] = []
    await pilot.press("space")
    await wait_for(pilot, lambda: app.screen is not screen or screen.showing_note)
    if app.screen is screen and screen.showing_note:
        notes.append(screen.then)
        await pilot.press("space")
        await wait_for(pilot, lambda: app.screen is not screen)
    return notes


async def next_decision(pilot, app):
    """Wait until the seat at the keyboard owes a decision or the hand's scoring screen is up;
    returns the request (a :class:`~mahjong_tui.ui.session.Request`), or None at the end of
    the hand."""
    from mahjong_tui.ui.screens.results import HandEndScreen

    await wait_for(pilot, lambda: my_request(app) is not None or isinstance(app.screen, HandEndScreen))
    if isinstance(app.screen, HandEndScreen):
        return None
    return my_request(app)


async def pass_with_x(pilot, app, req) -> None:
    """Answer the claim prompt ``req`` with the ``x`` key and check that it passed."""
    await pilot.press("x")
    await wait_for(pilot, lambda: my_request(app) is not req)
    assert req.future.result().kind == "pass"


def claim_prompt(app) -> bool:
    req = my_request(app)
    return req is not None and not req.is_turn


async def save_and_leave(pilot, app, path=None) -> str:
    """Press ``q``, save in the quit dialog (to ``path`` if given, else to what it offers)
    and wait until the app has left the table; returns the path the dialog offered."""
    from mahjong_tui.ui.screens.dialogs import QuitScreen

    await pilot.press("q")
    await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
    box = app.screen.query_one("#save-path")
    offered = box.value
    if path is not None:
        box.value = str(path)
    await pilot.click("#save")
    await wait_for(pilot, lambda: app.return_code is not None)
    return offered


def double_win(variant_id: str, hands: tuple[str, str, str], tile: str) -> dict:
    """The hand summary of a rigged double win: East (``hands[0]``, first dealer) discards
    ``tile``, then West (``hands[2]``) and South (``hands[1]``) both claim a win on it (a
    variant where several seats may win on one discard).  Asserts both won."""
    from mahjong_tui import tiles as T
    from mahjong_tui.engine import Table
    from mahjong_tui.variant import load_variant
    from tests.helpers import set_hand

    table = Table(load_variant(variant_id), 1, hands=3, first_dealer=0)
    table.discards_made = 4
    for seat, hand in enumerate(hands):
        set_hand(table, seat, hand)
    t = T.parse_tile(tile)
    table.apply(Action(0, "discard", t))
    table.apply(Action(2, "win", t))
    table.apply(Action(1, "win", t))
    if not table.history:  # where every seat is asked after a discard, North's pass closes the window
        table.apply(Action(3, "pass"))
    summary = table.history[-1]
    assert [w["seat"] for w in summary["winners"]] == [1, 2], summary["winners"]
    return summary


async def show_hand_end(app, pilot, summary: dict) -> list[str]:
    """Push the scoring screen of ``summary`` over the app's table; the screen's text lines."""
    from mahjong_tui.ui.screens.results import HandEndScreen

    await wait_for(pilot, lambda: table_screen(app) is not None)
    ts = table_screen(app)
    names = [ts.session.name(i) for i in range(4)]
    app.push_screen(HandEndScreen(summary, names, ts.art, ts.session.variant, you=ts.session.you()))
    await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
    await pilot.pause()
    return screen_text(app).splitlines()
