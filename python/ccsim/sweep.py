"""Parameter sweeps: many specs, run over the local cores or a Dask cluster, through the result
cache when one is given; results in input order.

``reproduce`` sets the sweep's options for every ``run_many`` an experiment makes
(:func:`sweep_options`): the cache, the Dask scheduler, the seed replica and an observer of each
finished run (its progress bar).
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Sequence

from .api import run
from .cache import ResultCache, cache_key, cacheable
from .errors import InternalError, SpecError
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


#: Called after each run of a sweep with its result and whether the cache gave it.
RunObserver = Callable[[Result, bool], None]


@dataclass
class SweepOptions:
    """What every ``run_many`` inside :func:`sweep_options` uses unless it is given its own."""

    cache: ResultCache | None = None
    scheduler: Any = None
    replica: int = 1
    on_run: RunObserver | None = None


_options: contextvars.ContextVar[SweepOptions] = contextvars.ContextVar("ccsim_sweep_options",
                                                                        default=SweepOptions())


@contextmanager
def sweep_options(**changes: Any) -> Iterator[SweepOptions]:
    """Within the block, every ``run_many`` uses these options (fields of :class:`SweepOptions`)."""
    current = _options.get()
    new = SweepOptions(**{**current.__dict__, **changes})
    token = _options.set(new)
    try:
        yield new
    finally:
        _options.reset(token)


def replica_seed(seed: int) -> int:
    """The seed that stands for ``seed`` in the current seed replica: ``seed`` itself in the
    first, else a 63-bit number drawn from SHA-256 of the seed and the replica's number.

    CHOICE: replicas are numbered from 1 and replica 1 keeps every seed, so one seed gives the
    results a run without replicas gives; the others are hashed, not ``seed + k``, so that the
    replicas of two specs whose seeds differ by a few never coincide.
    """
    replica = _options.get().replica
    if replica == 1:
        return seed
    digest = hashlib.sha256(f"ccsim replica {replica} of seed {seed}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def _resolve_cache(cache: ResultCache | str | os.PathLike[str] | bool | None) -> ResultCache | None:
    if cache is None:
        return _options.get().cache
    if cache is False:
        return None
    if cache is True:
        return ResultCache()
    if isinstance(cache, ResultCache):
        return cache
    if isinstance(cache, (str, os.PathLike)):
        return ResultCache(cache)
    raise SpecError(f"expected True, False, a folder or a ccsim.cache.ResultCache, found {cache!r}", "cache")


class _SweepBar:
    """A tqdm bar over a sweep's runs: done of total, cache hits and the time left."""

    def __init__(self, total: int, hits: int) -> None:
        import sys

        from tqdm import tqdm

        self.hits = hits
        self._bar = tqdm(total=total, initial=hits, unit="run", file=sys.stderr, desc="sweep", leave=False,
                         dynamic_ncols=True)
        self._bar.set_postfix_str(f"cache hits {hits}")
        self._lock = threading.Lock()

    def __call__(self, _result: Result, hit: bool) -> None:
        with self._lock:
            self.hits += hit
            self._bar.set_postfix_str(f"cache hits {self.hits}", refresh=False)
            self._bar.update(1)

    def close(self) -> None:
        self._bar.close()


