"""What the table tells a ready player his waits are worth (from his own view only)."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.engine import Table
from mahjong_tui.ui.model import readiness
from mahjong_tui.variant import load_variant

from ..helpers import set_hand


def _ready(vid, hand):
    t = Table(load_variant(vid), 1, hands=1)
    set_hand(t, 1, hand)
    return readiness(t.variant, t.view(1))


def test_yangzhou_shows_fan_and_the_minimum():
    # 123456789s EE 46s waiting on 5s: mixed_suit 15 + pure_straight 15 + ... = 43 fan (scorer)
    r = _ready("yangzhou", "123456789sEE46s")
    assert r.waits == [T.parse_tile("5s")] and r.worth[T.parse_tile("5s")].endswith("fan")
    # 7 fan is under the 15-fan minimum (yangzhou.md "Winning hands"): the player is told it is no win, briefly
    r = _ready("yangzhou", "123m456t789s11s46s")
    assert r.worth[T.parse_tile("5s")] == "no win: 7/15 fan"


def test_yuxi_basic_win_is_self_draw_only():
    r = _ready("yuxi", "123m456t789s11s46s")
    assert r.worth[T.parse_tile("5s")] == "self-draw only: 1 multiplier"
