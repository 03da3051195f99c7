"""XCP against its own paper's claims (Katabi, Handley and Rohrs, "Congestion Control for High
Bandwidth-Delay Product Networks", SIGCOMM 2002, section 5; ../shared/research/next.md section
1.1 lists its experiments): the validation the issue asks for before XCP serves as a baseline.

Three registered recipes on a dumbbell r1-r2 whose every link runs the XCP router function
(``xcp_router = "paper"``), with the paper's constants (alpha 0.4, beta 0.226, gamma 0.1; the
protocol's own), 1000 B data packets and a bottleneck buffer of one bandwidth-delay product:

- xcp-capacity: 50 forward and 50 reverse flows, RTT 80 ms, the capacity swept; utilisation,
  drops and mean queue of the bottleneck (both directions);
- xcp-rtt-fairness: 30 flows on 30 Mbit/s with RTTs 40, 50, ..., 330 ms; Jain's index;
- xcp-convergence: 5 flows on 45 Mbit/s, RTT 40 ms, starting at 0, 2, 4, 6 and 8 s; how soon
  each arrival's flows hold 1/n of the link each.

Each flow has its own sender and receiver node: sender -(access)- r1 -(bottleneck)- r2 -(1 ms)-
receiver; a reverse flow runs from the receiver node back to the sender node.

CHOICE: access links run at twice the bottleneck rate (the NEC ns-2 tool's convention for
non-bottleneck links; the paper does not say) with a buffer of four bandwidth-delay products, so
that no packet is dropped off the bottleneck.
CHOICE: the bottleneck buffer is one bandwidth-delay product at the experiment's RTT; for
xcp-rtt-fairness at the mean RTT of the 30 flows (185 ms): the paper gives "the bandwidth-delay
product" without saying which RTT when they differ.
CHOICE: xcp-capacity starts each flow at an instant drawn uniformly in [0, 1 s) (numpy, seed 1;
the paper is silent). With all 100 flows starting at 0 the symmetric forward and reverse
windows move in lock step: the queue fills and empties once per round trip, and the link idles
while the ACKs of each direction wait behind the other's burst (ACK compression). Measured at
300 Mbit/s with simultaneous starts: utilisation 0.83, 10 716 drops, mean queue 60 % of the
buffer; with the jittered starts 0.997, no drop, 14 %. docs/validation.md (XCP) has the runs.
CHOICE: measurement windows: xcp-capacity from 10 s to the end of a 30 s run (the paper's runs
last more than 300 RTTs: 24 s at 80 ms); xcp-rtt-fairness from 30 s to the end of 100 s (300
round trips of the longest RTT, 330 ms); quick variants shorter (stated in the checks' names).
CHOICE: xcp-convergence samples every flow's goodput every 0.2 s (Result.wide("rate")); a flow
"holds its share" in a sample when its goodput is within 20 % of the payload rate of the link
divided by the number of flows started. The convergence time of an arrival is from the arrival
to the first sample from which every flow holds its share in every sample until the next
arrival (or the end of the run).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SpecError
from ..results import Result
from ..sweep import replica_seed
from .base import FRACTION, Check, Experiment, ExperimentReport, run_many
from .figures import RATE_UNITS, cached_figure, pyplot, save, time_axis

SOURCE = "XCP paper (Katabi et al. 2002)"
PACKET = 1000  # bytes, the paper's data packets
HEADER = 40  # bytes of IP and TCP header in each data packet
ACCESS_FACTOR = 2.0
FORWARD = "r1->r2"
REVERSE = "r2->r1"
INTERVAL = 0.2  # s, between the goodput samples of xcp-convergence

#: xcp-capacity: the swept capacities (bit/s). The paper's Figure 4 runs from 1.5 Mbit/s to
#: 4 Gbit/s; every point here takes under a minute of wall time (docs/validation.md (XCP)).
CAPACITIES = [1.5e6, 10e6, 45e6, 100e6, 155e6, 300e6, 622e6, 1e9, 2.5e9, 4e9]
QUICK_CAPACITIES = [10e6, 100e6]
CAPACITY_FLOWS = 50
CAPACITY_RTT = 0.080

#: Bands (the paper's words; the numbers ours): utilisation above 0.95, near-zero drops read as at
#: most one packet in a thousand, a small mean queue read as at most 20 % of the buffer (the
#: bound the OBP seed uses for XCP's queue).
UTILISATION_MIN = 0.95
DROP_PCT_MAX = 0.1
QUEUE_PCT_MAX = 20.0
JAIN_MIN = 0.95
SHARE_TOLERANCE = 0.2


@dataclass
class XcpFlow:
    """One XCP flow of a dumbbell: its round-trip propagation time, start and direction."""

    name: str
    rtt: float  # s
    start: float = 0.0  # s
    reverse: bool = False


def _rate(bps: float) -> str:
    return f"{bps / 1e3:g}kbps"


def bdp_packets(capacity_bps: float, rtt: float) -> int:
    """The bandwidth-delay product in 1000 B packets (at least 2)."""
    return max(2, round(capacity_bps * rtt / 8 / PACKET))


def dumbbell_spec(capacity_bps: float, flows: list[XcpFlow], *, bottleneck_delay: float, buffer_packets: int,
                  duration: float, warmup: float, series: list[str] | None = None, seed: int = 1,
                  router: str = "paper", protocol: str = "xcp", run: dict[str, Any] | None = None) -> dict[str, Any]:
    """The dumbbell: flow i runs s{i} -(access)- r1 -(bottleneck)- r2 -(1 ms)- d{i} (or back);
    the access delay makes the flow's round-trip propagation time ``rtt``. Every flow runs
    ``protocol``; ``run`` adds keys to ``[run]``."""
    access_queue = f"{4 * buffer_packets}p"
    links: list[dict[str, Any]] = [{"between": ["r1", "r2"], "rate": _rate(capacity_bps),
                                    "delay": f"{bottleneck_delay * 1e3:g}ms", "queue": f"{buffer_packets}p"}]
    specs = []
    for i, f in enumerate(flows):
        access = f.rtt / 2 - bottleneck_delay - 0.001
        if access < 0:
            raise SpecError(f"flow {f.name}: an RTT of {f.rtt * 1e3:g} ms is below the dumbbell's", "rtt")
        links.append({"between": [f"s{i}", "r1"], "rate": _rate(ACCESS_FACTOR * capacity_bps),
                      "delay": f"{access * 1e3:.6g}ms", "queue": access_queue})
        links.append({"between": ["r2", f"d{i}"], "rate": _rate(ACCESS_FACTOR * capacity_bps), "delay": "1ms",
                      "queue": access_queue})
        src, dst = (f"d{i}", f"s{i}") if f.reverse else (f"s{i}", f"d{i}")
        specs.append({"name": f.name, "protocol": protocol, "from": src, "to": dst, "packet_size": f"{PACKET}B",
                      "start": f"{f.start * 1e3:.6g}ms"})
    out: dict[str, Any] = {"series": list(series or [])}
    if series:
        out["interval"] = f"{INTERVAL * 1e3:g}ms"
    run_keys = {"duration": f"{duration:g}s", "warmup": f"{warmup:g}s", "seed": seed, "xcp_router": router,
                **(run or {})}
    return {"run": run_keys,
            "links": links, "flows": specs, "output": out}


def payload_rate(capacity_bps: float) -> float:
    """The goodput a link of ``capacity_bps`` carries in full 1000 B packets (960 B of data)."""
    return capacity_bps * (PACKET - HEADER) / PACKET


# ---------------------------------------------------------------------------------------------
# xcp-capacity


def capacity_spec(capacity_bps: float, *, duration: float, warmup: float, jitter: float = 1.0,
                  flows: int = CAPACITY_FLOWS) -> dict[str, Any]:
    """``flows`` forward and ``flows`` reverse flows at RTT 80 ms, each starting at a uniform
    instant in [0, ``jitter``) (numpy, seed 1), on ``capacity_bps`` with one BDP of buffer."""
    rng = np.random.default_rng(replica_seed(1))
    fl = []
    for i in range(flows):
        fl.append(XcpFlow(f"f{i}", CAPACITY_RTT, float(rng.uniform(0, jitter)) if jitter else 0.0))
        fl.append(XcpFlow(f"r{i}", CAPACITY_RTT, float(rng.uniform(0, jitter)) if jitter else 0.0, reverse=True))
    # Half the RTT less the two 1 ms edge links: the bottleneck carries the rest.
    return dumbbell_spec(capacity_bps, fl, bottleneck_delay=CAPACITY_RTT / 2 - 0.002,
                         buffer_packets=bdp_packets(capacity_bps, CAPACITY_RTT), duration=duration, warmup=warmup)


@dataclass
class LinkMetrics:
    """The bottleneck over the measurement window, both directions."""

    utilisation: float  # the lower of the two directions
    drop_pct: float  # drops / (packets sent + drops), both directions, %
    queue_pct: float  # mean queue, mean of the two directions, % of the buffer
    drops: int


def link_metrics(res: Result, buffer_packets: int) -> LinkMetrics:
    links = res.summary["links"]
    fwd, rev = links[FORWARD], links[REVERSE]
    drops = int(fwd["drops"] + rev["drops"])
    offered = fwd["tx_packets"] + rev["tx_packets"] + drops
    return LinkMetrics(utilisation=min(fwd["utilization"], rev["utilization"]),
                       drop_pct=100.0 * drops / offered if offered else math.nan,
                       queue_pct=100.0 * (fwd["mean_queue_packets"] + rev["mean_queue_packets"]) / 2 / buffer_packets,
                       drops=drops)


def _cap_label(bps: float) -> str:
    return f"{bps / 1e9:g} Gbit/s" if bps >= 1e9 else f"{bps / 1e6:g} Mbit/s"


class XcpCapacity(Experiment):
    name = "xcp-capacity"
    simulator = "ns-2 (2002)"
    timer = "ns-2.35"
    title = "XCP fills the link without drops and with a small queue at every capacity (50 + 50 flows, 80 ms)"
    source = "Katabi et al. 2002, section 5.1, Figure 4"
    randomness = "random start times"
    seeds = 3

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        caps = QUICK_CAPACITIES if quick else CAPACITIES
        duration, warmup = (20.0, 10.0) if quick else (30.0, 10.0)
        specs = [capacity_spec(c, duration=duration, warmup=warmup) for c in caps]
        results = run_many(specs, jobs=jobs)
        window = f"{warmup:g}-{duration:g} s"
        report = ExperimentReport(self.name)
        rows: list[tuple[float, LinkMetrics]] = []
        for cap, res in zip(caps, results):
            m = link_metrics(res, bdp_packets(cap, CAPACITY_RTT))
            rows.append((cap, m))
            label = _cap_label(cap)
            report.checks.append(Check(f"{label}: bottleneck utilisation, lower direction ({window})", m.utilisation,
                                       "above 0.95", UTILISATION_MIN, math.inf, SOURCE, unit="ratio", open_low=True,
                                       physical=FRACTION))
            report.checks.append(Check(f"{label}: drop rate, both directions ({m.drops} drops, {window})", m.drop_pct,
                                       "near zero (ours: at most 0.1 %)", 0.0, DROP_PCT_MAX, SOURCE, unit="%"))
            report.checks.append(Check(f"{label}: mean queue, both directions ({window})", m.queue_pct,
                                       "small (ours: at most 20 % of the buffer)", 0.0, QUEUE_PCT_MAX, SOURCE,
                                       unit="% of buffer"))
            res.write(out_dir / f"c{cap / 1e6:g}M", plots=False)
        report.figures.append(capacity_figure(rows, out_dir / "xcp_capacity.png"))
        return report


@cached_figure
def capacity_figure(rows: list[tuple[float, LinkMetrics]], path: Path) -> Path:
    """The paper's Figure 4 form: utilisation, mean queue and drops against capacity."""
    plt = pyplot()
    caps = [c / 1e6 for c, _ in rows]
    fig, axes = plt.subplots(3, 1, figsize=(7, 9), sharex=True, constrained_layout=True)
    panels = [("bottleneck utilisation (lower direction)", [m.utilisation for _, m in rows], UTILISATION_MIN,
               "band: above 0.95"),
              ("mean queue (% of buffer)", [m.queue_pct for _, m in rows], QUEUE_PCT_MAX, "band: at most 20 %"),
              ("drop rate (%)", [m.drop_pct for _, m in rows], DROP_PCT_MAX, "band: at most 0.1 %")]
    for ax, (ylabel, ys, level, label) in zip(axes, panels):
        ax.plot(caps, ys, "o-", label="XCP (50 + 50 flows)")
        ax.axhline(level, color="black", linestyle="--", linewidth=1, label=label)
        ax.set_ylabel(ylabel)
        ax.set_xscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    axes[-1].set_xlabel("bottleneck capacity (Mbit/s)")
    fig.suptitle("xcp-capacity: 50 forward + 50 reverse XCP flows, RTT 80 ms, buffer 1 BDP")
    return save(fig, path)


