"""The CBRAA experiments: Ait-Hellal, Yamamoto and Leduc, "Cycle-based TCP-friendly
algorithm" (003_13a89f4b9cbddf14.txt), section 4, Figures 3-6.

Set-up (the paper's Figure 2): sources s_i -(10 Mbps)- router A -(4 Mbps)- router B
-(10 Mbps)- destinations d_i; a DropTail buffer of 20000 bytes at A (toward B); 1000-byte
packets; 50 ms one-way propagation end to end. Ours, where the paper is silent: the
bottleneck and each destination link take 10 ms, each source's link the rest of its one-way
delay (30 ms for 50 ms, 5 ms for 25 ms, 80 ms for 100 ms); other buffers 1000 packets;
receiver reports every 5 s; CBRAA's beta = 0.5 (see the protocol's module documentation).
TCP is Reno, as in the paper. Rates are goodput (application bytes received per second),
sampled every second; "kB/s" is 1000 bytes per second, the paper's kbyte/s. Each experiment's
table and figure use one unit: Mbit/s for Figure 3 (the paper's words there), kB/s for the
others (the unit of the paper's averages).

The paper's simulator (REAL) is not available; its numbers are read from the text. Two
effects this simulator shows plainly, and which the paper's text also names (section 4.3:
"TCP is likely to get less than its fair share, due to its retransmission mechanism and
timeouts"): with a 20-packet buffer Reno loses several packets of a window and times out
often, and a smooth (paced) source sees a lower loss rate than bursty TCP at a DropTail
queue, so CBRAA's hold band (Loss_obs between 0.5 and 1.5 Loss_th) settles above TCP's
share. Each table reports the measured values against the paper's; the same runs with
NewReno in place of Reno are reported beside them, as a check of how much of the gap is
Reno's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..results import Result
from .base import Check, Experiment, ExperimentReport, Reading, run_many
from .figures import RATE_UNITS, pyplot, save, time_axis

CAPACITY_BPS = 4e6
PACKET = 1000
BOTTLENECK = "A->B"


def cbraa_spec(flows: list[dict[str, Any]], duration: str = "500s", seed: int = 1) -> dict[str, Any]:
    """The paper's dumbbell. Each flow dict has ``name``, ``protocol``, ``one_way_ms`` (default
    50) and any other flow keys."""
    links: list[dict[str, Any]] = [{"between": ["A", "B"], "rate": "4Mbps", "delay": "10ms", "queue": "20000B"}]
    specs = []
    for i, f in enumerate(flows):
        f = dict(f)
        one_way = f.pop("one_way_ms", 50)
        links.append({"between": [f"s{i}", "A"], "rate": "10Mbps", "delay": f"{one_way - 20}ms", "queue": "1000p"})
        links.append({"between": ["B", f"d{i}"], "rate": "10Mbps", "delay": "10ms", "queue": "1000p"})
        specs.append({"from": f"s{i}", "to": f"d{i}", "packet_size": f"{PACKET}B", **f})
    return {
        "run": {"duration": duration, "seed": seed},
        "links": links,
        "flows": specs,
        "output": {"interval": "1s", "series": ["rate", "send_rate", "queue"]},
    }


def rate_window(res: Result, flow: str, start: float, end: float | None = None) -> np.ndarray:
    """The 1 s goodput samples of ``flow`` (bit/s) with start < time <= end."""
    col = res.wide("rate")[flow]
    times = col.index.to_numpy(dtype=float)
    keep = times > start
    if end is not None:
        keep &= times <= end
    return np.asarray(col.to_numpy(dtype=float)[keep])


def mean_kBps(res: Result, flow: str, start: float, end: float | None = None) -> float:
    x = rate_window(res, flow, start, end)
    return float(x.mean() / 8e3) if len(x) else float("nan")


def cov(res: Result, flow: str, start: float, end: float | None = None) -> float:
    """Coefficient of variation (std / mean) of the 1 s goodput."""
    x = rate_window(res, flow, start, end)
    return float(x.std() / x.mean()) if len(x) and x.mean() > 0 else float("nan")


def time_to_reach(res: Result, flow: str, level_bps: float, window_s: int = 5) -> float:
    """The first time the ``window_s``-second mean goodput of ``flow`` reaches ``level_bps``."""
    col = res.wide("rate")[flow].rolling(window_s).mean()
    hit = col[col >= level_bps]
    return float(hit.index[0]) if len(hit) else float("nan")


def rate_figure(panels: list[tuple[str, Result, list[str]]], out_dir: Path, name: str, *, unit: str,
                marks: list[tuple[float, str]] | None = None, levels: list[tuple[float, str]] | None = None) -> Path:
    """The paper-style rate-over-time figure: one panel per run, one line per flow, in ``unit``
    (the unit of the experiment's table); ``marks`` are labelled instants (vertical lines),
    ``levels`` labelled reference rates in bit/s (horizontal lines)."""
    plt = pyplot()
    scale = RATE_UNITS[unit]
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3 * len(panels)), sharex=True,
                             constrained_layout=True, squeeze=False)
    end = 0.0
    for ax, (title, res, flows) in zip(axes[:, 0], panels):
        w = res.wide("rate")
        for f in flows:
            ax.plot(w.index, w[f] / scale, linewidth=1, label=f)
        for (level, label), style in zip(levels or [], ("--", "-.", ":")):
            ax.axhline(level / scale, color="black", linestyle=style, linewidth=1, label=label)
        for (m, label), style in zip(marks or [], ("dotted", "dashdot", "dashed")):
            ax.axvline(m, color="grey", linestyle=style, linewidth=1, label=label)
        ax.set_title(title, fontsize="medium")
        ax.set_ylabel(f"goodput ({unit})")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", ncol=4)
        end = max(end, float(w.index.max()))
    time_axis(axes[-1, 0], end)
    axes[-1, 0].set_xlabel("time (s)")
    return save(fig, out_dir / f"{name}.png")


FINE_TIMER = Reading(
    "ns2-timer", "ns-2.35's 10 ms timer for the TCPs",
    "The TCP flows run ns-2.35's retransmission timer (10 ms ticks, 200 ms floor) instead of 4.3BSD's "
    "(500 ms ticks, 1 s floor) that the experiments take for REAL's: the paper does not say which timer "
    "REAL's TCP Reno used, and the CBRAA verdicts turn on it (reproduction-audit, cbraa-vs-mathis: 8 of 10 "
    "plausible readings in band)")


class _Cbraa(Experiment):
    """What the four CBRAA experiments share: REAL's simulator and the timer readings."""

    simulator = "REAL (1988)"
    timer = "BSD (REAL)"
    readings = (FINE_TIMER,)

    def timer_for(self, label: str) -> str:
        return "ns-2.35" if label == FINE_TIMER.label else self.timer


def _tcp(name: str, tcp: str = "reno", **extra: Any) -> dict[str, Any]:
    return {"name": name, "protocol": tcp, **extra}


class CbraaVsMathis(_Cbraa):
    name = "cbraa-vs-mathis"
    title = "CBRAA is smooth at its fair share where TCP-Friend (equation (2) directly) oscillates"
    source = "003 Figure 3, section 4.1"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        # Section 4.1: "after 60 seconds the rate of the CBRAA source is very smooth ... CBRAA
        # gets approximately 2Mbps". The claim is about the rate held from 60 s on, so the band
        # applies to the median of the 1 s samples after 60 s: the level the source holds,
        # which a mean would pull down with a ramp that lasts past 60 s.
        # CHOICE: the rate held after 60 s is the median of the 1 s goodput samples in (60, 500] s.
        warm = 60.0
        specs = [cbraa_spec([_tcp("tcp"), {"name": "tcp-friend", "protocol": "tcp-friend"}]),
                 cbraa_spec([_tcp("tcp"), {"name": "cbraa", "protocol": "cbraa"}]),
                 cbraa_spec([_tcp("tcp", "newreno"), {"name": "cbraa", "protocol": "cbraa"}])]
        friend, cbraa, cbraa_newreno = run_many(specs, jobs=jobs)
        fair = CAPACITY_BPS / 2
        report = ExperimentReport(self.name)
        for label, res, source in (("", cbraa, "paper"), ("NewReno: ", cbraa_newreno, "paper (TCP NewReno, ours)")):
            held = float(np.median(rate_window(res, "cbraa", warm)))
            tcp = float(np.median(rate_window(res, "tcp", warm)))
            report.checks.append(Check(f"{label}CBRAA rate held after 60 s, median of 1 s samples (TCP: {tcp / 1e6:.2f})",
                                       held / 1e6, "about 2 (fair share)", 0.8 * fair / 1e6, 1.2 * fair / 1e6,
                                       source, unit="Mbit/s"))
        ratio = cov(cbraa, "cbraa", warm) / cov(friend, "tcp-friend", warm)
        report.checks.append(Check("CoV of CBRAA's 1 s rate / TCP-Friend's (after 60 s)", ratio,
                                   "CBRAA smooth, TCP-Friend oscillatory", 0.0, 0.5, "paper", unit="ratio"))
        friend_share = rate_window(friend, "tcp-friend", warm).mean() / fair
        report.checks.append(Check("TCP-Friend mean rate / fair share (after 60 s)", friend_share,
                                   "slightly under 1", 0.5, 1.2, "paper", unit="ratio"))
        report.checks.append(Check("CBRAA first reaches 90 % of its share, 5 s mean",
                                   time_to_reach(cbraa, "cbraa", 0.9 * fair), "about 60", 40, 90, "paper", unit="s"))
        friend.write(out_dir / "tcp-friend", plots=False)
        cbraa.write(out_dir / "cbraa", plots=False)
        cbraa_newreno.write(out_dir / "cbraa-newreno", plots=False)
        report.figures.append(rate_figure(
            [("one Reno + one TCP-Friend", friend, ["tcp-friend", "tcp"]),
             ("one Reno + one CBRAA", cbraa, ["cbraa", "tcp"]),
             ("one NewReno + one CBRAA", cbraa_newreno, ["cbraa", "tcp"])], out_dir, "cbraa_vs_mathis",
            unit="Mbit/s", levels=[(fair, "fair share (2 Mbit/s)")], marks=[(warm, "60 s")]))
        return report


class CbraaArrivals(_Cbraa):
    name = "cbraa-arrivals"
    title = "CBRAA's reaction to two TCP sources arriving (300 s) and leaving (30 MB each)"
    source = "003 Figure 4, sections 4.2 and 4.3"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        # The intervals are the paper's: "in approximately 10 seconds" after the arrivals at 300 s
        # each source has its share, until they leave; "less than 20 seconds after the two TCP
        # connections leave" CBRAA is back to 1.6 Mbps; the averages over 70-300 s and 570-700 s
        # (section 4.3). The arrivals leave later here (about 596 and 601 s, the paper's 550 and
        # 560 s), so 570-700 s still holds about 30 s with them. The table is in kB/s, the
        # paper's unit for its averages: 1 Mbit/s is 125 kB/s.
        arrive = 300.0
        flows = [_tcp("tcp"), {"name": "cbraa", "protocol": "cbraa"},
                 _tcp("tcp2", start=f"{arrive:g}s", size="30MB"), _tcp("tcp3", start=f"{arrive:g}s", size="30MB")]
        (res,) = run_many([cbraa_spec(flows, duration="700s")], jobs=jobs)
        done = [res.summary["flows"][f]["completion_time_s"] for f in ("tcp2", "tcp3")]
        left = sorted(arrive + d for d in done if d is not None)
        first, last = (left[0], left[-1]) if left else (700.0, 700.0)
        report = ExperimentReport(self.name)
        report.checks.append(Check(f"CBRAA mean rate {arrive + 10:g} s to {first:.0f} s (first leaves)",
                                   mean_kBps(res, "cbraa", arrive + 10, first),
                                   "about 125 (1 Mbit/s, fair share of four) within 10 s", 0.7 * 125, 1.3 * 125,
                                   "paper", unit="kB/s"))
        # CHOICE: "regains 1.6 Mbps" gets the 25 % band of the paper's other CBRAA averages.
        report.checks.append(Check(f"CBRAA mean rate {last + 20:.0f} s to 700 s (20 s after the last leaves)",
                                   mean_kBps(res, "cbraa", last + 20, 700), "about 200 (1.6 Mbit/s)",
                                   200 * 0.75, 200 * 1.25, "paper", unit="kB/s"))
        report.checks.append(Check("CBRAA mean rate 70-300 s", mean_kBps(res, "cbraa", 70, 300),
                                   "270", 270 * 0.75, 270 * 1.25, "paper", unit="kB/s"))
        report.checks.append(Check("CBRAA mean rate 570-700 s", mean_kBps(res, "cbraa", 570, 700),
                                   "200", 200 * 0.75, 200 * 1.25, "paper", unit="kB/s"))
        report.checks.append(Check("first arriving TCP leaves", first, "550 (30 MB)", 500, 620, "paper", unit="s"))
        report.checks.append(Check("second arriving TCP leaves", last, "560 (30 MB)", 500, 620, "paper", unit="s"))
        res.write(out_dir / "run", plots=False)
        report.figures.append(rate_figure([("TCP + CBRAA; two TCP arrive at 300 s", res,
                                            ["cbraa", "tcp", "tcp2", "tcp3"])], out_dir, "cbraa_arrivals",
                                          unit="kB/s", marks=[(arrive, "arrivals"), (first, "first leaves"),
                                                              (last, "second leaves")]))
        return report


class CbraaFair(_Cbraa):
    name = "cbraa-fair"
    title = "Three TCP Reno sources and one CBRAA source, equal RTTs"
    source = "003 Figure 5, section 4.3"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        # The paper's averages are over the whole run (section 4.3).
        warm = 0.0
        names = ["tcp1", "tcp2", "tcp3", "cbraa"]
        specs = [cbraa_spec([_tcp("tcp1", tcp), _tcp("tcp2", tcp), _tcp("tcp3", tcp),
                             {"name": "cbraa", "protocol": "cbraa"}]) for tcp in ("reno", "newreno")]
        reno, newreno = run_many(specs, jobs=jobs)
        paper = {"tcp1": 119, "tcp2": 123, "tcp3": 124, "cbraa": 116}
        report = ExperimentReport(self.name)
        for label, res in (("", reno), ("NewReno: ", newreno)):
            means = {n: mean_kBps(res, n, warm) for n in names}
            overall = sum(means.values()) / len(means)
            for n in names:
                report.checks.append(Check(f"{label}{n} rate / mean of the four (whole run; {means[n]:.0f} kB/s)",
                                           means[n] / overall, f"1 (paper: {paper[n]} kB/s)", 0.75, 1.25,
                                           "paper" if not label else "paper (TCP NewReno, ours)", unit="ratio"))
        reno.write(out_dir / "reno", plots=False)
        newreno.write(out_dir / "newreno", plots=False)
        report.figures.append(rate_figure([("three Reno + one CBRAA", reno, names),
                                           ("three NewReno + one CBRAA", newreno, names)], out_dir, "cbraa_fair",
                                          unit="kB/s", levels=[(CAPACITY_BPS / 4, "fair share (125 kB/s)")]))
        return report


class CbraaRtt(_Cbraa):
    name = "cbraa-rtt"
    title = "CBRAA with different round-trip times: one TCP (25 ms one way) and two CBRAA (25 ms, 100 ms one way)"
    source = "003 Figure 6, section 4.3"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        warm = 0.0  # whole-run averages, as the paper's section 4.3
        ideal = {"tcp": 215, "cbraa25": 215, "cbraa100": 69}
        paper = {"tcp": 178, "cbraa25": 233, "cbraa100": 69}
        specs = [cbraa_spec([_tcp("tcp", tcp, one_way_ms=25),
                             {"name": "cbraa25", "protocol": "cbraa", "one_way_ms": 25},
                             {"name": "cbraa100", "protocol": "cbraa", "one_way_ms": 100}])
                 for tcp in ("reno", "newreno")]
        reno, newreno = run_many(specs, jobs=jobs)
        report = ExperimentReport(self.name)
        for label, res in (("", reno), ("NewReno: ", newreno)):
            for n in ideal:
                m = mean_kBps(res, n, warm)
                report.checks.append(Check(f"{label}{n} rate / ideal (whole run; {m:.0f} kB/s)", m / ideal[n],
                                           f"1 (ideal {ideal[n]} kB/s; paper measured {paper[n]})", 0.65, 1.35,
                                           "paper" if not label else "paper (TCP NewReno, ours)", unit="ratio"))
        reno.write(out_dir / "reno", plots=False)
        newreno.write(out_dir / "newreno", plots=False)
        report.figures.append(rate_figure([("Reno (25 ms) + CBRAA (25 ms) + CBRAA (100 ms)", reno, list(ideal)),
                                           ("NewReno (25 ms) + CBRAA (25 ms) + CBRAA (100 ms)", newreno, list(ideal))],
                                          out_dir, "cbraa_rtt", unit="kB/s"))
        return report


EXPERIMENTS: list[Experiment] = [CbraaVsMathis(), CbraaArrivals(), CbraaFair(), CbraaRtt()]

__all__ = ["EXPERIMENTS", "cbraa_spec", "cov", "mean_kBps", "rate_window"]
