"""l4s-coexistence (issue 28): CUBIC, BBRv1, BBRv3 and TCP Prague, two flows at a time, over a
DualPI2 and a DropTail bottleneck, at three round trips and two buffer sizes; the first flow's
share of the goodput and the p99 queue delay of every point.

A study of ours, without a verdict: no publication we could read gives these quantities for a
comparable set-up (docs/experiments.md, section "l4s-coexistence", "Sources", says what each
source we considered gives and why none yields a band). Its checks show the measured values
against their physical range only.

Set-up (ours, every choice here):

- Dumbbell s1, s2 -(1 Gbit/s, 1 ms)- r1 -(100 Mbit/s, RTT/2 - 2 ms)- r2 -(1 Gbit/s, 1 ms)-
  d1, d2: base (propagation) RTT 10, 40 or 100 ms, bottleneck r1->r2 at 100 Mbit/s.
- Pairs: the 6 pairs of distinct protocols of {cubic, bbr, bbr3, prague} and the 4 self-pairs
  (cheap: a run of 60 s takes about 0.3 s), 10 in all, in
  ``itertools.combinations_with_replacement`` order. Flow a (the pair's first protocol) starts
  at 0 s, flow b at 1 s (so that a self-pair is not symmetric by construction in a
  deterministic simulator). The share reported is a's: goodput_a / (goodput_a + goodput_b).
- Flows: 1500 B packets, initial window 10 (Linux's), ccsim's defaults otherwise. CUBIC, BBR
  and BBRv3 do not negotiate ECN (Linux's default tcp_ecn = 2: a client does not ask), so
  their packets are Not-ECT and go to DualPI2's C queue; Prague sends ECT(1) with AccECN and
  goes to the L queue.
- Buffers: 0.5 and 2 bandwidth-delay products of the base RTT (in 1500 B packets, rounded; at
  least 2): below a BDP, where BBRv1's 2-BDP in-flight cap overflows the buffer, and above it,
  where a loss-based flow holds a standing queue. For DropTail this is the queue's capacity.
  For DualPI2 it is the ``limit`` (packets of both queues together), so that each point
  compares the same buffer memory with and without the AQM; every other DualPI2 parameter is
  Linux's default (target 15 ms, tupdate 16 ms, step_thresh 1 ms, coupling 2). At 10 ms and
  0.5 BDP the limit (42 packets, 5 ms) is below the 15 ms target, so there the limit, not the
  PI controller, bounds the C queue.
- Time: full 60 s, measured from 20 s (two of BBR's 10 s PROBE_RTT cycles and more than three
  CUBIC epochs at 100 ms, whose K is about 10 s at this BDP); quick 20 s from 10 s.
- Seeds: DualPI2's marking and dropping, and BBRv1's and BBRv3's PROBE_BW phases (drawn at
  random as in Linux), come from the run's seed; only DropTail points with neither BBR are the
  same for every seed. 5 replicas in full, 1 in quick.
  CHOICE: one quick replica: a study has no verdict whose interval a second seed would narrow,
  and its 120 points make it the longest quick variant (``make test`` runs every quick variant).

Metrics of each point, over the measured window:

- share of a (ratio), utilisation of r1->r2, each flow's mean one-way delay (summary). The
  summary's goodput counts application bytes delivered in order in the window, which after a
  long recovery includes bytes that arrived before it: over the quick variant's 10 s window the
  two goodputs can sum above the link's payload rate (droptail, 40 ms, 0.5 BDP, bbr vs bbr:
  72.2 + 30.9 Mbit/s against 97.3);
  CHOICE: the runs record only the ``queue`` series (every 1 ms): the goodputs and mean delays
  come from the summary, and per-flow series at 1 ms would double each run's reading time;
- DualPI2: the p99 sojourn of the L and of the C queue from the link summary (every sent
  packet's sojourn in a log-linear histogram, p99 within 0.8 %);
- DropTail: the p99 of the waiting bytes of r1->r2 sampled every 1 ms, divided by the link
  rate: a time-sampled queue delay, not a per-packet sojourn (a packet-weighted p99 would weigh
  busy periods more). The same sampled p99 is recorded for DualPI2 links (both queues) in
  ``points.json``.

Outputs: ``points.json`` (one row per point, every metric), ``l4s_share.png`` and
``l4s_delay.png``, and a sub-folder per point with the run's files (``q{kind}-rtt{ms}-b{buf}/
{a}-{b}``).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..derived import derived
from ..results import Result
from .base import FRACTION, Check, Experiment, ExperimentReport, run_many
from .figures import cached_figure, pyplot, save

PROTOCOLS = ["cubic", "bbr", "bbr3", "prague"]
#: Unordered pairs, self-pairs included: (cubic, cubic), (cubic, bbr), ..., (prague, prague).
PAIRS: list[tuple[str, str]] = list(itertools.combinations_with_replacement(PROTOCOLS, 2))
QUEUES = ["droptail", "dualpi2"]
RTTS_MS = [10, 40, 100]
BUFFERS_BDP = [0.5, 2.0]
RATE = 100e6  # bit/s
PACKET = 1500  # bytes
BOTTLENECK = "r1->r2"
SAMPLE = 0.001  # s, the sampling interval of the queue (and every other series)
#: (duration, warm-up) in seconds.
FULL_TIME = (60.0, 20.0)
QUICK_TIME = (20.0, 10.0)
SECOND_START = 1.0  # s, flow b's start
STUDY = "study: no published band for this set-up (docs/experiments.md, l4s-coexistence)"
SOURCE = "ours (no band)"
#: RFC 9332 section 2.1's steady-state model with k = 2: a scalable flow runs at 1/1.22 of a
#: Reno flow's rate at equal RTT, so the Reno flow's share is 1.22 / 2.22. A model for Reno
#: against a DCTCP-like control, drawn for reference only; no band (docs/experiments.md).
RFC9332_CLASSIC_SHARE = 1.22 / 2.22


def bdp_packets(rtt_ms: float) -> float:
    return RATE * rtt_ms / 1e3 / 8 / PACKET


def buffer_packets(rtt_ms: float, buffer_bdp: float) -> int:
    return max(2, round(buffer_bdp * bdp_packets(rtt_ms)))


@dataclass(frozen=True)
class Point:
    """One run of the sweep."""

    queue: str  # "droptail" or "dualpi2"
    rtt_ms: int
    buffer_bdp: float
    a: str
    b: str

    @property
    def pair(self) -> str:
        return f"{self.a}-{self.b}"

    @property
    def folder(self) -> str:
        return f"q{self.queue}-rtt{self.rtt_ms}-b{self.buffer_bdp:g}/{self.pair}"

    @property
    def label(self) -> str:
        return f"{self.queue}, RTT {self.rtt_ms} ms, {self.buffer_bdp:g} BDP, {self.a} vs {self.b}"


def points() -> list[Point]:
    """Every point, grouped by queue, RTT and buffer, the pairs innermost."""
    return [Point(q, r, b, a, c) for q in QUEUES for r in RTTS_MS for b in BUFFERS_BDP for a, c in PAIRS]


def point_spec(p: Point, duration: float, warmup: float, seed: int = 1) -> dict[str, Any]:
    limit = buffer_packets(p.rtt_ms, p.buffer_bdp)
    queue: Any = {"kind": "dualpi2", "limit": f"{limit}p"} if p.queue == "dualpi2" else f"{limit}p"
    links: list[dict[str, Any]] = [
        {"between": ["r1", "r2"], "rate": f"{RATE / 1e6:g}Mbps", "delay": f"{p.rtt_ms / 2 - 2:g}ms", "queue": queue},
    ]
    flows = []
    for i, (name, protocol, start) in enumerate([("a", p.a, 0.0), ("b", p.b, SECOND_START)], start=1):
        links.append({"between": [f"s{i}", "r1"], "rate": "1Gbps", "delay": "1ms"})
        links.append({"between": ["r2", f"d{i}"], "rate": "1Gbps", "delay": "1ms"})
        flows.append({"name": name, "protocol": protocol, "from": f"s{i}", "to": f"d{i}",
                      "packet_size": f"{PACKET}B", "initial_window": 10, "start": f"{start:g}s"})
    return {
        "run": {"duration": f"{duration:g}s", "warmup": f"{warmup:g}s", "seed": seed},
        "links": links,
        "flows": flows,
        "output": {"interval": f"{SAMPLE * 1e3:g}ms", "series": ["queue"]},
    }


@dataclass(frozen=True)
class Measured:
    """What one point measured (every delay in seconds)."""

    queue: str
    rtt_ms: int
    buffer_bdp: float
    a: str
    b: str
    buffer_packets: int
    goodput_a_bps: float
    goodput_b_bps: float
    share_a: float
    utilisation: float
    mean_delay_a_s: float
    mean_delay_b_s: float
    sampled_p99_s: float  # p99 of the sampled waiting bytes / link rate
    l_p99_s: float  # DualPI2 only (NaN for DropTail)
    c_p99_s: float
    l_packets: float
    c_packets: float
    drops: int
    ecn_marks: int
    received_packets_a: int  # data packets that reached each receiver in the window
    received_packets_b: int
    tx_packets: int  # packets r1->r2 sent in the window


def sampled_p99(res: Result, warmup: float) -> float:
    """p99 of the bottleneck's waiting bytes, sampled every SAMPLE, over the measured window,
    as a delay at the link rate (s)."""
    try:
        q = res.series("queue_bytes")
    except KeyError:  # no link held a packet at a sampling instant
        return 0.0
    q = q[(q["entity"] == BOTTLENECK) & (q["time"] > warmup)]
    values = q["value"].to_numpy(dtype=float)
    if not len(values):  # the bottleneck never held a packet at a sampling instant
        return 0.0
    return float(np.percentile(values, 99)) * 8 / RATE


def _num(x: Any) -> float:
    """A summary's number, NaN for null (a DualPI2 queue that sent no packet has no p99)."""
    return math.nan if x is None else float(x)


