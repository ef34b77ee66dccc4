"""Hand shape: win detection, decompositions, shanten and waits (count arrays, memoised per unit).

Rule sources: GAPS §0 ("Melds", "Decomposition rule", "Wait set"), §4c (Uzje's arith, gem and
power melds, 16 ranks and the zero rank, seven pairs with four identical tiles as two pairs,
thirteen orphans), §8 ("Wait sets are by shape").

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

from dataclasses import dataclass
from itertools import product
from operator import itemgetter
from typing import Callable, Iterable, Sequence

from .tiles import NUM_KINDS, SUIT_SIZE, EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE, name

__all__ = [
    "HAND_MELDS", "STANDARD", "SEVEN_PAIRS", "THIRTEEN_ORPHANS", "FORMS",
    "MeldTemplate", "Decomposition", "HandShape", "CHOWS",
]

HAND_MELDS = 4
"""Melds in a complete standard hand, besides its pair (GAPS §0)."""

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
FORMS = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS)
"""Win forms this module knows (GAPS §0, §4c)."""

PUNG = "pung"
_MAX_COPIES = 4
_CACHE_LIMIT = 1 << 18   # entries per cache before it is emptied and refilled lazily
_TABLE_SIZE = (HAND_MELDS + 1) * 2


@dataclass(frozen=True)
class MeldTemplate:
    """A family of three-tile melds within one number suit, given as concrete rank tuples.

    ``kind`` names the meld for decompositions and scoring (``"chow"``, Uzje's ``"arith"``,
    ``"gem"``, ``"power"``; GAPS §0, §4c).  Pungs and kongs are implicit in every
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

        ``sequence("chow", 1, 1, 9)`` is the chow of GAPS §0; Uzje's ariths (§4c) are
        ``sequence("arith", d, 0, 16)`` for each difference ``d >= 1``.  Raises ``ValueError``
        for ``step < 1``.
        """
        if step < 1:
            raise ValueError(f"meld template {kind!r}: step must be at least 1, got {step}")
        return MeldTemplate(kind, tuple((a, a + step, a + 2 * step) for a in range(lo, hi - 2 * step + 1)))

    @staticmethod
    def fixed(kind: str, sets: Iterable[Iterable[int]]) -> "MeldTemplate":
        """Explicit rank sets, e.g. Uzje's gems ``{1,2,4} {2,4,8} {4,8,16} {1,3,9}`` (GAPS §4c)."""
        return MeldTemplate(kind, tuple(tuple(s) for s in sets))


CHOWS = MeldTemplate.sequence("chow", 1, 1, 9)
"""The chow of GAPS §0: three consecutive ranks 1..9."""


@dataclass(frozen=True)
class Decomposition:
    """One standard-form reading of concealed tiles: melds and the pair (GAPS §0).

    ``melds`` holds ``(kind, tiles)`` pairs, kind ``"pung"`` or a template kind, tiles sorted
    codes; the tuple itself is sorted, so equal decompositions compare equal.  ``pair`` is the
    tile code of the pair.
    """

    melds: tuple[tuple[str, tuple[int, ...]], ...]
    pair: int


# --------------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------------

_ZERO_TABLE = (0,) * _TABLE_SIZE

_UnitDecomp = tuple[tuple[tuple[str, tuple[int, ...]], ...], "int | None"]
"""A unit's decomposition: sorted ``(kind, positions)`` melds and the pair position or None."""


def _bounded(cache: dict) -> dict:
    """Empty ``cache`` once it is large; it refills lazily (keeps long-lived processes small)."""
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    return cache


def _check_copies(key: tuple[int, ...], codes: Sequence[int]) -> None:
    for c, code in zip(key, codes):
        if c > _MAX_COPIES:
            raise ValueError(f"{c} copies of {name(code)}: a tile kind has at most {_MAX_COPIES}")


