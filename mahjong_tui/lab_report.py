"""The lab's report (``mahjong-tui lab --out DIR``, CLI.md "lab"): ``report.md`` with SVG charts
beside it, ``cells.json`` and ``cells.csv``; and the text table ``lab`` prints.

The charts are plain SVG written here (horizontal bars, one row per cell, a whisker for the
95 % interval): a few lines of text each, readable in any browser and on GitHub, with no
plotting library to install.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from html import escape
from pathlib import Path

from .lab import LabResult

#: bar colours of the series of one chart (distinguishable in colour-blind palettes: Okabe-Ito)
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")


def _num(x: float, percent: bool) -> str:
    if percent:
        return f"{100 * x:.1f}%"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


def _tick(x: float, percent: bool) -> str:
    return f"{100 * x:g}%" if percent else f"{x:g}"


def _nice_step(raw: float) -> float:
    """The least of 1, 2, 2.5, 5 × 10^k that is at least ``raw`` (> 0): a tick step."""
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw - 1e-12)


def hbar_chart(title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float],
               Sequence[Sequence[float] | None]]], percent: bool = False, axis: str = "") -> str:
    """An SVG chart: one row of bars per label, one bar per series ``(name, values,
    intervals)`` with its 95 % interval as a whisker (an interval may be None).  Values are
    fractions shown as % where ``percent``; the scale starts at 0 (or at the least value
    when some are negative) and ends at the greatest interval end."""
    n_series = len(series)
    bar_h, gap = 14, 10
    row_h = n_series * bar_h + gap
    left, width, top = min(360, 24 + 8 * max((len(s) for s in labels), default=10)), 420, 48
    legend_h = 20 if n_series > 1 else 0
    height = top + legend_h + row_h * len(labels) + 30
    ends = [x for _, vals, cis in series for v, ci in zip(vals, cis) for x in ([v] + (list(ci) if ci else []))]
    lo = min(0.0, min(ends, default=0.0))
    hi = max(ends, default=1.0)
    if hi <= lo:
        hi = lo + 1.0
    step = _nice_step((hi - lo) / 4)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    ticks = [lo + k * step for k in range(round((hi - lo) / step) + 1)]

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * width

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-size="15" font-weight="bold">{escape(title)}</text>']
    if axis:
        out.append(f'<text x="10" y="38" fill="#555">{escape(axis)}</text>')
    y0 = top
    if n_series > 1:
        lx = left
        for k, (name, _, _) in enumerate(series):
            out.append(f'<rect x="{lx}" y="{y0}" width="12" height="12" fill="{COLOURS[k % len(COLOURS)]}"/>')
            out.append(f'<text x="{lx + 16}" y="{y0 + 10}">{escape(name)}</text>')
            lx += 24 + 7 * len(name)
        y0 += legend_h
    for v in ticks:
        out.append(f'<line x1="{x(v):.1f}" y1="{y0 - 4}" x2="{x(v):.1f}" y2="{y0 + row_h * len(labels)}" stroke="#ddd"/>')
        out.append(f'<text x="{x(v):.1f}" y="{y0 + row_h * len(labels) + 16}" text-anchor="middle" fill="#555">'
                   f'{_tick(round(v, 10), percent)}</text>')
    for i, label in enumerate(labels):
        ry = y0 + i * row_h
        out.append(f'<text x="{left - 8}" y="{ry + n_series * bar_h / 2 + 4:.1f}" text-anchor="end">{escape(label)}</text>')
        for k, (name, vals, cis) in enumerate(series):
            v, ci = vals[i], cis[i]
            by = ry + k * bar_h
            x0, x1 = sorted((x(0.0 if lo <= 0 <= hi else lo), x(v)))
            out.append(f'<rect x="{x0:.1f}" y="{by + 1}" width="{max(x1 - x0, 0.5):.1f}" height="{bar_h - 2}" '
                       f'fill="{COLOURS[k % len(COLOURS)]}"><title>{escape(name)}: {_num(v, percent)}</title></rect>')
            if ci:
                cy = by + bar_h / 2
                out.append(f'<line x1="{x(ci[0]):.1f}" y1="{cy}" x2="{x(ci[1]):.1f}" y2="{cy}" stroke="black"/>')
                for e in ci:
                    out.append(f'<line x1="{x(e):.1f}" y1="{cy - 4}" x2="{x(e):.1f}" y2="{cy + 4}" stroke="black"/>')
            tx = x(max([v] + (list(ci) if ci else []))) + 4
            out.append(f'<text x="{tx:.1f}" y="{by + bar_h - 3}" fill="#333">{_num(v, percent)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def charts(res: LabResult) -> dict[str, str]:
    """The report's charts: file name → SVG text."""
    labels = [res.label(c) for c in res.cells]
    f = res.figures

    def rate(key: str) -> tuple[list[float], list]:
        return [c[key]["rate"] for c in f], [c[key]["ci95"] for c in f]

    def mean(key: str, sub: str | None = None) -> tuple[list[float], list]:
        got = [c[key][sub] if sub else c[key] for c in f]
        return [g["mean"] for g in got], [g["ci95"] for g in got]

    out = {
        "exhaustive_draws.svg": hbar_chart("Exhaustive draws", labels, [("exhaustive-draw rate", *rate("exhaustive_draws"))],
                                           percent=True, axis="share of hands ending drawn; whiskers: 95 % interval"),
        "self_draw_share.svg": hbar_chart("Self-draw share", labels, [("self-drawn wins", *rate("self_draw_share"))],
                                          percent=True, axis="share of wins that were self-drawn"),
        "value_won.svg": hbar_chart("Value won", labels, [("mean value of a win", *mean("value_won"))],
                                    axis=f"mean value of a win, in {res.unit or 'the variant unit'}"),
        "turns.svg": hbar_chart("Hand length", labels, [("turns a hand", *mean("turns"))],
                                axis="mean turns a hand took (discards, and a self-drawer's last turn)"),
        "dealer.svg": hbar_chart("Dealer's advantage", labels, [
            ("dealer", [c["dealer"]["win_rate"]["rate"] for c in f], [c["dealer"]["win_rate"]["ci95"] for c in f]),
            ("each other seat", [c["dealer"]["non_dealer_win_rate"]["rate"] for c in f],
             [c["dealer"]["non_dealer_win_rate"]["ci95"] for c in f])],
            percent=True, axis="win rate per hand: the dealer against each other seat"),
    }
    forms = sorted({k for c in f for k in c["wins_by_form"]})
    if forms:
        empty = {"rate": 0.0, "ci95": None}
        out["wins_by_form.svg"] = hbar_chart("Wins by form", labels, [
            (form, [c["wins_by_form"].get(form, empty)["rate"] for c in f],
             [c["wins_by_form"].get(form, empty)["ci95"] for c in f]) for form in forms],
            percent=True, axis="wins in each form, of all wins")
    return out


