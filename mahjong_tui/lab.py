"""The rule designer's lab (``mahjong-tui lab``, CLI.md "lab"): sweeps over variant options,
seat lists and seeds; bots play N hands in every cell of the grid and each cell's figures come
with 95 % intervals; the report is Markdown with SVG charts (:mod:`mahjong_tui.lab_report`),
JSON and CSV.

A cell's hands are played as *games*: tables of ``game_hands`` hands (the last one shorter),
game g of a cell seeded ``"{seed}/lab/{g}"``.  The seed does not depend on the options, so the
cells of one seed play the same walls wherever the options leave the tile set alone (common
random numbers: the difference between two settings is less blurred by the luck of the deal).
Games are independent pieces of work: they run here, in local worker processes or on a Dask
cluster (:func:`mahjong_tui.workers.run_ordered`), and each cell is added up in game order, so
the JSON is the same for every backend and worker count but for ``elapsed_s`` and ``hands_per_s``.

Intervals (:mod:`mahjong_tui.intervals`): a rate (k of n) by the Wilson score interval; a mean
by the normal approximation, mean ± 1.96·s/√n.  Hands of one game are treated as independent.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .errors import VariantError
from .intervals import mean_interval, spread, wilson

#: hands per game (a table of that many hands; the dealer and the prevailing wind move as in a match)
GAME_HANDS = 16


# ------------------------------------------------------------------------------------------
# the grid
# ------------------------------------------------------------------------------------------

def split_values(text: str) -> list[str]:
    """The comma-separated values of a ``--sweep`` item, commas inside ``[...]``, ``{...}``
    or quotes kept (``win.forms=["standard"],["standard","seven_pairs"]`` is two values)."""
    out, cur, depth, quote = [], [], 0, None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch in "[{":
            depth += 1
            cur.append(ch)
        elif ch in "]}":
            depth -= 1
            cur.append(ch)
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return out


@dataclass(frozen=True)
class Sweep:
    """One axis of the grid: a variant option (named, or ``SECTION.KEY``) and its values, as
    ``--option`` reads them (:func:`mahjong_tui.variant.parse_option_assignments`)."""

    key: str
    values: tuple
    texts: tuple[str, ...]


def parse_sweep(text: str) -> Sweep:
    """``"win.minimum=2.5,3,4,5"`` as a :class:`Sweep`.  Each value is read as ``--option
    KEY=VALUE`` reads it (one place: :func:`~mahjong_tui.variant.parse_option_assignments`).
    Raises :class:`VariantError` for an item without ``=``, a key or a value."""
    from .variant import parse_option_assignments

    key, eq, raw = text.partition("=")
    key = key.strip()
    if not eq or not key or not raw.strip():
        raise VariantError(f"--sweep {text!r}: expected KEY=VALUE,VALUE,..., e.g. win.minimum=2.5,3,4 "
                           f"or flowers=true,false")
    texts = split_values(raw)
    if any(not t for t in texts):
        raise VariantError(f"--sweep {text!r}: an empty value; give values separated by commas")
    values = tuple(parse_option_assignments([f"{key}={t}"])[key] for t in texts)
    return Sweep(key, values, tuple(texts))


@dataclass(frozen=True)
class Cell:
    """One cell of the grid: the sweep options (with the fixed ``--option`` ones), the seats and the seed."""

    index: int
    options: dict
    sweep: dict        # the swept keys' values only (``{"win.minimum": 3}``)
    seats: tuple[str, ...]
    seed: int

    def label(self, many_seats: bool, many_seeds: bool) -> str:
        from .variant import option_text

        parts = [f"{k}={option_text(v)}" for k, v in self.sweep.items()]
        if many_seats:
            parts.append(",".join(self.seats))
        if many_seeds:
            parts.append(f"seed {self.seed}")
        return " ".join(parts) or "as written"


def build_grid(variant_ref: str, sweeps: Sequence[Sweep], fixed: dict, seats: Sequence[Sequence[str]],
               seeds: Sequence[int]) -> list[Cell]:
    """Every combination of the sweeps' values, the seat lists and the seeds, in that order (the
    first sweep varies slowest, the seed fastest).  Each cell's variant is built at once, so a
    key or value the variant does not allow raises :class:`VariantError` before anything is
    played, naming the sweep item and what the variant allows."""
    from .variant import load_variant, option_text

    keys = [s.key for s in sweeps]
    if len(set(keys)) != len(keys):
        raise VariantError(f"--sweep: the key {next(k for k in keys if keys.count(k) > 1)!r} is swept twice; "
                           f"give its values in one --sweep")
    cells = []
    for combo in itertools.product(*(s.values for s in sweeps)):
        sweep = dict(zip(keys, combo))
        options = {**fixed, **sweep}
        for s, v in zip(sweeps, combo):
            try:
                load_variant(variant_ref, {**fixed, s.key: v})
            except VariantError as exc:
                raise VariantError(f"--sweep {s.key}={option_text(v)}: {exc}") from None
        try:
            load_variant(variant_ref, options)   # the combination as a whole
        except VariantError as exc:
            raise VariantError(f"the cell {' '.join(f'{k}={option_text(v)}' for k, v in sweep.items())}: {exc}") from None
        for st in seats:
            for seed in seeds:
                cells.append(Cell(len(cells), options, sweep, tuple(st), seed))
    return cells


# ------------------------------------------------------------------------------------------
# the work: games
# ------------------------------------------------------------------------------------------

def game_task(task: tuple) -> list[dict]:
    """One game of a cell (runs in a worker): ``(variant ref, options, seats, seed, game,
    hands)`` → the :func:`~mahjong_tui.sim.hand_record` of each hand, ``turns`` included."""
    from .ai import make_bot
    from .engine import Table
    from .sim import hand_record, play_match
    from .variant import load_variant

    ref, options, seats, seed, game, hands = task
    variant = load_variant(ref, options)
    s = f"{seed}/lab/{game}"
    table = Table(variant, s, hands=hands)
    bots = [make_bot(spec, variant, i, s) for i, spec in enumerate(seats)]
    discards: list[int] = []
    out: list[dict] = []
    play_match(table, bots, lambda h: out.append(hand_record(h, discards[h["hand"]])), hand_discards=discards)
    return out


def games_of(cell: Cell, variant_ref: str, hands: int, game_hands: int) -> list[tuple]:
    """The game tasks of ``cell``: ``hands`` hands in games of ``game_hands`` (the last shorter)."""
    return [(variant_ref, dict(cell.options), list(cell.seats), cell.seed, g, min(game_hands, hands - lo))
            for g, lo in enumerate(range(0, hands, game_hands))]


# ------------------------------------------------------------------------------------------
# a cell's figures
# ------------------------------------------------------------------------------------------

def _rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "of": n, "rate": round(k / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def _mean(values: Sequence[float]) -> dict:
    got = mean_interval(values)
    mean = math.fsum(values) / len(values) if values else 0.0
    return {"n": len(values), "mean": round(mean, 4), "sd": round(spread(values), 4),
            "ci95": [round(got[1], 4), round(got[2], 4)] if got else None}


def cell_figures(records: Sequence[dict]) -> dict:
    """The figures of one cell from its hands' records (in game order):

    - ``exhaustive_draws``: hands drawn, of all hands (rate, Wilson ci95);
    - ``wins_by_form``: per winning form, the wins in it, of all wins (a hand with two winners
      is two wins);
    - ``self_draw_share``: self-drawn wins, of all wins;
    - ``patterns``: per pattern id, the wins that scored it, of all wins;
    - ``value_won``: the value of each win in the variant's unit: ``mean``, ``sd`` (spread),
      ci95 of the mean;
    - ``turns``: the turns a hand took (its discards, and a self-drawer's last turn): mean, sd, ci95;
    - ``dealer``: ``win_rate`` (hands the dealer won, of all hands), ``non_dealer_win_rate``
      (wins of the other three, of three seats a hand), ``advantage`` (the first minus the
      second) and ``points_per_hand`` (the dealer's settled points a hand: mean, sd, ci95).
    """
    n = len(records)
    draws = sum(1 for r in records if r["result"] == "draw")
    wins = [w for r in records for w in r["winners"]]
    forms: Counter = Counter(w["form"] for w in wins)
    self_draws = sum(len(r["winners"]) for r in records if r["result"] == "win" and r["self_draw"])
    pattern_wins: Counter = Counter()
    for w in wins:
        for pid in {p["id"] for p in w["patterns"]}:
            pattern_wins[pid] += 1
    dealer_wins = sum(1 for r in records for w in r["winners"] if w["seat"] == r["dealer"])
    other_wins = len(wins) - dealer_wins
    dealer_rate = _rate(dealer_wins, n)
    other_rate = _rate(other_wins, 3 * n)
    return {
        "hands": n,
        "wins": len(wins),
        "exhaustive_draws": _rate(draws, n),
        "wins_by_form": {f: _rate(k, len(wins)) for f, k in sorted(forms.items())},
        "self_draw_share": _rate(self_draws, len(wins)),
        "patterns": {p: _rate(k, len(wins)) for p, k in sorted(pattern_wins.items())},
        "value_won": _mean([float(w["value"] or 0) for w in wins]),
        "turns": _mean([float(r["turns"]) for r in records]),
        "dealer": {"win_rate": dealer_rate, "non_dealer_win_rate": other_rate,
                   "advantage": round(dealer_rate["rate"] - other_rate["rate"], 4),
                   "points_per_hand": _mean([r["points"][r["dealer"]] for r in records])},
    }


# ------------------------------------------------------------------------------------------
# a run
# ------------------------------------------------------------------------------------------

@dataclass
class LabResult:
    """A lab run: what was asked and every cell's figures (:meth:`to_json`: CLI.md "lab")."""

    variant: str
    variant_name: str
    unit: str
    hands: int
    game_hands: int
    sweeps: list[Sweep]
    fixed: dict
    seats: list[list[str]]
    seeds: list[int]
    cells: list[Cell]
    figures: list[dict] = field(default_factory=list)
    elapsed_s: float = 0.0

    @property
    def total_hands(self) -> int:
        return self.hands * len(self.cells)

    def label(self, cell: Cell) -> str:
        return cell.label(len(self.seats) > 1, len(self.seeds) > 1)

    def to_json(self) -> dict:
        return {
            "variant": self.variant, "unit": self.unit, "hands_per_cell": self.hands, "game_hands": self.game_hands,
            "sweep": {s.key: list(s.values) for s in self.sweeps}, "options": dict(self.fixed),
            "seats": [list(s) for s in self.seats], "seeds": list(self.seeds),
            "cells": [{"cell": c.index, "label": self.label(c), "sweep": dict(c.sweep), "options": dict(c.options),
                       "seats": list(c.seats), "seed": c.seed, **f} for c, f in zip(self.cells, self.figures)],
            "elapsed_s": round(self.elapsed_s, 3),
            "hands_per_s": round(self.total_hands / self.elapsed_s, 1) if self.elapsed_s > 0 else 0.0,
        }


def run_lab(variant_ref: str, sweeps: Sequence[Sweep], fixed: dict, seats: Sequence[Sequence[str]],
            seeds: Sequence[int], hands: int, game_hands: int = GAME_HANDS, jobs: int = 1,
            cluster: str | None = None, progress: Callable[[int], None] | None = None,
            start: Callable[[], None] | None = None, stats: dict | None = None) -> LabResult:
    """Play the grid (:func:`build_grid`): ``hands`` hands a cell, in games of ``game_hands``,
    on ``jobs`` local processes or the Dask scheduler at ``cluster``.  ``progress(n)`` gets
    the hands played so far, ``start()`` is called once the workers run; ``stats`` gets the
    CPU seconds of the play (:func:`~mahjong_tui.workers.run_ordered`).  Raises
    :class:`VariantError` (a bad sweep or option), ValueError (fewer than one hand),
    :class:`~mahjong_tui.workers.WorkerError` (no cluster)."""
    from .variant import load_variant
    from .workers import run_ordered

    if hands < 1 or game_hands < 1:
        raise ValueError("a cell needs at least 1 hand, in games of at least 1 hand")
    cells = build_grid(variant_ref, sweeps, fixed, seats, seeds)
    base = load_variant(variant_ref, fixed)
    res = LabResult(base.id, base.name, str(base.scoring.get("unit", "")), hands, game_hands, list(sweeps),
                    dict(fixed), [list(s) for s in seats], list(seeds), cells)
    tasks, owner = [], []
    for cell in cells:
        for t in games_of(cell, variant_ref, hands, game_hands):
            tasks.append(t)
            owner.append(cell.index)
    done = [0]

    def on_done(_i: int, got: list) -> None:
        done[0] += len(got)
        if progress is not None:
            progress(done[0])

    t0 = time.perf_counter()
    results = run_ordered(game_task, tasks, jobs, on_done=on_done, cluster=cluster, start=start, stats=stats)
    res.elapsed_s = time.perf_counter() - t0
    by_cell: list[list[dict]] = [[] for _ in cells]
    for i, recs in zip(owner, results):
        by_cell[i].extend(recs)
    res.figures = [cell_figures(recs) for recs in by_cell]
    return res
