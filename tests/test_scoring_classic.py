"""Classic Chinese (Oxenstierna) scoring: seed 003, classic.md "Winning hands", "Scoring", G-OX-2…G-OX-6, "Special hands".

Every hand is written in the hand-string notation (common.md "Tile notation").  Unless a case says otherwise the
player sits South (not the dealer), the prevailing wind is East, and the win is on a discard
(the winning tile ``+T`` is counted among the concealed tiles).  The arithmetic of every
expected value is worked out in the comment next to it: points, then ×2 per doubling, capped
at 800 (values from variants/classic.toml).
"""

from __future__ import annotations

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.scoring import evaluate, score_loser
from mahjong_tui.scoring import points_doublings as PD
from mahjong_tui.scoring.common import (
    apply_exclusions, arrangements, best, context_from_notation, hand_facts, waits_of_13,
    wind_letter,
)
from mahjong_tui.scoring.context import PatternScore, ScoreResult
from mahjong_tui.variant import load_variant


@pytest.fixture(scope="module")
def classic():
    return load_variant("classic")


def ctx_of(hand: str, *, seat="S", prevailing="E", self_draw=False, situations=(), claimed="",
           winner=True, discarder=None):
    """Hand string + flags → HandContext (the winning tile is ``+T``; for a discard win it is
    already among the concealed tiles)."""
    return context_from_notation(hand, self_draw=self_draw, seat_wind=seat, prevailing_wind=prevailing,
                                 situations=situations, claimed=claimed, winner=winner,
                                 discarder=discarder)


def pats(result: ScoreResult) -> dict[str, tuple[float, int]]:
    return {p.id: (p.value, p.count) for p in result.patterns}


