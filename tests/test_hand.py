"""Tests of ``mahjong_tui.hand``: hand-made examples and hypothesis properties.

The comparison with the ``mahjong`` package is in ``test_hand_oracle.py``.  Here a brute-force
reference (every multiset of melds and a pair) checks shanten, completeness and
decompositions on small shapes with unusual meld templates, where no outside oracle exists.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_tui.hand import (
    CHOWS, FORMS, SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, Decomposition, HandShape, MeldTemplate,
)
from mahjong_tui import tiles as T
from mahjong_tui.tiles import NUM_KINDS, counts_of, parse_tile, parse_tiles, tile

from .helpers import brute_force

DEFAULT = HandShape()
QUADS = HandShape(seven_pairs_allow_quads=True)

GEMS = MeldTemplate.fixed("gem", [(1, 2, 4), (2, 4, 8), (4, 8, 16), (1, 3, 9)])
POWERS = MeldTemplate.fixed("power", [(0, 1, 4), (1, 4, 9), (4, 9, 16), (0, 1, 8)])
ARITHS = [MeldTemplate.sequence("arith", d, 0, 16) for d in range(1, 9)]
UZJE = HandShape(templates=[*ARITHS, GEMS, POWERS], ranks=(0, 16),
                 honours=[parse_tile(x) for x in "ZESWNCFP"], seven_pairs_allow_quads=True,
                 orphans=parse_tiles("1ft1fs1fmESWNCFP"))


def c(text: str) -> list[int]:
    """Count array of a tile string."""
    return counts_of(parse_tiles(text))


def codes(text: str) -> list[int]:
    return sorted(parse_tiles(text))


# --------------------------------------------------------------------------------------------
# Meld templates
# --------------------------------------------------------------------------------------------

def test_sequence_template_lists_concrete_rank_sets():
    assert CHOWS.rank_sets == tuple((a, a + 1, a + 2) for a in range(1, 8))
    assert MeldTemplate.sequence("arith", 5, 0, 16).rank_sets == (
        (0, 5, 10), (1, 6, 11), (2, 7, 12), (3, 8, 13), (4, 9, 14), (5, 10, 15), (6, 11, 16))
    assert MeldTemplate.sequence("arith", 8, 0, 16).rank_sets == ((0, 8, 16),)
    assert MeldTemplate.fixed("gem", [(4, 2, 1)]).rank_sets == ((1, 2, 4),)


@pytest.mark.parametrize("sets", [[(1, 2)], [(1, 1, 2)], [(1, 2, 17)], [(-1, 0, 1)]])
def test_template_rejects_bad_rank_sets(sets):
    with pytest.raises(ValueError, match="three distinct ranks"):
        MeldTemplate.fixed("odd", sets)


def test_sequence_rejects_step_zero():
    with pytest.raises(ValueError, match="step"):
        MeldTemplate.sequence("arith", 0, 1, 9)


# --------------------------------------------------------------------------------------------
# Complete hands and decompositions
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, forms", [
    ("123456789m123tEE", [STANDARD]),
    ("111m222t333s444mCC", [STANDARD]),
    ("1199t1199s1199mEE", [SEVEN_PAIRS]),
    ("19t19s19mESWNCFPP", [THIRTEEN_ORPHANS]),
    # 11 223344556677: 7 distinct pairs, and also 123 123 456 456 + 77 etc.
    ("11223344556677m", [STANDARD, SEVEN_PAIRS]),
    ("1112345678999m5m", [STANDARD]),
])
def test_complete_hands(hand, forms):
    assert DEFAULT.is_complete(c(hand))
    assert DEFAULT.complete_forms(c(hand)) == forms
    assert DEFAULT.shanten(c(hand)) == -1


@pytest.mark.parametrize("hand", [
    "123456789m123tEN", "111m222t333s444mCF", "1199t1199s1189mEE", "19t19s19mESWNCFF1m",
    "1111m2233m4455t66s",   # four of a kind is not two pairs by default
])
def test_incomplete_hands(hand):
    assert not DEFAULT.is_complete(c(hand))
    assert DEFAULT.complete_forms(c(hand)) == []
    assert DEFAULT.shanten(c(hand)) >= 0


def test_decompositions_of_an_ambiguous_hand():
    # 111222333m is three pungs or three chows 123m; 456s and the pair 55t are fixed: 2 ways.
    ds = DEFAULT.decompositions(c("111222333m456s55t"))
    assert ds == [
        Decomposition((("chow", tuple(codes("456s"))),) + (("chow", tuple(codes("123m"))),) * 3, tile("t", 5)),
        Decomposition((("chow", tuple(codes("456s"))), ("pung", tuple(codes("111m"))),
                       ("pung", tuple(codes("222m"))), ("pung", tuple(codes("333m")))), tile("t", 5)),
    ]


def test_decompositions_with_the_pair_in_different_places():
    # 11223344556677m: pair 11 (234 234 567 567), pair 44 (123 123 567 567) or pair 77
    # (123 123 456 456); a pair of 2, 3, 5 or 6 leaves a tile no chow can take: 3 ways.
    ds = DEFAULT.decompositions(c("11223344556677m"))
    assert [d.pair for d in ds] == [tile("m", 1), tile("m", 4), tile("m", 7)]
    assert all(len(d.melds) == 4 and all(kind == "chow" for kind, _ in d.melds) for d in ds)


def test_decompositions_nine_gates_plus_five():
    # 1112345678999m + 5m: 111 234 55 678 999 is the only reading (pair 11 or 99 strands a tile).
    (d,) = DEFAULT.decompositions(c("11123455678999m"))
    assert d.pair == tile("m", 5)
    assert [kind for kind, _ in d.melds] == ["chow", "chow", "pung", "pung"]


def test_decompositions_empty_for_special_forms_and_incomplete_hands():
    assert DEFAULT.decompositions(c("1199t1199s1199mEE")) == []
    assert DEFAULT.decompositions(c("19t19s19mESWNCFPP")) == []
    assert DEFAULT.decompositions(c("123456789m123tEN")) == []


def test_declared_melds_shrink_the_concealed_hand():
    assert DEFAULT.is_complete(c("55m"), melds=4)
    assert DEFAULT.decompositions(c("55m"), melds=4) == [Decomposition((), tile("m", 5))]
    assert DEFAULT.is_complete(c("234t55m"), melds=3)
    assert DEFAULT.complete_forms(c("234567m88t"), melds=2) == [STANDARD]
    assert DEFAULT.shanten(c("5m"), melds=4) == 0
    assert DEFAULT.waits(c("5m"), melds=4) == [tile("m", 5)]
    # Seven pairs and thirteen orphans need a fully concealed hand.
    assert DEFAULT.shanten_by_form(c("11224466m"), melds=2) == {STANDARD: 1}


def test_seven_pairs_with_four_of_a_kind():
    hand = c("1111m2233m4455t66s")
    assert not DEFAULT.is_complete(hand)
    assert QUADS.is_complete(hand)
    assert QUADS.complete_forms(hand) == [SEVEN_PAIRS]
    # Without the allowance: 6 kinds, 6 of them pairs -> 6 - 6 + (7 - 6) = 1.
    assert DEFAULT.shanten_by_form(hand)[SEVEN_PAIRS] == 1
    assert QUADS.shanten_by_form(hand)[SEVEN_PAIRS] == -1
    # 13 tiles 111m 2233m 4455t 66s: with quads, the lone fourth 1m is the wait.
    ready = c("111m2233m4455t66s")
    assert QUADS.shanten_by_form(ready)[SEVEN_PAIRS] == 0
    assert tile("m", 1) in QUADS.waits(ready)
    assert tile("m", 1) not in DEFAULT.waits(ready)


def test_thirteen_orphans():
    thirteen = c("19t19s19mESWNCFP")
    assert DEFAULT.shanten(thirteen) == 0
    assert DEFAULT.waits(thirteen) == sorted(parse_tiles("19t19s19mESWNCFP"))
    one_short = c("19t19s19mESWNCCF")   # P missing, C paired: waits on P only
    assert DEFAULT.shanten_by_form(one_short)[THIRTEEN_ORPHANS] == 0
    assert DEFAULT.waits(one_short) == [parse_tile("P")]


def test_uzje_orphans_with_repeated_kinds():
    # Compressed winds: E W -> H H and N S -> V V (uzje.md "Melds and winning hands").
    shape = HandShape(templates=ARITHS, ranks=(0, 16), honours=[parse_tile(x) for x in "HVCFP"],
                      orphans=parse_tiles("1ft1fs1fmHHVVCFP"))
    assert shape.is_complete(c("1ft1fs1fmHHVVCFPP"))
    assert shape.is_complete(c("1ft1fs1fmHHHVVCFP"))
    assert not shape.is_complete(c("1ft1fs1fmHVVVCFPP"))
    assert shape.waits(c("1ft1fs1fmHVVCFPP")) == [parse_tile("H")]


# --------------------------------------------------------------------------------------------
# Waits and shanten examples
# --------------------------------------------------------------------------------------------

def test_nine_gates_waits_on_every_rank():
    assert DEFAULT.waits(c("1112345678999m")) == [tile("m", r) for r in range(1, 10)]


@pytest.mark.parametrize("hand, shanten, waits", [
    ("123456789m1235t", 0, "5t"),                # 123t + single 5t
    ("123m456s789tEEEN", 0, "N"),
    ("123m456s789tEENN", 0, "EN"),               # two pairs: either becomes a pung
    ("2345678m123tEEE", 0, "258m"),              # 2|345|678, 234|5|678, 234|567|8
    ("123m456s789t1399t", 0, "2t"),              # 13t closed wait, 99t pair
    # EEEE + three chows waits only on a fifth E: no waits, shanten 1 (the 4-copy limit).
    ("EEEE123m456m789m", 1, ""),
    # 123 456m, 7-9m partial, six single terminals: 8 - 2*2 - 1 = 3.
    ("19m19t19s1234567m", 3, None),
])
def test_shanten_and_waits_examples(hand, shanten, waits):
    assert DEFAULT.shanten(c(hand)) == shanten
    if waits is not None:
        assert DEFAULT.waits(c(hand)) == sorted(parse_tiles(waits))


def test_shanten_of_fourteen_tiles():
    assert DEFAULT.shanten(c("123456789m1235tN")) == 0
    # 14 kinds, no two within reach of a chow: standard 8; seven pairs 6 - 0 + 0 = 6;
    # orphans 1m 9s E S W N C present, 6 missing, no duplicate: 6.
    assert DEFAULT.shanten_by_form(c("147m258t369sESWNC")) == {STANDARD: 8, SEVEN_PAIRS: 6, THIRTEEN_ORPHANS: 6}
    assert DEFAULT.shanten(c("147m258t369sESWNC")) == 6


def test_sixteen_ranks_and_uzje_melds():
    # gem 124s + arith 369s (d=3), or gem 139s + arith 246s (d=2); power 014m, arith 5xe m
    # (5, 10, 15: d=5) and the pair EE: 2 decompositions.
    hand = c("124369s014m5xemEE")
    assert UZJE.is_complete(hand)
    ds = UZJE.decompositions(hand)
    assert len(ds) == 2
    assert {tuple(tiles) for d in ds for kind, tiles in d.melds if kind == "gem"} == {
        tuple(codes("124s")), tuple(codes("139s"))}
    for d in ds:
        assert sorted(kind for kind, _ in d.melds) == ["arith", "arith", "gem", "power"]
        assert d.pair == parse_tile("E")
    # Tongs 10 (x) and 12 (b), the rest complete: arith 8-10-12, 10-11-12, 10-12-14 -> 8t at dt.
    ready = c("xbt124369s014mEE")
    assert UZJE.shanten(ready) == 0
    assert UZJE.waits(ready) == [tile("t", 8), tile("t", 11), tile("t", 14)]
    assert UZJE.tile_kinds() == sorted([tile(s, r) for s in "tsm" for r in range(17)] + parse_tiles("ZESWNCFP"))


def test_gem_only_waits():
    gems = HandShape(templates=[GEMS], ranks=(1, 16), forms=[STANDARD])
    # 2 and 4 of tongs: gems {1,2,4} and {2,4,8} -> 1t or 8t.
    assert gems.waits(c("24t111s222sfffmEE")) == [tile("t", 1), tile("t", 8)]
    # No chows in this shape: 123s is not a meld.
    assert not gems.is_complete(c("123s111t222t333tEE"))


def test_zero_rank():
    powers = HandShape(templates=[ARITHS[0], POWERS], ranks=(0, 16), forms=[STANDARD])
    # 0s and 1s: arith 012, power 014 and power 018 -> 2s 4s 8s.
    assert powers.waits(c("01s111t222t333tEE")) == [tile("s", 2), tile("s", 4), tile("s", 8)]
    assert powers.is_complete(c("014s111t222t333tEE"))
    assert powers.is_complete(c("012s111t222t333tEE"))
    assert tile("s", 0) not in DEFAULT.tile_kinds()


def test_tile_set_never_adds_missing_kinds():
    # Abbreviated tongs: only 1t and ft exist, so 12t can never become a chow.
    kinds = [tile("t", 1), tile("t", 16)] + [tile(s, r) for s in "sm" for r in range(1, 17)] + parse_tiles("ESWNCFP")
    shape = HandShape(templates=[MeldTemplate.sequence("arith", 1, 1, 16)], ranks=(1, 16), tile_set=kinds)
    assert shape.waits(c("1t123s456s789sEEE")) == [tile("t", 1)]
    assert tile("t", 2) not in shape.tile_kinds()
    with pytest.raises(ValueError, match="2t is not in this hand shape's tile set"):
        shape.shanten(c("12t123s456s789sEE"))


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, hand, melds, message", [
    ("is_complete", "123456789m123tE", 0, "expected 14 concealed tiles"),
    ("shanten", "123456789m123t", 0, "expected 13 or 14 concealed tiles"),
    ("waits", "123456789m123tEE", 0, "expected 13 concealed tiles"),
    ("decompositions", "123456789m1t", 1, "expected 11 concealed tiles with 1 declared"),
    ("shanten", "55m", 5, "declared melds must be 0..4"),
    ("shanten", "11111m2345678m9m", 0, "5 copies of 1m"),
    ("is_complete", "EEEEE123m456m789m", 0, "5 copies of E"),
])
def test_impossible_hands_raise(call, hand, melds, message):
    with pytest.raises(ValueError, match=message):
        getattr(DEFAULT, call)(c(hand), melds)


def test_constructor_errors():
    with pytest.raises(ValueError, match="unknown win form"):
        HandShape(forms=["standard", "nine_gates"])
    with pytest.raises(ValueError, match="rank range"):
        HandShape(ranks=(1, 17))
    with pytest.raises(ValueError, match="not in the hand shape"):
        HandShape(tile_set=[parse_tile("Z")])
    with pytest.raises(ValueError, match="orphans"):
        HandShape(orphans=parse_tiles("1ft1fs1fmESWNCFP"))


# --------------------------------------------------------------------------------------------
# Properties on the standard 136-tile set
# --------------------------------------------------------------------------------------------

STANDARD_KINDS = DEFAULT.tile_kinds()


def hands(size: int):
    """Hypothesis strategy: count arrays of ``size`` tiles from the 136 set (≤ 4 of a kind)."""
    wall = [k for k in STANDARD_KINDS for _ in range(4)]
    return st.lists(st.integers(0, len(wall) - 1), min_size=size, max_size=size, unique=True).map(
        lambda idx: counts_of(wall[i] for i in idx))


def complete_hands():
    """Hypothesis strategy: random standard-form complete hands (4 melds + pair, ≤ 4 of a kind)."""
    melds = ([("pung", (k, k, k)) for k in STANDARD_KINDS]
             + [("chow", (s * 17 + r, s * 17 + r + 1, s * 17 + r + 2)) for s in range(3) for r in range(1, 8)])

    def build(choice):
        picked, pair = choice
        counts = [0] * NUM_KINDS
        for _, tiles in picked:
            for t in tiles:
                counts[t] += 1
        counts[pair] += 2
        return counts

    return st.tuples(st.lists(st.sampled_from(melds), min_size=4, max_size=4),
                     st.sampled_from(STANDARD_KINDS)).map(build).filter(lambda cs: max(cs) <= 4)


@settings(max_examples=300, deadline=None)
@given(hands(14))
def test_complete_iff_shanten_minus_one(counts):
    assert DEFAULT.is_complete(counts) == (DEFAULT.shanten(counts) == -1)
    assert DEFAULT.is_complete(counts) == bool(DEFAULT.complete_forms(counts))
    assert bool(DEFAULT.decompositions(counts)) == (STANDARD in DEFAULT.complete_forms(counts))


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_built_complete_hands_are_complete(counts):
    assert DEFAULT.is_complete(counts)
    assert DEFAULT.shanten_by_form(counts)[STANDARD] == -1
    ds = DEFAULT.decompositions(counts)
    assert ds and len(set(ds)) == len(ds)
    for d in ds:   # every decomposition uses exactly the hand's tiles
        used = [d.pair, d.pair] + [t for _, tiles in d.melds for t in tiles]
        assert counts_of(used) == list(counts)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands(13), complete_hands().map(lambda cs: _drop_one(cs))))
def test_waits_are_exactly_the_completing_tiles(counts):
    waits = DEFAULT.waits(counts)
    assert bool(waits) == (DEFAULT.shanten(counts) == 0)
    for k in STANDARD_KINDS:
        if counts[k] < 4:
            plus = list(counts)
            plus[k] += 1
            assert DEFAULT.is_complete(plus) == (k in waits)
        else:
            assert k not in waits


def _drop_one(counts):
    out = list(counts)
    out[next(k for k, n in enumerate(out) if n)] -= 1
    return out


@settings(max_examples=200, deadline=None)
@given(hands(14))
def test_shanten_after_discards_matches_shanten(counts):
    got = DEFAULT.shanten_after_discards(counts)
    got_quads = QUADS.shanten_after_discards(counts)
    assert sorted(got) == sorted(got_quads) == [k for k in STANDARD_KINDS if counts[k]]
    for k, s in got.items():
        smaller = list(counts)
        smaller[k] -= 1
        assert s == DEFAULT.shanten(smaller)
        assert got_quads[k] == QUADS.shanten(smaller)


SPECIAL_ONLY = HandShape(forms=("seven_pairs", "thirteen_orphans"))
NO_ORPHANS = HandShape(forms=("standard", "seven_pairs"))


def _pairs_or_orphans_hand(rng: random.Random, melds: int) -> list[int]:
    """A hand of ``3 * (4 - melds) + 2`` tiles near seven pairs or thirteen orphans (where the
    special forms decide the shanten), or random."""
    size = 3 * (4 - melds) + 2
    style = rng.choice(["pairs", "orphans", "random"])
    if style == "pairs":
        kinds = rng.sample(STANDARD_KINDS, 9)
        pool = [k for k in kinds for _ in range(rng.choice((1, 2, 2, 3, 4)))]
    elif style == "orphans":
        pool = [k for k in DEFAULT.tile_kinds() if T.is_honour(k) or T.rank_of(k) in (1, 9)] * 2
    else:
        pool = [k for k in STANDARD_KINDS for _ in range(4)]
    while len(pool) < size:
        pool.append(rng.choice(STANDARD_KINDS))
    counts = [0] * T.NUM_KINDS
    for k in rng.sample(pool, size):
        if counts[k] < 4:
            counts[k] += 1
    while sum(counts) < size:  # fill up where a kind ran out of copies
        k = rng.choice(STANDARD_KINDS)
        if counts[k] < 4:
            counts[k] += 1
    return counts


@pytest.mark.parametrize("shape", [DEFAULT, QUADS, SPECIAL_ONLY, NO_ORPHANS],
                         ids=["default", "quads", "special-only", "no-orphans"])
def test_shanten_after_discards_matches_shanten_near_special_forms(shape):
    """Hands near seven pairs and thirteen orphans (and with declared melds, where those forms
    are out): every discard's shanten equals that of the smaller hand, in every mix of forms."""
    rng = random.Random(5)
    for _ in range(1500):
        melds = rng.choice((0, 0, 0, 1, 2))
        counts = _pairs_or_orphans_hand(rng, melds)
        got = shape.shanten_after_discards(counts, melds)
        assert sorted(got) == [k for k in STANDARD_KINDS if counts[k]]
        for k, s in got.items():
            smaller = list(counts)
            smaller[k] -= 1
            if shape is SPECIAL_ONLY and melds:
                assert s == 99  # the special forms need a concealed hand
            else:
                assert s == shape.shanten(smaller, melds), (T.format_counts(counts), T.name(k))


