"""The bots read the zero tile as a number too (Uzje, uzje.md "Melds and winning hands" G-UZ-11; session 8).

A zero may be read, group by group, as the honour ``Z`` or as rank 0 of a number suit
(``0s`` in ``(0s, 1s, 2s)``).  The bots place the zeros a hand holds at their best readings
(:class:`mahjong_tui.ai.shapeops.ZeroHandTables`) and map them back to the physical tile; these
tests check the tables against the engine's exact shanten, and the bots' choices on hands where
the zero matters.  Nothing here is needed by the other variants: their shapes have no zero.
"""

from __future__ import annotations

import random

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.ai import make_bot
from mahjong_tui.ai.plans import plans_for
from mahjong_tui.ai.shapeops import HandTables, ZeroHandTables, ops_for, zero_ops_for
from mahjong_tui.engine import Action, Table
from mahjong_tui.melds import CHOW, Meld
from mahjong_tui.variant import load_variant

from .helpers import rig_first_hand, rigged_wall, turn_view

UZ = load_variant("uzje")
LEVELS = ("easy", "normal", "strong")
Z = T.parse_tile("Z")


def _counts(notation: str) -> list[int]:
    return list(T.counts_of_notation(notation))


def test_only_a_shape_with_a_zero_has_zero_readings():
    for vid in ("classic", "yuxi", "yangzhou", "singapore"):
        assert zero_ops_for(load_variant(vid).hand_shape) is None, vid
    zops = zero_ops_for(UZ.hand_shape)
    assert zops is not None and zops.zero == Z
    # the tongs hold only 1t and ft: no meld has 0t, so the zero reads as 0s and 0m only
    assert sorted(T.name(r) for r, _ in zops.suit_readings) == ["0m", "0s"]


def test_zero_tables_agree_with_the_engine():
    """Random Uzje hands holding zeros: the distance, the distance after each discard, after
    each draw and the acceptance (kinds that lower the distance, the zero counted once) equal
    the engine's exact standard shanten (``ZeroShape``), which reads every zero every way."""
    shape = UZ.hand_shape
    bot = make_bot("ai:normal", UZ, 0, 1)
    full = bot.full_mask
    kinds = list(bot.kinds)
    wall = [k for k in kinds for _ in range(UZ.copies_of(k))]
    rng = random.Random(8)

    def exact(c, declared):
        return shape.shanten_by_form(c, declared)["standard"]

    checked = 0
    while checked < 30:
        declared = checked % 3
        c = [0] * T.NUM_KINDS
        for k in rng.sample(wall, 14 - 3 * declared):
            c[k] += 1
        if not c[Z]:
            continue
        checked += 1
        ht = bot._tables(c, declared)
        assert isinstance(ht, ZeroHandTables)
        assert ht.distance(full) == exact(c, declared), T.format_counts(c)
        for d, s in ht.discard_distances(full).items():
            c[d] -= 1
            assert s == exact(c, declared), (T.format_counts(c), T.name(d))
            better = 0
            after = bot._tables(c, declared) if c[Z] else ZeroHandTables(bot.zops, c, declared)
            for k in kinds:
                if c[k] < 4:
                    c[k] += 1
                    s2 = exact(c, declared)
                    assert after.draw_distance(full, k) == s2, (T.format_counts(c), T.name(k))
                    better += s2 < s
                    c[k] -= 1
            assert ht.acceptance(full, d, s, [1] * T.NUM_KINDS) == better, (T.format_counts(c), T.name(d))
            c[d] += 1


def test_a_zero_belongs_to_the_one_suit_plans_of_its_readings():
    """Rank 0 of a suit is that suit's: in Z 1s 2s 456s 789s 345s N only N stands between the
    hand and the bamboo-only plan, and a declared (Z, 1s, 2s) leaves that plan open; its mask
    still leaves the honours out."""
    bot = make_bot("ai:normal", UZ, 0, 1)
    plans = {p.name: p for p in plans_for(UZ, ops_for(UZ.hand_shape))}
    suit_s, honours = plans["suit:s"], plans["honours"]
    assert Z in suit_s.kinds and not suit_s.mask[bot.ops.unit_of[Z][0]]
    c = _counts("Z12s456s789s345sN")
    ht = bot._tables(c, 0)
    assert ht.distance(bot.full_mask) == 0 and ht.distance(suit_s.mask) == 1     # N to replace
    assert HandTables(bot.ops, c, 0).distance(suit_s.mask) == 2            # the zero an honour only
    assert ht.distance(honours.mask) == HandTables(bot.ops, c, 0).distance(honours.mask)
    zero_run = Meld(CHOW, (T.parse_tile("1s"), T.parse_tile("2s"), Z), declared=True, concealed=False)
    assert suit_s.feasible((zero_run,)) and not plans["suit:m"].feasible((zero_run,))


@pytest.mark.parametrize("level", LEVELS)
def test_a_zero_that_completes_a_run_is_kept(level):
    """Z 1s 2s 456s 789s 34m 55m N: the zero is rank 0 of the bamboo run 0-1-2; throwing N
    leaves the hand ready (on 2m or 5m).  Read as an honour only, the zero looked as idle as N
    and went first (easy: the lower kind); every level now keeps it and throws N."""
    view, legal = turn_view(UZ, "Z12s456s789s34m55mN")
    bot = make_bot(f"ai:{level}", UZ, view["seat"], 1)
    choice = bot.choose(view, legal)
    assert choice in legal and choice.kind == "discard" and choice.tile == T.parse_tile("N")
    if level == "easy":
        blind = make_bot(f"ai:{level}", UZ, view["seat"], 1)
        blind.zops = None       # the zero only an honour, as before session 8
        assert blind.choose(view, legal).tile == Z


@pytest.mark.parametrize("level", LEVELS)
def test_a_hand_ready_through_a_zero_is_played_and_won(level, monkeypatch):
    """The dealer (a bot) holds Z 2s 456s 789s 345m 55m N: throwing N leaves Z 2s waiting on
    1s (0-1-2) or 4s (0-2-4) — ready only with the zero read as 0s.  Every level throws N
    (read as an honour only, the zero went), and when 1s is drawn the bot declares the
    self-drawn win; the engine's scorer agrees it is a win."""
    hands = ["Z2s456s789s345m55mN", "1t1t3s3sbsbs2m2m9m9mEES", "ftft5s5scscs6m6mamamSWW",
             "dsds8s8s7m7mbmbmCCFFP"]
    rig_first_hand(monkeypatch, rigged_wall(UZ, 0, hands, front="PFC1s"))
    table = Table(UZ, 1, hands=1, first_dealer=0)
    bot = make_bot(f"ai:{level}", UZ, 0, 1)
    others = {1: "P", 2: "F", 3: "C"}
    steps = 0
    while table.phase not in ("hand_over", "match_over"):
        seat = table.waiting_for()[0]
        legal = table.legal_actions(seat)
        if seat == 0:
            action = bot.choose(table.view(0), legal)
            assert action in legal
            if action.kind == "discard":
                assert action.tile == T.parse_tile("N")
        elif table.phase == "turn":
            action = Action.of(seat, "discard", T.parse_tile(others[seat]))
        else:
            action = next(a for a in legal if a.kind == "pass")
        table.apply(action)
        steps += 1
        assert steps < 60
    result = table.history[-1]
    assert [(w["seat"], w["tile"]) for w in result["winners"]] == [(0, "1s")], result
    assert result["discarder"] is None      # self-drawn
