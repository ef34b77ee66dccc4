"""The Singapore table (seed 001; singapore.md "Setting up", "How a hand goes", "Winning hands", "Tai table", "Settlement") in the engine: the deal's bonus-replacement
passes, instant payments (bites and kong payments, a robbed kong paying nothing), the two
flower wins, the 15-tile reserve, dealer rotation and the match's length, replay.

Deals are rigged with :func:`tests.helpers.rigged_wall` (the deal, the next ordinary draws and
the replacement draws are given); seat 0 is East and deals unless a test says otherwise.  Every
decision is made by the test itself; claim windows it does not care about are passed.
"""

from __future__ import annotations

import json
import random

import pytest

from mahjong_tui import scoring
from mahjong_tui import tiles as T
from mahjong_tui.ai.baseline import BaselineBot
from mahjong_tui.engine import Action, GameLog, Table, event_for
from mahjong_tui.engine.wall import Wall
from mahjong_tui.sim import play_match
from mahjong_tui.variant import load_variant

from .helpers import check_invariants, rig_first_hand, rigged_wall

SG = load_variant("singapore")


def table_with(monkeypatch, hands, front="", back="", n_hands=1) -> Table:
    rig_first_hand(monkeypatch, rigged_wall(SG, 0, hands, front, back))
    return Table(SG, 1, hands=n_hands, first_dealer=0)


def pass_all(table: Table, phases=("claim", "rob")) -> None:
    """Answer every open window of ``phases`` (claim, rob) with pass."""
    while table.phase in phases:
        for s in table.waiting_for():
            table.apply(Action.of(s, "pass"))


def discard(table: Table, seat: int, tile: str) -> None:
    assert table.phase == "turn" and table.current == seat, (table.phase, table.current, seat)
    table.apply(Action.of(seat, "discard", T.parse_tile(tile)))


def trail(table: Table, types=("bonus", "draw", "instant_payment")) -> list[tuple]:
    """The hand's events as (type, seat, tile or payment id), draws with the drawn tile."""
    out = []
    for e in table.events:
        if e["type"] not in types:
            continue
        e = event_for(e, e.get("seat"))
        out.append((e["type"], e["seat"], e.get("id") or e.get("tile")))
    return out


def payments(table: Table) -> list[tuple]:
    return [(p["id"], p["seat"], p["amount"], p["hidden"]) for p in table.instant_log]


PLAIN = "2468m2468t135s"  # eleven tiles nobody can do much with


# ---------------------------------------------------------------------------------------
# the deal (singapore.md "Setting up") and bites (singapore.md "Settlement")
# ---------------------------------------------------------------------------------------

def test_deal_replaces_bonus_tiles_in_passes_from_the_dealer(monkeypatch):
    # East is dealt Spring, Cat, Centipede; South Summer and Orchid (his own season and flower);
    # North the Rat.  Replacements from the Flower Pile: 5t, Rooster, 1t, 7t, 9t, 3t, 9m.
    # Pass 1, from the dealer: East h->5t, u->Rooster, y->1t; South i->7t, p->9t (own season +
    # flower, both dealt: hidden bite, 2 each); North v->3t.  Pass 2: East's Rooster (drawn in
    # pass 1) -> 9m; Rooster + Centipede, both from the deal's passes: hidden bite, 2 each.
    t = table_with(monkeypatch, ["huy" + PLAIN, "ip" + PLAIN, "EE" + PLAIN, "vS" + PLAIN],
                   back="5t w 1t 7t 9t 3t 9m")
    assert trail(t) == [
        ("bonus", 0, "h"), ("draw", 0, "5t"), ("bonus", 0, "u"), ("draw", 0, "w"), ("bonus", 0, "y"),
        ("draw", 0, "1t"), ("bonus", 1, "i"), ("draw", 1, "7t"), ("bonus", 1, "p"),
        ("instant_payment", 1, "bite_seat_flowers"), ("draw", 1, "9t"), ("bonus", 3, "v"), ("draw", 3, "3t"),
        ("bonus", 0, "w"), ("instant_payment", 0, "bite_animals"), ("draw", 0, "9m"),
    ]
    assert payments(t) == [("bite_seat_flowers", 1, 2, True), ("bite_animals", 0, 2, True)]
    # each bite: the biter +6, the three others -2
    assert t.scores == [4, 4, -4, -4]
    view = t.view(2)
    assert [p["bonus"] for p in view["players"]] == ["huwy", "ip", "", "v"]
    assert [p["score"] for p in view["players"]] == [4, 4, -4, -4]
    assert t.concealed_tiles(0) == sorted(T.parse_tiles(PLAIN + "15t9m"))
    assert t.wall.live_count == 148 - 53 - 7
    check_invariants(t)


