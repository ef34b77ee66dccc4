"""Kajongg's hand strings in this project's notation (``mahjong_tui/CLI.md`` "Hand strings").

Kajongg (KDE's mahjong program, GPL-2.0) tests its scorer with hand strings; ``hands.json``
holds those of its scoring tests with the score it expects under its "Classical Chinese DMJL"
and "Classical Chinese BMJA" rulesets (extracted as data by ``extract.py``).  This module turns
each into a ``score`` command line: a hand string, ``--by``, ``--situation`` and the winds.  It
is written from Kajongg's documented notation, not from its code.

Kajongg's notation, as read here
--------------------------------
A hand is parts separated by spaces.  A tile is two characters: a group letter and a value.
Groups: ``s`` stones (our dots ``t``), ``b`` bamboo (``s``), ``c`` characters (``m``), ``w``
winds (values ``e s w n``: ``E S W N``), ``d`` dragons (values ``b g r``: white ``P``, green
``F``, red ``C``), ``f`` flowers and ``y`` seasons (value: the wind whose flower or season it is;
ours ``o p q r`` and ``h i j k``, East first).  An upper-case group letter is a concealed tile,
lower case an exposed one.

- ``R…``: the concealed tiles still to be arranged;
- any other part of 2-4 tiles: a meld as laid down: ``aaa`` an exposed pung or chow, ``aaaa``
  an exposed kong, ``aAAa`` a declared concealed kong, ``aaaA`` a kong claimed with a discard
  to a concealed pung, upper case throughout a concealed group, ``aa`` (lower case) a pair or a
  knitted couple completed by the winning discard;
- a lone bonus tile (``fe``, ``ys``): a flower or season held;
- ``L`` + tile [+ meld]: the last (winning) tile, upper case = drawn from the wall, lower
  case = a discard, and optionally the meld it completed;
- ``m`` + source [+ announcements]: where the last tile came from (``w`` wall, ``d`` discard,
  ``z`` the last tile of the wall, ``Z`` the discard of it, ``e`` the dead wall (a kong's
  replacement), ``k`` robbing a kong, ``1`` the dealt hand / East's first discard, ``.``
  unknown), then ``a`` (Original Call declared) and ``t`` (Twofold Fortune: won on the second
  of two consecutive kong replacements).

Mapping to ours
---------------
Exposed melds become ``( … )``, declared concealed kongs ``[ … ]``, concealed tiles and
concealed groups the bare group, bonus tiles ``|…``; the last tile ``+T`` with ``--by
self-draw`` (upper case) or ``--by discard`` (lower case); ``md`` / ``mw`` add nothing the
case does not say; ``z`` → ``last_wall_tile``, ``Z`` → ``last_discard``, ``e`` →
``kong_replacement``, ``k`` → ``robbing_kong``, ``1`` → ``heavenly`` (East) or ``earthly``,
``a`` → ``original_call``, ``t`` → ``double_kong_replacement``.  A lower-case pair or knitted
couple (completed by the winning discard) joins the concealed tiles: in our notation the
winning discard stands in the group it completes.

What cannot be expressed (:class:`NotExpressible`, with the reason):

- hands that are neither 14 nor 13 tiles in play (melds count 3, kongs too): Kajongg scores
  partial and long hands as a non-winner's hand; ``score`` takes a finished hand of 14 tiles,
  or in DMJL and BMJA a waiting hand of 13 tiles (no ``+T``), scored as a non-winner's hand
  (the ``L`` and ``m`` parts of such a hand are dropped: Kajongg scores no winner's rule for it);
- a ``aaaA`` kong (claimed with a discard to a concealed pung) where Kajongg counts it as
  concealed: our notation has one exposed kong ``( … )``;
- an ``L`` part naming a meld that is not in the hand, or a tile not in the hand;
- four concealed identical tiles that are not declared (``AAAA``);
- a win on a kong's replacement tile in a hand with no kong (``score`` refuses the situation);
- a last tile whose case (drawn / discarded) contradicts its source (``mz`` with a lower-case
  tile, ``mZ`` with an upper-case one): Kajongg scores the case, ours the situation;
- an exposed knitted triple (``s4b4c4``): not a meld of ours;
- more than four copies of a tile;
- an exposed pair in a waiting hand (a pair is claimed only with the winning discard);
- a last tile that completed an exposed meld while the concealed tiles hold the same tile (our
  ``+T`` sits in the concealed part first).  An exposed meld completed by the last tile is
  written first, where ``+T`` is looked for first among the melds.

A hand with no ``L`` part names no last tile: it is scored as won on a discard with no
situation, and ``score`` tries every tile as the winning one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
SUITS = {"s": "t", "b": "s", "c": "m"}
HONOURS = {("w", "e"): "E", ("w", "s"): "S", ("w", "w"): "W", ("w", "n"): "N",
           ("d", "b"): "P", ("d", "g"): "F", ("d", "r"): "C"}
BONUS = {("f", w): c for w, c in zip("eswn", "opqr")} | {("y", w): c for w, c in zip("eswn", "hijk")}
SOURCES = {"w": None, "d": None, ".": None, "z": "last_wall_tile", "Z": "last_discard",
           "e": "kong_replacement", "k": "robbing_kong", "1": "blessing"}
ANNOUNCEMENTS = {"a": "original_call", "t": "double_kong_replacement"}


class NotExpressible(ValueError):
    """A Kajongg hand that this project's notation cannot state (the message says why)."""