class _Unit:
    """Memoised answers about one unit, keyed by its count tuple.

    Positions ``0..size-1`` index the unit's tile kinds.  Subclasses fill the caches:

    - ``status[key]``: ``n`` (tile count) if the tiles split exactly into melds plus one pair
      when ``n % 3 == 2`` or into melds only when ``n % 3 == 0``; otherwise ``-1 - n``;
    - ``tables[key]``: id of the unit's table (see the module docstring);
    - ``waits``, ``decomps``: see the methods.
    """

    def __init__(self, codes: Sequence[int], available: Sequence[bool]):
        self.codes = tuple(codes)
        self.available = tuple(available)
        self.status: dict[tuple[int, ...], int] = {}
        self.tables: dict[tuple[int, ...], int] = {}
        self._waits: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._decomps: dict[tuple[int, ...], list[_UnitDecomp]] = {}

    def _validate(self, key: tuple[int, ...]) -> None:
        _check_copies(key, self.codes)
        for c, ok, code in zip(key, self.available, self.codes):
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
            if n % 3 != 1:
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


class _Suit(_Unit):
    """One number suit: positions are ranks ``lo..hi``; melds are pungs and template shapes.

    ``shapes`` maps position triples (sorted, distinct) to the meld kinds that have them.
    """

    def __init__(self, codes: Sequence[int], available: Sequence[bool],
                 shapes: dict[tuple[int, int, int], tuple[str, ...]]):
        super().__init__(codes, available)
        size = len(codes)
        self.shapes = shapes
        # Shapes whose lowest rank is i (exact splits), and shapes containing i (tables).
        self._starting = [[s for s in shapes if s[0] == i] for i in range(size)]
        self._containing = [((i, i, i),) + tuple(s for s in shapes if i in s) for i in range(size)]
        self._split_memo: dict[tuple[tuple[int, ...], bool], bool] = {}
        self._solve_memo: dict[tuple[int, ...], tuple[int, ...]] = {}

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
        i = next((j for j, c in enumerate(counts) if c), None)
        if i is None:
            if not need_pair:
                found.add((tuple(sorted(melds)), pair))
            return
        c = counts[i]
        if need_pair and c >= 2:
            counts[i] -= 2
            self._enumerate(counts, False, melds, i, found)
            counts[i] += 2
        if c >= 3:
            counts[i] -= 3
            melds.append((PUNG, (i, i, i)))
            self._enumerate(counts, need_pair, melds, pair, found)
            melds.pop()
            counts[i] += 3
        for shape in self._starting[i]:
            a, b, d = shape
            if counts[b] and counts[d]:
                counts[a] -= 1
                counts[b] -= 1
                counts[d] -= 1
                for kind in self.shapes[shape]:
                    melds.append((kind, shape))
                    self._enumerate(counts, need_pair, melds, pair, found)
                    melds.pop()
                counts[a] += 1
                counts[b] += 1
                counts[d] += 1

    # tables -----------------------------------------------------------------------------------

    def table(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """The unit table, exact under the 4-copy limit (module docstring).

        Search state: one int per position, ``remaining << 3 | room``.  ``room`` is how many
        copies may still be added: ``4 - held`` for a held kind, 0 for a kind outside the tile
        set, and the marker 4 for an unheld kind, which can never overflow (only melds add
        to it, at most one copy each).  A held kind is only added to once all its copies are
        in use; adding while one is left over is never better.
        """
        self._validate(key)
        state = tuple((c << 3) | ((_MAX_COPIES - c) if ok else 0) for c, ok in zip(key, self.available))
        return self._solve(state)

    def _solve(self, state: tuple[int, ...]) -> tuple[int, ...]:
        """Best ``used`` table for ``state``: the lowest remaining tile is left over, starts
        the pair, or joins a meld that contains it (missing tiles added within ``room``)."""
        got = self._solve_memo.get(state)
        if got is not None:
            return got
        i = next((j for j, v in enumerate(state) if v >= 8), None)
        if i is None:
            return _ZERO_TABLE
        lst = list(state)
        lst[i] -= 8
        best = list(self._solve(tuple(lst)))
        # The pair at i.
        step = _take(state, (i, i))
        if step is not None:
            sub, used = step
            sub = self._solve(sub)
            for m in range(HAND_MELDS + 1):
                if sub[m * 2] + used > best[m * 2 + 1]:
                    best[m * 2 + 1] = sub[m * 2] + used
        # A meld containing i: the pung, then every template shape.
        for shape in self._containing[i]:
            step = _take(state, shape)
            if step is None:
                continue
            sub, used = step
            sub = self._solve(sub)
            for t in range(2, _TABLE_SIZE):
                if sub[t - 2] + used > best[t]:
                    best[t] = sub[t - 2] + used
        got = tuple(best)
        _bounded(self._solve_memo)[state] = got
        return got


def _take(state: tuple[int, ...], members: tuple[int, ...]) -> tuple[tuple[int, ...], int] | None:
    """Form a group from ``members`` (positions, repeated for a pung/pair): use held tiles where
    any remain, add the rest within the room.  Returns ``(new state, tiles used)`` or None."""
    lst = list(state)
    used = 0
    for j in members:
        v = lst[j]
        if v >= 8:
            lst[j] = v - 8
            used += 1
        else:
            room = v & 7
            if room == 0:
                return None
            if room != _MAX_COPIES:
                lst[j] = v - 1
    return tuple(lst), used


# --------------------------------------------------------------------------------------------
# The hand shape
# --------------------------------------------------------------------------------------------

_DEFAULT_HONOURS = (EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE)


class HandShape:
    """What a variant allows for hand shape, and every question about concealed hands.

    Parameters (all keyword-only):

    - ``templates``: sequence-like meld templates (pungs are implicit); default the chow 1..9;
    - ``suits``: number suits in use (0 = dots/tongs, 1 = bamboo/socks, 2 = characters/mans);
    - ``ranks``: inclusive rank range of every suit, ``(1, 9)``; Uzje ``(0, 16)`` (GAPS §4c);
    - ``honours``: honour tile codes in use; default winds E S W N and dragons C F P;
    - ``forms``: allowed win forms among :data:`FORMS`;
    - ``seven_pairs_allow_quads``: four identical concealed tiles count as two pairs (§4c);
    - ``orphans``: the 13 tiles of thirteen orphans (a kind may repeat, as Uzje's compressed
      winds ``H H V V``); default 1 and 9 of each suit and the seven honours;
    - ``tile_set``: the tile kinds that exist, if fewer than suits × ranks + honours (Uzje's
      abbreviated tongs hold only ``1t`` and ``ft``); kinds outside it are never added.

    The shape is immutable; its caches live on the instance and fill lazily.  Raises
    ``ValueError`` for an unknown form, an orphan or tile_set kind outside the shape, or a rank
    range outside 0..16.
    """

    def __init__(self, *, templates: Sequence[MeldTemplate] = (CHOWS,), suits: Sequence[int] = (0, 1, 2),
                 ranks: tuple[int, int] = (1, 9), honours: Sequence[int] = _DEFAULT_HONOURS,
                 forms: Sequence[str] = FORMS, seven_pairs_allow_quads: bool = False,
                 orphans: Sequence[int] | None = None, tile_set: Iterable[int] | None = None):
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

        suit_codes = [[s * SUIT_SIZE + r for r in range(lo, hi + 1)] for s in self.suits]
        every = [c for codes in suit_codes for c in codes] + list(self.honours)
        kinds = set(every) if tile_set is None else set(tile_set)
        if not kinds <= set(every):
            raise ValueError(f"tile_set kinds {sorted(kinds - set(every))!r} are not in the hand shape")
        self._kinds = sorted(kinds)

        shapes: dict[tuple[int, int, int], tuple[str, ...]] = {}
        for template in self.templates:
            for rank_set in template.rank_sets:
                if lo <= rank_set[0] and rank_set[-1] <= hi:
                    pos = tuple(r - lo for r in rank_set)
                    if template.kind not in shapes.get(pos, ()):
                        shapes[pos] = shapes.get(pos, ()) + (template.kind,)
        # Units that have the same availability share one solver (and its caches).
        solvers: dict[tuple[bool, ...], _Suit] = {}
        units: list[tuple[int, int, _Unit]] = []   # slice of the gathered tuple, solver
        start = 0
        for codes in suit_codes:
            avail = tuple(c in kinds for c in codes)
            if avail not in solvers:
                solvers[avail] = _Suit(codes, avail, shapes)
            units.append((start, start + len(codes), solvers[avail]))
            start += len(codes)
        if self.honours:
            units.append((start, start + len(self.honours), _Honours(self.honours)))
        self._units = units
        self._unit_codes = [suit_codes[k] if k < len(suit_codes) else list(self.honours)
                            for k in range(len(units))]
        self._gather: Callable[[Sequence[int]], tuple[int, ...]] = _getter(every)

        if orphans is None:
            orphans = [s * SUIT_SIZE + r for s in self.suits for r in (max(lo, 1), hi)] + list(self.honours)
        orphan_list = list(orphans)
        if THIRTEEN_ORPHANS in self.forms and not set(orphan_list) <= kinds:
            raise ValueError(f"orphans {sorted(set(orphan_list) - kinds)!r} are not in the hand shape")
        self._orphan_kinds = sorted(set(orphan_list))
        self._orphan_need = tuple(orphan_list.count(k) for k in self._orphan_kinds)
        self._orphan_size = len(orphan_list) + 1
        self._orphans = _getter(self._orphan_kinds)

        self._specials = [f for f in self.forms if f != STANDARD]
        # Table algebra: tables are interned to ints, and merges of two tables are memoised.
        self._table_ids: dict[tuple[int, ...], int] = {_ZERO_TABLE: 0}
        self._table_list: list[tuple[int, ...]] = [_ZERO_TABLE]
        self._merges: dict[tuple[int, int], int] = {}

    def __repr__(self) -> str:
        return (f"HandShape(templates={[t.kind for t in self.templates]}, suits={self.suits}, "
                f"ranks={self.ranks}, honours={self.honours}, forms={self.forms})")

    # ---- public API ---------------------------------------------------------------------------

    def tile_kinds(self) -> list[int]:
        """Every tile kind of the shape (suits × ranks + honours, or ``tile_set``), sorted."""
        return list(self._kinds)

    def is_complete(self, counts: Sequence[int], melds: int = 0) -> bool:
        """True if the concealed tiles complete the hand in any allowed form.

        ``counts``: count array (length ``NUM_KINDS``) of the concealed tiles, which must
        number ``3 * (4 - melds) + 2``; ``melds``: melds already declared.  Seven pairs and
        thirteen orphans need ``melds == 0`` (GAPS §0, §4c).  Raises ``ValueError`` for a
        wrong tile count or more than four copies of a kind.
        """
        t = self._gather(counts)
        n, pairs, ok = self._status(t)
        self._check_count(n, melds, complete=True)
        if ok and pairs == 1 and STANDARD in self.forms:
            return True
        return melds == 0 and any(self._special_shanten(form, t, counts) < 0 for form in self._specials)

    def complete_forms(self, counts: Sequence[int], melds: int = 0) -> list[str]:
        """The allowed forms the concealed tiles complete, in the order of ``forms``.

        Shapes and errors as :meth:`is_complete`.
        """
        t = self._gather(counts)
        n, pairs, ok = self._status(t)
        self._check_count(n, melds, complete=True)
        out = []
        for form in self.forms:
            if form == STANDARD:
                if ok and pairs == 1:
                    out.append(form)
            elif melds == 0 and self._special_shanten(form, t, counts) < 0:
                out.append(form)
        return out

    def decompositions(self, counts: Sequence[int], melds: int = 0) -> list[Decomposition]:
        """Every distinct standard-form reading of the concealed tiles as ``4 - melds`` melds
        and one pair (GAPS §0 "Decomposition rule"), sorted; empty if there is none.

        Shapes and errors as :meth:`is_complete` (the standard form need not be allowed).
        """
        t = self._gather(counts)
        n, pairs, ok = self._status(t)
        self._check_count(n, melds, complete=True)
        if not ok or pairs != 1:
            return []
        per_unit = []
        for (a, b, unit), codes in zip(self._units, self._unit_codes):
            found = unit.decompositions(t[a:b])
            per_unit.append([(tuple((kind, tuple(codes[p] for p in pos)) for kind, pos in groups),
                              None if pair is None else codes[pair]) for groups, pair in found])
        out = []
        for choice in product(*per_unit):
            groups = sorted(g for unit_groups, _ in choice for g in unit_groups)
            pair = next(p for _, p in choice if p is not None)
            out.append(Decomposition(tuple(groups), pair))
        return out

    def shanten(self, counts: Sequence[int], melds: int = 0) -> int:
        """Shanten over the allowed forms: -1 complete (3n+2 tiles), 0 ready (3n+1 tiles), …

        ``counts``: count array of the concealed tiles, ``3 * (4 - melds) + 1`` or ``+ 2`` of
        them; the number of tiles to add (each replacing a discard), minus one, to reach a
        complete hand, exact under the 4-copy limit (module docstring).  Raises ``ValueError``
        for another tile count or more than four copies of a kind.
        """
        t = self._gather(counts)
        best = self._standard(t, melds) if STANDARD in self.forms else 99
        if melds == 0:
            for form in self._specials:
                s = self._special_shanten(form, t, counts)
                if s < best:
                    best = s
        return best

    def shanten_by_form(self, counts: Sequence[int], melds: int = 0) -> dict[str, int]:
        """Shanten per allowed form (see :meth:`shanten`); seven pairs and thirteen orphans only
        when ``melds == 0``.  Same shapes and errors as :meth:`shanten`."""
        t = self._gather(counts)
        std = self._standard(t, melds)   # validates the tile count
        out = {}
        for form in self.forms:
            if form == STANDARD:
                out[form] = std
            elif melds == 0:
                out[form] = self._special_shanten(form, t, counts)
        return out

    def waits(self, counts: Sequence[int], melds: int = 0) -> list[int]:
        """The wait set (GAPS §0, §8): every tile kind ``k`` of the shape such that the
        concealed tiles plus ``k`` complete the hand in an allowed form, sorted codes.

        ``counts`` holds ``3 * (4 - melds) + 1`` concealed tiles.  A kind counts even if every
        copy is visible elsewhere, but never one the hand holds four of (a fifth copy does not
        exist).  Raises ``ValueError`` for another tile count or more than four copies.
        """
        t = self._gather(counts)
        n = self._status(t)[0]
        if n + 3 * melds != 3 * HAND_MELDS + 1:
            raise ValueError(self._count_message(n, melds, "waits need", 1))
        found: set[int] = set()
        if STANDARD in self.forms:
            found.update(self._standard_waits(t))
        if melds == 0 and self._specials:
            plus = list(counts)
            for k in self._special_candidates(counts):
                plus[k] += 1
                if any(self._special_shanten(form, self._gather(plus), plus) < 0 for form in self._specials):
                    found.add(k)
                plus[k] -= 1
        return sorted(found)

    def shanten_after_discards(self, counts: Sequence[int], melds: int = 0) -> dict[int, int]:
        """For a hand of ``3 * (4 - melds) + 2`` concealed tiles: ``{tile: shanten}`` of the
        hand left after discarding one copy of each distinct held tile (of the shape).

        Same value as calling :meth:`shanten` for each discard, but the units that do not
        change are combined once.  Raises ``ValueError`` as :meth:`shanten`.
        """
        t = self._gather(counts)
        n = self._status(t)[0]
        if n + 3 * melds != 3 * HAND_MELDS + 2:
            raise ValueError(self._count_message(n, melds, "discards need", 2))
        target = (HAND_MELDS - melds) * 2 + 1
        ids = [self._unit_table(unit, t[a:b]) for a, b, unit in self._units]
        # rest[u]: the merged tables of every unit except u.
        prefix = [0]
        for tid in ids:
            prefix.append(self._merge(prefix[-1], tid))
        suffix = [0]
        for tid in reversed(ids):
            suffix.append(self._merge(tid, suffix[-1]))
        suffix.reverse()
        out: dict[int, int] = {}
        specials = melds == 0 and self._specials
        lst = list(counts) if specials else None
        for u, ((a, b, unit), codes) in enumerate(zip(self._units, self._unit_codes)):
            if STANDARD in self.forms:
                rest = self._merge(prefix[u], suffix[u + 1])
            key = t[a:b]
            for j, c in enumerate(key):
                if not c:
                    continue
                best = 99
                if STANDARD in self.forms:
                    smaller = key[:j] + (c - 1,) + key[j + 1:]
                    total = self._table_list[self._merge(rest, self._unit_table(unit, smaller))]
                    best = 3 * (HAND_MELDS - melds) + 1 - total[target]
                if lst is not None:
                    k = codes[j]
                    lst[k] -= 1
                    g = self._gather(lst)
                    for form in self._specials:
                        best = min(best, self._special_shanten(form, g, lst))
                    lst[k] += 1
                out[codes[j]] = best
        return out

    # ---- internals ----------------------------------------------------------------------------

    def _status(self, t: tuple[int, ...]) -> tuple[int, int, bool]:
        """``(tiles, units holding a pair, every unit splits exactly)`` for gathered ``t``."""
        n = pairs = 0
        ok = True
        for a, b, unit in self._units:
            key = t[a:b]
            s = unit.status.get(key)
            if s is None:
                s = unit.complete_status(key)
            if s < 0:
                ok = False
                n -= s + 1
            else:
                n += s
                if s % 3 == 2:
                    pairs += 1
        return n, pairs, ok

    def _count_message(self, n: int, melds: int, what: str, extra: int) -> str:
        want = 3 * (HAND_MELDS - melds) + extra
        return (f"{what} {want} concealed tiles with {melds} declared meld(s) "
                f"(3 per missing meld + {extra}), got {n}")

    def _check_count(self, n: int, melds: int, complete: bool) -> None:
        if not 0 <= melds <= HAND_MELDS:
            raise ValueError(f"declared melds must be 0..{HAND_MELDS}, got {melds}")
        base = 3 * (HAND_MELDS - melds)
        if complete and n != base + 2:
            raise ValueError(self._count_message(n, melds, "a complete hand needs", 2))
        if not complete and n not in (base + 1, base + 2):
            raise ValueError(f"shanten needs {base + 1} or {base + 2} concealed tiles with "
                             f"{melds} declared meld(s), got {n}")

    def _unit_table(self, unit: _Unit, key: tuple[int, ...]) -> int:
        tid = unit.tables.get(key)
        if tid is None:
            table = unit.table(key)
            tid = self._table_ids.get(table)
            if tid is None:
                tid = self._table_ids[table] = len(self._table_list)
                self._table_list.append(table)
            _bounded(unit.tables)[key] = tid
        return tid

    def _merge(self, a: int, b: int) -> int:
        """Interned id of the table of two units together (max-plus over shared melds/pair)."""
        got = self._merges.get((a, b))
        if got is None:
            ta, tb = self._table_list[a], self._table_list[b]
            out = [0] * _TABLE_SIZE
            for i in range(_TABLE_SIZE):
                for j in range(0, _TABLE_SIZE - i):
                    if (i & 1) + (j & 1) <= 1:
                        k = i + j
                        v = ta[i] + tb[j]
                        if v > out[k]:
                            out[k] = v
            table = tuple(out)
            got = self._table_ids.get(table)
            if got is None:
                got = self._table_ids[table] = len(self._table_list)
                self._table_list.append(table)
            _bounded(self._merges)[(a, b)] = got
        return got

    def _standard(self, t: tuple[int, ...], melds: int) -> int:
        """Standard-form shanten of gathered ``t`` (validates the tile count)."""
        merged = 0
        n = 0
        for a, b, unit in self._units:
            key = t[a:b]
            tid = unit.tables.get(key)
            if tid is None:
                tid = self._unit_table(unit, key)
            merged = self._merges.get((merged, tid)) or self._merge(merged, tid)
            n += sum(key)
        self._check_count(n, melds, complete=False)
        missing = HAND_MELDS - melds
        return 3 * missing + 1 - self._table_list[merged][missing * 2 + 1]

    def _special_shanten(self, form: str, t: tuple[int, ...], counts: Sequence[int]) -> int:
        """Shanten of a special form (``melds == 0`` only); 99 if the hand is not 13/14 tiles.

        Seven pairs: ``6 - pairs + max(0, 7 - pairs - singles)`` where ``singles`` are kinds
        that one more copy makes into another pair (distinct pairs: kinds held once; with
        quads allowed, every odd count).  Thirteen orphans: ``missing - (1 if a required kind
        is held beyond its need else 0)``.  Both are the ``mahjong`` package's formulas,
        generalised.
        """
        if form == SEVEN_PAIRS:
            ones, twos, threes, fours = t.count(1), t.count(2), t.count(3), t.count(4)
            if ones + 2 * twos + 3 * threes + 4 * fours not in (13, 14):
                return 99
            if self.seven_pairs_allow_quads:
                pairs, singles = twos + threes + 2 * fours, ones + threes
            else:
                pairs, singles = twos + threes + fours, ones
            return 6 - pairs + max(0, 7 - pairs - singles)
        # THIRTEEN_ORPHANS
        if sum(t) not in (self._orphan_size - 1, self._orphan_size):
            return 99
        held = self._orphans(counts)
        missing = extra = 0
        for c, need in zip(held, self._orphan_need):
            if c < need:
                missing += need - c
            elif c > need:
                extra = 1
        return missing - extra

    def _special_candidates(self, counts: Sequence[int]) -> list[int]:
        """Kinds worth testing as special-form waits: held kinds and orphan kinds."""
        return sorted(set(k for k in self._kinds if counts[k] and counts[k] < _MAX_COPIES)
                      | set(k for k in self._orphan_kinds if counts[k] < _MAX_COPIES))

    def _standard_waits(self, t: tuple[int, ...]) -> list[int]:
        """Standard-form waits from per-unit wait sets: every unit but the one receiving the
        tile must already split exactly, with exactly one pair among all units afterwards."""
        info = []
        for (a, b, unit), codes in zip(self._units, self._unit_codes):
            key = t[a:b]
            s = unit.status.get(key)
            if s is None:
                s = unit.complete_status(key)
            info.append((unit, key, codes, s))
        bad = [u for u, (_, _, _, s) in enumerate(info) if s < 0]
        pair_units = [u for u, (_, _, _, s) in enumerate(info) if s >= 0 and s % 3 == 2]
        if len(bad) > 1:
            return []
        candidates = bad if bad else pair_units if len(pair_units) == 2 else []
        out = []
        for u in candidates:
            unit, key, codes, s = info[u]
            n = s if s >= 0 else -1 - s
            others_pairs = len(pair_units) - (1 if u in pair_units else 0)
            as_melds, as_pair = unit.waits(key)
            if n % 3 == 1 and others_pairs == 0:
                out.extend(codes[j] for j in as_pair)
            elif n % 3 == 2 and others_pairs == 1:
                out.extend(codes[j] for j in as_melds)
        return out


def _getter(codes: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A fast ``counts -> tuple(counts[c] for c in codes)``."""
    if len(codes) == 1:
        only = codes[0]
        return lambda counts: (counts[only],)
    if not codes:
        return lambda counts: ()
    return itemgetter(*codes)
