"""Run one ccsim spec in ccsim and in ns-2.35 and report the same measures from both.

    from oracle import run_both, ns2_available
    pair = run_both(spec)            # Pair(ccsim=Measures, ns2=Measures, wall_ccsim, wall_ns2)
    pair.ns2.flows["f0"]["goodput_bps"]

Both sides measure the window [warmup, duration] of the spec (translate.py has the ns-2
side's counters); ccsim's side is its summary (docs/metrics.md). `ns2_available()` says
whether `ns` (Debian's package ns2) is on PATH.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

import ccsim
from ccsim.errors import SimulationError

from . import available
from .translate import RESULT_MARKER, SAMPLE_MARKER, Untranslatable, generated_flows, translate

FLOW_KEYS: tuple[Literal["goodput_bps", "timeouts", "retransmitted_packets"], ...] = (
    "goodput_bps", "timeouts", "retransmitted_packets")
LINK_KEYS: tuple[Literal["utilization", "drops", "mean_queue_packets", "tx_packets"], ...] = (
    "utilization", "drops", "mean_queue_packets", "tx_packets")


class Ns2Failed(SimulationError):
    """ns exited with an error or printed no result."""


@dataclasses.dataclass
class Measures:
    flows: dict[str, dict[str, float]]
    links: dict[str, dict[str, float]]
    #: The sampled series (translate.py): (time s, variable, entity, value), in time order.
    samples: list[tuple[float, str, str, float]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Pair:
    ccsim: Measures
    ns2: Measures
    wall_ccsim: float
    wall_ns2: float
    tcl: str


def ns2_available() -> bool:
    return available()


def run_ns2(tcl: str, timeout: float = 1800.0) -> tuple[Measures, float]:
    """Run a translated script; its measures and wall time."""
    with tempfile.TemporaryDirectory(prefix="ccsim-ns2-") as tmp:
        path = Path(tmp) / "scenario.tcl"
        path.write_text(tcl)
        t0 = time.perf_counter()
        proc = subprocess.run(["ns", str(path)], capture_output=True, text=True, timeout=timeout, cwd=tmp)
        wall = time.perf_counter() - t0
    line = None
    samples: list[tuple[float, str, str, float]] = []
    for x in proc.stdout.splitlines():
        if x.startswith(SAMPLE_MARKER):
            t, variable, entity, value = x[len(SAMPLE_MARKER):].split()
            samples.append((float(t), variable, entity, float(value)))
        elif x.startswith(RESULT_MARKER):
            line = x
    if proc.returncode != 0 or line is None:
        raise Ns2Failed(f"ns exited {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-800:]}")
    data = json.loads(line[len(RESULT_MARKER):])
    flows = {k[5:]: v for k, v in data.items() if k.startswith("flow:")}
    links = {k[5:]: v for k, v in data.items() if k.startswith("link:")}
    return Measures(flows, links, samples), wall


def run_ccsim(spec: Any) -> tuple[Measures, float]:
    return measures_of(ccsim.run(spec, progress=False))


def measures_of(result: ccsim.Result) -> tuple[Measures, float]:
    """ccsim's run as the measures the ns-2.35 side gives, and its wall time."""
    s = result.summary
    flows: dict[str, dict[str, float]] = {name: {k: float(f[k]) for k in FLOW_KEYS} for name, f in s["flows"].items()}
    links: dict[str, dict[str, float]] = {name: {k: float(v[k]) for k in LINK_KEYS} for name, v in s["links"].items()}
    return Measures(flows, links), float(s["run"]["wall_seconds"])


