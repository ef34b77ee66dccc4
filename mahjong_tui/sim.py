"""Headless play: bots at every seat, hand after hand, and the statistics ``sim`` prints.

No asyncio: the loop asks each seat the table waits for, in seat order, and applies its answer.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from .ai import Bot, make_bot
from .ai.memory import hand_ended, match_ended
from .engine import Table
from .variant import Variant


@dataclass
class SimResult:
    """Statistics of a run (the fields of ``sim --json`` in CLI.md)."""

    variant: str
    seed: int
    hands: int
    wins_by_seat: list[int] = field(default_factory=lambda: [0] * 4)
    self_draw_wins: int = 0
    discard_wins: int = 0
    exhaustive_draws: int = 0
    multiple_winner_hands: int = 0
    deal_ins_by_seat: list[int] = field(default_factory=lambda: [0] * 4)
    patterns: Counter = field(default_factory=Counter)
    final_scores: list[float] = field(default_factory=lambda: [0.0] * 4)
    elapsed_s: float = 0.0
    seats: list[str] = field(default_factory=lambda: ["ai"] * 4)
    self_draws_by_seat: list[int] = field(default_factory=lambda: [0] * 4)
    value_won_by_seat: list[float] = field(default_factory=lambda: [0.0] * 4)
    unit: str = ""
    #: the variant options played with (``--option``; :attr:`Variant.applied_options`)
    options: dict = field(default_factory=dict)

    # -- per-seat rates (issue 7) --------------------------------------------------------------
    @property
    def win_rate_by_seat(self) -> list[float]:
        """Share of hands each seat won (a multiple-winner hand counts for every winner)."""
        return [w / self.hands if self.hands else 0.0 for w in self.wins_by_seat]

    @property
    def deal_in_rate_by_seat(self) -> list[float]:
        """Share of hands in which each seat's discard (or robbed kong) was won on."""
        return [d / self.hands if self.hands else 0.0 for d in self.deal_ins_by_seat]

    @property
    def avg_value_won_by_seat(self) -> list[float]:
        """Mean value of each seat's wins, in the variant's unit (``unit``); 0 with no win."""
        return [v / w if w else 0.0 for v, w in zip(self.value_won_by_seat, self.wins_by_seat)]

    @property
    def exhaustive_draw_rate(self) -> float:
        return self.exhaustive_draws / self.hands if self.hands else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def add_hand(self, h: dict) -> None:
        """Count one hand: ``h`` is its summary (``Table.history``; :func:`hand_record` keeps
        the fields read here)."""
        if h["result"] == "draw":
            self.exhaustive_draws += 1
            return
        if len(h["winners"]) > 1:
            self.multiple_winner_hands += 1
        for w in h["winners"]:
            self.wins_by_seat[w["seat"]] += 1
            self.value_won_by_seat[w["seat"]] += float(w["value"] or 0)
            if h["self_draw"]:
                self.self_draw_wins += 1
                self.self_draws_by_seat[w["seat"]] += 1
            else:
                self.discard_wins += 1
            for p in w["patterns"]:
                self.patterns[p["id"]] += p["count"]
        if h["discarder"] is not None:
            self.deal_ins_by_seat[h["discarder"]] += 1

    def to_json(self) -> dict:
        return {
            "variant": self.variant, "seed": self.seed, "hands": self.hands,
            "wins_by_seat": self.wins_by_seat, "self_draw_wins": self.self_draw_wins,
            "discard_wins": self.discard_wins, "exhaustive_draws": self.exhaustive_draws,
            "multiple_winner_hands": self.multiple_winner_hands, "deal_ins_by_seat": self.deal_ins_by_seat,
            "patterns": dict(sorted(self.patterns.items())),
            "final_scores": [round(s, 4) for s in self.final_scores],
            "seats": list(self.seats), "unit": self.unit, "options": dict(self.options),
            "self_draws_by_seat": self.self_draws_by_seat,
            "win_rate_by_seat": [round(x, 4) for x in self.win_rate_by_seat],
            "deal_in_rate_by_seat": [round(x, 4) for x in self.deal_in_rate_by_seat],
            "avg_value_won_by_seat": [round(x, 3) for x in self.avg_value_won_by_seat],
            "exhaustive_draw_rate": round(self.exhaustive_draw_rate, 4),
            "elapsed_s": round(self.elapsed_s, 3), "hands_per_s": round(self.hands_per_s, 1),
        }


