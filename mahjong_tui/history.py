"""The history: every finished match, kept so it can be replayed and counted (issue 22, item 5).

Where: :func:`mahjong_tui.paths.history_dir` (``history`` beside the saves folder,
``~/.local/share/mahjong-tui/history`` on Linux; ``$MAHJONG_TUI_HISTORY`` moves it).  The
folder is made 0700 and every file in it 0600 (:func:`~mahjong_tui.paths.private_dir`,
:func:`~mahjong_tui.paths.open_private`): a match's log holds its seed.

What is kept: one file a match, ``VARIANT-YYYYMMDD-HHMMSS.jsonl``, written when the match ends
(:func:`record`) by a table at this keyboard (vs AI or hot-seat) and by a LAN table's host
(``host`` and ``serve``).  A joiner keeps nothing: its client only ever sees its own seat's view,
while a history file is the whole game log (seed and every move), which only the host has.

Each file is a game log (``mahjong-tui replay FILE`` opens it; the format is described in
``mahjong_tui/engine/log.py``) whose header line also holds ``"names"``: the four players' names
as the table showed them (``"You"``, ``"Player 2"``, a LAN player's ``--name``, ``"Bot 3"``).
Readers of game logs ignore a header field they do not know, so such a file replays like any
other; a log without ``names`` (an old journal, a save copied in by hand) gets the names the
table gives such seats (:func:`names_of`).

The cap: the folder holds at most :data:`HISTORY_CAP_BYTES` (32 MB, some 500 matches of 16
hands); when a new match would take it over, the oldest matches are dropped first
(:func:`prune`; the match just kept is never dropped).  The menu's History screen deletes one
match or all of them (:func:`delete`, :func:`delete_all`).

No Textual, no asyncio here.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Mapping, Sequence

from .engine.log import GameLog
from .paths import history_dir, open_private, private_dir

__all__ = ["HISTORY_CAP_BYTES", "record", "prune", "matches", "names_of", "read_names", "header_of", "brief",
           "describe", "delete", "delete_all", "Entry", "NAME_CHARS"]

#: the most the history folder holds, in bytes (the oldest matches go first)
HISTORY_CAP_BYTES = 32 * 2**20
#: the longest player name kept in a history file's header
NAME_CHARS = 40
#: the statistics' cache beside the matches (:mod:`mahjong_tui.stats`); not a match
CACHE_NAME = ".stats-cache.json"

_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def default_names(seats: Sequence[str]) -> list[str]:
    """The names a table gives ``seats`` (``human``, ``ai:LEVEL``, ``remote``): one human is
    ``You``, several are ``Player N`` (N = seat number from 1), a LAN seat ``Player N``, a bot
    ``Bot N`` (as the table's seat labels)."""
    humans = [i for i, s in enumerate(seats) if s == "human"]
    out = []
    for i, s in enumerate(seats):
        if s == "human":
            out.append("You" if len(humans) == 1 else f"Player {i + 1}")
        elif s == "remote":
            out.append(f"Player {i + 1}")
        else:
            out.append(f"Bot {i + 1}")
    return out


def clean_names(names: Sequence[object] | None, seats: Sequence[str]) -> list[str]:
    """Four names for ``seats``: each of ``names`` that is a non-empty string (control
    characters dropped, cut to :data:`NAME_CHARS`), else the table's own
    (:func:`default_names`)."""
    fallback = default_names(seats)
    out = []
    for i in range(4):
        n = names[i] if names is not None and i < len(names) else None
        if isinstance(n, str):
            n = "".join(ch for ch in n if ch.isprintable()).strip()[:NAME_CHARS]
        out.append(n if isinstance(n, str) and n else fallback[i])
    return out


def read_names(header: Mapping, seats: Sequence[str]) -> list[str]:
    """The players' names of a game log whose header line (parsed) is ``header``: its
    ``"names"`` where they are good (:func:`clean_names`), else the table's own."""
    names = header.get("names")
    return clean_names(names if isinstance(names, list) else None, seats)


def header_of(path: str | Path) -> dict:
    """The header line of the game log at ``path``, parsed (not checked: {} when it is not
    a JSON object), read without the rest of the file.  Raises ``OSError``."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        first = fh.readline(1 << 16)
    try:
        head = json.loads(first)
    except ValueError:
        return {}
    return head if isinstance(head, dict) else {}


def brief(path: Path) -> str:
    """A line about the kept match at ``path`` from its header alone (quick: for a list of
    hundreds): when it was kept, the variant, the players."""
    try:
        head = header_of(path)
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %Y %H:%M")
    except OSError as exc:
        return f"{path.name}: cannot be read: {exc.strerror or exc}"
    seats = head.get("seats")
    seats = seats if isinstance(seats, list) and len(seats) == 4 and all(isinstance(x, str) for x in seats) \
        else ["human"] * 4
    variant = head.get("variant") if isinstance(head.get("variant"), str) else "?"
    return f"{when} · {Path(variant).stem if variant.endswith('.toml') else variant} · {', '.join(read_names(head, seats))}"


def names_of(path: str | Path, log: GameLog | None = None) -> list[str]:
    """The four players' names recorded in the game log at ``path`` (``log``: that file read
    already, for its seats).  Raises ``OSError`` (the file) or
    :class:`~mahjong_tui.errors.LogError` (not a game log)."""
    if log is None:
        log = GameLog.load(path)
    return read_names(header_of(path), log.seats)


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _written(p: Path) -> tuple[float, str]:
    try:
        return (p.stat().st_mtime, p.name)
    except OSError:
        return (0.0, p.name)


def matches(folder: str | Path) -> list[Path]:
    """The matches kept in ``folder`` (``*.jsonl``), newest first ([] when there is no such
    folder)."""
    d = Path(folder)
    if not d.is_dir():
        return []
    return sorted((p for p in d.glob("*.jsonl") if p.is_file()), key=_written, reverse=True)


def prune(folder: str | Path, cap: int = HISTORY_CAP_BYTES, keep: Path | None = None) -> list[Path]:
    """Drop the oldest matches of ``folder`` until what is left takes at most ``cap`` bytes
    (never ``keep``, the match just kept, even when it alone is larger).  Returns the files
    removed, oldest first."""
    files = matches(folder)[::-1]  # oldest first
    total = sum(_size(p) for p in files)
    gone = []
    for p in files:
        if total <= cap:
            break
        if keep is not None and p == keep:
            continue
        size = _size(p)
        try:
            p.unlink()
        except OSError:
            continue
        total -= size
        gone.append(p)
    return gone


def record(log: GameLog, names: Sequence[str] | None = None, *, folder: str | Path | None = None,
           cap: int = HISTORY_CAP_BYTES, env: Mapping[str, str] | None = None,
           when: datetime | None = None) -> Path:
    """Keep the finished match ``log`` in the history: write it, with the players' ``names``
    (four; a missing or empty one gets the table's own name, :func:`clean_names`), to a new
    file ``VARIANT-YYYYMMDD-HHMMSS.jsonl`` (``-2``… when that name is taken) in ``folder``
    (default :func:`~mahjong_tui.paths.history_dir` of ``env``), then drop the oldest matches
    over ``cap`` bytes (:func:`prune`).  Returns the file written.  Raises ``OSError``."""
    d = Path(folder) if folder is not None else history_dir(os.environ if env is None else env)
    private_dir(d)
    head = log.header()
    head["names"] = clean_names(names, log.seats)
    text = "\n".join([json.dumps(head)] + [json.dumps(a.to_dict()) for a in log.actions]) + "\n"
    stem = _SAFE.sub("_", Path(log.variant).stem if "/" in log.variant or log.variant.endswith(".toml")
                     else log.variant)[:40] or "match"
    stem = f"{stem}-{(when or datetime.now()):%Y%m%d-%H%M%S}"
    for n in range(1, 1000):
        p = d / (f"{stem}.jsonl" if n == 1 else f"{stem}-{n}.jsonl")
        try:
            fh = open_private(p, "x")
        except FileExistsError:
            continue
        with fh:
            fh.write(text)
        break
    else:  # pragma: no cover - a thousand matches in one second
        raise FileExistsError(17, f"every name for {stem} in {d} is taken")
    prune(d, cap, keep=p)
    return p


def delete(path: str | Path) -> None:
    """Delete one kept match.  Raises ``OSError``."""
    Path(path).unlink()


def delete_all(folder: str | Path) -> int:
    """Delete every kept match in ``folder`` (and the statistics' cache); returns how many
    matches were deleted.  Raises ``OSError`` for one that cannot be deleted."""
    gone = 0
    for p in matches(folder):
        p.unlink()
        gone += 1
    (Path(folder) / CACHE_NAME).unlink(missing_ok=True)
    return gone


@dataclass(frozen=True)
class Entry:
    """One kept match as the History screen lists it: ``path``, a ``line`` about it (variant,
    when, players, final scores) or why it cannot be read."""

    path: Path
    line: str


def describe(path: Path) -> Entry:
    """:class:`Entry` for the kept match at ``path`` (replays the log: a few ms a hand)."""
    from .errors import MahjongError

    try:
        log = GameLog.load(path)
        names = names_of(path, log)
        table = log.replay()
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %Y %H:%M")
    except (MahjongError, OSError) as exc:
        return Entry(path, f"{path.name}: cannot be read: {exc}")
    scores = ", ".join(f"{n} {s:g}" for n, s in zip(names, table.scores))
    hands = len(table.history)
    state = "" if table.phase == "match_over" else ", unfinished"
    return Entry(path, f"{when} · {table.variant.name} · {hands} hand{'s' if hands != 1 else ''}{state} · {scores}")

