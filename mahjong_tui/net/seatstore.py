"""The seat tokens a LAN client keeps for itself (issue 22), so that ``mahjong-tui join
HOST:PORT`` gets back into its own seat after a crash, a closed terminal or a lost connection
without anyone copying a token.

Where: ``lan-seats/`` in the saves folder (:func:`mahjong_tui.paths.saves_dir`;
``$MAHJONG_TUI_SAVES`` moves it), made 0700; each record a JSON file, mode 0600 (a token is
the only key to its seat)::

    {"version": 1, "host": "192.168.1.5", "port": 7777, "table": "3f9c...", "seat": 2,
     "token": "...", "name": "Ann", "variant": "classic", "saved": 1790000000.0}

A record belongs to one table: the address as typed (host, port) and the table's identity from
its ``hello`` (``table``: it stays the same when the host serves the match again from its
journal, and differs for the next match on the same port).  Several clients of one machine may
sit at one table (three ``join --bot`` filling seats): each takes a *slot* of that table
(``KEY-N.json``, N < :data:`SLOTS`) and holds its lock file (``flock`` on ``KEY-N.lock``) while
it runs, so no other client uses that token at the same time; a client that dies, even by
``kill -9``, lets its lock go, and the next ``join`` takes that slot and its seat.  Where the
system has no ``flock`` the slots are not locked (two clients started at once could pick the
same seat; the second takes it over).

A record is removed when its match is over, or when the table no longer knows the token; at
most :data:`MAX_RECORDS` are kept (the oldest go).

No Textual, no asyncio here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Mapping

from ..journal import lock_journal
from ..paths import open_private, private_dir, read_regular, saves_dir

#: clients of one machine that can hold seats at one table at once
SLOTS = 8
#: records kept in all (the oldest beyond go)
MAX_RECORDS = 256
#: the largest record read
MAX_RECORD_BYTES = 4096


def seats_folder(env: Mapping[str, str] = os.environ) -> Path:
    """``lan-seats`` in the saves folder of ``env`` (it may not exist yet)."""
    return saves_dir(env) / "lan-seats"


def table_key(host: str, port: int, table: str | None) -> str:
    """The file name stem of a table's records: a hash of ``host:port/table`` (host in lower
    case), 24 hex digits."""
    return hashlib.sha256(f"{host.lower()}:{port}/{table or ''}".encode()).hexdigest()[:24]


def read_record(path: Path) -> dict | None:
    """The record at ``path``, or None when there is none or it is not a record (a broken
    file counts as none)."""
    try:
        data = json.loads(read_regular(path, MAX_RECORD_BYTES, "a seat record").decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("token"), str) or not data["token"]:
        return None
    return data


class SeatSlot:
    """One slot of a table, locked by this process until :meth:`release`: its stored
    :attr:`record` (or None), which :meth:`save` replaces and :meth:`forget` removes."""

    def __init__(self, path: Path, lock, record: dict | None):
        self.path = path
        self._lock = lock
        self.record = record

    @property
    def token(self) -> str | None:
        return self.record.get("token") if self.record else None

    def save(self, record: dict) -> None:
        """Write ``record`` (its token, seat, ...) to the slot, atomically, mode 0600.  Raises
        OSError (the caller says so: the seat is not kept)."""
        data = {"version": 1, **record, "saved": time.time()}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open_private(tmp, "w") as fh:
                fh.write(json.dumps(data))
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        self.record = data
        _prune(self.path.parent)

    def forget(self) -> None:
        """Remove the record (the match is over, or the table no longer knows the token)."""
        self.record = None
        with contextlib.suppress(OSError):
            self.path.unlink()

    def release(self) -> None:
        """Let the slot go (another client may take it); idempotent."""
        lock, self._lock = self._lock, None
        if lock is not None:
            with contextlib.suppress(OSError):
                lock.close()


#: a slot's lock file with no record is removed once it is this old (seconds): a week
STALE_LOCK = 7 * 24 * 3600


def _prune(folder: Path) -> None:
    """Keep at most :data:`MAX_RECORDS` records (the oldest, by time written, go) and remove
    the lock files of slots without a record that nobody used for :data:`STALE_LOCK`."""
    try:
        files = list(folder.glob("*.json"))
        locks = list(folder.glob("*.lock"))
    except OSError:
        return
    now = time.time()
    for lock in locks:
        try:
            if not lock.with_suffix(".json").exists() and now - lock.stat().st_mtime > STALE_LOCK:
                lock.unlink()
        except OSError:
            pass
    if len(files) <= MAX_RECORDS:
        return

    def written(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    for p in sorted(files, key=written)[: len(files) - MAX_RECORDS]:
        with contextlib.suppress(OSError):
            p.unlink()


def seat_store(args) -> "SeatStore | None":
    """The :class:`SeatStore` a ``join`` with parsed arguments ``args`` keeps its seat token in
    (``args.seats_folder``, else :func:`seats_folder`); None when a token was given
    (``--token``, ``--token-file``, ``$MAHJONG_TUI_TOKEN``: it wins, and is not kept)."""
    if getattr(args, "token", None):
        return None
    return SeatStore(getattr(args, "seats_folder", None))


class SeatStore:
    """The records under ``folder`` (default :func:`seats_folder`)."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder).expanduser() if folder is not None else seats_folder()

    def take(self, host: str, port: int, table: str | None, *, seat: int | None = None,
             fresh: bool = False) -> SeatSlot | None:
        """A slot of the table at ``host:port`` named ``table`` that no running client holds,
        locked for this process: the one with the newest record (of ``seat``, when given), else
        (or when ``fresh``: the player wants a new seat) an empty one.  None when every slot is
        held, or the folder cannot be made (then the seat is simply not kept)."""
        try:
            private_dir(self.folder)
        except OSError:
            return None
        _prune(self.folder)
        key = table_key(host, port, table)
        held: list[SeatSlot] = []
        for n in range(SLOTS):
            lock_path = self.folder / f"{key}-{n}.lock"
            try:
                lock = open_private(lock_path, "a")
            except OSError:
                continue
            if not lock_journal(lock):
                lock.close()
                continue
            held.append(SeatSlot(self.folder / f"{key}-{n}.json", lock, read_record(self.folder / f"{key}-{n}.json")))
        usable = [s for s in held if s.record is not None and (seat is None or s.record.get("seat") == seat)]
        usable.sort(key=lambda s: float(s.record.get("saved") or 0) if s.record else 0.0, reverse=True)
        empty = [s for s in held if s.record is None]
        chosen = (empty[0] if empty else None) if fresh else (usable[0] if usable else (empty[0] if empty else None))
        for s in held:
            if s is not chosen:
                s.release()
        return chosen
