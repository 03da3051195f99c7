"""Behaviour found missing or wrong in review, now pinned down: traces, partial intervals,
sample limits, output folders, spec files, numpy values, builder traps, undefined Jain."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ccsim
from conftest import EXAMPLES, cli, small_spec


def test_every_tcp_variable_can_be_traced_on_change_apart_from_samples() -> None:
    spec = small_spec(duration="3s")
    spec["output"] = {"series": ["cwnd"], "trace": ["cwnd", "srtt", "rto", "inflight", "ssthresh"]}
    res = ccsim.run(spec, progress=False)
    recorded = set(res.table["variable"].astype(str))
    assert {"cwnd", "cwnd:change", "srtt:change", "rto:change", "inflight:change", "ssthresh:change"} <= recorded
    assert len(res.series("cwnd")) == 3  # one sample per second, never mixed with change points
    changes = res.series("cwnd:change")
    assert len(changes) > 50
    # A change trace only records changes.
    values = changes["value"].to_numpy()
    assert (values[1:] != values[:-1]).all()
    # The sampled value at t equals the last change at or before t.
    for _, row in res.series("cwnd").iterrows():
        before = changes[changes["time"] <= row["time"]]
        assert before["value"].iloc[-1] == row["value"]


def test_rate_series_sums_to_goodput_when_the_interval_does_not_divide_the_run() -> None:
    spec = small_spec(duration="2s")
    spec["output"] = {"interval": "0.3s", "series": ["rate"]}
    res = ccsim.run(spec, progress=False)
    rate = res.series("rate")
    assert rate["time"].iloc[-1] == pytest.approx(2.0)
    dt = np.diff(np.concatenate([[0.0], rate["time"].to_numpy()]))
    delivered_bits = float((rate["value"].to_numpy() * dt).sum())
    assert delivered_bits == pytest.approx(res.summary["flows"]["tcp1"]["goodput_bps"] * 2.0, rel=1e-9)


def test_an_interval_longer_than_the_run_still_gives_a_sample_at_the_end() -> None:
    spec = small_spec(duration="2s")
    spec["output"] = {"interval": "3s", "series": ["rate"]}
    assert list(ccsim.run(spec, progress=False).series("rate")["time"]) == [2.0]


def test_too_many_samples_is_a_spec_error() -> None:
    spec = small_spec(duration="100ms")
    spec["output"] = {"interval": "1ns"}
    with pytest.raises(ccsim.SpecError, match=r"gives 100000000 samples over \"100ms\"; at most 1000000") as info:
        ccsim.validate(spec)
    assert info.value.path == "output.interval"


def test_jain_is_null_when_no_flow_got_anything() -> None:
    spec = small_spec(duration="1s")
    spec["flows"][0]["start"] = "999ms"
    assert ccsim.run(spec, progress=False).summary["fairness"]["jain"] is None


def test_output_path_that_is_a_file_fails_before_running(tmp_path: Path) -> None:
    f = tmp_path / "afile"
    f.write_text("x")
    for args in (["run", str(EXAMPLES / "dumbbell.toml"), "-o", str(f)],
                 ["run", str(EXAMPLES / "dumbbell.toml"), "-o", str(f / "sub")],
                 ["reproduce", "dumbbell-newreno", "--quick", "-o", str(f)]):
        proc = cli(*args)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith("ccsim: error: output: "), proc.stderr
    assert f.read_text() == "x"


def test_rerunning_into_a_folder_removes_stale_outputs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "-q", "--csv").returncode == 0
    assert (out / "series.csv").exists() and (out / "rate.png").exists()
    (out / "notes.txt").write_text("mine")
    assert cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "-q", "--no-plots").returncode == 0
    names = {p.name for p in out.iterdir()}
    assert names == {"summary.json", "spec.json", "series.parquet", "flows.parquet", "links.parquet",
                     ".ccsim-manifest", "notes.txt"}


def test_output_folder_behind_a_symlink_to_another_filesystem(tmp_path: Path) -> None:
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK):
        pytest.skip("no writable /dev/shm")
    target = Path(os.path.join(shm, f"ccsim-test-{os.getpid()}"))
    target.mkdir(exist_ok=True)
    link = tmp_path / "link"
    link.symlink_to(target)
    try:
        proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(link), "-q")
        assert proc.returncode == 0, proc.stderr
        assert (target / "summary.json").exists()
        assert not [p for p in target.iterdir() if p.name.startswith(".") and p.name != ".ccsim-manifest"]
    finally:
        for p in target.iterdir():
            p.unlink()
        target.rmdir()


def test_reproduce_replaces_the_experiment_folder(tmp_path: Path) -> None:
    # Results of an earlier run (a sweep point the quick variant does not have), which that
    # run's manifest lists as ccsim's, are not mixed with the new ones.
    stale = tmp_path / "dumbbell-newreno" / "n8"
    stale.mkdir(parents=True)
    (stale / "summary.json").write_text("{}")
    (stale.parent / ".ccsim-manifest").write_text("n8/summary.json\n")
    proc = cli("reproduce", "dumbbell-newreno", "--quick", "-q", "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert not stale.exists()
    assert "| check |" not in proc.stdout  # -q prints only the verdict
    assert "reproduced" in proc.stdout
    # No temporary folder is left; the one hidden file is the list of the report's files.
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [".ccsim-report-manifest"]


def test_reproduce_rejects_nonpositive_jobs() -> None:
    proc = cli("reproduce", "dumbbell-newreno", "--quick", "-j", "0")
    assert proc.returncode == 2 and "must be at least 1" in proc.stderr


def test_spec_json_of_a_run_runs_again_to_the_same_result(tmp_path: Path) -> None:
    res = ccsim.run(EXAMPLES / "dumbbell.toml", progress=False)
    out = res.write(tmp_path / "out", plots=False)
    again = ccsim.run(out / "spec.json", progress=False)
    assert again.summary["flows"] == res.summary["flows"]
    assert again.spec_hash == res.spec_hash
    assert cli("validate", str(out / "spec.json")).returncode == 0


def test_folders_and_unreadable_names_are_spec_errors(tmp_path: Path) -> None:
    proc = cli("validate", str(tmp_path))
    assert proc.returncode == 2 and "is a folder, not a scenario file" in proc.stderr
    with pytest.raises(ccsim.SpecError, match="looks like TOML text, not a file path"):
        ccsim.run("[run]\nduration = '1s'\n" * 40, progress=False)


def test_numpy_values_are_plain_numbers() -> None:
    spec: dict[str, Any] = small_spec(duration="1s")
    spec["run"]["seed"] = np.int64(3)
    spec["links"][0]["loss"] = np.float64(0.001)
    assert ccsim.validate(spec)["run"]["seed"] == 3


def test_builder_traps() -> None:
    s = ccsim.Scenario(duration="1s").link("a", "b", rate="1Mbps", delay="1ms").output(series="rate")
    assert s.validate()["output"]["series"] == ["rate"]
    with pytest.raises(ccsim.SpecError, match="'to' is a positional argument of flow") as info:
        s.flow("f", "cbr", "a", "b", to="a")
    assert info.value.path == "flows[0].to"


def test_traceback_flag_is_accepted_after_the_subcommand() -> None:
    proc = cli("validate", "/nonexistent.toml", "--traceback")
    assert proc.returncode != 0
    assert "unrecognized arguments" not in proc.stderr
    assert "Traceback" in proc.stderr


def test_run_summary_line_lists_the_files_written(tmp_path: Path) -> None:
    proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(tmp_path / "o"), "--no-plots")
    assert proc.returncode == 0
    first = proc.stdout.splitlines()[0]
    assert "series.parquet" in first and ".png" not in first


def test_parallel_sweep_keeps_input_order() -> None:
    specs = [small_spec(duration="2s") for _ in range(3)]
    for i, s in enumerate(specs):
        s["links"][1]["rate"] = f"{(i + 1) * 5}Mbps"
    results = ccsim.run_many(specs, jobs=2)
    # Each result is its own spec's, in input order, and equal to that spec run alone.
    assert [r.spec["links"][1]["rate"] for r in results] == ["5Mbps", "10Mbps", "15Mbps"]
    alone = [ccsim.run(s, progress=False).summary for s in specs]
    assert [{k: v for k, v in r.summary.items() if k != "run"} for r in results] == \
        [{k: v for k, v in a.items() if k != "run"} for a in alone]
    with pytest.raises(ValueError, match="jobs: must be a whole number of at least 1"):
        ccsim.run_many(specs, jobs=0)
    json.dumps([r.summary for r in results])
