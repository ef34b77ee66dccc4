"""Singapore scoring (seed 001; singapore.md "Winning hands", "Tai table", "Settlement"): the ``tai`` scheme, its settlement and the bite rules.

One test (or more) per pattern of the singapore.md "Tai table" table, the "replaces" relations, the cap at 5, the
1-tai minimum, ping hu's conditions (G-SG-7), the payments of singapore.md "Settlement" (V = u·2^(tai − 1); discarder
2V and the others V; self-draw 2V each) with its worked examples, the pay-for-all liabilities,
and the instant-payment (bite) rules of ``scoring/instant.py``.  Hands are written in the
hand-string notation (``CLI.md``); each comment adds the tai up by hand.  The winner sits at
East and the prevailing wind is East unless a test says otherwise; payments are keyed by seat
wind.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mahjong_tui import scoring
from mahjong_tui import tiles as T
from mahjong_tui.melds import Meld
from mahjong_tui.scoring import evaluate, instant, tai
from mahjong_tui.scoring.common import context_from_notation
from mahjong_tui.scoring.settlement import hand_value, liable_meld
from mahjong_tui.variant import load_variant

from .helpers import assert_scored, nonzero_payments as paid, pattern_counts as ids, scorer

SG = load_variant("singapore")
score = scorer(evaluate, SG)

# a plain hand with one claimed chow and nothing that scores: 123m (claimed) 456t 789s 234m,
# pair 5t, won on 5t (a single wait: 4556t waits on 5t only) -- 0 tai
PLAIN = "(123m) 456t789s234m55t +5t"
# the same shape concealed, won on 1m from 23m (waits 1m and 4m): a ping hu shape
PING = "123567m456t789s55t +1m"


# ---------------------------------------------------------------------------------------
# table, plumbing, minimum, cap, value
# ---------------------------------------------------------------------------------------

def test_pattern_ids_match_the_variant_tables():
    assert set(SG.scoring["tai"]) | set(SG.scoring["special"]) == tai.PATTERN_IDS


def test_dispatch_and_unit():
    r = scoring.evaluate(SG, context_from_notation(PLAIN + " |uv", discarder="S"))
    assert r.winning and r.unit == "tai" and r.value == 2


def test_no_tai_is_not_a_win():
    # G-SG-5: at least 1 tai; PLAIN has none
    r = score(PLAIN, discarder="S")
    assert not r.winning and r.reason == "0 tai: a win needs at least 1 tai"


def test_seven_pairs_is_not_a_form():
    assert not score("1122m3344t5566sEE +E |uv", discarder="S").winning


def test_hand_value_doubles_per_tai():
    # singapore.md "Settlement": V(t) = u * 2^(t - 1)
    assert [hand_value(SG, t) for t in (1, 2, 3, 4, 5)] == [1, 2, 4, 8, 16]
    assert hand_value(SG.with_options({"scoring.base": 3}), 2) == 6


def test_gaps_example_discard_and_self_draw():
    # singapore.md "Settlement" example: 3 tai on a discard -> V = 4: discarder 8, the others 4 each, winner +16;
    # self-drawn: each pays 8, winner +24.  South holds Orchid (flower 2 = his seat) 1 +
    # Cat 1 + Rat 1 = 3 tai (the claimed chow rules out fully_concealed).
    r = score(PLAIN + " |puv", seat_wind="S", discarder="W")
    assert_scored(r, {"seat_flower": 1, "animal": 2}, 3)
    assert r.payments == {"E": -4, "S": 16, "W": -8, "N": -4}
    r = score(PLAIN + " |puv", seat_wind="S", self_draw=True)
    assert_scored(r, {"seat_flower": 1, "animal": 2}, 3)
    assert r.payments == {"E": -8, "S": 24, "W": -8, "N": -8}


def test_cap_at_five():
    # full_flush 4 + all_triplets 2 = 6 -> 5; V = 16: discarder South 32, the others 16 each
    r = score("(111m) (333m) 555m777m99m +9m", discarder="S")
    assert_scored(r, {"full_flush": 1, "all_triplets": 1}, 5)
    assert r.payments == {"E": 64, "S": -32, "W": -16, "N": -16}


def test_shooter_pays_all_option():
    # singapore.md "Settlement" option: the discarder pays the 4V alone (3 tai: 16)
    v = SG.with_options({"settlement.shooter_pays_all": True})
    r = score(PLAIN + " |puv", variant=v, seat_wind="S", discarder="W")
    assert r.payments == {"E": 0, "S": 16, "W": -16, "N": 0}


def test_self_draw_tai_option():
    # G-SG-6: self_draw is 0 tai by default (not listed); a house rule may give it 1
    assert "self_draw" not in ids(score(PLAIN + " |u", self_draw=True))
    v = SG.with_options({"scoring.tai.self_draw": 1})
    assert_scored(score(PLAIN + " |u", variant=v, self_draw=True), {"animal": 1, "self_draw": 1}, 2)


# ---------------------------------------------------------------------------------------
# bonus tiles
# ---------------------------------------------------------------------------------------

def test_animals_and_all_four():
    assert_scored(score(PLAIN + " |w", discarder="S"), {"animal": 1}, 1)
    # 4 animals x 1 + complete_animals 1 = 5
    assert_scored(score(PLAIN + " |uvwy", discarder="S"), {"animal": 4, "complete_animals": 1}, 5)


def test_seat_flowers_count_own_number_only():
    # South = 2: Summer (i) and Orchid (p) are his, Spring (h) is not -> 2
    assert_scored(score(PLAIN + " |hip", seat_wind="S", discarder="E"), {"seat_flower": 2}, 2)
    # East = 1: Spring and Plum; Summer and Orchid score nothing for him -> 0 tai, no win
    assert not score(PLAIN + " |ip", discarder="S").winning


def test_complete_flower_group():
    # East: Spring is his 1 + the four seasons 1 = 2 ("the group scores 2 incl. its seat tile")
    assert_scored(score(PLAIN + " |hijk", discarder="S"), {"seat_flower": 1, "complete_flower_group": 1}, 2)
    # North holds the four flowers: Bamboo (r) 1 + group 1 = 2
    assert_scored(score(PLAIN + " |opqr", seat_wind="N", discarder="S"),
                  {"seat_flower": 1, "complete_flower_group": 1}, 2)


# ---------------------------------------------------------------------------------------
# melds
# ---------------------------------------------------------------------------------------

def test_dragon_pungs_each():
    assert_scored(score("(CCC) 456t789s234m55t +5t", discarder="S"), {"dragon_pung": 1}, 1)
    assert_scored(score("(CCC) (FFF) 789s234m55t +5t", discarder="S"), {"dragon_pung": 2}, 2)


def test_seat_and_prevailing_wind_pungs():
    # South's own wind in an East round: 1
    assert_scored(score("(SSS) 456t789s234m55t +5t", seat_wind="S", discarder="E"), {"seat_wind_pung": 1}, 1)
    # East in the East round: own wind 1 + prevailing wind 1 = 2
    assert_scored(score("(EEE) 456t789s234m55t +5t", discarder="S"),
                  {"seat_wind_pung": 1, "prevailing_wind_pung": 1}, 2)
    # North's wind for East in an East round: nothing
    assert not score("(NNN) 456t789s234m55t +5t", discarder="S").winning


def test_all_triplets():
    # four pungs and a pair, simples mixed in: 2
    assert_scored(score("(111t) (555s) (999m) 222m88s +8s", discarder="S"), {"all_triplets": 1}, 2)


def test_mixed_terminals_replaces_all_triplets():
    # South in a South round: the East pung is worth nothing; 1s, 9s and winds only -> 4
    r = score("(111t) (999s) (EEE) 111mNN +N", seat_wind="S", prevailing_wind="S", discarder="E")
    assert_scored(r, {"mixed_terminals": 1}, 4)


def test_small_three_dragons_replaces_the_dragon_pungs():
    # two dragon pungs and a dragon pair: 3 (not 3 + 2)
    r = score("CCCFFFPP123m456t +P", discarder="S")
    assert_scored(r, {"small_three_dragons": 1}, 3)


def test_big_three_dragons_is_a_limit():
    # dragon pungs 3 + big three dragons 5 -> capped at 5
    r = score("(CCC) (FFF) (PPP) 123m55t +5t", discarder="S")
    assert_scored(r, {"dragon_pung": 3, "big_three_dragons": 1}, 5)
    assert next(p for p in r.patterns if p.id == "big_three_dragons").kind == "limit"


def test_small_four_winds_keeps_the_wind_pungs():
    # North in a North round: no wind pung is worth anything (the N pair is a pair);
    # small four winds 2 + half flush 2 = 4
    r = score("EEESSSWWWNN123m +N", seat_wind="N", prevailing_wind="N", discarder="E")
    assert_scored(r, {"small_four_winds": 1, "half_flush": 1}, 4)
    # South in an East round: seat wind 1 + prevailing wind 1 still count: 1+1+2+2 = 6 -> 5
    r = score("EEESSSWWWNN123m +N", seat_wind="S", discarder="E")
    assert_scored(r, {"seat_wind_pung": 1, "prevailing_wind_pung": 1, "small_four_winds": 1, "half_flush": 1}, 5)


def test_big_four_winds_is_a_limit():
    r = score("(EEE) (SSS) (WWW) NNN55t +5t", discarder="S")
    assert {"big_four_winds", "all_triplets"} <= set(ids(r)) and r.value == 5


def test_eighteen_arhats():
    # four kongs: all_triplets 2 + eighteen arhats 5 -> 5
    r = score("[1111m] (2222t) (3333s) (4444m) 55t +5t", discarder="S")
    assert_scored(r, {"all_triplets": 1, "eighteen_arhats": 1}, 5)


def test_hidden_treasure_needs_a_self_draw():
    # South, South round: four concealed pungs self-drawn: all_triplets 2 + hidden treasure 5
    # + fully concealed 1 -> 5
    r = score("111t555s999mEEE22m +2m", seat_wind="S", prevailing_wind="S", self_draw=True)
    assert_scored(r, {"all_triplets": 1, "hidden_treasure": 1, "fully_concealed": 1}, 5)
    # the same won on a discard (on the pair): all_triplets 2 only
    r = score("111t555s999mEEE22m +2m", seat_wind="S", prevailing_wind="S", discarder="E")
    assert_scored(r, {"all_triplets": 1}, 2)


# ---------------------------------------------------------------------------------------
# suits and tiles
# ---------------------------------------------------------------------------------------

def test_half_flush():
    # characters and a North pung (worth nothing to East in the East round): 2
    assert_scored(score("(123m) 456m789mNNN55m +5m", discarder="S"), {"half_flush": 1}, 2)


def test_full_flush():
    assert_scored(score("(111m) 456m789m234m55m +5m", discarder="S"), {"full_flush": 1}, 4)


def test_pure_green_replaces_half_flush():
    # 234s 234s 666s FFF 88s: pure green 4 + dragon pung 1 = 5 (half flush 2 replaced)
    assert_scored(score("234s234s666sFFF88s +8s", discarder="S"), {"pure_green": 1, "dragon_pung": 1}, 5)
    # without the green dragon it is a full flush too: 4 + 4 -> 5
    r = score("234s234s666s888s22s +2s", discarder="S")
    assert {"pure_green", "full_flush"} <= set(ids(r)) and r.value == 5
    # a 5s breaks it: full flush only
    assert "pure_green" not in ids(score("234s345s666s888s22s +2s", discarder="S"))


def test_all_honours_and_pure_terminals_are_limits():
    r = score("(EEE) (CCC) SSSPPPWW +W", seat_wind="N", prevailing_wind="N", discarder="E")
    assert "all_honours" in ids(r) and r.value == 5
    r = score("111t999t111s999s11m +1m", discarder="S")
    assert_scored(r, {"all_triplets": 1, "pure_terminals": 1}, 5)


def test_nine_gates():
    # 1112345678999m waiting on any character; won on 5m (self-drawn)
    r = score("11123455678999m +5m", self_draw=True)
    assert "nine_gates" in ids(r) and r.value == 5
    # singapore.md "Tai table": the 14 tiles are 1112345678999 plus any one more of the suit,
    # whichever tile won: 11123455678999m won on 9m (the 13 before were 1112345567899) is
    # nine gates too
    assert "nine_gates" in ids(score("11123455678999m +9m", self_draw=True))
    # not with a claimed meld (the same 14 tiles, 111m claimed), nor without the shape (no 3m, 4m)
    r = score("(111m) 12345678999m +9m", self_draw=True)
    assert r.winning and "nine_gates" not in ids(r)
    r = score("11122566778999m +9m", self_draw=True)   # 111 567 678 999 22m
    assert r.winning and "nine_gates" not in ids(r)


def test_thirteen_wonders():
    r = score("19t19s19mESWNCFPP +P", discarder="S")
    assert_scored(r, {"thirteen_wonders": 1}, 5)
    assert r.form == "thirteen_orphans"


# ---------------------------------------------------------------------------------------
# ping hu (G-SG-7)
# ---------------------------------------------------------------------------------------

def test_ping_hu():
    # four chows, pair 5t, won on 1m from 23m (waits 1m, 4m), no bonus tile: 4 tai;
    # V = 8: discarder South pays 16, West and North 8 each
    r = score(PING, discarder="S")
    assert_scored(r, {"ping_hu": 1}, 4)
    assert r.payments == {"E": 32, "S": -16, "W": -8, "N": -8}


def test_ping_hu_with_bonus_replaces_it():
    # Chrysanthemum (3) is not East's: ping hu with a bonus tile 1 -> 1
    assert_scored(score(PING + " |q", discarder="S"), {"ping_hu_with_bonus": 1}, 1)
    # Plum is East's: + seat flower 1 -> 2
    assert_scored(score(PING + " |o", discarder="S"), {"ping_hu_with_bonus": 1, "seat_flower": 1}, 2)


def test_ping_hu_pair_must_be_plain():
    # a dragon pair: no ping hu, nothing else: no win
    assert not score("123567m456t789sCC +1m", discarder="S").winning
    # South's own wind as the pair: no; North (nobody's value wind here): yes
    assert not score("123567m456t789sSS +1m", seat_wind="S", discarder="E").winning
    assert_scored(score("123567m456t789sNN +1m", discarder="S"), {"ping_hu": 1}, 4)
    # the prevailing wind as the pair: no
    assert not score("123567m456t789sEE +1m", seat_wind="S", discarder="W").winning


def test_ping_hu_needs_a_many_sided_wait():
    # 13m waits on 2m alone (closed), 12m on 3m alone (edge): no ping hu, no win
    assert not score("123567m456t789s55t +2m", discarder="S").winning
    assert not score("123567m456t789s55t +3m", discarder="S").winning
    # the pair wait of PLAIN (single wait on 5t) likewise
    assert not score("123m456t789s234m55t +5t", discarder="S").winning
    # a claimed chow does not spoil it (singapore.md "Tai table": all chows, no concealment asked)
    assert_scored(score("(567m) 123m456t789s55t +1m", discarder="S"), {"ping_hu": 1}, 4)


# ---------------------------------------------------------------------------------------
# how the hand was won
# ---------------------------------------------------------------------------------------

def test_fully_concealed_allows_concealed_kongs():
    # ping hu 4 + fully concealed 1 = 5, self-drawn: each pays 2 x 16
    r = score(PING, self_draw=True)
    assert_scored(r, {"ping_hu": 1, "fully_concealed": 1}, 5)
    assert r.payments == {"E": 96, "S": -32, "W": -32, "N": -32}
    # a concealed kong keeps the hand concealed: 1 tai
    assert_scored(score("[1111s] 123567m456t55t +1m", self_draw=True), {"fully_concealed": 1}, 1)
    # a claimed pung does not: nothing, no win
    assert not score("(111s) 123567m456t55t +1m", self_draw=True).winning


def test_win_on_replacement_counts_as_self_drawn():
    # a kong replacement: 1 tai, paid as a self-draw (each 2V = 2) even if --by says discard
    r = score("(111s) 123567m456t55t +1m", situations=["kong_replacement"])
    assert_scored(r, {"win_on_replacement": 1}, 1)
    assert r.payments == {"E": 6, "S": -2, "W": -2, "N": -2}
    assert_scored(score("(111s) 123567m456t55t +1m", situations=["flower_replacement"]),
                  {"win_on_replacement": 1}, 1)


def test_kong_on_kong():
    r = score("(1111s) 123567m456t55t +1m", situations=["double_kong_replacement"])
    assert {"kong_on_kong", "win_on_replacement"} <= set(ids(r)) and r.value == 5


def test_robbing_kong_robbed_player_pays_for_all():
    # robbing kong 1 tai, V = 1; the robbed player (West) pays all 4V = 4
    r = score("(111s) 123567m456t55t +1m", situations=["robbing_kong"], discarder="W")
    assert_scored(r, {"robbing_kong": 1}, 1)
    assert paid(r) == {"E": 4, "W": -4}


def test_last_tile():
    r = score("(111s) 123567m456t55t +1m", situations=["last_wall_tile"], self_draw=True)
    assert_scored(r, {"last_tile": 1}, 1)
    # its replacements count too (a flower drawn as the last tile, then replaced): + 1
    r = score("(111s) 123567m456t55t +1m", situations=["last_wall_replacement", "flower_replacement"],
              self_draw=True)
    assert_scored(r, {"last_tile": 1, "win_on_replacement": 1}, 2)
    # not on a discard
    assert not score("(111s) 123567m456t55t +1m", situations=["last_wall_tile"], discarder="S").winning


def test_heavenly_and_earthly_hands():
    assert "heavenly_hand" in ids(score(PING, situations=["heavenly"]))
    assert "heavenly_hand" not in ids(score(PING + " |p", seat_wind="S", situations=["heavenly"], self_draw=True))
    # earthly: South wins on the dealer's first discard: 5 tai, East pays 2 x 16, the others 16
    r = score("(111s) 123567m456t55t +1m", seat_wind="S", situations=["earthly"])
    assert_scored(r, {"earthly_hand": 1}, 5)
    assert r.payments == {"E": -32, "S": 64, "W": -16, "N": -16}
    assert "earthly_hand" not in ids(score(PING + " |o", situations=["earthly"], discarder="S"))


# ---------------------------------------------------------------------------------------
# flower wins (singapore.md "Winning hands", "Tai table")
# ---------------------------------------------------------------------------------------

def test_all_eight_flowers_wins_any_hand_paid_as_self_draw():
    # 14 tiles that are no hand at all; East holds all eight: seat flowers 2 + groups 2 +
    # all eight 5 -> 5; paid as a self-draw: each 2 x 16 = 32
    r = score("123m456t789s12345m |hijkopqr", self_draw=True)
    assert r.winning and r.form == "flowers" and r.value == 5
    assert ids(r) == {"seat_flower": 2, "complete_flower_group": 2, "all_eight_flowers": 1}
    assert r.payments == {"E": 96, "S": -32, "W": -32, "N": -32}
    # a house rule that gives the flower win no value: not a hand
    v = SG.with_options({"scoring.special.all_eight_flowers": 0})
    assert not score("123m456t789s12345m |hijkopqr", variant=v, self_draw=True).winning
    # seven of them: no
    assert not score("123m456t789s12345m |hijkopq", self_draw=True).winning


def test_robbing_the_eighth_drawer_pays_for_all():
    # 13 tiles held; North drew the eighth flower: robbing the eighth 5 (all eight replaced),
    # settled as a discard win paid for all by the drawer: 4 x 16 = 64
    r = score("123m456t789s1234m +r |hijkopq", situations=["robbing_the_eighth"], discarder="N")
    assert r.winning and r.form == "flowers"
    assert ids(r) == {"seat_flower": 2, "complete_flower_group": 2, "robbing_the_eighth": 1}
    assert paid(r) == {"E": 64, "N": -64}


def test_a_complete_hand_with_all_eight_flowers_is_a_limit_too():
    r = score(PLAIN + " |hijkopqr", discarder="S")
    assert "all_eight_flowers" in ids(r) and r.value == 5 and r.form == "standard"


# ---------------------------------------------------------------------------------------
# liabilities (singapore.md "Settlement")
# ---------------------------------------------------------------------------------------

def _fed(hand: str, feeders: list[int | None], **kw):
    """The context of ``hand`` with ``from_seat`` of its declared melds set (seat = wind index
    in the score command's numbering: E 0, S 1, W 2, N 3)."""
    ctx = context_from_notation(hand, variant=SG, **kw)
    melds = tuple(replace(m, from_seat=f) for m, f in zip(ctx.melds, feeders))
    return replace(ctx, melds=melds)


def test_big_three_dragons_feeder_of_the_third_pays_for_all():
    # South self-draws big three dragons (5 tai, V = 16); the third dragon pung came from
    # North's discard: North pays all 6V = 96
    ctx = _fed("(CCC) (FFF) (PPP) 123m55t +5t", [0, 2, 3], seat_wind="S", self_draw=True)
    assert paid(evaluate(SG, ctx)) == {"S": 96, "N": -96}
    # the third dragon pung formed in hand: nobody is liable, each pays 32
    ctx = _fed("(CCC) (FFF) PPP123m55t +5t", [0, 2], seat_wind="S", self_draw=True)
    assert evaluate(SG, ctx).payments == {"E": -32, "S": 96, "W": -32, "N": -32}


def test_big_four_winds_feeder_of_the_fourth_pays_for_all():
    ctx = _fed("(EEE) (SSS) (WWW) (NNN) 55t +5t", [1, 3, 1, 2], discarder="S")
    # won on South's discard (4V = 64) but West fed the fourth wind pung: West pays it all
    assert paid(evaluate(SG, ctx)) == {"E": 64, "W": -64}


def test_full_flush_feeder_of_the_fourth_meld_pays_for_all():
    # full flush 4 tai (V = 8) on South's discard; West fed the fourth exposed meld: 4V = 32
    ctx = _fed("(123m) (456m) (789m) (222m) 55m +5m", [1, 3, 1, 2], discarder="S")
    r = evaluate(SG, ctx)
    assert_scored(r, {"full_flush": 1}, 4)
    assert paid(r) == {"E": 32, "W": -32}
    # the score command names the feeder with --liable (= --fed-third-meld)
    ctx = context_from_notation("(123m) (456m) (789m) (222m) 55m +5m", variant=SG, discarder="S", fed_third_meld="W")
    assert paid(evaluate(SG, ctx)) == {"E": 32, "W": -32}


def test_no_liability_without_its_pattern():
    # a 4-meld hand that is no flush: the feeder of the fourth meld pays nothing extra
    ctx = _fed("(123m) (456t) (789m) (CCC) 55m +5m", [1, 3, 1, 2], discarder="S")
    r = evaluate(SG, ctx)
    assert_scored(r, {"dragon_pung": 1}, 1)
    assert paid(r) == {"E": 4, "S": -2, "W": -1, "N": -1}


def test_liable_meld_rules():
    pung = lambda t, f: Meld("pung", (T.parse_tile(t),) * 3, True, False, from_seat=f)  # noqa: E731
    ckong = Meld("kong", (T.parse_tile("P"),) * 4, True, True, "concealed")
    melds = (pung("C", 1), ckong, pung("F", 2), pung("E", 3), pung("5t", 0))
    assert liable_meld("meld:4", melds) == 4          # the 4th claimed meld (the concealed kong is not)
    assert liable_meld("meld:3", melds) == 3
    assert liable_meld("dragon_meld:2", melds) is None  # the 2nd dragon set is the concealed kong
    assert liable_meld("dragon_meld:3", melds) == 2
    assert liable_meld("wind_meld:1", melds) == 3
    assert liable_meld("wind_meld:2", melds) is None
    assert liable_meld("discarder", melds) is None


# ---------------------------------------------------------------------------------------
# instant payments: which bites a bonus tile sets off (scoring/instant.py, singapore.md "Settlement")
# ---------------------------------------------------------------------------------------

U, V, W, Y = T.ANIMALS
H, I, J, K = T.SEASONS
O, P, Q, R = T.FLOWERS


def test_animal_bites():
    assert instant.bites([U, V], V, 1, dealt=()) == [("bite_animals", False, (U, V))]
    assert instant.bites([U, V], V, 1, dealt={U, V}) == [("bite_animals", True, (U, V))]
    assert instant.bites([U, V], V, 1, dealt={U}) == [("bite_animals", False, (U, V))]   # one came later
    assert instant.bites([U, W], W, 1, dealt=()) == []   # Cat + Rooster is no pair
    # the fourth animal: the Rooster + Centipede pair and all four
    assert instant.bites([U, V, W, Y], Y, 3, dealt={U, V, W, Y}) == [
        ("bite_animals", True, (W, Y)), ("bite_all_animals", True, (U, V, W, Y))]


def test_seat_flower_and_group_bites():
    # South (2): Summer + Orchid
    assert instant.bites([I, P], P, 2, dealt=()) == [("bite_seat_flowers", False, (I, P))]
    assert instant.bites([I, P], I, 2, dealt={I, P}) == [("bite_seat_flowers", True, (I, P))]
    assert instant.bites([I, P], P, 1, dealt=()) == []   # not East's
    assert instant.bites([H, I, J, K], K, 1, dealt=()) == [("bite_complete_group", False, (H, I, J, K))]
    # Winter completes the seasons and, with Bamboo, North's own pair
    assert instant.bites([H, I, J, K, R], K, 4, dealt=()) == [
        ("bite_seat_flowers", False, (K, R)), ("bite_complete_group", False, (H, I, J, K))]


def test_payment_amounts_and_kong_ids():
    tbl = SG.instant_payments
    assert instant.rate(tbl, "bite_animals", False) == (1, False) and instant.rate(tbl, "bite_animals", True) == (2, True)
    assert instant.rate(tbl, "bite_complete_group", True) == (2, False)   # no hidden rate: the plain one
    assert instant.rate({}, "kong_exposed", False) == (0, False)
    # whether the hidden rate was paid (the instant_payment event's "hidden")
    assert instant.rate(tbl, "bite_animals", True) == (2, True)
    assert instant.rate(tbl, "bite_complete_group", True) == (2, False)
    assert [instant.kong_payment(k) for k in ("exposed", "added", "concealed")] == \
        ["kong_exposed", "kong_exposed", "kong_concealed"]
    with pytest.raises(ValueError):
        instant.kong_payment("sideways")
