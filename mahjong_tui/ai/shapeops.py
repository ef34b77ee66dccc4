"""Fast, incremental shanten questions for the bots, on top of :class:`mahjong_tui.hand.HandShape`.

A bot asks the same question hundreds of times per decision: "what is the shanten of this hand
minus tile ``d`` plus tile ``k``, counting only the units this plan allows?".  Calling
``HandShape.shanten`` for each costs a full gather + merge; here a hand is held as one *unit
table id* per unit (each number suit, the honours — DESIGN.md "Tiles and hands"), and a question touches
only the one or two units that change, merged with the memoised tables of the rest.

Definitions (those of :mod:`mahjong_tui.hand`): a unit table ``used[m * 2 + p]`` is the most
held tiles ``m`` melds and ``p`` pairs can contain; a hand needing ``M`` more melds has standard
*distance* ``3M + 1 - used[2M + 1]`` over the units it may use — its shanten when every unit is
allowed.  The distance is defined for any number of held tiles, so a *plan* that forbids some
units (a flush forbids the other suits) is just a merge over fewer units: the forbidden tiles
count as tiles still to be replaced.

It uses only the public "unit tables" API of ``HandShape`` (``unit_layouts``, ``gatherer``,
``unit_table_id``, ``merge_tables``, ``merge_memo``, ``table_list``); ``tests/test_ai.py`` checks
the results against the public ``shanten``.

The zero tile (uzje.md "Melds and winning hands", G-UZ-11): where a shape has one (``zero_readings``, as
:class:`mahjong_tui.hand.ZeroShape`), each copy may be read as an honour or as rank 0 of a
suit, group by group, and the physical shape's units see only the honour.
:class:`ZeroHandTables` answers the same questions as :class:`HandTables` for a hand holding
zeros by placing them at their readings on the shape's ``logical`` units (suits from rank 0)
and taking the best placement per question; ``tests/test_ai_zero.py`` checks it against the
engine's exact shanten, ``tests/bench/ai_zero.py`` measures it on random hands.
"""

from __future__ import annotations

from typing import Sequence

from ..hand import HandShape, splits_of


