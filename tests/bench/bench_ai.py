"""Benchmark of the AI levels: time per decision and ``sim`` hands per second.

Run by hand: ``python tests/bench/bench_ai.py [--variants classic,yuxi,yangzhou,singapore,uzje] [--hands N]
[--seed S] [--levels baseline,easy,normal,strong] [--no-hands-per-s] [--slowest N]``.  Not a test: it prints figures and never
asserts on time (DESIGN.md "Conventions").  Goals (issue 7): ``ai:strong`` p95 under 100 ms per
decision; four ``ai:strong`` at least 50 hands/s; four baseline/normal bots 200 hands/s in
Classic is the engine issue's goal.

For each variant and level, four bots of that level play ``N`` hands from the seed:

- *decision time*: every ``choose(view, legal)`` call is timed (the engine's own ``view`` and
  ``legal_actions`` are not); median, p95 and max in milliseconds, over turn decisions and
  claim decisions together, and p95 of turn decisions alone; the same three in CPU time of
  this process (``cpu``: the work a decision takes, which the other programs of a busy
  machine do not inflate; on an idle machine the two agree); ``own max``: the CPU max over
  the decisions in which no full collection of Python's cyclic garbage collector (generation
  2, which walks every live object: 50-200 ms once the memo tables are large) began, and
  ``full gc`` how many decisions one fell in — the interpreter's pause, not the bot's work.
  Like the app (its table runner), ``sim`` and ``serve``, the pass freezes what outlived each
  hand at the hand's end (:mod:`mahjong_tui.ai.memory`), so such collections walk only the
  current hand's objects.  Issue 23's goal for
  ``ai:strong`` in every variant: median <= 2 ms, p95 <= 20 ms, max <= 100 ms;
- *hands/s*: another ``N`` hands (seed ``S + 1``) played through :func:`mahjong_tui.sim.simulate`
  (engine included) in the same process, after the timing pass: the bots' memo tables are as
  warm as in a long ``sim`` but hold none of these hands' positions (replaying the timing
  pass's own seed, as this script did before session 5, found most positions already memoised
  and overstated hands/s by about half);
- *engine only*: a seat that always discards its first legal tile or passes, for scale;
- ``--slowest N``: after each timing row, the ``N`` slowest decisions of its pass (CPU ms)
  with the part spent in the unit tables of :mod:`mahjong_tui.hand` (``HandShape`` table
  lookups and searches, ``_Suit.family``) and in the variant's scorer
  (``scoring.evaluate`` as the bots' value model calls it): where the time of the worst
  decisions goes (issue 23 item 4).  Its timers add a little to every decision of the pass.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong_tui.ai import make_bot  # noqa: E402
from mahjong_tui.ai.memory import hand_ended, match_ended  # noqa: E402
from mahjong_tui.engine import Table  # noqa: E402
from mahjong_tui.sim import play_match, simulate  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402


class _Trivial:
    """Engine-only reference seat: wins if it can, else passes / draws / discards the first tile."""

    def choose(self, view, legal):
        for kind in ("win", "pass", "draw"):
            for a in legal:
                if a.kind == kind:
                    return a
        return next(a for a in legal if a.kind == "discard")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class _Split:
    """CPU time spent in the unit tables and in the scorer, per decision (``--slowest``):
    wraps ``HandShape._unit_table`` (a table searched or looked up), ``_Suit.family`` (a key's
    table and its neighbours' at once) and the scorer the bots' value
    model calls (``mahjong_tui.ai.value.evaluate``) while installed; nested calls count once."""

    def __init__(self):
        self.tables = self.scorer = 0.0
        self._depth = {"tables": 0, "scorer": 0}
        self._undo = []

    def _wrap(self, owner, name, part):
        original = getattr(owner, name)

        def timed(*args, **kwargs):
            if self._depth[part]:
                return original(*args, **kwargs)
            self._depth[part] += 1
            c0 = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                setattr(self, part, getattr(self, part) + time.process_time() - c0)
                self._depth[part] -= 1

        setattr(owner, name, timed)
        self._undo.append((owner, name, original))

    def __enter__(self):
        from mahjong_tui import hand
        from mahjong_tui.ai import value
        self._wrap(hand.HandShape, "_unit_table", "tables")
        self._wrap(hand._Suit, "family", "tables")
        self._wrap(value, "evaluate", "scorer")
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)

    def take(self) -> tuple[float, float]:
        """(tables ms, scorer ms) since the last call."""
        got = (self.tables * 1000.0, self.scorer * 1000.0)
        self.tables = self.scorer = 0.0
        return got


def time_decisions(variant, level: str, hands: int, seed: int, slowest: int = 0) -> dict:
    """The timing pass; with ``slowest`` its timers of :class:`_Split` run too and the result
    has ``"slowest"``: the slowest decisions as ``(cpu ms, tables ms, scorer ms, hand index,
    phase)``, slowest first."""
    table = Table(variant, seed, hands=hands)
    bots = [make_bot(f"ai:{level}", variant, i, seed) for i in range(4)]
    all_t: list[float] = []
    turn_t: list[float] = []
    cpu_t: list[float] = []
    own_t: list[float] = []   # CPU time of the decisions no full collection fell in
    full = [0]

    def count_full(phase, info):
        if phase == "start" and info["generation"] == 2:
            full[0] += 1

    gc.callbacks.append(count_full)
    rows: list[tuple] = []
    try:
        if slowest:
            with _Split() as split:
                _play_timed(table, bots, all_t, turn_t, cpu_t, own_t, full, split, rows)
        else:
            _play_timed(table, bots, all_t, turn_t, cpu_t, own_t, full)
    finally:
        gc.callbacks.remove(count_full)
        match_ended()
    return {"slowest": sorted(rows, reverse=True)[:slowest],"decisions": len(all_t), "median_ms": statistics.median(all_t), "p95_ms": _pct(all_t, 0.95),
            "max_ms": max(all_t), "turn_p95_ms": _pct(turn_t, 0.95),
            "cpu_median_ms": statistics.median(cpu_t), "cpu_p95_ms": _pct(cpu_t, 0.95), "cpu_max_ms": max(cpu_t),
            "own_max_ms": max(own_t), "full_collections": len(cpu_t) - len(own_t)}


def _play_timed(table, bots, all_t, turn_t, cpu_t, own_t, full, split=None, rows=None) -> None:
    while table.phase != "match_over":
        seat = table.waiting_for()[0]
        view = table.view(seat)
        legal = table.legal_actions(seat)
        if split is not None:
            split.take()
        c0 = time.process_time()
        t0 = time.perf_counter()
        before = full[0]
        action = bots[seat].choose(view, legal)
        dt = (time.perf_counter() - t0) * 1000.0
        cpu = (time.process_time() - c0) * 1000.0
        cpu_t.append(cpu)
        if full[0] == before:
            own_t.append(cpu)
        all_t.append(dt)
        if split is not None:
            rows.append((cpu, *split.take(), table.hand_index, view["phase"]))
        if view["phase"] == "turn":
            turn_t.append(dt)
        hand = table.hand_index
        table.apply(action)
        if table.hand_index != hand or table.phase == "match_over":
            hand_ended()  # as the app's table runner and sim do (mahjong_tui.ai.memory)


def hands_per_s(variant, level: str, hands: int, seed: int) -> float:
    res = simulate(variant, hands, seed, [f"ai:{level}"] * 4)
    return res.hands_per_s


def engine_only(variant, hands: int, seed: int) -> float:
    table = Table(variant, seed, hands=hands)
    t0 = time.perf_counter()
    play_match(table, [_Trivial() for _ in range(4)])
    return hands / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="classic,yuxi,yangzhou,singapore,uzje")
    ap.add_argument("--levels", default="baseline,easy,normal,strong")
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-hands-per-s", dest="rate", action="store_false",
                    help="time the decisions only (no sim pass, no engine-only row)")
    ap.add_argument("--slowest", type=int, default=0, metavar="N",
                    help="also list the N slowest decisions of another timing pass, with their CPU ms "
                         "in the unit tables and in the scorer")
    args = ap.parse_args(argv)
    print(f"{'variant':<10}{'level':<10}{'decisions':>10}{'median ms':>11}{'p95 ms':>9}{'turn p95':>10}"
          f"{'max ms':>9}{'cpu med':>9}{'cpu p95':>9}{'cpu max':>9}{'own max':>9}{'full gc':>8}{'hands/s':>9}")
    for vid in args.variants.split(","):
        variant = load_variant(vid)
        if args.rate:
            print(f"{vid:<10}{'(engine)':<10}{'':>10}{'':>11}{'':>9}{'':>10}{'':>9}{'':>44}"
                  f"{engine_only(variant, args.hands, args.seed):>9.1f}")
        for level in args.levels.split(","):
            d = time_decisions(variant, level, args.hands, args.seed, args.slowest)
            hs = f"{hands_per_s(variant, level, args.hands, args.seed + 1):>9.1f}" if args.rate else ""
            print(f"{vid:<10}{level:<10}{d['decisions']:>10}{d['median_ms']:>11.2f}{d['p95_ms']:>9.2f}"
                  f"{d['turn_p95_ms']:>10.2f}{d['max_ms']:>9.1f}{d['cpu_median_ms']:>9.2f}{d['cpu_p95_ms']:>9.2f}"
                  f"{d['cpu_max_ms']:>9.1f}{d['own_max_ms']:>9.1f}{d['full_collections']:>8}{hs}", flush=True)
            if args.slowest:
                print(f"    {args.slowest} slowest ({vid}, {level}): cpu ms = tables + scorer + rest, hand, phase")
                for cpu, tab, sco, hand, phase in d["slowest"]:
                    print(f"    {cpu:8.1f} = {tab:7.1f} + {sco:7.1f} + {cpu - tab - sco:7.1f}   hand {hand:>3}  {phase}",
                          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
