"""The middle of the table: the four walls drawn as stacks round a compass of the seat winds, or,
where the area is too small for them (80x24), a compact summary in words.

The drawn walls (:class:`~mahjong_tui.ui.walls.Walls`): one terminal cell per stack in the top
and bottom walls, its upper half the top tile and its lower half the bottom tile, so a stack two
high is ``█`` and one high ``▄`` (the height cue); the side walls hold two stacks a cell (upper
and lower half), each stack's bottom tile in the outer quarter and its top tile in the inner
one (``▀`` two high, ``▘`` one high, on the left wall).  The filled parts of a cell are exactly
its face-down tiles; a face-up tile lying on the wall (a bloom tile, an indicator) colours the
cell's background instead, and a faint ``·`` is left where stacks have been drawn.  Colours tell the live wall, the dead wall and the stack the next
replacement comes from (loose tiles, the live wall's tail) apart, and the lines in the middle
say the same in words, each after a ``■`` of its colour.  Where the middle of the table is tall
enough for a row a stack down the sides (and wide enough to leave the side ponds room), the walls
are drawn at double size: two cells a stack across, a row a stack (two cells wide) down the
sides, ``██`` two high and ``▄▄`` one high everywhere.  An arrow inside the ring points at the
break (the last stack counted from the right).  The compass lights the seats the table waits
for.

With an ASCII-only face set (``--faces ascii``, ``large-ascii``) the walls are drawn in ASCII
(:data:`ASCII_GLYPHS`): ``#`` a stack two high, ``-`` one high, ``*`` a face-up tile lying on a
face-down one, ``o`` a face-up tile alone, ``.`` where stacks have been drawn; a cell a stack
across, and down the sides two stacks a row side by side (the first outside) or, at double size,
two cells a stack and a row a stack as in the other face sets.  The break arrow is ``^ v < >``.
"""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..frame import WallBox
from ..walls import DOWN, Stack, Walls
from .art import align, flow
from .areas import Area, matches

#: the colour of each part of the wall (face-down tiles) and of face-up tiles lying on it
REGION_STYLE = {"live": "#5faf5f", "dead": "#8787d7", "tail": "#d7af5f"}
FACE_UP_BG = "#d7d75f"
#: where a stack has been drawn: a faint dot keeps the square of the walls in sight
EMPTY_GLYPH, EMPTY_STYLE = "·", "#626262"
#: the legend's colour key inside the ring (not a wall glyph, so never read as tiles)
KEY_GLYPH = "■"
#: the words for the stack the next replacement comes from, by the variant's ``wall.tail``
TAIL_WORDS = {"loose_tiles": "loose tiles", "live_wall": "replacements"}

#: quadrant glyphs by (upper-left, upper-right, lower-left, lower-right) filled
QUADRANTS = {
    (0, 0, 0, 0): " ", (1, 0, 0, 0): "▘", (0, 1, 0, 0): "▝", (0, 0, 1, 0): "▖", (0, 0, 0, 1): "▗",
    (1, 1, 0, 0): "▀", (0, 0, 1, 1): "▄", (1, 0, 1, 0): "▌", (0, 1, 0, 1): "▐", (1, 0, 0, 1): "▚",
    (0, 1, 1, 0): "▞", (1, 1, 1, 0): "▛", (1, 1, 0, 1): "▜", (1, 0, 1, 1): "▙", (0, 1, 1, 1): "▟",
    (1, 1, 1, 1): "█",
}
#: quadrants filled -> face-down tiles, for readers of the screen (tests): a top or bottom wall
#: cell holds one stack (two quadrants a tile), a side wall cell two (one quadrant a tile)
GLYPH_QUADRANTS = {ch: sum(k) for k, ch in QUADRANTS.items()}
#: the break arrow inside the ring, pointing at the wall
BREAK_ARROW = {"top": "▲", "bottom": "▼", "left": "◀", "right": "▶"}
#: ASCII walls: glyph -> the face-down tiles of the stack it draws (a cell a stack)
ASCII_GLYPHS = {"#": 2, "-": 1, "*": 1, "o": 0}
ASCII_EMPTY, ASCII_KEY = ".", "#"
ASCII_ARROW = {"top": "^", "bottom": "v", "left": "<", "right": ">"}


def ring_size(walls: Walls, scale: int = 1, ascii: bool = False) -> tuple[int, int]:
    """(width, height) in cells of the drawn walls: ``scale`` 1 (a cell a stack across, two
    stacks a cell down the sides; ``ascii``: two stacks a row side by side, two cells wide) or
    2 (two cells a stack across, a row a stack down the sides, two cells wide)."""
    n_h = max(len(walls.side("top")), len(walls.side("bottom")))
    n_v = max(len(walls.side("left")), len(walls.side("right")))
    if scale == 2:
        return 2 * n_h + 4, n_v + 2
    return n_h + (4 if ascii else 2), (n_v + 1) // 2 + 2


