"""The arithmetic of a scored hand (mahjong_tui/scoring/explain.py), one scheme at a time.

Every expected line is worked out by hand from the rules pages (assets/rules/<variant>.md) and
the values of variants/*.toml, in the comment above it; the hands are scored by the real
scorer, so a line that disagrees with the scorer's value fails here.  Seats: the winner is
East (seat 0) unless a test says otherwise; payments are checked against
``settlement.payments_for_score`` (the settlement the engine makes for one winner).
"""

from __future__ import annotations

from mahjong_tui.scoring import evaluate
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.scoring.context import PatternScore, ScoreResult
from mahjong_tui.scoring.explain import (Payment, arithmetic, pattern_amount, result_from_summary, value_line,
                                         win_payments)
from mahjong_tui.variant import load_variant, parse_option_assignments

WINDS = "ESWN"


def scored(vid: str, hand: str, *, self_draw: bool, discarder: str | None = None, options=()):
    variant = load_variant(vid, parse_option_assignments(list(options))) if options else load_variant(vid)
    res = evaluate(variant, context_from_notation(hand, variant=variant, self_draw=self_draw, discarder=discarder))
    assert res.winning, res.reason
    return variant, res


def same_as_settlement(variant, res, payments: list[Payment], hand: str, self_draw: bool, discarder: str | None):
    """The payments sum, seat by seat, to what the settlement makes of this win."""
    from mahjong_tui.scoring.settlement import payments_for_score

    ctx = context_from_notation(hand, variant=variant, self_draw=self_draw, discarder=discarder)
    want = payments_for_score(variant, res, ctx)
    got = {w: 0 for w in WINDS}
    for p in payments:
        got[WINDS[p.payer]] -= p.amount
        got[WINDS[p.payee]] += p.amount
    assert got == want, (got, want)


# ----------------------------------------------------------------------------------------
# Classic: points × 2 per doubling, limit 800 (classic.md "Scoring")
# ----------------------------------------------------------------------------------------

def test_classic_points_then_one_times_two_per_doubling():
    # East self-draws 9m: 234567s 999m EE (CCC).  Points: exposed pung of dragons 4, concealed
    # pung of terminals (9m) 8, pair of winds 2 + own/prevailing wind pair 2, self-draw 22
    # = 38; doublings: dragon pung 1, mahjong by the dealer 1 → 38 × 2 × 2 = 152.
    variant, res = scored("classic", "234567s999mEE (CCC) +9m", self_draw=True)
    assert res.value == 152
    assert arithmetic(variant, res) == ["(4 + 8 + 2 + 2 + 22) × 2 × 2 = 152 points"]


def test_classic_over_the_limit():
    # East self-draws 5m: (CCC) (FFF) (EEE) 234m 55m.  Points: three exposed honour pungs
    # 4 + 4 + 4, self-draw 22 = 34; doublings: two dragon pungs 2, own wind 1, prevailing
    # wind 1, half suit 1, dealer 1 = 6 → 34 × 2^6 = 2176, over the limit: 800.
    variant, res = scored("classic", "234m55m (CCC) (FFF) (EEE) +5m", self_draw=True)
    assert res.value == 800
    assert arithmetic(variant, res) == ["(4 + 4 + 4 + 22) × 2^6 = 2176 points: over the limit, 800 points"]


def test_classic_special_hand_counts_nothing_else():
    # seven pairs: a special hand, 500 points, nothing else counted (classic.md "Special hands")
    variant, res = scored("classic", "1122m3344s5566t77t +7t", self_draw=True)
    assert arithmetic(variant, res) == ["Seven pairs: a special hand, 500 points; nothing else counts"]


def test_classic_cumulative_settlement_has_no_payments():
    variant, res = scored("classic", "234567s999mEE (CCC) +9m", self_draw=True)
    assert win_payments(variant, res, winner=0, self_draw=True, discarder=None) == []


def test_a_count_is_said_unambiguously():
    # "×2 4 points" read as either 4 or 8: a pattern counted twice says both numbers
    two = PatternScore("bonus_other", 4, 2, "points", "flower or season of another wind")
    assert pattern_amount(two, "points") == "2 × 4 points = 8 points"
    assert pattern_amount(PatternScore("dragon_pung", 1, 2, "doublings"), "points") == "2 × 1 doubling = 2 doublings"
    assert pattern_amount(PatternScore("mahjong_discard", 20, 1, "points"), "points") == "20 points"
    assert pattern_amount(PatternScore("seven_pairs", 500, 1, "special"), "points") == "500 points (special hand)"
    assert pattern_amount(PatternScore("big_three_dragons", 5, 1, "limit"), "tai") == "5 tai (limit)"
    assert pattern_amount(PatternScore("full_flush", 2, 1, "multipliers"), "multiplier") == "×2"