def test_bite_in_play_is_not_hidden(monkeypatch):
    # South was dealt the Cat (replaced by 5t); his first draw is the Rat (replaced by 7t):
    # Cat + Rat, the Rat not from the deal: 1 each
    t = table_with(monkeypatch, ["EE1m" + PLAIN, "u1m" + PLAIN, "W1m" + PLAIN, "N1m" + PLAIN],
                   front="v", back="5t 7t")
    assert t.scores == [0, 0, 0, 0]
    before = t.view(3)
    discard(t, 0, "E")
    pass_all(t)
    assert trail(t)[-4:] == [("draw", 1, "v"), ("bonus", 1, "v"), ("instant_payment", 1, "bite_animals"),
                             ("draw", 1, "7t")]
    assert payments(t) == [("bite_animals", 1, 1, False)]
    assert t.scores == [-1, 3, -1, -1]
    ev = next(e for e in t.events if e["type"] == "instant_payment")
    assert ev["deltas"] == [-1, 3, -1, -1] and ev["tiles"] == "uv"
    # the others see it (public) and the new score; South holds the replacement as his draw
    assert [p["score"] for p in t.view(3)["players"]] == [-1, 3, -1, -1]
    assert t.view(1)["drawn"] == "7t" and t.view(3)["players"][1]["bonus"] == "uv"
    # the view lists the hand's payments so far; a view taken earlier keeps what it said
    assert [(p["id"], p["seat"], p["deltas"]) for p in t.view(3)["instant_payments"]] == \
        [("bite_animals", 1, [-1, 3, -1, -1])]
    assert before["instant_payments"] == []
    check_invariants(t)


# ---------------------------------------------------------------------------------------
# kong payments (singapore.md "Settlement"): when the kong stands; a robbed kong pays nothing
# ---------------------------------------------------------------------------------------

def test_concealed_kong_pays_two_each(monkeypatch):
    t = table_with(monkeypatch, ["EEEE1357m13579t9s", "SW" + PLAIN, "NW" + PLAIN, "CW" + PLAIN], back="7s")
    kong = Action.of(0, "concealed_kong", T.EAST)
    assert kong in t.legal_actions(0)
    t.apply(kong)
    assert trail(t, ("kong", "instant_payment", "draw"))[-3:] == [
        ("kong", 0, "E"), ("instant_payment", 0, "kong_concealed"), ("draw", 0, "7s")]
    assert t.scores == [6, -2, -2, -2]


def test_exposed_kong_pays_one_each(monkeypatch):
    t = table_with(monkeypatch, ["7sEE" + PLAIN, "777s1357m13579t9s", "SW" + PLAIN, "NW" + PLAIN], back="7t")
    discard(t, 0, "7s")
    assert Action.of(1, "kong", T.parse_tile("7s")) in t.legal_actions(1)
    for s in t.waiting_for():
        t.apply(Action.of(s, "kong", T.parse_tile("7s")) if s == 1 else Action.of(s, "pass"))
    assert payments(t) == [("kong_exposed", 1, 1, False)]
    assert t.scores == [-1, 3, -1, -1]


# South pungs East's 8s, then draws the fourth 8s and adds it.  West waits on 5s/8s with
# 111m 456m 789t 55t 67s: no bonus tile, a pung, so 0 tai -- he may not win on a discard of 8s,
# but robbing the kong is 1 tai.
ROB_HANDS = ["8sEE" + PLAIN, "88s9mN1357m13579t", "111m456m789t55t67s", "SW" + PLAIN]


def _rob_setup(monkeypatch) -> Table:
    # next ordinary draws: West W, North S, East N, South 8s (each discards what he draws)
    t = table_with(monkeypatch, ROB_HANDS, front="W S N 8s", back="3t 4t")
    discard(t, 0, "8s")
    # South pungs; West, asked because the dealer's first discard would be his earthly hand,
    # passes
    for s in t.waiting_for():
        t.apply(Action.of(s, "pung", T.parse_tile("8s")) if s == 1 else Action.of(s, "pass"))
    assert t.current == 1 and t.melds[1][0].kind == "pung"
    discard(t, 1, "9m")
    pass_all(t)
    for seat, tile in ((2, "W"), (3, "S"), (0, "N")):
        discard(t, seat, tile)
        pass_all(t)
    assert t.current == 1 and t.last_drawn == T.parse_tile("8s")
    return t


