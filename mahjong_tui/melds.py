"""Melds as held by a player and as found by hand analysis.

Shared vocabulary of the engine, hand analysis and scoring (common.md "Melds").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .tiles import format_tiles

# Meld kinds.  Uzje adds "arith", "gem", "power" (uzje.md "Melds and winning hands") through meld templates.
CHOW = "chow"
PUNG = "pung"
KONG = "kong"

# Kong types (common.md "Melds").
CONCEALED_KONG = "concealed"
EXPOSED_KONG = "exposed"
ADDED_KONG = "added"


@dataclass(frozen=True)
class Meld:
    """One meld.

    - ``kind``: ``"chow"``, ``"pung"``, ``"kong"`` (or a variant's other meld kind);
    - ``tiles``: sorted tile codes (4 for a kong);
    - ``declared``: laid on the table (claimed meld or declared kong) rather than formed
      inside the concealed hand;
    - ``concealed``: no tile of it came from a discard (common.md "Melds"; G-OX-2: a picked-up
      unmelded discard makes any pung it ends in open); a pung completed by the winning
      discard is not concealed;
    - ``kong_type``: ``"concealed"`` / ``"exposed"`` / ``"added"`` for kongs, else None;
    - ``from_seat``: seat whose discard was claimed into it, or None: a table seat on the
      table; counted from the dealer (East 0 … North 3) in a scorer's
      :class:`~mahjong_tui.scoring.context.HandContext`.
    - ``claimed``: the tile code of the discard claimed into it (which tile of a chow came
      from ``from_seat``), or None for a meld with no claimed tile; not part of equality
      (two melds of the same tiles are the same meld to hand analysis and scoring).
    """

    kind: str
    tiles: tuple[int, ...]
    declared: bool = False
    concealed: bool = True
    kong_type: str | None = None
    from_seat: int | None = None
    claimed: int | None = field(default=None, compare=False)

    @property
    def tile(self) -> int:
        """The lowest tile (the identity of a pung/kong)."""
        return self.tiles[0]

    @property
    def is_triplet(self) -> bool:
        """Pung or kong."""
        return self.kind in (PUNG, KONG)

    def notation(self) -> str:
        body = format_tiles(self.tiles)
        if not self.declared:
            return body
        return f"[{body}]" if self.kong_type == CONCEALED_KONG else f"({body})"
