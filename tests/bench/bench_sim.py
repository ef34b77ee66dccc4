"""Benchmark: ``sim --duplicate`` hands/s at ``--jobs 1`` and ``--jobs 2`` in one run (run by
hand: ``python tests/bench/bench_sim.py [--variant classic] [--deals 40] [--rounds 3]``).

Each measurement is a fresh process running what ``mahjong-tui sim --duplicate --json`` runs
(start-up and the workers' warm-up included, as a user meets them); the two settings alternate, ``--rounds``
times, and the median, minimum and maximum of each are printed with the speed-up of the medians
and each round's own speed-up (its two runs back to back, so the machine's drift between rounds
cancels, as the deal's luck cancels in duplicate) with their median.
The JSON of every run is checked to be the same but for the timing fields.  It also prints
hands per CPU second of play (in the process, or in its workers): on a busy machine the
wall-clock speed-up says little; the CPU cost of a hand in a worker against in a single process
says what splitting the work costs (each worker warms its own caches).

Goal (issue "Bots measured as the field measures them"): ``--jobs 2`` ≥ 1.8 × ``--jobs 1`` on
two cores.  The machine may be shared: the spread says how far to trust one figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


#: what ``sim --duplicate --json`` does (cli._sim_duplicate), and the CPU seconds of the play,
#: wherever it ran (mahjong_tui.workers.run_ordered's stats)
SNIPPET = """
import json, sys
from mahjong_tui.sim import simulate_duplicate
from mahjong_tui.variant import load_variant
from mahjong_tui.workers import resolve_jobs
stats = {}
dup = simulate_duplicate(load_variant(sys.argv[1]), int(sys.argv[2]), 1, sys.argv[3].split(","),
                         jobs=resolve_jobs(int(sys.argv[4])), stats=stats)
print(json.dumps({"result": dup.to_json(), "cpu_s": stats["cpu_s"]}))
"""


def run(variant: str, deals: int, seats: str, jobs: int) -> tuple[float, float, dict]:
    """(wall-clock hands/s of the whole process, hands per CPU second of play in it or its
    workers, the JSON without its timing fields)."""
    cmd = [sys.executable, "-c", SNIPPET, variant, str(deals), seats, str(jobs)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"sim --duplicate --jobs {jobs} failed:\n{proc.stderr}")
    out = json.loads(proc.stdout)
    js = out["result"]
    js.pop("elapsed_s"), js.pop("hands_per_s")
    return js["hands"] / dt, js["hands"] / out["cpu_s"], js


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seats", default="ai:strong,ai:easy,ai:easy,ai:easy")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    rates: dict[int, list[float]] = {1: [], 2: []}
    per_cpu: dict[int, list[float]] = {1: [], 2: []}
    first = None
    for _ in range(a.rounds):
        for jobs in (1, 2):
            rate, cpu_rate, js = run(a.variant, a.deals, a.seats, jobs)
            first = first or js
            assert js == first, "the JSON differs between runs"
            rates[jobs].append(rate)
            per_cpu[jobs].append(cpu_rate)
            print(f"  --jobs {jobs}: {rate:6.1f} hands/s, {cpu_rate:6.1f} hands per CPU second", flush=True)
    print(f"sim --duplicate --variant {a.variant} --hands {a.deals} ({4 * a.deals} hands) --seats {a.seats}")
    for jobs, rs in rates.items():
        print(f"  --jobs {jobs}: median {statistics.median(rs):6.1f} hands/s (min {min(rs):.1f}, max {max(rs):.1f})")
    ratio = statistics.median(rates[2]) / statistics.median(rates[1])
    cpu_ratio = statistics.median(per_cpu[2]) / statistics.median(per_cpu[1])
    # each round's two runs back to back: the machine's drift between rounds cancels
    paired = [two / one for one, two in zip(rates[1], rates[2])]
    print(f"  speed-up --jobs 2 / --jobs 1: {ratio:.2f}x (goal >= 1.8x on two cores); JSON identical: yes")
    print(f"  each round's speed-up: {', '.join(f'{r:.2f}' for r in paired)}; median {statistics.median(paired):.2f}x")
    print(f"  hands per CPU second of play, --jobs 2 / --jobs 1: {cpu_ratio:.2f} "
          f"(on two idle cores the speed-up is at most about 2 x this)")


if __name__ == "__main__":
    main()
