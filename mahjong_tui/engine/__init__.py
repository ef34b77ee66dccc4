"""The game-state machine: wall, actions, table, game log.  Never imports Textual or asyncio."""

from .actions import Action
from .table import Table, event_for
from .log import GameLog

__all__ = ["Action", "Table", "GameLog", "event_for"]
