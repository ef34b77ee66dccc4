"""The ``?`` keys help at the table (Textual Pilot, 80x24): only the keys that can apply in the
variant being played, and a legend of the variant's bonus tiles as the table draws them, with
the player's own flowers."""

from __future__ import annotations

import pytest

from mahjong_tui.ui.screens.dialogs import KeysScreen
from tests.ui.helpers import make_app, play, screen_text, wait_for


async def keys_text(variant: str, seed: int = 1) -> str:
    app = make_app(variant=variant, seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app, turns=0)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "Esc, Enter or ? closes" in text  # the whole box fits 80x24
        return text


@pytest.mark.parametrize("variant, shown, hidden", [
    # Classic claims no chow, but its take prompt offers one to the next player (pt4 item 4)
    ("classic", ["take the discard into hand", "auto-draw", "take the discard into hand (5t*: counts as open in a pung)",
                 "p  k  c", "pung, kong; c: chow as next player (digits when several)"],
     ["bloom tile", "pung, kong, chow the discard"]),
    ("yuxi", ["bloom tile"], ["take the discard into hand", "auto-draw", "chow the discard", "5t*"]),
    ("yangzhou", ["pung, kong the discard"], ["take the discard into hand", "bloom tile", "chow"]),
    ("singapore", ["pung, kong, chow the discard"], ["take the discard into hand", "bloom tile", "auto-draw"]),
    ("uzje", ["make it an arith, gem or power"], ["take the discard into hand", "bloom tile", "chow"]),
])
async def test_only_the_keys_of_the_variant_are_listed(variant, shown, hidden):
    text = keys_text_cache[variant] if variant in keys_text_cache else await keys_text(variant)
    keys_text_cache[variant] = text
    for words in shown:
        assert words in text, (words, text)
    for words in hidden:
        assert words not in text, (words, text)


keys_text_cache: dict[str, str] = {}


async def test_singapore_bonus_tiles_have_a_legend_with_your_own_flowers():
    text = await keys_text("singapore")
    assert "Sp Su Au Wi  seasons 1-4: Spring Summer Autumn Winter" in text
    assert "Pl Or Ch Bm  flowers 1-4: Plum Orchid Chrysanthemum Bamboo" in text
    assert "Ca Ra Ro Ce  animals: Cat Rat Rooster Centipede" in text
    # seed 1: you sit East, number 1: Spring and Plum are yours
    assert "Sp Pl        yours: number 1, as your seat (East)" in text


async def test_a_variant_without_bonus_tiles_has_no_legend():
    text = await keys_text("yangzhou")
    assert "seasons" not in text and "yours" not in text
