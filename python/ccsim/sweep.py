"""Parameter sweeps over the local cores."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

from .api import run
from .errors import SpecError
from .results import Result
from .spec import SpecLike, validate


def _at(index: int, e: SpecError) -> SpecError:
    """``e`` with its path under ``specs[index]`` (``specs[3].links[0].rate``)."""
    inner = e.path
    if not inner or inner == "(document)" or e.message.startswith("TOML syntax error"):
        path = f"specs[{index}]"
        message = e.message if not inner or inner == "(document)" else f"{inner}: {e.message}"
    else:
        path, message = f"specs[{index}].{inner}", e.message
    return SpecError(message, path)


def _checked(specs: Sequence[SpecLike]) -> list[dict[str, Any]]:
    """Every spec validated before any runs, so a bad one is found at once; its error names
    its index."""
    out: list[dict[str, Any]] = []
    for i, s in enumerate(specs):
        try:
            out.append(validate(s))
        except SpecError as e:
            raise _at(i, e) from None
    return out


def run_many(specs: Sequence[SpecLike], jobs: int | None = None, progress: bool = False) -> list[Result]:
    """Run several scenarios in parallel, one per core by default; results in input order.

    The native run releases the GIL, so threads use every core without starting processes.
    Every spec is validated before any runs: a bad one raises its :class:`ccsim.SpecError`
    with its index in the path (``specs[3].links[0].rate``). Ctrl-C stops every run still
    going, promptly, and raises ``KeyboardInterrupt``; an error found while building a run
    (a ``SpecError`` with its index) stops the others too.

    >>> results = ccsim.run_many([dict(spec, run={**spec["run"], "seed": s}) for s in range(8)])
    """
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise SpecError(f"must be a whole number of at least 1, found {jobs!r}", "jobs")
    canonical = _checked(specs)
    workers = max(1, min(jobs or os.cpu_count() or 1, len(canonical)))
    if workers == 1:
        results: list[Result] = []
        for i, s in enumerate(canonical):
            try:
                results.append(run(s, progress=progress))
            except SpecError as e:
                raise _at(i, e) from None
        return results
    cancelled = threading.Event()

    def stop_if_cancelled(_sim: float, _horizon: float, _events: int) -> None:
        if cancelled.is_set():
            raise KeyboardInterrupt

    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(run, s, progress=False, on_progress=stop_if_cancelled) for s in canonical]
        out: list[Result] = []
        for i, f in enumerate(futures):
            try:
                out.append(f.result())
            except SpecError as e:
                raise _at(i, e) from None
        return out
    except BaseException:
        cancelled.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