# ----------------------------------------------------------------------------------------
# Yuxi: multipliers multiply, capped at ×32; V = M × base (yuxi.md "Scoring table", "Settlement")
# ----------------------------------------------------------------------------------------

def test_yuxi_multipliers_and_self_draw_payments():
    # 111 222 333 444 55 of bamboo, self-drawn: all triplets ×2, full flush ×2 → 2 × 2 = ×4;
    # V = 4 × base 1 = 4; a self-draw: each of the three others pays V = 4.
    hand = "111222333s44455s +5s"
    variant, res = scored("yuxi", hand, self_draw=True)
    assert arithmetic(variant, res) == ["2 × 2 = ×4"]
    assert value_line(variant, res) == "V = base 1 × 4 = 4"
    pays = win_payments(variant, res, winner=0, self_draw=True, discarder=None)
    assert [(p.payer, p.amount, p.how) for p in pays] == [(1, 4, ""), (2, 4, ""), (3, 4, "")]
    same_as_settlement(variant, res, pays, hand, True, None)


def test_yuxi_over_the_cap():
    # a made-up breakdown ×4 × ×4 × ×4 = ×64, over the cap of 32
    variant = load_variant("yuxi")
    res = ScoreResult(True, 32, "multiplier", patterns=tuple(PatternScore(f"p{i}", 4, 1, "multipliers") for i in range(3)))
    assert arithmetic(variant, res) == ["4 × 4 × 4 = ×64: over the limit, ×32"]


# ----------------------------------------------------------------------------------------
# Singapore: tai add up, capped at 5; V = 2^(tai − 1) (singapore.md "Tai table", "Settlement")
# ----------------------------------------------------------------------------------------

def test_singapore_tai_and_self_draw_payments():
    # East self-draws 1m with flower 1 (his own): seat flower 1, ping hu holding bonus tiles
    # 1, fully concealed 1 = 3 tai; V = 2^(3 − 1) = 4; self-draw: each pays 2V = 2 × 4 = 8.
    hand = "123567m456t789s55t +1m |o"
    variant, res = scored("singapore", hand, self_draw=True)
    assert arithmetic(variant, res) == ["1 + 1 + 1 = 3 tai"]
    assert value_line(variant, res) == "V = 2^(3 − 1) = 4"
    pays = win_payments(variant, res, winner=0, self_draw=True, discarder=None)
    assert [(p.payer, p.amount, p.how, p.why) for p in pays] == [
        (1, 8, "2 × 4", "self-draw"), (2, 8, "2 × 4", "self-draw"), (3, 8, "2 × 4", "self-draw")]
    same_as_settlement(variant, res, pays, hand, True, None)


def test_singapore_discard_win_and_the_cap():
    # (CCC) (FFF) 111m 999m EE won on South's E: dragon pungs 1 + 1, half flush 2, mixed
    # terminals 4 = 8 tai, capped at 5; V = 2^(5 − 1) = 16; the discarder (South) pays
    # 2V = 32, West and North V = 16 each.
    hand = "(CCC) (FFF) 111m 999m EE +E"
    variant, res = scored("singapore", hand, self_draw=False, discarder="S")
    assert res.value == 5
    assert arithmetic(variant, res) == ["1 + 1 + 2 + 4 = 8 tai: over the limit, 5 tai"]
    assert value_line(variant, res) == "V = 2^(5 − 1) = 16"
    pays = win_payments(variant, res, winner=0, self_draw=False, discarder=1)
    assert [(p.payer, p.amount, p.how, p.why) for p in pays] == [
        (1, 32, "2 × 16", "discarder"), (2, 16, "", ""), (3, 16, "", "")]
    same_as_settlement(variant, res, pays, hand, False, "S")


def test_singapore_shooter_pays_all():
    # the option: the discarder pays what all three would have: 2V + V + V = 4 × 16 = 64
    hand = "(CCC) (FFF) 111m 999m EE +E"
    variant, res = scored("singapore", hand, self_draw=False, discarder="S", options=["shooter_pays_all=true"])
    pays = win_payments(variant, res, winner=0, self_draw=False, discarder=1)
    assert pays == [Payment(1, 0, 64, "4 × 16", "pays for all")]
    same_as_settlement(variant, res, pays, hand, False, "S")


def test_a_seat_liable_for_a_self_draw_pays_all():
    # Singapore, 3 tai self-drawn (V = 4), North liable: 3 × 2V = 6 × 4 = 24
    variant, res = scored("singapore", "123567m456t789s55t +1m |o", self_draw=True)
    assert win_payments(variant, res, winner=0, self_draw=True, discarder=None, liable=3) == [
        Payment(3, 0, 24, "6 × 4", "pays for all")]


