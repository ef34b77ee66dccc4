"""The walls drawn in the middle of the table (issue 21, item 3): the picture of the four walls
built from the public counts (ui/walls.py) and drawn by the WallPanel in the real app.

- every face-down tile left in the wall is drawn, and nothing else: the drawn stacks hold the
  view's ``live + dead`` tiles, all through random games of every variant;
- the walls shrink from the right places: clockwise from the break for ordinary draws, from the
  tail for replacements (assets/rules/<variant>.md "Setting up"); Yuxi's bloom tiles lie face
  up on the last two stacks, Uzje's indicator on the first dead-wall stack, the dead wall is
  the tail's last tiles;
- the picture is the same whatever the hidden tiles are (it reads public counts only);
- the app draws the walls at 120x40 and keeps the summary in words at 80x24.
"""

from __future__ import annotations

import random

import pytest

from mahjong_tui.engine import Table
from mahjong_tui.ui.walls import DOWN, GONE, UP, build_walls
from mahjong_tui.ui.widgets.wall import GLYPH_QUADRANTS, WallPanel, ring_scale, ring_size
from mahjong_tui.variant import load_variant
from tests.helpers import play_random
from tests.ui.helpers import make_app, my_request, wait_for

VARIANTS = ["classic", "yuxi", "yangzhou", "singapore", "uzje"]


def walls_of(table: Table, bottom: int = 0):
    w = table.view(bottom)["wall"]
    return w, build_walls(w, bottom, table.variant.wall)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_stacks_hold_every_face_down_tile_of_the_wall_through_a_game(variant):
    v = load_variant(variant)
    table = Table(v, 5, 2)

    def check(t: Table) -> None:
        if t.phase == "match_over":
            return
        for bottom in range(4):
            w, walls = walls_of(t, bottom)
            assert walls.face_down == w["live"] + w["dead"], (bottom, w)
            up = sum(s.up for _, st in walls.sides for s in st)
            assert up == len(w["indicators"]) + (len(w["bloom"]) if v.wall["tail"] == "dead_wall" else 0)

    play_random(table, random.Random(5), check=check)


def test_yuxi_after_the_deal_front_draws_go_clockwise_from_the_break_and_blooms_lie_on_the_tail():
    table = Table(load_variant("yuxi"), 3)
    w, walls = walls_of(table, 0)
    # seed 3: South (seat 1, the right wall seen from East) breaks after 6 stacks
    assert (w["break_seat"], w["break_stack"], w["front"], w["back"]) == (1, 6, 53, 0)
    assert walls.break_at == ("right", 5)  # the right wall's stacks run top to bottom from its owner's right
    right = walls.side("right")
    # the tail: the 6 counted stacks; the two last counted carry the bloom tiles face up
    assert [(s.top, s.bottom) for s in right[4:6]] == [(UP, DOWN), (UP, DOWN)]
    assert all(s.region == "dead" for s in right[:6])
    # 53 tiles dealt clockwise from stack 7: South's other 11 stacks, then 15 1/2 of East's
    assert all(s.down == 0 for s in right[6:])
    bottom = walls.side("bottom")  # East's wall, its right-hand end at the screen's right
    assert [s.down for s in bottom] == [2, 1] + [0] * 15
    # the dead wall's 12 face-down tiles: 10 under and beside the blooms, 1 stack of West's
    top = walls.side("top")
    assert top[-1].region == "dead" and top[-1].down == 2 and top[-2].region == "live"
    assert walls.face_down == 69 + 12


def test_a_replacement_comes_from_the_tail_and_the_dead_wall_keeps_its_size():
    table = Table(load_variant("yuxi"), 3)
    w = dict(table.view(0)["wall"])
    # one kong replacement: from the dead wall's far end; a live tile moves into the dead wall
    w.update(back=1, live=w["live"] - 1)
    walls = build_walls(w, 0, table.variant.wall)
    right = walls.side("right")
    assert (right[5].top, right[5].bottom) == (UP, GONE)  # the last stack's bottom tile went
    assert walls.side("top")[-2].region == "dead"  # the dead wall moved one tile on
    assert walls.face_down == w["live"] + w["dead"]


def test_uzje_indicator_lies_on_the_first_dead_wall_stack_and_replacements_come_before_the_dead_wall():
    table = Table(load_variant("uzje"), 3)
    w, walls = walls_of(table, 0)
    assert (w["break_seat"], w["break_stack"]) == (0, 13) and len(w["indicators"]) == 1
    bottom = walls.side("bottom")  # East's own wall: stack j from the right is index 21 - j
    assert walls.break_at == ("bottom", 21 - 13)
    first_dead = bottom[21 - 13]
    assert (first_dead.top, first_dead.bottom, first_dead.region) == (UP, DOWN, "dead")
    assert [s.region for s in bottom[21 - 13:21 - 5]] == ["dead"] * 8
    assert bottom[21 - 5].region == "tail"  # the next replacement: the live wall's tail


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_picture_reads_public_counts_only(variant):
    """Two tables of different seeds whose public wall counts are the same draw the same walls."""
    a, b = Table(load_variant(variant), 1), Table(load_variant(variant), 2)
    wa, wb = a.view(0)["wall"], dict(b.view(0)["wall"])
    hidden = {k: wa[k] for k in ("live", "dead", "front", "back", "break_seat", "break_stack", "stacks",
                                 "dice", "reserve")}
    wb.update(hidden)
    wb["bloom"] = ["1m"] * len(wa["bloom"])  # other faces, same number
    wb["indicators"] = ["1m"] * len(wa["indicators"])
    assert build_walls(wa, 0, a.variant.wall) == build_walls(wb, 0, b.variant.wall)


