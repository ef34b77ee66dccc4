"""Shared test helpers: random-policy play, invariant checks, hand rigging, scoring a hand
string, and the tile mapping of the ``mahjong`` package (the outside oracle of ``hand.py``).

Also imported by the benchmark scripts under ``tests/bench/`` (run by hand from the repo root
or anywhere: they put the repo root on ``sys.path``)."""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement
from typing import Callable

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.hand import Decomposition
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.scoring.context import ScoreResult


def check_invariants(table: Table) -> None:
    """Tile conservation and legal hand sizes (common.md "A complete hand"; seed 003 "13 tiles should always be
    maintained")."""
    assert sorted(table.all_tiles_accounted()) == sorted(table.variant.all_tiles())
    if table.phase == "match_over":
        return
    for s in range(4):
        n = table.tile_count(s)
        if table.phase in ("turn", "after_kong") and s == table.current:
            # the player to act holds 14 (13 right after a kong, before its replacement)
            assert n in (13, 14) if table.phase == "after_kong" else n == 14, (s, n, table.phase)
        elif table.phase == "rob" and s == table.current:
            # a kong being robbed is still in hand; a bonus tile being robbed (Singapore's
            # eighth flower, Uzje's ivies on the wall) has left it before its replacement came
            assert n == (13 if table._rob[2] == "bonus" else 14), (s, n, table._rob)
        else:
            assert n == 13, (s, n, table.phase)
        assert not any(table.hands[s][b] for b in table.variant.bonus_kinds) or not table.variant.deal["bonus_replacement"]


def play_random(table: Table, rng: random.Random, max_actions: int = 100_000, check=None) -> None:
    """Apply uniformly random legal actions (favouring wins a little so hands end) until the
    match is over.  Every applied action comes from ``legal_actions``."""
    for _ in range(max_actions):
        if table.phase == "match_over":
            return
        seat = table.waiting_for()[0]
        legal = table.legal_actions(seat)
        assert legal, f"seat {seat} is waited for but has no legal action"
        wins = [a for a in legal if a.kind == "win"]
        action = wins[0] if wins and rng.random() < 0.7 else rng.choice(legal)
        table.apply(action)
        if check is not None:
            check(table)
    raise AssertionError("match did not end")


def set_hand(table: Table, seat: int, text: str) -> None:
    """Test-only rigging: give ``seat`` exactly these concealed tiles.  (Tile conservation is
    not checked by tests that rig hands.)"""
    table.hands[seat] = [0] * T.NUM_KINDS
    for t in T.parse_tiles(text):
        table.hands[seat][t] += 1
    table.invalidate_caches()


# ---------------------------------------------------------------------------------------
# scoring a hand string (tests/test_scoring_*.py)
# ---------------------------------------------------------------------------------------

def scorer(evaluate: Callable, default_variant) -> Callable[..., ScoreResult]:
    """A ``score(hand, variant=default_variant, **flags)`` function for one scoring scheme:
    ``evaluate(variant, ctx)`` of the hand string ``hand`` read by
    :func:`~mahjong_tui.scoring.common.context_from_notation` with ``flags`` (``discarder``,
    ``self_draw``, ``situations``, ...)."""

    def score(hand: str, variant=default_variant, **kw) -> ScoreResult:
        return evaluate(variant, context_from_notation(hand, variant=variant, **kw))

    return score


def pattern_counts(result: ScoreResult) -> dict[str, int]:
    """``{pattern id: count}`` of a score's breakdown."""
    return {p.id: p.count for p in result.patterns}


def nonzero_payments(result: ScoreResult) -> dict[str, float]:
    """The payments by seat wind without the zero entries (the result must have payments)."""
    assert result.payments is not None
    return {k: v for k, v in result.payments.items() if v}


def assert_scored(result: ScoreResult, patterns: dict[str, int], value: float) -> ScoreResult:
    """Assert the exact breakdown ``{id: count}`` and the total ``value``; returns ``result``."""
    assert pattern_counts(result) == patterns
    assert result.value == value
    return result


# ---------------------------------------------------------------------------------------
# the ``mahjong`` package's 34-tile arrays (tests/test_hand_oracle.py, tests/bench/bench_hand.py)
# ---------------------------------------------------------------------------------------

#: Our tile code of each index of the package's 34-array: man 1-9 (our characters ``m``),
#: pin 1-9 (dots ``t``), sou 1-9 (bamboo ``s``), E S W N, haku (white ``P``), hatsu (green
#: ``F``), chun (red ``C``).
PACKAGE_TO_OURS: list[int] = ([T.tile("m", r) for r in range(1, 10)] + [T.tile("t", r) for r in range(1, 10)]
                              + [T.tile("s", r) for r in range(1, 10)]
                              + [T.EAST, T.SOUTH, T.WEST, T.NORTH, T.WHITE, T.GREEN, T.RED])


def from_package(c34: list[int]) -> list[int]:
    """The package's 34-array of counts → our count array (``tiles.NUM_KINDS`` long)."""
    counts = [0] * T.NUM_KINDS
    for k, n in enumerate(c34):
        counts[PACKAGE_TO_OURS[k]] = n
    return counts


#: The package's 136-tile wall as 34-array indices (four of each).
PACKAGE_WALL: list[int] = [k for k in range(34) for _ in range(4)]


