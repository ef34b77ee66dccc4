"""A hostile stranger at a LAN table (issue 20): an idle-connection flood, password guessing,
a journal that cannot be written, a huge malformed field.  None of them may lock the players
out, stop the table uncleanly or drop a client without a word.  Real sockets on 127.0.0.1
only; every loop is bounded; nothing is asserted about wall-clock time (the password throttle
runs on a clock the test moves)."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import socket
import subprocess
import sys

import pytest

from mahjong_tui.engine.log import GameLog
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.net.protocol import MAX_ERROR_TEXT, PROTOCOL_VERSION, NetError, new_nonce, proof
from mahjong_tui.net.server import PasswordThrottle

from .util import ROOT, RawClient, env, new_table, served


class FakeClock:
    """The throttle's clock, moved by the test (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _flood(port: int, n: int) -> list[socket.socket]:
    """``n`` connections to the table that never say a word."""
    out = []
    for _ in range(n):
        out.append(socket.create_connection(("127.0.0.1", port), timeout=10))
    return out


def _first_frames(sock: socket.socket, limit: int = 3) -> list[dict]:
    """The frames a flood connection was sent before the server closed it (at most ``limit``)."""
    raw = RawClient.__new__(RawClient)
    raw.sock, raw.buf = sock, b""
    sock.settimeout(10)
    out = []
    with contextlib.suppress(ConnectionError, OSError):
        for _ in range(limit):
            out.append(raw.read())
    return out


# ----------------------------------------------------------------------------------------
# item 3: an idle flood
# ----------------------------------------------------------------------------------------
async def test_an_idle_flood_of_200_connections_locks_no_player_out(tmp_path):
    """200 connections that never join (hello_timeout long: the timeout does not rescue
    anyone here) while a dropped player rejoins with its token and a real ``join --bot``
    process takes the last seat: both get in, the table starts and plays its hand to the end.
    The server keeps at most ``max_pending_per_address`` of the idle ones; the others were
    told ``busy`` before being closed.  (Before: the 65th connection on was refused with
    ``busy`` before its hello, so the rejoin and the join failed with 'did not greet as a
    mahjong-tui table'.)"""
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= 1024  # 200 sockets each side
    table = new_table("classic", seed=8, hands=1)
    notes: list[str] = []
    async with served(table, seats=("remote", "remote", "ai", "ai"), bot_delay=0, hello_timeout=120,
                      on_note=notes.append, seat_file=tmp_path / "t.seats") as (server, task):
        first = NetClient("127.0.0.1", server.port, name="Ann", seat=0, reconnect=0)
        token = (await first.connect())["token"]
        await first.close()  # Ann drops out before the table starts
        flood = await asyncio.to_thread(_flood, server.port, 200)
        try:
            # the flood is on: every one of the 200 is connected, none has joined
            ann = NetClient("127.0.0.1", server.port, token=token, reconnect=0)
            assert (await ann.connect())["seat"] == 0
            ann_plays = asyncio.ensure_future(play_bot(ann, "normal"))
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{server.port}", "--bot", "normal",
                "--name", "Bob", "--retry", "20", cwd=str(ROOT), env=env(),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(proc.communicate(), 120)
            assert proc.returncode == 0, err.decode()
            assert "seated at seat 2 as Bob" in err.decode()
            assert "hand 1:" in out.decode()
            res = await asyncio.wait_for(ann_plays, 30)
            assert res["finished"]
            assert server.pending_conns <= server.max_pending_per_address
            oldest = await asyncio.to_thread(_first_frames, flood[0])
            assert [m["type"] for m in oldest] == ["hello", "error"]
            assert oldest[1]["code"] == "busy" and oldest[1]["fatal"] and "your address" in oldest[1]["message"]
        finally:
            for s in flood:
                s.close()
        await asyncio.wait_for(task, 30)
    assert table.phase == "match_over"
    assert sum("too many connections waiting" in n for n in notes) == 1  # one line for the burst


