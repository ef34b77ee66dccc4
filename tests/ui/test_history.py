"""The history in the app (issue 22, item 5): a finished match is kept whether or not the
player saves it, with the names the table showed; the menu's History screen lists, replays and
deletes the kept matches and shows the statistics of ``mahjong-tui stats``."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from textual.widgets import DataTable, OptionList

from mahjong_tui import history as H
from mahjong_tui.ai import make_bot
from mahjong_tui.engine.log import GameLog
from mahjong_tui.engine.table import Table
from mahjong_tui.paths import history_dir
from mahjong_tui.sim import play_match
from mahjong_tui.stats import collect
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.ui.screens.replay import ReplayScreen
from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen
from mahjong_tui.variant import load_variant

from .helpers import make_app, play, screen_text, table_screen, wait_for


async def test_a_finished_match_is_kept_in_the_history_unsaved(tmp_path: Path):
    """Played to its end and left without ``s``: the journal goes from the saves folder as
    before, and the match is in the history, with the names the table showed, and replays."""
    saves = tmp_path / "saves"
    app = make_app(seed=32, hands=1, saves=saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        table = table_screen(app).session.table
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        # kept before the last screen (a terminal closed on it loses nothing)
        kept = H.matches(history_dir(app.env))
        assert len(kept) == 1 and "Kept in the history" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.return_code is not None)
    assert history_dir(app.env) == tmp_path / "saves-history"
    assert not list(saves.iterdir())  # the journal is gone, as before (not saved)
    head = json.loads(kept[0].read_text().splitlines()[0])
    assert head["names"] == ["You", "Bot 2", "Bot 3", "Bot 4"]
    assert head["seats"] == ["human", "ai:baseline", "ai:baseline", "ai:baseline"] and head["seed"] == 32
    log = GameLog.load(kept[0])
    assert log.actions == table.actions and log.replay().phase == "match_over"


def kept_matches(folder: Path) -> list[Path]:
    out = []
    for i, (vid, seed) in enumerate((("classic", 3), ("yuxi", 5))):
        v = load_variant(vid)
        t = Table(v, seed, 1)
        play_match(t, [make_bot("ai:normal", v, s, seed) for s in range(4)])
        out.append(H.record(GameLog.for_table(t, seats=["human", "ai", "human", "ai"]), ["Ann", "", "Bob", ""],
                            folder=folder, when=datetime(2026, 1, 1, 0, 0, i)))
    return out


async def test_the_menu_history_replays_deletes_and_counts(tmp_path: Path):
    folder = tmp_path / "hist"
    first, second = kept_matches(folder)
    env_app = make_app(command=None, saves=tmp_path / "saves")
    env_app.env["MAHJONG_TUI_HISTORY"] = str(folder)
    app = env_app
    async with app.run_test(size=(120, 40)) as pilot:
        from mahjong_tui.ui.screens.history import ConfirmScreen, HistoryScreen, StatsScreen

        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.click("#history")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        text = screen_text(app)
        assert "History: 2 finished matches" in text
        assert "yuxi · Ann, Bot 2, Bob, Bot 4" in text and "classic · Ann, Bot 2, Bob, Bot 4" in text
        ol = app.screen.query_one("#history-list", OptionList)
        assert ol.highlighted == 0 and app.screen.chosen() == H.matches(folder)[0]
        # the statistics: the report of mahjong-tui stats, row for row
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.report is not None)
        report = collect(folder)
        dt = app.screen.query_one("#stats-table", DataTable)
        rows = [[str(c) for c in dt.get_row_at(i)] for i in range(dt.row_count)]
        assert [r[:4] for r in rows] == [[p["player"], p["variant"], str(p["matches"]), str(p["hands"])]
                                         for p in report["players"]]
        assert "2 finished matches" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        # delete the one under the cursor: asked first; Keep keeps it
        doomed = app.screen.chosen()
        await pilot.click("#delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        assert doomed.exists()
        await pilot.click("#delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and len(app.screen.files) == 1)
        assert not doomed.exists() and "History: 1 finished match " in screen_text(app)
        # replay the one left: the recorded names at the table
        left = app.screen.files[0]
        await pilot.click("#replay")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.names == ["Ann", "Bot 2", "Bob", "Bot 4"]
        assert app.screen.game_log.source == str(left)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        # delete all
        await pilot.click("#history")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        await pilot.click("#delete-all")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and not app.screen.files)
        assert H.matches(folder) == [] and "none yet" in screen_text(app)


async def test_a_lan_host_keeps_the_finished_match(tmp_path: Path, monkeypatch):
    """``host`` (real sockets on 127.0.0.1; the remote seat played by the stand-in bot): the
    host's table keeps the match it served, with the names its table showed."""
    from mahjong_tui.ui.netsession import open_host
    from mahjong_tui.ui.screens.lan import host_namespace

    from .helpers import net_app

    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path / "saves"))  # join/host keep their files there
    ns = host_namespace("classic", ["human", "remote", "ai:baseline", "ai:baseline"], port=0, seed=32, hands=1,
                        bot_delay=0)
    ns.log, ns.start_after = str(tmp_path / "host.jsonl"), 0.0
    session = await open_host(ns)
    app = net_app(session, "host")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await play(pilot, app)
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
            names = [session.name(i) for i in range(4)]
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
            assert "Kept in the history" in screen_text(app)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.return_code is not None)
    finally:
        await session.aclose()
    kept = H.matches(history_dir(app.env))
    assert len(kept) == 1 and names[0] == "You"
    assert H.names_of(kept[0]) == names
    log = GameLog.load(kept[0])
    assert log.seats == ["human", "remote", "ai:baseline", "ai:baseline"]
    assert log.actions == session.host.server.table.actions and log.replay().phase == "match_over"


