"""A line chart of every seat's score over the hands of a match (issue 3 §6, issue 21 item 7:
the end of the match).

All four seats share one scale, so the lines can be compared; each seat is drawn with its own
marker digit (its seat number) and colour, so colour is never the only cue, and the legend
under the plot names them.  The y axis is labelled at its ends, at zero (a dim line runs
along it) and in between; the x axis numbers the hands (0 is the start).  The match-over
screen puts the final standings beside the chart, each seat with its marker and colour
(:data:`SEAT_STYLES`).
"""

from __future__ import annotations

import math
from typing import Sequence

from rich.text import Text
from textual.widget import Widget

from ..model import fmt_num
from .art import join_lines

#: one colour per seat, given as RGB: the ANSI names were mapped through the theme so that
#: red and magenta (seats 3 and 4) came out the same pink in a 256-colour terminal
SEAT_STYLES = ("bold #4f9dff", "bold #3fb950", "bold #ff8c1a", "bold #d275e8")


def chart_lines(series: Sequence[Sequence[float]], labels: Sequence[str], width: int, height: int,
                ascii: bool = False) -> list[Text]:
    """Draw ``series`` (one list of scores per seat, hand by hand, starting score first) in
    ``width`` x ``height`` cells: a y axis with labels, a line per seat (its markers the seat
    number at each hand, joined by dots), the x axis and its hand numbers, a legend; where
    markers of several seats fall on one cell after the start (equal scores), so that only one
    digit shows, a last line says which (``on one spot: 1=4 (hands 1-2)``: :func:`same_spot`).
    Under 20 x 7 cells it says there is not enough room."""
    if not series or not series[0] or width < 20 or height < 7:
        return [Text("(not enough room for the chart)", style="dim")]
    ties = same_spot(series, width, height - 1)
    if ties:  # a line of its own says which seats' markers lie on one another
        note = Text(" " * (max(len(fmt_num(v)) for s in series for v in s) + 2), no_wrap=True, end="")
        note.append("on one spot: ", "dim")
        for i, (seats, hands) in enumerate(ties):
            if i:
                note.append(" · ", "dim")
            for j, s in enumerate(seats):
                if j:
                    note.append("=", "dim")
                note.append(str(s + 1), SEAT_STYLES[s % 4])
            note.append(f" ({_hand_ranges(hands)})", "dim")
        return chart_lines_plot(series, labels, width, height - 1, ascii) + [note]
    return chart_lines_plot(series, labels, width, height, ascii)


def _hand_ranges(hands: Sequence[int]) -> str:
    """``'hands 1-3, 5'`` / ``'hand 2'``: hand numbers as ranges."""
    parts, start = [], None
    for i, h in enumerate(hands):
        if start is None:
            start = h
        if i + 1 == len(hands) or hands[i + 1] != h + 1:
            parts.append(str(h) if h == start else f"{start}-{h}")
            start = None
    return ("hand " if len(hands) == 1 else "hands ") + ", ".join(parts)


def _scale(series: Sequence[Sequence[float]], width: int, height: int):
    """The plot's geometry: (lo, hi, y-label width, plot width, plot height, xy(i, v)); the
    plot leaves 3 lines under it: the x axis, its hand numbers and the legend."""
    values = [v for s in series for v in s]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    ylab = max(len(fmt_num(lo)), len(fmt_num(hi))) + 1
    plot_w = width - ylab - 1
    plot_h = height - 3  # x axis, hand numbers, legend
    n = len(series[0])

    def xy(i: int, v: float) -> tuple[int, int]:
        x = round(i * (plot_w - 1) / max(1, n - 1))
        y = round((hi - v) * (plot_h - 1) / (hi - lo))
        return x, y

    return lo, hi, ylab, plot_w, plot_h, xy


