"""Hostile and malformed frames at a live server (hypothesis): it never crashes, never changes
state on bad input, and the other clients never notice.

The server runs in a thread of its own with three well-behaved bot clients (seats 1-3).  The
hostile client holds seat 0, which owes the first discard, so the table is frozen on its
decision: any state change would have to come from a bad frame.  Each example sends one frame
(on the joined connection, or on a fresh connection that has not joined), then a ``ping``, and
reads until the ``pong`` or until the server closes the connection (then it rejoins with its
seat token).  After thousands of frames, a good client takes seat 0 over with the token and the
match is played to its end.
"""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import threading

import msgpack
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mahjong_tui.engine import Action, GameLog
from mahjong_tui.engine.actions import KINDS
from mahjong_tui.engine.log import LogWriter
from mahjong_tui.errors import IllegalAction
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.net.protocol import CHAT_MAX, CLIENT_TYPES, MAX_FRAME, PROTOCOL_VERSION, clean_chat
from mahjong_tui.net.server import NetServer

from .util import RawClient, new_table

EXAMPLES = int(os.environ.get("NET_FUZZ_EXAMPLES", "2000"))


class Live:
    """A served table in a background thread: seat 0 hostile (raw socket), seats 1-3 bots."""

    def __init__(self, tmp):
        self.table = new_table("classic", seed=1234, hands=1)
        self.log_path = tmp / "fuzz.jsonl"
        self.fh = open(self.log_path, "w", encoding="utf-8")
        self.loop = asyncio.new_event_loop()
        self.errors: list[str] = []
        self.loop.set_exception_handler(lambda loop, ctx: self.errors.append(str(ctx.get("message")) + str(ctx.get("exception"))))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.call(self._start())

    def call(self, coro, timeout=30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self):
        from mahjong_tui.engine.log import GameLog as GL
        writer = LogWriter(self.fh, GL.for_table(self.table, seats=["remote"] * 4))
        self.server = NetServer(self.table, ["remote"] * 4, log=writer, turn_timeout=None, claim_timeout=None,
                                standin_delay=120, body_timeout=0.3, hello_timeout=1)
        await self.server.start("127.0.0.1", 0)
        self.run_task = asyncio.ensure_future(self.server.run())
        self.go = asyncio.Event()

    async def _good_clients(self):
        self.good = []
        self.seen: list[list[dict]] = []
        self.runs = []
        for i in range(3):
            c = NetClient("127.0.0.1", self.server.port, name=f"good{i}", reconnect=0)
            await c.connect()
            seen: list[dict] = []
            orig = c._absorb

            def absorb(msg, orig=orig, seen=seen):
                seen.append(msg)
                orig(msg)
            c._absorb = absorb
            self.good.append(c)
            self.seen.append(seen)

        async def gate(req):
            await self.go.wait()

        self.runs = [asyncio.ensure_future(play_bot(c, gate=gate)) for c in self.good]

    async def shutdown(self):
        for t in list(self.runs) + [self.run_task]:
            t.cancel()
        await asyncio.gather(*self.runs, self.run_task, return_exceptions=True)
        for c in self.good:
            await c.close()
        await self.server.close()
        await asyncio.sleep(0.05)

    async def snapshot(self):
        return self.table.snapshot(), len(self.table.actions), self.run_task.done()

    def state(self):
        snap = self.call(self.snapshot())
        self.fh.flush()
        return snap, self.log_path.stat().st_size


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    lv = Live(tmp_path_factory.mktemp("fuzz"))
    port = lv.server.port
    hostile = RawClient(port)
    w = hostile.join(name="hostile")
    assert w["type"] == "welcome" and w["seat"] == 0
    lv.token = w["token"]
    lv.call(lv._good_clients())
    req = hostile.read_until("request")
    assert req["seq"] == 0
    lv.legal = [Action.from_dict(d) for d in req["legal"]]
    lv.hostile = hostile
    lv.before = lv.state()
    lv.counts = {"frames": 0, "errors": 0, "closed": 0}
    yield lv
    lv.hostile.close()
    lv.call(lv.shutdown())
    lv.loop.call_soon_threadsafe(lv.loop.stop)
    lv.thread.join(5)
    lv.fh.close()