# ---------------------------------------------------------------------------------------------
# xcp-rtt-fairness

FAIRNESS_CAPACITY = 30e6
FAIRNESS_RTTS = [0.040 + 0.010 * i for i in range(30)]  # 40, 50, ..., 330 ms


def fairness_spec(*, duration: float, warmup: float) -> dict[str, Any]:
    flows = [XcpFlow(f"x{round(rtt * 1e3)}", rtt) for rtt in FAIRNESS_RTTS]
    mean_rtt = sum(FAIRNESS_RTTS) / len(FAIRNESS_RTTS)
    return dumbbell_spec(FAIRNESS_CAPACITY, flows, bottleneck_delay=0.010,
                         buffer_packets=bdp_packets(FAIRNESS_CAPACITY, mean_rtt), duration=duration, warmup=warmup)


def jain(xs: list[float]) -> float:
    """Jain's fairness index (sum x)^2 / (n sum x^2)."""
    a = np.asarray(xs, dtype=float)
    return float(a.sum() ** 2 / (len(a) * (a * a).sum())) if len(a) and (a * a).sum() > 0 else math.nan


class XcpRttFairness(Experiment):
    name = "xcp-rtt-fairness"
    simulator = "ns-2 (2002)"
    timer = "ns-2.35"
    title = "XCP shares 30 Mbit/s equally among 30 flows whose RTTs range from 40 to 330 ms"
    source = "Katabi et al. 2002, section 5.3, Figure 9"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        duration, warmup = (30.0, 10.0) if quick else (100.0, 30.0)
        (res,) = run_many([fairness_spec(duration=duration, warmup=warmup)], jobs=jobs)
        window = f"{warmup:g}-{duration:g} s"
        flows = res.summary["flows"]
        names = [f"x{round(rtt * 1e3)}" for rtt in FAIRNESS_RTTS]
        goodput = [flows[n]["goodput_bps"] for n in names]
        fair = payload_rate(FAIRNESS_CAPACITY) / len(names)
        buffer = bdp_packets(FAIRNESS_CAPACITY, sum(FAIRNESS_RTTS) / len(FAIRNESS_RTTS))
        m = link_metrics(res, buffer)
        report = ExperimentReport(self.name)
        report.checks.append(Check(f"Jain's index of the 30 goodputs ({window})", jain(goodput), "near 1 (ours: 0.95)",
                                   JAIN_MIN, 1.0, SOURCE, unit="ratio", physical=FRACTION))
        report.checks.append(Check(f"lowest goodput / fair share ({window}; flow of "
                                   f"{FAIRNESS_RTTS[int(np.argmin(goodput))] * 1e3:.0f} ms)", min(goodput) / fair,
                                   "near 1 (ours: at least 0.8)", 0.8, math.inf, SOURCE, unit="ratio"))
        fwd = res.summary["links"][FORWARD]
        report.checks.append(Check(f"bottleneck utilisation ({window})", fwd["utilization"], "above 0.95",
                                   UTILISATION_MIN, math.inf, SOURCE, unit="ratio", open_low=True, physical=FRACTION))
        report.checks.append(Check(f"drop rate ({m.drops} drops, {window})", m.drop_pct,
                                   "near zero (ours: at most 0.1 %)", 0.0, DROP_PCT_MAX, SOURCE, unit="%"))
        res.write(out_dir / "run", plots=False)
        report.figures.append(fairness_figure(goodput, fair, out_dir / "xcp_rtt_fairness.png"))
        return report


