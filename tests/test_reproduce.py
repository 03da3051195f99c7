"""`ccsim reproduce --all`: every experiment over its seed replicas, the cache, and the report it
writes, loaded in a real browser (python/ccsim/reproduce.py; docs/experiments.md, The report).

The whole quick reproduction runs once (module fixture, about a minute on two cores); the other
tests use one or two experiments.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import QUICK_CACHE_VARIABLE, cli
from test_report import _body_counts, _chromium, browser

import ccsim
from ccsim.experiments import REGISTRY
from ccsim.experiments.base import Check, Experiment, ExperimentReport
from ccsim.reproduce import reproduce


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def quick_all(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("reproduce-all")
    # The session's shared cache of quick runs (tests/conftest.py): the experiment files' runs
    # of the same specs come from it, or fill it.
    env = dict(os.environ, CCSIM_CACHE_DIR=os.environ[QUICK_CACHE_VARIABLE])
    proc = subprocess.run([sys.executable, "-m", "ccsim.cli", "reproduce", "--all", "--quick", "-o", str(out)],
                          capture_output=True, text=True, timeout=900, env=env)
    return out, proc


def test_reproduce_all_quick_runs_every_experiment(quick_all: tuple[Path, Any]) -> None:
    out, proc = quick_all
    assert proc.returncode in (0, 3), proc.stderr[-2000:]
    top = _json(out / "reproduce.json")
    assert top["experiments"] == list(REGISTRY) and top["quick"] is True and not top["interrupted"]
    assert top["build"].startswith(ccsim.__version__)
    verdicts: dict[str, str] = {}
    for name, exp in REGISTRY.items():
        meta = _json(out / name / "reproduce.json")
        assert meta["status"] == "ran", (name, meta["error"])
        assert meta["seeds"] == list(range(1, exp.default_seeds(True) + 1))
        assert meta["runs"] >= 1 and meta["spec_hashes"]
        for fig in meta["figures"]:
            assert (out / name / fig).is_file()
        table = _json(out / name / "table.json")
        # An optional check (ticp-two's bins) keeps the replicas that could measure it.
        assert table and all(len(c["samples"]) == len(meta["seeds"]) or
                             (c["optional"] and 1 <= len(c["samples"]) < len(meta["seeds"])) for c in table)
        if exp.randomness_line and len(meta["seeds"]) > 1:
            # An experiment that says it is random gives other values with other seeds (a study
            # run once quickly, l4s-coexistence, shows it in its own test of two seeds).
            assert any(len(set(c["samples"])) > 1 for c in table), name
            assert all((c["ci_low"] is None) == (c["samples"][0] != c["samples"][0]) for c in table
                       if len(set(c["samples"])) > 1)
        verdicts[name] = meta["verdict"]
    summary = proc.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{len(REGISTRY)} experiments in ")
    counts = {v: list(verdicts.values()).count(v) for v in set(verdicts.values())}
    for verdict, n in counts.items():
        assert f"{n} {verdict}" in summary
    assert proc.returncode == (0 if set(verdicts.values()) == {"reproduced"} else 3)


def test_each_reading_of_an_open_set_up_is_recorded_and_reported(quick_all: tuple[Path, Any]) -> None:
    out, proc = quick_all
    html = (out / "index.html").read_text()
    with_readings = [(n, e) for n, e in REGISTRY.items() if e.readings]
    assert with_readings
    for name, exp in with_readings:
        meta = _json(out / name / "reproduce.json")
        assert [r["label"] for r in meta["readings"]] == [r.label for r in exp.readings]
        differs = []
        for r in meta["readings"]:
            # The reading's verdict follows from its own checks with a band, as the experiment's
            # does (a value without a band counts neither way; issue 41).
            table = [c for c in _json(out / name / "readings" / r["label"] / "table.json") if c["banded"]]
            verdicts = {c["verdict"] for c in table}
            expected = ("not reproduced" if "not reproduced" in verdicts else
                        "inconclusive" if "inconclusive" in verdicts else "reproduced")
            assert r["verdict"] == expected and r["checks"] == len(table)
            if r["verdict"] != meta["verdict"]:
                differs.append(f"{r['verdict']} under reading {r['label']}: {r['name']}")
        # "not reproduced (reproduced under reading B: ...)" wherever a reading's verdict differs.
        assert meta["verdict_line"] == (f"{meta['verdict']} ({'; '.join(differs)})" if differs else meta["verdict"])
        line = next(x for x in proc.stdout.splitlines() if x.startswith(f"{name}: "))
        assert all(d in line for d in differs), line
    assert html.count("Other readings of the set-up") == len(with_readings)


@browser
def test_the_quick_report_loads_in_chromium(quick_all: tuple[Path, Any], tmp_path: Path) -> None:
    out, _ = quick_all
    page = out / "index.html"
    dom = _chromium(page, tmp_path / "profile", "--dump-dom")
    assert _body_counts(dom) == ("0", "0")
    figures = sum(len(_json(out / n / "reproduce.json")["figures"]) for n in REGISTRY)
    assert dom.count("data:image/") >= figures > len(REGISTRY)
    for name in REGISTRY:
        assert f'id="{name}"' in dom
    shot = tmp_path / "shot.png"
    _chromium(page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,4000")
    assert shot.stat().st_size > 50_000
    # Small enough to mail.
    assert page.stat().st_size < 25 * 2**20


def test_a_rerun_reads_every_run_from_the_cache_and_gives_the_same_tables(tmp_path: Path) -> None:
    names = ["ticp-udp-fwd", "dumbbell-newreno"]
    first = cli("reproduce", *names, "--quick", "-q", "--cache", str(tmp_path / "cache"), "-o", str(tmp_path / "a"))
    assert first.returncode in (0, 3), first.stderr
    second = cli("reproduce", *names, "--quick", "-q", "--cache", str(tmp_path / "cache"), "-o", str(tmp_path / "b"))
    assert second.returncode == first.returncode, second.stderr
    for name in names:
        a, b = _json(tmp_path / "a" / name / "reproduce.json"), _json(tmp_path / "b" / name / "reproduce.json")
        assert a["cache_hits"] == 0 and b["cache_hits"] == b["runs"] == a["runs"]
        assert a["spec_hashes"] == b["spec_hashes"]
        assert (tmp_path / "a" / name / "table.json").read_text() == (tmp_path / "b" / name / "table.json").read_text()
    assert "runs from the cache" in second.stdout


def test_seeds_override_and_no_cache_stores_nothing(tmp_path: Path) -> None:
    cache = Path(os.environ["CCSIM_CACHE_DIR"])  # this test's own (tests/conftest.py)
    proc = cli("reproduce", "ticp-udp-fwd", "--quick", "-q", "--seeds", "2", "--no-cache", "-o", str(tmp_path / "out"))
    assert proc.returncode in (0, 3), proc.stderr
    meta = _json(tmp_path / "out" / "ticp-udp-fwd" / "reproduce.json")
    assert meta["seeds"] == [1, 2] and meta["cache_hits"] == 0
    assert (tmp_path / "out" / "ticp-udp-fwd" / "seeds" / "replica-2" / "table.json").is_file()
    assert not cache.exists() or not any(cache.iterdir())
    meta_seeds = meta["run_seeds"]
    assert 1 in meta_seeds and len(meta_seeds) == 2  # replica 2 ran with a seed of its own
    table = _json(tmp_path / "out" / "ticp-udp-fwd" / "table.json")
    replica2 = {c["name"]: c["measured"] for c in _json(tmp_path / "out" / "ticp-udp-fwd" / "seeds" / "replica-2"
                                                         / "table.json")}
    for c in table:
        assert c["samples"][1] == replica2[c["name"]]
        assert c["mean"] == pytest.approx(sum(c["samples"]) / 2)


@pytest.mark.parametrize("args, message", [
    (["--all", "ticp-fwd"], "give experiment names or --all, not both"),
    (["nonesuch"], "unknown experiment 'nonesuch'"),
    (["ticp-fwd", "--seeds", "0"], "--seeds"),
    (["ticp-fwd", "--no-cache", "--cache", "somewhere"], "give --cache DIR or --no-cache, not both"),
    (["ticp-fwd", "--cache", ""], "the cache folder is empty"),
    (["ticp-fwd", "--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler"),
])
def test_bad_arguments_are_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    proc = cli("reproduce", *args, "-o", str(tmp_path))
    assert proc.returncode == 2 and message in proc.stderr.strip().splitlines()[-1]
    assert not list(tmp_path.iterdir())


def test_a_report_file_of_the_users_is_never_replaced(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("my page")
    proc = cli("reproduce", "ticp-fwd", "--quick", "-o", str(tmp_path))
    assert proc.returncode == 2 and "index.html exists and was not written by ccsim" in proc.stderr
    assert (tmp_path / "index.html").read_text() == "my page"
    assert not (tmp_path / "ticp-fwd").exists()


class _Broken(Experiment):
    name = "broken"
    title = "an experiment whose code fails"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        raise RuntimeError("boom")


class _Tiny(Experiment):
    name = "tiny"
    title = "one check that always holds"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        return ExperimentReport(self.name, [Check("one", 1.0, "1", 1, 1, unit="ratio")])


def test_a_failing_experiment_is_recorded_and_the_others_run(tmp_path: Path) -> None:
    outcomes = reproduce([_Broken(), _Tiny()], tmp_path, progress=False)
    assert [(o.name, o.status) for o in outcomes] == [("broken", "failed"), ("tiny", "ran")]
    assert _json(tmp_path / "broken" / "reproduce.json")["error"] == "RuntimeError: boom"
    assert _json(tmp_path / "tiny" / "reproduce.json")["verdict"] == "reproduced"
    assert "broken" in (tmp_path / "index.html").read_text()


def test_ctrl_c_stops_cleanly_writes_the_report_and_keeps_finished_runs(tmp_path: Path) -> None:
    cache, out = tmp_path / "cache", tmp_path / "out"
    env = dict(os.environ, CCSIM_CACHE_DIR=str(cache))
    proc = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "reproduce", "--all", "--quick", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # Ctrl-C only once the reproduction is observably under way: the first experiment's record is
    # written and the process is still going (the quick --all takes minutes, ticp-fwd under a
    # second). The bound only guards against a hang; missing the event is a failure, never a
    # signal sent anyway.
    guard = 600.0
    deadline = time.monotonic() + guard
    while not (out / "ticp-fwd" / "reproduce.json").exists() and proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            _, stderr = proc.communicate(timeout=guard)
            pytest.fail(f"ticp-fwd/reproduce.json did not appear within {guard:g} s: {stderr[-2000:]}")
        time.sleep(0.1)
    if proc.poll() is not None:
        stdout, stderr = proc.communicate(timeout=guard)
        pytest.fail(f"the reproduction ended (exit {proc.returncode}) before Ctrl-C could be sent: "
                    f"{stdout[-1000:]} {stderr[-2000:]}")
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=guard)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=guard)
        pytest.fail(f"the reproduction went on for {guard:g} s after Ctrl-C")
    assert proc.returncode == 130, stderr[-2000:]
    assert stderr.rstrip().endswith("ccsim: interrupted")
    top = _json(out / "reproduce.json")
    assert top["interrupted"] is True and "ticp-fwd" in top["experiments"]
    assert (out / "index.html").exists()
    assert not [p for p in out.iterdir() if ".tmp-" in p.name]
    stored = list(cache.rglob("*.ccres"))
    assert len(stored) >= top["runs"] - top["cache_hits"] > 0
    # What finished before Ctrl-C is read back, not run again.
    again = subprocess.run([sys.executable, "-m", "ccsim.cli", "reproduce", "ticp-fwd", "--quick", "-q", "-o",
                            str(tmp_path / "again")], capture_output=True, text=True, timeout=120, env=env)
    assert again.returncode == 0, again.stderr
    meta = _json(tmp_path / "again" / "ticp-fwd" / "reproduce.json")
    assert meta["cache_hits"] == meta["runs"] > 0


def _status_rows(text: str) -> dict[str, str]:
    from ccsim.report import DOCS_BEGIN, DOCS_END

    block = text.split(DOCS_BEGIN)[1].split(DOCS_END)[0]
    rows = [line.strip("|").split("|") for line in block.splitlines() if line.startswith("| ")][1:]
    return {cells[0].strip(): cells[1].strip().replace("**", "") for cells in rows}


def test_the_docs_status_is_generated_from_a_run(quick_all: tuple[Path, Any], tmp_path: Path) -> None:
    from ccsim.report import DOCS_BEGIN, DOCS_END, main

    out, _ = quick_all
    doc = tmp_path / "experiments.md"
    doc.write_text(f"# Experiments\n\nbefore\n\n{DOCS_BEGIN}\nstale\n{DOCS_END}\n\nafter\n")
    assert main([str(out), "--update-docs", str(doc)]) == 0
    text = doc.read_text()
    assert text.startswith("# Experiments\n\nbefore\n\n") and text.endswith("\n\nafter\n") and "stale" not in text
    # The verdict, and where another reading of an open set-up judges otherwise, that reading's.
    assert _status_rows(text) == {n: _json(out / n / "reproduce.json")["verdict_line"] for n in REGISTRY}
    doc.write_text("no block here\n")
    assert main([str(out), "--update-docs", str(doc)]) == 2


def test_the_docs_status_covers_every_registered_experiment() -> None:
    # Regenerate it (docs/experiments.md, Reproduction status) after adding an experiment.
    text = (Path(__file__).resolve().parents[1] / "docs" / "experiments.md").read_text()
    rows = _status_rows(text)
    assert list(rows) == list(REGISTRY)
    verdicts = {"reproduced", "not reproduced", "inconclusive", "failed", "study (no verdict)"}
    # A verdict, and where another reading of an open set-up judges otherwise, that reading's.
    assert all(v.split(" (")[0] in verdicts or v == "study (no verdict)" for v in rows.values()), rows


def test_a_cache_folder_of_the_users_is_refused_before_any_run(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    proc = cli("reproduce", "ticp-fwd", "--quick", "--cache", str(mine), "-o", str(tmp_path / "out"))
    assert proc.returncode == 2 and "cache: " in proc.stderr and "not a ccsim cache" in proc.stderr
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and not (tmp_path / "out").exists()


def test_a_users_file_in_a_later_experiments_folder_stops_the_run_before_any_experiment(tmp_path: Path) -> None:
    (tmp_path / "ticp-rev").mkdir()
    (tmp_path / "ticp-rev" / "notes.txt").write_text("mine")
    proc = cli("reproduce", "ticp-fwd", "ticp-rev", "--quick", "-o", str(tmp_path))
    assert proc.returncode == 2 and "notes.txt exists and was not written by ccsim" in proc.stderr
    assert not (tmp_path / "ticp-fwd").exists() and (tmp_path / "ticp-rev" / "notes.txt").read_text() == "mine"


def test_another_tools_tagged_cache_is_refused(tmp_path: Path) -> None:
    # cargo's target/ carries the same CACHEDIR.TAG signature; only ccsim's own tag is ccsim's.
    (tmp_path / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n# cargo\n")
    (tmp_path / "build.bin").write_bytes(b"x")
    from ccsim.cache import ResultCache

    with pytest.raises(ccsim.SpecError, match="not a ccsim cache"):
        ResultCache(tmp_path).prepare()
