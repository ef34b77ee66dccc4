"""End to end in a real terminal (issue 3, acceptance 2): ``mahjong-tui play`` runs inside tmux;
the test sends keys and reads the screen with ``capture-pane``.  It sees the 14 tiles of the
dealer's hand, discards one with ``d`` and finds that tile in its own pond.

Skipped when tmux is not installed.  Uses its own tmux server (``-L``), so it never touches a
user's sessions.  Runs the ``mahjong-tui`` console script when it is on PATH, else
``python -m mahjong_tui`` (the same entry point).
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

_SERVERS = itertools.count()
TILE = re.compile(r"^(?:[1-9][tsm]|[ESWNCFP])$")


def command() -> list[str]:
    exe = shutil.which("mahjong-tui")
    return [exe] if exe else [sys.executable, "-m", "mahjong_tui"]


class Tmux:
    def __init__(self, width: int, height: int, argv: list[str], env: dict[str, str]):
        # a server of its own each time: a new server on a socket whose server was just killed
        # can fail to start ("server exited unexpectedly")
        self.sock = f"mjtest-{os.getpid()}-{width}x{height}-{next(_SERVERS)}"
        inner = " ".join(shlex.quote(a) for a in argv)
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        script = f"cd {shlex.quote(str(ROOT))} && env {envs} {inner}; sleep 5"
        self.run("new-session", "-d", "-s", "e2e", "-x", str(width), "-y", str(height), script)

    def run(self, *args: str) -> str:
        out = subprocess.run([TMUX, "-L", self.sock, "-f", "/dev/null", *args], capture_output=True, text=True,
                             timeout=20)
        if out.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {out.stderr}")
        return out.stdout

    def screen(self) -> list[str]:
        return self.run("capture-pane", "-p", "-t", "e2e").splitlines()

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "e2e", *keys)

    def wait(self, predicate, timeout: float = 30.0) -> list[str]:
        end = time.monotonic() + timeout
        lines = self.screen()
        while not predicate(lines):
            if time.monotonic() > end:
                raise AssertionError("screen never got there:\n" + "\n".join(lines))
            time.sleep(0.2)
            lines = self.screen()
        return lines

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.sock, "kill-server"], capture_output=True, timeout=20)


def hand_tiles(lines: list[str]) -> list[str]:
    """The tiles of the line that shows the own hand: the only line with 13 or more tiles."""
    for ln in lines:
        tokens = ln.split()
        if len(tokens) >= 13 and all(TILE.match(t) for t in tokens):
            return tokens
    return []


def own_pond(lines: list[str]) -> list[str]:
    """Tiles between the middle of the table (its last line says "Dice") and the own seat line
    (it says "You")."""
    start = max(i for i, ln in enumerate(lines) if "Dice" in ln)
    end = next(i for i, ln in enumerate(lines) if " You " in ln and i > start)
    tokens = [t.rstrip("◂") for ln in lines[start + 1:end] for t in ln.split()]
    return [t for t in tokens if TILE.match(t)]  # not the walls drawn below the "Dice" line


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_play_in_tmux_sees_hand_discards_and_sees_the_pond(size, tmp_path):
    argv = command() + ["--faces", "compact", "play", "--variant", "yuxi", "--seats", "human,ai:baseline,ai:baseline,ai:baseline",
                        "--seed", "2", "--hands", "1", "--bot-delay", "0.3"]
    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "MAHJONG_TUI_SAVES": str(tmp_path),
           "PYTHONPATH": str(ROOT)}
    t = Tmux(size[0], size[1], argv, env)
    try:
        lines = t.wait(lambda ls: any("Your turn" in ln for ln in ls) and hand_tiles(ls))
        tiles = hand_tiles(lines)
        assert len(tiles) == 14, lines  # the dealer's 14 tiles
        bar = next(ln for ln in lines if "Your turn" in ln)
        chosen = re.search(r"discard (\S+)", bar).group(1)
        assert chosen == tiles[-1]  # the cursor starts on the last tile
        assert chosen not in own_pond(lines)
        t.keys("d")
        lines = t.wait(lambda ls: chosen in own_pond(ls))
        assert own_pond(lines)[0] == chosen
        after = hand_tiles(lines)
        assert len(after) in (13, 14)  # 13 until the next draw
        if len(after) == 13:
            assert after.count(chosen) == tiles.count(chosen) - 1
        # q asks before leaving; Escape stays at the table
        t.keys("q")
        t.wait(lambda ls: any("Leave the table?" in ln for ln in ls))
        t.keys("Escape")
        t.wait(lambda ls: not any("Leave the table?" in ln for ln in ls))
    finally:
        t.close()


def test_a_closed_terminal_loses_nothing_resume_continues(tmp_path):
    """The journal (DESIGN.md): a local match is written to the saves folder move by move.
    Closing the terminal mid-hand (tmux's server killed: the app gets SIGHUP, no quit dialog)
    leaves that file; ``mahjong-tui resume FILE`` puts the player back with the tile just
    discarded in the own pond."""
    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "MAHJONG_TUI_SAVES": str(tmp_path),
           "PYTHONPATH": str(ROOT)}
    argv = command() + ["--faces", "compact", "play", "--variant", "yuxi", "--seats",
                        "human,ai:baseline,ai:baseline,ai:baseline", "--seed", "2", "--bot-delay", "0"]
    t = Tmux(120, 40, argv, env)
    try:
        lines = t.wait(lambda ls: any("Your turn" in ln for ln in ls) and hand_tiles(ls))
        chosen = re.search(r"discard (\S+)", next(ln for ln in lines if "Your turn" in ln)).group(1)
        t.keys("d")
        t.wait(lambda ls: chosen in own_pond(ls) and any("Your turn" in ln for ln in ls))
    finally:
        t.close()  # the terminal goes away under the app
    journals = list(tmp_path.glob("yuxi-*.jsonl"))
    assert len(journals) == 1, journals
    from mahjong_tui.engine.log import GameLog

    log = GameLog.load(journals[0])
    assert any(a.kind == "discard" and a.seat == 0 for a in log.actions)
    t = Tmux(120, 40, command() + ["--faces", "compact", "resume", str(journals[0])], env)
    try:
        lines = t.wait(lambda ls: any("Your turn" in ln for ln in ls) and hand_tiles(ls))
        assert own_pond(lines)[0] == chosen
        assert len(hand_tiles(lines)) == 14  # the player's turn again, as it was
        second = re.search(r"discard (\S+)", next(ln for ln in lines if "Your turn" in ln)).group(1)
        t.keys("d")
        t.wait(lambda ls: own_pond(ls)[:2] == [chosen, second])  # on screen: in the file too
    finally:
        t.close()  # closed again, after the resume
    # the resumed match went on in the same file: still one file, and it has the new discard
    assert list(tmp_path.glob("*.jsonl")) == journals
    again = GameLog.load(journals[0])
    assert len(again.actions) > len(log.actions) and again.actions[:len(log.actions)] == log.actions
    assert sum(a.kind == "discard" and a.seat == 0 for a in again.actions) == 2
