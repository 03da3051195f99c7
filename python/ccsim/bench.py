"""`ccsim bench`: fixed scenarios, each run in a fresh process for a clean peak-memory figure.

Engine benchmarks (`dumbbell-100`, ...) measure events per second with series off. The
set-up benchmark `setup-100k` measures what surrounds the simulation for a large scenario:
a dumbbell with 100 000 CBR flows of 1 kbit/s for 10 s (:func:`scale_toml`), timed as
parse + validate + build, run, and writing the output files (no plots). The plot benchmark
`plots-20k` is the same scenario with 20 000 flows and per-flow series, written with its plots:
its `plot_seconds` is drawing them (python/ccsim/plots.py), which must stay linear in the flows.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import _ccsim
from .errors import InternalError

#: The set-up benchmarks and their flow counts (the plot benchmark is one of them).
SETUP_BENCHMARKS = {"setup-100k": 100_000, "plots-20k": 20_000}

#: The set-up benchmarks that record every flow's series and write the plots too.
PLOT_BENCHMARKS = frozenset({"plots-20k"})

#: The event-queue benchmark: the hold model on the simulation's queue, its radix heap alone and
#: the binary heap alone, with these many pending entries, each for QUEUE_OPERATIONS pops.
QUEUE_BENCHMARK = "event-queue"
QUEUE_PENDING = (1_000, 10_000, 100_000)
QUEUE_OPERATIONS = 5_000_000

#: The large-N benchmark (`ccsim bench --large`, or by name): SACK flows each between its own
#: pair of hosts (100 Mbit/s, 1 ms access links) across one 10 Gbit/s, 10 ms bottleneck for 2 s
#: (:func:`large_flows_toml`), timed as a whole ``ccsim run`` process, with the spec path and
#: the engine apart.
LARGE_FLOW_BENCHMARKS = {"sack-100k": 100_000}

#: The large benchmarks (`ccsim bench --large`, or by name): the largest point of
#: obp-parking-flows (seven 1 Gbit/s bottlenecks, RTT 80 ms, 1000 forward and 100 reverse FTP
#: flows, 5 cross flows per bottleneck, 100 web flows/s, voice and streaming both ways, 100 s),
#: one per protocol it compares; minutes each, so not in the default set.
LARGE_BENCHMARKS = {"parking-1000-obp": "obp", "parking-1000-xcp": "xcp", "parking-1000-sack": "sack"}

#: The datacenter benchmarks (`ccsim bench --large`, or by name): the canonical scenarios of a
#: source checkout's examples/datacenter (docs/datacenter.md), name -> (file, load of its first
#: generator or None to keep the file's, simulated duration). Parsimon's fabric runs 20 ms of
#: its 5 s: its rate in simulated seconds per wall second gives the whole run's time.
DATACENTER_BENCHMARKS: dict[str, tuple[str, float | None, str]] = {
    "fattree-k8-30": ("fattree-k8-websearch.toml", 0.3, "100ms"),
    "fattree-k8-50": ("fattree-k8-websearch.toml", 0.5, "100ms"),
    "fattree-k8-70": ("fattree-k8-websearch.toml", 0.7, "100ms"),
    "incast-k8": ("incast-k8.toml", None, "100ms"),
    "meta-6144": ("meta-6144.toml", None, "20ms"),
}


def datacenter_spec(name: str) -> dict[str, Any]:
    """The spec of datacenter benchmark ``name``: its example file with the load and duration
    :data:`DATACENTER_BENCHMARKS` gives."""
    import tomllib

    from .errors import SpecError

    file, load, duration = DATACENTER_BENCHMARKS[name]
    path = Path(__file__).resolve().parents[2] / "examples" / "datacenter" / file
    if not path.is_file():
        raise SpecError(f"{path} is not there: the datacenter benchmarks run the scenarios of a source "
                        f"checkout's examples/datacenter", name)
    spec: dict[str, Any] = tomllib.loads(path.read_text())
    spec["run"]["duration"] = duration
    if load is not None:
        spec["traffic"][0]["load"] = load
    return spec


#: Engine benchmarks run again with their algorithm written in Python through the public
#: interface (:mod:`ccsim.reference`): name -> (the native benchmark, the protocol, the flow keys
#: that give the native one's defaults). Same bytes as the native run (a test); the cost of
#: the Python hooks is their whole-process time over the native one's.
PYTHON_BENCHMARKS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "dumbbell-100-py": ("dumbbell-100", "ccsim.reference.reno:NewReno", {}),
    "cubic-100-py": ("cubic-100", "ccsim.reference.cubic:Cubic", {"recovery": "linux", "hystart": "linux"}),
}


def python_spec(name: str) -> dict[str, Any]:
    """The spec of :data:`PYTHON_BENCHMARKS` ``name``: its native benchmark's, each flow's
    algorithm the Python one."""
    native, protocol, keys = PYTHON_BENCHMARKS[name]
    spec: dict[str, Any] = json.loads(_ccsim.bench_spec(native))
    for f in spec["flows"]:
        f["protocol"] = protocol
        f.update(keys)
    return spec


def large_spec(name: str) -> dict[str, Any]:
    """The spec of large benchmark ``name``: the very spec `ccsim reproduce obp-parking-flows`
    runs at 1000 flows (python/ccsim/experiments/obp.py builds both)."""
    from .experiments import obp

    return obp.parking_flows_spec(1000, LARGE_BENCHMARKS[name], quick=False)


def _current_rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except OSError:
        return 0


def scale_toml(flows: int, *, hosts: bool = False, per_flow_series: bool = False) -> str:
    """A TOML dumbbell (1 Gbit/s, 10 ms bottleneck) with ``flows`` CBR flows of 1 kbit/s for
    10 s, all between two hosts, or with ``hosts=True`` each between its own pair of hosts
    (two access links per flow); with ``per_flow_series`` every flow's rate is recorded (once a
    second) besides the queues."""
    parts = ['[run]\nduration = "10s"\nseed = 1\n',
             '[[links]]\nbetween = ["r1", "r2"]\nrate = "1Gbps"\ndelay = "10ms"\nqueue = "1000p"\n']
    if not hosts:
        parts.append('[[links]]\nbetween = ["s", "r1"]\nrate = "10Gbps"\ndelay = "1ms"\n')
        parts.append('[[links]]\nbetween = ["r2", "d"]\nrate = "10Gbps"\ndelay = "1ms"\n')
    for i in range(flows):
        src, dst = (f"s{i}", f"d{i}") if hosts else ("s", "d")
        if hosts:
            parts.append(f'[[links]]\nbetween = ["{src}", "r1"]\nrate = "10Mbps"\ndelay = "1ms"\n')
            parts.append(f'[[links]]\nbetween = ["r2", "{dst}"]\nrate = "10Mbps"\ndelay = "1ms"\n')
        parts.append(f'[[flows]]\nname = "f{i}"\nprotocol = "cbr"\nfrom = "{src}"\nto = "{dst}"\nrate = "1kbps"\n')
    if per_flow_series:
        parts.append('[output]\nper_flow_series = true\ninterval = "1s"\nseries = ["rate", "queue"]\n')
    return "\n".join(parts)


def large_flows_toml(flows: int, duration: str = "2s") -> str:
    """The large-N scenario: ``flows`` SACK flows, each from its own host to its own host
    (100 Mbit/s, 1 ms access links), across a 10 Gbit/s, 10 ms bottleneck with a 10 000-packet
    buffer, for ``duration``."""
    parts = [f'[run]\nduration = "{duration}"\nseed = 1\n',
             '[[links]]\nbetween = ["r1", "r2"]\nrate = "10Gbps"\ndelay = "10ms"\nqueue = "10000p"\n']
    for i in range(flows):
        parts.append(f'[[links]]\nbetween = ["s{i}", "r1"]\nrate = "100Mbps"\ndelay = "1ms"\n')
        parts.append(f'[[links]]\nbetween = ["r2", "d{i}"]\nrate = "100Mbps"\ndelay = "1ms"\n')
        parts.append(f'[[flows]]\nname = "f{i}"\nprotocol = "sack"\nfrom = "s{i}"\nto = "d{i}"\n')
    return "\n".join(parts)


def run_large_flows(name: str) -> dict[str, Any]:
    """Benchmark ``name`` of :data:`LARGE_FLOW_BENCHMARKS`: the whole ``ccsim run --no-plots``
    as a child process (wall time, peak memory), then in this process the spec path
    (``_ccsim.load_toml``: parse, validate, build) and the build alone (the scenario run for
    1 ns), so that the engine's own rate is the events over the run's time less the build."""
    from .api import run

    flows = LARGE_FLOW_BENCHMARKS[name]
    with tempfile.TemporaryDirectory(prefix="ccsim-bench-") as d:
        path = Path(d) / "large.toml"
        text = large_flows_toml(flows)
        path.write_text(text)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ccsim.cli", "run", str(path), "-o", str(Path(d) / "out"),
                        "--no-plots", "-q"], check=True)
        whole = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        summary = json.loads((Path(d) / "out" / "summary.json").read_text())
        start = time.perf_counter()
        _ccsim.load_toml(text)
        spec_path = time.perf_counter() - start
        zero = Path(d) / "zero.toml"
        zero.write_text(large_flows_toml(flows, duration="1ns"))
        build = float(run(zero, progress=False).overview["run"]["wall_seconds"])
    events = int(summary["run"]["events"])
    engine = float(summary["run"]["wall_seconds"]) - build
    return {"name": name, "flows": flows, "toml_bytes": len(text), "whole_seconds": whole,
            "peak_rss_bytes": peak, "spec_path_seconds": spec_path, "build_seconds": build,
            "engine_seconds": engine, "events": events, "events_per_second": events / max(engine, 1e-9)}


def run_setup(flows: int, *, hosts: bool = False, plots: bool = False) -> dict[str, Any]:
    """Time the phases around the simulation of :func:`scale_toml` in this process; with
    ``plots``, of the scenario with per-flow series, written with its plots (``write_seconds``
    then includes ``plot_seconds``, the time :func:`ccsim.plots.plot_result` took, matplotlib's
    import included)."""
    from .api import run

    with tempfile.TemporaryDirectory(prefix="ccsim-bench-") as d:
        path = Path(d) / "scale.toml"
        path.write_text(scale_toml(flows, hosts=hosts, per_flow_series=plots))
        text = path.read_text()
        start = time.perf_counter()
        _ccsim.load_toml(text)  # what `ccsim validate` does: parse, validate, build
        setup = time.perf_counter() - start
        start = time.perf_counter()
        res = run(path, progress=False)
        run_s = time.perf_counter() - start
        start = time.perf_counter()
        out = res.write(Path(d) / "out", plots=False)
        write = time.perf_counter() - start
        plot_seconds = None
        if plots:  # what Result.write(plots=True) adds: the figures, drawn into the same folder
            from .plots import plot_result

            start = time.perf_counter()
            plot_result(res, out)
            plot_seconds = time.perf_counter() - start
            write += plot_seconds
        sizes = {f.name: f.stat().st_size for f in sorted(out.iterdir()) if not f.name.startswith(".")}
    name = f"plots-{flows // 1000}k" if plots else f"setup-{flows // 1000}k"
    return {
        "name": name + ("-hosts" if hosts else ""),
        "flows": flows,
        "toml_bytes": len(text),
        "setup_seconds": setup,
        "run_seconds": run_s,
        "sim_wall_seconds": res.overview["run"]["wall_seconds"],
        "write_seconds": write,
        "plot_seconds": plot_seconds,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "output_bytes": sizes,
    }


def run_queue() -> dict[str, Any]:
    """The hold model (``_ccsim.bench_event_queue``) on the simulation's queue, on its radix heap
    alone and on the binary heap alone, for each pending count: pops per second of each; the
    checksums of the popped times must agree."""
    rows = []
    for pending in QUEUE_PENDING:
        row: dict[str, Any] = {"pending": pending, "operations": QUEUE_OPERATIONS}
        sums = set()
        for queue in ("queue", "radix", "heap"):
            checksum, seconds = _ccsim.bench_event_queue(queue, pending, QUEUE_OPERATIONS)
            sums.add(checksum)
            row[f"{queue}_ops_per_second"] = QUEUE_OPERATIONS / seconds
        if len(sums) != 1:
            raise InternalError(f"the event queues popped different times with {pending} pending")
        rows.append(row)
    return {"name": QUEUE_BENCHMARK, "rows": rows}


def run_one(name: str) -> dict[str, Any]:
    """Run benchmark ``name`` in this process and measure it.

    ``peak_rss_bytes`` is the process's peak; ``baseline_rss_bytes`` is what the interpreter
    and libraries held before the run, so the difference is the simulation's own.
    """
    if name == QUEUE_BENCHMARK:
        return run_queue()
    if name in LARGE_FLOW_BENCHMARKS:
        return run_large_flows(name)
    if name in SETUP_BENCHMARKS:
        return run_setup(SETUP_BENCHMARKS[name], plots=name in PLOT_BENCHMARKS)
    if name in LARGE_BENCHMARKS:
        spec = json.dumps(large_spec(name))
    elif name in DATACENTER_BENCHMARKS:
        from .spec import to_json_text

        spec = to_json_text(datacenter_spec(name))
    elif name in PYTHON_BENCHMARKS:
        spec = json.dumps(python_spec(name))
    else:
        spec = _ccsim.bench_spec(name)
    baseline = _current_rss_bytes()
    start = time.perf_counter()
    data = _ccsim.run(spec, None)
    wall = time.perf_counter() - start
    summary = json.loads(data.summary_json())
    events = summary["run"]["events"]
    links = data.table("links")
    packets = sum(links["tx_packets"])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    extra: dict[str, Any] = {}
    if name in DATACENTER_BENCHMARKS:
        traffic = summary.get("traffic", {})
        extra = {
            "sim_seconds_per_wall_second": summary["run"]["sim_seconds"] / wall,
            "flows_started": sum(t["started"] for t in traffic.values()),
            "flows_completed": sum(t.get("completed") or 0 for t in traffic.values()),
            "alone_runs": sum(t.get("alone_runs") or 0 for t in traffic.values()),
            "p99_slowdown_largest_bucket": {n: (t.get("slowdown_buckets") or [{}])[-1].get("p99")
                                            for n, t in traffic.items()},
        }
    return {
        **extra,
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
    """Run benchmark ``name`` in a child process; ``process_seconds`` is the child's whole
    life (interpreter start, imports, the run)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "ccsim.bench", name], check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    result["process_seconds"] = time.perf_counter() - start
    return result


def names(*, large: bool = False) -> list[str]:
    """The default benchmarks, and with ``large`` the large ones too."""
    return [*_ccsim.bench_names(), *PYTHON_BENCHMARKS, *SETUP_BENCHMARKS, QUEUE_BENCHMARK,
            *([*LARGE_FLOW_BENCHMARKS, *LARGE_BENCHMARKS, *DATACENTER_BENCHMARKS] if large else [])]


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] in ("setup", "plots"):  # python -m ccsim.bench setup|plots FLOWS [hosts]
        print(json.dumps(run_setup(int(sys.argv[2]), hosts=sys.argv[3:] == ["hosts"], plots=sys.argv[1] == "plots")))
    else:
        print(json.dumps(run_one(sys.argv[1])))