def measure(p: Point, res: Result, warmup: float) -> Measured:
    s = res.summary
    fa, fb = s["flows"]["a"], s["flows"]["b"]
    ga, gb = float(fa["goodput_bps"]), float(fb["goodput_bps"])
    link = s["links"][BOTTLENECK]
    dq = cast(dict[str, Any], link.get("dualpi2") or {})
    nan = math.nan
    return Measured(
        queue=p.queue, rtt_ms=p.rtt_ms, buffer_bdp=p.buffer_bdp, a=p.a, b=p.b,
        buffer_packets=buffer_packets(p.rtt_ms, p.buffer_bdp),
        goodput_a_bps=ga, goodput_b_bps=gb, share_a=ga / (ga + gb) if ga + gb > 0 else nan,
        utilisation=float(link["utilization"]),
        mean_delay_a_s=_num(fa["mean_delay_s"]), mean_delay_b_s=_num(fb["mean_delay_s"]),
        sampled_p99_s=sampled_p99(res, warmup),
        l_p99_s=_num(dq.get("l_sojourn_p99_s", nan)), c_p99_s=_num(dq.get("c_sojourn_p99_s", nan)),
        l_packets=_num(dq.get("l_packets", nan)), c_packets=_num(dq.get("c_packets", nan)),
        drops=int(link["drops"]), ecn_marks=int(link["ecn_marks"]),
        received_packets_a=int(fa["received_packets"]), received_packets_b=int(fb["received_packets"]),
        tx_packets=int(link["tx_packets"]),
    )