@dataclass
class Converted:
    """One converted hand: the ``score`` arguments."""

    hand: str
    self_draw: bool
    situations: list[str] = field(default_factory=list)
    seat_wind: str = "E"
    prevailing_wind: str = "E"
    waiting: bool = False      # 13 tiles: scored as a non-winner's hand

    def argv(self, variant: str) -> list[str]:
        """``mahjong-tui score`` arguments for this hand in ``variant``."""
        out = ["score", "--variant", variant, "--json", "--seat-wind", self.seat_wind,
               "--prevailing-wind", self.prevailing_wind, "--by", "self-draw" if self.self_draw else "discard"]
        for s in self.situations:
            out += ["--situation", s]
        return out + [self.hand]


def _tiles(part: str) -> list[tuple[str, str, bool]]:
    """``'b1B1B1b1'`` → [(group, value, concealed), …]."""
    if len(part) % 2:
        raise NotExpressible(f"{part!r} is not a list of two-character tiles")
    return [(part[i].lower(), part[i + 1], part[i].isupper()) for i in range(0, len(part), 2)]


def tile_name(group: str, value: str) -> str:
    """One Kajongg tile (lower-case group) in our notation: ``('b', '3')`` → ``'3s'``."""
    if group in SUITS:
        return value + SUITS[group]
    if (group, value) in HONOURS:
        return HONOURS[group, value]
    if (group, value) in BONUS:
        return BONUS[group, value]
    raise NotExpressible(f"unknown tile {group}{value}")


def _write(tiles: list[str]) -> str:
    """Tiles in our notation, suits grouped: ``['1m', '2m', 'E']`` → ``'12mE'``."""
    out, run, suit = [], "", None
    for t in tiles:
        if len(t) == 2:
            if suit not in (None, t[1]):
                out.append(run + suit)
                run = ""
            run += t[0]
            suit = t[1]
        else:
            if suit:
                out.append(run + suit)
                run, suit = "", None
            out.append(t)
    if suit:
        out.append(run + suit)
    return "".join(out)


