"""One game at the table, as the UI sees it: the table runner, the human seats, who is at the
keyboard, and the pauses a person needs (end of hand, end of match).

No Textual here: the screen that shows the game implements :class:`Presenter`; tests can drive
a session with a fake one.

Hot-seat (issue 3 §5).  Several human seats share one keyboard.  Requests for decisions are
served one at a time by the *desk*; when the next request belongs to another human than the one
at the keyboard, the presenter hides the table (:meth:`Presenter.privacy`) until that player
presses a key, and only then does the keyboard (and the hand on screen) change hands.  The hand
of a human seat is drawn face up only while that human is at the keyboard
(:meth:`GameSession.shows_hand`).

Claim rounds: a hot-seat table plays like a physical one (issue 22, item 1).  At a real
table nobody hands anything over to say "pass": anyone may call a discard while it lies there.
So after every discard at a table of two or more humans, the table opens a *public call
window* (:class:`ClaimRound`, stage ``window``): nobody's hand is face up, the discard lies in
the pond, and every human seat except the discarder (and those with "no calls" on, below) has
a call key of his own (his player number, ``1``-``4``).  The window lasts
:attr:`DeskSession.call_seconds` for every discard, whatever anyone holds; Space (or Enter, or
``x``) closes it early for everyone ("no calls"), and it closes at once when every seat with a
key has called.  Then:

- a human who did not call passes the discard (the session answers his claim prompt, if the
  table asked him at all, with ``pass``, or with ``win`` if his auto-win is on);
- each human who called gets the keyboard, behind the privacy screen ("Player 3 called Bot 2's
  discard"), in turn order after the discarder with the next player last: his claim prompt, or
  "Nothing to claim on 5m" when the table did not ask him (a call pressed by a seat that cannot
  claim looks exactly like one that can until it is resolved: the same privacy screen, the same
  number of keys);
- then the table goes on; the keyboard passes only to a human whose turn it is or who called,
  and only then is his hand shown.  A hand-over is owed for every turn of a human (the public
  window hid the hand of whoever held the keyboard) and every call, and for nothing else.

Whether a window opens, how long it lasts and what it says depend on public information only
(the seating, the toggles shown in the status line, the keys pressed); the table drawn during
the window is the one of the moment of the discard, the status line holds its news until the
round is over, and the runner is held until then (a bot's claim is told once the round is
over).  With auto-draw off, Classic's next player (who may take any discard,
``claims.next_player_pickup``, G-OX-2) is asked "take it or draw" after every discard of the
seat before him, as if he had called.  One human at the table (with bots) sees no window; a
LAN host's several humans still hand over as the server asks.

Robbing windows follow the same rule.  Where the table opens one it says so in public (a
``claim_window`` event right after the event that opened it): after every added kong
(``claims.rob_kong = "added"``), every Uzje concealed kong (thirteen or fourteen orphans may
rob it, ``claims.rob_kong_forms``), and every flower or season set aside while another seat's
face-up bonus tiles hold the seven others (Singapore's robbing the eighth, Uzje's ivies on the
wall).  The same public window opens ("rob Bot 3's kong of 5m?"), for every human but the
declarer, who goes on once it is over.

Call toggles (issue 22, item 2), per human seat, each a key at the table, shown in the status
line, kept with a saved match (``settings`` of the game log): *auto-draw* (``o``): a claim
prompt whose only choices are ``pickup`` and ``pass`` (Classic's next player, who may take any
discard) is answered ``pass`` without being shown; a prompt that also offers a chow, pung, kong
or win is shown as usual.  *No calls* (``n``, auto-pass): every claim and robbing prompt is
answered ``pass`` without being shown, a win too unless auto-win is on; the seat gets no call
key in the public window.  *Auto-win* (``u``): a win on offer (self-drawn on one's turn, on a
discard, robbing) is declared without being asked.  These are the UI answering for the player:
the rules are unchanged.

The journal (DESIGN.md "The game log and the journal").  A local match is
written to a file in the saves folder from its first move, one line per action, flushed before
the screen shows the move (:meth:`GameSession.open_journal`): if the terminal is closed, the
process is killed or the machine stops, ``mahjong-tui resume FILE`` continues where it was.
Leaving through the quit dialog keeps the file only if the player saves (to that path, or
anywhere else); "leave, don't save" deletes it, as does leaving a finished match unsaved.  A
resumed match is journalled into the file it came from (:meth:`GameSession.continue_journal`),
so a crash after a resume still leaves one file; leaving it unsaved puts that file's old
contents back.  A journal is locked while its game is played (``flock``, where the system has
it; released when the file is closed or the process ends, so a crash leaves no stale lock):
another mahjong-tui does not offer, resume or replay a game being played in another window
(:func:`~mahjong_tui.journal.journal_in_use`; a LAN table's journal is locked the same way).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol, Sequence

from .. import tiles as T
from ..ai.baseline import make_bot
from ..ai.memory import match_ended
from ..engine import Action, Table, event_for
from ..engine.log import GameLog, LogWriter
from ..journal import journal_in_use, lock_journal as _lock  # noqa: F401 - journal_in_use: the UI's import
from ..paths import open_private, private_dir  # saves and journals: 0600, their folders 0700
from ..runner import BotSeat, TableRunner
from ..variant import Variant
from .model import SeatSpec, describe_event, seat_specs
from .movelog import MoveLog, pass_text


#: The choices of a claim prompt that auto-draw answers with ``pass`` (Classic's pick-up).
AUTO_DRAW_KINDS = frozenset({"pickup", "pass"})


@dataclass(eq=False)
class Request:
    """A decision a human seat owes: answered through :meth:`GameSession.answer`."""

    seat: int
    view: dict
    legal: list[Action]
    future: asyncio.Future = field(repr=False)
    seq: int | None = None  # LAN: the request's seq, quoted by the answer
    deadline: float | None = None  # LAN: time.monotonic() by which the server wants the answer

    @property
    def kinds(self) -> set[str]:
        return {a.kind for a in self.legal}

    @property
    def is_turn(self) -> bool:
        return "discard" in self.kinds


@dataclass(eq=False)
class ClaimRound:
    """The public call window after one discard (or one robbable kong or bonus tile) at a
    hot-seat table, and the calls it brought (module docstring).

    ``keys``: the human seats offered a call key, in turn order after the discarder;
    ``claimants``: the human seats the table asks (their prompts come as requests; the others
    have a forced pass); ``called``: the seats that pressed their key (or are asked anyway:
    Classic's next player with auto-draw off), served in :meth:`order` once the window is
    over; ``at_discard``: each human's view at the moment the window opened (what is drawn
    while the round lasts); ``stage``: ``window`` (the public window is open) or ``calls``
    (the callers are served); ``deadline``: the event loop's time at which the window closes."""

    discarder: int
    tile: str
    hand: int
    keys: list[int]
    claimants: set[int]
    at_discard: dict[int, dict]
    called: list[int] = field(default_factory=list)
    #: the callers already served (their prompt or "Nothing to claim")
    served: list[int] = field(default_factory=list)
    #: a seat asked whether or not it called (Classic's next player with auto-draw off)
    asked: int | None = None
    stage: str = "window"
    deadline: float | None = None
    held: list[dict] = field(default_factory=list)
    #: what may be claimed: ``discard``, an added ``kong`` or a ``bonus`` tile (robbing windows)
    what: str = "discard"
    closed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    #: the keyboard's seat when the window opened (drawn at the bottom, face down, meanwhile)
    bottom: int | None = None

    def order(self) -> list[int]:
        """The callers in the order they get the keyboard: turn order after the discarder, the
        next player last (his turn may follow on the same hand-over)."""
        ring = [(self.discarder + k) % 4 for k in (2, 3, 1)]
        return [s for s in ring if s in self.called and s not in self.served]


