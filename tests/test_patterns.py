"""The pattern library (``mahjong_tui/scoring/patterns.py``): one test per detector, the
registry, a variant file's ``[scoring.patterns]`` and the questions other parts ask.

Each detector test runs the detector on hands in the hand-string notation (``CLI.md``), with
the parameters a variant file would give, and counts how many times it applies on the best
arrangement of the hand (every arrangement is tried, as the scorers do); the comment says why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.errors import VariantError
from mahjong_tui.scoring import evaluate
from mahjong_tui.scoring import patterns as P
from mahjong_tui.scoring.common import arrangements, context_from_notation
from mahjong_tui.scoring.fan_ladder import _read_groups, readings
from mahjong_tui.variant import load_variant

FIVE = ("classic", "yuxi", "yangzhou", "singapore", "uzje")
V = {vid: load_variant(vid) for vid in FIVE}
CTX_KEYS = {"self_draw", "seat_wind", "prevailing_wind", "situations", "claimed", "discarder", "indicators", "winner"}


def hands_of(variant, ctx):
    """Every reading the scorers score: each arrangement (Ùzje: each zero reading of it), or
    the hand alone when it is not complete (a non-winner, a flower win)."""
    out = []
    for arr in arrangements(variant, ctx):
        if variant.zero is not None or variant.meld_templates and variant.id == "uzje":
            for groups in readings(variant, _read_groups(variant, arr)):
                out.append(P.Hand(variant, ctx, arr, groups=groups, tiles=[t for g in groups for t in g.tiles]))
        else:
            out.append(P.Hand(variant, ctx, arr))
    return out or [P.Hand(variant, ctx)]


def count(hand: str, detector: str, variant: str = "classic", **kw) -> int:
    """How many times ``detector`` with parameters ``kw`` applies to ``hand`` (the best reading)."""
    v = V[variant] if isinstance(variant, str) else variant
    flags = {k: kw.pop(k) for k in list(kw) if k in CTX_KEYS and not (k == "self_draw" and isinstance(kw[k], str))}
    ctx = context_from_notation(hand, variant=v, **flags)
    spec = P.spec_from("test", {"detector": detector, **kw})
    return max(sum(h.count for h in spec.run(x)) for x in hands_of(v, ctx))


def hits(hand: str, detector: str, variant: str = "classic", **kw) -> list[P.Hit]:
    v = V[variant]
    flags = {k: kw.pop(k) for k in list(kw) if k in CTX_KEYS}
    ctx = context_from_notation(hand, variant=v, **flags)
    return P.spec_from("test", {"detector": detector, **kw}).run(hands_of(v, ctx)[0])


# --------------------------------------------------------------------------------------------
# Tiles of the whole hand
# --------------------------------------------------------------------------------------------


def test_flush():
    # characters only: a full flush (classic.md full_suit, Yangzhou full_flush), no half flush
    assert count("123m 456m 789m 111m 55m +5m", "flush", honours="none") == 1
    assert count("123m 456m 789m 111m 55m +5m", "flush", honours="required") == 0
    # characters and the red dragon: a half flush, no full flush; "any" takes both
    assert count("123m 456m 789m CCC 55m +5m", "flush", honours="required") == 1
    assert count("123m 456m 789m CCC 55m +5m", "flush", honours="none") == 0
    assert count("123m 456m 789m CCC 55m +5m", "flush", honours="any") == 1
    # two suits: no flush at all
    assert count("123m 456m 789s CCC 55m +5m", "flush", honours="any") == 0
    # honours only: Classic's full_suit counts it ("or honours only"), a plain flush does not
    assert count("EEE SSS CCC FFF PP +P", "flush", honours="none", or_honours_only=True) == 1
    assert count("EEE SSS CCC FFF PP +P", "flush", honours="none") == 0


def test_flush_short_suit():
    # Ùzje: tongs hold only 1 and 16 (tiles.suit_ranks): one suit of tongs and honours is
    # clean tongs, of socks clean suit (uzje.md "Fan table")
    uz = V["uzje"]
    ctx = context_from_notation("111tffftEEESSSZZ +Z", variant=uz, discarder="S")
    tongs = P.Hand(uz, ctx)
    assert P.spec_from("x", {"detector": "flush", "honours": "required", "short_suit": "yes"}).run(tongs)
    assert not P.spec_from("x", {"detector": "flush", "honours": "required", "short_suit": "no"}).run(tongs)
    socks = P.Hand(uz, ctx, tiles=T.parse_tiles("111sfffsEEESSSZZ"))
    assert P.spec_from("x", {"detector": "flush", "honours": "required", "short_suit": "no"}).run(socks)


def test_honours_only():
    # winds and dragons only (Classic grand_honours, Singapore all_honours)
    assert count("EEE SSS CCC FFF PP +P", "honours_only") == 1
    assert count("EEE SSS CCC FFF 11m +1m", "honours_only") == 0


def test_suits_missing():
    # Yangzhou missing_one_suit: characters and bamboo, no dots
    assert count("123m 456m 789s 111s 55m +5m", "suits_missing", "yangzhou", discarder="S") == 1
    assert count("123m 456t 789s 111s 55m +5m", "suits_missing", "yangzhou", discarder="S") == 0


def test_terminals():
    # 111m 999m 111s 999s 11t: terminals only (Classic heads_and_tails)
    assert count("111m 999m 111s 999s 11t +1t", "terminals", kind="all") == 1
    assert count("111m 999m 111s EEE 11t +1t", "terminals", kind="all") == 0       # an honour
    # no 1 or 9 anywhere, honours allowed (Yangzhou no_terminals, G-YZ-4)
    assert count("234m 567m 888s EEE 22t +2t", "terminals", kind="none") == 1
    assert count("123m 567m 888s EEE 22t +2t", "terminals", kind="none") == 0
    # four pungs of terminals and honours, both present (Singapore mixed_terminals)
    assert count("111m 999s EEE CCC 99t +9t", "terminals", "singapore", kind="mixed_triplets") == 1
    assert count("111m 999s 999m 111s 99t +9t", "terminals", "singapore", kind="mixed_triplets") == 0
    # the pair is a terminal (Yangzhou terminal_pair)
    assert count("123m 456m 789s 555s 99t +9t", "terminals", "yangzhou", kind="pair", discarder="S") == 1
    assert count("123m 456m 789s 555s 88t +8t", "terminals", "yangzhou", kind="pair", discarder="S") == 0


def test_tile_set():
    # all green: 2 3 4 6 8 of bamboo and green dragons (Singapore pure_green)
    assert count("234s 234s 666s FFF 88s +8s", "tile_set", "singapore", tiles="23468sF") == 1
    assert count("234s 234s 666s CCC 88s +8s", "tile_set", "singapore", tiles="23468sF") == 0


# --------------------------------------------------------------------------------------------
# Melds
# --------------------------------------------------------------------------------------------


def test_triplet_classes_and_concealment():
    # (555m) claimed: an open pung of simples; 999s formed in hand: a hidden pung of terminals;
    # [CCCC] a concealed kong of honours (classic.md "Points")
    hand = "(555m) 999s [CCCC] 123t EE +E"
    assert count(hand, "triplet", tiles="simple", size="pung", concealed="open") == 1
    assert count(hand, "triplet", tiles="simple", size="pung", concealed="hidden") == 0
    assert count(hand, "triplet", tiles="terminal", size="pung", concealed="hidden") == 1
    assert count(hand, "triplet", tiles="honour", size="kong", concealed="hidden") == 1
    assert count(hand, "triplet", tiles="honour", size="kong", kong="concealed") == 1
    assert count(hand, "triplet", tiles="honour", size="kong", kong="exposed") == 0
    assert count(hand, "triplet") == 3                       # every pung or kong
    assert count(hand, "triplet", tiles="dragon") == 1
    # an exposed kong is open, never hidden (classic.md "Points")
    assert count("(7777s) 123m 456m 789m EE +E", "triplet", size="kong", concealed="open") == 1


def test_triplet_completed_by_the_winning_discard_is_open():
    # 999s completed by the discard 9s: not hidden (common.md "Melds"), not self-drawn
    hand = "123m 456m 789t 999s EE +9s"
    assert count(hand, "triplet", tiles="terminal", concealed="hidden", discarder="S") == 0
    assert count(hand, "triplet", tiles="terminal", concealed="hidden", self_draw=True) == 1
    assert count(hand, "triplet", size="pung", concealed="self_drawn", variant="yangzhou", discarder="S") == 0
    assert count(hand, "triplet", size="pung", concealed="self_drawn", variant="yangzhou", self_draw=True) == 1


def test_triplet_winds_and_count():
    # East seat, South round: EEE is the seat wind, SSS the prevailing wind
    hand = "EEE SSS 123m 456m 99s +9s"
    assert count(hand, "triplet", tiles="seat_wind", seat_wind="E", prevailing_wind="S") == 1
    assert count(hand, "triplet", tiles="prevailing_wind", seat_wind="E", prevailing_wind="S") == 1
    assert count(hand, "triplet", tiles="seat_wind", seat_wind="W", prevailing_wind="S") == 0
    # two dragon pungs: each counts (Classic dragon_pung: 2 doublings), or once
    assert count("CCC FFF 123m 456m 99s +9s", "triplet", tiles="dragon") == 2
    assert count("CCC FFF 123m 456m 99s +9s", "triplet", tiles="dragon", count="once") == 1
    # the first group holding the pattern (its index in the arrangement) orders a run of
    # "hand" patterns
    ctx = context_from_notation("(999s) 123m EEE 456m CC +C", variant=V["classic"], discarder="S")
    hand = hands_of(V["classic"], ctx)[0]
    spec = P.spec_from("x", {"detector": "triplet", "tiles": "honour"})
    assert spec.run(hand) == [P.Hit(1, 0, [g.tiles[0] for g in hand.groups].index(T.EAST))]
    spec = P.spec_from("x", {"detector": "triplet", "tiles": "terminal"})
    assert spec.run(hand) == [P.Hit(1, 0, 0)]                   # the declared pung comes first


def test_chow():
    # three chows and a pung: 3 (Classic chow, listed at 0 points)
    assert count("123m 456m 789s EEE 99s +9s", "chow") == 3
    assert count("123m 456m 789s EEE 99s +9s", "chow", count="once") == 1


def test_pair():
    hand = "123m 456m 789s 555t {} +{}"
    assert count(hand.format("CC", "C"), "pair", tiles="honour") == 1
    assert count(hand.format("22s", "2s"), "pair", tiles="honour") == 0
    # East's own wind in an East round: a value wind pair once (G-OX-3)
    assert count(hand.format("EE", "E"), "pair", tiles="value_wind", seat_wind="E", prevailing_wind="E") == 1
    assert count(hand.format("NN", "N"), "pair", tiles="value_wind", seat_wind="E", prevailing_wind="E") == 0
    assert count(hand.format("99s", "9s"), "pair", tiles="terminal") == 1
    assert count(hand.format("CC", "C"), "pair", tiles="dragon") == 1
    assert count(hand.format("NN", "N"), "pair", tiles="wind") == 1


def test_all_triplets():
    # four pungs and a pair (Classic pung_hand, Yuxi all_triplets)
    assert count("111m 555m 999s EEE 22t +2t", "all_triplets") == 1
    assert count("123m 555m 999s EEE 22t +2t", "all_triplets") == 0
    # with one suit only (Yangzhou pure_all_triplets)
    assert count("111m 555m 999m 333m 22m +2m", "all_triplets", "yangzhou", flush=True, discarder="S") == 1
    assert count("111m 555m 999s 333m 22m +2m", "all_triplets", "yangzhou", flush=True, discarder="S") == 0


def test_chow_hand():
    # four chows and a plain pair: Classic worthless_hand, Yangzhou sequence_hand
    assert count("123m 456m 789s 234t 55t +5t", "chow_hand", pair="no_honour", bonus="none") == 1
    assert count("123m 456m 789s 234t CC +C", "chow_hand", pair="no_honour") == 0
    assert count("123m 456m 789s 234t 55t +5t |h", "chow_hand", bonus="none") == 0
    assert count("123m 456m 789s 234t 55t +5t |h", "chow_hand", bonus="some") == 1
    assert count("123m 456m 789s 234t EE +E", "chow_hand", "yangzhou", honours="none", discarder="S") == 0
    # Singapore ping hu (G-SG-7): a many-sided wait; 234t + 5t-pair waits... the 13 tiles
    # 123m 456m 789s 23t 55t wait on 1t and 4t: two kinds
    assert count("123m 456m 789s 234t 55t +4t", "chow_hand", "singapore", pair="plain", waits="many",
                 discarder="S") == 1
    # 13 tiles 123m 456m 789s 24t 55t wait on 3t only: no ping hu
    assert count("123m 456m 789s 234t 55t +3t", "chow_hand", "singapore", pair="plain", waits="many",
                 discarder="S") == 0
    # a pair of the seat wind is not plain
    assert count("123m 456m 789s 234t EE +4t", "chow_hand", "singapore", pair="plain", discarder="S",
                 seat_wind="E") == 0


def test_honour_set():
    # two dragon pungs and a dragon pair: three small masters / small three dragons
    assert count("CCC FFF 123m 456m PP +P", "honour_set", triplets=2, pair=True) == 1
    assert count("CCC FFF 123m 456m 99s +9s", "honour_set", triplets=2, pair=True) == 0
    # three dragon pungs: three grand masters, not small
    assert count("CCC FFF PPP 456m 99s +9s", "honour_set", triplets=3) == 1
    assert count("CCC FFF PPP 456m 99s +9s", "honour_set", triplets=2, pair=True) == 0
    # four wind pungs (Classic four_blessings); three or more (Ùzje big_three_winds)
    assert count("EEE SSS WWW NNN 99s +9s", "honour_set", honours="winds", triplets=4) == 1
    assert count("EEE SSS WWW NNN 99s +9s", "honour_set", honours="winds", triplets=3) == 0
    assert count("EEE SSS WWW NNN 99s +9s", "honour_set", honours="winds", triplets=3, at_least=True) == 1
    assert count("EEE SSS WWW 123m NN +N", "honour_set", honours="winds", triplets=3, pair=True) == 1


def test_kongs():
    # four kongs (Singapore eighteen_arhats)
    assert count("(1111m) (2222s) [3333t] (CCCC) EE +E", "kongs", "singapore", count=4) == 1
    assert count("(1111m) (2222s) [3333t] CCC EE +E", "kongs", "singapore", count=4) == 0


def test_concealed_triplets():
    # four pungs formed in hand, won by self-draw: hidden treasure in Classic and Singapore
    hand = "111m 555m 999s EEE 22t +2t"
    assert count(hand, "concealed_triplets", self_draw=True) == 1
    assert count(hand, "concealed_triplets", "singapore", self_draw=True) == 1
    # on a discard to the pair the pungs stay concealed: Classic yes, Singapore (self-drawn) no
    assert count(hand, "concealed_triplets", discarder="S") == 1
    # a discard completing a pung spoils it (common.md "Melds")
    assert count("111m 555m 999s EEE 22t +9s", "concealed_triplets", discarder="S") == 0
    # a picked-up discard in a pung spoils it (G-OX-2)
    assert count(hand, "concealed_triplets", self_draw=True, claimed="5m") == 0


def test_concealed_triplets_self_draw_parameter():
    hand = "111m 555m 999s EEE 22t +2t"
    spec = P.spec_from("x", {"detector": "concealed_triplets", "self_draw": True})
    ctx = context_from_notation(hand, variant=V["singapore"], discarder="S")
    assert not any(spec.run(h) for h in hands_of(V["singapore"], ctx))        # on a discard: no


@pytest.mark.parametrize("hand, relation, expected", [
    # 123m 123s: the same chow in two suits (matching); in three suits (three_suits)
    ("123m 123s 789t 555t 99s +9s", "matching", 1),
    ("123m 123s 123t 555t 99s +9s", "three_suits", 1),
    ("123m 123s 789t 555t 99s +9s", "three_suits", 0),
    # 123m 123s 123t 123m: four chows of one rank in three suits
    ("123m 123s 123t 123m 99s +9s", "four_shared", 1),
    # 123m 456m: one suit, three apart
    ("123m 456m 789t 555t 99s +9s", "continuous", 1),
    ("123m 567m 789t 555t 99s +9s", "continuous", 0),
    # 123m 789m: elder and younger
    ("123m 789m 789t 555t 99s +9s", "elder_younger", 1),
    # 123m 456m 789m: the straight
    ("123m 456m 789m 555t 99s +9s", "straight", 1),
    ("123m 456m 789s 555t 99s +9s", "straight", 0),
    # the same chow twice, two such doubles, three and four times
    ("123m 123m 789t 555t 99s +9s", "two_identical", 1),
    ("123m 123m 789t 789t 99s +9s", "double_two_identical", 1),
    ("123m 123m 123m 555t 99s +9s", "three_identical", 1),
    ("123m 123m 123m 123m 99s +9s", "four_identical", 1),
    ("123m 123m 123m 555t 99s +9s", "four_identical", 0),
])
def test_chows_relations(hand, relation, expected):
    assert count(hand, "chows", "yangzhou", relation=relation, discarder="S") == expected


def test_chows_flush():
    # 123m 456m 789m 111m 55m: a straight in a full flush (Yangzhou pure_dragon)
    assert count("123m 456m 789m 111m 55m +5m", "chows", "yangzhou", relation="straight", flush=True,
                 discarder="S") == 1
    assert count("123m 456m 789m 111s 55m +5m", "chows", "yangzhou", relation="straight", flush=True,
                 discarder="S") == 0


def test_meld_family():
    # four ariths of step 3 (uzje.md "Fan table" single_differences), four gems, four powers
    assert count("(369s) (258s) (147s) (xcfs) EE +E", "meld_family", "uzje", kind="arith", same_step=True,
                 discarder="N", seat_wind="S", prevailing_wind="W") == 1
    assert count("124s248s48fs139sZZ +Z", "meld_family", "uzje", kind="gem", discarder="N") == 1
    assert count("149s49fs14m18mZZEE +E", "meld_family", "uzje", kind="power", discarder="N") == 1
    assert count("124s248s48fs139sZZ +Z", "meld_family", "uzje", kind="power", discarder="N") == 0


def test_twin_melds():
    # 123s twice: one twin; four times: three (uzje.md "Fan table", each extra copy)
    assert count("123s123s456m246mEE +E", "twin_melds", "uzje", discarder="N") == 1
    assert count("123s123s123s123s55s +5s", "twin_melds", "uzje", discarder="N") == 3


# --------------------------------------------------------------------------------------------
# Forms and special shapes
# --------------------------------------------------------------------------------------------


def test_form_and_seven_pairs_quads():
    # seven pairs; with four 5m counted as two pairs (Yuxi dragon seven pairs: one set of four)
    assert count("11m 22m 33s 44s 55t 66t 77t +7t", "form", "classic", form="seven_pairs") == 1
    assert count("11m 22m 33s 44s 55t 66t 77t +7t", "form", "yuxi", form="seven_pairs", quads=0) == 1
    assert count("11m 5555m 33s 44s 66t 77t +7t", "form", "yuxi", form="seven_pairs", quads=1) == 1
    assert count("11m 5555m 33s 44s 66t 77t +7t", "form", "yuxi", form="seven_pairs", quads=0) == 0
    # three sets of four in one suit, no honours: pure triple dragon seven pairs
    assert count("1111m 2222m 3333m 55m +5m", "form", "yuxi", form="seven_pairs", quads=3, flush=True) == 1
    # thirteen orphans
    assert count("19m19s19tESWNCFPP +P", "form", form="thirteen_orphans") == 1
    assert count("19m19s19tESWNCFPP +P", "form", form="seven_pairs") == 0


def test_nine_gates():
    # 1112345678999m + 5m: waited on every character (Classic grand_waiting) and is the shape
    # plus one (Singapore nine_gates)
    assert count("11123455678999m +5m", "nine_gates") == 1
    assert count("11123455678999m +5m", "nine_gates", "singapore", by_tiles=True) == 1
    # 1112345678999m + 9m won on the extra 9: before it the hand was 11123456789999 less... it
    # waited on 1m 4m 7m only (no grand waiting), but the 14 tiles are the shape plus one
    assert count("11123456789999m +1m", "nine_gates") == 0
    assert count("11123456789999m +1m", "nine_gates", "singapore", by_tiles=True) == 1


def test_closed_hand():
    # nothing claimed (a concealed kong allowed): Yangzhou no_melds, Ùzje closed_hand
    assert count("[1111m] 456m 789s 555t 99s +9s", "closed_hand") == 1
    assert count("(111m) 456m 789s 555t 99s +9s", "closed_hand") == 0
    # and self-drawn (Singapore fully_concealed)


def test_closed_hand_self_draw_parameter():
    spec = P.spec_from("x", {"detector": "closed_hand", "self_draw": True})
    sg = V["singapore"]
    drawn = context_from_notation("123m 456m 789s 555t 99s +9s", variant=sg, self_draw=True)
    thrown = context_from_notation("123m 456m 789s 555t 99s +9s", variant=sg, discarder="S")
    assert spec.run(P.Hand(sg, drawn)) and not spec.run(P.Hand(sg, thrown))


def test_wait():
    # 123m 456m 111s 555t + 9s: the 13 tiles waited on the 9s pair alone (single wait); with
    # 789s 9s they also waited on 6s (99s pair, 78s): not single
    assert count("123m 456m 111s 555t 99s +9s", "wait", "yangzhou", shapes=["pair"], discarder="S") == 1
    assert count("123m 456m 789s 555t 99s +9s", "wait", "yangzhou", shapes=["pair"], discarder="S") == 0
    # 12m + 3m: an edge wait, and 3m was the only tile
    assert count("123m 456m 789s 555t 99s +3m", "wait", "yangzhou", shapes=["edge", "closed"], discarder="S") == 1
    # 23m + 4m: two-sided (1m or 4m): not a single wait
    assert count("234m 456m 789s 555t 99s +4m", "wait", "yangzhou", shapes=["edge", "closed"], discarder="S") == 0
    assert count("234m 456m 789s 555t 99s +4m", "wait", "yangzhou", shapes=["open"], single=False,
                 discarder="S") == 1


def test_any_win():
    assert count("123m 456m 789s 555t 99s +9s", "any_win") == 1


# --------------------------------------------------------------------------------------------
# How the hand was won
# --------------------------------------------------------------------------------------------


def test_situation():
    hand = "(7777m) 456m 789s 555t 99s +9s"
    assert count(hand, "situation", any=["kong_replacement"], situations=["kong_replacement"], self_draw=True) == 1
    assert count(hand, "situation", any=["kong_replacement"], self_draw=True) == 0
    assert count(hand, "situation", self_draw="yes", **{"discarder": "S"}) == 0
    assert count(hand, "situation", self_draw="no", discarder="S") == 1
    # the dealer (East) wins: Classic mahjong_by_dealer
    assert count(hand, "situation", dealer="yes", seat_wind="E", discarder="S") == 1
    assert count(hand, "situation", dealer="yes", seat_wind="S", discarder="E") == 0
    # G-OX-4: a discard another player could have made a kong of counts as robbing a kong
    # only where claims.rob_kong_concealed_pung is on (classic.toml: on)
    assert count(hand, "situation", any=["robbing_kong"], kong_claimable=True,
                 situations=["kong_claimable_discard"], discarder="S") == int(
        bool(V["classic"].claims.get("rob_kong_concealed_pung")))


def test_situation_lucky_tile():
    # Ùzje sea_scoop on 1t (its special tile): one extra_fan more
    got = hits("111t456m789s555s99s +1t", "situation", "uzje", any=["last_wall_tile"], lucky=True,
               situations=["last_wall_tile"], self_draw=True)
    assert got == [P.Hit(1, 0)]       # the pattern id "test" has no special tile
    uz = V["uzje"]
    spec = P.spec_from("sea_scoop", {"detector": "situation", "any": ["last_wall_tile"], "lucky": True})
    ctx = context_from_notation("111t456m789s555s99s +1t", variant=uz, situations=["last_wall_tile"], self_draw=True)
    assert spec.run(P.Hand(uz, ctx)) == [P.Hit(1, 1)]
    ctx = context_from_notation("111t456m789s555s99s +9s", variant=uz, situations=["last_wall_tile"], self_draw=True)
    assert spec.run(P.Hand(uz, ctx)) == [P.Hit(1, 0)]


def test_kong_chain():
    # a kong, then a concealed kong, then the win on the replacement (Ùzje multi_quad_draw)
    uz = V["uzje"]
    ctx = context_from_notation("(1111m) [2222s] 456m 55s99s +9s", variant=uz, self_draw=True,
                                situations=["double_kong_replacement"])
    spec = P.spec_from("x", {"detector": "kong_chain"})
    assert spec.run(P.Hand(uz, ctx)) == [P.Hit(1, 0)]
    from dataclasses import replace
    three = replace(ctx, kong_chain=("exposed", "concealed", "concealed"))
    assert spec.run(P.Hand(uz, three)) == [P.Hit(1, 1)]          # one kong past the second
    assert spec.run(P.Hand(uz, replace(ctx, situations=frozenset(), kong_chain=()))) == []


def test_robs_the_eighth():
    # seven flowers held, the eighth robbed from another player (Singapore robbing_the_eighth)
    sg = V["singapore"]
    ctx = context_from_notation("123m456m789s555t9s +r |hijkopq", variant=sg, situations=["robbing_the_eighth"])
    assert P.spec_from("x", {"detector": "robs_the_eighth"}).run(P.Hand(sg, ctx)) == [P.Hit(1)]
    ctx = context_from_notation("123m456m789s555t9s +r |hijkopq", variant=sg)
    assert P.spec_from("x", {"detector": "robs_the_eighth"}).run(P.Hand(sg, ctx)) == []


# --------------------------------------------------------------------------------------------
# Bonus tiles
# --------------------------------------------------------------------------------------------


def test_bonus():
    # East (1) holds season 1 (h), season 3 (j) and flower 1 (o): two of his own, one other
    hand = "123m 456m 789s 555t 99s +9s |hjo"
    assert count(hand, "bonus", own="yes", seat_wind="E") == 2
    assert count(hand, "bonus", own="no", seat_wind="E") == 1
    assert count(hand, "bonus") == 3
    assert count("123m 456m 789s 555t 99s +9s |uvo", "bonus", "singapore", kind="animal") == 2
    # a whole set of four is not counted with outside_full_sets (Ùzje seat_flower beside orchard)
    fl = load_variant("uzje", {"flowers": True})
    ctx = context_from_notation("123s456m789s555s99s +9s |hijko", variant=fl, seat_wind="E", discarder="S")
    spec = P.spec_from("x", {"detector": "bonus", "own": "yes", "outside_full_sets": True})
    assert sum(h.count for h in spec.run(P.Hand(fl, ctx))) == 1       # o only; h is in the full seasons


def test_bonus_set():
    hand = "123m 456m 789s 555t 99s +9s |{}"
    assert count(hand.format("opqr"), "bonus_set", sets=["flowers"]) == 1
    assert count(hand.format("opqh"), "bonus_set", sets=["flowers"]) == 0
    assert count(hand.format("hijkopqr"), "bonus_set", sets=["seasons", "flowers"], count="each") == 2
    assert count(hand.format("hijkopqr"), "bonus_set", sets=["seasons", "flowers"], count="all") == 1
    assert count(hand.format("hijkopq"), "bonus_set", sets=["seasons", "flowers"], count="all") == 0
    got = hits(hand.format("hijkopqr"), "bonus_set", sets=["seasons", "flowers"], count="separate")
    assert got == [P.Hit(1), P.Hit(1)]                                  # two separate items (orchard)


def test_bonus_held():
    # six of the eight held, the sixth just received (Ùzje six_flowers, G-UZ-14)
    fl = load_variant("uzje", {"flowers": True})
    spec = P.spec_from("x", {"detector": "bonus_held", "count": 6, "any": ["sixth_flower"]})
    ctx = context_from_notation("123s456m789s55s9s +p |hijkop", variant=fl, situations=["sixth_flower"])
    assert spec.run(P.Hand(fl, ctx)) == [P.Hit(1)]
    ctx = context_from_notation("123s456m789s55s9s +p |hijkop", variant=fl)
    assert spec.run(P.Hand(fl, ctx)) == []


def test_indicator_match():
    # indicator 5m (identity mode): the hand holds three 5m (uzje.md "Setting up", G-UZ-6)
    uz = V["uzje"]
    ctx = context_from_notation("555m456s789s11t99s +9s", variant=uz, indicators=T.parse_tiles("5m"), discarder="S")
    assert P.spec_from("x", {"detector": "indicator_match"}).run(P.Hand(uz, ctx)) == [P.Hit(3)]


# --------------------------------------------------------------------------------------------
# The registry, a variant file's patterns, the questions other parts ask
# --------------------------------------------------------------------------------------------

RULE_SOURCE = ("seed", ".md", "G-", "CLI.md")


@pytest.mark.parametrize("name", sorted(n for n, d in P.DETECTORS.items() if d.fn.__module__ == P.__name__))
def test_every_detector_has_a_docstring_with_its_rule_source(name):
    doc = P.DETECTORS[name].doc
    assert doc and any(s in doc for s in RULE_SOURCE), name


@pytest.mark.parametrize("vid", FIVE)
def test_every_valued_pattern_of_the_five_variants_is_listed(vid):
    v = V[vid]
    listed = {s.id for s in P.patterns_of(v)}
    for table in P.VALUE_TABLES:
        assert set(v.scoring.get(table) or {}) <= listed, table


def test_one_flush_detector_for_one_suit_no_honours():
    # "one suit, no honours" is one detector with one parameter in all five variants
    specs = [s for vid in FIVE for s in P.patterns_of(V[vid])
             if s.detector == "flush" and s.params.honours == "none"]
    assert {s.id for s in specs} == {"full_suit", "full_flush"}
    assert len(specs) == 5


def test_plan_families_of_the_five_variants():
    # the families the bots steer toward (mahjong_tui.ai.plans), as the synonym table gave them
    assert P.plan_families(V["classic"]) >= {"honours", "suit", "suit_honours", "triplets", "orphans", "pairs"}
    assert P.plan_families(V["yuxi"]) == {"pairs", "suit", "triplets"}
    assert P.plan_families(V["yangzhou"]) == {"honours", "same_sequence", "straight", "suit", "suit_honours",
                                              "suit_triplets"}
    assert P.plan_families(V["singapore"]) == {"honours", "orphans", "suit", "suit_honours", "triplets"}
    assert P.plan_families(V["uzje"]) == {"honours", "orphans", "pairs", "suit", "suit_honours", "triplets"}


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_house_rule_adds_a_pattern_by_data_alone(tmp_path):
    # the README's example: four kongs, two doublings, in Classic
    p = write(tmp_path, 'extends = "classic"\nid = "classic-four-kongs"\nname = "Four kongs"\n'
                        '[scoring.patterns]\nfour_kongs = { detector = "kongs", count = 4, name = "four kongs" }\n'
                        '[scoring.doublings]\nfour_kongs = 2\n')
    house = load_variant(str(p))
    hand = "(1111m) (2222s) (3333t) (5555m) 99s +9s"
    ctx = context_from_notation(hand, variant=house, discarder="S", seat_wind="S")
    got = {x.id: x for x in evaluate(house, ctx).patterns}
    assert got["four_kongs"].kind == "doublings" and got["four_kongs"].description == "four kongs"
    plain = evaluate(V["classic"], context_from_notation(hand, variant=V["classic"], discarder="S", seat_wind="S"))
    # 4 exposed kongs of simples/terminals: points (8+8+16+8) + 20 mahjong = 60; the plain hand
    # has the pung-hand doubling: 120; two more: 480
    assert evaluate(house, ctx).value == min(plain.value * 4, V["classic"].scoring["limit"])


def test_a_pattern_without_a_value_never_scores(tmp_path):
    p = write(tmp_path, 'extends = "classic"\nid = "h"\nname = "H"\n'
                        '[scoring.patterns]\nfour_kongs = { detector = "kongs", count = 4 }\n')
    house = load_variant(str(p))
    ctx = context_from_notation("(1111m) (2222s) (3333t) (5555m) 99s +9s", variant=house, discarder="S")
    assert "four_kongs" not in {x.id for x in evaluate(house, ctx).patterns}
    # with its own value it does, in the table it names
    p = write(tmp_path, 'extends = "classic"\nid = "h"\nname = "H"\n[scoring.patterns]\n'
                        'four_kongs = { detector = "kongs", count = 4, value = 1, table = "doublings" }\n',
              "valued.toml")
    house = load_variant(str(p))
    assert house.rules_hash != V["classic"].rules_hash
    got = {x.id: x for x in evaluate(house, ctx).patterns}
    assert got["four_kongs"].kind == "doublings" and got["four_kongs"].value == 1


def test_the_pattern_listing_leaves_the_rules_hash_alone(tmp_path):
    # renaming a pattern changes no value: same rules hash (saved games still replay)
    p = write(tmp_path, 'extends = "classic"\nid = "classic"\nname = "Classic"\n[scoring.patterns]\n'
                        'chow = { detector = "chow", applies_to = "every_player", name = "a run" }\n')
    assert load_variant(str(p)).rules_hash == V["classic"].rules_hash


@pytest.mark.parametrize("entry, message", [
    ('{ detector = "nope" }', "scoring.patterns.x.detector' = 'nope' is not allowed; expected one of"),
    ('{ detector = "flush", honours = "some" }', "scoring.patterns.x.honours' = 'some' is not allowed; expected one of"),
    ('{ detector = "flush", colour = "red" }', "unknown key 'scoring.patterns.x.colour' for detector 'flush'"),
    ('{ detector = "kongs", count = "four" }', "scoring.patterns.x.count' = 'four' is not allowed; expected a int"),
    ('{ detector = "kongs", applies_to = "all" }', "applies_to' = 'all' is not allowed"),
    ('{ detector = "situation", any = ["robbed_kong"] }', "scoring.patterns.x.any' = ['robbed_kong'] is not allowed"),
    ('{ detector = "kongs", replaces = "chow" }', "replaces' must be a list of pattern ids"),
    ('{ detector = "kongs", value = -1 }', "value' = -1 is not allowed"),
    ('{ detector = "kongs", table = "bananas" }', "table' = 'bananas' is not allowed"),
])
def test_bad_pattern_entries_are_refused_with_the_key(tmp_path, entry, message):
    p = write(tmp_path, f'extends = "classic"\nid = "h"\nname = "H"\n[scoring.patterns]\nx = {entry}\n')
    with pytest.raises(VariantError) as e:
        load_variant(str(p))
    assert message in str(e.value)
    assert "house.toml" in str(e.value)


def test_a_valued_pattern_must_be_listed(tmp_path):
    p = write(tmp_path, 'extends = "classic"\nid = "h"\nname = "H"\n[scoring.doublings]\nfour_kongs = 2\n')
    with pytest.raises(VariantError, match="scoring.doublings.four_kongs"):
        load_variant(str(p))


def test_replaces_alone_and_hand_order(tmp_path):
    # Classic: the worthless hand replaces the mahjong points (classic.md "Points")
    res = evaluate(V["classic"], context_from_notation("123m 456m 789s 234t 55t +5t", variant=V["classic"],
                                                       discarder="S", seat_wind="S"))
    ids = [x.id for x in res.patterns]
    assert "worthless_hand" in ids and "mahjong_discard" not in ids
    # Yuxi: the basic win only when nothing else scores
    yx = V["yuxi"]
    res = evaluate(yx, context_from_notation("123m 456m 789s 234t 55t +5t", variant=yx, self_draw=True))
    assert [x.id for x in res.patterns] == ["basic_win"]
    res = evaluate(yx, context_from_notation("123m 456m 789m 234m 55m +5m", variant=yx, self_draw=True))
    assert [x.id for x in res.patterns] == ["full_flush"]
    # Classic's pung points follow the hand: the terminal pung shows first when it comes first
    res = evaluate(V["classic"], context_from_notation("(999s) 555m 123t 456t EE +E", variant=V["classic"],
                                                       discarder="S", seat_wind="S"))
    ids = [x.id for x in res.patterns]
    assert ids.index("pung_terminal_open") < ids.index("pung_simple_hidden")
