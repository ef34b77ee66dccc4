"""The acceptance experiment of issue 7, printed as Markdown tables.

Run by hand: ``python tests/bench/ai_acceptance.py [--hands 2000] [--seed 1]
[--variants classic,yuxi,yangzhou] [--json out.json]``.  Not a test (it takes minutes).

For each variant, with ``sim``'s own :func:`~mahjong_tui.sim.simulate` and the given seed:

1. one ``ai:strong`` (seat 1, East of the first hand) against three ``ai:easy`` — the strong
   seat's win rate (share of hands it won), its share of all wins, its deal-in rate against
   the easy seats' mean and against its share of all deal-ins, mean value of its wins;
2. four ``ai:normal`` — the exhaustive-draw rate, win and deal-in rates per seat.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong_tui.sim import simulate  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="classic,yuxi,yangzhou")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="also write the raw sim results here")
    args = ap.parse_args(argv)
    raw = {}
    rows_a, rows_b = [], []
    for vid in args.variants.split(","):
        v = load_variant(vid)
        t0 = time.perf_counter()
        a = simulate(v, args.hands, args.seed, ["ai:strong", "ai:easy", "ai:easy", "ai:easy"])
        b = simulate(v, args.hands, args.seed, ["ai:normal"] * 4)
        print(f"[{vid}: {time.perf_counter() - t0:.0f} s]", file=sys.stderr, flush=True)
        raw[vid] = {"strong_vs_easy": a.to_json(), "four_normal": b.to_json()}
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
        rows_b.append(
            f"| {v.name} | {b.hands} | **{pct(b.exhaustive_draw_rate)}** | "
            f"{' / '.join(pct(x) for x in b.win_rate_by_seat)} | {' / '.join(pct(x) for x in b.deal_in_rate_by_seat)} | "
            f"{pct(b.self_draw_wins / max(1, b.self_draw_wins + b.discard_wins))} | "
            f"{sum(b.avg_value_won_by_seat) / 4:.1f} {b.unit} | {b.hands_per_s:.1f} |")
    print(f"### One `ai:strong` (seat 1) against three `ai:easy` — `sim --seed {args.seed}`\n")
    print("| variant | hands | strong win rate | easy win rate (mean) | strong share of wins | strong deal-in rate "
          "| easy deal-in rate (mean) | strong share of deal-ins | mean value won (strong / easy) | draws | hands/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows_a))
    print(f"\n### Four `ai:normal` — `sim --seed {args.seed}`\n")
    print("| variant | hands | exhaustive draws | win rate by seat | deal-in rate by seat | self-draw share of wins "
          "| mean value won | hands/s |")
    print("|---|---:|---:|---|---|---:|---:|---:|")
    print("\n".join(rows_b))
    if args.json:
        Path(args.json).write_text(json.dumps(raw, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
