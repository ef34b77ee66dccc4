"""The game log: the save file, the replay file and the crash-recovery journal (DESIGN.md).

Format: JSON Lines.  Line 1 is the header ``{"format": "mahjong-tui-log", "version": 1,
"variant": id-or-path, "rules_hash": ..., "seed": ..., "hands": K-or-null, "seats": [...],
"options": {...}}``; every further line is one action (:meth:`Action.to_dict`).  Appending one
line per action and flushing before anything is broadcast means a crash loses nothing.

``options`` holds the variant options the game was played with (``--option flowers=true``:
``{"flowers": true}``; :attr:`Variant.applied_options`).  It is left out when there are none,
so a log of the variant as its file has it reads exactly as before options were recorded;
``rules_hash`` is the hash of the variant with its options applied.

``settings`` (left out when empty) holds the players' table settings that ``resume`` restores
and that change no move: ``{"auto_draw": [0]}``, the seats with auto-draw on when the log was
written (a save, or a journal when it was opened).

``names`` (left out when empty) holds the four players' names as the table showed them
(``play --names``, the menu's name fields; the history writes them too), so that ``resume``,
the history and ``stats`` know who sat where; a log without it gets the usual names (You,
Player N, Bot N).

A log is read from a file a user names, so nothing in it is trusted: :meth:`GameLog.load` reads
only a regular file of at most :data:`MAX_LOG_BYTES`, and :meth:`GameLog.loads` checks the type
and range of every header field (:func:`check_header`) and every action line, raising
:class:`~mahjong_tui.errors.LogError` that names the line and says what is allowed (never
another exception: deep nesting, a number of thousands of digits and a byte that is not UTF-8
are errors of the log too).  A save or a journal is written readable by its owner only (0600,
:func:`mahjong_tui.paths.open_private`): it holds the seed, so every hand and the whole wall.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable

from ..errors import IllegalAction, LogError, MahjongError
from ..paths import open_private, read_regular
from ..seats import AI_LEVELS, seat_problem  # noqa: F401 - AI_LEVELS: for the log's readers
from ..variant import Variant, check_options, load_variant, option_assignments
from .actions import Action
from .table import Table

FORMAT = "mahjong-tui-log"
VERSION = 1

#: the largest game log that is read (a match of 16 hands is some 60 KB; ``sim`` of 10,000
#: hands some 40 MB)
MAX_LOG_BYTES = 256 * 2**20
#: the longest seed string and variant reference a log header may hold
MAX_SEED_CHARS = 1000
MAX_VARIANT_CHARS = 4096


def _shown(value: object) -> str:
    """A header value as the log has it, cut to 40 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


#: the longest player name a log header may hold
MAX_NAME_CHARS = 40


