"""The readiness line under the prompt at 80x24 (Textual Pilot, rigged hands): everything that
matters fits — waits of equal worth grouped (``2 pt on any``), a hand under the minimum said
briefly (``no win: 3/15 fan``), the waits that win first and a wait that cannot win with a short
reason (play-test pt4 item 1), and a line too long for the bar wrapped, never cut."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.ui.widgets.areas import ActionBar
from tests.helpers import set_hand
from tests.ui.helpers import make_app, my_request, wait_for


async def bar_after_rigging(variant: str, hand: str, discard: str, size=(80, 24)) -> list[str]:
    """Start a table, give you (East, the dealer) ``hand`` (14 tiles) on your first turn, put
    the cursor on ``discard``; the action bar's lines."""
    app = make_app(variant=variant, seed=1)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None and my_request(app).is_turn)
        ts = app.screen
        set_hand(ts.session.table, 0, hand)
        ts.redraw()
        ts.selected = ts._order.index(T.parse_tile(discard))
        ts.redraw()
        await pilot.pause()
        lines = [ln.rstrip() for ln in app.screen.query_one(ActionBar).plain_lines()]
        assert all(len(ln) <= size[0] for ln in lines)
        return lines


async def test_a_hand_under_the_minimum_says_so_briefly_at_80_columns():
    # Yangzhou (yangzhou.md "Winning hands"): 123m 234s 567t 789t + 5t waits on 5t and 8t for 3 fan, under 15
    lines = await bar_after_rigging("yangzhou", "123m234s567t789t5tN", "N")
    text = " ".join(lines)
    assert "Ready after this discard: 5t 8t (2+3 left): no win: 3/15 fan on either" in text, lines


async def test_waits_of_equal_worth_are_grouped_and_all_are_shown():
    # Uzje: 123456789m EE + 4s 8s waits on 0 (the zero), 2s, 6s, 12s and 16s, each 3.2 fan = 2 points
    lines = await bar_after_rigging("uzje", "123456789mEE48sN", "N")
    text = " ".join(lines)
    assert "Ready after this discard: 2s 6s 12s 16s Z (4+4+4+4+4 left): 3.2 fan = 2 pt on any" in text, lines


async def test_waits_of_different_worth_wrap_between_groups():
    # Uzje: 8s 10s waits on 6s and 12s (3.2 fan) and on 9s (4.6 fan: a closed run)
    lines = await bar_after_rigging("uzje", "123456789mEE8xsN", "N")
    text = " ".join(lines)
    assert "6s 12s (4+4 left): 3.2 fan = 2 pt on either" in text and "9s (4 left): 4.6 fan = 10 pt" in text, lines


async def test_the_winning_wait_comes_first_and_a_wait_that_cannot_win_says_why_briefly():
    # Classic (classic.md "Winning hands"): 6s 777s 123m 567m 999s waits on 6s (a pair of 6s: wins) and on 5s and 8s,
    # which would complete a chow: no win; play-test pt4 item 1: at 80 columns the long rule
    # text hid the 6s wait
    lines = await bar_after_rigging("classic", "6777s123567m999sN", "N")
    text = " ".join(lines)
    assert "Ready after this discard: 6s (" in text, lines
    assert "5s 8s (" in text and "left): no win (completes a chow)" in text, lines
    assert text.index("6s (") < text.index("5s 8s ("), lines
    assert "Oxenstierna" not in text and "each" not in text, lines
    # the winning wait is on the first line under the prompt, whatever is cut below it
    assert lines[1].startswith("Ready after this discard: 6s ("), lines


def test_a_group_of_winning_waits_says_its_value_is_per_wait():
    """Play-test pt4 item 8: ``100 pt each`` read as "100 from each player"."""
    from mahjong_tui.ui.model import Readiness
    from mahjong_tui.ui.screens.table import readiness_parts

    w, c = T.parse_tile("W"), T.parse_tile("C")
    r = Readiness(0, [w, c], {w: 2, c: 1}, {w: "7.6 fan = 100 pt", c: "7.6 fan = 100 pt"})
    text = "".join(p if isinstance(p, str) else T.format_tiles([p]) for p in readiness_parts(r))
    assert text == "Ready: W C (2+1 left): 7.6 fan = 100 pt on either", text