def _ci(r: dict, percent: bool = True) -> str:
    v = r["rate"] if "rate" in r else r["mean"]
    ci = r.get("ci95")
    if ci is None:
        return _num(v, percent)
    return f"{_num(v, percent)} ({_num(ci[0], percent)}–{_num(ci[1], percent)})"


def summary_rows(res: LabResult) -> tuple[list[str], list[list[str]]]:
    """The headline table: one row a cell (shared by the text output and the Markdown)."""
    head = ["cell", "hands", "exhaustive draws", "self-draw share", f"value won ({res.unit})", "turns",
            "dealer wins", "other seat wins", "dealer points/hand"]
    rows = []
    for c, f in zip(res.cells, res.figures):
        rows.append([res.label(c), str(f["hands"]), _ci(f["exhaustive_draws"]), _ci(f["self_draw_share"]),
                     _ci(f["value_won"], False), _ci(f["turns"], False), _ci(f["dealer"]["win_rate"]),
                     _ci(f["dealer"]["non_dealer_win_rate"]), _ci(f["dealer"]["points_per_hand"], False)])
    return head, rows


def text_table(res: LabResult) -> str:
    """``lab``'s text output: the headline table in aligned columns."""
    head, rows = summary_rows(res)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = lambda r: "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths)))  # noqa: E731
    return "\n".join([fmt(head), *(fmt(r) for r in rows)])


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def markdown(res: LabResult, command: str, chart_files: Sequence[str], top_patterns: int = 15) -> str:
    """``report.md``: what was run, the headline table, the charts, wins by form, the most
    frequent patterns, and how to read the intervals."""
    from .variant import option_assignments

    sweeps = "; ".join(f"{s.key} = {', '.join(s.texts)}" for s in res.sweeps) or "none"
    fixed = ", ".join(option_assignments(res.fixed)) or "none"
    parts = [
        f"# Lab: {res.variant_name}",
        "",
        f"`{command}`",
        "",
        f"- swept: {sweeps}",
        f"- fixed options: {fixed}",
        f"- seats: {' | '.join(','.join(s) for s in res.seats)}; seeds: {', '.join(map(str, res.seeds))}",
        f"- {res.hands} hands a cell, in games of {res.game_hands} hands ({len(res.cells)} cells, "
        f"{res.total_hands} hands); values in {res.unit}",
        "",
        "Each figure is followed by its 95 % interval. Where two cells' intervals do not overlap, the "
        "difference is very unlikely to be the luck of the deal; where they overlap, play more hands "
        "(`--hands`) before reading anything into it. The cells of one seed play the same walls "
        "wherever the options leave the tile set alone.",
        "",
        "## Headline figures",
        "",
        _md_table(*summary_rows(res)),
        "",
    ]
    titles = {"exhaustive_draws.svg": "Exhaustive draws", "self_draw_share.svg": "Self-draw share",
              "value_won.svg": "Value won", "turns.svg": "Hand length", "dealer.svg": "Dealer's advantage",
              "wins_by_form.svg": "Wins by form"}
    for name in chart_files:
        parts += [f"![{titles.get(name, name)}]({name})", ""]
    forms = sorted({k for f in res.figures for k in f["wins_by_form"]})
    if forms:
        parts += ["## Wins by form (share of wins)", "",
                  _md_table(["cell", *forms], [[res.label(c), *(_ci(f["wins_by_form"][k]) if k in f["wins_by_form"]
                                                              else "0" for k in forms)]
                                              for c, f in zip(res.cells, res.figures)]), ""]
    totals: dict[str, int] = {}
    for f in res.figures:
        for p, r in f["patterns"].items():
            totals[p] = totals.get(p, 0) + r["count"]
    top = sorted(totals, key=lambda p: (-totals[p], p))[:top_patterns]
    if top:
        parts += [f"## Patterns (share of wins that scored each; the {len(top)} most frequent)", "",
                  _md_table(["pattern", *(res.label(c) for c in res.cells)],
                            [[p, *(_ci(f["patterns"][p]) if p in f["patterns"] else "0" for f in res.figures)]
                             for p in top]), ""]
    parts += [
        "## How the figures are counted",
        "",
        "- *exhaustive draws*: hands that ended with the wall exhausted, of all hands;",
        "- *self-draw share*: self-drawn wins, of all wins; *value won*: a win's value in the variant's "
        "unit (mean; the JSON and CSV also give its spread, `sd`);",
        "- *turns*: the turns a hand took: its discards, and a self-drawer's winning turn;",
        "- *dealer wins* / *other seat wins*: hands won by the dealer, of all hands / wins of the "
        "three other seats, of three seats a hand: their difference is the dealer's advantage; "
        "*dealer points/hand*: the dealer's settled points a hand;",
        "- intervals: a rate by the Wilson score interval, a mean by mean ± 1.96 · s / √n.",
        "",
        "Every cell, with every form and pattern, is in `cells.json` and `cells.csv`.",
        "",
    ]
    return "\n".join(parts)


