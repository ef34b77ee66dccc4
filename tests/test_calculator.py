"""The calculator's rule checks (``score``, ``analyze``): issue 20, items 13-17.

Each hand is written from the rules pages (``assets/rules/<variant>.md``) with the expected
value worked out by hand in its comment.  CLI tests run :func:`mahjong_tui.cli.main` and check
the exit code and that a refusal is one line on stderr.
"""

from __future__ import annotations

import json

import pytest

from mahjong_tui.cli import main
from mahjong_tui.scoring import evaluate
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.variant import load_variant

from .helpers import pattern_counts as ids


def score_json(capsys, *argv: str) -> dict:
    """``score ... --json`` that must succeed: its JSON object."""
    assert main(["score", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def refused(capsys, *argv: str) -> str:
    """``score``/``analyze`` that must be refused: exit 2, nothing on stdout, one line on
    stderr (returned)."""
    assert main(list(argv)) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mahjong-tui: error: "), cap.err
    return lines[0]


# ---------------------------------------------------------------------------------------
# item 13: an exposed chow follows the variant's claims
# ---------------------------------------------------------------------------------------

def test_classic_scores_a_hand_with_an_exposed_chow(capsys):
    # Classic: the next player may take any discard and expose the chow it makes
    # (classic.md "How a hand goes"; variants/classic.toml claims.next_player_pickup).
    # East (dealer) in the West round: 456t 234m chows 0, (678m) exposed chow 0, 777t pung
    # completed by the winning discard 7t: open simple pung 2, pair 77s 0, flower 1 (o) is
    # East's own number: bonus_own 8; mahjong on a discard 20 -> 30 points; one doubling as
    # dealer (mahjong_by_dealer) -> 60.
    out = score_json(capsys, "--variant", "classic", "456777t77s234m (678m) +7t |o",
                     "--seat-wind", "E", "--prevailing-wind", "W")
    assert out["winning"] is True
    assert {p["id"]: p["value"] for p in out["patterns"] if p["value"]} == {
        "pung_simple_open": 2, "bonus_own": 8, "mahjong_discard": 20, "mahjong_by_dealer": 1}
    assert out["value"] == 60


def test_two_exposed_chows_in_classic_too():
    # (123m) (456t) exposed chows, 789s chow, 555m pung, pair 99s won on 9s
    ctx = context_from_notation("(123m) (456t) 789s555m99s +9s", variant=load_variant("classic"))
    assert evaluate(load_variant("classic"), ctx).winning


def test_yangzhou_still_refuses_an_exposed_chow_the_winning_discard_did_not_complete(capsys):
    # Yangzhou: "No chow claims. A discard that completes a chow may be taken only to win"
    # (yangzhou.md "How a hand goes"): (678m) with the winning 7t elsewhere cannot be.
    line = refused(capsys, "score", "--variant", "yangzhou", "456777t77s234m (678m) +7t")
    assert "(678m)" in line and "claimed only to win" in line
    # the same for Yuxi (G-YX-2)
    refused(capsys, "score", "--variant", "yuxi", "456777t77s234m (678m) +7t")


# ---------------------------------------------------------------------------------------
# item 15: Singapore nine gates is 1112345678999 plus any one tile of the suit
# ---------------------------------------------------------------------------------------

def test_singapore_nine_gates_with_the_extra_tile_anywhere(capsys):
    # singapore.md "Tai table": concealed 1112345678999 + any one more of the suit.
    # 11123456789999t won on 1t: 1112345678999t + 9t; the hand before the win (1123456789999t)
    # waited on 1t, 4t, 7t only, but the 14 tiles are nine gates: limit, 5 tai.
    # Won on a discard: V = 2^(5-1) = 16; the discarder (South) pays 2V = 32, West and North V = 16.
    out = score_json(capsys, "--variant", "singapore", "11123456789999t +1t", "--discarder", "S")
    assert {p["id"] for p in out["patterns"]} >= {"nine_gates", "full_flush"}
    assert out["value"] == 5
    assert out["payments"] == {"E": 64, "S": -32, "W": -16, "N": -16}


def test_classic_grand_waiting_keeps_its_wait_reading():
    # classic.md "Special hands": grand waiting is the hand *waiting* on every tile of its suit,
    # the 13 before the win exactly 1112345678999.  11123456789999t won on 1t waited on 1t, 4t,
    # 7t only: no grand waiting (the engine's scorer takes the same path: scoring.evaluate).
    classic = load_variant("classic")
    res = evaluate(classic, context_from_notation("11123456789999t +1t", variant=classic, self_draw=True))
    assert res.winning and "grand_waiting" not in ids(res)
    res = evaluate(classic, context_from_notation("11123456789999t +9t", variant=classic, self_draw=True))
    assert "grand_waiting" in ids(res)


# ---------------------------------------------------------------------------------------
# item 17: analyze's accepting counts the discarded tile as seen
# ---------------------------------------------------------------------------------------

def test_analyze_accepting_does_not_count_the_discard_itself(capsys):
    # Yuxi 66777999s789mSSS, discard 6s: 6777999s 789m SSS waits on 5s, 6s, 8s.
    # Unseen: 5s 4, 8s 4, 6s 4 - 1 held - 1 just discarded = 2 -> 10 (not 11).
    assert main(["analyze", "--variant", "yuxi", "66777999s789mSSS", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by_tile = {d["tile"]: d for d in out["discards"]}
    assert by_tile["6s"]["waits"] == ["5s", "6s", "8s"] and by_tile["6s"]["accepting"] == 10
    # discard 7s: 66 77 999s waits on 6s (4 - 2 = 2) and 7s (4 - 2 held - 1 discarded = 1): 3
    assert by_tile["7s"]["waits"] == ["6s", "7s"] and by_tile["7s"]["accepting"] == 3
    # discard 9m: 78m waits on 6m (4) and 9m (4 - 1 discarded = 3): 7
    assert by_tile["9m"]["accepting"] == 7
