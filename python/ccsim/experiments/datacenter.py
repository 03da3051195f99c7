"""datacenter-slowdown (issue 43): FCT slowdown by flow size on a k = 8 fat-tree under DCTCP
with the web-search workload at 30, 50 and 70 % load, the set-up of
examples/datacenter/fattree-k8-websearch.toml (docs/datacenter.md).

A study of ours, without a verdict: HPCC (SIGCOMM 2019, figure 11) and Parsimon (NSDI 2023)
report this quantity for DCTCP, but over other fabrics, rates and buffers, so their curves give
no band for this one (docs/experiments.md, section "datacenter-slowdown"). The checks hold the
measured slowdowns against their physical range (a flow is never faster than alone: at least 1);
the offered load is shown beside its target (tests/test_datacenter.py holds it within the
compound-Poisson spread of the arrivals).

Set-up: 128 hosts, every link 100 Gbit/s and 1 us, DCTCP marking above 100 packets in
2700-packet buffers, ECMP, 1500-byte packets, initial window 10; web-search flow sizes (the
DCTCP paper's, as HPCC's traffic generator ships them) arriving as a Poisson process, all to
all. Full: arrivals during 100 ms, as HPCC and Unison run (the run stops at 100 ms, so the
largest flows that start late do not complete and are not in the buckets), one seed. Quick: 1 ms, two seeds.

Metrics per load: the slowdown buckets (HPCC's fct_analysis cut: the completed flows by size,
5 % a bucket) and their p50 and p99; the offered load, application bytes started over the
hosts' link capacity and the arrival window.

Outputs: ``loads.json`` (each load's buckets and counts), ``datacenter_slowdown.png``, and a
sub-folder per load with the run's files (``load<percent>``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..plots import plain_log_axes
from ..results import Result
from .base import Check, Experiment, ExperimentReport, run_many
from .figures import cached_figure, pyplot, save

LOADS = [0.3, 0.5, 0.7]
K, RATE_BPS, HOSTS = 8, 100e9, 128
#: Arrival window (= run length), seconds: (full, quick).
FULL_S, QUICK_S = 0.1, 0.001
STUDY = "study: no published band for this fabric (docs/experiments.md, datacenter-slowdown)"
SOURCE = "ours (no band)"
#: The buckets shown as checks, by their first percent: the smallest flows, the median ones and
#: the largest.
CHECKED_BUCKETS = (0, 45, 95)


def spec(load: float, seconds: float) -> dict[str, Any]:
    """The canonical k = 8 scenario at ``load``, arrivals and run ``seconds`` long."""
    return {
        "run": {"duration": f"{seconds * 1e3:g}ms", "multipath": "ecmp"},
        "topology": {"kind": "fat-tree", "k": K, "rate": "100Gbps", "delay": "1us",
                     "queue": {"kind": "step", "limit": "2700p", "threshold": 100}},
        "traffic": [{"name": "websearch", "kind": "flows", "hosts": "all", "sizes": "websearch", "load": load,
                     "protocol": "dctcp", "packet_size": "1500B",
                     "options": {"ecn": True, "initial_window": 10}}],
        "output": {"series": []},
    }


def measure(load: float, res: Result, seconds: float) -> dict[str, Any]:
    t = res.summary["traffic"]["websearch"]
    return {"load": load, "started": int(t["started"]), "completed": int(t["completed"]),
            "bytes_started": int(t["bytes_started"]),
            "offered_load": t["bytes_started"] * 8 / (HOSTS * RATE_BPS * seconds),
            "alone_runs": int(t["alone_runs"]), "alone_cached": int(t["alone_cached"]),
            "buckets": t["slowdown_buckets"]}


def checks(m: dict[str, Any], seconds: float) -> list[Check]:
    where = f"load {m['load']:.0%}"
    out = [Check(f"{where}: offered load, application bytes started / host capacity over {seconds * 1e3:g} ms",
                 m["offered_load"], f"{STUDY}; the target is {m['load']:g}", 0.0, math.inf, SOURCE, unit="ratio")]
    by_start = {b["from_percent"]: b for b in m["buckets"]}
    for first in CHECKED_BUCKETS:
        b = by_start.get(first)
        if b is None:
            continue
        size = f"flows {b['from_percent']}-{b['to_percent']} % by size (up to {b['max_size_bytes']} B)"
        for q in ("p50", "p99"):
            out.append(Check(f"{where}: {q} FCT slowdown, {size}", b[q], STUDY, 1.0, math.inf, SOURCE,
                             unit="ratio", physical=(1.0, math.inf)))
    return out


class DatacenterSlowdown(Experiment):
    name = "datacenter-slowdown"
    simulator = "ours"
    timer = "linux"
    title = ("FCT slowdown by flow size: k = 8 fat-tree, 100 Gbit/s, DCTCP, ECMP, web search at 30, 50 and 70 % "
             "load, 100 ms of arrivals")
    quick_title = ("FCT slowdown by flow size: k = 8 fat-tree, 100 Gbit/s, DCTCP, ECMP, web search at 30, 50 and "
                   "70 % load, 1 ms of arrivals")
    source = "ours (issue 43): the canonical fat-tree scenario; HPCC and Parsimon report others"
    randomness = "the flows' arrivals, sizes and ends; the ECMP hash's salt"
    seeds = 1
    quick_seeds = 2
    study = True

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        seconds = QUICK_S if quick else FULL_S
        report = ExperimentReport(self.name, study=True)
        rows = []
        # CHOICE: one run at a time: a full run holds about 130 MB and its alone runs.
        for load in LOADS:
            (res,) = run_many([spec(load, seconds)], jobs=1)
            rows.append(measure(load, res, seconds))
            res.write(out_dir / f"load{round(load * 100)}", plots=False)
            del res
        for m in rows:
            report.checks.extend(checks(m, seconds))
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "loads.json").write_text(json.dumps(rows, indent=1) + "\n")
        report.figures.append(slowdown_figure(rows, out_dir / "datacenter_slowdown.png"))
        return report


@cached_figure
def slowdown_figure(rows: list[dict[str, Any]], path: Path) -> Path:
    """p50 and p99 slowdown against the largest size of each bucket, one colour per load."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5), constrained_layout=True)
    for m in rows:
        b = m["buckets"]
        if not b:
            continue
        sizes = [x["max_size_bytes"] for x in b]
        line = ax.plot(sizes, [x["p50"] for x in b], marker="o", ms=3, label=f"load {m['load']:.0%}, p50")[0]
        ax.plot(sizes, [x["p99"] for x in b], marker="^", ms=3, ls="--", color=line.get_color(),
                label=f"load {m['load']:.0%}, p99")
    ax.axhline(1, color="black", linewidth=1, label="alone on the empty fabric (1)")
    plain_log_axes(ax)
    ax.set_xlabel("flow size, bytes (largest of each 5 % bucket of the completed flows)")
    ax.set_ylabel("FCT slowdown (FCT / FCT alone)")
    ax.set_title("k = 8 fat-tree, DCTCP, web search: FCT slowdown by size", fontsize="medium")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save(fig, path)


EXPERIMENTS: list[Experiment] = [DatacenterSlowdown()]

__all__ = ["EXPERIMENTS", "spec"]