def run_both(spec: Any, trace_csv: Path | None = None) -> Pair:
    """`spec` through both simulators; raises Untranslatable or Ns2Failed. With `trace_csv`,
    both sides' cwnd and ssthresh (segments) and RTO (s) at every change, per TCP flow, go to
    that file as rows time,simulator,flow,variable,value."""
    if trace_csv is None:
        translate(spec, generated=[])  # refuses before ccsim runs; generators are replayed below
        plain = ccsim.run(spec, progress=False)
        t = translate(spec, generated=generated_flows(plain))
        ours, wall_ours = measures_of(plain)
        theirs, wall_theirs = run_ns2(t.tcl)
        return Pair(ours, theirs, wall_ours, wall_theirs, t.tcl)
    with tempfile.TemporaryDirectory(prefix="ccsim-ns2-trace-") as tmp:
        translate(spec, generated=[])
        plain = ccsim.run(spec, progress=False)
        t = translate(spec, trace=True, trace_dir=tmp, generated=generated_flows(plain))
        traced = dict(ccsim.validate(spec))
        traced["output"] = dict(traced.get("output", {}), trace=["cwnd", "ssthresh", "rto"])
        result = ccsim.run(traced, progress=False)
        ours, wall_ours = measures_of(plain)
        theirs, wall_theirs = run_ns2(t.tcl)
        rows = ["time,simulator,flow,variable,value"]
        series = result.series()
        changes = series[series["variable"].astype(str).str.endswith(":change")]
        for time_s, flow, variable, value in changes.itertuples(index=False):
            name = str(variable).split(":")[0]
            if flow in t.timers:
                scale = t.timers[flow][3] if name in ("cwnd", "ssthresh") else 1
                rows.append(f"{time_s!r},ccsim,{flow},{name},{value / scale!r}")
        for flow, path in t.trace_files.items():
            rows += [f"{x},ns2,{flow},{v},{y!r}" for x, v, y in ns2_series(Path(path), t.timers[flow])]
    trace_csv.parent.mkdir(parents=True, exist_ok=True)
    trace_csv.write_text("\n".join(rows) + "\n")
    return Pair(ours, theirs, wall_ours, wall_theirs, t.tcl)


def ns2_series(path: Path, timer: tuple[float, float, float, int]) -> list[tuple[str, str, float]]:
    """cwnd, ssthresh (segments) and the RTO (s) from an agent's trace of `cwnd_`, `ssthresh_`,
    `srtt_`, `rttvar_` and `backoff_`. tcp.cc's `traceVar` writes srtt_ as (t_srtt_ >> 3) x tick
    and rttvar_ as t_rttvar_ x tick / 4, so the whole ticks of both come back exactly, and with
    them `rtt_update`'s rtxcur = ((t_rttvar_ << 3) + t_srtt_) >> 3 = t_rttvar_ + (t_srtt_ >> 3)
    ticks (T_SRTT_BITS 3, T_RTTVAR_BITS 2, rttvar_exp_ 2) and `rtt_timeout`'s RTO (minrto x
    backoff below minrto, else rtxcur x backoff, at most maxrto, at least 2 ticks)."""
    tick, minrto, maxrto, _ = timer
    srtt_ticks, rttvar4, backoff = 0, 0, 1
    rtxcur = 3.0  # rtxcur_init_ until the first sample
    last = -1.0
    out: list[tuple[str, str, float]] = []
    pending = ""  # the instant whose timer variables changed, read whole before its RTO
    for line in path.read_text().splitlines() + ["end"]:
        parts = line.split()
        when = parts[0]
        if pending and when != pending:
            if srtt_ticks > 0:
                rtxcur = (rttvar4 + srtt_ticks) * tick
            timeout = max(min((minrto if rtxcur < minrto else rtxcur) * backoff, maxrto), 2 * tick)
            if timeout != last:
                out.append((pending, "rto", timeout))
                last = timeout
            pending = ""
        if len(parts) < 7:
            continue
        var, value = parts[5], float(parts[6])
        if var in ("cwnd_", "ssthresh_"):
            out.append((when, var[:-1], value))
            continue
        if var == "srtt_":
            srtt_ticks = round(value / tick)
        elif var == "rttvar_":
            rttvar4 = round(value * 4 / tick)
        elif var == "backoff_":
            backoff = int(value)
        pending = when
    return out


__all__ = ["Measures", "Ns2Failed", "Pair", "Untranslatable", "ns2_available", "run_both", "run_ccsim",
           "run_ns2"]
