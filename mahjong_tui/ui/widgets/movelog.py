"""The move log of the hand (issue 21, item 5): a side panel of the table where the terminal is
wide enough (:data:`LOG_MIN_WIDTH`); the ``l`` screen (screens/movelog.py) shows it at any size.

Each line: the wind of the seat whose move it is, then the status line's words for it
(``S  Bot 2 pungs 5m from You``), wrapped under its words; the newest last (the panel turns
a page when full: :func:`page`).  Claims and
kongs are bold, instant payments in the warning colour, a seat's own pass in italics.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ..frame import LogBox
from .areas import Area

#: the narrowest terminal that shows the log beside the table (below it: the ``l`` key)
LOG_MIN_WIDTH = 120

STYLES = {"claim": "bold", "kong": "bold", "add_kong_declared": "bold", "concealed_kong_declared": "bold",
          "instant_payment": "bold yellow", "bonus": "", "indicator": "bold", "hand_start": "dim",
          "pass": "italic", "discard": "", "view": "dim italic", "chat": "cyan",  # LAN table talk
          # a replay's steps are actions
          "pung": "bold", "chow": "bold", "pickup": "bold", "win": "bold", "concealed_kong": "bold",
          "added_kong": "bold"}


def wrap(words: str, width: int) -> list[str]:
    """``words`` in lines of at most ``width`` cells, broken between words (a word wider than
    the line is cut)."""
    lines: list[str] = []
    cur = ""
    for word in words.split():
        while cell_len(word) > width:
            if cur:
                lines.append(cur)
                cur = ""
            lines.append(word[:width])
            word = word[width:]
        if not cur:
            cur = word
        elif cell_len(cur) + 1 + cell_len(word) <= width:
            cur += " " + word
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    return lines or [""]


def entry_lines(entry: tuple[str, str, str], width: int) -> list[Text]:
    """The lines of one entry of the log (wind, words, kind), wrapped to ``width``: the wind
    (2 cells), then the words."""
    wind, words, kind = entry
    style = STYLES.get(kind, "")
    out: list[Text] = []
    for i, part in enumerate(wrap(words, max(4, width - 2))):
        t = Text(no_wrap=True, overflow="crop", end="")
        t.append(f"{wind:<2}" if i == 0 else "  ", "bold dim")
        t.append(part, style)
        out.append(t)
    return out


def log_lines(box: LogBox, width: int) -> list[Text]:
    """Every line of the log, wrapped to ``width``."""
    return [t for entry in box.lines for t in entry_lines(entry, width)]


class MoveLogPanel(Area):
    """The side panel: a title, then the log, the newest entry last.  Once the panel is full
    it turns two thirds of a page at a time (the last third stays on top): between turns the
    lines already shown stay where they are, so a move repaints the line or two it adds, not
    the whole panel (a log scrolling a line a move made every row of the screen part of each
    repaint: issue 21 bench).  Each entry is wrapped once for a width."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._wrapped: dict[tuple, list[Text]] = {}  # (entry, width) -> its lines

    def draw(self, box: LogBox, width: int, height: int) -> list[Text]:
        title = Text("Moves this hand", style="bold", no_wrap=True, end="")
        room = max(0, height - 1)
        cache = self._wrapped
        if len(cache) > 4 * len(box.lines) + 64:
            cache.clear()
        lines: list[Text] = []
        for entry in box.lines:
            key = (entry, width)
            got = cache.get(key)
            if got is None:
                got = cache[key] = entry_lines(entry, width)
            lines.extend(got)
        return [title] + page(lines, room)


def page(lines: list, room: int) -> list:
    """The part of ``lines`` a panel of ``room`` lines shows: all while they fit, then pages
    that turn by two thirds of the room (each line keeps its row until the next turn; the
    newest line is always shown)."""
    if len(lines) <= room:
        return lines
    if room <= 0:
        return []
    step = max(1, room - room // 3)
    start = -(-(len(lines) - room) // step) * step
    return lines[start:start + room]


__all__ = ["LOG_MIN_WIDTH", "MoveLogPanel", "entry_lines", "log_lines", "page", "wrap"]
