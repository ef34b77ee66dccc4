"""The other decisions and screens: self-drawn win, kongs, bloom tiles, chows spelled out,
save / resume / replay, keys and rules, the 80x24 minimum with live resize, the menu, LAN."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from mahjong_tui import cli
from mahjong_tui.engine.log import GameLog
from mahjong_tui.ui.app import run_app
from mahjong_tui.ui.screens.dialogs import KeysScreen, QuitScreen
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.ui.screens.replay import ReplayScreen
from mahjong_tui.ui.screens.results import HandEndScreen
from mahjong_tui.ui.screens.rules import RulesScreen
from mahjong_tui.ui.screens.table import TableScreen
from mahjong_tui.ui.widgets.areas import ActionBar
from mahjong_tui.ui.widgets.misc import TooSmall
from tests.ui.helpers import double_win, make_app, my_request, play, save_and_leave, screen_text, show_hand_end, table_screen, wait_for


def bar(app) -> str:
    return " ".join(app.screen.query_one(ActionBar).plain_lines())


def kinds(app) -> set[str]:
    req = my_request(app)
    return {a.kind for a in req.legal} if req else set()


async def test_self_drawn_win_is_offered_on_your_turn():
    # Yuxi seed 3: you (East) are offered a self-drawn win on your 14th turn, and take it
    app = make_app(variant="yuxi", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, until=lambda a: my_request(a) is not None and my_request(a).is_turn
                   and "win" in kinds(a))
        text = bar(app)
        assert " w " in text and "win (self-drawn)" in text and "discard" in text
        # the line under the prompt points at the win, not at what a discard would leave
        assert "You can win now: press w" in text and "After this discard" not in text, text
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        assert "You (East) win, self-drawn" in screen_text(app)


async def test_kong_is_offered_on_your_turn():
    app = make_app(variant="yuxi", seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, until=lambda a: bool(kinds(a) & {"concealed_kong", "added_kong"}))
        text = bar(app)
        assert "kong" in text
        t = table_screen(app)
        keys = {c.action.kind: k for k, c in t.choice_map.items()}
        assert keys.get("concealed_kong", keys.get("added_kong")) in ("k", "a", "1", "2")


async def test_bloom_tile_prompt_after_a_kong():
    # Yuxi seed 20: you declare a kong and may win on a face-up bloom tile
    app = make_app(variant="yuxi", seed=20)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, until=lambda a: my_request(a) is not None
                   and table_screen(a).session.table.phase == "after_kong")
        text = bar(app)
        assert "win on bloom tile" in text and "take the replacement tile" in text
        assert "Bloom" in screen_text(app)  # the face-up bloom tiles are in the middle of the table


async def test_each_chow_is_spelled_out():
    app = make_app(variant="classic", seed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await play(pilot, app, until=lambda a: "chow" in kinds(a))
        text = bar(app)
        req = my_request(app)
        for a in req.legal:
            if a.kind == "chow":
                from mahjong_tui import tiles as T

                assert "chow " + " ".join(T.name(x) for x in a.tiles) in text
        assert " x " in text and "pass" in text


async def test_save_on_quit_then_resume_exactly(tmp_path: Path):
    save = tmp_path / "game.jsonl"
    app = make_app(seed=32, hands=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=3)
        t = table_screen(app)
        before = t.session.table.view(0)
        await save_and_leave(pilot, app, save)
    assert app.saved_path == str(save) and save.exists()
    log = GameLog.load(save)
    assert log.seats == ["human", "ai:baseline", "ai:baseline", "ai:baseline"]
    assert log.replay().view(0) == before
    # resume: the same table, the same hand, waiting for the same discard
    resumed = make_app(command="resume", log=log)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(resumed) is not None)
        t = table_screen(resumed)
        assert t.session.table.view(0) == before
        assert sorted(t.frame.hand.tiles) == sorted(
            __import__("mahjong_tui.ui.model", fromlist=["parse"]).parse(before["hand"]))


async def test_leave_without_saving(tmp_path: Path):
    app = make_app(seed=32, hands=1, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=1)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        assert str(tmp_path) in app.screen.query_one("#save-path").value
        await pilot.press("escape")  # stay
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.click("#nosave")
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.saved_path is None and not list(tmp_path.iterdir())


async def test_the_match_is_journalled_move_by_move_and_saving_keeps_one_file(tmp_path: Path):
    """Autosave (DESIGN.md: the game log is the crash-recovery journal): from the first move a
    local match is in a file of the saves folder holding every action so far; the quit
    dialog offers that file, and saving there leaves exactly it, complete."""
    saves = tmp_path / "saves"
    app = make_app(seed=32, hands=2, saves=saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=3)
        s = table_screen(app).session
        journal = s.journal_path
        assert journal is not None and journal.parent == saves
        assert GameLog.load(journal).actions == list(s.table.actions)  # nothing missing
        actions = list(s.table.actions)
        assert await save_and_leave(pilot, app) == str(journal)
    assert list(saves.iterdir()) == [journal]
    assert app.saved_path == str(journal)
    assert GameLog.load(journal).actions == actions


def test_a_journal_never_takes_another_games_file(tmp_path: Path):
    """Two tables started in the same second get the same default name: the second journal
    goes to a name of its own instead of overwriting the first game."""
    from mahjong_tui.ui.session import GameSession
    from mahjong_tui.variant import load_variant

    v = load_variant("classic")
    path = tmp_path / "classic-20261126-100000.jsonl"
    first, second = (GameSession(v, seed, ["ai"] * 4) for seed in (1, 2))
    assert first.open_journal(path) is None and second.open_journal(path) is None
    assert first.journal_path == path and second.journal_path == tmp_path / "classic-20261126-100000-2.jsonl"
    assert GameLog.load(path).seed == 1 and GameLog.load(second.journal_path).seed == 2
    first.close_journal()
    second.close_journal()
    assert not list(tmp_path.iterdir())


def test_a_game_being_played_in_another_window_is_not_offered_or_resumed(tmp_path: Path, capsys):
    """Another process plays a table journalled to the saves folder (its journal is locked):
    this one's Resume passes it over (``latest_unfinished``) and ``resume FILE`` refuses it,
    saying why — two windows writing one match would lose the moves of one of them — and so
    does ``replay FILE`` (it would show a hot-seat table's hidden hands).  Once that
    process has gone (killed: no clean-up ran), the game is offered and resumes, in place."""
    import subprocess
    import sys

    from mahjong_tui.ui.app import UIError, latest_unfinished

    code = ("import sys; from mahjong_tui.ui.session import GameSession; "
            "from mahjong_tui.variant import load_variant; "
            "s = GameSession(load_variant('classic'), 7, ['human', 'ai', 'ai', 'ai']); "
            f"assert s.open_journal({str(tmp_path / 'playing.jsonl')!r}) is None; "
            "print('ready', flush=True); sys.stdin.read()")
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "ready"
        path = tmp_path / "playing.jsonl"
        with pytest.raises(UIError, match=r"no unfinished game in .* to resume \(1 being played in another window\)"):
            latest_unfinished(tmp_path)
        app = make_app(saves=tmp_path)
        with pytest.raises(UIError, match="being played in another mahjong-tui window: go on there"):
            app.resume_session(GameLog.load(path), path)
        # nor replayed: it would show every hand of a game still being played (hot-seat)
        for command, why in (("replay", "a replay shows every hand"), ("resume", "go on there")):
            assert cli.main([command, str(path)]) == 2  # before any screen is drawn
            assert why in capsys.readouterr().err
    finally:
        other.kill()
        other.wait()
    assert latest_unfinished(tmp_path) == path
    s = make_app(saves=tmp_path).resume_session(GameLog.load(path), path)
    assert s.continue_journal() is None and s.journal_path == path
    s.close_journal()  # not saved: the file is put back as the other process left it
    assert GameLog.load(path).seed == 7


async def test_saving_elsewhere_removes_the_journal_and_a_resumed_game_saves_back(tmp_path: Path):
    saves, mine = tmp_path / "saves", tmp_path / "mine.jsonl"
    app = make_app(seed=32, hands=2, saves=saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=2)
        await save_and_leave(pilot, app, mine)
    assert mine.exists() and not list(saves.iterdir())
    first = GameLog.load(mine)
    # resumed from mine.jsonl: the match is journalled in that file (a crash leaves one file,
    # complete), and the quit dialog offers to save back there
    resumed = make_app(command="resume", log=first, saves=saves, file=str(mine))
    async with resumed.run_test(size=(80, 24)) as pilot:
        await play(pilot, resumed, turns=2)
        s = table_screen(resumed).session
        assert s.journal_path == mine and not list(saves.iterdir())
        assert GameLog.load(mine).actions == list(s.table.actions)  # move by move
        assert len(s.table.actions) > len(first.actions)
        assert await save_and_leave(pilot, resumed) == str(mine)
    assert not list(saves.iterdir())
    again = GameLog.load(mine)
    assert again.actions[:len(first.actions)] == first.actions and len(again.actions) > len(first.actions)


async def test_a_resumed_game_left_unsaved_keeps_its_file_as_it_was(tmp_path: Path):
    """The resumed match wrote its moves into mine.jsonl; "leave, don't save" puts back the
    very bytes the file held (and nothing is left in the saves folder)."""
    saves, mine = tmp_path / "saves", tmp_path / "mine.jsonl"
    app = make_app(seed=32, hands=2, saves=saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=2)
        await save_and_leave(pilot, app, mine)
    before = mine.read_bytes()
    resumed = make_app(command="resume", log=GameLog.load(mine), saves=saves, file=str(mine))
    async with resumed.run_test(size=(80, 24)) as pilot:
        await play(pilot, resumed, turns=2)
        assert mine.read_bytes() != before  # the moves since are in it
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(resumed.screen, QuitScreen))
        await pilot.click("#nosave")
        await wait_for(pilot, lambda: resumed.return_code is not None)
    assert mine.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.jsonl", "saves"]  # no temporary file
    assert not list(saves.iterdir())


async def test_a_finished_match_saved_for_replay_is_its_journal_and_unsaved_it_goes(tmp_path: Path):
    from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen

    for save in (True, False):
        saves = tmp_path / f"saves-{save}"
        app = make_app(seed=32, hands=1, saves=saves)
        async with app.run_test(size=(80, 24)) as pilot:
            await play(pilot, app)
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
            journal = table_screen(app).session.journal_path
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
            if save:
                await pilot.press("s")
                await pilot.pause()
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.return_code is not None)
        if save:
            assert list(saves.iterdir()) == [journal]
            assert GameLog.load(journal).replay().phase == "match_over"
        else:
            assert not list(saves.iterdir())


def finished_log(tmp_path: Path) -> GameLog:
    from mahjong_tui.ai.baseline import make_bot
    from mahjong_tui.engine import Table
    from mahjong_tui.variant import load_variant

    v = load_variant("yuxi")
    t = Table(v, 5, hands=2)
    bots = [make_bot("ai:baseline", v, s) for s in range(4)]
    while t.phase != "match_over":
        for s in list(t.waiting_for()):
            if s in t.waiting_for():
                t.apply(bots[s].choose(t.view(s), t.legal_actions(s)))
    log = GameLog.for_table(t, "yuxi", ["human", "ai", "ai", "ai"])
    log.save(tmp_path / "done.jsonl")
    return GameLog.load(tmp_path / "done.jsonl")


async def test_replay_steps_forwards_and_back(tmp_path: Path):
    log = finished_log(tmp_path)
    app = make_app(command="replay", log=log)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        await pilot.press("right", "right", "right", "right", "right")
        assert r.pos == 5
        after5 = r.steps[5].views[0]
        await pilot.press("left", "left")
        assert r.pos == 3
        await pilot.press("right", "right")
        assert r.steps[r.pos].views[0] == after5  # back and forth: the same table
        assert log.replay(upto=5).view(0) == after5
        # every hand is face up in a replay
        assert all(s.concealed is not None for s in r.layout_widget._areas["seat-top"].box and [
            r.layout_widget._areas[f"seat-{p}"].box for p in ("top", "left", "right")])
        await pilot.press("pagedown")
        assert r.steps[r.pos].views[0]["hand_number"] == 1 and r._hand_start(r.pos)
        bottom = r.bottom
        await pilot.press("tab")
        assert r.bottom == (bottom + 1) % 4
        await pilot.press("enter")  # the scoring of the hand just finished
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("pageup")
        assert r.pos == 0
        await pilot.press("end")
        assert r.pos == r.last  # the last hand over (one step more than actions: each next deal is a step)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None)


async def test_keys_and_rules_screens():
    app = make_app(variant="yuxi", seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=0)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        text = screen_text(app)
        assert "Keys at the table" in text and "pass" in text and "discard" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
        await pilot.pause()
        assert "Yuxi" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert my_request(app) is not None  # still your turn


async def test_needs_more_room_below_80x24_and_resizes_live():
    app = make_app(seed=32, hands=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await play(pilot, app, turns=0)
        t = table_screen(app)
        assert app.screen.query_one(TooSmall).display is False
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        assert app.has_class("-too-small")
        cover = app.screen.query_one(TooSmall)
        assert cover.display is True
        assert "needs more room" in screen_text(app) and "79x24" in screen_text(app)
        assert t._my_request() is None  # keys do nothing while the table is covered
        await pilot.press("d")
        assert not t.session.request_now.future.done()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.has_class("-too-small") and cover.display is False
        assert t.query_one("#hand").size.width == 80 - 2
        assert not t.query_one("#log").display  # no move log beside the board below 120 columns
        await pilot.resize_terminal(140, 45)
        await pilot.pause()
        # from 120 columns the move log runs down the right edge, the whole height under the
        # header; the board beside it keeps the hand and the action bar under the table (the
        # hand centred under its own seat line)
        log = t.query_one("#log")
        assert log.display and log.region.x + log.outer_size.width == 140 and log.region.y == 1
        assert log.outer_size.width == 30
        board = t.query_one("#board")
        assert board.size.width == 140 - 30 and board.region.right <= log.region.x
        assert t.query_one("#hand").size.width == 140 - 30 - 2
        assert t.query_one("#actions").region.right <= log.region.x
        assert log.region.bottom == t.query_one("#actions").region.bottom
        assert "Your turn" in screen_text(app)


async def test_menu_starts_a_game_and_comes_back(monkeypatch):
    from mahjong_tui.ui.screens import menu

    # the menu offers easy/normal/strong; the test seats the baseline bot (fast, stable)
    monkeypatch.setattr(menu, "SEAT_CHOICES", menu.SEAT_CHOICES + [("AI baseline", "ai:baseline")])
    app = make_app(command=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        text = screen_text(app)
        assert "Classic Chinese" in text and "144 tiles" in text
        assert "Host LAN table" in text and "Join LAN table" in text  # tests/ui/test_lan.py uses them
        assert not app.screen.query_one("#host").disabled and not app.screen.query_one("#join").disabled
        app.screen.query_one("#seed").value = "32"
        app.screen.query_one("#hands").value = "1"
        app.screen.query_one("#delay").value = "0"
        for i in range(1, 4):
            app.screen.query_one(f"#seat{i}").value = "ai:baseline"
        await pilot.click("#new")
        await wait_for(pilot, lambda: my_request(app) is not None)
        assert table_screen(app).session.seed == 32
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.click("#nosave")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


def _ns(**kw) -> argparse.Namespace:
    base = dict(command="play", variant="classic", seats=["human", "ai", "ai", "ai"], seed=1, hands=1,
                bot_delay=0.0, ascii=False, faces=None)
    base.update(kw)
    return argparse.Namespace(**base)


def test_serve_has_no_table_screen(capsys):
    # host and join open the table (tests/ui/test_lan.py); serve is headless, not the UI's
    assert run_app(argparse.Namespace(command="serve")) == 2
    err = capsys.readouterr().err
    assert "mahjong-tui serve" in err and "\n" == err[-1] and err.count("\n") == 1


def test_bad_table_arguments_exit_2_before_the_screen(capsys, tmp_path: Path):
    from mahjong_tui.errors import MahjongError
    from mahjong_tui.ui.app import build_app

    assert cli.main(["play", "--seats", "human,remote,ai,ai"]) == 2
    assert "remote" in capsys.readouterr().err
    try:
        build_app(_ns(seats=["human", "ai:genius", "ai", "ai"]))
    except MahjongError as exc:  # the CLI prints it on one line and exits 2
        assert "genius" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an unknown AI level was accepted")
    assert cli.main(["--faces", "nosuchfaces", "play"]) == 2
    assert "nosuchfaces" in capsys.readouterr().err
    assert cli.main(["resume", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    finished_log(tmp_path)
    assert cli.main(["resume", str(tmp_path / "done.jsonl")]) == 2
    assert "replay" in capsys.readouterr().err


def test_resume_without_a_file_takes_the_latest_unfinished_game(capsys, tmp_path: Path, monkeypatch):
    """After a closed terminal, ``mahjong-tui resume`` alone finds the game: the most recent
    log in the saves folder whose match is not over (a finished or unreadable one is passed
    over); with none it says where it looked and exits 2."""
    import os
    import time

    from mahjong_tui.engine import Table
    from mahjong_tui.ui.app import build_app
    from mahjong_tui.variant import load_variant

    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path))
    assert cli.main(["resume"]) == 2
    assert f"no unfinished game in {tmp_path}" in capsys.readouterr().err
    # open.jsonl: a match at its first discard (oldest); done.jsonl: newer, but over
    GameLog.for_table(Table(load_variant("classic"), 32, 2), "classic",
                      ["human", "ai", "ai", "ai"]).save(tmp_path / "open.jsonl")
    finished_log(tmp_path)
    (tmp_path / "junk.jsonl").write_text("x\n")  # not a game
    GameLog.for_table(Table(load_variant("classic"), 33, 2), "classic",   # a LAN table's: host --log
                      ["human", "remote", "ai", "ai"]).save(tmp_path / "lan.jsonl")
    now = time.time()
    for i, name in enumerate(("open.jsonl", "done.jsonl", "junk.jsonl", "lan.jsonl")):
        os.utime(tmp_path / name, (now + i, now + i))
    resumed = build_app(cli.build_parser().parse_args(["resume"]))
    assert resumed.file == str(tmp_path / "open.jsonl")
    assert resumed._preset.resumed_from == tmp_path / "open.jsonl"


async def test_the_menu_offers_to_resume_a_game_left_unfinished(tmp_path: Path):
    """A closed terminal leaves a journal; the next time the app opens, the menu has a
    "Resume" button (the line under it and its tooltip say which game) that puts the player
    back in that game."""
    from textual.widgets import Button

    from mahjong_tui.engine import Table
    from mahjong_tui.variant import load_variant

    import os

    finished_log(tmp_path)  # done.jsonl: a finished match is not offered
    none = make_app(command=None, saves=tmp_path)
    async with none.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(none.screen, MenuScreen))
        await none.workers.wait_for_complete()  # the lookup has run
        await pilot.pause()
        assert none.screen._unfinished is None
        assert not none.screen.query_one("#resume-last", Button).display
        assert "Resume:" not in screen_text(none)
    t = Table(load_variant("classic"), 32, 2)
    GameLog.for_table(t, "classic", ["human", "ai:baseline", "ai:baseline", "ai:baseline"]).save(tmp_path / "left.jsonl")
    done = (tmp_path / "done.jsonl").stat().st_mtime
    os.utime(tmp_path / "left.jsonl", (done - 60, done - 60))  # older than the finished match
    app = make_app(command=None, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        button = app.screen.query_one("#resume-last", Button)
        await wait_for(pilot, lambda: button.display)
        assert "left.jsonl" in str(button.tooltip) and "Hand 1 of 2, in progress" in str(button.tooltip)
        assert "Resume" in screen_text(app)  # fits 80 columns with the other buttons
        # a keyboard player sees which game without the mouse's tooltip, on one line at 80
        assert "Resume: Classic Chinese (Oxenstierna) · Hand 1 of 2 · " in screen_text(app)
        await pilot.click("#resume-last")
        await wait_for(pilot, lambda: my_request(app) is not None)
        s = table_screen(app).session
        assert s.resumed_from == tmp_path / "left.jsonl" and s.table.seed == 32


async def test_saved_games_screen_opens_a_replay(tmp_path: Path):
    from mahjong_tui.ui.screens.menu import LoadScreen

    finished_log(tmp_path)
    app = make_app(command=None, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.click("#saved")
        await wait_for(pilot, lambda: isinstance(app.screen, LoadScreen))
        assert "done.jsonl" in screen_text(app)
        # the highlighted file is described (ui.model.saved_game_summary) and becomes the path
        app.screen.query_one("#saves").focus()
        await pilot.press("down")
        await wait_for(pilot, lambda: "finished (replay it)" in screen_text(app))
        assert app.screen.query_one("#path").value == str(tmp_path / "done.jsonl")
        await pilot.click("#resume")  # a finished match cannot be resumed: says so, stays
        await pilot.pause()
        assert "replay" in str(app.screen.query_one("#load-error").render()).lower()
        await pilot.click("#replay")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


def test_saved_game_summary_says_where_each_match_stands(tmp_path: Path):
    """The saved-games list says what a file holds before it is opened: the variant, finished
    or which hand is in progress, the scores and seats; a file that is no game says why."""
    from mahjong_tui.engine import Table
    from mahjong_tui.ui.model import fmt_num, saved_game_summary
    from mahjong_tui.variant import load_variant

    done = finished_log(tmp_path)
    text = saved_game_summary(tmp_path / "done.jsonl")
    scores = " / ".join(fmt_num(x) for x in done.replay().scores)
    assert text.startswith("Yuxi Flower Blooming · finished") and f"scores {scores}" in text
    assert "seats human, ai, ai, ai" in text
    # a match in its first hand, with an option (Uzje flowers)
    v = load_variant("uzje", {"flowers": True})
    t = Table(v, 3)
    for _ in range(5):
        seat = t.waiting_for()[0]
        t.apply(t.legal_actions(seat)[0])
    GameLog.for_table(t, "uzje", ["human", "ai", "ai", "ai"]).save(tmp_path / "uz.jsonl")
    text = saved_game_summary(tmp_path / "uz.jsonl")
    assert text.startswith("Ùzje, flowers=true · Hand 1 (4 rounds), in progress"), text
    (tmp_path / "junk.jsonl").write_text("hello\n")
    assert saved_game_summary(tmp_path / "junk.jsonl").startswith("Cannot be opened: ")


async def test_a_key_that_does_nothing_says_which_keys_do():
    app = make_app(seed=32, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, until=lambda a: my_request(a) is not None and not my_request(a).is_turn)
        await pilot.press("d")
        await pilot.pause()
        assert "x or Space passes" in bar(app)
        assert my_request(app) is not None  # nothing was chosen
        await pilot.press("space")
        await wait_for(pilot, lambda: "x or Space passes" not in bar(app))


async def test_a_long_status_line_wraps_at_80_columns_instead_of_losing_its_end():
    """The hint after a wrong key and the readiness after the chosen discard do not fit 80
    columns together: the bar wraps them between clauses (it used to crop the readiness away)."""
    app = make_app(seed=32, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, until=lambda a: my_request(a) is not None and my_request(a).is_turn)
        await pilot.press("x")
        await pilot.pause()
        text = bar(app)
        assert "Enter or d discards the chosen tile" in text
        assert "fter this discard" in text
        lines = [ln.rstrip() for ln in screen_text(app).splitlines()]
        found = [ln for ln in lines if "fter this discard" in ln]
        assert found, lines
        readiness = found[0]
        assert re.search(r"(After this discard you are \d+ tiles? from ready|Ready after this discard: .*left\).*)$", readiness), readiness


async def test_scoring_screen_with_two_winners_on_one_discard():
    """Yuxi (yuxi.md "How a hand goes"): two seats win on one discard; the scoring screen shows each winner's
    own breakdown and the discarder paying both (hands as in tests/test_yuxi_engine.py:
    seat 2 full flush ×2, seat 3 all triplets ×2, the discarder pays 2 + 2)."""
    summary = double_win("yuxi", ("5s123456789tEEEN", "123456789s11s46s", "111m222m333t44t55s"), "5s")
    app = make_app(variant="yuxi", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        text = "\n".join(await show_hand_end(app, pilot, summary))
        names = [table_screen(app).session.name(i) for i in range(4)]
        assert table_screen(app).session.you() == 0
        assert f"Scoring — {names[1]}" in text and f"Scoring — {names[2]}" in text
        assert "full flush" in text.lower()
        assert "all triplets" in text.lower()
        assert f"{names[1]} (South) and {names[2]} (West) both win on You (East)'s discard of 5s" in text
        assert f"You pay {names[1]}: 2 (discarder)" in text and f"You pay {names[2]}: 2 (discarder)" in text


async def test_the_hint_key_asks_ai_strong_with_the_players_own_view():
    """``s``: a discard hint moves the cursor to the tile ai:strong would throw from this very
    view (nothing else is read: the bot is given the request's view and legal actions), and
    Enter then discards it; at a claim prompt (Classic's pick-up, G-OX-2) the hint names the
    choice with its key.  The hint goes with the decision it was asked for."""
    from mahjong_tui.ai import make_bot

    app = make_app(seed=32, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=1)  # the second own turn, waiting for a discard
        req = my_request(app)
        t = table_screen(app)
        v = t.session.variant
        want = make_bot("ai:strong", v, req.seat, 0).choose(req.view, list(req.legal))
        assert want.kind == "discard"
        await pilot.press("j")  # a key that means nothing here names the hint key too
        await pilot.pause()
        assert "s: a hint" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert t._order[t.selected] == want.tile
        text = screen_text(app)
        assert "Hint: discard" in text and "fter this discard" in text
        n = len(t.session.table.actions)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(t.session.table.actions) > n)
        done = t.session.table.actions[n]
        assert (done.seat, done.kind, done.tile) == (req.seat, "discard", want.tile)
        # a claim prompt: the hint names the choice and its key
        await play(pilot, app, until=lambda a: my_request(a) is not None and not my_request(a).is_turn)
        req = my_request(app)
        assert req is not None and not req.is_turn
        want = make_bot("ai:strong", v, req.seat, 0).choose(req.view, list(req.legal))
        await pilot.press("s")
        await pilot.pause()
        key = next(k for k, c in t.choice_map.items() if c.action == want)
        assert f"Hint: {key}  {want.kind if want.kind != 'pickup' else 'take'}" in screen_text(app)
        await pilot.press(key)
        await wait_for(pilot, lambda: my_request(app) is not req)
        assert "Hint:" not in screen_text(app)  # it was for that decision only


async def test_a_discard_hint_goes_once_the_cursor_leaves_its_tile():
    """Play-test pt4 item 5: after ``s`` (hint: discard 1t) moving the cursor on showed
    ``Hint: discard 1t · Ready after this discard: …`` where the readiness was the other
    tile's.  The hint stays while the cursor is on the hinted tile, and goes when it leaves."""
    app = make_app(seed=32, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=1)
        t = table_screen(app)
        await pilot.press("s")
        await pilot.pause()
        hinted = t._order[t.selected]
        assert "Hint: discard" in screen_text(app)
        step = "left" if t._order[(t.selected - 1) % len(t._order)] != hinted else "right"
        while t._order[t.selected] == hinted:  # to a tile of another kind
            await pilot.press(step)
            await pilot.pause()
        assert "Hint:" not in screen_text(app)
        assert "fter this discard" in screen_text(app)  # the line speaks of the tile under the cursor


async def test_replay_compares_each_move_with_ai_strong(tmp_path: Path):
    """``s`` in a replay: the move the step shows, set against what ai:strong would have
    played from that seat's view just before it (built here again from the log, independently
    of the screen's stored steps), agreeing or not.  (A seat with one legal action is said to
    have had no choice.)"""
    from mahjong_tui.ai import make_bot

    log = finished_log(tmp_path)  # played by ai:baseline, which ai:strong does not always follow
    app = make_app(command="replay", log=log)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        await pilot.press("s")
        assert "Step to a move first" in screen_text(app)
        seen = {"agrees": 0, "would": 0, "no choice": 0}
        for k in range(1, 41):
            await pilot.press("right", "s")
            await pilot.pause()
            played = log.actions[k - 1]
            t = log.replay(upto=k - 1)
            legal = t.legal_actions(played.seat)
            who = r.names[played.seat]
            if len(legal) < 2:
                want, kind = f"{who} had no choice: {played.describe()}", "no choice"
            else:
                would = make_bot("ai:strong", t.variant, played.seat, 0).choose(t.view(played.seat), legal)
                if would == played:
                    want, kind = f"ai:strong agrees with {who}: {played.describe()}", "agrees"
                else:
                    want, kind = f"ai:strong would {would.describe()} · {who} played: {played.describe()}", "would"
            assert r._compare == want and want in screen_text(app), k
            seen[kind] += 1
        assert seen["agrees"] and seen["would"], seen
        await pilot.press("right")
        assert r._compare == ""  # a step on clears it


async def test_match_end_standings_count_wins_self_draws_and_deal_ins():
    """The final standings: hands won, how many of them self-drawn, and hands dealt in (the
    discard another seat won on), counted here from the table's own hand records."""
    from textual.widgets import DataTable

    from mahjong_tui.ui.screens.results import MatchEndScreen

    app = make_app(seats=("ai:baseline",) * 4, seed=5, hands=4)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(4):
            await wait_for(pilot, lambda: isinstance(app.screen, (HandEndScreen, MatchEndScreen)), timeout=60)
            if isinstance(app.screen, MatchEndScreen):
                break
            await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        history = table_screen(app).session.table.history  # the engine's records, not the screen's
        won, drawn, dealt = [0] * 4, [0] * 4, [0] * 4
        for h in history:
            for w in h["winners"]:
                won[w["seat"]] += 1
                drawn[w["seat"]] += bool(h["self_draw"])
            if h["winners"] and h["discarder"] is not None:
                dealt[h["discarder"]] += 1
        assert sum(won) and sum(dealt) and sum(drawn)  # the seed gives each kind at least once
        st = app.screen.query_one(".standings", DataTable)
        rows = [st.get_row_at(i) for i in range(st.row_count)]
        for row in rows:
            seat = int(str(row[1])) - 1
            assert [str(x) for x in row[3:6]] == [str(won[seat]), str(drawn[seat]), str(dealt[seat])]
