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

One :class:`NetServer` serves one table on one port; one process may run many (the benchmark
``tests/bench/bench_net.py`` does).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from .. import __version__
from ..ai.baseline import make_bot
from ..engine import Action, Table
from ..engine.log import LogWriter
from ..errors import IllegalAction, LogError
from ..journal import JournalClaim
from ..paths import open_private
from ..runner import BotSeat, TableRunner
from .client import SafeBot
from .protocol import (AUTH_SCHEME, MAX_FRAME, PROTOCOL_VERSION, ProtocolError, check_proof, clean_name,
                       decode_body, encode, error, new_nonce, proof, read_frame, token_hash,
                       validate_client_message)

MAX_WRITE_BUFFER = 1 << 20  # a client that lets this much pile up unread is disconnected
MAX_PENDING_CONNECTIONS = 64  # connections that have not joined yet
#: what the server says to its clients when the host closes the table before the match is over
TABLE_CLOSED = {"type": "bye", "reason": "table closed",
                "message": "The host closed the table before the match ended. It can go on later from its "
                           "journal: when it is served again, rejoin with your seat token."}


# ----------------------------------------------------------------------------------------
# seat tokens, kept beside the log so a restarted server knows who sat where
# ----------------------------------------------------------------------------------------
class SeatFile:
    """Seat token hashes and names, and whether the table has a password
    (``{"version": 1, "seats": {"2": {"token_sha256", "name"}}, "password": VERIFIER | null}``,
    the verifier of :func:`~mahjong_tui.net.protocol.password_verifier`; a file without the
    key comes from before it was kept), written atomically to ``path`` after each change
    (``None``: memory only)."""

    #: ``password`` when the file does not say (an older file, or none yet)
    UNKNOWN = "unknown"

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self.seats: dict[int, dict] = {}
        self.password: dict | None | str = self.UNKNOWN
        if self.path and self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                self.seats = {int(k): dict(v) for k, v in data.get("seats", {}).items() if 0 <= int(k) <= 3}
                if "password" in data and (data["password"] is None or isinstance(data["password"], dict)):
                    self.password = data["password"]
            except (OSError, ValueError, AttributeError, TypeError):
                self.seats = {}

    def save(self) -> None:
        if self.path is None:
            return
        data: dict = {"version": 1, "seats": {str(k): v for k, v in self.seats.items()}}
        if self.password != self.UNKNOWN:
            data["password"] = self.password
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open_private(tmp, "w") as fh:  # 0600: it holds the seats' token hashes
            fh.write(json.dumps(data))
        os.replace(tmp, self.path)


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

    def attach(self, conn: "Connection") -> None:
        old = self.conn
        self.conn = conn
        if old is not None and old is not conn:
            old.seat = None
            old.close_with(error("replaced", "another connection joined with this seat's token", fatal=True))
        t = self.server.table
        conn.send({"type": "state", "seq": t.seq, "view": t.view(self.index)})
        self._send_request(conn)
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
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def send(self, msg: dict) -> None:
        if self.closed:
            return
        try:
            self.writer.write(encode(msg, self.server.max_frame))
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
        self.closed = True
        try:
            self.writer.close()
        except Exception:  # pragma: no cover - already broken
            pass
        self._leave()

    def abort(self) -> None:
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
        srv.pending_conns += 1
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
                        srv.pending_conns -= 1
                    else:
                        self._dispatch(msg)
                except ProtocolError as exc:
                    if exc.fatal:
                        self.close_with(error(exc.code, exc.message, True))
                        return
                    self.send(error(exc.code, exc.message, False))
                except asyncio.TimeoutError:
                    self.close_with(error("hello_timeout", f"no 'join' within {srv.hello_timeout:g} s", True))
                    return
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            return
        finally:
            if not joined:
                srv.pending_conns -= 1
            self.abort()

    def _dispatch(self, msg: dict) -> None:
        t = msg["type"]
        if t == "ping":
            self.send({"type": "pong", "id": msg.get("id")})
        elif t == "bye":
            self.close_with({"type": "bye", "reason": "goodbye"})
        elif t == "join":
            raise ProtocolError("already_joined", "this connection has already joined; a seat token is used on a "
                                "new connection")
        elif self.seat is None:
            raise ProtocolError("not_joined", "send 'join' first (the connection has no seat)")
        else:  # action
            self.seat.answer(self, msg)

    def _join(self, msg: dict) -> None:
        srv = self.server
        cnonce = msg.get("cnonce")
        if srv.password is not None:
            if not cnonce or not check_proof(srv.password, "client", self.nonce, cnonce, msg.get("proof")):
                srv.note(f"{self.peer}: wrong table password")
                raise ProtocolError("auth", "wrong table password (or none given); ask the host for it", fatal=True)
        seat = srv.assign_seat(msg.get("token"), msg.get("seat"))
        token = msg.get("token")
        if token is None:
            token = secrets.token_urlsafe(18)
            srv.seat_file.seats[seat.index] = {"token_sha256": token_hash(token), "name": None}
        name = clean_name(msg.get("name") or "") or seat.name or f"Player {seat.index + 1}"
        seat.name = name
        srv.seat_file.seats[seat.index]["name"] = name
        srv.seat_file.save()
        welcome = {"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": seat.index, "token": token,
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
    - ``on_hand_end(summary)``, ``on_note(text)``, ``on_action(action)``: hooks.
    """

    def __init__(self, table: Table, seats: Sequence[str], *, log: LogWriter | None = None,
                 password: str | None = None, turn_timeout: float | None = 60.0,
                 claim_timeout: float | None = 20.0, bot_delay: float = 0.0, standin_delay: float | None = None,
                 standin: str = "ai", start_after: float | None = None, seat_file: str | Path | None = None,
                 on_hand_end: Callable[[dict], None] | None = None, on_note: Callable[[str], None] | None = None,
                 on_action: Callable[[Action], None] | None = None, hello_timeout: float = 10.0,
                 body_timeout: float = 10.0, max_frame: int = MAX_FRAME, journal: JournalClaim | None = None):
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
        self.on_hand_end = on_hand_end
        self.on_note = on_note
        self.seat_file = SeatFile(seat_file)
        self.started = False
        self.over = False  # the match is over and clients are being sent away
        self.pending_conns = 0
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
                await self.runner.run()
            self.over = True
            for c in list(self.conns):
                c.close_with({"type": "bye", "reason": "match over", "scores": list(self.table.scores)})
            await asyncio.sleep(0)
        finally:
            await self.close()
        return self.table

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

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(self, reader, writer)
        if self.pending_conns >= MAX_PENDING_CONNECTIONS:
            conn.close_with(error("busy", "too many connections are joining at once; try again", True))
            return
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
        token = secrets.token_urlsafe(18)
        self.seat_file.seats[seat] = {"token_sha256": token_hash(token), "name": rs.name}
        self.seat_file.save()
        return token

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