def check_header(head: dict, source: str) -> dict:
    """The fields of a log header (line 1, parsed), checked: ``{"variant", "rules_hash",
    "seed", "hands", "seats", "options", "settings", "names"}`` with their defaults filled in.  Raises
    :class:`LogError` naming ``source``, the field, its value and what is allowed."""
    def bad(key: str, allowed: str) -> LogError:
        return LogError(f"{source}: line 1: {key!r} = {_shown(head.get(key))} is not allowed; expected {allowed}")

    variant = head.get("variant")
    if not isinstance(variant, str) or not 0 < len(variant) <= MAX_VARIANT_CHARS or "\0" in variant:
        raise bad("variant", f"a variant id or the path of a variant file (1 to {MAX_VARIANT_CHARS} characters)")
    rules_hash = head.get("rules_hash", "")
    if not isinstance(rules_hash, str) or len(rules_hash) > 64:
        raise bad("rules_hash", "the rules hash, a string of hex digits")
    seed = head.get("seed", 0)
    if isinstance(seed, bool) or not (isinstance(seed, int) or isinstance(seed, str) and len(seed) <= MAX_SEED_CHARS):
        raise bad("seed", f"a whole number or a string of at most {MAX_SEED_CHARS} characters")
    hands = head.get("hands")
    if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int) or hands < 1):
        # no upper bound: whatever --hands a table was started with, its log reads back
        raise bad("hands", "null (the variant's match) or a whole number 1 or more")
    seats = head.get("seats")
    if seats is None:
        seats = ["ai"] * 4
    if not isinstance(seats, list) or len(seats) != 4:
        raise bad("seats", "a list of 4 seats: human, ai, ai:LEVEL or remote")
    for spec in seats:
        problem = seat_problem(spec)
        if problem:
            raise LogError(f"{source}: line 1: 'seats': {problem}")
    try:
        options = check_options(head.get("options"), f"{source}: line 1")
    except MahjongError as exc:
        raise LogError(str(exc)) from None
    settings = head.get("settings")
    if settings is None:
        settings = {}
    auto = settings.get("auto_draw", []) if isinstance(settings, dict) else None
    if not isinstance(auto, list) or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 3
                                             for s in auto):
        raise bad("settings", '{"auto_draw": [seats 0..3]} (or nothing)')
    names = head.get("names")
    if names is None:
        names = []  # an older log: the table gives its seats their usual names
    if not isinstance(names, list) or len(names) not in (0, 4) or not all(
            isinstance(n, str) and len(n) <= MAX_NAME_CHARS for n in names):
        raise bad("names", f"a list of 4 player names of at most {MAX_NAME_CHARS} characters (or nothing)")
    return {"variant": variant, "rules_hash": rules_hash, "seed": seed, "hands": hands, "seats": list(seats),
            "options": options, "settings": dict(settings), "names": list(names)}


def decode_log(data: bytes, source: str) -> str:
    """The text of a game log read as ``data``; raises :class:`LogError` naming the line of a
    byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise LogError(f"{source}: line {line} is not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                       "a game log is JSON Lines in UTF-8") from None


def _json(line: str):
    """``json.loads(line)``; raises ``ValueError`` (``json.JSONDecodeError`` for text that is
    not JSON) also for nesting too deep to read or an integer of thousands of digits."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply") from None


