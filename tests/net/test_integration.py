"""Whole tables over real sockets on 127.0.0.1: bots over the wire, rejoining, timeouts,
passwords, seat rules, stale and foreign actions."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from mahjong_tui.engine import Action, GameLog
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.net.protocol import NetError

from .util import RawClient, bots, env, new_table, play_all, served, start_server_process, ROOT


def test_four_join_bot_processes_play_a_full_hand(tmp_path):
    """``serve`` + four ``join --bot`` processes: everyone exits 0, the server prints one line
    per hand, the journal replays to the finished match."""
    log = tmp_path / "game.jsonl"
    server, port = start_server_process("--variant", "classic", "--seed", "3", "--hands", "1", "--log", str(log),
                                        "--bot-delay", "0")
    joins = [subprocess.Popen([sys.executable, "-m", "mahjong_tui.net", "join", f"127.0.0.1:{port}", "--bot",
                               level, "--name", f"p{i}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env(), cwd=str(ROOT))
             for i, level in enumerate(("normal", "easy", "strong", "normal"))]
    try:
        outs = [j.communicate(timeout=60) for j in joins]
        sout, serr = server.communicate(timeout=30)
    finally:
        for p in joins + [server]:
            if p.poll() is None:
                p.kill()
    assert server.returncode == 0, serr
    for j, (o, e) in zip(joins, outs):
        assert j.returncode == 0, e
        assert "seat token" in e
        assert o.count("\n") == 1 and o.startswith("hand 1:")
    assert sout.startswith("hand 1:") and sout.count("\n") == 1, sout
    table = GameLog.load(log).replay()
    assert table.phase == "match_over"


async def test_bot_clients_finish_a_match_and_the_log_replays(tmp_path):
    table = new_table("yuxi", seed=5, hands=1)
    log = tmp_path / "g.jsonl"
    async with served(table, log_path=log) as (server, task):
        clients = await bots(server)
        assert sorted(c.seat for c in clients) == [0, 1, 2, 3]
        results = await play_all(clients)
        await asyncio.wait_for(task, 10)
    assert all(r["finished"] and not r["errors"] for r in results)
    assert table.phase == "match_over"
    assert GameLog.load(log).replay().snapshot() == table.snapshot()
    assert all(r["scores"] == table.scores for r in results)


async def test_singapore_instant_payments_reach_every_client(tmp_path):
    """A Singapore match over the LAN: the instant payments (singapore.md "Settlement") are events every client
    receives as they happen, with the same amounts, and the scores they end with agree."""
    import msgpack

    from mahjong_tui.net.protocol import HEADER

    # a seed whose bots meet bites during play (not only at the deal) in these hands
    table = new_table("singapore", seed=8, hands=3)
    before = len(table.instant_log)
    taps = [bytearray() for _ in range(4)]
    async with served(table) as (server, task):
        clients = []
        for i in range(4):
            c = NetClient("127.0.0.1", server.port, name=f"bot{i}", tap=taps[i].extend)
            await c.connect()
            clients.append(c)
        results = await play_all(clients)
        await asyncio.wait_for(task, 10)
    assert all(r["finished"] and not r["errors"] for r in results)
    seen = []
    for data in taps:
        data, got, i = bytes(data), [], 0
        while i < len(data):
            (n,) = HEADER.unpack(data[i:i + 4])
            msg = msgpack.unpackb(data[i + 4:i + 4 + n], raw=False, strict_map_key=False)
            i += 4 + n
            got += [(e["id"], e["seat"], e["amount"], tuple(e["deltas"])) for e in msg.get("events") or []
                    if e["type"] == "instant_payment"]
        seen.append(got)
    played = [(p["id"], p["seat"], p["amount"], tuple(p["deltas"])) for h in table.history
              for p in h["instant_payments"]]
    assert seen[0] and all(s == seen[0] for s in seen)
    # every payment, less the first deal's (made before anyone joined; the first view shows them)
    assert seen[0] == played[before:]
    assert all(r["scores"] == table.scores for r in results)


async def test_mixed_table_with_server_bots():
    table = new_table("classic", seed=8, hands=1)
    async with served(table, seats=("ai", "remote", "ai:easy", "remote")) as (server, task):
        clients = await bots(server, 2)
        assert [c.seat for c in clients] == [1, 3]
        kinds = [s["kind"] for s in clients[1].seats]
        assert kinds == ["ai", "remote", "ai", "remote"]
        await play_all(clients)
        await asyncio.wait_for(task, 10)
    assert table.phase == "match_over"


async def test_kill_and_rejoin_a_client_mid_hand():
    """Seat 2's client dies mid-hand: a stand-in plays on; the client rejoins with its seat
    token, gets a full resync (the server's own view of the seat) and finishes the match."""
    table = new_table("classic", seed=21, hands=2)  # two hands: seq 40 comes even after a quick first hand
    async with served(table) as (server, task):
        clients = await bots(server)
        victim = clients[2]
        token = victim.token
        hold = asyncio.Event()

        async def gate(req):
            if req["seq"] >= 40 and not hold.is_set():
                await hold.wait()

        others = [asyncio.ensure_future(play_bot(c, gate=gate)) for c in clients if c is not victim]

        async def victim_gate(req):
            if req["seq"] >= 12:
                victim.abort()  # dies with a decision owed
                await asyncio.sleep(3600)

        vtask = asyncio.ensure_future(play_bot(victim, gate=victim_gate))
        # the table goes on without the victim (a stand-in plays seat 2) up to seq 40
        for _ in range(3000):
            if table.seq >= 40:
                break
            await asyncio.sleep(0.01)
        assert table.seq >= 40
        assert server.remote[2].conn is None
        status = server.seats_status()[2]
        assert status["standin"] and not status["connected"]
        vtask.cancel()
        back = NetClient("127.0.0.1", server.port, token=token, name="again")
        welcome = await back.connect()
        assert welcome["seat"] == 2 and welcome["token"] == token
        msgs = aiter(back)
        first = await anext(msgs)
        assert first["type"] == "state"
        assert first["view"] == _roundtrip(table.view(2))  # full resync: the seat's whole view
        hold.set()
        res = await asyncio.wait_for(play_bot(back), 60)
        await asyncio.wait_for(asyncio.gather(*others), 60)
        await asyncio.wait_for(task, 10)
    assert res["finished"] and table.phase == "match_over"


def _roundtrip(obj):
    import msgpack
    return msgpack.unpackb(msgpack.packb(obj), raw=False, strict_map_key=False)


async def test_a_silent_client_times_out_a_bot_stands_in_and_it_rejoins():
    table = new_table("classic", seed=4, hands=1)
    async with served(table, turn_timeout=0.3, claim_timeout=0.3) as (server, task):
        silent = await bots(server, 1)
        silent = silent[0]
        assert silent.seat == 0  # East: owes the first discard
        others = await bots(server, 3)
        runs = [asyncio.ensure_future(play_bot(c)) for c in others]
        got = []
        async for m in silent:
            got.append(m)
            if m["type"] == "connection" and m["state"] == "connected":
                break
        errs = [m for m in got if m["type"] == "error"]
        assert errs and errs[0]["code"] == "timeout" and errs[0]["fatal"]
        assert "rejoin" in errs[0]["message"]
        assert len(table.actions) >= 1 and table.actions[0].seat == 0  # the stand-in discarded
        # the client rejoined by itself with its token: resync, then it plays on
        res = await asyncio.wait_for(play_bot(silent), 60)
        await asyncio.wait_for(asyncio.gather(*runs), 60)
    assert res["finished"]


async def test_password_is_proved_never_sent():
    table = new_table("classic", seed=2, hands=1)
    sent = bytearray()
    async with served(table, password="s3cret-Pw", seats=("remote", "ai", "ai", "ai")) as (server, task):
        with pytest.raises(NetError, match="password"):
            await NetClient("127.0.0.1", server.port).connect()
        with pytest.raises(NetError, match="wrong table password"):
            await NetClient("127.0.0.1", server.port, password="nope").connect()
        # the proof is an HMAC: record what the client sends through a relay
        relay_port, relay = await _relay(server.port, sent)
        c = NetClient("127.0.0.1", relay_port, password="s3cret-Pw")
        w = await c.connect()
        assert w["seat"] == 0 and "proof" in w
        await c.close()
        relay.close()
    assert b"s3cret" not in bytes(sent) and len(sent) > 0


async def _relay(port: int, record: bytearray):
    async def handle(r, w):
        ur, uw = await asyncio.open_connection("127.0.0.1", port)

        async def pump(src, dst, rec):
            try:
                while data := await src.read(65536):
                    if rec is not None:
                        rec.extend(data)
                    dst.write(data)
            except ConnectionError:
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(r, uw, record), pump(ur, w, None))

    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    return srv.sockets[0].getsockname()[1], srv


