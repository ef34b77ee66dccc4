"""The walls drawn, read from a real terminal (issue 21, item 3): ``mahjong-tui play`` runs in
tmux and the test reads the screen with ``capture-pane -e`` (characters and their colours).  The
face-down tiles drawn in the walls (block glyphs in a wall colour: one stack a cell in the top and
bottom walls, two stacks a cell in the side walls, or at double size two cells a stack; see
``mahjong_tui/ui/widgets/wall.py``) equal
the wall's remaining count, read from the words inside the ring on the same screen and from the
engine; after some turns they still do.  At 80x24 no walls are drawn: the summary in words stays.

Skipped when tmux is not installed (own tmux server, as in test_tmux_e2e).
"""

from __future__ import annotations

import re

import pytest
from rich.color import Color
from rich.text import Text

from mahjong_tui.engine import Table
from mahjong_tui.ui.widgets.wall import EMPTY_GLYPH, EMPTY_STYLE, GLYPH_QUADRANTS, REGION_STYLE
from mahjong_tui.variant import load_variant
from tests.test_tmux_e2e import ROOT, TMUX, Tmux, command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

#: the wall colours (each one of the 256-colour palette's, so a terminal that downgrades the
#: app's colours shows them unchanged)
WALL_COLOURS = {Color.parse(c).get_truecolor().hex for c in list(REGION_STYLE.values()) + [EMPTY_STYLE]}


def _colour_key(color: Color | None) -> str | None:
    if color is None or color.is_default:
        return None
    return color.get_truecolor().hex


def wall_cells(raw: str) -> dict[tuple[int, int], str]:
    """(row, column) -> glyph of every cell of the screen drawn in a wall colour."""
    cells = {}
    for r, line in enumerate(raw.splitlines()):
        text = Text.from_ansi(line)
        for span in text.spans:
            style = span.style
            colour = _colour_key(style.color) if not isinstance(style, str) else None
            if colour not in WALL_COLOURS:
                continue
            for c in range(span.start, span.end):
                ch = text.plain[c]
                if ch in GLYPH_QUADRANTS or ch == EMPTY_GLYPH:
                    cells[(r, c)] = ch
    return cells


def face_down_drawn(raw: str) -> int:
    """Face-down tiles in the walls on the screen: the first and last rows of wall cells are the
    top and bottom walls (two quadrants a tile), the outermost columns between them the side walls
    (one quadrant a tile).  Walls of double size (a row a stack down the sides: more than 12
    rows between the top and bottom walls) draw every stack in two cells: four quadrants a tile
    everywhere."""
    cells = wall_cells(raw)
    if not cells:
        return 0
    rows = sorted({r for r, _ in cells})
    top, bottom = rows[0], rows[-1]
    if bottom - top - 1 > 12:
        return sum(GLYPH_QUADRANTS.get(ch, 0) for ch in cells.values()) // 4
    left = min(c for _, c in cells)
    right = max(c for _, c in cells)
    n = 0
    for (r, c), ch in cells.items():
        q = GLYPH_QUADRANTS.get(ch, 0)
        if r in (top, bottom):
            n += q // 2
        elif c in (left, right):
            n += q
    return n


def counts_in_words(plain: str) -> int:
    """The remaining count as the words inside the ring say it: to draw + kept back + dead wall."""
    to_draw = int(re.search(r"(\d+) to draw", plain).group(1))
    kept = re.search(r"\+(\d+) kept back", plain)
    dead = re.search(r"Dead wall (\d+)", plain)
    return to_draw + (int(kept.group(1)) if kept else 0) + (int(dead.group(1)) if dead else 0)


def press(t: Tmux, key: str) -> None:
    """Press ``key`` until the screen changes (the table waits for us, so nothing else moves
    it; a key that comes while the screen is being redrawn may find no prompt yet: it is
    pressed again).  Watching for the prompt to go is not enough: with bots that do not pause
    it may be back before the screen is read."""
    for _ in range(5):
        before = t.screen()
        t.keys(key)
        try:
            t.wait(lambda ls: ls != before, timeout=3)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{key!r} changed nothing")


def capture(t: Tmux) -> str:
    return t.run("capture-pane", "-p", "-e", "-t", "e2e")


@pytest.mark.parametrize("variant,size", [("yuxi", (120, 40)), ("yuxi", (160, 50)), ("uzje", (120, 40)),
                                          ("classic", (120, 40)), ("yuxi", (80, 24))])
def test_the_walls_on_the_terminal_hold_the_wall_s_remaining_tiles(variant, size, tmp_path):
    seed = 3
    w = Table(load_variant(variant), seed).view(0)["wall"]
    argv = command() + ["--faces", "compact", "play", "--variant", variant, "--seats",
                        "human,ai:baseline,ai:baseline,ai:baseline", "--seed", str(seed), "--hands", "1",
                        "--bot-delay", "0"]
    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "MAHJONG_TUI_SAVES": str(tmp_path),
           "PYTHONPATH": str(ROOT),
           # the terminal's size, not one inherited from the test run's environment
           "COLUMNS": str(size[0]), "LINES": str(size[1])}
    t = Tmux(size[0], size[1], argv, env)
    try:
        t.wait(lambda ls: any("Your turn" in ln for ln in ls))
        raw = capture(t)
        plain = "\n".join(Text.from_ansi(ln).plain for ln in raw.splitlines())
        if size == (80, 24):
            assert face_down_drawn(raw) == 0
            assert f"Wall {w['live'] - w['reserve']} to draw" in plain
            return
        assert face_down_drawn(raw) == w["live"] + w["dead"] == counts_in_words(plain)
        checked = 0
        press(t, "d")
        while checked < 3:  # a few turns on: the walls shrink with the counts
            lines = t.wait(lambda ls: any(k in ln for ln in ls for k in ("Your turn", "x  pass", "Enter:")))
            if any("Enter:" in ln for ln in lines):
                break  # the hand is over
            if not any("Your turn" in ln for ln in lines):
                press(t, "x")  # a claim prompt: pass
                continue
            raw = capture(t)
            plain = "\n".join(Text.from_ansi(ln).plain for ln in raw.splitlines())
            assert face_down_drawn(raw) == counts_in_words(plain) < w["live"] + w["dead"]
            checked += 1
            press(t, "d")
    finally:
        t.close()
