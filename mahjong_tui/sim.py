"""Headless play: bots at every seat, hand after hand, and the statistics ``sim`` prints.

No asyncio: the loop asks each seat the table waits for, in seat order, and applies its answer.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from .ai import Bot, make_bot
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
               check: Callable[[Table], None] | None = None) -> None:
    """Let ``bots`` play ``table`` to the end of its match.  ``on_hand`` is called with each
    hand's summary; ``check`` (tests) after every action.  A seat whose only legal action is
    ``pass`` (:meth:`Table.forced_passes`) passes without its bot being asked.  Each bot is given
    :meth:`Table.lazy_view` (the view, built only as far as the bot reads it), so a bot must
    not keep the view past its decision.

    Raises RuntimeError if one hand takes more than :data:`MAX_DECISIONS_PER_HAND` decisions
    (seats passing a tile round for ever), rather than running without end."""
    seen = len(table.history)
    hand, steps = table.hand_index, 0
    while table.phase != "match_over":
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
        if h["result"] == "draw":
            res.exhaustive_draws += 1
        else:
            if len(h["winners"]) > 1:
                res.multiple_winner_hands += 1
            for w in h["winners"]:
                res.wins_by_seat[w["seat"]] += 1
                res.value_won_by_seat[w["seat"]] += float(w["value"] or 0)
                if h["self_draw"]:
                    res.self_draw_wins += 1
                    res.self_draws_by_seat[w["seat"]] += 1
                else:
                    res.discard_wins += 1
                for p in w["patterns"]:
                    res.patterns[p["id"]] += p["count"]
            if h["discarder"] is not None:
                res.deal_ins_by_seat[h["discarder"]] += 1
        if progress is not None:
            progress(h["hand"] + 1)
        # What outlived a hand (the bots' and the hand analysis' memo tables, the match record)
        # is long-lived: keep the cyclic collector from walking it again and again (full
        # collections of those tables took 150-230 ms each; four ai:strong in Yangzhou play
        # about 15 % more hands/s).  Objects still die by reference counting as usual.
        gc.freeze()

    t0 = time.perf_counter()
    try:
        play_match(table, bots, on_hand)
    finally:
        gc.unfreeze()  # hand them back to the collector
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
