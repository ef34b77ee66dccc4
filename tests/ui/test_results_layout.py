"""80x24 layout of the results screens (pt1 item 9): a seat's row of the end-of-hand screen
that does not fit wraps under its tiles, never back to column 1; on the match-over chart seats
whose markers fall on one spot (equal scores) are named, since only one digit can show."""

from __future__ import annotations

from mahjong_tui.ui.faces import load_face_set
from mahjong_tui.ui.screens.results import MatchEndScreen, RevealedHands
from mahjong_tui.ui.widgets.art import TileArt
from mahjong_tui.ui.widgets.chart import chart_lines, same_spot
from mahjong_tui.variant import load_variant
from tests.ui.helpers import make_app, screen_text, table_screen, wait_for

NAMES = ["Bot 1", "Bot 2", "Bot 3", "You"]


def summary_with_flowers() -> dict:
    """The hand of the report (seed 11, hand 2): North holds a chow run, a kong, a wind pung
    and four bonus tiles, too wide for one 80-column row."""
    hands = [{"concealed": "123456789t11223s", "picked_up": "", "melds": [], "bonus": ""} for _ in range(3)]
    hands.append({"concealed": "4567t789m", "picked_up": "", "melds": ["(5555m)", "(WWW)"], "bonus": "ikor"})
    return {"hand": 1, "dealer": 1, "prevailing_wind": "S", "seat_winds": ["W", "E", "S", "N"],
            "result": "draw", "self_draw": False, "discarder": None, "winners": [], "hands": hands,
            "deltas": [0, 0, 0, 36], "scores": [0, 0, 0, 36]}


def test_a_row_that_wraps_goes_on_under_its_tiles():
    art = TileArt(load_face_set("compact"))
    # at 80x24 the scrolling body leaves the rows 76 columns (padding and scrollbar)
    lines = [ln.plain for ln in RevealedHands(summary_with_flowers(), NAMES, art).lines(76)]
    at = next(i for i, ln in enumerate(lines) if " N You " in ln)
    row, more = lines[at], lines[at + 1]
    assert row.index("4t") == 21 and "W  W  W" in row, lines
    assert more.strip() == "Su Wi Pl Bm", lines
    assert more.index("Su") == row.index("4t"), lines  # under the tiles, not at column 1
    assert all(len(ln) <= 76 for ln in lines)


def test_markers_on_one_spot_are_named():
    series = [[0, 10, 20, 20], [0, 0, -20, -10], [0, -15, -10, -20], [0, 10, 20, 20]]
    assert same_spot(series, 78, 10) == [((0, 3), [1, 2, 3])]
    lines = [ln.plain for ln in chart_lines(series, NAMES, 78, 10)]
    assert len(lines) == 10 and lines[-1].strip() == "on one spot: 1=4 (hands 1-3)", lines
    # scores that never meet after the start: no note, the plot keeps the whole height
    apart = [[0, 20, 20], [0, 5, -20], [0, -10, -5], [0, -20, 10]]
    assert same_spot(apart, 78, 10) == []
    assert not any("on one spot" in ln.plain for ln in chart_lines(apart, NAMES, 78, 10))


async def test_the_match_over_chart_names_tied_seats_at_80x24():
    history = []
    for n, scores in enumerate([[8, 0, -4, 8], [16, 4, -12, 16]]):
        history.append({"hand": n, "winners": [], "result": "draw", "discarder": None, "scores": scores})
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None)
        ts = table_screen(app)
        app.push_screen(MatchEndScreen(history, NAMES, ts.art, load_variant("classic")))
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "on one spot: 1=4 (hands 1-2)" in text, text
        assert "Enter: leave" in text
