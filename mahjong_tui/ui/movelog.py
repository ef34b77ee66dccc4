"""The move log of the hand in play (issue 21, item 5): what happened, one line a move, for the
side panel of the table and the ``l`` screen.

Its lines are the status line's words for the public events (:func:`~mahjong_tui.ui.model.
describe_event`: discards, claims, kongs, bonus tiles set aside, indicators, instant payments, the
deal), so the two never disagree, plus a seat's own passes in a claim window ("You pass on 5m"),
which only that seat may read: the table asks only the seats that can claim, so another seat's
pass would tell that it held a pair.  :meth:`MoveLog.visible` gives a seat the public lines and
its own; a hot-seat table shows the player at the keyboard only his.

No Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class LogEntry:
    """One line of the log: ``text``; ``seat`` whose move it is (None: the table's, e.g. an
    indicator); ``kind`` the event type (``discard``, ``claim``, ``kong``, ``bonus``,
    ``instant_payment``, ``hand_start``, ``pass``, ...); ``only`` the one seat that may read it
    (None: everybody)."""

    text: str
    seat: int | None = None
    kind: str = ""
    only: int | None = None
    claim: str = ""  # a claim's kind (pung, kong, chow, pickup)


class MoveLog:
    """The lines of the hand in play, oldest first; a new hand starts a new log."""

    #: lines kept (a hand rarely has half as many)
    LIMIT = 400

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def add_event(self, ev: dict, text: str) -> None:
        """A public event ``ev`` told as ``text`` (its status-line words)."""
        kind = str(ev.get("type", ""))
        if kind == "hand_start":
            self.entries = []
        seat = ev.get("seat", ev.get("dealer") if kind == "hand_start" else None)
        last = self.entries[-1] if self.entries else None
        if (kind == "kong" and ev.get("kong_type") == "exposed" and last is not None and last.kind == "claim"
                and last.seat == seat and last.claim == "kong"):
            return  # "Bot 2 kongs E from You" says it: not "... declares an exposed kong of E" too
        if kind == "claim":
            self._add(LogEntry(text, seat, kind, claim=str(ev.get("kind", ""))))
            return
        self._add(LogEntry(text, seat if isinstance(seat, int) else None, kind))

    def add_chat(self, seat: int, who: str, text: str) -> None:
        """A chat message of ``seat`` (LAN table talk: ``who``'s words, for everybody)."""
        self._add(LogEntry(f"{who}: {text}", seat, "chat"))

    def add_private(self, seat: int, text: str, kind: str = "pass") -> None:
        """A line only ``seat`` may read (its own pass)."""
        self._add(LogEntry(text, seat, kind, only=seat))

    def _add(self, entry: LogEntry) -> None:
        self.entries.append(entry)
        if len(self.entries) > self.LIMIT:
            del self.entries[: len(self.entries) - self.LIMIT]

    def visible(self, seat: int | None) -> list[LogEntry]:
        """The lines ``seat`` may read (public ones and its own; None: public ones only)."""
        return [e for e in self.entries if e.only is None or e.only == seat]


def pass_text(view: dict, name: Callable[[int], str], seat: int) -> str | None:
    """``'You pass on 5m'`` for ``seat`` passing in the claim or robbing window of ``view``
    (None when the view shows no tile being claimed)."""
    from .model import tile_text

    d = view.get("discard")
    if not d:
        return None
    who = name(seat)
    verb = "pass" if who == "You" else "passes"
    return f"{who} {verb} on {tile_text(d['tile'])}"
