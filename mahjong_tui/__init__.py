"""mahjong-tui: a four-seat mahjong table for the terminal."""

__version__ = "0.1.0"
