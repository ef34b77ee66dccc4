"""The pattern library: named pattern detectors with parameters, and the combiners.

A variant's scoring is data (``variants/*.toml``, ``variants/README.md`` "Scoring patterns"):

- ``[scoring.patterns]`` lists the patterns the variant knows, each under its pattern id
  (the ids of the rules pages), as a table::

      [scoring.patterns]
      full_flush = { detector = "flush", honours = "none", name = "Full Flush: one suit, no honours" }
      basic_win  = { detector = "any_win", alone = true, name = "Basic Win: no other pattern" }
      worthless_hand = { detector = "chow_hand", pair = "no_honour", bonus = "none",
                         replaces = ["mahjong_discard", "mahjong_self_drawn"], name = "..." }

  Keys of a pattern: ``detector`` (a name of :data:`DETECTORS`, required); the detector's
  parameters (each detector's docstring lists them, with defaults); ``name`` (the player's
  words shown in breakdowns; default: the id); ``applies_to`` (``"winner"``, the default,
  ``"every_player"``: also scored for a non-winner's hand where the variant scores losers, or
  ``"flower_win"``: only a win declared on a bonus tile, Ùzje's flower wins);
  ``replaces`` (ids this pattern removes from the breakdown when it scores); ``alone``
  (``true``: scores only when no other pattern does, Yuxi's basic win); ``order``
  (``"hand"``: a run of such patterns is listed in the order the hand shows them, Classic's
  pung points, instead of the file's order); ``value`` and ``table`` (a value for a pattern
  that no value table lists, and the table it counts in).
- The VALUE of a pattern is read from the scheme's value tables (``[scoring.points]``,
  ``[scoring.doublings]``, ``[scoring.special]``, ``[scoring.multipliers]``, ``[scoring.fan]``,
  ``[scoring.tai]``, ``[scoring.limits]``), which also say which kind of item it is (points or
  doublings, fan or limit): a pattern that no table values (and that has no ``value``) never
  scores, so a house rule drops a pattern by leaving it out of its table and adds one by listing
  it here and valuing it there.  ``scoring.exclusions`` (families of which only the highest
  scores) are applied after detection.
- ``scoring.scheme`` names the combiner (:data:`COMBINERS`): ``points_doublings`` (base points
  then doublings, capped at ``scoring.limit``), ``multiplier`` (product of multipliers, capped),
  ``fan`` and ``tai`` (sum, capped), ``fan_ladder`` (sum of fan in tenths, then a ladder from
  fan to points, limit hands apart).  The scheme's module in this package says how a winning
  hand is chosen among its arrangements and what makes a win legal.

A detector is a function ``fn(hand, p) -> count`` over a :class:`Hand` (the hand as one
arrangement reads it, with its context, facts and waits) and its parameters ``p``
(:class:`Params`, attribute access, ``p.id`` the pattern id); it returns how many times the
pattern applies: an ``int`` (0 = absent), a :class:`Hit` (count, extra fan, where in the hand
it was first seen), or a list of hits (separate breakdown items).  Register one with
:func:`detector`.  Each detector's docstring gives its rule source.

Public API: :data:`DETECTORS`, :func:`detector`, :class:`Hand`, :class:`Hit`,
:class:`PatternSpec`, :func:`patterns_of`, :func:`detect`, :func:`value_of`,
:func:`check_patterns`, :func:`known_ids`, :func:`plan_families`, :data:`COMBINERS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence

from .. import tiles as T
from ..melds import CHOW, CONCEALED_KONG, KONG, PUNG
from .common import (PAIR, STANDARD, Arrangement, Group, HandFacts, hand_facts,
                     nine_gates, robs_the_eighth, waits_of_13)
from .context import SITUATIONS, HandContext, PatternScore

# ----------------------------------------------------------------------------------------
# The hand as a detector sees it
# ----------------------------------------------------------------------------------------


class Hand:
    """One reading of a player's hand, what every detector is given.

    - ``variant``, ``ctx`` (:class:`~mahjong_tui.scoring.context.HandContext`);
    - ``arr``: the :class:`~mahjong_tui.scoring.common.Arrangement` being scored, or None (a
      non-winner's hand, a flower win);
    - ``groups``: the melds and pairs as read (default ``arr.groups``; Ùzje's zero readings and
      meld families give their own; a non-winner: declared melds and concealed pungs);
    - ``tiles``: every tile of the hand as read (default: concealed tiles then meld tiles);
    - ``facts``: :func:`~mahjong_tui.scoring.common.hand_facts` of the context (lazy);
    - ``waits``: the wait set of the hand before the winning tile (lazy; None without one).
    """

    def __init__(self, variant, ctx: HandContext, arr: Arrangement | None = None,
                 groups: Sequence[Group] | None = None, tiles: Sequence[int] | None = None,
                 facts: HandFacts | None = None):
        self.variant = variant
        self.ctx = ctx
        self.arr = arr
        self.groups: tuple[Group, ...] = tuple(groups if groups is not None else (arr.groups if arr else ()))
        if tiles is None:
            tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
        self.tiles: tuple[int, ...] = tuple(tiles)
        if facts is not None:
            self.__dict__["facts"] = facts

    @cached_property
    def facts(self) -> HandFacts:
        return hand_facts(self.ctx, self.variant.tiles_rules["ranks"][1])

    @cached_property
    def waits(self) -> tuple[int, ...] | None:
        if self.ctx.winning_tile is None:
            return None
        return tuple(waits_of_13(self.variant, self.ctx))

    @property
    def form(self) -> str | None:
        return self.arr.form if self.arr is not None else None

    @property
    def ranks(self) -> tuple[int, int]:
        lo, hi = self.variant.tiles_rules["ranks"]
        return int(lo), int(hi)

    @cached_property
    def melds(self) -> tuple[Group, ...]:
        """Every group but the pairs."""
        return tuple(g for g in self.groups if g.kind != PAIR)

    @cached_property
    def pairs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind == PAIR)

    @property
    def pair(self) -> Group | None:
        """The pair of a standard arrangement (None otherwise)."""
        if self.form != STANDARD:
            return None
        return self.pairs[0] if self.pairs else None

    @cached_property
    def triplets(self) -> tuple[Group, ...]:
        """Pungs and kongs."""
        return tuple(g for g in self.groups if g.kind in (PUNG, KONG))

    @cached_property
    def chows(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind == CHOW)

    @cached_property
    def kongs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind == KONG)

    @cached_property
    def suits(self) -> frozenset[int]:
        """Number suits among :attr:`tiles`."""
        return frozenset(T.suit_of(t) for t in self.tiles if T.is_suited(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(T.is_honour(t) for t in self.tiles)

    def wind_tile(self, wind: int) -> int:
        """The tile of a seat or round wind; with Ùzje's compressed winds ``H`` stands for
        East and West, ``V`` for South and North (seed 002)."""
        if self.variant.copies_of(wind):
            return wind
        return T.WIND_H if wind in (T.EAST, T.WEST) else T.WIND_V

    def is_terminal(self, t: int) -> bool:
        """Rank 1 or the variant's highest rank of a suit (common.md "Terminals and honours")."""
        lo, hi = self.ranks
        return T.is_suited(t) and T.rank_of(t) in (lo, hi)


@dataclass(frozen=True)
class Hit:
    """One breakdown item a detector found: ``count`` times, ``extra`` steps of
    ``scoring.extra_fan`` more (Ùzje's special tiles), ``first`` where in the hand it was
    first seen (group or bonus-tile index, for ``order = "hand"``)."""

    count: int = 1
    extra: int = 0
    first: int = 0


class Params:
    """A pattern's parameters with attribute access; ``id`` is the pattern id."""

    def __init__(self, pid: str, values: Mapping[str, Any]):
        self.id = pid
        self.__dict__.update(values)

    def __repr__(self) -> str:  # pragma: no cover - debugging
        return f"Params({self.__dict__!r})"


@dataclass(frozen=True)
class Detector:
    """A registered detector: ``name``, the function, its parameters (name → (default,
    allowed values or None for any of the default's type)), its docstring, and the bot plan
    families it calls for (:func:`plan_families`)."""

    name: str
    fn: Callable[[Hand, Params], Any]
    params: Mapping[str, tuple[Any, tuple | None]]
    doc: str
    plans: Callable[[Params], tuple[str, ...]] | None = None


#: Every detector by name.
DETECTORS: dict[str, Detector] = {}


def detector(name: str, plans: Callable[[Params], tuple[str, ...]] | None = None,
             **params: tuple[Any, tuple | None]):
    """Register a detector function under ``name`` with its parameters
    (``param=(default, allowed)``; ``allowed`` None: any value of the default's type, or a
    list of strings when the default is a list)."""

    def wrap(fn):
        DETECTORS[name] = Detector(name, fn, MappingProxyType(dict(params)), (fn.__doc__ or "").strip(), plans)
        return fn

    return wrap


# ----------------------------------------------------------------------------------------
# A variant's patterns
# ----------------------------------------------------------------------------------------

APPLIES_TO = ("winner", "every_player", "flower_win")
_SPEC_KEYS = ("detector", "name", "applies_to", "replaces", "alone", "order", "value", "table")


@dataclass(frozen=True)
class PatternSpec:
    """One pattern of a variant file (see the module docstring)."""

    id: str
    detector: str
    params: Params
    name: str
    applies_to: str = "winner"
    replaces: tuple[str, ...] = ()
    alone: bool = False
    order: str = "listed"
    value: float | None = None
    table: str | None = None

    def run(self, hand: Hand) -> list[Hit]:
        """The hits of this pattern in ``hand`` ([] when absent)."""
        got = DETECTORS[self.detector].fn(hand, self.params)
        if not got:
            return []
        if isinstance(got, bool):
            return [Hit(1)]
        if isinstance(got, int):
            return [Hit(got)]
        if isinstance(got, Hit):
            return [got] if got.count > 0 else []
        return [h for h in got if h.count > 0]


_SPECS: dict[int, tuple[Any, tuple[PatternSpec, ...]]] = {}


def spec_from(pid: str, raw: Mapping[str, Any]) -> PatternSpec:
    """A :class:`PatternSpec` from one entry of ``[scoring.patterns]`` (checked by
    :func:`check_patterns`; unknown parameters are not caught here)."""
    det = DETECTORS[raw["detector"]]
    values = {k: (list(d) if isinstance(d, list) else d) for k, (d, _a) in det.params.items()}
    for k, v in raw.items():
        if k not in _SPEC_KEYS:
            values[k] = list(v) if isinstance(v, (list, tuple)) else v
    return PatternSpec(
        id=pid, detector=raw["detector"], params=Params(pid, values), name=str(raw.get("name", pid)),
        applies_to=raw.get("applies_to", "winner"), replaces=tuple(raw.get("replaces", ())),
        alone=bool(raw.get("alone", False)), order=raw.get("order", "listed"),
        value=raw.get("value"), table=raw.get("table"))


def patterns_of(variant) -> tuple[PatternSpec, ...]:
    """The variant's patterns (``scoring.patterns``), in the file's order; cached per
    variant.  Assumes :func:`check_patterns` passed (the variant loader runs it)."""
    key = id(variant.rules)
    hit = _SPECS.get(key)
    if hit is not None and hit[0] is variant.rules:
        return hit[1]
    raw = variant.scoring.get("patterns") or {}
    specs = tuple(spec_from(pid, r) for pid, r in raw.items())
    if len(_SPECS) > 256:
        _SPECS.clear()
    _SPECS[key] = (variant.rules, specs)
    return specs


def spec_of(variant, pid: str) -> PatternSpec | None:
    """The variant's pattern ``pid``, or None."""
    return next((s for s in patterns_of(variant) if s.id == pid), None)


def known_ids(scoring: Mapping[str, Any]) -> frozenset[str]:
    """The pattern ids a ``[scoring]`` section lists in ``scoring.patterns``."""
    return frozenset((scoring.get("patterns") or {}).keys())


VALUE_TABLES = ("special", "points", "doublings", "multipliers", "fan", "tai", "limits")


def value_of(variant, pid: str, tables: Sequence[str] = VALUE_TABLES) -> tuple[str, float] | None:
    """``(table, value)`` of pattern ``pid``: the first of ``tables`` that lists it, else the
    pattern's own ``value`` (in its ``table``, or the first of ``tables``); None when nothing
    values it (it never scores)."""
    sc = variant.scoring
    for t in tables:
        tbl = sc.get(t) or {}
        if pid in tbl:
            return t, tbl[pid]
    spec = spec_of(variant, pid)
    if spec is not None and spec.value is not None:
        table = spec.table or tables[0]
        if table in tables:
            return table, spec.value
    return None


def check_patterns(where: str, scoring: Mapping[str, Any]) -> None:
    """Validate ``scoring.patterns`` of a variant file; raises ``ValueError`` naming the key
    (``where`` prefixes the message, e.g. the file) and what is allowed."""
    raw = scoring.get("patterns") or {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: key 'scoring.patterns' must be a table of pattern id = {{ detector = ..., ... }}")
    for pid, spec in raw.items():
        key = f"scoring.patterns.{pid}"
        if not isinstance(spec, Mapping):
            raise ValueError(f"{where}: key '{key}' must be a table {{ detector = ..., name = ..., ... }}")
        det = spec.get("detector")
        if det not in DETECTORS:
            raise ValueError(f"{where}: key '{key}.detector' = {det!r} is not allowed; expected one of "
                             f"{', '.join(sorted(DETECTORS))}")
        d = DETECTORS[det]
        for k, v in spec.items():
            if k in _SPEC_KEYS:
                continue
            if k not in d.params:
                allowed = ", ".join(sorted(set(d.params) | set(_SPEC_KEYS)))
                raise ValueError(f"{where}: unknown key '{key}.{k}' for detector {det!r}; allowed: {allowed}")
            default, choices = d.params[k]
            ok = _param_ok(v, default, choices)
            if not ok:
                what = (f"one of {', '.join(repr(c) for c in choices)}" if choices is not None
                        else f"a {type(default).__name__}" if default is not None else "a value")
                raise ValueError(f"{where}: key '{key}.{k}' = {v!r} is not allowed; expected {what}")
        if spec.get("applies_to", "winner") not in APPLIES_TO:
            raise ValueError(f"{where}: key '{key}.applies_to' = {spec['applies_to']!r} is not allowed; "
                             f"expected 'winner', 'every_player' or 'flower_win'")
        if spec.get("order", "listed") not in ("listed", "hand"):
            raise ValueError(f"{where}: key '{key}.order' = {spec['order']!r} is not allowed; expected 'listed' or 'hand'")
        rep = spec.get("replaces", [])
        if not isinstance(rep, (list, tuple)) or not all(isinstance(x, str) for x in rep):
            raise ValueError(f"{where}: key '{key}.replaces' must be a list of pattern ids")
        if not isinstance(spec.get("alone", False), bool):
            raise ValueError(f"{where}: key '{key}.alone' must be true or false")
        if "value" in spec and not (isinstance(spec["value"], (int, float)) and not isinstance(spec["value"], bool)
                                    and 0 <= spec["value"] <= 10**6):
            raise ValueError(f"{where}: key '{key}.value' = {spec['value']!r} is not allowed; expected a number from 0 to 1000000")
        if "table" in spec and spec["table"] not in VALUE_TABLES:
            raise ValueError(f"{where}: key '{key}.table' = {spec['table']!r} is not allowed; expected one of "
                             f"{', '.join(VALUE_TABLES)}")


def _param_ok(v: Any, default: Any, choices: tuple | None) -> bool:
    if choices is not None:
        if isinstance(v, list):
            return all(x in choices for x in v) and isinstance(default, list)
        return not isinstance(v, bool) and v in choices if not isinstance(default, bool) else v in choices
    if isinstance(default, bool):
        return isinstance(v, bool)
    if isinstance(default, int):
        return isinstance(v, int) and not isinstance(v, bool)
    if isinstance(default, list):
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    if isinstance(default, str):
        return isinstance(v, str)
    return True


# ----------------------------------------------------------------------------------------
# Detection
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A pattern that scored in a hand: its spec, its hits and its position in the breakdown."""

    spec: PatternSpec
    hits: tuple[Hit, ...]
    key: tuple = ()

    @property
    def count(self) -> int:
        return sum(h.count for h in self.hits)


def detect(variant, hand: Hand, *, only: Iterable[str] | None = None, every_player: bool = False,
           flower_win: bool = False, tables: Sequence[str] = VALUE_TABLES) -> list[Found]:
    """The variant's patterns present in ``hand``, in breakdown order, after ``replaces``
    and ``alone`` (but before ``scoring.exclusions``, :func:`~mahjong_tui.scoring.common.apply_exclusions`).

    Only patterns valued in one of ``tables`` (:func:`value_of`) are detected.  ``only``:
    restrict to these ids; ``every_player``: only patterns with ``applies_to =
    "every_player"`` (a non-winner's hand); ``flower_win``: only the patterns with
    ``applies_to = "flower_win"`` (a win declared on a bonus tile), which are otherwise left
    out.  Breakdown order: the file's order, except that a
    run of consecutive patterns of one detector with ``order = "hand"`` is ordered by where
    the hand first shows each."""
    specs = patterns_of(variant)
    wanted = set(only) if only is not None else None
    found: list[Found] = []
    block = 0
    prev: PatternSpec | None = None
    for i, spec in enumerate(specs):
        in_hand = spec.order == "hand"
        if not (in_hand and prev is not None and prev.order == "hand" and prev.detector == spec.detector):
            block = i
        prev = spec
        if wanted is not None and spec.id not in wanted:
            continue
        if every_player and spec.applies_to != "every_player":
            continue
        if flower_win != (spec.applies_to == "flower_win"):
            continue
        if value_of(variant, spec.id, tables) is None:
            continue
        hits = spec.run(hand)
        if hits:
            pos = min(h.first for h in hits) if in_hand else 0
            found.append(Found(spec, tuple(hits), (block, pos, i)))
    found.sort(key=lambda f: f.key)
    gone = {r for f in found for r in f.spec.replaces}
    found = [f for f in found if f.spec.id not in gone]
    if any(not f.spec.alone for f in found):
        found = [f for f in found if not f.spec.alone]
    return found


def scores(variant, found: Iterable[Found], tables: Sequence[str] = VALUE_TABLES,
           kinds: Mapping[str, str] | None = None) -> list[PatternScore]:
    """Breakdown items (:class:`~mahjong_tui.scoring.context.PatternScore`) of ``found``:
    one item per pattern (its hits' counts added), the value and kind from its table
    (``kinds`` maps a table to the item's kind; default the table's name)."""
    out = []
    for f in found:
        table, value = value_of(variant, f.spec.id, tables)
        kind = (kinds or {}).get(table, table)
        out.append(PatternScore(f.spec.id, value, f.count, kind, f.spec.name))
    return out


# ----------------------------------------------------------------------------------------
# Detectors: tiles of the whole hand
# ----------------------------------------------------------------------------------------


def _suit_plans(p: Params) -> tuple[str, ...]:
    if p.honours == "required":
        return ("suit_honours",)
    return ("suit", "honours") if p.or_honours_only else ("suit",)


@detector("flush", plans=_suit_plans, honours=("none", ("none", "required", "any")),
          or_honours_only=(False, None), short_suit=("any", ("any", "yes", "no")))
def _flush(h: Hand, p: Params) -> int:
    """One number suit (a flush).  ``honours``: ``"none"`` (full flush: classic.md "Scoring"
    ``full_suit``; yuxi.md, yangzhou.md, singapore.md, uzje.md ``full_flush``), ``"required"``
    (one suit and honours: Classic ``half_suit``, Yangzhou ``mixed_suit``, Singapore
    ``half_flush``, Ùzje ``clean_suit`` / ``clean_tongs``), ``"any"``.
    ``or_honours_only``: honours only count too (Classic ``full_suit``: "one suit only, or honours
    only").  ``short_suit``: ``"yes"`` the suit is one of ``tiles.suit_ranks`` (Ùzje's tongs,
    ``clean_tongs``), ``"no"`` it is not (``clean_suit``)."""
    if not h.tiles:
        return 0
    if len(h.suits) != 1:
        return int(p.or_honours_only and not h.suits and h.has_honours)
    if p.honours == "none" and h.has_honours or p.honours == "required" and not h.has_honours:
        return 0
    if p.short_suit != "any":
        short = T.SUIT_LETTERS[next(iter(h.suits))] in h.variant.tiles_rules["suit_ranks"]
        if short != (p.short_suit == "yes"):
            return 0
    return 1


@detector("honours_only", plans=lambda p: ("honours",))
def _honours_only(h: Hand, p: Params) -> int:
    """Honour tiles only (Classic ``grand_honours``, classic.md "Special hands"; Yangzhou and
    Singapore ``all_honours``; Ùzje ``honourable``, the zero read as an honour)."""
    return int(bool(h.tiles) and not h.suits)


@detector("suits_missing", count=(1, None))
def _suits_missing(h: Hand, p: Params) -> int:
    """Exactly ``count`` of the three number suits absent, the others present (Yangzhou
    ``missing_one_suit``, yangzhou.md "Fan table": two suits present)."""
    return int(len(h.suits) == 3 - p.count)


@detector("terminals", kind=("all", ("all", "none", "mixed_triplets", "pair")))
def _terminals(h: Hand, p: Params) -> int:
    """Terminals (1 and the highest rank of a suit, common.md "Terminals and honours").
    ``kind``: ``"all"`` terminals only, no honours (Classic ``heads_and_tails``, Singapore
    ``pure_terminals``); ``"none"`` no terminal at all, honours allowed (Yangzhou
    ``no_terminals``, G-YZ-4); ``"mixed_triplets"`` four pungs of terminals and honours, both
    present (Singapore ``mixed_terminals``); ``"pair"`` the pair is a terminal (Yangzhou
    ``terminal_pair``)."""
    f = h.facts
    if p.kind == "all":
        return int(f.all_terminals)
    if p.kind == "none":
        return int(not any(h.is_terminal(t) for t in h.tiles))
    if p.kind == "mixed_triplets":
        return int(h.form == STANDARD and len(h.triplets) == 4 and f.terminals_and_honours
                   and f.has_honours and bool(f.suits))
    return int(bool(h.pairs) and h.is_terminal(h.pairs[0].tiles[0]))


@detector("tile_set", tiles=("", None))
def _tile_set(h: Hand, p: Params) -> int:
    """Only tiles of ``tiles``, a tile string such as ``"23468sF"`` (Singapore ``pure_green``,
    singapore.md "Tai table": only 2 3 4 6 8 of bamboo and green dragons)."""
    allowed = frozenset(T.parse_tiles(p.tiles))
    return int(bool(h.facts.tiles) and set(h.facts.tiles) <= allowed)


# ----------------------------------------------------------------------------------------
# Detectors: melds
# ----------------------------------------------------------------------------------------

TILE_CLASSES = ("any", "simple", "terminal", "honour", "dragon", "wind", "seat_wind", "prevailing_wind")


def _tile_in_class(h: Hand, t: int, cls: str) -> bool:
    if cls == "any":
        return True
    if cls == "honour":
        return T.is_honour(t)
    if cls == "terminal":
        return not T.is_honour(t) and h.is_terminal(t)
    if cls == "simple":
        return not T.is_honour(t) and not h.is_terminal(t)
    if cls == "dragon":
        return T.is_dragon(t)
    if cls == "wind":
        return T.is_wind(t)
    if cls == "seat_wind":
        return t == h.wind_tile(h.ctx.seat_wind)
    return t == h.wind_tile(h.ctx.prevailing_wind)


def _hidden(g: Group) -> bool:
    """classic.md "Points": a kong is hidden only when declared concealed (or formed in hand)."""
    if g.kind == KONG:
        return g.concealed and g.kong_type in (None, CONCEALED_KONG)
    return g.concealed


def _self_drawn(h: Hand, g: Group) -> bool:
    """A group of self-drawn tiles: not claimed, and not holding a winning tile from a
    discard (common.md "Melds"; Yangzhou ``concealed_triplet``)."""
    if not g.concealed:
        return False
    if g.declared and g.kong_type != CONCEALED_KONG:
        return False
    if g.has_winning_tile and not h.ctx.self_draw:
        return False
    return True


@detector("triplet", plans=lambda p: (), tiles=("any", TILE_CLASSES), size=("any", ("any", "pung", "kong")),
          concealed=("any", ("any", "hidden", "open", "self_drawn")), kong=("any", ("any", "exposed", "concealed")),
          count=("each", ("each", "once")))
def _triplet(h: Hand, p: Params) -> Hit | int:
    """Pungs and kongs (common.md "Melds").  ``tiles``: the tile class (``simple`` 2..8,
    ``terminal``, ``honour``, ``dragon``, ``wind``, ``seat_wind``, ``prevailing_wind``, ``any``);
    ``size``: ``pung`` / ``kong`` / ``any``; ``concealed``: ``hidden`` (classic.md "Points": no
    tile from a discard; a kong only if declared concealed), ``open`` (not hidden),
    ``self_drawn`` (Yangzhou ``concealed_triplet``: no claimed tile, no winning discard),
    ``any``; ``kong``: a kong's type ``exposed`` (exposed or added) / ``concealed``;
    ``count``: ``each`` (every such meld counts) or ``once``.  Rule sources: classic.md
    "Points" (``pung_simple_open`` … ``kong_honour_hidden``), "Doublings" (``dragon_pung``,
    ``own_wind_pung``, ``prevailing_wind_pung``); yangzhou.md "Fan table" (``dragon_triplet``,
    ``exposed_kong``, ``concealed_kong``, ``concealed_triplet``); singapore.md "Tai table";
    uzje.md "Fan table" (``seat_wind``, ``round_wind``, ``arrow_trip``)."""
    n = 0
    first = -1
    for i, g in enumerate(h.groups):
        if g.kind not in (PUNG, KONG):
            continue
        if p.size != "any" and g.kind != p.size:
            continue
        if p.kong != "any" and (g.kind != KONG or (g.kong_type == CONCEALED_KONG) != (p.kong == "concealed")
                                or g.kong_type is None):
            continue
        if not _tile_in_class(h, g.tiles[0], p.tiles):
            continue
        if p.concealed == "hidden" and not _hidden(g) or p.concealed == "open" and _hidden(g):
            continue
        if p.concealed == "self_drawn" and not _self_drawn(h, g):
            continue
        n += 1
        if first < 0:
            first = i
    if not n:
        return 0
    return Hit(1 if p.count == "once" else n, 0, first)


@detector("chow", count=("each", ("each", "once")))
def _chow(h: Hand, p: Params) -> Hit | int:
    """Chows (Classic ``chow``, classic.md "Points": listed at no points)."""
    n = len(h.chows)
    if not n:
        return 0
    return Hit(1 if p.count == "once" else n, 0, next(i for i, g in enumerate(h.groups) if g.kind == CHOW))


@detector("pair", tiles=("honour", ("honour", "value_wind", "terminal", "dragon", "wind")))
def _pair(h: Hand, p: Params) -> int:
    """The pair of a standard hand, of a class: ``honour`` (a dragon or wind, Classic
    ``pair_honour``), ``value_wind`` (the seat or prevailing wind, once even if both, G-OX-3
    ``pair_value_wind``), ``terminal``, ``dragon``, ``wind``."""
    pair = h.pair
    if pair is None:
        return 0
    t = pair.tile
    if p.tiles == "honour":
        return int(T.is_dragon(t) or T.is_wind(t))
    if p.tiles == "value_wind":
        return int(T.is_wind(t) and (t == h.ctx.seat_wind or t == h.ctx.prevailing_wind))
    if p.tiles == "terminal":
        return int(h.is_terminal(t))
    return int(T.is_dragon(t) if p.tiles == "dragon" else T.is_wind(t))


@detector("all_triplets", plans=lambda p: ("suit_triplets",) if p.flush else ("triplets",), flush=(False, None))
def _all_triplets(h: Hand, p: Params) -> int:
    """Four pungs or kongs and a pair (classic.md ``pung_hand``; Yuxi, Singapore
    ``all_triplets``; Ùzje ``rock_field``); ``flush``: and one suit, no honours (Yangzhou
    ``pure_all_triplets``)."""
    if h.form != STANDARD or len(h.melds) != 4 or len(h.triplets) != 4:
        return 0
    return int(not p.flush or (len(h.suits) == 1 and not h.has_honours))


@detector("chow_hand", honours=("any", ("any", "none")), pair=("any", ("any", "no_honour", "plain")),
          waits=("any", ("any", "many")), bonus=("any", ("any", "none", "some")))
def _chow_hand(h: Hand, p: Params) -> int:
    """Four chows and a pair.  ``honours``: ``none`` no honour tile (Yangzhou ``sequence_hand``);
    ``pair``: ``no_honour`` neither dragon nor wind (Classic ``worthless_hand``), ``plain``
    no dragon, seat or prevailing wind (Singapore ``ping_hu``, G-SG-7); ``waits``: ``many`` the
    hand waited on two kinds or more (G-SG-7); ``bonus``: ``none`` no bonus tile held, ``some``
    at least one (Singapore ``ping_hu_with_bonus``)."""
    if h.form != STANDARD or len(h.chows) != 4:
        return 0
    pair = h.pair
    if p.honours == "none" and h.has_honours:
        return 0
    if p.pair != "any":
        if pair is None:
            return 0
        t = pair.tile
        if p.pair == "no_honour" and (T.is_dragon(t) or T.is_wind(t)):
            return 0
        if p.pair == "plain" and (T.is_dragon(t) or t == h.ctx.seat_wind or t == h.ctx.prevailing_wind):
            return 0
    if p.bonus == "none" and h.ctx.bonus or p.bonus == "some" and not h.ctx.bonus:
        return 0
    if p.waits == "many" and (h.waits is None or len(h.waits) < 2):
        return 0
    return 1


@detector("honour_set", honours=("dragons", ("dragons", "winds")), triplets=(3, None), pair=(False, None),
          at_least=(False, None))
def _honour_set(h: Hand, p: Params) -> int:
    """Pungs of dragons or winds: ``triplets`` of them (``at_least``: or more), and with
    ``pair`` a pair of the same family besides (classic.md "Doublings", "Special hands";
    singapore.md "Tai table"; yuxi.md "Scoring table"; uzje.md "Fan table").  Classic
    ``three_small_masters`` (2 + pair),
    ``three_grand_masters`` (3), ``four_blessings`` (4); Singapore ``small_three_dragons``,
    ``big_three_dragons``, ``small_four_winds``, ``big_four_winds``; Yuxi
    ``four_great_blessings``; Ùzje ``archery_class``, ``big_four_winds`` (4 + a pair),
    ``big_three_winds`` (3 or more)."""
    if h.form != STANDARD:
        return 0
    fam = T.is_dragon if p.honours == "dragons" else (lambda t: t in (T.EAST, T.SOUTH, T.WEST, T.NORTH))
    kinds = {g.tiles[0] for g in h.triplets if fam(g.tiles[0])}
    n = len(kinds)
    if n < p.triplets if p.at_least else n != p.triplets:
        return 0
    if p.pair:
        pair = h.pair
        return int(pair is not None and fam(pair.tiles[0]) and pair.tiles[0] not in kinds)
    return 1


@detector("kongs", count=(4, None))
def _kongs(h: Hand, p: Params) -> int:
    """``count`` kongs (Singapore ``eighteen_arhats``: four kongs, singapore.md "Tai table")."""
    return int(len(h.kongs) == p.count)


@detector("concealed_triplets", count=(4, None), self_draw=(False, None))
def _concealed_triplets(h: Hand, p: Params) -> int:
    """``count`` concealed pungs or kongs and a pair, no picked-up discard in the hand
    (Classic ``hidden_treasure``, G-OX-2, G-OX-5); ``self_draw``: and self-drawn, nothing
    claimed (Singapore ``hidden_treasure``)."""
    if h.form != STANDARD or h.ctx.claimed_concealed or len(h.triplets) != p.count:
        return 0
    if not all(g.concealed for g in h.triplets):
        return 0
    return int(not p.self_draw or (h.facts.no_claimed_meld and h.ctx.self_draw))


_RELATIONS = ("matching", "three_suits", "four_shared", "continuous", "elder_younger", "straight",
              "two_identical", "double_two_identical", "three_identical", "four_identical")


def _chow_plans(p: Params) -> tuple[str, ...]:
    return {"straight": ("straight",), "three_suits": ("same_sequence",)}.get(p.relation, ())


@detector("chows", plans=_chow_plans, relation=("straight", _RELATIONS), flush=(False, None))
def _chows(h: Hand, p: Params) -> int:
    """Relations between the chows of a hand (a chow is known by its lowest tile; yangzhou.md
    "Fan table", each once per hand, G-YZ-5): ``matching`` the same chow in two suits,
    ``three_suits`` in three, ``four_shared`` four chows of one rank in three suits,
    ``continuous`` two chows of one suit three apart, ``elder_younger`` 123 and 789 of one suit,
    ``straight`` 123 456 789 of one suit, ``two_identical`` / ``three_identical`` /
    ``four_identical`` the same chow twice / three / four times, ``double_two_identical`` two
    such doubles.  ``flush``: and one suit, no honours (Yangzhou ``pure_dragon``)."""
    from collections import Counter

    chows = h.chows
    starts = Counter(min(g.tiles) for g in chows)
    by_rank: dict[int, set[int]] = {}
    for s in starts:
        by_rank.setdefault(T.rank_of(s), set()).add(T.suit_of(s))
    r = p.relation
    if r == "matching":
        ok = any(len(s) >= 2 for s in by_rank.values())
    elif r == "three_suits":
        ok = any(len(s) >= 3 for s in by_rank.values())
    elif r == "four_shared":
        ok = len(chows) == 4 and any(
            len(by_rank[k]) >= 3 and sum(n for st, n in starts.items() if T.rank_of(st) == k) == 4 for k in by_rank)
    elif r == "continuous":
        ok = any(s + 3 in starts and T.suit_of(s + 3) == T.suit_of(s) for s in starts)
    elif r == "elder_younger":
        ok = any(T.rank_of(s) == 1 and s + 6 in starts for s in starts)
    elif r == "straight":
        ok = any(T.rank_of(s) == 1 and s + 3 in starts and s + 6 in starts for s in starts)
    elif r == "double_two_identical":
        ok = sum(n // 2 for n in starts.values()) >= 2
    else:
        need = {"two_identical": 2, "three_identical": 3, "four_identical": 4}[r]
        ok = max(starts.values(), default=0) >= need
    if ok and p.flush:
        ok = len(h.suits) == 1 and not h.has_honours
    return int(ok)


@detector("meld_family", kind=("arith", None), same_step=(False, None))
def _meld_family(h: Hand, p: Params) -> int:
    """Four melds of one family of the variant's meld templates (uzje.md "Melds and winning
    hands", "Fan table": ``all_powers``, ``all_gems``; ``single_differences`` four ariths of
    one step, ``same_step``)."""
    melds = h.melds
    if h.form != STANDARD or len(melds) != 4 or not all(g.kind == p.kind for g in melds):
        return 0
    return int(not p.same_step or len({g.tiles[1] - g.tiles[0] for g in melds}) == 1)


@detector("twin_melds")
def _twin_melds(h: Hand, p: Params) -> int:
    """Each meld identical to an earlier one (uzje.md "Fan table" ``twin_melds``; a pung and a
    kong of one tile are twins)."""
    if h.form != STANDARD:
        return 0
    same: dict[tuple[int, ...], int] = {}
    for g in h.melds:
        key = tuple(sorted(set(g.tiles))) if g.kind in (PUNG, KONG) else g.tiles
        same[key] = same.get(key, 0) + 1
    return sum(n - 1 for n in same.values())


# ----------------------------------------------------------------------------------------
# Detectors: forms and special shapes
# ----------------------------------------------------------------------------------------


@detector("form", plans=lambda p: {"seven_pairs": ("pairs",), "thirteen_orphans": ("orphans",)}.get(p.form, ()),
          form=("seven_pairs", None), quads=(-1, None), flush=(False, None))
def _form(h: Hand, p: Params) -> int:
    """The hand is complete in ``form`` (``seven_pairs``, ``thirteen_orphans``,
    ``fourteen_orphans``, ``ultra_long_straight``; common.md "Decomposition rule").
    Seven pairs with ``quads`` ≥ 0: exactly that many sets of four counted as two pairs (Yuxi's
    dragon seven pairs, yuxi.md "Winning hands", where ``win.seven_pairs_allow_quads``; 0 with
    the rule off); ``flush``: and one suit, no honours (Yuxi ``pure_triple_dragon_seven_pairs``)."""
    if h.form != p.form:
        return 0
    if p.quads >= 0:
        quads = (sum(1 for c in T.counts_of(h.ctx.concealed) if c == 4)
                 if h.variant.win["seven_pairs_allow_quads"] else 0)
        if quads != p.quads:
            return 0
    return int(not p.flush or (len(h.suits) == 1 and not h.has_honours))


@detector("nine_gates", by_tiles=(False, None))
def _nine_gates(h: Hand, p: Params) -> int:
    """Nine gates, 1112345678999 of one suit (:func:`~mahjong_tui.scoring.common.nine_gates`):
    ``by_tiles`` false, the hand waited on every tile of the suit (Classic ``grand_waiting``,
    classic.md "Special hands"); true, the shape plus any one tile of the suit (Singapore
    ``nine_gates``, singapore.md "Tai table")."""
    return int(nine_gates(h.variant, h.ctx, by_tiles=p.by_tiles))


@detector("closed_hand", self_draw=(False, None))
def _closed_hand(h: Hand, p: Params) -> int:
    """No claimed meld (concealed kongs allowed): Yangzhou ``no_melds``, Ùzje ``closed_hand``
    (G-UZ-10); ``self_draw``: and self-drawn (Singapore ``fully_concealed``)."""
    closed = all(m.kind == KONG and m.kong_type == CONCEALED_KONG for m in h.ctx.melds)
    return int(closed and (not p.self_draw or h.ctx.self_draw))


@detector("wait", shapes=(["edge", "closed"], ("edge", "closed", "open", "pair", "pung")), single=(True, None))
def _wait(h: Hand, p: Params) -> int:
    """The winning tile completed one of ``shapes`` in this arrangement (edge 12→3, closed
    46→5, open, pair, pung; common.md "Decomposition rule") and, with ``single``, the hand before it
    waited on exactly one kind (common.md "Wait set", by shape): Yangzhou ``edge_wait`` and
    ``single_wait``."""
    if h.waits is None or h.arr is None:
        return 0
    if p.single and len(set(h.waits)) != 1:
        return 0
    return int(h.arr.wait in p.shapes)


@detector("any_win")
def _any_win(h: Hand, p: Params) -> int:
    """Every win (Yangzhou ``basic_win``, G-YZ-3; Yuxi ``basic_win`` with ``alone = true``)."""
    return 1


# ----------------------------------------------------------------------------------------
# Detectors: how the hand was won
# ----------------------------------------------------------------------------------------

def _lucky(h: Hand, pid: str) -> int:
    """1 when the winning tile is the pattern's special tile (``[scoring.lucky_tiles]``) in play
    (uzje.md "Fan table", Ùzje's extra fan)."""
    name = h.variant.scoring.get("lucky_tiles", {}).get(pid)
    tile = h.ctx.winning_tile
    if name is None or tile is None:
        return 0
    lucky = T.parse_tile(name)
    return int(lucky == tile and h.variant.copies_of(lucky) > 0)


@detector("situation", any=([], tuple(SITUATIONS)), self_draw=("any", ("any", "yes", "no")), dealer=("any", ("any", "yes", "no")),
          kong_claimable=(False, None), lucky=(False, None))
def _situation(h: Hand, p: Params) -> Hit | int:
    """How the hand was won (situations of CLI.md "Context flags").  ``any``: one of these
    situations (empty: none needed); ``self_draw``: ``yes`` self-drawn / ``no`` on a discard;
    ``dealer``: ``yes`` the winner is East / ``no`` another; ``kong_claimable``: the situation
    ``kong_claimable_discard`` counts as ``robbing_kong`` where ``claims.rob_kong_concealed_pung``
    (G-OX-4); ``lucky``: one ``scoring.extra_fan`` more when the winning tile is the pattern's
    ``[scoring.lucky_tiles]`` tile (Ùzje).  Rule sources: classic.md "Points", "Doublings",
    "Special hands"; yuxi.md, singapore.md, uzje.md "Fan table"."""
    sits = h.ctx.situations
    if p.any:
        ok = bool(sits & set(p.any))
        if not ok and p.kong_claimable:
            ok = "kong_claimable_discard" in sits and bool(h.variant.claims.get("rob_kong_concealed_pung", False))
        if not ok:
            return 0
    if p.self_draw != "any" and h.ctx.self_draw != (p.self_draw == "yes"):
        return 0
    if p.dealer != "any" and h.ctx.is_dealer != (p.dealer == "yes"):
        return 0
    return Hit(1, _lucky(h, p.id) if p.lucky else 0)


def _kong_chain(ctx: HandContext) -> tuple[str, ...]:
    if ctx.kong_chain:
        return ctx.kong_chain
    if "double_kong_replacement" in ctx.situations:
        return ("exposed", CONCEALED_KONG)   # the score command's flag: a second, closed quad
    return ()


@detector("kong_chain", lucky=(False, None))
def _kong_chain_det(h: Hand, p: Params) -> Hit | int:
    """Won on the replacement after a kong and one or more concealed kongs in a row in one turn
    (uzje.md "Fan table" ``multi_quad_draw``): one ``scoring.extra_fan`` more for each kong past
    the second, and (``lucky``) on the pattern's special tile."""
    chain = _kong_chain(h.ctx)
    if len(chain) >= 2 and all(k == CONCEALED_KONG for k in chain[1:]):
        return Hit(1, len(chain) - 2 + (_lucky(h, p.id) if p.lucky else 0))
    return 0


@detector("robs_the_eighth")
def _robs_the_eighth(h: Hand, p: Params) -> int:
    """Won on another player's eighth flower, the other seven held
    (:func:`~mahjong_tui.scoring.common.robs_the_eighth`; Singapore ``robbing_the_eighth``,
    Ùzje ``ivies_on_the_wall``, G-UZ-14)."""
    return int(robs_the_eighth(h.ctx))


# ----------------------------------------------------------------------------------------
# Detectors: bonus tiles
# ----------------------------------------------------------------------------------------

_BONUS_SETS = {"flowers": T.FLOWERS, "seasons": T.SEASONS, "animals": T.ANIMALS}


@detector("bonus", kind=("flower_or_season", ("flower_or_season", "animal")), own=("any", ("any", "yes", "no")),
          outside_full_sets=(False, None))
def _bonus(h: Hand, p: Params) -> Hit | int:
    """Bonus tiles held, each: ``kind`` (``flower_or_season`` or ``animal``); ``own``: ``yes``
    of the seat's number (E1 S2 W3 N4), ``no`` of another; ``outside_full_sets``: not counting
    a set of four held whole (Ùzje ``seat_flower`` beside ``orchard``).  Classic ``bonus_own``,
    ``bonus_other`` (classic.md "Points"); Singapore ``animal``, ``seat_flower``; Ùzje
    ``seat_flower``."""
    seat_no = T.seat_number(h.ctx.seat_wind)
    held = set(h.ctx.bonus)
    n, first = 0, -1
    for i, b in enumerate(h.ctx.bonus):
        if p.kind == "animal":
            if b not in T.ANIMALS:
                continue
        elif not T.is_flower_or_season(b):
            continue
        if p.own != "any" and (T.bonus_number(b) == seat_no) != (p.own == "yes"):
            continue
        if p.outside_full_sets and any(b in s and set(s) <= held for s in (T.SEASONS, T.FLOWERS)):
            continue
        n += 1
        if first < 0:
            first = i
    return Hit(n, 0, first) if n else 0


@detector("bonus_set", sets=(["flowers"], ("flowers", "seasons", "animals")), count=("once", ("once", "each", "separate", "all")))
def _bonus_set(h: Hand, p: Params) -> Hit | list[Hit] | int:
    """Whole sets of four bonus tiles held, among ``sets`` (``flowers``, ``seasons``,
    ``animals``).  ``count``: ``once`` any of them is whole (Classic ``all_flowers`` /
    ``all_seasons``, Singapore ``complete_animals``), ``each`` every whole set counts
    (Singapore ``complete_flower_group``), ``separate`` every whole set is its own item
    (Ùzje ``orchard``), ``all`` every one of them is whole (Singapore ``all_eight_flowers``).
    Rule sources: classic.md "Doublings", singapore.md "Tai table", uzje.md "Fan table"."""
    held = set(h.ctx.bonus)
    whole = [name for name in p.sets if set(_BONUS_SETS[name]) <= held]
    if p.count == "all":
        return int(len(whole) == len(p.sets))
    if not whole:
        return 0
    if p.count == "once":
        return 1
    if p.count == "each":
        return len(whole)
    return [Hit(1) for _ in whole]


@detector("bonus_held", count=(6, None), any=([], tuple(SITUATIONS)))
def _bonus_held(h: Hand, p: Params) -> int:
    """Exactly ``count`` of the eight seasons and flowers held, in one of the situations
    ``any`` (none needed when empty): Ùzje ``six_flowers`` (G-UZ-14: six held, the sixth just
    received, situation ``sixth_flower``)."""
    if p.any and not h.ctx.situations & set(p.any):
        return 0
    return int(len(T.SEASONS_AND_FLOWERS & set(h.ctx.bonus)) == p.count)


@detector("indicator_match")
def _indicator_match(h: Hand, p: Params) -> int:
    """Each tile of the hand matching a face-up indicator, each indicator separately (Ùzje
    ``bonus_tile``, G-UZ-6; ``options.bonus_tile_mode``)."""
    from .fan_ladder import bonus_kind

    physical = list(h.ctx.concealed) + [t for m in h.ctx.melds for t in m.tiles]
    return sum(physical.count(bonus_kind(h.variant, i)) for i in h.ctx.indicators)


# ----------------------------------------------------------------------------------------
# Combiners
# ----------------------------------------------------------------------------------------


def _num(x):
    return int(x) if isinstance(x, float) and x.is_integer() else x


def combine_points_doublings(variant, patterns: Sequence[PatternScore]) -> float:
    """Base points then doublings with a limit: S = points × 2^doublings, capped at
    ``scoring.limit`` (0 = none; classic.md "Scoring")."""
    points = sum(p.total for p in patterns if p.kind == "points")
    doublings = sum(p.total for p in patterns if p.kind == "doublings")
    value = points * 2 ** doublings
    limit = variant.scoring.get("limit", 0) or 0
    if limit and value > limit:
        value = limit
    return _num(value)


def combine_product(variant, patterns: Sequence[PatternScore]) -> tuple[float, float]:
    """Product of multipliers (value ** count each), capped at ``scoring.limit`` (yuxi.md
    "Scoring table", G-YX-7): ``(capped, uncapped)``."""
    m: float = 1
    for p in patterns:
        m *= p.value ** p.count
    cap = variant.scoring["limit"]
    return (min(m, cap) if cap else m), m


def combine_sum(variant, patterns: Sequence[PatternScore]) -> tuple[float, float]:
    """Sum of fan or tai (value × count), capped at ``scoring.limit`` (0 = none):
    ``(capped, uncapped)`` (yangzhou.md "Fan table", singapore.md "Tai table")."""
    total = sum(p.total for p in patterns)
    cap = variant.scoring["limit"]
    return (min(total, cap) if cap else total), total


def combine_ladder(variant, fan10: int, limits: float = 0) -> float:
    """A ladder from fan (in tenths) to points, or limit hands (uzje.md "From fan to points"):
    :func:`~mahjong_tui.scoring.fan_ladder.points_for`."""
    from .fan_ladder import points_for

    return points_for(variant, fan10, limits)


#: Scheme name (``scoring.scheme``) → combiner.
COMBINERS: dict[str, Callable] = {
    "points_doublings": combine_points_doublings,
    "multiplier": combine_product,
    "fan": combine_sum,
    "tai": combine_sum,
    "fan_ladder": combine_ladder,
}


# ----------------------------------------------------------------------------------------
# Questions other parts ask
# ----------------------------------------------------------------------------------------


def plan_families(variant) -> set[str]:
    """The bot plan families (``mahjong_tui.ai.plans``) the variant's valued patterns call for,
    by detector and parameters: a flush without honours → ``suit``, with honours →
    ``suit_honours``, honours only → ``honours``, four pungs → ``triplets`` (with a flush
    ``suit_triplets``), a straight → ``straight``, one chow in three suits →
    ``same_sequence``, seven pairs → ``pairs``, thirteen orphans → ``orphans``."""
    out: set[str] = set()
    for spec in patterns_of(variant):
        if value_of(variant, spec.id) is None:
            continue
        det = DETECTORS[spec.detector]
        if det.plans is not None:
            out.update(det.plans(spec.params))
        if spec.detector == "concealed_triplets":
            out.add("triplets")
    return out


def shipped(variant_id: str, what: str):
    """``"ids"`` (frozenset) or ``"names"`` (id → name) of the patterns a shipped variant file
    lists (a scheme module's ``PATTERN_IDS`` / ``DESCRIPTIONS``, kept for callers of the
    scheme modules)."""
    from ..variant import load_variant

    specs = patterns_of(load_variant(variant_id))
    if what == "ids":
        return frozenset(s.id for s in specs)
    return {s.id: s.name for s in specs}


def meld_kind(variant, tiles: Sequence[int]) -> str:
    """The meld family of three or four tiles (``pung``, ``kong``, ``chow``, or a variant's
    template such as Ùzje's ``arith``, ``gem``, ``power``; uzje.md "Melds and winning hands")."""
    from .fan_ladder import meld_kind as _mk

    return _mk(variant, tiles)


__all__ = [
    "DETECTORS", "Detector", "detector", "Hand", "Hit", "Params", "PatternSpec", "Found", "patterns_of", "spec_of",
    "spec_from",
    "detect", "scores", "value_of", "check_patterns", "known_ids", "plan_families", "COMBINERS", "meld_kind",
    "shipped", "combine_points_doublings", "combine_product", "combine_sum", "combine_ladder", "VALUE_TABLES",
]
