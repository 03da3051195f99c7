"""Sweeps on a Dask distributed cluster (https://distributed.dask.org): each spec runs in a
worker's process and comes back as one Arrow IPC stream (:func:`ccsim.stored.pack`), read into a
:class:`ccsim.Result` that is bit-identical to a local run of the spec (tests/test_distributed.py).

:func:`ccsim.run_many` calls :func:`run_on_cluster` when it is given a ``scheduler``; the
cluster's side is docs/experiments.md, Sweeps on a Dask cluster.

A worker lost mid-sweep: the scheduler gives its runs to other workers (a run is a pure function of
its spec, so running it again gives the same result), and each run is reported once. A run that is
on a worker when it dies counts one failure against it; after ``distributed.scheduler.
allowed-failures`` of them (3 by default, a setting of the scheduler) the run is refused: that is
a :class:`ccsim.SimulationError` here, the sign of a spec that kills its worker (e.g. runs it out
of memory), not of bad luck.

CHOICE: no task retries (``retries=0``): a run that raises raises again with the same spec, so it
is reported at once; only a dying worker is retried, by the scheduler.

CHOICE: each run returns the build fingerprint of the worker's ccsim with its results, and a
worker with another build is refused (a :class:`ccsim.SpecError` on ``scheduler``): its results
would not be the ones a local run gives, and the result cache would store them under this
build's key.

Dask is imported only here, and only when a sweep uses a scheduler: ccsim imports without it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from .errors import SimulationError, SpecError
from .results import Result

#: Seconds to wait for the scheduler to answer before giving up on it.
CONNECT_TIMEOUT = 5.0

_INSTALL_HINT = "Dask is not installed: pip install 'dask[distributed]' (or ccsim[cluster])"


class RunReleased(SimulationError):
    """Raised inside a worker's run to stop it once the client no longer wants its result
    (the sweep was interrupted)."""


def _stop_when_released() -> Callable[[float, float, int], None] | None:
    """A progress callback that stops the run once its task is cancelled on this worker.

    CHOICE: Dask cannot stop a running task; the client's cancel only makes the worker drop its
    result. The run asks, every few hundred thousand events, whether its task is still wanted
    (the worker's own record of it, no message sent), so Ctrl-C frees the cluster within a
    fraction of a second instead of after every run in progress has ended.
    """
    try:
        from distributed import get_worker

        worker = get_worker()
        key = worker.get_current_task()
        tasks = worker.state.tasks
    except Exception:
        return None

    def check(_sim: float, _horizon: float, _events: int) -> None:
        task = tasks.get(key)
        if task is None or task.state in ("cancelled", "released", "forgotten"):
            raise RunReleased(f"task {key} was cancelled")

    return check


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except Exception:
        return "(unknown worker)"


def run_packed(spec: dict[str, Any]) -> tuple[str, str, bytes]:
    """A worker's task: run ``spec`` (validated) and return this ccsim's build fingerprint, the
    worker's address and the packed result."""
    from .api import run
    from .cache import build_fingerprint
    from .stored import pack

    result = run(spec, progress=False, on_progress=_stop_when_released())
    return build_fingerprint(), _worker_address(), pack(result)


def _unreachable(address: str, reason: str) -> SpecError:
    return SpecError(f"cannot reach the Dask scheduler at {address}: {reason}; start one with `dask scheduler`",
                     "scheduler")


def _probe(address: str) -> None:
    """Raise a :class:`SpecError` at once if nothing answers at a ``tcp://`` ``address``.

    CHOICE: a plain TCP connection is tried before the Client is made: a refused port is then
    an error at once (the Client retries until its timeout), and a Client whose connection
    failed is never made (its clean-up at exit waits 10 s in distributed 2026.8).
    """
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme != "tcp":
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as e:
        raise _unreachable(address, str(e).splitlines()[0]) from None
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except TimeoutError:
        raise _unreachable(address, f"no answer in {CONNECT_TIMEOUT:g} s") from None
    except OSError as e:
        raise _unreachable(address, e.strerror or str(e) or type(e).__name__) from None


def connect(scheduler: Any) -> tuple[Any, bool]:
    """The client for ``scheduler`` and whether it was made here (and is closed here)."""
    try:
        import distributed
    except ImportError:
        raise SpecError(_INSTALL_HINT, "scheduler") from None
    if isinstance(scheduler, distributed.Client):
        return scheduler, False
    if not isinstance(scheduler, str):
        raise SpecError(f"expected a Dask scheduler's address (tcp://host:8786) or a distributed.Client, "
                        f"found {scheduler!r}", "scheduler")
    _probe(scheduler)
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT,  # type: ignore[no-untyped-call]
                                    set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise _unreachable(scheduler, str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    return client, True


def run_on_cluster(specs: list[dict[str, Any]], scheduler: Any,
                   on_done: Callable[[int, Result], None]) -> None:
    """Run every validated spec of ``specs`` on the cluster of ``scheduler`` (an address
    ``tcp://host:port``, or a ``distributed.Client``, which is used and left open), calling
    ``on_done(k, result)`` from this thread exactly once for each ``specs[k]`` as it finishes.

    Ctrl-C (or an exception from ``on_done``) cancels every run not yet reported, stops the ones
    in progress and re-raises; the runs already reported were given to ``on_done``.
    An error raised by a run is raised here as it would be by a local run.
    """
    if not specs:
        return
    client, own = connect(scheduler)
    from distributed import KilledWorker, as_completed

    from .cache import build_fingerprint
    from .stored import unpack

    futures: dict[Any, int] = {}
    try:
        sweep = uuid.uuid4().hex[:12]
        keys = [f"ccsim-run-{sweep}-{k}" for k in range(len(specs))]
        submitted = client.map(run_packed, specs, key=keys, retries=0)
        futures = dict(zip(submitted, range(len(specs))))
        del submitted
        mine = build_fingerprint()
        reported = [False] * len(specs)
        for future in as_completed(list(futures), loop=client.loop):  # type: ignore[no-untyped-call]
            k = futures[future]
            if reported[k]:
                continue
            try:
                theirs, worker, packed = future.result()
            except KilledWorker as e:
                seed = specs[k]["run"]["seed"]
                raise SimulationError(f"the run of a spec (seed {seed}) was on {e.allowed_failures + 1} Dask "
                                      f"workers that died while running it; it is not tried again (the "
                                      f"scheduler's distributed.scheduler.allowed-failures)") from None
            if theirs != mine:
                raise SpecError(f"the Dask worker {worker} runs another ccsim build ({theirs}; this one is "
                                f"{mine}): install the same build on every worker", "scheduler")
            reported[k] = True
            del futures[future]
            future.release()
            on_done(k, unpack(packed))
        missing = [k for k, done in enumerate(reported) if not done]
        if missing:
            raise SimulationError(f"the Dask cluster did not return the runs of specs {missing}")
    finally:
        if futures:
            try:
                client.cancel(list(futures), reason="ccsim sweep stopped")
            except Exception:
                pass
        if own:
            client.close()