def checks(m: Measured, window: str) -> list[Check]:
    """The rows of the table for one point: the share and the p99 queue delay(s), each against
    its physical range (a study: no band)."""
    where = f"{m.queue}, RTT {m.rtt_ms} ms, {m.buffer_bdp:g} BDP ({m.buffer_packets} p)"
    out = [Check(f"{where}: {m.a} vs {m.b}, share of {m.a} ({window})", m.share_a, STUDY, 0.0, 1.0, SOURCE,
                 unit="ratio", physical=FRACTION)]
    if m.queue == "dualpi2":
        # A queue no flow of the pair uses (L without Prague, C with two Pragues) has no p99.
        if "prague" in (m.a, m.b):
            out.append(Check(f"{where}: {m.a} vs {m.b}, L queue p99 sojourn ({window})", m.l_p99_s, STUDY, 0.0,
                             math.inf, SOURCE, unit="s"))
        if (m.a, m.b) != ("prague", "prague"):
            out.append(Check(f"{where}: {m.a} vs {m.b}, C queue p99 sojourn ({window})", m.c_p99_s, STUDY, 0.0,
                             math.inf, SOURCE, unit="s"))
    else:
        out.append(Check(f"{where}: {m.a} vs {m.b}, p99 queue delay, sampled every 1 ms ({window})",
                         m.sampled_p99_s, STUDY, 0.0, math.inf, SOURCE, unit="s"))
    return out


class L4sCoexistence(Experiment):
    name = "l4s-coexistence"
    simulator = "ours"
    timer = "linux"
    title = ("CUBIC, BBRv1, BBRv3 and Prague in pairs over DualPI2 and DropTail, 100 Mbit/s, "
             "RTT 10, 40 and 100 ms, buffers of 0.5 and 2 BDP")
    source = "ours (issue 28): no published band for this set-up; sources in docs/experiments.md"
    randomness = "DualPI2's random marking and dropping; BBR's random PROBE_BW phase"
    seeds = 5
    quick_seeds = 1
    # No publication gives these quantities for a comparable set-up: a study, with no verdict.
    study = True

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        duration, warmup = QUICK_TIME if quick else FULL_TIME
        window = f"{warmup:g}-{duration:g} s"
        pts = points()
        report = ExperimentReport(self.name, study=True)
        measured: dict[Point, Measured] = {}
        # CHOICE: one group of runs per pair (12 runs: every queue, RTT and buffer), reduced to
        # numbers before the next: a Result with 1 ms series holds tens of MB once read into
        # pandas. Each group spans every RTT and queue, as the title says.
        for pair in PAIRS:
            chunk = [p for p in pts if (p.a, p.b) == pair]
            results = run_many([point_spec(p, duration, warmup) for p in chunk], jobs=jobs)
            results.reverse()
            for p in chunk:
                res = results.pop()  # dropped once measured and written: its series go with it
                measured[p] = Measured(**derived(res, f"l4s.measure warmup={warmup!r} {p!r}",
                                                 lambda p=p, res=res: asdict(measure(p, res, warmup))))
                res.write(out_dir / p.folder, plots=False)
            del res
        rows = [measured[p] for p in pts]
        for m in rows:
            report.checks.extend(checks(m, window))
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "points.json").write_text(json.dumps([asdict(m) for m in rows], indent=1) + "\n")
        report.figures.append(share_figure(rows, out_dir / "l4s_share.png"))
        report.figures.append(delay_figure(rows, out_dir / "l4s_delay.png"))
        return report


