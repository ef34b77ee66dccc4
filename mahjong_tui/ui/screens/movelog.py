"""The ``l`` screen of the table: the move log of the hand (issue 21, item 5), at any terminal
size (from 120 columns it is also beside the table: widgets/movelog.py)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from ..frame import LogBox
from ..widgets.movelog import log_lines
from .base import BaseModal


class MoveLogScreen(BaseModal):
    """The whole log of the hand (``l``), scrolled to the newest line; Esc, Enter or ``l``
    closes."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("l", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(self, box: LogBox):
        super().__init__()
        self.box = box

    def compose_body(self) -> ComposeResult:
        with Vertical(id="log-box", classes="dialog"):
            yield Label("Moves this hand", classes="dialog-title")
            lines = log_lines(self.box, 68)
            body = Text("\n").join(lines) if lines else Text("Nothing yet.", style="dim")
            with VerticalScroll(id="log-scroll"):
                yield Static(body, id="log-text")
            yield Static("Esc, Enter or l closes · ↑↓ scroll", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
