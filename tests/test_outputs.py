"""The output folder: what ccsim writes, what it leaves alone, and that a write is all or nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

import ccsim
import ccsim.plots
import ccsim.results
from conftest import EXAMPLES, cli, small_spec


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_run_leaves_the_users_own_files_alone(tmp_path: Path) -> None:
    out = tmp_path / "userdir"
    out.mkdir()
    (out / "rate.png").write_bytes(b"my own figure")
    (out / "series.csv").write_text("my,own,table\n")
    (out / "notes.txt").write_text("keep me\n")
    for _ in range(2):
        proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--no-plots", "-q")
        assert proc.returncode == 0, proc.stderr
    assert (out / "rate.png").read_bytes() == b"my own figure"
    assert (out / "series.csv").read_text() == "my,own,table\n"
    assert (out / "notes.txt").read_text() == "keep me\n"
    assert (out / "summary.json").exists()
    listed = set((out / ".ccsim-manifest").read_text().split())
    assert listed == {"summary.json", "spec.json", "series.parquet", "flows.parquet", "links.parquet"}


def test_files_ccsim_wrote_before_are_replaced_or_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--csv", "-q").returncode == 0
    assert (out / "series.csv").exists() and (out / "rate.png").exists()
    (out / "mine.txt").write_text("keep")
    assert cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--no-plots", "-q").returncode == 0
    # The earlier run's csv and plots were ccsim's (listed in the manifest): gone; the user's file stays.
    assert not (out / "series.csv").exists() and not (out / "rate.png").exists()
    assert (out / "mine.txt").read_text() == "keep"


def test_a_file_ccsim_did_not_write_is_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text("my own summary")
    proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--no-plots")
    assert proc.returncode == 2
    assert "summary.json exists and was not written by ccsim" in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert (out / "summary.json").read_text() == "my own summary"
    assert sorted(p.name for p in out.iterdir()) == ["summary.json"]  # refused before running


@pytest.mark.parametrize("target", ["", "/"])
def test_empty_and_root_output_folders_are_refused(tmp_path: Path, target: str) -> None:
    # Run in tmp_path, so that "" (the current folder) is the test's own folder if it is not refused.
    proc = subprocess.run([sys.executable, "-m", "ccsim.cli", "run", str(EXAMPLES / "dumbbell.toml"), "-o", target,
                           "--no-plots"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.startswith("ccsim: error: output: ") and proc.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_home_folder_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    proc = subprocess.run([sys.executable, "-m", "ccsim.cli", "run", str(EXAMPLES / "dumbbell.toml"), "-o", str(home),
                           "--no-plots"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "home folder" in proc.stderr
    assert list(home.iterdir()) == []


def test_reproduce_honours_the_umask(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "ccsim.cli", "reproduce", "ticp-fwd", "--quick", "-q", "-o",
                           str(tmp_path)], capture_output=True, text=True, timeout=300,
                          preexec_fn=lambda: os.umask(0o022))  # noqa: PLW1509 - sets the child's umask only
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "ticp-fwd").stat().st_mode & 0o777 == 0o755
    # No temporary file is left; the one hidden file is the list of the report's files.
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [".ccsim-report-manifest"]
    assert (tmp_path / "index.html").stat().st_mode & 0o777 == 0o644


def _interrupt_on_call(n: int) -> Any:
    real = os.replace
    calls = {"n": 0}

    def replace(src: Any, dst: Any) -> None:
        calls["n"] += 1
        if calls["n"] == n:
            raise KeyboardInterrupt
        real(src, dst)

    return replace


@pytest.mark.parametrize("at_call", [1, 3, 6, 9])
def test_ctrl_c_during_the_final_write_keeps_the_old_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             at_call: int) -> None:
    out = tmp_path / "out"
    old = ccsim.run(small_spec(), progress=False)
    old.write(out, plots=False)
    before = snapshot(out)
    new = ccsim.run(small_spec(seed=2), progress=False)
    monkeypatch.setattr(ccsim.results.os, "replace", _interrupt_on_call(at_call))
    with pytest.raises(KeyboardInterrupt):
        new.write(out, plots=False, csv=True)
    monkeypatch.undo()
    assert snapshot(out) == before
    assert [p.name for p in out.iterdir() if p.name.startswith(".ccsim-") and p.is_dir()] == []
    new.write(out, plots=False)  # and the next write goes through
    assert json.loads((out / "summary.json").read_text())["run"]["seed"] == 2


def test_ctrl_c_while_files_are_written_keeps_the_old_results(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    ccsim.run(small_spec(), progress=False).write(out, plots=False)
    before = snapshot(out)
    new = ccsim.run(small_spec(seed=2), progress=False)

    def interrupted(*_: Any) -> list[Path]:
        raise KeyboardInterrupt

    monkeypatch.setattr(ccsim.plots, "plot_result", interrupted)
    with pytest.raises(KeyboardInterrupt):
        new.write(out, plots=True)
    assert snapshot(out) == before


def test_sigint_during_the_swap_is_held_back_until_it_is_done() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt):
        with ccsim.results._interrupts_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            done.append(True)  # reached: the signal did not interrupt the block
    assert done == [True]


def test_tables_read_back_with_a_real_parquet_reader(tmp_path: Path) -> None:
    res = ccsim.run(EXAMPLES / "dumbbell.toml", progress=False)
    out = res.write(tmp_path / "out", plots=False)
    flows = pq.read_table(out / "flows.parquet").to_pylist()
    assert [f["name"] for f in flows] == [f["name"] for f in res.spec["flows"]]  # spec order
    for row in flows:
        expected = res.summary["flows"][row.pop("name")]
        # The columns of generated flows: empty for the spec's own.
        assert (row.pop("generator"), row.pop("slowdown")) == ("", None)
        row.pop("start_s"), row.pop("size_bytes")
        assert row == expected
    links = pq.read_table(out / "links.parquet").to_pandas().set_index("name")
    bottleneck = res.summary["links"]["r1->r2"]
    assert links.loc["r1->r2", "tx_packets"] == bottleneck["tx_packets"]
    assert links.loc["r1->r2", "drops_by_reason.queue_full"] == bottleneck["drops_by_reason"]["queue_full"]
    assert len(links) == 2 * len(res.spec["links"])


def test_ticp_reports_read_back(tmp_path: Path) -> None:
    res = ccsim.run(EXAMPLES / "ticp.toml", progress=False)
    out = res.write(tmp_path / "out", plots=False)
    table = pq.read_table(out / "ticp_reports.parquet")
    assert str(table.schema.field("source").type) == "uint32"
    got = table.to_pandas()
    want = res.ticp_reports()
    assert list(got["session"]) == list(want["session"].astype(str))
    assert list(got["arrived_s"].fillna(-1)) == list(want["arrived_s"].fillna(-1))
    assert list(got["delayed"]) == list(want["delayed"])


def many_cbr_flows(n: int, **output: Any) -> dict[str, Any]:
    flows = [{"name": f"c{i}", "protocol": "cbr", "from": "s", "to": "d", "rate": f"{10 + i}kbps"} for i in range(n)]
    return {"run": {"duration": "3s", "seed": 1},
            "links": [{"between": ["s", "d"], "rate": "100Mbps", "delay": "5ms"}],
            "flows": flows, "output": {"interval": "1s", "series": ["rate", "queue"], **output}}


def test_a_large_run_keeps_per_flow_results_in_parquet_and_aggregates_in_json(tmp_path: Path) -> None:
    res = ccsim.run(many_cbr_flows(100), progress=False)
    out = res.write(tmp_path / "out", plots=False)
    summary = json.loads((out / "summary.json").read_text())
    assert "flows" not in summary and "links" not in summary
    agg = summary["aggregate"]
    flows = pq.read_table(out / "flows.parquet").to_pandas()
    assert len(flows) == agg["flows"] == 100
    assert agg["goodput_bps"] == pytest.approx(flows["goodput_bps"].sum(), rel=1e-12)
    assert agg["goodput_bps_percentiles"]["median"] == pytest.approx(flows["goodput_bps"].median(), rel=1e-12)
    goodput = flows.set_index("name")["goodput_bps"]
    assert (agg["lowest_flow"], agg["highest_flow"]) == (goodput.idxmin(), goodput.idxmax())  # first on ties
    assert "\n" not in (out / "spec.json").read_text().strip()  # compact
    assert len(res.summary["flows"]) == 100  # the Python summary still has every flow


def test_many_flows_record_aggregate_series_equal_to_the_per_flow_ones() -> None:
    agg = ccsim.run(many_cbr_flows(100), progress=False).series("rate")
    each = ccsim.run(many_cbr_flows(100, per_flow_series=True), progress=False).series("rate")
    assert set(agg["entity"].astype(str)) == {"flows (sum)", "flows (min)", "flows (p10)", "flows (median)",
                                               "flows (p90)", "flows (max)"}
    by_time = each.groupby("time")["value"]
    wide = agg.pivot_table(index="time", columns="entity", values="value", observed=True)
    assert list(wide["flows (sum)"]) == pytest.approx(list(by_time.sum()), rel=1e-12)
    assert list(wide["flows (median)"]) == pytest.approx(list(by_time.median()), rel=1e-12)
    assert list(wide["flows (p10)"]) == pytest.approx(list(by_time.quantile(0.1)), rel=1e-12)
    assert list(wide["flows (max)"]) == list(by_time.max())
    few = ccsim.run(many_cbr_flows(3, per_flow_series=False), progress=False).series("rate")
    assert "flows (sum)" in set(few["entity"].astype(str))


def test_reproduce_replaces_only_a_folder_it_wrote(tmp_path: Path) -> None:
    # `ccsim reproduce NAME -o DIR` replaces DIR/NAME whole: a user's file there stops it.
    exp = tmp_path / "dumbbell-newreno"
    exp.mkdir()
    (exp / "thesis.tex").write_text("my thesis\n")
    proc = cli("reproduce", "dumbbell-newreno", "--quick", "-q", "-o", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr.startswith("ccsim: error: output: ") and "thesis.tex exists and was not written" in proc.stderr
    assert (exp / "thesis.tex").read_text() == "my thesis\n"
    (exp / "thesis.tex").unlink()
    # Its own folder it replaces, run after run; a file added inside it stops it again.
    for _ in range(2):
        proc = cli("reproduce", "dumbbell-newreno", "--quick", "-q", "-o", str(tmp_path))
        assert proc.returncode == 0, proc.stderr
    assert "table.json" in (exp / ".ccsim-manifest").read_text().split()
    (exp / "n2" / "mine.txt").write_text("mine\n")
    proc = cli("reproduce", "dumbbell-newreno", "--quick", "-q", "-o", str(tmp_path))
    assert proc.returncode == 2 and "mine.txt exists and was not written" in proc.stderr
    assert (exp / "n2" / "mine.txt").exists()


def test_names_that_look_like_numbers_or_maths_are_text(tmp_path: Path) -> None:
    # "²" is a digit to str.isdigit() but not to int(); "$...$" is maths to matplotlib.
    spec = small_spec()
    spec["flows"] = [dict(spec["flows"][0], name=n) for n in ("²", "a$\\frac$", "tcp10", "tcp2")]
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    proc = cli("run", str(path), "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    listed = [line.split()[0] for line in proc.stdout.splitlines() if "goodput" in line]
    assert listed == ["a$\\frac$", "tcp2", "tcp10", "²"]
    assert {"rate.png", "cwnd.png"} <= {p.name for p in (tmp_path / "out").iterdir()}


def test_a_failed_figure_keeps_the_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = ccsim.run(small_spec(), progress=False)

    def broken(*_: Any) -> Any:
        raise ValueError("figure bug")

    monkeypatch.setattr(ccsim.plots, "plot_result", broken)
    with pytest.raises(ccsim.InternalError, match=r"the plots failed \(ValueError: figure bug\); the data files were written"):
        result.write(tmp_path / "out")
    assert {"summary.json", "flows.parquet", "series.parquet"} <= {p.name for p in (tmp_path / "out").iterdir()}
