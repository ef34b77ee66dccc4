"""Actions a seat can take, as small immutable values.

An :class:`Action` is what ``legal_actions(seat)`` lists and ``apply(action)`` takes; it is
also the unit of the game log and of the LAN protocol (``to_dict`` / ``from_dict``).

Kinds (``Action.kind``):

===================  ==========================================================  ===============
kind                 meaning                                                     phase
===================  ==========================================================  ===============
``discard``          discard ``tile`` from hand                                  turn
``original_call``    discard ``tile`` and announce Original Call                   turn
``win``              declare a win: self-drawn (turn), on the discard (claim),
                     robbing the kong (rob), on a bloom tile ``tile`` (after_kong)  any
``concealed_kong``   declare four concealed ``tile``                              turn
``added_kong``       add ``tile`` to one's exposed pung                          turn
``pass``             decline a claim                                             claim, rob
``pung``             claim the discard for a pung                                claim
``kong``             claim the discard for an exposed kong                       claim
``chow``             claim the discard for the chow ``tiles``                    claim
``pickup``           take the discard into hand without melding (Oxenstierna)    claim
``draw``             take the kong replacement instead of a bloom-tile win       after_kong
===================  ==========================================================  ===============
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T
from ..errors import IllegalAction

_POOL: dict = {}  # (seat, kind, tile, tiles) -> Action

KINDS = ("discard", "win", "concealed_kong", "added_kong", "pass", "pung", "kong", "chow", "pickup", "draw",
         "original_call")


@dataclass(frozen=True, order=True)
class Action:
    """One decision of one seat.  ``tile`` for tile-bearing kinds; ``tiles`` the chow's three
    tiles (sorted)."""

    seat: int
    kind: str
    tile: int | None = None
    tiles: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        """``{"seat", "kind"[, "tile"][, "tiles"]}`` with tiles in notation (a fresh dict)."""
        return dict(self.shared_dict())

    def shared_dict(self) -> dict:
        """:meth:`to_dict`, memoised and shared between callers: do not modify it."""
        d = self.__dict__.get("_dict")  # kept on the (immutable) action itself
        if d is None:
            d = {"seat": self.seat, "kind": self.kind}
            if self.tile is not None:
                d["tile"] = T.name(self.tile)
            if self.tiles:
                d["tiles"] = T.format_tiles(self.tiles)
            self.__dict__["_dict"] = d
        return d

    @staticmethod
    def of(seat: int, kind: str, tile: int | None = None, tiles: tuple[int, ...] = ()) -> "Action":
        """``Action(seat, kind, tile, tiles)``, shared from a pool (actions are values: the
        engine lists the same few hundred again and again, and building one costs more than
        looking it up)."""
        key = (seat, kind, tile, tiles)
        a = _POOL.get(key)
        if a is None:
            a = Action(seat, kind, tile, tiles)
            if len(_POOL) > 8192:
                _POOL.clear()
            _POOL[key] = a
        return a

    @classmethod
    def from_dict(cls, d: object) -> "Action":
        """Inverse of :meth:`to_dict`.  Raises :class:`IllegalAction` for a malformed action."""
        if not isinstance(d, dict):
            raise IllegalAction(f"an action must be a mapping with 'seat' and 'kind', got {type(d).__name__}")
        seat, kind = d.get("seat"), d.get("kind")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise IllegalAction(f"action 'seat' must be 0..3, got {seat!r}")
        if kind not in KINDS:
            raise IllegalAction(f"action 'kind' {kind!r} is unknown; kinds: {', '.join(KINDS)}")
        tile = d.get("tile")
        tiles = d.get("tiles")
        try:
            t = T.parse_tile(tile) if tile is not None else None
            ts = tuple(sorted(T.parse_tiles(tiles))) if tiles else ()
        except (T.NotationError, TypeError, AttributeError) as exc:
            raise IllegalAction(f"action tile(s) not understood: {exc}") from None
        return cls(seat, kind, t, ts)

    def describe(self) -> str:
        """A player's words: ``'pung 5t'``, ``'chow 345m'``, ``'pass'``."""
        if self.kind == "chow":
            return f"chow {T.format_tiles(self.tiles)}"
        if self.tile is not None:
            return f"{self.kind.replace('_', ' ')} {T.name(self.tile)}"
        return self.kind.replace("_", " ")
