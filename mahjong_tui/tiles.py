"""Tile codes, tile sets and the hand-string notation.

Tiles are small ints inside the engine (see ``DESIGN.md``: "Tiles are small ints inside the
engine; strings only at the edges").  The code space covers every variant of the project,
including Uzje's 16-rank suits and zero tile and Singapore's animals (common.md "Tile notation"):

========  ======================  =========================================
codes     tiles                   notation
========  ======================  =========================================
0..16     tongs/dots ranks 0..16  ``0t``..``9t``, ``xt`` (10) .. ``ft`` (16)
17..33    socks/bamboo 0..16      ``…s``
34..50    mans/characters 0..16   ``…m``
51        zero (honour)           ``Z``
52..55    winds E S W N           ``E S W N``
56..57    compressed winds        ``H`` (=E/W), ``V`` (=N/S)
58..60    dragons red green white ``C F P``
61..64    seasons 1..4            ``h i j k``
65..68    flowers 1..4            ``o p q r``
69..72    animals                 ``u v w y`` (cat, rat, rooster, centipede)
========  ======================  =========================================

A count array ("counts") is a list/tuple of ``NUM_KINDS`` ints indexed by tile code.

The hand-string grammar is that of ``CLI.md`` ("Hand strings"):
groups separated by spaces; a bare group is concealed tiles, ``(…)`` an exposed meld,
``[…]`` a declared concealed kong, ``|…`` bonus tiles, ``+T`` the winning tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .errors import NotationError

SUIT_LETTERS = "tsm"
SUIT_NAMES = {"t": "dots", "s": "bamboo", "m": "characters"}
RANK_CHARS = "0123456789xabcdef"
SUIT_SIZE = 17  # ranks 0..16

NUM_SUITED = 3 * SUIT_SIZE  # 51
ZERO = 51
EAST, SOUTH, WEST, NORTH = 52, 53, 54, 55
WIND_H, WIND_V = 56, 57
RED, GREEN, WHITE = 58, 59, 60
SEASONS = (61, 62, 63, 64)
FLOWERS = (65, 66, 67, 68)
#: the eight seasons and flowers (all eight held: a flower win where a variant has one)
SEASONS_AND_FLOWERS = frozenset(SEASONS + FLOWERS)
ANIMALS = (69, 70, 71, 72)
NUM_KINDS = 73

WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONOUR_CHARS = "ZESWNHVCFP"
BONUS_CHARS = "hijkopqruvwy"

_HONOUR_CODE = {ch: ZERO + i for i, ch in enumerate(HONOUR_CHARS)}
_BONUS_CODE = {ch: SEASONS[0] + i for i, ch in enumerate(BONUS_CHARS)}
_CODE_CHAR = {v: k for k, v in {**_HONOUR_CODE, **_BONUS_CODE}.items()}

WIND_NAMES = {EAST: "East", SOUTH: "South", WEST: "West", NORTH: "North"}
HONOUR_NAMES = {
    ZERO: "Zero", EAST: "East wind", SOUTH: "South wind", WEST: "West wind",
    NORTH: "North wind", WIND_H: "H wind", WIND_V: "V wind", RED: "Red dragon",
    GREEN: "Green dragon", WHITE: "White dragon",
}
BONUS_NAMES = dict(zip(
    SEASONS + FLOWERS + ANIMALS,
    ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum", "Bamboo",
     "Cat", "Rat", "Rooster", "Centipede"],
))


def tile(suit: str, rank: int) -> int:
    """Code of the number tile ``rank`` of ``suit`` (``'t'``, ``'s'`` or ``'m'``), rank 0..16."""
    return SUIT_LETTERS.index(suit) * SUIT_SIZE + rank


def is_suited(t: int) -> bool:
    """True for number tiles (codes 0..50)."""
    return 0 <= t < NUM_SUITED


def suit_of(t: int) -> int:
    """Suit index 0 (t), 1 (s), 2 (m) of a number tile; -1 otherwise."""
    return t // SUIT_SIZE if t < NUM_SUITED else -1


def rank_of(t: int) -> int:
    """Rank 0..16 of a number tile; -1 otherwise."""
    return t % SUIT_SIZE if t < NUM_SUITED else -1


def is_honour(t: int) -> bool:
    """Winds, dragons and the zero honour (common.md "Terminals and honours")."""
    return ZERO <= t <= WHITE


def is_wind(t: int) -> bool:
    return EAST <= t <= WIND_V


def is_dragon(t: int) -> bool:
    return RED <= t <= WHITE


def is_bonus(t: int) -> bool:
    """Seasons, flowers and animals: set aside, never part of the hand."""
    return t >= SEASONS[0]


def is_flower_or_season(t: int) -> bool:
    return SEASONS[0] <= t <= FLOWERS[-1]


def is_animal(t: int) -> bool:
    return ANIMALS[0] <= t <= ANIMALS[-1]


def bonus_number(t: int) -> int:
    """Seat number 1..4 of a season or flower (1 = East … 4 = North); 0 for other tiles."""
    if SEASONS[0] <= t <= SEASONS[-1]:
        return t - SEASONS[0] + 1
    if FLOWERS[0] <= t <= FLOWERS[-1]:
        return t - FLOWERS[0] + 1
    return 0


def seat_number(wind: int) -> int:
    """Seat number 1..4 of a seat wind (East 1 … North 4), the number of its own season and
    flower (:func:`bonus_number`); 0 for other tiles (Uzje's compressed winds)."""
    return wind - EAST + 1 if EAST <= wind <= NORTH else 0


def is_terminal(t: int, max_rank: int = 9) -> bool:
    """Rank 1 or ``max_rank`` of a number suit (common.md "Terminals and honours"; Uzje passes ``max_rank=16``)."""
    r = rank_of(t)
    return r == 1 or r == max_rank


def name(t: int) -> str:
    """Notation of one tile, e.g. ``'5t'``, ``'E'``, ``'h'``.  Raises ValueError if out of range."""
    if 0 <= t < NUM_KINDS:
        return _NAMES[t]
    raise ValueError(f"no tile has code {t!r}")


_NAMES = [RANK_CHARS[t % SUIT_SIZE] + SUIT_LETTERS[t // SUIT_SIZE] if t < NUM_SUITED else _CODE_CHAR[t]
          for t in range(NUM_KINDS)]


def long_name(t: int) -> str:
    """A player's name for the tile: ``'5 dots'``, ``'Red dragon'``, ``'Plum'``."""
    if is_suited(t):
        return f"{rank_of(t)} {SUIT_NAMES[SUIT_LETTERS[suit_of(t)]]}"
    return HONOUR_NAMES.get(t) or BONUS_NAMES[t]


def sort_key(t: int) -> int:
    """Canonical order of common.md "Tile notation": t, s, m by rank, then Z, winds, dragons, bonus tiles."""
    return t


def zero_as_number(tiles: Iterable[int]) -> tuple[int, ...]:
    """A meld's tiles sorted, with the zero tile ``Z`` among number tiles of one suit read as
    rank 0 of that suit: ``(1s, 2s, Z)`` → ``(0s, 1s, 2s)`` (seed 002: "When a zero is used as
    a number tile, it is written 0 followed by an appropriate suit letter").  Anything else is
    only sorted."""
    tiles = sorted(tiles)
    if ZERO not in tiles:
        return tuple(tiles)
    suits = {t // SUIT_SIZE for t in tiles if t < NUM_SUITED}
    if len(suits) != 1 or len(tiles) == tiles.count(ZERO):
        return tuple(tiles)
    zero = suits.pop() * SUIT_SIZE
    return tuple(sorted(zero if t == ZERO else t for t in tiles))


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical compact notation: ``[0,1,2,52]`` → ``'012tE'``; runs share the suit letter."""
    out: list[str] = []
    pending_suit = -1
    for t in sorted(tiles):
        s = t // SUIT_SIZE if t < NUM_SUITED else -1
        if pending_suit >= 0 and s != pending_suit:
            out.append(SUIT_LETTERS[pending_suit])
        if s >= 0:
            out.append(RANK_CHARS[t - s * SUIT_SIZE])
        else:
            out.append(_CODE_CHAR[t])
        pending_suit = s
    if pending_suit >= 0:
        out.append(SUIT_LETTERS[pending_suit])
    return "".join(out)


#: Recently formatted count arrays, both ways (bounded; cleared when full).  ``view`` formats a
#: hand on every decision and a bot parses it back: both directions become one dict lookup.
_COUNTS_MEMO: dict[bytes, str] = {}
_NOTATION_MEMO: dict[str, tuple[int, ...]] = {}
_MEMO_SIZE = 1 << 16


def format_counts(counts: Sequence[int]) -> str:
    """:func:`format_tiles` of a count array (without building the tile list).  Raises
    ValueError for a count outside 0..255."""
    key = bytes(counts)  # a cheap key: counts are small
    text = _COUNTS_MEMO.get(key)
    if text is None:
        text = _format_counts(key)
        if len(_COUNTS_MEMO) >= _MEMO_SIZE:
            _COUNTS_MEMO.clear()
            _NOTATION_MEMO.clear()
        _COUNTS_MEMO[key] = text
        if len(key) == NUM_KINDS:
            _NOTATION_MEMO[text] = tuple(counts)
    return text


def counts_of_notation(text: str) -> tuple[int, ...]:
    """The count array (length :data:`NUM_KINDS`) of a run of tiles such as ``'123m55tE'``.

    The inverse of :func:`format_counts`; strings it produced recently are answered from a
    memo.  Raises :class:`NotationError` as :func:`parse_tiles`."""
    key = _NOTATION_MEMO.get(text)
    if key is None:
        key = tuple(counts_of(parse_tiles(text))) if text else (0,) * NUM_KINDS
        if len(_NOTATION_MEMO) >= _MEMO_SIZE:
            _NOTATION_MEMO.clear()
        _NOTATION_MEMO[text] = key
    return key


#: per suit, its counts -> its run with the suit letter ('1135m'); last, the honour and bonus
#: counts -> their letters ('EECC'); each bounded
_RUN_MEMO: list[dict[bytes, str]] = [{} for _ in range(len(SUIT_LETTERS) + 1)]


def _format_counts(counts: bytes) -> str:
    out: list[str] = []
    for si, base in _SUIT_BASES:
        part = counts[base:base + SUIT_SIZE]
        memo = _RUN_MEMO[si]
        run = memo.get(part)
        if run is None:
            run = "".join(RANK_CHARS[r] * part[r] for r in range(SUIT_SIZE) if part[r])
            run = run + SUIT_LETTERS[si] if run else ""
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[part] = run
        if run:
            out.append(run)
    rest = counts[NUM_SUITED:]
    memo = _RUN_MEMO[-1]
    tail = memo.get(rest)
    if tail is None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        tail = memo[rest] = "".join(_CODE_CHAR[NUM_SUITED + i] * c for i, c in enumerate(rest) if c)
    if tail:
        out.append(tail)
    return "".join(out)


_SUIT_BASES = tuple((si, si * SUIT_SIZE) for si in range(len(SUIT_LETTERS)))


def format_group(tiles: Sequence[int]) -> str:
    """Like :func:`format_tiles` but keeps the given order (for melds already in order)."""
    return format_tiles(tiles)


def parse_tiles(text: str, *, _offset: int = 0, _source: str | None = None) -> list[int]:
    """Parse a run of tiles such as ``'123m9xasEE'`` into codes (input order kept).

    Raises :class:`NotationError` pointing at the offending character, saying what was
    expected, for: an unknown character, rank digits with no suit letter after them, a rank
    above 16.
    """
    src = _source if _source is not None else text
    tiles: list[int] = []
    ranks: list[tuple[int, int]] = []  # (rank, position)
    for i, ch in enumerate(text):
        pos = _offset + i
        if ch in RANK_CHARS:
            ranks.append((RANK_CHARS.index(ch), pos))
        elif ch in SUIT_LETTERS:
            if not ranks:
                raise NotationError(
                    f"suit letter {ch!r} has no rank before it", src, pos,
                    "a rank 0-9 or x a-f before the suit letter",
                )
            base = SUIT_LETTERS.index(ch) * SUIT_SIZE
            tiles.extend(base + r for r, _ in ranks)
            ranks.clear()
        elif ch in _HONOUR_CODE or ch in _BONUS_CODE:
            if ranks:
                raise NotationError(
                    f"ranks {''.join(RANK_CHARS[r] for r, _ in ranks)!r} have no suit letter",
                    src, pos, "a suit letter t, s or m after the ranks",
                )
            tiles.append(_HONOUR_CODE.get(ch, _BONUS_CODE.get(ch)))
        else:
            raise NotationError(
                f"unexpected character {ch!r}", src, pos,
                "ranks 0-9 x a-f with a suit t/s/m, honours ESWNHVCFPZ, bonus tiles hijkopqruvwy",
            )
    if ranks:
        r, pos = ranks[-1]
        raise NotationError(
            "ranks at the end have no suit letter", src, _offset + len(text),
            "a suit letter t, s or m after the ranks",
        )
    return tiles


def parse_tile(text: str) -> int:
    """Parse exactly one tile (``'5t'``, ``'E'``, ``'h'``). Raises :class:`NotationError`."""
    tiles = parse_tiles(text.strip())
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, got {len(tiles)}", text, 0, "one tile such as 5t, E or h")
    return tiles[0]


@dataclass(frozen=True)
class MeldSpec:
    """A meld as written in a hand string: tiles in input order, and how it is held.

    ``concealed`` is True for ``[…]`` (declared concealed kong), False for ``(…)``.
    """

    tiles: tuple[int, ...]
    concealed: bool


@dataclass(frozen=True)
class HandSpec:
    """A parsed hand string (``CLI.md`` "Hand strings").

    - ``concealed``: tiles held in hand, sorted;
    - ``melds``: declared melds in input order;
    - ``bonus``: bonus tiles held, sorted;
    - ``winning``: the winning tile (``+T``) or None.
    """

    concealed: tuple[int, ...]
    melds: tuple[MeldSpec, ...] = ()
    bonus: tuple[int, ...] = ()
    winning: int | None = None

    def tile_count(self) -> int:
        """Tiles in play for shape purposes: concealed + 3 per meld (a kong counts as 3)."""
        return len(self.concealed) + 3 * len(self.melds)

    def all_tiles(self) -> list[int]:
        """Every physical tile of the hand except bonus tiles (kongs give all four)."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    def __str__(self) -> str:  # pragma: no cover - exercised through format_hand
        return format_hand(self)


def parse_hand(text: str) -> HandSpec:
    """Parse a hand string such as ``'4556t123m (777s) [CCCC] +5t |ho'``.

    Raises :class:`NotationError` (with the position of the bad character and what was
    expected) for syntax errors, a bonus tile outside ``|…``, a non-bonus tile inside ``|…``,
    an empty or unclosed group, or more than one ``+T``.  It does not check tile counts against a
    variant; see :func:`mahjong_tui.variant.Variant.check_hand`.
    """
    if not text or not text.strip():
        raise NotationError("the hand is empty", text, 0, "tiles such as 123m456t")
    concealed: list[int] = []
    melds: list[MeldSpec] = []
    bonus: list[int] = []
    winning: int | None = None
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "([":
            close = ")" if ch == "(" else "]"
            j = text.find(close, i + 1)
            other = "[" if ch == "(" else "("
            bad = [k for k in range(i + 1, j if j >= 0 else n) if text[k] in f"{other}{close}|+ "]
            if j < 0 or bad:
                pos = bad[0] if bad else n
                raise NotationError(f"group opened with {ch!r} is not closed", text, pos, f"{close!r} to close it")
            body = text[i + 1:j]
            if not body:
                raise NotationError("empty meld", text, i, "tiles inside the brackets")
            tiles = parse_tiles(body, _offset=i + 1, _source=text)
            for k, t in enumerate(tiles):
                if is_bonus(t):
                    raise NotationError("bonus tile inside a meld", text, i + 1, "bonus tiles after |")
            if ch == "[" and len(tiles) != 4:
                raise NotationError(
                    f"a concealed kong [..] needs 4 tiles, got {len(tiles)}", text, i,
                    "[EEEE]-style four identical tiles",
                )
            melds.append(MeldSpec(tuple(tiles), concealed=(ch == "[")))
            i = j + 1
        elif ch in ")]":
            raise NotationError(f"{ch!r} closes nothing", text, i, "a group opened with ( or [")
        elif ch == "|":
            j = i + 1
            while j < n and not text[j].isspace() and text[j] not in "([+|":
                j += 1
            body = text[i + 1:j]
            if not body:
                raise NotationError("'|' with no bonus tiles after it", text, i, "bonus tiles hijkopqruvwy")
            for k, c in enumerate(body):
                if c not in _BONUS_CODE:
                    raise NotationError(f"{c!r} is not a bonus tile", text, i + 1 + k, "bonus tiles hijkopqruvwy")
                bonus.append(_BONUS_CODE[c])
            i = j
        elif ch == "+":
            if winning is not None:
                raise NotationError("more than one winning tile '+'", text, i, "one +T at most")
            j = i + 1
            while j < n and not text[j].isspace() and text[j] not in "([|+":
                j += 1
            body = text[i + 1:j]
            if not body:
                raise NotationError("'+' with no tile after it", text, i + 1, "one tile such as 5t")
            tiles = parse_tiles(body, _offset=i + 1, _source=text)
            if len(tiles) != 1:
                raise NotationError(f"'+' must name one tile, got {len(tiles)}", text, i + 1, "one tile such as 5t")
            winning = tiles[0]
            i = j
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "([)]|+":
                j += 1
            tiles = parse_tiles(text[i:j], _offset=i, _source=text)
            for k, t in enumerate(tiles):
                if is_bonus(t):
                    raise NotationError(
                        f"bonus tile {name(t)!r} among the concealed tiles", text, i,
                        "bonus tiles written after '|', e.g. |ho",
                    )
            concealed.extend(tiles)
            i = j
    return HandSpec(tuple(sorted(concealed)), tuple(melds), tuple(sorted(bonus)), winning)


def format_hand(hand: HandSpec) -> str:
    """Inverse of :func:`parse_hand` (canonical order)."""
    parts = []
    if hand.concealed:
        parts.append(format_tiles(hand.concealed))
    for m in hand.melds:
        body = format_tiles(m.tiles)
        parts.append(f"[{body}]" if m.concealed else f"({body})")
    if hand.winning is not None:
        parts.append("+" + name(hand.winning))
    if hand.bonus:
        parts.append("|" + format_tiles(hand.bonus))
    return " ".join(parts)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """Count array of length ``NUM_KINDS`` for the given tiles."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def tiles_of(counts: Sequence[int]) -> list[int]:
    """Sorted tile list from a count array."""
    out: list[int] = []
    for t, k in enumerate(counts):
        if k:
            out.extend([t] * k)
    return out