async def test_leaving_the_statistics_while_they_are_counted(tmp_path: Path):
    """Esc while the statistics are being counted (nothing cached yet): back at once, and the
    count still fills the cache; the app goes on."""
    from mahjong_tui.ui.screens.history import HistoryScreen, StatsScreen

    import threading

    import mahjong_tui.stats as stats_module

    folder = tmp_path / "hist"
    kept_matches(folder)
    # the count is held at its first match until Esc has been handled (a count is quick on an
    # idle machine: without this the report could be shown before the key arrives)
    left = threading.Event()
    real_collect = stats_module.collect

    def held_collect(*args, progress=None, **kw):
        def held(done, total):
            left.wait(30)
            if progress:
                progress(done, total)
        return real_collect(*args, progress=held, **kw)

    stats_module.collect = held_collect
    app = make_app(command=None, saves=tmp_path / "saves")
    app.env["MAHJONG_TUI_HISTORY"] = str(folder)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.click("#history")
            await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("t")
            await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
            stats_screen = app.screen
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
            left.set()
            await wait_for(pilot, lambda: (folder / H.CACHE_NAME).exists(), timeout=60)
            await pilot.pause(0.2)
            assert stats_screen.report is None and isinstance(app.screen, HistoryScreen)
            assert app.return_code is None
    finally:
        stats_module.collect = real_collect


async def test_a_hot_seat_match_is_kept_under_each_seats_name(tmp_path: Path):
    """Two people at one keyboard: the match is kept with the names the hand-over screens
    used (``Player 1``, ``Player 3``)."""
    app = make_app(seats=("human", "ai", "human", "ai"), seed=32, hands=1, saves=tmp_path / "saves")
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        names = [table_screen(app).session.name(i) for i in range(4)]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.return_code is not None)
    (kept,) = H.matches(history_dir(app.env))
    assert names == ["Player 1", "Bot 2", "Player 3", "Bot 4"] == H.names_of(kept)
    assert GameLog.load(kept).replay().phase == "match_over"
