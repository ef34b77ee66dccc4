"""What a bot knows: everything is read from ``view(seat)`` (engine/table.py ``Table.view``).

:class:`Knowledge` turns the view dict into count arrays and small facts once per decision:

- ``hand``: own concealed count array (length ``tiles.NUM_KINDS``);
- ``melds``: own declared melds as :class:`~mahjong_tui.melds.Meld`;
- ``visible``: copies of each kind this seat can see — own hand, every declared meld, every
  pond tile not claimed (a claimed one sits in a meld), the face-up bloom tiles and bonus
  tile indicators;
- ``unseen[k] = copies(k) − visible[k]``: copies in the wall or in other hands;
- per opponent: melds, pond (tile codes in order), whether the pond tile was claimed;
- ``bloom``: the face-up bloom tiles (codes), if the variant has them;
- ``indicators``: the face-up bonus tile indicators (codes; Uzje), which the scorer needs to
  count a hand's bonus tiles;
- ``draws_left``: the seat's expected remaining draws (live wall above the reserve / 4).

Nothing here looks at anything but the view (DESIGN.md: the view is the only thing that leaves
the machine toward a seat).
"""

from __future__ import annotations

from functools import lru_cache

from .. import tiles as T
from ..melds import CHOW, KONG, PUNG, Meld

WIND_CODE = {"E": T.EAST, "S": T.SOUTH, "W": T.WEST, "N": T.NORTH}


@lru_cache(maxsize=None)
def tile_code(name: str) -> int:
    return T.parse_tile(name)


@lru_cache(maxsize=65536)
def parse(notation: str) -> tuple[int, ...]:
    return tuple(T.parse_tiles(notation)) if notation else ()


@lru_cache(maxsize=65536)
def meld_of(kind: str, tiles: str, kong_type: str | None, from_seat: int | None) -> Meld:
    ts = tuple(sorted(parse(tiles)))
    concealed = kong_type == "concealed"
    return Meld(kind, ts, declared=True, concealed=concealed, kong_type=kong_type, from_seat=from_seat)


def bonus_of(p: dict) -> tuple[int, ...]:
    """The bonus tiles (flowers, seasons, animals) a player dict of the view shows, sorted
    tile codes: public for every seat (singapore.md "Setting up", uzje.md "Setting up")."""
    return tuple(sorted(parse(p.get("bonus", ""))))


class Opponent:
    """Public facts about one other seat.  ``shown``: the tiles of its melds and of its
    pond tiles not claimed (a claimed one sits in a meld), what it adds to ``visible``."""

    __slots__ = ("seat", "melds", "pond", "pond_claimed", "wind", "concealed_count", "bonus", "shown")

    def __init__(self, p: dict):
        self.seat: int = p["seat"]
        self.melds: list[Meld] = [meld_of(m["kind"], m["tiles"], m.get("kong_type"), m.get("from_seat"))
                                  for m in p["melds"]]
        self.pond: list[int] = [tile_code(t) for t, _ in p["pond"]]
        self.pond_claimed: list[bool] = [bool(c) for _, c in p["pond"]]
        self.wind: int = WIND_CODE.get(p.get("wind", "E"), T.EAST)
        self.concealed_count: int = p.get("concealed_count", 13)
        self.bonus: tuple[int, ...] = bonus_of(p)
        shown = [t for m in self.melds for t in m.tiles]
        shown.extend(t for t, claimed in zip(self.pond, self.pond_claimed) if not claimed)
        self.shown: tuple[int, ...] = tuple(shown)


#: id(player dict) -> (the dict, what the Opponent was read from, the Opponent): the engine
#: hands every seat the same player dicts until that seat's public facts change (a new dict
#: then), so four bots read each one once.  The dict is held, so its id is not reused while
#: cached; the fields read are compared, so a dict changed in place (tests) is read again.
_OPPONENTS: dict[int, tuple] = {}


