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
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable

from ..errors import IllegalAction, LogError, MahjongError
from ..variant import Variant, check_options, load_variant, option_assignments
from .actions import Action
from .table import Table

FORMAT = "mahjong-tui-log"
VERSION = 1


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
        return head

    def dumps(self) -> str:
        lines = [json.dumps(self.header())] + [json.dumps(a.to_dict()) for a in self.actions]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def loads(cls, text: str, source: str = "<log>") -> "GameLog":
        """Parse a log.  Raises :class:`LogError` naming the line that is wrong."""
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if not lines:
            raise LogError(f"{source}: empty file; expected a mahjong-tui game log")
        try:
            head = json.loads(lines[0])
        except json.JSONDecodeError as exc:
            raise LogError(f"{source}: line 1 is not JSON ({exc.msg}); expected the log header") from None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise LogError(f"{source}: line 1 is not a mahjong-tui log header")
        if head.get("version") != VERSION:
            raise LogError(f"{source}: log version {head.get('version')!r} is not supported (expected {VERSION})")
        actions = []
        for i, ln in enumerate(lines[1:], start=2):
            try:
                actions.append(Action.from_dict(json.loads(ln)))
            except (json.JSONDecodeError, IllegalAction) as exc:
                # a torn last line (crash while writing) is dropped; anything else is an error
                if i == len(lines) and isinstance(exc, json.JSONDecodeError):
                    break
                raise LogError(f"{source}: line {i}: {exc}") from None
        try:
            options = check_options(head.get("options"), f"{source}: line 1")
        except MahjongError as exc:
            raise LogError(str(exc)) from None
        settings = head.get("settings")
        return cls(head["variant"], head.get("rules_hash", ""), head.get("seed", 0), head.get("hands"),
                   list(head.get("seats") or ["ai"] * 4), actions, options,
                   dict(settings) if isinstance(settings, dict) else {})

    @classmethod
    def load(cls, path: str | Path) -> "GameLog":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise LogError(f"{path}: cannot be read: {exc.strerror}") from None
        return cls.loads(text, str(path))

    def load_variant(self) -> Variant:
        """The log's variant with the log's options applied; raises :class:`LogError` if it
        cannot be built or its rules changed since (the hash of the optioned variant)."""
        try:
            v = load_variant(self.variant, self.options)
        except MahjongError as exc:
            raise LogError(f"the log's variant cannot be loaded: {exc}") from None
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
                table.apply(a)
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
