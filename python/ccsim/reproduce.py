"""``ccsim reproduce``: run registered experiments, each over its seed replicas, into one folder,
and write the report of what ran (``index.html``; python/ccsim/report.py).

Layout of the output folder ``DIR`` (the report reads it; docs/experiments.md, The report):

- ``DIR/reproduce.json``: the invocation: ccsim's version, build and commit, the machine (its
  operating system, architecture, Python and cores), the start, the wall time, quick or full,
  jobs, whether a scheduler and which cache were used, runs and cache hits, and the experiments in
  order. The host name, the full platform string, the cache folder and the scheduler's host
  only with ``include_machine`` (``--include-machine``).
- ``DIR/NAME/``: what the experiment writes (figures, per-run folders), replaced whole on each
  run; ``table.json`` and ``table.md`` hold the checks combined over the seed replicas (mean,
  95 % interval, verdict); ``reproduce.json`` the experiment's metadata (seeds, runs, cache hits,
  spec hashes, figures, wall time, status). Replicas 2 to K write into ``NAME/seeds/replica-K/``.

CHOICE: index.html covers the experiments of the invocation that wrote it, not every folder in
``DIR``: a report never mixes runs of two ccsim builds.

CHOICE: what identifies a user or a machine (the host name, the kernel release in the platform
string, the cache folder's path, the scheduler's host, the home folder in an error message)
is left out of ``DIR/reproduce.json`` as well as of the report unless ``include_machine`` asks
for it: the report is rendered from that file (again by ``python -m ccsim.report DIR``), and the
folder is what gets zipped, shared or committed; what is not recorded cannot leak.
"""

from __future__ import annotations

import ipaddress
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from . import _ccsim, figcache
from .cache import ResultCache, build_fingerprint
from .errors import SpecError
from .figcache import Drawer
from .experiments.base import NS2_AGENTS, Experiment, ExperimentReport, OraclePass, combine, through_ns2
from .results import (Result, atomic_write_text, output_lock, prepare_output_dir, refuse_foreign_folder,
                      replace_folder, write_folder_manifest)
from .sweep import sweep_options
from .topfiles import REPORT_MANIFEST as REPORT_MANIFEST
from .topfiles import check_top_file, claim_top_file
from .topfiles import redact as redact

#: What ``reproduce.json`` says of a scheduler's host when it is left out.
HOST_LEFT_OUT = "(host left out)"

#: Files ``reproduce`` writes at the top of its output folder, listed in :data:`REPORT_MANIFEST`.
TOP_FILES = ("index.html", "reproduce.json")
_FIGURE_SUFFIXES = (".png", ".svg")


def git_commit() -> str | None:
    """The commit of the checkout ccsim runs from, if it runs from one (else None)."""
    here = Path(__file__).resolve().parent
    try:
        proc = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = proc.stdout.strip()
    if proc.returncode != 0 or not commit:
        return None
    dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, timeout=5, check=False).stdout.strip()
    return commit + ("+modified" if dirty else "")


def machine(*, include: bool = False) -> dict[str, Any]:
    """The machine as a run records it: the operating system and architecture ("Linux x86_64"),
    Python's version and the number of cores; with ``include``, also the host name and the full
    platform string (kernel release and C library)."""
    if include:
        return {"hostname": socket.gethostname(), "platform": platform.platform(),
                "python": platform.python_version(), "cpus": os.cpu_count()}
    return {"platform": f"{platform.system()} {platform.machine()}".strip() or "unknown",
            "python": platform.python_version(), "cpus": os.cpu_count()}