async def test_join_bot_retries_a_busy_table_and_says_so():
    """``join --bot`` told ``busy`` (here by a front on 127.0.0.1 that answers its first two
    connections as a crowded server does, then passes bytes through to the table) says what
    happened, waits 0.5 s then 1 s, and is seated.  (Before: 'did not greet as a mahjong-tui
    table', exit 2.)"""
    from mahjong_tui.net.protocol import encode, error

    table = new_table("classic", seed=9, hands=1)
    turned_away = []

    async def front(r, w):
        if len(turned_away) < 2:
            turned_away.append(1)
            w.write(encode(error("busy", "too many connections from your address (127.0.0.1) are waiting to join "
                                 "this table (at most 8): the oldest, this one, is closed", True)))
            await w.drain()
            w.close()
            return
        ur, uw = await asyncio.open_connection("127.0.0.1", server.port)

        async def pump(src, dst):
            with contextlib.suppress(ConnectionError):
                while data := await src.read(65536):
                    dst.write(data)
            dst.close()

        await asyncio.gather(pump(r, uw), pump(ur, w))

    async with served(table, seats=("remote", "ai", "ai", "ai"), bot_delay=0) as (server, task):
        relay = await asyncio.start_server(front, "127.0.0.1", 0)
        port = relay.sockets[0].getsockname()[1]
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{port}", "--bot", "normal",
                "--retry", "20", cwd=str(ROOT), env=env(), stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(proc.communicate(), 120)
        finally:
            relay.close()
        text = err.decode()
        assert proc.returncode == 0, text
        retries = [ln for ln in text.splitlines() if "retrying in" in ln]
        assert len(retries) == 2 and all("too many connections from your address" in ln for ln in retries)
        assert retries[0].endswith("retrying in 0.5 s") and retries[1].endswith("retrying in 1 s")
        assert "did not greet" not in text and "seated at seat 1" in text
        await asyncio.wait_for(task, 30)


async def test_with_room_for_one_waiting_connection_a_newcomer_still_gets_in():
    """The smallest limits: one waiting connection per address and in all.  Each newcomer
    closes the one before it, and a client that joins at once is seated."""
    table = new_table("classic", seed=8, hands=1)
    async with served(table, seats=("remote", "ai", "ai", "ai"), hello_timeout=120, max_pending=1,
                      max_pending_per_address=1) as (server, _task):
        idle = [RawClient(server.port) for _ in range(3)]
        for r in idle[:2]:
            m = await asyncio.to_thread(r.read_until, "error")
            assert m["code"] == "busy"
        c = NetClient("127.0.0.1", server.port, name="Eve", reconnect=0)
        assert (await c.connect())["seat"] == 0
        assert server.pending_conns == 0  # the last idle one made way for Eve
        await c.close()
        for r in idle:
            r.close()


async def test_a_connection_that_does_not_join_in_time_is_closed():
    table = new_table("classic", seed=8, hands=1)
    async with served(table, seats=("remote", "ai", "ai", "ai"), hello_timeout=0.3) as (server, _task):
        idle = RawClient(server.port)
        assert (await asyncio.to_thread(idle.read))["type"] == "hello"
        m = await asyncio.to_thread(idle.read)
        assert m["type"] == "error" and m["code"] == "hello_timeout" and m["fatal"]
        assert await asyncio.to_thread(idle.closed)
        assert server.pending_conns == 0
        idle.close()


# ----------------------------------------------------------------------------------------
# item 4: password guessing
# ----------------------------------------------------------------------------------------
def _guess(port: int, password: str) -> dict:
    """One password answer on a fresh connection; the server's reply."""
    raw = RawClient(port)
    try:
        hello = raw.read()
        cnonce = new_nonce()
        raw.send({"type": "join", "protocol": PROTOCOL_VERSION, "cnonce": cnonce,
                  "proof": proof(password, "client", hello["nonce"], cnonce)})
        return raw.read()
    finally:
        raw.close()


def test_the_throttle_refuses_an_address_for_longer_after_each_wrong_answer():
    clock = FakeClock()
    t = PasswordThrottle(free=2, delay=1.0, max_delay=4.0, forget=100.0, clock=clock)
    assert t.failed("10.0.0.9") == (1, 0.0) and t.wait("10.0.0.9") == 0
    assert t.failed("10.0.0.9") == (2, 0.0)
    assert t.failed("10.0.0.9") == (3, 1.0) and t.wait("10.0.0.9") == 1.0  # the third starts the lockout
    assert t.wait("10.0.0.7") == 0  # another address is not slowed
    clock.now += 1.0
    assert t.failed("10.0.0.9") == (4, 2.0)  # doubles ...
    clock.now += 2.0
    assert t.failed("10.0.0.9") == (5, 4.0)
    clock.now += 4.0
    assert t.failed("10.0.0.9") == (6, 4.0)  # ... up to max_delay
    clock.now += 4.0 + 101.0
    assert t.failed("10.0.0.9") == (1, 0.0)  # quiet for longer than forget: afresh
    assert t.succeeded("10.0.0.9") == 1 and t.wait("10.0.0.9") == 0


