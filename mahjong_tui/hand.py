"""Hand shape: win detection, decompositions, shanten and waits (count arrays, memoised per unit).

Rule sources: common.md "Melds", "A complete hand", "Decomposition rule" and "Wait set" (wait
sets are by shape); uzje.md "Melds and winning hands" (Uzje's arith, gem and power melds, 16 ranks
and the zero rank, seven pairs with four identical tiles as two pairs, thirteen orphans).

Vocabulary
----------
- *counts*: a count array of length ``tiles.NUM_KINDS`` indexed by tile code, holding the
  **concealed** tiles only.  ``melds`` is the number of melds already declared on the table
  (a kong counts as one meld of three tiles), so a hand in play has ``3 * (4 - melds) + 1``
  concealed tiles between turns and ``3 * (4 - melds) + 2`` after drawing.
- *unit*: a part of the tile set that never shares a meld with another part: each number suit,
  and the honours.  Every question is answered per unit from small lazily filled caches keyed
  by the unit's count tuple, then the units' answers are combined.
- *table*: for one unit, ``used[m * 2 + p]`` = the most of the unit's tiles that ``m`` melds
  and ``p`` pairs (``m <= 4``, ``p <= 1``) can contain, where a meld or pair may be completed
  with added tiles.  The hand's shanten is ``3M + 1 - max Σ used`` over the ways to share
  ``M = 4 - melds`` melds and one pair among the units (the fewest tiles to add, minus one).

Kinds of tile a shape does not use (bonus tiles, honours or ranks outside the shape) are never
looked at: checking a hand against its variant's tile set is ``Variant.check_hand``'s job.

The 4-copy limit
----------------
A complete hand never holds a fifth copy of a tile.  Shanten here is exact under that limit:
melds and pairs may not together need more than four copies of one kind, and a tile kind that
is not in the shape's tile set can never be added.  This is also the convention of the
``mahjong`` package (PyPI) for the standard 136-tile set (its honour-quad and "isolated tiles
are all quads" corrections), and ``tests/test_hand_oracle.py`` checks the two agree.  So
``1111m + 3 melds`` (13 tiles, waiting only on a fifth ``1m``) has shanten 1 and no waits, and
:meth:`HandShape.waits` never lists a kind of which the hand already holds four.  A count above
four raises ``ValueError``.

Fully added melds and pairs (made only of added tiles) are assumed to fit somewhere in the tile
set, which holds for every real tile set (at most 14 concealed tiles, at least 27 kinds).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import islice, product
from operator import getitem, itemgetter, mul
from typing import Callable, Iterable, Sequence

from . import hand_tables
from .melds import PUNG
from .tiles import SUIT_SIZE, EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE, name

__all__ = [
    "HAND_MELDS", "STANDARD", "SEVEN_PAIRS", "THIRTEEN_ORPHANS", "FOURTEEN_ORPHANS",
    "ULTRA_LONG_STRAIGHT", "FORMS", "MeldTemplate", "Decomposition", "HandShape", "ZeroShape",
    "CHOWS", "UnitLayout",
]

HAND_MELDS = 4
"""Melds in a complete standard hand, besides its pair (common.md "A complete hand")."""

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
FOURTEEN_ORPHANS = "fourteen_orphans"
ULTRA_LONG_STRAIGHT = "ultra_long_straight"
FORMS = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, FOURTEEN_ORPHANS, ULTRA_LONG_STRAIGHT)
"""Win forms this module knows (common.md "A complete hand", uzje.md "Melds and winning hands")."""

_TARGET_FORMS = (FOURTEEN_ORPHANS, ULTRA_LONG_STRAIGHT)
"""Forms complete exactly when the 14 concealed tiles are one of a few fixed multisets
(:meth:`HandShape._target_shanten`): fourteen orphans, and the ultra-long straight (14
consecutive ranks of one suit, one of each; uzje.md "Melds and winning hands", G-UZ-13)."""

STRAIGHT_LENGTH = 14
"""Ranks in an ultra-long straight (seed 002: ``123456789xabcd``, ``23…e``, ``3…f``)."""

_MAX_COPIES = 4
_CACHE_LIMIT = 1 << 17   # entries per cache before it is emptied and refilled lazily
_TABLE_SIZE = (HAND_MELDS + 1) * 2
_NONE = 99                # shanten of a form that cannot be made
_FULL = 3 * HAND_MELDS + 2   # tiles of a complete hand, a kong counted as three
_NO_PAIRS = (_NONE,) * 5    # seven-pairs shanten by count discarded, form not in play
_NONE_LOW = -2                # below every shanten
_FIELD = 6                    # bits per position in a suit's search state (_Suit.table)
_FIELD_MASK = (1 << _FIELD) - 1
_FAMILY_TILES = 6     # HandShape.unit_neighbour_ids: a key of at least this many tiles ...
_FAMILY_MISSING = 4   # ... with at least this many neighbours not yet known: one pass (_Suit.family)
_PATTERN_LIMIT = 256  # _Suit.family's masks kept per digit pattern (up to ~20 kB a pattern)
_ENTRY_CAP = tuple(3 * (t >> 1) + 2 * (t & 1) for t in range(_TABLE_SIZE))   # 3m + 2p: a table's ceiling


@dataclass(frozen=True)
class MeldTemplate:
    """A family of three-tile melds within one number suit, given as concrete rank tuples.

    ``kind`` names the meld for decompositions and scoring (``"chow"``, Uzje's ``"arith"``,
    ``"gem"``, ``"power"``; common.md "Melds", uzje.md "Melds and winning hands").  Pungs and kongs are implicit in every
    :class:`HandShape` and need no template.  ``rank_sets`` holds sorted tuples of three
    distinct ranks; a rank set that falls outside a shape's rank range is ignored there.
    Raises ``ValueError`` for a rank set that is not three distinct ranks in 0..16.
    """

    kind: str
    rank_sets: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        clean = []
        for ranks in self.rank_sets:
            r = tuple(sorted(ranks))
            if len(r) != 3 or len(set(r)) != 3 or r[0] < 0 or r[-1] >= SUIT_SIZE:
                raise ValueError(
                    f"meld template {self.kind!r}: rank set {tuple(ranks)!r} is not three "
                    f"distinct ranks in 0..{SUIT_SIZE - 1}"
                )
            clean.append(r)
        object.__setattr__(self, "rank_sets", tuple(clean))

    @staticmethod
    def sequence(kind: str, step: int, lo: int, hi: int) -> "MeldTemplate":
        """Every ``(a, a + step, a + 2 * step)`` with ``lo <= a`` and ``a + 2 * step <= hi``.

        ``sequence("chow", 1, 1, 9)`` is the chow of common.md "Melds"; Uzje's ariths (uzje.md "Melds and winning hands") are
        ``sequence("arith", d, 0, 16)`` for each difference ``d >= 1``.  Raises ``ValueError``
        for ``step < 1``.
        """
        if step < 1:
            raise ValueError(f"meld template {kind!r}: step must be at least 1, got {step}")
        return MeldTemplate(kind, tuple((a, a + step, a + 2 * step) for a in range(lo, hi - 2 * step + 1)))

    @staticmethod
    def fixed(kind: str, sets: Iterable[Iterable[int]]) -> "MeldTemplate":
        """Explicit rank sets, e.g. Uzje's gems ``{1,2,4} {2,4,8} {4,8,16} {1,3,9}`` (uzje.md "Melds and winning hands")."""
        return MeldTemplate(kind, tuple(tuple(s) for s in sets))


CHOWS = MeldTemplate.sequence("chow", 1, 1, 9)
"""The chow of common.md "Melds": three consecutive ranks 1..9."""


@dataclass(frozen=True)
class Decomposition:
    """One standard-form reading of concealed tiles: melds and the pair (common.md "A complete hand").

    ``melds`` holds ``(kind, tiles)`` pairs, kind ``"pung"`` or a template kind, tiles sorted
    codes; the tuple itself is sorted, so equal decompositions compare equal.  ``pair`` is the
    tile code of the pair.
    """

    melds: tuple[tuple[str, tuple[int, ...]], ...]
    pair: int


@dataclass(frozen=True)
class UnitLayout:
    """Where one unit sits in the tuple :attr:`HandShape.gatherer` builds (see
    :meth:`HandShape.unit_layouts`).

    - ``index``: the unit's number (0-based, suits in the shape's order, then the honours);
    - ``start``, ``stop``: the unit's slice of the gathered tuple;
    - ``codes``: the unit's tile codes, one per position of the slice;
    - ``available``: per position, whether the kind is in the tile set (a kind that is not
      can never be held or added);
    - ``honours``: True for the honour unit (its kinds make only pungs and pairs).
    """

    index: int
    start: int
    stop: int
    codes: tuple[int, ...]
    available: tuple[bool, ...]
    honours: bool


# --------------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------------

_ZERO_TABLE = (0,) * _TABLE_SIZE

_UnitDecomp = tuple[tuple[tuple[str, tuple[int, ...]], ...], "int | None"]
"""A unit's decomposition: sorted ``(kind, positions)`` melds and the pair position or None."""


