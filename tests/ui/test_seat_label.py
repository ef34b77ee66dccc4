"""A seat's label (SeatPanel): the wind spelt out ('South Bot 2') wherever the panel has room
for it without a line more, else its letter ('S Bot 2'): the narrow 80x24 table keeps its
lines, a wider one reads as a player says it."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.ui.faces import load_face_set
from mahjong_tui.ui.frame import SeatBox
from mahjong_tui.ui.widgets.areas import SeatPanel
from mahjong_tui.ui.widgets.art import TileArt


def _box(bonus: str = "", status: str = "", name: str = "Bot 2") -> SeatBox:
    return SeatBox(position="right", seat=1, name=name, wind="S", dealer=False, score="-2", active=False,
                   concealed_count=13, concealed=None, melds=(),
                   bonus=tuple(T.parse_tile(t) for t in bonus.split()), status=status)


def _lines(box: SeatBox, width: int) -> list[str]:
    panel = SeatPanel(TileArt(load_face_set("compact")), "right", max_lines=4)
    return [ln.plain.strip() for ln in panel.draw(box, width, 4)]


def test_the_wind_is_spelt_out_where_it_costs_no_line():
    box = _box("i y")  # Summer and Centipede
    # 32 columns (a side column at 120 columns, the move log beside the board): one line
    assert _lines(box, 32) == ["South Bot 2  -2  ▒▒×13  Su Ce"]
    # 30 columns: 'South' would push the bonus tiles onto a second line; the letter keeps one
    assert _lines(box, 30) == ["S Bot 2  -2  ▒▒×13  Su Ce"]
    # where a second line is needed anyway, the label has the word
    assert _lines(_box("h i j k u v w y"), 30) == ["South Bot 2  -2  ▒▒×13", "Sp Su Au Wi Ca Ra Ro Ce"]


def test_a_long_name_keeps_its_letters_before_the_wind_word():
    # a LAN name filling the line: the wind's letter, the name whole
    box = _box(name="Bartholomew-the-Great", status="away")
    assert _lines(box, 36)[0] == "S Bartholomew-the-Great [away]  -2"
    assert _lines(box, 40)[0] == "South Bartholomew-the-Great [away]  -2"
