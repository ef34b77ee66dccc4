"""Ùzje at the table (seed 002, uzje.md "Setting up", "How a game goes", G-UZ-1…14): the tile set and wall, the breaker
who deals first, the dead wall and its indicators, claims of ariths, gems and powers from the
previous player only (the zero among them), several winners, quad robbing (any quad for the
orphan forms), hidden concealed quads, the flower wins, and whole games of bots whose every
win is checked by an independent reader of the rules."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_tui import tiles as T
from mahjong_tui.ai import make_bot
from mahjong_tui.engine import Action, Table
from mahjong_tui.engine.table import claimable_sequences
from mahjong_tui.melds import CHOW, PUNG, Meld
from mahjong_tui.sim import play_match
from mahjong_tui.variant import load_variant

from .helpers import check_invariants, play_random, set_hand

t = T.parse_tile
UZ = load_variant("uzje")
FLOWERS = UZ.with_options({"flowers": True})


@pytest.fixture
def table():
    tb = Table(UZ, 1, hands=3, first_dealer=0)
    assert tb.current == 0 and tb.phase == "turn"
    tb.wall.indicators[:] = [t("dm")]   # a bonus tile none of the rigged hands holds
    return tb


# --------------------------------------------------------------------------------------------
# Tiles, wall, dealer
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, tiles, width", [
    ({}, 168, 21), ({"flowers": True}, 176, 22), ({"compressed_winds": True}, 160, 20),
    ({"all_tongs": True}, 224, 28), ({"all_tongs": True, "flowers": True}, 232, 29),
])
def test_tile_sets_and_wall_widths(options, tiles, width):
    """Seed 002's wall table: width 20 + 1 (full winds) + 1 (flowers) + 7 (all tongs), two
    high, four walls; common.md "Tile notation" tile counts; zero has four copies."""
    v = UZ.with_options(options)
    assert v.tile_count == tiles and v.stacks == (width,) * 4
    assert v.copies_of(T.ZERO) == 4
    table = Table(v, 2, hands=1)
    view = table.view(0)
    # the 16-tile dead wall is cut off; 53 tiles dealt (flowers replaced from the live wall)
    assert view["wall"]["live"] + 16 + 53 + sum(len(b) for b in table.bonus) == tiles


def test_dead_wall_is_never_drawn_and_shows_one_indicator():
    table = Table(UZ, 1, hands=3)
    view = table.view(1)
    assert view["wall"]["dead"] == 15 and len(view["wall"]["indicators"]) == 1
    dead = [x for s in table.wall._dead for x in s]
    assert len(dead) == 16 and t(view["wall"]["indicators"][0]) in dead
    rng = random.Random(4)
    play_random(table, rng)   # whole hands: replacements come from the live wall only
    assert all(len(s) for s in table.wall._dead) and sum(len(s) for s in table.wall._dead) == 16


def test_indicators_turn_up_in_the_fixed_order():
    """G-UZ-12: top tiles of the dead-wall stacks from the break outward, then bottom tiles;
    each quad turns one up (uzje.md "How a game goes")."""
    table = Table(UZ, 1, hands=1, first_dealer=0)
    order = [s[0] for s in reversed(table.wall._dead)] + [s[1] for s in reversed(table.wall._dead)]
    assert table.wall.indicators == order[:1]
    set_hand(table, 0, "1111s23s456s789sEE")
    live_before = table.wall.live_count
    back = table.wall._live[-1][0]
    table.apply_decision(Action(0, "concealed_kong", t("1s")))
    assert table.wall.indicators == order[:2]
    assert table.view(2)["wall"]["indicators"] == [T.name(x) for x in order[:2]]
    # the replacement came from the far end of the live wall (uzje.md "Setting up")
    assert table.wall.live_count == live_before - 1 and table.last_drawn == back
    assert any(e["type"] == "indicator" for e in table.events)


@pytest.mark.parametrize("seed", range(6))
def test_the_starters_roll_picks_the_breaker_who_deals_first(seed):
    """4a: the starter (seat 0) rolls 3d6 = r; player r mod 4 counted from his left (0) breaks
    his own wall r stacks from its right end and is the first dealer.  G-UZ-1: later games the
    dealer rolls and the player selected from his left breaks."""
    table = Table(UZ, seed, hands=4)
    r = sum(table.wall.brk.dice)
    assert len(table.wall.brk.dice) == 3 and 3 <= r <= 18
    # labels: starter's left (seat 3) 0, starter 1, right (seat 1) 2, opposite 3
    label_to_seat = {0: 3, 1: 0, 2: 1, 3: 2}
    assert table.dealer == label_to_seat[r % 4] == table.wall.brk.wall_seat
    assert table.wall.brk.stack == r
    assert table.events[0]["dealer"] == table.dealer and table.current == table.dealer
    # later hands: the generic break counted from the dealer (common.md "Dice and the break", G-UZ-1)
    starts = []
    rng = random.Random(seed)
    while table.phase != "match_over":
        legal = table.legal_actions(table.waiting_for()[0])
        starts += [e for e in table.apply(rng.choice(legal)) if e["type"] == "hand_start"]
    assert len(starts) == 3
    for ev in starts:
        assert ev["break_seat"] == (ev["dealer"] + sum(ev["dice"]) - 1) % 4


def test_dealer_and_sets():
    """4a: a non-dealer win passes the deal; a dealer win or a draw keeps it; the set wind
    moves E, S, W, N after four changes of dealer (G-UZ-2)."""
    table = Table(UZ, 8, hands=12)
    play_random(table, random.Random(8))
    changes = 0
    for before, after in zip(table.history, table.history[1:]):
        winners = {w["seat"] for w in before["winners"]}
        if not winners or before["dealer"] in winners:
            assert after["dealer"] == before["dealer"]
        else:
            assert after["dealer"] == (before["dealer"] + 1) % 4
            changes += 1
        assert after["prevailing_wind"] == "ESWN"[(changes // 4) % 4]
    assert table.scores == [sum(h["deltas"][s] for h in table.history) for s in range(4)]   # start at 0


# --------------------------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------------------------

def test_claimable_chows_of_classic_are_unchanged():
    """Claimable sequences come from the meld templates now; Classic/Yuxi/Yangzhou keep exactly
    the 1-2-3 chows (in the old order: the chow starting lowest first)."""
    for vid in ("classic", "yuxi", "yangzhou"):
        v = load_variant(vid)
        got = claimable_sequences(v)
        for tile in range(T.NUM_KINDS):
            want = []
            if T.is_suited(tile) and 1 <= T.rank_of(tile) <= 9:
                r = T.rank_of(tile)
                for start in (r - 2, r - 1, r):
                    if 1 <= start and start + 2 <= 9:
                        ts = (tile - r + start, tile - r + start + 1, tile - r + start + 2)
                        a, b = (x for x in ts if x != tile)
                        want.append((a, b, ts))
            assert got[tile] == want, T.name(tile)


def _discard_to(table, seat: int, tile: str) -> None:
    table.current = seat
    table.drawn_from, table.last_drawn = "wall", None
    table.invalidate_caches()
    table.apply(Action(seat, "discard", t(tile)))


def test_ariths_gems_and_powers_only_from_the_previous_player(table):
    # seat 1 (next after 0) and seat 2 both hold 3s 7s, 2s 8s: 5s completes 3 5 7 (d 2), 2 5 8
    # (d 3); 4s would complete the gem 2 4 8
    set_hand(table, 0, "5s4s123m456m789mEEE")
    set_hand(table, 1, "37s28sZCCFFPPNN")
    set_hand(table, 2, "37s28sZCCFFPPNN")
    _discard_to(table, 0, "5s")
    chows1 = sorted(T.format_tiles(a.tiles) for a in table.legal_actions(1) if a.kind == "chow")
    assert chows1 == ["258s", "357s"]
    assert not any(a.kind == "chow" for a in table.legal_actions(2))   # not the next player


def test_zero_completes_and_joins_sequences(table):
    # seat 1 holds Z 2s: a discarded 1s makes 0 1 2 (the zero read as 0s); a discarded 4s makes
    # 0 2 4 (d 2); seat 1 also holds 1s 8s: the zero discarded makes 0 1 8 (a power)
    set_hand(table, 0, "1s4sZ123m456m789mEE")
    set_hand(table, 1, "Z2s18sCCFFPPNNW")
    _discard_to(table, 0, "1s")
    opts = [a for a in table.legal_actions(1) if a.kind == "chow"]
    # 0 1 2 and the power 0 1 8 (seat 1 holds 8s too)
    assert [T.format_tiles(T.zero_as_number(a.tiles)) for a in opts] == ["012s", "018s"]
    assert opts[0].tiles == (t("1s"), t("2s"), T.ZERO)             # physical tiles
    table.apply_decision(opts[0])
    meld = table.melds[1][-1]
    assert meld.kind == CHOW and meld.tiles == (t("1s"), t("2s"), T.ZERO) and table.hands[1][T.ZERO] == 0
    assert table.view(3)["players"][1]["melds"][-1]["tiles"] == "12sZ"


def test_a_discarded_zero_completes_powers_and_ariths(table):
    set_hand(table, 0, "Z4s123m456m789mEEE")
    set_hand(table, 1, "18s48s24mCCFFPPN")
    _discard_to(table, 0, "Z")
    got = sorted(T.format_tiles(T.zero_as_number(a.tiles)) for a in table.legal_actions(1) if a.kind == "chow")
    # 0 1 8 (power), 0 4 8 (d 4), 0 2 4 of mans (d 2); 0 1 4 needs 1s 4s: not held together? 1s 4s: yes
    assert got == sorted(["018s", "048s", "024m", "014s"])


def test_trips_beat_ariths_and_several_winners_are_paid(table):
    # seat 1 waits on 5s with 46s (an arith claim too), seat 2 can pung 5s, seat 3 wins on it
    # too: wins beat trips beat ariths; seats 1 and 3 win, the discarder pays each his points
    set_hand(table, 0, "5s123m456m789mEEEN")
    set_hand(table, 1, "46s123m456m789mCC")     # 456s: closed 2.6, single differences 1.4: 4 -> 5
    set_hand(table, 2, "55sWWWNNSSPPFC")
    set_hand(table, 3, "46s124m248mWWWFF")     # 456s, gems 124m 248m, WWW: closed 2.6 -> 2 points
    _discard_to(table, 0, "5s")
    assert {a.kind for a in table.legal_actions(1)} >= {"win", "chow"}
    assert {a.kind for a in table.legal_actions(2)} >= {"pung"}
    table.apply(Action(2, "pung", t("5s")))
    table.apply(Action(3, "win", t("5s")))
    table.apply(Action(1, "win", t("5s")))
    h = table.history[-1]
    assert sorted(w["seat"] for w in h["winners"]) == [1, 3]
    assert h["deltas"] == [-7, 5, 0, 2]


def test_added_quad_can_be_robbed(table):
    table.melds[0] = [Meld(PUNG, (t("2s"),) * 3, declared=True, concealed=False, from_seat=3)]
    set_hand(table, 0, "2s123m456m789mE")
    set_hand(table, 1, "34s124m248mWWWFF")    # waits on 2s (2 3 4) and 5s
    table.invalidate_caches()
    table.current, table.drawn_from, table.last_drawn = 0, "wall", t("2s")
    table.apply_decision(Action(0, "added_kong", t("2s")))
    assert table.phase == "rob" and Action(1, "win", t("2s")) in table.legal_actions(1)
    table.apply_decision(Action(1, "win", t("2s")))
    w = table.history[-1]["winners"][0]
    # closed 2.6 + quad rob 2 + 3 (the tile is 2s) = 7.6 -> 100, paid by the robbed player
    assert {p["id"] for p in w["patterns"]} == {"closed_hand", "quad_rob"} and w["value"] == 7.6
    assert table.history[-1]["deltas"][:2] == [-100, 100]


def test_orphans_rob_a_concealed_quad(table):
    """4b: a thirteen- or fourteen-orphans hand may rob any quad, a concealed one too; a
    standard hand may not."""
    set_hand(table, 0, "EEEE123m456m789mC")
    set_hand(table, 1, "1ft1fs1fmSWNCFPP")      # thirteen orphans waiting on E
    table.invalidate_caches()
    table.apply_decision(Action(0, "concealed_kong", T.EAST))
    assert table.phase == "rob" and table.waiting_for() == [1]
    table.apply_decision(Action(1, "win", T.EAST))
    h = table.history[-1]
    assert h["winners"][0]["form"] == "thirteen_orphans" and h["deltas"][:2] == [-5000, 5000]


def test_a_standard_hand_cannot_rob_a_concealed_quad(table):
    set_hand(table, 0, "5555s123m456m789mC")
    set_hand(table, 1, "46s123s789s11mFFF")     # would win on 5s
    table.invalidate_caches()
    table.apply_decision(Action(0, "concealed_kong", t("5s")))
    assert table.phase == "turn" and table.current == 0 and table.melds[0][-1].kong_type == "concealed"


def test_concealed_quad_stands_when_the_orphans_pass(table):
    set_hand(table, 0, "EEEE123m456m789mC")
    set_hand(table, 1, "1ft1fs1fmSWNCFPP")
    table.invalidate_caches()
    table.apply_decision(Action(0, "concealed_kong", T.EAST))
    table.apply_decision(Action(1, "pass"))
    assert table.phase == "turn" and table.current == 0 and table.melds[0][-1].kong_type == "concealed"
    assert len(table.wall.indicators) == 2


def test_hidden_concealed_quads():
    """concealed_quad_mode = hidden: nobody but the owner sees the quad's tile until the game
    ends (the engine checks it, so no challenge is needed)."""
    v = UZ.with_options({"concealed_quad_mode": "hidden"})
    table = Table(v, 1, hands=1, first_dealer=0)
    set_hand(table, 0, "CCCC123m456m789mE")
    table.current, table.drawn_from, table.last_drawn = 0, "wall", t("C")
    table.invalidate_caches()
    events = table.apply_decision(Action(0, "concealed_kong", T.RED))
    kong = next(e for e in events if e["type"] == "kong")
    assert "tile" not in kong and kong["private"] == {0: {"tile": "C"}}
    assert table.view(0)["players"][0]["melds"][0]["tiles"] == "CCCC"
    for s in (1, 2, 3):
        view = table.view(s)
        assert view["players"][0]["melds"][0] == {"kind": "kong", "tiles": "", "kong_type": "concealed",
                                                  "from_seat": None}
    play_random(table, random.Random(1))
    assert "[CCCC]" in table.history[-1]["hands"][0]["melds"]   # shown at the end


# --------------------------------------------------------------------------------------------
# Flower wins (G-UZ-14)
# --------------------------------------------------------------------------------------------

def _flower_table(held: dict[int, str]) -> Table:
    table = Table(FLOWERS, 3, hands=1, first_dealer=0)
    for s in range(4):
        for b in list(table.bonus[s]):   # undo the deal's flowers: rig them
            table.bonus[s].remove(b)
    for s, text in held.items():
        table.bonus[s] = T.parse_tiles(text)
        table.bonus_seen[s] = len(table.bonus[s])
    table.invalidate_caches()
    return table


def _next_draw(table: Table, tile: str) -> None:
    table.wall._live[0][0] = t(tile)


def test_six_flowers_on_receiving_the_sixth():
    table = _seat_1_draws({1: "hijko"}, "p")
    assert table.phase == "turn" and table.current == 1 and table.bonus[1][-1] == t("p")
    assert Action(1, "win", t("p")) in table.legal_actions(1)
    table.apply(Action(1, "win", t("p")))
    h = table.history[-1]
    assert h["winners"][0]["form"] == "flowers" and h["deltas"] == [-1, 3, -1, -1]


def test_six_flowers_lapses_if_not_taken_at_once():
    table = _flower_table({0: "hijkop"})
    table.bonus_seen[0] = 5            # the sixth came with this turn's draw
    set_hand(table, 0, "1s123m456m789mEEEN")
    assert Action(0, "win", t("p")) in table.legal_actions(0)
    table.apply(Action(0, "discard", t("1s")))
    assert table.bonus_seen[0] == 6     # next turn: not new any more


def _seat_1_draws(held: dict[int, str], flower: str) -> Table:
    """Seat 0 (dealer) discards 1s, nobody claims, seat 1 draws ``flower``."""
    table = _flower_table(held)
    set_hand(table, 0, "1s123m456m789mEEEN")
    set_hand(table, 1, "123s456s789mCCNW")
    _next_draw(table, flower)
    table.apply(Action(0, "discard", t("1s")))
    while table.phase == "claim":
        table.apply(table.legal_actions(table.waiting_for()[0])[-1])   # pass
    return table


def test_ivies_on_the_wall_and_crossing_the_sea():
    table = _seat_1_draws({2: "hijkopq"}, "r")
    # seat 1 drew the eighth flower: seat 2, holding seven, may win on it
    assert table.phase == "rob" and table.waiting_for() == [2]
    assert table.legal_actions(2) == [Action(2, "win", t("r")), Action(2, "pass")]
    table.apply(Action(2, "win", t("r")))
    h = table.history[-1]
    assert h["winners"][0]["patterns"][0]["id"] == "ivies_on_the_wall"
    assert h["deltas"] == [0, -100, 100, 0]          # 8 fan = 100, the exposer pays

    table = _seat_1_draws({1: "hijkopq"}, "r")
    assert Action(1, "win", t("r")) in table.legal_actions(1)
    table.apply(Action(1, "win", t("r")))
    h = table.history[-1]
    assert h["winners"][0]["patterns"][0]["id"] == "crossing_the_sea" and h["deltas"] == [-2500, 7500, -2500, -2500]


def test_passing_on_ivies_goes_on_with_the_replacement():
    table = _seat_1_draws({2: "hijkopq"}, "r")
    table.apply(Action(2, "pass"))
    assert table.phase == "turn" and table.current == 1 and table.tile_count(1) == 14
    assert not any(table.hands[1][b] for b in FLOWERS.bonus_kinds)


# --------------------------------------------------------------------------------------------
# Whole games
# --------------------------------------------------------------------------------------------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), options=st.sampled_from([
    {"flowers": True}, {"compressed_winds": True, "concealed_quad_mode": "hidden"},
    {"all_tongs": True, "bonus_tile_mode": "successor"}]))
def test_random_play_with_options_conserves_tiles(seed, options):
    table = Table(UZ.with_options(options), seed, hands=2)
    check_invariants(table)
    play_random(table, random.Random(seed), check=check_invariants)
    assert len(table.history) == 2


def _reads_as_complete(tiles: list[int]) -> bool:
    """An independent reading of 14 physical tiles as four melds and a pair (seed 002 uzje.md "Melds and winning hands"):
    trips; ariths a, a+d, a+2d of ranks 0-16; gems; powers; each zero as the honour or as rank
    0 of any suit.  Plain recursion on the lowest tile, nothing shared with hand.py."""
    gems = [(1, 2, 4), (2, 4, 8), (4, 8, 16), (1, 3, 9)]
    powers = [(0, 1, 4), (1, 4, 9), (4, 9, 16), (0, 1, 8)]

    def melds_only(rest: list[int]) -> bool:
        if not rest:
            return True
        x = rest[0]
        if rest.count(x) >= 3:
            r = list(rest)
            for _ in range(3):
                r.remove(x)
            if melds_only(r):
                return True
        # the lowest tile in a sequence; a zero may stand for rank 0 of any suit
        for suit in range(3):
            if x == T.ZERO:
                base_rank = 0
            elif T.suit_of(x) == suit:
                base_rank = T.rank_of(x)
            else:
                continue
            shapes = [(base_rank, base_rank + d, base_rank + 2 * d) for d in range(1, 9)] + gems + powers
            for shape in shapes:
                if shape[0] != base_rank or shape[-1] > 16:
                    continue
                need = [T.ZERO if r == 0 else suit * 17 + r for r in shape[1:]]
                r = list(rest)
                r.remove(x)
                ok = True
                for n in need:
                    if n in r:
                        r.remove(n)
                    else:
                        ok = False
                        break
                if ok and melds_only(r):
                    return True
        return False

    # the zero sorts last as a code but may be rank 0: try it first
    def order(ts):
        return sorted(ts, key=lambda x: (x != T.ZERO, x))

    for p in set(tiles):
        if tiles.count(p) >= 2:
            r = list(tiles)
            r.remove(p)
            r.remove(p)
            if melds_only(order(r)):
                return True
    return False


def test_every_bot_win_is_legal_by_an_independent_reading():
    """Four bots play; each win is re-read from the revealed hand: the tiles form a hand by the
    rules (four melds and a pair read independently, or a special form) and score at least
    2.5 fan (G-UZ-5), and the points match the ladder."""
    v = UZ
    table = Table(v, 21, hands=8)
    bots = [make_bot("ai", v, s, 21) for s in range(4)]
    play_match(table, bots, check=check_invariants)
    wins = 0
    for h in table.history:
        for w in h["winners"]:
            wins += 1
            hand = h["hands"][w["seat"]]
            tiles = T.parse_tiles(hand["concealed"])
            melds = [T.parse_tiles(m.strip("()[]")) for m in hand["melds"]]
            everything = tiles + [x for m in melds for x in m[:3]]
            if len(everything) == 13:   # a second winner on one discard: the tile joined the first
                everything.append(t(w["tile"]))
            if w["form"] == "standard":
                assert _reads_as_complete(everything), hand
            # at least the minimum, and the breakdown adds up to it (no limit hands here)
            assert w["value"] >= 2.5
            assert round(sum(p["value"] * p["count"] for p in w["patterns"]), 6) == w["value"]
    assert wins >= 6


def test_views_show_the_indicators_and_no_other_hand():
    table = Table(UZ, 5, hands=1)
    for s in range(4):
        view = table.view(s)
        text = json.dumps(view)
        assert not any(T.format_tiles(table.concealed_tiles(o)) in text for o in range(4) if o != s)
        assert view["wall"]["indicators"] == [T.name(table.wall.indicators[0])]
        assert view["wall"]["dead"] == 15


@pytest.mark.parametrize("level", ["ai:easy", "ai:normal", "ai:strong", "ai:baseline"])
def test_bots_play_on_with_a_hidden_quad_on_the_table(level):
    """A hidden concealed quad shows no tiles to the other seats; every bot level goes on
    playing legally (the strong defence reads suits from melds: a hidden one tells none)."""
    v = UZ.with_options({"concealed_quad_mode": "hidden"})
    table = Table(v, 1, hands=1, first_dealer=0)
    set_hand(table, 0, "CCCC123m456m789mE")
    table.current, table.drawn_from, table.last_drawn = 0, "wall", T.RED
    table.invalidate_caches()
    table.apply(Action(0, "concealed_kong", T.RED))
    bots = [make_bot(level, v, s, 1) for s in range(4)]
    while table.phase != "match_over":
        s = table.waiting_for()[0]
        legal = table.legal_actions(s)
        action = bots[s].choose(table.view(s), legal)
        assert action in legal
        table.apply(action)
    assert len(table.history) == 1


def test_the_d20_break_roll_option():
    """4a: "He rolls 3d6 (alternative: use 1d20 instead)": with ``break_roll = "1d20"`` one
    twenty-sided die is rolled, the same labels pick the breaker and first dealer (r mod 4),
    and he counts r stacks (up to 20: every wall holds at least 20 stacks, seed 002's table).
    Without the option the variant's hash and rolls are those of 3d6."""
    d20 = UZ.with_options({"break_roll": "1d20"})
    assert UZ.rules_hash == "21452a884e157762" and d20.rules_hash != UZ.rules_hash
    label_to_seat = {0: 3, 1: 0, 2: 1, 3: 2}
    rolls = []
    for seed in range(40):
        table = Table(d20, seed, hands=1)
        (r,) = table.wall.brk.dice
        rolls.append(r)
        assert 1 <= r <= 20
        assert table.dealer == label_to_seat[r % 4] == table.wall.brk.wall_seat
        assert table.wall.brk.stack == r
        assert table.view(0)["wall"]["dice"] == [r]  # the table shows "Dice 17"
    assert max(rolls) > 18  # not 3d6 (at most 18) — seeds 0-39 roll 19 or 20 at least once
    assert min(rolls) < 3   # nor its lowest, 3
    # compressed winds: 20 stacks a wall, so a roll of 20 still breaks inside the wall
    small = UZ.with_options({"break_roll": "1d20", "compressed_winds": True})
    assert min(small.stacks) == 20
    seed = next(s for s in range(200) if Table(small, s, hands=1).wall.brk.dice == (20,))
    table = Table(small, seed, hands=1)
    assert table.wall.brk.stack == 20 and table.dealer == label_to_seat[0]