async def test_seats_tokens_and_table_full():
    table = new_table("classic", seed=2, hands=1)
    async with served(table, seats=("remote", "remote", "ai", "ai")) as (server, task):
        a = NetClient("127.0.0.1", server.port, seat=1, name="Ann\x1b[31m")
        wa = await a.connect()
        assert wa["seat"] == 1 and wa["name"] == "Ann[31m"  # control characters never reach the table
        with pytest.raises(NetError, match="taken"):
            await NetClient("127.0.0.1", server.port, seat=1).connect()
        with pytest.raises(NetError, match="not one of this table"):
            await NetClient("127.0.0.1", server.port, token="forged-token").connect()
        b = NetClient("127.0.0.1", server.port)
        assert (await b.connect())["seat"] == 0
        with pytest.raises(NetError, match="every seat"):
            await NetClient("127.0.0.1", server.port).connect()
        await asyncio.wait_for(play_all([a, b]), 60)


async def test_stale_foreign_and_illegal_actions_are_refused_and_change_nothing():
    table = new_table("classic", seed=9, hands=1)
    async with served(table) as (server, task):
        raw = RawClient(server.port)
        w = await asyncio.to_thread(raw.join, name="raw")
        assert w["type"] == "welcome" and w["seat"] == 0
        others = await bots(server, 3)
        runs = [asyncio.ensure_future(play_bot(c)) for c in others]
        await asyncio.sleep(0)
        req = await asyncio.to_thread(raw.read_until, "request")
        assert req["seq"] == 0
        before = table.snapshot()
        legal = [Action.from_dict(d) for d in req["legal"]]
        good = legal[0].to_dict()

        def ask(msg):
            raw.send(msg)
            return raw.read_until("error")

        assert (await asyncio.to_thread(ask, {"type": "action", "seq": 5, "action": good}))["code"] == "stale"
        foreign = dict(good, seat=1)
        assert (await asyncio.to_thread(ask, {"type": "action", "seq": 0, "action": foreign}))["code"] == "not_your_seat"
        held = {a.tile for a in legal}
        not_held = next(d for d in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m")
                        if Action.from_dict({"seat": 0, "kind": "discard", "tile": d}).tile not in held)
        e = await asyncio.to_thread(ask, {"type": "action", "seq": 0, "action": {"seat": 0, "kind": "discard", "tile": not_held}})
        assert e["code"] == "illegal" and "allowed:" in e["message"]
        e = await asyncio.to_thread(ask, {"type": "action", "seq": 0, "action": {"seat": 0, "kind": "fly"}})
        assert e["code"] == "bad_action" and "kinds:" in e["message"]
        e = await asyncio.to_thread(ask, {"type": "shout", "text": "hi"})
        assert e["code"] == "bad_type" and "allowed:" in e["message"]
        # a chat message is table talk: it comes back to its sender and moves no tile
        raw.send({"type": "chat", "text": "discard 5t"})
        said = await asyncio.to_thread(raw.read_until, "chat")
        assert said["text"] == "discard 5t" and said["seat"] == 0 and said["name"] == "raw"
        assert table.snapshot() == before and server.remote[0].conn is not None
        raw.send({"type": "action", "seq": 0, "action": good})
        acc = await asyncio.to_thread(raw.read_until, "accepted")
        assert acc["seq"] == 0
        await asyncio.sleep(0.05)
        assert table.actions[0] == legal[0]
        # answering the same request twice: no decision pending any more
        e = await asyncio.to_thread(ask, {"type": "action", "seq": 0, "action": good})
        assert e["code"] in ("no_request", "stale")
        raw.close()  # a stand-in finishes seat 0's match
        await asyncio.wait_for(asyncio.gather(*runs), 60)