def package_random_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles drawn from :data:`PACKAGE_WALL` without replacement, as a 34-array."""
    c34 = [0] * 34
    for k in rng.sample(PACKAGE_WALL, size):
        c34[k] += 1
    return c34


def package_melds_and_pair(rng: random.Random) -> list[int]:
    """One draw of four random melds (a pung with chance 0.4, else a chow) and a random pair,
    as a 34-array; it may hold five or more of a kind (callers redraw or drop such hands)."""
    c34 = [0] * 34
    for _ in range(4):
        if rng.random() < 0.4:
            c34[rng.randrange(34)] += 3
        else:
            start = rng.randrange(3) * 9 + rng.randrange(7)
            for k in range(start, start + 3):
                c34[k] += 1
    c34[rng.randrange(34)] += 2
    return c34


# ---------------------------------------------------------------------------------------
# rigged walls (engine tests that need a given deal and given draws)
# ---------------------------------------------------------------------------------------

def rigged_wall(variant, dealer: int, hands, front: str = "", back: str = ""):
    """A :class:`~mahjong_tui.engine.wall.Wall` holding every tile of ``variant`` whose deal
    (4 + 4 + 4 + 1 each from the dealer, one more for the dealer; seed 003; classic.md "Setting up", singapore.md "Setting up") gives
    seat ``s`` exactly the tiles of ``hands[s]`` (14 for the dealer, 13 for the others), whose
    next ordinary draws are ``front`` and whose replacement draws (flowers, kongs) are ``back``,
    in that order.  The other tiles fill the middle in sorted order.  Raises AssertionError if
    the tiles asked for are not in the set."""
    from mahjong_tui.engine.wall import Break, Wall

    parsed = [T.parse_tiles(h) for h in hands]
    assert len(parsed[dealer]) == 14 and all(len(parsed[s]) == 13 for s in range(4) if s != dealer), \
        [len(p) for p in parsed]
    order = [(dealer + i) % 4 for i in range(4)]
    seq = [t for r in range(3) for s in order for t in parsed[s][4 * r:4 * r + 4]]
    seq += [parsed[s][12] for s in order] + [parsed[dealer][13]] + T.parse_tiles(front.replace(" ", ""))
    pool = variant.all_tiles()
    backs = T.parse_tiles(back.replace(" ", ""))
    for t in seq + backs:
        assert t in pool, f"no tile {T.name(t)} left for the rigged wall"
        pool.remove(t)
    flat: list[int | None] = [None] * len(variant.all_tiles())
    flat[:len(seq)] = seq
    for i, t in enumerate(backs):  # back draws take the last stack's top tile, then its bottom
        j, within = divmod(i, 2)
        flat[len(flat) - 2 * (j + 1) + within] = t
    it = iter(sorted(pool))
    flat = [t if t is not None else next(it) for t in flat]
    stacks = [[flat[i], flat[i + 1]] for i in range(0, len(flat), 2)]
    return Wall(stacks, [], [], Break((1, 1), (dealer + 1) % 4, 2), variant.wall["tail"])


def rig_first_hand(monkeypatch, wall) -> None:
    """Make the next :meth:`Wall.build` (the next hand dealt) return ``wall``; later hands are
    built as usual."""
    from mahjong_tui.engine.wall import Wall

    original = Wall.build
    walls = [wall]

    def build(cls, *args, **kw):
        return walls.pop() if walls else original(*args, **kw)

    monkeypatch.setattr(Wall, "build", classmethod(build))


def brute_force(shape, counts, melds: int, physical: Callable[[int], int] = lambda t: t):
    """(standard shanten, set of decompositions) of ``counts`` with ``melds`` declared, by
    trying every multiset of ``4 - melds`` melds (pungs and the shape's templates) and one pair
    over the shape's tile kinds, at most four copies of any physical kind in play.  ``physical``
    maps a tile code to the kind it uses (Uzje: a rank-0 code is the zero tile, so a meld may
    read the zero either way and its copies are counted together).  The oracle of the hand
    analysis tests: slow, obviously right."""
    kinds = shape.tile_kinds()
    hi = shape.ranks[1]
    groups = [("pung", (k, k, k)) for k in kinds]
    for template in shape.templates:
        for ranks in template.rank_sets:
            for s in shape.suits:
                tiles = tuple(s * 17 + r for r in ranks)
                if ranks[-1] <= hi and all(physical(t) in kinds for t in tiles):
                    groups.append((template.kind, tiles))
    need = 4 - melds
    best = -1
    exact = set()
    for combo in combinations_with_replacement(groups, need):
        demand = [0] * T.NUM_KINDS
        for _, tiles in combo:
            for t in tiles:
                demand[physical(t)] += 1
        if max(demand) > 4:
            continue
        for pair in kinds:
            if demand[pair] + 2 > 4:
                continue
            demand[pair] += 2
            best = max(best, sum(min(counts[k], demand[k]) for k in kinds))
            if demand == list(counts):
                exact.add(Decomposition(tuple(sorted(combo)), pair))
            demand[pair] -= 2
    return 3 * need + 1 - best, exact


def turn_view(variant, hand: str, seed: int = 2) -> tuple[dict, list[Action]]:
    """A real opening view of the dealer of ``Table(variant, seed)``, with the concealed hand
    replaced by ``hand`` (14 tiles, notation) and the legal discards to match; nothing else
    is touched (the bots' tests ask a decision of it)."""
    table = Table(variant, seed, hands=1)
    seat = table.waiting_for()[0]
    view = json.loads(json.dumps(table.view(seat)))
    view["hand"] = hand
    view["drawn"] = None
    legal = [Action(seat, "discard", t) for t in sorted(set(T.parse_tiles(hand)))]
    view["legal"] = [a.to_dict() for a in legal]
    return view, legal
