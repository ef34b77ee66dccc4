"""``mahjong_tui.hand`` against the ``mahjong`` package (PyPI, the outside oracle).

On the standard 136-tile set our shanten per form, our win check and our wait sets must agree
with the package on every hand tried: thousands of random 13- and 14-tile hands and thousands
of near-winning hands (a random complete hand with one or two tiles swapped for others), plus
short hands that stand for declared melds.  The random generator is seeded, so the run is
deterministic.

Tile mapping: the package's 34-array is man 1-9, pin 1-9, sou 1-9, E S W N, haku, hatsu,
chun; ours is characters ``m``, dots ``t``, bamboo ``s``, E S W N, white ``P``, green ``F``,
red ``C`` (``tests.helpers.PACKAGE_TO_OURS``, shared with ``tests/bench/bench_hand.py``).
"""

from __future__ import annotations

import random

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from mahjong_tui.hand import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, HandShape
from mahjong_tui.tiles import format_tiles, tiles_of

from .helpers import PACKAGE_TO_OURS, from_package as ours, package_melds_and_pair, package_random_hand as random_hand

SEED = 136
RANDOM_HANDS = 10000    # per size (13 and 14)
NEAR_HANDS = 10000      # complete hands with one or two tiles swapped
SHORT_HANDS = 8000      # 1..11 tiles, the rest declared melds

SHAPE = HandShape()


def show(c34: list[int]) -> str:
    return format_tiles(tiles_of(ours(c34)))


def complete_hand(rng: random.Random) -> list[int]:
    """A random four-melds-and-a-pair hand (pungs and chows), at most four of a kind."""
    while True:
        c34 = package_melds_and_pair(rng)
        if max(c34) <= 4:
            return c34


def near_winning(rng: random.Random) -> list[int]:
    """A complete hand with one or two of its tiles swapped for other tiles (14 tiles)."""
    while True:
        c34 = complete_hand(rng)
        for _ in range(rng.choice((1, 2))):
            out = rng.choice([k for k in range(34) if c34[k]])
            c34[out] -= 1
            c34[rng.choice([k for k in range(34) if c34[k] < 4 and k != out])] += 1
        if max(c34) <= 4:
            return c34


def drop_random(rng: random.Random, c34: list[int]) -> list[int]:
    smaller = list(c34)
    smaller[rng.choice([k for k in range(34) if smaller[k]])] -= 1
    return smaller


def hands_to_check() -> list[list[int]]:
    rng = random.Random(SEED)
    hands = [random_hand(rng, size) for size in (13, 14) for _ in range(RANDOM_HANDS)]
    for _ in range(NEAR_HANDS):
        c34 = near_winning(rng)
        hands += [c34, drop_random(rng, c34)]
    hands += [complete_hand(rng) for _ in range(NEAR_HANDS // 4)]
    return hands


HANDS = hands_to_check()


def mismatches(pairs) -> list[str]:
    return [f"{show(c34)}: ours {a} != package {b}" for c34, a, b in pairs if a != b]


def test_shanten_per_form_matches_package():
    got = []
    for c34 in HANDS:
        by_form = SHAPE.shanten_by_form(ours(c34))
        package = {
            STANDARD: Shanten.calculate_shanten_for_regular_hand(c34),
            SEVEN_PAIRS: Shanten.calculate_shanten_for_chiitoitsu_hand(c34),
            THIRTEEN_ORPHANS: Shanten.calculate_shanten_for_kokushi_hand(c34),
        }
        got.append((c34, by_form, package))
    bad = mismatches(got)
    assert not bad, f"{len(bad)} of {len(got)} hands differ, e.g. {bad[:5]}"


def test_overall_shanten_matches_package():
    bad = mismatches((c34, SHAPE.shanten(ours(c34)), Shanten.calculate_shanten(c34)) for c34 in HANDS)
    assert not bad, f"{len(bad)} hands differ, e.g. {bad[:5]}"


def test_win_detection_matches_package():
    fourteen = [c34 for c34 in HANDS if sum(c34) == 14]
    assert sum(Agari.is_agari(c34) for c34 in fourteen) > NEAR_HANDS // 4   # many wins among them
    bad = mismatches((c34, SHAPE.is_complete(ours(c34)), Agari.is_agari(c34)) for c34 in fourteen)
    assert not bad, f"{len(bad)} hands differ, e.g. {bad[:5]}"


def test_waits_match_package_win_check():
    """For every 13-tile hand the package calls ready, the tiles that complete it by its win
    check are exactly our wait set (a fifth copy is never a wait)."""
    got = []
    for c34 in HANDS:
        if sum(c34) != 13 or Shanten.calculate_shanten(c34) != 0:
            continue
        package = []
        for k in range(34):
            if c34[k] < 4:
                c34[k] += 1
                if Agari.is_agari(c34):
                    package.append(PACKAGE_TO_OURS[k])
                c34[k] -= 1
        got.append((c34, SHAPE.waits(ours(c34)), sorted(package)))
    assert len(got) > 500
    bad = mismatches(got)
    assert not bad, f"{len(bad)} hands differ, e.g. {bad[:5]}"


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8, 10, 11])
def test_short_hands_with_declared_melds(size):
    """The package reads a short hand as ``(14 - size) // 3`` melds already declared."""
    rng = random.Random(SEED + size)
    got = []
    for _ in range(SHORT_HANDS // 8):
        c34 = random_hand(rng, size) if rng.random() < 0.5 else drop_random(rng, _short(rng, size))
        melds = (14 - size) // 3
        got.append((c34, SHAPE.shanten(ours(c34), melds), Shanten.calculate_shanten_for_regular_hand(c34)))
    bad = mismatches(got)
    assert not bad, f"{len(bad)} hands differ, e.g. {bad[:5]}"


def _short(rng: random.Random, size: int) -> list[int]:
    """A near-complete hand of ``size + 1`` tiles: part of a complete hand, a tile swapped."""
    while True:
        c34 = complete_hand(rng)
        while sum(c34) > size + 1:
            c34 = drop_random(rng, c34)
        k = rng.randrange(34)
        if c34[k] < 4:
            c34 = drop_random(rng, c34)
            c34[k] += 1
            return c34
