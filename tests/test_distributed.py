"""Sweeps on a Dask cluster (ccsim.distributed) against a real LocalCluster with two process
workers: results bit-identical to local runs and in input order, the cache in front of the
cluster, a worker killed mid-sweep, Ctrl-C, and the scheduler's errors."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

import ccsim
from ccsim import Result, SimulationError, SpecError
from ccsim.cache import ResultCache
from ccsim.distributed import run_on_cluster
from ccsim.sweep import sweep_options

ROOT = Path(__file__).resolve().parent.parent
WALL = {"wall_seconds", "events_per_second", "packets_per_second", "peak_rss_bytes"}
UNREACHABLE = "tcp://127.0.0.1:9"  # the discard port: nothing listens there


def dumbbell(k: int, duration: str = "1s") -> dict[str, Any]:
    """examples/dumbbell.toml made fast and short: 10 Gbps bottleneck, a CBR flow whose rate
    depends on ``k`` (so that each spec's results are its own); "1s" runs in about 0.1 s of
    wall time here, "10s" in about 1.5 s."""
    s = ccsim.load(ROOT / "examples" / "dumbbell.toml")
    s["run"].update(duration=duration, seed=k, warmup="0.5s")
    s["output"]["interval"] = "0.1s"
    for link in s["links"]:
        link["rate"] = "10Gbps" if link["rate"] == "10Mbps" else "40Gbps"
    s["flows"][1]["start"] = "0.2s"
    s["flows"][2].update(start="0.3s", rate=f"{4000 + 100 * k}Mbps")
    del s["flows"][2]["stop"]
    return s


@pytest.fixture(scope="module")
def cluster() -> Any:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.CRITICAL) as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster: Any) -> Any:
    with Client(cluster, set_as_default=False) as c:
        yield c


@pytest.fixture
def two_workers(client: Any) -> Any:
    """The client, once both workers are up (a test before may have killed one)."""
    client.wait_for_workers(2, timeout=60)
    return client


def without_wall(summary: dict[str, Any]) -> dict[str, Any]:
    return {**summary, "run": {k: v for k, v in summary["run"].items() if k not in WALL}}


def assert_same(remote: Result, local: Result, tmp: Path) -> None:
    """Every table, series and written file of the two runs is the same, bit for bit (the
    wall-clock figures of the summary aside)."""
    assert without_wall(remote.summary) == without_wall(local.summary)
    assert remote.spec == local.spec
    for table in ("flows", "links"):
        assert remote._data.table(table) == local._data.table(table)
    assert remote._data.series() == local._data.series()  # the raw little-endian columns
    a = remote.write(tmp / "remote", plots=False, csv=True)
    b = local.write(tmp / "local", plots=False, csv=True)
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    assert "series.parquet" in names and "series.csv" in names
    for name in names:
        if name == "summary.json":
            assert without_wall(json.loads((a / name).read_text())) == without_wall(json.loads((b / name).read_text()))
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def scheduler_tasks(cluster: Any) -> int:
    return len(cluster.scheduler.tasks)


def test_cluster_runs_are_bit_identical_to_local_runs_in_input_order(two_workers: Any, cluster: Any,
                                                                      tmp_path: Path) -> None:
    specs = [dumbbell(1), dumbbell(2), dumbbell(1), dumbbell(3)]  # a spec twice: both run
    reported: list[int] = []
    remote: dict[int, Result] = {}

    def on_done(k: int, result: Result) -> None:
        reported.append(k)
        remote[k] = result

    run_on_cluster([ccsim.validate(s) for s in specs], two_workers, on_done)
    assert sorted(reported) == [0, 1, 2, 3]
    assert all(type(r._data).__name__ == "StoredRunData" for r in remote.values())  # they came as Arrow
    assert two_workers.status == "running"  # a client given is left open

    results = ccsim.run_many(specs, scheduler=cluster.scheduler_address)
    local = ccsim.run_many(specs, jobs=1)
    assert [r.spec["run"]["seed"] for r in results] == [1, 2, 1, 3]
    for i, (r, loc) in enumerate(zip(results, local)):
        assert_same(r, loc, tmp_path / f"run{i}")
        assert_same(remote[i], loc, tmp_path / f"direct{i}")
    assert results[0].summary["flows"]["udp"] != results[1].summary["flows"]["udp"]  # each spec its own
    assert scheduler_tasks(cluster) == 0  # nothing left on the cluster


def test_cache_hits_do_not_go_to_the_cluster(two_workers: Any, cluster: Any, tmp_path: Path) -> None:
    specs = [dumbbell(4), dumbbell(5)]
    first = ccsim.run_many(specs, scheduler=cluster.scheduler_address, cache=tmp_path)
    assert len(list(tmp_path.glob("v1/*/*.ccres"))) == 2
    # every spec is a hit: the sweep never connects, so an address where no scheduler listens is fine
    again = ccsim.run_many(specs, scheduler=UNREACHABLE, cache=tmp_path)
    for i, (a, b) in enumerate(zip(first, again)):
        assert_same(b, a, tmp_path / f"run{i}")
    with pytest.raises(SpecError):  # and the same address fails when a run is missing
        ccsim.run_many([*specs, dumbbell(6)], scheduler=UNREACHABLE, cache=tmp_path)


def test_an_unreachable_scheduler_is_a_spec_error_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    # "Quickly" is behaviour, not time: the refused TCP connection is the error at once, and no
    # distributed.Client (which retries until its timeout, and waits 10 s more at exit) is made.
    import distributed

    class NoClient:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise AssertionError("a Client was made for a scheduler that refused the connection")

    monkeypatch.setattr(distributed, "Client", NoClient)
    with pytest.raises(SpecError) as e:
        ccsim.run_many([dumbbell(1)], scheduler=UNREACHABLE)
    assert e.value.path == "scheduler"
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in str(e.value) and "dask scheduler" in str(e.value)
    assert "refused" in str(e.value).lower() and "no answer in" not in str(e.value)  # refused, not timed out
    assert "\n" not in str(e.value)
    with pytest.raises(SpecError, match="^scheduler: cannot reach the Dask scheduler at host-without-port: "
                                        "missing port number"):
        ccsim.run_many([dumbbell(1)], scheduler="host-without-port")
    with pytest.raises(SpecError, match="^scheduler: expected a Dask scheduler's address"):
        ccsim.run_many([dumbbell(1)], scheduler=8786)


def test_without_dask_a_scheduler_is_a_spec_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    with pytest.raises(SpecError, match=r"^scheduler: Dask is not installed: pip install 'dask\[distributed\]'"):
        ccsim.run_many([dumbbell(1)], scheduler="tcp://127.0.0.1:8786")


def test_a_spec_error_in_a_worker_is_raised_as_it_is(two_workers: Any) -> None:
    bad = ccsim.validate(dumbbell(1))
    bad["links"][0]["rate"] = "fast"  # past validation: only the worker's run sees it
    with pytest.raises(SpecError) as e:
        run_on_cluster([bad], two_workers, lambda k, r: None)
    assert e.value.path == "links[0].rate"


def test_a_worker_with_another_build_is_refused(two_workers: Any) -> None:
    def set_fingerprint(value: str | None) -> None:
        import ccsim.cache as cache

        if value is None:
            cache.build_fingerprint = cache._original_fingerprint  # type: ignore[attr-defined]
        else:
            cache._original_fingerprint = getattr(cache, "_original_fingerprint",  # type: ignore[attr-defined]
                                                  cache.build_fingerprint)
            cache.build_fingerprint = lambda: value  # type: ignore[assignment]

    two_workers.run(set_fingerprint, "0.0.0+other+0000")
    try:
        with pytest.raises(SpecError, match=r"^scheduler: the Dask worker tcp://\S+ runs another ccsim build "
                                            r"\(0\.0\.0\+other\+0000; this one is"):
            run_on_cluster([ccsim.validate(dumbbell(1))], two_workers, lambda k, r: None)
    finally:
        two_workers.run(set_fingerprint, None)


def busy_worker(client: Any) -> tuple[str, int]:
    """The address and pid of a worker running one of ccsim's runs."""
    pids = client.run(os.getpid)
    for address, keys in client.processing().items():
        if any(str(key).startswith("ccsim-run-") for key in keys):
            return address, pids[address]
    raise AssertionError(f"no worker is running a ccsim run: {client.processing()}")


def test_a_worker_killed_mid_sweep_loses_nothing_and_counts_nothing_twice(two_workers: Any,
                                                                         tmp_path: Path) -> None:
    specs = [ccsim.validate(dumbbell(k, "5s")) for k in range(1, 5)]  # about 0.7 s each
    before = two_workers.run(os.getpid)
    reported: list[int] = []
    remote: dict[int, Result] = {}
    killed: list[int] = []

    def on_done(k: int, result: Result) -> None:
        reported.append(k)
        remote[k] = result
        if not killed:
            _, pid = busy_worker(two_workers)
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    run_on_cluster(specs, two_workers, on_done)
    assert sorted(reported) == list(range(len(specs)))  # each exactly once
    local = ccsim.run_many(specs, jobs=2)
    for k, loc in enumerate(local):
        assert_same(remote[k], loc, tmp_path / f"run{k}")
    # the nanny starts a new worker process in place of the one killed
    two_workers.wait_for_workers(2, timeout=60)
    after = set(two_workers.run(os.getpid).values())
    assert killed[0] in before.values() and killed[0] not in after and len(after) == 2


def test_a_run_whose_workers_keep_dying_is_a_simulation_error(two_workers: Any, cluster: Any) -> None:
    specs = [ccsim.validate(dumbbell(k, "10s")) for k in (1, 2)]
    cluster.scheduler.allowed_failures = 0  # the first death is one too many
    killed: list[int] = []

    sweep_over = threading.Event()

    def kill_when_running() -> None:  # as soon as a run is on a worker, for as long as the sweep lasts
        while not sweep_over.is_set():
            try:
                _, pid = busy_worker(two_workers)
            except AssertionError:
                sweep_over.wait(0.05)
                continue
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            return

    killer = threading.Thread(target=kill_when_running)
    killer.start()
    try:
        with pytest.raises(SimulationError, match="Dask workers that died while running it"):
            run_on_cluster(specs, two_workers, lambda k, r: None)
    finally:
        sweep_over.set()
        killer.join()
        cluster.scheduler.allowed_failures = 3
    assert killed


def hours_long(k: int) -> dict[str, Any]:
    """dumbbell(k) over 100 000 simulated seconds (hours of work here), sampled every 1000 s."""
    s = dumbbell(k, "100000s")
    s["output"]["interval"] = "1000s"
    return s


def _wait_until(condition: Any, what: str) -> None:
    """Poll ``condition`` until it holds; fail after HANG_GUARD seconds, a bound that only guards
    against a hang (the runs waited for would take hours if they were not stopped)."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {HANG_GUARD:g} s")
        time.sleep(0.05)


#: A bound on waiting for the cluster that only guards against a hang, never a measure of speed.
HANG_GUARD = 300.0


def test_ctrl_c_cancels_the_runs_left_stops_the_ones_going_and_keeps_the_finished(two_workers: Any, cluster: Any,
                                                                                  tmp_path: Path) -> None:
    # The first run is short; the others simulate 100 000 s (about 0.15 s of work per simulated
    # second here: hours each), so a run can end after Ctrl-C only if it is stopped.
    specs = [dumbbell(1, "1s")] + [hours_long(k) for k in (2, 3, 4)]
    observed: list[bool] = []
    executing: list[int] = []

    def on_run(_result: Result, hit: bool) -> None:  # called after the first run is stored in the cache
        observed.append(hit)
        # A long run is going when Ctrl-C comes: wait until a worker runs one, then interrupt.
        _wait_until(lambda: sum(two_workers.run(lambda dask_worker: len(dask_worker.state.executing)).values()),
                    "no long run started on a worker")
        executing.append(sum(two_workers.run(lambda dask_worker: len(dask_worker.state.executing)).values()))
        raise KeyboardInterrupt  # what Ctrl-C raises in the waiting thread

    with sweep_options(on_run=on_run), pytest.raises(KeyboardInterrupt):
        ccsim.run_many(specs, scheduler=two_workers, cache=tmp_path)
    assert observed == [False] and executing and executing[0] >= 1
    # The runs going stop (they would otherwise take hours) and the cluster forgets every task.
    _wait_until(lambda: not any(two_workers.run(lambda dask_worker: len(dask_worker.state.executing)).values()),
                "a run went on after Ctrl-C")
    _wait_until(lambda: not scheduler_tasks(cluster), "tasks stayed on the scheduler after Ctrl-C")
    assert two_workers.status == "running"
    # the finished run was kept, and only it: run again, it is a hit, and no scheduler is needed for it
    assert len(list(tmp_path.glob("v1/*/*.ccres"))) == 1
    cache = ResultCache(tmp_path)
    ccsim.run_many(specs[:1], scheduler=UNREACHABLE, cache=cache)
    assert (cache.stats.hits, cache.stats.misses) == (1, 0)


def test_reproduce_on_the_cluster_gives_the_local_tables(two_workers: Any, cluster: Any, tmp_path: Path) -> None:
    # ticp-udp-fwd has Poisson cross traffic; three of its seed replicas (ten in its quick
    # variant) show that each replica's runs come back to their own table.
    from conftest import cli

    local = cli("reproduce", "ticp-udp-fwd", "--quick", "--seeds", "3", "-q", "--no-cache", "-o",
                str(tmp_path / "local"))
    before = cluster.scheduler.transition_counter
    remote = cli("reproduce", "ticp-udp-fwd", "--quick", "--seeds", "3", "-q", "--no-cache", "--scheduler",
                 cluster.scheduler_address, "-o", str(tmp_path / "remote"))
    assert remote.returncode == local.returncode and remote.returncode in (0, 3), remote.stderr
    assert cluster.scheduler.transition_counter > before  # the runs went through the cluster
    for part in ("table.json", "seeds/replica-2/table.json", "seeds/replica-3/table.json"):
        assert (tmp_path / "remote" / "ticp-udp-fwd" / part).read_text() == \
            (tmp_path / "local" / "ticp-udp-fwd" / part).read_text()
    meta = json.loads((tmp_path / "remote" / "reproduce.json").read_text())
    assert meta["scheduler"] == cluster.scheduler_address
