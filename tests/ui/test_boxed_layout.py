"""Which areas draw boxed tiles (issue 21, item 2): the table decides from its size, again on
every resize, and ``--faces`` overrides it.  Pilot, the real app, the areas' own lines."""

from __future__ import annotations

import re

import pytest

from tests.ui.helpers import make_app, play, table_screen

PONDS = ("#pond-top", "#pond-left", "#pond-right", "#pond-bottom")


def boxed(ts) -> dict[str, bool]:
    return {"hand": ts.query_one("#hand").boxed, "ponds": all(ts.query_one(p).boxed for p in PONDS),
            "seats": all(ts.query_one(f"#seat-{p}").boxed for p in ("top", "left", "right"))}


async def test_the_table_boxes_what_its_size_has_room_for_and_follows_a_resize():
    app = make_app(seed=4, hands=1, faces=None)  # no --faces: the terminal decides
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=3, pass_claims=True)
        ts = table_screen(app)
        assert ts.art.large is not None and ts.art.large.name == "large" and not ts.art.forced
        assert boxed(ts) == {"hand": False, "ponds": False, "seats": False}
        assert "┌" not in "".join(ts.query_one("#hand").plain_lines())
        for size, want in (((120, 40), (True, False)), ((160, 50), (True, True)), ((80, 24), (False, False))):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            got = boxed(ts)
            assert (got["hand"], got["ponds"], got["seats"]) == (want[0], want[1], want[1]), (size, got)
            hand = ts.query_one("#hand").plain_lines()
            assert ("┌──┐" in hand[0] or "┏━━┓" in hand[0]) is want[0], (size, hand)
            assert len(hand) >= (4 if want[0] else 1)


@pytest.mark.parametrize(("faces", "size", "hand"), [("compact", (160, 50), False), ("large", (80, 24), True),
                                                     ("large-ascii", (100, 30), True)])
async def test_faces_overrides_the_choice(faces, size, hand):
    app = make_app(seed=4, hands=1, faces=faces)
    async with app.run_test(size=size) as pilot:
        await play(pilot, app, turns=1, pass_claims=True)
        ts = table_screen(app)
        assert boxed(ts)["hand"] is hand
        assert not boxed(ts)["ponds"]  # the ponds and melds only where there is more room
        lines = ts.query_one("#hand").plain_lines()
        if faces == "large-ascii":  # (five cells a tile: too wide for 80 columns, where it draws one line)
            assert lines[0].lstrip().startswith("+---+") and all(ln.isascii() for ln in lines)


@pytest.mark.parametrize(("faces", "size"), [("compact", (80, 24)), ("large", (160, 50))])
async def test_a_click_on_a_tile_chooses_it_and_a_second_click_discards_it(faces, size):
    """The hand's tiles are links (``@click`` meta) on every line of a boxed tile too."""
    app = make_app(seed=4, hands=1, faces=faces)
    async with app.run_test(size=size) as pilot:
        await play(pilot, app, turns=1, pass_claims=True)
        ts = table_screen(app)
        hand = ts.query_one("#hand")
        lines = hand.plain_lines()
        if faces == "large":
            starts = [i for i, ch in enumerate(lines[0]) if ch in "┌┏╔╭"]
            y = 2  # the suit line, inside the box
        else:
            starts = [m.start() for m in re.finditer(r"\S+", lines[0])]
            y = 0
        assert len(starts) == 14
        pad = hand.styles.padding.left
        req = ts.session.request_now
        tile = ts._order[2]
        await pilot.click("#hand", offset=(starts[2] + 1 + pad, y))
        await pilot.pause()
        assert ts.selected == 2
        await pilot.click("#hand", offset=(starts[2] + 1 + pad, y))
        await pilot.pause()
        await pilot.pause()
        assert req.future.done() and req.future.result().kind == "discard" and req.future.result().tile == tile
