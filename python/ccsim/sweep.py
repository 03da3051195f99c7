"""Parameter sweeps: many specs, run over the local cores or a Dask cluster, through the result
cache when one is given; results in input order.

``reproduce`` sets the sweep's options for every ``run_many`` an experiment makes
(:func:`sweep_options`): the cache, the Dask scheduler, the seed replica and an observer of each
finished run (its progress bar). :func:`tidy` turns a sweep's results into one DataFrame.
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from .api import run
from .cache import ResultCache, cache_key, cacheable
from .errors import InternalError, NotFoundError, SpecError
from .results import Result
from .spec import SpecLike, validate

if TYPE_CHECKING:
    import pandas as pd


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
    if isinstance(specs, (str, bytes, os.PathLike, Mapping)) or not isinstance(specs, Iterable):
        shown = f"the string {specs!r}" if isinstance(specs, str) else type(specs).__name__
        raise SpecError(f"expected a list of specs (paths, dicts or Scenarios), found {shown}; "
                        "for one spec, use ccsim.run or pass [spec]", "specs")
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
    >>> ccsim.tidy(results, params=["run.seed"])  # one row per run and flow
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


_RATE_UNITS = {"bps": 1.0, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12}
_TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_QUANTITY = re.compile(r"([0-9.]+(?:[eE][+-]?[0-9]+)?)([A-Za-z]+)")


def _quantity(text: Any, units: dict[str, float]) -> float:
    m = _QUANTITY.fullmatch(text) if isinstance(text, str) else None
    return float(m.group(1)) * units[m.group(2)] if m and m.group(2) in units else 0.0


def expected_cost(spec: dict[str, Any]) -> float:
    """A canonical spec's expected run time, in arbitrary units, for ordering a sweep's runs:
    its duration times the sum of its links' rates (what bounds the packets it can carry).

    CHOICE: a bound from the spec rather than a measured time: it needs no earlier run, and
    within a sweep (more flows, more capacity, more hosts) it ranks the points as their event
    counts do. It only orders the runs; the results do not depend on it."""
    links = spec.get("links") or []
    rate = sum(_quantity(link.get("rate"), _RATE_UNITS) for link in links if isinstance(link, dict))
    return _quantity((spec.get("run") or {}).get("duration"), _TIME_UNITS) * rate


def _run_local(canonical: list[dict[str, Any]], pending: list[int], jobs: int | None, *, progress: bool,
               finished: Callable[[int, Result], None]) -> None:
    """Run ``canonical[i]`` for every ``i`` in ``pending`` over the local cores, the longest
    expected first (:func:`expected_cost`): the last runs to start are short ones, so the
    cores finish together rather than one waiting on a long run started last."""
    workers = max(1, min(jobs or os.cpu_count() or 1, len(pending)))
    if workers > 1:
        pending = sorted(pending, key=lambda i: -expected_cost(canonical[i]))
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


def spec_value(spec: dict[str, Any], path: str) -> Any:
    """The value at ``path`` ("run.seed", "links[1].rate") of a spec;
    :class:`~ccsim.errors.NotFoundError` (a ``KeyError``) naming the path if it has none."""
    value: Any = spec
    for token in path.split("."):
        m = re.fullmatch(r"([^\[\]]+)((?:\[\d+\])*)", token)
        if m is None:
            raise NotFoundError("not in the spec", path)
        steps: list[str | int] = [m.group(1), *(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))]
        for step in steps:
            if isinstance(step, str) and isinstance(value, dict) and step in value:
                value = value[step]
            elif isinstance(step, int) and isinstance(value, list) and step < len(value):
                value = value[step]
            else:
                raise NotFoundError("not in the spec", path)
    return value


def _param_rows(results: Sequence[Result], params: Sequence[Mapping[str, Any]] | Sequence[str] | str | None
                ) -> tuple[list[str], list[dict[str, Any]]]:
    """The parameter columns and, per run, their values."""
    if isinstance(results, (str, bytes, Mapping)) or not isinstance(results, Sequence):
        raise SpecError(f"expected a list of ccsim.Result, found {type(results).__name__}", "results")
    for i, r in enumerate(results):
        if not isinstance(r, Result):
            raise SpecError(f"expected a ccsim.Result, found {type(r).__name__}", f"results[{i}]")
    if params is None:
        return [], [{} for _ in results]
    if isinstance(params, str):
        params = [params]
    if isinstance(params, Mapping) or not isinstance(params, Sequence):
        raise SpecError(f"expected a path such as \"run.seed\", a list of paths or one mapping per result, "
                        f"found {type(params).__name__}", "params")
    if all(isinstance(p, str) for p in params):
        paths = [str(p) for p in params]
        rows: list[dict[str, Any]] = []
        for i, result in enumerate(results):
            row = {}
            for j, path in enumerate(paths):
                try:
                    row[path] = spec_value(result.spec, path)
                except KeyError:
                    raise SpecError(f"results[{i}]'s spec has no {path!r} (a path such as \"run.seed\" or "
                                    f"\"links[1].rate\")", f"params[{j}]") from None
            rows.append(row)
        return list(dict.fromkeys(paths)), rows
    if all(isinstance(p, Mapping) for p in params):
        if len(params) != len(results):
            raise SpecError(f"expected one mapping per result ({len(results)}), found {len(params)}", "params")
        mappings: list[dict[str, Any]] = [dict(p) for p in params if isinstance(p, Mapping)]
        names: dict[str, None] = {}
        for j, m in enumerate(mappings):
            for k in m:
                if not isinstance(k, str):
                    raise SpecError(f"parameter names are strings, found {k!r}", f"params[{j}]")
                names[k] = None
        return list(names), mappings
    kinds = sorted({type(p).__name__ for p in params})
    raise SpecError(f"expected spec paths (str) or one mapping per result, found {', '.join(kinds)}", "params")


def tidy(results: Sequence[Result], params: Sequence[Mapping[str, Any]] | Sequence[str] | str | None = None
         ) -> pd.DataFrame:
    """The results of a sweep as one tidy DataFrame: one row per run and flow.

    The columns: ``run`` (the result's position in ``results``), the swept parameters, ``seed``
    and ``spec_hash`` of the run, ``flow`` (its name), then every column of
    :meth:`Result.flows` (``protocol``, ``goodput_bps``, ...; generated flows included, with their
    ``generator``). ``params`` names the swept parameters, either as paths into each run's
    canonical spec, each a column named by its path::

        tidy(results, params=["run.seed", "links[1].rate"])

    or as one mapping per result (the grid the specs were built from), whose keys become the
    columns and may name anything (a key some mappings lack is None in the others' rows)::

        grid = [{"n_flows": n, "buffer": b} for n in (2, 4, 8) for b in ("50p", "100p")]
        tidy(ccsim.run_many([make(**g) for g in grid]), params=grid)

    A parameter named ``run``, ``seed`` or ``spec_hash`` must equal the run's own (it is then
    that column). A path that a run's spec does not have, mappings that do not match the results
    one to one, or a parameter named like a flows' column is a :class:`ccsim.SpecError`.
    """
    import pandas as pd

    names, rows = _param_rows(results, params)
    own = [n for n in names if n not in ("run", "seed", "spec_hash")]
    frames = []
    for i, (result, row) in enumerate(zip(results, rows)):
        fixed = {"run": i, "seed": result.seed, "spec_hash": result.spec_hash}
        for name in names:
            if name in fixed and row.get(name) != fixed[name]:
                raise SpecError(f"a parameter named {name!r} must be the run's own {name}: results[{i}] has "
                                f"{fixed[name]!r}, the parameter {row.get(name)!r}; rename it", "params")
        flows = result.flows().reset_index().rename(columns={"name": "flow"})
        clash = sorted(set(own) & ({"flow"} | set(flows.columns)))
        if clash:
            raise SpecError(f"a parameter named {clash[0]!r} would hide the flows' column of that name; rename it",
                            "params")
        head = {"run": i, **{n: row.get(n) for n in own}, "seed": result.seed, "spec_hash": result.spec_hash}
        for k, (column, value) in enumerate(head.items()):
            flows.insert(k, column, [value] * len(flows))
        frames.append(flows)
    if not frames:
        return pd.DataFrame(columns=["run", *own, "seed", "spec_hash", "flow"])
    return pd.concat(frames, ignore_index=True)
