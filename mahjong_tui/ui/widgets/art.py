"""Drawing helpers shared by the area widgets: the chosen face set plus the few symbols of the
table chrome, and a tiny flow layout for groups of tiles.

Layout code reads only :attr:`TileArt.width` / :attr:`TileArt.pitch`; it never asks which face
set is in use (issue 3 §3).  With an ASCII-only face set the chrome symbols are ASCII too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..faces import FaceSet


@dataclass(frozen=True)
class Glyphs:
    turn: str  # marks the seat the table waits for
    dealer: str
    dot: str  # separator
    latest: str  # after the latest discard
    ellipsis: str
    down: str  # "times" sign of a face-down count
    picked: str = "*"  # after a discard picked up into the hand (Classic G-OX-2)


UNICODE_GLYPHS = Glyphs(turn="▶", dealer="dealer", dot="·", latest="◂", ellipsis="…", down="×")
ASCII_GLYPHS = Glyphs(turn=">", dealer="dealer", dot="|", latest="<", ellipsis="...", down="x")


class TileArt:
    """The face set chosen at start-up and the chrome glyphs that go with it."""

    def __init__(self, faces: FaceSet):
        self.faces = faces
        self.width = faces.width
        self.pitch = faces.width + 1
        self.glyphs = ASCII_GLYPHS if faces.ascii_only else UNICODE_GLYPHS

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

    def meld(self, tiles: Sequence[int], down: Collection[int] = ()) -> Text:
        return self.faces.render_row(tiles, 1, face_down=set(down))

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
