"""A LAN game as the table screen sees it (issue 6): :class:`NetSession` presents a table served
over the network with the same interface as a local :class:`~mahjong_tui.ui.session.GameSession`
(views, requests, answers, events, hands played), plus who is connected, who is a bot
stand-in, and connection problems.

- ``mahjong-tui join HOST:PORT``: one :class:`~mahjong_tui.net.client.NetClient`, one seat
  (:func:`open_join`).
- ``mahjong-tui host``: the server runs in this process (:func:`~mahjong_tui.net.commands.start_host`);
  each ``human`` seat is played here through its own client on loopback, so the host's players
  see exactly what a remote player sees (:func:`open_host`).  Several human seats share the
  keyboard through the same privacy desk as a local hot-seat game.

The server is authoritative: a choice made here is sent as an ``action`` and takes effect when
the next ``update`` arrives; the table drawn is always the seat's latest ``view``.  The server
does not wait for anyone to read a hand's scoring screen: the next hand starts underneath it,
and the scoring screen says when a decision is waiting at the table.

No Textual here.  Names come from the network: the screens draw them as plain text, never as
markup.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time
from pathlib import Path

from ..engine import Action
from ..engine.log import GameLog
from ..errors import MahjongError
from ..net.args import PASSWORD_FILE_HINT, SECRET_ENV, resolve_secrets
from ..net.client import NetClient, parse_address
from ..net.protocol import CHAT_MAX, NetError, clean_chat
from ..net.seatstore import seat_store
from ..paths import private_dir
from ..variant import Variant
from .session import DeskSession, Request

#: error codes after which a choice that was sent is offered again (the server refused it, the
#: decision is still owed)
REOFFER_CODES = {"illegal", "bad_action", "not_your_seat"}


def lan_address() -> str:
    """This machine's address on the local network, as other players would type it (a UDP
    socket is pointed at a public address to learn the route; nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, no packet leaves
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


