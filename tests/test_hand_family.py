"""A suit's table and its neighbours' tables from one pass (``_Suit.family``, used by
``HandShape.unit_neighbour_ids`` and so by the bots' ``ShapeOps.add`` / ``drop``) equal the
search's (``_Suit.solve_table``) — on a hand-checked example and on random keys of Ùzje's long
suits (17 ranks with ariths of every step, gems and powers; the abbreviated tongs, where most
ranks cannot be added), Classic's chow suit and a small layout with room-limited ranks."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_tui.ai.shapeops import ops_for
from mahjong_tui.hand import HandShape, MeldTemplate, _Suit
from mahjong_tui.variant import load_variant

UZ = load_variant("uzje").hand_shape
CLASSIC = load_variant("classic").hand_shape


def _suits(shape: HandShape) -> list[tuple[int, _Suit]]:
    """(unit index, unit) of every number suit of a shape."""
    return [(i, unit) for i, (_, _, unit, _) in enumerate(shape._units) if isinstance(unit, _Suit)]


UNITS = {
    "uzje physical": next(u for _, u in _suits(UZ) if all(u.available)),
    "uzje logical": next(u for _, u in _suits(UZ.logical) if all(u.available)),
    "uzje logical tongs": next(u for _, u in _suits(UZ.logical) if not all(u.available)),
    "uzje physical tongs": next(u for _, u in _suits(UZ) if not all(u.available)),
    "classic": _suits(CLASSIC)[0][1],
    # seven ranks, steps 1 and 2, ranks 3 and 5 missing from the tile set
    "small": _Suit(list(range(7)), [True, True, True, False, True, False, True],
                   {(a, a + d, a + 2 * d): ("arith",) for d in (1, 2) for a in range(7 - 2 * d)}),
}


def _check(unit: _Suit, key: tuple[int, ...]) -> None:
    """The family of ``key`` equals the search, key by key, and gives the neighbours it
    promises (a third copy of a pair only where it settles it)."""
    table, added, dropped = unit.family(key)
    assert table == unit.solve_table(key)
    for j, c in enumerate(key):
        if (c <= 1 or c == 3) and unit.available[j]:
            assert j in added
        if c in (1, 2):
            assert j in dropped
    for j, got in added.items():
        assert got == unit.solve_table(key[:j] + (key[j] + 1,) + key[j + 1:]), (key, "+", j)
    for j, got in dropped.items():
        assert got == unit.solve_table(key[:j] + (key[j] - 1,) + key[j + 1:]), (key, "-", j)


def test_family_third_copy_of_a_pair():
    """A rank held twice: its third copy's room is one (``_Suit.table``), yet the pass
    settles it.  Ùzje suit (physical, position = rank - 1) holding 2 2 5 8 (4 tiles): the
    pair 2 2 holds 2, the arith 2 5 8 holds 3, and from one meld and the pair on (2 5 8 with
    the other 2 and an added copy) all 4: (0, 2, 3, 4, 4, 4, 4, 4, 4, 4).  With a third 2
    (5 tiles): the pair 2 2, one meld 2 2 2 or 2 5 8 (3), 2 5 8 with the pair
    2 2 (5), two melds 2 2 2 and 5 8 11 (11 added: 5): (0, 2, 3, 5, 5, 5, 5, 5, 5, 5)."""
    unit = UNITS["uzje physical"]
    key = (0, 2, 0, 0, 1, 0, 0, 1) + (0,) * 8
    table, added, _ = unit.family(key)
    assert table == (0, 2, 3, 4, 4, 4, 4, 4, 4, 4)
    assert added[1] == (0, 2, 3, 5, 5, 5, 5, 5, 5, 5)
    _check(unit, key)


def test_family_hand_checked_example():
    """Ùzje suit (physical, position = rank - 1) holding 1 2 3: the meld uses 3 tiles, a pair
    one held tile and an added copy, and a meld with the pair has no held tile left for the
    pair: (0, 1, 3, 3, 3, 3, 3, 3, 3, 3).  Plus a second 1: the pair 1-1 holds 2, a meld and
    the pair 3 + 1 (the second 1 with an added copy) = 4, and no grouping uses more than the
    4 held tiles: (0, 2, 3, 4, 4, 4, 4, 4, 4, 4).  Less the 3: one tile a meld of 1-2-x
    (x added) holds 2, the pair 1: (0, 1, 2, 2, 2, 2, 2, 2, 2, 2)."""
    unit = UNITS["uzje physical"]
    key = (1, 1, 1) + (0,) * 13
    table, added, dropped = unit.family(key)
    assert table == (0, 1, 3, 3, 3, 3, 3, 3, 3, 3)
    assert added[0] == (0, 2, 3, 4, 4, 4, 4, 4, 4, 4)
    assert dropped[2] == (0, 1, 2, 2, 2, 2, 2, 2, 2, 2)
    _check(unit, key)


def _keys(unit: _Suit, max_tiles: int = 14):
    """Random valid keys of a unit: up to ``max_tiles`` tiles on its available positions, at
    most four of a kind."""
    spots = [j for j, ok in enumerate(unit.available) if ok]

    def build(picks: list[int]) -> tuple[int, ...]:
        key = [0] * len(unit.available)
        for j in picks:
            if key[j] < 4:
                key[j] += 1
        return tuple(key)

    return st.lists(st.sampled_from(spots), max_size=max_tiles).map(build)


@pytest.mark.parametrize("name", sorted(UNITS))
def test_family_equals_search_on_random_keys(name):
    unit = UNITS[name]

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_keys(unit))
    def run(key):
        _check(unit, key)

    run()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_neighbour_ids_are_the_searched_tables(data):
    """``unit_neighbour_ids`` gives, per rank, the id of the table the search finds for the key
    with one tile more / less there (``-1`` where there is no such key), and the same ids as
    ``unit_table_id`` asked afterwards.  A fresh shape, so long keys take the one-pass route."""
    shape = HandShape(templates=UZ.templates, suits=UZ.suits, ranks=(0, 16), honours=UZ.honours,
                      forms=("standard",))
    u, unit = _suits(shape)[data.draw(st.integers(0, len(_suits(shape)) - 1))]
    key = data.draw(_keys(unit))
    for step in (1, -1):
        got = shape.unit_neighbour_ids(u, key, step)
        for j, c in enumerate(key):
            ok = (c < 4 and unit.available[j]) if step > 0 else c > 0
            if not ok:
                assert got[j] == -1
                continue
            changed = key[:j] + (c + step,) + key[j + 1:]
            assert shape.table_list[got[j]] == unit.solve_table(changed), (key, step, j)
            assert shape.unit_table_id(u, changed) == got[j]


def test_neighbour_ids_bad_step():
    with pytest.raises(ValueError, match="step must be 1 or -1"):
        UZ.unit_neighbour_ids(0, (0,) * 16, 2)


def test_shapeops_add_drop_use_the_same_tables():
    """The bots' add / drop tables of a long Ùzje key, cold, equal the tables of each key
    searched on its own."""
    shape = load_variant("uzje").hand_shape
    ops = ops_for(shape)
    u, unit = next((u, x) for u, x in _suits(shape) if all(x.available))
    key = (2, 1, 0, 1, 3, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1)   # 12 tiles, one suit
    for step, ids in ((1, ops.add(u, key)), (-1, ops.drop(u, key))):
        for j, tid in enumerate(ids):
            c = key[j] + step
            if tid < 0:
                assert not 0 <= c <= 4 or not unit.available[j]
                continue
            assert shape.table_list[tid] == unit.solve_table(key[:j] + (c,) + key[j + 1:])


def test_zero_shape_memos_give_the_same_answers():
    """``ZeroShape.decompositions`` and ``standard_waits`` remember their answers per hand; the
    remembered answers equal a new shape's, and a caller changing a returned list does not
    change the next answer.  Hand-checked: ZZZ 123s 456s 789s 11s reads with ZZZ as a pung;
    12s 456s 789s EEE CC waits on Z (0 1 2 of socks, the zero), 3s (1 2 3) and 4s (gem 1 2 4)."""
    from mahjong_tui.hand import ZeroShape
    from mahjong_tui.tiles import counts_of, parse_tiles, tile

    shape = load_variant("uzje").hand_shape
    new = ZeroShape(zero=shape.zero, **shape._kwargs)
    hand = counts_of(parse_tiles("ZZZ123s456s789s11s"))
    first = shape.decompositions(hand)
    assert any(("pung", (shape.zero,) * 3) in d.melds for d in first)
    assert first == new.decompositions(hand)
    want = list(first)
    first.clear()
    assert shape.decompositions(hand) == want
    ready = counts_of(parse_tiles("12s456s789sEEECC"))
    waits = shape.standard_waits(ready)
    assert {shape.zero, tile("s", 3), tile("s", 4)} <= set(waits)
    assert waits == new.standard_waits(ready)
    want_waits = list(waits)
    waits.append(-1)
    assert shape.standard_waits(ready) == want_waits
