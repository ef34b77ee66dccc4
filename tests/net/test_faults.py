"""LAN faults that must never cost the match: idle players, a second server on the same
journal, the host closing the table.  Real sockets on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

from mahjong_tui.engine import Table
from mahjong_tui.engine.log import GameLog
from mahjong_tui.journal import journal_in_use
from mahjong_tui.net.client import NetClient
from mahjong_tui.variant import load_variant

from .util import ROOT, RawClient, env, new_table, served, start_server_process


async def test_an_idle_client_that_keeps_rejoining_cannot_stop_the_game():
    """The stand-in plays a timed-out decision at once, even when the client is back before
    the stand-in's pause is over (it used to get the request again, with a fresh clock)."""
    table = new_table("classic", seed=4, hands=1)
    # the stand-in's pause (1 s) is far longer than the client needs to rejoin (~50 ms)
    async with served(table, seats=("remote", "ai", "ai", "ai"), turn_timeout=0.2, claim_timeout=0.2,
                      standin_delay=1.0) as (server, task):
        idle = NetClient("127.0.0.1", server.port, name="Idle", reconnect=30.0)
        await idle.connect()
        seen: list[dict] = []

        async def follow() -> None:  # reads everything, answers nothing
            async for m in idle:
                seen.append(m)

        follower = asyncio.ensure_future(follow())

        async def seat0_moves(n: int) -> None:
            while sum(1 for a in table.actions if a.seat == 0) < n:
                await asyncio.sleep(0.05)

        try:
            await asyncio.wait_for(seat0_moves(4), 30)
        finally:
            follower.cancel()
            await idle.close()
        timeouts = [m for m in seen if m["type"] == "error" and m.get("code") == "timeout"]
        rejoins = [m for m in seen if m["type"] == "connection" and m.get("state") == "connected"]
        assert len(timeouts) >= 3 and len(rejoins) >= 3  # it kept coming back, and the game went on
        assert "a bot played" in timeouts[0]["message"]
        assert table.actions[0].seat == 0 and table.actions[0].kind == "discard"  # East's first discard
        assert server.remote[0].name == "Idle"


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=str(ROOT), env=env(), capture_output=True, text=True,
                          timeout=timeout)


def _snapshot(path: Path) -> tuple[int, bytes]:
    return path.stat().st_ino, path.read_bytes()


def test_a_second_server_on_a_journal_in_play_refuses_and_touches_nothing(tmp_path):
    """A second ``serve`` on the journal of a running table (the same port, or a free one)
    exits 2 with one line and leaves the file alone; once the table is gone the journal is
    free again."""
    log = tmp_path / "s1.jsonl"
    first, port = start_server_process("--seats", "remote,remote,ai,ai", "--log", str(log), "--seed", "5",
                                       "--hands", "1", "--bot-delay", "0")
    try:
        before = _snapshot(log)
        assert before[1].startswith(b'{"format": "mahjong-tui-log"')
        assert journal_in_use(log)
        for p in (str(port), "0"):  # the port in use, then a free one
            r = _run("mahjong_tui.net", "serve", "--port", p, "--log", str(log))
            assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
            assert "being played now" in r.stderr and "nothing was changed" in r.stderr
            assert _snapshot(log) == before
        r = _run("mahjong_tui", "serve", "--port", "0", "--log", str(log))  # the main CLI says the same
        assert r.returncode == 2 and "being played now" in r.stderr
        assert _snapshot(log) == before and not log.with_name(log.name + ".tmp").exists()
        # the running table still owns its file: a player joins and it is journalled there
        client = RawClient(port)
        assert client.join(name="Ann")["type"] == "welcome"
        client.close()
    finally:
        first.terminate()
        first.communicate(timeout=30)
    assert not journal_in_use(log)


