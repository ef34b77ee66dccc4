"""No tile face has a blank row (a boxed Cat once showed an empty second line): every tile of
every variant, bonus tiles included, in every shipped face set — both inside lines of a boxed
tile, the one line of a one-line set."""

from __future__ import annotations

import pytest

from mahjong_tui.tiles import name as tile_name
from mahjong_tui.ui.faces import available_face_sets, is_box_set, load_box_set, load_face_set
from mahjong_tui.variant import available_variants, load_variant

TILES = sorted({t for v in available_variants() for t in load_variant(v).kinds + load_variant(v).bonus_kinds})
SETS = available_face_sets()


def test_the_variants_bring_bonus_and_animal_tiles():
    from mahjong_tui.tiles import parse_tile

    assert {parse_tile(x) for x in "uvwy"} <= set(TILES)  # Singapore's animals


@pytest.mark.parametrize("set_name", SETS)
def test_no_face_has_a_blank_row(set_name):
    if is_box_set(set_name):
        box = load_box_set(set_name)
        blank = [(tile_name(t), box.face_lines(t)) for t in TILES if any(not ln.strip() for ln in box.face_lines(t))]
        # the drawn tile too: its two inside rows between the side borders
        side = box.border("plain")[3]
        for t in TILES:
            for row in box.tile(t)[1:]:
                assert row.plain.strip(side).strip(), (set_name, tile_name(t), [r.plain for r in box.tile(t)])
    else:
        faces = load_face_set(set_name, max_rank=16)
        blank = [tile_name(t) for t in TILES if not faces.face(t).strip()]
    assert blank == [], f"{set_name}: blank rows for {blank}"
