"""Run independent pieces of work in order-preserving parallel (``sim --jobs``, ``lab --jobs``,
``lab --cluster``).

:func:`run_ordered` calls a module-level function on each task and returns the results in task
order, whatever ran where: in this process (one job), in local worker processes
(:class:`concurrent.futures.ProcessPoolExecutor`), or on an existing Dask distributed cluster
(``dask.distributed.Client``; the optional extra ``pip install '.[cluster]'``).  Each task must
be deterministic on its own (its seed is in its arguments), so the results, and anything added
up from them in task order, are the same for every backend and worker count.

Nothing here is imported by the engine; Dask (which brings asyncio) only when a cluster is asked for.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import MahjongError


class WorkerError(MahjongError):
    """A cluster that cannot be used (Dask not installed, the scheduler cannot be reached)."""


def cores() -> int:
    """The cores this process may run on (``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def resolve_jobs(jobs: int) -> int:
    """``--jobs``: 0 = every core (:func:`cores`), else ``jobs`` itself (at least 1).
    Raises ValueError for a negative number."""
    if jobs < 0:
        raise ValueError(f"--jobs must be 0 (every core) or more, got {jobs}")
    return cores() if jobs == 0 else jobs


@dataclass(frozen=True)
class _Job:
    """A task and its function, sent to a worker as one opaque value (Dask would read a plain
    ``(function, argument)`` tuple as a task of its own graph)."""

    fn: Callable[[Any], Any]
    task: Any


def _timed(job: _Job) -> tuple[Any, float]:
    """``(job.fn(job.task), CPU seconds it took)`` (runs in a worker)."""
    t0 = time.process_time()
    out = job.fn(job.task)
    return out, time.process_time() - t0


def run_ordered(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int = 1,
                on_done: Callable[[int, Any], None] | None = None, cluster: str | None = None,
                start: Callable[[], None] | None = None, stats: dict | None = None) -> list[Any]:
    """``[fn(t) for t in tasks]``, computed with ``jobs`` local processes (1: here, in this
    process), or on the Dask scheduler at ``cluster`` (``"tcp://HOST:8786"``) when given.
    ``on_done(i, result)`` is called in this process as each task finishes (in finishing
    order; a progress bar), ``start()`` once the work is handed out.  Local workers are forked
    from this process when it runs no other thread (they start with its modules loaded), else
    from a fork server (``multiprocessing`` "forkserver" where the system has it) that imports
    the tasks' modules once, so no lock held by another thread of this process reaches a worker.

    ``stats``, if given, gets ``cpu_s``: the CPU seconds the tasks took, wherever they ran
    (benchmarks: the cost of the work itself, whatever else the machine runs).

    ``fn`` must be a module-level function and tasks and results picklable.  An exception in a
    task is raised here.  Raises :class:`WorkerError` when ``cluster`` is given and Dask
    distributed is not installed or the scheduler cannot be reached."""
    results: list[Any] = [None] * len(tasks)
    cpu = [0.0]

    def done(i: int, got: tuple[Any, float]) -> None:
        results[i] = got[0]
        cpu[0] += got[1]
        if on_done is not None:
            on_done(i, got[0])

    jobs_of = [_Job(fn, t) for t in tasks]
    if cluster is not None:
        _run_dask(jobs_of, cluster, done, start)
    elif jobs <= 1 or len(tasks) <= 1:
        if start is not None:
            start()
        for i, job in enumerate(jobs_of):
            done(i, _timed(job))
    else:
        _run_local(jobs_of, jobs, done, start)
    if stats is not None:
        stats["cpu_s"] = cpu[0]
    return results


def _run_local(jobs_of, jobs, done, start) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # a caller with no other thread is forked directly (its modules are loaded already: no
    # server to start, about 0.3 s of a run); one that has threads (a test run after Textual
    # or Dask) gets workers forked from a fresh server process, never from itself, so no
    # lock another thread holds is copied into a worker
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        context = multiprocessing.get_context("fork")
    else:
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else None)
    if context.get_start_method() == "forkserver":
        # the server imports the tasks' modules once, so each worker is forked with them
        # loaded instead of importing the package itself (about 0.3 s a worker)
        context.set_forkserver_preload(sorted({"__main__", *(job.fn.__module__ for job in jobs_of)}))
    with ProcessPoolExecutor(max_workers=min(jobs, len(jobs_of)), mp_context=context) as pool:
        futures = {pool.submit(_timed, job): i for i, job in enumerate(jobs_of)}
        if start is not None:
            start()
        for fut in as_completed(futures):
            done(futures[fut], fut.result())


def _run_dask(jobs_of, address, done, start) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise WorkerError("--cluster needs Dask distributed: pip install 'mahjong-tui[cluster]' "
                          "(or, in a checkout, pip install '.[cluster]')") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise WorkerError(f"--cluster {address}: cannot reach a Dask scheduler there ({exc}); start one with "
                          f"'dask scheduler' and workers with 'dask worker {address}'") from None
    try:
        futures = client.map(_timed, jobs_of, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        if start is not None:
            start()
        for fut in as_completed(futures):
            done(index[fut.key], fut.result())
    finally:
        client.close()