@settings(max_examples=200, deadline=None)
@given(hands(13), st.sampled_from(STANDARD_KINDS))
def test_drawing_a_tile_changes_shanten_by_at_most_one(counts, k):
    if counts[k] == 4:
        return
    plus = list(counts)
    plus[k] += 1
    assert DEFAULT.shanten(counts) - 1 <= DEFAULT.shanten(plus) <= DEFAULT.shanten(counts)


# --------------------------------------------------------------------------------------------
# Brute-force reference on small shapes with arbitrary templates
# --------------------------------------------------------------------------------------------

SMALL_SHAPES = [
    # Only the gem 124 (the 4-copy limit bites with three copies: 1112244).
    HandShape(templates=[MeldTemplate.fixed("gem", [(1, 2, 4)])], suits=[0], ranks=(1, 5),
              honours=[parse_tile("E")], forms=[STANDARD]),
    # Chows and step-2 ariths over a zero rank.
    HandShape(templates=[MeldTemplate.sequence("chow", 1, 0, 5), MeldTemplate.sequence("arith", 2, 0, 5)],
              suits=[1], ranks=(0, 5), honours=[parse_tile("C")], forms=[STANDARD]),
    # Powers and gems in two short suits, one rank missing from the tile set.
    HandShape(templates=[MeldTemplate.fixed("power", [(0, 1, 4)]), MeldTemplate.fixed("gem", [(1, 2, 4)])],
              suits=[0, 2], ranks=(0, 4), honours=[], forms=[STANDARD],
              tile_set=[0, 1, 2, 3, 4, 34, 35, 36, 38]),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_small_shapes_match_brute_force(data):
    shape = data.draw(st.sampled_from(SMALL_SHAPES))
    melds = data.draw(st.integers(1, 4))
    size = 3 * (4 - melds) + data.draw(st.sampled_from([1, 2]))
    wall = [k for k in shape.tile_kinds() for _ in range(4)]
    picked = data.draw(st.lists(st.integers(0, len(wall) - 1), min_size=size, max_size=size, unique=True))
    counts = counts_of(wall[i] for i in picked)
    shanten, exact = brute_force_cached(shape, tuple(counts), melds)
    assert shape.shanten(counts, melds) == shanten
    if size % 3 == 2:
        assert shape.is_complete(counts, melds) == (shanten == -1)
        assert set(shape.decompositions(counts, melds)) == exact
    else:
        for k in shape.tile_kinds():
            if counts[k] < 4:
                plus = list(counts)
                plus[k] += 1
                assert (k in shape.waits(counts, melds)) == (brute_force_cached(shape, tuple(plus), melds)[0] == -1)


@lru_cache(maxsize=None)
def brute_force_cached(shape, counts, melds):
    return brute_force(shape, counts, melds)


def test_four_copy_limit_with_a_gem_only_shape():
    # 2222333t, two melds declared, only the gem 124.  222 + 333 + a pair of the last 2t would
    # be ready, but that pair needs a fifth 2t.  Legal best: 222 + 333 and a pair of added
    # tiles, 6 of the 8 tiles used, so 2*3 + 2 - 6 = 2 tiles to add: shanten 1.
    shape = SMALL_SHAPES[0]
    counts = c("2222333t")
    assert shape.shanten(counts, 2) == brute_force(shape, counts, 2)[0] == 1


def test_forms_constant():
    assert FORMS == (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, "fourteen_orphans", "ultra_long_straight")


# --------------------------------------------------------------------------------------------
# Shipped unit tables (mahjong_tui.hand_tables)
# --------------------------------------------------------------------------------------------

def test_shipped_tables_match_the_solver():
    """The shipped tables of the 1–9 chow suit equal the search's on every key of up to six
    tiles and on 20,000 random keys of up to fourteen, and the exact-split status read from
    them equals the one found by splitting."""
    from itertools import product

    from mahjong_tui import hand_tables

    unit = HandShape()._units[0][2]
    shipped = hand_tables.tables_for(unit)
    assert shipped is not None, f"no shipped tables at {hand_tables.path()}"
    rng = random.Random(3)
    keys = [k for k in product(range(5), repeat=9) if sum(k) <= 6]
    while len(keys) < 40_000:
        k = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(k) <= 14:
            keys.append(k)
    plain = HandShape()._units[0][2]
    plain._shipped = None  # this unit solves every key itself
    for k in keys:
        assert unit.table(k) == plain.table(k), k
        assert unit.complete_status(k) == plain.complete_status(k), k
    assert unit.table((4, 4, 4, 3, 0, 0, 0, 0, 0)) == plain.table((4, 4, 4, 3, 0, 0, 0, 0, 0))  # 15 tiles: solved


def test_other_layouts_and_a_missing_or_broken_file_fall_back_to_the_solver(tmp_path, monkeypatch):
    """Only the layout the file was built for uses it (not Uzje's 0–16 suit with its extra
    melds); with no file, or a corrupt one, every layout is solved as before."""
    from mahjong_tui import hand_tables

    assert hand_tables.tables_for(UZJE._units[0][2]) is None
    import lzma

    broken = tmp_path / "chow9.xz"
    broken.write_bytes(b"not lzma")
    garbled = tmp_path / "garbled.xz"
    garbled.write_bytes(lzma.compress(b"not json\n" + bytes(5 ** 9)))
    for where in (tmp_path / "missing.xz", broken, garbled):
        monkeypatch.setattr(hand_tables, "path", lambda where=where: where)
        monkeypatch.setattr(hand_tables, "_loaded", {})
        shape = HandShape()
        assert hand_tables.tables_for(shape._units[0][2]) is None
        assert shape.shanten(counts_of(parse_tiles("123456789m123t55s"))) == -1
        scattered = counts_of(parse_tiles("13579m2468tESWN"))
        assert shape.shanten(scattered) == DEFAULT.shanten(scattered)