def shown_scheduler(scheduler: Any, *, include: bool) -> str | None:
    """The scheduler as ``reproduce.json`` records it: its address (a ``distributed.Client`` by
    its repr), with the host left out unless ``include`` or it is this machine's loopback
    (``tcp://127.0.0.1:8786`` names no machine): ``tcp://(host left out):8786``."""
    if scheduler is None:
        return None
    text = scheduler if isinstance(scheduler, str) else repr(scheduler)
    if include:
        return text
    if not isinstance(scheduler, str):
        return f"a distributed.Client ({HOST_LEFT_OUT})"
    try:
        parts = urlsplit(scheduler)
        host, port = parts.hostname, parts.port
    except ValueError:
        return HOST_LEFT_OUT
    if host is not None and _loopback(host):
        return text
    if not parts.scheme:
        return HOST_LEFT_OUT
    return f"{parts.scheme}://{HOST_LEFT_OUT}" + (f":{port}" if port is not None else "")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _cache_kind(cache: ResultCache | None) -> str | None:
    """"default" for the default cache folder, "given" for another, None for no cache."""
    if cache is None:
        return None
    from .cache import default_cache_dir

    return "default" if cache.folder.resolve() == default_cache_dir().resolve() else "given"


@dataclass
class Outcome:
    """One experiment as ``reproduce`` ran it."""

    name: str
    status: str = "ran"
    verdict: str = ""
    in_band: int = 0
    checks: int = 0
    seconds: float = 0.0
    runs: int = 0
    cache_hits: int = 0
    error: str | None = None
    spec_hashes: list[str] = field(default_factory=list)
    seeds: set[int] = field(default_factory=set)
    #: The wall time of the experiment's runs, summed, as each run measured it when it ran (a
    #: run read from the cache brings the time it took then).
    run_seconds: float = 0.0
    #: The verdict with the other readings' where they differ (``Experiment.reading_line``).
    verdict_line: str = ""
    #: What ``--oracle ns2`` recorded (:func:`ns2_pass`), None without it.
    oracle: dict[str, Any] | None = None

    def line(self, out: Path) -> str:
        if self.status != "ran":
            return f"{self.name}: FAILED after {self.seconds:.1f} s: {self.error}"
        line = self.verdict_line or self.verdict
        verdict = "NOT reproduced" + line[len("not reproduced"):] if line.startswith("not reproduced") else line
        hits = f", {self.cache_hits} of {self.runs} runs from the cache" if self.cache_hits else ""
        return f"{self.name}: {verdict}{self.oracle_note()} in {self.seconds:.1f} s{hits}; results in {out / self.name}/"

    def oracle_note(self) -> str:
        """"; with ns-2.35's runs: reproduced (9 of 18 runs by ns-2.35)" and the like; "" without
        an oracle."""
        o = self.oracle
        if o is None:
            return ""
        if o["status"] == "ran":
            return f"; with ns-2.35's runs: {o['verdict']} ({o['translated']} of {o['runs']} runs by ns-2.35)"
        detail = f": {o['error']}" if o.get("error") else ""
        return f"; ns-2.35: {o['status']}{detail}"


