"""``mahjong_tui.workers.run_ordered`` (``sim --jobs``, ``lab --jobs``): results in task order
whatever ran where; local workers are forked from the caller when it runs no other thread (they
start with its modules loaded), else from a fork server, so no lock another thread holds is
copied into a worker."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from mahjong_tui.workers import run_ordered

#: state a worker can see only if it was forked from the caller after the caller changed it
MARK = ["as imported"]


def _square(x: int) -> tuple[int, str]:
    return x * x, MARK[0]


def test_a_caller_with_another_thread_gets_workers_from_a_fork_server():
    stop = threading.Event()
    waiter = threading.Thread(target=stop.wait, daemon=True)
    waiter.start()
    MARK[0] = "changed by the caller"
    try:
        got = run_ordered(_square, list(range(12)), jobs=2)
    finally:
        MARK[0] = "as imported"
        stop.set()
        waiter.join()
    assert [g[0] for g in got] == [x * x for x in range(12)]
    # the workers imported this module afresh: none of them saw the caller's change
    assert {g[1] for g in got} == {"as imported"}


def test_a_caller_without_threads_forks_its_workers():
    # a fresh interpreter: the test runner may have threads of its own (Textual's, a pilot's)
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import test_workers as w\n"
        "import threading; assert threading.active_count() == 1\n"
        "w.MARK[0] = 'changed by the caller'\n"
        "from mahjong_tui.workers import run_ordered\n"
        "print(json.dumps(run_ordered(w._square, list(range(12)), jobs=2)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    got = json.loads(out)
    assert [g[0] for g in got] == [x * x for x in range(12)]
    # forked after the change: every worker saw it
    assert {g[1] for g in got} == {"changed by the caller"}


def test_one_job_runs_here_in_order():
    MARK[0] = "here"
    try:
        assert run_ordered(_square, [3, 1, 2], jobs=1) == [(9, "here"), (1, "here"), (4, "here")]
    finally:
        MARK[0] = "as imported"