def test_a_server_that_cannot_listen_leaves_the_journal_as_it_was(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        new = tmp_path / "new.jsonl"
        r = _run("mahjong_tui.net", "serve", "--port", port, "--log", str(new), "--seats", "remote,ai,ai,ai")
        assert r.returncode == 2 and "cannot listen" in r.stderr
        assert not new.exists() and not list(tmp_path.iterdir())  # no empty journal left behind
        # an unfinished match: not rewritten before the port is bound
        old = tmp_path / "old.jsonl"
        table = Table(load_variant("classic"), 3, 1)
        GameLog.for_table(table, seats=["remote", "ai", "ai", "ai"]).save(old)
        with open(old, "a", encoding="utf-8") as fh:
            fh.write('{"seat": 0, "kind": "disc')  # a torn last line, as a crash leaves it
        before = _snapshot(old)
        r = _run("mahjong_tui.net", "serve", "--port", port, "--log", str(old))
        assert r.returncode == 2 and "cannot listen" in r.stderr
        assert _snapshot(old) == before and not journal_in_use(old)


def test_replay_of_a_live_lan_journal_is_refused(tmp_path):
    """``replay`` shows every hand: it is refused while the table plays (as for a local game
    in another window) and works once the server is gone."""
    log = tmp_path / "g1.jsonl"
    server, port = start_server_process("--seats", "remote,ai,ai,ai", "--log", str(log), "--seed", "6",
                                        "--hands", "1", "--bot-delay", "0", "--start-after", "0")
    try:
        client = RawClient(port)
        client.join(name="Ann")
        client.read_until("request")  # the match is under way
        r = _run("mahjong_tui", "replay", str(log))
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "being played" in r.stderr and "every hand" in r.stderr
        client.close()
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert not journal_in_use(log)


async def test_a_resumed_table_keeps_its_password(tmp_path):
    """The seat file keeps a salted verifier (never the password): a resume without it, or
    with another one, is refused before anything is touched; the right one resumes."""
    import json

    import pytest

    from mahjong_tui.net.commands import build_parser, build_server
    from mahjong_tui.net.protocol import NetError

    log = tmp_path / "pw.jsonl"
    base = ["serve", "--port", "0", "--log", str(log), "--bot-delay", "0"]
    args = build_parser().parse_args(base + ["--seats", "remote,ai,ai,ai", "--hands", "1",
                                             "--password", "open sesame"])
    server, _ = build_server(args, local_humans=False, note=lambda t: None)
    await server.start("127.0.0.1", 0)
    await server.close()
    seats_text = (tmp_path / "pw.jsonl.seats").read_text()
    assert "sesame" not in seats_text and json.loads(seats_text)["password"]["pbkdf2_sha256"]
    before = _snapshot(log)
    for extra, words in (([], "give it again with --password"), (["--password", "…"], "not the password")):
        with pytest.raises(NetError, match=words):
            build_server(build_parser().parse_args(base + extra), local_humans=False, note=lambda t: None)
        assert _snapshot(log) == before and not journal_in_use(log)
    server, what = build_server(build_parser().parse_args(base + ["--password", "open sesame"]),
                                local_humans=False, note=lambda t: None)
    assert "resuming" in what and server.password == "open sesame"
    _, port = await server.start("127.0.0.1", 0)
    try:
        raw = RawClient(port)
        assert (await asyncio.to_thread(raw.read))["auth"] == "hmac-sha256"
        raw.close()
    finally:
        await server.close()


async def test_a_client_with_a_password_refuses_a_table_that_asks_for_none():
    import pytest

    from mahjong_tui.net.protocol import NetError

    async with served(new_table(), seats=("remote", "ai", "ai", "ai")) as (server, _task):
        with pytest.raises(NetError, match="asks for no password"):
            await NetClient("127.0.0.1", server.port, password="open sesame").connect()
        assert all(rs.conn is None for rs in server.remote.values())


def test_serve_says_to_join_with_a_password_and_never_prints_it(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "mahjong_tui.net", "serve", "--port", "0", "--seats",
                          "remote,ai,ai,ai", "--log", str(tmp_path / "s.jsonl"), "--password", "open sesame"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(), cwd=str(ROOT))
    try:
        line = p.stderr.readline()
    finally:
        p.terminate()
        p.communicate(timeout=30)
    assert "join with: mahjong-tui join 127.0.0.1:" in line and line.rstrip().endswith("--password-file FILE")
    assert "sesame" not in line


async def test_the_continue_and_rejoin_commands_ask_for_the_password(tmp_path):
    """What ``host`` prints to continue the match, and what a joiner is told to rejoin with,
    ask for the password with ``--password-file FILE`` (the password is never shown, and
    ``--password`` would show in ``ps``); the joiner's seat token goes in the environment, not
    on the command line, and the command works as printed."""
    from mahjong_tui.cli import build_parser as cli_parser
    from mahjong_tui.net.args import resolve_secrets
    from mahjong_tui.ui.netsession import open_host, open_join

    log = tmp_path / "h.jsonl"
    args = cli_parser().parse_args(["host", "--port", "0", "--log", str(log), "--seats", "human,remote,ai,ai",
                                    "--hands", "1", "--password", "open sesame"])
    host = await open_host(args)
    try:
        port = host.address[1]
        cmd = host.rejoin_command()
        assert cmd == f"mahjong-tui host --log {log} --port {port} --password-file FILE"
        jargs = cli_parser().parse_args(["join", f"127.0.0.1:{port}", "--password", "open sesame"])
        joiner = await open_join(jargs)
        try:
            cmd = joiner.rejoin_command()
            token = joiner.clients[joiner.humans[0]].token
            assert cmd == f"MAHJONG_TUI_TOKEN={token} mahjong-tui join 127.0.0.1:{port} --password-file FILE"
            pw_file = tmp_path / "pw"
            pw_file.write_text("open sesame\n")
            words = cmd.replace("FILE", str(pw_file)).split()
            again = resolve_secrets(cli_parser().parse_args(words[2:]), env=dict([words[0].split("=", 1)]))
            assert (again.token, again.password) == (token, "open sesame")
        finally:
            await joiner.aclose()
    finally:
        await host.aclose()
    assert "sesame" not in cmd


class _Presenter:
    """Records what a LAN session tells its screen."""

    def __init__(self):
        self.texts: list[str] = []
        self.closed: list[str] = []
        self.over = False

    def table_changed(self):
        pass

    def request_changed(self):
        pass

    def event_text(self, text):
        self.texts.append(text)

    async def privacy(self, seat, take):
        take()

    async def hand_over(self, summary, last=None):
        pass

    async def match_over(self):
        self.over = True

    async def connection_closed(self, detail):
        self.closed.append(detail)


async def test_a_joiner_is_told_at_once_that_the_host_closed_the_table():
    from mahjong_tui.cli import build_parser as cli_parser
    from mahjong_tui.ui.netsession import open_join

    table = new_table("classic", seed=8, hands=1)
    async with served(table, seats=("remote", "remote", "ai", "ai")) as (server, _task):
        session = await open_join(cli_parser().parse_args(["join", f"127.0.0.1:{server.port}", "--name", "Bob"]))
        presenter = _Presenter()
        session.presenter = presenter
        playing = asyncio.ensure_future(session.play())
        await asyncio.sleep(0.1)
        await server.close()  # the host closes the table before the match is over
        # told at once (not after the client's 30 s of trying to rejoin)
        await asyncio.wait_for(playing, 10)
    client = next(iter(session.clients.values()))
    assert presenter.closed and presenter.closed[0].startswith("The host closed the table")
    assert not session.finished and not presenter.over and not client.finished
    assert not any("reconnecting" in t for t in presenter.texts)
    assert "rejoin with your seat token" in client.closed_reason


async def test_a_seat_token_never_looks_like_an_option(monkeypatch):
    """One random token in 64 began with '-', and ``join --token -x…`` was refused by the
    command line before it reached the table (exit 2): the rejoining bot was gone at once and
    the table waited for ever for its seat (the flaky test below).  Tokens handed out on a
    join or reserved for a host's seat never begin with '-' now."""
    import secrets

    from mahjong_tui.net.commands import build_parser

    real = secrets.token_urlsafe
    dashed = iter(["-" + real(18)[1:] for _ in range(4)])  # the next draws all begin with '-'
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=None: next(dashed, None) or real(n))
    table = new_table("classic", seed=3, hands=1)
    async with served(table, seats=("remote", "remote", "ai", "ai")) as (server, _task):
        ann = RawClient(server.port)
        welcome = await asyncio.to_thread(ann.join, name="Ann")
        ann.close()
        tokens = [welcome["token"], server.reserve(1)]
    for token in tokens:
        assert not token.startswith("-") and len(token) == 24, token
        args = build_parser().parse_args(["join", "127.0.0.1:7777", "--bot", "normal", "--token", token])
        assert args.token == token


