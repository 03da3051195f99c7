"""The command line: run, validate, schema, bench, reproduce, exit codes, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, NoReturn

import pytest

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


def test_the_event_queue_benchmark_pops_the_binary_heaps_order() -> None:
    # The hold model on the simulation's queue (2100 pending: moved into the radix heap as it fills,
    # at 2048), the radix heap alone and the binary heap alone: the checksums of the popped times
    # agree only if the queues pop the same times in order.
    from ccsim import _ccsim

    radix, _ = _ccsim.bench_event_queue("radix", 2100, 200_000)
    heap, _ = _ccsim.bench_event_queue("heap", 2100, 200_000)
    queue, _ = _ccsim.bench_event_queue("queue", 2100, 200_000)
    assert radix == heap == queue
    assert radix != _ccsim.bench_event_queue("heap", 2101, 200_000)[0]
    with pytest.raises(ccsim.SpecError, match="unknown event queue"):
        _ccsim.bench_event_queue("calendar", 10, 10)


def test_the_large_flow_benchmark_is_n_sack_flows_on_their_own_hosts() -> None:
    from ccsim import bench

    spec = ccsim.validate(_toml_dict(bench.large_flows_toml(3)))
    assert [f["protocol"] for f in spec["flows"]] == ["sack"] * 3
    assert {tuple(link["between"]) for link in spec["links"]} == {
        ("r1", "r2"), *((f"s{i}", "r1") for i in range(3)), *(("r2", f"d{i}") for i in range(3))}
    assert spec["run"]["duration"] == "2s"
    assert bench.LARGE_FLOW_BENCHMARKS == {"sack-100k": 100_000}
    assert "sack-100k" in bench.names(large=True) and "sack-100k" not in bench.names()


def _toml_dict(text: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(text)


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


#: Generous bounds that only guard against a hang: none is a measure of speed (a test asserts
#: behaviour, not time, on a machine shared with other work).
HANG_GUARD = 300.0


class _StreamWatcher:
    """Reads a child's pipe in a thread, keeping all it wrote, so that a test can wait for a piece
    of output (the sign of an event in the child) without blocking on a line that never ends
    (tqdm redraws its bar with carriage returns)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._chunks: list[str] = []
        self._changed = threading.Condition()
        self._done = False
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        while chunk := self._stream.read(1):
            with self._changed:
                self._chunks.append(chunk)
                self._changed.notify_all()
        with self._changed:
            self._done = True
            self._changed.notify_all()

    @property
    def text(self) -> str:
        with self._changed:
            return "".join(self._chunks)

    def wait_for(self, needle: str, timeout: float = HANG_GUARD) -> bool:
        """True once ``needle`` was written; False if the stream closed or ``timeout`` passed."""
        with self._changed:
            return self._changed.wait_for(lambda: needle in "".join(self._chunks) or self._done, timeout) \
                and needle in "".join(self._chunks)

    def finish(self) -> str:
        self._thread.join(HANG_GUARD)
        return self.text


def _stop_or_fail(proc: subprocess.Popen[str], watched: _StreamWatcher, what: str) -> NoReturn:
    """Kill ``proc`` and fail the test, saying ``what`` did not happen and what the child wrote."""
    proc.kill()
    proc.wait(timeout=HANG_GUARD)
    pytest.fail(f"{what} (exit {proc.returncode}; it wrote {watched.finish()[-2000:]!r})")


def test_ctrl_c_stops_a_run_cleanly(tmp_path: Path) -> None:
    # 100 000 s of 900 Mbit/s CBR is about 10^10 packets: hours of work, so the run is still going
    # whenever Ctrl-C comes, and it ends only if Ctrl-C stops it.
    spec = tmp_path / "long.toml"
    spec.write_text(
        '[run]\nduration = "100000s"\n[[links]]\nbetween = ["a", "b"]\nrate = "1Gbps"\ndelay = "1ms"\n'
        '[[flows]]\nname = "f"\nprotocol = "cbr"\nfrom = "a"\nto = "b"\nrate = "900Mbps"\n'
    )
    out = tmp_path / "out"
    # Not --quiet: the progress bar ("... sim s") is the sign that the simulation is running, so
    # Ctrl-C is sent only once the run is observably in progress (not while Python starts).
    with subprocess.Popen([sys.executable, "-m", "ccsim.cli", "run", str(spec), "-o", str(out)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        _interrupt_a_run_in_progress(proc, out)


def _interrupt_a_run_in_progress(proc: subprocess.Popen[str], out: Path) -> None:
    err = _StreamWatcher(proc.stderr)
    if not err.wait_for(" sim s"):
        _stop_or_fail(proc, err, f"the run showed no progress bar within {HANG_GUARD:g} s")
    assert proc.poll() is None, "the run should still be going"
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        _stop_or_fail(proc, err, f"the run went on for {HANG_GUARD:g} s after Ctrl-C")
    text = err.finish()
    assert proc.returncode == 130, text[-2000:]
    # The bar is redrawn with carriage returns and cleared at the end; what follows is one line.
    assert text.replace("\r", "\n").rstrip().splitlines()[-1] == "ccsim: interrupted", text[-2000:]
    assert "Traceback" not in text
    assert proc.stdout is not None and proc.stdout.read() == ""
    assert not out.exists()


def test_ctrl_c_stops_parallel_runs_promptly() -> None:
    # Three runs on three threads: a short one and two of hours each (10^10 packets), all started
    # at once (a sweep starts its longest runs first, so on fewer threads the short one would
    # wait). The short one's end (seen through the sweep's observer) is the sign that the long
    # ones are going. Ctrl-C then; the sweep can end only if it stops them, which is what
    # "promptly" means here, whatever the machine's load.
    code = (
        "import ccsim.sweep as b\n"
        "def spec(duration):\n"
        "    return {'run': {'duration': duration}, 'links': [{'between': ['a', 'b'], 'rate': '1Gbps', 'delay': '1ms'}],\n"
        "            'flows': [{'name': 'f', 'protocol': 'cbr', 'from': 'a', 'to': 'b', 'rate': '900Mbps'}],\n"
        "            'output': {'series': []}}\n"
        "def seen(result, hit):\n"
        "    print('finished', flush=True)\n"
        "try:\n"
        "    with b.sweep_options(on_run=seen):\n"
        "        b.run_many([spec('0.01s'), spec('100000s'), spec('100000s')], jobs=3)\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped', flush=True)\n"
    )
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        _interrupt_a_sweep_in_progress(proc)


def _interrupt_a_sweep_in_progress(proc: subprocess.Popen[str]) -> None:
    out = _StreamWatcher(proc.stdout)
    if not out.wait_for("finished"):
        _stop_or_fail(proc, out, f"the short run was not reported within {HANG_GUARD:g} s")
    assert proc.poll() is None, "the long runs should still be going"
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        _stop_or_fail(proc, out, f"the runs went on for {HANG_GUARD:g} s after Ctrl-C (each would take hours)")
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert out.finish().split() == ["finished", "stopped"], err
