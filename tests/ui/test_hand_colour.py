"""The own hand is drawn in its face set's colours, like every other tile on the table.

Textual gives every segment that carries ``@click`` meta (a hand tile is clickable) its link
colour, whatever colour it had; the areas turn that off (``Area.auto_links``).  These tests
read the colours the widget really paints (its rendered strips), not the face set's styles."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from mahjong_tui import tiles as T
from tests.ui.helpers import make_app, play, table_screen


def painted(widget) -> dict[str, set]:
    """Text of each segment the widget paints -> the set of foreground colours it has."""
    out: dict[str, set] = {}
    w, h = widget.size
    for strip in widget.render_lines(Region(0, 0, w, h)):
        for seg in strip:
            text = seg.text.strip()
            if text and seg.style is not None:
                out.setdefault(text, set()).add(seg.style.color)
    return out


@pytest.mark.parametrize("faces", ["compact", "cjk"])
async def test_the_own_hand_has_a_colour_per_suit(faces):
    app = make_app(seed=32, hands=1, faces=faces)
    async with app.run_test(size=(120, 40)) as pilot:
        await play(pilot, app, turns=1)
        ts = table_screen(app)
        hand = ts.query_one("#hand")
        colours = painted(hand)
        art = ts.art
        by_suit: dict[str, set] = {}
        for t in set(ts.frame.hand.tiles):
            if T.is_suited(t):
                face = art.faces.face(t).strip()
                assert face in colours, (face, sorted(colours))
                by_suit.setdefault(T.SUIT_LETTERS[T.suit_of(t)], set()).update(colours[face])
        assert len(by_suit) >= 2, by_suit
        suit_colours = [c for cs in by_suit.values() for c in cs]
        # one colour per suit, and no two suits painted alike (the link colour made them all grey)
        assert all(len(cs) == 1 for cs in by_suit.values()), by_suit
        assert len(set(suit_colours)) == len(by_suit), by_suit
        assert None not in suit_colours
