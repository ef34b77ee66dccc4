"""The area widgets of the table: header, the seats, the ponds, the walls, the own hand, the
action bar, and :class:`TableLayout` that holds them.

Each area keeps the last box (frame part) it was given and repaints only when a new, different
box arrives (:meth:`Area.show`); nothing is mounted or removed while a game is played
(DESIGN.md).  Every area draws rich ``Text`` lines from its box with :class:`TileArt`.

Boxed tiles (a :class:`~mahjong_tui.ui.faces.BoxFaceSet`, ``--faces large``) take several lines
a tile; :class:`TableLayout` decides from its size which areas draw them (:meth:`Area.set_boxed`:
the own hand where the terminal has room for it, the ponds and the other seats' melds where it
has more) and marks the size with classes that let the stylesheet spread the table over the
screen.  An area whose boxed tiles do not fit its room draws the one-line faces instead.
"""

from __future__ import annotations

import asyncio
import gc

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from ..frame import ActionBox, Frame, HandBox, HeaderBox, PondBox, SeatBox
from ..model import wind_word
from .art import TileArt, align, block_width, flow, flow_blocks, join_lines

POND_ROW = 6  # issue 3 §2: the pond in rows of six


class Collector:
    """Python's garbage collection held off from a key pressed at the table to the screen
    update that answers it, as Textual holds it off while it scrolls: a collection of the
    oldest generation takes 50-200 ms with a table's objects alive (issue 21 bench:
    ``tests/bench/bench_ui.py``), so one falling between a discard and its repaint was the
    slowest presses.  The collection comes after the update instead (the bots' pause).

    :meth:`hold` on a key; :meth:`drawn` when the table is drawn again; :meth:`painted` when
    an area's line is painted: the first paint after a drawing lets the collector go (and a
    second after the key at the latest, if nothing is drawn).  A collector that something
    else turned off is left alone.  :meth:`settled` waits for that paint: the game goes on
    once the answer to the key is on the screen (TableScreen.painted), so the repaint of a
    discard never waits behind the moves that follow it and their drawings."""

    held = False
    _drawn = False
    _timer: asyncio.TimerHandle | None = None
    _released: asyncio.Event | None = None
    LONGEST = 1.0  # seconds

    @classmethod
    def hold(cls) -> None:
        if cls.held or not gc.isenabled():
            return
        gc.disable()
        cls.held, cls._drawn = True, False
        try:
            cls._timer = asyncio.get_running_loop().call_later(cls.LONGEST, cls.release)
            cls._released = asyncio.Event()
        except RuntimeError:  # no event loop (never at the table)
            cls.release()

    @classmethod
    async def settled(cls, timeout: float = 0.1) -> None:
        """Return once the collector held for a key is let go (its answer painted), or after
        ``timeout`` seconds; after one turn of the event loop if it is not held."""
        ev = cls._released
        if not cls.held or ev is None:
            await asyncio.sleep(0)
            return
        try:
            await asyncio.wait_for(ev.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    @classmethod
    def drawn(cls) -> None:
        if cls.held:
            cls._drawn = True

    @classmethod
    def painted(cls) -> None:
        if cls.held and cls._drawn:
            cls._drawn = False
            asyncio.get_running_loop().call_soon(cls.release)  # once this update is written

    @classmethod
    def release(cls) -> None:
        if cls._timer is not None:
            cls._timer.cancel()
            cls._timer = None
        if cls.held:
            cls.held = False
            gc.enable()
        if cls._released is not None:
            cls._released.set()
            cls._released = None


def matches(tiles, track: int | None) -> set[int]:
    """Indices of ``tiles`` that are copies of ``track`` (the tile tracker)."""
    return set() if track is None else {i for i, t in enumerate(tiles) if t == track}


class Area(Widget):
    """Base of the area widgets: ``show(box)`` stores the box and repaints if it changed;
    ``draw(box, width, height)`` returns the lines.

    Painted line by line (Textual's line API, :meth:`render_line`): the lines of a box are
    drawn once for a size and turned into strips straight from rich's segments (a line's
    strip kept while a line of the same text and styles is shown), and a new box repaints
    only the rows whose lines changed (:meth:`repaint_changed`): the screen update renders
    those rows alone, which keeps a repaint of the large boxed tables cheap."""

    DEFAULT_CSS = """
    Area { text-wrap: nowrap; text-overflow: clip; link-style: none; }
    """
    #: True when the widget's height depends on its content (CSS ``height: auto``).
    AUTO_HEIGHT = False

    def __init__(self, art: TileArt, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        # Textual paints every segment that carries ``@click`` meta (a hand tile, a prompt
        # choice) in its link colour, whatever colour the segment has; ``link-style: none``
        # drops only the underline.  The tiles keep their face set's colours this way.
        self.auto_links = False
        self.art = art
        self.box = None
        self._height_seen = 0
        self.boxed = False  # draw boxed tiles (set by TableLayout from its size)
        self._memo: dict[tuple, tuple] = {}  # the last draws: (box id, width, height, state) -> (box, lines)
        self._paint: tuple | None = None  # (key, box, line keys, strips) of the lines painted now
        self._strip_cache: dict[tuple, Strip] = {}  # line key -> strip, for one (width, base style)
        self._strip_cache_for: tuple | None = None

    def set_boxed(self, on: bool) -> None:
        """Draw boxed tiles (``on``) or one-line faces; repaints (and re-measures) on a change."""
        on = bool(on) and self.art.large is not None
        if on != self.boxed:
            self.boxed = on
            self.refresh(layout=True)

    def show(self, box) -> None:
        if box == self.box:
            return
        self.box = box
        if self.AUTO_HEIGHT and self.size.width and self.styles.height is not None and self.styles.height.is_auto:
            h = len(self.lines(self.content_size.width, 10**6))
            if h != self._height_seen:
                self._height_seen = h
                self.refresh(layout=True)
                return
        self.repaint_changed()

    def repaint_changed(self) -> None:
        """Repaint the lines of the current box that differ from those painted: the new lines
        are drawn now at the painted size and only the changed rows are marked dirty (the
        screen update then renders those rows alone); a whole repaint when nothing is painted
        yet or the size or style changed."""
        p = self._paint
        size = self.content_size
        if p is None or not size.width or not size.height or p[0][1:] != self._paint_key()[1:]:
            self.refresh()
            return
        new = self._make_paint()
        old_keys, new_keys = p[2], new[2]
        self._paint = new
        rows = [y for y in range(min(size.height, max(len(old_keys), len(new_keys))))
                if y >= len(old_keys) or y >= len(new_keys) or old_keys[y] != new_keys[y]]
        regions = []
        for y in rows:  # runs of changed rows, one region each
            if regions and regions[-1][0] + regions[-1][1] == y:
                regions[-1][1] += 1
            else:
                regions.append([y, 1])
        if regions:
            super().refresh(*(Region(0, y, size.width, n) for y, n in regions))

    def _paint_key(self) -> tuple:
        return (id(self.box), self.content_size, self.state(), self.visual_style.rich_style)

    def _make_paint(self) -> tuple:
        """(key, box, line keys, strips) of the current box at the current size: a line's
        strip is made once for its text and styles (a log line moving up, a row of tiles drawn
        again the same keep theirs)."""
        key = self._paint_key()
        size, base = key[1], key[3]
        keys: list[tuple] = []
        strips: list[Strip] = []
        if self.box is not None:
            width = size.width
            cache = self._strip_cache
            if self._strip_cache_for != (width, base):
                cache.clear()
                self._strip_cache_for = (width, base)
            console = self.app.console
            for line in self.lines(width, size.height)[:size.height]:
                lk = (line.plain, line.style, tuple(line.spans))
                strip = cache.get(lk)
                if strip is None:
                    segments = Segment.apply_style(line.render(console, end=""), base)
                    strip = cache[lk] = Strip(Segment.adjust_line_length(list(segments), width, base), width)
                keys.append(lk)
                strips.append(strip)
            if len(cache) > 4 * len(keys) + 64:  # keep the lines shown now
                self._strip_cache = dict(zip(keys, strips))
        return (key, self.box, keys, strips)

    def draw(self, box, width: int, height: int) -> list[Text]:  # pragma: no cover - abstract
        raise NotImplementedError

    def state(self) -> tuple:
        """What besides the box and the size decides the lines (see :meth:`lines`)."""
        return (self.boxed, getattr(self, "max_lines", None))

    def lines(self, width: int, height: int) -> list[Text]:
        """``draw`` of the current box, remembered: a box is drawn once for a size (the
        height measure, the paint and the tests ask for the same lines)."""
        box = self.box
        state = self.state()
        if self.AUTO_HEIGHT and height < 10**6:  # the lines measured for the height, if they fit
            hit = self._memo.get((id(box), width, 10**6, state))
            if hit is not None and hit[0] is box and len(hit[1]) <= height:
                return hit[1]
        key = (id(box), width, height, state)
        hit = self._memo.get(key)
        if hit is None or hit[0] is not box:  # (the box is kept: an id is only unique while it lives)
            if len(self._memo) > 3:
                self._memo.clear()
            hit = self._memo[key] = (box, self.draw(box, width, height))
        return hit[1]

    def render(self) -> Text:
        if self.box is None:
            return Text("")
        size = self.content_size
        return join_lines(self.lines(size.width, size.height))

    def render_line(self, y: int) -> Strip:
        if Collector.held:
            Collector.painted()
        p = self._paint
        if p is None or p[1] is not self.box or p[0] != self._paint_key():
            p = self._paint = self._make_paint()
        strips = p[3]
        if y < len(strips):
            return strips[y]
        return Strip.blank(p[0][1].width, p[0][3])

    def refresh(self, *regions, **kwargs):
        self._paint = None  # (repaint_changed marks its rows dirty through Widget.refresh)
        return super().refresh(*regions, **kwargs)

    def get_content_height(self, container, viewport, width: int) -> int:
        if self.box is None:
            return 1
        h = len(self.lines(width, 10**6))
        self._height_seen = h
        return max(1, h)

    def plain_lines(self) -> list[str]:
        """The text this area shows now, one string per line (tests, secrecy checks)."""
        if self.box is None:
            return []
        size = self.content_size
        return [ln.plain for ln in self.lines(size.width, size.height)]


class HeaderBar(Area):
    """Variant, prevailing wind, hand number; the keys that always work on the right."""

    def draw(self, box: HeaderBox, width: int, height: int) -> list[Text]:
        g = self.art.glyphs

        def build(title: bool) -> Text:
            left = Text(no_wrap=True, overflow="crop", end="")
            if title:
                left.append(box.title, "bold")
                left.append(f" {g.dot} ")
            left.append(f"{wind_word(box.round_wind)} round", "bold")
            left.append(f" {g.dot} {box.hand}")
            if box.extra:
                left.append(f" {g.dot} {box.extra}")
            if box.alert:
                left.append(" ")
                left.append(f" {box.alert} ", "bold reverse yellow")
            return left

        left = build(True)
        if box.alert and cell_len(left.plain) > width:  # the problem matters more than the title
            left = build(False)
        lw = cell_len(left.plain)
        hints = (("? keys  i table  h rules  q quit", "? keys  i table  q quit", "? keys  i table", "? keys")
                 if box.net else ("? keys  h rules  q quit", "? keys  q quit", "? keys"))
        for hint in hints:
            right = Text(hint, style="dim", no_wrap=True, end="")
            rw = cell_len(hint)
            if lw + 2 + rw <= width:
                break
        if lw + 2 + rw <= width:
            left.append(" " * (width - lw - rw))
            left.append_text(right)
        return [left]


class SeatPanel(Area):
    """One other seat: turn marker, wind, name, score, dealer; concealed tiles face down (or
    their count), melds (a concealed kong with two tiles face down), bonus tiles."""

    AUTO_HEIGHT = True

    def __init__(self, art: TileArt, position: str, *, max_lines: int = 3, boxed_lines: int = 10,
                 id: str | None = None, classes: str | None = None):
        super().__init__(art, id=id, classes=classes)
        self.position = position
        self.max_lines = self.line_max = max_lines
        self.boxed_max = boxed_lines  # lines when boxed (TableLayout.fit)

    #: shorter words for a LAN seat status when the line is tight (the others are short already)
    SHORT_STATUS = {"bot stand-in": "bot", "offline": "off"}

    def info(self, box: SeatBox, width: int, long: bool = True) -> Text:
        """The seat's label: turn marker, wind, name, status, score, dealer.  The wind is
        spelt out (``South``) where the whole label fits ``width`` with it, and ``long`` is not
        False; else its letter (``S``), and then a LAN status word, then the name, shortened."""
        g = self.art.glyphs
        status = f"[{box.status}]" if box.status else ""
        dealer = f"  {g.dealer}" if box.dealer else ""
        name = box.name
        word = wind_word(box.wind)
        whole = 2 + cell_len(word) + 1 + cell_len(name) + (1 + cell_len(status) if status else 0) \
            + 2 + len(box.score) + cell_len(dealer)
        wind = word if long and whole <= width else box.wind
        fixed = 2 + cell_len(wind) + 1 + (1 + cell_len(status) if status else 0) + 2 + len(box.score) + cell_len(dealer)
        if status and fixed + cell_len(name) > width:  # a long name (LAN): shorter status word
            short = f"[{self.SHORT_STATUS.get(box.status, box.status)}]"
            fixed -= cell_len(status) - cell_len(short)
            status = short
        if status and fixed + cell_len(name) > width:  # then shorten the name, never the status
            room = max(3, width - fixed)
            while cell_len(name) > room - 1 and len(name) > 1:
                name = name[:-1]
            name += "…"
        t = Text(no_wrap=True, overflow="crop", end="")
        t.append(f"{g.turn} " if box.active else "  ", "bold")
        t.append(wind, "bold reverse" if box.active else "bold")
        t.append(f" {name}", "bold" if box.active else "")
        if status:
            t.append(" ")
            t.append(status, "bold yellow")
        t.append(f"  {box.score}")
        if dealer:
            t.append(dealer, "italic")
        return t

    def label(self, box: SeatBox, width: int, rest: list[Text]) -> Text:
        """:meth:`info` with the wind spelt out where that costs no line when ``rest`` flows
        after it, else with its letter (80x24 keeps its lines)."""
        info = self.info(box, width)
        short = self.info(box, width, long=False)
        if info.plain != short.plain and len(flow([short] + rest, width, 2)) < len(flow([info] + rest, width, 2)):
            return short
        return info

    def groups(self, box: SeatBox, width: int) -> list[Text]:
        art = self.art
        items = []
        if box.concealed is not None:  # a replay shows every hand face up, wrapped to the width
            tiles = list(box.concealed)
            per = max(1, (width + 1) // art.pitch)
            for i in range(0, len(tiles), per):
                items.append(art.row(tiles[i:i + per]))
        else:
            items.append(art.hidden(box.concealed_count, width))
        for m in box.melds:
            items.append(art.meld(m.tiles, m.down, m.claimed, m.source, matches(m.tiles, box.track)))
        if box.bonus:
            items.append(art.row(list(box.bonus), match=matches(box.bonus, box.track)))
        return items

    def boxed_lines(self, box: SeatBox, width: int, height: int, justify: str) -> list[Text] | None:
        """The seat in boxed tiles: the info line (and the count of hidden tiles), then its
        melds and bonus tiles boxed; None if that does not fit ``height``."""
        art = self.art
        head = []
        blocks = []
        if box.concealed is not None:
            tiles = list(box.concealed)
            per = max(1, (width + 1) // art.box_pitch)
            for i in range(0, len(tiles), per):
                blocks.append(art.box_row(tiles[i:i + per]))
        elif self.position != "bottom":
            head.append(art.hidden(box.concealed_count, width))
        head.insert(0, self.label(box, width, head))
        if self.position != "bottom":
            for m in box.melds:
                blocks.append(art.box_meld(m.tiles, m.down, m.claimed, m.source, matches(m.tiles, box.track)))
        if box.bonus:
            blocks.append(art.box_row(list(box.bonus), match=matches(box.bonus, box.track)))
        lines = flow(head, width, 2, justify=justify)
        if blocks:
            lines += flow_blocks(blocks, width, 2, justify=justify)
        return lines if len(lines) <= height else None

    def draw(self, box: SeatBox, width: int, height: int) -> list[Text]:
        justify = {"top": "center", "right": "right", "bottom": "center"}.get(self.position, "left")
        if self.boxed:
            lines = self.boxed_lines(box, width, min(height, self.max_lines), justify)
            if lines is not None:
                return lines
        if self.position == "bottom":  # the own tiles and melds are in the HandArea
            rest = [self.art.row(list(box.bonus), match=matches(box.bonus, box.track))] if box.bonus else []
        else:
            rest = self.groups(box, width)
        return flow([self.label(box, width, rest)] + rest, width, 2, max_lines=min(self.max_lines, height),
                    justify=justify)


class Pond(Area):
    """A seat's discards in rows of six, the latest discard marked (a claimed discard has
    left the pond for its meld); copies of the tile under the cursor marked (the tile
    tracker).  Boxed: rows of six at the sides, up to twelve at the top and bottom."""

    def draw(self, box: PondBox, width: int, height: int) -> list[Text]:
        if not box.tiles or height <= 0:
            return []
        if self.boxed:
            lines = self.boxed_lines(box, width, height)
            if lines is not None:
                return lines
        return self.line_rows(box, width, height)

    def boxed_lines(self, box: PondBox, width: int, height: int) -> list[Text] | None:
        art = self.art
        tiles = [t for t, _ in box.tiles]
        fit = max(1, (width - 1) // art.box_pitch)
        per = POND_ROW if box.position in ("left", "right") else max(POND_ROW, min(2 * POND_ROW, fit))
        per = min(per, fit)
        rows = [tiles[i:i + per] for i in range(0, len(tiles), per)]
        last = (len(rows) - 1, len(rows[-1]) - 1)
        hi = {last} if box.latest else set()
        match = {(r, i) for r, row in enumerate(rows) for i, t in enumerate(row) if t == box.track}
        lines = art.box_grid(rows, highlight=hi, match=match)
        if len(lines) > height:
            return None
        if box.latest:
            lines[-3].append(art.glyphs.latest, "bold")
        block = block_width(lines) + 1
        justify = {"top": "center", "bottom": "center", "left": "right", "right": "left"}[box.position]
        out = []
        for ln in lines:
            pad = block - cell_len(ln.plain)
            if pad > 0:
                ln.append(" " * pad)
            out.append(align(ln, width, justify))
        if box.position == "top":
            out = [Text("")] * (height - len(out)) + out
        return out

    def line_rows(self, box: PondBox, width: int, height: int) -> list[Text]:
        art = self.art
        g = art.glyphs
        block = art.row_width(POND_ROW) + 1
        rows: list[Text] = []
        tiles = list(box.tiles)
        n = len(tiles)
        for start in range(0, n, POND_ROW):
            chunk = tiles[start:start + POND_ROW]
            last = start + len(chunk) - 1 == n - 1
            hi = {len(chunk) - 1} if (last and box.latest) else set()
            row = art.row([t for t, _ in chunk], dim={i for i, (_, c) in enumerate(chunk) if c},
                          highlight=hi, match={i for i, (t, _) in enumerate(chunk) if t == box.track})
            if hi:
                row.append(g.latest, "bold")
            pad = block - cell_len(row.plain)
            if pad > 0:
                row.append(" " * pad)
            rows.append(row)
        if len(rows) > height:
            rows = rows[-height:]
        justify = {"top": "center", "bottom": "center", "left": "right", "right": "left"}[box.position]
        lines = [align(r, width, justify) for r in rows]
        if box.position == "top":
            lines = [Text("")] * (height - len(lines)) + lines
        return lines


class HandArea(Area):
    """The bottom seat's hand: concealed tiles (the tile just drawn set apart at the right; a
    discard picked up into the hand followed by ``*``), the cursor, then the melds.  Click a tile to select it, click it again to discard."""

    AUTO_HEIGHT = True

    def draw(self, box: HandBox, width: int, height: int) -> list[Text]:
        if self.boxed:
            lines = self.boxed_lines(box, width, height)
            if lines is not None:
                return lines
        return self.line_rows(box, width, height)

    def boxed_lines(self, box: HandBox, width: int, height: int) -> list[Text] | None:
        """The hand in boxed tiles (the cursor's tile with the selected border, the tile just
        drawn set apart with the highlight border, a picked-up discard's top border marked
        ``*``), its melds boxed beside it or under it; None if the concealed tiles do not
        fit ``width``."""
        art = self.art
        if box.tiles is None:
            hand = art.box_row([None] * box.count, face_down=True)
        else:
            n = len(box.tiles)
            hand = art.box_row(
                box.tiles, gaps={box.drawn: 3} if box.drawn else None, selected=box.selected,
                highlight={box.drawn} if box.drawn is not None else (),
                labels={i: art.glyphs.picked for i in box.picked},
                meta={i: Style.from_meta({"@click": f"screen.tile({i})"}) for i in range(n)},
            )
        if block_width(hand) > width:
            return None
        blocks = [hand] + [art.box_meld(m.tiles, m.down, m.claimed, m.source) for m in box.melds]
        return flow_blocks(blocks, width, 3, max_lines=max(len(hand), height), justify="center")

    def line_rows(self, box: HandBox, width: int, height: int) -> list[Text]:
        art = self.art
        items = []
        if box.tiles is None:
            hidden = art.row([None] * box.count, face_down=True)
            items.append(hidden)
        else:
            row = Text(no_wrap=True, overflow="crop", end="")
            for i, t in enumerate(box.tiles):
                if i:
                    row.append("  " if box.drawn == i else " ")
                face = art.tile(t, selected=(i == box.selected), highlight=(i == box.drawn))
                if i in box.picked:  # a discard taken into the hand: counts as open (G-OX-2)
                    face = art.with_picked_mark(face)
                face.stylize(Style.from_meta({"@click": f"screen.tile({i})"}))
                row.append_text(face)
            items.append(row)
        for m in box.melds:
            items.append(art.meld(m.tiles, m.down, m.claimed, m.source))
        return flow(items, width, 3, max_lines=max(1, min(2, height)), justify="center")


class ActionBar(Area):
    """What the table waits for; for the player at the keyboard, every legal choice with its
    key (click one to choose it); below, waits and what just happened."""

    AUTO_HEIGHT = True

    def show(self, box) -> None:
        self.set_class(bool(box and box.urgent), "-urgent")
        super().show(box)

    def parts(self, parts, style: str = "") -> Text:
        t = Text(no_wrap=True, overflow="crop", end="")
        for p in parts:
            if isinstance(p, int):
                face = self.art.tile(p)
                face.rstrip()
                t.append_text(face)
            else:
                t.append(p, style)
        return t

    def draw(self, box: ActionBox, width: int, height: int) -> list[Text]:
        items: list[Text] = []
        if box.title:
            items.append(self.parts(box.title, "bold"))
        for key, label in box.choices:
            t = Text(no_wrap=True, end="")
            t.append(f" {key} ", Style(reverse=True, bold=True))
            t.append(" ")
            t.append_text(self.parts(label))
            t.stylize(Style.from_meta({"@click": f"screen.choose({key!r})"}))
            items.append(t)
        lines = flow(items, width, 2)
        if box.info:
            info = self.parts(box.info, "italic")
            if cell_len(info.plain) <= width:
                lines.append(info)
            else:  # too wide: wrap between its " · " clauses rather than crop the last,
                # and a clause wider than the bar between its words
                pieces = info.split(" · ", allow_blank=False)
                for piece in pieces[:-1]:
                    piece.append(" ·", "italic")
                words: list[Text] = []
                for piece in pieces:
                    words.extend([piece] if cell_len(piece.plain) <= width
                                 else piece.split(" ", allow_blank=False))
                lines.extend(flow(words, width, 1))
        if box.news:
            lines.append(self.parts(box.news, "bold"))
        return lines[:max(1, height)]


class TableLayout(Widget):
    """All area widgets of the table in their places: the seat shown at the bottom, the next
    player right, the opposite player top, the previous player left (issue 3 §2).

    Its size decides (:meth:`fit`, on every resize) what the boxed face set is used for: the
    own hand from :data:`ROOMY` up (anywhere it fits when ``--faces`` asked for the boxed
    set), the ponds and the other seats' melds and bonus tiles from :data:`SPACIOUS` up.  The
    classes ``-roomy``, ``-large-hand`` and ``-large-table`` let ``app.tcss`` spread the table
    over a large screen.  80x24 stays the one-line layout."""

    #: (columns, rows) from which the table spreads out and the own hand is boxed
    ROOMY = (100, 32)
    #: (columns, rows) from which the ponds and melds are boxed too
    SPACIOUS = (150, 46)

    DEFAULT_CSS = """
    TableLayout { layout: vertical; height: 1fr; }
    """

    def __init__(self, art: TileArt, *, id: str | None = None):
        super().__init__(id=id)
        self.art = art

    def compose(self) -> ComposeResult:
        art = self.art
        yield HeaderBar(art, id="header")
        with Vertical(id="board"):
            yield SeatPanel(art, "top", max_lines=2, boxed_lines=6, id="seat-top")
            yield Pond(art, id="pond-top")
            with Horizontal(id="middle"):
                with Vertical(id="side-left", classes="side"):
                    yield SeatPanel(art, "left", max_lines=4, id="seat-left")
                    yield Pond(art, id="pond-left")
                yield WallPanel(art, id="wall")
                with Vertical(id="side-right", classes="side"):
                    yield SeatPanel(art, "right", max_lines=4, id="seat-right")
                    yield Pond(art, id="pond-right")
            yield Pond(art, id="pond-bottom")
            yield SeatPanel(art, "bottom", max_lines=1, id="seat-bottom")
            yield HandArea(art, id="hand")
            yield ActionBar(art, id="actions")
        yield MoveLogPanel(art, id="log")  # beside the board where wide enough (widgets/movelog.py)

    def on_mount(self) -> None:
        q = self.query_one
        self._areas = {
            "header": q("#header", HeaderBar),
            "wall": q("#wall", WallPanel),
            "hand": q("#hand", HandArea),
            "actions": q("#actions", ActionBar),
            "log": q("#log", MoveLogPanel),
        }
        for pos in ("top", "left", "right", "bottom"):
            self._areas[f"seat-{pos}"] = q(f"#seat-{pos}", SeatPanel)
            self._areas[f"pond-{pos}"] = q(f"#pond-{pos}", Pond)

    def on_resize(self, event) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Choose, for a table of ``width`` x ``height`` cells, which areas draw boxed tiles
        and which size classes the table has (see the class docstring)."""
        boxed = self.art.large is not None
        roomy = width >= self.ROOMY[0] and height >= self.ROOMY[1]
        spacious = width >= self.SPACIOUS[0] and height >= self.SPACIOUS[1]
        hand = boxed and (roomy or self.art.forced)
        table = boxed and spacious
        self.set_class(roomy, "-roomy")
        self.set_class(hand, "-large-hand")
        self.set_class(table, "-large-table")
        self._areas["hand"].set_boxed(hand)
        for pos in ("top", "left", "right", "bottom"):
            self._areas[f"pond-{pos}"].set_boxed(table)
            if pos != "bottom":  # the own seat's line stays one line: its tiles are in the hand
                seat = self._areas[f"seat-{pos}"]
                seat.max_lines = seat.boxed_max if table else seat.line_max
                seat.set_boxed(table)

    def show(self, frame: Frame) -> None:
        Collector.drawn()
        a = self._areas
        a["header"].show(frame.header)
        for box in frame.seats:
            a[f"seat-{box.position}"].show(box)
        for box in frame.ponds:
            a[f"pond-{box.position}"].show(box)
        if frame.wall != a["wall"].box:  # (WallPanel.show lays the table out again on any call)
            a["wall"].show(frame.wall)
        a["hand"].show(frame.hand)
        a["actions"].show(frame.actions)
        if frame.log is not None:
            a["log"].show(frame.log)

    @on(events.Resize)
    def _log_beside(self, event: events.Resize) -> None:
        """The move log is shown beside the board from :data:`LOG_MIN_WIDTH` columns (the
        ``-log`` class; below, the ``l`` screen has it)."""
        self.set_class(event.size.width >= LOG_MIN_WIDTH, "-log")

    def area(self, name: str) -> Area:
        return self._areas[name]


from .wall import WallPanel  # noqa: E402 - wall.py builds on Area, defined above
from .movelog import LOG_MIN_WIDTH, MoveLogPanel  # noqa: E402 - it builds on Area too
