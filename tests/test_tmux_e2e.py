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
import signal
import stat
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
    def __init__(self, width: int, height: int, argv: list[str], env: dict[str, str], linger: int = 5):
        # a server of its own each time: a new server on a socket whose server was just killed
        # can fail to start ("server exited unexpectedly")
        self.sock = f"mjtest-{os.getpid()}-{width}x{height}-{next(_SERVERS)}"
        inner = " ".join(shlex.quote(a) for a in argv)
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # the shell prints the exit status when the app is gone, and keeps the pane a while
        script = f"cd {shlex.quote(str(ROOT))} && env {envs} {inner}; echo EXIT=$?; sleep {linger}"
        self.run("new-session", "-d", "-s", "e2e", "-x", str(width), "-y", str(height), script)

    def run(self, *args: str) -> str:
        out = subprocess.run([TMUX, "-L", self.sock, "-f", "/dev/null", *args], capture_output=True, text=True,
                             timeout=20)
        if out.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {out.stderr}")
        return out.stdout

    def screen(self) -> list[str]:
        return self.run("capture-pane", "-p", "-t", "e2e").splitlines()

    def show(self, fmt: str) -> str:
        """A pane variable, e.g. ``#{alternate_on}`` (1 while the app's alternate screen is on)."""
        return self.run("display-message", "-p", "-t", "e2e", fmt).strip()

    def app_pid(self) -> int:
        """The process id of the app: the child of the pane's shell."""
        shell = self.show("#{pane_pid}")
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True, timeout=20)
        return int(out.stdout.split()[0])

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


# -- the own hand's colours, read from the terminal (issue 21, items 1 and 2) -------------------

SUITS = "筒索萬"


def _colour_at(text, i: int) -> str | None:
    """The foreground colour (a hex string) the terminal shows at character ``i`` of a line
    read with ``capture-pane -e`` (rich ``Text.from_ansi``); None for the default colour."""
    colour = None
    for span in text.spans:
        style = span.style
        if span.start <= i < span.end and not isinstance(style, str) and style.color is not None:
            colour = None if style.color.is_default else style.color.get_truecolor().hex
    return colour


def _suit_colours(pairs) -> dict[str, set]:
    out: dict[str, set] = {}
    for suit, colour in pairs:
        out.setdefault(suit, set()).add(colour)
    return out


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_own_hand_is_coloured_by_suit_and_boxed_where_there_is_room(size, tmp_path):
    """No --faces: the terminal decides.  At 80x24 the hand is one line of compact faces, at
    160x50 it is boxed (CJK characters in bordered tiles); either way every suit of the hand is
    drawn in a colour of its own (it was all the link colour, one grey)."""
    from rich.text import Text

    argv = command() + ["play", "--variant", "classic", "--seats", "human,ai:baseline,ai:baseline,ai:baseline",
                        "--seed", "4", "--hands", "1", "--bot-delay", "0.3"]
    # COLUMNS/LINES: the app may start before tmux has sized a new window (as in test_tmux_walls)
    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "MAHJONG_TUI_SAVES": str(tmp_path),
           "PYTHONPATH": str(ROOT), "COLUMNS": str(size[0]), "LINES": str(size[1])}
    t = Tmux(size[0], size[1], argv, env)
    try:
        boxed = size != (80, 24)
        t.wait(lambda ls: any("Your turn" in ln for ln in ls) and (not boxed or any("┏━━┓" in ln for ln in ls)))
        raw = t.run("capture-pane", "-p", "-e", "-t", "e2e").splitlines()
        texts = [Text.from_ansi(ln) for ln in raw]
        plain = [x.plain for x in texts]
        bar = next(i for i, ln in enumerate(plain) if "Your turn" in ln)
        pairs = []
        if size == (80, 24):
            row = next(i for i, ln in enumerate(plain) if hand_tiles([ln]))
            for m in re.finditer(r"\S+", plain[row]):
                token = m.group()
                if token[-1] in "tsm":
                    pairs.append((token[-1], _colour_at(texts[row], m.start())))
            assert "┌" not in "".join(plain[bar - 4:bar])  # one line, not boxed
        else:
            top, suit_line = plain[bar - 4], bar - 2  # top borders, rank, suit, bottom borders
            assert top.count("┌──┐") + top.count("┏━━┓") + top.count("╔══╗") == 14, plain[bar - 4:bar]
            for m in re.finditer(r"[│┃║]([%s])[│┃║]" % SUITS, plain[suit_line]):
                pairs.append((m.group(1), _colour_at(texts[suit_line], m.start(1))))
        by_suit = _suit_colours(pairs)
        assert len(by_suit) >= 2, (by_suit, plain[bar - 4:bar + 1])
        assert all(len(c) == 1 and None not in c for c in by_suit.values()), by_suit
        colours = [next(iter(c)) for c in by_suit.values()]
        assert len(set(colours)) == len(colours), by_suit  # a colour per suit
    finally:
        t.close()