#: Decisions after which a single hand is declared stuck (a real hand needs a few hundred).
MAX_DECISIONS_PER_HAND = 5000


def play_match(table: Table, bots: list[Bot], on_hand: Callable[[dict], None] | None = None,
               check: Callable[[Table], None] | None = None, hand_discards: list[int] | None = None) -> None:
    """Let ``bots`` play ``table`` to the end of its match.  ``on_hand`` is called with each
    hand's summary; ``check`` (tests) after every action; ``hand_discards``, if given, is
    appended the number of discards made in each hand as it ends (before ``on_hand`` sees that
    hand: ``hand_discards[summary["hand"]]``).  A seat whose only legal action is
    ``pass`` (:meth:`Table.forced_passes`) passes without its bot being asked.  Each bot is given
    :meth:`Table.lazy_view` (the view, built only as far as the bot reads it), so a bot must
    not keep the view past its decision.

    Raises RuntimeError if one hand takes more than :data:`MAX_DECISIONS_PER_HAND` decisions
    (seats passing a tile round for ever), rather than running without end."""
    seen = len(table.history)
    hand, steps = table.hand_index, 0
    while table.phase != "match_over":
        discards = table.discards_made  # the action that ends a hand makes no discard
        forced = table.forced_passes()
        if forced:  # seats that can only pass are not asked (Table.forced_passes)
            table.pass_forced()
            if check is not None:
                check(table)
        else:
            for seat in table.waiting_for():
                view = table.lazy_view(seat)  # the same view, built as far as the bot reads it
                legal = table.legal_actions(seat)
                table.apply(bots[seat].choose(view, legal))
                if check is not None:
                    check(table)
                break
        if table.hand_index != hand:
            hand, steps = table.hand_index, 0
            if hand_discards is not None:
                hand_discards.append(discards)
        elif not forced:
            steps += 1
            if steps > MAX_DECISIONS_PER_HAND:
                raise RuntimeError(f"hand {hand} did not end after {MAX_DECISIONS_PER_HAND} decisions")
        if on_hand is not None:
            while seen < len(table.history):
                on_hand(table.history[seen])
                seen += 1


def simulate(variant: Variant, hands: int, seed: int, seats: list[str] | None = None,
             progress: Callable[[int], None] | None = None, log_path: str | None = None,
             variant_ref: str | None = None) -> SimResult:
    """Play ``hands`` hands of ``variant`` between bots from ``seed``; returns statistics.
    With ``log_path`` the game log is saved there (``mahjong-tui replay`` opens it), naming the
    variant as ``variant_ref`` (what the user gave ``--variant``; default the variant's id)."""
    seats = seats or ["ai"] * 4
    table = Table(variant, seed, hands=hands)
    bots = [make_bot(s, variant, i, seed) for i, s in enumerate(seats)]
    res = SimResult(variant.id, seed, hands, seats=list(seats), unit=str(variant.scoring.get("unit", "")),
                    options=dict(variant.applied_options))

    def on_hand(h: dict) -> None:
        res.add_hand(h)
        if progress is not None:
            progress(h["hand"] + 1)
        # What outlived a hand (the bots' and the hand analysis' memo tables, the match record)
        # is long-lived: keep the cyclic collector from walking it again and again (full
        # collections of those tables took 150-230 ms each; four ai:strong in Yangzhou play
        # about 15 % more hands/s).  Objects still die by reference counting as usual.
        hand_ended()

    t0 = time.perf_counter()
    try:
        play_match(table, bots, on_hand)
    finally:
        match_ended()  # hand them back to the collector
    res.elapsed_s = time.perf_counter() - t0
    res.final_scores = list(table.scores)
    if log_path is not None:
        from .engine.log import GameLog

        GameLog.for_table(table, variant_ref, seats).save(log_path)
    return res


