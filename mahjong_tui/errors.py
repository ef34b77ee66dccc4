"""Project exceptions: every error a user can cause is one of these.

Each carries a message that says what was wrong and what is allowed; the CLI prints it on one
line and exits 2, the UI and the server show it, and the game state is never changed.
"""

from __future__ import annotations


class MahjongError(Exception):
    """Base class of all user-facing errors."""


class NotationError(MahjongError, ValueError):
    """A malformed tile or hand string.

    ``text`` is the whole input, ``position`` the 0-based index of the bad character and
    ``expected`` what would have been allowed there.
    """

    def __init__(self, problem: str, text: str, position: int, expected: str):
        self.problem = problem
        self.text = text
        self.position = position
        self.expected = expected
        super().__init__(f"{problem} at position {position + 1} of {text!r} (expected {expected})")


class VariantError(MahjongError):
    """A variant id that does not exist, or a variant file that is invalid.

    The message names the file, the key and what is allowed.
    """


class HandError(MahjongError):
    """A well-formed hand string that is not a possible hand of the variant
    (wrong tile count, a fifth copy, a tile the variant does not use, an impossible meld)."""


class IllegalAction(MahjongError):
    """An action that is not in ``legal_actions(seat)``; the state is unchanged."""


class LogError(MahjongError):
    """A game log that cannot be read or does not replay."""