def convert(string: str, seat_wind: str = "E", prevailing_wind: str = "E") -> Converted:
    """Convert one Kajongg hand string.  Raises :class:`NotExpressible` (why) for a hand our
    notation cannot state."""
    concealed: list[str] = []
    melds: list[str] = []
    bonus: list[str] = []
    last = None            # (group, value, concealed)
    last_meld = None
    source = None
    announcements = ""
    claimed_kongs = 0
    exposed_pairs = 0
    in_play = 0
    for part in string.split():
        if part[0] == "m":
            source, announcements = (part[1:2] or "."), part[2:]
            continue
        if part[0] == "L":
            last = _tiles(part[1:3])[0]
            last_meld = _tiles(part[3:]) if len(part) > 3 else None
            continue
        if part[0] == "R":
            ts = _tiles(part[1:])
            concealed += [tile_name(g, v) for g, v, _ in ts]
            in_play += len(ts)
            continue
        ts = _tiles(part)
        if len(ts) == 1 and (ts[0][0], ts[0][1]) in BONUS:
            bonus.append(BONUS[ts[0][0], ts[0][1]])
            continue
        names = [tile_name(g, v) for g, v, _ in ts]
        case = "".join("A" if c else "a" for _, _, c in ts)
        in_play += min(len(ts), 3) if len(ts) == 4 else len(ts)
        if len(ts) == 4:
            if len(set(names)) != 1:
                raise NotExpressible(f"{part}: four tiles that are no kong")
            if case == "aAAa":
                melds.append(f"[{_write(names)}]")
            elif case == "aaaa":
                melds.append(f"({_write(names)})")
            elif case == "aaaA":
                claimed_kongs += 1
                melds.append(f"({_write(names)})")
            else:
                raise NotExpressible(f"{part}: four concealed tiles not declared as a kong")
        elif len(ts) == 3 and case == "aaa" and len({g for g, _, _ in ts}) > 1:
            raise NotExpressible(f"{part}: an exposed knitted triple (one rank in three suits) is no meld of ours")
        elif len(ts) == 3 and case == "aaa":
            melds.append(f"({_write(names)})")
        elif case == "a" * len(ts) and len(ts) in (1, 2):
            concealed += names            # the tile, pair or couple the winning discard completed
            exposed_pairs += 1
        elif case == "A" * len(ts):
            concealed += names
        else:
            raise NotExpressible(f"{part}: a group of mixed case")
    if in_play not in (13, 14):
        raise NotExpressible(f"{in_play} tiles in play (melds count 3, kongs too); "
                             "score takes a finished hand of 14 or a waiting hand of 13")
    everything = concealed + [t for m in melds for t in _meld_tiles(m)]
    over = sorted({t for t in everything if everything.count(t) > 4})
    if over:
        raise NotExpressible(f"more than four copies of {', '.join(over)}")
    if in_play == 13 and exposed_pairs:
        raise NotExpressible("an exposed pair or single tile in a waiting hand (only the winning discard is "
                             "claimed for a pair): Kajongg keeps it apart from the concealed tiles")
    if in_play == 13:
        # a waiting hand: scored as a non-winner's hand; its last tile and how it came mean
        # nothing then (Kajongg scores no winner's rules for it)
        last, source, announcements = None, None, ""
    situations: list[str] = []
    win = None
    self_draw = True
    if last is not None:
        win = tile_name(last[0], last[1])
        self_draw = last[2]
        everything = concealed + [t for m in melds for t in _meld_tiles(m)]
        if win not in everything:
            raise NotExpressible(f"the last tile {win} is not in the hand")
        if last_meld is not None:
            lm = sorted(tile_name(g, v) for g, v, _ in last_meld)
            if not _meld_present(lm, concealed, melds):
                raise NotExpressible(f"the L part names the meld {_write(lm)}, which is not in the hand")
            at = next((i for i, m in enumerate(melds) if sorted(_meld_tiles(m)) == lm), None)
            if at is not None:
                if win in concealed:
                    raise NotExpressible(f"the last tile {win} completed the exposed meld {melds[at]}, but the "
                                         "concealed tiles hold it too (our +T then sits in the concealed part)")
                melds.insert(0, melds.pop(at))   # +T sits in the first meld that holds it
    src = SOURCES.get(source) if source else None
    if last is not None and source in ("z", "e", "w") and not last[2]:
        raise NotExpressible(f"the last tile {win} is written as a discard (lower case) but came from the wall "
                             f"(source {source})")
    if last is not None and source in ("Z", "k", "d") and last[2]:
        raise NotExpressible(f"the last tile {win} is written as drawn (upper case) but was a discard "
                             f"(source {source})")
    if last is None:
        self_draw = False     # no last tile named: nothing is scored for how it came
    waiting = in_play == 13
    if source is not None and source not in SOURCES:
        raise NotExpressible(f"unknown tile source {source!r}")
    if src == "blessing":
        situations.append("heavenly" if seat_wind == "E" else "earthly")
        self_draw = seat_wind == "E"
    elif src:
        if src == "kong_replacement" and not any(len(_meld_tiles(m)) == 4 for m in melds):
            raise NotExpressible("won on a kong's replacement tile (source e) with no kong in the hand")
        situations.append(src)
        if src in ("last_discard", "robbing_kong"):
            self_draw = False
        if src in ("last_wall_tile", "kong_replacement"):
            self_draw = True
    for a in announcements:
        if a not in ANNOUNCEMENTS:
            raise NotExpressible(f"unknown announcement {a!r}")
        situations.append(ANNOUNCEMENTS[a])
    if claimed_kongs:
        # Kajongg counts a kong claimed to a concealed pung as concealed for "only concealed
        # melds", "three concealed pungs", "hidden treasure" and "concealed true colour"
        raise NotExpressible("a kong claimed with a discard to a concealed pung (aaaA): Kajongg counts "
                             "it concealed, our notation has one exposed kong")
    hand = " ".join([_write(_sorted(concealed))] if concealed else [])
    parts = [hand] if hand else []
    parts += melds
    if win is not None:
        parts.append(f"+{win}")
    if bonus:
        parts.append("|" + "".join(bonus))
    return Converted(" ".join(parts), self_draw, situations, seat_wind, prevailing_wind, waiting)