class NetSession(DeskSession):
    """A LAN table: ``clients`` maps each seat played at this keyboard to its connected
    :class:`NetClient`; ``variant`` is this installation's copy of the table's variant (rules
    hash checked).  ``host``: the :class:`~mahjong_tui.net.commands.HostSession` when this
    process serves the table (None for ``join``); ``address``: what others type to join."""

    network = True

    def __init__(self, clients: dict[int, NetClient], variant: Variant, *, address: tuple[str, int],
                 host=None, bind: str = "127.0.0.1", variant_ref: str | None = None,
                 notes: list[str] | None = None):
        super().__init__(variant, sorted(clients))
        self.clients = dict(clients)
        self.address = address
        self.host = host
        self.bind = bind  # host: the address the server listens on
        self.variant_ref = variant_ref or variant.id
        self.notes = notes if notes is not None else []  # the server's notes (host only)
        self.seats: list[dict] = []
        self.started = False
        self._waited = False  # a 'seats' message said play has not started (then "play starts")
        first = self.clients[self.humans[0]]
        if first.seats:
            self.seats = list(first.seats)
        self._offered: dict[int, Request] = {}  # the request offered (or answered) per seat
        self._history: dict[int, dict] = {}  # hand index -> summary
        self._resynced: dict[int, int] = {}  # seat -> number of 'state' messages seen
        self._hand_chain: asyncio.Future | None = None
        self._lost_at: dict[int, float] = {}
        self._closed = False
        self._sending: set[asyncio.Task] = set()
        #: another seat's turn clock from the table: (seat, seq, time.monotonic() it runs out)
        self._clock: tuple[int, int, float] | None = None
        #: chat messages heard, oldest first: (seat, name, text); the move log shows them too
        self.chat_lines: list[tuple[int, str, str]] = []

    # -- who sits where -------------------------------------------------------------------------
    @property
    def reporter(self) -> int:
        """The local seat whose events feed the message line (public events are the same for
        every seat: read them once)."""
        return self.humans[0]

    def _entry(self, seat: int) -> dict:
        for e in self.seats:
            if e.get("seat") == seat:
                return e
        return {}

    def name(self, seat: int) -> str:
        if seat in self.clients and not self.hot_seat:
            return "You"
        e = self._entry(seat)
        if e.get("kind") == "ai":
            return f"Bot {seat + 1}"
        if e.get("name"):
            return e["name"]
        if seat in self.clients:
            return (self.clients[seat].welcome or {}).get("name") or f"Player {seat + 1}"
        return f"Seat {seat + 1}"

    def seat_status(self, seat: int) -> str:
        c = self.clients.get(seat)
        if c is not None and c.status != "connected":
            return "offline"
        e = self._entry(seat)
        if not e or e.get("kind") == "ai":
            return ""
        if e.get("standin"):
            return "bot stand-in"
        if not e.get("connected"):
            return "open" if not e.get("name") else "away"
        return ""

    def plays_by_hand(self, seat: int) -> bool:
        if seat in self.clients:
            return True
        e = self._entry(seat)
        return e.get("kind") == "remote" and bool(e.get("connected")) and not e.get("standin")

    def shows_hand(self, seat: int) -> bool:
        return seat in self.clients and seat == self.keyboard

    def view(self) -> dict | None:
        return self.clients[self.perspective].view

    def history(self) -> list[dict]:
        return [self._history[k] for k in sorted(self._history)]

    def match_is_over(self) -> bool:
        return self.finished or self.phase() == "match_over"

    # -- connection state, for the screens --------------------------------------------------------
    def problem(self) -> str:
        for seat, c in sorted(self.clients.items()):
            if c.status == "reconnecting":
                return "connection lost: reconnecting"
            if c.status == "closed" and not self.finished and not self._stopped:
                return "disconnected"
        return ""

    def remote_seats(self) -> list[dict]:
        return [e for e in self.seats if e.get("kind") == "remote" and e.get("seat") not in self.clients]

    def notice(self) -> tuple[str, str] | None:
        """(title, detail) for the action bar when the connection, not the game, is the news:
        waiting for players, reconnecting, disconnected; None otherwise."""
        for seat, c in sorted(self.clients.items()):
            if c.status == "reconnecting":
                left = max(0.0, c.reconnect - (time.monotonic() - self._lost_at.get(seat, time.monotonic())))
                return (f"Connection to the table lost — reconnecting ({left:.0f} s)",
                        "Meanwhile a bot plays your seat (if the table is still up).")
            if c.status == "closed" and not self.finished and not self._stopped:
                return ("Disconnected from the table", c.closed_reason or "")
        if not self.started:
            others = self.remote_seats()
            filled = sum(1 for e in others if e.get("connected"))
            title = f"Waiting for players: {filled} of {len(others)} remote seat{'s' if len(others) != 1 else ''} taken"
            return (title, self.join_hint())
        return None

    def join_hint(self) -> str:
        host, port = self.address
        if self.host is not None:
            pw = f" {PASSWORD_FILE_HINT}" if self.host.server.password else ""
            web = getattr(self.host, "web_url", "")
            web = f", or a browser at {web}" if web else ""
            return f"Others join with: mahjong-tui join {host}:{port}{pw}{web}   (i: table and seats)"
        token = self.clients[self.humans[0]].token
        return f"Your seat token: {token} (i: how to rejoin)"

    def seconds_left(self) -> float | None:
        req = self.request_now
        if req is None or req.deadline is None:
            return None
        return max(0.0, req.deadline - time.monotonic())

    def turn_clock(self, seat: int) -> float | None:
        """Seconds left of ``seat``'s turn by the table's ``clock`` (another seat's turn at a
        table with a turn timer), while the view is still at that turn; else None."""
        clock, view = self._clock, self.view()
        if clock is None or view is None or clock[0] != seat or view.get("seq") != clock[1]:
            return None
        return max(0.0, clock[2] - time.monotonic())

    def clock_running(self) -> bool:
        """Another seat's turn clock is counting down (the screen redraws it)."""
        view = self.view()
        return self._clock is not None and view is not None and self.turn_clock(view.get("current", -1)) is not None

    def timeouts(self) -> dict:
        """The table's timers from its ``hello``: ``{"turn": s | None, "claim": s | None}``
        (an empty map when the table does not say)."""
        t = (self.clients[self.humans[0]].hello or {}).get("timeouts")
        return t if isinstance(t, dict) else {}

    # -- chat ---------------------------------------------------------------------------------
    def send_chat(self, text: str) -> str | None:
        """Say ``text`` to the table (from the seat at the keyboard); None, or why it was not
        sent (empty, longer than the table takes, not connected).  The table may still refuse
        it (too many at once): that comes back as an error line."""
        cleaned = clean_chat(text)
        if not cleaned:
            return "Nothing to send"
        if len(cleaned) > CHAT_MAX:
            return f"A chat message is at most {CHAT_MAX} characters ({len(cleaned)} typed)"
        seat = self.keyboard if self.keyboard in self.clients else self.reporter
        try:
            self.clients[seat].send({"type": "chat", "text": cleaned})
        except NetError as exc:
            return f"Not sent: {exc}"
        return None

    def _chat(self, msg: dict) -> None:
        seat, name, text = msg.get("seat"), msg.get("name"), msg.get("text")
        if not isinstance(seat, int) or not 0 <= seat <= 3 or not isinstance(text, str):
            return
        who = self.name(seat) if seat in self.clients and not self.hot_seat else (
            clean_chat(name) if isinstance(name, str) and clean_chat(name) else f"Seat {seat + 1}")
        text = clean_chat(text)[:CHAT_MAX]
        self.chat_lines.append((seat, who, text))
        del self.chat_lines[:-50]
        self.moves.add_chat(seat, who, text)
        said = getattr(self.presenter, "chat_received", None)
        if said is not None:
            said(who, text)

    def pending_notice(self) -> str:
        """For the scoring screen: a decision waiting at the table (the match goes on)."""
        p = self.problem()
        if p:
            return p[0].upper() + p[1:]
        reqs = [r for r in self._offered.values() if not r.future.done()]
        if not reqs:
            return ""
        req = reqs[0]
        left = "" if req.deadline is None else f" ({max(0.0, req.deadline - time.monotonic()):.0f} s left)"
        who = "you" if not self.hot_seat else self.name(req.seat)
        what = "it is your turn" if req.is_turn and not self.hot_seat else (
            f"{who} may claim a discard" if not req.is_turn else f"it is {who}'s turn")
        return f"The next hand is under way: {what}{left}. Enter goes back to the table."

    def rejoin_command(self) -> str:
        """The command that gets this player back to the table.  No secret in it would show in
        ``ps``: the seat token is passed in the environment (``MAHJONG_TUI_TOKEN=TOKEN
        mahjong-tui join ...``), and at a table with a password it ends in ``--password-file
        FILE``: the password must be given again (a resumed table refuses to start without
        it), but is never printed (the command is shown and may be logged)."""
        host, port = self.address
        if self.host is not None:
            journal = self.journal()
            extra = f" --bind {self.bind}" if self.bind != "127.0.0.1" else ""
            extra += f" {PASSWORD_FILE_HINT}" if self.host.server.password else ""
            return f"mahjong-tui host --log {journal} --port {port}{extra}" if journal else ""
        client = self.clients[self.humans[0]]
        pw = f" {PASSWORD_FILE_HINT}" if client.password else ""
        return f"{SECRET_ENV['token']}={client.token} mahjong-tui join {host}:{port}{pw}"

    def kept_command(self) -> str:
        """For a joiner whose seat token is kept on this machine: ``mahjong-tui join
        HOST:PORT`` (the token is found again), with ``--password-file FILE`` at a table with a
        password; else ``""``."""
        if self.host is not None:
            return ""
        client = self.clients[self.humans[0]]
        if client.slot is None or client.slot.token != client.token:
            return ""
        host, port = self.address
        pw = f" {PASSWORD_FILE_HINT}" if client.password else ""
        return f"mahjong-tui join {host}:{port}{pw}"

    def rejoin_lines(self) -> list[tuple[str, bool]]:
        """A joiner's ways back to the seat, the one to use first, as ``(text, is_command)``
        lines: when this machine keeps the seat token, :meth:`kept_command` (the short ``join
        HOST:PORT``), a note, then :meth:`rejoin_command` (the token form, from any machine);
        else the token form alone.  The one builder for the ``i`` screen, the Leave screen
        and the message printed when ``join`` exits.  ``[]`` for the host."""
        if self.host is not None:
            return []
        kept, how = self.kept_command(), self.rejoin_command()
        if not kept:
            return [(how, True)]
        return [(kept, True), ("(this machine keeps your seat token) or, from another machine:", False), (how, True)]

    def seat_command(self, seat: int) -> str:
        """Host: the command that gets the player of remote ``seat`` back into it from any
        machine (its token passed in the environment: ``MAHJONG_TUI_TOKEN=TOKEN mahjong-tui
        join ADDRESS``), when this run of the table gave that token out (the seat file keeps
        only its hash); ``""`` otherwise (:meth:`reissue` makes a new one)."""
        if self.host is None or seat in self.clients:
            return ""
        token = self.host.server.tokens.get(seat)
        if not token:
            return ""
        host, port = self.address
        pw = f" {PASSWORD_FILE_HINT}" if self.host.server.password else ""
        return f"{SECRET_ENV['token']}={token} mahjong-tui join {host}:{port}{pw}"

    def reissue(self, seat: int) -> str:
        """Host: a new seat token for remote ``seat`` (the old one stops working); returns
        :meth:`seat_command`.  Raises ValueError (not a taken remote seat) or OSError (the
        seat file)."""
        if self.host is None:
            raise ValueError("only the host issues seat tokens")
        self.host.server.reissue(seat)
        return self.seat_command(seat)

    def journal(self) -> str | None:
        """The host's game journal (the match can be resumed from it)."""
        if self.host is None:
            return None
        p = self.host.server.seat_file.path
        return str(p)[:-len(".seats")] if p is not None and str(p).endswith(".seats") else None

    def info(self) -> dict:
        """Everything the table info screen shows."""
        host, port = self.address
        rows = []
        for seat in range(4):
            e = self._entry(seat)
            kind = e.get("kind", "remote")
            if seat in self.clients:
                who = "at this keyboard" if self.host is not None else "you"
            elif kind == "ai":
                level = (e.get("name") or "").partition("(")[2].rstrip(")") or "normal"
                who = f"AI {level}"
            else:
                who = "player"
            status = self.seat_status(seat)
            if status in ("open", "away"):
                status = "waiting"  # for its player (to join, or to come back before play starts)
            if not status:
                status = "connected" if (kind == "ai" or e.get("connected") or seat in self.clients) else "waiting"
            rows.append({"seat": seat, "name": self.name(seat),
                         "net_name": "" if kind == "ai" else e.get("name") or "", "who": who, "status": status,
                         "taken": kind == "remote" and bool(e.get("name")) and seat not in self.clients,
                         "command": self.seat_command(seat)})
        tokens = {seat: c.token for seat, c in self.clients.items()}
        return {"address": f"{host}:{port}", "hosting": self.host is not None, "bind": self.bind, "rows": rows, "tokens": tokens,
                "rejoin": self.rejoin_command(), "kept": self.kept_command(), "rejoin_lines": self.rejoin_lines(), "notes": list(self.notes[-6:]),
                "timeouts": self.timeouts(), "web": getattr(self.host, "web_url", "") if self.host is not None else "",
                "started": self.started,
                "password": bool(self.host.server.password) if self.host is not None else None}

    # -- the game loop ------------------------------------------------------------------------
    async def play(self) -> None:
        """Follow the table until the match ends, the connection closes for good, or
        :meth:`stop`."""
        assert self.presenter is not None, "attach a presenter first"
        self._queue = asyncio.Queue()
        desk = asyncio.ensure_future(self._desk())
        pumps = [asyncio.ensure_future(self._pump(seat, c)) for seat, c in self.clients.items()]
        try:
            for seat in self.clients:
                self._sync_request(seat)
            self.presenter.table_changed()
            done, pending = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
            if self.finished and pending:
                await asyncio.wait(pending, timeout=5.0)
            if self._hand_chain is not None:
                await self._hand_chain
            if self._stopped:
                return
            if self.finished:
                await self.presenter.match_over()
            else:
                closed = [c for c in self.clients.values() if c.status == "closed"]
                detail = closed[0].closed_reason if closed else "connection closed"
                self.presenter.table_changed()
                await self.presenter.connection_closed(detail or "connection closed")
        finally:
            desk.cancel()
            for p in pumps:
                p.cancel()
            if self._hand_chain is not None and not self._hand_chain.done():
                self._hand_chain.cancel()
            await self.aclose()

    async def _pump(self, seat: int, client: NetClient) -> None:
        async for msg in client:
            try:
                self._handle(seat, client, msg)
            except Exception as exc:  # noqa: BLE001 - a message we cannot show must not end the game
                self.emit_text(f"could not show a message from the table: {type(exc).__name__}: {exc}")

    def _handle(self, seat: int, client: NetClient, msg: dict) -> None:
        t = msg.get("type")
        presenter = self.presenter
        if t in ("state", "update"):
            if t == "state":
                if seat == self.reporter:  # joined mid-hand: the hand so far, read from the view
                    from .model import describe_event
                    from .movelog import rebuild_from_view

                    rebuild_from_view(self.moves, msg["view"], lambda ev: describe_event(ev, self.name, self.variant))
                n = self._resynced[seat] = self._resynced.get(seat, 0) + 1
                last = msg["view"].get("last_hand")
                if last is not None and seat == self.reporter and last.get("hand") not in self._history:
                    self._history[last["hand"]] = last
                    if n > 1:  # a hand ended while we were away: show how
                        self._hand_over(last, msg["view"].get("phase") == "match_over")
                paid = msg["view"].get("instant_payments")
                if paid and seat == self.reporter:  # made before we (re)joined, e.g. at the deal
                    self.note_event({"type": "instant_payment", **paid[-1]})
            if seat == self.reporter:
                self._events(msg.get("events") or [], msg["view"])
            self._sync_request(seat)
            presenter.table_changed()
        elif t == "request":
            self._sync_request(seat)
            presenter.table_changed()
        elif t == "accepted":
            pass  # the prompt went away when the choice was made
        elif t == "error":
            code = msg.get("code")
            text = msg.get("message") or code or "error"
            if code == "timeout":
                text = "Too slow: a bot played that decision for you (rejoining)"
            self.emit_text(text)
            req = self._offered.get(seat)
            cur = client.request
            if code in REOFFER_CODES and req is not None and req.future.done() and cur is not None \
                    and cur.get("seq") == req.seq:
                self._offered.pop(seat, None)
                self._sync_request(seat)
            presenter.table_changed()
        elif t == "seats":
            self._seats_changed(msg.get("seats") or [], bool(msg.get("started")))
            presenter.table_changed()
        elif t == "chat":
            if seat == self.reporter:  # every seat here hears it: tell it once
                self._chat(msg)
                presenter.table_changed()
        elif t == "clock":
            secs, cs, cq = msg.get("seconds"), msg.get("seat"), msg.get("seq")
            if seat == self.reporter and isinstance(secs, (int, float)) and isinstance(cs, int) \
                    and isinstance(cq, int) and cs not in self.clients:
                self._clock = (cs, cq, time.monotonic() + float(secs))
                presenter.table_changed()
        elif t == "connection":
            state = msg.get("state")
            if state == "lost":
                self._lost_at[seat] = time.monotonic()
                self._withdraw(seat)
                self.emit_text("Connection to the table lost: reconnecting")
            elif state == "connected":
                self._lost_at.pop(seat, None)
                self.emit_text("Reconnected to the table")
            elif state == "closed":
                self._withdraw(seat)
                if not self.finished and not self._stopped:
                    self.emit_text(f"Disconnected: {msg.get('detail') or 'connection closed'}")
            presenter.table_changed()
        elif t == "bye":
            # the match is over, or (reason "table closed") the host closed the table: then the
            # connection closes next and the player is told why at once
            if client.finished:
                self.finished = True
            presenter.table_changed()

    def _events(self, events: list[dict], view: dict) -> None:
        last = any(e.get("type") == "match_end" for e in events) or view.get("phase") == "match_over"
        for ev in events:
            kind = ev.get("type")
            if kind == "hand_end":
                summary = {k: v for k, v in ev.items() if k != "type"}
                new = summary.get("hand") not in self._history
                self._history[summary.get("hand", len(self._history))] = summary
                if new:
                    self._hand_over(summary, last)
                continue
            self.note_event(ev)  # no words for match_end: the end screen tells it

    def _hand_over(self, summary: dict, last: bool) -> None:
        """Show a hand's scoring screen once the previous one is closed; the table goes on
        meanwhile (the server does not wait)."""
        prev = self._hand_chain

        async def show() -> None:
            if prev is not None:
                try:
                    await prev
                except (asyncio.CancelledError, Exception):  # noqa: BLE001
                    pass
            if not self._stopped and self.presenter is not None:
                await self.presenter.hand_over(summary, last)

        self._hand_chain = asyncio.ensure_future(show())

    def _seats_changed(self, seats: list[dict], started: bool) -> None:
        before = {e.get("seat"): e for e in self.seats}
        self.seats = list(seats)
        self.started = started
        if not started:
            self._waited = True
        elif self._waited:
            self._waited = False
            self.emit_text("Every seat is taken: play starts")
        for e in seats:
            s = e.get("seat")
            old = before.get(s) or {}
            if s in self.clients or e.get("kind") != "remote" or not old:
                continue
            name = e.get("name") or f"Seat {s + 1}"
            if e.get("connected") and not old.get("connected"):
                self.emit_text(f"{name} joined (seat {s + 1})")
            elif not e.get("connected") and old.get("connected"):
                self.emit_text(f"{name} left: a bot plays seat {s + 1} until they rejoin" if started
                               else f"{name} left (seat {s + 1})")

    # -- requests -----------------------------------------------------------------------------
    def _withdraw(self, seat: int) -> None:
        req = self._offered.pop(seat, None)
        if req is not None and not req.future.done():
            req.future.cancel()

    def _sync_request(self, seat: int) -> None:
        """Offer the client's pending request (once), or withdraw ours when the table moved on."""
        client = self.clients[seat]
        msg = client.request
        cur = self._offered.get(seat)
        if msg is None:
            if cur is not None and not cur.future.done():
                self._withdraw(seat)
            elif cur is not None:
                self._offered.pop(seat, None)
            return
        if cur is not None and cur.seq == msg["seq"]:
            return
        self._withdraw(seat)
        if self._queue is None or self._stopped:
            return
        try:
            legal = [Action.from_dict(d) for d in msg["legal"]]
        except MahjongError as exc:
            self.emit_text(f"the table sent a choice this client does not understand: {exc}")
            return
        timeout = msg.get("timeout")
        req = Request(seat, msg["view"], legal, asyncio.get_running_loop().create_future(), seq=msg["seq"],
                      deadline=None if timeout is None else time.monotonic() + float(timeout))
        self._offered[seat] = req
        self._queue.put_nowait(req)

    def _answered(self, req: Request, action: Action) -> None:
        task = asyncio.ensure_future(self._send(req, action))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, req: Request, action: Action) -> None:
        client = self.clients[req.seat]
        try:
            await client.send_action(action, req.seq)
        except (NetError, ConnectionError, OSError) as exc:
            # the link is down: the request comes again after the resync
            self.emit_text(f"Your choice was not sent ({exc}); it will be asked again")
            if self._offered.get(req.seat) is req:
                self._offered.pop(req.seat, None)

    # -- leaving ------------------------------------------------------------------------------
    def stop(self) -> None:
        self._stopped = True
        for seat in list(self._offered):
            self._withdraw(seat)

    async def aclose(self) -> None:
        """Leave the table (join: the seat stays ours, rejoin with the token) or close it
        (host: every connection is dropped; the journal keeps the match).  Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stopped = True
        try:
            if self.host is not None:
                await self.host.stop()
            else:
                for c in self.clients.values():
                    await c.close()
        except Exception:  # noqa: BLE001 - leaving must not fail
            pass

    # -- saving (host only: the client never has the whole game) -------------------------------
    @property
    def can_save(self) -> bool:
        return self.host is not None

    def game_log(self) -> GameLog:
        """The match as the host's server has it (host only: raises ``OSError`` for a client,
        which never has the whole game)."""
        if self.host is None:
            raise OSError("a client of a LAN table has no game log to save; the host has it")
        server = self.host.server
        return GameLog.for_table(server.table, self.variant_ref, list(server.seat_specs))

    def save(self, path: str | Path) -> Path:
        log = self.game_log()
        p = Path(path).expanduser()
        private_dir(p.parent)
        log.save(p)
        return p


# ----------------------------------------------------------------------------------------
# opening a session (the CLI before the app runs, or the menu from inside it)
# ----------------------------------------------------------------------------------------
async def _first_view(clients: dict[int, NetClient], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while any(c.view is None for c in clients.values()):
        if time.monotonic() > end:
            raise NetError("the table did not send its state; try again")
        if any(c.status == "closed" for c in clients.values()):
            c = next(c for c in clients.values() if c.status == "closed")
            raise NetError(f"the table closed the connection: {c.closed_reason}")
        await asyncio.sleep(0.01)


def _say_on_stderr(text: str) -> None:
    print(f"mahjong-tui: {text}", file=sys.stderr, flush=True)


async def open_join(args: argparse.Namespace) -> NetSession:
    """``mahjong-tui join HOST:PORT``: connect, take a seat, check the rules; returns the
    session.  Raises :class:`~mahjong_tui.errors.MahjongError` (one line for the player).

    Without a token the seat token kept for that table (``lan-seats/`` in the saves folder, or
    ``args.seats_folder``; :mod:`mahjong_tui.net.seatstore`) rejoins its seat, unless
    ``args.new_seat``; the seat taken is kept there.

    The password and token may come from their files or the environment
    (:func:`~mahjong_tui.net.args.resolve_secrets`).  A busy or throttled table is tried again
    for ``args.retry`` seconds; each wait is said through ``args.on_retry(text)`` (the menu's
    Join form shows it), else on stderr (before the screen opens)."""
    host, port = parse_address(args.address)
    resolve_secrets(args)
    retry = getattr(args, "retry", 30.0)
    client = NetClient(host, port, name=getattr(args, "name", None), password=getattr(args, "password", None),
                       token=getattr(args, "token", None), seat=getattr(args, "seat", None), reconnect=retry,
                       store=seat_store(args), fresh=bool(getattr(args, "new_seat", False)))
    await client.connect(retry=retry, on_retry=getattr(args, "on_retry", None) or _say_on_stderr)
    try:
        variant = client.local_variant()
        await _first_view({client.seat: client})
    except BaseException:
        await client.close()
        raise
    session = NetSession({client.seat: client}, variant, address=(host, port))
    if client.kept == "used":
        session.emit_text("Back in your seat (its token is kept on this machine)")
    elif client.kept == "stale":
        session.emit_text("The seat token kept for this table was no longer valid there: you took a free seat")
    return session


async def open_host(args: argparse.Namespace) -> NetSession:
    """``mahjong-tui host``: serve the table from this process and connect this keyboard's
    seats; returns the session.  Raises :class:`~mahjong_tui.errors.MahjongError`."""
    from ..net.commands import start_host

    notes: list[str] = []
    host = await start_host(args, note=notes.append)
    try:
        if len(host.clients) == 1:
            for c in host.clients.values():
                c.name = c.name or "Host"
        await host.start()
        first = next(iter(host.clients.values()))
        variant = first.local_variant()
        await _first_view(host.clients)
    except BaseException:
        await host.stop()
        raise
    bind, port = host.address
    shown = lan_address() if bind in ("0.0.0.0", "::", "") else bind
    variant_ref = getattr(args, "variant", None) if not getattr(args, "log", None) else None
    return NetSession(dict(host.clients), variant, address=(shown, port), host=host, bind=bind,
                      variant_ref=variant_ref, notes=notes)