def test_added_kong_pays_once_it_stands(monkeypatch):
    t = _rob_setup(monkeypatch)
    t.apply_decision(Action.of(1, "added_kong", T.parse_tile("8s")))
    assert t.phase == "rob" and t.waiting_for() == [2]
    assert payments(t) == []  # not yet: West may still rob it
    t.apply_decision(Action.of(2, "pass"))
    assert payments(t) == [("kong_exposed", 1, 1, False)]
    assert t.scores == [-1, 3, -1, -1] and t.phase == "turn" and t.current == 1


def test_a_robbed_kong_pays_nothing_and_the_robbed_pays_for_all(monkeypatch):
    t = _rob_setup(monkeypatch)
    eight = T.parse_tile("8s")
    # an ordinary discard of 8s would not be a win for West (0 tai); robbing the kong is (1 tai)
    assert not scoring.evaluate(SG, t.context(2, eight, False, (), 1, extra=eight)).winning
    t.apply_decision(Action.of(1, "added_kong", T.parse_tile("8s")))
    assert Action.of(2, "win", T.parse_tile("8s")) in t.legal_actions(2)
    t.apply_decision(Action.of(2, "win", T.parse_tile("8s")))
    h = t.history[-1]
    assert h["robbed"] and h["discarder"] == 1 and h["winners"][0]["seat"] == 2
    assert [(p["id"], p["count"]) for p in h["winners"][0]["patterns"]] == [("robbing_kong", 1)]
    # 1 tai, V = 1: South, robbed, pays all 4V; no kong payment at all
    assert h["instant_payments"] == [] and h["deltas"] == [0, -4, 4, 0] and t.scores == [0, -4, 4, 0]


# ---------------------------------------------------------------------------------------
# flower wins (singapore.md "Tai table")
# ---------------------------------------------------------------------------------------

SEVEN = "hijkopq"


def _eighth_setup(monkeypatch, n_hands=1) -> Table:
    # West (3) is dealt seven of the eight: bites at the deal -- all four seasons (2 each) and
    # his own Autumn + Chrysanthemum (hidden, 2 each): West +12, the others -4.  South's first
    # draw is the eighth, Bamboo (r).
    t = table_with(monkeypatch, ["EE1m" + PLAIN, "S1m" + PLAIN, SEVEN + "W1m2s4s9m9t", "N1m" + PLAIN],
                   front="r", back="3t 5t 7t 9t 3m 5m 7m 9s", n_hands=n_hands)
    assert payments(t) == [("bite_complete_group", 2, 2, False), ("bite_seat_flowers", 2, 2, True)]
    assert t.scores == [-4, -4, 12, -4]
    discard(t, 0, "E")
    pass_all(t, ("claim",))
    return t


def test_robbing_the_eighth(monkeypatch):
    t = _eighth_setup(monkeypatch, n_hands=2)
    assert t.phase == "rob" and t.waiting_for() == [2] and t.current == 1
    check_invariants(t)  # South has set the Bamboo aside and waits for his replacement
    assert t.legal_actions(2) == [Action.of(2, "win", T.parse_tile("r")), Action.of(2, "pass")]
    assert t.legal_actions(1) == []
    t.apply(Action.of(2, "win", T.parse_tile("r")))
    h = t.history[-1]
    w = h["winners"][0]
    assert w["seat"] == 2 and w["form"] == "flowers" and w["value"] == 5
    assert "robbing_the_eighth" in {p["id"] for p in w["patterns"]}
    # settled as a discard win paid for all by the drawer: 4 x V(5) = 64
    assert h["deltas"] == [0, -64, 64, 0] and h["discarder"] == 1 and h["robbed"]
    assert h["hands"][2]["bonus"] == "hijkopqr" and h["hands"][1]["bonus"] == ""
    assert t.scores == [-4, -68, 76, -4]
    assert t.dealer == 1  # a non-dealer won: the deal passes on
    check_invariants(t)


def test_the_eighth_not_robbed_stays_with_the_drawer(monkeypatch):
    t = _eighth_setup(monkeypatch)
    t.apply(Action.of(2, "pass"))
    assert t.phase == "turn" and t.current == 1 and t.bonus[1] == [T.parse_tile("r")]
    # his replacement is the Flower Pile's eighth tile (the deal took the first seven)
    assert t.last_drawn == T.parse_tile("9s") and t.tile_count(1) == 14
    check_invariants(t)


