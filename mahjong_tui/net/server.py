"""The LAN table server: one authoritative :class:`~mahjong_tui.engine.Table`, run by the
:class:`~mahjong_tui.runner.TableRunner`, with remote seats over TCP (``PROTOCOL.md``).

- Every action a client sends is checked against the request it answers (``seq``), its own
  seat and ``legal_actions``; anything else gets an ``error`` and changes nothing.
- A client only ever receives ``view(seat)`` of its own seat and its own redacted events
  (:func:`~mahjong_tui.engine.event_for`): the seed, the wall and other hands stay here.
- The runner appends (and flushes) each action to the game log before any event goes out.
- A remote seat whose client is gone, or does not answer within the turn / claim timeout, is
  played by a stand-in bot until the client rejoins with its seat token (full resync).
- One bad client never disturbs the table: bad frames get an ``error`` reply, or a clean
  disconnect of that client only.
- Strangers cannot lock players out: a connection that has not sent ``join`` within
  ``hello_timeout`` seconds is closed; at most ``max_pending_per_address`` such connections
  per address and ``max_pending`` in all are kept, and a new connection is always let in by
  closing the oldest waiting one (of its own address first), so a player or a rejoining seat
  gets in during a flood of idle connections.  Wrong password answers are throttled per
  address (:class:`PasswordThrottle`).
- A journal that cannot be written (a full disk) stops the table cleanly: every player is
  told, and :attr:`NetServer.failure` says why (``serve`` prints it with the command that
  continues the match); a new seat that cannot be recorded is refused with an ``error``.

One :class:`NetServer` serves one table on one port; one process may run many (the benchmark
``tests/bench/bench_net.py`` does).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from .. import __version__
from ..ai.baseline import make_bot
from ..engine import Action, Table
from ..engine.log import LogWriter
from ..errors import IllegalAction, LogError
from ..journal import JournalClaim
from ..paths import open_private, read_regular
from ..runner import BotSeat, TableRunner
from .client import SafeBot
from .protocol import (AUTH_SCHEME, MAX_FRAME, PROTOCOL_VERSION, ProtocolError, check_proof, clean_name,
                       decode_body, encode, error, new_nonce, new_token, proof, read_frame, token_hash,
                       validate_client_message)

#: chat: a seat may send this many messages at once, then one more every CHAT_INTERVAL seconds
CHAT_BURST = 5
CHAT_INTERVAL = 2.0

MAX_WRITE_BUFFER = 1 << 20  # a client that lets this much pile up unread is disconnected
MAX_PENDING_CONNECTIONS = 64  # connections that have not joined yet, in all
MAX_PENDING_PER_ADDRESS = 8  # ... and from one address
#: the largest seat file read (four seats' token hashes and names and a password verifier
#: take well under 1 KiB)
MAX_SEAT_FILE = 64 * 1024
#: what the server says to its clients when the host closes the table before the match is over
TABLE_CLOSED = {"type": "bye", "reason": "table closed",
                "message": "The host closed the table before the match ended. It can go on later from its "
                           "journal: when it is served again, rejoin with your seat token."}


# ----------------------------------------------------------------------------------------
# seat tokens, kept beside the log so a restarted server knows who sat where
# ----------------------------------------------------------------------------------------
class SeatFile:
    """Seat token hashes and names, whether the table has a password, and the table's identity
    (``{"version": 1, "seats": {"2": {"token_sha256", "name"}}, "password": VERIFIER | null,
    "table": ID}``, the verifier of :func:`~mahjong_tui.net.protocol.password_verifier`; a file
    without the key comes from before it was kept), written atomically to ``path`` after each
    change (``None``: memory only).

    ``table`` (:attr:`table_id`) names the match for the clients: it is sent in ``hello`` and
    stays the same when the match is served again from its journal, so a client that keeps
    its seat token per table (:mod:`mahjong_tui.net.seatstore`) finds it again; a file
    without one gets a new one.

    A file there that cannot be read, or is not a regular file (a pipe, a device, a folder),
    or is larger than :data:`MAX_SEAT_FILE` raises :class:`~mahjong_tui.errors.LogError`
    saying so (it used to hang on a pipe, or read a huge file whole); one that is not a seat
    file's JSON counts as no seats yet."""

    #: ``password`` when the file does not say (an older file, or none yet)
    UNKNOWN = "unknown"

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self.seats: dict[int, dict] = {}
        self.password: dict | None | str = self.UNKNOWN
        self.table_id = new_nonce()[:16]
        if self.path is None:
            return
        try:
            raw = read_regular(self.path, MAX_SEAT_FILE, "a seat file")
        except FileNotFoundError:
            return
        except OSError as exc:
            raise LogError(f"{self.path}: cannot be read: {exc.strerror or exc} (it keeps the table's seat tokens; "
                           "move it away, or serve another --log FILE)") from None
        try:
            data = json.loads(raw.decode("utf-8"))
            self.seats = {int(k): dict(v) for k, v in data.get("seats", {}).items() if 0 <= int(k) <= 3}
            if "password" in data and (data["password"] is None or isinstance(data["password"], dict)):
                self.password = data["password"]
            tid = data.get("table")
            if isinstance(tid, str) and 0 < len(tid) <= 64 and tid.isalnum():
                self.table_id = tid
        except (ValueError, AttributeError, TypeError):
            self.seats = {}

    def save(self) -> None:
        if self.path is None:
            return
        data: dict = {"version": 1, "seats": {str(k): v for k, v in self.seats.items()}, "table": self.table_id}
        if self.password != self.UNKNOWN:
            data["password"] = self.password
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open_private(tmp, "w") as fh:  # 0600: it holds the seats' token hashes
                fh.write(json.dumps(data))
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()  # a half-written file left by a full disk
            raise


