"""The command line: run, validate, schema, bench, reproduce, exit codes, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import ccsim
from conftest import EXAMPLES, cli


def test_run_writes_the_output_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary) == {"flows", "links", "aggregate", "fairness", "run"}
    assert {"series.parquet", "rate.png", "cwnd.png", "queue.png", "spec.json"} <= {p.name for p in out.iterdir()}


def test_validate_and_schema() -> None:
    proc = cli("validate", str(EXAMPLES / "dumbbell.toml"))
    assert proc.returncode == 0 and "ok (4 links, 3 flows)" in proc.stdout
    schema = json.loads(cli("schema").stdout)
    assert schema["title"] == "Spec"


def test_bench_json_prints_one_object_per_benchmark() -> None:
    proc = cli("bench", "cbr-4hop", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["name"] for r in rows] == ["cbr-4hop"]
    r = rows[0]
    assert {"events_per_second", "packets_per_second", "wall_seconds", "peak_rss_bytes"} <= set(r)
    # Packet j (8 us each at 1 Gbps) finishes hop k at (j + k + 1) * 8 us + k * 1 ms; count
    # those finished by 10 s on each of the 4 hops.
    expected = sum((10_000_000_000 - k * 1_000_000) // 8_000 - k for k in range(4))
    assert r["packet_transmissions"] == expected


def test_the_large_benchmarks_are_the_largest_parking_lot_point() -> None:
    from ccsim import bench
    from ccsim.experiments import obp

    for name, protocol in bench.LARGE_BENCHMARKS.items():
        spec = bench.large_spec(name)
        assert spec == obp.parking_flows_spec(1000, protocol)
        assert sum(f["name"].startswith("f") for f in spec["flows"]) == 1000
        assert spec["run"]["duration"] == "100s"
    ccsim.validate(bench.large_spec("parking-1000-obp"))
    assert set(bench.LARGE_BENCHMARKS) <= set(bench.names(large=True))
    assert not set(bench.LARGE_BENCHMARKS) & set(bench.names())
    proc = cli("bench", "nonesuch")
    assert proc.returncode == 2 and "parking-1000-obp" in proc.stderr


def test_reproduce_list_and_unknown() -> None:
    proc = cli("reproduce", "--list")
    assert "dumbbell-newreno" in proc.stdout
    proc = cli("reproduce", "nonesuch")
    assert proc.returncode == 2 and "unknown experiment 'nonesuch'" in proc.stderr


def test_reproduce_quick_dumbbell(tmp_path: Path) -> None:
    proc = cli("reproduce", "dumbbell-newreno", "--quick", "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "reproduced" in proc.stdout
    table = json.loads((tmp_path / "dumbbell-newreno" / "table.json").read_text())
    assert len(table) == 4 and all(row["passed"] for row in table)
    assert (tmp_path / "dumbbell-newreno" / "goodput.png").exists()


def test_ctrl_c_stops_a_run_cleanly(tmp_path: Path) -> None:
    spec = tmp_path / "long.toml"
    spec.write_text(
        '[run]\nduration = "100000s"\n[[links]]\nbetween = ["a", "b"]\nrate = "1Gbps"\ndelay = "1ms"\n'
        '[[flows]]\nname = "f"\nprotocol = "cbr"\nfrom = "a"\nto = "b"\nrate = "900Mbps"\n'
    )
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "run", str(spec), "-o", str(out), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Let the interpreter start and the run begin (imports take about a second) before Ctrl-C.
    time.sleep(5.0)
    assert proc.poll() is None, "the run should still be going"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == "ccsim: interrupted"
    assert not out.exists()


def test_ctrl_c_stops_parallel_runs_promptly() -> None:
    code = (
        "import ccsim.sweep as b\n"
        "spec = {'run': {'duration': '100000s'}, 'links': [{'between': ['a', 'b'], 'rate': '1Gbps', 'delay': '1ms'}],\n"
        "        'flows': [{'name': 'f', 'protocol': 'cbr', 'from': 'a', 'to': 'b', 'rate': '900Mbps'}],\n"
        "        'output': {'series': []}}\n"
        "try:\n"
        "    b.run_many([spec, spec], jobs=2)\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(5.0)
    assert proc.poll() is None, "the runs should still be going"
    start = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert out.strip() == "stopped", err
    assert time.perf_counter() - start < 5.0
