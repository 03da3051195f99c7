"""How OBP depends on the routers' measurement period, the one constant of OBP the paper leaves
open (Loureiro and Monteiro, section III-B-2: BR "is updated in short periods of time"; the
seed text is ../shared/seeds/004_5d2c4c8e5900798f.txt). ccsim's default is 10 ms
(crates/ccsim-protocols/src/obp/router.rs says why); this experiment shows what other choices
would give, so a reader can judge how much the OBP results rest on it.

obp-period: OBP flows on the XCP validation's dumbbell (python/ccsim/experiments/xcp.py:
s{i} -(access, twice the bottleneck's rate)- r1 -(bottleneck)- r2 -(1 ms)- d{i}), RTT 100 ms,
one bandwidth-delay product of buffer, 1000 B packets, the period swept over 1 to 100 ms;
utilisation, mean queue, drop rate and Jain's index of the bottleneck, each against the bands the
paper's section IV claims for OBP (utilisation above 0.95, no drops, a queue under 20 % of the
buffer, Jain near 1).

CHOICE: 100 Mbit/s and 20 flows (quick: 10) starting at uniform instants in [0, 1 s) (numpy,
seed 1), 60 s measured from 20 s (quick: 20 s from 10 s). The RTT, 100 ms, is obp-capacity's.
The sweep: 1, 2, 5, 10, 20, 50 and 100 ms (quick: 2, 10, 50 ms).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ..sweep import replica_seed
from .base import Check, Experiment, ExperimentReport, run_many
from .figures import cached_figure, pyplot, save
from .xcp import FORWARD, XcpFlow, bdp_packets, dumbbell_spec, jain, link_metrics

SOURCE = "OBP paper (Loureiro and Monteiro), section IV's claims for OBP"
CAPACITY = 100e6
RTT = 0.100
PERIODS_MS = [1, 2, 5, 10, 20, 50, 100]
QUICK_PERIODS_MS = [2, 10, 50]
DEFAULT_PERIOD_MS = 10
UTILISATION_MIN = 0.95
QUEUE_PCT_MAX = 20.0
JAIN_MIN = 0.95


def period_spec(period_ms: float, *, flows: int, duration: float, warmup: float) -> dict[str, Any]:
    """``flows`` OBP flows at RTT 100 ms on 100 Mbit/s, the routers measuring over ``period_ms``."""
    rng = np.random.default_rng(replica_seed(1))
    fl = [XcpFlow(f"o{i}", RTT, float(rng.uniform(0, 1.0))) for i in range(flows)]
    return dumbbell_spec(CAPACITY, fl, bottleneck_delay=RTT / 2 - 0.002, buffer_packets=bdp_packets(CAPACITY, RTT),
                         duration=duration, warmup=warmup, protocol="obp",
                         run={"obp_period": f"{period_ms:g}ms"})


class ObpPeriod(Experiment):
    name = "obp-period"
    simulator = "ours (OBP's set-up, ns-2.35)"
    timer = "ns-2.35"
    title = "OBP against the routers' measurement period (ours: 10 ms), 100 Mbit/s, RTT 100 ms"
    source = "ours: the period the OBP paper leaves open (section III-B-2)"
    randomness = "random start times"
    seeds = 3
    # The paper fixes no period and claims nothing about it: a study of ours, with no verdict.
    study = True

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        periods = QUICK_PERIODS_MS if quick else PERIODS_MS
        flows, duration, warmup = (10, 20.0, 10.0) if quick else (20, 60.0, 20.0)
        results = run_many([period_spec(p, flows=flows, duration=duration, warmup=warmup) for p in periods],
                           jobs=jobs)
        window = f"{warmup:g}-{duration:g} s"
        buffer = bdp_packets(CAPACITY, RTT)
        report = ExperimentReport(self.name)
        rows: list[tuple[float, float, float, float, float]] = []
        for p, res in zip(periods, results):
            fwd = res.summary["links"][FORWARD]
            m = link_metrics(res, buffer)
            goodput = [f["goodput_bps"] for f in res.summary["flows"].values()]
            queue = 100.0 * fwd["mean_queue_packets"] / buffer
            row = (float(p), float(fwd["utilization"]), queue, m.drop_pct, jain(goodput))
            rows.append(row)
            label = f"period {p:g} ms"
            report.checks.append(Check(f"{label}: bottleneck utilisation ({window})", row[1], "above 0.95",
                                       UTILISATION_MIN, math.inf, SOURCE, unit="ratio", open_low=True))
            report.checks.append(Check(f"{label}: mean queue ({window})", queue, "under 20 %", 0.0, QUEUE_PCT_MAX,
                                       SOURCE, unit="% of buffer"))
            report.checks.append(Check(f"{label}: drop rate ({m.drops} drops, {window})", m.drop_pct, "no drops",
                                       0.0, 0.0, SOURCE, unit="%"))
            report.checks.append(Check(f"{label}: Jain's index of the {flows} goodputs ({window})", row[4],
                                       "near 1 (ours: 0.95)", JAIN_MIN, 1.0, SOURCE, unit="ratio"))
            res.write(out_dir / f"p{p:g}ms", plots=False)
        report.figures.append(period_figure(rows, flows, out_dir / "obp_period.png"))
        return report


@cached_figure
def period_figure(rows: list[tuple[float, float, float, float, float]], flows: int, path: Path) -> Path:
    """The four metrics against the period, the default marked."""
    plt = pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(10, 6), sharex=True, constrained_layout=True)
    periods = [r[0] for r in rows]
    panels = [("bottleneck utilisation", 1, UTILISATION_MIN), ("mean queue (% of buffer)", 2, QUEUE_PCT_MAX),
              ("drop rate (%)", 3, 0.0), ("Jain's index", 4, JAIN_MIN)]
    for ax, (ylabel, col, level) in zip(axes.flat, panels):
        ax.plot(periods, [r[col] for r in rows], "o-", label="OBP")
        ax.axhline(level, color="black", linestyle="--", linewidth=1, label="band")
        ax.axvline(DEFAULT_PERIOD_MS, color="grey", linestyle=":", linewidth=1, label="ccsim's default (10 ms)")
        ax.set_xscale("log")
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize="small")
    for ax in axes[1]:
        ax.set_xlabel("router measurement period (ms)")
    fig.suptitle(f"obp-period: {flows} OBP flows, 100 Mbit/s, RTT 100 ms, buffer 1 BDP")
    return save(fig, path)


EXPERIMENTS: list[Experiment] = [ObpPeriod()]

__all__ = ["EXPERIMENTS", "period_spec"]
