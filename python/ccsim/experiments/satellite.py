"""sat-slowstart: early buffer overflow in slow start over a long-delay path, and the two
sender changes of Barakat, Chafer, Dabbous and Altman ("Improving TCP/IP over
geostationary satellite links", second paper of 003_13a89f4b9cbddf14.txt).

Set-up (ours; the seed holds only the paper's introduction): s -(100 Mbps, 1 ms)- r1
-(2 Mbps, 250 ms)- r2 -(100 Mbps, 1 ms)- d, 1000 B packets, one Reno flow, 60 s. The
round trip is 504 ms plus serialisation, so the BDP is P = 127 packets; the bottleneck
buffer is B = 20 packets, well under it.

Closed form behind the checks: in slow start every ACK, arriving at the bottleneck rate,
releases two packets, so the queue grows by one packet per ACK and a round that takes the
window from W/2 to W leaves W/2 queued. The buffer overflows once W exceeds about 2B = 40
packets, long before the window reaches P + B = 147 (early overflow), and TCP takes that
window for the path's capacity. The changes:

* a slow-start threshold at or below 2B ends slow start before the overflow (the
  paper's first change; a threshold of one BDP, as proposed by others, does not help when
  B < P/2, since P > 2B);
* spacing the segments of slow start by at least the bottleneck's packet time (the ACK
  spacing) sends at the bottleneck rate instead of twice it, so no queue builds (the
  second change). The default spacing, half the inter-ACK time, still sends pairs at
  twice the bottleneck rate and does not prevent the overflow.

The figure is drawn from the engine's change traces (every change of cwnd, ssthresh and the
TCP state) and the bottleneck queue sampled every millisecond, a quarter of the bottleneck's
packet time, so the overflow at the end of slow start (the queue pinned at B while a round's
excess is dropped) is resolved; a right-hand column enlarges the slow-start phase.
CHOICE: the queue is sampled every 1 ms (a quarter of the 4 ms packet time at 2 Mbit/s); the
engine records link queues only at sampling instants.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..results import Result
from .base import Check, Experiment, ExperimentReport, run_many
from .figures import cached_figure, pyplot, save, time_axis

BUFFER = 20  # packets
PACKET = 1000  # bytes
MSS = PACKET - 40
RTT = 2 * 0.252 + 2 * PACKET * 8 / 100e6 + PACKET * 8 / 2e6
BDP = 2e6 / (8 * PACKET) * RTT  # packets
BOTTLENECK = "r1->r2"
QUEUE_INTERVAL = 1e-3  # s: a quarter of the bottleneck's packet time
DURATION = 60.0

CONFIGS: dict[str, dict[str, Any]] = {
    "plain": {},
    "ssthresh-2B": {"initial_ssthresh": f"{2 * BUFFER * PACKET // 1000}kB"},
    "ssthresh-bdp": {"initial_ssthresh": "bdp"},
    "paced": {"paced_slow_start": True, "pacing_spacing": f"{PACKET * 8 / 2e6 * 1e3:g}ms"},
    "paced-default": {"paced_slow_start": True},
    "both": {"initial_ssthresh": f"{2 * BUFFER * PACKET // 1000}kB", "paced_slow_start": True,
             "pacing_spacing": f"{PACKET * 8 / 2e6 * 1e3:g}ms"},
}

#: Line styles that keep configurations with identical curves (plain and ssthresh-bdp;
#: ssthresh-2B and both) distinguishable.
STYLES: dict[str, dict[str, Any]] = {
    "plain": {"color": "C0", "linestyle": "-"},
    "ssthresh-2B": {"color": "C1", "linestyle": "-"},
    "ssthresh-bdp": {"color": "C2", "linestyle": (0, (4, 3))},
    "paced": {"color": "C3", "linestyle": "-"},
    "paced-default": {"color": "C4", "linestyle": "-"},
    "both": {"color": "C5", "linestyle": (0, (4, 3))},
}


def satellite_spec(options: dict[str, Any], duration: str = f"{DURATION:g}s", seed: int = 1) -> dict[str, Any]:
    return {
        "run": {"duration": duration, "seed": seed},
        "links": [
            {"between": ["s", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
            {"between": ["r1", "r2"], "rate": "2Mbps", "delay": "250ms", "queue": f"{BUFFER}p"},
            {"between": ["r2", "d"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
        ],
        "flows": [{"name": "tcp", "protocol": "reno", "from": "s", "to": "d", **options}],
        "output": {"interval": f"{QUEUE_INTERVAL * 1e3:g}ms", "series": ["queue"],
                   "trace": ["cwnd", "ssthresh", "ca_state"]},
    }


def first_loss_window(res: Result) -> float:
    """Segments in flight when the first loss was detected: twice the first ssthresh that
    the sender computed from FlightSize/2 (NaN if it never lost)."""
    rows = res.series("ssthresh:change")
    values = [v for v in rows[rows["entity"] == "tcp"]["value"] if v == v]
    return float("nan") if not values else 2 * float(values[0]) / MSS


@dataclass
class FigureData:
    """What the figure draws for one configuration."""

    cwnd_t: np.ndarray  # s, every change of cwnd (and t = 0)
    cwnd: np.ndarray  # segments
    queue_t: np.ndarray  # s, every QUEUE_INTERVAL
    queue: np.ndarray  # packets waiting at the bottleneck
    losses: np.ndarray  # s, instants the sender entered Recovery or Loss
    end: float  # s, the run's end


def figure_data(res: Result) -> FigureData:
    """The change traces and the fine-grained queue of one run, in segments and packets."""
    cw = res.series("cwnd:change")
    cw = cw[cw["entity"] == "tcp"]
    queue = res.wide("queue")[BOTTLENECK]
    try:
        ca = res.series("ca_state:change")
        ca = ca[ca["entity"] == "tcp"].to_numpy()
    except KeyError:  # never left Open
        ca = np.empty((0, 4), dtype=object)
    states = ca[:, 3].astype(float) if len(ca) else np.empty(0)
    times = ca[:, 0].astype(float) if len(ca) else np.empty(0)
    prev = np.concatenate([[0.0], states[:-1]])
    entered = (states >= 2) & (prev < 2)  # 2 Recovery, 3 Loss
    return FigureData(cwnd_t=cw["time"].to_numpy(dtype=float), cwnd=cw["value"].to_numpy(dtype=float) / MSS,
                      queue_t=queue.index.to_numpy(dtype=float), queue=queue.to_numpy(dtype=float),
                      losses=times[entered], end=float(res.summary["run"]["sim_seconds"]))


def zoom_end(data: dict[str, FigureData]) -> float:
    """The end of the slow-start close-up: one round trip after the last configuration's first
    loss detection, rounded up to a second (or 5 s if none lost)."""
    firsts = [d.losses[0] for d in data.values() if len(d.losses)]
    return float(math.ceil(max(firsts) + RTT)) if firsts else 5.0


class SatSlowStart(Experiment):
    name = "sat-slowstart"
    simulator = "ns (1999)"
    timer = "ns-2 (1998)"
    title = "Early buffer overflow in slow start over a satellite path, and its removal"
    source = "Barakat et al. 1999 (satellite links), introduction; closed form of slow-start queue growth"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        names = list(CONFIGS)
        results = run_many([satellite_spec(CONFIGS[n]) for n in names], jobs=jobs)
        by = dict(zip(names, results))
        report = ExperimentReport(self.name)
        flows = {n: r.summary["flows"]["tcp"] for n, r in by.items()}
        drops = {n: r.summary["links"][BOTTLENECK]["drops"] for n, r in by.items()}
        plain_goodput = flows["plain"]["goodput_bps"]
        w = first_loss_window(by["plain"])
        report.checks.append(Check("no change: window at first loss / (P + B)", w / (BDP + BUFFER),
                                   "< 1: lost before the path is full (overflow starts near 2B, detected "
                                   "one round later)", 0.0, 0.9, "closed form", unit="ratio"))
        report.checks.append(Check("no change: drops", drops["plain"], "> 0", 0, math.inf, "paper",
                                   unit="packets", open_low=True))
        for n, label in [("ssthresh-2B", "ssthresh = 2B"), ("paced", "spacing = packet time"),
                         ("both", "both changes")]:
            report.checks.append(Check(f"{label}: drops", drops[n], "0", 0, 0, "paper", unit="packets"))
            report.checks.append(Check(f"{label}: goodput / no change", flows[n]["goodput_bps"] / plain_goodput,
                                       "> 1 (higher throughput)", 1.2, math.inf, "paper", unit="ratio"))
        report.checks.append(Check("ssthresh = BDP: drops", drops["ssthresh-bdp"],
                                   "> 0 (P > 2B: the threshold is above the overflow window)", 0, math.inf,
                                   "closed form", unit="packets", open_low=True))
        report.checks.append(Check("default spacing (half inter-ACK): drops", drops["paced-default"],
                                   "> 0 (pairs still at twice the bottleneck rate)", 0, math.inf, "closed form",
                                   unit="packets", open_low=True))
        for n, r in by.items():
            r.write(out_dir / n, plots=False)
        report.figures.append(slowstart_figure(by, out_dir / "sat_slowstart.png"))
        return report


@cached_figure
def slowstart_figure(runs: dict[str, Result], path: Path) -> Path:
    """cwnd and the bottleneck queue of every configuration (its run, by name): the whole run
    and slow start."""
    data = {n: figure_data(r) for n, r in runs.items()}
    plt = pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharey="row", width_ratios=[3, 2],
                             constrained_layout=True)
    end, zoom = max(d.end for d in data.values()), zoom_end(data)
    for col, stop in enumerate((end, zoom)):
        top, bottom = axes[0, col], axes[1, col]
        for n, d in data.items():
            c = d.cwnd_t <= stop
            # cwnd holds its value until the next change: a step from each change.
            t = np.append(d.cwnd_t[c], stop)
            v = np.append(d.cwnd[c], d.cwnd[c][-1])
            top.step(t, v, where="post", linewidth=1, label=n, **STYLES[n])
            lost = d.losses[d.losses <= stop]
            if len(lost):
                top.plot(lost, np.interp(lost, d.cwnd_t, d.cwnd), "x", color=STYLES[n]["color"],
                         markersize=6, label=f"{n}: loss detected")
            q = d.queue_t <= stop
            bottom.plot(d.queue_t[q], d.queue[q], linewidth=0.8, label=n, **STYLES[n])
        top.axhline(BDP + BUFFER, color="black", linestyle="--", linewidth=1, label=f"P + B = {BDP + BUFFER:.0f}")
        top.axhline(2 * BUFFER, color="grey", linestyle=":", linewidth=1, label=f"2B = {2 * BUFFER}")
        bottom.axhline(BUFFER, color="black", linestyle="--", linewidth=1, label=f"buffer B = {BUFFER}")
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
            time_axis(ax, stop)
        bottom.set_xlabel("time (s)")
    axes[0, 0].set_title(f"whole run ({end:g} s)", fontsize="medium")
    axes[0, 1].set_title(f"slow start, 0-{zoom:g} s: the queue reaches B and overflows", fontsize="medium")
    axes[0, 0].set_ylabel("cwnd (segments of 960 B)")
    axes[1, 0].set_ylabel(f"bottleneck queue (packets, every {QUEUE_INTERVAL * 1e3:g} ms)")
    # One legend below the panels (it would hide curves inside them): the configurations,
    # their loss detections and the reference levels of both rows.
    handles: dict[str, Any] = {}
    for ax in (axes[0, 0], axes[1, 0]):
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncol=5, fontsize="small")
    return save(fig, path)


EXPERIMENTS = [SatSlowStart()]
