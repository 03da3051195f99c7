"""`ccsim bench`: fixed scenarios, each run in a fresh process for a clean peak-memory figure."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from typing import Any

from . import _ccsim


def _current_rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except OSError:
        return 0


def run_one(name: str) -> dict[str, Any]:
    """Run benchmark ``name`` in this process and measure it.

    ``peak_rss_bytes`` is the process's peak; ``baseline_rss_bytes`` is what the interpreter
    and libraries held before the run, so the difference is the simulation's own.
    """
    import time

    spec = _ccsim.bench_spec(name)
    baseline = _current_rss_bytes()
    start = time.perf_counter()
    raw = _ccsim.run(spec, None)
    wall = time.perf_counter() - start
    summary = json.loads(raw["summary_json"])
    events = summary["run"]["events"]
    packets = sum(link["tx_packets"] for link in summary["links"].values())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "name": name,
        "events": events,
        "packet_transmissions": packets,
        "wall_seconds": wall,
        "events_per_second": events / wall,
        "packets_per_second": packets / wall,
        "peak_rss_bytes": peak,
        "baseline_rss_bytes": baseline,
    }


def run_isolated(name: str) -> dict[str, Any]:
    """Run benchmark ``name`` in a child process."""
    out = subprocess.run([sys.executable, "-m", "ccsim.bench", name], check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def names() -> list[str]:
    return list(_ccsim.bench_names())


if __name__ == "__main__":
    print(json.dumps(run_one(sys.argv[1])))