def count_face_down(lines: list[str], width: int, height: int, scale: int = 1) -> int:
    """Face-down tiles drawn in a ring of ``width`` x ``height`` cells found in ``lines``: a top
    or bottom wall cell is one stack (two quadrants a tile), a side wall cell two stacks (one
    quadrant a tile); at ``scale`` 2 every stack is two cells (four quadrants a tile)."""
    rows = [ln for ln in lines if ln.strip()]
    top = next(i for i, ln in enumerate(rows) if "█" in ln or "▄" in ln)
    ring = rows[top:top + height]
    left = min(len(ln) - len(ln.lstrip()) for ln in ring)
    ring = [ln[left:left + width].ljust(width) for ln in ring]
    n = 0
    for r, ln in enumerate(ring):
        for c, ch in enumerate(ln):
            q = GLYPH_QUADRANTS.get(ch, 0)
            if scale == 2:
                n += q if r in (0, height - 1) or c in (0, 1, width - 2, width - 1) else 0
            elif r in (0, height - 1):
                n += q // 2
            elif c in (0, width - 1):
                n += q
    return n // 4 if scale == 2 else n


async def test_the_app_draws_every_face_down_tile_at_120x40_and_160x50_and_words_at_80x24():
    for size in ((120, 40), (160, 50), (80, 24)):
        app = make_app(variant="yuxi", seed=3, hands=1)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            await pilot.pause()
            panel = app.screen.query_one(WallPanel)
            lines = panel.plain_lines()
            w = my_request(app).view["wall"]
            if size == (80, 24):
                assert not any("█" in ln for ln in lines), lines
                assert any(f"Wall {w['live']} to draw" in ln for ln in lines), lines
                continue
            size = panel.content_size
            scale = ring_scale(panel.box.walls, size.width, size.height)
            width, height = ring_size(panel.box.walls, scale)
            assert count_face_down(lines, width, height, scale) == w["live"] + w["dead"] == 81
            assert any(f"{w['live']} to draw" in ln for ln in lines)
            assert panel.size.height >= height and panel.size.width >= width


def count_ascii_face_down(lines: list[str], width: int, height: int, scale: int = 1) -> int:
    """Face-down tiles drawn in an ASCII ring of ``width`` x ``height`` cells found in ``lines``:
    every wall cell is one stack (``#`` two tiles, ``-`` and ``*`` one); at ``scale`` 2 a stack
    is two cells."""
    from mahjong_tui.ui.widgets.wall import ASCII_GLYPHS

    rows = [ln for ln in lines if ln.strip()]
    top = next(i for i, ln in enumerate(rows) if "#" in ln or "-" in ln)
    ring = rows[top:top + height]
    left = min(len(ln) - len(ln.lstrip()) for ln in ring)
    ring = [ln[left:left + width].ljust(width) for ln in ring]
    n = 0
    for r, ln in enumerate(ring):
        for c, ch in enumerate(ln):
            if r in (0, height - 1) or c in (0, 1, width - 2, width - 1):
                n += ASCII_GLYPHS.get(ch, 0)
    return n // scale


@pytest.mark.parametrize("faces", ["ascii", "large-ascii"])
async def test_the_ascii_face_sets_draw_the_walls_in_ascii_too(faces):
    """Issue 21: the walls are drawn in every face set where there is room; in ASCII the
    stacks are ``#`` (two high) and ``-`` (one high), and they hold every face-down tile."""
    from mahjong_tui.ui.widgets.wall import ASCII_GLYPHS

    for variant, size in (("yuxi", (120, 40)), ("uzje", (160, 50)), ("classic", (80, 24))):
        app = make_app(variant=variant, seed=3, hands=1, faces=faces)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            await pilot.pause()
            panel = app.screen.query_one(WallPanel)
            lines = panel.plain_lines()
            w = my_request(app).view["wall"]
            assert all(ln.isascii() for ln in lines), lines
            if size == (80, 24):  # no room: the summary in words
                assert any(ln.startswith("Wall ") and ln.endswith(" to draw") for ln in lines), lines
                assert not any(set(ln.strip()) <= set(ASCII_GLYPHS) and ln.strip() for ln in lines), lines
                continue
            box = panel.content_size
            scale = ring_scale(panel.box.walls, box.width, box.height, ascii=True)
            assert scale, (box, lines)
            width, height = ring_size(panel.box.walls, scale, ascii=True)
            assert count_ascii_face_down(lines, width, height, scale) == w["live"] + w["dead"]
            assert any(" to draw" in ln for ln in lines)
