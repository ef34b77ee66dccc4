"""Called tiles (issue 21, item 4): every exposed meld shows which tile was claimed and from
whom, in every face set, without colour; a claimed discard leaves the pond.

Melds come from a real engine table (a chow and a pung claimed from East's discards) through
the frame, drawn by the face sets' own renderer and read as plain text."""

from __future__ import annotations

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.ui.faces import load_box_set, load_face_set
from mahjong_tui.ui.frame import build_frame, claimed_index, melds_of
from mahjong_tui.ui.frame import ActionBox
from mahjong_tui.ui.widgets.art import TileArt
from mahjong_tui.variant import load_variant
from tests.helpers import set_hand


def _discard(table: Table, seat: int, tile: str) -> None:
    t = T.parse_tile(tile)
    table.hands[seat][t] += 1
    drop = next(k for k in table.variant.kinds if table.hands[seat][k] and k != t)
    table.hands[seat][drop] -= 1
    table.invalidate_caches()
    table.apply(Action(seat, "discard", t))


def _answer(table: Table, seat: int, action: Action) -> None:
    table.apply(action)
    while table.phase == "claim":
        table.apply(Action(next(s for s in table.waiting_for() if s != seat), "pass"))


@pytest.fixture(scope="module")
def view():
    """Seat 1 (South) chows East's 5m as 4-5-6m; seat 3 (North) then pungs South's 9t."""
    table = Table(load_variant("classic"), 4, hands=2)
    set_hand(table, 1, "46m9t19sESWNCFPP")
    set_hand(table, 2, "19m19t19sESWNCFP")
    set_hand(table, 3, "99t1m19sESWNCFPP")
    _discard(table, 0, "5m")
    _answer(table, 1, Action(1, "chow", tiles=tuple(T.parse_tiles("456m"))))
    table.apply(Action(1, "discard", T.parse_tile("9t")))
    _answer(table, 3, Action(3, "pung", T.parse_tile("9t")))
    return table.view(0)


def test_the_view_names_each_claimed_tile_and_its_seat(view):
    chow, = view["players"][1]["melds"]
    pung, = view["players"][3]["melds"]
    assert (chow["claimed"], chow["from_seat"]) == ("5m", 0)
    assert (pung["claimed"], pung["from_seat"]) == ("9t", 1)
    (m,) = melds_of(view["players"][1], view["players"])
    assert m.claimed == 1 and m.source == "E"  # 4m [5m] 6m, from East
    (p,) = melds_of(view["players"][3], view["players"])
    assert p.source == "S"


def test_a_pungs_claimed_tile_lies_on_the_side_it_came_from():
    nines = [T.parse_tile("9t")] * 3
    assert claimed_index(nines, nines[0], owner=3, from_seat=2) == 0  # from the player before
    assert claimed_index(nines, nines[0], owner=3, from_seat=1) == 1  # from the player opposite
    assert claimed_index(nines, nines[0], owner=3, from_seat=0) == 2  # from the player after
    assert claimed_index(nines + nines[:1], nines[0], owner=3, from_seat=0) == 3  # a kong


def test_a_claimed_discard_leaves_the_pond(view):
    frame = build_frame(view, bottom=0, names=["You", "Bot 2", "Bot 3", "Bot 4"], title="t", hand_text=view["hand"],
                        show_own_hand=True, latest=None, selected=None, hand_active=False,
                        actions=ActionBox((), (), (), False))
    ponds = {p.position: p for p in frame.ponds}
    assert [t for t, _ in ponds["bottom"].tiles] == []  # East's 5m went to South's chow
    assert [t for t, _ in ponds["right"].tiles] == []  # South's 9t went to North's pung
    assert view["players"][0]["pond"] == [["5m", True]]  # the view still lists it, marked


@pytest.mark.parametrize(("name", "chow", "pung"), [
    ("compact", "4m(5m)6m←E", "9t(9t)9t←S"),
    ("cjk", "四萬(五萬)六萬←E", "９筒(９筒)９筒←S"),
    ("ascii", "4m(5m)6m<E", "9t(9t)9t<S"),
])
def test_one_line_sets_bracket_the_claimed_tile_and_name_the_seat(view, name, chow, pung):
    art = TileArt(load_face_set(name))
    for seat, want in ((1, chow), (3, pung)):
        (m,) = melds_of(view["players"][seat], view["players"])
        text = art.meld(m.tiles, m.down, m.claimed, m.source)
        assert text.plain == want
        if name == "ascii":
            assert text.plain.isascii()


@pytest.mark.parametrize(("name", "small", "top"), [("large", "compact", "╭E─╮"), ("large-ascii", "ascii", ".E--.")])
def test_boxed_sets_draw_the_claimed_tile_with_its_seat_on_top(view, name, small, top):
    art = TileArt(load_face_set(small), load_box_set(name))
    (m,) = melds_of(view["players"][1], view["players"])
    lines = [ln.plain for ln in art.box_meld(m.tiles, m.down, m.claimed, m.source)]
    w = art.large.width
    tops = [lines[0][i * (w + 1): i * (w + 1) + w] for i in range(3)]
    assert tops[1] == top and tops[0] != top and tops[2] == tops[0]  # only 5m, the middle one
    assert len(lines) == 4