@dataclass
class GameLog:
    """Variant, rules hash, seed, match length, seat kinds, the actions applied and the
    variant options (overrides of :meth:`Variant.with_options`; empty: none)."""

    variant: str
    rules_hash: str
    seed: int | str
    hands: int | None = None
    seats: list[str] = field(default_factory=lambda: ["ai"] * 4)
    actions: list[Action] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    #: the players' table settings, kept so that ``resume`` restores them (not rules: they
    #: change no move of the game): ``{"auto_draw": [0]}``, the seats with auto-draw on
    #: (the UI's ``o``); header ``"settings"``, left out when empty
    settings: dict = field(default_factory=dict)
    #: the four players' names as the table showed them (``--names``, the menu's name
    #: fields); header ``"names"``, left out when empty (an older log: the usual names)
    names: list = field(default_factory=list)
    #: where the log was read from (the file), for error messages
    source: str = field(default="the log", compare=False, repr=False)

    @classmethod
    def for_table(cls, table: Table, variant_ref: str | None = None, seats: Iterable[str] | None = None) -> "GameLog":
        """A log describing ``table`` (its actions so far)."""
        return cls(variant_ref or table.variant.id, table.variant.rules_hash, table.seed, table.hands_limit,
                   list(seats or ["ai"] * 4), list(table.actions), dict(table.variant.applied_options))

    def header(self) -> dict:
        head = {"format": FORMAT, "version": VERSION, "variant": self.variant, "rules_hash": self.rules_hash,
                "seed": self.seed, "hands": self.hands, "seats": self.seats}
        if self.options:
            head["options"] = dict(self.options)
        if self.settings:
            head["settings"] = dict(self.settings)
        if self.names:
            head["names"] = list(self.names)
        return head

    def dumps(self) -> str:
        lines = [json.dumps(self.header())] + [json.dumps(a.to_dict()) for a in self.actions]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the log to ``path`` (created 0600: it holds the seed).  Raises ``OSError``."""
        with open_private(path, "w") as fh:
            fh.write(self.dumps())

    @classmethod
    def loads(cls, text: str, source: str = "<log>") -> "GameLog":
        """Parse a log.  Raises :class:`LogError` naming the line that is wrong."""
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if not lines:
            raise LogError(f"{source}: empty file; expected a mahjong-tui game log")
        try:
            head = _json(lines[0])
        except ValueError as exc:
            raise LogError(f"{source}: line 1 is not JSON ({getattr(exc, 'msg', exc)}); "
                           "expected the log header") from None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise LogError(f"{source}: line 1 is not a mahjong-tui log header")
        if head.get("version") != VERSION:
            raise LogError(f"{source}: log version {_shown(head.get('version'))} is not supported "
                           f"(expected {VERSION})")
        fields = check_header(head, source)
        actions = []
        for i, ln in enumerate(lines[1:], start=2):
            try:
                actions.append(Action.from_dict(_json(ln)))
            except (ValueError, IllegalAction) as exc:
                # a torn last line (crash while writing) is dropped; anything else is an error
                if i == len(lines) and isinstance(exc, json.JSONDecodeError):
                    break
                raise LogError(f"{source}: line {i}: {exc}") from None
        return cls(fields["variant"], fields["rules_hash"], fields["seed"], fields["hands"], fields["seats"],
                   actions, fields["options"], fields["settings"], fields["names"], source)

    @classmethod
    def load(cls, path: str | Path) -> "GameLog":
        """Read the log in file ``path`` (:meth:`loads`).  Raises :class:`LogError` when it
        cannot be read, is not a regular file (a device, a pipe, a folder) or is larger than
        :data:`MAX_LOG_BYTES`, is not UTF-8 text, or is not a game log."""
        try:
            data = read_regular(path, MAX_LOG_BYTES, "a game log")
        except OSError as exc:
            raise LogError(f"{path}: cannot be read: {exc.strerror or exc}") from None
        return cls.loads(decode_log(data, str(path)), str(path))

    def load_variant(self) -> Variant:
        """The log's variant with the log's options applied; raises :class:`LogError` if it
        cannot be built or its rules changed since (the hash of the optioned variant)."""
        try:
            v = load_variant(self.variant, self.options)
        except MahjongError as exc:
            raise LogError(f"{self.source}: the log's variant cannot be loaded: {exc}") from None
        if self.rules_hash and v.rules_hash != self.rules_hash:
            with_opts = " with options " + ", ".join(option_assignments(self.options)) \
                if self.options else ""
            raise LogError(
                f"the rules of variant {self.variant!r}{with_opts} changed since this game was played "
                f"(log {self.rules_hash}, now {v.rules_hash})"
            )
        return v

    def replay(self, upto: int | None = None) -> Table:
        """Rebuild the table by applying the first ``upto`` actions (all by default).

        Raises :class:`LogError` if an action is not legal at its point of the log.
        """
        table = Table(self.load_variant(), self.seed, self.hands)
        for i, a in enumerate(self.actions[:upto]):
            try:
                table.apply_decision(a)  # and the forced passes after it, which a log leaves out
            except IllegalAction as exc:
                raise LogError(f"action {i + 1} of the log does not replay: {exc}") from None
        return table


class LogWriter:
    """Appends a log line by line and flushes each one (crash-safe journal): ``log`` (header
    and actions so far) is written first; without it ``fh`` is taken to hold that already
    (a file opened to append to)."""

    def __init__(self, fh: IO[str], log: GameLog | None):
        self.fh = fh
        if log is not None:
            fh.write(json.dumps(log.header()) + "\n")
            for a in log.actions:
                fh.write(json.dumps(a.to_dict()) + "\n")
            fh.flush()

    def append(self, action: Action) -> None:
        self.fh.write(json.dumps(action.to_dict()) + "\n")
        self.fh.flush()

    def close(self) -> None:
        """Close the file (what was appended is on disk already)."""
        self.fh.close()
