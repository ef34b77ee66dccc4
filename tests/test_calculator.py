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


# ---------------------------------------------------------------------------------------
# item 14: pay for all only with the meld the liable player fed
# ---------------------------------------------------------------------------------------

# Yangzhou full flush with three claimed pungs: 789m 11m (222m) (444m) (666m), won on 7m
# (89m waits on 7m only: edge).  full_flush 60 + basic_win 1 + edge_wait 1 + terminal_pair 1
# = 63 fan; F = 63 (yangzhou.md "Fan table", "Settlement").
YZ_FLUSH = "11789m (222m) (444m) (666m) +7m"


def test_yangzhou_pao_needs_no_discarder(capsys):
    # West fed the third exposed meld (666m) of a full flush: on a discard win he pays the whole
    # 2F = 126 and the discarder nothing, so who discarded changes nothing (before: "payments":
    # null for want of --discarder)
    out = score_json(capsys, "--variant", "yangzhou", YZ_FLUSH, "--liable", "W")
    assert out["value"] == 63
    assert out["payments"] == {"E": 126, "S": 0, "W": -126, "N": 0}
    # the same with the discarder named (South): still West alone
    out = score_json(capsys, "--variant", "yangzhou", YZ_FLUSH, "--liable", "W", "--discarder", "S")
    assert out["payments"] == {"E": 126, "S": 0, "W": -126, "N": 0}
    # and without a liable player and without a discarder the payer is unknown: null
    assert score_json(capsys, "--variant", "yangzhou", YZ_FLUSH)["payments"] is None


def test_yangzhou_liable_without_a_third_exposed_meld_is_refused(capsys):
    # a concealed full flush: 111m 234m 567m 888m 99m won on 9m; nobody can have fed a third
    # exposed meld (before: West paid everything)
    line = refused(capsys, "score", "--variant", "yangzhou", "111234567m888m99m +9m", "--liable", "W",
                   "--discarder", "S")
    assert "--liable W" in line and "3rd exposed meld" in line
    # a concealed pure straight, the hand: refused the same way
    refused(capsys, "score", "--variant", "yangzhou", "123456789m55s777t +7t", "--liable", "W")
    # two exposed melds are not three
    refused(capsys, "score", "--variant", "yangzhou", "444m11789m (222m) (666m) +7m", "--liable", "W")


def test_yangzhou_third_meld_without_a_pao_pattern_settles_as_usual(capsys):
    # (EEE) (222m) (444m) 789m 11m won on South's 7m: mixed_suit 15 + basic_win 1 + edge_wait 1
    # + terminal_pair 1 = 18 fan.  West fed the third meld, but mixed suit is no pao hand
    # (yangzhou.md "Settlement": full flush, pure all triplets, pure dragon, all honours):
    # South pays 2F = 36 as usual.
    out = score_json(capsys, "--variant", "yangzhou", "(EEE) (222m) (444m) 789m11m +7m", "--liable", "W",
                     "--discarder", "S")
    assert out["value"] == 18 and out["payments"] == {"E": 36, "S": -36, "W": 0, "N": 0}


def test_singapore_pay_for_all_needs_the_fourth_exposed_meld(capsys):
    # (123m) (456m) (789m) (222m) 55m won on 5m: full flush 4 tai, V = 2^(4-1) = 8; West fed the
    # 4th exposed meld: he pays all 4V = 32 (singapore.md "Settlement"), no --discarder needed
    out = score_json(capsys, "--variant", "singapore", "(123m) (456m) (789m) (222m) 55m +5m", "--liable", "W")
    assert out["payments"] == {"E": 32, "S": 0, "W": -32, "N": 0}
    # a concealed full flush (111m 234m 567m 888m 99m): no exposed meld, refused
    line = refused(capsys, "score", "--variant", "singapore", "111234567m888m99m +9m", "--liable", "W",
                   "--discarder", "S")
    assert "4th exposed meld" in line
    # the fourth meld completed by the winning discard itself is paid by its discarder in the
    # usual way (singapore.md "Settlement"): (555m) holds the winning 5m, three melds were fed
    refused(capsys, "score", "--variant", "singapore", "(555m) (123m) (789m) (234m) 99m +5m", "--liable", "W",
            "--discarder", "S")


