"""A claimed meld names the tile that was claimed into it (``Meld.claimed``; the view's
``"claimed"``), so the table can show which tile of a chow came from which seat; a meld
with no claimed tile (a concealed kong) has none."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.variant import load_variant
from tests.helpers import set_hand


def _discard_5m(table: Table) -> None:
    d = table.current
    assert d == 0
    table.hands[0][T.parse_tile("5m")] += 1
    drop = next(t for t in table.variant.kinds if table.hands[0][t] and t != T.parse_tile("5m"))
    table.hands[0][drop] -= 1
    table.invalidate_caches()
    table.apply(Action(0, "discard", T.parse_tile("5m")))
    assert table.phase == "claim"


def _resolve(table: Table, seat: int, action: Action) -> None:
    table.apply(action)
    while table.phase in ("claim", "rob"):  # every other seat is in the window: they pass
        other = next(s for s in table.waiting_for() if s != seat)
        table.apply(Action(other, "pass"))


def test_a_chow_names_its_claimed_tile_in_every_view():
    table = Table(load_variant("classic"), 4, hands=2)
    set_hand(table, 1, "46m19t19sESWNCFP")
    set_hand(table, 2, "19m19t19sESWNCFP")
    set_hand(table, 3, "19m19t19sESWNCFP")
    _discard_5m(table)
    _resolve(table, 1, Action(1, "chow", tiles=tuple(T.parse_tiles("456m"))))
    for seat in range(4):
        meld = table.view(seat)["players"][1]["melds"][0]
        assert meld["tiles"] == "456m" and meld["from_seat"] == 0 and meld["claimed"] == "5m"
    assert table.melds[1][0].claimed == T.parse_tile("5m")


def test_a_pung_then_its_added_kong_keep_the_claimed_tile():
    table = Table(load_variant("classic"), 4, hands=2)
    set_hand(table, 1, "19m19t19sESWNCFP")
    set_hand(table, 2, "55m19t19sESWNCFP")
    set_hand(table, 3, "19m19t19sESWNCFP")
    _discard_5m(table)
    _resolve(table, 2, Action(2, "pung", T.parse_tile("5m")))
    assert table.view(0)["players"][2]["melds"][0]["claimed"] == "5m"
    # round the table (discards, every claim passed) to seat 2's next draw, which is made
    # the fourth 5m: the added kong still says which tile came from seat 0
    table.apply(Action(2, "discard", T.parse_tile("P")))
    while not (table.phase == "turn" and table.current == 2):
        seat = table.waiting_for()[0]
        legal = table.legal_actions(seat)
        table.apply(next((a for a in legal if a.kind in ("pass", "draw")), None)
                    or next(a for a in legal if a.kind == "discard"))
    drawn = table.last_drawn
    table.hands[2][drawn] -= 1
    table.hands[2][T.parse_tile("5m")] += 1
    table.invalidate_caches()
    add = next(a for a in table.legal_actions(2) if a.kind == "added_kong")
    _resolve(table, 2, add)
    kong = table.view(1)["players"][2]["melds"][0]
    assert kong["kong_type"] == "added" and kong["from_seat"] == 0 and kong["claimed"] == "5m"


def test_a_meld_without_a_claim_has_no_claimed_tile():
    table = Table(load_variant("classic"), 4, hands=2)
    set_hand(table, 0, "CCCC19m19t19sESWN")
    table.apply(Action(0, "concealed_kong", T.RED))
    meld = table.view(1)["players"][0]["melds"][0]
    assert "claimed" not in meld and table.melds[0][0].claimed is None
