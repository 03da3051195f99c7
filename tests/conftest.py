"""Shared fixtures: small valid scenarios and a CLI runner."""

from __future__ import annotations

import copy
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# A session started with SIGINT ignored (a background job of a shell without job control, or
# nohup) hands that on to every process it starts: the runs the Ctrl-C tests interrupt would
# never see their Ctrl-C, and each test would wait out its five-minute guard and fail. The
# session's processes (the controller and xdist's workers each import this file) take
# Python's handler back, so the processes they start have the default action.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Files whose tests keep real time (an emulated link, real sockets, the kernel's TCP or a user's
#: algorithm through the emulator): `make test` runs them after the others, two at a time, so no
#: CPU-bound test delays them. (Beside the CPU-bound tests, even niced, a kernel BBR flow lost 8
#: segments the idle emulator never drops, and the tutorial's rate fell short. With the CPU-bound
#: tests at SCHED_IDLE, `chrt --idle 0`, which yields the core at every wake-up of another task,
#: a kernel BBR flow still lost 18 and a TICP session beside a TCP took 1.38 times its share.
#: Three real-time tests at a time, with nothing else running: the single kernel BBR flow lost 8.)
SERIAL_FILES = {"test_emulate.py", "test_real.py", "test_kernel_tcp.py", "test_tutorial.py"}

#: Real-time files whose own process needs a core to itself: the tutorial's Python algorithm,
#: a delay-based one, over real sockets (beside another real-time test it read the late
#: ACKs of its own busy process as queueing and held 4.9 Mbit/s where it holds more than 5
#: alone). `make test` runs them last, one at a time (marker `alone`).
ALONE_FILES = {"test_tutorial.py"}

#: Files whose tests run experiments, reports, the other simulators, a cluster or a type checker
#: (seconds to minutes each): `make check`, the development lane, leaves them to `make test`.
SLOW_FILES = {
    "test_reproduce.py", "test_demo.py", "test_report.py", "test_report_privacy.py", "test_cached_report.py",
    "test_study.py", "test_quick_titles.py", "test_figures.py", "test_stated_causes.py",
    "test_ticp.py", "test_primo.py", "test_rate_based.py", "test_obp_experiments.py", "test_obp_period.py",
    "test_xcp_experiments.py", "test_tcpm_experiments.py", "test_l4s_experiment.py", "test_datacenter.py",
    "test_ns2_oracle.py", "test_ns2_validation.py", "test_ns3_validation.py", "test_distributed.py",
    "test_wheel.py", "test_typing.py", "test_typed_results.py",
}


#: Files whose tests run the registered experiments' quick variants (`reproduce --all --quick`
#: among them): they share one result cache for the session (:func:`quick_experiment_cache`)
#: and one unit of xdist's scheduling, so that each quick run is simulated once, not once per file.
QUICK_EXPERIMENT_FILES = {
    "test_reproduce.py", "test_ticp.py", "test_primo.py", "test_rate_based.py", "test_xcp_experiments.py",
    "test_tcpm_experiments.py", "test_obp_experiments.py", "test_obp_period.py", "test_l4s_experiment.py",
    "test_figures.py",
}

#: The environment variable naming the session's shared cache of quick experiment runs.
QUICK_CACHE_VARIABLE = "CCSIM_TEST_QUICK_CACHE"
_OWN_QUICK_CACHE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """The session's cache of quick experiment runs: made by the controlling process (xdist's
    workers inherit the variable) and removed at its end."""
    if QUICK_CACHE_VARIABLE not in os.environ:
        os.environ[QUICK_CACHE_VARIABLE] = tempfile.mkdtemp(prefix="ccsim-quick-runs-")
        config.stash[_OWN_QUICK_CACHE] = os.environ[QUICK_CACHE_VARIABLE]


def pytest_unconfigure(config: pytest.Config) -> None:
    own = config.stash.get(_OWN_QUICK_CACHE, None)
    if own is not None:
        shutil.rmtree(own, ignore_errors=True)
        os.environ.pop(QUICK_CACHE_VARIABLE, None)


@contextmanager
def quick_experiment_cache(*, cached_figures: bool = True) -> Iterator[Path]:
    """Within the block, experiment runs (``run_many``) read and fill the session's shared cache
    of quick runs. The cache gives a run of the same spec and build bit for bit (its own tests,
    test_cache.py and test_reproduce.py's rerun, check that), so a check judged on a cached run is
    judged on the simulation's own numbers. With ``cached_figures`` the figures, too, come from
    that cache or are drawn into it, as `ccsim reproduce` draws them (ccsim.figcache; a figure is
    keyed by what it is drawn from, so it is the figure drawn): two thirds of a quick check's time
    went to drawing figures that ``reproduce --all --quick`` had drawn already."""
    from ccsim import figcache
    from ccsim.cache import ResultCache
    from ccsim.sweep import sweep_options

    folder = Path(os.environ[QUICK_CACHE_VARIABLE])
    cache = ResultCache(folder)
    with sweep_options(cache=cache):
        if not cached_figures:
            yield folder
            return
        with figcache.drawing(_inline_drawer(cache)):
            yield folder


