"""Hot-seat secrecy (issue 3 §5, acceptance 3): screen by screen, no concealed tile of a human
seat is rendered while another human is at the keyboard.

Every frame the app paints is checked: the app's ``_display`` (called with each screen update,
also when headless) is wrapped, and at each call the whole screen is read back as text.  Two
humans (seats 1 and 3) and two bots play a Classic Chinese hand; the humans play through the
keys, and each accepts the "pass to" screen with a key.

Who is at the keyboard is tracked by the test itself, not read from the app: it is whoever
last accepted a "pass to" screen (nobody before the first one).
"""

from __future__ import annotations

import re

from mahjong_tui.ui.model import hand_order, parse
from mahjong_tui.ui.screens.dialogs import PrivacyScreen
from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen
from mahjong_tui.ui.screens.table import TableScreen
from mahjong_tui.ui.widgets.areas import HandArea
from tests.ui.helpers import accept_privacy, bot_policy, make_app, my_request, press_action, screen_text, table_screen, wait_for

TILE_FACE = re.compile(r"(?<![\w])[0-9][tsm](?![\w])")


def hand_rows(art, view: dict) -> list[str]:
    """The ways a seat's concealed hand can appear on screen as a row of faces."""
    tiles = list(parse(view["hand"]))
    rows = [art.row(tiles).plain]
    ordered, drawn = hand_order(view["hand"], view.get("drawn"))
    if drawn is not None:
        rows.append(art.row(ordered[:-1]).plain + "  " + art.row(ordered[-1:]).plain)
    return rows


async def test_no_hand_is_shown_to_the_wrong_player():
    app = make_app(seats=("human", "ai", "human", "ai"), seed=32, hands=1)
    frames: list[tuple] = []
    problems: list[str] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None and app.is_running:
            check_frame(screen)
        return original(screen, renderable)

    at_keyboard: list[int | None] = [None]

    def check_frame(screen) -> None:
        t = table_screen(app)
        if t is None:
            return
        session = t.session
        keyboard = at_keyboard[0]
        text = screen_text(app)
        frames.append((type(screen).__name__, keyboard))
        if isinstance(screen, PrivacyScreen):
            if screen.showing_note:  # "Nothing to claim on 9s": the discard, which all have seen
                text = text.replace(screen.then, "")
            if TILE_FACE.search(text) or "▒▒" in text:
                problems.append(f"privacy screen shows tiles:\n{text}")
            return
        if isinstance(screen, (HandEndScreen, MatchEndScreen)):
            return  # the hand is over: every hand is revealed to everyone
        for h in session.humans:
            if h == keyboard:
                continue
            for row in hand_rows(t.art, session.table.view(h)):
                if row in text:
                    problems.append(f"hand of seat {h} on screen while {keyboard} has the keyboard:\n{text}")
        hand = screen.query_one(HandArea) if isinstance(screen, TableScreen) else None
        if hand is not None and hand.box is not None and hand.box.tiles is not None:
            mine = sorted(parse(session.table.view(keyboard)["hand"])) if keyboard is not None else None
            if sorted(hand.box.tiles) != mine:
                problems.append(f"the hand on screen is not the keyboard's ({keyboard})")

    app._display = display
    privacy_for: list[str] = []
    kinds_seen: set[str] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await wait_for(pilot, lambda: my_request(app) is not None
                           or isinstance(app.screen, (PrivacyScreen, HandEndScreen, MatchEndScreen)))
            if isinstance(app.screen, (HandEndScreen, MatchEndScreen)):
                break
            if isinstance(app.screen, PrivacyScreen):
                privacy_for.append(app.screen.player)
                kinds_seen.add(app.screen.kind)
                session = table_screen(app).session
                before = session.keyboard
                # nothing of the table, and no tile, is visible on the privacy screen
                text = screen_text(app)
                assert "Pass the keyboard to" in text and not TILE_FACE.search(text)
                # from this key on, the named player sits at the keyboard
                at_keyboard[0] = next(i for i in range(4) if session.name(i) == app.screen.player)
                await accept_privacy(pilot, app)
                assert session.keyboard != before and session.keyboard == at_keyboard[0]
                continue
            req = my_request(app)
            t = table_screen(app)
            await press_action(pilot, app, bot_policy(t.session.variant, req.seat)(req))
        assert isinstance(app.screen, HandEndScreen)
    assert not problems, problems[0]
    # both humans had the keyboard, several times, always behind the privacy screen
    assert {"Player 1", "Player 3"} <= set(privacy_for) and len(privacy_for) >= 4
    # turns and claim prompts alike go through the privacy screen
    assert kinds_seen == {"turn", "claim"}
    assert sum(1 for kind, _ in frames if kind == "TableScreen") > 20


async def test_privacy_screen_before_the_first_human_and_on_claims():
    app = make_app(seats=("ai", "human", "ai", "human"), seed=32, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        t = table_screen(app)
        # nobody has had the keyboard yet: the table behind shows no human hand face up
        assert t.session.keyboard is None
        assert t.frame.hand.tiles is None
        who = app.screen.player
        await pilot.press("enter")
        await wait_for(pilot, lambda: my_request(app) is not None)
        assert t.session.name(t.session.keyboard) == who
        assert t.frame.hand.tiles is not None
