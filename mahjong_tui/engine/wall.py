"""The wall: built from the seed, broken by the dice, drawn from the front and the back.

As in common.md "The wall in play", after the break the wall is a deque of stacks.  ``front`` draws
take stacks from the live start (top tile, then bottom tile of each stack); ``back`` draws
(replacements, loose tiles) take the last stack's top tile, then its bottom tile, then the stack
before it.  Variants choose where replacements come from (``wall.tail``):

- ``loose_tiles`` (Classic, seed 003 §"Dealing tiles"): back draws from the same wall; the
  loose tiles are counted in what remains;
- ``dead_wall`` (Yuxi, yuxi.md "Setting up"/G-YX-3): the last ``wall.dead_wall`` tiles are cut off as a dead
  wall; ``wall.bloom_tiles`` of them lie face up; each replacement comes from the dead wall and a
  tile moves from the live wall's tail into the dead wall, so it keeps its size;
- ``live_wall`` (Yangzhou, G-YZ-1; Uzje): back draws from the live wall; a dead wall of
  ``wall.dead_wall`` tiles (Uzje's indicators) is cut off and never drawn.

Indicators (uzje.md "Setting up", G-UZ-12): dead-wall tiles turned face up one by one, in a fixed order —
the top tiles of the dead-wall stacks from the break outward, then their bottom tiles — and
left in the dead wall (``wall.indicators`` at the deal, one more per kong with
``wall.kong_indicator``).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass


def hand_rng(seed: int | str, hand_index: int) -> random.Random:
    """The seeded generator of one hand.  String seeding is SHA-512 based, so it is the same
    on every machine, Python version and PYTHONHASHSEED."""
    return random.Random(f"mahjong-tui/{seed}/{hand_index}")


@dataclass(frozen=True)
class Break:
    """Where the wall was broken (common.md "Dice and the break").

    ``dice``: the roll; ``wall_seat``: seat whose wall is broken; ``stack``: the break is after
    this many stacks counted from the right-hand end of that wall.
    """

    dice: tuple[int, ...]
    wall_seat: int
    stack: int


class Wall:
    """The tiles not in any hand.

    Built by :meth:`build`; then ``draw_front()``, ``draw_back()``, and the counts the table
    shows.  Never exposes tile order except through draws.
    """

    def __init__(self, stacks: list[list[int]], dead: list[list[int]], bloom: list[int], brk: Break, tail: str):
        self._live: deque[list[int]] = deque(stacks)
        self._dead: deque[list[int]] = deque(dead)
        self.bloom: list[int] = bloom
        self.brk = brk
        self.tail = tail
        #: stacks in front of each seat (by seat), as built; public, like the draws below
        self.stacks: tuple[int, ...] = ()
        #: tiles drawn from the live start / from the tail (replacements) so far: with the
        #: break and the stacks they say where the walls have shrunk (the table draws them)
        self.drawn_front = 0
        self.drawn_back = 0
        self._live_count = sum(len(s) for s in stacks)
        self._dead_count = sum(len(s) for s in dead)
        # the dead wall in the order indicators are turned up: top layer from the break
        # outward (the break side is the end of ``dead``), then the bottom layer (G-UZ-12)
        outward = list(reversed(dead))
        self._reveal_order = [s[0] for s in outward] + [s[1] for s in outward if len(s) > 1]
        #: indicator tiles turned face up so far (still in the dead wall)
        self.indicators: list[int] = []

    @classmethod
    def build(cls, tiles: list[int], rng: random.Random, stacks_per_seat: tuple[int, ...], dealer: int,
              dice: int, tail: str, dead_wall: int, bloom_tiles: int, indicators: int = 0,
              roll: tuple[int, ...] | None = None, sides: int = 6) -> "Wall":
        """Shuffle ``tiles`` with ``rng``, lay them in stacks of two in front of each seat,
        roll ``dice`` dice and break the wall (common.md "Dice and the break").

        ``stacks_per_seat[i]`` is the number of stacks in front of seat i.  ``dealer`` is the
        seat the break is counted from (the dealer; Uzje's first game: the starter, uzje.md "Setting up").
        ``dead_wall`` tiles at the tail are cut off (``tail`` = ``dead_wall`` or ``live_wall``);
        ``bloom_tiles`` of them (top tiles of the last stacks) are turned face up, and
        ``indicators`` indicators (module docstring).  ``roll``, if given, is the dice already
        thrown (none are rolled); else ``dice`` dice of ``sides`` sides are rolled (Uzje's
        ``break_roll = "1d20"``, uzje.md "Setting up").  Raises ValueError if the stacks do not hold exactly the tiles.
        """
        tiles = list(tiles)
        rng.shuffle(tiles)
        if sum(stacks_per_seat) * 2 != len(tiles):
            raise ValueError(f"{sum(stacks_per_seat)} stacks cannot hold {len(tiles)} tiles")
        if roll is None:
            roll = tuple(rng.randint(1, sides) for _ in range(dice))
        r = sum(roll)
        wall_seat = (dealer + r - 1) % 4
        # The ring of stacks, walls in seat order; each wall listed right-to-left as its owner
        # sees it, so counting r stacks from the right end is index r-1 of that wall.
        ring: list[list[int]] = []
        starts = []
        it = iter(tiles)
        for seat in range(4):
            starts.append(len(ring))
            for _ in range(stacks_per_seat[seat]):
                ring.append([next(it), next(it)])  # [top, bottom]
        k = min(r, stacks_per_seat[wall_seat])
        cut = starts[wall_seat] + k  # live wall starts at stack r+1
        ordered = ring[cut:] + ring[:cut]  # front ... tail (stack r last)
        dead: list[list[int]] = []
        if tail in ("dead_wall", "live_wall") and dead_wall:
            n_stacks = dead_wall // 2
            dead = ordered[len(ordered) - n_stacks:]
            ordered = ordered[: len(ordered) - n_stacks]
        bloom: list[int] = []
        for i in range(bloom_tiles):
            stack = dead[len(dead) - 1 - i]
            bloom.append(stack.pop(0))
        dead = [s for s in dead if s]
        wall = cls(ordered, dead, bloom, Break(roll, wall_seat, k), tail)
        wall.stacks = tuple(stacks_per_seat)
        for _ in range(indicators):
            wall.reveal_indicator()
        return wall

    # counts ------------------------------------------------------------------------------
    @property
    def live_count(self) -> int:
        """Tiles left for ordinary draws (Classic: loose tiles included)."""
        return self._live_count

    @property
    def dead_count(self) -> int:
        """Face-down dead-wall tiles (bloom tiles and indicators not included)."""
        return self._dead_count - len(self.indicators)

    def reveal_indicator(self) -> int | None:
        """Turn up the next indicator (module docstring); returns it, or None when every
        dead-wall tile is face up already (seed 002: the step is skipped)."""
        if len(self.indicators) >= len(self._reveal_order):
            return None
        t = self._reveal_order[len(self.indicators)]
        self.indicators.append(t)
        return t

    def can_replace(self) -> bool:
        """A replacement (back) draw is possible."""
        if self.tail == "dead_wall":
            return self._dead_count > 0
        return self._live_count > 0

    # draws -------------------------------------------------------------------------------
    def draw_front(self) -> int:
        """An ordinary draw from the live start.  Raises IndexError when the wall is empty."""
        stack = self._live[0]
        t = stack.pop(0)
        if not stack:
            self._live.popleft()
        self._live_count -= 1
        self.drawn_front += 1
        return t

    def _pop_back(self, dq: deque[list[int]]) -> int:
        stack = dq[-1]
        t = stack.pop(0)
        if not stack:
            dq.pop()
        return t

    def draw_back(self) -> int:
        """A replacement draw (flowers, kongs) from the tail, per ``tail`` (module doc).
        Raises IndexError when no replacement is left."""
        if self.tail == "dead_wall":
            t = self._pop_back(self._dead)
            self._dead_count -= 1
            self.drawn_back += 1
            if self._live_count:
                # keep the dead wall at its size: the live wall's last tile moves across
                moved = self._pop_back(self._live)
                self._live_count -= 1
                self._dead.appendleft([moved])
                self._dead_count += 1
            return t
        t = self._pop_back(self._live)
        self._live_count -= 1
        self.drawn_back += 1
        return t

    def take_bloom(self, index: int) -> int:
        """Take face-up bloom tile ``index`` (only ever for a win, G-YX-3)."""
        return self.bloom.pop(index)

    def snapshot(self) -> tuple:
        """Complete state, for equality checks in replay tests (never sent to seats)."""
        return (tuple(tuple(s) for s in self._live), tuple(tuple(s) for s in self._dead), tuple(self.bloom),
                tuple(self.indicators))

    def all_tiles(self) -> list[int]:
        """Every tile still in the wall (for conservation checks)."""
        return [t for s in self._live for t in s] + [t for s in self._dead for t in s] + list(self.bloom)