def run_many(specs: Sequence[SpecLike], jobs: int | None = None, progress: bool = False, *,
             cache: ResultCache | str | os.PathLike[str] | bool | None = None,
             scheduler: Any = None) -> list[Result]:
    """Run several scenarios in parallel, one per core by default; results in input order.

    The native run releases the GIL, so threads use every core without starting processes.
    Every spec is validated before any runs: a bad one raises its :class:`ccsim.SpecError`
    with its index in the path (``specs[3].links[0].rate``). Ctrl-C stops every run still
    going, promptly, and raises ``KeyboardInterrupt``; an error found while building a run
    (a ``SpecError`` with its index) stops the others too.

    ``cache``: ``True`` for the default cache folder (docs/experiments.md, The result cache), a
    folder, or a :class:`ccsim.cache.ResultCache`; a spec run before with the same ccsim build
    is read from it, and each run is stored as soon as it ends (so Ctrl-C keeps what finished).
    ``scheduler``: a Dask scheduler's address (``"tcp://host:8786"``) or a
    ``distributed.Client``; the runs go to its workers (docs/experiments.md, Sweeps on a Dask
    cluster) and come back bit-identical to local runs. ``progress=True`` shows a bar over the
    runs (done of total, cache hits, time left); a single run shows its own bar.

    >>> results = ccsim.run_many([dict(spec, run={**spec["run"], "seed": s}) for s in range(8)])
    """
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise SpecError(f"must be a whole number of at least 1, found {jobs!r}", "jobs")
    options = _options.get()
    store = _resolve_cache(cache)
    scheduler = scheduler if scheduler is not None else options.scheduler
    canonical = _checked(specs)
    if options.replica != 1:
        for s in canonical:
            s["run"]["seed"] = replica_seed(s["run"]["seed"])
    keys = [cache_key(s) if store is not None and cacheable(s) else None for s in canonical]
    results: list[Result | None] = [None] * len(canonical)
    for i, key in enumerate(keys):
        if key is not None and store is not None:
            hit = store.get(key)
            results[i] = hit
            if hit is not None and options.on_run is not None:
                options.on_run(hit, True)
    pending = [i for i, r in enumerate(results) if r is None]
    bar = _SweepBar(len(canonical), len(canonical) - len(pending)) if progress and len(canonical) > 1 else None
    lock = threading.Lock()

    def finished(i: int, result: Result) -> None:
        key = keys[i]
        if key is not None and store is not None:
            store.put(key, result)  # outside the lock: packing a large run takes a while
        with lock:  # the observers are called from one thread at a time
            if key is not None and store is not None:
                store.stats.misses += 1
            results[i] = result
            for observe in (options.on_run, bar):
                if observe is not None:
                    observe(result, False)

    try:
        if scheduler is not None and pending:
            from .distributed import run_on_cluster

            local = [i for i in pending if not cacheable(canonical[i])]
            remote = [i for i in pending if cacheable(canonical[i])]
            run_on_cluster([canonical[i] for i in remote], scheduler,
                           lambda k, result: finished(remote[k], result))
            pending = local
        _run_local(canonical, pending, jobs, progress=progress and bar is None, finished=finished)
    finally:
        if bar is not None:
            bar.close()
    done = [r for r in results if r is not None]
    if len(done) != len(results):
        raise InternalError("internal error (please report): a sweep ended with runs missing")
    return done


def _run_local(canonical: list[dict[str, Any]], pending: list[int], jobs: int | None, *, progress: bool,
               finished: Callable[[int, Result], None]) -> None:
    """Run ``canonical[i]`` for every ``i`` in ``pending`` over the local cores."""
    workers = max(1, min(jobs or os.cpu_count() or 1, len(pending)))
    if workers == 1:
        for i in pending:
            try:
                finished(i, run(canonical[i], progress=progress))
            except SpecError as e:
                raise _at(i, e) from None
        return
    cancelled = threading.Event()

    def stop_if_cancelled(_sim: float, _horizon: float, _events: int) -> None:
        if cancelled.is_set():
            raise KeyboardInterrupt

    def job(i: int) -> None:
        finished(i, run(canonical[i], progress=False, on_progress=stop_if_cancelled))

    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = {pool.submit(job, i): i for i in pending}
        not_done = set(futures)
        while not_done:
            done, not_done = wait(not_done, return_when=FIRST_COMPLETED)
            for f in sorted(done, key=lambda f: futures[f]):
                try:
                    f.result()
                except SpecError as e:
                    raise _at(futures[f], e) from None
    except BaseException:
        cancelled.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
