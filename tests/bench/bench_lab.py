"""Benchmark: hands/s of a fixed ``lab`` sweep at ``--jobs 1``, ``--jobs 2`` and on a two-worker
Dask ``LocalCluster`` (``--cluster``), side by side in one run (run by hand:
``python tests/bench/bench_lab.py [--hands 48] [--rounds 3]``; the cluster needs
``pip install '.[cluster]'``).

Each measurement is a fresh ``mahjong-tui lab --json`` process, timed from start to exit; for
the cluster a new ``LocalCluster`` (two worker processes, one thread each) is started before the
timing starts and closed after it, so every backend starts with cold workers.  The settings
alternate, ``--rounds`` times; the median, minimum and maximum of each are printed, with the
speed-ups over ``--jobs 1``, and hands per CPU second (the processes' and workers' CPU time: on
a busy machine it says what each backend costs when wall-clock time cannot).  The cells' JSON
must be the same on every backend.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SWEEP = ["--variant", "yuxi", "--sweep", "claims.chow=none,next", "--seed", "1"]


def cpu_of_children() -> float:
    """CPU seconds (user + system) of the finished child processes (a closed LocalCluster's workers too)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(extra: list[str], hands: int) -> tuple[float, dict]:
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "mahjong_tui", "lab", *SWEEP, "--hands", str(hands), "--json", "--out", out, *extra]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    js = json.loads(proc.stdout)
    js.pop("elapsed_s"), js.pop("hands_per_s")
    return hands * len(js["cells"]) / dt, js


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
            cpu0 = cpu_of_children()
            if name.startswith("--jobs"):
                rate, js = run(name.split(), a.hands)
            else:
                with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
                    rate, js = run(["--cluster", cl.scheduler_address], a.hands)
            cpu_rate = a.hands * len(js["cells"]) / (cpu_of_children() - cpu0)
            first = first or js
            assert js == first, f"{name}: the cells differ"
            rates[name].append(rate)
            per_cpu[name].append(cpu_rate)
            print(f"  {name}: {rate:6.1f} hands/s, {cpu_rate:6.1f} hands per CPU second", flush=True)
    print(f"lab {' '.join(SWEEP)} --hands {a.hands} (2 cells), whole process, {a.rounds} rounds")
    base = statistics.median(rates["--jobs 1"])
    for name, rs in rates.items():
        med = statistics.median(rs)
        print(f"  {name:<22} median {med:6.1f} hands/s (min {min(rs):.1f}, max {max(rs):.1f}); "
              f"{med / base:.2f}x --jobs 1; {statistics.median(per_cpu[name]):.1f} hands per CPU second "
              f"(workers' start-up included)")
    print("  cells identical on every backend: yes")


if __name__ == "__main__":
    main()
