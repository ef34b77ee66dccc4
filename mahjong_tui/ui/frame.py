"""A *frame*: everything the table screen draws, as plain frozen data, built from one seat's
``view`` (plus, in a replay, every seat's hand).  The area widgets draw frames and compare them
to skip repaints of areas that did not change (DESIGN.md: "a handful of area widgets redrawn
from the latest view").

No Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Collection, Mapping, Sequence

from .. import tiles as T
from .model import POSITIONS, fmt_num, hand_order, meld_tiles, parse, picked_indices, seat_at
from .walls import Walls, build_walls



@dataclass(frozen=True)
class MeldBox:
    """One exposed or declared meld as drawn: ``tiles`` (None: a hidden concealed kong's),
    ``down`` the indices drawn face down, ``claimed`` the index of the discard claimed into it
    (None: no claimed tile) and ``source`` the wind letter of the seat it came from."""

    tiles: tuple[int | None, ...]
    down: frozenset[int] = frozenset()
    claimed: int | None = None
    source: str = ""


Meld = MeldBox


@dataclass(frozen=True)
class SeatBox:
    """One seat's public corner of the table."""

    position: str
    seat: int
    name: str
    wind: str  # seat wind letter
    dealer: bool
    score: str
    active: bool  # the table is waiting for this seat
    concealed_count: int
    concealed: tuple[int, ...] | None  # face-up concealed tiles (replay), else None
    melds: tuple[Meld, ...]
    bonus: tuple[int, ...]
    status: str = ""  # LAN: "bot stand-in", "open", "away", "offline" ('' when all is well)
    track: int | None = None  # the tile under the cursor: its copies here are marked


@dataclass(frozen=True)
class PondBox:
    """A seat's discards still in its pond (a claimed discard has left it for the meld it
    made), oldest first."""

    position: str
    tiles: tuple[tuple[int, bool], ...]  # (tile, claimed): claimed is always False now
    latest: bool  # the last tile is the latest discard at the table
    track: int | None = None  # the tile under the cursor: its copies here are marked


@dataclass(frozen=True)
class WallBox:
    to_draw: int
    dead: int
    reserve: int
    bloom: tuple[int, ...]
    dice: tuple[int, ...]
    break_wind: str
    break_name: str
    break_stack: int
    winds: tuple[tuple[str, str], ...]  # (position, wind letter)
    active: tuple[str, ...]  # positions the table waits for (publicly)
    indicators: tuple[int, ...] = ()  # face-up bonus-tile indicators (Uzje)
    walls: Walls | None = None  # the four walls stack by stack (None: the view does not say)
    tail: str = ""  # the variant's wall.tail: where replacements come from (walls.py)
    track: int | None = None  # the tile under the cursor, when a bloom tile or indicator is a copy


@dataclass(frozen=True)
class HeaderBox:
    title: str
    round_wind: str
    hand: str
    extra: str = ""
    alert: str = ""  # LAN: a connection problem, shown in warning colours
    net: bool = False  # LAN: the "i table" key is offered


@dataclass(frozen=True)
class HandBox:
    """The bottom seat's own tiles (face down when its owner is not at the keyboard)."""

    tiles: tuple[int, ...] | None
    count: int
    drawn: int | None  # index of the tile just drawn
    selected: int | None
    melds: tuple[Meld, ...]
    active: bool  # the cursor means something (own turn)
    picked: frozenset[int] = frozenset()  # indices of discards picked up into the hand (G-OX-2)


Parts = tuple  # text made of str pieces and tile codes (int), drawn with the face set


@dataclass(frozen=True)
class ActionBox:
    title: Parts
    choices: tuple[tuple[str, Parts], ...]  # (key, label)
    info: Parts
    urgent: bool  # a decision of the player at the keyboard
    news: Parts = ()  # a line of its own: a recent instant payment (singapore.md "Settlement"), else empty


@dataclass(frozen=True)
class LogBox:
    """The move log of the hand as the bottom seat may read it (ui/movelog.py), oldest first:
    (wind letter of the seat whose move it is, or '', the words, the event kind)."""

    lines: tuple[tuple[str, str, str], ...]


def log_box(entries: Sequence, view: dict, limit: int = 200) -> LogBox:
    """The :class:`LogBox` of ``entries`` (:class:`~mahjong_tui.ui.movelog.LogEntry`, those the
    seat may read), the last ``limit`` of them, each with its seat's wind in ``view``."""
    players = view["players"]
    return LogBox(tuple((players[e.seat]["wind"] if e.seat is not None else "", e.text, e.kind)
                        for e in list(entries)[-limit:]))


@dataclass(frozen=True)
class Frame:
    header: HeaderBox
    seats: tuple[SeatBox, ...]  # by POSITIONS order
    ponds: tuple[PondBox, ...]
    wall: WallBox
    hand: HandBox
    actions: ActionBox
    log: LogBox | None = None  # the move log panel (a game at the table; not in a replay)


def claimed_index(tiles: Sequence[int | None], claimed: int, owner: int, from_seat: int | None) -> int | None:
    """Which of a meld's drawn ``tiles`` is its ``claimed`` discard: the one tile of a chow;
    of a pung or kong (several copies) the one on the side of the seat it came from, as the
    turned tile lies on a real table — first from the player before ``owner`` (on his left),
    the middle from the player opposite, last from the player after.  A zero claimed into a
    sequence is drawn as rank 0 of its suit, first (:func:`~.model.meld_tiles`).  None if
    the tile is not there."""
    at = [i for i, t in enumerate(tiles) if t == claimed]
    if not at:
        if claimed == T.ZERO and tiles and tiles[0] is not None and T.is_suited(tiles[0]) and T.rank_of(tiles[0]) == 0:
            return 0
        return None
    if len(at) == 1 or from_seat is None:
        return at[0]
    rel = (from_seat - owner) % 4
    return at[0] if rel == 3 else at[-1] if rel == 1 else at[(len(at) - 1) // 2]


def meld_box(tiles: Sequence[int | None], down: Collection[int], claimed: str | None, from_seat: int | None,
             owner: int, winds: Sequence[str] | None) -> MeldBox:
    """A meld as drawn: the tile ``claimed`` (its name; None: none) found among ``tiles``
    (:func:`claimed_index`), the seat it came from named by its wind (``winds``, by seat)."""
    index, source = None, ""
    if claimed:
        index = claimed_index(tiles, T.parse_tile(claimed), owner, from_seat)
        if from_seat is not None and winds is not None:
            source = winds[from_seat]
    return MeldBox(tuple(tiles), frozenset(down), index, source)


def melds_of(player: dict, players: Sequence[dict] | None = None) -> tuple[Meld, ...]:
    """A seat's melds as :class:`MeldBox` es; ``players`` (the view's) names the seat a
    claimed tile came from by its wind."""
    winds = [p["wind"] for p in players] if players is not None else None
    out = []
    for m in player["melds"]:
        tiles, down = meld_tiles(m)
        out.append(meld_box(tiles, down, m.get("claimed"), m.get("from_seat"), player.get("seat", 0), winds))
    return tuple(out)


def build_frame(
    view: dict,
    *,
    bottom: int,
    names: Sequence[str],
    title: str,
    hand_text: str,
    show_own_hand: bool,
    latest: int | None,
    selected: int | None,
    hand_active: bool,
    actions: ActionBox,
    track: int | None = None,
    revealed: Mapping[int, str] | None = None,
    extra: str = "",
    match_length: str = "",
    statuses: Sequence[str] | None = None,
    alert: str = "",
    net: bool = False,
    wall_rules: Mapping | None = None,
) -> Frame:
    """Build the frame of ``view`` (the view of seat ``bottom``).

    - ``show_own_hand``: draw the bottom seat's concealed tiles face up (else face down);
    - ``revealed``: concealed tiles (notation) of other seats to draw face up (replay only);
    - ``latest``: seat holding the latest discard (highlighted in its pond);
    - ``selected``: cursor index into the bottom hand's display order; ``track``: the tile
      under it, whose copies the ponds, melds, bonus tiles and the bloom tiles or indicators
      lying on the wall mark (the tile tracker);
    - ``statuses``: LAN seat status words per seat (``'bot stand-in'``, ...); ``alert``: a
      connection problem for the header; ``net``: a LAN table;
    - ``wall_rules``: the variant's ``[wall]`` section, to draw the walls stack by stack
      (:func:`~mahjong_tui.ui.walls.build_walls`); without it only the counts are shown.
    """
    players = view["players"]
    waiting = set(view.get("waiting_for") or [])
    turn_phase = view["phase"] in ("turn", "after_kong")
    active_seats = {view["current"]} if turn_phase else set()
    if not turn_phase:
        active_seats = waiting  # only ever our own duty in a claim window (view secrecy)
    seats = []
    ponds = []
    for pos in POSITIONS:
        s = seat_at(bottom, pos)
        p = players[s]
        concealed = None
        if revealed is not None and s in revealed and pos != "bottom":
            concealed = parse(revealed[s])
        melds, bonus = melds_of(p, players), parse(p["bonus"])
        # a box names the tracked tile only where it has a copy: the others stay equal (no repaint)
        shown = track is not None and (track in bonus or any(track in m.tiles for m in melds))
        seats.append(SeatBox(
            position=pos, seat=s, name=names[s], wind=p["wind"], dealer=bool(p["dealer"]),
            score=fmt_num(p["score"]), active=s in active_seats, concealed_count=p["concealed_count"],
            concealed=concealed, melds=melds, bonus=bonus,
            status=statuses[s] if statuses else "", track=track if shown else None,
        ))
        latest_here = latest == s and bool(p["pond"]) and not p["pond"][-1][1]
        pond = tuple((T.parse_tile(t), False) for t, c in p["pond"] if not c)  # a claimed discard left
        ponds.append(PondBox(pos, pond, latest_here, track if any(t == track for t, _ in pond) else None))
    me = players[bottom]
    if show_own_hand:
        own = hand_text == view["hand"]
        tiles, drawn = hand_order(hand_text, view.get("drawn") if own else None)
        picked = picked_indices(tiles, view.get("picked_up"), drawn) if own else frozenset()
        hand = HandBox(tuple(tiles), len(tiles), drawn, selected if hand_active else None, melds_of(me, players),
                       hand_active, picked)
    else:
        hand = HandBox(None, me["concealed_count"], None, None, melds_of(me, players), False)
    w = view["wall"]
    wall = WallBox(
        to_draw=max(0, w["live"] - w.get("reserve", 0)), dead=w.get("dead", 0), reserve=w.get("reserve", 0),
        bloom=tuple(T.parse_tile(t) for t in w.get("bloom", [])), dice=tuple(w.get("dice", ())),
        break_wind=players[w["break_seat"]]["wind"] if w.get("break_seat") is not None else "",
        break_name=names[w["break_seat"]] if w.get("break_seat") is not None else "",
        break_stack=w.get("break_stack", 0),
        winds=tuple((pos, players[seat_at(bottom, pos)]["wind"]) for pos in POSITIONS),
        active=tuple(pos for pos in POSITIONS if seat_at(bottom, pos) in active_seats),
        indicators=tuple(T.parse_tile(t) for t in w.get("indicators", [])),
        walls=build_walls(w, bottom, wall_rules) if wall_rules is not None else None,
        tail=str(wall_rules.get("tail", "")) if wall_rules is not None else "",
    )
    if track is not None and (track in wall.bloom or track in wall.indicators):
        wall = replace(wall, track=track)  # the tile tracker marks its copies lying on the wall
    header = HeaderBox(title, view["prevailing_wind"], hand_label(view, match_length), extra, alert, net)
    return Frame(header, tuple(seats), tuple(ponds), wall, hand, actions)


def hand_label(view: dict, match_length: str = "") -> str:
    """``'Hand 3 of 16'``: ``match_length`` is ``'of 16'``, ``'(4 rounds)'`` or empty; a view
    with ``hands_limit`` (``play --hands K``) says ``of K`` itself."""
    n = view["hand_number"] + 1
    if view.get("hands_limit"):
        return f"Hand {n} of {view['hands_limit']}"
    return f"Hand {n} {match_length}".rstrip()


def seat_label(name: str, wind: str) -> str:
    """``'Bot 2 (South)'``."""
    from .model import wind_word

    return f"{name} ({wind_word(wind)})"


NameFn = Callable[[int], str]
