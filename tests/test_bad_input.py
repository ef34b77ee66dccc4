"""Bad input never crashes a command, and the files that hold a game are private (issue 20).

- Saves, journals and a LAN table's ``.seats`` file are created 0600 in folders made 0700
  (a journal holds the seed: every hand and the whole wall while the match runs).
- A corrupted game log (wrong types in its header, 10,000-deep JSON, a number of 5,000 digits, a
  byte that is not UTF-8, a torn line, a variant path of ``/dev/zero``) given to ``replay``,
  ``resume`` or ``serve --log`` is one line on stderr and exit status 2, and the file is left as
  it was; the menu's list of saved games says "Cannot be opened: ..." on one line.
- ``sim --log`` to a path that cannot be written says so before simulating; a ``--variant``
  name too long for the system, a variant file with a byte that is not UTF-8, and a device,
  a pipe or a folder given as a variant file are one line and exit 2.

Most commands here run through :func:`mahjong_tui.cli.main` (with the app's ``run`` and the
server's ``_listen`` replaced by a failure, so that a log that slipped through would fail the
test instead of opening a table).  Devices and pipes are given to real processes, under a
memory limit and a time limit: before the fix ``/dev/zero`` was read until memory ran out, and a
pipe was waited on for ever.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong_tui.cli import main
from mahjong_tui.engine.log import GameLog
from mahjong_tui.variant import load_variant

HEADER = {"format": "mahjong-tui-log", "version": 1, "variant": "classic",
          "rules_hash": load_variant("classic").rules_hash, "seed": 1, "hands": 1,
          "seats": ["human", "ai", "ai", "ai"]}


def header(**changes) -> bytes:
    return (json.dumps({**HEADER, **changes}) + "\n").encode()


DEEP = b"[" * 10_000 + b"]" * 10_000
PASS = b'{"seat": 0, "kind": "pass"}\n'

#: name -> the bytes of a corrupted game log (built on a header alone: no engine move needed)
CORRUPT = {
    "hands is a string": header(hands="x"),
    "hands is 1e308": header(hands=1e308),
    "hands is a list": header(hands=[1]),
    "variant is a number": header(variant=5),
    "variant is null": header(variant=None),
    "variant is a list": header(variant=["classic"]),
    "variant name of 300 characters": header(variant="x" * 300),
    "variant name of 5000 characters": header(variant="x" * 5000),
    "seats is a string": header(seats="human,ai,ai,ai"),
    "seats is a number": header(seats=5),
    "seats of numbers": header(seats=[1, 2, 3, 4]),
    "three seats": header(seats=["human", "ai", "ai"]),
    "seed is a list": header(seed=[1]),
    "seed is a float": header(seed=1.5),
    "settings.auto_draw is a string": header(settings={"auto_draw": "all"}),
    "options is a list": header(options=[1]),
    "an option nested 900 deep": header()[:-2] + b', "options": {"scoring.ladder": ' + b"[" * 900 + b"]" * 900
    + b"}}\n",
    "an option name of 3000 characters": header(options={"a" * 3000: 1}),
    "an option value of 20000 characters": header(options={"flowers": "x" * 20_000}),
    "header is a list": b"[1, 2]\n",
    "header 10,000 deep": DEEP + b"\n",
    "action line 10,000 deep": header() + DEEP + b"\n" + PASS,
    "seed of 5000 digits": header()[:-2] + b', "x": ' + b"9" * 5000 + b"}\n",
    "a byte that is not UTF-8": header() + b"\xff\xfe\n" + PASS,
    "a torn line before the last": header() + b'{"seat": 0, "ki\n' + PASS,
}


@pytest.fixture
def no_table(monkeypatch):
    """A log that slipped through would open a table: make that a failure, not a hang."""
    from mahjong_tui.net import commands
    from mahjong_tui.ui import app

    def opened(*_a, **_k):
        raise AssertionError("a table was opened for a corrupted log")

    monkeypatch.setattr(app.MahjongApp, "run", opened)
    monkeypatch.setattr(commands, "_listen", opened)


def one_error_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mahjong-tui: error: "), err
    return lines[0]


COMMANDS = {"replay": ["replay"], "resume": ["resume"], "serve": ["serve", "--port", "0", "--log"]}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("case", list(CORRUPT))
def test_a_corrupted_journal_is_one_line_and_exit_2_and_is_left_as_it_was(tmp_path, capsys, no_table, case,
                                                                         command):
    path = tmp_path / "game.jsonl"
    path.write_bytes(CORRUPT[case])
    assert main([*COMMANDS[command], str(path)]) == 2
    line = one_error_line(capsys)
    assert str(path) in line
    assert path.read_bytes() == CORRUPT[case]  # nothing lost
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]  # nothing left beside it


def test_the_errors_say_what_is_wrong_and_what_is_allowed(tmp_path):
    """A few of those lines in full: they name the line and the field and say what is allowed."""
    def error(case: str) -> str:
        path = tmp_path / "g.jsonl"
        path.write_bytes(CORRUPT[case])
        with pytest.raises(Exception) as exc:
            GameLog.load(path).load_variant()
        assert type(exc.value).__name__ == "LogError"
        return str(exc.value)

    assert "line 1: 'hands' = \"x\" is not allowed; expected null (the variant's match) or a whole number" \
        in error("hands is a string")
    assert "'seats' = 5 is not allowed; expected a list of 4 seats" in error("seats is a number")
    assert "line 2: nested too deeply" in error("action line 10,000 deep")
    assert "line 2 is not UTF-8 text (byte 0xff)" in error("a byte that is not UTF-8")
    assert "unknown variant 'xxx" in error("variant name of 300 characters")


def test_the_saved_games_list_says_cannot_be_opened_on_one_line(tmp_path):
    """The menu's Saved games list (and Resume, which looks for the latest unfinished game)."""
    from mahjong_tui.ui.app import UIError, latest_unfinished
    from mahjong_tui.ui.model import saved_game_summaries

    for i, data in enumerate(CORRUPT.values()):
        path = tmp_path / f"{i:02}.jsonl"
        path.write_bytes(data)
        line, brief = saved_game_summaries(path)
        assert line.startswith("Cannot be opened: ") and "\n" not in line, line
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")  # a link to nothing
    os.mkfifo(tmp_path / "pipe.jsonl")
    for name in ("gone.jsonl", "pipe.jsonl"):
        line, _ = saved_game_summaries(tmp_path / name)
        assert line.startswith("Cannot be opened: ") and name in line, line
    with pytest.raises(UIError, match="no unfinished game"):
        latest_unfinished(tmp_path)