#: the public events after which the table may open a window (it says so with a
#: ``claim_window`` event right after), and what the round is about (:attr:`ClaimRound.what`)
_WINDOW_AFTER = {"discard": "discard", "add_kong_declared": "kong", "concealed_kong_declared": "kong",
                 "bonus": "bonus"}


def _window_phase(what: str) -> str:
    """The table's phase while a round's window is open: ``claim`` after a discard, ``rob``
    after an added kong or a robbable bonus tile (:attr:`ClaimRound.what`)."""
    return "claim" if what == "discard" else "rob"


@dataclass(frozen=True)
class Handoff:
    """What a privacy screen says: ``kind`` (``turn`` or ``claim``), ``why`` (the line under
    the name, after the player's name) and ``then`` (a note shown once the player has the
    keyboard, e.g. "Nothing to claim on 5m", or None: the table at once)."""

    kind: str
    why: str
    then: str | None = None


class Presenter(Protocol):  # pragma: no cover - typing only
    def table_changed(self) -> None: ...

    def request_changed(self) -> None: ...

    def event_text(self, text: str) -> None: ...

    async def privacy(self, seat: int, take) -> None:
        """Hide the table until ``seat``'s player presses a key; call ``take()`` (which hands
        the keyboard over and redraws the table underneath) before uncovering it.  What the
        screen says: :meth:`DeskSession.handoff`."""

    async def hand_over(self, summary: dict, last: bool | None = None) -> None:
        """Show a hand's result; ``last``: it was the match's last hand (None: ask the
        session)."""

    async def match_over(self) -> None: ...

    async def connection_closed(self, detail: str) -> None:
        """LAN: the link to the table is gone for good (not the end of the match)."""


class HumanSeat:
    """A seat played at this keyboard: ``decide`` waits for the player's choice."""

    def __init__(self, seat: int, session: "GameSession"):
        self.seat = seat
        self.session = session

    async def decide(self, view: dict, legal: list[Action]) -> Action:
        return await self.session.request(self.seat, view, legal)

    def illegal(self, exc: Exception) -> None:
        self.session.emit_text(str(exc))


