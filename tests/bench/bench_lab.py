"""Benchmark: hands/s of a fixed ``lab`` sweep at ``--jobs 1``, ``--jobs 2`` and on a two-worker
Dask ``LocalCluster`` (``--cluster``), side by side in one run (run by hand:
``python tests/bench/bench_lab.py [--hands 48] [--rounds 3]``; the cluster needs
``pip install '.[cluster]'``).

Each measurement is a fresh process playing what ``mahjong-tui lab --json`` plays, timed from
start to exit; for
the cluster a new ``LocalCluster`` (two worker processes, one thread each) is started before the
timing starts and closed after it, so every backend starts with cold workers.  The settings
alternate, ``--rounds`` times; the median, minimum and maximum of each are printed, with the
speed-ups over ``--jobs 1``, and hands per CPU second of play, wherever it ran (on a busy
machine it says what a hand costs on each backend when wall-clock time cannot).  The cells' JSON
must be the same on every backend.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

#: what ``mahjong-tui lab --json`` plays (cli.cmd_lab, without writing the report), and the CPU
#: seconds of the play wherever it ran (mahjong_tui.workers.run_ordered's stats)
SNIPPET = """
import json, sys
from mahjong_tui.lab import parse_sweep, run_lab
stats = {}
hands, jobs, cluster = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] or None
res = run_lab("yuxi", [parse_sweep("claims.chow=none,next")], {}, [["ai"] * 4], [1], hands, jobs=jobs,
              cluster=cluster, stats=stats)
print(json.dumps({"result": res.to_json(), "cpu_s": stats["cpu_s"]}))
"""
SWEEP = "lab --variant yuxi --sweep claims.chow=none,next --seed 1"


def run(jobs: int, cluster: str, hands: int) -> tuple[float, float, dict]:
    """(wall-clock hands/s of the whole process, hands per CPU second of play, the cells)."""
    cmd = [sys.executable, "-c", SNIPPET, str(hands), str(jobs), cluster]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{SWEEP} --jobs {jobs} {cluster} failed:\n{proc.stderr}")
    out = json.loads(proc.stdout)
    js = out["result"]
    js.pop("elapsed_s"), js.pop("hands_per_s")
    n = hands * len(js["cells"])
    return n / dt, n / out["cpu_s"], js


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=48, help="hands a cell (two cells)")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    try:
        from dask.distributed import LocalCluster
    except ImportError:
        LocalCluster = None
        print("(Dask distributed is not installed: no cluster figures; pip install '.[cluster]')")
    rates: dict[str, list[float]] = {"--jobs 1": [], "--jobs 2": []}
    if LocalCluster is not None:
        rates["2-worker LocalCluster"] = []
    per_cpu: dict[str, list[float]] = {name: [] for name in rates}
    first = None
    for _ in range(a.rounds):
        for name in rates:
            if name.startswith("--jobs"):
                rate, cpu_rate, js = run(int(name.split()[1]), "", a.hands)
            else:
                with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
                    rate, cpu_rate, js = run(1, cl.scheduler_address, a.hands)
            first = first or js
            assert js == first, f"{name}: the cells differ"
            rates[name].append(rate)
            per_cpu[name].append(cpu_rate)
            print(f"  {name}: {rate:6.1f} hands/s, {cpu_rate:6.1f} hands per CPU second", flush=True)
    print(f"{SWEEP} --hands {a.hands} (2 cells, four ai:normal), whole process, {a.rounds} rounds")
    base = statistics.median(rates["--jobs 1"])
    for name, rs in rates.items():
        med = statistics.median(rs)
        print(f"  {name:<22} median {med:6.1f} hands/s (min {min(rs):.1f}, max {max(rs):.1f}); "
              f"{med / base:.2f}x --jobs 1; {statistics.median(per_cpu[name]):.1f} hands per CPU second of play")
    print("  cells identical on every backend: yes")


if __name__ == "__main__":
    main()