@pytest.mark.parametrize("sig", ["TERM", "HUP"])
def test_kill_puts_the_terminal_back_and_the_journal_resumes(sig, tmp_path):
    """``kill PID`` (SIGTERM) or a hang-up (SIGHUP) of a running game: the app leaves the
    alternate screen and turns mouse reporting off (before, the terminal stayed so until
    ``reset``), says how to go on, exits 128 + the signal's number, and its journal (0600) resumes
    the game with the discard made before the kill."""
    saves = tmp_path / "saves"  # made by the app: 0700
    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "MAHJONG_TUI_SAVES": str(saves),
           "PYTHONPATH": str(ROOT)}
    argv = command() + ["--faces", "compact", "play", "--variant", "classic", "--seats", "human,ai,ai,ai",
                        "--seed", "5", "--bot-delay", "0"]
    t = Tmux(120, 40, argv, env, linger=30)
    try:
        lines = t.wait(lambda ls: any("Your turn" in ln for ln in ls) and hand_tiles(ls))
        assert t.show("#{alternate_on} #{mouse_any_flag}") == "1 1"  # the app's modes, while it runs
        chosen = re.search(r"discard (\S+)", next(ln for ln in lines if "Your turn" in ln)).group(1)
        t.keys("d")
        t.wait(lambda ls: chosen in own_pond(ls))
        os.kill(t.app_pid(), getattr(signal, f"SIG{sig}"))
        t.wait(lambda ls: any(ln.startswith("EXIT=") for ln in ls))
        assert t.show("#{alternate_on} #{mouse_any_flag}") == "0 0"  # the terminal is back
        lines = t.run("capture-pane", "-p", "-J", "-t", "e2e").splitlines()  # -J: wrapped lines joined
        status = next(ln for ln in lines if ln.startswith("EXIT="))
        assert status == f"EXIT={128 + getattr(signal, f'SIG{sig}')}"
        said = next(ln for ln in lines if ln.startswith("mahjong-tui: stopped by"))
        assert said.startswith(f"mahjong-tui: stopped by SIG{sig}; continue with: mahjong-tui resume ")
        assert not any("Traceback" in ln for ln in lines)
    finally:
        t.close()
    journals = list(saves.glob("classic-*.jsonl"))
    assert len(journals) == 1, journals
    assert stat.S_IMODE(journals[0].stat().st_mode) == 0o600 and stat.S_IMODE(saves.stat().st_mode) == 0o700
    assert said.endswith(str(journals[0]))
    from mahjong_tui.engine.log import GameLog

    log = GameLog.load(journals[0])
    assert any(a.kind == "discard" and a.seat == 0 for a in log.actions)
    t = Tmux(120, 40, command() + ["--faces", "compact", "resume", str(journals[0])], env)
    try:
        lines = t.wait(lambda ls: any("Dice" in ln for ln in ls) and any(" You " in ln for ln in ls)
                       and chosen in own_pond(ls))
        assert own_pond(lines)[0] == chosen  # the discard made before the kill
    finally:
        t.close()