def _inline_drawer(cache: Any) -> Any:
    """The figure cache's drawer for ``cache``, drawing a missing figure here and at once
    rather than in a worker process (one spawned per block would cost more than the figures it
    draws)."""
    from ccsim import figcache

    class InlineDrawer(figcache.Drawer):
        def figure(self, draw: Any, arguments: dict[str, Any], path: Path) -> Path:
            def here() -> Path:
                written: Path = getattr(draw, "__wrapped__", draw)(**arguments)
                return written

            self.inline(f"{draw.__module__}.{draw.__qualname__}", arguments, path, here)
            return path

    return InlineDrawer(figcache.FigureCache(cache), workers=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The `serial` marker on every test of :data:`SERIAL_FILES` and `slow` on those of
    :data:`SLOW_FILES` (beside the tests that carry them themselves)."""
    # `reproduce --all --quick` (test_reproduce.py's fixture) first in the quick experiments'
    # unit: it runs an experiment's runs on every core and draws its figures in worker processes,
    # into the shared cache, so the experiment files after it read both.
    items.sort(key=lambda item: item.path.name != "test_reproduce.py")
    for item in items:
        if item.path.name in SERIAL_FILES:
            item.add_marker(pytest.mark.serial)
        if item.path.name in ALONE_FILES:
            item.add_marker(pytest.mark.alone)
        if item.path.name in SLOW_FILES | SERIAL_FILES:
            item.add_marker(pytest.mark.slow)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadfile`` (`make test`), xdist's file-by-file scheduling, but with every
    file of :data:`QUICK_EXPERIMENT_FILES` in one unit, on one worker, so that their shared
    cache of quick runs is filled once and read after. (xdist's ``loadgroup`` would say this
    with markers, but under pytest 9 it ignores them: it renames ``item._nodeid``, which
    pytest 9 no longer reads.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FilesWithQuickExperimentsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return "quick experiments" if Path(file).name in QUICK_EXPERIMENT_FILES else file

    return FilesWithQuickExperimentsTogether(config, log)


@pytest.fixture(autouse=True)
def _private_result_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's `ccsim reproduce` calls (and their subprocesses) use a fresh cache of their own,
    never the user's nor another test's."""
    monkeypatch.setenv("CCSIM_CACHE_DIR", str(tmp_path_factory.mktemp("ccsim-cache")))


def small_spec(**run: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "run": {"duration": "5s", "seed": 1, **run},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "queue": "100p"},
            {"between": ["r", "d"], "rate": "10Mbps", "delay": "10ms", "queue": "30p"},
        ],
        "flows": [{"name": "tcp1", "protocol": "newreno", "from": "s", "to": "d"}],
    }
    return spec


@pytest.fixture
def spec() -> dict[str, Any]:
    return copy.deepcopy(small_spec())


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ccsim.cli", *args], capture_output=True, text=True, timeout=timeout)


def replicated_report(name: str, out: Path, jobs: int = 2) -> Any:
    """Experiment `name`'s quick variant over its quick seed replicas, its checks (and its
    readings') combined as `ccsim reproduce` combines them: for an experiment judged over
    replicas (a jittered start, random traffic)."""
    from ccsim.experiments import REGISTRY
    from ccsim.experiments.base import ExperimentReport, combine
    from ccsim.sweep import sweep_options

    exp = REGISTRY[name]
    reports = []
    for k in range(1, exp.default_seeds(True) + 1):
        with quick_experiment_cache(), sweep_options(replica=k):
            reports.append(exp.run(out if k == 1 else out / "seeds" / f"replica-{k}", quick=True, jobs=jobs))
    combined = ExperimentReport(name, combine([r.checks for r in reports]), reports[0].figures, study=exp.study)
    for label in reports[0].readings:
        combined.readings[label] = ExperimentReport(name, combine([r.readings[label].checks for r in reports]),
                                                    reports[0].readings[label].figures, study=exp.study)
    return combined


def judge_check(report: Any, name: str, check: str, not_yet: dict[tuple[str, str], str]) -> None:
    """The one check of experiment `name`'s `report` whose name starts with `check`: it must
    pass (over several replicas: its verdict must be "reproduced", the whole interval in the
    band), unless `not_yet` records it as not reproduced, when it is a strict xfail (and a
    failure the day it passes, so that the list is kept true)."""
    matching = [c for c in report.checks if c.name.startswith(check)]
    assert len(matching) == 1, [c.name for c in report.checks]
    (c,) = matching
    if not c.banded:  # a value reported without a band (issue 41) is neither passed nor an xfail
        assert (name, check) not in not_yet and c.verdict == "measured (no band)", c.describe()
        return
    ok = c.verdict == "reproduced" if len(c.samples) > 1 else c.passed
    if (name, check) in not_yet:
        if ok:
            pytest.fail(f"{name}: {c.name!r} now reproduces ({c.describe()}): move it to REPRODUCED")
        pytest.xfail(not_yet[(name, check)])
    assert ok, report.table_markdown()


def assert_every_check_listed(report: Any, name: str, listed: set[tuple[str, str]]) -> None:
    """Every check of `report` is named, by the start of its name, exactly once in `listed`."""
    prefixes = [check for n, check in listed if n == name]
    for c in report.checks:
        assert sum(c.name.startswith(p) for p in prefixes) == 1, c.name
