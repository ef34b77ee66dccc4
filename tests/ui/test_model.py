"""The pure parts of the UI: seat positions, key assignment, waits, who pays whom, flow layout."""

from __future__ import annotations

from rich.text import Text

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.ui.choices import assign, label
from mahjong_tui.ui.faces import load_face_set
from mahjong_tui.ui.frame import ActionBox, build_frame
from mahjong_tui.ui.model import (
    hand_order,
    latest_discarder,
    position_of,
    readiness,
    seat_at,
    seat_specs,
    standings,
    transfers,
)
from mahjong_tui.ui.widgets.art import TileArt, flow
from mahjong_tui.ui.widgets.chart import chart_lines
from mahjong_tui.variant import load_variant


def test_positions_follow_turn_order():
    # you at the bottom, the next player on your right, opposite on top, previous on the left
    assert [seat_at(2, p) for p in ("bottom", "right", "top", "left")] == [2, 3, 0, 1]
    assert position_of(2, 3) == "right" and position_of(2, 1) == "left"


def test_seat_names():
    specs = seat_specs(["human", "ai", "ai:strong", "ai"])
    assert [s.name for s in specs] == ["You", "Bot 2", "Bot 3", "Bot 4"]
    assert specs[2].level == "strong"
    hot = seat_specs(["human", "ai", "human", "ai"])
    assert hot[0].name == "Player 1" and hot[2].name == "Player 3"


def test_keys_for_claims_are_single_and_unique():
    t = lambda s: T.parse_tile(s)  # noqa: E731
    legal = [
        Action(1, "pass"), Action(1, "pung", t("5t")), Action(1, "win", t("5t")),
        Action(1, "chow", None, (t("3t"), t("4t"), t("5t"))), Action(1, "chow", None, (t("4t"), t("5t"), t("6t"))),
    ]
    ch = assign(legal, "claim")
    keys = [c.key for c in ch]
    assert len(set(keys)) == len(keys) == 5
    by = {c.key: c.action.kind for c in ch}
    assert by["w"] == "win" and by["p"] == "pung" and by["x"] == "pass"
    assert by["1"] == by["2"] == "chow"  # two chows: digits, each spelled out
    assert [c.label for c in ch if c.action.kind == "chow"] == ["chow 3t 4t 5t", "chow 4t 5t 6t"]
    assert ch[0].action.kind == "win" and ch[-1].action.kind == "pass"


def test_turn_keys_skip_discards():
    legal = [Action(0, "discard", 3), Action(0, "win", 3), Action(0, "concealed_kong", 5),
             Action(0, "added_kong", 7)]
    ch = assign(legal, "turn")
    assert {c.key: c.action.kind for c in ch} == {"w": "win", "k": "concealed_kong", "a": "added_kong"}
    assert label(Action(0, "win", 3), "turn") == "win (self-drawn)"


def test_hand_order_sets_the_drawn_tile_apart():
    tiles, drawn = hand_order("1123t", "2t")
    assert [T.name(x) for x in tiles] == ["1t", "1t", "3t", "2t"] and drawn == 3
    assert hand_order("1123t", None) == ([0 + 1, 1, 2, 3], None)


def test_transfers_single_and_multiple_winners():
    assert transfers([12, -4, -4, -4]) == [(1, 0, 4), (2, 0, 4), (3, 0, 4)]
    # one discarder pays two winners
    assert sorted(transfers([-10, 6, 4, 0])) == [(0, 1, 6), (0, 2, 4)]
    assert transfers([68, 0, 8, 4]) == []  # cumulative scoring: nobody pays


def test_standings_share_ranks():
    assert standings([10, 30, 10, 0]) == [(1, 1, 30), (2, 0, 10), (2, 2, 10), (4, 3, 0)]


def test_readiness_and_waits():
    v = load_variant("classic")
    view = {"seat": 0, "hand": "123456789t11229s", "players": [{"melds": [], "pond": []} for _ in range(4)],
            "wall": {"bloom": []}}
    # 14 tiles on one's turn: the readiness after discarding the chosen tile
    r = readiness(v, view, discard=T.parse_tile("9s"))
    assert r.shanten == 0 and [T.name(w) for w in r.waits] == ["1s", "2s"]
    assert readiness(v, view, discard=T.parse_tile("5t")).shanten == 1
    view["hand"] = "123456789t1122s"
    r = readiness(v, view)
    assert r.shanten == 0 and [T.name(w) for w in r.waits] == ["1s", "2s"]
    assert r.left[T.parse_tile("1s")] == 2  # two of four 1s are in the hand


def test_latest_discarder_follows_the_ponds():
    t = Table(load_variant("yuxi"), 2)
    v0 = t.view(0)
    assert latest_discarder(None, v0, None) is None
    legal = t.legal_actions(0)
    t.apply(next(a for a in legal if a.kind == "discard"))
    v1 = t.view(0)
    assert latest_discarder(v0, v1, None) == 0