MEMORY_LIMIT = 2 * 2**30


def run_limited(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``mahjong-tui ARGS`` as a process that may use at most 2 GB (reading /dev/zero to the
    end is then a quick MemoryError, not a machine out of memory)."""
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return subprocess.run([sys.executable, "-m", "mahjong_tui", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, preexec_fn=limit, cwd=cwd)


def one_line_exit_2(res: subprocess.CompletedProcess, needle: str) -> None:
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert len(res.stderr.splitlines()) == 1 and needle in res.stderr, res.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
def test_processes_given_a_journal_whose_variant_is_dev_zero_exit_2_with_one_line(tmp_path, command):
    path = tmp_path / "zero.jsonl"
    data = header(variant="/dev/zero")
    path.write_bytes(data)
    res = run_limited(*COMMANDS[command], str(path), cwd=tmp_path)
    one_line_exit_2(res, f"{path}: the log's variant cannot be loaded: /dev/zero: cannot be read: it is a device; "
                         "a variant file is a regular file")
    assert path.read_bytes() == data


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_device_a_pipe_or_a_folder_is_no_journal(tmp_path, command):
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    for path, what in (("/dev/zero", "a device"), (str(pipe), "a pipe"), (str(tmp_path), "a folder")):
        res = run_limited(*COMMANDS[command], path, cwd=tmp_path)
        one_line_exit_2(res, path)
        assert what in res.stderr or "not a regular file" in res.stderr, res.stderr


def test_sim_with_a_device_or_a_pipe_as_variant_exits_2_with_one_line(tmp_path):
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    for path, what in (("/dev/zero", "it is a device"), (str(pipe), "it is a pipe")):
        res = run_limited("sim", "--variant", path, "--hands", "1", cwd=tmp_path)
        one_line_exit_2(res, f"{path}: cannot be read: {what}; a variant file is a regular file")


# -- variant files and names --------------------------------------------------------------------
def test_bad_variant_files_and_names_are_one_line(tmp_path, capsys):
    bad_byte = tmp_path / "house.toml"
    bad_byte.write_bytes(b'extends = "classic"\nid = "house"\nname = "Caf\xe9"\n')  # Latin-1, not UTF-8
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 2**20 + "\n")
    cases = {
        "x" * 5000: "unknown variant 'xxx",
        str(bad_byte): "line 3 is not UTF-8 text (byte 0xe9)",
        str(deep): "not valid TOML",
        str(big): "larger than 1 MB",
        str(tmp_path): "it is a folder",
    }
    for ref, needle in cases.items():
        assert main(["sim", "--variant", ref, "--hands", "1"]) == 2
        line = one_error_line(capsys)
        assert needle in line and len(line) < 400, line


# -- sim --log -----------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_sim_log_to_a_path_that_cannot_be_written_says_so_before_simulating(tmp_path, capsys, monkeypatch,
                                                                            where):
    import mahjong_tui.sim as sim

    def simulate(*_a, **_k):
        raise AssertionError("simulated before checking --log")

    monkeypatch.setattr(sim, "simulate", simulate)
    path = tmp_path / "no-such-folder" / "x.jsonl" if where == "missing folder" else tmp_path
    assert main(["sim", "--variant", "classic", "--hands", "1", "--seed", "1", "--log", str(path)]) == 2
    line = one_error_line(capsys)
    assert f"--log {path}: cannot be written" in line
    assert ("No such file or directory" if where == "missing folder" else "Is a directory") in line
    assert sorted(tmp_path.iterdir()) == []  # nothing made


# -- private files -------------------------------------------------------------------------------
@pytest.fixture
def usual_umask():
    """The usual umask (022), under which a plain ``open`` makes a file every user can read."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_local_journal_and_saves_are_private(tmp_path, usual_umask):
    from mahjong_tui.ui.session import GameSession

    session = GameSession(load_variant("classic"), 7, ["human", "ai", "ai", "ai"])
    journal = tmp_path / "saves" / "deeper" / "classic-1.jsonl"
    assert session.open_journal(journal) is None
    assert mode(journal) == 0o600
    assert mode(tmp_path / "saves") == mode(tmp_path / "saves" / "deeper") == 0o700
    saved = session.save(tmp_path / "elsewhere" / "saved.jsonl")
    assert mode(saved) == 0o600 and mode(saved.parent) == 0o700
    session.close_journal()

    # a resumed match journalled in the file it came from: a file of an older version (0644)
    # becomes 0600, and so does what leaving without saving writes back
    old = tmp_path / "old.jsonl"
    old.write_text(session.game_log().dumps())
    os.chmod(old, 0o644)
    resumed = GameSession(load_variant("classic"), 7, ["human", "ai", "ai", "ai"], log=GameLog.load(old))
    resumed.resumed_from = old
    assert resumed.continue_journal() is None
    assert mode(old) == 0o600
    resumed.close_journal()  # not saved: the old contents go back, still private
    assert mode(old) == 0o600 and GameLog.load(old).seed == 7


def test_a_lan_journal_and_its_seats_file_are_private(tmp_path, usual_umask, monkeypatch):
    from mahjong_tui.journal import JournalClaim
    from mahjong_tui.net.commands import default_log_path
    from mahjong_tui.net.server import SeatFile

    claim = JournalClaim.take(tmp_path / "net" / "table.jsonl")
    try:
        assert mode(tmp_path / "net") == 0o700
        assert mode(claim.path) == 0o600  # claimed: empty, but already private
        claim.open(GameLog("classic", HEADER["rules_hash"], 1, 1, ["human", "remote", "ai", "ai"]))
        assert mode(claim.path) == 0o600
    finally:
        claim.release()
    seats = SeatFile(str(claim.path) + ".seats")
    seats.seats[1] = {"token_sha256": "0" * 64, "name": "North"}
    seats.save()
    assert mode(seats.path) == 0o600

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = default_log_path(7777).parent
    assert folder == tmp_path / "state" / "mahjong-tui" / "net"
    assert mode(folder) == mode(folder.parent) == mode(tmp_path / "state") == 0o700


def test_a_game_log_saved_by_sim_is_private(tmp_path, usual_umask):
    path = tmp_path / "sim.jsonl"
    GameLog("classic", HEADER["rules_hash"], 1, 1).save(path)
    assert mode(path) == 0o600
    path.chmod(0o644)  # saved over: private again
    GameLog("classic", HEADER["rules_hash"], 2, 1).save(path)
    assert mode(path) == 0o600 and GameLog.load(path).seed == 2


def test_an_existing_folder_and_a_device_keep_their_modes(tmp_path, usual_umask):
    """Only what is created is made private: a folder the player chose keeps its mode, and a
    device written to (``sim --log /dev/null``) is never chmod-ed."""
    from mahjong_tui.paths import open_private, private_dir

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    private_dir(shared)
    assert mode(shared) == 0o755
    before = mode("/dev/null")
    with open_private("/dev/null", "w") as fh:
        fh.write("x")
    assert mode("/dev/null") == before