def ring_scale(walls: Walls, width: int, height: int, ascii: bool = False) -> int:
    """The larger scale whose walls fit in ``width`` x ``height`` (2, 1), or 0: none does."""
    for scale in (2, 1):
        w, h = ring_size(walls, scale, ascii)
        if w <= width and h <= height:
            return scale
    return 0


def _cell(glyph: str, stacks: list[Stack]) -> tuple[str, Style]:
    if glyph == " " and not any(s.up for s in stacks):
        return EMPTY_GLYPH, _style(EMPTY_STYLE, None)
    return glyph, _cell_style(stacks)


@lru_cache(maxsize=None)
def _style(color: str, bgcolor: str | None) -> Style:
    return Style(color=color, bgcolor=bgcolor)


def _cell_style(stacks: list[Stack]) -> Style:
    regions = [s.region for s in stacks if s.down]
    region = next((r for r in ("dead", "tail") if r in regions), "live")
    up = any(s.up for s in stacks)
    return _style(REGION_STYLE[region], FACE_UP_BG if up else None)


@lru_cache(maxsize=256)
def horizontal_cell(s: Stack) -> tuple[str, Style]:
    """A top or bottom wall stack: upper half its top tile, lower half its bottom tile."""
    t, b = s.top == DOWN, s.bottom == DOWN
    return _cell(QUADRANTS[(t, t, b, b)], [s])


@lru_cache(maxsize=512)
def _runs(cells: tuple) -> Text:
    """A line of (glyph, style) cells, a span a run of one style (remembered: a wall's row is
    the same until a tile is drawn from it; the caller must not change the line)."""
    t = Text(no_wrap=True, overflow="crop", end="")
    run, style = [], None
    for ch, st in cells:
        if run and st != style:
            t.append("".join(run), style)
            run = []
        run.append(ch)
        style = st
    if run:
        t.append("".join(run), style)
    return t


@lru_cache(maxsize=256)
def ascii_cell(s: Stack) -> tuple[str, Style]:
    """A stack in ASCII (:data:`ASCII_GLYPHS`), in its region's colour."""
    down = (s.top == DOWN) + (s.bottom == DOWN)
    if not down and not s.up:
        return ASCII_EMPTY, _style(EMPTY_STYLE, None)
    glyph = ("*" if down else "o") if s.up else ("#" if down == 2 else "-")
    return glyph, _cell_style([s])


@lru_cache(maxsize=1024)
def vertical_cell(upper: Stack | None, lower: Stack | None, outer_left: bool) -> tuple[str, Style]:
    """Two stacks of a side wall in one cell: each a half, its bottom tile in the outer
    quarter, its top tile in the inner one."""
    def halves(s: Stack | None) -> tuple[bool, bool]:
        if s is None:
            return False, False
        outer, inner = s.bottom == DOWN, s.top == DOWN
        return (outer, inner) if outer_left else (inner, outer)

    ul, ur = halves(upper)
    ll, lr = halves(lower)
    return _cell(QUADRANTS[(ul, ur, ll, lr)], [s for s in (upper, lower) if s is not None])


