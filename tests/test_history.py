"""The history of finished matches (mahjong_tui/history.py; issue 22, item 5): where it is,
what a kept file holds (the game log and the players' names, private), the size cap, deleting,
and that logs without names (the journals of before) still read and replay."""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime
from pathlib import Path

import pytest

from mahjong_tui import history as H
from mahjong_tui.ai import make_bot
from mahjong_tui.engine.log import GameLog
from mahjong_tui.engine.table import Table
from mahjong_tui.paths import history_dir
from mahjong_tui.sim import play_match
from mahjong_tui.variant import load_variant

FIXTURES = Path(__file__).parent / "fixtures" / "journals"


def finished(variant: str = "classic", seed: int = 1, hands: int = 1, seats=("human", "ai:easy", "human", "ai")) -> GameLog:
    """A finished match played by bots (the seats are labelled as given: the log cannot tell)."""
    v = load_variant(variant)
    t = Table(v, seed, hands)
    play_match(t, [make_bot("ai:normal", v, s, seed) for s in range(4)])
    assert t.phase == "match_over"
    return GameLog.for_table(t, seats=list(seats))


def test_history_dir_beside_the_saves_folder(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    # platformdirs' folder: history beside saves
    default = history_dir({})
    assert default.name == "history" and (default.parent / "saves").name == "saves"
    # MAHJONG_TUI_SAVES=DIR: DIR-history beside it (no 'history' dropped into DIR's parent)
    assert history_dir({"MAHJONG_TUI_SAVES": str(tmp_path / "games")}) == tmp_path / "games-history"
    assert history_dir({"MAHJONG_TUI_SAVES": str(tmp_path / "games") + "/"}) == tmp_path / "games-history"
    # MAHJONG_TUI_HISTORY wins
    assert history_dir({"MAHJONG_TUI_SAVES": str(tmp_path / "games"),
                        "MAHJONG_TUI_HISTORY": str(tmp_path / "h")}) == tmp_path / "h"


def test_a_kept_match_is_private_names_its_players_and_replays(tmp_path: Path):
    log = finished()
    folder = tmp_path / "deep" / "history"
    p = H.record(log, ["Ann", None, " Bob\x1b[31m ", ""], folder=folder, when=datetime(2026, 1, 2, 3, 4, 5))
    assert p == folder / "classic-20260102-030405.jsonl"
    assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    head = json.loads(p.read_text().splitlines()[0])
    # a missing or empty name is the table's own; control characters are dropped
    assert head["names"] == ["Ann", "Bot 2", "Bob[31m", "Bot 4"]
    assert H.names_of(p) == head["names"]
    back = GameLog.load(p)  # the log reader ignores "names": it is a game log like any other
    assert back.actions == log.actions and back.seed == log.seed and back.seats == log.seats
    assert back.replay().phase == "match_over"
    # a second match in the same second gets a name of its own
    q = H.record(log, None, folder=folder, when=datetime(2026, 1, 2, 3, 4, 5))
    assert q.name == "classic-20260102-030405-2.jsonl"
    assert json.loads(q.read_text().splitlines()[0])["names"] == ["Player 1", "Bot 2", "Player 3", "Bot 4"]
    assert H.matches(folder)[0] in (p, q) and set(H.matches(folder)) == {p, q}


def test_old_journals_without_names_read_and_replay():
    """tests/fixtures/journals: logs written before names were recorded."""
    for f in sorted(FIXTURES.glob("*.jsonl")):
        log = GameLog.load(f)
        assert len(log.replay().history) >= 1  # replays (the engine tests check every state)
        names = H.names_of(f)
        assert names == [f"Bot {i + 1}" for i in range(4)], f  # four bots: the table's names
        assert "names" not in H.header_of(f)
    assert H.default_names(["human", "ai", "ai", "ai"]) == ["You", "Bot 2", "Bot 3", "Bot 4"]
    assert H.default_names(["human", "remote", "human", "ai"]) == ["Player 1", "Player 2", "Player 3", "Bot 4"]


def test_the_cap_drops_the_oldest_matches_first(tmp_path: Path):
    log = finished()
    folder = tmp_path / "h"
    paths = []
    for i in range(5):
        p = H.record(log, ["Ann", "", "", ""], folder=folder, when=datetime(2026, 1, 1, 0, 0, i))
        os.utime(p, (1_000_000 + i, 1_000_000 + i))  # written one second after the other
        paths.append(p)
    size = paths[0].stat().st_size
    # room for three: the new one and the two before it stay
    p = H.record(log, ["Ann", "", "", ""], folder=folder, cap=3 * size, when=datetime(2026, 1, 1, 0, 0, 9))
    assert sorted(H.matches(folder)) == sorted([paths[3], paths[4], p])
    assert all(not q.exists() for q in paths[:3])
    # a match larger than the cap is still kept (alone)
    q = H.record(log, None, folder=folder, cap=10, when=datetime(2026, 1, 1, 0, 0, 10))
    assert H.matches(folder) == [q]


def test_delete_one_and_all(tmp_path: Path):
    log = finished()
    a = H.record(log, None, folder=tmp_path, when=datetime(2026, 1, 1))
    b = H.record(log, None, folder=tmp_path, when=datetime(2026, 1, 2))
    (tmp_path / H.CACHE_NAME).write_text("{}")
    H.delete(a)
    assert H.matches(tmp_path) == [b]
    assert H.delete_all(tmp_path) == 1
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OSError):
        H.delete(a)


def test_describe_and_brief(tmp_path: Path):
    log = finished(hands=2)
    p = H.record(log, ["Ann", "", "Bob", ""], folder=tmp_path)
    table = log.replay()
    line = H.describe(p).line
    assert "Classic" in line and "2 hands" in line
    assert f"Ann {table.scores[0]:g}" in line and f"Bob {table.scores[2]:g}" in line
    assert "classic · Ann, Bot 2, Bob, Bot 4" in H.brief(p)
    bad = tmp_path / "junk.jsonl"
    bad.write_text("not a log\n")
    assert "cannot be read" in H.describe(bad).line


def test_serve_keeps_the_finished_match_with_the_joiners_names(tmp_path: Path, monkeypatch):
    """A LAN table over real sockets: ``serve`` with one ``join --bot --name Cleo`` seat and
    three of its own bots keeps the finished match in the history, under Cleo's name."""
    import subprocess
    import sys

    from tests.net.util import ROOT, env, start_server_process

    folder = tmp_path / "hist"
    monkeypatch.setenv("MAHJONG_TUI_HISTORY", str(folder))
    server, port = start_server_process("--variant", "classic", "--seed", "3", "--hands", "1", "--seats",
                                        "remote,ai,ai:strong,ai", "--log", str(tmp_path / "j.jsonl"),
                                        "--bot-delay", "0")
    join = subprocess.Popen([sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{port}", "--bot",
                             "normal", "--name", "Cleo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env(), cwd=str(ROOT))
    try:
        join.communicate(timeout=60)
        _, serr = server.communicate(timeout=30)
    finally:
        for p in (join, server):
            if p.poll() is None:
                p.kill()
    assert server.returncode == 0, serr
    kept = H.matches(folder)
    assert len(kept) == 1 and f"kept in the history: {kept[0]}" in serr
    assert H.names_of(kept[0])[0] == "Cleo" and GameLog.load(kept[0]).seats == ["remote", "ai", "ai:strong", "ai"]
    assert GameLog.load(kept[0]).replay().phase == "match_over"
    assert stat.S_IMODE(kept[0].stat().st_mode) == 0o600
