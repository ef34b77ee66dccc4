"""The LAN client: :class:`NetClient` for the TUI and for bots over the wire (``PROTOCOL.md``).

No Textual here.  Typical use::

    client = NetClient("192.168.1.5", 7777, name="Ann", password=pw)
    await client.connect()                      # NetError if refused, wrong password, full ...
    async for msg in client:                    # every server message, as a dict
        if msg["type"] == "request":            # a decision is owed: msg["view"], msg["legal"]
            await client.send_action(choice)    # answers the latest request (its seq)
        ...

Besides the server's messages (``state``, ``update``, ``request``, ``accepted``, ``seats``,
``error``, ``bye``, ``pong``) the iterator yields ``{"type": "connection", "state": ...}`` when
the connection is ``"lost"`` (the client is reconnecting with its seat token), ``"connected"``
again (a full resync follows: ``state`` and, if a decision is owed, ``request``), or
``"closed"`` for good (``detail`` says why); iteration ends after ``"closed"``.

The latest of everything is also kept on the client: :attr:`view`, :attr:`seats`,
:attr:`request`, :attr:`status`, :attr:`seat`, :attr:`token`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Callable

from ..engine import Action
from ..errors import MahjongError
from ..variant import Variant, check_options, load_variant, option_assignments
from .protocol import (MAX_FRAME, PROTOCOL_VERSION, NetError, ProtocolError, check_proof, decode_body, encode,
                       new_nonce, proof, read_frame)

#: error codes after which reconnecting is pointless (the server's, and ``auth`` / ``protocol``
#: for the client's own refusals: a table without the password it should have, another version)
FINAL_CODES = {"auth", "protocol", "table_full", "bad_token", "replaced", "seat_taken", "unavailable"}
#: error codes after which trying again later may work: the table is busy (too many
#: connections waiting to join), this address is throttled after wrong passwords
#: (``retry_after``), or the connection closed or went silent during the greeting
RETRY_CODES = {"busy", "throttled", "closed", "no_answer"}
#: first and longest pause between tries of :meth:`NetClient.connect`, in seconds
RETRY_FIRST, RETRY_MAX = 0.5, 8.0


def parse_address(text: str, default_port: int = 7777) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, or ``[IPv6]:PORT``) → (host, port).  Raises :class:`NetError`."""
    text = text.strip()
    host, port = text, str(default_port)
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise NetError(f"address {text!r}: missing ']'; use [IPv6]:PORT")
        host, rest = text[1:end], text[end + 1:]
        if rest:
            if not rest.startswith(":"):
                raise NetError(f"address {text!r}: expected ':PORT' after ']'")
            port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise NetError(f"address {text!r} is not HOST:PORT (a host name or IP, and a port 1..65535)")
    return host, int(port)


