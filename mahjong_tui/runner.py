"""The async table runner: asks seats for decisions, runs claim windows, applies actions,
appends them to the game log, and hands every seat its own events.

Hot-seat play, the LAN server and tests all use this runner (DESIGN.md).  ``sim`` uses the
plain loop of :mod:`mahjong_tui.sim` for speed; both drive the same :class:`Table`.

A seat is any object with

- ``async decide(view: dict, legal: list[Action]) -> Action`` — one decision;
- ``notify(events: list[dict]) -> None`` — optional, events already redacted for that seat.

The table opens a claim window after every discard (and a robbing window after every added
kong it lets be robbed, ...) and asks every seat the rules let claim; a seat that cannot claim
has only ``pass`` (:meth:`Table.forced_passes`).  The runner answers those passes itself at
once, for bots and people alike, without asking the seat, and does not log them (a game log
holds decisions only: :meth:`Table.apply_decision`).  The other seats of a window are asked at
once; a bot answers at once (after its pause), so a claim window never waits on a bot while a
person thinks.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Protocol, Sequence

from .ai.baseline import Bot
from .ai.memory import hand_ended, match_ended
from .engine import Action, Table, event_for
from .engine.log import LogWriter
from .errors import IllegalAction


class Seat(Protocol):  # pragma: no cover - typing only
    async def decide(self, view: dict, legal: list[Action]) -> Action: ...


class BotSeat:
    """A bot in a seat, with an optional pause (seconds) before its turns so a person can
    follow it.

    No pause before a claim decision (the view's phase ``claim`` or ``rob``): a bot is asked
    there only when it may claim (a forced pass is answered for it), so a bot that paused
    there would tell everyone watching that it could have claimed the tile, even when it
    passes.

    With ``executor`` (a :class:`concurrent.futures.Executor`) the bot thinks off the event
    loop, so a slow decision never freezes a screen or a server."""

    def __init__(self, bot: Bot, delay: float = 0.0, executor=None):
        self.bot = bot
        self.delay = delay
        self.executor = executor

    async def decide(self, view: dict, legal: list[Action]) -> Action:
        if self.delay and view.get("phase") not in ("claim", "rob"):
            await asyncio.sleep(self.delay)
        if self.executor is None:
            return self.bot.choose(view, legal)
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.bot.choose, view, legal)


class TableRunner:
    """Runs ``table`` with ``seats`` until the match ends (or :meth:`stop`).

    ``log``: a :class:`LogWriter` appended (and flushed) before events go out.
    ``on_events(seat, events)``: called for each seat with its redacted events after each action.
    ``on_action(action)``: called after each applied action (a forced pass only when it closes
    its window: before that it changes nothing anyone sees).
    """

    def __init__(self, table: Table, seats: Sequence[object], log: LogWriter | None = None,
                 on_events: Callable[[int, list[dict]], None] | None = None,
                 on_action: Callable[[Action], None] | None = None):
        self.table = table
        self.seats = list(seats)
        self.log = log
        self.on_events = on_events
        self.on_action = on_action
        self._stopped = False

    def stop(self) -> None:
        self._stopped = True

    def _apply(self, action: Action) -> None:
        decisions = len(self.table.actions)
        events = self.table.apply(action)
        forced = len(self.table.actions) == decisions
        if forced and not events:
            return  # a forced pass inside a window that stays open: nothing anyone sees changed
        if self.log is not None and not forced:
            self.log.append(action)
        for s in range(4):
            seat = self.seats[s]
            mine = [event_for(e, s) for e in events]
            notify = getattr(seat, "notify", None)
            if notify is not None:
                notify(mine)
            if self.on_events is not None:
                self.on_events(s, mine)
        if self.on_action is not None:
            self.on_action(action)
        if any(e.get("type") == "hand_end" for e in events):
            # what outlived the hand is long-lived: no full collection of it inside a bot's
            # decision (mahjong_tui.ai.memory)
            hand_ended()

    async def _ask(self, seat_index: int) -> Action:
        table = self.table
        seat = self.seats[seat_index]
        while True:
            legal = table.legal_actions(seat_index)
            action = await seat.decide(table.view(seat_index), legal)
            if action in legal:
                return action
            # a seat that answers with something illegal is told and asked again
            report = getattr(seat, "illegal", None)
            if report is not None:
                report(IllegalAction(f"{action.describe()} is not allowed now"))

    async def step(self) -> None:
        """One round of decisions: the current player, or every seat of a claim window."""
        table = self.table
        forced = table.forced_passes()
        if forced:  # nobody is asked for a pass that is the only choice
            for a in forced:
                self._apply(a)
            return
        waiting = table.waiting_for()
        if not waiting:
            return
        seq = table.seq
        if len(waiting) == 1:
            action = await self._ask(waiting[0])
            if table.seq == seq:
                self._apply(action)
            return
        tasks = {asyncio.ensure_future(self._ask(s)): s for s in waiting}
        try:
            pending = set(tasks)
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for fut in sorted(done, key=lambda f: tasks[f]):
                    action = fut.result()
                    if action in table.legal_actions(action.seat):
                        self._apply(action)
        finally:
            for fut in tasks:
                if not fut.done():
                    fut.cancel()

    async def run(self) -> None:
        """Play until the match is over or :meth:`stop` is called."""
        try:
            while not self._stopped and self.table.phase != "match_over":
                await self.step()
                await asyncio.sleep(0)
        finally:
            match_ended()