async def test_a_password_burst_is_throttled_and_the_right_password_still_gets_in(tmp_path):
    """30 wrong guesses from one address: the first 4 are checked (the 4th starts a lockout),
    the other 26 are refused unchecked with ``throttled`` and the time to wait; two log lines
    in all.  A real ``join --bot`` with the right password (from a file: it never shows in
    ``ps``) is throttled too while the lockout lasts (no oracle), says it retries, and is
    seated once the lockout is over (the test's clock moves on when it says so).  (Before:
    every guess was checked, 380 a second, one log line each.)"""
    clock = FakeClock()
    throttle = PasswordThrottle(free=3, delay=0.2, max_delay=0.2, clock=clock)
    table = new_table("classic", seed=3, hands=1)
    notes: list[str] = []
    pw_file = tmp_path / "pw"
    pw_file.write_text("right horse battery\n")
    async with served(table, seats=("remote", "ai", "ai", "ai"), password="right horse battery", throttle=throttle,
                      on_note=notes.append, bot_delay=0) as (server, task):
        replies = [await asyncio.to_thread(_guess, server.port, f"guess {i}") for i in range(30)]
        codes = [m["code"] for m in replies]
        assert codes == ["auth"] * 4 + ["throttled"] * 26
        assert all(m["fatal"] for m in replies)
        assert replies[-1]["retry_after"] == 0.2 and "your address (127.0.0.1)" in replies[-1]["message"]
        assert len(notes) == 2 and "wrong table password" in notes[0] and "4 wrong table passwords" in notes[1]

        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{server.port}", "--bot", "normal",
            "--password-file", str(pw_file), "--retry", "20", cwd=str(ROOT), env=env(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        said = []
        try:
            for _ in range(20):
                line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
                said.append(line)
                if "retrying in" in line:
                    clock.now += 1.0  # the lockout passes while the client waits
                if not line or "seated at seat" in line:
                    break
            out, err = await asyncio.wait_for(proc.communicate(), 120)
        finally:
            if proc.returncode is None:
                proc.kill()
        text = "".join(said) + err.decode()
        assert proc.returncode == 0, text
        retries = [ln for ln in said if "retrying in" in ln]
        assert len(retries) == 1 and "too many wrong table passwords from your address" in retries[0]
        assert "retrying in 0.5 s" in retries[0]
        assert "seated at seat 1" in text and "hand 1:" in out.decode()
        await asyncio.wait_for(task, 30)
    about_passwords = [n for n in notes if "password" in n]
    assert len(about_passwords) == 3 and "right after 4 wrong ones" in about_passwords[2]


async def test_the_tui_client_retries_a_throttled_table_and_says_so():
    """``mahjong-tui join`` (the TUI's :func:`open_join`) retries like ``join --bot``."""
    from argparse import Namespace

    from mahjong_tui.ui.netsession import open_join

    clock = FakeClock()
    throttle = PasswordThrottle(free=0, delay=1.0, clock=clock)
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote", "ai", "ai", "ai"), password="pw", throttle=throttle) as (server, _t):
        assert (await asyncio.to_thread(_guess, server.port, "nope"))["code"] == "auth"  # locked for 1 s
        said: list[str] = []

        def on_retry(text: str) -> None:
            said.append(text)
            clock.now += 10.0

        args = Namespace(command="join", address=f"127.0.0.1:{server.port}", name="Cy", password="pw", token=None,
                         seat=None, retry=30.0, secrets_from_env=False, on_retry=on_retry)
        session = await open_join(args)
        try:
            assert session.clients[0].seat == 0
            assert len(said) == 1 and "wrong table passwords" in said[0] and "retrying in 1 s" in said[0]
        finally:
            await session.aclose()


async def test_without_retry_a_busy_answer_is_said_not_misread():
    """A client told ``throttled`` (or ``busy``) says so; it used to say the table 'did not
    greet as a mahjong-tui table' when the refusal came first."""
    clock = FakeClock()
    throttle = PasswordThrottle(free=0, delay=5.0, clock=clock)
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote", "ai", "ai", "ai"), password="pw", throttle=throttle) as (server, _t):
        await asyncio.to_thread(_guess, server.port, "nope")  # the clock does not move: refused for 5 s
        with pytest.raises(NetError, match="too many wrong table passwords") as exc:
            await NetClient("127.0.0.1", server.port, password="pw").connect()
        assert exc.value.code == "throttled" and exc.value.retry_after == 5.0


# ----------------------------------------------------------------------------------------
# item 6: an error that quotes a huge field
# ----------------------------------------------------------------------------------------
async def test_an_error_about_a_huge_field_is_cut_and_the_sender_stays():
    table = new_table("classic", seed=5, hands=1)
    async with served(table, seats=("remote", "ai", "ai", "ai"), bot_delay=0) as (server, _task):
        raw = RawClient(server.port)
        await asyncio.to_thread(raw.join, name="Big")
        req = await asyncio.to_thread(raw.read_until, "request")
        raw.send({"type": "action", "seq": req["seq"], "action": {"seat": 0, "kind": "discard", "tile": "x" * 60000}})
        m = await asyncio.to_thread(raw.read_until, "error")
        assert m["code"] == "bad_action" and not m["fatal"]
        assert len(m["message"]) <= MAX_ERROR_TEXT and m["message"].endswith("…")
        raw.send({"type": "ping", "id": 1})
        assert (await asyncio.to_thread(raw.read_until, "pong"))["id"] == 1  # still at the table
        raw.close()


# ----------------------------------------------------------------------------------------
# item 5: the journal folder fills up
# ----------------------------------------------------------------------------------------
def _limit_file_size(limit: int):
    def set_limit() -> None:  # in the child: files it writes stop at `limit` bytes (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return set_limit


def test_a_journal_that_cannot_be_written_stops_the_table_cleanly_and_resumes(tmp_path):
    """A real write failure at the journal: the server process may write no file past 6 KB
    (RLIMIT_FSIZE; Python ignores SIGXFSZ, so the write fails with EFBIG as on a full disk,
    and being root does not help).  The table stops: the player is told why (``bye``, table
    closed), ``serve`` exits 2 with one line that says what failed and the command that
    continues the match, no traceback.  The journal is valid and the match goes on from it
    to the end on a server without the limit.  (Before: a traceback, and the player only saw
    the connection drop.)"""
    log = tmp_path / "full.jsonl"
    e = env()
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    args = [sys.executable, "-m", "mahjong_tui.net", "serve", "--port", "0", "--log", str(log), "--seats",
            "remote,ai,ai,ai", "--seed", "21", "--hands", "4", "--bot-delay", "0"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e, cwd=str(ROOT),
                            preexec_fn=_limit_file_size(6000))
    try:
        port = None
        for _ in range(20):
            line = proc.stderr.readline()
            if " on 127.0.0.1:" in line:
                port = int(line.split(" on 127.0.0.1:")[1].split()[0])
                break
        assert port is not None, proc.stderr.read()

        async def play() -> dict:
            client = NetClient("127.0.0.1", port, name="Dee", reconnect=0)
            await client.connect()
            res = await asyncio.wait_for(play_bot(client, "normal"), 120)
            res["token"] = client.token
            return res

        res = asyncio.run(play())
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert not res["finished"] and "journal cannot be written" in res["closed"]
    assert "rejoin with your seat token" in res["closed"]
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("mahjong-tui: error: cannot write the journal") and "File too large" in last
    assert f"mahjong-tui serve --log {log} --port {port}" in last
    glog = GameLog.load(log)
    assert len(glog.actions) > 20 and glog.replay().phase != "match_over"

    # the same journal, served without the limit: Dee rejoins with the token and the match ends
    from .util import start_server_process

    proc2, port2 = start_server_process("--log", str(log), "--bot-delay", "0")
    try:
        async def finish() -> dict:
            client = NetClient("127.0.0.1", port2, token=res["token"], reconnect=0)
            assert (await client.connect())["seat"] == 0
            return await asyncio.wait_for(play_bot(client, "normal"), 120)

        assert asyncio.run(finish())["finished"]
        proc2.communicate(timeout=60)
    finally:
        if proc2.poll() is None:
            proc2.kill()
            proc2.communicate()
    assert proc2.returncode == 0
    assert GameLog.load(log).replay().phase == "match_over"


async def test_a_seat_file_that_cannot_be_written_refuses_new_players_with_an_error_and_lets_seats_rejoin(tmp_path):
    """A new seat's token must be on disk before it is given out: when the seat file cannot be
    written (here its temporary file is in the way: a folder of that name; ``OSError`` as from
    a full disk) a newcomer gets an ``unavailable`` error and the host a log line; a seated
    player who dropped rejoins all the same.  (Before: both were dropped without a word.)"""
    table = new_table("classic", seed=6, hands=1)
    seats = tmp_path / "t.seats"
    notes: list[str] = []
    async with served(table, seats=("remote", "remote", "ai", "ai"), seat_file=seats,
                      on_note=notes.append) as (server, _task):
        ann = NetClient("127.0.0.1", server.port, name="Ann", reconnect=0)
        token = (await ann.connect())["token"]
        await ann.close()
        (tmp_path / "t.seats.tmp").mkdir()
        raw = RawClient(server.port)
        m = await asyncio.to_thread(raw.join, name="Bob")
        assert m["type"] == "error" and m["code"] == "unavailable" and m["fatal"], m
        assert "seat file cannot be written" in m["message"]
        assert await asyncio.to_thread(raw.closed)
        raw.close()
        assert any("refused a new player" in n for n in notes)
        assert 1 not in server.seat_file.seats  # nothing half-given
        back = NetClient("127.0.0.1", server.port, name="Ann again", token=token, reconnect=0)
        assert (await back.connect())["seat"] == 0
        assert any("new name is not kept" in n for n in notes)
        await back.close()


# ----------------------------------------------------------------------------------------
# items 2b, 9a, 11: options
# ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["serve", "--port", "70000"], ["host", "--port", "70000"], ["serve", "--port", "-1"],
    ["serve", "--hands", "0"], ["serve", "--hands", "-5"], ["host", "--hands", "0"],
    ["serve", "--password", ""], ["join", "127.0.0.1:9", "--token", ""],
    ["serve", "--password-file", "/nonexistent/pw"],
])
def test_bad_lan_options_exit_2_naming_the_option(argv, capsys, tmp_path):
    from mahjong_tui.cli import main

    if argv[0] == "serve":  # were the option taken, the table would play at once and end
        argv = argv + ["--log", str(tmp_path / "x.jsonl"), "--start-after", "0.01", "--bot-delay", "0"]
        if "--port" not in argv:
            argv += ["--port", "0"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    option = next(a for a in argv if a.startswith("--"))
    assert err.strip().splitlines()[-1].startswith(f"mahjong-tui {argv[0]}: error: argument {option}")


@pytest.mark.parametrize("argv", [["join", "127.0.0.1:70000"], ["join", "127.0.0.1:70000", "--bot", "normal"]])
def test_a_join_port_out_of_range_exits_2_with_one_line(argv, capsys):
    from mahjong_tui.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "port 1..65535" in err


def test_secrets_come_from_a_file_or_the_environment_never_both(tmp_path):
    from mahjong_tui.net.args import OptionError, resolve_secrets
    from mahjong_tui.net.commands import build_parser

    pw = tmp_path / "pw"
    pw.write_text("from file\nsecond line ignored\n")
    p = build_parser()
    a = resolve_secrets(p.parse_args(["serve", "--password-file", str(pw)]), env={})
    assert a.password == "from file"
    a = resolve_secrets(p.parse_args(["serve"]), env={"MAHJONG_TUI_PASSWORD": "from env"})
    assert a.password == "from env"
    a = resolve_secrets(p.parse_args(["serve", "--password", "given"]), env={"MAHJONG_TUI_PASSWORD": "from env"})
    assert a.password == "given"
    a = resolve_secrets(p.parse_args(["join", "h:1", "--token-file", str(pw)]), env={"MAHJONG_TUI_TOKEN": "t"})
    assert a.token == "from file"
    a = resolve_secrets(p.parse_args(["join", "h:1"]), env={"MAHJONG_TUI_TOKEN": "tok", "MAHJONG_TUI_PASSWORD": "p"})
    assert (a.token, a.password) == ("tok", "p")
    with pytest.raises(OptionError, match="not both"):
        resolve_secrets(p.parse_args(["serve", "--password", "x", "--password-file", str(pw)]), env={})
    with pytest.raises(OptionError, match="set but empty"):
        resolve_secrets(p.parse_args(["serve"]), env={"MAHJONG_TUI_PASSWORD": ""})
    menu = p.parse_args(["serve"])
    menu.secrets_from_env = False  # the menu's forms: what is typed there, nothing else
    assert resolve_secrets(menu, env={"MAHJONG_TUI_PASSWORD": "from env"}).password is None


async def test_a_password_from_the_environment_guards_the_served_table(tmp_path, monkeypatch):
    """``serve`` with ``MAHJONG_TUI_PASSWORD`` (nothing on the command line for ``ps``)
    serves a table that asks for it."""
    from mahjong_tui.net.commands import build_parser, build_server

    monkeypatch.setenv("MAHJONG_TUI_PASSWORD", "env pw")
    args = build_parser().parse_args(["serve", "--port", "0", "--log", str(tmp_path / "e.jsonl"), "--seats",
                                      "remote,ai,ai,ai", "--hands", "1"])
    server, _ = build_server(args, local_humans=False, note=lambda t: None)
    _, port = await server.start("127.0.0.1", 0)
    try:
        assert server.password == "env pw"
        with pytest.raises(NetError, match="has a password"):
            await NetClient("127.0.0.1", port).connect()
        c = NetClient("127.0.0.1", port, password="env pw")
        assert (await c.connect())["seat"] == 0
        await c.close()
    finally:
        await server.close()


async def test_start_after_0_starts_at_once_with_stand_ins(tmp_path):
    """``--start-after 0`` starts the table at once (bots stand in for the empty seats); it
    used to mean 'wait for ever'.  ``off`` waits for every remote seat."""
    from mahjong_tui.net.commands import build_parser, build_server

    p = build_parser()
    assert p.parse_args(["serve", "--start-after", "off"]).start_after is None
    args = p.parse_args(["serve", "--port", "0", "--log", str(tmp_path / "s.jsonl"), "--seats", "remote,ai,ai,ai",
                         "--hands", "1", "--start-after", "0", "--bot-delay", "0"])
    assert args.start_after == 0
    server, _ = build_server(args, local_humans=False, note=lambda t: None)
    await server.start("127.0.0.1", 0)
    table = await asyncio.wait_for(server.run(), 120)  # nobody joins
    assert table.phase == "match_over"


# ----------------------------------------------------------------------------------------
# the seat file beside the journal
# ----------------------------------------------------------------------------------------
def test_a_seat_file_that_is_a_pipe_stops_serve_with_one_line(tmp_path):
    """A pipe where the seat file belongs: ``serve`` exits 2 with one line naming it (it used
    to wait for ever for a writer, before listening)."""
    import os

    log = tmp_path / "p.jsonl"
    os.mkfifo(tmp_path / "p.jsonl.seats")
    r = subprocess.run([sys.executable, "-m", "mahjong_tui.net", "serve", "--port", "0", "--log", str(log),
                        "--seats", "remote,ai,ai,ai", "--hands", "1"],
                       cwd=str(ROOT), env=env(), capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert f"{log}.seats: cannot be read: it is a pipe" in r.stderr and "seat tokens" in r.stderr, r.stderr


def test_a_huge_seat_file_is_refused_unread(tmp_path):
    """A seat file far larger than any real one (a sparse 64 MiB) is refused with a clear
    error, not read whole (it used to be read, then taken for 'no seats yet')."""
    from mahjong_tui.errors import LogError
    from mahjong_tui.net.server import MAX_SEAT_FILE, NetServer

    seats = tmp_path / "h.jsonl.seats"
    with open(seats, "wb") as fh:
        fh.truncate(64 << 20)
    with pytest.raises(LogError, match=r"h\.jsonl\.seats: cannot be read: it is larger than"):
        NetServer(new_table("classic", seed=1, hands=1), ["remote", "ai", "ai", "ai"], seat_file=seats)
    assert MAX_SEAT_FILE < 64 << 20
