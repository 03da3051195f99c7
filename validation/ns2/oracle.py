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
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import ccsim

from translate import Untranslatable, translate

MARKER = "CCSIM-NS2-RESULT "
FLOW_KEYS = ("goodput_bps", "timeouts", "retransmitted_packets")
LINK_KEYS = ("utilization", "drops", "mean_queue_packets", "tx_packets")


class Ns2Failed(RuntimeError):
    """ns exited with an error or printed no result."""


@dataclasses.dataclass
class Measures:
    flows: dict[str, dict[str, float]]
    links: dict[str, dict[str, float]]


@dataclasses.dataclass
class Pair:
    ccsim: Measures
    ns2: Measures
    wall_ccsim: float
    wall_ns2: float
    tcl: str


def ns2_available() -> bool:
    return shutil.which("ns") is not None


def run_ns2(tcl: str, timeout: float = 1800.0) -> tuple[Measures, float]:
    """Run a translated script; its measures and wall time."""
    with tempfile.TemporaryDirectory(prefix="ccsim-ns2-") as tmp:
        path = Path(tmp) / "scenario.tcl"
        path.write_text(tcl)
        t0 = time.perf_counter()
        proc = subprocess.run(["ns", str(path)], capture_output=True, text=True, timeout=timeout, cwd=tmp)
        wall = time.perf_counter() - t0
    line = next((x for x in proc.stdout.splitlines() if x.startswith(MARKER)), None)
    if proc.returncode != 0 or line is None:
        raise Ns2Failed(f"ns exited {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-800:]}")
    data = json.loads(line[len(MARKER):])
    flows = {k[5:]: v for k, v in data.items() if k.startswith("flow:")}
    links = {k[5:]: v for k, v in data.items() if k.startswith("link:")}
    return Measures(flows, links), wall


def run_ccsim(spec: Any) -> tuple[Measures, float]:
    result = ccsim.run(spec, progress=False)
    s = result.summary
    flows = {name: {k: float(f[k]) for k in FLOW_KEYS} for name, f in s["flows"].items()}
    links = {name: {k: float(v[k]) for k in LINK_KEYS} for name, v in s["links"].items()}
    return Measures(flows, links), float(s["run"]["wall_seconds"])


def run_both(spec: Any) -> Pair:
    """`spec` through both simulators; raises Untranslatable or Ns2Failed."""
    t = translate(spec)
    ours, wall_ours = run_ccsim(spec)
    theirs, wall_theirs = run_ns2(t.tcl)
    return Pair(ours, theirs, wall_ours, wall_theirs, t.tcl)


__all__ = ["Measures", "Ns2Failed", "Pair", "Untranslatable", "ns2_available", "run_both", "run_ccsim",
           "run_ns2"]
