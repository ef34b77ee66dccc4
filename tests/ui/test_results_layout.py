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


def test_the_chart_numbers_its_hands_and_labels_zero():
    """The x axis numbers the hands under their markers (0 the start); the y axis is labelled
    at its ends, at zero and in between, and a dim line runs along zero."""
    from mahjong_tui.ui.widgets.chart import SEAT_STYLES

    series = [[0, 20, 40], [0, -10, -20], [0, -5, -10], [0, -5, -10]]
    lines = chart_lines(series, NAMES, 40, 14)
    plain = [ln.plain for ln in lines]
    hands = next(p for p in plain if p.startswith("hand"))
    rows = plain[:plain.index(hands) - 1]
    # each hand's number stands under the column of the seats' markers for that hand
    marks = {c for r in rows for c, ch in enumerate(r) if ch.isdigit() and c > 4}   # past the y labels
    assert sorted(marks) == [c for c, ch in enumerate(hands) if ch.isdigit()], (rows, hands)
    assert hands.split() == ["hand", "0", "1", "2"]
    labels = [r[:4].strip() for r in rows]
    assert labels[0] == "40" and labels[-1] == "-20" and "0" in labels
    zero = rows[labels.index("0")]
    assert "╌" in zero
    # the legend names each seat by its marker, in its colour
    legend = lines[plain.index(hands) + 1]
    assert legend.plain.split() == ["1", "Bot", "1", "2", "Bot", "2", "3", "Bot", "3", "4", "You"]
    assert [str(sp.style) for sp in legend.spans if legend.plain[sp.start:sp.end] in "1234"] == list(SEAT_STYLES)


async def _match_over(size):
    history = [{"hand": n, "winners": [{"seat": n % 4}], "self_draw": n == 0, "result": "win",
                "discarder": None if n == 0 else (n + 1) % 4, "scores": scores}
               for n, scores in enumerate([[30, -10, -10, -10], [30, 40, -20, -50], [10, 40, 0, -50]])]
    app = make_app(seed=1)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None)
        app.push_screen(MatchEndScreen(history, NAMES, table_screen(app).art, load_variant("classic")))
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.pause()
        side = app.screen.query_one("#match-side").region
        chart = app.screen.query_one("#chart").region
        return side, chart, screen_text(app)


async def test_the_final_standings_stand_beside_the_chart_on_a_wide_screen():
    side, chart, text = await _match_over((120, 40))
    assert side.x >= chart.right and side.y <= chart.y, (side, chart)   # right of it, level with it
    assert chart.height >= 30
    # Bot 2 (seat 2) first: won hand 2 on Bot 3's discard, dealt in none, 40
    at = next(ln.index("Final standings") for ln in text.splitlines() if "Final standings" in ln)
    row = next(ln[at:] for ln in text.splitlines() if ln[at:].split()[:4] == ["1", "2", "Bot", "2"])
    assert row.split()[:8] == ["1", "2", "Bot", "2", "1", "0", "0", "40"], row
    side, chart, text = await _match_over((80, 24))
    assert side.bottom <= chart.y, (side, chart)   # above it on a narrow screen
    assert "Final standings" in text and "hand 0" in text


def test_the_y_axis_is_labelled_with_round_values():
    from mahjong_tui.ui.widgets.chart import y_labels

    # 0..500 on 9 rows: the ends and 250 halfway (the row nearest to it); 36 rows: every 100
    assert y_labels(0, 500, 9) == {0: "500", 8: "0", 4: "250"}
    assert sorted(y_labels(0, 500, 36).values(), key=int) == ["0", "100", "200", "300", "400", "500"]
    # -202..200: zero on its row, round values both ways, the ends as they are
    labels = y_labels(-202, 200, 45)
    assert labels[0] == "200" and labels[44] == "-202" and labels[22] == "0"
    assert {"-150", "-100", "-50", "50", "100", "150"} <= set(labels.values())


async def test_the_standings_move_beside_the_chart_when_the_terminal_widens():
    history = [{"hand": 0, "winners": [], "result": "draw", "discarder": None, "scores": [1, 2, 3, 4]}]
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None)
        app.push_screen(MatchEndScreen(history, NAMES, table_screen(app).art, load_variant("classic")))
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))

        def regions():
            return app.screen.query_one("#match-side").region, app.screen.query_one("#chart").region

        side, chart = regions()
        assert side.bottom <= chart.y
        await pilot.resize_terminal(130, 40)
        await pilot.pause()
        await pilot.pause()
        side, chart = regions()
        assert side.x >= chart.right
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        side, chart = regions()
        assert side.bottom <= chart.y