def format_seat_table(res: SimResult) -> str:
    """A per-seat table for ``sim``'s text output: seat spec, wins, win rate and share of all
    wins (a draw-heavy variant caps the win rate, not the share), deal-ins and deal-in rate,
    self-draws, mean value won (variant unit), final score; then the exhaustive-draw rate.
    Plain text, one line per seat."""
    head = f"  {'seat':<12}{'wins':>7}{'win %':>8}{'share':>7}{'deal-ins':>10}{'deal-in %':>11}{'self-draws':>12}" \
           f"{'avg value':>11}{'score':>10}"
    lines = [head]
    all_wins = sum(res.wins_by_seat) or 1
    for i in range(4):
        spec = res.seats[i] if i < len(res.seats) else "?"
        score = res.final_scores[i]
        score_s = f"{score:.0f}" if float(score).is_integer() else f"{score:.2f}"
        lines.append(
            f"  {i + 1} {spec:<10}{res.wins_by_seat[i]:>7}{100 * res.win_rate_by_seat[i]:>7.1f}%"
            f"{100 * res.wins_by_seat[i] / all_wins:>6.1f}%"
            f"{res.deal_ins_by_seat[i]:>10}{100 * res.deal_in_rate_by_seat[i]:>10.1f}%"
            f"{res.self_draws_by_seat[i]:>12}{res.avg_value_won_by_seat[i]:>11.2f}{score_s:>10}")
    lines.append(f"  exhaustive draws: {res.exhaustive_draws} of {res.hands} hands "
                 f"({100 * res.exhaustive_draw_rate:.1f}%)" + (f"; values in {res.unit}" if res.unit else ""))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------
# duplicate play (sim --duplicate) and worker processes (sim --jobs)
# ------------------------------------------------------------------------------------------

def hand_record(h: dict, discards: int | None = None) -> dict:
    """The part of a hand summary (``Table.history``) that the statistics read, small enough to
    send back from a worker process: ``hand``, ``dealer``, ``result``, ``self_draw``,
    ``discarder``, ``winners`` (each ``seat``, ``value``, ``form``, ``patterns``), ``points``
    (each seat's settled points of the hand, instant payments included: ``deltas`` +
    ``instant_deltas``, in the variant's unit of settlement) and, when ``discards`` is given,
    ``turns``: the turns the hand took (its discards, and the winner's last turn of a
    self-draw)."""
    rec = {
        "hand": h["hand"], "dealer": h["dealer"], "result": h["result"], "self_draw": h["self_draw"],
        "discarder": h["discarder"],
        "winners": [{"seat": w["seat"], "value": w["value"], "form": w["form"], "patterns": w["patterns"]}
                    for w in h["winners"]],
        "points": [float(d) + float(i) for d, i in zip(h["deltas"], h["instant_deltas"])],
    }
    if discards is not None:
        rec["turns"] = discards + (1 if h["result"] == "win" and h["self_draw"] else 0)
    return rec


def deal_seed(seed: int | str, deal: int) -> str:
    """The table seed of deal ``deal`` (0-based) of a duplicate run from ``seed``: the same
    for the four rotations, so they play the same wall."""
    return f"{seed}/deal/{deal}"


def rotated(seats: list[str], rotation: int) -> list[str]:
    """The seat list of rotation ``rotation`` (0..3): the level listed at ``j`` sits at table
    seat ``(j + rotation) % 4`` (rotation 0 is ``seats`` itself)."""
    return [seats[(i - rotation) % 4] for i in range(4)]


def play_deal(variant: Variant, seed: int | str, deal: int, seats: list[str],
              on_table: Callable[[int, Table], None] | None = None) -> list[dict]:
    """Play deal ``deal`` of a duplicate run four times, the seat list rotated one step each
    time (:func:`rotated`): one hand each, on a one-hand table of seed :func:`deal_seed`, so
    the wall, the dice and the first dealer are the same and every level sits at every seat.
    Bots are seeded by the deal too.  Returns one :func:`hand_record` per rotation, with
    ``deal``, ``rotation`` and ``seating`` (the seat specs by table seat) added.
    ``on_table(rotation, table)`` (tests) sees each table before its first move."""
    out = []
    for r in range(4):
        seating = rotated(seats, r)
        rec = play_deal_hand(variant, seed, deal, seating,
                             None if on_table is None else (lambda table, r=r: on_table(r, table)))
        rec.update(deal=deal, rotation=r, seating=seating)
        out.append(rec)
    return out


def play_deal_hand(variant: Variant, seed: int | str, deal: int, seating: list[str],
                   on_table: Callable[[Table], None] | None = None) -> dict:
    """One hand of deal ``deal`` of a run from ``seed`` with the bots ``seating`` (seat specs by
    table seat): a one-hand table of seed :func:`deal_seed`, bots seeded by it too, so every
    seating of a deal plays the same wall.  Returns its :func:`hand_record` (``turns``
    included).  ``on_table(table)`` (tests) sees the table before its first move."""
    s = deal_seed(seed, deal)
    table = Table(variant, s, hands=1)
    if on_table is not None:
        on_table(table)
    bots = [make_bot(spec, variant, i, s) for i, spec in enumerate(seating)]
    got: list[dict] = []
    discards: list[int] = []
    play_match(table, bots, got.append, hand_discards=discards)
    return hand_record(got[0], discards[0])


