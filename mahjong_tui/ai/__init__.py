"""Bots: automatic seats that choose from ``legal_actions`` given only ``view(seat)``.

- :func:`make_bot` — a bot from a seat spec (``ai`` = ``ai:normal``, ``ai:easy``,
  ``ai:strong``, ``ai:baseline``);
- :class:`Bot` — the interface: ``choose(view, legal) -> Action``;
- :mod:`.player` — the levels; :mod:`.plans`, :mod:`.value`, :mod:`.defence`,
  :mod:`.shapeops`, :mod:`.knowledge` — their parts.
"""

from .baseline import BaselineBot, Bot, make_bot

LEVEL_NAMES = ("easy", "normal", "strong")

__all__ = ["Bot", "BaselineBot", "make_bot", "LEVEL_NAMES"]
