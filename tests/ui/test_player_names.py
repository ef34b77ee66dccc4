"""Players' names at a hot-seat / vs-AI table (issue 22, item 5 follow-up): the menu's New
game form has a name field under each human seat, ``play --names`` names the human seats; the
names are drawn at the seat labels and on the hand-over screens, kept in the game log header
(``names``) and in the history, so ``stats`` counts per person.  Old journals still load (the
usual names)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Select

from mahjong_tui import history as H
from mahjong_tui.cli import build_parser, main, seat_names
from mahjong_tui.engine.log import GameLog
from mahjong_tui.errors import LogError, MahjongError
from mahjong_tui.paths import history_dir
from mahjong_tui.ui.app import build_app
from mahjong_tui.ui.screens.dialogs import PrivacyScreen
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen
from mahjong_tui.ui.session import GameSession
from mahjong_tui.variant import load_variant

from .helpers import accept_privacy, make_app, play, screen_text, table_screen, wait_for

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "journals"


async def test_names_typed_in_the_menu_reach_the_seats_the_handovers_the_journal_and_history(
        tmp_path: Path, capsys, monkeypatch):
    saves = tmp_path / "saves"
    app = make_app(command=None, saves=saves, seed=32, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        menu = app.screen
        assert menu.query_one("#name0", Input).visible and not menu.query_one("#name2", Input).visible
        menu.query_one("#seat1", Select).value = "ai:easy"
        menu.query_one("#seat2", Select).value = "human"
        menu.query_one("#seat3", Select).value = "ai:easy"
        await wait_for(pilot, lambda: menu.query_one("#name2", Input).visible)
        assert menu.query_one("#name0", Input).placeholder == "name: Player 1"  # two people: Player N
        assert not menu.query_one("#name1", Input).visible  # a bot's seat has none
        menu.query_one("#name0", Input).focus()
        await pilot.press(*"Ann")
        menu.query_one("#name2", Input).value = "Bob"
        menu.query_one("#seed", Input).value = "32"
        menu.query_one("#hands", Input).value = "1"
        menu.query_one("#delay", Input).value = "0"
        assert "Ann" in screen_text(app)  # typed at 80x24, on the screen
        menu.query_one("#new", Button).press()
        # the first hand-over names the person the keyboard goes to
        await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        assert "Ann" in screen_text(app) or "Bob" in screen_text(app)
        session = table_screen(app).session
        assert [session.name(i) for i in range(4)] == ["Ann", "Bot 2", "Bob", "Bot 4"]
        head = json.loads(Path(session.journal_path).read_text().splitlines()[0])
        assert head["names"] == ["Ann", "Bot 2", "Bob", "Bot 4"]
        await accept_privacy(pilot, app)
        text = screen_text(app)
        assert "Ann" in text and "Bob" in text  # the seat labels
        await play(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) or app.return_code is not None)
    (kept,) = H.matches(history_dir(app.env))
    assert H.names_of(kept) == ["Ann", "Bot 2", "Bob", "Bot 4"]
    # stats counts per person: one match, one hand each for Ann and for Bob
    monkeypatch.setenv("MAHJONG_TUI_HISTORY", str(history_dir(app.env)))
    assert main(["stats", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r["player"]: r for r in report["players"]}
    assert {"Ann", "Bob"} <= set(rows) and "Player 1" not in rows
    assert (rows["Ann"]["matches"], rows["Ann"]["hands"]) == (1, 1) == (rows["Bob"]["matches"], rows["Bob"]["hands"])


async def test_play_names_label_the_seats_and_a_resumed_match_keeps_them(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path / "saves"))
    args = build_parser().parse_args(["play", "--seats", "human,ai,ai,ai", "--names", "Mei", "--seed", "3",
                                      "--hands", "1", "--bot-delay", "0"])
    app = build_app(args)
    assert [app._preset.name(i) for i in range(4)] == ["Mei", "Bot 2", "Bot 3", "Bot 4"]
    log = app._preset.game_log()
    assert log.header()["names"] == ["Mei", "Bot 2", "Bot 3", "Bot 4"]
    path = tmp_path / "m.jsonl"
    log.save(path)
    again = GameSession(load_variant("classic"), 3, log.seats, hands=1, bot_delay=0, log=GameLog.load(path))
    assert again.name(0) == "Mei"
    # a blank entry keeps the usual name; without --names nothing is written
    plain = GameSession(load_variant("classic"), 3, ["human", "ai", "ai", "ai"], hands=1, bot_delay=0)
    assert plain.name(0) == "You" and "names" not in plain.game_log().header()
    assert seat_names(",Bob", ["human", "ai", "human", "ai"]) == [None, None, "Bob", None]


def test_bad_names_are_refused_with_what_is_allowed(capsys):
    with pytest.raises(MahjongError, match="2 names for 1 human seat"):
        seat_names("Ann,Bob", ["human", "ai", "ai", "ai"])
    with pytest.raises(MahjongError, match="at most 40 printable"):
        seat_names("x" * 41, ["human", "ai", "ai", "ai"])
    assert main(["play", "--names", "Ann,Bob,Cy"]) == 2
    assert "3 names for 1 human seat" in capsys.readouterr().err
    with pytest.raises(LogError, match="'names'"):
        GameLog.loads(json.dumps({"format": "mahjong-tui-log", "version": 1, "variant": "classic",
                                  "seed": 1, "names": ["a", "b"]}))


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_old_journals_without_names_still_load_with_the_usual_names(path: Path):
    log = GameLog.load(path)
    assert log.names == [] and "names" not in log.header()
    session = GameSession(log.load_variant(), log.seed, log.seats, hands=log.hands, bot_delay=0, log=log)
    humans = [i for i, s in enumerate(log.seats) if s == "human"]
    for i in humans:
        assert session.name(i) == ("You" if len(humans) == 1 else f"Player {i + 1}")
