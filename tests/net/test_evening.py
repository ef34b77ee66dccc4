"""LAN seats that survive, timers and table talk (issue 22, items 3 and 4), on real sockets
(127.0.0.1): a ``join`` killed with SIGKILL and started again with only ``join HOST:PORT``
sits in its own seat again; the turn clock counts down for everyone and runs out into the
stand-in bot; chat reaches every player, capped and rate-limited, and moves no tile."""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.net.protocol import CHAT_MAX
from mahjong_tui.net.seatstore import SeatStore, table_key

from .util import ROOT, RawClient, env, new_table, served


async def _line(stream: asyncio.StreamReader, needle: str, timeout: float = 60.0) -> str:
    """The first line of ``stream`` holding ``needle`` (AssertionError with what came instead)."""
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        raw = await asyncio.wait_for(stream.readline(), max(0.1, end - time.monotonic()))
        if not raw:
            break
        line = raw.decode()
        seen.append(line)
        if needle in line:
            return line
    raise AssertionError(f"no line with {needle!r}; got {seen!r}")


async def _join(port: int, *extra: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mahjong_tui", "join", f"127.0.0.1:{port}", *extra, cwd=str(ROOT), env=env(),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def _until(cond, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting"
        await asyncio.sleep(0.02)


async def test_a_join_killed_and_started_again_sits_in_its_own_seat(tmp_path):
    """``mahjong-tui join 127.0.0.1:PORT --bot normal --name Bob`` takes seat 2 and keeps its
    token in the saves folder (lan-seats, 0600); killed with SIGKILL mid-match and started again
    with nothing but the address (and --bot), it is back in seat 2 as Bob: no new seat was
    given, and the match plays to its end with it.  A third ``join`` meanwhile (the seat is held
    by the running one) does not take it over: the table is full."""
    saves = Path(os.environ["MAHJONG_TUI_SAVES"])
    table = new_table("classic", seed=5, hands=1)
    go = asyncio.Event()

    async def gate(_req):  # Ann holds the table at her first decision until the test is done
        await go.wait()

    async with served(table, seats=("remote", "remote", "ai", "ai"), bot_delay=0, turn_timeout=None,
                      claim_timeout=None, seat_file=tmp_path / "t.seats") as (server, task):
        ann = NetClient("127.0.0.1", server.port, name="Ann", seat=0)
        await ann.connect()
        ann_plays = asyncio.ensure_future(play_bot(ann, gate=gate))
        first = await _join(server.port, "--bot", "normal", "--name", "Bob")
        again = None
        try:
            line = await _line(first.stderr, "seat 2")
            assert "seated at seat 2 as Bob" in line and "rejoins this seat" in line, line
            records = list((saves / "lan-seats").glob("*.json"))
            assert len(records) == 1
            rec = json.loads(records[0].read_text())
            assert rec["seat"] == 1 and rec["name"] == "Bob" and rec["port"] == server.port
            assert rec["table"] == server.seat_file.table_id
            assert stat.S_IMODE(records[0].stat().st_mode) == 0o600
            assert stat.S_IMODE((saves / "lan-seats").stat().st_mode) == 0o700
            assert records[0].name.startswith(table_key("127.0.0.1", server.port, server.seat_file.table_id))
            token_before = dict(server.seat_file.seats[1])
            await _until(lambda: server.started)

            # a second client of this machine while Bob's runs: the kept seat is in use
            other = await _join(server.port, "--bot", "normal", "--retry", "0")
            _, err = await asyncio.wait_for(other.communicate(), 60)
            assert other.returncode == 2 and "every seat at this table is taken" in err.decode(), err.decode()

            first.send_signal(signal.SIGKILL)
            await first.wait()
            await _until(lambda: server.remote[1].conn is None)

            again = await _join(server.port, "--bot", "normal")
            line = await _line(again.stderr, "seat 2")
            assert "back in the seat kept for this table at seat 2 as Bob" in line, line
            await _until(lambda: server.remote[1].conn is not None)
            assert server.seat_file.seats[1] == token_before  # the same seat, not a new one
            assert server.remote[1].name == "Bob"
            go.set()
            out, err = await asyncio.wait_for(again.communicate(), 90)
            assert again.returncode == 0, err.decode()
            assert "hand 1:" in out.decode()
            assert (await asyncio.wait_for(ann_plays, 30))["finished"]
        finally:
            go.set()
            for p in (first, again):
                if p is not None and p.returncode is None:
                    p.kill()
                    await p.wait()
        await asyncio.wait_for(task, 30)
    assert table.phase == "match_over"
    assert not list((saves / "lan-seats").glob("*.json"))  # the match is over: nothing kept


async def test_a_kept_token_the_table_no_longer_knows_gives_a_free_seat(tmp_path):
    """A record whose token the table does not know (its seat file was lost) is forgotten,
    and the client takes a free seat (saying so), keeping the new token."""
    store = SeatStore(tmp_path / "kept")
    table = new_table("classic", seed=6, hands=1)
    async with served(table, seats=("remote", "remote", "ai", "ai")) as (server, task):
        slot = store.take("127.0.0.1", server.port, server.seat_file.table_id)
        slot.save({"host": "127.0.0.1", "port": server.port, "table": server.seat_file.table_id, "seat": 0,
                   "token": "NotATokenOfThisTable0000", "name": "Old"})
        slot.release()
        said = []
        c = NetClient("127.0.0.1", server.port, store=store)
        w = await c.connect(on_retry=said.append)
        assert c.kept == "stale" and "no longer valid" in said[0]
        assert w["seat"] == 0 and w["name"] == "Player 1"
        held = store.take("127.0.0.1", server.port, server.seat_file.table_id)
        assert held.token is None  # c holds the slot with the token: another client gets an empty one
        held.release()
        await c.close()
        slot = store.take("127.0.0.1", server.port, server.seat_file.table_id)
        assert slot.token == w["token"]
        slot.release()
        # --new-seat: a free seat all the same, its token kept too
        again = NetClient("127.0.0.1", server.port, store=store, fresh=True)
        assert (await again.connect())["seat"] == 1 and again.kept == "new"
        await again.close()


async def test_the_turn_clock_counts_down_for_everyone_and_runs_out_into_the_stand_in():
    """With --turn-timeout 1.5, East's request says how long it has; the other players get the
    same turn clock (a ``clock`` message, seconds left); East, who does not answer, is told
    ``timeout``, the stand-in discards for him, and his client rejoins on its own and plays on."""
    table = new_table("classic", seed=7, hands=1)
    async with served(table, seats=("remote", "remote", "ai", "ai"), turn_timeout=1.5, claim_timeout=1.5,
                      standin_delay=0) as (server, task):
        idle = NetClient("127.0.0.1", server.port, name="Idle", seat=0, reconnect=30)
        await idle.connect()
        raw = RawClient(server.port)
        w = await asyncio.to_thread(raw.join, name="Watcher", seat=1)
        assert w["seat"] == 1
        req = None
        async for m in idle:
            if m["type"] == "request":
                req = m
                break
        assert req["view"]["phase"] == "turn" and 0 < req["timeout"] <= 1.5
        clock = await asyncio.to_thread(raw.read_until, "clock")
        assert clock["seat"] == 0 and clock["seq"] == req["seq"] and 0 < clock["seconds"] <= 1.5
        kinds = []
        async for m in idle:  # answers nothing
            kinds.append((m["type"], m.get("code") or m.get("state")))
            if m["type"] == "connection" and m["state"] == "connected":
                break
        assert ("error", "timeout") in kinds  # told, then back on its own
        assert table.actions[0].seat == 0 and table.actions[0].kind == "discard"  # the stand-in's
        assert server.remote[0].conn is not None and server.remote[0].name == "Idle"
        raw.close()


async def test_chat_reaches_every_player_capped_and_rate_limited():
    """A chat message goes to every player (the sender too) with its seat and name, cleaned of
    control characters; a text over the cap or with nothing printable gets ``bad_message`` and
    is sent to nobody; the sixth message in a burst gets ``rate_limited`` (retry_after) and is
    sent to nobody; a stranger that has not joined may not chat; nothing moves at the table."""
    table = new_table("classic", seed=8, hands=1)
    async with served(table, seats=("remote", "remote", "remote", "ai"), chat_interval=60.0) as (server, task):
        a = RawClient(server.port)
        b = RawClient(server.port)
        assert (await asyncio.to_thread(a.join, name="Ann"))["seat"] == 0
        assert (await asyncio.to_thread(b.join, name="Bob"))["seat"] == 1
        before = table.snapshot()

        def chat(c, text):
            c.send({"type": "chat", "text": text})
            while True:
                m = c.read()
                if m["type"] in ("chat", "error"):
                    return m

        said = await asyncio.to_thread(chat, a, "hello \x1b[31mall\x07\nready?")
        assert said == {"type": "chat", "id": 1, "seat": 0, "name": "Ann", "text": "hello [31mall ready?"}
        heard = await asyncio.to_thread(b.read_until, "chat")
        assert heard == said
        e = await asyncio.to_thread(chat, a, "x" * (CHAT_MAX + 1))
        assert e["code"] == "bad_message" and f"at most {CHAT_MAX}" in e["message"] and not e["fatal"]
        e = await asyncio.to_thread(chat, a, "\x00\x1b \n")
        assert e["code"] == "bad_message" and "printable" in e["message"]
        e = await asyncio.to_thread(chat, a, ["discard", "5t"])
        assert e["code"] == "bad_message"
        for i in range(4):  # the burst: 5 in all
            assert (await asyncio.to_thread(chat, a, f"m{i}"))["text"] == f"m{i}"
        e = await asyncio.to_thread(chat, a, "one too many")
        assert e["code"] == "rate_limited" and e["retry_after"] > 0 and not e["fatal"]
        # Bob heard exactly the five good ones, in order, and no error
        b.send({"type": "ping", "id": 1})
        got = []
        while (m := await asyncio.to_thread(b.read))["type"] != "pong":
            got.append(m)
        assert [m["text"] for m in got if m["type"] == "chat"] == ["m0", "m1", "m2", "m3"]
        assert not [m for m in got if m["type"] == "error"]
        s = RawClient(server.port)
        assert (await asyncio.to_thread(s.read))["type"] == "hello"
        e = await asyncio.to_thread(chat, s, "hi")
        assert e["code"] == "not_joined"
        assert table.snapshot() == before and server.remote[0].conn is not None
        for c in (a, b, s):
            c.close()


def _pty_join(port: int) -> tuple[subprocess.Popen, int]:
    """``mahjong-tui join 127.0.0.1:PORT`` (the TUI) on a pseudo-terminal of 100x30; returns the
    process and the terminal's master side (the caller reads it so the app never blocks)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    e = {**env(), "TERM": "xterm-256color", "LANG": "C.UTF-8",
         "MAHJONG_TUI_CONFIG": os.path.join(os.environ["MAHJONG_TUI_SAVES"], "config.toml")}
    p = subprocess.Popen([sys.executable, "-m", "mahjong_tui", "join", f"127.0.0.1:{port}", "--name", "Tui"],
                         stdin=slave, stdout=slave, stderr=slave, cwd=str(ROOT), env=e, start_new_session=True)
    os.close(slave)
    return p, master


def _drain(master: int, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready and not os.read(master, 65536):
                return
        except OSError:
            return


async def test_the_tui_join_killed_and_started_again_sits_in_its_own_seat(tmp_path):
    """The real ``mahjong-tui join HOST:PORT`` with its table interface (on a pseudo-terminal)
    keeps its seat token too: killed with SIGKILL and started again with only the address, it
    is back in its seat (the same seat record, the same name) and no new seat was given."""
    saves = Path(os.environ["MAHJONG_TUI_SAVES"])
    table = new_table("classic", seed=5, hands=1)
    async with served(table, seats=("remote", "remote", "ai", "ai"), bot_delay=0, turn_timeout=None,
                      claim_timeout=None, seat_file=tmp_path / "t.seats") as (server, task):
        stop = threading.Event()
        procs = []
        try:
            for attempt in range(2):
                p, master = _pty_join(server.port)
                procs.append(p)
                threading.Thread(target=_drain, args=(master, stop), daemon=True).start()
                await _until(lambda: server.remote[0].conn is not None, 60)
                if attempt == 0:
                    # the join writes its seat record once it is seated, a moment after the
                    # server sees the connection (on a loaded machine, a while after)
                    await _until(lambda: any((saves / "lan-seats").glob("*.json")), 60)
                    (record,) = (saves / "lan-seats").glob("*.json")
                    assert stat.S_IMODE(record.stat().st_mode) == 0o600
                    kept = json.loads(record.read_text())
                    assert kept["seat"] == 0 and kept["name"] == "Tui"
                    seat_record = dict(server.seat_file.seats[0])
                    p.send_signal(signal.SIGKILL)
                    p.wait(10)
                    await _until(lambda: server.remote[0].conn is None)
            assert server.seat_file.seats[0] == seat_record and 1 not in server.seat_file.seats
            assert server.remote[0].name == "Tui"
            assert json.loads(record.read_text())["token"] == kept["token"]
        finally:
            stop.set()
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait(10)


async def test_a_match_served_again_from_its_journal_keeps_its_identity_and_the_kept_seat(tmp_path):
    """``serve --log FILE`` stopped and served again on the same port: hello names the same
    table (the seat file keeps its identity), so a client's kept token finds its seat again;
    a new match on that port is another table, where nothing is kept."""
    from mahjong_tui.net.commands import build_parser, build_server

    store = SeatStore(tmp_path / "kept")
    log = tmp_path / "m.jsonl"

    async def serve(port: int, path=log):
        args = build_parser().parse_args(["serve", "--port", str(port), "--log", str(path), "--hands", "1",
                                          "--seats", "remote,ai,ai,ai", "--bot-delay", "0"])
        server, _ = build_server(args, local_humans=False, note=lambda t: None)
        await server.start("127.0.0.1", port)
        return server

    first = await serve(0)
    port = first.port
    c = NetClient("127.0.0.1", port, name="Ann", store=store, reconnect=0)
    w = await c.connect()
    assert c.kept == "new" and w["table"] == first.seat_file.table_id
    await c.close()
    await first.close()
    again = await serve(port)
    try:
        assert again.seat_file.table_id == first.seat_file.table_id
        back = NetClient("127.0.0.1", port, store=store, reconnect=0)
        w2 = await back.connect()
        assert back.kept == "used" and (w2["seat"], w2["token"], w2["name"]) == (0, w["token"], "Ann")
        await back.close()
    finally:
        await again.close()
    other = await serve(port, tmp_path / "other.jsonl")
    try:
        assert other.seat_file.table_id != first.seat_file.table_id
        fresh = NetClient("127.0.0.1", port, name="Bea", store=store, reconnect=0)
        assert (await fresh.connect())["name"] == "Bea" and fresh.kept == "new"
        await fresh.close()
    finally:
        await other.close()