def test_all_eight_flowers_wins_at_once(monkeypatch):
    # East is dealt all eight: the four seasons (2), Spring + Plum (hidden, 2), the four flowers
    # (2): +18, the others -6; on his first turn he may win at once, paid as a self-draw:
    # 2 x V(5) = 32 each
    t = table_with(monkeypatch, ["hijkopqr" + "EESW1m9s", "S1m" + PLAIN, "W1m" + PLAIN, "N1m" + PLAIN],
                   back="2t 3t 4t 6t 7t 9t 2m 3m")
    assert t.scores == [18, -6, -6, -6]
    win = Action.of(0, "win", T.parse_tile("r"))
    assert win in t.legal_actions(0)
    t.apply(win)
    h = t.history[-1]
    assert h["winners"][0]["form"] == "flowers" and h["self_draw"]
    assert {p["id"] for p in h["winners"][0]["patterns"]} == \
        {"seat_flower", "complete_flower_group", "all_eight_flowers"}
    assert h["deltas"] == [96, -32, -32, -32] and t.scores == [114, -38, -38, -38]
    assert h["instant_deltas"] == [18, -6, -6, -6]


# ---------------------------------------------------------------------------------------
# the 15-tile reserve (singapore.md "End of a hand", G-SG-2)
# ---------------------------------------------------------------------------------------

def test_ordinary_draws_stop_when_fifteen_tiles_remain(monkeypatch):
    """Every seat discards what it draws and passes every claim: the hand runs to an
    exhaustive draw, the last ordinary draw leaves exactly 15 tiles, none is drawn below 16,
    and that last draw is the ``last_wall_tile``."""
    after_draw: list[int] = []
    original = Wall.draw_front

    def draw_front(self):
        t = original(self)
        after_draw.append(self.live_count)
        return t

    monkeypatch.setattr(Wall, "draw_front", draw_front)
    t = Table(SG, 5, hands=1, first_dealer=0)
    after_draw.clear()  # the deal
    last_seen = None
    while t.phase != "match_over":
        if t.phase == "turn":
            seat = t.current
            if t.drawn_from == "wall" and t.wall.live_count == 15:
                last_seen = t._situations_for_turn(seat)
            drawn = t.last_drawn if t.last_drawn is not None and t.hands[seat][t.last_drawn] else None
            tile = drawn if drawn is not None else next(a.tile for a in t.legal_actions(seat) if a.kind == "discard")
            t.apply(Action.of(seat, "discard", tile))
        pass_all(t)
    assert t.history[0]["result"] == "draw"
    assert min(after_draw) == 15 and after_draw[-1] == 15
    assert last_seen is not None and "last_wall_tile" in last_seen


# ---------------------------------------------------------------------------------------
# rotation, match length, replay
# ---------------------------------------------------------------------------------------

def test_dealer_rotation_and_match_length():
    """3a: the dealer keeps the deal after his own win or a drawn hand, else it passes to the
    next seat; the prevailing wind moves on each time the deal has gone round; the match ends
    when every seat has dealt in all four prevailing winds (16 passes of the deal)."""
    table = Table(SG, 2)
    play_match(table, [BaselineBot(SG, s) for s in range(4)])
    hist = table.history
    passes = 0
    for a, b in zip(hist, hist[1:] + [None]):
        winners = [w["seat"] for w in a["winners"]]
        stays = a["result"] == "draw" or a["dealer"] in winners
        nxt = table.dealer if b is None else b["dealer"]
        assert nxt == (a["dealer"] if stays else (a["dealer"] + 1) % 4), a["hand"]
        assert a["prevailing_wind"] == "ESWN"[passes // 4]
        passes += not stays
    assert passes == 16 and table.phase == "match_over"
    assert any(h["result"] == "draw" for h in hist) and len(hist) > 16
    # every score change is a hand's settlement or an instant payment
    total = [sum(h["deltas"][s] + h["instant_deltas"][s] for h in hist) for s in range(4)]
    assert total == table.scores and sum(table.scores) == 0


def test_replay_reproduces_instant_payments(tmp_path):
    table = Table(SG, 4, hands=4)
    play_match(table, [BaselineBot(SG, s) for s in range(4)])
    assert any(h["instant_payments"] for h in table.history)
    path = tmp_path / "sg.log"
    GameLog.for_table(table).save(path)
    replayed = GameLog.load(path).replay()
    assert replayed.history == table.history and replayed.snapshot() == table.snapshot()


@pytest.mark.parametrize("seed", range(3))
def test_random_play_keeps_every_tile_and_every_win_legal(seed):
    """Random legal actions over three hands: tiles conserved after every action, every win
    reported is worth at least the 1-tai minimum, every instant payment sums to zero."""
    from .helpers import play_random

    table = Table(SG, seed, hands=3)
    play_random(table, random.Random(seed), check=check_invariants)
    for h in table.history:
        for w in h["winners"]:
            assert 1 <= w["value"] <= 5
        for p in h["instant_payments"]:
            assert sum(p["deltas"]) == 0
    json.dumps(table.history)  # the summaries are plain data