class WallPanel(Area):
    """The middle of the table: the walls drawn round a compass of the seat winds (whose turn
    lit), the counts in words inside; a compact summary where there is no room."""

    def show(self, box) -> None:
        """As :meth:`Area.show`; the width follows the walls' size (a new variant, or the walls
        turned as the deal moves on: Singapore's are 19 and 18 stacks), so a new size lays
        the table out again."""
        old = self.box
        if box == old:
            return
        size = ring_size(box.walls, 1, self.ascii) if box is not None and box.walls is not None else None
        if old is not None and size == (ring_size(old.walls, 1, self.ascii) if old.walls is not None else None):
            super().show(box)  # the same size: a repaint
            return
        self.box = box
        self.refresh(layout=True)

    def get_content_width(self, container, viewport) -> int:
        """The walls' width at the larger scale that fits the middle's height (the double
        size only where the middle is three times as wide, leaving room for the side
        ponds), else the summary's."""
        box = self.box
        if box is not None and box.walls is not None:
            ascii = self.ascii
            scale = ring_scale(box.walls, container.width // 3, container.height, ascii)
            scale = scale or ring_scale(box.walls, container.width, container.height, ascii)
            if scale:
                return ring_size(box.walls, scale, ascii)[0]
        return 16

    @property
    def ascii(self) -> bool:
        """The walls drawn in ASCII (an ASCII-only face set)."""
        return self.art.faces.ascii_only

    def compass(self, box: WallBox) -> list[Text]:
        winds = dict(box.winds)

        def w(pos: str) -> Text:
            return Text(f" {winds[pos]} ", style="bold reverse" if pos in box.active else "dim",
                        no_wrap=True, end="")

        top = Text(no_wrap=True, end="")
        top.append_text(w("top"))
        mid = Text(no_wrap=True, end="")
        mid.append_text(w("left"))
        mid.append("   ")
        mid.append_text(w("right"))
        bot = Text(no_wrap=True, end="")
        bot.append_text(w("bottom"))
        return [top, mid, bot]

    def key(self, region: str | None, label: Text | str) -> Text:
        """A line of the middle: a block of ``region``'s colour (the legend), then ``label``."""
        t = Text(no_wrap=True, end="")
        if region is not None:
            t.append(f"{ASCII_KEY if self.ascii else KEY_GLYPH} ", REGION_STYLE[region])
        t.append_text(label if isinstance(label, Text) else Text(label))
        return t

    def tiles_line(self, word: str, tiles: tuple[int, ...], width: int, track: int | None = None) -> list[Text]:
        """``Bloom 1s 5t``: the word on the face-up colour, then the faces (wrapped); copies of
        ``track`` (the tile tracker) marked."""
        items = [Text(word, style=Style(color="black", bgcolor=FACE_UP_BG), end="")]
        items += [self.art.tile(t, match=t == track) for t in tiles]
        return flow(items, width, 1, justify="center")

    def draw(self, box: WallBox, width: int, height: int) -> list[Text]:
        scale = ring_scale(box.walls, width, height, self.ascii) if box.walls is not None else 0
        if scale:
            return self.draw_walls(box, width, height, scale)
        return self.draw_summary(box, width, height)

    # -- the walls drawn ------------------------------------------------------------------------
    def ring(self, walls: Walls, scale: int) -> tuple[list[Text], list[Text], list[Text]]:
        """The rows of the drawn walls: each whole, and each row's left and right wall parts
        (the rows the middle's lines go between); remembered for the last walls (a turn that
        draws nothing, the compass lit for another seat, draws them again the same)."""
        last = getattr(self, "_ring", None)
        if last is not None and last[1] == scale and (last[0] is walls or last[0] == walls):
            self._ring = (walls, scale, last[2], last[3])
            return last[2]
        W, H = ring_size(walls, scale, self.ascii)
        side = 2 if self.ascii else scale
        grid = self.grid(walls, scale)
        rows = ([_runs(tuple(row)) for row in grid], [_runs(tuple(row[:side + 1])) for row in grid],
                [_runs(tuple(row[W - side - 1:])) for row in grid])
        self._ring = (walls, scale, rows, {})  # (and the whole rows centred: (row, width) -> line)
        return rows

    def grid(self, walls: Walls, scale: int) -> list[list[tuple[str, Style | str]]]:
        """The cells of the drawn walls (and the break arrow), the middle blank."""
        ascii = self.ascii
        W, H = ring_size(walls, scale, ascii)
        R = H - 2
        side = 2 if ascii else scale  # the side walls' width in cells
        grid: list[list[tuple[str, Style | str]]] = [[(" ", "")] * W for _ in range(H)]
        across_cell = ascii_cell if ascii else horizontal_cell

        def across(pos: str) -> int:  # the first column of the top or bottom wall
            return side + (W - 2 * side - scale * len(walls.side(pos))) // 2

        for row, pos in ((0, "top"), (H - 1, "bottom")):
            off = across(pos)
            for i, s in enumerate(walls.side(pos)):
                for k in range(scale):
                    grid[row][off + scale * i + k] = across_cell(s)
        for col, pos in ((0, "left"), (W - side, "right")):
            stacks = list(walls.side(pos))
            for r in range(R):
                if scale == 2:  # a row a stack, drawn as across
                    if r < len(stacks):
                        grid[1 + r][col] = grid[1 + r][col + 1] = across_cell(stacks[r])
                    continue
                if ascii:  # two stacks a row side by side, the first outside
                    for k, s in enumerate(stacks[2 * r:2 * r + 2]):
                        grid[1 + r][col + (k if pos == "left" else 1 - k)] = ascii_cell(s)
                    continue
                pair = stacks[2 * r:2 * r + 2] + [None, None]
                if pair[0] is not None:
                    grid[1 + r][col] = vertical_cell(pair[0], pair[1], outer_left=(pos == "left"))
        pos, idx = walls.break_at
        arrow = ((ASCII_ARROW if ascii else BREAK_ARROW)[pos], Style(bold=True))
        if pos in ("top", "bottom"):
            grid[1 if pos == "top" else R][across(pos) + scale * idx + (scale - 1)] = arrow
        else:
            row = 1 + (idx if scale == 2 else idx // 2)
            grid[row][side if pos == "left" else W - side - 1] = arrow
        return grid

    def draw_walls(self, box: WallBox, width: int, height: int, scale: int = 1) -> list[Text]:
        walls = box.walls
        W, H = ring_size(walls, scale, self.ascii)
        R = H - 2
        side = 2 if self.ascii else scale  # the side walls' width in cells
        whole, lefts, rights = self.ring(walls, scale)
        # the middle: counts above the compass, the rest below
        inner = W - 2 * side - 2
        above: list[Text] = []
        below: list[Text] = []
        if box.indicators:
            above += self.tiles_line("Bonus", box.indicators, inner, box.track)
        above.append(self.key("live", Text.assemble((str(box.to_draw), "bold"), " to draw")))
        if box.reserve:
            below.append(Text(f"+{box.reserve} kept back", style="dim"))
        if box.dead:
            below.append(self.key("dead", Text.assemble("Dead wall ", (str(box.dead), "bold"))))
        if any(s.region == "tail" for _, st in walls.sides for s in st):
            below.append(self.key("tail", TAIL_WORDS.get(box.tail, "replacements")))
        if box.bloom:
            below += self.tiles_line("Bloom", box.bloom, inner, box.track)
        if box.dice:
            below.append(Text("Dice " + "+".join(str(d) for d in box.dice), style="dim"))
        compass = self.compass(box)
        rows = R - 2
        while len(above) + len(compass) + len(below) > rows:  # short of rows: the compass goes first
            if len(compass) > 1:
                compass = [compass[1]]
            elif compass:
                compass = []
            elif below:
                below.pop()
            else:
                above.pop()
        middle = above + compass + below
        first = 2 + (rows - len(middle)) // 2
        lines: list[Text] = []
        for r in range(H):
            if 0 < r < H - 1 and first <= r < first + len(middle):
                t = lefts[r].copy()
                text = align(middle[r - first], inner, "center")
                t.append_text(text)
                t.append(" " * max(0, inner - cell_len(text.plain)))
                t.append_text(rights[r])
            else:  # a row of walls alone: the same line until the walls change
                centred = self._ring[3]
                line = centred.get((r, width))
                if line is None:
                    line = centred[(r, width)] = align(whole[r].copy(), width, "center")
                lines.append(line)
                continue
            lines.append(align(t, width, "center"))
        pad = max(0, (height - H) // 2)
        return [Text("")] * pad + lines

    # -- the summary (80x24) ----------------------------------------------------------------------
    def draw_summary(self, box: WallBox, width: int, height: int) -> list[Text]:
        art = self.art
        top, mid, bot = self.compass(box)
        lines = [align(x, width, "center") for x in (top, mid, bot)]
        info: list[Text] = []
        t = Text(no_wrap=True, end="")
        t.append("Wall ", "dim")
        t.append(str(box.to_draw), "bold")
        t.append(" to draw", "dim")
        info.append(t)
        if box.reserve:
            info.append(Text(f"+{box.reserve} kept back", style="dim", no_wrap=True, end=""))
        if box.dead:
            info.append(Text.assemble(("Dead wall ", "dim"), (str(box.dead), "bold"), no_wrap=True, end=""))
        if box.bloom:
            b = Text("Bloom ", style="dim", no_wrap=True, end="")
            b.append_text(art.row(list(box.bloom), match=matches(box.bloom, box.track)))
            info.append(b)
        if box.indicators:
            b = Text("Bonus ", style="dim", no_wrap=True, end="")
            b.append_text(art.row(list(box.indicators), match=matches(box.indicators, box.track)))
            info.insert(0, b)  # it scores: shown before the counts
        if box.break_wind:
            info.append(Text.assemble(("Break ", "dim"), f"{box.break_wind} wall, {box.break_stack}",
                                      no_wrap=True, end=""))
        if box.dice:
            info.append(Text.assemble(("Dice ", "dim"), "+".join(str(d) for d in box.dice), no_wrap=True, end=""))
        room = height - len(lines)
        if room < len(info):  # short on rows: the walls matter more than the compass
            lines = [mid] if room + 2 >= len(info) + 1 else []
            room = height - len(lines)
        lines += [align(x, width, "center") for x in info[:max(0, room)]]
        return lines


__all__ = ["ASCII_EMPTY", "ASCII_GLYPHS", "EMPTY_GLYPH", "EMPTY_STYLE", "FACE_UP_BG", "GLYPH_QUADRANTS", "QUADRANTS", "REGION_STYLE", "WallPanel",
           "ring_scale", "ring_size"]
