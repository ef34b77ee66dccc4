"""The rules of a variant, from ``assets/rules/<variant>.md`` (issue 3 §7)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import MarkdownViewer, Static

from ...paths import data_dir
from .base import BaseScreen


def rules_path(variant_id: str) -> Path:
    return data_dir("assets") / "rules" / f"{variant_id}.md"


def rules_text(variant_id: str, variant=None) -> str:
    """The rules page of a variant, or a short page saying there is none yet."""
    p = rules_path(variant_id)
    try:
        return p.read_text(encoding="utf-8")
    except OSError:
        name = getattr(variant, "name", variant_id)
        summary = getattr(variant, "summary", "")
        return (f"# {name}\n\n{summary}\n\n*There is no rules page for this variant yet "
                f"(expected `{p}`).*\n")


class RulesScreen(BaseScreen):
    """A variant's rules page; Esc or q goes back."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("h", "close", "Back", show=False),
    ]

    def __init__(self, variant_id: str, variant=None):
        super().__init__(classes="rules")
        self.variant_id = variant_id
        self.variant = variant

    def compose_body(self) -> ComposeResult:
        viewer = MarkdownViewer(rules_text(self.variant_id, self.variant), show_table_of_contents=False,
                                id="rules-viewer")
        yield viewer
        yield Static("↑↓ PgUp PgDn: scroll   Esc or q: back", classes="screen-hint")

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).focus()

    def action_close(self) -> None:
        self.dismiss(None)