def test_flow_wraps_groups():
    items = [Text("aaaa"), Text("bbbb"), Text("cc")]
    assert [x.plain for x in flow(items, 10, 2)] == ["aaaa  bbbb", "cc"]
    assert [x.plain for x in flow(items, 6, 2, max_lines=1)] == ["aaaa…"]


def test_frame_never_holds_other_hands():
    t = Table(load_variant("classic"), 5)
    view = t.view(1)
    fr = build_frame(view, bottom=1, names=["a", "b", "c", "d"], title="x", hand_text=view["hand"],
                     show_own_hand=False, latest=None, selected=None, hand_active=False,
                     actions=ActionBox((), (), (), False))
    assert fr.hand.tiles is None and fr.hand.count == 13
    assert all(s.concealed is None for s in fr.seats)
    assert [s.position for s in fr.seats] == ["bottom", "right", "top", "left"]
    assert [s.seat for s in fr.seats] == [1, 2, 3, 0]


def test_face_down_count_when_a_row_does_not_fit():
    art = TileArt(load_face_set("compact"))
    assert art.hidden(13, 80).plain == " ".join(["▒▒"] * 13)
    assert art.hidden(13, 20).plain == "▒▒×13"
    ascii_art = TileArt(load_face_set("ascii"))
    assert ascii_art.hidden(13, 20).plain == "##x13"


def test_chart_marks_every_seat():
    lines = chart_lines([[0, 10, 20], [0, -5, -10], [0, 0, 0], [0, -5, -10]], ["a", "b", "c", "d"], 40, 10)
    text = "\n".join(x.plain for x in lines)
    for mark in "1234":
        assert mark in text
    assert "20" in text and "-10" in text


def test_status_line_tells_the_first_dealer_roll():
    from mahjong_tui.ui.model import describe_event

    ev = {"type": "hand_start", "hand": 0, "dealer": 2,
          "first_dealer_roll": [[[0, 6, 5], [1, 2, 2], [2, 5, 6], [3, 1, 1]], [[0, 3, 1], [2, 6, 2]]]}
    assert describe_event(ev, lambda s: f"seat {s + 1}") == "Hand 1: seat 3 rolled 8 after 1 re-roll and deals"
    ev = {"type": "hand_start", "hand": 0, "dealer": 1, "first_dealer_roll": [[[0, 1, 1], [1, 6, 6], [2, 2, 3], [3, 4, 4]]]}
    assert describe_event(ev, lambda s: f"seat {s + 1}") == "Hand 1: seat 2 rolled 12 and deals"
    assert describe_event({"type": "hand_start", "hand": 3, "dealer": 0}, str) == "Hand 4: 0 deals"


def test_instant_payments_in_words():
    """singapore.md "Settlement": what each instant payment was for, as the status line and the scoring screen
    say it."""
    from mahjong_tui.ui.model import describe_event, payment_words

    name = {0: "You", 1: "Bot 2"}.get
    ev = {"type": "instant_payment", "id": "bite_animals", "seat": 1, "amount": 2, "hidden": True, "tiles": "uv"}
    assert describe_event(ev, name) == "Bot 2 collects 2 from each: Cat + Rat, hidden"
    assert describe_event({**ev, "seat": 0, "amount": 1, "hidden": False}, name) == \
        "You collect 1 from each: Cat + Rat"
    # every line agrees with "You"
    assert describe_event({"type": "discard", "seat": 0, "tile": "5m"}, name) == "You discard 5m"
    assert describe_event({"type": "discard", "seat": 1, "tile": "5m"}, name) == "Bot 2 discards 5m"
    assert describe_event({"type": "claim", "seat": 0, "kind": "pung", "tile": "5m", "from": 1},
                          name) == "You pung 5m from Bot 2"
    assert describe_event({"type": "bonus", "seat": 0, "tile": "u"}, name) == \
        "You set aside Cat and draw a replacement"
    assert describe_event({"type": "hand_start", "hand": 0, "dealer": 0}, name) == "Hand 1: You deal"
    assert payment_words({"id": "bite_seat_flowers", "tiles": "ip"}) == "Summer + Orchid"
    assert payment_words({"id": "bite_complete_group", "tiles": "hijk"}) == "all four seasons"
    assert payment_words({"id": "bite_complete_group", "tiles": "opqr"}) == "all four flowers"
    assert payment_words({"id": "bite_all_animals", "tiles": "uvwy"}) == "all four animals"
    assert payment_words({"id": "kong_concealed", "tiles": "EEEE"}) == "concealed kong of E"
    assert payment_words({"id": "kong_exposed", "tiles": "5t5t5t5t"}) == "exposed kong of 5t"