# ----------------------------------------------------------------------------------------
# wrong passwords, per address
# ----------------------------------------------------------------------------------------
class PasswordThrottle:
    """Counts wrong password answers per address and says how long answers from an address
    are refused unchecked (a lockout that doubles).

    The first ``free`` wrong answers from an address are answered at once; each further one
    refuses the address's answers for ``delay`` seconds, then 2×, 4× ... up to ``max_delay``.
    An address with no wrong answer for ``forget`` seconds, or one that answers right, starts
    afresh.  Only wrong answers count: joins with the right password, rejoins and pings never
    slow anyone.  ``clock()`` gives seconds (default :func:`time.monotonic`).
    """

    def __init__(self, free: int = 5, delay: float = 1.0, max_delay: float = 60.0, forget: float = 900.0,
                 clock: Callable[[], float] = time.monotonic):
        self.free = free
        self.delay = delay
        self.max_delay = max_delay
        self.forget = forget
        self.clock = clock
        self._by_address: dict[str, list[float]] = {}  # address -> [wrong answers, refused until, last wrong]

    def _stale(self, rec: list[float], now: float) -> bool:
        return now - rec[2] > self.forget and now >= rec[1]

    def wait(self, address: str) -> float:
        """Seconds until an answer from ``address`` is checked again (0: now)."""
        rec = self._by_address.get(address)
        return 0.0 if rec is None else max(0.0, rec[1] - self.clock())

    def failed(self, address: str) -> tuple[int, float]:
        """Record a wrong answer from ``address``; returns (wrong answers so far, seconds its
        answers are now refused; 0 while within ``free``)."""
        now = self.clock()
        rec = self._by_address.get(address)
        if rec is not None and self._stale(rec, now):
            rec = None
        if rec is None:
            if len(self._by_address) >= 4096:  # many addresses: drop the stale ones
                for a in [a for a, r in self._by_address.items() if self._stale(r, now)]:
                    del self._by_address[a]
            rec = self._by_address[address] = [0, now, now]
        rec[0] += 1
        rec[2] = now
        n = int(rec[0])
        lock = 0.0 if n <= self.free else min(self.max_delay, self.delay * 2 ** min(n - self.free - 1, 60))
        rec[1] = now + lock
        return n, lock

    def succeeded(self, address: str) -> int:
        """A right answer from ``address``: forget its wrong ones; returns how many there were."""
        rec = self._by_address.pop(address, None)
        return 0 if rec is None else int(rec[0])


# ----------------------------------------------------------------------------------------
# a remote seat
# ----------------------------------------------------------------------------------------
@dataclass(eq=False)
class Pending:
    """A decision the table waits for from a remote seat."""

    seq: int
    view: dict
    legal: list[Action]
    future: asyncio.Future
    timeout: float | None
    deadline: float | None = None


