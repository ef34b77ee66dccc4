"""Tiles and the hand-string notation (common.md "Tile notation", CLI.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_tui import tiles as T
from mahjong_tui.errors import NotationError


def test_codes_and_names():
    assert T.parse_tile("5t") == T.tile("t", 5)
    assert T.name(T.tile("m", 9)) == "9m"
    assert T.name(T.tile("s", 16)) == "fs" and T.name(T.tile("s", 10)) == "xs"
    assert [T.name(t) for t in (T.EAST, T.RED, T.WHITE, T.ZERO)] == ["E", "C", "P", "Z"]
    assert T.bonus_number(T.parse_tile("h")) == 1 and T.bonus_number(T.parse_tile("r")) == 4
    assert T.is_animal(T.parse_tile("y")) and T.is_bonus(T.parse_tile("u"))


def test_runs_share_the_suit_letter():
    assert T.parse_tiles("123m9xas") == [T.tile("m", 1), T.tile("m", 2), T.tile("m", 3),
                                         T.tile("s", 9), T.tile("s", 10), T.tile("s", 11)]
    assert T.format_tiles(T.parse_tiles("E1m2m3mC")) == "123mEC"


def test_parse_hand_example():
    h = T.parse_hand("4556t123m (777s) [CCCC] +5t |ho")
    assert T.format_tiles(h.concealed) == "4556t123m"
    assert [m.concealed for m in h.melds] == [False, True]
    assert h.winning == T.parse_tile("5t") and T.format_tiles(h.bonus) == "ho"
    # CLI.md: "14 tiles in play" counts the kong's four physical tiles; for hand
    # shape a kong counts 3, so 7 + 3 + 3 = 13
    assert len(h.all_tiles()) == 14 and h.tile_count() == 13
    assert T.format_hand(h) == "4556t123m (777s) [CCCC] +5t |ho"


@pytest.mark.parametrize("text,pos,expected", [
    ("123", 3, "suit letter"),
    ("12q3m", 2, "suit letter"),
    ("123m ?", 5, "ranks 0-9"),
    ("(123m", 5, "')'"),
    ("123m)", 4, "( or ["),
    ("h123m", 0, "after '|'"),
    ("123m |5m", 6, "bonus tiles"),
    ("123m +", 6, "one tile"),
    ("[CCC]", 0, "four identical"),
    ("", 0, "tiles"),
])
def test_errors_point_at_the_bad_character(text, pos, expected):
    with pytest.raises(NotationError) as exc:
        T.parse_hand(text)
    assert exc.value.position == pos
    assert expected in exc.value.expected or expected in str(exc.value)


ALL_PLAY = [t for t in range(T.NUM_KINDS) if not T.is_bonus(t)]


@given(st.lists(st.sampled_from(ALL_PLAY), min_size=1, max_size=20),
       st.lists(st.sampled_from(list(range(T.SEASONS[0], T.NUM_KINDS))), max_size=4))
def test_format_parse_roundtrip(tiles, bonus):
    h = T.HandSpec(tuple(sorted(tiles)), (), tuple(sorted(bonus)), tiles[0])
    assert T.parse_hand(T.format_hand(h)) == h
