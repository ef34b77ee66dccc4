"""The acceptance experiment of issue 7, printed as Markdown tables.

Run by hand: ``python tests/bench/ai_acceptance.py [--hands 2000] [--seed 1]
[--variants classic,yuxi,yangzhou,singapore,uzje] [--parts strong,normal] [--seeds 2,3,4] [--json out.json]``.
Not a test (it takes minutes).  ``--parts`` runs only one of the two experiments; ``--seeds``
plays ``--hands`` hands from each seed and pools them (iterating on several small runs guards
against tuning to one seed; the figures of record are one 2,000-hand run from seed 1).

For each variant, with ``sim``'s own :func:`~mahjong_tui.sim.simulate` and the given seed:

1. one ``ai:strong`` (seat 1, East of the first hand) against three ``ai:easy`` — the strong
   seat's win rate (share of hands it won), its share of all wins, its deal-in rate against
   the easy seats' mean and against its share of all deal-ins, mean value of its wins;
2. four ``ai:normal`` — the exhaustive-draw rate, win and deal-in rates per seat.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong_tui.sim import simulate  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _row_b(v, b) -> str:
    return (f"| {v.name} | {b.hands} | **{pct(b.exhaustive_draw_rate)}** | "
            f"{' / '.join(pct(x) for x in b.win_rate_by_seat)} | {' / '.join(pct(x) for x in b.deal_in_rate_by_seat)} | "
            f"{pct(b.self_draw_wins / max(1, b.self_draw_wins + b.discard_wins))} | "
            f"{sum(b.avg_value_won_by_seat) / 4:.1f} {b.unit} | {b.multiple_winner_hands} | {b.hands_per_s:.1f} |")


def _pooled(results):
    """A new SimResult adding up the counts of several runs (seed: the first); the runs'
    own results are left as they are."""
    out = copy.deepcopy(results[0])
    for r in results[1:]:
        out.hands += r.hands
        out.self_draw_wins += r.self_draw_wins
        out.discard_wins += r.discard_wins
        out.exhaustive_draws += r.exhaustive_draws
        out.multiple_winner_hands += r.multiple_winner_hands
        out.elapsed_s += r.elapsed_s
        out.patterns.update(r.patterns)
        for i in range(4):
            out.wins_by_seat[i] += r.wins_by_seat[i]
            out.deal_ins_by_seat[i] += r.deal_ins_by_seat[i]
            out.self_draws_by_seat[i] += r.self_draws_by_seat[i]
            out.value_won_by_seat[i] += r.value_won_by_seat[i]
            out.final_scores[i] += r.final_scores[i]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="classic,yuxi,yangzhou,singapore,uzje")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="also write the raw sim results here")
    ap.add_argument("--parts", default="strong,normal", help="strong (vs easy) and/or normal (four bots)")
    ap.add_argument("--seeds", default=None, help="comma-separated seeds to pool (overrides --seed)")
    args = ap.parse_args(argv)
    seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else [args.seed]
    parts = set(args.parts.split(","))
    seed_label = ",".join(map(str, seeds))
    raw = {}
    rows_a, rows_b = [], []
    for vid in args.variants.split(","):
        v = load_variant(vid)
        t0 = time.perf_counter()
        raw[vid] = {}
        if "strong" in parts:
            a = _pooled([simulate(v, args.hands, s, ["ai:strong", "ai:easy", "ai:easy", "ai:easy"]) for s in seeds])
            raw[vid]["strong_vs_easy"] = a.to_json()
        if "normal" in parts:
            b = _pooled([simulate(v, args.hands, s, ["ai:normal"] * 4) for s in seeds])
            raw[vid]["four_normal"] = b.to_json()
        print(f"[{vid}: {time.perf_counter() - t0:.0f} s]", file=sys.stderr, flush=True)
        if "strong" not in parts:
            a = None
        if "normal" not in parts:
            b = None
        if a is None:
            rows_b.append(_row_b(v, b))
            continue
        wins = sum(a.wins_by_seat)
        deal_ins = sum(a.deal_ins_by_seat)
        easy_win = sum(a.win_rate_by_seat[1:]) / 3
        easy_di = sum(a.deal_in_rate_by_seat[1:]) / 3
        rows_a.append(
            f"| {v.name} | {a.hands} | **{pct(a.win_rate_by_seat[0])}** | {pct(easy_win)} | "
            f"{pct(a.wins_by_seat[0] / wins if wins else 0)} | **{pct(a.deal_in_rate_by_seat[0])}** | {pct(easy_di)} | "
            f"{pct(a.deal_ins_by_seat[0] / deal_ins if deal_ins else 0)} | "
            f"{a.avg_value_won_by_seat[0]:.1f} / {sum(a.avg_value_won_by_seat[1:]) / 3:.1f} {a.unit} | "
            f"{pct(a.exhaustive_draw_rate)} | {a.hands_per_s:.1f} |")
        if b is not None:
            rows_b.append(_row_b(v, b))
    print(f"### One `ai:strong` (seat 1) against three `ai:easy` — `sim --seed {seed_label}`\n")
    print("| variant | hands | strong win rate | easy win rate (mean) | strong share of wins | strong deal-in rate "
          "| easy deal-in rate (mean) | strong share of deal-ins | mean value won (strong / easy) | draws | hands/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows_a))
    print(f"\n### Four `ai:normal` — `sim --seed {seed_label}`\n")
    print("| variant | hands | exhaustive draws | win rate by seat | deal-in rate by seat | self-draw share of wins "
          "| mean value won | multiple-winner hands | hands/s |")
    print("|---|---:|---:|---|---|---:|---:|---:|---:|")
    print("\n".join(rows_b))
    if args.json:
        Path(args.json).write_text(json.dumps(raw, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