# (test id, hand, flags, expected value, expected patterns {id: count}) --------------------
# One case per pattern id of classic.md "Scoring" (points, doublings, specials).
CASES = [
    # --- points ------------------------------------------------------------------------
    ("chow", "123m 456t 789s 555m 99s +9s", {},
     # 3 chows 0 + pung_simple_hidden 555m 4 + plain pair 0 + mahjong_discard 20 = 24
     24, {"chow": 3, "pung_simple_hidden": 1, "mahjong_discard": 1}),
    ("pung_simple_open", "123m 456t 789s 99s (555m) +9s", {},
     # pung_simple_open 2 + mahjong_discard 20 = 22
     22, {"pung_simple_open": 1, "mahjong_discard": 1}),
    ("pung_simple_hidden", "123m 456t 789s 555m 99s +9s", {"self_draw": True},
     # pung_simple_hidden 4 + mahjong_self_drawn 22 = 26
     26, {"pung_simple_hidden": 1, "mahjong_self_drawn": 1}),
    ("pung_terminal_open", "234m 456t 789s 55s (111m) +5s", {},
     # pung_terminal_open 4 + 20 = 24
     24, {"pung_terminal_open": 1, "chow": 3}),
    ("pung_terminal_hidden", "111m 234m 456t 789s 55s +5s", {},
     # pung_terminal_hidden 8 + 20 = 28
     28, {"pung_terminal_hidden": 1}),
    ("pung_honour_open", "123m 456t 789s 55s (NNN) +5s", {},
     # North is neither own (S) nor prevailing (E) wind: pung_honour_open 4 + 20 = 24, no doubling
     24, {"pung_honour_open": 1}),
    ("pung_honour_hidden", "NNN 123m 456t 789s 55s +5s", {},
     # pung_honour_hidden 8 + 20 = 28
     28, {"pung_honour_hidden": 1}),
    ("kong_simple_open", "123m 456t 789s 99s (5555m) +9s", {},
     # kong_simple_open 8 + 20 = 28
     28, {"kong_simple_open": 1}),
    ("kong_simple_hidden", "123m 456t 789s 99s [5555m] +9s", {},
     # kong_simple_hidden 16 + 20 = 36
     36, {"kong_simple_hidden": 1}),
    ("kong_terminal_open", "123m 456t 789s 55s (9999t) +5s", {},
     # kong_terminal_open 16 + 20 = 36
     36, {"kong_terminal_open": 1}),
    ("kong_terminal_hidden", "123m 456t 789s 55s [9999t] +5s", {},
     # kong_terminal_hidden 32 + 20 = 52
     52, {"kong_terminal_hidden": 1}),
    ("kong_honour_open", "123m 456t 789s 55s (NNNN) +5s", {},
     # kong_honour_open 16 + 20 = 36
     36, {"kong_honour_open": 1}),
    ("kong_honour_hidden", "123m 456t 789s 55s [NNNN] +5s", {},
     # kong_honour_hidden 32 + 20 = 52
     52, {"kong_honour_hidden": 1}),
    ("pair_honour", "123m 456t 789s 555m CC +C", {},
     # pung_simple_hidden 4 + pair_honour (dragon pair) 2 + 20 = 26
     26, {"pair_honour": 1, "pung_simple_hidden": 1}),
    ("pair_value_wind", "123m 456t 789s 555m SS +S", {"seat": "S", "prevailing": "S"},
     # own = prevailing wind pair: pair_honour 2 + pair_value_wind 2 once (G-OX-3, not 6)
     # + pung_simple_hidden 4 + 20 = 28
     28, {"pair_honour": 1, "pair_value_wind": 1}),
    ("bonus_other", "123m 456t 789s 555m 99s +9s |hq", {},
     # South's number is 2: Spring (1) and Chrysanthemum (3) are others': 2 × bonus_other 4
     # + pung_simple_hidden 4 + 20 = 32
     32, {"bonus_other": 2}),
    ("bonus_own", "123m 456t 789s 555m 99s +9s |ip", {},
     # Summer (2) and Orchid (2) are South's own: 2 × bonus_own 8 + 4 + 20 = 40
     40, {"bonus_own": 2}),
    ("mahjong_discard", "111t 222s 333m 456m 99s +9s", {},
     # 3 × pung (terminal hidden 8, simple hidden 4, simple hidden 4) = 16 + 20 = 36
     36, {"mahjong_discard": 1, "pung_terminal_hidden": 1, "pung_simple_hidden": 2}),
    ("mahjong_self_drawn", "111t 222s 333m 456m 99s +9s", {"self_draw": True},
     # 16 + mahjong_self_drawn 22 = 38
     38, {"mahjong_self_drawn": 1}),
    ("mahjong_last_tile", "111t 222s 333m 456m 99s +9s", {"self_draw": True, "situations": ("last_wall_tile",)},
     # 16 + mahjong_last_tile 30 (replaces the 22) = 46
     46, {"mahjong_last_tile": 1}),
    ("worthless_hand", "123m 345m 456t 789s 99s +9s", {"self_draw": True},
     # 4 chows, plain pair, no flowers: worthless_hand 30 in place of the 22 (classic.md "Points") = 30
     30, {"worthless_hand": 1, "chow": 4}),
    # --- doublings ---------------------------------------------------------------------
    ("dragon_pung", "123m 456t 789s CCC 99s +9s", {},
     # pung_honour_hidden 8 + 20 = 28; 1 dragon doubling → 56
     56, {"dragon_pung": 1, "pung_honour_hidden": 1}),
    ("own_wind_pung", "123m 456t 789s SSS 99s +9s", {},
     # South's own wind: 8 + 20 = 28; 1 doubling → 56
     56, {"own_wind_pung": 1}),
    ("prevailing_wind_pung", "123m 456t 789s EEE 99s +9s", {},
     # prevailing East: 8 + 20 = 28; 1 doubling → 56
     56, {"prevailing_wind_pung": 1}),
    ("own_and_prevailing_wind_pung", "123m 456t 789s WWW 99s +9s", {"seat": "W", "prevailing": "W"},
     # same wind → 2 doublings: 28 × 4 = 112
     112, {"own_wind_pung": 1, "prevailing_wind_pung": 1}),
    ("all_flowers", "123m 456t 789s 555m 99s +9s |opqr", {},
     # flowers o q r others' 3 × 4 = 12, p own 8 → 20; + 4 + 20 = 44; 3 doublings → 352
     352, {"all_flowers": 1, "bonus_other": 3, "bonus_own": 1}),
    ("all_seasons", "123m 456t 789s 555m 99s +9s |hijk", {},
     # seasons h j k others' 12, i own 8 → 20; + 4 + 20 = 44; 3 doublings → 352
     352, {"all_seasons": 1}),
    ("half_suit", "123m 456m 789m NNN 55m +5m", {},
     # 5m completes the pair (45556m read as 456+55): NNN hidden 8 + 20 = 28; half suit → 56
     56, {"half_suit": 1}),
    ("full_suit", "123m 123m 789m 666m 44m +4m", {},
     # 666m hidden 4 + 20 = 24; full suit 3 doublings → 192
     192, {"full_suit": 1, "pung_simple_hidden": 1, "chow": 3}),
    ("pung_hand", "111m 999s NNN 22s (555t) +2s", {},
     # 111m hidden 8 + 999s hidden 8 + NNN hidden 8 + (555t) open 2 = 26 + 20 = 46;
     # pung_hand 1 doubling → 92
     92, {"pung_hand": 1}),
    ("mahjong_by_dealer", "123m 456t 789s 555m 99s +9s", {"seat": "E", "prevailing": "S"},
     # 4 + 20 = 24; East wins: 1 doubling → 48
     48, {"mahjong_by_dealer": 1}),
    ("robbing_kong", "123m 456t 789s 555m 99s +9s", {"situations": ("robbing_kong",)},
     # robbing an added kong of 9s: 24 × 2 = 48
     48, {"robbing_kong": 1}),
    ("robbing_kong_claimable_discard", "123m 456t 789s 555m 99s +9s", {"situations": ("kong_claimable_discard",)},
     # G-OX-4 second reading: a discard another player could have konged: 24 × 2 = 48
     48, {"robbing_kong": 1}),
    ("three_small_masters", "(CCC) (FFF) PP 123m 456t +P", {},
     # open dragon pungs 4 + 4, dragon pair 2, + 20 = 30; doublings: 2 dragon_pung + 3 three small
     # masters = 5 → 30 × 32 = 960 → limit 800
     800, {"three_small_masters": 1, "dragon_pung": 2, "pair_honour": 1}),
    # --- special hands (fixed score, nothing else counted) ---------------------------------
    ("heavenly_blessing", "123m 456t 789s 555m 99s +3m", {"seat": "E", "self_draw": True, "situations": ("heavenly",)},
     # East's dealt hand; a chow-completing tile is fine for a special hand (classic.md "Winning hands")
     800, {"heavenly_blessing": 1}),
    ("earthly_blessing", "123m 456t 789s 555m 99s +3m", {"situations": ("earthly",)},
     800, {"earthly_blessing": 1}),
    ("three_grand_masters", "CCC FFF 123m 99s (PPP) +2m", {},
     # exempt from the chow rule: 2m completes 123m
     800, {"three_grand_masters": 1}),
    ("four_blessings", "EEE SSS WWW 99s (NNN) +9s", {},
     800, {"four_blessings": 1}),
    ("grand_honours", "EEE SSS CCC NNN PP +P", {},
     800, {"grand_honours": 1}),
    ("thirteen_miracles", "19t 19s 19m ESWNCFP 1t +1t", {},
     800, {"thirteen_miracles": 1}),
    ("heads_and_tails", "111t 999t 111s 11m (999s) +1m", {},
     800, {"heads_and_tails": 1}),
    ("hidden_treasure", "111t 555s 777m NNN 22s +2s", {},
     # four concealed pungs; the discard completes the pair, not a pung
     800, {"hidden_treasure": 1}),
    ("grand_waiting", "11123455678999m +5m", {},
     # concealed 1112345678999m waiting on any character; won with 5m
     800, {"grand_waiting": 1}),
    ("seven_pairs", "1199t 2255s 33m EE CC +C", {},
     500, {"seven_pairs": 1}),
]


