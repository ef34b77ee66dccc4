"""``sim --duplicate`` and ``sim --jobs`` (CLI.md "sim"): the rotations, the paired statistics,
and the same results whatever the number of worker processes."""

from __future__ import annotations

import copy
import json

import pytest

from mahjong_tui.cli import main
from mahjong_tui.intervals import mean_interval
from mahjong_tui.sim import (deal_pieces, deal_seed, duplicate_statistics, paired_difference, play_deal,
                             rotated, simulate_duplicate)
from mahjong_tui.variant import load_variant

LEVELS = ["ai:strong", "ai:easy", "ai:normal", "ai:baseline"]


def _deal_fingerprint(table) -> tuple:
    """Everything the deal fixes before the first move: the wall's stacks in drawing order, the
    dead wall, the bloom tiles, the dice and break, the dealer and the dealt hands."""
    w = table.wall
    return (copy.deepcopy(list(w._live)), copy.deepcopy(list(w._dead)), list(w.bloom), w.brk,
            table.dealer, copy.deepcopy(table.hands), copy.deepcopy(table.bonus))


@pytest.mark.parametrize("variant_id", ["classic", "yuxi"])
def test_every_level_sits_at_every_seat_of_every_deal_on_the_same_wall(variant_id):
    v = load_variant(variant_id)
    walls_by_deal = []
    for deal in range(2):
        seen: dict[int, tuple] = {}
        records = play_deal(v, 7, deal, LEVELS, on_table=lambda r, t: seen.__setitem__(r, _deal_fingerprint(t)))
        assert [rec["rotation"] for rec in records] == [0, 1, 2, 3]
        assert all(rec["deal"] == deal for rec in records)
        # the same wall, dice, dealer and dealt hands at all four tables of the deal
        assert len(seen) == 4 and all(seen[r] == seen[0] for r in range(4))
        walls_by_deal.append(seen[0])
        # rotation r puts the level listed at j at table seat (j + r) % 4
        for rec in records:
            r = rec["rotation"]
            assert rec["seating"] == rotated(LEVELS, r)
            assert all(rec["seating"][(j + r) % 4] == LEVELS[j] for j in range(4))
        # so every level sat at every table seat once in the deal
        for seat in range(4):
            assert sorted(rec["seating"][seat] for rec in records) == sorted(LEVELS)
        # the settled points of each hand are the hand's score changes (a one-hand table)
        for rec in records:
            assert len(rec["points"]) == 4 and rec["turns"] >= 0
    assert walls_by_deal[0] != walls_by_deal[1]          # each deal its own wall
    assert deal_seed(7, 0) != deal_seed(7, 1)


def test_duplicate_counts_hands_by_level():
    v = load_variant("classic")
    dup = simulate_duplicate(v, 2, 3, ["ai:baseline", "ai:easy", "ai:easy", "ai:easy"])
    j = dup.to_json()
    assert j["deals"] == 2 and j["hands"] == 8
    assert j["by_level"]["ai:baseline"]["hands"] == 8 and j["by_level"]["ai:easy"]["hands"] == 24
    wins = sum(b["wins"] for b in j["by_level"].values())
    assert wins == sum(j["wins_by_seat"])
    assert sum(b["deal_ins"] for b in j["by_level"].values()) == sum(j["deal_ins_by_seat"])
    assert [p["b"] for p in j["paired"]] == ["ai:easy"] and j["paired"][0]["deals"] == 2
    # the mean of the per-deal differences is the difference of the levels' points per hand
    # (each level plays the same number of hands in every deal)
    diff = j["by_level"]["ai:baseline"]["points_per_hand"] - j["by_level"]["ai:easy"]["points_per_hand"]
    assert j["paired"][0]["points_per_hand_diff"] == pytest.approx(diff, abs=2e-4)


def _rec(seating, points, winners=(), discarder=None, self_draw=False):
    return {"seating": seating, "points": points, "result": "win" if winners else "draw", "self_draw": self_draw,
            "discarder": discarder, "winners": [{"seat": s, "value": 1, "form": "standard", "patterns": []}
                                                for s in winners]}


