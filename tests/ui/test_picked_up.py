"""Classic's pick-up (``t``, classic.md "How a hand goes" / G-OX-2): a discard taken into the hand is marked in the
player's own hand (``5t*``) and on the end-of-hand screen, since a pung or kong made with it
scores as open (Textual Pilot, the real app)."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.ui.model import picked_indices
from mahjong_tui.ui.screens.results import HandEndScreen
from mahjong_tui.ui.widgets.areas import HandArea
from tests.ui.helpers import make_app, my_request, next_decision, press_action, table_screen, wait_for


def hand_line(app) -> str:
    return " ".join(table_screen(app).query_one(HandArea).plain_lines())


async def take_a_discard(pilot, app):
    """Play East (baseline choices) until it may take a discard; take it with ``t``.
    Returns the tile taken and the turn request that follows."""
    from tests.ui.helpers import bot_policy

    while True:
        req = await next_decision(pilot, app)
        assert req is not None, "the hand ended before a pick-up was offered"
        pickup = next((a for a in req.legal if a.kind == "pickup"), None)
        if pickup is not None:
            await pilot.press("t")
            await wait_for(pilot, lambda: my_request(app) is not None and my_request(app).is_turn)
            return pickup.tile, my_request(app)
        action = bot_policy(table_screen(app).session.variant, req.seat)(req)
        await press_action(pilot, app, action)
        await wait_for(pilot, lambda: my_request(app) is not req)


async def test_a_picked_up_discard_is_marked_in_the_hand_and_at_the_end():
    app = make_app(seed=10)
    async with app.run_test(size=(120, 40)) as pilot:
        tile, req = await take_a_discard(pilot, app)
        name = T.name(tile)
        assert req.view["picked_up"] == name
        face = table_screen(app).art.faces.face(tile).rstrip()  # 'S', '5t'
        line = hand_line(app)
        # the mark right after its tile ('S*': it takes a one-letter face's pad cell)
        assert line.count("*") == 1 and f"{face}*" in line, line
        # only one copy of that tile is marked; every copy is shown
        assert line.count(face) == T.parse_tiles(req.view["hand"]).count(tile), line
        # play on (pass every claim) to the end of the hand: the reveal marks it as well
        from tests.ui.helpers import play
        await play(pilot, app, pass_claims=True)
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        hand = app.screen.summary["hands"][0]
        from tests.ui.helpers import screen_text
        text = screen_text(app)
        assert hand["picked_up"] == name  # seed 10: East still holds it
        mine = next(ln for ln in text.splitlines() if " E You " in ln)
        assert f"{face}*" in mine and mine.count("*") == 1, text
        # every seat's picked-up tiles are marked in the reveal (seed 10: Bot 2 won a seven
        # pairs with three of them)
        bot2 = next(ln for ln in text.splitlines() if " S Bot 2 " in ln)
        assert bot2.count("*") == len(T.parse_tiles(app.screen.summary["hands"][1]["picked_up"])) == 3, text


def test_each_picked_up_tile_marks_one_copy_never_the_drawn_one():
    tiles = [T.parse_tile(x) for x in ("5t", "5t", "6t", "5t")]
    assert picked_indices(tiles, "5t", drawn=3) == {1}
    assert picked_indices(tiles, "55t", drawn=3) == {0, 1}
    assert picked_indices(tiles, "", drawn=3) == frozenset()


def test_the_mark_sits_next_to_its_tile_even_on_a_one_letter_face():
    # the compact faces pad an honour to two cells ("N "): the mark takes the pad ("N*"), so it
    # is not read as belonging to the next tile (it showed "N  N * F" on the end screen)
    from mahjong_tui.ui.faces import load_face_set
    from mahjong_tui.ui.widgets.art import TileArt

    art = TileArt(load_face_set("compact"))
    assert art.with_picked_mark(art.tile(T.parse_tile("N"))).plain == "N*"
    assert art.with_picked_mark(art.tile(T.parse_tile("5t"))).plain == "5t*"
