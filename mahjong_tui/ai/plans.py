"""Plans: the hand shapes a bot can steer toward, derived from the variant's data.

A *plan* is a restriction on the finished hand that a scoring pattern needs — "one number suit
and honours" for a mixed suit, "pungs only" for all triplets, "123 456 789 of one suit" for a
pure straight — plus the unrestricted plan ``free``.  Which plans exist for a variant is read
from its files, never from its name: the scoring library says which plan families the
variant's valued patterns call for, by detector and parameters
(:func:`mahjong_tui.scoring.patterns.plan_families`: a flush with honours is ``suit_honours``
whatever the pattern is called), and each allowed win form adds its own (:data:`FORM_PLANS`);
a new variant needs nothing here.

What a plan is *worth* is not written anywhere here: :mod:`mahjong_tui.ai.value` asks the
variant's own scorer about a typical finished hand of the plan (so minimums such as Yangzhou's
15 fan, Yuxi's self-draw-only basic win or Classic's chow rule decide whether a plan can win at
all).  How *far* a hand is from a plan is :meth:`Plan.distance` below: the number of tiles
still to replace, minus one — shanten restricted to the plan.

Plan kinds:

- ``mask``: only some units (number suits / honours) may be used; distance = standard
  distance over the allowed units (:class:`~mahjong_tui.ai.shapeops.HandTables`);
- ``triplets``: pungs and a pair only, within allowed kinds (closed formula on counts);
- ``pairs``: seven pairs (variant's own ``HandShape`` rule for four identical tiles);
- ``orphans``: thirteen orphans;
- ``fixed``: given chows (pure straight, same sequence in three suits) plus anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T
from ..scoring.patterns import plan_families
from .shapeops import zero_ops_for

#: win form → plan family (the patterns' families come from the scoring library).
FORM_PLANS: dict[str, tuple[str, ...]] = {"seven_pairs": ("pairs",), "thirteen_orphans": ("orphans",)}


@dataclass(frozen=True)
class Plan:
    """One steering target.

    - ``name``: e.g. ``"free"``, ``"suit_honours:s"``, ``"straight:m"``;
    - ``kind``: ``mask`` / ``triplets`` / ``pairs`` / ``orphans`` / ``fixed``;
    - ``kinds``: tile kinds the finished hand may hold (all kinds for ``free``/``fixed``);
    - ``mask``: per hand-shape unit, may the plan use it (``mask`` and ``fixed`` kinds);
    - ``fixed``: the chows the plan needs (tile codes), for ``fixed``;
    - ``needs_honour`` / ``needs_suit``: the finished hand must hold an honour / a number tile.
    """

    name: str
    kind: str
    kinds: frozenset[int]
    mask: tuple[bool, ...] = ()
    fixed: tuple[tuple[int, int, int], ...] = ()
    needs_honour: bool = False
    needs_suit: bool = False
    suit: int = -1

    def allows_meld(self, tiles: tuple[int, ...], is_triplet: bool) -> bool:
        """Can a declared meld of ``tiles`` be part of a finished hand of this plan?"""
        if any(t not in self.kinds for t in tiles):
            return False
        if self.kind in ("triplets",) and not is_triplet:
            return False
        if self.kind in ("pairs", "orphans"):
            return False
        return True

    def feasible(self, melds) -> bool:
        """Whether the declared ``melds`` (Meld objects) leave this plan open."""
        if self.kind in ("pairs", "orphans"):
            return not melds
        if self.kind == "fixed":
            # every needed chow must still be makeable: at most one declared meld outside them
            needed = set(self.fixed)
            outside = 0
            for m in melds:
                tt = tuple(sorted(m.tiles[:3]))
                if tt in needed:
                    needed.discard(tt)
                else:
                    outside += 1
            return outside <= 4 - len(self.fixed)
        return all(self.allows_meld(m.tiles, m.kind != "chow") for m in melds)


def plans_for(variant, ops) -> list[Plan]:
    """Every plan the variant's pattern ids and forms call for, ``free`` first (sorted by
    name after it, so iteration order never depends on hashing)."""
    families: set[str] = set(plan_families(variant))
    for form in variant.win["forms"]:
        families.update(FORM_PLANS.get(form, ()))
    kinds = frozenset(variant.kinds)
    honours = frozenset(k for k in kinds if T.is_honour(k))
    unit_kinds = [frozenset(codes) for codes in ops.codes]
    suits = sorted({T.suit_of(k) for k in kinds if T.is_suited(k)})
    lo, hi = variant.tiles_rules["ranks"]
    letters = T.SUIT_LETTERS

    def mask_of(allowed: frozenset[int]) -> tuple[bool, ...]:
        return tuple(bool(uk & allowed) for uk in unit_kinds)

    # a zero tile read as rank 0 of a suit (G-UZ-11) belongs to that suit's plans: their kinds
    # hold it (a declared meld with it leaves them open); the masks keep the suit's own units,
    # where the bots' zero-aware tables place it (shapeops.ZeroHandTables)
    zops = zero_ops_for(ops.shape)
    zero = zops.zero if zops is not None else None
    zero_suits = {T.suit_of(r) for r, _ in zops.suit_readings} if zops is not None else set()

    out = [Plan("free", "mask", kinds, mask_of(kinds))]
    extra: list[Plan] = []
    for s in suits:
        sk = frozenset(k for k in kinds if T.suit_of(k) == s)
        sz = sk | {zero} if s in zero_suits else sk
        if "suit_honours" in families and honours:
            extra.append(Plan(f"suit_honours:{letters[s]}", "mask", sk | honours, mask_of(sk | honours),
                              needs_honour=True, needs_suit=True, suit=s))
        if "suit" in families:
            extra.append(Plan(f"suit:{letters[s]}", "mask", sz, mask_of(sk), needs_suit=True, suit=s))
        if "suit_triplets" in families:
            extra.append(Plan(f"suit_triplets:{letters[s]}", "triplets", sz, mask_of(sk), suit=s))
        if "straight" in families and hi - lo + 1 == 9:
            base = s * T.SUIT_SIZE
            fixed = tuple((base + r, base + r + 1, base + r + 2) for r in (lo, lo + 3, lo + 6))
            extra.append(Plan(f"straight:{letters[s]}", "fixed", kinds, mask_of(kinds), fixed=fixed, suit=s))
    if "same_sequence" in families and len(suits) >= 3:
        for r in range(lo, hi - 1):
            fixed = tuple((s * T.SUIT_SIZE + r, s * T.SUIT_SIZE + r + 1, s * T.SUIT_SIZE + r + 2) for s in suits[:3])
            extra.append(Plan(f"same_sequence:{r}", "fixed", kinds, mask_of(kinds), fixed=fixed))
    if "honours" in families and honours:
        extra.append(Plan("honours", "mask", honours, mask_of(honours), needs_honour=True))
    if "triplets" in families:
        extra.append(Plan("triplets", "triplets", kinds, mask_of(kinds)))
    if "pairs" in families and "seven_pairs" in variant.win["forms"]:
        extra.append(Plan("pairs", "pairs", kinds, mask_of(kinds)))
    if "orphans" in families and "thirteen_orphans" in variant.win["forms"]:
        extra.append(Plan("orphans", "orphans", kinds, mask_of(kinds)))
    out.extend(sorted(extra, key=lambda p: p.name))
    return out


# ------------------------------------------------------------------------------------------
# distances that are closed formulas
# ------------------------------------------------------------------------------------------

def histogram(counts, kinds) -> list[int]:
    """``h[c]`` = how many of ``kinds`` are held exactly ``c`` times (c = 0..4)."""
    h = [0, 0, 0, 0, 0]
    for k in kinds:
        h[counts[k]] += 1
    return h


def triplets_from_hist(h, need: int) -> int:
    """Distance to ``need`` pungs + one pair using only the kinds of histogram ``h`` (tiles
    of other kinds must be replaced).  Each kind gives at most one group: ``min(c, 3)`` as a
    pung or ``min(c, 2)`` as the pair."""
    n3, n2, n1 = h[3] + h[4], h[2], h[1]
    best = 0
    for pair_cls, pair_val in ((3, 2), (2, 2), (1, 1), (0, 0)):
        a3, a2, a1 = n3, n2, n1
        if pair_cls == 3:
            if not a3:
                continue
            a3 -= 1
        elif pair_cls == 2:
            if not a2:
                continue
            a2 -= 1
        elif pair_cls == 1:
            if not a1:
                continue
            a1 -= 1
        m = need
        used = pair_val
        take = a3 if a3 < m else m
        used += 3 * take
        m -= take
        take = a2 if a2 < m else m
        used += 2 * take
        m -= take
        used += a1 if a1 < m else m
        if used > best:
            best = used
    return 3 * need + 1 - best


def pairs_from_hist(h, allow_quads: bool) -> int:
    """Seven-pairs shanten (the formula of ``HandShape._special_shanten``) for 13/14 tiles."""
    ones, twos, threes, fours = h[1], h[2], h[3], h[4]
    if allow_quads:
        pairs, singles = twos + threes + 2 * fours, ones + threes
    else:
        pairs, singles = twos + threes + fours, ones
    return 6 - pairs + max(0, 7 - pairs - singles)


def triplets_distance(counts, kinds, need: int) -> int:
    return triplets_from_hist(histogram(counts, kinds), need)


def pairs_distance(counts, kinds, allow_quads: bool) -> int:
    return pairs_from_hist(histogram(counts, kinds), allow_quads)


def orphans_distance(counts, orphan_kinds) -> int:
    """Thirteen-orphans shanten: kinds missing, minus one if any is held twice or more."""
    missing = 0
    extra = 0
    for k in orphan_kinds:
        c = counts[k]
        if c == 0:
            missing += 1
        elif c >= 2:
            extra = 1
    return 13 - (len(orphan_kinds) - missing) - extra


__all__ = ["Plan", "FORM_PLANS", "plans_for", "histogram", "triplets_from_hist", "pairs_from_hist",
           "triplets_distance", "pairs_distance", "orphans_distance"]