class RemoteSeat:
    """A seat played over the network (a TableRunner seat).

    ``decide`` sends a ``request`` to the client and waits for its ``action`` (validated by the
    server before it gets here) for the turn or claim timeout.  The clock starts when the
    request is first sent and is not restarted by a rejoin (a re-sent request carries the
    seconds left).  When it runs out, the client is sent a fatal ``timeout`` error and the
    stand-in bot plays that decision at once.  With no client, the stand-in decides after
    ``standin_delay`` seconds, during which a rejoining client may still answer.
    """

    def __init__(self, server: "NetServer", index: int, standin, reserved: bool = False):
        self.server = server
        self.index = index
        self.standin = standin
        self.reserved = reserved  # a host's local seat: only its token may take it
        self.conn: Connection | None = None
        self.name: str | None = None
        self.pending: Pending | None = None
        self._changed: asyncio.Future | None = None
        self.chat_allowance = float(server.chat_burst)  # chat messages it may send now (a token bucket)
        self.chat_checked = time.monotonic()

    # -- runner seat API --------------------------------------------------------------------
    async def decide(self, view: dict, legal: list[Action]) -> Action:
        srv = self.server
        loop = asyncio.get_running_loop()
        timeout = srv.claim_timeout if view.get("phase") in ("claim", "rob") else srv.turn_timeout
        p = Pending(view["seq"], view, legal, loop.create_future(), timeout)
        self.pending = p
        try:
            if self.conn is not None:
                self._send_request(self.conn)
            while True:
                if p.future.done():
                    return p.future.result()
                conn = self.conn
                if conn is not None:
                    if p.deadline is not None and loop.time() >= p.deadline:
                        # the time is up: the stand-in plays THIS decision now, whether or not
                        # the client comes back (a client that rejoined at once used to get the
                        # request again with a fresh clock, and an idle player stalled the table)
                        srv.note(f"seat {self.index + 1}: no answer within {p.timeout:g} s; a bot played "
                                 "that decision")
                        conn.close_with(error("timeout", f"no answer within {p.timeout:g} s: a bot played that "
                                              "decision for you; rejoin with your seat token to play on", fatal=True))
                        return self.standin.choose(view, legal)
                    await self._wait(p, None if p.deadline is None else p.deadline - loop.time())
                else:
                    if srv.standin_delay > 0:
                        await self._wait(p, srv.standin_delay)
                        if p.future.done() or self.conn is not None:
                            continue
                    return self.standin.choose(view, legal)
        finally:
            self.pending = None

    def notify(self, events: list[dict]) -> None:
        if self.conn is not None and events:
            t = self.server.table
            self.conn.send({"type": "update", "seq": t.seq, "events": events, "view": t.view(self.index)})

    # -- helpers ------------------------------------------------------------------------------
    async def _wait(self, p: Pending, timeout: float | None) -> None:
        ch = self._changed = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait([p.future, ch], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._changed = None

    def _poke(self) -> None:
        if self._changed is not None and not self._changed.done():
            self._changed.set_result(None)

    def _send_request(self, conn: "Connection") -> None:
        p = self.pending
        if p is None:
            return
        now = asyncio.get_running_loop().time()
        if p.deadline is None and p.timeout is not None:
            p.deadline = now + p.timeout  # set once: rejoining does not restart the clock
        left = None if p.deadline is None else round(max(0.0, p.deadline - now), 3)
        conn.send({"type": "request", "seq": p.seq, "view": p.view, "legal": [a.to_dict() for a in p.legal],
                   "timeout": left})
        if p.deadline is not None and p.view.get("phase") == "turn":
            # the turn clock is public (whose turn it is is): the others see it run down.  Never
            # for a claim or robbing window: who is asked there must stay unknown
            self.server.turn_clock = (self.index, p.seq, p.deadline)
            self.server.send_clock(skip=self.index)

    def chat_allowed(self) -> float:
        """0 if this seat may send a chat message now (one is counted), else the seconds
        until it may (:data:`CHAT_BURST` at once, then one every :data:`CHAT_INTERVAL`)."""
        srv = self.server
        now = time.monotonic()
        self.chat_allowance = min(float(srv.chat_burst),
                                  self.chat_allowance + (now - self.chat_checked) / srv.chat_interval)
        self.chat_checked = now
        if self.chat_allowance >= 1.0:
            self.chat_allowance -= 1.0
            return 0.0
        return (1.0 - self.chat_allowance) * srv.chat_interval

    def attach(self, conn: "Connection") -> None:
        old = self.conn
        self.conn = conn
        if old is not None and old is not conn:
            old.seat = None
            old.close_with(error("replaced", "another connection joined with this seat's token", fatal=True))
        t = self.server.table
        conn.send({"type": "state", "seq": t.seq, "view": t.view(self.index)})
        self._send_request(conn)
        self.server.send_clock(only=self)
        self._poke()

    def detach(self, conn: "Connection") -> None:
        if self.conn is conn:
            self.conn = None
            self._poke()

    def answer(self, conn: "Connection", msg: dict) -> None:
        """A client's ``action`` message: accept it for the pending decision or raise
        :class:`ProtocolError` (state unchanged)."""
        t = self.server.table
        p = self.pending
        if p is None or p.future.done():
            raise ProtocolError("no_request", f"seat {self.index} has no decision to make now (table at seq "
                                f"{t.seq}); wait for a 'request'")
        if msg["seq"] != p.seq:
            raise ProtocolError("stale", f"this action answers seq {msg['seq']} but the pending request is seq "
                                f"{p.seq}; answer the latest request")
        try:
            action = Action.from_dict(msg["action"])
        except IllegalAction as exc:
            raise ProtocolError("bad_action", f"{exc}") from None
        if action.seat != self.index:
            raise ProtocolError("not_your_seat", f"you sit at seat {self.index} and cannot act for seat {action.seat}")
        if action not in p.legal:
            raise ProtocolError("illegal", f"{action.describe()} is not allowed now; allowed: "
                                + ", ".join(a.describe() for a in p.legal))
        p.future.set_result(action)
        conn.send({"type": "accepted", "seq": p.seq, "action": action.to_dict()})

    def status(self) -> dict:
        return {"seat": self.index, "kind": "remote", "name": self.name, "connected": self.conn is not None,
                "standin": self.server.started and self.conn is None}


# ----------------------------------------------------------------------------------------
# one client connection
# ----------------------------------------------------------------------------------------
class Connection:
    def __init__(self, server: "NetServer", reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.seat: RemoteSeat | None = None
        self.closed = False
        peer = writer.get_extra_info("peername")
        self.host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def send(self, msg: dict) -> None:
        if self.closed:
            return
        try:
            data = encode(msg, self.server.max_frame)
        except ValueError as exc:  # never a peer's fault: error messages are cut to fit (protocol.clip)
            self.server.note(f"{self.peer}: {exc}; connection dropped")
            self.abort()
            return
        try:
            self.writer.write(data)
        except (ConnectionError, RuntimeError):
            self.abort()
            return
        if self.writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.server.note(f"{self.peer}: does not read what it is sent; disconnected")
            self.abort()

    def close_with(self, msg: dict | None = None) -> None:
        """Send ``msg`` (if any), then close after the buffer is written; leaves the seat."""
        if self.closed:
            return
        if msg is not None:
            self.send(msg)
        self.server._unwait(self)
        self.closed = True
        try:
            self.writer.close()
        except Exception:  # pragma: no cover - already broken
            pass
        self._leave()

    def abort(self) -> None:
        self.server._unwait(self)
        if not self.closed:
            self.closed = True
            self.writer.transport.abort()
        self._leave()

    def _leave(self) -> None:
        seat, self.seat = self.seat, None
        if seat is not None and seat.conn is self:
            seat.detach(self)
            srv = self.server
            if srv.over:
                return
            srv.note(f"seat {seat.index + 1} ({seat.name}) left" + ("; a bot stands in" if srv.started else ""))
            srv.broadcast_seats()

    async def run(self) -> None:
        srv = self.server
        loop = asyncio.get_running_loop()
        self.nonce = new_nonce()
        joined = False
        try:
            self.send(srv.hello(self.nonce))
            deadline = loop.time() + srv.hello_timeout
            while not self.closed:
                try:
                    if self.seat is None and not joined:
                        left = deadline - loop.time()
                        if left <= 0:
                            raise ProtocolError("hello_timeout", f"no 'join' within {srv.hello_timeout:g} s", fatal=True)
                        body = await asyncio.wait_for(read_frame(self.reader, max_frame=srv.max_frame,
                                                                 body_timeout=srv.body_timeout), left)
                    else:
                        body = await read_frame(self.reader, max_frame=srv.max_frame, body_timeout=srv.body_timeout)
                    msg = validate_client_message(decode_body(body, from_client=True, max_frame=srv.max_frame))
                    if msg["type"] == "join" and not joined:
                        self._join(msg)
                        joined = True
                        srv._unwait(self)
                    else:
                        self._dispatch(msg)
                except ProtocolError as exc:
                    if exc.fatal:
                        self.close_with(exc.frame())
                        return
                    self.send(exc.frame())
                except asyncio.TimeoutError:
                    self.close_with(error("hello_timeout", f"no 'join' within {srv.hello_timeout:g} s", True))
                    return
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            return
        finally:
            self.abort()

    def _dispatch(self, msg: dict) -> None:
        t = msg["type"]
        if t == "ping":
            self.send({"type": "pong", "id": msg.get("id")})
        elif t == "chat":
            if self.seat is None:
                raise ProtocolError("not_joined", "send 'join' first: only a player at the table may chat")
            wait = self.seat.chat_allowed()
            if wait > 0:
                secs = math.ceil(round(wait * 10, 6)) / 10
                raise ProtocolError("rate_limited", f"too many chat messages: at most {self.server.chat_burst} at "
                                    f"once, then one every {self.server.chat_interval:g} s; this one was not sent "
                                    f"(try again in {secs:g} s)", retry_after=secs)
            self.server.broadcast_chat(self.seat, msg["text"])
        elif t == "bye":
            self.close_with({"type": "bye", "reason": "goodbye"})
        elif t == "join":
            raise ProtocolError("already_joined", "this connection has already joined; a seat token is used on a "
                                "new connection")
        elif self.seat is None:
            raise ProtocolError("not_joined", "send 'join' first (the connection has no seat)")
        else:  # action
            self.seat.answer(self, msg)

    def _check_password(self, cnonce: str | None, given: str | None) -> None:
        """A fatal :class:`ProtocolError` unless this join proves the table password:
        ``throttled`` (unchecked) while this address is refused after wrong answers, ``auth``
        for a wrong or missing proof.  Logs the first wrong answer of an address and the start
        of its throttling, not each one."""
        srv = self.server
        throttle = srv.throttle
        wait = throttle.wait(self.host)
        if wait > 0:
            secs = math.ceil(round(wait * 10, 6)) / 10  # tenths, up (0.2000000001 is 0.2)
            raise ProtocolError("throttled", f"too many wrong table passwords from your address ({self.host}): its "
                                f"answers are refused, unchecked, for {secs:g} s more; try again then",
                                fatal=True, retry_after=secs)
        if not cnonce or not check_proof(srv.password, "client", self.nonce, cnonce, given):
            n, lock = throttle.failed(self.host)
            if n == 1:
                srv.note(f"{self.peer}: wrong table password")
            elif lock and n == throttle.free + 1:
                srv.note(f"{self.host}: {n} wrong table passwords: its answers are refused for {lock:g} s, twice as "
                         "long after each further wrong one (not logged one by one)")
            raise ProtocolError("auth", "wrong table password (or none given); ask the host for it", fatal=True)
        wrong = throttle.succeeded(self.host)
        if wrong > throttle.free:
            srv.note(f"{self.host}: the table password was right after {wrong} wrong ones")

    def _join(self, msg: dict) -> None:
        srv = self.server
        cnonce = msg.get("cnonce")
        if srv.password is not None:
            self._check_password(cnonce, msg.get("proof"))
        seat = srv.assign_seat(msg.get("token"), msg.get("seat"))
        token = msg.get("token")
        name = clean_name(msg.get("name") or "") or seat.name or f"Player {seat.index + 1}"
        records = srv.seat_file.seats
        if token is None:  # a new seat: its token must be on disk before it is given out
            token = new_token()
            records[seat.index] = {"token_sha256": token_hash(token), "name": name}
            try:
                srv.seat_file.save()
            except OSError as exc:
                del records[seat.index]
                why = exc.strerror or str(exc)
                srv.note(f"{self.peer}: refused a new player: cannot write {srv.seat_file.path} ({why})")
                raise ProtocolError("unavailable", f"the table cannot record a new seat: its seat file cannot be "
                                    f"written ({why}); tell the host", fatal=True) from None
        elif records[seat.index].get("name") != name:  # a rejoin: only the name may change
            records[seat.index]["name"] = name
            try:
                srv.seat_file.save()
            except OSError as exc:  # the seat's token is on disk already: the rejoin goes on
                srv.note(f"seat {seat.index + 1}: cannot write {srv.seat_file.path} ({exc.strerror or exc}); "
                         "its new name is not kept there")
        seat.name = name
        srv.tokens[seat.index] = token
        welcome = {"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": seat.index, "token": token,
                   "table": srv.seat_file.table_id,
                   "name": name, "variant": srv.table.variant.id, "rules_hash": srv.table.variant.rules_hash,
                   "options": dict(srv.table.variant.applied_options)}
        if srv.password is not None:
            welcome["proof"] = proof(srv.password, "server", self.nonce, cnonce)
        self.send(welcome)
        self.seat = seat
        seat.attach(self)
        srv.note(f"seat {seat.index + 1} ({name}) joined from {self.peer}")
        srv.broadcast_seats()
        srv.check_full()


# ----------------------------------------------------------------------------------------
# the server
# ----------------------------------------------------------------------------------------
class NetServer:
    """Serves ``table`` to remote seats.

    - ``seats``: four seat strings: ``remote`` (any client may take it), ``human`` (reserved
      for a token from :meth:`reserve`; the host's own player), ``ai`` / ``ai:LEVEL``
      (server-side bot);
    - ``log``: a :class:`LogWriter` (appended and flushed before every broadcast), or None;
    - ``journal``: a :class:`~mahjong_tui.journal.JournalClaim` (instead of ``log``): the
      journal file, locked but not yet written; :meth:`start` writes it (``journal.log``) only
      once the port is bound, and :meth:`close` releases it (a server that could not start
      leaves the file as it was);
    - ``password``: table password (challenge–response; never sent), or None;
    - ``turn_timeout`` / ``claim_timeout``: seconds a client has to answer (None: no limit);
    - ``bot_delay``: pause of server-side bots; ``standin_delay``: how long a stand-in waits
      for a rejoin before playing a disconnected seat's decision (default ``bot_delay``);
    - ``standin``: bot level spec for stand-ins (``ai``, ``ai:LEVEL``);
    - ``start_after``: seconds after :meth:`run` starts when play begins even if remote seats
      are still empty (stand-ins play them); None waits for every remote seat;
    - ``seat_file``: path of the seat-token file (kept beside the log) or None;
    - ``on_hand_end(summary)``, ``on_note(text)``, ``on_action(action)``: hooks;
    - ``hello_timeout``: seconds a connection has to send ``join``; ``body_timeout``: seconds
      a frame's body has after its length; ``max_frame``: bytes;
    - ``max_pending`` / ``max_pending_per_address``: connections kept that have not joined
      yet, in all / from one address (a new one closes the oldest waiting one; see the
      module docstring);
    - ``throttle``: the :class:`PasswordThrottle` of wrong password answers (default: 5
      free, then refused for 1 s, doubling up to 60 s);
    - ``chat_burst`` / ``chat_interval``: a seat may send ``chat_burst`` chat messages at once,
      then one every ``chat_interval`` seconds (a token bucket; more get ``rate_limited``).

    After :meth:`run`, :attr:`failure` is None, or why the table stopped before the match
    was over (the journal could not be written).
    """

    def __init__(self, table: Table, seats: Sequence[str], *, log: LogWriter | None = None,
                 password: str | None = None, turn_timeout: float | None = 60.0,
                 claim_timeout: float | None = 20.0, bot_delay: float = 0.0, standin_delay: float | None = None,
                 standin: str = "ai", start_after: float | None = None, seat_file: str | Path | None = None,
                 on_hand_end: Callable[[dict], None] | None = None, on_note: Callable[[str], None] | None = None,
                 on_action: Callable[[Action], None] | None = None, hello_timeout: float = 5.0,
                 body_timeout: float = 10.0, max_frame: int = MAX_FRAME, journal: JournalClaim | None = None,
                 max_pending: int = MAX_PENDING_CONNECTIONS, max_pending_per_address: int = MAX_PENDING_PER_ADDRESS,
                 throttle: PasswordThrottle | None = None, chat_burst: int = CHAT_BURST,
                 chat_interval: float = CHAT_INTERVAL):
        if len(seats) != 4:
            raise ValueError("a table has four seats")
        self.table = table
        self.journal = journal
        self.seat_specs = list(seats)
        self.password = password or None
        self.turn_timeout = turn_timeout
        self.claim_timeout = claim_timeout
        self.bot_delay = bot_delay
        self.standin_delay = bot_delay if standin_delay is None else standin_delay
        self.start_after = start_after
        self.hello_timeout = hello_timeout
        self.body_timeout = body_timeout
        self.max_frame = max_frame
        self.max_pending = max(1, max_pending)
        self.max_pending_per_address = max(1, max_pending_per_address)
        self.throttle = throttle if throttle is not None else PasswordThrottle()
        self.chat_burst = max(1, chat_burst)
        self.chat_interval = chat_interval
        self._chat_id = 0
        #: (seat, seq, deadline) of the turn a remote seat is being timed on, else None
        self.turn_clock: tuple[int, int, float] | None = None
        #: the seat tokens given out by this run (the seat file keeps only their hashes): the
        #: host's table screen shows a seat's rejoin command with it
        self.tokens: dict[int, str] = {}
        self.failure: str | None = None
        self.on_hand_end = on_hand_end
        self.on_note = on_note
        self.seat_file = SeatFile(seat_file)
        self.started = False
        self.over = False  # the match is over and clients are being sent away
        self.waiting: dict[str, list[Connection]] = {}  # connections not yet joined, by address, oldest first
        self._crowded: set[str] = set()  # addresses whose waiting connections were cut (noted once a burst)
        self.conns: set[Connection] = set()
        self._handlers: set[asyncio.Task] = set()
        self._server: asyncio.AbstractServer | None = None
        self._full = asyncio.Event()
        self.address: tuple[str, int] | None = None
        v = table.variant
        players: list[object] = []
        self.remote: dict[int, RemoteSeat] = {}
        for i, spec in enumerate(self.seat_specs):
            kind = spec.split(":", 1)[0]
            if kind in ("remote", "human"):
                bot = SafeBot(make_bot(standin, v, i, table.seed), on_error=self.note)
                rs = RemoteSeat(self, i, bot, reserved=kind == "human")
                saved = self.seat_file.seats.get(i)
                if saved:
                    rs.name = saved.get("name")
                self.remote[i] = rs
                players.append(rs)
            elif kind == "ai":
                players.append(BotSeat(SafeBot(make_bot(spec, v, i, table.seed), on_error=self.note), bot_delay))
            else:
                raise ValueError(f"seat {spec!r}: a seat is remote, human, ai or ai:LEVEL")
        self.runner = TableRunner(table, players, log=log, on_events=self._on_events, on_action=on_action)

    # -- listening ----------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        """Listen on ``host:port`` (port 0: any free port); returns the address bound.  Then,
        and only then, the claimed journal is written (see ``journal``).  Raises ``OSError``
        (the port) or :class:`~mahjong_tui.errors.LogError` (the journal); either way the
        journal is released untouched."""
        try:
            self._server = await asyncio.start_server(self._handle, host, port, limit=self.max_frame + 16)
        except BaseException:
            if self.journal is not None:
                self.journal.release()
            raise
        if self.journal is not None and self.journal.writer is None:
            try:
                self.runner.log = self.journal.open()
                self.seat_file.save()  # with the table's password verifier: a resume asks for it
            except OSError as exc:
                self._server.close()
                self._server = None
                self.journal.release()
                raise LogError(f"cannot write the journal {self.journal.path}: {exc.strerror or exc}") from None
        sock = self._server.sockets[0].getsockname()
        self.address = (sock[0], sock[1])
        self.check_full()
        return self.address

    @property
    def port(self) -> int:
        assert self.address is not None, "start() first"
        return self.address[1]

    async def run(self) -> Table:
        """Wait for the table to fill (or ``start_after``), play the match to its end, say goodbye
        to every client and stop listening.  Returns the table."""
        try:
            if self.table.phase != "match_over":
                if self.start_after is None:
                    await self._full.wait()
                else:
                    try:
                        await asyncio.wait_for(self._full.wait(), self.start_after)
                    except asyncio.TimeoutError:
                        self.note("starting with bots standing in for empty seats")
                self.started = True
                self.broadcast_seats()
                try:
                    await self.runner.run()
                except OSError as exc:  # the journal (a full disk, a folder gone)
                    self._journal_failed(exc)
            if self.failure is None:
                self.over = True
                for c in list(self.conns):
                    c.close_with({"type": "bye", "reason": "match over", "scores": list(self.table.scores)})
            await asyncio.sleep(0)
        finally:
            await self.close()
        return self.table

    def _journal_failed(self, exc: OSError) -> None:
        """The journal could not be written: stop the table, tell every player why and that the
        match goes on from the journal later; :attr:`failure` says what failed."""
        why = exc.strerror or str(exc)
        where = self.journal.path if self.journal is not None else "the game log"
        self.failure = f"cannot write the journal {where} ({why})"
        self.note(f"{self.failure}: the table stops; the journal keeps the match up to its last whole move")
        self.runner.stop()
        self.over = True
        bye = {"type": "bye", "reason": "table closed",
               "message": f"The host's journal cannot be written ({why}), so the table stopped. The match is kept "
                          "up to its last move: when the host serves it again, rejoin with your seat token."}
        for c in list(self.conns):
            c.close_with(bye if c.seat is not None else None)

    async def close(self, goodbye: bool = True) -> None:
        """Stop listening and send every client away (the log is already complete).  Before
        the match is over each joined client is told so first: ``bye`` with reason ``table
        closed`` (the match goes on later from the journal; rejoin with the seat token).
        ``goodbye=False``: drop the connections without a word, as a crashed server would
        (tests of the clients' reconnecting)."""
        self.runner.stop()
        if self._server is not None:
            self._server.close()
        unfinished = goodbye and self.table.phase != "match_over"
        self.over = True
        for c in list(self.conns):
            c.close_with(TABLE_CLOSED if unfinished and c.seat is not None else None)
        if self.journal is not None:
            self.runner.log = None
            self.journal.release()  # unlocked: the match can be resumed from it
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=1.0)
        for t in list(self._handlers):
            t.cancel()
        if self._server is not None:
            try:
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
            except (asyncio.TimeoutError, Exception):  # pragma: no cover - best effort
                pass
            self._server = None

    # -- connections that have not joined yet -------------------------------------------------
    @property
    def pending_conns(self) -> int:
        """Connections that have not joined yet."""
        return sum(len(v) for v in self.waiting.values())

    def _admit(self, conn: Connection) -> None:
        """Count ``conn`` among the connections waiting to join; first close the oldest waiting
        one of its address when that address has ``max_pending_per_address``, else the oldest
        of the most crowded address when ``max_pending`` wait in all.  A newcomer is never
        turned away: a flood of idle connections only pushes out its own oldest ones, while a
        player (or a seat's rejoin) that joins at once gets in."""
        mine = self.waiting.setdefault(conn.host, [])
        if len(mine) >= self.max_pending_per_address:
            victim = mine[0]
            why = (f"too many connections from your address ({conn.host}) are waiting to join this table (at most "
                   f"{self.max_pending_per_address}): the oldest, this one, is closed; connect again and join at once")
        elif self.pending_conns >= self.max_pending:
            victim = max(self.waiting.values(), key=len)[0]
            why = (f"too many connections are waiting to join this table (at most {self.max_pending}): the oldest "
                   "of the busiest address, this one, is closed; connect again and join at once")
        else:
            victim = None
        if victim is not None:
            if victim.host not in self._crowded:
                self._crowded.add(victim.host)
                self.note(f"{victim.host}: too many connections waiting to join; the oldest are closed "
                          "(noted once until they are gone)")
            victim.close_with(error("busy", why, True))  # may empty (and drop) its address's list
        self.waiting.setdefault(conn.host, []).append(conn)

    def _unwait(self, conn: Connection) -> None:
        """``conn`` joined or closed: it waits no more."""
        mine = self.waiting.get(conn.host)
        if mine is not None and conn in mine:
            mine.remove(conn)
            if not mine:
                del self.waiting[conn.host]
                self._crowded.discard(conn.host)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(self, reader, writer)
        self._admit(conn)
        self.conns.add(conn)
        task = asyncio.current_task()
        self._handlers.add(task)
        try:
            await conn.run()
        except asyncio.CancelledError:  # server shutting down: this connection is done
            conn.abort()
        except Exception as exc:  # never let one connection take the server down
            self.note(f"{conn.peer}: internal error {type(exc).__name__}: {exc}; connection dropped")
            conn.abort()
        finally:
            self.conns.discard(conn)
            self._handlers.discard(task)

    # -- seats --------------------------------------------------------------------------------
    def reserve(self, seat: int) -> str:
        """A token for ``seat`` (a ``human`` seat: the host's own player joins with it)."""
        rs = self.remote[seat]
        token = new_token()
        self.seat_file.seats[seat] = {"token_sha256": token_hash(token), "name": rs.name}
        self.seat_file.save()
        self.tokens[seat] = token
        return token

    def reissue(self, seat: int) -> str:
        """A new token for remote ``seat``, for a player who lost the old one (the host's table
        screen offers it): the old token no longer works, a connection that holds the seat
        keeps it.  Raises ValueError for a seat that is not remote or not taken yet, OSError
        when the seat file cannot be written (nothing changed then)."""
        rec = self.seat_file.seats.get(seat)
        if seat not in self.remote or self.remote[seat].reserved or rec is None:
            raise ValueError(f"seat {seat + 1} is not a taken remote seat")
        token = new_token()
        old = dict(rec)
        rec["token_sha256"] = token_hash(token)
        try:
            self.seat_file.save()
        except OSError:
            self.seat_file.seats[seat] = old
            raise
        self.tokens[seat] = token
        self.note(f"seat {seat + 1}: a new seat token was issued; the old one no longer works")
        return token

    # -- chat and the turn clock ----------------------------------------------------------------
    def broadcast_chat(self, seat: RemoteSeat, text: str) -> None:
        """Send seat ``seat``'s chat message ``text`` (already checked and cleaned) to every
        joined connection, its own too.  It changes nothing at the table."""
        self._chat_id += 1
        msg = {"type": "chat", "id": self._chat_id, "seat": seat.index,
               "name": seat.name or f"Player {seat.index + 1}", "text": text}
        for rs in self.remote.values():
            if rs.conn is not None:
                rs.conn.send(msg)

    def send_clock(self, *, skip: int | None = None, only: RemoteSeat | None = None) -> None:
        """Tell the other joined seats (or ``only`` that one) how long the seat whose turn it
        is has left: ``{"type": "clock", "seat", "seq", "seconds"}``, while that turn's
        request is pending."""
        clock = self.turn_clock
        if clock is None:
            return
        seat, seq, deadline = clock
        rs = self.remote.get(seat)
        if rs is None or rs.pending is None or rs.pending.seq != seq:
            self.turn_clock = None
            return
        left = round(max(0.0, deadline - asyncio.get_running_loop().time()), 3)
        msg = {"type": "clock", "seat": seat, "seq": seq, "seconds": left}
        for other in ([only] if only is not None else self.remote.values()):
            if other.index != seat and other.index != skip and other.conn is not None:
                other.conn.send(msg)

    def assign_seat(self, token: str | None, wanted: int | None) -> RemoteSeat:
        """The seat a ``join`` gets, or a fatal :class:`ProtocolError` (``bad_token``,
        ``table_full``, ``seat_taken``)."""
        if token is not None:
            h = token_hash(token)
            for i, rec in self.seat_file.seats.items():
                if secrets.compare_digest(rec.get("token_sha256", ""), h) and i in self.remote:
                    return self.remote[i]
            raise ProtocolError("bad_token", "this seat token is not one of this table's; join without a token "
                                "to take a free seat", fatal=True)
        free = [rs for i, rs in sorted(self.remote.items()) if not rs.reserved and i not in self.seat_file.seats]
        if wanted is not None:
            if wanted not in self.remote:
                raise ProtocolError("seat_taken", f"seat {wanted} is not a remote seat; free seats: "
                                    f"{[rs.index for rs in free] or 'none'}", fatal=True)
            if all(rs.index != wanted for rs in free):
                raise ProtocolError("seat_taken", f"seat {wanted} is taken; free seats: "
                                    f"{[rs.index for rs in free] or 'none'}", fatal=True)
            return self.remote[wanted]
        if not free:
            raise ProtocolError("table_full", "every seat at this table is taken; a player who left rejoins with "
                                "their seat token", fatal=True)
        return free[0]

    def seats_status(self) -> list[dict]:
        out = []
        for i, spec in enumerate(self.seat_specs):
            if i in self.remote:
                out.append(self.remote[i].status())
            else:
                level = spec.split(":", 1)[1] if ":" in spec else "normal"
                out.append({"seat": i, "kind": "ai", "name": f"AI ({level})", "connected": True, "standin": False})
        return out

    def broadcast_seats(self) -> None:
        msg = {"type": "seats", "started": self.started, "seats": self.seats_status()}
        for rs in self.remote.values():
            if rs.conn is not None:
                rs.conn.send(msg)

    def check_full(self) -> None:
        if all(rs.conn is not None for rs in self.remote.values()):
            self._full.set()

    def hello(self, nonce: str) -> dict:
        v = self.table.variant
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "server": f"mahjong-tui {__version__}",
                "table": self.seat_file.table_id,
                "timeouts": {"turn": self.turn_timeout, "claim": self.claim_timeout},
                "variant": v.id, "rules_hash": v.rules_hash, "options": dict(v.applied_options),
                "auth": AUTH_SCHEME if self.password else None,
                "nonce": nonce, "max_frame": self.max_frame,
                # who sits where is shown before joining only at a table without a password
                "seats": None if self.password else self.seats_status()}

    # -- hooks --------------------------------------------------------------------------------
    def note(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)

    def _on_events(self, seat: int, events: list[dict]) -> None:
        if seat == 0 and self.on_hand_end is not None:
            for e in events:
                if e.get("type") == "hand_end":
                    self.on_hand_end(e)


def stderr_note(text: str) -> None:
    print(f"mahjong-tui: {text}", file=sys.stderr, flush=True)
