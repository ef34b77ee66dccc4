"""Base classes of the app's screens: each holds a :class:`TooSmall` cover."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen, Screen

from ..widgets.misc import TooSmall


class BaseScreen(Screen):
    """A full, opaque screen.  Subclasses write ``compose_body`` instead of ``compose``."""

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:  # pragma: no cover - abstract
        yield from ()

    @property
    def too_small(self) -> bool:
        return self.app.has_class("-too-small")


class BaseModal(ModalScreen):
    """A dialog over the current screen.  It shows its own one-line key hint at the bottom,
    covering the screen below's (Textual 8 keeps showing the app's footer keys otherwise)."""

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:  # pragma: no cover - abstract
        yield from ()

    @property
    def too_small(self) -> bool:
        return self.app.has_class("-too-small")
