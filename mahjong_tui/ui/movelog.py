"""The move log of the hand in play (issue 21, item 5): what happened, one line a move, for the
side panel of the table and the ``l`` screen.

Its lines are the status line's words for the public events (:func:`~mahjong_tui.ui.model.
describe_event`: discards, claims, kongs, bonus tiles set aside, indicators, instant payments, the
deal), so the two never disagree, plus a seat's own passes in a claim window ("You pass on 5m"),
which only that seat may read: the table asks only the seats that can claim, so another seat's
pass would tell that it held a pair.  A table joined mid-hand (LAN) reads the hand so far back
from its view (:func:`rebuild_from_view`).  :meth:`MoveLog.visible` gives a seat the public lines and
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


#: the first line of a log read back from a view (a LAN table joined mid-hand)
FROM_VIEW = "Before you joined (read from the ponds and melds):"
#: said instead when the view does not tell the order (a call that made no meld, e.g. Classic's pickup)
FROM_VIEW_UNKNOWN = "Before you joined: the moves are in the ponds and melds"


def events_from_view(view: dict) -> list[dict] | None:
    """The discards and calls of the hand so far, in turn order, read back from a seat's
    ``view`` alone (public parts: each pond in order with its claimed discards, each meld's
    claimed tile and the seat it came from): the dealer discards first, a discard not claimed
    passes the turn to the next seat, a claimed one to the seat whose meld holds it.  Events
    shaped as the table's ``discard`` and ``claim`` events.  None when the view does not fix
    the order (a claimed discard found in no meld, or discards left over)."""
    players = view["players"]
    ponds = [list(p["pond"]) for p in players]
    melds = [[m for m in p["melds"] if m.get("from_seat") is not None and m.get("claimed")] for p in players]
    used: set[tuple[int, int]] = set()
    at = [0, 0, 0, 0]
    seat = view.get("dealer", 0)
    out: list[dict] = []
    for _ in range(sum(len(p) for p in ponds)):
        if at[seat] >= len(ponds[seat]):
            break
        tile, claimed = ponds[seat][at[seat]]
        at[seat] += 1
        out.append({"type": "discard", "seat": seat, "tile": tile})
        if not claimed:
            seat = (seat + 1) % 4
            continue
        hit = next(((c, j) for c in range(4) for j, m in enumerate(melds[c])
                    if (c, j) not in used and m["from_seat"] == seat and m["claimed"] == tile), None)
        if hit is None:
            return None
        used.add(hit)
        c, j = hit
        m = melds[c][j]
        kind = "kong" if m.get("kong_type") else m["kind"]
        out.append({"type": "claim", "seat": c, "kind": kind, "tile": tile, "from": seat, "tiles": m["tiles"]})
        seat = c
    if any(at[s] < len(ponds[s]) for s in range(4)):
        return None
    return out


def rebuild_from_view(log: MoveLog, view: dict, describe: Callable[[dict], str | None]) -> bool:
    """Fill an empty ``log`` with the hand so far as :func:`events_from_view` reads it from
    ``view`` (``describe(event)``: its words, the status line's), under a line saying where it
    comes from.  Returns False (the log untouched) if the log is not empty or nothing was
    played yet."""
    if log.entries or not any(p["pond"] or p["melds"] for p in view["players"]):
        return False
    events = events_from_view(view)
    if events is None:
        log.add_event({"type": "view"}, FROM_VIEW_UNKNOWN)
        return True
    log.add_event({"type": "view"}, FROM_VIEW)
    for ev in events:
        text = describe(ev)
        if text:
            log.add_event(ev, text)
    return True