class DeskSession:
    """What every kind of game shares with the table screen: the human seats at this keyboard,
    the *desk* that serves their decisions one at a time (hot-seat privacy), who is shown at
    the bottom, and the line of text about what just happened.

    Subclasses: :class:`GameSession` (a local table) and
    :class:`~mahjong_tui.ui.netsession.NetSession` (a LAN table).  Both give the table screen
    the same interface: :meth:`view`, :attr:`request_now`, :meth:`answer`, :meth:`play`,
    :meth:`stop`, names, the phase, the hands played so far, and (LAN only) seat status and
    connection problems.
    """

    #: a LAN table (seat status, connection problems, no local save)
    network = False
    #: the file the match is journalled to (a local table, :meth:`GameSession.open_journal`)
    journal_path: Path | None = None
    #: where the quit dialog offers to save (None: a new file in the saves folder)
    save_path: Path | None = None

    def close_journal(self, keep: bool = False) -> None:
        """Stop journalling the match (a local table only; see :class:`GameSession`)."""

    def __init__(self, variant: Variant, humans: Sequence[int]):
        self.variant = variant
        self.humans = list(humans)
        self.presenter: Presenter | None = None
        # who is at the keyboard: the one human, or (hot-seat) nobody until the first request
        self.keyboard: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.request_now: Request | None = None
        self._queue: asyncio.Queue[Request] | None = None
        self._stopped = False
        self.last_text = ""
        #: the latest instant payment (singapore.md "Settlement") in words, kept on the status line for a while
        #: after newer events (a bite is over in an instant; players must be able to read it)
        self.payment_text = ""
        self._texts_since_payment = 0
        self.finished = False
        self.auto_draw: set[int] = set()  # human seats whose pick-up-only prompts pass by themselves
        self.auto_win: set[int] = set()  # human seats whose wins on offer are declared by themselves
        self.no_calls: set[int] = set()  # human seats whose claim and robbing prompts pass by themselves
        #: the public call window after the latest discard and its calls (hot-seat; module docstring)
        self.claim_round: ClaimRound | None = None
        self._handoff: Handoff | None = None
        #: the seat drawn at the bottom while nobody holds the keyboard (since a public window)
        self._bottom: int | None = None
        self._parked: list[Request] = []  # requests taken off the queue, not yet served
        self._round_moved: asyncio.Event | None = None
        #: the moves of the hand in play, for the log panel (public lines, and each human
        #: seat's own passes for that seat only: ui/movelog.py); told as the status line is
        self.moves = MoveLog()

    # -- who is shown -------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    @property
    def perspective(self) -> int:
        """The seat drawn at the bottom: the human at the keyboard, else the last one who held
        it (face down: a public call window hid it), else the first human, else seat 0 (a
        table of bots)."""
        if self.keyboard is not None:
            return self.keyboard
        if self._bottom is not None:  # since a public window: the last holder's place, face down
            return self._bottom
        return self.humans[0] if self.humans else 0

    def visible_moves(self) -> list:
        """The move log's lines the screen may show now (:attr:`moves`): the public ones, and
        the bottom seat's own (its passes) only while its hand is shown — never while nobody
        holds the keyboard, since which seats had a claim to pass is hidden."""
        bottom = self.perspective
        return self.moves.visible(bottom if self.shows_hand(bottom) else None)

    def shows_hand(self, seat: int) -> bool:  # pragma: no cover - each kind of table says
        return seat == self.keyboard

    def you(self) -> int | None:
        """The seat this screen addresses as "You": the one human here, else None (hot-seat,
        or a table of bots)."""
        return self.humans[0] if len(self.humans) == 1 else None

    def name(self, seat: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def view(self) -> dict | None:  # pragma: no cover - abstract
        """The table as the bottom seat may see it (None before the first view arrived)."""
        raise NotImplementedError

    def phase(self) -> str:
        v = self.view()
        return v["phase"] if v else "turn"

    def seat_wind(self, seat: int) -> str:
        v = self.view()
        return v["players"][seat]["wind"] if v else "E"

    def match_is_over(self) -> bool:
        return self.phase() == "match_over"

    def history(self) -> list[dict]:
        """The summaries of the hands played so far (for the end-of-match chart)."""
        return []

    def plays_by_hand(self, seat: int) -> bool:
        """Is a person deciding for ``seat`` (``to play``), rather than a bot (``is thinking``)?"""
        return seat in self.humans

    # LAN-only parts of the interface: nothing to say at a local table
    def seat_status(self, seat: int) -> str:
        """A short word about the seat's connection (``stand-in``, ``open``, ...), or ''."""
        return ""

    def problem(self) -> str:
        """A connection problem to show in the header, or ''."""
        return ""

    def seconds_left(self) -> float | None:
        """Seconds left to answer the current request (LAN time limits), or None."""
        return None

    def notice(self) -> tuple[str, str] | None:
        """(title, detail) for the action bar when the connection, not the game, is the news
        (LAN: waiting for players, reconnecting), or None."""
        return None

    def pending_notice(self) -> str:
        """For the scoring screen: a decision waiting at the table (LAN: the match goes on
        underneath), or ''."""
        return ""

    def rejoin_command(self) -> str:
        """LAN: the command that gets this player back to the table, or ''."""
        return ""

    # -- call toggles (module docstring) -------------------------------------------------------
    #: the toggles: their name in the status line and the set of seats that have each on
    TOGGLES = (("auto_draw", "auto-draw on"), ("auto_win", "auto-win on"), ("no_calls", "no calls"))

    def _toggle(self, name: str, seat: int, on: bool) -> None:
        if seat not in self.humans:
            raise ValueError(f"seat {seat} is not played at this keyboard (human seats: {self.humans})")
        seats: set[int] = getattr(self, name)
        if not on:
            seats.discard(seat)
            return
        seats.add(seat)
        req = self.request_now
        if req is not None and req.seat == seat:
            action = self.auto_answer(req)
            if action is not None:
                self.resolve(req, action)

    def set_auto_draw(self, seat: int, on: bool) -> None:
        """Turn auto-draw on or off for the human ``seat`` (see the module docstring).  Turned
        on while that seat's pick-up-only prompt is shown, it answers that prompt too.
        ValueError for a seat that is not played at this keyboard."""
        self._toggle("auto_draw", seat, on)

    def set_auto_win(self, seat: int, on: bool) -> None:
        """Turn auto-win on or off for the human ``seat``: a win on offer is declared without
        asking (turned on while a prompt offering a win is shown, it wins).  ValueError for a
        seat that is not played at this keyboard."""
        self._toggle("auto_win", seat, on)

    def set_no_calls(self, seat: int, on: bool) -> None:
        """Turn "no calls" (auto-pass) on or off for the human ``seat``: its claim and robbing
        prompts are answered ``pass`` (a win too, unless auto-win is on) and it gets no call
        key in a hot-seat call window.  ValueError for a seat that is not played at this
        keyboard."""
        self._toggle("no_calls", seat, on)

    def toggle_words(self, seat: int) -> list[str]:
        """The toggles that are on for ``seat``, as the status line says them (``auto-draw
        on``, ``auto-win on``, ``no calls``)."""
        return [word for name, word in self.TOGGLES if seat in getattr(self, name)]

    def toggle_settings(self) -> dict:
        """The toggles as a game log's ``settings``: ``{"auto_draw": [0], "no_calls": [2]}``
        (only those on for some seat)."""
        return {name: sorted(getattr(self, name)) for name, _w in self.TOGGLES if getattr(self, name)}

    def restore_toggles(self, settings: dict) -> None:
        """Turn on the toggles a saved match kept (:meth:`toggle_settings`); anything that is
        not a list of this keyboard's seats is left out."""
        for name, _w in self.TOGGLES:
            saved = settings.get(name) if isinstance(settings, dict) else None
            seats = {s for s in saved if type(s) is int and s in self.humans} if isinstance(saved, list) else set()
            setattr(self, name, seats)

    def auto_answer(self, req: Request) -> Action | None:
        """The action that answers ``req`` by itself under the seat's toggles, or None when
        ``req`` must be shown: auto-win declares a win on offer; on a claim or robbing prompt,
        "no calls" passes (a win too, without auto-win) and auto-draw passes a prompt whose
        only choices are pick-up and pass."""
        wins = [a for a in req.legal if a.kind == "win"]
        if wins and req.seat in self.auto_win:
            return wins[0]
        passes = [a for a in req.legal if a.kind == "pass"]
        if req.is_turn or not passes:
            return None
        if req.seat in self.no_calls:
            return passes[0]
        if req.seat in self.auto_draw and req.kinds == AUTO_DRAW_KINDS:
            return passes[0]
        return None

    # -- the desk -----------------------------------------------------------------------------
    def handoff(self, seat: int) -> Handoff:
        """What the privacy screen now shown for ``seat`` says (see :class:`Handoff`): after a
        call, the discard called, whatever ``seat`` holds; else whether it is to play or may
        claim."""
        if self._handoff is not None:
            return self._handoff
        if self.phase() == "rob":
            return Handoff("claim", "may rob a kong")
        if self.phase() == "claim":
            return Handoff("claim", "may claim a discard")
        return Handoff("turn", "is to play")

    def _round_handoff(self, rnd: ClaimRound, seat: int, then: str | None = None) -> Handoff:
        who = self.name(rnd.discarder)
        verb = "called" if seat in rnd.called and seat != rnd.asked else "may claim"
        if rnd.what == "kong":
            return Handoff("claim", f"{'called to rob' if verb == 'called' else 'may rob'} {who}'s kong of {rnd.tile}", then)
        if rnd.what == "bonus":
            return Handoff("claim", f"{'called to rob' if verb == 'called' else 'may rob'} {who}'s eighth flower, {rnd.tile}",
                           then)
        return Handoff("claim", f"{verb} {who}'s discard", then)

    async def _take(self, seat: int | None = None) -> Request | None:
        """The oldest waiting request (of ``seat``, if given; others stay parked), or None
        when a claim round began meanwhile."""
        assert self._queue is not None
        while True:
            for r in list(self._parked):
                if r.future.done():
                    self._parked.remove(r)
                elif seat is None or r.seat == seat:
                    self._parked.remove(r)
                    return r
            item = await self._queue.get()
            if item is None:  # woken: a claim round began
                if seat is None:
                    return None
                continue
            self._parked.append(item)

    async def _desk(self) -> None:
        """Serve human requests one at a time, passing the keyboard between humans (a request
        that a toggle answers is never shown); in a claim round, the public call window, then
        the calls."""
        assert self._queue is not None and self.presenter is not None
        while True:
            rnd = self.claim_round
            if rnd is not None and rnd.stage == "window":
                await self._call_window(rnd)
                continue
            if rnd is not None:
                await self._serve_call(rnd)
                continue
            req = await self._take()
            if req is None:
                continue
            auto = self.auto_answer(req)
            if auto is not None:
                self.resolve(req, auto)
                continue
            await self._serve(req)

    async def _serve(self, req: Request, rnd: ClaimRound | None = None) -> None:
        """Put ``req`` before its player (behind the privacy screen when the keyboard changes
        hands) and wait for the answer."""
        assert self.presenter is not None

        def take(req: Request = req) -> None:
            # called while the privacy screen still covers the table, so the first paint
            # after it is gone already shows the new player's side
            self.keyboard = req.seat
            if rnd is not None:
                rnd.at_discard[req.seat] = req.view
            # (a LAN request can be withdrawn while the privacy screen is up)
            self.request_now = None if req.future.done() else req
            self.presenter.request_changed()

        if req.seat != self.keyboard and self.hot_seat:
            self._handoff = self._round_handoff(rnd, req.seat) if rnd is not None else None
            try:
                await self.presenter.privacy(req.seat, take)
            finally:
                self._handoff = None
            if req.future.done():
                return
        take()
        await asyncio.wait([req.future])
        if self.request_now is req:
            self.request_now = None
            self.presenter.request_changed()

    # -- the public call window (module docstring) --------------------------------------------
    #: seconds a hot-seat call window stays open (the same for every discard)
    call_seconds: float = 1.5

    def call_window(self) -> ClaimRound | None:
        """The public call window open now (hot-seat), or None."""
        rnd = self.claim_round
        return rnd if rnd is not None and rnd.stage == "window" else None

    def call(self, seat: int) -> bool:
        """``seat``'s player pressed his call key in the open window.  Returns False (and
        does nothing) when no window is open or ``seat`` has no call key in it (or already
        called).  The window closes once every seat with a key has called."""
        rnd = self.call_window()
        if rnd is None or seat not in rnd.keys or seat in rnd.called:
            return False
        rnd.called.append(seat)
        if all(k in rnd.called for k in rnd.keys):
            rnd.closed.set()
        if self.presenter is not None:
            self.presenter.table_changed()
        return True

    def close_call_window(self) -> bool:
        """Close the open window now (Space: the others do not call).  False when none is open."""
        rnd = self.call_window()
        if rnd is None:
            return False
        rnd.closed.set()
        return True

    async def _call_window(self, rnd: ClaimRound) -> None:
        """Show the public window for :attr:`call_seconds` (or until closed), then answer the
        prompts of those who did not call and go on to the calls."""
        assert self.presenter is not None
        loop = asyncio.get_running_loop()
        rnd.deadline = loop.time() + self.call_seconds
        self.presenter.table_changed()
        try:
            await asyncio.wait_for(rnd.closed.wait(), self.call_seconds)
        except asyncio.TimeoutError:
            pass
        rnd.stage = "calls"
        if rnd.asked is not None and rnd.asked not in rnd.called:
            rnd.called.append(rnd.asked)
        self.presenter.table_changed()
        for seat in sorted(rnd.claimants - set(rnd.called)):
            req = await self._take(seat)
            if req is not None and self.claim_round is rnd:
                self.resolve(req, self._uncalled_answer(req))

    def _uncalled_answer(self, req: Request) -> Action:
        """How a seat that did not call answers the table: a win with auto-win on, else pass."""
        wins = [a for a in req.legal if a.kind == "win"]
        if wins and req.seat in self.auto_win:
            return wins[0]
        return next(a for a in req.legal if a.kind == "pass")

    async def _serve_call(self, rnd: ClaimRound) -> None:
        """The next caller of ``rnd``: his claim prompt, or "Nothing to claim"; once every
        caller is served (and the table's window closed), the round is over."""
        assert self.presenter is not None
        order = rnd.order()
        if not order:
            await self._settled(rnd)
            self._end_round()
            return
        seat = order[0]
        if seat in rnd.claimants:
            req = await self._take(seat)
            if req is None or self.claim_round is not rnd:
                return
            answer = self.auto_answer(req) if seat == rnd.asked else None
            if answer is not None:
                # answered by a toggle (auto-win): the same hand-over as for any caller
                self.resolve(req, answer)
                await self._nothing(rnd, seat, f"Auto-win: {answer.describe()}.")
            else:
                await self._serve(req, rnd)
            rnd.served.append(seat)
            return
        if seat != self.keyboard:
            await self._nothing(rnd, seat, f"Nothing to {'claim' if rnd.what == 'discard' else 'rob'} on {rnd.tile}.")
        rnd.served.append(seat)

    async def _nothing(self, rnd: ClaimRound, seat: int, then: str) -> None:
        """Hand the keyboard to ``seat`` (a caller) to read ``then`` behind the privacy screen."""
        assert self.presenter is not None

        def take(seat: int = seat) -> None:
            self.keyboard = seat
            self.request_now = None
            self.presenter.request_changed()

        self._handoff = self._round_handoff(rnd, seat, then)
        try:
            await self.presenter.privacy(seat, take)
        finally:
            self._handoff = None

    def _start_round(self, rnd: ClaimRound) -> None:
        self.claim_round = rnd
        if self.keyboard is not None:
            self._bottom = self.keyboard
        rnd.bottom = self._bottom
        if rnd.stage == "window":
            self.keyboard = None  # the public window: nobody's hand is face up
        if self._queue is not None:
            self._queue.put_nowait(None)  # wake the desk
        self._wake_round()

    def _end_round(self) -> None:
        """The round is over: the live table is drawn again and the held news is told."""
        rnd = self.claim_round
        if rnd is None:
            return
        self.claim_round = None
        for ev in rnd.held:
            self.note_event(ev)
        self._round_over()
        self._wake_round()
        if self.presenter is not None:
            self.presenter.table_changed()

    def _round_over(self) -> None:
        """Hook: a claim round just ended."""

    def _wake_round(self) -> None:
        if self._round_moved is not None:
            self._round_moved.set()

    async def _round_event(self) -> None:
        """Wait for the next change of the round or the table (see :meth:`_wake_round`)."""
        if self._round_moved is None:
            self._round_moved = asyncio.Event()
        self._round_moved.clear()
        await self._round_moved.wait()

    async def _settled(self, rnd: ClaimRound) -> None:
        """Wait until the round's window of the table is closed (every answer applied)."""
        while self._in_claim_window():
            await self._round_event()

    def _in_claim_window(self) -> bool:  # pragma: no cover - a local table only
        return False

    def answer(self, action: Action) -> bool:
        """The player at the keyboard chose ``action`` for the current request.  Returns False
        (and does nothing) if there is no such request or the action is not one of its legal
        actions."""
        req = self.request_now
        return req is not None and self.resolve(req, action)

    def resolve(self, req: Request, action: Action) -> bool:
        """Answer ``req`` with ``action`` (shown or not).  Returns False (and does nothing) if
        ``req`` is already answered or withdrawn, or ``action`` is not one of its legal
        actions."""
        if req.future.done() or action not in req.legal:
            return False
        req.future.set_result(action)
        self._answered(req, action)
        if action.kind == "pass":
            self._note_pass(req)
        return True

    def _note_pass(self, req: Request) -> None:
        """The seat's own pass goes into its move log (for it alone), after the discard it
        passed on: held, as the discard is, while a claim round lasts."""
        text = pass_text(req.view, self.name, req.seat)
        if text is None:
            return
        if self.claim_round is not None:
            self.claim_round.held.append({"type": "pass", "seat": req.seat, "text": text, "private": True})
        else:
            self.moves.add_private(req.seat, text)

    def _answered(self, req: Request, action: Action) -> None:
        """Called once ``req`` is answered: nothing more at a local table (the seat's
        ``decide`` is waiting on the future); LAN: send the answer to the table."""

    #: how many later event lines an instant payment stays on the status line
    PAYMENT_LINGER = 6

    def emit_text(self, text: str) -> None:
        self.last_text = text
        if self.presenter is not None:
            self.presenter.event_text(text)

    def note_event(self, ev: dict) -> None:
        """Put a public event into words on the status line (:func:`describe_event`) and in
        the move log (:attr:`moves`); an instant payment also stays for
        :data:`PAYMENT_LINGER` further lines, a new hand forgets it."""
        if self.claim_round is not None:  # told when the round is over
            self.claim_round.held.append(ev)
            return
        if ev.get("type") == "pass" and ev.get("private"):  # a seat's own pass (_note_pass)
            self.moves.add_private(ev["seat"], ev["text"])
            return
        text = describe_event(ev, self.name, self.variant)
        if text:
            self.moves.add_event(ev, text)
        if ev.get("type") == "hand_start":
            self.payment_text = ""
        if not text:
            return
        if ev.get("type") == "instant_payment":
            self.payment_text = text
            self._texts_since_payment = 0
        else:
            self._texts_since_payment += 1
        self.emit_text(text)

    def recent_payment(self) -> str:
        """The latest instant payment in words while it is recent (else ''): the table shows
        it on a line of its own."""
        return self.payment_text if self._texts_since_payment <= self.PAYMENT_LINGER else ""


def given_names(names: Sequence[object] | None, seats: Sequence[str]) -> list[str | None]:
    """Four names, one per seat, for the human seats of ``seats``: each of ``names`` (by
    seat) that is a string with something printable in it (control characters dropped, cut
    to :data:`mahjong_tui.history.NAME_CHARS`), else None (the usual name: You, Player N);
    bots keep their names (Bot N)."""
    from ..history import NAME_CHARS

    out: list[str | None] = []
    for i in range(4):
        n = names[i] if names is not None and i < len(names) else None
        if isinstance(n, str) and seats[i].split(":", 1)[0] == "human":
            n = "".join(ch for ch in n if ch.isprintable()).strip()[:NAME_CHARS]
            out.append(n or None)
        else:
            out.append(None)
    return out


class GameSession(DeskSession):
    """A match being played: builds the table (new, or replayed from a saved log), the seats
    and the runner; :meth:`play` runs it to the end with ``presenter`` showing it.

    - ``seats``: four seat strings (``human``, ``ai``, ``ai:LEVEL``; ``remote`` is refused by
      the caller: a LAN table is a :class:`~mahjong_tui.ui.netsession.NetSession`);
    - ``bot_delay``: seconds each bot pauses before acting (0 in tests);
    - ``log``: resume from this saved game (its variant, seed, match length, seats, actions).
    """

    can_save = True

    def __init__(self, variant: Variant, seed: int | str, seats: Sequence[str], *, hands: int | None = None,
                 bot_delay: float = 0.4, variant_ref: str | None = None, log: GameLog | None = None,
                 names: Sequence[str | None] | None = None):
        self.variant_ref = variant_ref or variant.id
        self.seed = seed
        self.seat_strings = list(seats)
        #: the players' own names, by seat (None or "": the usual name); a resumed match's
        #: come from its log (header ``names``) unless ``names`` is given
        self.given_names: list[str | None] = given_names(names if names is not None else
                                                         (log.names if log is not None else None), self.seat_strings)
        self.specs: list[SeatSpec] = [replace(spec, name=n) if n else spec
                                      for spec, n in zip(seat_specs(self.seat_strings), self.given_names)]
        super().__init__(variant, [i for i, s in enumerate(self.specs) if s.human])
        self.table = log.replay() if log is not None else Table(variant, seed, hands)
        if log is not None:  # a resumed match keeps its players' call toggles (saved by game_log)
            self.restore_toggles(log.settings)
        self._bots = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mahjong-bots")
        players: list[object] = []
        for i, spec in enumerate(self.specs):
            if spec.human:
                players.append(HumanSeat(i, self))
            else:
                # every bot thinks on the one bot thread: a slow bot never freezes the screen or
                # the keys; decisions never overlap, and each is the same function of the view
                # as on the event loop (bots only read the view given), so games stay
                # deterministic
                bot = make_bot(self.seat_strings[i], variant, i, seed)
                players.append(BotSeat(bot, bot_delay, executor=self._bots))
        self.runner = TableRunner(self.table, players, on_events=self._on_events, on_action=self._on_action)
        self._ended: list[dict] = []
        #: a robbing round due once the current claim round is over (seat, tile, what)
        self._pending_round: tuple[int, str, str] | None = None
        self.finished = self.table.phase == "match_over"
        #: the journal file (None until :meth:`open_journal`, or if it could not be written)
        self.journal_path: Path | None = None
        self._journal: LogWriter | None = None
        self._saved_to_journal = False
        #: what the journal file held before this session wrote to it (a resumed match
        #: journalled in place, :meth:`continue_journal`): put back unless the player saves
        self._journal_before: bytes | None = None
        #: the saved game this match was resumed from (the quit dialog offers to save there)
        self.resumed_from: Path | None = None

    # -- who is shown -------------------------------------------------------------------------
    def shows_hand(self, seat: int) -> bool:
        """May the concealed tiles of ``seat`` be drawn face up now?  Only a bot's (nobody at
        the table is hiding them from anyone in a bots-only table) or the one human at the
        keyboard."""
        if not self.specs[seat].human:
            return not self.humans
        return seat == self.keyboard

    def name(self, seat: int) -> str:
        return self.specs[seat].name

    def view(self) -> dict:
        """The table as the bottom seat may see it; during a claim round, as it was when the
        window opened (or in the seat's own claim prompt: module docstring)."""
        rnd = self.claim_round
        if rnd is not None:
            shown = rnd.at_discard.get(self.perspective)
            if shown is not None:
                return shown
        return self.table.view(self.perspective)

    def phase(self) -> str:
        return self.table.phase

    def history(self) -> list[dict]:
        return list(self.table.history)

    def plays_by_hand(self, seat: int) -> bool:
        return self.specs[seat].human

    # -- the game loop ------------------------------------------------------------------------
    async def play(self) -> None:
        """Run the match to its end (or :meth:`stop`), pausing at each hand's end."""
        assert self.presenter is not None, "attach a presenter first"
        self._queue = asyncio.Queue()
        desk = asyncio.ensure_future(self._desk())
        try:
            if not self.moves.entries:
                # the first deal happened when the table was built, before anyone listened:
                # tell its public events now (a bite at the deal, singapore.md "Settlement", among
                # them); a resumed table tells the hand so far, so its move log is not empty
                for ev in self.table.events:
                    self.note_event(event_for(ev, None))
            self.presenter.table_changed()
            while not self._stopped and self.table.phase != "match_over":
                self._ended = []
                await self.runner.step()
                painted = getattr(self.presenter, "painted", None)  # a key's answer on the screen first
                await (painted() if painted is not None else asyncio.sleep(0))
                # a claim round holds the table until its windows are served (a claim window
                # of the table itself runs: it asks the seats that can claim)
                while not self._stopped and self.claim_round is not None and not self._in_claim_window():
                    await self._round_event()
                for summary in self._ended:
                    if self._stopped:
                        break
                    await self.presenter.hand_over(summary)
            if not self._stopped and self.table.phase == "match_over":
                self.finished = True
                await self.presenter.match_over()
        finally:
            desk.cancel()
            self._bots.shutdown(wait=False, cancel_futures=True)
            match_ended()  # the runner froze what outlived each hand (mahjong_tui.ai.memory)

    def stop(self) -> None:
        self._stopped = True
        self.runner.stop()
        self._wake_round()
        req = self.request_now
        if req is not None and not req.future.done():
            req.future.cancel()

    async def request(self, seat: int, view: dict, legal: list[Action]) -> Action:
        """Called by a :class:`HumanSeat`: queue the decision and wait for the answer."""
        assert self._queue is not None
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        req = Request(seat, view, legal, fut)
        self._queue.put_nowait(req)
        return await fut

    # -- runner callbacks -----------------------------------------------------------------------
    def _on_events(self, seat: int, events: list[dict]) -> None:
        if seat != 0:  # public parts are the same for every seat: read them once
            return
        for i, ev in enumerate(events):
            kind = ev.get("type")
            if kind == "hand_end":
                self._ended.append(ev)
            # the table says itself, in public, where it opens a window: a claim_window event
            # right after the discard, the kong declared or the bonus tile set aside
            what = _WINDOW_AFTER.get(kind) if i + 1 < len(events) and \
                events[i + 1].get("type") == "claim_window" else None
            if what:
                tile = ev.get("tile")  # none for a hidden concealed kong
                tile = T.long_name(T.parse_tile(tile)) if what == "bonus" else tile or "a hidden tile"
                if self.claim_round is None:
                    self._open_round(ev["seat"], tile, what)
                elif what != "discard":  # a bonus tile drawn after a discard: once that round is over
                    self._pending_round = (ev["seat"], tile, what)
            self.note_event(ev)

    def _on_action(self, action: Action) -> None:
        self._wake_round()
        if self.presenter is not None:
            self.presenter.table_changed()

    # -- claim rounds (module docstring) --------------------------------------------------------
    def _round_over(self) -> None:
        pending, self._pending_round = self._pending_round, None
        if pending is not None and not self._stopped:
            self._open_round(*pending)

    def _open_round(self, seat: int, tile: str, what: str) -> None:
        rnd = self._new_round(seat, tile, what)
        if rnd is not None:
            self._start_round(rnd)

    def call_keys(self, discarder: int) -> list[int]:
        """The human seats offered a call key after ``discarder``'s discard (or kong, or bonus
        tile), in turn order after it: every human but the discarder, except those with "no
        calls" on — decided from the seating and the toggles alone."""
        ring = [(discarder + k) % 4 for k in (1, 2, 3)]
        return [h for h in ring if h in self.humans and h not in self.no_calls]

    def _new_round(self, discarder: int, tile: str, what: str = "discard") -> ClaimRound | None:
        if not self.hot_seat:
            return None
        keys = self.call_keys(discarder)
        if not keys or keys == [self.keyboard]:
            return None  # nobody else to hide the hand from: the holder's prompt comes as it is
        claiming = self.table.phase == _window_phase(what)
        # the seats that may claim are asked (requests come); a forced pass the runner answers
        forced = {a.seat for a in self.table.forced_passes()}
        owed = [(discarder + k) % 4 for k in (1, 2, 3) if (discarder + k) % 4 in self.humans]
        claimants = {h for h in owed if claiming and h not in forced and self.table.legal_actions(h)}
        nxt = (discarder + 1) % 4
        asked = nxt if (what == "discard" and nxt in keys and nxt not in self.auto_draw
                        and self.variant.claims.get("next_player_pickup")) else None
        at_discard = {h: self.table.view(h) for h in self.humans}
        return ClaimRound(discarder, tile, self.table.hand_index, keys, claimants, at_discard, asked=asked, what=what)

    def _in_claim_window(self) -> bool:
        """Is the table's window of the current round (a discard's claims, or a robbing) open?"""
        rnd = self.claim_round
        return self.table.phase == _window_phase(rnd.what if rnd is not None else "discard")

    # -- saving -------------------------------------------------------------------------------
    def game_log(self) -> GameLog:
        """The match as a save file: the table's log, with the human seats' call toggles
        (``settings``: ``auto_draw``, ``auto_win``, ``no_calls``, each a list of seats;
        :meth:`toggle_settings`) so that a resumed match keeps them."""
        log = GameLog.for_table(self.table, self.variant_ref, self.seat_strings)
        log.settings = self.toggle_settings()
        if any(self.given_names):  # the usual names are not written: an older reader sees them too
            log.names = [self.name(i) for i in range(4)]
        return log

    def save(self, path: str | Path) -> Path:
        """Write the game log (the save file) to ``path``; returns the path written.
        Raises ``OSError`` if it cannot be written."""
        p = Path(path).expanduser()
        private_dir(p.parent)
        if self.journal_path is not None and _same_file(p, self.journal_path):
            self._close_journal_file()  # the whole log replaces it: nothing more is appended
            self._saved_to_journal = True
        self.game_log().save(p)
        return p

    @property  # type: ignore[override]
    def save_path(self) -> Path | None:
        """Where "save" goes by default: the file this match was resumed from, else its
        journal (None if neither)."""
        return self.resumed_from or self.journal_path

    def open_journal(self, path: str | Path) -> str | None:
        """Start writing the match to ``path`` (JSON Lines, :class:`~mahjong_tui.engine.log.
        LogWriter`): the log so far at once, then every action as the runner applies it,
        flushed (its ``log``, as a LAN server's journal).  A name taken by another file gets a
        ``-2``… suffix.  Returns None, or why the file cannot be written (the game goes on
        without one)."""
        p = Path(path).expanduser()
        try:
            private_dir(p.parent)
            for n in range(2, 100):  # never another game's file (two tables started in one second)
                try:
                    fh = open_private(p, "x")
                    _lock(fh)  # a new file: nobody else holds it
                    break
                except FileExistsError:
                    p = p.with_name(f"{Path(path).stem}-{n}{p.suffix}")
            else:
                raise FileExistsError(17, "every name is taken")
            self._journal = LogWriter(fh, self.game_log())
        except OSError as exc:
            self._journal = None
            return f"the game cannot be written to {p}: {exc.strerror or exc}"
        self.journal_path = p
        self.runner.log = self._journal
        return None

    def continue_journal(self) -> str | None:
        """Journal a resumed match into the file it was resumed from (:attr:`resumed_from`),
        so a closed terminal after a resume leaves one file, complete: the file is replaced
        at once (a temporary file, then an atomic rename) by the log so far, and every action
        is appended and flushed as :meth:`open_journal` does.  Its old contents are kept in
        memory and written back by :meth:`close_journal` unless the player saved.  Returns
        None, or why the file cannot be written (the caller then opens a journal elsewhere)."""
        p = self.resumed_from
        if p is None:
            return "the match was not resumed from a file"
        tmp = p.with_name(f".{p.name}.tmp")
        try:
            with open(p, "rb") as old:  # held (and locked) until the new file is locked
                if not _lock(old):
                    return f"{p} is being played in another window"
                before = old.read()
                with open_private(tmp, "w") as fh:
                    LogWriter(fh, self.game_log())
                os.replace(tmp, p)
                fh = open(p, "a", encoding="utf-8")
                _lock(fh)
            self._journal = LogWriter(fh, None)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            return f"the game cannot be written to {p}: {exc.strerror or exc}"
        self._journal_before = before
        self.journal_path = p
        self.runner.log = self._journal
        return None

    def _close_journal_file(self) -> None:
        if self._journal is not None:
            self.runner.log = None
            try:
                self._journal.close()
            except OSError:
                pass
            self._journal = None

    def close_journal(self, keep: bool = False) -> None:
        """Stop journalling; unless ``keep`` (the game stopped on an error and the file is how
        it comes back) or the player saved to it (:meth:`save`), delete the file — or, for a
        match journalled in the file it was resumed from, write back what that file held."""
        self._close_journal_file()
        if not (keep or self._saved_to_journal) and self.journal_path is not None:
            p, before = self.journal_path, self._journal_before
            try:
                if before is None:
                    p.unlink()
                else:
                    tmp = p.with_name(f".{p.name}.tmp")
                    with open_private(tmp, "wb") as fh:
                        fh.write(before)
                    os.replace(tmp, p)
            except OSError:
                pass
            self.journal_path = None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