class NetClient:
    """One seat's connection to a table server.

    - ``name``: shown to the table; ``password``: the table password (proved by HMAC, never
      sent); ``token``: a seat token from an earlier ``welcome`` (rejoin); ``seat``: ask for
      a particular free seat;
    - ``reconnect``: seconds to keep trying to rejoin (with the seat token) after the
      connection drops; 0 gives up at once;
    - ``store``: a :class:`~mahjong_tui.net.seatstore.SeatStore`: without a ``token`` the
      client rejoins with the token it kept for this table (by address and the table's
      identity in ``hello``), and keeps the token of the seat it gets; ``fresh``: take a new
      seat all the same (its token is kept then); ``default_name``: the name a new seat
      gets when ``name`` is None (a rejoin keeps the seat's name);
    - ``tap(bytes)``: called with every byte received (tests).

    :attr:`kept` says what became of the kept token: ``"used"`` (rejoined with it), ``"stale"``
    (the table no longer knew it: a free seat was taken instead), ``"new"`` (a new seat, now
    kept), ``""`` (no store, or it could not be written: :attr:`kept_problem` says why).
    """

    def __init__(self, host: str, port: int, *, name: str | None = None, password: str | None = None,
                 token: str | None = None, seat: int | None = None, reconnect: float = 30.0,
                 connect_timeout: float = 10.0, tap: Callable[[bytes], None] | None = None,
                 max_frame: int = MAX_FRAME, store=None, fresh: bool = False, default_name: str | None = None):
        self.host, self.port = host, port
        self.name = name
        self.password = password
        self.token = token
        self.wanted_seat = seat
        self.reconnect = reconnect
        self.connect_timeout = connect_timeout
        self.tap = tap
        self.max_frame = max_frame
        self.seat: int | None = None
        self.hello: dict | None = None
        self.welcome: dict | None = None
        self.view: dict | None = None
        self.seats: list[dict] = []
        self.request: dict | None = None
        self.status = "new"  # new, connected, reconnecting, closed
        self.closed_reason: str | None = None
        self.finished = False  # the server said the match is over
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._queue: asyncio.Queue = asyncio.Queue()
        self._task: asyncio.Task | None = None
        self._closing = False
        self._pings: dict[int, asyncio.Future] = {}
        self._ping_id = 0
        self.store = store
        self.fresh = fresh
        self.default_name = default_name  # the name of a new seat when ``name`` is None
        self.slot = None  # the SeatSlot of the store this client holds
        self.kept = ""
        self.kept_problem = ""
        self._kept_token: str | None = None  # the kept token this join tries

    # -- connecting ---------------------------------------------------------------------------
    async def connect(self, retry: float = 0.0, on_retry: Callable[[str], None] | None = None) -> dict:
        """Connect, prove the password, take a seat; returns the ``welcome`` message.  Raises
        :class:`NetError` saying what went wrong.

        ``retry``: seconds to keep trying while the failure is one that passes
        (:data:`RETRY_CODES`: the table is busy, this address is throttled, the connection
        closed during the greeting); the pause starts at 0.5 s and doubles up to 8 s, or is
        what the server asked (``retry_after``).  Before each pause ``on_retry(text)`` says
        what happened (``"... too many connections ...; retrying in 2 s"``)."""
        deadline = time.monotonic() + retry
        pause = RETRY_FIRST
        tries = 0
        while True:
            try:
                await self._open()
                break
            except NetError as exc:
                if exc.code == "bad_token" and self._kept_token is not None and self.slot is not None:
                    # the table no longer knows the token kept for it (its seat file was lost):
                    # forget it and take a free seat
                    self.slot.forget()
                    self._kept_token = None
                    self.kept = "stale"
                    if on_retry is not None:
                        on_retry("the seat token kept for this table is no longer valid there; taking a free seat")
                    continue
                wait = max(pause, exc.retry_after or 0.0)
                if exc.code not in RETRY_CODES or time.monotonic() + wait > deadline:
                    if self.slot is not None:  # not seated: another client may take the slot
                        self.slot.release()
                        self.slot = None
                    if tries:
                        raise NetError(f"{exc} (gave up after {tries + 1} tries)", exc.code, exc.retry_after) from None
                    raise
                tries += 1
                if on_retry is not None:
                    on_retry(f"{exc}; retrying in {wait:g} s")
                await asyncio.sleep(wait)
                pause = min(pause * 2, RETRY_MAX)
        self._task = asyncio.ensure_future(self._run())
        return self.welcome  # type: ignore[return-value]

    async def _open(self) -> None:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port, limit=self.max_frame + 16), self.connect_timeout)
        except asyncio.TimeoutError:
            raise NetError(f"no answer from {self.host}:{self.port} within {self.connect_timeout:g} s",
                           "no_answer") from None
        except OSError as exc:
            raise NetError(f"cannot connect to {self.host}:{self.port}: {exc.strerror or exc}; is a table served "
                           "there (mahjong-tui host/serve)?") from None
        try:
            hello = await self._read_from(reader, self.connect_timeout)
            if hello.get("type") == "error":
                raise self._refused("refused the connection", hello)
            if hello.get("type") != "hello":
                raise NetError(f"{self.host}:{self.port} did not greet as a mahjong-tui table")
            if hello.get("protocol") != PROTOCOL_VERSION:
                raise NetError(f"the table speaks protocol {hello.get('protocol')!r}; this client speaks "
                               f"{PROTOCOL_VERSION}: install the host's version of mahjong-tui", "protocol")
            join: dict[str, Any] = {"type": "join", "protocol": PROTOCOL_VERSION}
            token = self.token or self._stored_token(hello)
            name = self.name or (None if token else self.default_name)  # a rejoin keeps the seat's name
            if name:
                join["name"] = name
            if token:
                join["token"] = token
            elif self.wanted_seat is not None:
                join["seat"] = self.wanted_seat
            cnonce = new_nonce()
            if hello.get("auth"):
                if not self.password:
                    raise NetError("this table has a password: give it with --password (or --password-file, "
                                   "or MAHJONG_TUI_PASSWORD)", "auth")
                join["cnonce"] = cnonce
                join["proof"] = proof(self.password, "client", hello["nonce"], cnonce)
            elif self.password:
                # PROTOCOL.md: a client refuses a server that does not prove the password
                raise NetError(f"the table at {self.host}:{self.port} asks for no password, but one was given: "
                               "it is not the table you were told of, or it was restarted without its "
                               "password; not playing there", "auth")
            writer.write(encode(join))
            msg = await self._read_from(reader, self.connect_timeout)
            if msg.get("type") == "error":
                raise self._refused("refused to seat us", msg)
            if msg.get("type") != "welcome":
                raise NetError(f"expected 'welcome' from the table, got {msg.get('type')!r}")
            if hello.get("auth") and not check_proof(self.password or "", "server", hello["nonce"], cnonce,
                                                     msg.get("proof")):
                raise NetError("the server did not prove it knows the table password; not playing there", "auth")
        except NetError:
            writer.close()
            raise
        except asyncio.TimeoutError:
            writer.close()
            raise NetError(f"{self.host}:{self.port} said nothing for {self.connect_timeout:g} s during the greeting",
                           "no_answer") from None
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            writer.close()
            raise NetError(f"{self.host}:{self.port} closed the connection during the greeting", "closed") from None
        except ProtocolError as exc:
            writer.close()
            raise NetError(f"{self.host}:{self.port} sent a bad frame: {exc}") from None
        self._reader, self._writer = reader, writer
        self.hello, self.welcome = hello, msg
        self.seat = msg["seat"]
        self.token = msg["token"]
        self.status = "connected"
        if hello.get("seats"):
            self.seats = hello["seats"]
        self._keep(hello, msg)

    def _stored_token(self, hello: dict) -> str | None:
        """The token kept for this table (None: none, or a fresh seat is wanted); the slot is
        taken on the first greeting and held until :meth:`close`."""
        if self.store is None:
            return None
        if self.slot is None:
            table = hello.get("table") if isinstance(hello.get("table"), str) else None
            self.slot = self.store.take(self.host, self.port, table, seat=self.wanted_seat, fresh=self.fresh)
            if self.slot is None:
                self.kept_problem = f"every seat kept for this table is in use ({self.store.folder})"
            self._kept_token = None if self.slot is None or self.fresh else self.slot.token
        return self._kept_token

    def _keep(self, hello: dict, welcome: dict) -> None:
        """Keep the seat's token in the slot (once a seat is given; again if it changes)."""
        if self.slot is None:
            return
        rec = self.slot.record or {}
        if self._kept_token is not None and welcome["token"] == self._kept_token:
            self.kept = self.kept or "used"
        if rec.get("token") == welcome["token"] and rec.get("seat") == welcome["seat"] \
                and rec.get("name") == welcome.get("name"):
            return
        try:
            self.slot.save({"host": self.host, "port": self.port, "table": hello.get("table"),
                            "seat": welcome["seat"], "token": welcome["token"], "name": welcome.get("name"),
                            "variant": hello.get("variant")})
        except OSError as exc:
            self.kept_problem = f"the seat token could not be kept in {self.slot.path.parent}: {exc.strerror or exc}"
            return
        if self.kept != "used":
            self.kept = "new" if self.kept != "stale" else "stale"

    def _refused(self, what: str, msg: dict) -> NetError:
        """The :class:`NetError` for an ``error`` frame the table sent during the greeting."""
        after = msg.get("retry_after")
        after = float(after) if isinstance(after, (int, float)) and not isinstance(after, bool) else None
        return NetError(f"the table at {self.host}:{self.port} {what}: {msg.get('message') or msg.get('code')}",
                        msg.get("code") if isinstance(msg.get("code"), str) else None, after)

    async def _read_from(self, reader: asyncio.StreamReader, timeout: float | None) -> dict:
        body = await asyncio.wait_for(read_frame(reader, max_frame=self.max_frame, body_timeout=30.0, tap=self.tap),
                                      timeout)
        return decode_body(body, from_client=False, max_frame=self.max_frame)

    # -- the reading loop -------------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            detail = "connection closed"
            final = False
            try:
                while True:
                    msg = await self._read_from(self._reader, None)  # type: ignore[arg-type]
                    self._absorb(msg)
                    self._queue.put_nowait(msg)
                    if msg["type"] == "error" and msg.get("fatal"):
                        detail = msg.get("message", "")
                        final = msg.get("code") in FINAL_CODES
                    if msg["type"] == "bye":
                        final = True
                        detail = msg.get("message") or msg.get("reason", "bye")
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                pass
            except ProtocolError as exc:
                detail = f"bad frame from the server: {exc}"
            except asyncio.CancelledError:
                self._finish("closed by this client")
                raise
            if self._writer is not None:
                self._writer.close()
            if self._closing or final or self.finished or self.reconnect <= 0:
                self._finish(detail)
                return
            self.status = "reconnecting"
            self.request = None
            self._queue.put_nowait({"type": "connection", "state": "lost", "detail": detail})
            if not await self._reconnect():
                return

    async def _reconnect(self) -> bool:
        deadline = time.monotonic() + self.reconnect
        pause = 0.05
        last = ""
        while time.monotonic() < deadline and not self._closing:
            try:
                await self._open()
                self._queue.put_nowait({"type": "connection", "state": "connected", "seat": self.seat})
                return True
            except NetError as exc:
                last = str(exc)
                if exc.code in FINAL_CODES:
                    self._finish(last)
                    return False
                if exc.retry_after:  # throttled: trying sooner is refused unchecked
                    pause = max(pause, exc.retry_after)
            await asyncio.sleep(pause)
            pause = min(pause * 2, max(1.0, pause))
        self._finish(f"could not rejoin within {self.reconnect:g} s" + (f" ({last})" if last else ""))
        return False

    def _finish(self, detail: str) -> None:
        if self.status == "closed":
            return
        if self.slot is not None:
            if self.finished:  # the match is over: nothing to rejoin
                self.slot.forget()
            self.slot.release()
        self.status = "closed"
        self.closed_reason = detail
        self.request = None
        self._queue.put_nowait({"type": "connection", "state": "closed", "detail": detail})
        self._queue.put_nowait(None)

    def _absorb(self, msg: dict) -> None:
        t = msg["type"]
        if t in ("state", "update"):
            self.view = msg["view"]
            if self.request is not None and msg.get("seq", -1) > self.request["seq"] and \
                    self.seat not in (msg["view"].get("waiting_for") or []):
                self.request = None
        elif t == "request":
            self.request = msg
            self.view = msg["view"]
        elif t == "accepted":
            if self.request is not None and self.request["seq"] == msg.get("seq"):
                self.request = None
        elif t == "seats":
            self.seats = msg["seats"]
        elif t == "error" and msg.get("code") == "timeout":
            self.request = None
        elif t == "bye":
            # "match over" (an older server sends no reason at the end); "table closed": the
            # host stopped the table and the match goes on later
            self.finished = msg.get("reason", "match over") == "match over"
        elif t == "pong":
            fut = self._pings.pop(msg.get("id"), None) if isinstance(msg.get("id"), int) else None
            if fut is not None and not fut.done():
                fut.set_result(time.perf_counter())

    # -- API ----------------------------------------------------------------------------------
    def __aiter__(self) -> AsyncIterator[dict]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[dict]:
        while True:
            msg = await self._queue.get()
            if msg is None:
                return
            yield msg

    def legal(self) -> list[Action]:
        """The actions allowed by the pending request (empty if none)."""
        if self.request is None:
            return []
        return [Action.from_dict(d) for d in self.request["legal"]]

    def send(self, msg: dict) -> None:
        """Send one message.  Raises :class:`NetError` when not connected."""
        if self.status != "connected" or self._writer is None or self._writer.is_closing():
            raise NetError("not connected to the table" + (" (reconnecting)" if self.status == "reconnecting" else ""))
        self._writer.write(encode(msg))

    async def send_action(self, action: Action | dict, seq: int | None = None) -> None:
        """Answer the pending request (or the request ``seq``) with ``action``.  The server
        replies ``accepted`` or an ``error`` (stale, illegal, ...) on the message stream."""
        if seq is None:
            if self.request is None:
                raise NetError("no decision is pending: wait for a request")
            seq = self.request["seq"]
        d = action.to_dict() if isinstance(action, Action) else action
        self.send({"type": "action", "seq": seq, "action": d})
        if self._writer is not None:
            await self._writer.drain()

    async def ping(self, timeout: float = 5.0) -> float:
        """Round-trip time to the server in seconds."""
        self._ping_id += 1
        pid = self._ping_id
        fut = asyncio.get_running_loop().create_future()
        self._pings[pid] = fut
        t0 = time.perf_counter()
        self.send({"type": "ping", "id": pid})
        t1 = await asyncio.wait_for(fut, timeout)
        return t1 - t0

    def local_variant(self) -> Variant:
        """This installation's copy of the table's variant, with the table's variant options
        applied (``hello.options``; none from a server that does not send them); :class:`NetError`
        if it is missing, an option is unknown here, or its rules differ from the host's
        (rules hash)."""
        assert self.hello is not None, "connect() first"
        vid, h = self.hello.get("variant"), self.hello.get("rules_hash")
        try:
            options = check_options(self.hello.get("options"), "the table's hello")
        except MahjongError as exc:
            raise NetError(str(exc)) from None
        with_opts = (" with options " + ", ".join(option_assignments(options))) if options else ""
        try:
            v = load_variant(vid)
        except MahjongError:
            raise NetError(f"the table plays variant {vid!r}, which this installation does not have; "
                           "copy the host's variant file or install its version") from None
        try:
            v = load_variant(vid, options)
        except MahjongError as exc:
            raise NetError(f"the table plays {vid!r}{with_opts}, which this installation cannot build ({exc}); "
                           "install the host's version") from None
        if v.rules_hash != h:
            raise NetError(f"the table's rules for {vid!r}{with_opts} (hash {h}) differ from this installation's "
                           f"({v.rules_hash}); install the host's version or copy its variant file")
        return v

    async def close(self) -> None:
        """Leave the table (the seat stays ours: rejoin with :attr:`token`)."""
        self._closing = True
        if self._writer is not None and not self._writer.is_closing():
            try:
                self._writer.write(encode({"type": "bye"}))
                self._writer.close()
            except Exception:  # pragma: no cover
                pass
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        self._finish("closed by this client")

    def abort(self) -> None:
        """Drop the connection abruptly (tests: a crashed client).  No reconnecting."""
        self._closing = True
        if self._writer is not None:
            self._writer.transport.abort()


