"""The end-of-hand screen marks the claimed tile of every exposed meld and the seat it came
from, drawn as the table draws it (``7m 8m(9m)←W``; TileArt.meld from the same MeldBox): in
every seat's revealed hand and in the winner's melds.  The hand summary carries, for each
meld, the discard claimed into it and its seat (``claims``).

Classic seed 4, one hand between baseline bots: South punged 9t from North and konged your E;
West chowed 2s from South and punged S from North; North wins with three chows claimed from
West."""

from __future__ import annotations

import pytest

from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.engine import Table
from mahjong_tui.sim import play_match
from mahjong_tui.ui.faces import load_face_set
from mahjong_tui.ui.screens.results import MeldLayout, RevealedHands
from mahjong_tui.ui.widgets.art import TileArt
from mahjong_tui.variant import load_variant

NAMES = ["You", "Bot 2", "Bot 3", "Bot 4"]


@pytest.fixture(scope="module")
def summary():
    variant = load_variant("classic")
    table = Table(variant, 4, hands=1)
    got: list[dict] = []
    play_match(table, [make_bot("ai:baseline", variant, i, 4) for i in range(4)], on_hand=got.append)
    return got[0]


def test_the_summary_names_each_melds_claimed_tile_and_its_seat(summary):
    assert summary["hands"][1]["melds"] == ["(999t)", "(EEEE)"]
    assert summary["hands"][1]["claims"] == [{"claimed": "9t", "from_seat": 3}, {"claimed": "E", "from_seat": 0}]
    assert summary["hands"][0]["claims"] == []


@pytest.mark.parametrize(("faces", "arrow"), [("compact", "←"), ("ascii", "<")])
def test_revealed_hands_mark_the_claimed_tile_as_the_table_does(summary, faces, arrow):
    art = TileArt(load_face_set(faces))
    lines = [ln.plain for ln in RevealedHands(summary, NAMES, art).lines(100)]
    south = next(ln for ln in lines if " S Bot 2 " in ln)
    west = next(ln for ln in lines if " W Bot 3 " in ln)
    north = next(ln for ln in lines if " N Bot 4 " in ln)
    # a pung's claimed copy on the side of the seat it came from (North: after South, the right)
    assert f"9t(9t)9t{arrow}N" in south and f"(E)E  E  E {arrow}E" in south, south
    assert f"(2s)3s 4s{arrow}S" in west and f"S  S (S){arrow}N" in west, west
    assert f"7m 8m(9m){arrow}W  4s 5s(6s){arrow}W  6m 7m(8m){arrow}W" in north, north


def test_the_winners_melds_mark_the_claimed_tile_too(summary):
    art = TileArt(load_face_set("compact"))
    (w,) = summary["winners"]
    variant = load_variant("classic")
    faces, labels = [ln.plain for ln in MeldLayout(w, summary["hands"][w["seat"]], art, variant,
                                                    summary["seat_winds"]).lines(100)]
    assert "7m 8m(9m)←W    4s 5s(6s)←W    6m 7m(8m)←W" in faces
    assert labels.count("exposed chow") == 3
