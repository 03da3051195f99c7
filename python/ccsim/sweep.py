"""Parameter sweeps over the local cores."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

from .api import run
from .results import Result
from .spec import SpecLike


def run_many(specs: Sequence[SpecLike], jobs: int | None = None, progress: bool = False) -> list[Result]:
    """Run several scenarios in parallel, one per core by default; results in input order.

    The native run releases the GIL, so threads use every core without starting processes.
    Ctrl-C stops every run still going, promptly, and raises ``KeyboardInterrupt``; a bad
    spec raises its :class:`ccsim.SpecError` after the others are stopped.

    >>> results = ccsim.run_many([dict(spec, run={**spec["run"], "seed": s}) for s in range(8)])
    """
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, found {jobs}")
    workers = max(1, min(jobs or os.cpu_count() or 1, len(specs)))
    if workers == 1:
        return [run(s, progress=progress) for s in specs]
    cancelled = threading.Event()

    def stop_if_cancelled(_sim: float, _horizon: float, _events: int) -> None:
        if cancelled.is_set():
            raise KeyboardInterrupt

    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(run, s, progress=False, on_progress=stop_if_cancelled) for s in specs]
        return [f.result() for f in futures]
    except BaseException:
        cancelled.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