#: One bar per (RTT, buffer) within each pair's group, in this order.
SETTINGS = [(r, b) for r in RTTS_MS for b in BUFFERS_BDP]


def _grouped(ax: Any, rows: list[Measured], queue: str, value: Any, *, log: bool = False) -> None:
    """Bars of ``value(m)`` per pair (x), one bar per RTT and buffer."""
    width = 0.8 / len(SETTINGS)
    colours = pyplot().get_cmap("tab20").colors
    by = {(m.a, m.b, m.rtt_ms, m.buffer_bdp): m for m in rows if m.queue == queue}
    for j, (rtt, buf) in enumerate(SETTINGS):
        xs, ys = [], []
        for k, (a, b) in enumerate(PAIRS):
            m = by.get((a, b, rtt, buf))
            if m is not None:
                xs.append(k - 0.4 + (j + 0.5) * width)
                ys.append(value(m))
        colour = colours[(2 * RTTS_MS.index(rtt) + (0 if buf == BUFFERS_BDP[0] else 1)) % len(colours)]
        ax.bar(xs, ys, width=width, color=colour, label=f"RTT {rtt} ms, {buf:g} BDP")
    ax.set_xticks(range(len(PAIRS)))
    ax.set_xticklabels([f"{a}\nvs {b}" for a, b in PAIRS], fontsize="small")
    ax.set_xlim(-0.5, len(PAIRS) - 0.5)
    if log:
        ax.set_yscale("log")
    ax.grid(True, axis="y", alpha=0.3)


@cached_figure
def share_figure(rows: list[Measured], path: Path) -> Path:
    """The first flow's share of the goodput per pair, DropTail above DualPI2."""
    plt = pyplot()
    fig, axes = plt.subplots(2, 1, figsize=(13, 8), sharex=True, constrained_layout=True)
    for ax, queue in zip(axes, QUEUES):
        _grouped(ax, rows, queue, lambda m: m.share_a)
        ax.axhline(0.5, color="black", linestyle="--", linewidth=1, label="equal share (0.5)")
        if queue == "dualpi2":
            k = PAIRS.index(("cubic", "prague"))
            ax.plot([k - 0.4, k + 0.4], [RFC9332_CLASSIC_SHARE] * 2, color="red", linewidth=2,
                    label=f"RFC 9332 model, Reno vs scalable, equal RTT: {RFC9332_CLASSIC_SHARE:.2f} (no band)")
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of the first flow's protocol")
        ax.set_title(f"{queue}: goodput share of the pair's first protocol (it starts 1 s before the second)",
                     fontsize="medium")
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save(fig, path)


@cached_figure
def delay_figure(rows: list[Measured], path: Path) -> Path:
    """p99 queue delay per pair: DropTail's sampled queue; DualPI2's C and L queues."""
    plt = pyplot()
    fig, axes = plt.subplots(3, 1, figsize=(13, 11), sharex=True, constrained_layout=True)
    panels = [("droptail", lambda m: m.sampled_p99_s * 1e3, "DropTail: p99 of the queue sampled every 1 ms"),
              ("dualpi2", lambda m: m.c_p99_s * 1e3, "DualPI2: C queue p99 sojourn"),
              ("dualpi2", lambda m: m.l_p99_s * 1e3, "DualPI2: L queue p99 sojourn (Prague's packets)")]
    for ax, (queue, value, title) in zip(axes, panels):
        _grouped(ax, rows, queue, lambda m, f=value: max(f(m), 1e-3) if f(m) == f(m) else math.nan, log=True)
        if queue == "dualpi2":
            ax.axhline(15, color="black", linestyle="--", linewidth=1, label="PI2 target (15 ms)")
            ax.axhline(1, color="grey", linestyle=":", linewidth=1, label="L step threshold (1 ms)")
        ax.set_ylabel("p99 queue delay (ms)")
        ax.set_title(title + " (0.001 ms drawn for an empty queue)", fontsize="medium")
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save(fig, path)


EXPERIMENTS: list[Experiment] = [L4sCoexistence()]

__all__ = ["EXPERIMENTS", "PAIRS", "Point", "point_spec", "points"]