def _opponent(p: dict) -> Opponent:
    """:class:`Opponent` of the player dict ``p``, memoised (see :data:`_OPPONENTS`)."""
    melds, pond = p["melds"], p["pond"]
    sig = (melds, len(melds), pond, len(pond), p.get("wind"), p.get("concealed_count"), p.get("bonus"))
    got = _OPPONENTS.get(id(p))
    if got is not None and got[0] is p:
        old = got[1]
        if (old[0] is melds and old[1] == sig[1] and old[2] is pond and old[3] == sig[3]
                and old[4:] == sig[4:]):
            return got[2]
    opp = Opponent(p)
    if len(_OPPONENTS) > 256:
        _OPPONENTS.clear()
    _OPPONENTS[id(p)] = (p, sig, opp)
    return opp


#: id(variant) -> (variant, ((kind, physical copies), …))
_COPIES: dict[int, tuple] = {}


def _copies(variant) -> tuple[tuple[int, int], ...]:
    got = _COPIES.get(id(variant))
    if got is None or got[0] is not variant:
        got = _COPIES[id(variant)] = (variant, tuple((k, variant.copies_of(k)) for k in variant.kinds))
    return got[1]


class Knowledge:
    """The view of one seat, as count arrays.  ``variant`` gives copies per kind."""

    def __init__(self, variant, view: dict):
        self.view = view
        self.seat: int = view["seat"]
        me = view["players"][self.seat]
        hand = [0] * T.NUM_KINDS
        for t in parse(view["hand"]):
            hand[t] += 1
        self.hand = hand
        self.melds: list[Meld] = [meld_of(m["kind"], m["tiles"], m.get("kong_type"), m.get("from_seat"))
                                  for m in me["melds"]]
        self.bonus: tuple[int, ...] = bonus_of(me)
        self.seat_wind: int = WIND_CODE.get(me.get("wind", "E"), T.EAST)
        self.prevailing: int = WIND_CODE.get(view.get("prevailing_wind", "E"), T.EAST)
        self.phase: str = view["phase"]
        #: kongs the seat to move has made this turn: its next discard follows a kong
        self.kongs_this_turn: int = int(view.get("kongs_this_turn") or 0)
        self.players = [_opponent(p) for p in view["players"]]
        self.opponents = [p for p in self.players if p.seat != self.seat]
        visible = hand[:]
        for p in self.players:
            for t in p.shown:
                visible[t] += 1
        wall = view.get("wall") or {}
        #: the face-up bloom tiles (Yuxi, yuxi.md G-YX-3): taken only to win after a kong
        self.bloom: list[int] = [tile_code(name) for name in wall.get("bloom", ())]
        for t in self.bloom:
            visible[t] += 1
        #: the face-up bonus tile indicators (Uzje, uzje.md "Setting up", G-UZ-6/G-UZ-12): seen
        #: tiles, and what makes the bonus tiles a hand scores (``HandContext.indicators``)
        self.indicators: tuple[int, ...] = tuple(tile_code(name) for name in wall.get("indicators", ()))
        for t in self.indicators:
            visible[t] += 1
        self.visible = visible
        unseen = self.unseen = [0] * T.NUM_KINDS
        for k, n in _copies(variant):
            n -= visible[k]
            if n > 0:
                unseen[k] = n
        self.live = int(wall.get("live", 0))
        self.reserve = int(wall.get("reserve", 0))
        self.draws_left = max(0.0, (self.live - self.reserve) / 4.0)
        d = view.get("discard")
        self.discard: tuple[int, int] | None = (d["seat"], tile_code(d["tile"])) if d else None
        self.drawn: int | None = tile_code(view["drawn"]) if view.get("drawn") else None
        self.hand_number: int = view.get("hand_number", 0)
        self.seq: int = view.get("seq", 0)

    @property
    def declared(self) -> int:
        return len(self.melds)


__all__ = ["Knowledge", "Opponent", "WIND_CODE", "tile_code", "parse", "meld_of", "CHOW", "PUNG", "KONG"]