def rejoin(lv):
    lv.hostile.close()
    lv.hostile = RawClient(lv.server.port)
    w = lv.hostile.join(token=lv.token)
    assert w["type"] == "welcome" and w["seat"] == 0, w
    lv.hostile.read_until("request")


def sync(client: RawClient, nonce: int) -> tuple[list[dict], bool]:
    """Send a ping and read until its pong; returns (messages before it, closed?)."""
    try:
        client.send({"type": "ping", "id": nonce})
    except OSError:
        return [], True
    got = []
    client.sock.settimeout(3.0)
    try:
        while True:
            m = client.read()
            if m["type"] == "pong" and m.get("id") == nonce:
                return got, False
            got.append(m)
    except (ConnectionError, OSError, socket.timeout):
        return got, True


# ----------------------------------------------------------------------------------------
# strategies
# ----------------------------------------------------------------------------------------
scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=True)
           | st.text(max_size=40) | st.binary(max_size=40))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6)
                      | st.dictionaries(st.text(max_size=10) | st.integers(-3, 3), inner, max_size=6), max_leaves=25)
tile_names = st.sampled_from(["1m", "5t", "9s", "E", "C", "0m", "xs", "h", "Z", "", "zz", "5", "m"])
action_maps = st.fixed_dictionaries(
    {"seat": st.integers(-2, 6) | st.sampled_from([0, 0, 0]) | values,
     "kind": st.sampled_from(KINDS) | st.text(max_size=12) | values},
    optional={"tile": tile_names | values, "tiles": st.sampled_from(["123m", "345t", "1m2m3m", "x"]) | values})
# chat texts the server must refuse: not a string, nothing printable, or over the cap (a
# good chat message would be table talk, sent to every player: not bad input)
bad_chat_texts = (values.filter(lambda v: not isinstance(v, str))
                  | st.text(alphabet="\x00\x1b\x07\n\t \u200b\r", max_size=30)
                  | st.text(min_size=CHAT_MAX + 1, max_size=CHAT_MAX + 40).filter(lambda t: len(clean_chat(t)) > CHAT_MAX)
                  | st.builds(lambda n: "x" * n, st.integers(4 * CHAT_MAX + 1, 60_000)))
messages = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(CLIENT_TYPES) | st.text(max_size=12)},
                          optional={"seq": st.integers(-5, 5) | values, "action": action_maps | values,
                                    "id": values, "protocol": st.integers(-1, 3) | values, "name": values,
                                    "token": values, "seat": values, "proof": values, "cnonce": values}),
    st.fixed_dictionaries({"type": st.just("action"), "seq": st.integers(0, 3) | st.integers(-2**63, 2**64 - 1),
                           "action": action_maps}),
    st.fixed_dictionaries({"type": st.just("chat"), "text": bad_chat_texts}),
    st.fixed_dictionaries({"type": st.just("join"), "protocol": st.just(PROTOCOL_VERSION)},
                          optional={"token": st.text(max_size=70), "seat": st.integers(-1, 5), "name": st.text(max_size=40),
                                    "cnonce": st.text("0123456789abcdef", min_size=30, max_size=66),
                                    "proof": st.text("0123456789abcdef", min_size=60, max_size=66)}),
)


def _pack(obj) -> bytes | None:
    try:
        return msgpack.packb(obj, use_bin_type=True)
    except (OverflowError, TypeError, ValueError):
        return None


bodies = st.one_of(
    messages.map(_pack),
    values.map(_pack),
    st.binary(max_size=300),
    st.builds(lambda d: b"\x91" * d + b"\xc0", st.integers(100, 3000)),  # deep nesting
    st.builds(lambda code, data: _pack({"type": "action", "seq": 0, "action": msgpack.ExtType(code, data)}),
              st.integers(0, 127), st.binary(max_size=20)),
    st.builds(lambda data: b"\x82\xa4type\xa6action\xa3seq\xd6\xff" + data, st.binary(min_size=4, max_size=4)),  # timestamp ext
    st.builds(lambda s: b"\x81\xa4type" + s, st.binary(max_size=20)),  # truncated inside the body
    st.just(b""),
).filter(lambda b: b is not None)
frames = st.one_of(
    bodies.map(lambda b: struct.pack(">I", len(b)) + b),
    st.builds(lambda n, tail: struct.pack(">I", n) + tail, st.integers(MAX_FRAME + 1, 2**32 - 1), st.binary(max_size=16)),
)


