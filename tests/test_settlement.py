"""Hand settlement (scoring/settlement.py): yuxi.md "Settlement" (Yuxi), classic.md "Settlement" + G-OX-6 (Classic), yangzhou.md "Settlement" (Yangzhou).

The settlement sections of the real variant files are read with tomllib and put on a small
stand-in variant, so these tests depend on the numbers in ``variants/*.toml`` but not on the
scoring schemes of other variants.  Seats 0..3 are East, South, West, North unless a test
says otherwise.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.melds import Meld
from mahjong_tui.scoring.context import HandContext, PatternScore, ScoreResult
from mahjong_tui.scoring.settlement import payments_for_score, settle

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
WINDS = [T.EAST, T.SOUTH, T.WEST, T.NORTH]


@dataclass
class StandIn:
    """Just the two sections settle() reads."""

    settlement: dict
    scoring: dict = field(default_factory=lambda: {"base": 1})


def from_file(name: str, **overrides) -> StandIn:
    data = tomllib.loads((VARIANTS / f"{name}.toml").read_text())
    sett = {"mode": "cumulative", "east_pays_double": False, "self_draw_each": 1, "discarder": 1,
            "discard_others": 0, "robbed_pays_as_discarder": True, "liability_patterns": [],
            "liability_meld": 0}
    sett.update(data["settlement"])
    scoring = {"base": data["scoring"].get("base", 1)}
    for k, v in overrides.items():
        (scoring if k == "base" else sett)[k] = v
    return StandIn(sett, scoring)


def R(value, *ids, winning=True):
    return ScoreResult(winning, value, "points", patterns=tuple(PatternScore(i, 1) for i in ids))


def C(seat, *, self_draw=False, situations=(), discarder=None, fed=None):
    return HandContext(concealed=(), seat_wind=WINDS[seat], self_draw=self_draw,
                       situations=frozenset(situations), discarder=discarder, fed_third_meld=fed)


# --- cumulative (Classic default, G-OX-6) --------------------------------------------------------


def test_cumulative_adds_every_players_own_score():
    v = from_file("classic")
    assert v.settlement["mode"] == "cumulative"
    # South wins 100; East scored 16, West 0, North 8 with their own hands
    d = settle(v, seat_winds=WINDS, winners=[(1, R(100), C(1))],
               losers={0: R(16, winning=False), 2: R(0, winning=False), 3: R(8, winning=False)},
               self_draw=False, discarder=0)
    assert d == [16, 100, 0, 8]


def test_drawn_hand_scores_nothing():
    for name in ("classic", "yuxi", "yangzhou", "singapore"):
        v = from_file(name)
        assert settle(v, seat_winds=WINDS, winners=[], losers={0: R(16, winning=False)},
                      self_draw=False, discarder=None) == [0, 0, 0, 0]
    zs = from_file("classic", mode="classical_zero_sum")
    assert settle(zs, seat_winds=WINDS, winners=[], losers={0: R(16, winning=False)},
                  self_draw=False, discarder=None) == [0, 0, 0, 0]


# --- classical zero-sum (classic.md "Settlement"; Harr's Pung Chow, Jade Dragon's European rules) ----------------------------------------------


def test_zero_sum_with_east_doubling():
    v = from_file("classic", mode="classical_zero_sum")
    assert v.settlement["east_pays_double"] is True
    # South wins S=100; losers: East 16, West 0, North 8.
    # Winner: East pays 2×100, West 100, North 100 → South +400.
    # Losers settle differences: West pays East 16 (×2 = 32), North pays East 8 (×2 = 16),
    # West pays North 8.
    # East −200 + 32 + 16 = −152; West −100 − 32 − 8 = −140; North −100 − 16 + 8 = −108.
    d = settle(v, seat_winds=WINDS, winners=[(1, R(100), C(1))],
               losers={0: R(16, winning=False), 2: R(0, winning=False), 3: R(8, winning=False)},
               self_draw=False, discarder=2)
    assert d == [-152, 400, -140, -108]
    assert sum(d) == 0


def test_zero_sum_without_east_doubling():
    v = from_file("classic", mode="classical_zero_sum", east_pays_double=False)
    # South +300; East −100 + 16 + 8 = −76; West −100 − 16 − 8 = −124; North −100 − 8 + 8 = −100
    d = settle(v, seat_winds=WINDS, winners=[(1, R(100), C(1))],
               losers={0: R(16, winning=False), 2: R(0, winning=False), 3: R(8, winning=False)},
               self_draw=True, discarder=None)
    assert d == [-76, 300, -124, -100]


def test_zero_sum_east_wins():
    v = from_file("classic", mode="classical_zero_sum")
    # East wins 50: each pays him 2×50 = 100; losers South 10, West 4, North 4:
    # West pays South 6, North pays South 6, West/North equal.
    d = settle(v, seat_winds=WINDS, winners=[(0, R(50), C(0))],
               losers={1: R(10, winning=False), 2: R(4, winning=False), 3: R(4, winning=False)},
               self_draw=True, discarder=None)
    assert d == [300, -100 + 12, -106, -106]


def test_zero_sum_east_elsewhere():
    # seat 2 is East this hand (seat winds rotate): payments to/from seat 2 are doubled
    v = from_file("classic", mode="classical_zero_sum")
    winds = [T.WEST, T.NORTH, T.EAST, T.SOUTH]
    d = settle(v, seat_winds=winds, winners=[(0, R(10), C(0))], losers={}, self_draw=True, discarder=None)
    assert d == [40, -10, -20, -10]


# --- winner collects: Yuxi (yuxi.md "Settlement") --------------------------------------------------------------


def test_yuxi_self_draw_and_discard():
    v = from_file("yuxi")
    # yuxi.md "Settlement" example: all triplets + full flush = ×4, self-drawn → each pays 4, winner +12
    assert settle(v, seat_winds=WINDS, winners=[(1, R(4), C(1, self_draw=True))], losers={},
                  self_draw=True, discarder=None) == [-4, 12, -4, -4]
    # pure triple dragon seven pairs ×32 on a discard from North → North pays 32
    assert settle(v, seat_winds=WINDS, winners=[(1, R(32), C(1))], losers={},
                  self_draw=False, discarder=3) == [0, 32, 0, -32]


def test_yuxi_base_multiplies():
    v = from_file("yuxi", base=5)
    # V = base 5 × M 4 = 20 from the discarder
    assert settle(v, seat_winds=WINDS, winners=[(2, R(4), C(2))], losers={},
                  self_draw=False, discarder=0) == [-20, 0, 20, 0]


def test_yuxi_multiple_winners_discarder_pays_each():
    v = from_file("yuxi")
    # East discards; South wins ×4 and North wins ×2: East pays 4 + 2
    d = settle(v, seat_winds=WINDS, winners=[(1, R(4), C(1)), (3, R(2), C(3))], losers={},
               self_draw=False, discarder=0)
    assert d == [-6, 4, 0, 2]


def test_robbing_kong_robbed_player_pays():
    v = from_file("yuxi")
    # West's added kong robbed by South (×2 ×2 = 4): the engine passes West as the discarder
    d = settle(v, seat_winds=WINDS, winners=[(1, R(4, "robbing_kong"), C(1, situations=("robbing_kong",)))],
               losers={}, self_draw=False, discarder=2)
    assert d == [0, 4, -4, 0]
    # house rule: robbed kong paid as a self-draw
    h = from_file("yuxi", robbed_pays_as_discarder=False)
    d = settle(h, seat_winds=WINDS, winners=[(1, R(4, "robbing_kong"), C(1, situations=("robbing_kong",)))],
               losers={}, self_draw=False, discarder=2)
    assert d == [-4, 12, -4, -4]


def test_discard_win_needs_discarder():
    with pytest.raises(ValueError):
        settle(from_file("yuxi"), seat_winds=WINDS, winners=[(1, R(4), C(1))], losers={},
               self_draw=False, discarder=None)


# --- winner collects: Yangzhou (yangzhou.md "Settlement") with pao ------------------------------------------------


def test_yangzhou_plain():
    v = from_file("yangzhou")
    # yangzhou.md "Settlement" example: 17 fan on a discard → discarder pays 2F = 34; self-drawn → 17 each, +51
    assert settle(v, seat_winds=WINDS, winners=[(1, R(17, "pure_straight"), C(1))], losers={},
                  self_draw=False, discarder=0) == [-34, 34, 0, 0]
    assert settle(v, seat_winds=WINDS, winners=[(1, R(17, "pure_straight"), C(1, self_draw=True))],
                  losers={}, self_draw=True, discarder=None) == [-17, 51, -17, -17]


def test_yangzhou_pao_on_self_draw():
    v = from_file("yangzhou")
    # full flush 60 + basic win 1 = 61 fan, self-drawn by West; North fed the third meld:
    # North pays the whole 3 × 61 = 183, nobody else pays
    d = settle(v, seat_winds=WINDS, winners=[(2, R(61, "full_flush", "basic_win"), C(2, self_draw=True))],
               losers={}, self_draw=True, discarder=None, liable={2: 3})
    assert d == [0, 0, 183, -183]


def test_yangzhou_pao_on_discard():
    v = from_file("yangzhou")
    # 61 fan won on East's discard; South liable: South pays 2F = 122, East pays nothing
    d = settle(v, seat_winds=WINDS, winners=[(2, R(61, "full_flush", "basic_win"), C(2))],
               losers={}, self_draw=False, discarder=0, liable={2: 1})
    assert d == [0, -122, 122, 0]
    # the liable player is also the discarder: he pays the same 122 once
    d = settle(v, seat_winds=WINDS, winners=[(2, R(61, "full_flush"), C(2))],
               losers={}, self_draw=False, discarder=1, liable={2: 1})
    assert d == [0, -122, 122, 0]


def test_yangzhou_no_pao_without_liability_pattern():
    """liable_in_context decides who pays for all; settle applies it.  Three claimed melds, the
    third fed by South (seat 1): a full flush makes South liable, 17 fan of a pure straight
    (no pure-suit pattern) does not, and the discarder pays as usual."""
    from mahjong_tui.melds import PUNG, Meld
    from mahjong_tui.scoring.settlement import liable_in_context

    v = from_file("yangzhou")
    fed = tuple(Meld(PUNG, (t,) * 3, declared=True, concealed=False, from_seat=f)
                for t, f in ((T.parse_tile("1m"), 3), (T.parse_tile("5m"), 0), (T.parse_tile("9m"), 1)))
    ctx = HandContext(concealed=(), melds=fed, seat_wind=WINDS[2])
    assert liable_in_context(v, R(61, "full_flush", "basic_win"), ctx, 0) == 1
    assert liable_in_context(v, R(17, "pure_straight"), ctx, 0) is None
    # the winner is never liable for himself: the same melds held by South (wind index 1)
    assert liable_in_context(v, R(61, "full_flush", "basic_win"), replace(ctx, seat_wind=WINDS[1]), 0) is None
    d = settle(v, seat_winds=WINDS, winners=[(2, R(17, "pure_straight"), C(2))],
               losers={}, self_draw=False, discarder=0, liable=None)
    assert d == [-34, 0, 34, 0]


def test_discard_others_and_liability_total():
    # a Singapore-like table: self-draw 2V each; discard: discarder 2V, others V each
    v = StandIn({"mode": "winner_collects", "self_draw_each": 2, "discarder": 2, "discard_others": 1}, {"base": 1})
    # V = 4 on a discard by East: East 8, West 4, North 4 → South +16
    assert settle(v, seat_winds=WINDS, winners=[(1, R(4), C(1))], losers={}, self_draw=False,
                  discarder=0) == [-8, 16, -4, -4]
    # self-draw: each pays 8 → +24
    assert settle(v, seat_winds=WINDS, winners=[(1, R(4), C(1, self_draw=True))], losers={},
                  self_draw=True, discarder=None) == [-8, 24, -8, -8]
    # liable West pays what all three would have paid: 8 + 4 + 4 = 16
    assert settle(v, seat_winds=WINDS, winners=[(1, R(4, "robbing_kong"), C(1))], losers={},
                  self_draw=False, discarder=2, liable={1: 2}) == [0, 16, -16, 0]


# --- payments_for_score (the `score` command) -------------------------------------------------------


def test_payments_for_score_winner_collects():
    v = from_file("yangzhou")
    # South wins 17 fan on North's discard → North pays 34
    assert payments_for_score(v, R(17), C(1, discarder=T.NORTH)) == {"E": 0, "S": 34, "W": 0, "N": -34}
    # self-drawn: each pays 17
    assert payments_for_score(v, R(17), C(1, self_draw=True)) == {"E": -17, "S": 51, "W": -17, "N": -17}
    # unknown discarder → None
    assert payments_for_score(v, R(17), C(1)) is None
    # earthly: the dealer (East) discarded
    assert payments_for_score(v, R(17), C(1, situations=("earthly",))) == {"E": -34, "S": 34, "W": 0, "N": 0}
    # pao: West fed the third meld of a full flush won on North's discard → West pays 2F
    # (the hand holds three exposed pungs: (222m) (444m) (666m), written without feeders)
    three = tuple(Meld("pung", (T.parse_tile(t),) * 3, True, False) for t in ("2m", "4m", "6m"))
    fed = replace(C(1, discarder=T.NORTH, fed=T.WEST), melds=three)
    assert payments_for_score(v, R(61, "full_flush"), fed) == {"E": 0, "S": 122, "W": -122, "N": 0}
    # ... and whoever discarded, West pays it all: no discarder needed (issue 20, item 14)
    assert payments_for_score(v, R(61, "full_flush"), replace(fed, discarder=None)) == \
        {"E": 0, "S": 122, "W": -122, "N": 0}
    # a hand without a third exposed meld: West fed nothing that makes him liable, North pays
    assert payments_for_score(v, R(61, "full_flush"), replace(fed, melds=three[:2])) == \
        {"E": 0, "S": 122, "W": 0, "N": -122}
    # not a win → None
    assert payments_for_score(v, R(0, winning=False), C(1, self_draw=True)) is None


def test_payments_for_score_classic_modes():
    assert payments_for_score(from_file("classic"), R(24), C(1, self_draw=True)) is None
    zs = from_file("classic", mode="classical_zero_sum")
    # South wins 24: East pays 48, West and North 24 (no discarder needed)
    assert payments_for_score(zs, R(24), C(1)) == {"E": -48, "S": 96, "W": -24, "N": -24}
