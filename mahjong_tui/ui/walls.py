"""The four walls as stacks, from public information only: how many stacks each seat built, where
the wall was broken, how many tiles were drawn from the live start (``front``) and from the tail
(``back``), the face-down dead-wall count and the face-up bloom tiles or indicators (the view's
``wall``: ``mahjong_tui/net/PROTOCOL.md``).  The picture is the same whatever the hidden tiles are.

Geometry (assets/rules/<variant>.md "Setting up"): each wall lies in front of its owner, and its
stacks are counted from the owner's right-hand end.  Going from right to left along every owner's
wall goes clockwise round the table, from one wall into the wall of the player on the owner's
left.  The breaker counts ``break_stack`` stacks from his right: the live wall starts after them
and is drawn clockwise (front draws: the top tile of a stack, then its bottom tile); the tail is
the last counted stack, and replacements go on counterclockwise from there (back draws: top
tile first).  Per ``wall.tail`` of the variant:

- ``loose_tiles`` (Classic, Singapore): replacements from the tail of the wall; the stack they
  come from next is the *loose tiles* (Singapore's Flower Pile);
- ``dead_wall`` (Yuxi): the last tiles are the dead wall (kept at its size: each replacement
  comes from its far end and the boundary moves one tile on); ``wall.bloom_tiles`` of its tail
  stacks carry a face-up bloom tile on top;
- ``live_wall`` (Yangzhou; Uzje): replacements from the live wall's tail; a dead wall of
  ``wall.dead_wall`` tiles (Uzje) is cut off at the end and never drawn; its indicators are
  turned up in place, the top tiles from the break outward, then the bottom tiles.

No Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .model import seat_at

GONE, DOWN, UP = 0, 1, 2  # a layer of a stack: drawn, face down, face up

#: clockwise round the screen (each wall's stacks go right to left as its owner sees them)
CLOCKWISE = ("bottom", "left", "top", "right")


@dataclass(frozen=True)
class Stack:
    """One stack of a wall: its ``top`` and ``bottom`` tile (GONE, DOWN or UP) and its part of
    the wall: ``live``, ``dead`` (dead wall) or ``tail`` (where the next replacement comes
    from: loose tiles, the live wall's tail)."""

    top: int
    bottom: int
    region: str = "live"

    @property
    def down(self) -> int:
        """Face-down tiles in the stack (0-2)."""
        return (self.top == DOWN) + (self.bottom == DOWN)

    @property
    def up(self) -> int:
        """Face-up tiles lying on the stack (bloom tiles, indicators)."""
        return (self.top == UP) + (self.bottom == UP)


@dataclass(frozen=True)
class Walls:
    """The four walls: ``sides`` = (position, stacks in screen order: left to right for the top
    and bottom walls, top to bottom for the side walls), in :data:`CLOCKWISE` order;
    ``break_at`` = (position, screen index of the last stack counted at the break: the tail
    end)."""

    sides: tuple[tuple[str, tuple[Stack, ...]], ...]
    break_at: tuple[str, int]

    def side(self, position: str) -> tuple[Stack, ...]:
        return dict(self.sides)[position]

    @property
    def face_down(self) -> int:
        """Face-down tiles in all four walls (= the view's ``live + dead``)."""
        return sum(s.down for _, stacks in self.sides for s in stacks)


def build_walls(wall: Mapping, bottom: int, rules: Mapping) -> Walls | None:
    """The walls of the view's ``wall`` (see the module docstring) seen from seat ``bottom``;
    ``rules``: the variant's ``[wall]`` section (``tail``, ``dead_wall``, ``bloom_tiles``).
    None when the view does not say enough (no ``stacks``: a table of an older version)."""
    stacks = wall.get("stacks")
    if not stacks or wall.get("break_seat") is None or "front" not in wall:
        return None
    x, k = wall["break_seat"], wall["break_stack"]
    # every stack clockwise from the breaker's right-hand end: (seat, j), j = 1 from the right
    ring = [(s, j) for i in range(4) for s in [(x - i) % 4] for j in range(1, stacks[s] + 1)]
    ordered = ring[k:] + ring[:k]  # live start ... tail (stack k of the breaker's wall last)
    n = len(ordered)
    top = [DOWN] * n
    bot = [DOWN] * n
    region = ["live"] * n
    layer = (top, bot)
    for t in range(min(wall.get("front", 0), 2 * n)):  # front draws: top, then bottom
        layer[t % 2][t // 2] = GONE
    tail = rules.get("tail", "loose_tiles")
    dead_tiles = int(rules.get("dead_wall", 0) or 0)
    # the tail end of the stacks replacements come from, and the slots face up
    end = n
    if tail == "live_wall" and dead_tiles:  # Uzje: a dead wall cut off, never drawn
        d = dead_tiles // 2
        end = n - d
        for i in range(end, n):
            region[i] = "dead"
        outward = list(range(n - 1, end - 1, -1))
        reveal = [(top, i) for i in outward] + [(bot, i) for i in outward]
        for lay, i in reveal[:len(wall.get("indicators", ()))]:
            lay[i] = UP
    if tail == "dead_wall":  # Yuxi: bloom tiles on top of the last stacks
        for i in range(min(int(rules.get("bloom_tiles", 0) or 0), len(wall.get("bloom", ())), n)):
            top[n - 1 - i] = UP
    back = [(lay, i) for i in range(end - 1, -1, -1) for lay in (top, bot) if lay[i] == DOWN]
    b = wall.get("back", 0)
    for lay, i in back[:b]:
        lay[i] = GONE
    rest = [(lay, i) for lay, i in back[b:] if lay[i] == DOWN]
    if tail == "dead_wall":
        for lay, i in rest[:wall.get("dead", 0)]:
            region[i] = "dead"
        for i in range(n):
            if top[i] == UP:
                region[i] = "dead"
    elif rest:  # the next replacement's stack: the loose tiles, the live wall's tail
        region[rest[0][1]] = "tail"
    by_pos: dict[str, list[Stack]] = {}
    where: dict[tuple[int, int], tuple[str, int]] = {}
    for pos in CLOCKWISE:
        s = seat_at(bottom, pos)
        m = stacks[s]
        by_pos[pos] = [Stack(GONE, GONE)] * m
        for j in range(1, m + 1):
            # bottom wall and left wall run right-to-left / bottom-to-top in screen order
            where[(s, j)] = (pos, m - j if pos in ("bottom", "left") else j - 1)
    for i, key in enumerate(ordered):
        pos, idx = where[key]
        by_pos[pos][idx] = Stack(top[i], bot[i], region[i])
    return Walls(tuple((pos, tuple(by_pos[pos])) for pos in CLOCKWISE), where[(x, max(1, k))])


__all__ = ["CLOCKWISE", "DOWN", "GONE", "Stack", "UP", "Walls", "build_walls"]