# ----------------------------------------------------------------------------------------
# Yangzhou: fan add up, 15 to win; the discarder pays 2F (yangzhou.md "Fan table", "Settlement")
# ----------------------------------------------------------------------------------------

def test_yangzhou_fan_and_the_discarders_double():
    # 123456789s EE 46s won on South's 5s: basic win 1, no melds 1, edge wait 1 (the middle
    # tile, one kind), pure straight 15, two identical sequences (456 456) 10, mixed suit 15
    # = 43 fan; the discarder pays 2F = 2 × 43 = 86.
    hand = "123456789sEE456s +5s"
    variant, res = scored("yangzhou", hand, self_draw=False, discarder="S")
    assert arithmetic(variant, res) == ["1 + 1 + 1 + 15 + 10 + 15 = 43 fan (a win needs 15)"]
    assert value_line(variant, res) == "V = 43"
    pays = win_payments(variant, res, winner=0, self_draw=False, discarder=1)
    assert pays == [Payment(1, 0, 86, "2 × 43", "discarder")]
    same_as_settlement(variant, res, pays, hand, False, "S")


# ----------------------------------------------------------------------------------------
# Uzje: fan in tenths, then the 2-5-10 ladder; halves on a self-draw (uzje.md "From fan to points", "Settlement")
# ----------------------------------------------------------------------------------------

def test_uzje_ladder_and_half_on_a_self_draw():
    # 123s 456s 789s 123m 11m self-drawn: self-draw 1, closed hand 2.6, single differences
    # (four ariths of step 1) 1.4 = 5 fan; 5 − 2.5 = 2.5 above the minimum, 2 whole steps:
    # ladder 2, 5, 10 → 10 points; a self-draw: each pays half of 10 = 5.
    hand = "123s456s789s123m11m +1m"
    variant, res = scored("uzje", hand, self_draw=True)
    assert (res.value, res.points) == (5, 10)
    assert arithmetic(variant, res) == [
        "1 + 2.6 + 1.4 = 5 fan",
        "5 − 2.5 = 2.5 fan above the minimum, 2 whole: ladder 2, 5, 10, 20, … → 10 points"]
    assert value_line(variant, res) == "V = 10"
    pays = win_payments(variant, res, winner=0, self_draw=True, discarder=None)
    assert [(p.payer, p.amount, p.how) for p in pays] == [(1, 5, "half of 10"), (2, 5, "half of 10"), (3, 5, "half of 10")]
    same_as_settlement(variant, res, pays, hand, True, None)


def test_uzje_on_a_discard():
    # the same hand on South's 1m: closed hand 2.6 + single differences 1.4 = 4 fan; 1.5
    # above, 1 whole step → 5 points, paid by the discarder alone.
    hand = "123s456s789s123m11m +1m"
    variant, res = scored("uzje", hand, self_draw=False, discarder="S")
    assert arithmetic(variant, res)[1] == "4 − 2.5 = 1.5 fan above the minimum, 1 whole: ladder 2, 5, 10, … → 5 points"
    pays = win_payments(variant, res, winner=0, self_draw=False, discarder=1)
    assert pays == [Payment(1, 0, 5, "", "discarder")]
    same_as_settlement(variant, res, pays, hand, False, "S")


def test_uzje_past_the_ladder_and_limit_hands():
    variant = load_variant("uzje")
    # 14 fan: 14 − 2.5 = 11.5, 11 whole steps, past the 10 of the ladder: 5000 × (1 + (11 −
    # 10) div 3) = 5000 × 1 = 5000
    res = ScoreResult(True, 14, "fan", patterns=(PatternScore("full_flush", 6, 1, "fan"),
                                                  PatternScore("all_powers", 5, 1, "fan"),
                                                  PatternScore("rock_field", 3, 1, "fan")), points=5000)
    assert arithmetic(variant, res)[1] == ("14 − 2.5 = 11.5 fan above the minimum, 11 whole: past the ladder's "
                                           "10 steps, 5000 × (1 + (11 − 10) ÷ 3, rounded down) = 5000 points")
    # fourteen orphans counts 2 limits: 2 × 5000 = 10000 points, no fan
    two = ScoreResult(True, 0, "fan", patterns=(PatternScore("fourteen_orphans", 2, 1, "limits", "Fourteen orphans"),),
                      points=10000)
    assert arithmetic(variant, two) == ["Fourteen orphans: 2 limit hands, 2 × 5000 = 10000 points; no fan counts"]


# ----------------------------------------------------------------------------------------
# The hand summary
# ----------------------------------------------------------------------------------------

