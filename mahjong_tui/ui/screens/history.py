"""The history of finished matches, from the menu (issue 22, item 5): list them, replay one,
delete one or all, and the statistics per player and variant.

The list is read from each file's first line only (quick for hundreds of matches); the match
under the cursor is replayed once to say its hands and final scores.  The statistics
(:mod:`mahjong_tui.stats`, the same numbers as ``mahjong-tui stats``) are counted in a thread,
the screen saying how far it has got: a match not counted before is replayed with ``ai:strong``
judging each discard (a second or two for 16 hands), later ones come from the cache.
"""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ... import history as H
from ...paths import history_dir, size_text
from .base import BaseModal, BaseScreen


class ConfirmScreen(BaseModal):
    """Ask before deleting: ``question`` (one short line), ``detail`` under it; dismissed with
    True (the red button, labelled ``yes``) or False."""

    BINDINGS = [Binding("escape", "no", "Keep")]

    def __init__(self, question: str, yes: str, detail: str = ""):
        super().__init__()
        self.question = question
        self.yes = yes
        self.detail = detail

    def compose_body(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            if self.detail:
                yield Static(self.detail, markup=False)
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="error")
                yield Button("Keep", id="no", variant="primary")
            yield Static("Esc keeps", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_no(self) -> None:
        self.dismiss(False)


class HistoryScreen(BaseScreen):
    """The kept matches, newest first: Replay, Delete, Delete all, Statistics, Back."""

    DEFAULT_CSS = """
    HistoryScreen #history { padding: 1 2; }
    HistoryScreen #history-list { height: 1fr; min-height: 3; }
    HistoryScreen #history-detail { height: auto; min-height: 1; }
    HistoryScreen #history-error { color: $error; height: auto; }
    """

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("delete", "delete", "Delete"),
        Binding("t", "stats", "Statistics"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.files: list[Path] = []

    @property
    def folder(self) -> Path:
        return history_dir(self.app.env)

    def compose_body(self) -> ComposeResult:
        with Vertical(id="history"):
            yield Static("", id="history-title")
            yield OptionList(id="history-list")
            yield Static("", id="history-detail")
            with Horizontal(classes="menu-buttons"):
                yield Button("Replay", id="replay", variant="primary")
                yield Button("Statistics", id="stats")
                yield Button("Delete", id="delete")
                yield Button("Delete all", id="delete-all", variant="error")
                yield Button("Back", id="back")
            yield Static("", id="history-error")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self, highlight: int = 0) -> None:
        """Read the folder again and list its matches (the cursor on ``highlight``)."""
        self.files = H.matches(self.folder)
        n = len(self.files)
        self.query_one("#history-title", Static).update(
            f"History: {n} finished match{'es' if n != 1 else ''} in {self.folder} "
            f"(at most {size_text(H.HISTORY_CAP_BYTES)}: the oldest go first)")
        ol = self.query_one("#history-list", OptionList)
        ol.clear_options()
        ol.add_options([Option(H.brief(p), id=str(i)) for i, p in enumerate(self.files)])
        detail = self.query_one("#history-detail", Static)
        if n:
            ol.highlighted = max(0, min(highlight, n - 1))
            ol.focus()
        else:
            detail.update("(none yet: every match played at this keyboard or hosted on the LAN is kept here "
                          "when it ends)")
            self.query_one("#back", Button).focus()

    def chosen(self) -> Path | None:
        i = self.query_one("#history-list", OptionList).highlighted
        return self.files[i] if i is not None and 0 <= i < len(self.files) else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        p = self.chosen()
        if p is not None:
            self.query_one("#history-detail", Static).update(H.describe(p).line)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_replay()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"replay": self.action_replay, "stats": self.action_stats, "delete": self.action_delete,
                   "delete-all": self.action_delete_all, "back": self.action_back}
        actions[event.button.id]()

    def _error(self, text: str) -> None:
        self.query_one("#history-error", Static).update(text)

    def action_replay(self) -> None:
        p = self.chosen()
        if p is None:
            self._error("No match to replay yet.")
            return
        error = self.app.open_saved(p, "replay")
        self._error(error or "")

    def action_delete(self) -> None:
        p = self.chosen()
        if p is None:
            return
        at = self.query_one("#history-list", OptionList).highlighted or 0

        def done(yes: bool | None) -> None:
            if not yes:
                return
            try:
                H.delete(p)
            except OSError as exc:
                self._error(f"Could not delete {p.name}: {exc.strerror or exc}")
                return
            self._error("")
            self.reload(at)

        self.app.push_screen(ConfirmScreen("Delete this match from the history?", "Delete", H.brief(p)), done)

    def action_delete_all(self) -> None:
        if not self.files:
            return

        def done(yes: bool | None) -> None:
            if not yes:
                return
            try:
                H.delete_all(self.folder)
            except OSError as exc:
                self._error(f"Could not delete them all: {exc.strerror or exc}")
            self.reload()

        n = len(self.files)
        self.app.push_screen(ConfirmScreen(f"Delete all {n} match{'es' if n != 1 else ''} of the history?",
                                           "Delete all", "Their replays and statistics go with them."), done)

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen(self.folder))

    def action_back(self) -> None:
        self._left = True
        self.dismiss(None)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x) -> str:
    return "-" if x is None else (f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}")