# ----------------------------------------------------------------------------------------
# a bot over the wire
# ----------------------------------------------------------------------------------------
def fallback_action(legal: list[Action]) -> Action:
    """A safe choice when a bot fails: ``pass`` or ``draw`` if allowed, else the last legal
    action (a discard on a turn)."""
    for a in legal:
        if a.kind in ("pass", "draw"):
            return a
    return legal[-1]


class SafeBot:
    """Wraps a bot so that an exception inside it never takes a table down: the failure is
    reported through ``on_error(text)`` and :func:`fallback_action` is played instead."""

    def __init__(self, bot, on_error: Callable[[str], None] | None = None):
        self.bot = bot
        self.on_error = on_error
        self.failures = 0

    def choose(self, view: dict, legal: list[Action]) -> Action:
        try:
            action = self.bot.choose(view, legal)
            if action in legal:
                return action
            problem = f"chose {action!r}, which is not legal"
        except Exception as exc:  # a bug in a bot must not end the match
            problem = f"failed: {type(exc).__name__}: {exc}"
        self.failures += 1
        if self.on_error is not None:
            self.on_error(f"bot {getattr(self.bot, 'name', type(self.bot).__name__)} {problem}; played a safe move")
        return fallback_action(legal)


async def play_bot(client: NetClient, level: str = "normal", *, delay: float = 0.0,
                   on_hand_end: Callable[[dict], None] | None = None,
                   gate: Callable[[dict], Any] | None = None,
                   on_bot_error: Callable[[str], None] | None = None) -> dict:
    """Play ``client``'s seat with bot ``level`` until the match ends; returns a summary
    ``{"seat", "scores", "hands", "errors", "closed"}``.  ``client`` must be connected.

    The bot is built from this installation's copy of the variant (checked by rules hash) and
    never sees the table's seed.  ``gate(request)``: optional coroutine awaited before each
    answer (tests pause bots with it).  A bot that raises is replaced by a safe move for that
    decision (:class:`SafeBot`), reported through ``on_bot_error(text)``.
    """
    from ..ai.baseline import make_bot

    variant = client.local_variant()
    spec = "ai" if level in ("", "ai") else f"ai:{level}"
    try:
        bot = SafeBot(make_bot(spec, variant, client.seat, 0), on_error=on_bot_error)
    except ValueError as exc:
        raise NetError(str(exc)) from None
    errors: list[dict] = []
    hands = 0
    scores = None
    async for msg in client:
        t = msg["type"]
        if t == "request":
            if gate is not None:
                await gate(msg)
            if client.request is not msg:
                continue  # superseded while paused
            if delay:
                await asyncio.sleep(delay)
            legal = [Action.from_dict(d) for d in msg["legal"]]
            action = bot.choose(msg["view"], legal)
            try:
                await client.send_action(action, msg["seq"])
            except (NetError, ConnectionError):
                pass  # reconnecting: the request comes again after the resync
        elif t == "update":
            for e in msg["events"]:
                if e.get("type") == "hand_end":
                    hands += 1
                    if on_hand_end is not None:
                        on_hand_end(e)
                elif e.get("type") == "match_end":
                    scores = e.get("scores")
        elif t == "error":
            errors.append(msg)
        elif t == "bye":
            scores = msg.get("scores", scores)
    return {"seat": client.seat, "scores": scores, "hands": hands, "errors": errors,
            "closed": client.closed_reason, "finished": client.finished}