def test_a_result_rebuilt_from_the_hand_summary_explains_the_same():
    variant, res = scored("classic", "234567s999mEE (CCC) +9m", self_draw=True)
    summary = {"value": res.value, "unit": res.unit, "form": res.form, "melds": list(res.decomposition),
               "winning_group": res.winning_group,
               "patterns": [{"id": p.id, "value": p.value, "count": p.count, "kind": p.kind,
                             "description": p.description} for p in res.patterns]}
    again = result_from_summary(summary)
    assert arithmetic(variant, again) == arithmetic(variant, res)
    assert again.decomposition == ("(CCC)", "234s", "567s", "999m", "EE") and again.winning_group == 3


def test_the_winning_group_is_where_the_scorer_put_the_winning_tile():
    # Yangzhou 123456789s EE 46s + 5s: 5s completes a 456s chow in its middle (the edge wait
    # that scores), not the straight's 456s: the groups are 123s 456s 456s 789s EE, and the
    # scorer marks one of the two 456s
    variant, res = scored("yangzhou", "123456789sEE456s +5s", self_draw=False, discarder="S")
    assert res.decomposition == ("123s", "456s", "456s", "789s", "EE")
    assert res.decomposition[res.winning_group] == "456s"
    # Classic 999m completed by 9m: group 3 of (CCC) 234s 567s 999m EE
    variant, res = scored("classic", "234567s999mEE (CCC) +9m", self_draw=True)
    assert res.decomposition[res.winning_group] == "999m"


def test_the_groups_are_named_as_players_name_them():
    from mahjong_tui.scoring.explain import meld_label

    classic, uzje = load_variant("classic"), load_variant("uzje")
    assert [meld_label(classic, g) for g in ("(777s)", "[CCCC]", "123m", "55m", "EEE", "(5555t)")] == [
        "exposed pung", "concealed kong", "chow", "pair", "pung", "exposed kong"]
    # Uzje's sequences by its meld templates (uzje.md "Melds and winning hands"): 1-3-5 is an
    # arith (step 2), 1-2-4 a gem, 1-4-9 a power
    assert [meld_label(uzje, g) for g in ("135s", "124m", "(149s)")] == ["arith", "gem", "exposed power"]


def test_a_pattern_worth_nothing_says_so_once():
    # two chows in Classic: worth 0 however many, not "2 × 0 points = 0 points"
    assert pattern_amount(PatternScore("chow", 0, 2, "points"), "points") == "0 points"


def test_classic_zero_sum_payments_as_settled():
    # Classic with settlement.mode = "classical_zero_sum" (classic.md "Settlement"): South
    # wins with 72; East (8) and West (24) and North (0) each pay him 72, East doubled: 144.
    # Then the losers settle their differences: East 8 vs West 24: East pays 16, doubled 32;
    # East 8 vs North 0: North pays East 8, doubled 16; West 24 vs North 0: North pays 24.
    from mahjong_tui.scoring.explain import zero_sum_payments
    from mahjong_tui.scoring.settlement import settle
    from mahjong_tui import tiles as T

    variant = load_variant("classic", parse_option_assignments(["settlement.mode=classical_zero_sum"]))
    pays = zero_sum_payments(variant, seat_winds="ESWN", winners=[(1, 72)], loser_scores={0: 8, 2: 24, 3: 0})
    assert [(p.payer, p.payee, p.amount, p.how, p.why) for p in pays] == [
        (0, 1, 144, "2 × 72", "East pays double"), (2, 1, 72, "", ""), (3, 1, 72, "", ""),
        (0, 2, 32, "2 × (24 − 8)", "East pays double"), (3, 0, 16, "2 × (8 − 0)", "East receives double"),
        (3, 2, 24, "(24 − 0)", "")]
    res = {s: ScoreResult(False, v) for s, v in {0: 8, 2: 24, 3: 0}.items()}
    want = settle(variant, seat_winds=[T.EAST, T.SOUTH, T.WEST, T.NORTH], winners=[(1, ScoreResult(True, 72), None)],
                  losers=res, self_draw=True, discarder=None)
    got = [0] * 4
    for p in pays:
        got[p.payer] -= p.amount
        got[p.payee] += p.amount
    assert got == want == [-160, 288, -16, -112]


def test_score_prints_the_same_arithmetic(capsys):
    # the score command's text uses this module, the one place the arithmetic is written:
    # the Classic hand above, (4 + 8 + 2 + 2 + 22) × 2 × 2 = 152 points
    from mahjong_tui.cli import main

    assert main(["score", "--variant", "classic", "234567s999mEE (CCC) +9m", "--by", "self-draw"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    at = lines.index("= (4 + 8 + 2 + 2 + 22) × 2 × 2 = 152 points")
    assert lines[at + 1].split() == ["total", "152", "points"]