def stats_cells(r: dict) -> tuple[str, ...]:
    """One row of the statistics table from one row of :func:`mahjong_tui.stats.collect`."""
    b = r["biggest_hand"]
    big = "-" if b is None else f"{_num(b['value'])} {b['unit']}".strip()
    same = "-" if r["discards"] is None else f"{_pct(r['same_as_strong_rate'])} of {r['discards']}"
    return (r["player"], r["variant"], str(r["matches"]), str(r["hands"]), _pct(r["win_rate"]),
            _pct(r["deal_in_rate"]), same, _num(r["avg_value_won"]), big)


STATS_COLUMNS = ("player", "variant", "matches", "hands", "win", "deal-in", "as ai:strong", "avg won", "biggest hand")


class StatsScreen(BaseScreen):
    """Per player and variant: matches, hands, win and deal-in rates, the average value won,
    the biggest hand and how often the player discarded what ai:strong would have (the same
    report as ``mahjong-tui stats``)."""

    DEFAULT_CSS = """
    StatsScreen #stats { padding: 1 2; }
    StatsScreen #stats-table { height: 1fr; }
    StatsScreen #stats-note { height: auto; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "back", "Back"), Binding("q", "back", "Back", show=False)]

    def __init__(self, folder: Path):
        super().__init__()
        self.folder = folder
        self.report: dict | None = None
        self._left = False  # set by Esc: a count still running fills the cache but shows nothing

    def compose_body(self) -> ComposeResult:
        with Vertical(id="stats"):
            yield Static(f"Statistics of the history in {self.folder}", id="stats-title")
            yield Static("Counting…", id="stats-progress")
            table: DataTable = DataTable(id="stats-table", zebra_stripes=True, cursor_type="row", fixed_columns=1)
            table.add_columns(*STATS_COLUMNS)
            yield table
            yield Static("win, deal-in: of the hands played · as ai:strong: the player's discards that were "
                         "the tile ai:strong would have thrown from his view (people only) · values in the "
                         "variant's unit · Esc: back", id="stats-note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats-table", DataTable).focus()  # ← → scroll a table wider than the screen
        self.count()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def count(self) -> None:
        """Count in a thread (the screen says how far); left before the end (Esc), the count
        still goes on to fill the cache, but shows nothing."""
        from ...stats import collect

        def tell(fn, *args) -> None:
            try:
                self.app.call_from_thread(fn, *args)
            except RuntimeError:  # the app is closing
                pass

        try:
            report = collect(self.folder, progress=lambda done, total: tell(self._progress, done, total))
        except Exception as exc:  # noqa: BLE001 - said on the screen, never a crash of the menu
            tell(self._progress_text, f"The statistics could not be counted: {exc}")
            return
        tell(self.show, report)

    def _progress(self, done: int, total: int) -> None:
        self._progress_text(f"Counting… {done} of {total} matches")

    def _progress_text(self, text: str) -> None:
        if self.is_attached and not self._left:  # not after Esc
            self.query_one("#stats-progress", Static).update(text)

    def show(self, report: dict) -> None:
        """Fill the table with ``report`` (:func:`mahjong_tui.stats.collect`)."""
        if self._left or not self.is_attached:  # a popped screen may stay attached a moment
            return
        self.report = report
        n, skipped = report["matches"], report["skipped"]
        text = f"{n} finished match{'es' if n != 1 else ''}"
        if skipped:
            text += "; left out: " + "; ".join(f"{s['file']} ({s['reason']})" for s in skipped[:3])
            text += f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        if not report["players"]:
            text += " — nothing to count yet: every match played here or hosted is kept when it ends"
        self._progress_text(text)
        table = self.query_one("#stats-table", DataTable)
        table.clear()
        for r in report["players"]:
            table.add_row(*stats_cells(r))

    def action_back(self) -> None:
        self.dismiss(None)
