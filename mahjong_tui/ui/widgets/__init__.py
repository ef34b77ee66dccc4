"""Widgets of the table UI, grouped by area (DESIGN.md)."""

from .areas import ActionBar, Area, HandArea, HeaderBar, Pond, SeatPanel, TableLayout, WallPanel
from .art import TileArt
from .chart import ScoreChart
from .misc import TooSmall

__all__ = [
    "ActionBar", "Area", "HandArea", "HeaderBar", "Pond", "ScoreChart", "SeatPanel", "TableLayout",
    "TileArt", "TooSmall", "WallPanel",
]
