"""No input exhausts the machine: a run that would hold more memory than the limit stops
with a SimulationError (CLI: one line, status 1), and a failed allocation, which Rust
answers with an abort, still ends the command line in a `ccsim:` line and status 1."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import ccsim

# A 100 Mbit/s CBR source into a 1 Mbit/s link with room for a million packets: the queue
# grows by about 12 000 packets per simulated second, so memory grows with simulated time.
FLOOD = {
    "run": {"duration": "60s"},
    "links": [
        {"between": ["s", "r"], "rate": "1Gbps", "delay": "1ms"},
        {"between": ["r", "d"], "rate": "1Mbps", "delay": "1ms", "queue": "1000000p"},
    ],
    "flows": [{"name": "flood", "protocol": "cbr", "from": "s", "to": "d", "rate": "100Mbps"}],
}


FLOOD_TOML = """
[run]
duration = "120s"
[[links]]
between = ["s", "r"]
rate = "1Gbps"
delay = "1ms"
[[links]]
between = ["r", "d"]
rate = "1Mbps"
delay = "1ms"
queue = "1000000p"
[[flows]]
name = "flood"
protocol = "cbr"
from = "s"
to = "d"
rate = "100Mbps"
"""


def _rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the memory guard reads /proc")
def test_a_run_over_the_memory_limit_stops_with_a_simulation_error() -> None:
    # In a fresh process: in the test's own, heap that earlier tests freed still counts in the
    # RSS, and the queue can fill it without the RSS growing past a limit set above it.
    script = f"""
import os, re, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_resources import FLOOD, _rss
import ccsim
limit = _rss() + 30_000_000
os.environ["CCSIM_MEMORY_LIMIT"] = str(limit)
try:
    ccsim.run(FLOOD, progress=False)
except ccsim.SimulationError as e:
    assert re.search(r"run stopped at t = [\\d.]+ s: it holds .* over the memory limit", str(e)), e
    # The process holds little more than the limit: the guard stopped the growth.
    assert _rss() < limit + 100_000_000, (_rss(), limit)
    print("stopped")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "stopped", proc.stdout + proc.stderr


def test_a_bad_memory_limit_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CCSIM_MEMORY_LIMIT", "lots")
    with pytest.raises(ccsim.SpecError, match=r"CCSIM_MEMORY_LIMIT: \"lots\" is not a memory size"):
        ccsim.run(FLOOD, progress=False)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the memory guard reads /proc")
def test_the_cli_reports_the_memory_limit_in_one_line(tmp_path: Path) -> None:
    scenario = tmp_path / "flood.toml"
    scenario.write_text(FLOOD_TOML)
    # The command line starts at about 20 MB and this run peaks at about 85 MB unguarded.
    env = dict(os.environ, CCSIM_MEMORY_LIMIT="50MB")
    proc = subprocess.run([sys.executable, "-m", "ccsim.cli", "run", str(scenario), "-q", "--no-plots",
                           "-o", str(tmp_path / "out")], capture_output=True, text=True, env=env)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("ccsim: error: run stopped at t = ")
    assert not (tmp_path / "out" / "summary.json").exists()


def test_a_failed_allocation_ends_the_cli_with_a_ccsim_line_and_status_1() -> None:
    code = ("import sys, ccsim.cli as c, ccsim._ccsim as n; "
            "c._cmd_schema = lambda a: n._selftest_alloc_failure(); sys.exit(c.main(['schema']))")
    # Even where RUST_BACKTRACE=1 is set, the command line prints no stack trace.
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, RUST_BACKTRACE="1"))
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    # Rust's runtime prints "memory allocation of N bytes failed" and a note before it
    # aborts (its hook cannot be replaced on stable Rust); ours is the last line.
    assert len(lines) <= 3, proc.stderr
    assert lines[0].startswith("memory allocation of ")
    assert lines[-1].startswith("ccsim: internal error: the process aborted"), proc.stderr
    assert "core dumped" not in proc.stderr



@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="the memory guard reads /proc")
def test_an_address_space_limit_stops_the_run_before_an_allocation_fails(tmp_path: Path) -> None:
    # Under `ulimit -v` of 80 MB (the command line starts at about 21 MB of address space)
    # the flood's queue would make an allocation fail; the guard stops the run first.
    scenario = tmp_path / "flood.toml"
    scenario.write_text(FLOOD_TOML)

    def limit_address_space() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (80 * 2**20, resource.RLIM_INFINITY))

    proc = subprocess.run([sys.executable, "-m", "ccsim.cli", "run", str(scenario), "-q", "--no-plots",
                           "-o", str(tmp_path / "out")], capture_output=True, text=True,
                          preexec_fn=limit_address_space)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("ccsim: error: run stopped at t = "), proc.stderr
    assert "(80 % of the address-space limit, ulimit -v)" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the memory guard reads /proc")
def test_the_guard_sees_series_that_grow_faster_than_events(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1000 flows sampled every millisecond for 19 s: 19 million values (within the series
    # bound) from about 100 000 packet events, so a check every chunk of events alone would
    # come only at the end, after some 400 MB.
    spec = {"run": {"duration": "19s"},
            "links": [{"between": ["s", "d"], "rate": "100Mbps", "delay": "1ms"}],
            "flows": [{"name": f"f{i}", "protocol": "cbr", "from": "s", "to": "d", "rate": "1kbps",
                       "packet_size": "125B"} for i in range(1000)],
            "output": {"interval": "1ms", "series": ["rate"]}}
    limit = _rss() + 60_000_000
    monkeypatch.setenv("CCSIM_MEMORY_LIMIT", str(limit))
    with pytest.raises(ccsim.SimulationError, match=r"run stopped at t = ([\d.]+) s") as e:
        ccsim.run(spec, progress=False)
    stopped_at = float(re.search(r"t = ([\d.]+) s", str(e.value)).group(1))
    assert stopped_at < 10, str(e.value)
    assert _rss() < limit + 100_000_000