class _Bar:
    """The progress of a whole ``reproduce``: replicas done of total, runs, cache hits, time left."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.runs = 0
        self.hits = 0
        self._bar: Any = None
        if enabled and total > 1:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="experiment", file=sys.stderr, leave=False, dynamic_ncols=True,
                             bar_format="{desc}{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                                        "[{elapsed}<{remaining}{postfix}]")

    def experiment(self, name: str) -> None:
        if self._bar is not None:
            self._bar.set_description_str(name)

    def run(self, hit: bool) -> None:
        self.runs += 1
        self.hits += hit
        if self._bar is not None:
            self._bar.set_postfix_str(f"runs {self.runs}, cache hits {self.hits}")

    def step(self) -> None:
        if self._bar is not None:
            self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _figures(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.suffix.lower() in _FIGURE_SUFFIXES and p.is_file()
                  and not p.relative_to(folder).as_posix().startswith(("seeds/", f"{ORACLE_FOLDER}/")))


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")


@dataclass
class _Unfinished:
    """An experiment whose runs and checks are done and whose figures may still be drawing: its
    folder is built in ``tmp`` and put in place by :meth:`finish`."""

    exp: Experiment
    tmp: Path
    out: Path
    outcome: Outcome
    record: dict[str, Any]
    umask: int

    def finish(self, drawer: Drawer | None) -> Outcome:
        """Wait for the figures, write reproduce.json and the manifest, and replace the
        experiment's folder. The experiment's wall time is the time spent on it in this
        process: its runs and checks, and the wait for its figures."""
        try:
            waited = time.perf_counter()
            if drawer is not None:
                drawer.wait(self.tmp)
            self.outcome.seconds += time.perf_counter() - waited
            _write_json(self.tmp / "reproduce.json", {**self.record, "wall_seconds": round(self.outcome.seconds, 3),
                                                      "figures": _figures(self.tmp)})
            write_folder_manifest(self.tmp)
            os.chmod(self.tmp, 0o777 & ~self.umask)  # mkdtemp made it private; the folder is the user's
            replace_folder(self.tmp, self.out)
        finally:
            self.discard(drawer)
        return self.outcome

    def discard(self, drawer: Drawer | None) -> None:
        if drawer is not None:
            drawer.discard(self.tmp)
        shutil.rmtree(self.tmp, ignore_errors=True)


#: The oracles ``reproduce`` can run beside ccsim (``--oracle``).
ORACLES = ("ns2",)
#: An experiment's subfolder for its pass through ns-2.35: what the experiment writes there, and
#: ``scripts/run-NNN.tcl``, every script ns-2.35 ran, in the order of the runs.
ORACLE_FOLDER = "oracle-ns2"


def ns2_pass(exp: Experiment, target: Path, combined: ExperimentReport, *, quick: bool, jobs: int | None,
             replicas: int, cache: ResultCache | None, scheduler: Any) -> dict[str, Any]:
    """Run ``exp`` again over its replicas with every run that translates run by ns-2.35 (its
    folders in ``target``), set ``combined.ns2`` to the checks so computed, and return what
    ``reproduce.json`` records of the pass: its status ("ran", "not installed", "not an ns-2
    paper", "nothing translates", "unavailable"), the runs translated of all, the refusals by
    key, the verdict with ns-2.35's runs and the wall time.

    CHOICE: only an experiment whose paper ran ns-2 (its timer is an ns-2 profile) gets the
    pass: its baselines are ns-2's agents; another experiment's TCP flows run on Linux's timer,
    which ns-2.35 does not have.
    """
    from .ns2 import available

    info: dict[str, Any] = {"simulator": "ns-2.35", "status": "ran", "translated": 0, "runs": 0, "refused": {},
                            "verdict": None, "ns2_seconds": 0.0, "error": None}
    if exp.timer not in NS2_AGENTS:
        return {**info, "status": "not an ns-2 paper"}
    if not available():
        return {**info, "status": "not installed", "error": "ns (Debian package ns2) is not on PATH"}
    from .ns2.result import Ns2Missing

    record = OraclePass()
    started = time.perf_counter()
    checks: list[list[Any]] = []
    try:
        for replica in range(1, replicas + 1):
            folder = target if replica == 1 else target / "seeds" / f"replica-{replica}"
            with sweep_options(cache=cache, scheduler=scheduler, replica=replica, on_run=None), through_ns2(record):
                checks.append(exp.run(folder, quick=quick, jobs=jobs).checks)
    except Ns2Missing as e:
        info.update(status="unavailable", error=str(e))
    if record.scripts:
        scripts = target / "scripts"
        scripts.mkdir(parents=True, exist_ok=True)
        for k, tcl in enumerate(record.scripts, 1):
            (scripts / f"run-{k:03d}.tcl").write_text(tcl)
    info.update(translated=record.translated, runs=record.total, refused=dict(sorted(record.refused.items())),
                ns2_seconds=round(record.ns2_seconds, 3), wall_seconds=round(time.perf_counter() - started, 3))
    if info["status"] != "ran":
        return info
    if record.translated == 0:
        return {**info, "status": "nothing translates"}
    theirs = combine(checks)
    if len(theirs) != len(combined.checks):
        return {**info, "status": "unavailable",
                "error": f"{len(theirs)} checks with ns-2.35's runs, {len(combined.checks)} with ccsim's"}
    combined.ns2 = theirs
    info["verdict"] = ExperimentReport(exp.name, theirs, study=exp.study).verdict
    return info


def run_experiment(exp: Experiment, parent: Path, *, quick: bool, jobs: int | None, seeds: int | None,
                   cache: ResultCache | None, scheduler: Any, bar: _Bar, oracle: str | None = None) -> Outcome:
    """Run ``exp`` over its seed replicas into ``parent / exp.name`` (replaced whole when it
    ends; an interrupted or failed run leaves the old folder as it was)."""
    return _start_experiment(exp, parent, quick=quick, jobs=jobs, seeds=seeds, cache=cache, scheduler=scheduler,
                             bar=bar, oracle=oracle).finish(figcache.current())


def _start_experiment(exp: Experiment, parent: Path, *, quick: bool, jobs: int | None, seeds: int | None,
                      cache: ResultCache | None, scheduler: Any, bar: _Bar,
                      oracle: str | None = None) -> _Unfinished:
    """Run ``exp`` over its seed replicas into a temporary folder beside ``parent / exp.name``;
    its figures may still be drawing when this returns (:meth:`_Unfinished.finish`)."""
    out = parent / exp.name
    refuse_foreign_folder(out)  # the folder is replaced whole: it must hold only what ccsim wrote
    umask = os.umask(0)
    os.umask(umask)
    outcome = Outcome(exp.name)
    replicas = seeds or exp.default_seeds(quick)
    start = time.perf_counter()

    def observe(result: Result, hit: bool) -> None:
        if _interrupt_seen.is_set():  # a Ctrl-C that something swallowed: stop at this run
            raise KeyboardInterrupt
        outcome.seeds.add(result.seed)
        outcome.run_seconds += float(result.overview["run"]["wall_seconds"])
        outcome.runs += 1
        outcome.cache_hits += hit
        outcome.spec_hashes.append(result.spec_hash)
        bar.run(hit)

    tmp = Path(tempfile.mkdtemp(prefix=f".{exp.name}.tmp-", dir=parent))
    unfinished = _Unfinished(exp, tmp, out, outcome, {}, umask)
    try:
        reports: list[ExperimentReport] = []
        for replica in range(1, replicas + 1):
            bar.experiment(exp.name if replicas == 1 else f"{exp.name} (seed {replica} of {replicas})")
            target = tmp if replica == 1 else tmp / "seeds" / f"replica-{replica}"
            with sweep_options(cache=cache, scheduler=scheduler, replica=replica, on_run=observe):
                report = exp.run(target, quick=quick, jobs=jobs)
            if replica > 1:
                report.write(target)
            reports.append(report)
            bar.step()
        combined = ExperimentReport(exp.name, combine([r.checks for r in reports]), reports[0].figures,
                                    study=exp.study)
        oracle_info = None
        if oracle == "ns2":
            bar.experiment(f"{exp.name} (ns-2.35)")
            oracle_info = ns2_pass(exp, tmp / ORACLE_FOLDER, combined, quick=quick, jobs=jobs, replicas=replicas,
                                   cache=cache, scheduler=scheduler)
        combined.write(tmp)
        readings: list[dict[str, Any]] = []
        for r in exp.readings:
            sub = ExperimentReport(exp.name, combine([rep.readings[r.label].checks for rep in reports]),
                                   reports[0].readings[r.label].figures, study=exp.study)
            sub.write(tmp / "readings" / r.label)
            readings.append({"label": r.label, "name": r.name, "detail": r.detail,
                             "verdict": exp.reading_verdict(r.label, sub.verdict, replicas),
                             "in_band": sum(c.verdict == "reproduced" for c in sub.checks),
                             "checks": sum(c.banded for c in sub.checks)})
        outcome.verdict_line = exp.reading_line(combined.verdict,
                                                {str(r["label"]): str(r["verdict"]) for r in readings})
        outcome.verdict = combined.verdict
        outcome.in_band = sum(c.verdict == "reproduced" for c in combined.checks)
        outcome.checks = sum(c.banded for c in combined.checks)  # a value without a band is not counted
        outcome.seconds = time.perf_counter() - start
        unfinished.record = {
            "name": exp.name, "title": exp.title_for(quick), "source": exp.source, "quick": quick,
            "seeds": list(range(1, replicas + 1)), "run_seeds": sorted(outcome.seeds), "randomness": exp.randomness_line,
            "wall_seconds": None, "run_seconds": round(outcome.run_seconds, 3),
            "runs": outcome.runs, "cache_hits": outcome.cache_hits,
            "spec_hashes": sorted(set(outcome.spec_hashes)), "figures": None, "status": "ran",
            "error": None, "verdict": outcome.verdict, "verdict_line": outcome.verdict_line,
            "miss": None if exp.miss is None else {"class": exp.miss.kind, "cause": exp.miss.cause,
                                                   "test": exp.miss.test},
            "readings": readings, **({"oracle": oracle_info} if oracle_info is not None else {})}
        outcome.oracle = oracle_info
    except BaseException:
        unfinished.discard(figcache.current())
        raise
    return unfinished


def _failed(exp: Experiment, parent: Path, outcome: Outcome, quick: bool) -> None:
    """Record a failed experiment: its folder holds only its reproduce.json."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{exp.name}.tmp-", dir=parent))
    try:
        _write_json(tmp / "reproduce.json", {
            "name": exp.name, "title": exp.title_for(quick), "source": exp.source, "quick": quick, "seeds": [],
            "randomness": exp.randomness_line, "wall_seconds": round(outcome.seconds, 3), "runs": outcome.runs,
            "cache_hits": outcome.cache_hits, "spec_hashes": sorted(set(outcome.spec_hashes)), "figures": [],
            "status": "failed", "error": outcome.error, "verdict": "failed"})
        write_folder_manifest(tmp)
        replace_folder(tmp, parent / exp.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _write_top(out: Path, name: str, text: str) -> None:
    """Write ``out/name`` through a temporary file, refusing to replace a file ccsim did not write."""
    path = out / name
    claim_top_file(out, name)
    atomic_write_text(path, text)


_interrupt_seen = threading.Event()


@contextmanager
def _interrupts_remembered() -> Iterator[None]:
    """While an experiment runs, a Ctrl-C is remembered as well as raised: if anything on the way
    up (a library's cleanup) swallows the ``KeyboardInterrupt``, it is raised again when the
    experiment's work returns and at its next run. CHOICE: remembered for the experiment only
    (the main thread's handler is restored after it), so a library that installs its own
    handler meanwhile keeps working as it does without ccsim."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum: int, frame: Any) -> None:
        _interrupt_seen.set()
        raise KeyboardInterrupt

    _interrupt_seen.clear()
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if _interrupt_seen.is_set():
        raise KeyboardInterrupt


def reproduce(experiments: list[Experiment], output: str | os.PathLike[str], *, quick: bool = False,
              jobs: int | None = None, seeds: int | None = None, cache: ResultCache | None = None,
              scheduler: Any = None, progress: bool = True, report: bool = True,
              keep_going: bool = True, echo: Any = None, include_machine: bool = False,
              oracle: str | None = None) -> list[Outcome]:
    """Run ``experiments`` into ``output`` and write its ``reproduce.json`` and ``index.html``.

    ``include_machine`` records the host name, the full platform string, the cache folder and
    the scheduler's host, which are left out otherwise (docs/experiments.md, The report).

    ``oracle="ns2"`` runs each experiment of an ns-2 paper a second time with every run that
    translates run by ns-2.35, and gives each check ns-2.35's value and verdict beside ccsim's
    (:func:`ns2_pass`; the folder's ``oracle-ns2/`` holds those runs' scripts and summaries).

    ``seeds`` overrides every experiment's number of seed replicas. An experiment that fails
    (an internal error) is recorded as failed and the others go on when ``keep_going``. Ctrl-C
    stops the run: the report of the experiments that finished is written, finished runs stay
    in the cache, and ``KeyboardInterrupt`` is raised.
    """
    if cache is not None:
        cache.prepare()  # a folder that cannot be the cache is refused before anything runs
    parent = prepare_output_dir(output)
    # CHOICE: the folder is held for the whole invocation, as `ccsim run` holds its own: a second
    # reproduce into it refuses at once, instead of both running and the index keeping one.
    with output_lock(parent):
        return _reproduce_into(parent, experiments, quick=quick, jobs=jobs, seeds=seeds, cache=cache,
                               scheduler=scheduler, progress=progress, report=report, keep_going=keep_going,
                               echo=echo, include_machine=include_machine, oracle=oracle)


def _reproduce_into(parent: Path, experiments: list[Experiment], *, quick: bool, jobs: int | None,
                    seeds: int | None, cache: ResultCache | None, scheduler: Any, progress: bool, report: bool,
                    keep_going: bool, echo: Any, include_machine: bool, oracle: str | None) -> list[Outcome]:
    for name in TOP_FILES:
        check_top_file(parent, name)
    for exp in experiments:  # every folder to be replaced is checked before the first run
        refuse_foreign_folder(parent / exp.name)
    address = scheduler
    client: Any = None
    made_here = False
    if scheduler is not None:
        from .distributed import connect

        client, made_here = connect(scheduler)  # an unreachable scheduler is refused before anything runs
        scheduler = client
    started = datetime.now(timezone.utc)
    start = time.perf_counter()
    total = sum(seeds or e.default_seeds(quick) for e in experiments)
    bar = _Bar(total, progress)
    outcomes: list[Outcome] = []
    interrupted = False
    workers = jobs or os.cpu_count() or 1
    drawer = figcache.Drawer(figcache.FigureCache(cache) if cache is not None else None, workers)
    waiting: deque[_Unfinished] = deque()

    def failed(exp: Experiment, e: Exception) -> Outcome:
        if not keep_going:
            raise e
        error = f"{type(e).__name__}: {e}".splitlines()[0]
        outcome = Outcome(exp.name, status="failed", verdict="failed",
                          error=error if include_machine else redact(error))
        _failed(exp, parent, outcome, quick)
        return outcome

    def done(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if echo is not None:
            echo(outcome.line(parent))

    def settle(everything: bool) -> None:
        """Finish, in order, the experiments whose figures are drawn; with ``everything``, or
        while more than ``window`` wait, wait for the oldest."""
        while waiting and (everything or len(waiting) > window or not drawer.pending(waiting[0].tmp)):
            unfinished = waiting.popleft()
            try:
                with _interrupts_remembered():
                    outcome = unfinished.finish(drawer)
            except (KeyboardInterrupt, SpecError):
                raise
            except Exception as e:  # noqa: BLE001 - a figure that failed fails its experiment only
                outcome = failed(unfinished.exp, e)
            done(outcome)

    # CHOICE: while the next experiments run, at most two per worker wait for their figures;
    # beyond that the oldest is waited for, which bounds the memory the queued figures hold.
    window = 2 * workers
    try:
        with figcache.drawing(drawer):
            for exp in experiments:
                try:
                    with _interrupts_remembered():
                        waiting.append(_start_experiment(exp, parent, quick=quick, jobs=jobs, seeds=seeds,
                                                         cache=cache, scheduler=scheduler, bar=bar, oracle=oracle))
                except (KeyboardInterrupt, SpecError):
                    raise
                except Exception as e:  # noqa: BLE001 - one experiment's failure is recorded, the others run
                    settle(everything=True)
                    done(failed(exp, e))
                settle(everything=False)
            settle(everything=True)
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        for unfinished in waiting:  # interrupted, or stopped by an error: their folders stay as they were
            unfinished.discard(drawer)
        drawer.close(cancel=bool(waiting) or interrupted)
        bar.close()
        if made_here and client is not None:
            client.close()
        if outcomes or interrupted:
            meta = {"ccsim_version": _ccsim.__version__, "build": build_fingerprint(), "commit": git_commit(),
                    "machine": machine(include=include_machine),
                    "started_utc": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "wall_seconds": round(time.perf_counter() - start, 3), "quick": quick, "jobs": jobs,
                    "seeds": seeds, "scheduler": shown_scheduler(address, include=include_machine), "cache": _cache_kind(cache),
                    "cache_dir": None if cache is None or not include_machine else str(cache.folder),
                    "include_machine": include_machine, "runs": bar.runs, "cache_hits": bar.hits,
                    "interrupted": interrupted, "experiments": [o.name for o in outcomes], "oracle": oracle}
            _write_top(parent, "reproduce.json", json.dumps(meta, indent=2) + "\n")
            if report and outcomes:
                from .report import write_report

                write_report(parent)
    return outcomes