class ShapeOps:
    """Per-unit views of a :class:`HandShape` (one instance per shape, shared by bots).

    - ``unit_of[code] = (u, j)``: unit index and position of a tile kind (shape kinds only);
    - ``drop(u, key)``: tuple over positions of the table id of ``key`` minus one tile there
      (``-1`` where nothing is held);
    - ``add(u, key)``: tuple over positions of the table id of ``key`` plus one tile there
      (``-1`` where four are held or the kind is not available).
    """

    def __init__(self, shape: HandShape):
        self.shape = shape
        layouts = shape.unit_layouts()
        self.slices = [(lay.start, lay.stop) for lay in layouts]
        self.codes: list[tuple[int, ...]] = [lay.codes for lay in layouts]
        self.n = len(layouts)
        self.unit_of: dict[int, tuple[int, int]] = {}
        for u, codes in enumerate(self.codes):
            for j, c in enumerate(codes):
                self.unit_of[c] = (u, j)
        self.available = [lay.available for lay in layouts]
        self.gather = shape.gatherer
        self.tables = shape.table_list
        self._merges = shape.merge_memo
        self._merge_fn = shape.merge_tables
        self._unit_table = shape.unit_table_id
        self._neighbours = shape.unit_neighbour_ids
        self._drop: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._add: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._tid: dict[tuple[int, tuple[int, ...]], int] = {}
        self._drops: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, int], ...]] = {}
        self._adds: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, int], ...]] = {}
        #: (unit, key, rest table, index, limit) -> kinds of the unit whose addition beats limit
        self._improve: dict[tuple, tuple[int, ...]] = {}

    # -- primitives -------------------------------------------------------------------------
    def tid(self, u: int, key: tuple[int, ...]) -> int:
        """Interned table id of unit ``u`` holding ``key``."""
        k = (u, key)
        got = self._tid.get(k)
        if got is None:
            got = self._unit_table(u, key)
            if len(self._tid) > 200_000:
                self._tid.clear()
            self._tid[k] = got
        return got

    def merge(self, a: int, b: int) -> int:
        got = self._merges.get((a, b))
        if got is None:
            got = self._merge_fn(a, b)
        return got

    def drop(self, u: int, key: tuple[int, ...]) -> tuple[int, ...]:
        k = (u, key)
        got = self._drop.get(k)
        if got is None:
            got = self._neighbours(u, key, -1)
            if len(self._drop) > 100_000:
                self._drop.clear()
            self._drop[k] = got
        return got

    def add(self, u: int, key: tuple[int, ...]) -> tuple[int, ...]:
        k = (u, key)
        got = self._add.get(k)
        if got is None:
            got = self._neighbours(u, key, 1)
            if len(self._add) > 100_000:
                self._add.clear()
            self._add[k] = got
        return got

    def drops(self, u: int, key: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """``((kind, table id of key minus one tile of it), …)`` over the held positions of
        unit ``u`` holding ``key``, in position order (:meth:`drop` without the ``-1`` places)."""
        k = (u, key)
        got = self._drops.get(k)
        if got is None:
            codes = self.codes[u]
            got = tuple((codes[j], tid) for j, tid in enumerate(self.drop(u, key)) if tid >= 0)
            if len(self._drops) > 100_000:
                self._drops.clear()
            self._drops[k] = got
        return got

    def adds(self, u: int, key: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """``((kind, table id of key plus one tile of it), …)`` over the positions of unit ``u``
        where a tile can be added, in position order (:meth:`add` without the ``-1`` places)."""
        k = (u, key)
        got = self._adds.get(k)
        if got is None:
            codes = self.codes[u]
            got = tuple((codes[j], tid) for j, tid in enumerate(self.add(u, key)) if tid >= 0)
            if len(self._adds) > 100_000:
                self._adds.clear()
            self._adds[k] = got
        return got

    def improving(self, u: int, key: tuple[int, ...], rest: int, idx: int, limit: int) -> tuple[int, ...]:
        """The kinds of unit ``u`` (holding ``key``) whose addition makes the merge with table
        ``rest`` hold more than ``limit`` tiles at table index ``idx``; memoised in
        ``_improve`` under ``(u, key, rest, idx, limit)``."""
        merges = self._merges
        tables = self.tables
        found = []
        for code, tid in self.adds(u, key):
            m = merges.get((rest, tid))
            if m is None:
                m = self.merge(rest, tid)
            if tables[m][idx] > limit:
                found.append(code)
        better = tuple(found)
        if len(self._improve) > 200_000:
            self._improve.clear()
        self._improve[(u, key, rest, idx, limit)] = better
        return better

    def keys(self, counts: Sequence[int]) -> list[tuple[int, ...]]:
        t = self.gather(counts)
        return [t[a:b] for a, b in self.slices]

    def merge_all(self, tids: Sequence[int]) -> int:
        """Merged table of every table in ``tids`` (0 for none).  Table 0 (the empty unit)
        is the neutral element of a merge, so it is never merged in; the interned id does not
        depend on the order of the merges."""
        merges = self._merges
        r = 0
        for t in tids:
            if t:
                if r == 0:
                    r = t
                else:
                    m = merges.get((r, t))
                    r = self.merge(r, t) if m is None else m
        return r

    def distance_of(self, tid: int, need: int) -> int:
        """Standard distance of a merged table when ``need`` melds are missing."""
        return 3 * need + 1 - self.tables[tid][2 * need + 1]


class HandTables:
    """One hand (concealed count array + declared melds) seen unit by unit.

    ``need`` = melds still missing (4 − declared).  ``keys[u]`` / ``tids[u]`` per unit.
    Methods take ``mask``: a tuple of booleans per unit (which units a plan may use).
    """

    __slots__ = ("ops", "need", "keys", "tids", "_rests")

    def __init__(self, ops: ShapeOps, counts: Sequence[int], declared: int):
        self.ops = ops
        self.need = 4 - declared
        self.keys = ops.keys(counts)
        self.tids = [ops.tid(u, k) for u, k in enumerate(self.keys)]
        #: memo of :meth:`rests` (key: mask) and :meth:`rests_without` (key: (mask, w))
        self._rests: dict[tuple, list[int]] = {}

    def replaced(self, units: dict[int, tuple[tuple[int, ...], int]], declared: int) -> "HandTables":
        """This hand with the units of ``units`` (``{u: (key, table id)}``) held as given
        instead, as a hand with ``declared`` melds (the other units are shared as they are)."""
        out = HandTables.__new__(HandTables)
        out.ops = self.ops
        out.need = 4 - declared
        keys = out.keys = list(self.keys)
        tids = out.tids = list(self.tids)
        for u, (key, tid) in units.items():
            keys[u] = key
            tids[u] = tid
        out._rests = {}
        return out

    def plus(self, t: int) -> "HandTables":
        """This hand with one more tile ``t`` (a shape kind held fewer than four times), as
        if from scratch but looking up only ``t``'s unit."""
        ops = self.ops
        u, j = ops.unit_of[t]
        key = self.keys[u]
        return self.replaced({u: (key[:j] + (key[j] + 1,) + key[j + 1:], ops.add(u, key)[j])}, 4 - self.need)

    def minus(self, t: int, mask: tuple[bool, ...]) -> "HandTables":
        """This hand with one tile ``t`` (a held shape kind) less, looking up only ``t``'s
        unit; its :meth:`rests` for ``mask`` come from this hand's (:meth:`rests_changed`)."""
        ops = self.ops
        u, j = ops.unit_of[t]
        key = self.keys[u]
        tid = ops.drop(u, key)[j]
        out = self.replaced({u: (key[:j] + (key[j] - 1,) + key[j + 1:], tid)}, 4 - self.need)
        if mask[u]:
            rests = list(self.rests_changed(mask, u, tid))
            rests.append(ops.merge_all((rests[u], tid)))
            out._rests[mask] = rests
        return out

    def rests(self, mask: tuple[bool, ...]) -> list[int]:
        """``[merged table of the allowed units other than u, for u in 0..n-1]`` followed by
        the merged table of every allowed unit (so index ``-1`` is the whole allowed hand).
        Memoised per mask; callers must not change the list."""
        got = self._rests.get(mask)
        if got is None:
            got = self._merged_without(mask, -1)
            got.append(self._whole(mask))
            self._rests[mask] = got
        return got

    def rest(self, mask: tuple[bool, ...], u: int) -> int:
        """Merged table of the allowed units other than ``u`` (``-1``: of every allowed unit)."""
        return self.rests(mask)[u]

    def rests_without(self, mask: tuple[bool, ...], w: int) -> list[int]:
        """``[merged table of the allowed units other than u and w, for u in 0..n-1]``
        (memoised per mask and ``w``; callers must not change the list)."""
        k = (mask, w)
        got = self._rests.get(k)
        if got is None:
            got = self._rests[k] = self._merged_without(mask, w)
        return got

    def rest_without(self, mask: tuple[bool, ...], u: int, w: int) -> int:
        """Merged table of the allowed units other than ``u`` and ``w``."""
        return self.rests_without(mask, w)[u]

    def rests_changed(self, mask: tuple[bool, ...], cu: int, ctid: int) -> list[int]:
        """``rests(mask)`` of the hand whose unit ``cu`` (allowed by the mask) holds table
        ``ctid`` instead (one tile dropped or added there): per unit ``u``, the merge of the
        other allowed units — unit ``cu``'s own rest is unchanged.  Memoised per mask, unit and
        table; callers must not change the list."""
        k = (mask, cu, ctid)
        got = self._rests.get(k)
        if got is None:
            ops = self.ops
            merges = ops._merges
            rests = self._rests.get(mask) or self.rests(mask)
            wo = self._rests.get((mask, cu)) or self.rests_without(mask, cu)
            got = []
            for u in range(len(self.tids)):
                if u == cu or not mask[u]:
                    got.append(rests[u])
                else:
                    m = merges.get((wo[u], ctid))
                    got.append(ops.merge(wo[u], ctid) if m is None else m)
            self._rests[k] = got
        return got

    def _merged_without(self, mask: tuple[bool, ...], w: int) -> list[int]:
        """Per unit ``u``: the merge of the allowed units other than ``u`` and ``w``."""
        ops = self.ops
        merges = ops._merges
        tids = self.tids
        n = len(tids)
        # prefix[u]: merge of the counted units before u; the rest of u joins it with the
        # merge of the counted units after u (table 0 is the neutral element; the interned
        # id does not depend on the order of the merges)
        prefix = [0] * n
        r = 0
        for v in range(n):
            prefix[v] = r
            t = tids[v]
            if t and v != w and mask[v]:
                if r == 0:
                    r = t
                else:
                    m = merges.get((r, t))
                    r = ops.merge(r, t) if m is None else m
        out = [0] * n
        r = 0
        for v in range(n - 1, -1, -1):
            a = prefix[v]
            if r == 0 or a == 0:
                out[v] = a or r
            else:
                m = merges.get((a, r))
                out[v] = ops.merge(a, r) if m is None else m
            t = tids[v]
            if t and v != w and mask[v]:
                if r == 0:
                    r = t
                else:
                    m = merges.get((t, r))
                    r = ops.merge(t, r) if m is None else m
        return out

    def _whole(self, mask: tuple[bool, ...]) -> int:
        """The merged table of every allowed unit."""
        got = self._rests.get(mask)
        if got is not None:
            return got[-1]
        return self.ops.merge_all([t for t, ok in zip(self.tids, mask) if ok])

    def distance(self, mask: tuple[bool, ...]) -> int:
        """Standard distance of the hand over the units ``mask`` allows."""
        return self.ops.distance_of(self._whole(mask), self.need)

    def discard_distances(self, mask: tuple[bool, ...]) -> dict[int, int]:
        """``{tile: distance after discarding it}`` for every held tile kind of the shape.
        A tile outside the mask leaves the distance unchanged."""
        rests = self._rests.get(mask) or self.rests(mask)
        return self._drop_distances(mask, self.keys, rests, self.ops.tables[rests[-1]][2 * self.need + 1])

    def plus_discard_distances(self, mask: tuple[bool, ...], t: int) -> dict[int, int]:
        """``self.plus(t).discard_distances(mask)`` (same dict, same order) without building
        that hand: each unit's rest comes from this hand's merged rests."""
        ops = self.ops
        ut, jt = ops.unit_of[t]
        if not mask[ut]:
            return self.plus(t).discard_distances(mask)
        merges = ops._merges
        keys = list(self.keys)
        tkey = keys[ut]
        keys[ut] = tkey[:jt] + (tkey[jt] + 1,) + tkey[jt + 1:]
        ptid = ops.add(ut, tkey)[jt]
        plus_rests = self.rests_changed(mask, ut, ptid)
        rest = plus_rests[ut]
        m = merges.get((rest, ptid))
        whole = ops.merge(rest, ptid) if m is None else m
        return self._drop_distances(mask, keys, plus_rests, ops.tables[whole][2 * self.need + 1])

    def _drop_distances(self, mask: tuple[bool, ...], keys, rests: Sequence[int], whole: int) -> dict[int, int]:
        """``{tile: distance after dropping it}`` for every held kind of a hand whose unit ``u``
        holds ``keys[u]``, with ``rests[u]`` the merged table of the other allowed units and
        ``whole`` the tile count the whole allowed hand's table holds at this hand's index
        (the distance of a tile outside the mask)."""
        ops = self.ops
        tables = ops.tables
        merges = ops._merges
        idx = 2 * self.need + 1
        base = 3 * self.need + 1
        full = base - whole
        out: dict[int, int] = {}
        for u, key in enumerate(keys):
            codes = ops.codes[u]
            if not mask[u]:
                for j, c in enumerate(key):
                    if c:
                        out[codes[j]] = full
                continue
            rest = rests[u]
            for code, tid in ops.drops(u, key):
                m = merges.get((rest, tid))
                if m is None:
                    m = ops.merge(rest, tid)
                out[code] = base - tables[m][idx]
        return out

    def _after_discard(self, mask: tuple[bool, ...], discard: int | None) -> tuple[list, list[int]]:
        """``(keys, rests)`` of the hand after ``discard`` (None: as it is; a discard outside
        the mask changes nothing the mask counts), rests as :meth:`rests` gives them."""
        rests = self._rests.get(mask) or self.rests(mask)
        if discard is None:
            return self.keys, rests
        ops = self.ops
        du, dj = ops.unit_of[discard]
        if not mask[du]:
            return self.keys, rests
        keys = list(self.keys)
        key = keys[du]
        keys[du] = key[:dj] + (key[dj] - 1,) + key[dj + 1:]
        return keys, self.rests_changed(mask, du, ops.drop(du, key)[dj])

    def draw_distances(self, mask: tuple[bool, ...], discard: int | None,
                       kinds: Sequence[int]) -> dict[int, int]:
        """``{k: distance of the hand minus ``discard`` (if any) plus k}`` for each ``k`` in
        ``kinds`` that the mask allows and that can be added (fewer than four held), in the
        order of ``kinds``."""
        ops = self.ops
        need = self.need
        tables = ops.tables
        idx = 2 * need + 1
        base = 3 * need + 1
        merges = ops._merges
        keys, rests = self._after_discard(mask, discard)
        found: dict[int, int] = {}
        for u, key in enumerate(keys):
            if not mask[u]:
                continue
            rest = rests[u]
            for code, tid in ops.adds(u, key):
                m = merges.get((rest, tid))
                if m is None:
                    m = ops.merge(rest, tid)
                found[code] = base - tables[m][idx]
        return {k: found[k] for k in kinds if k in found}

    def draw_distance(self, mask: tuple[bool, ...], t: int) -> int | None:
        """``self.draw_distances(mask, None, (t,)).get(t)``: the distance of the hand plus
        ``t``, or None where the mask forbids ``t``'s unit or ``t`` cannot be added."""
        ops = self.ops
        u, j = ops.unit_of[t]
        if not mask[u]:
            return None
        tid = ops.add(u, self.keys[u])[j]
        if tid < 0:
            return None
        rest = (self._rests.get(mask) or self.rests(mask))[u]
        m = ops._merges.get((rest, tid))
        if m is None:
            m = ops.merge(rest, tid)
        return 3 * self.need + 1 - ops.tables[m][2 * self.need + 1]

    def draws_within(self, mask: tuple[bool, ...], kinds: Sequence[int], limit: int) -> list[int]:
        """The kinds of ``kinds`` (in that order) whose addition leaves a distance of at most
        ``limit``: ``[k for k, d in self.draw_distances(mask, None, kinds).items() if d <= limit]``
        without building the dict."""
        ops = self.ops
        need = self.need
        tables = ops.tables
        idx = 2 * need + 1
        floor = 3 * need + 1 - limit      # distance <= limit  <=>  used >= floor
        merges = ops._merges
        rests = self._rests.get(mask) or self.rests(mask)
        found = set()
        for u, key in enumerate(self.keys):
            if not mask[u]:
                continue
            rest = rests[u]
            for code, tid in ops.adds(u, key):
                m = merges.get((rest, tid))
                if m is None:
                    m = ops.merge(rest, tid)
                if tables[m][idx] >= floor:
                    found.add(code)
        return [k for k in kinds if k in found]

    def plus_drops_at(self, mask: tuple[bool, ...], t: int, dist: int) -> list[int]:
        """The held kinds ``x`` (in the order of :meth:`plus_discard_distances`) such that the
        hand plus ``t`` minus ``x`` is at distance exactly ``dist``: ``[x for x, d in
        self.plus_discard_distances(mask, t).items() if d == dist]`` without building the dict
        (``t`` a kind the mask allows)."""
        ops = self.ops
        ut, jt = ops.unit_of[t]
        merges = ops._merges
        tables = ops.tables
        need = self.need
        idx = 2 * need + 1
        used = 3 * need + 1 - dist
        tkey = self.keys[ut]
        ptid = ops.add(ut, tkey)[jt]
        rests = self.rests_changed(mask, ut, ptid)
        out = []
        for u, key in enumerate(self.keys):
            codes = ops.codes[u]
            if u == ut:
                key = tkey[:jt] + (tkey[jt] + 1,) + tkey[jt + 1:]
            if not mask[u]:
                # a tile outside the mask: the distance of the whole allowed hand plus t
                m = merges.get((rests[ut], ptid))
                if m is None:
                    m = ops.merge(rests[ut], ptid)
                if tables[m][idx] == used:
                    out.extend(codes[j] for j, c in enumerate(key) if c)
                continue
            rest = rests[u]
            for code, tid in ops.drops(u, key):
                m = merges.get((rest, tid))
                if m is None:
                    m = ops.merge(rest, tid)
                if tables[m][idx] == used:
                    out.append(code)
        return out

    def acceptance(self, mask: tuple[bool, ...], discard: int | None, below: int,
                   weights: Sequence[float]) -> float:
        """Σ ``weights[k]`` over the kinds ``k`` the mask allows whose addition (after
        removing ``discard``, if any) leaves a distance below ``below``
        (:meth:`improving_kinds`): the tile-acceptance count of :meth:`draw_distances`."""
        total = 0.0
        for better in self.improving_kinds(mask, discard, below):
            for k in better:
                total += weights[k]
        return total

    def improving_kinds(self, mask: tuple[bool, ...], discard: int | None, below: int) -> list[tuple[int, ...]]:
        """The kinds :meth:`acceptance` counts (those the mask allows whose addition, after
        removing ``discard`` if any, leaves a distance below ``below``), as one tuple per
        allowed unit, in unit order."""
        ops = self.ops
        need = self.need
        idx = 2 * need + 1
        limit = 3 * need + 1 - below
        keys = self.keys
        rests = self._rests.get(mask) or self.rests(mask)
        du = -1
        if discard is not None:
            du, dj = ops.unit_of[discard]
            if mask[du]:
                dkey = keys[du]
                rests = self.rests_changed(mask, du, ops.drop(du, dkey)[dj])
                dkey = dkey[:dj] + (dkey[dj] - 1,) + dkey[dj + 1:]
            else:
                du = -1
        improve = ops._improve
        out = []
        for u, key in enumerate(keys):
            if not mask[u]:
                continue
            if u == du:
                key = dkey
            rest = rests[u]
            better = improve.get((u, key, rest, idx, limit))
            if better is None:
                better = ops.improving(u, key, rest, idx, limit)
            out.append(better)
        return out


# ------------------------------------------------------------------------------------------
# The zero tile (G-UZ-11)
# ------------------------------------------------------------------------------------------

class ZeroOps:
    """How the bots read a *zero tile*: one physical honour kind whose copies may each be read
    as that honour or as rank 0 of a number suit, group by group (uzje.md "Melds and winning hands", G-UZ-11; the shape
    has ``zero_readings`` and a ``logical`` shape whose suits run from rank 0, as
    :class:`mahjong_tui.hand.ZeroShape`).

    ``ops`` is the :class:`ShapeOps` of the logical shape, where each reading is a kind of its
    own (the honour, ``0s``, ``0m``): a hand with its zeros *placed* at readings is an ordinary
    hand there.  :meth:`splits` says which placements a plan's mask needs to look at.
    """

    def __init__(self, shape):
        self.shape = shape
        self.zero: int = shape.zero
        self.ops = ops_for(shape.logical)
        unit_of = self.ops.unit_of
        #: the readings as numbers: ``(rank-0 code, its unit)`` per suit the zero can meld in
        self.suit_readings = tuple((r, unit_of[r][0]) for r in shape.zero_readings if r != self.zero)
        #: every reading code -> the physical zero
        self.physical = {r: self.zero for r in shape.zero_readings}
        self._splits: dict[tuple[int, tuple[bool, ...]], tuple[tuple[tuple[int, int], ...], ...]] = {}
        self._draw_codes: dict[tuple[bool, ...], tuple[int, ...]] = {}

    def splits(self, z: int, mask: tuple[bool, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The placements of ``z`` held zeros worth looking at for a plan allowing the units of
        ``mask``, each as ``((reading code, copies), …)``.  Where the mask allows a number
        reading, every share of the zeros among the allowed number readings: a zero read as the
        honour is never better there, since any group the zeros form as honours (a pung or a
        pair of zeros) they form as rank 0 of a suit too, within the same four copies.
        Elsewhere the zeros stay the honour (outside the mask when honours are not allowed)."""
        key = (z, mask)
        got = self._splits.get(key)
        if got is None:
            allowed = [r for r, u in self.suit_readings if mask[u]]
            if not z:
                got = ((),)
            elif not allowed:
                got = (((self.zero, z),),)
            else:
                got = tuple(tuple((r, n) for r, n in zip(allowed, share) if n)
                            for share in splits_of(z, len(allowed)))
            self._splits[key] = got
        return got

    def draw_codes(self, mask: tuple[bool, ...]) -> tuple[int, ...]:
        """Where a drawn zero may be placed for a plan allowing ``mask``: the allowed number
        readings, else the honour."""
        got = self._draw_codes.get(mask)
        if got is None:
            got = self._draw_codes[mask] = tuple(r for r, u in self.suit_readings if mask[u]) or (self.zero,)
        return got


class ZeroHandTables:
    """:class:`HandTables` of a hand that holds (or has just given up) zeros, read as numbers
    too (G-UZ-11): the same questions, asked of the *physical* hand (counts and tile kinds as
    the table has them: ``Z``, never ``0s``), answered as the best over the placements of the
    zeros at their readings (:meth:`ZeroOps.splits`), each an ordinary hand of the logical
    shape.

    - a distance is the least over the placements;
    - discarding a zero takes it from any reading it is placed at; a drawn zero goes to any
      reading the plan allows, so a tile improves the hand when it improves some placement,
      and the unseen zeros are counted once in an acceptance, however many readings they
      would improve;
    - a plan's mask allows the zero at the readings in its units: rank 0 of suit ``s`` belongs
      to a one-suit plan of ``s``.

    Unlike the engine (``ZeroShape._standard_shanten_zero``), zeros placed at two readings
    may each be completed with added copies as if each reading had four: the distance can
    then be lower than the exact one (``tests/bench/ai_zero.py`` measures how often).
    ``keys``, ``tids`` and ``replaced`` are not offered: fixed-chow plans read the physical
    hand (the zero only an honour).
    """

    __slots__ = ("zops", "ops", "counts", "need", "z", "_base", "_inner")

    def __init__(self, zops: ZeroOps, counts: Sequence[int], declared: int):
        self.zops = zops
        self.ops = zops.ops
        self.counts = list(counts)
        self.need = 4 - declared
        self.z = self.counts[zops.zero]
        base = self.counts[:]
        base[zops.zero] = 0
        self._base = HandTables(zops.ops, base, declared)
        self._inner: dict[tuple[tuple[int, int], ...], HandTables] = {}

    def _ht(self, split: tuple[tuple[int, int], ...]) -> HandTables:
        """The logical hand with the zeros placed as ``split`` says."""
        got = self._inner.get(split)
        if got is None:
            base = self._base
            if not split:
                got = base
            else:
                ops = self.ops
                keys: dict[int, tuple[int, ...]] = {}
                for r, n in split:
                    u, j = ops.unit_of[r]
                    key = keys.get(u, base.keys[u])
                    keys[u] = key[:j] + (key[j] + n,) + key[j + 1:]
                got = base.replaced({u: (key, ops.tid(u, key)) for u, key in keys.items()}, 4 - base.need)
            self._inner[split] = got
        return got

    def _hts(self, mask: tuple[bool, ...]) -> list[HandTables]:
        return [self._ht(s) for s in self.zops.splits(self.z, mask)]

    def _configs(self, mask: tuple[bool, ...], discard: int | None) -> list[tuple[HandTables, int | None]]:
        """``(placement, the logical tile to discard from it)`` covering every placement of the
        zeros left after ``discard`` (a zero leaves from any reading it is placed at)."""
        zops = self.zops
        if discard != zops.zero:
            return [(self._ht(s), discard) for s in zops.splits(self.z, mask)]
        left = set(zops.splits(self.z - 1, mask))
        out = []
        for s in zops.splits(self.z, mask):
            for i, (r, n) in enumerate(s):
                after = s[:i] + (((r, n - 1),) if n > 1 else ()) + s[i + 1:]
                if after in left:
                    left.discard(after)
                    out.append((self._ht(s), r))
        return out

    def distance(self, mask: tuple[bool, ...]) -> int:
        """Standard distance of the hand over the units ``mask`` allows, the zeros read best."""
        return min(ht.distance(mask) for ht in self._hts(mask))

    def discard_distances(self, mask: tuple[bool, ...]) -> dict[int, int]:
        """``{tile: distance after discarding it}`` for every held (physical) kind."""
        phys = self.zops.physical
        out: dict[int, int] = {}
        for ht in self._hts(mask):
            for code, d in ht.discard_distances(mask).items():
                code = phys.get(code, code)
                old = out.get(code)
                if old is None or d < old:
                    out[code] = d
        return out

    def acceptance(self, mask: tuple[bool, ...], discard: int | None, below: int,
                   weights: Sequence[float]) -> float:
        """Σ ``weights[k]`` over the physical kinds ``k`` whose addition (after removing
        ``discard``, if any) leaves a distance below ``below``; the zero counts once."""
        zero = self.zops.zero
        phys = self.zops.physical
        seen: set[int] = set()
        total = 0.0
        zero_hit = False
        for ht, d in self._configs(mask, discard):
            for better in ht.improving_kinds(mask, d, below):
                for k in better:
                    if k in phys:
                        zero_hit = True
                    elif k not in seen:
                        seen.add(k)
                        total += weights[k]
        if zero_hit and self.counts[zero] - (discard == zero) < 4:
            total += weights[zero]
        return total

    def draw_distance(self, mask: tuple[bool, ...], t: int) -> int | None:
        """The distance of the hand plus ``t``, or None where the mask forbids ``t`` or it
        cannot be added."""
        zops = self.zops
        if t == zops.zero:
            if self.counts[t] >= 4:
                return None
            codes = zops.draw_codes(mask)
        else:
            codes = (t,)
        best = None
        for ht in self._hts(mask):
            for c in codes:
                d = ht.draw_distance(mask, c)
                if d is not None and (best is None or d < best):
                    best = d
        return best

    def draws_within(self, mask: tuple[bool, ...], kinds: Sequence[int], limit: int) -> list[int]:
        """The kinds of ``kinds`` (in that order) whose addition leaves a distance of at most
        ``limit``."""
        out = []
        for k in kinds:
            d = self.draw_distance(mask, k)
            if d is not None and d <= limit:
                out.append(k)
        return out

    def plus(self, t: int) -> "ZeroHandTables":
        """This hand with one more tile ``t``."""
        c = self.counts[:]
        c[t] += 1
        return ZeroHandTables(self.zops, c, 4 - self.need)

    def minus(self, t: int, mask: tuple[bool, ...]) -> "ZeroHandTables":
        """This hand with one tile ``t`` less (``mask`` as :meth:`HandTables.minus`)."""
        c = self.counts[:]
        c[t] -= 1
        return ZeroHandTables(self.zops, c, 4 - self.need)

    def plus_drops_at(self, mask: tuple[bool, ...], t: int, dist: int) -> list[int]:
        """The held kinds ``x`` such that the hand plus ``t`` minus ``x`` is at distance
        exactly ``dist``."""
        return [x for x, d in self.plus(t).discard_distances(mask).items() if d == dist]


_OPS: dict[int, ShapeOps] = {}
_ZERO_OPS: dict[int, ZeroOps] = {}


def zero_ops_for(shape: HandShape) -> ZeroOps | None:
    """The shared :class:`ZeroOps` of a shape with a zero tile (``zero_readings`` beyond the
    honour itself, and a ``logical`` shape), else None."""
    if len(getattr(shape, "zero_readings", ())) < 2 or getattr(shape, "logical", None) is None:
        return None
    got = _ZERO_OPS.get(id(shape))
    if got is None or got.shape is not shape:
        got = _ZERO_OPS[id(shape)] = ZeroOps(shape)
    return got


def ops_for(shape: HandShape) -> ShapeOps:
    """The shared :class:`ShapeOps` of a shape (one per shape object)."""
    got = _OPS.get(id(shape))
    if got is None or got.shape is not shape:
        got = _OPS[id(shape)] = ShapeOps(shape)
    return got
