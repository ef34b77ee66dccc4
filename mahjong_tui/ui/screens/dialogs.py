"""Small screens of the table: the hot-seat privacy screen, the keys help, leaving (save?)."""

from __future__ import annotations

import time
from typing import Callable

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from rich.table import Table
from rich.text import Text
from textual.widgets import Button, Input, Label, Static

from ... import tiles as T
from ..model import wind_word
from .base import BaseModal, BaseScreen


class PrivacyScreen(BaseScreen):
    """An opaque screen between two human players (issue 3 §5): nothing of the table shows
    until the named player presses a key.

    ``take()`` runs *before* the screen goes, so the table underneath is already redrawn for the
    new player when it becomes visible.  Keys pressed within ``guard`` seconds of the screen
    appearing are ignored (the previous player may still be typing).  ``why``: the line after
    the player's name (default from ``kind``: "may claim a discard", "is to play").  ``then``:
    a note for the new player alone ("Nothing to claim on 5m", a hot-seat claim round): after
    the first key the screen shows it, still hiding the table, until the next key.
    """

    def __init__(self, name: str, wind: str, kind: str, take: Callable[[], None], guard: float = 0.3,
                 why: str | None = None, then: str | None = None):
        super().__init__(classes="privacy")
        self.player = name
        self.wind = wind
        self.kind = kind
        self.why = why or ("may claim a discard" if kind == "claim" else "is to play")
        self.then = then
        self.take = take
        self.guard = guard
        self._shown_at = 0.0
        self._done = False
        self._taken = False

    def compose_body(self) -> ComposeResult:
        with Vertical(id="privacy-box"):
            yield Static("Pass the keyboard to", classes="privacy-lead", id="privacy-lead")
            # names may come from the network: plain text, never markup
            yield Static(f"{self.player} ({wind_word(self.wind)})", id="privacy-name", markup=False)
            yield Static(f"{self.player} {self.why}.", classes="privacy-lead", id="privacy-why", markup=False)
            yield Static(
                f"{self.player}: press any key when only you can see the screen.",
                classes="privacy-hint", id="privacy-hint", markup=False,
            )

    @property
    def showing_note(self) -> bool:
        """The player has the keyboard and reads :attr:`then`."""
        return self._taken and not self._done

    def on_mount(self) -> None:
        self._shown_at = time.monotonic()

    def _accept(self) -> None:
        if self._done or time.monotonic() - self._shown_at < self.guard:
            return
        if self.then is not None and not self._taken:
            self._taken = True
            self.take()
            self.query_one("#privacy-lead", Static).update(f"{self.player} ({wind_word(self.wind)})")
            self.query_one("#privacy-name", Static).update(self.then)
            self.query_one("#privacy-why", Static).update("")
            self.query_one("#privacy-hint", Static).update("Press any key to go on.")
            self._shown_at = time.monotonic()
            return
        self._done = True
        if not self._taken:
            self.take()
        self.dismiss(True)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self._accept()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self._accept()


KEYS = [
    ("← →", "choose a tile in your hand (Home, End: first, last)"),
    ("Enter, d", "discard the chosen tile (or click it twice)"),
    ("w", "win: on a discard, or self-drawn on your turn"),
    ("p  k  c", "pung, kong, chow the discard (digits when several)"),
    ("a", "add a drawn tile to your exposed pung (added kong)"),
    ("t", "take the discard into hand (5t*: counts as open in a pung)"),
    ("r", "take the kong replacement instead of a bloom tile"),
    ("x, Space", "pass"),
    ("o  n  u", "auto-draw (take-or-draw passes), no calls, auto-win on/off"),
    ("1-4", "hot-seat: call a discard (your player number); Space: none"),
    ("s  y", "hint: ai:strong's move; y: why can't I win with this?"),
    ("?  h", "this help; h: the rules of this variant"),
    ("l", "the moves of this hand (beside the table from 120 columns)"),
    ("q", "leave the table (save to resume later)"),
    ("replay", "← → step, PgUp PgDn hand, Home End, Tab turn table, s ai:strong's move, l moves"),
]


def keys_for(variant=None) -> list[tuple[str, str]]:
    """The rows of :data:`KEYS` that can apply in ``variant`` (all of them without one): the
    pick-up ``t`` (with the mark of a picked-up tile in the hand, ``5t*``: G-OX-2, a pung or
    kong made with it scores as open) and auto-draw ``o`` (beside no calls ``n`` and auto-win
    ``u``) only where the next player may take any discard (``claims.next_player_pickup``, Classic), ``r`` only with bloom tiles (``wall.bloom_tiles``,
    Yuxi), ``c`` only where a prompt can offer a chow: where sequences are claimed
    (``claims.chow``), named by the variant's meld kinds (Uzje: arith, gem, power), or made by
    the next player's pick-up (Classic, G-OX-2: ``claims.chow = "none"``, yet the take prompt
    offers ``c chow 1t 2t 3t``; play-test pt4 item 4); the replay's keys not at a table."""
    if variant is None:
        return list(KEYS)
    claims = variant.claims
    pickup = bool(claims.get("next_player_pickup"))
    out = []
    for key, what in KEYS:
        if key == "replay" or key == "t" and not pickup:
            continue
        if key == "o  n  u" and not pickup:  # auto-draw only where the next player may take any discard
            key, what = "n  u", "no calls (every claim passes), auto-win on/off"
        if key == "r" and not variant.wall.get("bloom_tiles"):
            continue
        if key == "p  k  c":
            kinds = list(dict.fromkeys(t.kind for t in variant.meld_templates))
            claimed = claims.get("chow", "none") != "none"
            if not kinds or not (claimed or pickup):
                key, what = "p  k", "pung, kong the discard (digits when several)"
            elif not claimed:  # chows only by the next player's pick-up (Classic)
                what = "pung, kong; c: chow as next player (digits when several)"
            elif kinds != ["chow"]:
                words = ", ".join(kinds[:-1]) + (" or " if len(kinds) > 1 else "") + kinds[-1]
                what = f"pung, kong the discard; c: make it an {words} (digits when several)"
        out.append((key, what))
    return out


