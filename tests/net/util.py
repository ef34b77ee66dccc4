"""Helpers of the network tests: in-process servers, raw frame clients, server subprocesses.

Every test uses real TCP sockets on 127.0.0.1 (developers' guide)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack

from mahjong_tui.engine import Table
from mahjong_tui.engine.log import GameLog, LogWriter
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.net.protocol import HEADER, PROTOCOL_VERSION, encode
from mahjong_tui.net.server import NetServer
from mahjong_tui.variant import load_variant

ROOT = Path(__file__).resolve().parents[2]


def new_table(variant: str = "classic", seed: int = 11, hands: int = 1) -> Table:
    return Table(load_variant(variant), seed, hands)


@contextlib.asynccontextmanager
async def served(table: Table, seats=("remote",) * 4, log_path: Path | None = None, **kw):
    """A listening :class:`NetServer` on 127.0.0.1 with its ``run()`` task."""
    writer = None
    fh = None
    if log_path is not None:
        fh = open(log_path, "w", encoding="utf-8")
        writer = LogWriter(fh, GameLog.for_table(table, seats=list(seats)))
    kw.setdefault("turn_timeout", 30.0)
    kw.setdefault("claim_timeout", 30.0)
    server = NetServer(table, list(seats), log=writer, **kw)
    await server.start("127.0.0.1", 0)
    task = asyncio.ensure_future(server.run())
    try:
        yield server, task
    finally:
        if not task.done():
            task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await server.close()
        if fh is not None:
            fh.close()


async def bots(server: NetServer, n: int = 4, **kw) -> list[NetClient]:
    out = []
    for i in range(n):
        c = NetClient("127.0.0.1", server.port, name=f"bot{i}", **kw)
        await c.connect()
        out.append(c)
    return out


async def play_all(clients, timeout: float = 60.0, **kw):
    return await asyncio.wait_for(asyncio.gather(*(play_bot(c, **kw) for c in clients)), timeout)


class RawClient:
    """A hand-made client on a blocking socket: sends any bytes, reads frames."""

    def __init__(self, port: int, timeout: float = 5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""

    def send_bytes(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, msg: dict) -> None:
        self.send_bytes(encode(msg))

    def _recv_exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self) -> dict:
        (n,) = HEADER.unpack(self._recv_exact(4))
        return msgpack.unpackb(self._recv_exact(n), raw=False, strict_map_key=False)

    def read_until(self, mtype: str, limit: int = 50) -> dict:
        for _ in range(limit):
            m = self.read()
            if m["type"] == mtype:
                return m
        raise AssertionError(f"no {mtype!r} within {limit} messages")

    def closed(self, wait: float = 2.0) -> bool:
        """True once the server has closed the connection (reads pending frames first)."""
        self.sock.settimeout(wait)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
                self.buf += chunk
        except (ConnectionError, OSError):
            return True
        except socket.timeout:
            return False

    def join(self, **fields) -> dict:
        hello = self.read()
        assert hello["type"] == "hello"
        self.send({"type": "join", "protocol": PROTOCOL_VERSION, **fields})
        return self.read()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


# ----------------------------------------------------------------------------------------
# subprocesses
# ----------------------------------------------------------------------------------------
def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e["PYTHONUNBUFFERED"] = "1"
    return e


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child before it runs: Ctrl-C (SIGINT) does what it does at a terminal, even when
    the test run itself was started where SIGINT is ignored (a background job of a
    non-interactive shell inherits SIG_IGN, and Python then installs no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_server_process(*args: str) -> tuple[subprocess.Popen, int]:
    """``python -m mahjong_tui.net serve --port 0 ARGS``; returns the process and its port
    (read from the 'serving ... on HOST:PORT' line on stderr).  The server takes Ctrl-C
    (SIGINT) as at a terminal, however the test run was started."""
    p = subprocess.Popen([sys.executable, "-m", "mahjong_tui.net", "serve", "--port", "0", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(), cwd=str(ROOT),
                         preexec_fn=_ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = p.stderr.readline()
        if not line:
            raise AssertionError(f"server exited: {p.wait()} {p.stdout.read()}")
        if " on 127.0.0.1:" in line and "serving" in line:
            port = int(line.split(" on 127.0.0.1:")[1].split()[0])
            return p, port
    raise AssertionError("server did not start")


def views_by_seq(glog, norm=lambda x: x):
    """Replay ``glog`` and collect, for every public seq, every view each seat can have at
    that seq (a seq spans the answers inside one claim window) and the events of the action
    that moved the table to it: ``({seq: [set-of-json per seat]}, {seq: events per seat})``."""
    import json

    from mahjong_tui.engine import Table, event_for

    table = Table(glog.load_variant(), glog.seed, glog.hands)
    views: dict[int, list[list]] = {}
    events: dict[int, list] = {}

    def record():
        slot = views.setdefault(table.seq, [[] for _ in range(4)])
        for s in range(4):
            slot[s].append(norm(table.view(s)))

    record()
    def apply(a):
        before = table.seq
        evs = table.apply(a)
        if table.seq != before:
            events[table.seq] = [[norm(event_for(e, s)) for e in evs] for s in range(4)]
        record()

    for a in glog.actions:
        apply(a)
        while table.forced_passes():  # the server applied them one by one (a log leaves them out)
            for f in table.forced_passes():
                apply(f)
    return views, events
