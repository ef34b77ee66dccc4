"""The lock on a game journal: one rule for every table that journals a match (a local game,
``mahjong_tui.ui.session``; a LAN ``host`` / ``serve``, ``mahjong_tui.net.commands``).

A journal is locked (``flock``, exclusive) for as long as its table plays, on the open file
the table appends to.  The lock goes with the file descriptor: closing the file or ending the
process (even a crash or ``kill -9``) releases it, so there is never a stale lock to clear by
hand.  Another mahjong-tui that finds a journal locked does not offer, resume, replay or serve
it (:func:`journal_in_use`): resuming it too would cut the running table's moves off its file,
and a replay shows every hand.  Where the system has no ``flock`` journals are not locked.

A journal holds the seed (every hand and the whole wall), so it is created readable by its owner
only (mode 0600, in a folder made 0700: :func:`mahjong_tui.paths.open_private`).

No Textual, no asyncio here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .engine.log import MAX_LOG_BYTES, GameLog, LogWriter, decode_log
from .errors import LogError
from .paths import open_private, private_dir, size_text

try:
    import fcntl
except ImportError:  # not a POSIX system: journals are not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["lock_journal", "journal_in_use", "JournalClaim", "JournalInUse"]


def lock_journal(fh) -> bool:
    """Take an exclusive lock on the open journal ``fh`` (any file object with ``fileno()``)
    for as long as it stays open; False if another open file holds one (True where there is
    no flock)."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def journal_in_use(path: str | Path) -> bool:
    """Is ``path`` the journal of a game being played now (its lock is held by another
    mahjong-tui, or by another table of this one)?  False for a file that cannot be read or
    where the system has no flock."""
    if fcntl is None:
        return False
    try:  # O_NONBLOCK: a pipe must not keep us waiting for a writer (it is no journal)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        return False
    finally:
        os.close(fd)


class JournalInUse(LogError):
    """The journal is locked: another table (another mahjong-tui, or another table of this
    one) is playing its match now."""


class JournalClaim:
    """A journal file held (locked) by a table before the table touches it.

    :meth:`take` locks ``path`` as it is (creating an empty file when there is none, so that
    two tables started at once cannot both take a new name) and reads what it holds
    (:attr:`text`); nothing is written.  The table decides what to do (resume the match in
    it, or start one) and gets ready (a LAN server binds its port); only then does
    :meth:`open` replace the file, atomically, by the log so far and keep it open, locked,
    for appending.  :meth:`release` gives the file up: closing it unlocks it, and a file
    this claim created and never wrote is removed (a table that could not start leaves
    nothing behind).  Raises :class:`JournalInUse` when the file is locked already.
    """

    def __init__(self, path: Path, fh, created: bool, text: str):
        self.path = path
        self.text = text
        self._held = fh  # the claimed file, locked (until open() swaps a new one in)
        self._created = created
        self.writer: LogWriter | None = None

    @classmethod
    def take(cls, path: str | Path) -> "JournalClaim":
        """Lock ``path`` and read it (see the class docstring).  Raises
        :class:`JournalInUse`, or :class:`~mahjong_tui.errors.LogError` when it cannot be
        opened."""
        p = Path(path).expanduser()
        try:
            private_dir(p.parent)
            created = not p.exists()
            if not created and not p.is_file():  # a folder, a device (/dev/zero), a pipe
                raise LogError(f"{p} is not a regular file; a journal (--log FILE) is a file")
            # creates a missing file (0600: the journal holds the seed); changes nothing else
            fh = open_private(p, "a+b")
        except OSError as exc:
            raise LogError(f"{p}: cannot open the journal: {exc.strerror or exc}") from None
        if not lock_journal(fh):
            fh.close()
            raise JournalInUse(f"{p} is the journal of a match being played now (another mahjong-tui "
                               "serves or plays it); nothing was changed: use another --log, or close "
                               "that table first")
        try:
            fh.seek(0)
            data = fh.read(MAX_LOG_BYTES + 1)
            if len(data) > MAX_LOG_BYTES:
                raise LogError(f"{p}: larger than {size_text(MAX_LOG_BYTES)}, the most a game log may hold")
            text = decode_log(data, str(p))
        except LogError:
            fh.close()
            raise
        except OSError as exc:
            fh.close()
            raise LogError(f"{p}: cannot read the journal: {exc}") from None
        return cls(p, fh, created, text)

    #: the log :meth:`open` writes when it is given none (set by the table that claimed the file)
    log: GameLog | None = None

    def open(self, log: GameLog | None = None) -> LogWriter:
        """Replace the file by ``log`` (default :attr:`log`; header and actions so far: a torn last line is gone)
        through a temporary file locked before it takes the journal's name, and return the
        writer that appends (and flushes) each further action.  Raises ``OSError``."""
        assert self._held is not None, "released"
        log = log if log is not None else self.log
        assert log is not None, "no log to write"
        tmp = self.path.with_name(self.path.name + ".tmp")
        fh = open_private(tmp, "w")
        try:
            lock_journal(fh)  # a fresh file: nobody else holds it
            writer = LogWriter(fh, log)
            os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            fh.close()
            tmp.unlink(missing_ok=True)
            raise
        self._held.close()  # the old file (no longer under the journal's name)
        self._held = fh
        self._created = False
        self.writer = writer
        return writer

    def release(self) -> None:
        """Close the journal (unlocking it); remove it if this claim created it and never
        wrote it.  Idempotent."""
        fh, self._held = self._held, None
        if fh is None:
            return
        if self._created and self.writer is None:
            try:  # still locked: nobody else can have taken it meanwhile
                if self.path.stat().st_size == 0:
                    self.path.unlink()
            except OSError:
                pass
        try:
            fh.close()
        except OSError:
            pass