def y_labels(lo: float, hi: float, plot_h: int) -> dict[int, str]:
    """Row → label of the y axis: the top (``hi``), the bottom (``lo``), zero where it lies
    between, and round values between them (multiples of 1, 2, 2.5 or 5 × 10^k, about one in
    four rows, each on the row nearest to it), none on a row next to another label."""
    def row_of(v: float) -> int:
        return round((hi - v) * (plot_h - 1) / (hi - lo))

    labels = {0: fmt_num(hi), plot_h - 1: fmt_num(lo)}
    if lo < 0 < hi:
        labels[row_of(0)] = "0"
    want = max(1, (plot_h - 1) // 4)            # how many steps the axis can hold
    raw = (hi - lo) / want
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    v = math.ceil(lo / step) * step
    while v < hi:
        r = row_of(v)
        if all(abs(r - k) > 1 for k in labels):
            labels[r] = fmt_num(v)
        v += step
    return labels


def x_labels(n: int, plot_w: int, xy) -> list[tuple[int, str]]:
    """(column, hand number) under the x axis: every hand whose number fits with a space
    before the next, the last hand always (earlier ones give way to it)."""
    out: list[tuple[int, str]] = []
    for i in range(n):
        x = xy(i, 0)[0]
        lab = str(i)
        if out and out[-1][0] + len(out[-1][1]) + 1 > x:
            continue
        if x + len(lab) > plot_w:
            x = plot_w - len(lab)
        out.append((x, lab))
    last = (min(xy(n - 1, 0)[0], plot_w - len(str(n - 1))), str(n - 1))
    while out and out[-1][1] != last[1] and out[-1][0] + len(out[-1][1]) + 1 > last[0]:
        out.pop()
    if not out or out[-1][1] != last[1]:
        out.append(last)
    return out


def same_spot(series: Sequence[Sequence[float]], width: int, height: int) -> list[tuple[tuple[int, ...], list[int]]]:
    """Seats whose markers the chart of ``width`` x ``height`` draws on one cell after the
    start (where all begin level), so that only one of them shows: ``[((0, 3), [1, 2])]`` —
    seats 1 and 4 share their spot at hands 1 and 2."""
    if len(series) < 2 or len(series[0]) < 2:
        return []
    *_, xy = _scale(series, width, height)
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in range(1, len(series[0])):
        at: dict[tuple[int, int], list[int]] = {}
        for s, data in enumerate(series):
            at.setdefault(xy(i, data[i]), []).append(s)
        for seats in at.values():
            if len(seats) > 1:
                groups.setdefault(tuple(seats), []).append(i)
    return sorted(groups.items(), key=lambda kv: (kv[1][0], kv[0]))


def chart_lines_plot(series: Sequence[Sequence[float]], labels: Sequence[str], width: int, height: int,
                     ascii: bool = False) -> list[Text]:
    """:func:`chart_lines` without the note of markers on one spot: the plot (the y axis
    labelled at its ends, at zero and between, :func:`y_labels`; a dim line along zero), the
    x axis with the hand numbers under it (:func:`x_labels`), the legend."""
    lo, hi, ylab, plot_w, plot_h, xy = _scale(series, width, height)
    n = len(series[0])
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * plot_w for _ in range(plot_h)]
    ylabels = y_labels(lo, hi, plot_h)
    if lo < 0 < hi:   # a dim line along zero, under the seats' lines
        zero = round(hi * (plot_h - 1) / (hi - lo))
        grid[zero] = [("-" if ascii else "╌", "dim")] * plot_w

    dot = "." if ascii else "·"
    for s, data in enumerate(series):
        style = SEAT_STYLES[s % 4]
        for i in range(n - 1):
            (x0, y0), (x1, y1) = xy(i, data[i]), xy(i + 1, data[i + 1])
            steps = max(abs(x1 - x0), abs(y1 - y0), 1)
            for k in range(1, steps):
                x = round(x0 + (x1 - x0) * k / steps)
                y = round(y0 + (y1 - y0) * k / steps)
                if grid[y][x][0] in (" ", "-", "╌"):
                    grid[y][x] = (dot, style)
        for i, v in enumerate(data):
            x, y = xy(i, v)
            grid[y][x] = (str(s + 1), style)
    lines = []
    for r in range(plot_h):
        t = Text(no_wrap=True, end="")
        t.append(ylabels.get(r, "").rjust(ylab), "dim")
        t.append("|" if ascii else "│", "dim")
        for ch, st in grid[r]:
            t.append(ch, st)
        lines.append(t)
    axis = Text(" " * ylab + ("+" if ascii else "└") + ("-" if ascii else "─") * plot_w, style="dim", no_wrap=True)
    lines.append(axis)
    numbers = [" "] * plot_w
    for x, lab in x_labels(n, plot_w, xy):
        numbers[x:x + len(lab)] = list(lab)
    hands = Text(no_wrap=True, end="")
    hands.append(("hand" if ylab >= 4 else "").rjust(ylab) + " ", "dim")   # under the y labels, where it fits
    hands.append("".join(numbers).rstrip(), "dim")
    lines.append(hands)
    legend = Text(" " * (ylab + 1), no_wrap=True)
    for s, lab in enumerate(labels):
        if s:
            legend.append("  ")
        legend.append(f"{s + 1}", SEAT_STYLES[s % 4])
        legend.append(f" {lab}")
    lines.append(legend)
    return lines


class ScoreChart(Widget):
    """Widget around :func:`chart_lines`."""

    DEFAULT_CSS = """
    ScoreChart { height: 1fr; min-height: 8; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, series: Sequence[Sequence[float]], labels: Sequence[str], ascii: bool = False,
                 *, id: str | None = None):
        super().__init__(id=id)
        self.series = [list(s) for s in series]
        self.labels = list(labels)
        self.ascii = ascii

    def render(self) -> Text:
        size = self.content_size
        return join_lines(chart_lines(self.series, self.labels, size.width, size.height, self.ascii))