def test_liable_in_a_variant_without_pay_for_all_is_refused(capsys):
    line = refused(capsys, "score", "--variant", "classic", "(222m) (444m) (666m) 11789m +7m", "--liable", "W")
    assert "nobody pays for all" in line


# ---------------------------------------------------------------------------------------
# item 16: situations and indicators the hand cannot have got to
# ---------------------------------------------------------------------------------------

# Singapore, a concealed hand with no kong: 123m 567m 456t 789s 55t won on 1m
SG_PLAIN = "123567m456t789s55t +1m"


@pytest.mark.parametrize("variant,hand,situation,needle", [
    ("singapore", SG_PLAIN, "kong_replacement", "needs a kong"),
    ("singapore", "(1111s) 123567m456t55t +1m", "double_kong_replacement", "needs 2 kongs"),
    ("yuxi", "123m456t789s55s666m +5s", "bloom_tile", "needs a kong"),
    ("singapore", SG_PLAIN, "flower_replacement", "needs the flower held"),
    ("yuxi", "123m456t789s55s666m +5s", "flower_replacement", "has no flowers"),
    ("singapore", SG_PLAIN, "last_wall_replacement", "a kong or a bonus tile"),
    # 111m 234m 456t 789s 55t robbing 1m: the robbed player shows 111m in his pung; the winner's
    # three 1m would make five
    ("singapore", "111234m456t789s55t +1m", "robbing_kong", "at most once"),
    ("yuxi", "(555m) 123m456t789s55s +5s", "robbing_kong", "this hand holds it 2 times"),
])
def test_impossible_situations_are_refused(capsys, variant, hand, situation, needle):
    line = refused(capsys, "score", "--variant", variant, hand, "--situation", situation)
    assert f"--situation {situation}" in line and needle in line


@pytest.mark.parametrize("flags,needle", [
    # yuxi.md "Scoring table": heavenly_win is the dealer's dealt hand (before: South scored it, x32)
    (["--situation", "heavenly", "--seat-wind", "S"], "must be East"),
    # earthly_win: a non-dealer wins on the dealer's first discard
    (["--situation", "earthly", "--seat-wind", "E", "--discarder", "S"], "earthly"),
    (["--situation", "earthly", "--seat-wind", "W", "--discarder", "S"], "--discarder E"),
    (["--situation", "earthly", "--seat-wind", "W", "--by", "self-draw"], "not a self-draw"),
    # a robbed tile is another player's
    (["--situation", "robbing_kong", "--by", "self-draw"], "--by self-draw"),
])
def test_who_wins_how_must_fit_the_situation(capsys, flags, needle):
    line = refused(capsys, "score", "--variant", "yuxi", "123m456t789s55s666m +5s", *flags)
    assert needle in line