@cached_figure
def fairness_figure(goodput: list[float], fair: float, path: Path) -> Path:
    """The paper's Figure 9 form: each flow's throughput against its RTT."""
    plt = pyplot()
    scale = RATE_UNITS["Mbit/s"]
    fig, ax = plt.subplots(figsize=(8, 4), constrained_layout=True)
    ax.plot([r * 1e3 for r in FAIRNESS_RTTS], [g / scale for g in goodput], "o", label="XCP flow goodput")
    ax.axhline(fair / scale, color="black", linestyle="--", linewidth=1,
               label=f"fair share ({fair / scale:.2f} Mbit/s of payload)")
    ax.set_ylim(0, 2 * fair / scale)
    ax.set_xlabel("round-trip propagation time (ms)")
    ax.set_ylabel("goodput (Mbit/s)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title("xcp-rtt-fairness: 30 XCP flows on 30 Mbit/s, RTTs 40-330 ms")
    return save(fig, path)


# ---------------------------------------------------------------------------------------------
# xcp-convergence

CONVERGENCE_CAPACITY = 45e6
CONVERGENCE_RTT = 0.040
ARRIVAL_GAP = 2.0


def convergence_spec(n: int, *, duration: float) -> dict[str, Any]:
    flows = [XcpFlow(f"x{k + 1}", CONVERGENCE_RTT, ARRIVAL_GAP * k) for k in range(n)]
    return dumbbell_spec(CONVERGENCE_CAPACITY, flows, bottleneck_delay=CONVERGENCE_RTT / 2 - 0.002,
                         buffer_packets=bdp_packets(CONVERGENCE_CAPACITY, CONVERGENCE_RTT), duration=duration,
                         warmup=0.0, series=["rate"])


def convergence_time(rates: Any, names: list[str], start: float, end: float, share: float) -> float:
    """Seconds from ``start`` to the first sample in (start, end] from which every flow of
    ``names`` is within SHARE_TOLERANCE of ``share`` in every sample up to ``end``; NaN if none."""
    w = rates[(rates.index > start + 1e-9) & (rates.index <= end + 1e-9)][names]
    ok = ((w - share).abs() <= SHARE_TOLERANCE * share).all(axis=1).to_numpy()
    times = w.index.to_numpy(dtype=float)
    # The first sample after the last one out of the band.
    bad = np.flatnonzero(~ok)
    first = 0 if len(bad) == 0 else int(bad[-1]) + 1
    return float(times[first] - start) if first < len(times) else math.nan


class XcpConvergence(Experiment):
    name = "xcp-convergence"
    simulator = "ns-2 (2002)"
    timer = "ns-2.35"
    title = "XCP flows arriving 2 s apart on 45 Mbit/s (RTT 40 ms) take their 1/n share within a second"
    source = "Katabi et al. 2002, section 5.4, Figure 11"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        n = 3 if quick else 5
        duration = ARRIVAL_GAP * n + (0.0 if quick else 2.0)
        (res,) = run_many([convergence_spec(n, duration=duration)], jobs=jobs)
        rates = res.wide("rate")
        names = [f"x{k + 1}" for k in range(n)]
        report = ExperimentReport(self.name)
        for k in range(1, n):
            start, end = ARRIVAL_GAP * k, min(ARRIVAL_GAP * (k + 1), duration)
            share = payload_rate(CONVERGENCE_CAPACITY) / (k + 1)
            report.checks.append(Check(f"arrival of x{k + 1} at {start:g} s: time until all {k + 1} flows hold "
                                       f"1/{k + 1} within 20 % (0.2 s samples, up to {end:g} s)",
                                       convergence_time(rates, names[:k + 1], start, end, share),
                                       "within a few seconds (ours: before the next arrival, 2 s)", 0.0, ARRIVAL_GAP,
                                       SOURCE, unit="s"))
        last = ARRIVAL_GAP * (n - 1)
        tail = rates[(rates.index > duration - 1.0 + 1e-9)][names].mean()
        share = payload_rate(CONVERGENCE_CAPACITY) / n
        report.checks.append(Check(f"last second ({duration - 1:g}-{duration:g} s): lowest mean goodput / (1/{n})",
                                   float(tail.min() / share), "1", 1 - SHARE_TOLERANCE / 2, math.inf, SOURCE,
                                   unit="ratio"))
        report.checks.append(Check(f"last second ({duration - 1:g}-{duration:g} s): highest mean goodput / (1/{n})",
                                   float(tail.max() / share), "1", 0.0, 1 + SHARE_TOLERANCE / 2, SOURCE,
                                   unit="ratio"))
        link = res.summary["links"][FORWARD]
        report.checks.append(Check(f"drops at the bottleneck (0-{duration:g} s)", link["drops"], "none", 0, 0, SOURCE,
                                   unit="packets"))
        res.write(out_dir / "run", plots=False)
        report.figures.append(convergence_figure(rates, names, n, last, duration, out_dir / "xcp_convergence.png"))
        return report


@cached_figure
def convergence_figure(rates: Any, names: list[str], n: int, last: float, duration: float, path: Path) -> Path:
    """The paper's Figure 11 form: each flow's goodput against time, with the arrivals."""
    plt = pyplot()
    scale = RATE_UNITS["Mbit/s"]
    fig, ax = plt.subplots(figsize=(9, 4), constrained_layout=True)
    for f in names:
        ax.plot(rates.index, rates[f] / scale, linewidth=1, label=f)
    for k in range(1, n + 1):
        start = ARRIVAL_GAP * (k - 1)
        end = ARRIVAL_GAP * k if k < n else duration
        ax.plot([start, end], [payload_rate(CONVERGENCE_CAPACITY) / k / scale] * 2, "k--", linewidth=1,
                label="1/n of the link's payload rate" if k == 1 else None)
    for k in range(1, n):
        ax.axvline(ARRIVAL_GAP * k, color="grey", linestyle=":", linewidth=1,
                   label="arrivals" if k == 1 else None)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("goodput (Mbit/s)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncol=3)
    ax.set_title(f"xcp-convergence: {n} XCP flows on 45 Mbit/s, RTT 40 ms, arriving 2 s apart "
                 f"(0.2 s samples)")
    time_axis(ax, float(rates.index.max()))
    return save(fig, path)


EXPERIMENTS: list[Experiment] = [XcpCapacity(), XcpRttFairness(), XcpConvergence()]

__all__ = ["EXPERIMENTS", "XcpFlow", "bdp_packets", "capacity_spec", "convergence_spec", "convergence_time",
           "dumbbell_spec", "fairness_spec", "jain", "link_metrics"]
