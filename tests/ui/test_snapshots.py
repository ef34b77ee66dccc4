"""SVG snapshots of the real app (pytest-textual-snapshot; issue 3 acceptance 1).

The table mid-hand (melds claimed from several seats, their claimed tiles marked; bonus tiles)
at 80x24, 120x40 and 160x50 in the compact, large (boxed), CJK, ASCII and large-ASCII face
sets, the claim prompt (one line at 80x24, boxed at the larger sizes), the hot-seat privacy
screen, the end-of-hand scoring screen, the end of the match, the menu and the
"needs more room" cover.  Theme pinned on the app (helpers.make_app).  Update with
``pytest tests/ui/test_snapshots.py --snapshot-update`` after checking the new pictures.
"""

from __future__ import annotations

import pytest

from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen
from tests.ui.helpers import THEME, claim_prompt, make_app, play, wait_for


def after_turns(n: int):
    async def run(pilot):
        await play(pilot, pilot.app, turns=n, pass_claims=True)
        await pilot.pause()

    return run


SIZES = [(80, 24), (120, 40), (160, 50)]


@pytest.mark.parametrize("faces", ["compact", "large", "cjk", "ascii", "large-ascii"])
@pytest.mark.parametrize("size", SIZES)
def test_table(snap_compare, faces, size):
    """Classic seed 4, your seventh turn: West chowed 2s from South and punged S from North,
    North chowed three times from West, South punged 9t and konged your E; every seat has a
    bonus tile; the cursor on your drawn 2s marks its copies (the tile tracker).  The boxed
    sets box your hand from 120x40 (forced: at 80x24 too) and the ponds and melds at 160x50."""
    app = make_app(seed=4, hands=1, faces=faces)
    assert snap_compare(app, terminal_size=size, run_before=after_turns(6))


@pytest.mark.parametrize("size", SIZES[1:])
def test_claim_prompt_boxed(snap_compare, size):
    """The first claim prompt of Classic seed 4 (South's kong of your E is on the table) in
    the large set: boxed hand, and at 160x50 boxed ponds and melds."""
    app = make_app(seed=4, hands=1, faces="large")

    async def run(pilot):
        await play(pilot, pilot.app, until=claim_prompt, pass_claims=True)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


def test_claim_prompt(snap_compare):
    app = make_app(seed=32, hands=1)

    async def run(pilot):
        await play(pilot, pilot.app, until=claim_prompt)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


def test_claim_prompt_with_chows(snap_compare):
    # Classic Chinese seed 10: a prompt offering pick-up and pass; one of the later prompts
    # offers a pung; snapshot the first prompt that offers more than pass/pick-up
    app = make_app(seed=10, hands=1)

    def rich_prompt(a):
        if not claim_prompt(a):
            return False
        from tests.ui.helpers import my_request

        return len({x.kind for x in my_request(a).legal}) >= 3

    async def run(pilot):
        await play(pilot, pilot.app, until=rich_prompt)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


def test_privacy_screen(snap_compare):
    app = make_app(seats=("human", "ai", "human", "ai"), seed=32, hands=1)

    async def run(pilot):
        from mahjong_tui.ui.screens.dialogs import PrivacyScreen

        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PrivacyScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_scoring_screen(snap_compare, size):
    """Classic seed 32: you win self-drawn; your hand in the scorer's melds, the points and
    doublings worked out, every other player's own hand value (G-OX-6)."""
    app = make_app(seed=32, hands=1)

    async def run(pilot):
        await play(pilot, pilot.app)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HandEndScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


def _rigged(name: str):
    """(variant, hand summary) of a rigged hand end (tests/ui/test_scoring_screen.py,
    tests/ui/helpers.double_win)."""
    from tests.ui import test_scoring_screen as rigs
    from tests.ui.helpers import double_win

    if name == "yangzhou_beaten":
        return "yangzhou", rigs.yangzhou_beaten()
    if name == "uzje_double":
        return "uzje", rigs.uzje_double_win()
    return "yuxi", double_win("yuxi", ("5s123456789tEEEN", "123456789s11s46s", "111m222m333t44t55s"), "5s")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["yangzhou_beaten", "uzje_double", "yuxi_double"])
def test_scoring_screen_rigged(snap_compare, name, size):
    """Yangzhou: a win beaten by a nearer seat on the same discard, the fan sum and the
    discarder's double payment; Uzje: two winners, fan → ladder → points, each paid by the
    discarder; Yuxi: two winners, multipliers multiplied."""
    from tests.ui.helpers import show_hand_end

    variant, summary = _rigged(name)
    app = make_app(variant=variant, seed=1, hands=1)

    async def run(pilot):
        await show_hand_end(pilot.app, pilot, summary)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_scoring_screen_singapore(snap_compare, size):
    """Singapore seed 28: you win on South's discard with Cat and Rat (2 tai, V = 2^(2 − 1)
    = 2: South pays 2V, the others V) after the bite for them during the hand."""
    app = make_app(variant="singapore", seed=28, hands=1)

    async def run(pilot):
        await play(pilot, pilot.app)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HandEndScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_match_end_screen(snap_compare, size):
    app = make_app(seed=32, hands=2)

    async def run(pilot):
        for _ in range(2):
            await play(pilot, pilot.app)
            await wait_for(pilot, lambda: isinstance(pilot.app.screen, (HandEndScreen, MatchEndScreen)))
            if isinstance(pilot.app.screen, HandEndScreen):
                await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MatchEndScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run)


def test_menu(snap_compare):
    app = make_app(command=None)
    assert snap_compare(app, terminal_size=(80, 24))


def test_needs_more_room(snap_compare):
    app = make_app(seed=32, hands=1)
    assert app.theme == THEME
    assert snap_compare(app, terminal_size=(70, 20), run_before=after_turns(0))


@pytest.mark.parametrize("size", SIZES[1:])
@pytest.mark.parametrize("variant", ["yuxi", "uzje"])
def test_table_walls(snap_compare, variant, size):
    """The walls drawn (issue 21, item 3) where a variant puts more on them: Yuxi's dead wall
    with its two bloom tiles face up, Uzje's dead wall with its indicator and the live wall's
    tail; the move log beside the board (seed 3, your fourth turn)."""
    app = make_app(variant=variant, seed=3, hands=1)
    assert snap_compare(app, terminal_size=size, run_before=after_turns(3))


def test_move_log_screen(snap_compare):
    """At 80x24 the move log is behind 'l' (issue 21, item 5): Classic seed 4, your fourth turn."""
    app = make_app(seed=4, hands=1)

    async def run(pilot):
        await play(pilot, pilot.app, turns=3, pass_claims=True)
        await pilot.press("l")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run)