def csv_text(res: LabResult) -> str:
    """``cells.csv``: one row a cell; every rate with ``_lo`` and ``_hi`` (its 95 % interval),
    every mean with ``_sd``, ``_lo`` and ``_hi``; forms as ``form:NAME``, patterns as
    ``pattern:ID`` (share of hands / of wins)."""
    forms = sorted({k for f in res.figures for k in f["wins_by_form"]})
    pats = sorted({k for f in res.figures for k in f["patterns"]})
    keys = [s.key for s in res.sweeps]
    head = ["cell", "label", *keys, "seats", "seed", "hands", "wins"]
    rates = ["exhaustive_draws", "self_draw_share", "dealer_win_rate", "non_dealer_win_rate"]
    means = ["value_won", "turns", "dealer_points_per_hand"]
    for r in rates:
        head += [r, f"{r}_lo", f"{r}_hi"]
    head.append("dealer_advantage")
    for m in means:
        head += [m, f"{m}_sd", f"{m}_lo", f"{m}_hi"]
    head += [f"form:{k}" for k in forms] + [f"pattern:{k}" for k in pats]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(head)
    from .variant import option_text

    for c, f in zip(res.cells, res.figures):
        d = f["dealer"]
        row = [c.index, res.label(c), *(option_text(c.sweep[k]) for k in keys), ",".join(c.seats), c.seed,
               f["hands"], f["wins"]]
        for r in (f["exhaustive_draws"], f["self_draw_share"], d["win_rate"], d["non_dealer_win_rate"]):
            row += [r["rate"], *(r["ci95"])]
        row.append(d["advantage"])
        for m in (f["value_won"], f["turns"], d["points_per_hand"]):
            row += [m["mean"], m["sd"], *(m["ci95"] if m["ci95"] else ("", ""))]
        row += [f["wins_by_form"][k]["rate"] if k in f["wins_by_form"] else 0.0 for k in forms]
        row += [f["patterns"][k]["rate"] if k in f["patterns"] else 0.0 for k in pats]
        w.writerow(row)
    return buf.getvalue()


def write_report(res: LabResult, out_dir: str | Path, command: str) -> list[Path]:
    """Write ``report.md``, its SVG charts, ``cells.json`` (the :meth:`LabResult.to_json`
    object) and ``cells.csv`` into ``out_dir`` (made if missing); returns the files written.
    Raises OSError when the folder cannot be written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    svgs = charts(res)
    for name, text in svgs.items():
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    (out / "report.md").write_text(markdown(res, command, list(svgs)), encoding="utf-8")
    (out / "cells.json").write_text(json.dumps(res.to_json(), indent=1) + "\n", encoding="utf-8")
    (out / "cells.csv").write_text(csv_text(res), encoding="utf-8")
    written += [out / "report.md", out / "cells.json", out / "cells.csv"]
    return written