@pytest.mark.parametrize("hand,flags,value,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_pattern(classic, hand, flags, value, expected):
    res = evaluate(classic, ctx_of(hand, **flags))
    assert res.winning, res.reason
    assert res.unit == "points"
    got = pats(res)
    for pid, count in expected.items():
        assert pid in got, (pid, got)
        assert got[pid][1] == count, (pid, got)
        # values come from the variant file
        assert got[pid][0] == classic.pattern_value(pid)
    assert res.value == value, got
    if any(pid in PD.SPECIAL_IDS for pid in expected):
        assert len(res.patterns) == 1 and res.patterns[0].kind == "special"


def test_every_pattern_id_has_a_case(classic):
    covered = {pid for c in CASES for pid in c[4]}
    assert covered == PD.PATTERN_IDS
    file_ids = set(classic.scoring["points"]) | set(classic.scoring["doublings"]) | set(classic.scoring["special"])
    assert file_ids == PD.PATTERN_IDS


def test_pattern_kinds_and_descriptions(classic):
    res = evaluate(classic, ctx_of("123m 456t 789s CCC 99s +9s"))
    kinds = {p.id: p.kind for p in res.patterns}
    assert kinds["dragon_pung"] == "doublings" and kinds["pung_honour_hidden"] == "points"
    assert all(p.description for p in res.patterns)
    assert res.form == "standard"
    assert res.decomposition[-1] == "99s"


# --- classic.md "Winning hands": no win by completing a chow ----------------------------------------------------------


@pytest.mark.parametrize("self_draw", [False, True])
def test_chow_completing_tile_is_refused(classic, self_draw):
    # 3m can only sit in 123m: the Oxenstierna rule refuses the win
    res = evaluate(classic, ctx_of("123m 456t 789s 555m 99s +3m", self_draw=self_draw))
    assert not res.winning
    assert "chow" in res.reason
    assert res.payments is None


def test_chow_completing_tile_allowed_by_house_rule(classic):
    house = classic.with_options({"claims.win_completing_chow": True})
    res = evaluate(house, ctx_of("123m 456t 789s 555m 99s +3m"))
    # 555m hidden 4 + 20 = 24
    assert res.winning and res.value == 24


def test_ambiguous_reading_takes_the_pair(classic):
    # 23444m: the 4m may complete 234m (refused) or the pair 44m (accepted)
    ctx = ctx_of("23444m 456t 789s NNN +4m")
    arrs = arrangements(classic, ctx)
    assert sorted(a.wait for a in arrs) == ["open", "pair"]
    res = evaluate(classic, ctx)
    # NNN hidden 8 + 20 = 28
    assert res.winning and res.value == 28
    assert "44m" in res.decomposition and "234m" in res.decomposition


def test_ambiguous_pung_or_chow_reading(classic):
    # 34555m: 5m in 345m (chow, refused) with pair 55m, or … 555m + 34m (not complete).
    # The accepted reading is 345m + 55m with the 5m in the pair.
    res = evaluate(classic, ctx_of("34555m 123t 789s NNN +5m"))
    assert res.winning and res.value == 28  # NNN hidden 8 + 20


def test_not_complete(classic):
    res = evaluate(classic, ctx_of("123m 456t 789s 555m 19s +9s"))
    assert not res.winning and "not a complete hand" in res.reason


# --- common.md "Melds" / G-OX-2: what is concealed --------------------------------------------------------


def test_pung_completed_by_winning_discard_is_open(classic):
    # 55m + discarded 5m: pung_simple_open 2 + 20 = 22
    res = evaluate(classic, ctx_of("123m 456t 789s 555m 99s +5m"))
    assert pats(res)["pung_simple_open"] == (2, 1)
    assert res.value == 22
    # the same tile drawn from the wall: pung_simple_hidden 4 + 22 = 26
    res = evaluate(classic, ctx_of("123m 456t 789s 555m 99s +5m", self_draw=True))
    assert pats(res)["pung_simple_hidden"] == (4, 1) and res.value == 26


def test_hidden_treasure_needs_concealed_pungs(classic):
    # N discarded completes NNN, which is then open: no hidden treasure.
    # 111t hidden 8 + 555s hidden 4 + 777m hidden 4 + NNN open 4 = 20 + 20 = 40; pung hand → 80
    res = evaluate(classic, ctx_of("111t 555s 777m NNN 22s +N"))
    assert "hidden_treasure" not in pats(res) and res.value == 80
    # self-drawn N: hidden treasure
    res = evaluate(classic, ctx_of("111t 555s 777m NNN 22s +N", self_draw=True))
    assert pats(res) == {"hidden_treasure": (800, 1)}


def test_picked_up_tile_makes_pung_open(classic):
    # G-OX-2: one 5s was picked up from a discard without melding → 555s scores open and the hand
    # is no hidden treasure: 111t 8 + 555s open 2 + 777m 4 + NNN 8 = 22 + 20 = 42; pung hand → 84
    res = evaluate(classic, ctx_of("111t 555s 777m NNN 22s +2s", claimed="5s"))
    got = pats(res)
    assert "hidden_treasure" not in got
    assert got["pung_simple_open"] == (2, 1) and got["pung_simple_hidden"] == (4, 1)
    assert res.value == 84


def test_picked_up_tile_in_pair_spoils_hidden_treasure(classic):
    # G-OX-2 "the hand cannot be hidden_treasure": the picked-up 2s sits in the pair.
    # 8 + 4 + 4 + 8 = 24 + 20 = 44; pung hand → 88
    res = evaluate(classic, ctx_of("111t 555s 777m NNN 22s +2s", claimed="2s"))
    assert "hidden_treasure" not in pats(res) and res.value == 88


def test_picked_up_tile_with_spare_copy_keeps_pung_hidden(classic):
    # four 5m concealed, one picked up: it can be the 5m of the chow 345m, so 555m stays hidden
    # 555m hidden 4 + 20 = 24
    res = evaluate(classic, ctx_of("3455m 55m 456t 789s 99s +9s", claimed="5m"))
    assert pats(res)["pung_simple_hidden"] == (4, 1) and res.value == 24


def test_added_kong_is_open(classic):
    from mahjong_tui.melds import Meld
    ctx = ctx_of("123m 456t 789s 99s (5555m) +9s")
    m = Meld("kong", (39, 39, 39, 39), declared=True, concealed=False, kong_type="added")
    ctx2 = type(ctx)(**{**ctx.__dict__, "melds": (m,)})
    res = evaluate(classic, ctx2)
    assert pats(res)["kong_simple_open"] == (8, 1)


# --- specials vs normal scoring -----------------------------------------------------------------


def test_special_reported_even_when_normal_reaches_limit(classic):
    # classic.md "Special hands": EEE SSS WWW NNN + CC, East, prevailing East scored normally is far past 800;
    # four_blessings is reported, alone.
    res = evaluate(classic, ctx_of("EEE SSS WWW NNN CC +C", seat="E", self_draw=True))
    assert [p.id for p in res.patterns] == ["four_blessings"]  # first of the equal specials
    assert res.value == 800 and res.patterns[0].kind == "special"


def test_seven_pairs_of_honours_is_grand_honours(classic):
    res = evaluate(classic, ctx_of("EESSWWNNCCFFPP +P"))
    assert res.form == "seven_pairs" and pats(res) == {"grand_honours": (800, 1)}


def test_grand_waiting_any_tile_of_the_suit(classic):
    for w in "123456789":
        hand = "".join(sorted("1112345678999" + w)) + "m"
        res = evaluate(classic, ctx_of(f"{hand} +{w}m", self_draw=True))
        assert pats(res) == {"grand_waiting": (800, 1)}, w


def test_seven_pairs_needs_the_form(classic):
    no7 = classic.with_options({"win.forms": ["standard", "thirteen_orphans"]})
    res = evaluate(no7, ctx_of("1199t 2255s 33m EE CC +C"))
    assert not res.winning


def test_normal_reading_can_beat_seven_pairs(classic):
    # 11223344556677m as seven pairs = 500.  Read 123 123 456 456 + 77 (7m in the pair):
    # worthless hand 30; full suit 3 + dealer 1 + robbing the kong 1 = 5 doublings → 960 → 800.
    res = evaluate(classic, ctx_of("11223344556677m +7m", seat="E", situations=("robbing_kong",)))
    assert res.form == "standard" and res.value == 800
    # without the dealer and robbing doublings: 30 × 8 = 240 < 500 → seven pairs
    res = evaluate(classic, ctx_of("11223344556677m +7m"))
    assert res.form == "seven_pairs" and res.value == 500


def test_limit_cap(classic):
    # [CCCC] kong_honour_hidden 32 + (SSSS) kong_honour_open 16 + 111m, 999m pung_terminal_hidden
    # 8 + 8 + mahjong_discard 20 = 84; doublings: dragon 1, own wind (South) 1, half suit 1,
    # pung hand 1 = 4 → 84 × 16 = 1344 → limit 800
    res = evaluate(classic, ctx_of("111m 999m 55m [CCCC] (SSSS) +5m"))
    got = pats(res)
    assert got["kong_honour_hidden"] == (32, 1) and got["kong_honour_open"] == (16, 1)
    assert sum(p.total for p in res.patterns if p.kind == "doublings") == 4
    assert res.value == 800 == classic.scoring["limit"]


def test_worthless_hand_needs_plain_pair_and_no_flowers(classic):
    # with a flower: 4 chows, bonus_other 4 + mahjong_discard 20 = 24
    res = evaluate(classic, ctx_of("123m 345m 456t 789s 99s +9s |h"))
    assert "worthless_hand" not in pats(res) and res.value == 24
    # with an honour pair: pair_honour 2 + 20 = 22
    res = evaluate(classic, ctx_of("123m 345m 456t 789s NN +N"))
    assert "worthless_hand" not in pats(res) and res.value == 22
    # plain pair, won on a discard: still 30 (replaces the 20)
    res = evaluate(classic, ctx_of("123m 345m 456t 789s 99s +9s"))
    assert pats(res)["worthless_hand"] == (30, 1) and res.value == 30
    assert "mahjong_discard" not in pats(res)


def test_dealer_wins_with_prevailing_east(classic):
    # East in the East round: EEE hidden 8 + 20 = 28; own + prevailing + dealer = 3 → 224
    res = evaluate(classic, ctx_of("123m 456t 789s EEE 99s +9s", seat="E", prevailing="E"))
    assert res.value == 224


def test_exclusions_house_rule(classic):
    # A house file may make three small masters replace the dragon doublings.
    house = classic.with_options({"scoring.exclusions": [["three_small_masters", "dragon_pung"]]})
    res = evaluate(house, ctx_of("(CCC) (FFF) PP 123m 456t +P"))
    # 30 points; 3 doublings → 240
    assert "dragon_pung" not in pats(res) and res.value == 240


# --- losers (G-OX-6) -----------------------------------------------------------------------------


def test_loser_scores_melds_hidden_pungs_and_kongs(classic):
    # CCC hidden pung 8 + (555t) open 2 + [NNNN] hidden kong 32 = 42; no pair or mahjong points;
    # dragon doubling → 84
    ctx = ctx_of("CCC 23m 99s (555t) [NNNN]", winner=False)
    res = score_loser(classic, ctx)
    assert not res.winning and res.value == 84
    got = pats(res)
    assert got == {"pung_honour_hidden": (8, 1), "pung_simple_open": (2, 1),
                   "kong_honour_hidden": (32, 1), "dragon_pung": (1, 1)}
    assert evaluate(classic, ctx).value == 84  # evaluate delegates for a non-winner


def test_loser_four_concealed_copies_is_one_hidden_pung(classic):
    # 5555m = one hidden pung 4 + (CCC) open 4 = 8; dragon → 16
    res = score_loser(classic, ctx_of("5555m 123t 789s (CCC)", winner=False))
    assert pats(res)["pung_simple_hidden"] == (4, 1) and res.value == 16


def test_loser_gets_half_and_full_suit_and_flowers(classic):
    # half suit for all players (Oxenstierna): 111m hidden 8 + (CCC) open 4 = 12;
    # dragon 1 + half suit 1 → 48
    res = score_loser(classic, ctx_of("111m 234m 567m N (CCC)", winner=False))
    assert res.value == 48 and "half_suit" in pats(res)
    # honours only (full suit): CCC hidden 8 + (WWW) 4 + (NNN) 4 = 16; dragon 1 + full suit 3 → 256
    res = score_loser(classic, ctx_of("CCC EE SS (WWW) (NNN)", winner=False))
    assert res.value == 256 and "full_suit" in pats(res)
    # a flower of his own (South = 2, Orchid) and nothing else: 8 points, no doublings
    res = score_loser(classic, ctx_of("123m 456m 789t 19s E |p", winner=False))
    assert res.value == 8 and pats(res) == {"bonus_own": (8, 1)}


def test_loser_no_pair_points_and_no_winner_doublings(classic):
    # a loser (East) with a dragon pair and no chows: no pair points, no pung hand, no dealer doubling
    res = score_loser(classic, ctx_of("111m 999s CC 2t (555t)", seat="E", winner=False))
    got = pats(res)
    assert "pair_honour" not in got and "pung_hand" not in got and "mahjong_by_dealer" not in got
    # 111m 8 + 999s 8 + (555t) 2 = 18
    assert res.value == 18


def test_loser_picked_up_tile(classic):
    # G-OX-2 for a loser: 555s holds the picked-up 5s → open 2 (not hidden 4)
    res = score_loser(classic, ctx_of("555s 123m 789m 1t", winner=False, claimed="5s"))
    assert pats(res)["pung_simple_open"] == (2, 1) and res.value == 2


# --- payments in ScoreResult ---------------------------------------------------------------------


def test_cumulative_has_no_payments(classic):
    res = evaluate(classic, ctx_of("123m 456t 789s 555m 99s +9s"))
    assert classic.settlement["mode"] == "cumulative" and res.payments is None


def test_zero_sum_payments(classic):
    zs = classic.with_options({"settlement.mode": "classical_zero_sum"})
    # South wins 24: East pays double (48), West and North 24 each → South +96
    res = evaluate(zs, ctx_of("123m 456t 789s 555m 99s +9s", seat="S"))
    assert res.payments == {"E": -48, "S": 96, "W": -24, "N": -24}
    # East wins 48 (24 with the dealer doubling): everyone pays him double → +288
    res = evaluate(zs, ctx_of("123m 456t 789s 555m 99s +9s", seat="E", prevailing="S"))
    assert res.payments == {"E": 288, "S": -96, "W": -96, "N": -96}
    # without East doubling: 3 × 48
    flat = zs.with_options({"settlement.east_pays_double": False})
    res = evaluate(flat, ctx_of("123m 456t 789s 555m 99s +9s", seat="E", prevailing="S"))
    assert res.payments == {"E": 144, "S": -48, "W": -48, "N": -48}


# --- common.py helpers ---------------------------------------------------------------------------


def test_arrangements_positions_and_waits(classic):
    # 456m with 55m: the 5m is closed in 456m or in the pair → two arrangements
    ctx = ctx_of("45556m 123t 789s NNN +5m")
    arrs = arrangements(classic, ctx)
    assert {a.wait for a in arrs} == {"closed", "pair"}
    for a in arrs:
        assert sum(g.has_winning_tile for g in a.groups) == 1
        assert len(a.melds) == 4 and a.pair is not None
    # edge waits: 12→3 and 89→7
    a = arrangements(classic, ctx_of("123m 456t 789s NNN 55s +3m"))
    assert [x.wait for x in a] == ["edge"]
    a = arrangements(classic, ctx_of("123m 456t 789s NNN 55s +7s"))
    assert [x.wait for x in a] == ["edge"]
    a = arrangements(classic, ctx_of("123m 456t 789s NNN 55s +4t"))
    assert [x.wait for x in a] == ["open"]
    a = arrangements(classic, ctx_of("123m 456t 789s NNN 55s +N"))
    assert [x.wait for x in a] == ["pung"]


def test_waits_of_13(classic):
    # 1112345678999m + 5m: the 13-tile hand waits on all nine characters
    ctx = ctx_of("11123455678999m +5m")
    assert waits_of_13(classic, ctx) == [T.tile("m", r) for r in range(1, 10)]
    # 123m 456t 789s NNN 5s + 5s: single wait on 5s
    ctx = ctx_of("123m 456t 789s NNN 55s +5s")
    assert waits_of_13(classic, ctx) == [T.tile("s", 5)]


def test_hand_facts():
    f = hand_facts(ctx_of("123m 456m NN 789m (CCC) +N"))
    assert f.suits == {2} and f.has_honours and not f.all_honours
    assert f.dragons == {T.RED} and f.winds == {T.NORTH}
    assert len(f.tiles) == 14 and not f.no_claimed_meld


def test_small_helpers(classic):
    assert [wind_letter(w) for w in T.WINDS] == ["E", "S", "W", "N"]
    with pytest.raises(ValueError):
        wind_letter(T.RED)
    a = PatternScore("a", 2)
    b = PatternScore("b", 5)
    assert best([a, b, PatternScore("c", 5)]).id == "b"
    assert best([]) is None
    zs = classic.with_options({"scoring.exclusions": [["a", "b"], ["c", "a"]]})
    kept = apply_exclusions(zs, [a, b, PatternScore("c", 1)])
    # family 1 keeps b (5 > 2), family 2 keeps a (2 > 1); both judged on the input → only b
    assert [p.id for p in kept] == ["b"]