def test_possible_situations_still_score(capsys):
    # (1111s) exposed kong, won on its replacement 1m: win_on_replacement 1 tai (singapore.md
    # "Tai table"), paid as a self-draw: V = 1, each pays 2V = 2
    out = score_json(capsys, "--variant", "singapore", "(1111s) 123567m456t55t +1m", "--situation", "kong_replacement")
    assert out["value"] == 1 and out["payments"] == {"E": 6, "S": -2, "W": -2, "N": -2}
    # two kongs: dragon_pung 1 + win_on_replacement 1 + kong_on_kong (limit) -> capped at 5 tai
    out = score_json(capsys, "--variant", "singapore", "(1111s) [CCCC] 567m456t55t +5m", "--situation",
                     "double_kong_replacement")
    assert {p["id"] for p in out["patterns"]} == {"dragon_pung", "win_on_replacement", "kong_on_kong"}
    assert out["value"] == 5
    # a flower replacement with the flower held (o: flower 1, East's number): seat_flower 1 +
    # ping_hu_with_bonus 1 (four chows, 1m won from 23m, a bonus tile held) + fully_concealed 1
    # (a replacement is self-drawn) + win_on_replacement 1 = 4 tai, V = 8, each pays 2V = 16
    out = score_json(capsys, "--variant", "singapore", SG_PLAIN + " |o", "--situation", "flower_replacement")
    assert {p["id"]: p["count"] for p in out["patterns"]} == {
        "seat_flower": 1, "ping_hu_with_bonus": 1, "fully_concealed": 1, "win_on_replacement": 1}
    assert out["value"] == 4 and out["payments"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    # heavenly for East, earthly for West on East's discard (Yuxi: x32 each, yuxi.md "Scoring table";
    # heavenly is a self-draw, each of the three pays 32; earthly the dealer pays 32)
    out = score_json(capsys, "--variant", "yuxi", "123m456t789s55s666m +5s", "--situation", "heavenly")
    assert out["value"] == 32 and out["payments"] == {"E": 96, "S": -32, "W": -32, "N": -32}
    out = score_json(capsys, "--variant", "yuxi", "123m456t789s55s666m +5s", "--situation", "earthly",
                     "--seat-wind", "W")
    assert out["value"] == 32 and out["payments"] == {"E": -32, "S": 0, "W": 32, "N": 0}
    # robbing the kong of 4m, held once (the robbed tile; 234m is a chow, 111m a concealed pung
    # won on a discard: no tai): robbing_kong 1 tai, V = 1; the robbed player (West) pays for
    # all 4V = 4
    out = score_json(capsys, "--variant", "singapore", "111234m456t789s55t +4m", "--situation", "robbing_kong",
                     "--discarder", "W")
    assert {p["id"] for p in out["patterns"]} == {"robbing_kong"} and out["value"] == 1
    assert out["payments"] == {"E": 4, "S": 0, "W": -4, "N": 0}


def test_uzje_indicators_must_be_possible(capsys):
    hand = "123m456s789s111tEE +1t"
    # 1t three times in the hand and the indicator shows a fourth: fine ...
    assert main(["score", "--variant", "uzje", hand, "--indicator", "1t", "--json"]) == 0
    capsys.readouterr()
    # ... two indicators of 1t would be a fifth copy
    line = refused(capsys, "score", "--variant", "uzje", hand, "--indicator", "1t", "--indicator", "1t")
    assert "--indicator 1t" in line and "4 copies" in line
    # a flower is not in play without the flowers option
    line = refused(capsys, "score", "--variant", "uzje", hand, "--indicator", "o")
    assert "not used" in line
    # more indicators than the dead wall holds (16)
    line = refused(capsys, "score", "--variant", "uzje", hand, *["--indicator", "2m"] * 4,
                   *["--indicator", "3m"] * 3, *["--indicator", "5m"] * 4, *["--indicator", "6m"] * 4,
                   *["--indicator", "7m"] * 2)
    assert "at most 16" in line
    # a variant that turns up no indicators
    line = refused(capsys, "score", "--variant", "classic", "123m456t777sEEE55m +5m", "--indicator", "5m")
    assert "no indicator" in line


def test_the_table_scores_nine_gates_the_same_way():
    # the engine builds its own context (Table.context) and scores it with scoring.evaluate, the
    # calculator's path: East holding 11123456789999t, self-drawn 1t, is nine gates there too
    from mahjong_tui import tiles as T
    from mahjong_tui.engine.table import Table

    sg = load_variant("singapore")
    table = Table(sg, 1, hands=1, first_dealer=0)
    seat = 0
    table.hands[seat] = T.counts_of(T.parse_tiles("11123456789999t"))
    table.melds[seat] = []
    table.bonus[seat] = []
    ctx = table.context(seat, T.parse_tile("1t"), True)
    assert ctx.seat_wind == T.EAST and not ctx.melds
    res = evaluate(sg, ctx)
    assert "nine_gates" in ids(res) and res.value == 5


def test_the_scoring_screens_payments_agree_without_a_discarder():
    # explain.win_payments lists the payments settle() makes: the Yangzhou full flush of
    # YZ_FLUSH (63 fan) won on a discard, West (seat 2) liable: he pays 2F = 126, whoever discarded
    from mahjong_tui.scoring.explain import win_payments

    yz = load_variant("yangzhou")
    res = evaluate(yz, context_from_notation(YZ_FLUSH, variant=yz))
    pays = win_payments(yz, res, winner=0, self_draw=False, discarder=None, liable=2)
    assert [(p.payer, p.payee, p.amount, p.why) for p in pays] == [(2, 0, 126, "pays for all")]
    # nobody liable and no discarder: the payer is not known
    with pytest.raises(ValueError):
        win_payments(yz, res, winner=0, self_draw=False, discarder=None)
