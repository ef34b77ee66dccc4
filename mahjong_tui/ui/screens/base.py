"""Base classes of the app's screens: each holds a :class:`TooSmall` cover."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen, Screen

from ..widgets.misc import TooSmall


class _Covered:
    """What every screen of the app shares (mixed into a Textual screen class): the
    :class:`TooSmall` cover first, then the screen's own widgets from ``compose_body``."""

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:  # pragma: no cover - abstract
        yield from ()

    @property
    def too_small(self) -> bool:
        """The terminal is below the 80x24 minimum (the app's ``-too-small`` class is set)."""
        return self.app.has_class("-too-small")


class BaseScreen(_Covered, Screen):
    """A full, opaque screen.  Subclasses write ``compose_body`` instead of ``compose``."""


class BaseModal(_Covered, ModalScreen):
    """A dialog over the current screen.  It shows its own one-line key hint at the bottom,
    covering the screen below's (Textual 8 keeps showing the app's footer keys otherwise)."""
