"""The tile tracker (issue 21, item 5): on one's own turn the tile under the cursor is marked
wherever a copy of it lies face up on the table — the ponds, every seat's melds and bonus
tiles — and the prompt says how many copies are still unseen.

Driven through the real app with the keys; the marks are read from what the areas really
paint (reverse video in their rendered strips), the counts from the seat's own view."""

from __future__ import annotations

import re

import pytest
from textual.geometry import Region

from mahjong_tui import tiles as T
from mahjong_tui.ui.model import parse
from tests.ui.helpers import make_app, play, table_screen

AREAS = ("pond-top", "pond-left", "pond-right", "pond-bottom", "seat-top", "seat-left", "seat-right",
         "seat-bottom")


def marked(widget, text: str) -> int:
    """Segments painted in reverse video whose text is ``text`` (a tile's face)."""
    w, h = widget.size
    n = 0
    for strip in widget.render_lines(Region(0, 0, w, h)):
        for seg in strip:
            if seg.style is not None and seg.style.reverse and seg.text.strip() == text.strip():
                n += 1
    return n


def face_up_copies(view: dict, tile: int) -> tuple[int, int]:
    """(copies face up on the table outside one's hand, copies in one's concealed hand)."""
    out = 0
    for p in view["players"]:
        out += sum(1 for t, claimed in p["pond"] if not claimed and T.parse_tile(t) == tile)
        for m in p["melds"]:
            tiles = list(parse(m["tiles"]))
            if m.get("kong_type") == "concealed":
                tiles = tiles[1:-1]  # two of a concealed kong's four lie face down
            out += tiles.count(tile)
        out += list(parse(p["bonus"])).count(tile)
    return out, list(parse(view["hand"])).count(tile)


@pytest.mark.parametrize(("faces", "size"), [("compact", (80, 24)), ("large", (160, 50))])
async def test_the_cursor_marks_every_visible_copy_and_counts_the_unseen(faces, size):
    # Classic seed 4: by your seventh turn four melds are exposed (claimed from several seats)
    # and every seat has set bonus tiles aside
    app = make_app(seed=4, hands=1, faces=faces)
    async with app.run_test(size=size) as pilot:
        await play(pilot, app, turns=6, pass_claims=True)
        ts = table_screen(app)
        view = ts.session.view()
        art = ts.art
        boxed = faces == "large"
        assert ts.query_one("#pond-top").boxed is boxed  # 160x50: the ponds and melds are boxed
        n = len(ts._order)
        await pilot.press("home")
        seen_elsewhere = 0
        for i in range(n):
            await pilot.pause()
            tile = ts._order[i]
            assert ts.selected == i and ts.tracked(ts.session.request_now) == tile
            elsewhere, in_hand = face_up_copies(view, tile)
            face = art.large.face_lines(tile)[0] if boxed else art.faces.face(tile)
            painted = sum(marked(ts.query_one(f"#{a}"), face) for a in AREAS)
            assert painted == elsewhere, (T.name(tile), painted, elsewhere)
            seen_elsewhere += elsewhere
            bar = " ".join(ts.query_one("#actions").plain_lines())
            left = re.search(r"\((\d+) unseen\)", bar)
            assert left is not None, bar
            assert int(left.group(1)) == ts.session.variant.copies_of(tile) - elsewhere - in_hand, (T.name(tile), bar)
            await pilot.press("right")
        assert seen_elsewhere >= 3  # the hand has tiles whose copies lie on the table
        # off one's turn nothing is tracked
        assert ts.tracked(None) is None


@pytest.mark.parametrize(("faces", "size"), [("compact", (80, 24)), ("large", (160, 50)), ("ascii", (120, 40))])
async def test_uzje_indicator_lying_on_the_wall_is_marked_and_counted_seen(faces, size):
    # Uzje seed 19: the indicator turned up on the dead wall is 4s and you hold a 4s on your
    # first turn (4 copies: the indicator and yours seen, so 2 unseen unless discarded since)
    app = make_app(variant="uzje", seed=19, hands=1, faces=faces)
    async with app.run_test(size=size) as pilot:
        await play(pilot, app, turns=0)
        ts = table_screen(app)
        view = ts.session.view()
        four = T.parse_tile("4s")
        assert [T.parse_tile(t) for t in view["wall"]["indicators"]] == [four]
        wall = ts.query_one("#wall")
        face = ts.art.faces.face(four)
        await pilot.press("home")
        for i in range(len(ts._order)):
            await pilot.pause()
            tile = ts._order[i]
            assert marked(wall, face) == (1 if tile == four else 0), (T.name(tile), wall.plain_lines())
            if tile == four:
                elsewhere, in_hand = face_up_copies(view, four)
                bar = " ".join(ts.query_one("#actions").plain_lines())
                left = re.search(r"\((\d+) unseen\)", bar)
                assert left is not None and int(left.group(1)) == 4 - 1 - elsewhere - in_hand, bar
            await pilot.press("right")