def test_paired_statistics_by_hand():
    S, E = "ai:strong", "ai:easy"
    seats = [S, E, E, E]
    r = [rotated(seats, k) for k in range(4)]      # S at table seat 0, 1, 2, 3
    assert r == [[S, E, E, E], [E, S, E, E], [E, E, S, E], [E, E, E, S]]
    deals = [
        # deal 0: S self-draws +3 at every rotation, each E pays 1 -> S 12/4 = 3, E -12/12 = -1; diff 4
        [_rec(r[k], [3 if s == k else -1 for s in range(4)], winners=[k], self_draw=True) for k in range(4)],
        # deal 1: S 0, +6, -3, +1 = 4 -> 4/4 = 1; E 0 + (-6) + 3 + (-1) = -4 -> -4/12 = -1/3; diff 4/3
        [_rec(r[0], [0, 0, 0, 0]), _rec(r[1], [-2, 6, -2, -2]), _rec(r[2], [1, 1, -3, 1]),
         _rec(r[3], [-1, 0, 0, 1])],
        # deal 2: S -2 at every rotation -> -2; E +2 once a rotation -> 8/12 = 2/3; diff -8/3.
        # In rotation 0 table seat 1 (E) wins on S's discard (seat 0).
        [_rec(r[0], [-2, 2, 0, 0], winners=[1], discarder=0)]
        + [_rec(r[k], [-2 if s == k else (2 if s == (k + 1) % 4 else 0) for s in range(4)]) for k in (1, 2, 3)],
    ]
    by_level, paired = duplicate_statistics(seats, deals)
    # hands: S sits once a table, 4 tables a deal, 3 deals = 12; E 3 x 12 = 36
    # points per hand: S (12 + 4 - 8) / 12 = 0.6667; E (-12 - 4 + 8) / 36 = -0.2222
    # wins: S 4 (deal 0), E 1 (deal 2) -> win rates 4/12 = 0.3333, 1/36 = 0.0278; shares 0.8, 0.2
    # deal-ins: S 1 (deal 2), E 0 -> rates 1/12 = 0.0833, 0; shares 1.0, 0.0
    assert by_level == {
        S: {"hands": 12, "wins": 4, "deal_ins": 1, "win_rate": 0.3333, "deal_in_rate": 0.0833,
            "share_of_wins": 0.8, "share_of_deal_ins": 1.0, "points_per_hand": 0.6667},
        E: {"hands": 36, "wins": 1, "deal_ins": 0, "win_rate": 0.0278, "deal_in_rate": 0.0,
            "share_of_wins": 0.2, "share_of_deal_ins": 0.0, "points_per_hand": -0.2222},
    }
    # per-deal differences 4, 4/3, -8/3: mean 8/9 = 0.8889;
    # deviations 28/9, 4/9, -32/9 -> squares (784 + 16 + 1024)/81 = 1824/81; / (3 - 1) = 11.2593;
    # s = 3.35548; s/sqrt(3) = 1.93729; x 1.959964 = 3.79702 -> [0.8889 - 3.7970, 0.8889 + 3.7970]
    assert paired == [{"a": S, "b": E, "deals": 3, "points_per_hand_diff": 0.8889, "ci95": [-2.9081, 4.6859]}]


def test_paired_difference_needs_two_deals_for_an_interval():
    assert paired_difference([2.0], [1.0]) == {"deals": 1, "points_per_hand_diff": 1.0, "ci95": None}
    assert mean_interval([1.0]) is None
    # 1, 2, 3, 4, 5: mean 3, s = sqrt(10/4) = 1.5811, s/sqrt(5) = 0.7071, x 1.959964 = 1.3859
    m, lo, hi = mean_interval([1, 2, 3, 4, 5])
    assert (m, round(lo, 4), round(hi, 4)) == (3.0, 1.6141, 4.3859)


def _json(capsys, *argv) -> dict:
    assert main(list(argv)) == 0
    out = json.loads(capsys.readouterr().out)
    out.pop("elapsed_s"), out.pop("hands_per_s")
    return out


def test_jobs_2_gives_the_json_of_jobs_1(capsys):
    argv = ["sim", "--variant", "yuxi", "--hands", "5", "--seed", "4", "--duplicate", "--json",
            "--seats", "ai:normal,ai:easy,ai:easy,ai:baseline"]
    one = _json(capsys, *argv)
    two = _json(capsys, *argv, "--jobs", "2")
    assert one == two
    assert set(one["by_level"]) == {"ai:normal", "ai:easy", "ai:baseline"}
    assert [p["b"] for p in one["paired"]] == ["ai:easy", "ai:baseline"]


@pytest.mark.parametrize("deals,jobs", [(1, 1), (7, 2), (100, 1), (100, 2), (500, 2), (33, 4)])
def test_deal_pieces_cover_every_deal_once_in_order(deals, jobs):
    pieces = deal_pieces(deals, jobs)
    assert [d for lo, hi in pieces for d in range(lo, hi)] == list(range(deals))
    sizes = [hi - lo for lo, hi in pieces]
    assert max(sizes) <= 8
    if jobs > 1:
        # the pieces only shrink, down to single deals, so the workers finish together
        assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 1


def test_deal_pieces_of_100_deals_for_two_workers():
    # 100 deals left, 2 workers: 100 // 8 = 12 -> 8 (the cap) ... until fewer than 64 are left:
    # 60 // 8 = 7, 53 // 8 = 6, 47 // 8 = 5, 42 // 8 = 5, 37 // 8 = 4, 33 // 8 = 4, 29 // 8 = 3, ...
    sizes = [hi - lo for lo, hi in deal_pieces(100, 2)]
    assert sizes[:8] == [8, 8, 8, 8, 8, 7, 6, 5]
    assert sum(sizes) == 100


def test_without_duplicate_nothing_changes(capsys):
    """A plain run's JSON has no duplicate fields, and is the run it always was (simulate)."""
    from mahjong_tui.sim import simulate

    j = _json(capsys, "sim", "--variant", "classic", "--hands", "3", "--seed", "5", "--json")
    assert "by_level" not in j and "paired" not in j and "deals" not in j
    direct = simulate(load_variant("classic"), 3, 5, ["ai"] * 4).to_json()
    direct.pop("elapsed_s"), direct.pop("hands_per_s")
    assert j == direct


def test_duplicate_text_and_refusals(capsys):
    assert main(["sim", "--variant", "classic", "--hands", "2", "--seed", "1", "--duplicate",
                 "--seats", "ai:baseline,ai:easy,ai:easy,ai:easy"]) == 0
    out = capsys.readouterr().out
    assert "duplicate, 2 deals x 4 rotations = 8 hands" in out and "points/hand" in out
    assert "ai:baseline - ai:easy:" in out and "95% interval" in out
    assert main(["sim", "--hands", "2", "--jobs", "2"]) == 2
    assert "--jobs 2 needs --duplicate" in capsys.readouterr().err
    assert main(["sim", "--hands", "2", "--duplicate", "--log", "x.log"]) == 2
    assert "--log" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["sim", "--hands", "2", "--duplicate", "--jobs", "-1"])
    assert e.value.code == 2 and "0 for every core" in capsys.readouterr().err