def _bounded(cache: dict, limit: int = _CACHE_LIMIT) -> dict:
    """Drop the older half of ``cache`` once it holds more than ``limit`` entries (a dict
    keeps insertion order); it refills lazily.  Keeps long-lived processes small without the
    cost of refilling a whole cache at once (emptying it made one decision of a bot redo every
    unit table it had)."""
    if len(cache) > limit:
        for key in list(islice(cache, len(cache) // 2)):
            del cache[key]
    return cache


class _Unit:
    """Memoised answers about one unit, keyed by its count tuple.

    Positions ``0..size-1`` index the unit's tile kinds.  A key is checked when it first
    fills a cache (:meth:`_validate`), so cache hits cost nothing.  The caches:

    - ``status[key]``: ``n`` (tile count) if the tiles split exactly into melds plus one pair
      when ``n % 3 == 2`` or into melds only when ``n % 3 == 0``; otherwise ``-1 - n``;
    - ``tables[key]``: id of the unit's table (see the module docstring);
    - ``waits``, ``decomps``: see the methods.
    """

    def __init__(self, codes: Sequence[int], available: Sequence[bool]):
        self.codes = tuple(codes)
        self.available = tuple(available)
        self._restricted = not all(self.available)  # some kinds of the unit are not in the tile set
        self.status: dict[tuple[int, ...], int] = {}
        self.tables: dict[tuple[int, ...], int] = {}
        # see HandShape._smaller_tables
        self.smaller: dict[tuple[int, ...], tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = {}
        self._waits: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._decomps: dict[tuple[int, ...], list[_UnitDecomp]] = {}

    def sharing_caches(self, codes: Sequence[int]) -> "_Unit":
        """A unit of the same layout for other tile ``codes`` (another suit) that shares this
        unit's caches: keys are positions, so the answers are the same."""
        twin = copy.copy(self)
        twin.codes = tuple(codes)
        return twin

    def _validate(self, key: tuple[int, ...]) -> None:
        """Raise ``ValueError`` for more than four copies of a kind or a held kind outside the
        tile set."""
        if max(key, default=0) <= _MAX_COPIES and not (
                self._restricted and any(c and not ok for c, ok in zip(key, self.available))):
            return
        for c, ok, code in zip(key, self.available, self.codes):
            if c > _MAX_COPIES:
                raise ValueError(f"{c} copies of {name(code)}: a tile kind has at most {_MAX_COPIES}")
            if c and not ok:
                raise ValueError(f"{name(code)} is not in this hand shape's tile set")

    def complete_status(self, key: tuple[int, ...]) -> int:
        """Fill and return ``status[key]``."""
        self._validate(key)
        n = sum(key)
        ok = n % 3 != 1 and self._splits(key, n % 3 == 2)
        _bounded(self.status)[key] = n if ok else -1 - n
        return self.status[key]

    def waits(self, key: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Positions ``j`` (available, fewer than four held) such that ``key + j`` splits
        exactly: ``(into melds only, into melds and one pair)``; one of the two is empty."""
        got = self._waits.get(key)
        if got is None:
            found = []
            for j, (c, ok) in enumerate(zip(key, self.available)):
                if ok and c < _MAX_COPIES:
                    plus = key[:j] + (c + 1,) + key[j + 1:]
                    s = self.status.get(plus)
                    if s is None:
                        s = self.complete_status(plus)
                    if s >= 0:
                        found.append(j)
            n = sum(key) + 1
            got = (tuple(found), ()) if n % 3 == 0 else ((), tuple(found)) if n % 3 == 2 else ((), ())
            _bounded(self._waits)[key] = got
        return got

    def decompositions(self, key: tuple[int, ...]) -> list[_UnitDecomp]:
        """Every distinct exact split of the unit (melds, plus one pair iff ``n % 3 == 2``)."""
        got = self._decomps.get(key)
        if got is None:
            self._validate(key)
            n = sum(key)
            found: set[_UnitDecomp] = set()
            status = self.status.get(key)
            if status is None:
                status = self.complete_status(key)
            if status >= 0:   # (memoised) the tiles split exactly: enumerate the ways
                self._enumerate(list(key), n % 3 == 2, [], None, found)
            got = sorted(found, key=repr)
            _bounded(self._decomps)[key] = got
        return got

    def _splits(self, key: tuple[int, ...], need_pair: bool) -> bool:
        raise NotImplementedError

    def _enumerate(self, counts: list[int], need_pair: bool, melds: list, pair: int | None,
                   found: set[_UnitDecomp]) -> None:
        raise NotImplementedError


class _Honours(_Unit):
    """Honour tiles: each kind is independent and makes only pungs and pairs."""

    def __init__(self, codes: Sequence[int]):
        super().__init__(codes, [True] * len(codes))
        self._by_sorted: dict[tuple[int, ...], tuple[int, ...]] = {}

    def _splits(self, key: tuple[int, ...], need_pair: bool) -> bool:
        twos = key.count(2)
        return key.count(1) == 0 and key.count(4) == 0 and twos == (1 if need_pair else 0)

    def table(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """The unit table; a kind holds at most one group (a pung and a pair of one honour
        would need five copies), so each kind offers ``min(c, 3)`` as a meld or ``min(c, 2)``
        as a pair."""
        self._validate(key)
        held = tuple(sorted((c for c in key if c), reverse=True))
        got = self._by_sorted.get(held)
        if got is None:
            used = list(_ZERO_TABLE)
            for c in held:
                as_meld, as_pair = min(c, 3), min(c, 2)
                for m in range(HAND_MELDS, -1, -1):
                    for p in (1, 0):
                        i = m * 2 + p
                        if m and used[i - 2] + as_meld > used[i]:
                            used[i] = used[i - 2] + as_meld
                        if p and used[i - 1] + as_pair > used[i]:
                            used[i] = used[i - 1] + as_pair
            got = tuple(used)
            self._by_sorted[held] = got
        return got

    def _enumerate(self, counts, need_pair, melds, pair, found):
        groups = tuple(sorted((PUNG, (j, j, j)) for j, c in enumerate(counts) if c == 3))
        pairs = [j for j, c in enumerate(counts) if c == 2]
        if self._splits(tuple(counts), need_pair):
            found.add((groups, pairs[0] if pairs else None))


def _reach(meld_groups: list[tuple[int, int]], pair_groups: list[tuple[int, int]]) -> list[int]:
    """``reach[t]`` for each table index ``t`` (``t // 2`` melds, a pair when odd): the set of
    sub-multiset indices (bits) that ``t // 2`` of the groups ``meld_groups`` and, when ``t`` is
    odd, one of ``pair_groups`` cover, each group given as ``(offset, fits)``: a set ``R``
    extends by the group to ``(R & fits) << offset`` (:meth:`_Suit.family`)."""
    reach = [0] * _TABLE_SIZE
    reach[0] = x = 1
    for off, fits in pair_groups:
        if fits & 1:
            x |= 1 << off
    reach[1] = x
    for m in range(2, _TABLE_SIZE, 2):
        prev = reach[m - 2]
        x = prev
        for off, fits in meld_groups:
            x |= (prev & fits) << off
        reach[m] = prev = x
        for off, fits in pair_groups:   # the pair beside those melds
            x |= (prev & fits) << off
        reach[m + 1] = x
    return reach


class _Suit(_Unit):
    """One number suit: positions are ranks ``lo..hi``; melds are pungs and template shapes.

    ``shapes`` maps position triples (sorted, distinct) to the meld kinds that have them.
    """

    def __init__(self, codes: Sequence[int], available: Sequence[bool],
                 shapes: dict[tuple[int, int, int], tuple[str, ...]]):
        super().__init__(codes, available)
        size = len(codes)
        self.shapes = shapes
        # Shapes whose lowest rank is i (exact splits), and the state-field shifts of the
        # shapes containing i (tables).
        self._starting = [[s for s in shapes if s[0] == i] for i in range(size)]
        # Per position i, the shapes containing it, as the field shifts of their two other
        # positions (a shape is a triple of distinct positions), each once.
        self._partner_shifts = [tuple(dict.fromkeys(tuple(_FIELD * j for j in s if j != i) for s in shapes if i in s))
                                for i in range(size)]
        self._held_mask = sum(0o70 << (_FIELD * j) for j in range(size))
        # _fields[j][c]: position j's field of the search state when ``c`` copies are held
        self._fields = [[((c << 3) | ((_MAX_COPIES - c if c >= 3 else _MAX_COPIES) if ok else 0)) << (_FIELD * j)
                         for c in range(_MAX_COPIES + 1)] for j, ok in enumerate(self.available)]
        self._split_memo: dict[tuple[tuple[int, ...], bool], bool] = {}
        self._solve_memo: dict[int, tuple[int, ...]] = {}
        self._ways_memo: dict[tuple[tuple[int, ...], bool], frozenset] = {}
        self._shipped: tuple[list[tuple[int, ...]], bytes] | None | bool = False  # False: not looked up yet
        # For :meth:`family`: per shape its positions and the ways to hold part of it, as
        # (held positions, added positions, bit mask of the held ones); per position j the
        # other two positions of each shape through j.
        self._shape_list = list(shapes)
        self._shape_parts = [[(tuple(s[b] for b in range(3) if m >> b & 1),
                               tuple(s[b] for b in range(3) if not m >> b & 1), m) for m in range(1, 8)]
                             for s in self._shape_list]
        self._others = [tuple(tuple(q for q in s if q != j) for s in self._shape_list if j in s)
                        for j in range(size)]
        self._at_least: dict[tuple[tuple[int, ...], int], list[int]] = {}
        self._below: dict[tuple[tuple[int, ...], int], dict[tuple[int, int], int]] = {}

    # shipped tables ---------------------------------------------------------------------------

    def _shipped_table(self, key: tuple[int, ...]) -> tuple[int, ...] | None:
        """The table of a valid ``key`` from :mod:`mahjong_tui.hand_tables` when this suit's
        layout has shipped tables and the key is stored, else None."""
        shipped = self._shipped
        if shipped is False:
            shipped = self._shipped = hand_tables.tables_for(self)
        if shipped is None:
            return None
        i = shipped[1][sum(map(mul, key, hand_tables.PLACES))]  # the signature fixed the size
        return None if i == hand_tables.MISSING else shipped[0][i]

    def complete_status(self, key: tuple[int, ...]) -> int:
        """Fill and return ``status[key]``; from the table when it is shipped (all ``n`` tiles
        fit ``n // 3`` melds and a pair if ``n % 3 == 2`` exactly when the table says so)."""
        self._validate(key)
        table = self._shipped_table(key)
        if table is None:
            return super().complete_status(key)
        n = sum(key)
        ok = n % 3 != 1 and table[(n // 3) * 2 + (n % 3 == 2)] == n
        _bounded(self.status)[key] = n if ok else -1 - n
        return self.status[key]

    # exact splits ---------------------------------------------------------------------------

    def _splits(self, key: tuple[int, ...], need_pair: bool) -> bool:
        memo_key = (key, need_pair)
        got = self._split_memo.get(memo_key)
        if got is not None:
            return got
        i = next((j for j, c in enumerate(key) if c), None)
        if i is None:
            got = not need_pair
        else:
            c = key[i]
            got = False
            if need_pair and c >= 2:
                got = self._splits(key[:i] + (c - 2,) + key[i + 1:], False)
            if not got and c >= 3:
                got = self._splits(key[:i] + (c - 3,) + key[i + 1:], need_pair)
            if not got:
                for a, b, d in self._starting[i]:
                    if key[b] and key[d]:
                        rest = list(key)
                        rest[a] -= 1
                        rest[b] -= 1
                        rest[d] -= 1
                        if self._splits(tuple(rest), need_pair):
                            got = True
                            break
        _bounded(self._split_memo)[memo_key] = got
        return got

    def _enumerate(self, counts, need_pair, melds, pair, found):
        """Add every exact split of ``counts`` (melds, and the pair if ``need_pair``) to
        ``found`` (:meth:`_split_ways`; called with no melds or pair chosen yet)."""
        found.update(self._split_ways(tuple(counts), need_pair))

    def _split_ways(self, key: tuple[int, ...], need_pair: bool) -> frozenset:
        """Every exact split of ``key`` as ``(sorted melds, pair position or None)``, memoised
        per remaining key (hands share what is left once their lowest tiles are placed).  The
        lowest held rank starts the pair, a pung or a template shape; a key that does not split
        (the memoised :meth:`_splits`) has none."""
        memo_key = (key, need_pair)
        got = self._ways_memo.get(memo_key)
        if got is not None:
            return got
        i = next((j for j, c in enumerate(key) if c), None)
        if i is None:
            got = frozenset() if need_pair else frozenset((((), None),))
        elif not self._splits(key, need_pair):
            got = frozenset()
        else:
            out = set()
            c = key[i]
            if need_pair and c >= 2:
                for melds, _ in self._split_ways(key[:i] + (c - 2,) + key[i + 1:], False):
                    out.add((melds, i))
            if c >= 3:
                pung = (PUNG, (i, i, i))
                for melds, pair in self._split_ways(key[:i] + (c - 3,) + key[i + 1:], need_pair):
                    out.add((tuple(sorted(melds + (pung,))), pair))
            for shape in self._starting[i]:
                a, b, d = shape
                if key[b] and key[d]:
                    rest = list(key)
                    rest[a] -= 1
                    rest[b] -= 1
                    rest[d] -= 1
                    ways = self._split_ways(tuple(rest), need_pair)
                    for kind in self.shapes[shape]:
                        meld = (kind, shape)
                        for melds, pair in ways:
                            out.add((tuple(sorted(melds + (meld,))), pair))
            got = frozenset(out)
        _bounded(self._ways_memo)[memo_key] = got
        return got

    # tables -----------------------------------------------------------------------------------

    def table(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """The unit table, exact under the 4-copy limit (module docstring).

        Search state: one int, holding per position ``j`` the field ``remaining << 3 | room``
        shifted by ``_FIELD * j`` bits, where ``room`` is how
        many copies of the kind may still be added: 0 for a kind outside the tile set,
        ``4 - held`` for a kind held three or four times, and the marker 4 ("no limit") for
        every other kind.  A kind is only added to once all its held copies are in use (adding
        one while a copy is left over is never better), so ``4 - held`` is exact.

        Why a kind held once or twice needs no limit: melds alone put at most four copies of a
        kind in play (at most four melds, each of distinct ranks), so a fifth copy needs a pung
        or the pair of that kind too, and those start on a held tile.  Swapping that pung or
        pair for one made only of added tiles of an unused kind keeps at least ``held`` copies
        in play, so no held tile is lost: an optimum that overflows such a kind can always be
        made one that does not.  (With three copies held, a pung and two melds on the kind
        lose a held tile in that swap, so kinds held three or four times keep their room.)
        Leaving the other kinds unlimited lets hands share search states.

        The common suit's tables are shipped precomputed (:mod:`mahjong_tui.hand_tables`) and
        looked up; :meth:`solve_table` computes one.
        """
        self._validate(key)
        return self._shipped_table(key) or self._solve(sum(map(getitem, self._fields, key)))

    def table_with_room(self, key: tuple[int, ...], j: int, room: int) -> tuple[int, ...]:
        """:meth:`table` with position ``j`` allowed at most ``room`` added copies (0..3; 4 =
        no limit beyond the usual): :class:`ZeroShape` shares one zero's copies among units."""
        self._validate(key)
        state = sum(map(getitem, self._fields, key))
        state += (((key[j] << 3) | room) << (_FIELD * j)) - self._fields[j][key[j]]
        return self._solve(state)

    def solve_table(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """:meth:`table` computed by the search, never looked up (builds the shipped tables)."""
        self._validate(key)
        return self._solve(sum(map(getitem, self._fields, key)))

    def _solve(self, state: int) -> tuple[int, ...]:
        """Best ``used`` table for ``state`` (one :data:`_FIELD`-bit field per position, see
        :meth:`table`).  The lowest remaining tile starts the pair, or joins a meld that
        contains it (the pung or a template shape; missing tiles are added within their room),
        or its remaining copies are left over."""
        got = self._solve_memo.get(state)
        if got is not None:
            return got
        held = state & self._held_mask
        if not held:
            return _ZERO_TABLE
        i = ((held & -held).bit_length() - 1) // _FIELD
        shift = _FIELD * i
        v = (state >> shift) & _FIELD_MASK
        r, room = v >> 3, v & 7
        solve = self._solve
        best = list(solve(state - (r << (shift + 3))))
        # The pair at i: held copies first, then added ones within the room.
        if r >= 2:
            sub, used = state - (16 << shift), 2
        elif room:
            sub, used = state - (8 << shift) - (0 if room == _MAX_COPIES else 1 << shift), 1
        else:
            sub = None
        if sub is not None:
            sub = solve(sub)
            for m in range(0, _TABLE_SIZE, 2):
                if sub[m] + used > best[m + 1]:
                    best[m + 1] = sub[m] + used
        # The pung at i.
        used = r if r < 3 else 3
        add = 3 - used
        sub = None
        if not add:
            sub = state - (24 << shift)
        elif room == _MAX_COPIES:
            sub = state - ((r << 3) << shift)
        elif room >= add:
            sub = state - (((r << 3) + add) << shift)
        if sub is not None:
            sub = solve(sub)
            for t in range(2, _TABLE_SIZE):
                if sub[t - 2] + used > best[t]:
                    best[t] = sub[t - 2] + used
        # Every template shape containing i (distinct positions): i gives a held copy, each
        # other position a held copy if it has one left, else an added one within its room.
        # Shapes that leave the same state behind use the same held tiles (the held counts fix
        # how many): solved once.  With many shapes (Uzje's ariths of every step) most leave
        # the same state.
        partners = self._partner_shifts[i]
        if partners:
            base = state - (8 << shift)
            seen = set()
            b2, b3, b4, b5, b6, b7, b8, b9 = best[2:]
            for s1, s2 in partners:
                w = (state >> s1) & _FIELD_MASK
                if w >= 8:
                    sub, used = base - (8 << s1), 2
                elif w:
                    sub, used = (base if w == _MAX_COPIES else base - (1 << s1)), 1
                else:
                    continue
                w = (state >> s2) & _FIELD_MASK
                if w >= 8:
                    sub -= 8 << s2
                    used += 1
                elif w:
                    if w != _MAX_COPIES:
                        sub -= 1 << s2
                else:
                    continue
                if sub in seen:
                    continue
                seen.add(sub)
                t0, t1, t2, t3, t4, t5, t6, t7 = solve(sub)[:8]
                if t0 + used > b2:
                    b2 = t0 + used
                if t1 + used > b3:
                    b3 = t1 + used
                if t2 + used > b4:
                    b4 = t2 + used
                if t3 + used > b5:
                    b5 = t3 + used
                if t4 + used > b6:
                    b6 = t4 + used
                if t5 + used > b7:
                    b7 = t5 + used
                if t6 + used > b8:
                    b8 = t6 + used
                if t7 + used > b9:
                    b9 = t7 + used
            best[2:] = (b2, b3, b4, b5, b6, b7, b8, b9)
        got = tuple(best)
        _bounded(self._solve_memo)[state] = got
        return got


    # a key's table and its neighbours at once ---------------------------------------------------

    def shipped_layout(self) -> bool:
        """True when this suit's layout has shipped tables (:mod:`mahjong_tui.hand_tables`)."""
        shipped = self._shipped
        if shipped is False:
            shipped = self._shipped = hand_tables.tables_for(self)
        return shipped is not None

    def family(self, key: tuple[int, ...], adds: bool = True, drops: bool = True
               ) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
        """The table of a valid ``key`` (as :meth:`table`) and, from the same work, the tables
        of its neighbours: ``(table, added, dropped)`` where ``added[j]`` is the table of
        ``key`` plus one tile at position ``j`` for every available ``j`` held at most once or
        three times, and held twice where the pass settles it (almost always), and
        ``dropped[j]`` the table of ``key`` less one tile at ``j`` for every ``j`` held once or
        twice (``adds`` / ``drops`` False: that dict is left empty).  The neighbours not given
        (a discard from three or four, where the room of :meth:`table` grows): ask
        :meth:`table` or this method for that key.

        Why: a bot asks for the tables of a hand's suit plus each tile it could draw (and less
        each tile it could discard) at once, and for a long suit (Uzje's 17 ranks with
        arithmetic melds of every step) seventeen cold searches of up to 14 tiles took up to
        100 ms; this costs about 1-3 ms whatever the caches hold.  The answers are exact, equal
        to :meth:`table`'s (``tests/test_hand_family.py`` checks them against the search).

        Method (bit-parallel dynamic programming): index every sub-multiset ``s`` of the held
        tiles in mixed radix (one digit per held position, ``0..held``; one more binary digit
        per position of room 1, counting whether its one addable copy is in use), so a set of
        sub-multisets is one integer with a bit per index.  A *group* is the held part of a
        meld (pung or template shape) or pair whose missing tiles are added within their
        room; ``R[m * 2 + p]`` is the set of ``s`` that ``m`` melds and ``p`` pairs (some of
        them wholly added, so at most that many) cover exactly; adding a group ``g`` to every
        ``s`` of a set that leaves room for it is ``(R & fits_g) << index(g)``, and
        ``R[m * 2 + 1]`` is ``R[m * 2]`` with the pair added.  The table is
        the largest tile count in each ``R``.  A neighbour changes each entry by at most one
        (the key's room is kept), so one test per entry decides it: for ``key - j``, whether
        some covered ``s`` of that size leaves a copy of ``j``; for ``key + j``, whether the
        new tile's group ``g`` and a covered ``s`` that fits beside it reach one more.
        """
        size = len(key)
        avail = self.available
        place = [0] * size      # place value of the held digit of each position (0: none)
        radix = [1] * size
        room = [0] * size       # 0: no copy can be added, 1: one, 4: no limit (see table())
        span = 1
        held_digits = []
        for p, c in enumerate(key):
            if c:
                place[p] = span
                radix[p] = c + 1
                held_digits.append((span, c + 1))
                span *= c + 1
            if avail[p]:
                room[p] = _MAX_COPIES if c <= 2 else _MAX_COPIES - c
        aplace = [0] * size     # place value of the "one copy added" digit of room-1 positions
        added_digits = []
        for p in range(size):
            if room[p] == 1:
                aplace[p] = span
                added_digits.append(span)
                span *= 2
        full = (1 << span) - 1
        # the masks below and the size masks depend on the digits' radixes only: shared by the
        # keys of one pattern
        pattern = (tuple(r for _, r in held_digits), len(added_digits))
        below = self._below.get(pattern)
        if below is None:
            below = _bounded(self._below, _PATTERN_LIMIT)[pattern] = {}

        def at_most(pv: int, r: int, c: int) -> int:
            """The indices whose digit of place ``pv`` (radix ``r``) is at most ``c``."""
            got = below.get((pv, c))
            if got is None:   # a block of pv * (c + 1) ones every pv * r bits
                got = below[(pv, c)] = ((1 << (pv * (c + 1))) - 1) * (full // ((1 << (pv * r)) - 1))
            return got

        # per position: the indices that leave one more held copy of it (0 where none is held),
        # and those with room to add one copy of it (0: none can be added; ``full``: no limit)
        keep_one = [at_most(place[q], radix[q], c - 1) if c else 0 for q, c in enumerate(key)]
        add_one = [full if r == _MAX_COPIES else at_most(aplace[q], 2, 0) if r == 1 else 0
                   for q, r in enumerate(room)]
        # groups, by index offset (which fixes the group's tiles): the indices with room for it
        melds: dict[int, int] = {}
        pairs: dict[int, int] = {}
        # the groups (by offset) that can be made without adding a copy of a rank held twice
        # (for the tables of such a rank's third copy, below)
        twice = adds and 2 in key
        clean_melds: dict[int, int] = {}
        clean_pairs: dict[int, int] = {}
        for a, c in enumerate(key):
            if c:
                pv, r, ra = place[a], radix[a], room[a]
                for h in range(1, min(3, c) + 1):
                    for groups, clean, size in ((melds, clean_melds, 3), (pairs, clean_pairs, 2)):
                        if h > size:
                            continue
                        fits = at_most(pv, r, r - 1 - h)
                        off = pv * h
                        if h < size and ra != _MAX_COPIES:   # copies of a to add, room 1 or 0
                            if size - h > ra:
                                continue
                            off += aplace[a]
                            fits &= add_one[a]
                        if off not in groups:
                            groups[off] = fits
                        if twice and (h == size or c != 2):
                            clean[off] = fits
        for (x, y, z), parts in zip(self._shape_list, self._shape_parts):
            hm = (1 if key[x] else 0) | (2 if key[y] else 0) | (4 if key[z] else 0)
            if hm:
                for held, added, m in parts:
                    if m & hm == m:
                        off, fits = 0, full
                        for q in held:
                            off += place[q]
                            fits &= keep_one[q]
                        for q in added:
                            rq = room[q]
                            if rq == _MAX_COPIES:
                                continue
                            if not rq:
                                break
                            off += aplace[q]
                            fits &= add_one[q]
                        else:
                            if off not in melds:
                                melds[off] = fits
                            if twice and all(key[q] != 2 for q in added):
                                clean_melds[off] = fits
        reach = _reach(list(melds.items()), list(pairs.items()))
        if twice:   # the same with the clean groups only
            clean_reach = _reach(list(clean_melds.items()), list(clean_pairs.items()))
        # at_least[k]: the indices holding k tiles or more (the added digits count none); it
        # depends on the digits' radixes only, so it is shared by keys of the same pattern
        n = sum(key)
        at_least = self._at_least.get(pattern)
        if at_least is None:
            sizes = [1]
            for pv, r in held_digits:
                grown = [0] * (len(sizes) + r - 1)
                for k, mk in enumerate(sizes):
                    for d in range(r):
                        grown[k + d] |= mk << (d * pv)
                sizes = grown
            for pv in added_digits:
                sizes = [mk | (mk << pv) for mk in sizes]
            at_least = [0] * (n + 2)
            acc = 0
            for k in range(n, -1, -1):
                acc |= sizes[k]
                at_least[k] = acc
            _bounded(self._at_least, _PATTERN_LIMIT)[pattern] = at_least
        table = []
        for t in range(_TABLE_SIZE):
            r = reach[t]
            k = min(n, _ENTRY_CAP[t])
            while not r & at_least[k]:
                k -= 1
            table.append(k)
        dropped: dict[int, tuple[int, ...]] = {}
        if drops:
            for j, c in enumerate(key):
                if c == 1 or c == 2:
                    keep = at_most(place[j], radix[j], c - 1)
                    dropped[j] = tuple(v if reach[t] & keep & at_least[v] else v - 1 for t, v in enumerate(table))
        added_tables: dict[int, tuple[int, ...]] = {}
        if adds:
            def fits_in(reached: list[int]):
                """``fits(src, need, fits)``: some index of ``reached[src]`` holds ``need``
                tiles or more and is in ``fits`` (memoised per ``(src, need)``)."""
                memo: dict[tuple[int, int], int] = {}

                def fits_(src: int, need: int, fits: int) -> bool:
                    if need <= 0:
                        return bool(reached[src] & fits)
                    rk = memo.get((src, need))
                    if rk is None:
                        rk = memo[(src, need)] = reached[src] & at_least[need]
                    return bool(rk & fits)
                return fits_

            fits_beside = fits_in(reach)
            fits_clean = fits_in(clean_reach) if twice else None
            others = self._others

            def partner_masks(j: int, two: int, three: int) -> tuple[int, int, int]:
                """The masks of the new tile of rank j in a shape with its partners a, b
                (``_others``), added to ``two`` and ``three``: ``one`` both partners added,
                ``two`` one held and one added, ``three`` both held."""
                one = 0
                for a, b in others[j]:
                    fa, fb = add_one[a], add_one[b]
                    one |= fa & fb
                    if key[a]:
                        ka = keep_one[a]
                        two |= ka & fb
                        if key[b]:
                            three |= ka & keep_one[b]
                    if key[b]:
                        two |= keep_one[b] & fa
                return one, two, three

            for j, c in enumerate(key):
                if c > 1 or not avail[j]:
                    continue
                # The new tile's group, by the held tiles it uses (the new one included): the
                # indices with room for the rest of it.  Alone (a meld or the pair of added
                # copies, room 4 at j) it fits beside any index; with j's held copy (c == 1)
                # as the pung or the pair, beside those that leave that copy; in a shape with
                # one or two held partners, beside those that leave them (and have room for an
                # added third).
                _, two, three = partner_masks(j, keep_one[j], 0)
                pair_two = keep_one[j]
                out = list(table)
                for t in range(_TABLE_SIZE):
                    want = table[t] + 1
                    if want > _ENTRY_CAP[t] or want > n + 1:
                        continue
                    if t >= 2 and (table[t - 2] >= want - 1 or fits_beside(t - 2, want - 2, two)
                                   or fits_beside(t - 2, want - 3, three)):
                        out[t] = want
                    elif t & 1 and (table[t - 1] >= want - 1 or fits_beside(t - 1, want - 2, pair_two)):
                        out[t] = want
                added_tables[j] = tuple(out)
            for j, c in enumerate(key):
                if c != 2 or not twice:
                    continue
                # A third copy of j: its room becomes one (see table()).  Without that limit the
                # entries are found as above (``may``): at least the key's, at most one more.
                # Where one more is possible it is confirmed by a grouping that adds at most
                # one copy of j: the new tile's group (adding at most one) beside covered tiles
                # that add none (``clean_reach``, which adds no copy of any rank held twice).
                # Where neither settles an entry, this neighbour is left to a pass of its own.
                pair_two = keep_one[j]
                one, two, three = partner_masks(j, pair_two, at_most(place[j], radix[j], 0))
                out = list(table)
                for t in range(_TABLE_SIZE):
                    want = table[t] + 1
                    if want > _ENTRY_CAP[t] or want > n + 1:
                        continue
                    may = ((t >= 2 and (table[t - 2] >= want - 1 or fits_beside(t - 2, want - 2, two)
                                        or fits_beside(t - 2, want - 3, three)))
                           or (t & 1 and (table[t - 1] >= want - 1 or fits_beside(t - 1, want - 2, pair_two))))
                    if not may:
                        continue
                    if ((t >= 2 and (fits_clean(t - 2, want - 1, one) or fits_clean(t - 2, want - 2, two)
                                     or fits_clean(t - 2, want - 3, three)))
                            or (t & 1 and (fits_clean(t - 1, want - 1, full)
                                           or fits_clean(t - 1, want - 2, pair_two)))):
                        out[t] = want
                    else:
                        break
                else:
                    added_tables[j] = tuple(out)
            for j, c in enumerate(key):
                if c != 3:
                    continue
                # A fourth copy of j: no copy of j can be added any more (room 0), so every
                # index counted must leave j's one addable copy unused (``no_j``).  The new tile
                # is unused (the key's table without adding j), or in a shape (its partners held
                # or added), a pung with two held copies or the pair with one.  An entry is at
                # most the key's plus one (the new tile's group may add j instead, within the
                # key's room of one) but may gain more than one over the key's without adding j.
                no_j = add_one[j]
                one, two, three = partner_masks(j, 0, at_most(place[j], radix[j], 1))
                one &= no_j
                two &= no_j
                three &= no_j
                pair_two = keep_one[j] & no_j
                out = []
                for t in range(_TABLE_SIZE):
                    k = table[t]
                    while not reach[t] & no_j & at_least[k]:
                        k -= 1
                    for want in range(min(table[t] + 1, _ENTRY_CAP[t], n + 1), k, -1):
                        if ((t >= 2 and (fits_beside(t - 2, want - 1, one) or fits_beside(t - 2, want - 2, two)
                                         or fits_beside(t - 2, want - 3, three)))
                                or (t & 1 and fits_beside(t - 1, want - 2, pair_two))):
                            k = want
                            break
                    out.append(k)
                added_tables[j] = tuple(out)
        return tuple(table), added_tables, dropped


def _convolve(ta: tuple[int, ...], tb: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus convolution of two tables (see :meth:`HandShape._merge`), unrolled: entry
    ``m * 2 + p`` is the best ``ta[m1 * 2 + p1] + tb[m2 * 2 + p2]`` over ``m1 + m2 = m`` and
    ``p1 + p2 = p``.  Tables hold no negative entry."""
    a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 = ta
    b0, b1, b2, b3, b4, b5, b6, b7, b8, b9 = tb
    return (
        a0 + b0,
        max(a0 + b1, a1 + b0),
        max(a0 + b2, a2 + b0),
        max(a0 + b3, a1 + b2, a2 + b1, a3 + b0),
        max(a0 + b4, a2 + b2, a4 + b0),
        max(a0 + b5, a1 + b4, a2 + b3, a3 + b2, a4 + b1, a5 + b0),
        max(a0 + b6, a2 + b4, a4 + b2, a6 + b0),
        max(a0 + b7, a1 + b6, a2 + b5, a3 + b4, a4 + b3, a5 + b2, a6 + b1, a7 + b0),
        max(a0 + b8, a2 + b6, a4 + b4, a6 + b2, a8 + b0),
        max(a0 + b9, a1 + b8, a2 + b7, a3 + b6, a4 + b5, a5 + b4, a6 + b3, a7 + b2, a8 + b1, a9 + b0),
    )


# --------------------------------------------------------------------------------------------
# The hand shape
# --------------------------------------------------------------------------------------------

_DEFAULT_HONOURS = (EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE)


class HandShape:
    """What a variant allows for hand shape, and every question about concealed hands.

    Parameters (all keyword-only):

    - ``templates``: sequence-like meld templates (pungs are implicit); default the chow 1..9;
    - ``suits``: number suits in use (0 = dots/tongs, 1 = bamboo/socks, 2 = characters/mans);
    - ``ranks``: inclusive rank range of every suit, ``(1, 9)``; Uzje ``(0, 16)`` (uzje.md "Melds and winning hands");
    - ``honours``: honour tile codes in use; default winds E S W N and dragons C F P;
    - ``forms``: allowed win forms among :data:`FORMS`;
    - ``seven_pairs_allow_quads``: four identical concealed tiles count as two pairs (uzje.md "Melds and winning hands");
    - ``orphans``: the 13 tiles of thirteen orphans (a kind may repeat, as Uzje's compressed
      winds ``H H V V``); default rank 1 and the top rank of each suit and every honour;
    - ``fourteen_orphans``: the 14 tiles of fourteen orphans (uzje.md "Melds and winning hands": the thirteen plus
      zero, no pair); needed when that form is allowed;
    - ``tile_set``: the tile kinds that exist, if fewer than suits × ranks + honours (Uzje's
      abbreviated tongs hold only ``1t`` and ``ft``); kinds outside it are never added.

    The ultra-long straight (uzje.md "Melds and winning hands") is complete when the 14 concealed tiles are 14
    consecutive ranks (from rank 1 up) of one suit, one of each; here only with no declared
    meld (its exposed-run variant, G-UZ-13, needs the melds themselves: see
    ``scoring.common``).

    The shape is immutable; its caches live on the instance and fill lazily.  The constructor
    raises ``ValueError`` for an unknown form, a rank range outside 0..16, orphan or
    ``tile_set`` kinds outside the shape, or fourteen orphans allowed without its 14 tiles.

    Every method takes ``counts``, a count array (length ``tiles.NUM_KINDS``) of the concealed
    tiles, and ``melds``, the number of melds already declared (0..4).  Each raises
    ``ValueError`` for an impossible hand: a tile count other than the method needs
    (``3 * (4 - melds) + 1`` between turns, ``+ 2`` after a draw), more than four copies of a
    kind, or a held kind outside ``tile_set``.  Kinds outside the shape altogether (bonus
    tiles, unused honours) are not looked at.
    """

    def __init__(self, *, templates: Sequence[MeldTemplate] = (CHOWS,), suits: Sequence[int] = (0, 1, 2),
                 ranks: tuple[int, int] = (1, 9), honours: Sequence[int] = _DEFAULT_HONOURS,
                 forms: Sequence[str] = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS),
                 seven_pairs_allow_quads: bool = False, orphans: Sequence[int] | None = None,
                 tile_set: Iterable[int] | None = None, fourteen_orphans: Sequence[int] | None = None):
        lo, hi = ranks
        if not 0 <= lo <= hi < SUIT_SIZE:
            raise ValueError(f"rank range {ranks!r} is not within 0..{SUIT_SIZE - 1}")
        unknown = [f for f in forms if f not in FORMS]
        if unknown:
            raise ValueError(f"unknown win form(s) {unknown!r}; allowed: {', '.join(FORMS)}")
        self.templates = tuple(templates)
        self.suits = tuple(suits)
        self.ranks = (lo, hi)
        self.honours = tuple(honours)
        self.forms = tuple(dict.fromkeys(forms))
        self.seven_pairs_allow_quads = seven_pairs_allow_quads
        self._standard = STANDARD in self.forms
        self._seven_pairs = SEVEN_PAIRS in self.forms
        self._thirteen = THIRTEEN_ORPHANS in self.forms

        suit_codes = [[s * SUIT_SIZE + r for r in range(lo, hi + 1)] for s in self.suits]
        every = [c for codes in suit_codes for c in codes] + list(self.honours)
        kinds = set(every) if tile_set is None else set(tile_set)
        if not kinds <= set(every):
            raise ValueError(f"tile_set kinds {[name(k) for k in sorted(kinds - set(every))]} "
                             f"are not in the hand shape")
        self._kinds = sorted(kinds)
        self._gather = _getter(every)

        shapes: dict[tuple[int, int, int], tuple[str, ...]] = {}
        for template in self.templates:
            for rank_set in template.rank_sets:
                if lo <= rank_set[0] and rank_set[-1] <= hi:
                    pos = (rank_set[0] - lo, rank_set[1] - lo, rank_set[2] - lo)
                    if template.kind not in shapes.get(pos, ()):
                        shapes[pos] = shapes.get(pos, ()) + (template.kind,)
        # Units: (start, stop) of the unit's slice of the gathered tuple, the unit, its tile
        # codes.  Suits with the same available ranks share their caches.  Code outside this
        # module uses the public "unit tables" methods below, never these internals.
        first: dict[tuple[bool, ...], _Unit] = {}
        self._units: list[tuple[int, int, _Unit, tuple[int, ...]]] = []
        start = 0
        for codes in suit_codes:
            avail = tuple(c in kinds for c in codes)
            unit = first[avail].sharing_caches(codes) if avail in first else _Suit(codes, avail, shapes)
            first.setdefault(avail, unit)
            self._units.append((start, start + len(codes), unit, unit.codes))
            start += len(codes)
        if self.honours:
            honours = _Honours(self.honours)
            self._units.append((start, len(every), honours, honours.codes))

        self._layouts = tuple(UnitLayout(i, a, b, tuple(codes), tuple(unit.available), isinstance(unit, _Honours))
                              for i, (a, b, unit, codes) in enumerate(self._units))

        if orphans is None:
            orphans = [s * SUIT_SIZE + r for s in self.suits for r in (max(lo, 1), hi)] + list(self.honours)
        orphan_list = list(orphans)
        if self._thirteen and not set(orphan_list) <= kinds:
            raise ValueError(f"orphans {[name(k) for k in sorted(set(orphan_list) - kinds)]} "
                             f"are not in the hand shape")
        self._orphan_kinds = sorted(set(orphan_list))
        self._orphan_need = tuple(orphan_list.count(k) for k in self._orphan_kinds)
        self._orphan_size = len(orphan_list) + 1
        self._orphans = _getter(self._orphan_kinds)
        self._orphans_once = all(need == 1 for need in self._orphan_need)
        self._orphan_index = {k: i for i, k in enumerate(self._orphan_kinds)}
        # per unit and position: the index among the orphan kinds, or -1
        self._unit_orphans = [tuple(self._orphan_index.get(code, -1) for code in codes)
                              for _, _, _, codes in self._units]

        self._targets = self._target_sets(kinds, fourteen_orphans)

        # Table algebra: tables are interned to ints; merges of two tables are memoised.
        self._table_ids: dict[tuple[int, ...], int] = {_ZERO_TABLE: 0}
        self._table_list: list[tuple[int, ...]] = [_ZERO_TABLE]
        self._merges: dict[tuple[int, int], int] = {}

    def __repr__(self) -> str:
        return (f"HandShape(templates={[t.kind for t in self.templates]}, suits={self.suits}, "
                f"ranks={self.ranks}, honours={[name(h) for h in self.honours]}, forms={self.forms})")

    def _target_sets(self, kinds: set[int], fourteen: Sequence[int] | None
                     ) -> dict[str, tuple[tuple[tuple[int, int], ...], ...]]:
        """Per allowed target form (:data:`_TARGET_FORMS`), its 14-tile multisets as
        ``((kind, copies), ...)``."""
        out: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}
        if FOURTEEN_ORPHANS in self.forms:
            if fourteen is None or len(fourteen) != _FULL:
                raise ValueError(f"the form {FOURTEEN_ORPHANS!r} needs its {_FULL} tiles (fourteen_orphans)")
            if not set(fourteen) <= kinds:
                raise ValueError(f"fourteen orphans {[name(k) for k in sorted(set(fourteen) - kinds)]} "
                                 f"are not in the hand shape")
            out[FOURTEEN_ORPHANS] = (tuple((k, list(fourteen).count(k)) for k in sorted(set(fourteen))),)
        if ULTRA_LONG_STRAIGHT in self.forms:
            lo, hi = self.ranks
            runs = []
            for s in self.suits:
                for start in range(max(lo, 1), hi - STRAIGHT_LENGTH + 2):
                    run = tuple((s * SUIT_SIZE + r, 1) for r in range(start, start + STRAIGHT_LENGTH))
                    if all(k in kinds for k, _ in run):
                        runs.append(run)
            out[ULTRA_LONG_STRAIGHT] = tuple(runs)
        return out

    def _target_shanten(self, form: str, counts: Sequence[int]) -> int:
        """Shanten of 13 or 14 concealed tiles in target form ``form``: 13 − the most tiles of
        the hand one of its multisets holds (a multiset needs 14 − that many draws);
        :data:`_NONE` when the form has no multiset in this tile set."""
        best = -1
        for target in self._targets[form]:
            held = 0
            for k, need in target:
                c = counts[k]
                held += c if c < need else need
            if held > best:
                best = held
        return _NONE if best < 0 else _FULL - 1 - best

    # ---- public API ---------------------------------------------------------------------------

    def tile_kinds(self) -> list[int]:
        """Every tile kind of the shape (suits × ranks + honours, or ``tile_set``), sorted."""
        return list(self._kinds)

    # ---- unit tables (public, for incremental callers such as ``ai/shapeops.py``) ------------
    #
    # The module docstring defines units and their tables.  These methods let a caller keep a
    # hand as one table id per unit and recombine only the units that change.  Table ids are
    # small ints interned per shape and stable for the shape's lifetime; id 0 is the table of
    # an empty unit (all zeros), the neutral element of :meth:`merge_tables`.

    def unit_layouts(self) -> tuple[UnitLayout, ...]:
        """The units of the shape, in the order of :attr:`gatherer` (see :class:`UnitLayout`)."""
        return self._layouts

    @property
    def gatherer(self) -> Callable[[Sequence[int]], tuple[int, ...]]:
        """``gather(counts)``: the counts of the shape's kinds, unit after unit (slice a unit
        with its :class:`UnitLayout`), from a count array of length ``tiles.NUM_KINDS``.
        Nothing is checked.  A C-level itemgetter, for tight loops."""
        return self._gather

    def unit_table_id(self, unit: int, key: tuple[int, ...]) -> int:
        """Interned id of unit ``unit``'s table for ``key`` (its slice of :attr:`gatherer`'s tuple:
        a tuple of per-position counts).  Raises ``ValueError`` for more than four copies or a
        held kind outside the tile set, ``IndexError`` for an unknown unit."""
        return self._unit_table(self._units[unit][2], key)

    def unit_neighbour_ids(self, unit: int, key: tuple[int, ...], step: int) -> tuple[int, ...]:
        """Per position ``j`` of unit ``unit`` holding ``key``: the interned id of the unit's
        table for ``key`` with one tile more at ``j`` (``step`` 1) or one less (``step`` -1),
        as :meth:`unit_table_id` of that key would give; ``-1`` where there is no such key
        (four held or a kind outside the tile set; none held).  For a long suit whose tables
        are searched (not shipped) and many neighbours not yet known, they come from one pass
        (``_Suit.family``) instead of a search each: the ids are the same either way.  Raises
        as :meth:`unit_table_id`, and ``ValueError`` for a ``step`` other than 1 or -1."""
        if step not in (1, -1):
            raise ValueError(f"step must be 1 or -1, got {step}")
        u = self._units[unit][2]
        tables = u.tables
        keys: list[tuple[int, ...] | None] = []
        missing = 0
        for j, (c, ok) in enumerate(zip(key, u.available)):
            if (c < _MAX_COPIES and ok) if step > 0 else c:
                k = key[:j] + (c + step,) + key[j + 1:]
                keys.append(k)
                if k not in tables:
                    missing += 1
            else:
                keys.append(None)
        if (missing >= _FAMILY_MISSING and isinstance(u, _Suit) and sum(key) >= _FAMILY_TILES
                and not u.shipped_layout()):
            u._validate(key)
            table, added, dropped = u.family(key, step > 0, step < 0)
            if key not in tables:
                _bounded(tables)[key] = self._intern(table)
            derived = added if step > 0 else dropped
            for j, k in enumerate(keys):
                if k is not None and k not in tables:
                    # the neighbours whose room differs from the key's: a pass of their own
                    t = derived.get(j) or u.family(k, False, False)[0]
                    _bounded(tables)[k] = self._intern(t)
        out = []
        for k in keys:
            if k is None:
                out.append(-1)
            else:
                tid = tables.get(k)
                out.append(self._unit_table(u, k) if tid is None else tid)
        return tuple(out)

    def merge_tables(self, a: int, b: int) -> int:
        """Interned id of the table of two groups of units together (max-plus convolution of
        tables ``a`` and ``b``: the most tiles ``m`` melds and ``p`` pairs shared between
        them can use).  Commutative and associative; memoised."""
        got = self._merges.get((a, b))
        return self._merge(a, b) if got is None else got

    @property
    def merge_memo(self) -> dict[tuple[int, int], int]:
        """The live memo behind :meth:`merge_tables`, ``{(a, b): id}``: a lookup here that
        misses must fall back to :meth:`merge_tables`.  Read-only for callers (it is emptied
        when large and refilled lazily)."""
        return self._merges

    @property
    def table_list(self) -> Sequence[tuple[int, ...]]:
        """The interned tables by id: ``table_list[id][m * 2 + p]`` is the most held tiles
        ``m`` melds and ``p`` pairs can contain (module docstring).  A live, growing list;
        read-only for callers."""
        return self._table_list

    def table_distance(self, tid: int, melds: int) -> int:
        """The standard-form distance ``3M + 1 - used[2M + 1]`` (``M = 4 - melds``) of a merged
        table: the shanten of the tiles it covers when they are the whole concealed hand, and
        otherwise the tiles still to replace, minus one, counting tiles outside the merged
        units as tiles to replace.  Raises ``ValueError`` unless ``0 <= melds <= 4``."""
        if not 0 <= melds <= HAND_MELDS:
            raise ValueError(f"declared melds must be 0..{HAND_MELDS}, got {melds}")
        missing = HAND_MELDS - melds
        return 3 * missing + 1 - self._table_list[tid][missing * 2 + 1]

    def is_complete(self, counts: Sequence[int], melds: int = 0) -> bool:
        """True if the concealed tiles complete the hand in any allowed form (common.md "A complete hand", uzje.md "Melds and winning hands").

        ``counts``: count array (length ``NUM_KINDS``) of the concealed tiles, which must
        number ``3 * (4 - melds) + 2``; ``melds``: melds already declared.  Seven pairs and
        thirteen orphans need ``melds == 0``.  Raises ``ValueError`` for an impossible hand
        (see the class docstring), except that it stops at the first unit that rules out the
        standard form, so a fifth copy elsewhere may go unnoticed (the answer, False, is right).
        """
        t = self._gather(counts)
        if sum(t) + 3 * melds != _FULL or melds < 0 or not self._standard:
            self._check(t, melds, (2,))
        if self._standard:
            pairs = 0
            for a, b, unit, _ in self._units:
                s = unit.status.get(t[a:b])
                if s is None:
                    s = unit.complete_status(t[a:b])
                if s < 0:
                    break
                if s % 3 == 2:
                    pairs += 1
            else:
                if pairs == 1:
                    return True
        if melds:
            return False
        if self._seven_pairs and (t.count(2) + 2 * t.count(4) if self.seven_pairs_allow_quads
                                  else t.count(2)) == 7:
            return True
        if self._targets and any(self._target_shanten(f, counts) < 0 for f in self._targets):
            return True
        if self._thirteen and len(t) - t.count(0) == len(self._orphan_kinds):
            held = self._orphans(counts)
            return sum(held) == self._orphan_size and self._orphans_shanten(held) < 0
        return False

    def special_form_complete(self, form: str, counts: Sequence[int]) -> bool:
        """True if 14 concealed tiles (no declared meld) complete ``form``, one of the allowed
        forms other than the standard one (seven pairs, the orphan forms, the ultra-long
        straight).  Raises ``ValueError`` for a form not allowed or not 14 tiles."""
        if form == STANDARD or form not in self.forms:
            raise ValueError(f"{form!r} is not an allowed special form; allowed: "
                             f"{', '.join(f for f in self.forms if f != STANDARD)}")
        t = self._gather(counts)
        self._check(t, 0, (2,))
        return self._special_shanten(form, t, counts) < 0

    def straight_with_melds(self, counts: Sequence[int], melds: Sequence[Sequence[int]]) -> bool:
        """The ultra-long straight with declared melds (G-UZ-13): 1 to 3 declared melds, each
        three consecutive ranks of one suit, that with the concealed tiles make 14 consecutive
        ranks of one suit, one of each.  False when the form is not allowed."""
        if ULTRA_LONG_STRAIGHT not in self._targets or not 1 <= len(melds) <= HAND_MELDS - 1:
            return False
        total = list(counts)
        for m in melds:
            ts = sorted(m)
            if (len(ts) != 3 or len({t // SUIT_SIZE for t in ts}) != 1 or ts[0] >= SUIT_SIZE * 3
                    or ts[1] != ts[0] + 1 or ts[2] != ts[1] + 1):
                return False
            for x in ts:
                total[x] += 1
        if sum(total[:SUIT_SIZE * 3]) != _FULL:
            return False
        return self._target_shanten(ULTRA_LONG_STRAIGHT, total) < 0

    def straight_waits(self, counts: Sequence[int], melds: Sequence[Sequence[int]]) -> list[int]:
        """The tiles that complete the ultra-long straight of 13 tiles with declared runs
        (:meth:`straight_with_melds`; G-UZ-13), sorted; [] when it cannot."""
        if ULTRA_LONG_STRAIGHT not in self._targets or not melds:
            return []
        plus = list(counts)
        out = []
        for k in self._kinds:
            if plus[k] < _MAX_COPIES:
                plus[k] += 1
                if self.straight_with_melds(plus, melds):
                    out.append(k)
                plus[k] -= 1
        return out

    def complete_forms(self, counts: Sequence[int], melds: int = 0) -> list[str]:
        """The allowed forms the concealed tiles complete, in the order of ``forms``.

        Shapes and errors as :meth:`is_complete`.
        """
        t = self._gather(counts)
        self._check(t, melds, (2,))
        done = self._shanten_by_form(t, counts, melds)
        return [form for form, s in done.items() if s < 0]

    def decompositions(self, counts: Sequence[int], melds: int = 0) -> list[Decomposition]:
        """Every distinct standard-form reading of the concealed tiles as ``4 - melds`` melds
        and one pair (common.md "Decomposition rule"), sorted; empty if there is none.

        Melds are found inside the concealed tiles only (declared melds are the caller's);
        four identical concealed tiles are read as a pung plus a tile used elsewhere.  Shapes
        and errors as :meth:`is_complete`; the standard form need not be among ``forms``.
        """
        t = self._gather(counts)
        self._check(t, melds, (2,))
        per_unit = []
        for a, b, unit, codes in self._units:
            found = unit.decompositions(t[a:b])
            if not found:
                return []
            per_unit.append([(tuple((kind, tuple(codes[p] for p in pos)) for kind, pos in groups),
                              None if pair is None else codes[pair]) for groups, pair in found])
        out = []
        for choice in product(*per_unit):
            pairs = [p for _, p in choice if p is not None]
            if len(pairs) == 1:
                groups = tuple(sorted(g for unit_groups, _ in choice for g in unit_groups))
                out.append(Decomposition(groups, pairs[0]))
        return sorted(out, key=lambda d: (d.pair, d.melds))

    def shanten(self, counts: Sequence[int], melds: int = 0) -> int:
        """Shanten over the allowed forms: -1 complete (3n+2 tiles), 0 ready (3n+1 tiles), …

        ``counts``: count array of the concealed tiles, ``3 * (4 - melds) + 1`` or ``+ 2`` of
        them.  The value is the fewest tiles to draw (each replacing a discard), minus one, to
        reach a complete hand, exact under the 4-copy limit (module docstring).  Raises
        ``ValueError`` for an impossible hand (see the class docstring).
        """
        t = self._gather(counts)
        n = sum(t) + 3 * melds
        if (n != _FULL and n != _FULL - 1) or melds < 0 or not self._standard:
            self._check(t, melds, (1, 2))
        best = self._standard_shanten(t, melds) if self._standard else _NONE
        if melds == 0:
            if self._seven_pairs:
                best = min(best, self._seven_pairs_shanten(t))
            if self._thirteen:
                best = min(best, self._orphans_shanten(self._orphans(counts)))
            for form in self._targets:
                best = min(best, self._target_shanten(form, counts))
        return best

    def shanten_by_form(self, counts: Sequence[int], melds: int = 0) -> dict[str, int]:
        """Shanten per allowed form (see :meth:`shanten`), keyed in the order of ``forms``;
        seven pairs and thirteen orphans only when ``melds == 0``.  Shapes and errors as
        :meth:`shanten`."""
        t = self._gather(counts)
        self._check(t, melds, (1, 2))
        return self._shanten_by_form(t, counts, melds)

    def waits(self, counts: Sequence[int], melds: int = 0) -> list[int]:
        """The wait set (common.md "Wait set"): every tile kind ``k`` of the shape such that
        the concealed tiles plus ``k`` complete the hand in an allowed form; sorted codes.

        ``counts`` holds ``3 * (4 - melds) + 1`` concealed tiles.  A kind counts even if every
        copy is visible elsewhere, but never one the hand holds four of (a fifth copy does not
        exist).  Raises ``ValueError`` for an impossible hand (see the class docstring).
        """
        t = self._gather(counts)
        self._check(t, melds, (1,))
        found: set[int] = set(self._standard_waits(t)) if self._standard else set()
        if melds == 0 and (self._seven_pairs or self._thirteen or self._targets):
            # One more tile lowers a special form's shanten by one at most, so only a form
            # ready in the 13 tiles (shanten 0) can have waits: the others are not tried.
            seven = self._seven_pairs and self._seven_pairs_shanten(t) == 0
            thirteen = self._thirteen and self._orphans_shanten(self._orphans(counts)) == 0
            targets = [f for f in self._targets if self._target_shanten(f, counts) == 0]
            if not (seven or thirteen or targets):
                return sorted(found)
            plus = list(counts)
            candidates = {k for k in self._kinds if 0 < counts[k] < _MAX_COPIES} if seven else set()
            if thirteen:
                candidates.update(k for k in self._orphan_kinds if counts[k] < _MAX_COPIES)
            for f in targets:
                candidates.update(k for target in self._targets[f] for k, _ in target if counts[k] < _MAX_COPIES)
            for k in candidates - found:
                plus[k] += 1
                if ((seven and self._seven_pairs_shanten(self._gather(plus)) < 0)
                        or (thirteen and self._orphans_shanten(self._orphans(plus)) < 0)
                        or any(self._target_shanten(f, plus) < 0 for f in targets)):
                    found.add(k)
                plus[k] -= 1
        return sorted(found)

    def standard_waits(self, counts: Sequence[int], melds: int = 0) -> list[int]:
        """The standard-form part of :meth:`waits` (four melds and a pair, common.md "A complete hand"), whether or
        not the standard form is among ``forms``: every kind ``k`` of the shape (fewer than
        four held) such that the concealed tiles plus ``k`` split into ``4 - melds`` melds and
        one pair; sorted codes.  Per-unit answers are memoised, so this is the cheap way to
        test a ready hand.  Shapes and errors as :meth:`waits`."""
        t = self._gather(counts)
        n = sum(t) + 3 * melds
        if n != _FULL - 1 or melds < 0 or not self._standard:
            self._check(t, melds, (1,))
        return sorted(self._standard_waits(t))

    def shanten_after_discards(self, counts: Sequence[int], melds: int = 0) -> dict[int, int]:
        """For ``3 * (4 - melds) + 2`` concealed tiles: ``{tile: shanten}`` over the allowed
        forms of the hand left after discarding one copy of each distinct held tile.

        Equal to :meth:`shanten` of each smaller hand, but only the unit that loses the tile is
        recombined with the (once merged) other units, and the special forms are updated from
        counts.  Raises ``ValueError`` as :meth:`shanten`.
        """
        t = self._gather(counts)
        standard = self._standard
        if sum(t) + 3 * melds != _FULL or melds < 0 or not standard:
            self._check(t, melds, (2,))   # else the unit table lookups validate (see _check)
        if self._targets and melds == 0:
            return self._each_discard(counts, melds)
        missing = HAND_MELDS - melds
        target = missing * 2 + 1
        base = 3 * missing + 1
        units = self._units
        seven = thirteen = False
        if melds == 0:
            seven, thirteen = self._seven_pairs, self._thirteen
        out: dict[int, int] = {}
        if not standard:
            for a, b, unit, codes in units:
                for j, c in enumerate(t[a:b]):
                    if c:
                        out[codes[j]] = _NONE
            self._special_forms_after(t, counts, out, seven, thirteen)
            return out
        keys = []
        ids = []
        for a, b, unit, _ in units:
            key = t[a:b]
            tid = unit.tables.get(key)
            if tid is None:
                tid = self._unit_table(unit, key)
            keys.append(key)
            ids.append(tid)
        # rests[u]: every unit but u merged, from prefix and suffix merges (the empty table,
        # id 0, is neutral: tables never decrease with more melds or a pair).
        merges, merge, tables = self._merges, self._merge, self._table_list
        n = len(ids)
        if n == 1:
            rests = [0]
        else:
            prefix = [0] * n   # prefix[u]: ids[:u] merged (u >= 1)
            acc = ids[0]
            for u in range(1, n):
                prefix[u] = acc
                if u < n - 1:
                    got = merges.get((acc, ids[u]))
                    acc = merge(acc, ids[u]) if got is None else got
            suffix = [0] * n   # suffix[u]: ids[u:] merged (u >= 1)
            acc = ids[-1]
            for u in range(n - 1, 0, -1):
                suffix[u] = acc
                if u > 1:
                    got = merges.get((ids[u - 1], acc))
                    acc = merge(ids[u - 1], acc) if got is None else got
            rests = [suffix[1]]
            for u in range(1, n - 1):
                got = merges.get((prefix[u], suffix[u + 1]))
                rests.append(merge(prefix[u], suffix[u + 1]) if got is None else got)
            rests.append(prefix[n - 1])
        worst = _NONE_LOW
        for u, (a, b, unit, codes) in enumerate(units):
            rest = rests[u]
            key = keys[u]
            smaller = unit.smaller.get(key)
            if smaller is None:
                smaller = self._smaller_tables(unit, key)
            for tid, positions in smaller:
                m = merges.get((rest, tid))
                if m is None:
                    m = merge(rest, tid)
                after = base - tables[m][target]
                if after > worst:
                    worst = after
                for j, _ in positions:
                    out[codes[j]] = after
        if seven or thirteen:
            # Discarding never brings a special form nearer than the 14 tiles' own shanten in
            # it; below the worst standard result they may improve some discards.
            if ((seven and self._seven_pairs_shanten(t) < worst)
                    or (thirteen and self._orphans_shanten(self._orphans(counts)) < worst)):
                self._special_forms_after(t, counts, out, seven, thirteen)
        return out

    def _each_discard(self, counts: Sequence[int], melds: int) -> dict[int, int]:
        """:meth:`shanten_after_discards` the plain way: :meth:`shanten` of each smaller hand."""
        plus = list(counts)
        out: dict[int, int] = {}
        for k in self._kinds:
            if plus[k]:
                plus[k] -= 1
                out[k] = self.shanten(plus, melds)
                plus[k] += 1
        return out

    def _special_forms_after(self, t: tuple[int, ...], counts: Sequence[int], out: dict[int, int],
                             seven: bool, thirteen: bool) -> None:
        """Lower ``out[tile]`` (:meth:`shanten_after_discards`) to the seven-pairs and
        thirteen-orphans shanten after discarding ``tile``, where those are nearer."""
        pairs_after = _NO_PAIRS
        if seven:
            # seven pairs after one copy of a kind held c times goes: depends on c only
            buckets = [t.count(c) for c in range(_MAX_COPIES + 1)]
            pairs_after = [_NONE] * (_MAX_COPIES + 1)
            for c in range(1, _MAX_COPIES + 1):
                if buckets[c]:
                    buckets[c] -= 1
                    buckets[c - 1] += 1
                    pairs_after[c] = self._seven_pairs_from(buckets)
                    buckets[c] += 1
                    buckets[c - 1] -= 1
        if thirteen:
            held = self._orphans(counts)
            orphans_kept = self._orphans_shanten(held)   # after discarding a non-orphan kind
        for u, (a, b, unit, codes) in enumerate(self._units):
            orphan_at = self._unit_orphans[u]
            for j, c in enumerate(t[a:b]):
                if c:
                    best = out[codes[j]]
                    if pairs_after[c] < best:
                        best = pairs_after[c]
                    if thirteen and orphans_kept < best:
                        best = min(best, self._orphans_after(held, orphan_at[j], orphans_kept))
                    out[codes[j]] = best

    # ---- internals ----------------------------------------------------------------------------

    def _orphans_after(self, held: tuple[int, ...], i: int, kept: int) -> int:
        """Thirteen-orphans shanten after discarding one copy of orphan kind ``i`` of ``held``
        (``i < 0``: a non-orphan kind, whose discard leaves ``kept``)."""
        return kept if i < 0 else self._orphans_shanten(held[:i] + (held[i] - 1,) + held[i + 1:])

    def _smaller_tables(self, unit: "_Unit", key: tuple[int, ...]) -> tuple[tuple[int, tuple], ...]:
        """The table ids of ``key`` less one copy of a held position: ``(id, ((j, c), …))``
        per distinct id, with the positions ``j`` (held ``c > 0`` times) whose discard leaves
        that table; memoised per unit (:meth:`shanten_after_discards`)."""
        by_id: dict[int, list[tuple[int, int]]] = {}
        for j, c in enumerate(key):
            if c:
                by_id.setdefault(self._unit_table(unit, key[:j] + (c - 1,) + key[j + 1:]), []).append((j, c))
        got = tuple((tid, tuple(positions)) for tid, positions in by_id.items())
        _bounded(unit.smaller)[key] = got
        return got

    def _check(self, t: tuple[int, ...], melds: int, extras: tuple[int, ...]) -> None:
        """Raise ``ValueError`` unless gathered counts ``t`` hold ``3 * (4 - melds) + e``
        tiles for an ``e`` in ``extras`` (1 between turns, 2 after a draw).  Copies and the
        tile set are checked per unit when a key first fills a cache (:meth:`_Unit._validate`),
        here only if the standard form (which looks up every unit) is not allowed."""
        if not self._standard:   # the standard form's unit lookups validate otherwise
            for a, b, unit, _ in self._units:
                unit._validate(t[a:b])
        n = sum(t)
        if n - 3 * (HAND_MELDS - melds) in extras and 0 <= melds <= HAND_MELDS:
            return
        if not 0 <= melds <= HAND_MELDS:
            raise ValueError(f"declared melds must be 0..{HAND_MELDS}, got {melds}")
        want = " or ".join(str(3 * (HAND_MELDS - melds) + e) for e in extras)
        raise ValueError(f"expected {want} concealed tiles with {melds} declared meld(s) "
                         f"(3 per meld still to make, plus 1 between turns or 2 after a draw), got {n}")

    def _unit_table(self, unit: _Unit, key: tuple[int, ...]) -> int:
        """Interned id of the unit's table for ``key`` (filling the unit's cache)."""
        tid = unit.tables.get(key)
        if tid is None:
            tid = self._intern(unit.table(key))
            _bounded(unit.tables)[key] = tid
        return tid

    def _intern(self, table: tuple[int, ...]) -> int:
        tid = self._table_ids.get(table)
        if tid is None:
            tid = self._table_ids[table] = len(self._table_list)
            self._table_list.append(table)
        return tid

    def _merge(self, a: int, b: int) -> int:
        """Interned id of the table of two units together: the most tiles used when ``m``
        melds and ``p`` pairs are shared between them (max-plus convolution)."""
        got = self._merges.get((a, b))
        if got is None:
            got = self._intern(_convolve(self._table_list[a], self._table_list[b]))
            _bounded(self._merges)[(a, b)] = got
        return got

    def _standard_shanten(self, t: tuple[int, ...], melds: int) -> int:
        """Standard-form shanten of gathered counts ``t``: ``3M + 1 - used`` (module docstring)."""
        merges = self._merges
        merged = -1
        for a, b, unit, _ in self._units:
            key = t[a:b]
            tid = unit.tables.get(key)
            if tid is None:
                tid = self._unit_table(unit, key)
            if merged < 0:
                merged = tid
            else:
                got = merges.get((merged, tid))
                merged = self._merge(merged, tid) if got is None else got
        missing = HAND_MELDS - melds
        return 3 * missing + 1 - self._table_list[max(merged, 0)][missing * 2 + 1]

    def _shanten_by_form(self, t: tuple[int, ...], counts: Sequence[int], melds: int) -> dict[str, int]:
        out = {}
        for form in self.forms:
            if form == STANDARD:
                out[form] = self._standard_shanten(t, melds)
            elif melds == 0:
                out[form] = self._special_shanten(form, t, counts)
        return out

    def _special_shanten(self, form: str, t: tuple[int, ...], counts: Sequence[int]) -> int:
        """Shanten in one form other than the standard one (no declared melds)."""
        if form == SEVEN_PAIRS:
            return self._seven_pairs_shanten(t)
        if form in self._targets:
            return self._target_shanten(form, counts)
        return self._orphans_shanten(self._orphans(counts))

    def _seven_pairs_shanten(self, t: tuple[int, ...]) -> int:
        """Seven-pairs shanten of 13 or 14 gathered counts (uzje.md "Melds and winning hands" for the quad rule).

        ``6 - pairs + max(0, 7 - pairs - singles)``, where ``singles`` are kinds that one more
        copy turns into a further pair: without quads, kinds held once (the ``mahjong``
        package's formula ``6 - pairs + max(0, 7 - kinds)``); with four identical tiles as two
        pairs, every kind held an odd number of times.
        """
        if self.seven_pairs_allow_quads:
            ones, threes, fours = t.count(1), t.count(3), t.count(4)
            pairs = len(t) - t.count(0) - ones + fours
            return 6 - pairs + max(0, 7 - pairs - ones - threes)
        kinds = len(t) - t.count(0)
        return 6 - kinds + t.count(1) + max(0, 7 - kinds)

    def _seven_pairs_from(self, buckets: Sequence[int]) -> int:
        """:meth:`_seven_pairs_shanten` from ``buckets[c]`` = kinds held ``c`` times."""
        _, ones, twos, threes, fours = buckets
        if self.seven_pairs_allow_quads:
            pairs, singles = twos + threes + 2 * fours, ones + threes
        else:
            pairs, singles = twos + threes + fours, ones
        return 6 - pairs + max(0, 7 - pairs - singles)

    def _orphans_shanten(self, held: tuple[int, ...]) -> int:
        """Thirteen-orphans shanten of 13 or 14 tiles from the counts of the orphan kinds:
        tiles missing from the 13, less one if an orphan kind is held beyond its need (the
        14th tile).  The ``mahjong`` package's formula, letting a kind be needed twice."""
        if self._orphans_once:
            return held.count(0) - (max(held) > 1)
        missing = extra = 0
        for c, need in zip(held, self._orphan_need):
            if c < need:
                missing += need - c
            elif c > need:
                extra = 1
        return missing - extra

    def _standard_waits(self, t: tuple[int, ...]) -> list[int]:
        """Standard-form waits from per-unit wait sets.  The unit that receives the tile must be
        the only one that does not split exactly (or, if all split, one of the two holding a
        pair), and there must be exactly one pair afterwards."""
        info = []
        for a, b, unit, _ in self._units:
            key = t[a:b]
            s = unit.status.get(key)
            if s is None:
                s = unit.complete_status(key)
            info.append((unit, key, s))
        bad = [u for u, (_, _, s) in enumerate(info) if s < 0]
        pair_units = [u for u, (_, _, s) in enumerate(info) if s >= 0 and s % 3 == 2]
        if len(bad) > 1:
            return []
        out = []
        for u in bad or pair_units:
            unit, key, _ = info[u]
            other_pairs = len(pair_units) - (u in pair_units)
            as_melds, as_pair = unit.waits(key)
            found = as_pair if other_pairs == 0 else as_melds if other_pairs == 1 else ()
            out.extend(unit.codes[j] for j in found)
        return out


# --------------------------------------------------------------------------------------------
# The zero tile (Uzje)
# --------------------------------------------------------------------------------------------

def splits_of(n: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way to share ``n`` copies among ``parts`` places (tuples of length ``parts``),
    most in the first place first."""
    if parts == 1:
        return ((n,),)
    return tuple((k,) + rest for k in range(n, -1, -1) for rest in splits_of(n - k, parts - 1))


_SPLITS = {(n, p): splits_of(n, p) for n in range(_MAX_COPIES + 2) for p in range(1, 6)}


class ZeroShape(HandShape):
    """A :class:`HandShape` with a zero tile: one physical honour kind (``zero``, Uzje's ``Z``)
    whose copies may each be read as that honour or as rank 0 of a number suit, whichever
    completes the hand, chosen group by group (seed 002 "Zero", uzje.md "Melds and winning hands", G-UZ-11).

    Counts given to every method are *physical*: zeros are counted at ``zero`` and never at a
    rank-0 code.  The standard form is answered by sharing the held zeros among the places they
    may be read (the honour, and rank 0 of each suit where some template meld with rank 0 fits
    the tile set) on a second, *logical* shape whose suits run from rank 0, and taking the best
    share; added zeros count against the same four copies (exact shanten, see
    :meth:`_standard_shanten_zero`).  Seven pairs and the orphan forms read the zero as itself.

    The unit-table methods (``unit_layouts``, ``gatherer``, ``unit_table_id``, …) describe the
    physical shape, where the zero is only an honour (a hand's distance without the number
    readings, never below the true one); :attr:`logical` is the shape an incremental caller
    places the zeros on to read them as numbers (the bots: ``ai/shapeops.py``
    ``ZeroHandTables``).

    Keyword arguments as :class:`HandShape` plus ``zero``; ``ranks`` must start at 1 or above
    (rank 0 is the zero's reading).  Raises ``ValueError`` if ``zero`` is not among ``honours``
    or the ranks start at 0.
    """

    def __init__(self, *, zero: int, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = kwargs
        lo, hi = self.ranks
        if zero not in self.honours:
            raise ValueError(f"the zero tile {name(zero)} must be one of the honours")
        if lo < 1:
            raise ValueError(f"with a zero tile the ranks start at 1 (rank 0 is its reading), got {self.ranks!r}")
        kinds = set(self._kinds)
        slots = []
        for s in self.suits:
            code0 = s * SUIT_SIZE
            if any(rs[0] == 0 and rs[-1] <= hi and all(code0 + r in kinds for r in rs[1:])
                   for tpl in self.templates for rs in tpl.rank_sets):
                slots.append(code0)
        self.zero = zero
        #: the zero's readings: the honour first, then rank 0 of each suit where it can meld
        self.zero_readings = (zero, *slots)
        self._logical = HandShape(templates=self.templates, suits=self.suits, ranks=(0, hi),
                                  honours=self.honours, forms=(STANDARD,), tile_set=sorted(kinds | set(slots)))
        # memos of the answers by the gathered (physical) counts and melds: the readings are
        # walked once per hand (a bot's scorer and wait questions repeat hands)
        self._decomps_memo: dict[tuple[tuple[int, ...], int], tuple[Decomposition, ...]] = {}
        self._waits_memo: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        # per logical unit: index of the zero's reading in it, or -1
        self._reading_pos = []
        for _, _, unit, codes in self._logical._units:
            hit = [i for i, c in enumerate(codes) if c in self.zero_readings and unit.available[i]]
            self._reading_pos.append(hit[0] if hit else -1)

    def __repr__(self) -> str:
        return "Zero" + super().__repr__()

    @property
    def logical(self) -> HandShape:
        """The shape whose suits run from rank 0 (standard form only): each reading of the zero
        in :attr:`zero_readings` is a kind of its own there — the honour ``zero``, or the
        rank-0 code of a suit (``0s``) — so a caller that places every held zero at one reading
        can ask its unit tables about the hand read that way (G-UZ-11).  Each reading has four
        copies there: sharing the physical four among readings is the caller's business."""
        return self._logical

    @property
    def physical(self) -> HandShape:
        """The same shape with the zero only an honour: what the unit-table methods describe
        (a plain :class:`HandShape`, built on first use)."""
        got = self.__dict__.get("_physical_shape")
        if got is None:
            got = self.__dict__["_physical_shape"] = HandShape(**self._kwargs)
        return got

    # ---- readings ---------------------------------------------------------------------------

    def _readings(self, counts: Sequence[int]) -> Iterable[list[int]]:
        """Logical count arrays: every share of the held zeros among :attr:`zero_readings`."""
        z = counts[self.zero]
        base = list(counts)
        base[self.zero] = 0
        for split in _SPLITS[(z, len(self.zero_readings))]:
            lc = base[:]
            for code, n in zip(self.zero_readings, split):
                lc[code] += n
            yield lc

    def _physical(self, code: int) -> int:
        return self.zero if code in self.zero_readings else code

    def _validate_all(self, counts: Sequence[int]) -> tuple[int, ...]:
        t = self._gather(counts)
        for a, b, unit, _ in self._units:
            unit._validate(t[a:b])
        return t

    def _standard_complete(self, counts: Sequence[int], melds: int) -> bool:
        lg = self._logical
        return any(lg.is_complete(lc, melds) for lc in self._readings(counts))

    def _standard_shanten_zero(self, counts: Sequence[int], melds: int) -> int:
        """Standard-form shanten with the zero's readings, exact under the 4-copy limit.

        For each share of the held zeros, each unit that can read a zero gets a room (how many
        zeros it may add); the rooms share the ``4 - held`` zeros left.  A unit whose table
        does not change between room 0 and the whole rest needs no share; only when two or more
        units do are the ways to share the rest tried.
        """
        lg = self._logical
        missing = HAND_MELDS - melds
        rest = _MAX_COPIES - counts[self.zero]
        best = -1
        for lc in self._readings(counts):
            t = lg._gather(lc)
            fixed = 0
            flexible = []  # (table id at room 0, table id at the whole rest, unit, key, position)
            for (a, b, unit, _), pos in zip(lg._units, self._reading_pos):
                key = t[a:b]
                if pos < 0:
                    fixed = lg._merge(fixed, lg._unit_table(unit, key))
                    continue
                low = self._room_table(unit, key, pos, 0)
                high = self._room_table(unit, key, pos, rest)
                if low == high:
                    fixed = lg._merge(fixed, high)
                else:
                    flexible.append((unit, key, pos, high))
            if len(flexible) <= 1:
                for *_, high in flexible:
                    fixed = lg._merge(fixed, high)
                used = lg._table_list[fixed][missing * 2 + 1]
            else:
                used = 0
                for rooms in _SPLITS[(rest, len(flexible))]:
                    merged = fixed
                    for (unit, key, pos, _), room in zip(flexible, rooms):
                        merged = lg._merge(merged, self._room_table(unit, key, pos, room))
                    used = max(used, lg._table_list[merged][missing * 2 + 1])
            best = max(best, used)
        return 3 * missing + 1 - best

    def _room_table(self, unit: _Unit, key: tuple[int, ...], pos: int, room: int) -> int:
        """Interned id (logical shape) of ``unit``'s table for ``key`` with at most ``room``
        zeros added at position ``pos``."""
        lg = self._logical
        if room >= _MAX_COPIES:
            return lg._unit_table(unit, key)
        if isinstance(unit, _Suit):
            return lg._intern(unit.table_with_room(key, pos, room))
        # the honours: the zero on its own (a pung or the pair within the room), merged with
        # the other honours
        c = key[pos]
        others = unit.table(key[:pos] + (0,) + key[pos + 1:])
        as_meld = min(c, 3) if 3 - min(c, 3) <= room else 0
        as_pair = min(c, 2) if 2 - min(c, 2) <= room else 0
        own = tuple(max(as_meld if i >= 2 else 0, as_pair if i % 2 else 0) for i in range(_TABLE_SIZE))
        return lg._intern(_convolve(others, own))

    # ---- the public questions -----------------------------------------------------------------

    def is_complete(self, counts: Sequence[int], melds: int = 0) -> bool:
        """As :meth:`HandShape.is_complete`, with the zero's readings (class docstring)."""
        t = self._validate_all(counts)
        self._check(t, melds, (2,))
        if self._standard and self._standard_complete(counts, melds):
            return True
        return melds == 0 and any(self._special_shanten(f, t, counts) < 0 for f in self.forms if f != STANDARD)

    def decompositions(self, counts: Sequence[int], melds: int = 0) -> list[Decomposition]:
        """As :meth:`HandShape.decompositions`, over every reading of the zeros.  A zero read
        as a number keeps its rank-0 code in its meld (``0s`` in ``(0s, 1s, 2s)``); a group made
        of zeros only (a pung, kong part or the pair) is given as the honour: how it is read
        (honour, or rank 0 of a suit) is the scorer's choice."""
        t = self._validate_all(counts)
        self._check(t, melds, (2,))
        got = self._decomps_memo.get((t, melds))
        if got is not None:
            return list(got)
        found: set[Decomposition] = set()
        z = self.zero
        for lc in self._readings(counts):
            for d in self._logical.decompositions(lc, melds):
                groups = tuple(sorted(
                    (kind, (z,) * len(ts)) if all(x in self.zero_readings for x in ts) else (kind, ts)
                    for kind, ts in d.melds))
                found.add(Decomposition(groups, self._physical(d.pair)))
        got = sorted(found, key=lambda d: (d.pair, d.melds))
        _bounded(self._decomps_memo)[(t, melds)] = tuple(got)
        return got

    def _shanten_by_form(self, t: tuple[int, ...], counts: Sequence[int], melds: int) -> dict[str, int]:
        out = {}
        for form in self.forms:
            if form == STANDARD:
                out[form] = self._standard_shanten_zero(counts, melds)
            elif melds == 0:
                out[form] = self._special_shanten(form, t, counts)
        return out

    def shanten(self, counts: Sequence[int], melds: int = 0) -> int:
        """As :meth:`HandShape.shanten`, with the zero's readings (class docstring)."""
        t = self._validate_all(counts)
        self._check(t, melds, (1, 2))
        return min(self._shanten_by_form(t, counts, melds).values(), default=_NONE)

    def shanten_by_form(self, counts: Sequence[int], melds: int = 0) -> dict[str, int]:
        t = self._validate_all(counts)
        self._check(t, melds, (1, 2))
        return self._shanten_by_form(t, counts, melds)

    def standard_waits(self, counts: Sequence[int], melds: int = 0) -> list[int]:
        """As :meth:`HandShape.standard_waits`, with the zero's readings: a tile waited on as
        rank 0 of a suit is the zero itself (never when four zeros are held)."""
        t = self._validate_all(counts)
        self._check(t, melds, (1,))
        got = self._waits_memo.get((t, melds))
        if got is not None:
            return list(got)
        found: set[int] = set()
        if self._standard:
            lg = self._logical
            for lc in self._readings(counts):
                found.update(self._physical(k) for k in lg._standard_waits(lg._gather(lc)))
        if counts[self.zero] >= _MAX_COPIES:
            found.discard(self.zero)
        _bounded(self._waits_memo)[(t, melds)] = tuple(sorted(found))
        return sorted(found)

    def waits(self, counts: Sequence[int], melds: int = 0) -> list[int]:
        """As :meth:`HandShape.waits`, with the zero's readings."""
        found = set(self.standard_waits(counts, melds))
        special = [f for f in self.forms if f != STANDARD]
        if melds == 0 and special:
            plus = list(counts)
            for k in self._kinds:
                if k not in found and counts[k] < _MAX_COPIES:
                    plus[k] += 1
                    t = self._gather(plus)
                    if any(self._special_shanten(f, t, plus) < 0 for f in special):
                        found.add(k)
                    plus[k] -= 1
        return sorted(found)

    def complete_forms(self, counts: Sequence[int], melds: int = 0) -> list[str]:
        t = self._validate_all(counts)
        self._check(t, melds, (2,))
        return [f for f, s in self._shanten_by_form(t, counts, melds).items() if s < 0]

    def shanten_after_discards(self, counts: Sequence[int], melds: int = 0) -> dict[int, int]:
        """As :meth:`HandShape.shanten_after_discards` (computed hand by hand)."""
        t = self._validate_all(counts)
        self._check(t, melds, (2,))
        return self._each_discard(counts, melds)


def _getter(codes: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A fast ``counts -> tuple(counts[c] for c in codes)``."""
    if len(codes) == 1:
        only = codes[0]
        return lambda counts: (counts[only],)
    if not codes:
        return lambda counts: ()
    return itemgetter(*codes)
