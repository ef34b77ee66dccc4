"""What a browser seat shows, read back from the bytes its page receives: a small terminal
screen (cursor moves, erases; colours ignored) fed with the app's output, as xterm.js in the
page draws it.  Used by the browser tests (tests/net/test_web*.py)."""

from __future__ import annotations

import codecs
import re

from rich.cells import cell_len

_CSI = re.compile(r"\x1b\[([0-9;?<>=]*)([ -/]*)([@-~])")


class Screen:
    """``width`` × ``height`` cells; :meth:`feed` bytes or text; :meth:`rows` the text."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.grid = [[" "] * width for _ in range(height)]
        self.x = self.y = 0
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.grid = [[" "] * width for _ in range(height)]

    def feed(self, data: bytes | str) -> None:
        text = self._pending + (self._decoder.decode(data) if isinstance(data, bytes) else data)
        self._pending = ""
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "\x1b":
                if i + 1 >= n:
                    self._pending = text[i:]
                    return
                nxt = text[i + 1]
                if nxt == "[":
                    m = _CSI.match(text, i)
                    if m is None:
                        self._pending = text[i:]
                        return
                    self._csi(m.group(1), m.group(3))
                    i = m.end()
                    continue
                if nxt in "]P_^":  # OSC / DCS ...: to BEL or ST
                    ends = [e for e in (text.find("\x07", i), text.find("\x1b\\", i + 2)) if e >= 0]
                    if not ends:
                        self._pending = text[i:]
                        return
                    end = min(ends)
                    i = end + (1 if text[end] == "\x07" else 2)
                    continue
                i += 2
                continue
            if ch == "\r":
                self.x = 0
            elif ch == "\n":
                self.y = min(self.height - 1, self.y + 1)
            elif ch >= " ":
                w = cell_len(ch)
                if 0 <= self.y < self.height and 0 <= self.x < self.width:
                    self.grid[self.y][self.x] = ch
                    if w == 2 and self.x + 1 < self.width:
                        self.grid[self.y][self.x + 1] = ""
                self.x += w
            i += 1

    def _csi(self, params: str, final: str) -> None:
        if params.startswith("?"):
            return
        nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
        first = nums[0] if nums else 0
        if final in "Hf":
            row = nums[0] if len(nums) > 0 and nums[0] else 1
            col = nums[1] if len(nums) > 1 and nums[1] else 1
            self.y, self.x = min(self.height, row) - 1, min(self.width, col) - 1
        elif final == "J" and first in (2, 3):
            self.grid = [[" "] * self.width for _ in range(self.height)]
        elif final == "K":
            if 0 <= self.y < self.height:
                start = 0 if first == 2 else (0 if first == 1 else self.x)
                stop = self.x + 1 if first == 1 else self.width
                for x in range(start, min(stop, self.width)):
                    self.grid[self.y][x] = " "
        elif final == "A":
            self.y = max(0, self.y - (first or 1))
        elif final == "B":
            self.y = min(self.height - 1, self.y + (first or 1))
        elif final == "C":
            self.x = min(self.width - 1, self.x + (first or 1))
        elif final == "D":
            self.x = max(0, self.x - (first or 1))
        elif final == "G":
            self.x = min(self.width, max(1, first or 1)) - 1

    def rows(self) -> list[str]:
        return ["".join(r) for r in self.grid]

    def text(self) -> str:
        return "\n".join(self.rows())


def hand_tiles(rows: list[str]) -> int | None:
    """The number of tiles in the seat's own hand: the boxed tiles (``┌──┐`` / ``┏━━┓``
    tops) on the row under the ``You`` line of the table; None where there is no such row."""
    for i, row in enumerate(rows):
        if " You " in row and i + 1 < len(rows) and ("┌" in rows[i + 1] or "┏" in rows[i + 1]):
            return rows[i + 1].count("┌──┐") + rows[i + 1].count("┏━━┓")
    return None


def own_pond(rows: list[str]) -> list[str]:
    """The tiles of the seat's own pond (the row above its ``You`` line), as written there."""
    for i, row in enumerate(rows):
        if " You " in row and i > 0:
            return [t.strip("◂▸ ") for t in rows[i - 1].split() if t.strip("◂▸ ")]
    return []


def tile_to_discard(rows: list[str]) -> str | None:
    """The tile Enter discards, from the action bar (``Enter  discard F``)."""
    for row in rows:
        m = re.search(r"Enter\s+discard\s+(\S+)", row)
        if m:
            return m.group(1)
    return None
