"""A win on a kong (or flower) replacement, a bloom tile, or the dealer's dealt hand is a
self-draw in every variant, whatever the caller says (:data:`SELF_DRAWN_SITUATIONS`): the
winner drew the tile himself — Classic's loose tiles (classic.md "Setting up"), Yangzhou's replacements from
the tail (yangzhou.md "Setting up"), Ùzje's replacements from the far end of the live wall (uzje.md "Setting up"; ``self_draw`` is
"winning tile taken from the wall", uzje.md "Fan table"), Singapore's (singapore.md "Tai table") and Yuxi's (G-YX-3, G-YX-9).
:func:`mahjong_tui.scoring.evaluate` applies it once for every scheme
(:func:`~mahjong_tui.scoring.common.won_context`), so a hand given with the situation but no
``self_draw`` scores and pays exactly as the same hand given as self-drawn.
"""

from __future__ import annotations

import json

import pytest

from mahjong_tui.cli import main
from mahjong_tui.scoring import evaluate
from mahjong_tui.scoring.common import SELF_DRAWN_SITUATIONS, context_from_notation
from mahjong_tui.variant import load_variant

from .helpers import assert_scored

UZ = load_variant("uzje")
YZ = load_variant("yangzhou")
CL = load_variant("classic")


def _score(variant, hand, **kw):
    return evaluate(variant, context_from_notation(hand, variant=variant, **kw))


def test_uzje_quad_draw_is_a_self_draw():
    # (7777s) 123s 456m 789m EE, won on the quad's replacement 1s: self_draw 1 + quad_draw
    # 1.6 = 2.6 fan (no closed_hand: the quad is exposed; the 7777s quad breaks
    # single_differences) -> s = (26 - 25) div 10 = 0 -> 2 points; self-draw: each pays 1.
    hand = "(7777s) 123s456m789mEE +1s"
    r = assert_scored(_score(UZ, hand, situations=["kong_replacement"]), {"self_draw": 1, "quad_draw": 1}, 2.6)
    assert r.winning and r.points == 2 and r.payments == {"E": 3, "S": -1, "W": -1, "N": -1}
    # the same as given self-drawn; without the situation, on a discard, 0 fan: no win
    assert r == _score(UZ, hand, situations=["kong_replacement"], self_draw=True)
    assert not _score(UZ, hand, discarder="S").winning


def test_uzje_score_command_reads_a_quad_draw_as_a_self_draw(capsys):
    # [SSSS] 456m 789s 246m EE +2m on the concealed quad's replacement: self_draw 1 +
    # closed_hand 2.6 (a concealed quad keeps it) + quad_draw 1.6 = 5.2 fan -> s = (52 - 25)
    # div 10 = 2 -> 10 points; each pays 5, East +15 (no --by self-draw given: before, 4.2 fan,
    # 5 points and no payments for want of a discarder)
    assert main(["score", "--variant", "uzje", "[SSSS] 456m789s246mEE +2m", "--situation", "kong_replacement",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == 5.2 and out["points"] == 10
    assert {p["id"] for p in out["patterns"]} == {"self_draw", "closed_hand", "quad_draw"}
    assert out["payments"] == {"E": 15, "S": -5, "W": -5, "N": -5}


def test_yangzhou_kong_replacement_is_a_self_draw():
    # (EEEE) 123m 456m 777m 99m, won on the kong's replacement 7m: mixed_suit 15 + basic_win 1
    # + exposed_kong 1 + terminal_pair 1 + continuous_sequences (123+456) 1 + concealed_triplet
    # (777m, all self-drawn) 1 = 20 fan; self-draw: each of the three pays 20 (yangzhou.md "Settlement"), East +60.
    hand = "(EEEE) 123m456m777m99m +7m"
    r = _score(YZ, hand, situations=["kong_replacement"])
    assert_scored(r, {"mixed_suit": 1, "basic_win": 1, "exposed_kong": 1, "terminal_pair": 1,
                      "continuous_sequences": 1, "concealed_triplet": 1}, 20)
    assert r.payments == {"E": 60, "S": -20, "W": -20, "N": -20}
    assert r == _score(YZ, hand, situations=["kong_replacement"], self_draw=True)
    # on a discard the 777m pung is open (19 fan) and the discarder pays 2F
    d = _score(YZ, hand, discarder="S")
    assert d.value == 19 and d.payments == {"E": 38, "S": -38, "W": 0, "N": 0}


@pytest.mark.parametrize("situation", ["kong_replacement", "flower_replacement"])
def test_classic_loose_tile_win_is_self_drawn(situation):
    # [CCCC] 123m 456t 555s 99m, East won on a loose tile 5s: two chows 0 + kong_honour_hidden 32 +
    # pung_simple_hidden 4 (555s all self-drawn) + mahjong_self_drawn 22 = 58 points;
    # dragon_pung + mahjong_by_dealer = 2 doublings -> 58 x 4 = 232.
    # (On a discard: 32 + pung_simple_open 2 + mahjong_discard 20 = 54 x 4 = 216.)
    hand = "[CCCC] 123m456t555s99m +5s"
    r = _score(CL, hand, situations=[situation])
    assert_scored(r, {"chow": 2, "kong_honour_hidden": 1, "pung_simple_hidden": 1, "mahjong_self_drawn": 1,
                      "dragon_pung": 1, "mahjong_by_dealer": 1}, 232)
    assert r == _score(CL, hand, situations=[situation], self_draw=True)
    assert _score(CL, hand).value == 216


@pytest.mark.parametrize("variant", ["yuxi", "singapore", "uzje", "classic", "yangzhou"])
@pytest.mark.parametrize("situation", sorted(SELF_DRAWN_SITUATIONS))
def test_every_variant_scores_these_situations_as_self_drawn(variant, situation):
    v = load_variant(variant)
    # one suit (a win in every variant, Yangzhou's 15 fan included); tiles of every variant
    # (Ùzje abbreviates tongs)
    hand = "123m456m789m222m55m +2m"
    given = _score(v, hand, situations=[situation], discarder="S")
    drawn = _score(v, hand, situations=[situation], self_draw=True)
    plain = _score(v, hand, discarder="S")  # the same hand on South's discard
    assert drawn.winning and given == drawn
    assert (given.value, given.payments) != (plain.value, plain.payments)  # read as self-drawn
