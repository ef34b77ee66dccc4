"""Drawing helpers shared by the area widgets: the chosen face sets plus the few symbols of the
table chrome, and a tiny flow layout for groups of tiles.

Layout code reads only :attr:`TileArt.width` / :attr:`TileArt.pitch` (and, for boxed tiles,
:attr:`TileArt.box_pitch`); it never asks which face set is in use (issue 3 §3).  With an
ASCII-only face set the chrome symbols are ASCII too.

A group of tiles is drawn as a *block*: a list of rich ``Text`` lines of one width — one line
with the one-line set, :data:`~mahjong_tui.ui.faces.BOX_ROWS` + 1 lines with boxed tiles (the
last closes the boxes).  :func:`flow_blocks` lays blocks out as :func:`flow` lays out lines.

A meld's claimed tile is marked in every face set without colour: one-line sets bracket it in
the cells between the tiles (``4m(5m)6m``) and follow the meld with the seat it came from
(``←W``, ASCII ``<W``); boxed sets draw it with the ``claimed`` border with that seat on top
(``╭W─╮``).  Which tile of a pung or kong is bracketed also says where it came from, as the
turned tile does on a real table: the first from the player before (left), the middle from
the player opposite, the last from the player after (right).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..faces import BOX_ROWS, BoxFaceSet, FaceSet

Block = list  # list[Text]: lines of one width


@dataclass(frozen=True)
class Glyphs:
    turn: str  # marks the seat the table waits for
    dealer: str
    dot: str  # separator
    latest: str  # after the latest discard
    ellipsis: str
    down: str  # "times" sign of a face-down count
    picked: str = "*"  # after a discard picked up into the hand (Classic G-OX-2)
    source: str = "←"  # before the seat a meld's claimed tile came from


UNICODE_GLYPHS = Glyphs(turn="▶", dealer="dealer", dot="·", latest="◂", ellipsis="…", down="×")
ASCII_GLYPHS = Glyphs(turn=">", dealer="dealer", dot="|", latest="<", ellipsis="...", down="x", source="<")


class TileArt:
    """The face sets chosen at start-up and the chrome glyphs that go with them.

    ``faces``: the one-line set; ``large``: the boxed set (None: tiles are never boxed);
    ``forced``: ``--faces`` asked for the boxed set (the layout boxes the own hand wherever it
    fits, see :class:`~mahjong_tui.ui.widgets.areas.TableLayout`)."""

    def __init__(self, faces: FaceSet, large: BoxFaceSet | None = None, *, forced: bool = False):
        self.faces = faces
        self.width = faces.width
        self.pitch = faces.width + 1
        self.large = large
        self.forced = forced and large is not None
        self.box_pitch = large.width + 1 if large is not None else self.pitch
        self.glyphs = ASCII_GLYPHS if faces.ascii_only else UNICODE_GLYPHS
        self._columns: dict[tuple, tuple[Text, ...]] = {}  # boxed tiles drawn (_column)

    def tile(self, tile: int | None, **flags) -> Text:
        return self.faces.render(tile, **flags)

    def with_picked_mark(self, face: Text) -> Text:
        """A tile ``face`` marked as a discard picked up into the hand (Classic G-OX-2: it
        counts as open): the mark takes the face's trailing pad cell where it has one (``N*``,
        not ``N *``), else follows it (``5t*``)."""
        out = face[:-1] if face.plain.endswith(" ") else face.copy()
        out.append(self.glyphs.picked, "bold")
        return out

    def row(self, tiles: Sequence[int | None], gap: int = 1, **flags) -> Text:
        return self.faces.render_row(tiles, gap, **flags)

    def row_width(self, n: int) -> int:
        return self.faces.row_width(n)

    def meld(self, tiles: Sequence[int | None], down: Collection[int] = (), claimed: int | None = None,
             source: str = "", match: Collection[int] = ()) -> Text:
        """A meld on one line; ``claimed``: index of the claimed tile, bracketed in the cells
        between the tiles (``4m(5m)6m``), and ``source`` (a wind letter) the seat it came from,
        after the meld (``←W``); ``match``: indices drawn as tracked copies."""
        row = Text(no_wrap=True, overflow="crop", end="")
        for i, t in enumerate(tiles):
            if i == claimed:
                row.append("(", "bold")
            elif i and i - 1 != claimed:
                row.append(" ")
            face = self.faces.render(t, face_down=i in down, match=i in match and i not in down)
            if i == claimed:  # "(S)", not "(S )"; "(8m)", not "( 8m)"
                face = face[len(face.plain) - len(face.plain.lstrip()):]
                face.rstrip()
            row.append_text(face)
            if i == claimed:
                row.append(")", "bold")
        if claimed is not None and source:
            row.append(f"{self.glyphs.source}{source}", "bold")
        return row

    # -- boxed tiles -----------------------------------------------------------------------

    def box_row(self, tiles: Sequence[int | None], *, gap: int = 1, gaps: dict[int, int] | None = None,
                face_down: Collection[int] | bool = (), selected: int | None = None,
                highlight: Collection[int] = (), dim: Collection[int] = (), match: Collection[int] = (),
                labels: dict[int, str] | None = None, meta: dict[int, Style] | None = None) -> Block:
        """Boxed tiles side by side, closed: :data:`BOX_ROWS` + 1 lines.  ``gaps``: cells
        before tile i where not ``gap``; ``labels``: tile i is claimed (or picked up), the
        label (a seat's wind, ``*``) on its top border; ``meta``: a style (``@click``) laid
        over every line of tile i."""
        assert self.large is not None
        labels = labels or {}
        gaps = gaps or {}
        lines = [Text(no_wrap=True, overflow="crop", end="") for _ in range(BOX_ROWS + 1)]
        column = self._column
        for i, t in enumerate(tiles):
            down = face_down if isinstance(face_down, bool) else i in face_down
            col = column((t, gaps.get(i, gap) if i else 0, down, i == selected, i in highlight, i in dim,
                          i in match and not down, labels.get(i), i in labels, meta.get(i) if meta else None))
            for ln, part in zip(lines, col):
                ln.append_text(part)
        return lines

    def _column(self, key: tuple) -> tuple[Text, ...]:
        """One boxed tile's :data:`BOX_ROWS` + 1 lines (its bottom border last) after ``lead``
        blank cells, drawn once for ``key`` = (tile, lead, face down, selected, highlight,
        dim, match, label, claimed, meta): the caller must not change them."""
        col = self._columns.get(key)
        if col is None:
            t, lead, down, selected, highlight, dim, match, label, claimed, meta = key
            large = self.large
            flags = dict(face_down=down, selected=selected, highlight=highlight, dim=dim)
            parts = large.tile(t, match=match, claimed_from=label, **flags)
            parts.append(large.bottom(t, claimed=claimed, **flags))
            out = []
            for part in parts:
                if meta is not None:
                    part.stylize(meta)
                if lead:
                    cell = Text(" " * lead, no_wrap=True, overflow="crop", end="")
                    cell.append_text(part)
                    part = cell
                out.append(part)
            if len(self._columns) > 4096:
                self._columns.clear()
            col = self._columns[key] = tuple(out)
        return col

    def box_grid(self, rows: Sequence[Sequence[int | None]], *, highlight: Collection[tuple[int, int]] = (),
                 match: Collection[tuple[int, int]] = (), dim: Collection[tuple[int, int]] = ()) -> Block:
        """Rows of boxed tiles under each other (a pond), each row's top borders closing the
        row above; the last row closed by its bottom borders: 3 lines a row, plus one.
        Flags are (row, index) pairs."""
        assert self.large is not None
        column = self._column
        out: list[Text] = []
        prev: Sequence[int | None] = ()
        for r, row in enumerate(rows):
            body = [Text(no_wrap=True, overflow="crop", end="") for _ in range(BOX_ROWS)]
            for i, t in enumerate(row):
                col = column((t, 1 if i else 0, False, False, (r, i) in highlight, (r, i) in dim, (r, i) in match,
                              None, False, None))
                for ln, part in zip(body, col):
                    ln.append_text(part)
            if r and len(row) < len(prev):  # under the previous row's tiles that nothing covers
                for i in range(len(row), len(prev)):
                    body[0].append_text(column((prev[i], 1, False, False, (r - 1, i) in highlight,
                                                (r - 1, i) in dim, False, None, False, None))[BOX_ROWS])
            out.extend(body)
            prev = row
        if rows:
            r = len(rows) - 1
            close = Text(no_wrap=True, overflow="crop", end="")
            for i, t in enumerate(rows[-1]):
                close.append_text(column((t, 1 if i else 0, False, False, (r, i) in highlight, (r, i) in dim, False,
                                          None, False, None))[BOX_ROWS])
            out.append(close)
        return out

    def box_meld(self, tiles: Sequence[int | None], down: Collection[int] = (), claimed: int | None = None,
                 source: str = "", match: Collection[int] = ()) -> Block:
        """A meld in boxed tiles; the claimed tile's top border names the seat it came from."""
        labels = {claimed: source or "?"} if claimed is not None else {}
        return self.box_row(tiles, face_down=down, match=match, labels=labels)

    def hidden(self, count: int, width: int) -> Text:
        """``count`` face-down tiles in a row if they fit in ``width``, else one face-down tile
        and the count (``▒▒×13``)."""
        if count <= 0:
            return Text("")
        if self.row_width(count) <= width:
            return self.faces.render_row([None] * count, 1, face_down=True)
        t = self.faces.render(None, face_down=True)
        t.append(f"{self.glyphs.down}{count}", "dim")
        return t


def flow(items: Iterable[Text], width: int, sep: int = 2, max_lines: int | None = None,
         justify: str = "left", indent: int = 0) -> list[Text]:
    """Lay ``items`` out left to right, ``sep`` cells apart, starting a new line whenever the
    next item would pass ``width``; a new line starts ``indent`` cells in (a hanging indent:
    what wraps stays under what it belongs to).  An item wider than the room gets a line of
    its own and is cropped.  With ``max_lines``, lines past the limit are dropped (the last
    kept line ends in ``…`` if something was dropped)."""
    lines: list[Text] = []
    cur: Text | None = None
    cur_w = 0
    for item in items:
        w = cell_len(item.plain)
        if w == 0:
            continue
        if cur is not None and cur_w + sep + w <= width:
            cur.append(" " * sep)
            cur.append_text(item)
            cur_w += sep + w
            continue
        if cur is not None:
            lines.append(cur)
        cur = Text(" " * indent if lines else "", no_wrap=True, overflow="crop", end="")
        cur.append_text(item)
        cur_w = cell_len(cur.plain)
    if cur is not None:
        lines.append(cur)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        if max_lines:
            last = lines[-1]
            if cell_len(last.plain) + 1 < width:
                last.append("…" if width else "", "dim")
    out = []
    for ln in lines:
        out.append(align(ln, width, justify))
    return out


def block_width(block: Block) -> int:
    return max((cell_len(ln.plain) for ln in block), default=0)


def flow_blocks(blocks: Iterable[Block], width: int, sep: int = 2, max_lines: int | None = None,
                justify: str = "left", indent: int = 0) -> list[Text]:
    """:func:`flow` for blocks of several lines (boxed tiles): blocks left to right, ``sep``
    cells apart, a new row of blocks when the next would pass ``width``; a row is as tall as
    its tallest block and shorter blocks sit at its bottom.  With ``max_lines``, whole rows
    past the limit are dropped (the first row is kept, cropped)."""
    rows: list[list[Block]] = []
    cur: list[Block] = []
    cur_w = 0
    for block in blocks:
        w = block_width(block)
        if w == 0:
            continue
        if cur and cur_w + sep + w <= width:
            cur.append(block)
            cur_w += sep + w
            continue
        if cur:
            rows.append(cur)
        cur, cur_w = [block], w + (indent if rows or cur else 0)
    if cur:
        rows.append(cur)
    lines: list[Text] = []
    for r, row in enumerate(rows):
        height = max(len(b) for b in row)
        if max_lines is not None and lines and len(lines) + height > max_lines:
            break
        row_lines = []
        for k in range(height):
            ln = Text(" " * indent if r else "", no_wrap=True, overflow="crop", end="")
            for j, b in enumerate(row):
                if j:
                    ln.append(" " * sep)
                at = k - (height - len(b))
                if at >= 0:
                    part = b[at]
                    ln.append_text(part)
                    pad = block_width(b) - cell_len(part.plain)
                else:
                    pad = block_width(b)
                if pad > 0:
                    ln.append(" " * pad)
            row_lines.append(ln)
        lines.extend(row_lines)
    if max_lines is not None:
        lines = lines[:max_lines]
    return [align(ln, width, justify) for ln in lines]


def align(line: Text, width: int, justify: str) -> Text:
    """Pad ``line`` to ``width`` on the left (``right``), both sides (``center``) or not."""
    w = cell_len(line.plain)
    if w >= width or justify == "left":
        return line
    pad = width - w
    if justify == "right":
        left = pad
    else:
        left = pad // 2
    out = Text(" " * left, no_wrap=True, overflow="crop", end="")
    out.append_text(line)
    return out


def join_lines(lines: Sequence[Text]) -> Text:
    out = Text(no_wrap=True, overflow="crop", end="")
    for i, ln in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(ln)
    return out


def key_style() -> Style:
    return Style(reverse=True, bold=True)