ORDER = {c: i for i, c in enumerate("tsm")}
HONOUR_ORDER = "ESWNCFP"


def _sorted(tiles: list[str]) -> list[str]:
    return sorted(tiles, key=lambda t: (ORDER[t[1]], t[0]) if len(t) == 2 else (3, HONOUR_ORDER.index(t)))


def _meld_tiles(meld: str) -> list[str]:
    body = meld[1:-1]
    out, digits = [], ""
    for ch in body:
        if ch.isdigit():
            digits += ch
        elif ch in "tsm":
            out += [d + ch for d in digits]
            digits = ""
        else:
            out.append(ch)
    return out


def _meld_present(lm: list[str], concealed: list[str], melds: list[str]) -> bool:
    if any(sorted(_meld_tiles(m)) == lm for m in melds):
        return True
    return all(concealed.count(t) >= lm.count(t) for t in set(lm))


def load_cases() -> list[dict]:
    """``hands.json`` with each case's conversion (``converted``: :class:`Converted` or None)
    and, where it cannot be expressed, ``reason``."""
    cases = json.loads((HERE / "hands.json").read_text(encoding="utf-8"))
    for c in cases:
        try:
            c["converted"] = convert(c["kajongg"], c["seat_wind"], c["prevailing_wind"])
            c["reason"] = None
        except NotExpressible as exc:
            c["converted"] = None
            c["reason"] = str(exc)
    return cases


def not_converted_text() -> str:
    """``NOT_CONVERTED.md``: every Kajongg test hand our notation cannot state, with why."""
    rows = {}
    for c in load_cases():
        if c["converted"] is None:
            key = (c["kajongg"], c["seat_wind"], c["prevailing_wind"])
            rows.setdefault(key, (c["group"], c["reason"]))
    lines = ["# Kajongg test hands not converted", "",
             "Generated by `python tests/kajongg/convert.py --missing` (checked by",
             "`tests/test_dmjl_bmja_kajongg.py`): the hands of Kajongg's scoring tests that this",
             "project's notation cannot state, each with the reason (`convert.py` explains the notation).",
             "", "| Kajongg test | hand | seat, round | why |", "|---|---|---|---|"]
    for (hand, seat, rnd), (group, reason) in rows.items():
        lines.append(f"| {group} | `{hand or '(empty)'}` | {seat}, {rnd} | {reason} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    if "--missing" in sys.argv:
        sys.stdout.write(not_converted_text())
    else:
        for c in load_cases():
            conv = c["converted"]
            print(f"{c['kajongg']:<60} -> {conv.hand + ' ' + ' '.join(conv.situations) if conv else 'NOT: ' + c['reason']}")