def _is_legal_move(frame: bytes, lv: Live) -> bool:
    """A frame that happens to be a correct move for seat 0 is not bad input: skip it."""
    try:
        msg = msgpack.unpackb(frame[4:], raw=False, strict_map_key=False)
        if msg.get("type") == "action" and msg.get("seq") == 0:
            return Action.from_dict(msg.get("action")) in lv.legal
    except (IllegalAction, Exception):
        return False
    return False


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(frame=frames, fresh=st.sampled_from([False] * 7 + [True]))
def test_hostile_frames_never_crash_never_change_state_never_disturb(live, frame, fresh):
    assume(not _is_legal_move(frame, live))
    live.counts["frames"] += 1
    nonce = live.counts["frames"]
    if fresh:  # a stranger that has not joined
        c = RawClient(live.server.port)
        assert c.read()["type"] == "hello"
        c.send_bytes(frame)
        got, closed = sync(c, nonce)
        c.close()
    else:
        try:
            live.hostile.send_bytes(frame)
        except OSError:
            pass
        got, closed = sync(live.hostile, nonce)
        if closed:
            live.counts["closed"] += 1
            rejoin(live)
    for m in got:
        if m["type"] == "error":
            live.counts["errors"] += 1
            assert isinstance(m["message"], str) and m["message"] and m["code"]
        else:
            assert m["type"] in ("seats", "bye", "state", "request", "pong"), m
    assert live.state() == live.before
    assert not live.errors


def test_truncated_and_stalled_frames_are_dropped_cleanly(live):
    """A frame whose body never comes, a connection closed mid-frame, a stranger that never
    joins: that connection is closed with a reason; nothing else changes."""
    for data in (struct.pack(">I", 100) + b"\x81\xa4ty", struct.pack(">I", 5), b"\x00\x00"):
        c = RawClient(live.server.port)
        assert c.read()["type"] == "hello"
        c.send_bytes(data)
        c.sock.settimeout(3)
        m = c.read()
        assert m["type"] == "error" and m["fatal"] and m["code"] in ("truncated", "hello_timeout"), m
        assert c.closed()
        c.close()
    c = RawClient(live.server.port)
    c.read()
    c.send_bytes(struct.pack(">I", 50) + b"abc")
    c.close()  # gone mid-frame
    assert live.state() == live.before
    assert not live.errors


def test_after_the_storm_the_match_finishes_and_nobody_noticed(live):
    """Runs last: a good client takes seat 0 with its token; the match ends normally; the good
    clients got no error and no update while the hostile client raged, and kept their
    connections."""
    print("fuzz counts", live.counts)
    assert live.counts["frames"] >= min(EXAMPLES, 1000) * 0.9, live.counts
    assert live.counts["errors"] > live.counts["frames"] * 0.5
    for seen in live.seen:
        assert {m["type"] for m in seen} <= {"state", "seats"}, {m["type"] for m in seen}
    live.hostile.close()

    async def finish():
        good0 = NetClient("127.0.0.1", live.server.port, token=live.token, name="good-again")
        await good0.connect()
        live.go.set()
        r0 = await play_bot(good0)
        rs = await asyncio.gather(*live.runs)
        await live.run_task
        return [r0] + list(rs)

    results = live.call(finish(), timeout=60)
    assert all(r["finished"] and not r["errors"] for r in results), results
    for c in live.good:
        assert c.closed_reason == "match over"
    assert live.table.phase == "match_over"
    live.fh.flush()
    assert GameLog.load(live.log_path).replay().snapshot() == live.table.snapshot()
    assert not live.errors