def deal_pieces(deals: int, jobs: int) -> list[tuple[int, int]]:
    """The ``(first deal, end deal)`` pieces a duplicate run is handed out in, in deal order:
    at most 8 deals (about a second each: the progress bar moves), and with several workers
    shrinking toward the end (a piece is at most a quarter of the deals left per worker), so
    the workers finish together instead of one waiting for the other's last large piece."""
    out = []
    lo = 0
    while lo < deals:
        left = deals - lo
        size = max(1, min(8, left, left // (4 * jobs) if jobs > 1 else deals // 8))
        out.append((lo, lo + size))
        lo += size
    return out


def _deals_task(task: tuple) -> list[list[dict]]:
    """A worker's piece of a duplicate run: ``(variant path, options, seed, seats, first deal,
    end deal)`` → :func:`play_deal` of each deal in order."""
    from .variant import load_variant

    ref, options, seed, seats, lo, hi = task
    variant = load_variant(ref, options)
    return [play_deal(variant, seed, d, seats) for d in range(lo, hi)]


def paired_difference(a_points: list[float], b_points: list[float]) -> dict:
    """``points_per_hand_diff`` and ``ci95`` of ``sim --duplicate``'s ``paired``: per deal,
    level a's points per hand minus level b's (``a_points[d]``, ``b_points[d]``), then the
    mean of those differences over the deals with a 95 % interval by the normal
    approximation over deals, mean ± 1.96·s/√n (``s`` the sample standard deviation of the
    per-deal differences, n the deals: :func:`mahjong_tui.intervals.mean_interval`).  The deals
    are independent (each its own wall); the hands within a deal are not, which is why the
    interval is taken over deals.  ``ci95`` is None with fewer than two deals."""
    from .intervals import mean_interval

    diffs = [a - b for a, b in zip(a_points, b_points)]
    got = mean_interval(diffs)
    mean = (math.fsum(diffs) / len(diffs)) if diffs else 0.0
    return {"deals": len(diffs), "points_per_hand_diff": round(mean, 4),
            "ci95": [round(got[1], 4), round(got[2], 4)] if got else None}


@dataclass
class DuplicateResult:
    """A ``sim --duplicate`` run: ``sim`` counts every hand played by table seat, as a plain
    run does (``hands`` = 4 × ``deals``; ``final_scores`` = the start score plus each table
    seat's points over all the hands); ``levels`` are the distinct seat specs of ``--seats``
    in the order first listed, ``by_level`` and ``paired`` their statistics (CLI.md)."""

    sim: SimResult
    deals: int
    levels: list[str]
    by_level: dict[str, dict]
    paired: list[dict]

    def to_json(self) -> dict:
        out = self.sim.to_json()
        out["deals"] = self.deals
        out["by_level"] = self.by_level
        out["paired"] = self.paired
        return out


def duplicate_statistics(seats: list[str], deals: list[list[dict]]) -> tuple[dict, list[dict]]:
    """``(by_level, paired)`` of ``sim --duplicate`` from the hand records of each deal
    (:func:`play_deal`).  ``by_level[level]``: ``hands`` (hands played by that level, a seat a
    hand), ``wins``, ``deal_ins``, their rates per hand played, ``share_of_wins`` and
    ``share_of_deal_ins`` (of all wins and deal-ins of the run) and ``points_per_hand``;
    ``paired``: the first level against each other level (:func:`paired_difference`)."""
    levels = list(dict.fromkeys(seats))
    hands = dict.fromkeys(levels, 0)
    wins = dict.fromkeys(levels, 0)
    deal_ins = dict.fromkeys(levels, 0)
    points = dict.fromkeys(levels, 0.0)
    per_deal: dict[str, list[float]] = {lv: [] for lv in levels}
    for deal in deals:
        in_deal = dict.fromkeys(levels, 0.0)
        played = dict.fromkeys(levels, 0)
        for rec in deal:
            seating = rec["seating"]
            for s, lv in enumerate(seating):
                hands[lv] += 1
                played[lv] += 1
                in_deal[lv] += rec["points"][s]
            for w in rec["winners"]:
                wins[seating[w["seat"]]] += 1
            if rec["result"] == "win" and rec["discarder"] is not None:
                deal_ins[seating[rec["discarder"]]] += 1
        for lv in levels:
            points[lv] += in_deal[lv]
            per_deal[lv].append(in_deal[lv] / played[lv])
    all_wins, all_deal_ins = sum(wins.values()), sum(deal_ins.values())
    by_level = {lv: {
        "hands": hands[lv], "wins": wins[lv], "deal_ins": deal_ins[lv],
        "win_rate": round(wins[lv] / hands[lv], 4) if hands[lv] else 0.0,
        "deal_in_rate": round(deal_ins[lv] / hands[lv], 4) if hands[lv] else 0.0,
        "share_of_wins": round(wins[lv] / all_wins, 4) if all_wins else 0.0,
        "share_of_deal_ins": round(deal_ins[lv] / all_deal_ins, 4) if all_deal_ins else 0.0,
        "points_per_hand": round(points[lv] / hands[lv], 4) if hands[lv] else 0.0,
    } for lv in levels}
    a = levels[0]
    paired = [{"a": a, "b": b, **paired_difference(per_deal[a], per_deal[b])} for b in levels[1:]]
    return by_level, paired


def simulate_duplicate(variant: Variant, deals: int, seed: int, seats: list[str], jobs: int = 1,
                       progress: Callable[[int], None] | None = None,
                       start: Callable[[], None] | None = None, stats: dict | None = None) -> DuplicateResult:
    """``sim --duplicate``: ``deals`` deals, each played four times with the seat list rotated
    (:func:`play_deal`), in ``jobs`` worker processes (1: in this process;
    :func:`mahjong_tui.workers.run_ordered`).  Every statistic is added up in deal order, so the
    result is the same for every ``jobs``; only ``elapsed_s`` differs.  ``progress(n)`` is
    called with the hands played so far, ``start()`` once the workers run; ``stats`` gets the
    CPU seconds of the play (:func:`~mahjong_tui.workers.run_ordered`).  Raises ValueError
    for fewer than one deal."""
    from .workers import run_ordered

    if deals < 1:
        raise ValueError(f"a duplicate run needs at least 1 deal, got {deals}")
    res = SimResult(variant.id, seed, 4 * deals, seats=list(seats), unit=str(variant.scoring.get("unit", "")),
                    options=dict(variant.applied_options))
    options = dict(variant.applied_options)
    tasks = [(variant.path, options, seed, list(seats), lo, hi) for lo, hi in deal_pieces(deals, jobs)]
    done = [0]

    def on_done(_i: int, got: list) -> None:
        done[0] += 4 * len(got)
        if progress is not None:
            progress(done[0])

    t0 = time.perf_counter()
    chunks = run_ordered(_deals_task, tasks, jobs, on_done=on_done, start=start, stats=stats)
    res.elapsed_s = time.perf_counter() - t0
    played = [deal for chunk in chunks for deal in chunk]
    start_score = float(variant.match["start_score"])
    totals = [0.0] * 4
    for deal in played:
        for rec in deal:
            res.add_hand(rec)
            for s in range(4):
                totals[s] += rec["points"][s]
    res.final_scores = [start_score + t for t in totals]
    by_level, paired = duplicate_statistics(list(seats), played)
    return DuplicateResult(res, deals, list(by_level), by_level, paired)


def format_level_table(dup: DuplicateResult) -> str:
    """``sim --duplicate``'s text: one row per level (hands, wins, win %, share of wins,
    deal-ins, deal-in %, share of deal-ins, points per hand), then each pairing's difference of
    points per hand with its 95 % interval over deals."""
    lines = [f"  {'level':<12}{'hands':>7}{'wins':>7}{'win %':>8}{'share':>7}{'deal-ins':>10}"
             f"{'deal-in %':>11}{'share':>7}{'points/hand':>13}"]
    for lv, b in dup.by_level.items():
        lines.append(f"  {lv:<12}{b['hands']:>7}{b['wins']:>7}{100 * b['win_rate']:>7.1f}%"
                     f"{100 * b['share_of_wins']:>6.1f}%{b['deal_ins']:>10}{100 * b['deal_in_rate']:>10.1f}%"
                     f"{100 * b['share_of_deal_ins']:>6.1f}%{b['points_per_hand']:>13.3f}")
    for p in dup.paired:
        ci = (f"95% interval [{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]" if p["ci95"] is not None
              else "no interval with one deal")
        lines.append(f"  {p['a']} - {p['b']}: {p['points_per_hand_diff']:+.3f} points per hand over "
                     f"{p['deals']} deals, {ci}")
    return "\n".join(lines)
