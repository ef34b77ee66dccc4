"""Small widgets shared by every screen."""

from __future__ import annotations

from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Static):
    """Covers its screen with "needs more room" while the terminal is below 80x24 (issue 3 §9).

    Every screen of the app holds one; the app shows them by toggling the ``-too-small`` class
    on itself (see ``app.tcss``), so no screen is pushed or popped on resize.
    """

    DEFAULT_CSS = """
    TooSmall {
        display: none;
        dock: top;
        width: 100%;
        height: 100%;
        background: $background;
        color: $text;
        content-align: center middle;
        text-align: center;
        text-wrap: wrap;
    }
    """

    def __init__(self) -> None:
        super().__init__(
            f"The table needs more room.\n\nPlease make the terminal at least {MIN_WIDTH}x{MIN_HEIGHT}.",
            classes="too-small",
        )

    def on_resize(self) -> None:
        w, h = self.app.size
        self.update(
            f"The table needs more room.\n\nThis terminal is {w}x{h}; "
            f"please make it at least {MIN_WIDTH}x{MIN_HEIGHT}."
        )