def bonus_legend(variant, art, seat_wind: str | None = None) -> list[tuple[Text, str]]:
    """Rows naming the variant's bonus tiles as the table draws them (``Sp Su Au Wi``: seasons
    1-4 …), and which of them are the seat's own (its seat number, East 1 … North 4;
    singapore.md "Tai table").  Empty for a variant without bonus tiles."""
    bonus = set(variant.bonus_kinds)
    rows: list[tuple[Text, str]] = []
    groups = (("seasons", T.SEASONS), ("flowers", T.FLOWERS), ("animals", T.ANIMALS))
    for word, tiles in groups:
        have = [t for t in tiles if t in bonus]
        if not have:
            continue
        numbered = word != "animals"
        names = " ".join(T.long_name(t) for t in have)
        rows.append((art.row(have), f"{word}{' 1-4' if numbered else ''}: {names}"))
    if rows and seat_wind:
        n = T.seat_number(T.parse_tile(seat_wind))
        own = [t for t in T.SEASONS + T.FLOWERS if t in bonus and T.bonus_number(t) == n]
        if own:
            rows.append((art.row(own), f"yours: number {n}, as your seat ({wind_word(seat_wind)})"))
    return rows


class KeysScreen(BaseModal):
    """The keys (``?``).  The prompt at the bottom of the table always lists exactly the
    choices the player has, each with its key; this screen explains those that can apply in
    ``variant`` (:func:`keys_for`) and, drawn with ``art``, names the variant's bonus tiles
    and the ones of the seat at the keyboard (``seat_wind``; :func:`bonus_legend`)."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(self, variant=None, art=None, seat_wind: str | None = None):
        super().__init__()
        self.variant = variant
        self.art = art
        self.seat_wind = seat_wind  # of the seat at the keyboard: its own flowers

    def compose_body(self) -> ComposeResult:
        with Vertical(id="keys-box", classes="dialog"):
            yield Label("Keys at the table", classes="dialog-title")
            table = Table.grid(padding=(0, 2))
            table.add_column(no_wrap=True)
            table.add_column()
            for key, what in keys_for(self.variant):
                table.add_row(Text(key, style="bold"), what)
            if self.variant is not None and self.art is not None:
                for faces, what in bonus_legend(self.variant, self.art, self.seat_wind):
                    table.add_row(faces, what)
            yield Static(table, id="keys-table")
            yield Static("When you are one tile from winning, the line under the prompt shows "
                         "your waits and how many of each you have not seen.", classes="dialog-note")
            yield Static("Esc, Enter or ? closes", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(BaseModal):
    """Leaving a game in progress: save it (path editable), leave without saving, or stay."""

    BINDINGS = [Binding("escape", "cancel", "Stay")]

    def __init__(self, default_path: str):
        super().__init__()
        self.default_path = default_path

    def compose_body(self) -> ComposeResult:
        with Vertical(id="quit-box", classes="dialog"):
            yield Label("Leave the table?", classes="dialog-title")
            yield Label("Save to continue later: mahjong-tui resume, or Resume in the menu.")
            yield Input(value=self.default_path, id="save-path")
            with Horizontal(classes="buttons"):
                yield Button("Save and leave", id="save", variant="primary")
                yield Button("Leave, don't save", id="nosave", variant="error")
                yield Button("Stay", id="stay")
            yield Static("Enter in the box saves · Esc stays", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.dismiss(("save", self.query_one("#save-path", Input).value.strip() or self.default_path))
        elif event.button.id == "nosave":
            self.dismiss(("quit",))
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(("save", event.value.strip() or self.default_path))

    def action_cancel(self) -> None:
        self.dismiss(None)


class MessageScreen(BaseModal):
    """A message with one button (errors the player caused, e.g. a save file that does not
    load)."""

    BINDINGS = [Binding("escape", "close", "Close"), Binding("enter", "close", "Close", show=False)]

    def __init__(self, title: str, text: str, plain: bool = False):
        super().__init__()
        self.title_text = title
        self.text = text
        self.plain = plain  # text from the network: no markup

    def compose_body(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.text, markup=not self.plain)
            with Horizontal(classes="buttons"):
                yield Button("OK", id="ok", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class WhyScreen(BaseModal):
    """"Why can't I win with this?" (``y`` at the table): the lines of
    :func:`~mahjong_tui.ui.why.explain` about the hand of the seat at the keyboard.  The table
    closes it before the keyboard changes hands (it speaks of a concealed hand)."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("enter", "close", "Close", show=False),
        Binding("y", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, lines: list[str]):
        super().__init__()
        self.lines = list(lines)

    def compose_body(self) -> ComposeResult:
        with Vertical(id="why-box", classes="dialog"):
            yield Label("Why can't I win with this?", classes="dialog-title")
            yield Static("\n".join(self.lines), id="why-text", markup=False)
            yield Static("Esc, Enter or y closes", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