def _finish_all(procs: list[subprocess.Popen], timeout: float) -> tuple[list[tuple[str, str]], bool]:
    """Wait for every process for ``timeout`` seconds in all; kill the ones still running.
    Returns their (stdout, stderr) and whether all ended by themselves."""
    import time

    deadline = time.monotonic() + timeout
    ended = True
    outs = []
    for p in procs:
        try:
            outs.append(p.communicate(timeout=max(0.1, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            ended = False
            p.kill()
            outs.append(p.communicate())
    return outs, ended


def test_a_bot_rejoining_with_a_token_keeps_the_players_name(tmp_path):
    import json

    log = tmp_path / "n.jsonl"
    # two remote seats: play starts only once both are taken, so nothing races the bots
    server, port = start_server_process("--seats", "remote,remote,ai,ai", "--log", str(log), "--seed", "9",
                                        "--hands", "1", "--bot-delay", "0")
    bots: list[subprocess.Popen] = []
    try:
        ann = RawClient(port)
        token = ann.join(name="Ann")["token"]
        ann.close()
        cmd = [sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{port}", "--bot", "normal"]
        bots = [subprocess.Popen(cmd + extra, cwd=str(ROOT), env=env(), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for extra in (["--token", token], [])]
        outs, ended = _finish_all(bots, 120)
    finally:
        server.terminate()
        server_out, server_err = server.communicate(timeout=30)
    said = (f"server ({server.returncode}):\n{server_err}\n"
            + "".join(f"bot {i + 1} ({b.returncode}):\n{o[1]}\n" for i, (b, o) in enumerate(zip(bots, outs))))
    assert ended and [b.returncode for b in bots] == [0, 0], said
    assert "as Ann" in outs[0][1] and "as bot-normal" in outs[1][1], said
    names = {k: v["name"] for k, v in json.loads((tmp_path / "n.jsonl.seats").read_text())["seats"].items()}
    assert names == {"0": "Ann", "1": "bot-normal"}, said


def test_join_bot_exits_non_zero_when_the_table_closes_before_the_match_is_over(tmp_path):
    """``join --bot`` exits 0 only after the match is over: a table the host closes mid-match
    (the bot is told 'table closed') ends it with exit 2 and the reason, never 0."""
    import signal

    server, port = start_server_process("--seats", "remote,ai,ai,ai", "--log", str(tmp_path / "b.jsonl"),
                                        "--seed", "2", "--hands", "4", "--bot-delay", "10")
    bot = subprocess.Popen([sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{port}", "--bot", "normal"],
                           cwd=str(ROOT), env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seated = bot.stderr.readline()  # play has begun: the table's bots pause 10 s a move
        assert "seated at seat 1" in seated, seated
        server.send_signal(signal.SIGINT)
        _out, err = bot.communicate(timeout=60)
    finally:
        for p in (bot, server):
            if p.poll() is None:
                p.kill()
        server.communicate(timeout=30)
    assert bot.returncode == 2, (bot.returncode, seated + err)
    assert "left the table before the match ended" in err and "closed the table" in err, err


def test_serve_stopped_with_ctrl_c_says_how_to_continue(tmp_path):
    import signal

    log = tmp_path / "c.jsonl"
    server, port = start_server_process("--seats", "remote,ai,ai,ai", "--log", str(log), "--password", "pw 1")
    server.send_signal(signal.SIGINT)
    _out, err = server.communicate(timeout=30)
    assert server.returncode == 130
    assert f"continue the match with: mahjong-tui serve --log {log} --port {port} --password-file FILE" in err
    assert "pw 1" not in err and not journal_in_use(log)
