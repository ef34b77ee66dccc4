"""Ùzje hand shapes (seed 002, uzje.md "Melds and winning hands", G-UZ-11, G-UZ-13): ariths of every step, gems,
powers, the zero read as an honour or as rank 0 of a suit, and the special forms — in
decomposition, the win check, shanten and waits, against hand-made examples and a brute-force
oracle on small shapes."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_tui import tiles as T
from mahjong_tui.hand import STANDARD, Decomposition, MeldTemplate, ZeroShape
from mahjong_tui.tiles import NUM_KINDS, ZERO, counts_of, parse_tile, parse_tiles, tile
from mahjong_tui.variant import load_variant

from .helpers import brute_force

UZ = load_variant("uzje")
SHAPE = UZ.hand_shape


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def names(codes) -> list[str]:
    return [T.name(t) for t in codes]


def melds_of(d: Decomposition) -> list[tuple[str, str]]:
    return [(kind, T.format_tiles(ts)) for kind, ts in d.melds]


# --------------------------------------------------------------------------------------------
# The variant's meld templates
# --------------------------------------------------------------------------------------------

def test_templates_are_ariths_of_every_step_gems_and_powers():
    by_kind: dict[str, set] = {}
    for tpl in UZ.meld_templates:
        by_kind.setdefault(tpl.kind, set()).update(tpl.rank_sets)
    ariths = {(a, a + d, a + 2 * d) for d in range(1, 9) for a in range(0, 17 - 2 * d)}
    assert by_kind["arith"] == ariths and len(ariths) == 64          # 15 + 13 + ... + 1
    assert by_kind["gem"] == {(1, 2, 4), (2, 4, 8), (4, 8, 16), (1, 3, 9)}
    assert by_kind["power"] == {(0, 1, 4), (1, 4, 9), (4, 9, 16), (0, 1, 8)}
    assert all(0 not in rs for rs in by_kind["gem"])                  # zero is never in a gem


def _only(hand: str) -> list[list[tuple[str, str]]]:
    return [sorted(melds_of(d)) for d in SHAPE.decompositions(c(hand))]


def test_arith_steps_in_decomposition():
    # d = 1 (1 2 3), d = 5 (5 10 15), d = 2 (2 4 6) and d = 8 (0 8 16 of mans: the zero, held
    # as Z, read as rank 0); the only reading
    d = SHAPE.decompositions(c("123s5xes246m8fmZEE"))
    assert [sorted(melds_of(x)) for x in d] == [sorted([
        ("arith", "123s"), ("arith", "5xes"), ("arith", "246m"), ("arith", "08fm")])]
    assert d[0].pair == parse_tile("E")


def test_gems_and_powers_in_decomposition():
    ds = _only("124s248m139mxcfsCC")
    assert sorted([("arith", "xcfs"), ("gem", "124s"), ("gem", "248m"), ("gem", "139m")]) in ds
    # powers 1 4 9 and 4 9 16; 0 1 4 with the zero
    ds = SHAPE.decompositions(c("149s49fs14mZ123mPP"))
    assert sorted([("arith", "123m"), ("power", "014m"), ("power", "149s"), ("power", "49fs")]) in \
        [sorted(melds_of(d)) for d in ds]


def test_zero_read_either_way_chosen_per_group():
    # ZZZ as a pung of the honour, or the three zeros in 012s 036s 048s: both decompositions
    ds = [sorted(melds_of(d)) for d in SHAPE.decompositions(c("ZZZ123s456s789s11s"))]
    assert sorted([("pung", "ZZZ"), ("arith", "123s"), ("arith", "456s"), ("arith", "789s")]) in ds
    assert any(("arith", "012s") in d for d in ds)
    # one zero a number (0 1 2 of socks), one the honour pair: chosen group by group
    ds = SHAPE.decompositions(c("12s456s789s111mZZZ"))
    assert any(d.pair == ZERO and ("arith", "012s") in melds_of(d) for d in ds)
    # a zero-only group is reported as the honour (its reading is the scorer's choice)
    assert all(ts == (ZERO,) * 3 or ZERO not in ts for d in ds for _, ts in d.melds)


def test_zero_in_two_suits_at_once():
    hand = c("12s12m456s789sZZEE")   # 012s and 012m, EE
    assert SHAPE.is_complete(hand)
    assert sorted([("arith", "012s"), ("arith", "012m"), ("arith", "456s"), ("arith", "789s")]) in \
        [sorted(melds_of(d)) for d in SHAPE.decompositions(hand)]


def test_abbreviated_tongs_have_no_zero_reading():
    assert SHAPE.zero_readings == (ZERO, tile("s", 0), tile("m", 0))
    assert UZ.with_options({"all_tongs": True}).hand_shape.zero_readings == (ZERO, tile("t", 0), tile("s", 0), tile("m", 0))


# --------------------------------------------------------------------------------------------
# Waits and shanten with the new melds
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, waits", [
    # 7 and 14 of socks with 456 789: 0 7 14 (d 7: the zero); or rearranged round 4 9 14
    # (d 5): +3s: 357 678; +6s: 567 678; +9s: 579 678 (and every wait checked below)
    ("7ds456s789s111mEE", "369sZ"),
    # tongs hold 1 and 16 only: 11t can only become a pung, EE too
    ("11t456s789s111mEE", "1tE"),
    # 2 and 8 of mans: 2 4 8 (gem), 2 5 8 (d 3), 2 8 14 (d 6)
    ("28m456s789s111sEE", "45dm"),
])
def test_waits_with_the_new_melds(hand, waits):
    got = SHAPE.waits(c(hand))
    assert names(got) == names(sorted(parse_tiles(waits)))
    assert SHAPE.shanten(c(hand)) == 0
    for k in UZ.kinds:   # a wait is exactly a tile that completes the hand
        plus = c(hand)
        if plus[k] < 4:
            plus[k] += 1
            assert SHAPE.is_complete(plus) == (k in got), T.name(k)


def test_waits_of_one_two_include_the_zero_and_the_gem():
    got = set(names(SHAPE.waits(c("12s456s789sEEECC"))))
    assert {"Z", "3s", "4s"} <= got   # 0 1 2 (the zero), 1 2 3, gem 1 2 4


@pytest.mark.parametrize("hand, shanten", [
    # 7 14 and 1 2 3 in both suits: each suit wants a zero for 0 7 14 (else only 4 of its 5
    # tiles fit two melds), so the zeros to add are shared between the suits
    ("7ds123s7dm123mEEP", 1),    # two zeros to draw: 0 7 14 twice, EE, P spare
    ("7ds123s7dm123mZZP", 0),    # the two zeros held go one to each suit; waits on P
    ("7ds123s7dm123mZZZ", 0),    # ... and the third is the pair's first tile
])
def test_zero_copies_shared_by_two_suits(hand, shanten):
    assert SHAPE.shanten_by_form(c(hand))["standard"] == brute_force_uzje(c(hand)) == shanten


def test_zero_wait_needs_a_zero_left():
    # four zeros held: the fifth does not exist, so 0 7 14 cannot be waited on
    hand = c("7ds456s789sZZZZE")
    assert "Z" not in names(SHAPE.waits(hand))


# --------------------------------------------------------------------------------------------
# Special forms
# --------------------------------------------------------------------------------------------

def test_seven_pairs_with_four_identical_tiles():
    assert SHAPE.complete_forms(c("1111s22s33m44mZZEE")) == ["seven_pairs"]
    assert SHAPE.shanten_by_form(c("1111s22s33m44mZZE"))["seven_pairs"] == 0
    assert "E" in names(SHAPE.waits(c("1111s22s33m44mZZE")))


def test_thirteen_and_fourteen_orphans():
    assert SHAPE.complete_forms(c("1ft1fs1fmESWNCFPP")) == ["thirteen_orphans"]
    assert SHAPE.complete_forms(c("1ft1fs1fmZESWNCFP")) == ["fourteen_orphans"]
    # Z is not a thirteen-orphans tile: Z plus the thirteen is fourteen orphans, not thirteen
    assert not SHAPE.special_form_complete("thirteen_orphans", c("1ft1fs1fmZESWNCFP"))
    assert names(SHAPE.waits(c("1ft1fs1fmZESWNCF"))) == ["P"]
    assert SHAPE.shanten_by_form(c("1ft1fs1fmZESWNCF"))["fourteen_orphans"] == 0
    # compressed winds: E W -> H H, N S -> V V
    cw = UZ.with_options({"compressed_winds": True}).hand_shape
    assert cw.complete_forms(c("1ft1fs1fmHHVVCFPP")) == ["thirteen_orphans"]
    assert cw.complete_forms(c("1ft1fs1fmZHHVVCFP")) == ["fourteen_orphans"]


@pytest.mark.parametrize("run", ["123456789xabcds", "23456789xabcdem", "3456789xabcdefs"])
def test_ultra_long_straight(run):
    assert "ultra_long_straight" in SHAPE.complete_forms(c(run))
    short = parse_tiles(run)[:-1]
    assert SHAPE.shanten_by_form(counts_of(short))["ultra_long_straight"] == 0
    assert T.name(parse_tiles(run)[-1]) in names(SHAPE.waits(counts_of(short)))


def test_ultra_long_straight_with_exposed_runs():
    # G-UZ-13: up to three exposed melds, each an arith of step 1
    assert SHAPE.straight_with_melds(c("123456xabcds"), [parse_tiles("789s")])
    assert SHAPE.straight_with_melds(c("789xabcds"), [parse_tiles("123s"), parse_tiles("456s")])
    assert not SHAPE.straight_with_melds(c("1456789xabcds"), [parse_tiles("234s")][:0])   # no meld
    assert not SHAPE.straight_with_melds(c("123456xabcds"), [parse_tiles("789m")])        # other suit
    assert not SHAPE.straight_with_melds(c("12345689abcds"), [parse_tiles("7xds")[:3]])  # not a run
    four = [parse_tiles(x) for x in ("123s", "456s", "789s", "xabs")]
    assert not SHAPE.straight_with_melds(c("cds"), four)                                 # all open
    assert not SHAPE.straight_with_melds(c("123456xabcds"), [parse_tiles("579s")])      # d = 2


def test_special_forms_read_the_zero_as_itself():
    # seven pairs: ZZ is a pair of zeros; 11 22 33 44 55 66 also make 123 123 456 456 (standard)
    assert SHAPE.complete_forms(c("11s22s33s44s55s66sZZ")) == ["standard", "seven_pairs"]
    assert SHAPE.complete_forms(c("11s33s55s77s99sbbsZZ")) == ["seven_pairs"]


# --------------------------------------------------------------------------------------------
# Brute-force oracle on small shapes with the zero
# --------------------------------------------------------------------------------------------

SMALL = ZeroShape(
    zero=ZERO,
    templates=[MeldTemplate.sequence("arith", 1, 0, 5), MeldTemplate.sequence("arith", 2, 0, 5),
               MeldTemplate.fixed("power", [(0, 1, 4)]), MeldTemplate.fixed("gem", [(1, 2, 4)])],
    suits=[1, 2], ranks=(1, 4), honours=[ZERO, parse_tile("E")], forms=[STANDARD])


@lru_cache(maxsize=None)
def _bf(counts, melds):
    return brute_force(SMALL, counts, melds, physical=UZ.physical)   # rank 0 = the zero


def brute_force_uzje(counts) -> int:
    """Standard shanten of a 13-tile concealed Uzje hand by a plain search, independent of
    ``hand.py``: the lowest held tile is dropped, or starts the pair, a trip, or a meld of the
    variant's templates (its other tiles held or added; a zero tile stands for rank 0 of any
    suit); no more than four copies of a physical kind in the finished hand.  Shanten =
    13 − the most held tiles four melds and a pair can hold.

    Only held kinds can pass four copies (a kind not held is added at most once per meld), so
    the copies in play are tracked for the held kinds alone."""
    held = [k for k in range(NUM_KINDS) if counts[k]]
    at = {k: i for i, k in enumerate(held)}
    groups_of: dict[int, list[tuple[int, ...]]] = {}
    for tpl in UZ.meld_templates:
        for rs in tpl.rank_sets:
            for s in UZ.suit_indices:
                phys = tuple(UZ.physical(s * 17 + r) for r in rs)
                if all(UZ.copies_of(p) for p in phys):
                    for p in set(phys) & set(held):
                        groups_of.setdefault(at[p], []).append(tuple(at.get(x, -1) for x in phys))

    @lru_cache(maxsize=None)
    def best(rem: tuple[int, ...], melds: int, pair: int, used: tuple[int, ...]) -> int:
        i = next((j for j, n in enumerate(rem) if n), None)
        if i is None or not melds + pair:
            return 0
        top = 0

        def cap(r, m, p):   # no more than the tiles left, nor than the groups left can hold
            return min(sum(r), 3 * m + 2 * p)

        if melds:
            for g in groups_of.get(i, ()):
                others = list(g)
                others.remove(i)
                # each other tile: a held copy (if one is left) or an added one
                for take in ((1, 1), (1, 0), (0, 1), (0, 0)):
                    r, u = list(rem), list(used)
                    r[i] -= 1
                    got, ok = 1, True
                    for j, h in zip(others, take):
                        if h:
                            if j < 0 or not r[j]:
                                ok = False
                                break
                            r[j] -= 1
                            got += 1
                    for j in g:
                        if j >= 0:
                            u[j] += 1
                    if ok and all(u[j] <= 4 for j in g if j >= 0) and got + cap(r, melds - 1, pair) > top:
                        top = max(top, got + best(tuple(r), melds - 1, pair, tuple(u)))
        for size, slots in ((3, (melds - 1, pair)), (2, (melds, pair - 1))):
            if min(slots) < 0 or used[i] + size > 4:
                continue
            n = min(rem[i], size)
            r, u = list(rem), list(used)
            r[i] -= n
            u[i] += size
            if n + cap(r, *slots) > top:
                top = max(top, n + best(tuple(r), *slots, tuple(u)))
        less = list(rem)
        less[i] -= 1
        if cap(less, melds, pair) > top:
            top = max(top, best(tuple(less), melds, pair, used))   # this copy is not used
        return top

    return 13 - best(tuple(counts[k] for k in held), 4, 1, (0,) * len(held))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_small_zero_shape_matches_brute_force(data):
    melds = data.draw(st.integers(1, 4))
    size = 3 * (4 - melds) + data.draw(st.sampled_from([1, 2]))
    wall = [k for k in SMALL.tile_kinds() for _ in range(4)]
    picked = data.draw(st.lists(st.integers(0, len(wall) - 1), min_size=size, max_size=size, unique=True))
    counts = counts_of(wall[i] for i in picked)
    shanten, exact = _bf(tuple(counts), melds)
    assert SMALL.shanten(counts, melds) == shanten, (T.format_counts(counts), melds)
    if size % 3 == 2:
        assert SMALL.is_complete(counts, melds) == (shanten == -1)
        canon = {Decomposition(tuple(sorted((k, (ZERO,) * 3) if all(T.rank_of(t) == 0 or t == ZERO for t in ts)
                                            else (k, ts) for k, ts in d.melds)), d.pair) for d in exact}
        assert set(SMALL.decompositions(counts, melds)) == canon
    else:
        for k in SMALL.tile_kinds():
            if counts[k] < 4:
                plus = list(counts)
                plus[k] += 1
                assert (k in SMALL.waits(counts, melds)) == (_bf(tuple(plus), melds)[0] == -1), T.name(k)


def test_random_uzje_hands_match_brute_force():
    """Standard shanten of the real variant's shape on random concealed 13-tile hands rich in
    zeros and in two suits (where the readings and the shared copies matter)."""
    rng = random.Random(11)
    pool = ([ZERO] * 4 + [tile(s, r) for s in "sm" for r in (1, 2, 3, 4, 7, 8, 14) for _ in range(4)]
            + [parse_tile("E")] * 4)
    for _ in range(15):
        hand = c("")
        for t in rng.sample(pool, 13):
            hand[t] += 1
        assert SHAPE.shanten_by_form(hand)["standard"] == brute_force_uzje(hand), T.format_counts(hand)