async def test_server_binds_loopback_by_default(tmp_path):
    from mahjong_tui.net.commands import build_parser, build_server

    args = build_parser().parse_args(["serve", "--port", "0", "--log", str(tmp_path / "l.jsonl"), "--hands", "1"])
    assert args.bind == "127.0.0.1"
    server, _ = build_server(args, local_humans=False, note=lambda t: None)
    host, port = await server.start(args.bind, 0)
    assert host == "127.0.0.1"
    await server.close()


async def test_host_session_reserves_the_local_seat(tmp_path):
    from mahjong_tui.net.commands import build_parser, start_host

    args = build_parser().parse_args(["serve", "--port", "0", "--log", str(tmp_path / "h.jsonl"), "--hands", "1",
                                      "--seats", "human,remote,ai,ai", "--bot-delay", "0"])
    session = await start_host(args)
    assert list(session.clients) == [0]
    await session.start()
    local = session.clients[0]
    assert local.seat == 0
    # a stranger cannot take the host's seat: it gets the free remote one
    other = NetClient("127.0.0.1", session.address[1])
    assert (await other.connect())["seat"] == 1
    res = await asyncio.wait_for(asyncio.gather(play_bot(local), play_bot(other)), 60)
    assert all(r["finished"] for r in res)
    await session.stop()


def test_the_minimal_client_of_protocol_md_plays_a_match():
    """PROTOCOL.md is enough to write a client: its example, run as written, finishes a match."""
    import re
    from mahjong_tui.net import server as _s
    from pathlib import Path

    doc = (Path(_s.__file__).parent / "PROTOCOL.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    proc, port = start_server_process("--seats", "remote,ai,ai,ai", "--hands", "1", "--seed", "5", "--bot-delay", "0",
                                      "--log", str(Path(__import__("tempfile").mkdtemp()) / "m.jsonl"))
    try:
        r = subprocess.run([sys.executable, "-c", code.replace("7777", str(port))], capture_output=True, text=True,
                           timeout=60)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert r.returncode == 0, r.stderr
    assert proc.returncode == 0 and out.startswith("hand 1:"), err
