"""The TICP experiments (Barakat, Malli and Nonaka 2006, Section VI) on the paper's Fig. 2 topology.

Collector c --(10 Gbps, 10 ms)-- core --(b_i, 20 i ms)-- bin node b_i, i = 1..5, with
b_i = 1150 - 150 i kbit/s and DropTail buffers of 20 packets on both sides of each bottleneck;
2000 sources per bin. Every run takes under a second at full scale, so the quick variants are
the full experiments. Competing traffic runs between the collector's
node and the bin node, so it has the session's path properties exactly. Requests reach a bin
through its multicast group (explicit clusters, ranked nearest first, as the paper numbers its
sources).

Per-bin throughput is the median of the 1 s samples taken while the collector probes that bin
in round 1: the level of the staircase in the paper's figures, which a mean over the bin's
period would mix with the slow-start burst at the start of bin 1 and with the transitions.
The ideal duration is the paper's: sum over bins of 2000 x (bits per bottleneck-direction
item) / available rate (127 s alone; 635 s beside UDP at 80 %).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ..results import Result
from ..summary_types import TicpSummary
from .base import Check, Experiment, ExperimentReport, Reading, StartJitter, ns2_window_reading, reading, run_many
from .figures import cached_figure, pyplot, save, time_axis

BINS = 5
SOURCE = "Barakat et al. 2006"


def capacity_bps(i: int) -> float:
    """Bottleneck rate of bin i (1-based), bit/s."""
    return (1150 - 150 * i) * 1e3


def session(name: str, n: int, request: int, report: int, rs: int, start: float = 0.0) -> dict[str, Any]:
    return {"name": name, "collector": "c", "sources": {f"b{i}": n for i in range(1, BINS + 1)}, "rs": rs,
            "request_size": f"{request}B", "report_size": f"{report}B", "start": f"{start:g}s"}


def topology_spec(sessions: list[dict[str, Any]], duration: float, *, background: str | None = None,
                  direction: str = "fwd", seed: int = 1, interval: float = 1.0) -> dict[str, Any]:
    """The Fig. 2 network with TICP ``sessions`` and, per bin, a ``background`` flow ("cbr",
    "poisson" at 80 % of b_i, or "newreno" bulk) from t = 0, forward (c -> b_i) or reverse."""
    links: list[dict[str, Any]] = [{"between": ["c", "core"], "rate": "10Gbps", "delay": "10ms", "queue": "1000p"}]
    flows = []
    for i in range(1, BINS + 1):
        links.append({"between": ["core", f"b{i}"], "rate": f"{1150 - 150 * i}kbps", "delay": f"{20 * i}ms",
                      "queue": "20p"})
        if background:
            src, dst = ("c", f"b{i}") if direction == "fwd" else (f"b{i}", "c")
            flow: dict[str, Any] = {"name": f"{background}{i}", "protocol": background, "from": src, "to": dst}
            if background != "newreno":
                flow["rate"] = f"{0.8 * (1150 - 150 * i):g}kbps"
            flows.append(flow)
    return {"run": {"duration": f"{duration:g}s", "seed": seed}, "links": links, "flows": flows,
            "ticp": sessions, "output": {"interval": f"{interval:g}s", "series": ["rate", "sent_rate", "cluster", "round",
                                                                         "cwnd", "reports"]}}


def ideal_duration(n: int, item_bytes: int, share: float = 1.0) -> float:
    """Seconds to move n items of item_bytes per bin through each bottleneck in turn."""
    return sum(n * item_bytes * 8 / (share * capacity_bps(i)) for i in range(1, BINS + 1))


def bin_windows(res: Result, name: str) -> dict[int, np.ndarray]:
    """Per bin (1-based), the sample times at which the collector probed that bin in round 1
    throughout the preceding second."""
    cluster = res.wide("cluster")[name]
    rounds = res.wide("round")[name]
    s = res.summary["ticp"][name]
    end = (s["began_s"] or 0) + (s["duration_s"] or math.inf)
    times = cluster.index.to_numpy()
    c = cluster.to_numpy()
    prev = np.concatenate([[np.nan], c[:-1]])
    ok = (rounds.to_numpy() == 1) & (c == prev) & (times <= end) & (times >= (s["began_s"] or 0) + 1)
    return {i: times[ok & (c == i - 1)] for i in range(1, BINS + 1)}


def whole_bin_windows(res: Result, name: str) -> dict[int, np.ndarray]:
    """Per bin (1-based), every sample time at which the collector probed that bin throughout
    the preceding second, in any round: the bin's whole share of the session."""
    cluster = res.wide("cluster")[name]
    s = res.summary["ticp"][name]
    end = (s["began_s"] or 0) + (s["duration_s"] or math.inf)
    times = cluster.index.to_numpy()
    c = cluster.to_numpy()
    prev = np.concatenate([[np.nan], c[:-1]])
    ok = (c == prev) & (times <= end) & (times >= (s["began_s"] or 0) + 1)
    return {i: times[ok & (c == i - 1)] for i in range(1, BINS + 1)}


def mean_rate(res: Result, variable: str, entity: str, times: np.ndarray) -> float:
    """The mean of ``variable`` over the samples at ``times``: bytes moved over their span."""
    series = res.wide(variable)[entity]
    values = series[series.index.isin(times)].to_numpy()
    return float(np.mean(values)) if len(values) else math.nan


def measured(reverse: bool) -> tuple[str, str, str]:
    """The series that shows a session's throughput on its congested direction: reports
    received at the collector, or requests delivered through the bottleneck."""
    return ("rate", "ticp", "report") if reverse else ("rate", "ticp/requests", "request")


def median_rate(res: Result, variable: str, entity: str, times: np.ndarray) -> float:
    series = res.wide(variable)[entity]
    values = series[series.index.isin(times)].to_numpy()
    return float(np.median(values)) if len(values) else math.nan


def shown_until(res: Result) -> float:
    """Where a throughput figure's time axis ends: a tenth past the end of the last session (so a
    competing flow's recovery shows), or the run's last sample if a session did not finish."""
    ends = [(t["began_s"] or 0.0) + t["duration_s"] if t["duration_s"] is not None else math.inf
            for t in res.summary["ticp"].values()]
    return min(1.1 * max(ends), float(res.summary["run"]["sim_seconds"]))


@cached_figure
def throughput_figure(path: Path, title: str, panels: list[tuple[str, Result, list[tuple[str, str, str]]]],
                      levels: list[float] | None = None, level_label: str = "available rate b_i") -> Path:
    """One panel per run: the named (variable, entity, label) series in kbit/s over time, with
    the per-bin available rates (``level_label``) as a dashed staircase if given."""
    plt = pyplot()
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.2 * len(panels)), squeeze=False, constrained_layout=True)
    for ax, (subtitle, res, lines) in zip(axes[:, 0], panels):
        until = shown_until(res)
        end = 0.0
        for variable, entity, label in lines:
            s = res.wide(variable)[entity]
            s = s[s.index <= until]
            ax.plot(s.index, s.to_numpy() / 1e3, linewidth=1, label=label)
            end = max(end, float(s.index.max()))
        if levels:
            for name, s in res.summary["ticp"].items():
                for i, cl in enumerate(s["clusters"], start=1):
                    if cl["first_request_s"] is not None and cl["last_request_s"] is not None:
                        ax.hlines(levels[i - 1] / 1e3, cl["first_request_s"], cl["last_request_s"], colors="black",
                                  linestyles="--", linewidth=1, label=level_label if i == 1 else None)
                break
        ax.set_title(subtitle, fontsize="medium")
        ax.set_ylabel("throughput (kbit/s)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
        time_axis(ax, end)
    axes[-1, 0].set_xlabel("time (s)")
    fig.suptitle(title)
    return save(fig, path, dpi=110)


def collected(label: str, s: TicpSummary) -> Check:
    """The reliability check: the share of expected reports in the collector's table."""
    return Check(f"{label}every report collected", s["reports_received"] / s["reports_expected"], "1", 1.0, 1.0,
                 "protocol", unit="ratio")


def _n(quick: bool) -> int:
    """Sources per bin: the paper's 2000 in both variants (a full run takes under a second)."""
    return 2000


#: The TICP experiments' replicas (issue 41): deterministic, but a shift of a few milliseconds in a
#: start time moves per-bin shares by factors of 2 to 10 (reproduction-audit, TICP), so each is
#: judged over replicas whose flows and sessions start up to one round trip later.
#: CHOICE: the width is the longest round trip of Fig. 2's paths, bin 5's 2 x (10 + 100) ms. The
#: paper gives its starts (TCPs at 0 s; sessions at 0 s, 100 s beside other traffic, 5 s apart);
#: the jitter samples the trajectories within a round trip of those instants.
TICP_JITTER = StartJitter(0.22, "bin 5's round trip, 2 x (10 + 100) ms: the paper starts its TCPs at 0 s and its "
                                "sessions at 0, 5 or 100 s, and one trajectory around those instants decides nothing")


class _Ticp(Experiment):
    source = SOURCE
    simulator = "ns-2 (2006)"
    timer = "ns-2.35"
    jitter: StartJitter | None = TICP_JITTER
    # CHOICE: twenty replicas in both variants where TICP shares a bottleneck (a run takes about
    # 0.1 s): with ten, three of ticp-tcp-rev's bins straddled ">= 3". A session alone is not
    # jittered (TicpAlone).
    seeds = 20
    quick_seeds = 20

    def _write(self, report: ExperimentReport, out_dir: Path, runs: dict[str, Result]) -> None:
        for label, res in runs.items():
            res.write(out_dir / label, plots=False)


class TicpAlone(_Ticp):
    """ticp-fwd and ticp-rev: one session alone, congestion on the requests or on the reports."""

    def __init__(self, reverse: bool) -> None:
        self.reverse = reverse
        # A session alone is judged on one trajectory: over three replicas with jittered starts
        # every check of ticp-fwd and ticp-rev gave the same value (issue 41's measurement).
        self.jitter = None
        self.name = "ticp-rev" if reverse else "ticp-fwd"
        fig = "Fig. 4" if reverse else "Fig. 3"
        self.title = f"one TICP session alone, congestion on the {'reverse' if reverse else 'forward'} path ({fig})"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        n = _n(quick)
        req, rep, rs = (100, 1000, 10) if self.reverse else (1000, 100, 1)
        ideal = ideal_duration(n, rs * req if not self.reverse else rep)
        [res] = run_many([topology_spec([session("ticp", n, req, rep, rs)], 2.5 * ideal)], jobs=jobs)
        report = ExperimentReport(self.name)
        s = res.summary["ticp"]["ticp"]
        report.checks.append(collected("", s))
        report.checks.append(Check("session duration / ideal", (s["duration_s"] or math.inf) / ideal,
                                   f"close to 1 (ideal {ideal:.0f} s)", 0.9, 1.1, SOURCE, unit="ratio"))
        windows = bin_windows(res, "ticp")
        variable, entity, what = measured(self.reverse)
        for i in range(1, BINS + 1):
            r = median_rate(res, variable, entity, windows[i])
            report.checks.append(Check(f"bin {i} {what} rate / b_{i}", r / capacity_bps(i),
                                       f"1 (b_{i} = {capacity_bps(i) / 1e3:.0f} kbit/s)", 0.85, 1.15, SOURCE, unit="ratio"))
        self._write(report, out_dir, {"run": res})
        label = "reports at the collector" if self.reverse else "requests through the bottlenecks"
        report.figures.append(throughput_figure(out_dir / "throughput.png", self.title,
                                                [("", res, [(variable, entity, label)])],
                                                [capacity_bps(i) for i in range(1, BINS + 1)]))
        return report


class TicpUdp(_Ticp):
    """ticp-udp-fwd and ticp-udp-rev: UDP at 80 % of every bottleneck from t = 0; TICP from 100 s."""

    def __init__(self, reverse: bool) -> None:
        self.reverse = reverse
        self.name = "ticp-udp-rev" if reverse else "ticp-udp-fwd"
        fig = "Fig. 6" if reverse else "Fig. 5"
        self.randomness = "Poisson UDP cross traffic"
        # CHOICE: both take 10 seeds. With 5, the reverse run's bin 5 Poisson check (a bin of
        # about 170 s) straddled the band's edge although its mean was inside (0.895, [0.836,
        # 0.954] against [0.85, 1.15]; with 10 seeds 0.911, [0.885, 0.936]: research/reproduction-
        # audit.md, "statistical power"); and since the starts are jittered (issue 41) the forward
        # run's CBR bin 2 did (1.101, [1.049, 1.153] over 5).
        self.seeds = 10
        self.quick_seeds = self.seeds  # the quick variant is the full experiment (2000 sources)
        self.title = f"TICP beside UDP at 80 % of each bottleneck, {'reverse' if reverse else 'forward'} ({fig})"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        n = _n(quick)
        req, rep, rs = (100, 1000, 10) if self.reverse else (1000, 100, 1)
        ideal = ideal_duration(n, rep if self.reverse else req, share=0.2)
        kinds = ["cbr", "poisson"]
        direction = "rev" if self.reverse else "fwd"
        specs = [topology_spec([session("ticp", n, req, rep, rs, start=100)], 100 + 2 * ideal, background=k,
                               direction=direction) for k in kinds]
        results = run_many(specs, jobs=jobs)
        report = ExperimentReport(self.name)
        variable, entity, what = measured(self.reverse)
        for kind, res in zip(kinds, results):
            s = res.summary["ticp"]["ticp"]
            report.checks.append(collected(f"{kind}: ", s))
            windows = bin_windows(res, "ticp")
            # UDP loses packets too once TICP fills the buffers (about 5 % for CBR, 9 % for
            # Poisson), so the rate left to TICP is the capacity less UDP's measured throughput.
            avail = [capacity_bps(i) - median_rate(res, "rate", f"{kind}{i}", windows[i]) for i in range(1, BINS + 1)]
            if self.reverse:
                item = rep * 8
                measured_ideal = sum(n * item / a for a in avail)
                if kind == "cbr":
                    report.checks.append(Check(f"{kind}: session duration / ideal",
                                               (s["duration_s"] or math.inf) / ideal,
                                               f"about 1 (ideal {ideal:.0f} s)", 0.85, 1.15, SOURCE, unit="ratio"))
                else:
                    report.checks.append(Check(f"{kind}: session duration / ideal at the measured available rate",
                                               (s["duration_s"] or math.inf) / measured_ideal,
                                               f"about 1 (ideal {measured_ideal:.0f} s; {ideal:.0f} s at 20 %)",
                                               0.85, 1.15, SOURCE, unit="ratio"))
            for i in range(1, BINS + 1):
                r = median_rate(res, variable, entity, windows[i])
                a = avail[i - 1]
                if not self.reverse and kind == "cbr":
                    report.checks.append(cbr_share_check(i, r, what))
                    continue
                report.checks.append(Check(f"{kind}: bin {i} {what} rate / available", r / a,
                                           f"1 ({a / 1e3:.0f} kbit/s left by UDP; 20 % = "
                                           f"{0.2 * capacity_bps(i) / 1e3:.0f})", 0.85, 1.15, SOURCE, unit="ratio"))
        self._write(report, out_dir, dict(zip(kinds, results)))
        panels = [(f"UDP {kind}", res, [(variable, entity, f"TICP {what}s")]) for kind, res in zip(kinds, results)]
        report.figures.append(throughput_figure(out_dir / "throughput.png", self.title, panels,
                                                [0.2 * capacity_bps(i) for i in range(1, BINS + 1)],
                                                "20 % of b_i (left by UDP)"))
        return report


WINDOW_20 = ns2_window_reading(("newreno",), "the paper's TCP is ns-2's and it gives no window")


class TicpTcp(_Ticp):
    """ticp-tcp-fwd, ticp-tcp-rev and ticp-tcp-rev-fair: one NewReno bulk flow per bottleneck."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.readings = (WINDOW_20,)
        if variant == "fair":
            self.readings = (WINDOW_20, Reading(
                "whole-bin", "each bin's bytes over all its time",
                "Each bin's TICP and TCP rates are their means over every sample the collector spends in the bin, "
                "in any round (bytes over the bin's whole time), instead of medians over round 1's samples: the "
                "100 B session spends 1-6 s in round 1 of a bin, much of it in Slow Start, which the paper's "
                "Fig. 9 cannot resolve, and the paper does not say over what its shares are read "
                "(reproduction-audit, ticp-tcp-rev-fair)"),)
        self.name = {"fwd": "ticp-tcp-fwd", "rev": "ticp-tcp-rev", "fair": "ticp-tcp-rev-fair"}[variant]
        self.title = {"fwd": "TICP requests beside forward TCP, RS = 1, 1000 B requests (Fig. 7)",
                      "rev": "TICP reports beside reverse TCP, RS = 10, 1000 B reports (Fig. 8)",
                      "fair": "TICP reports beside reverse TCP with RS x report = 1000 B (Fig. 9)"}[variant]

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        n = _n(quick)
        if self.variant == "fwd":
            configs = {"rs1": (1000, 100, 1)}
        elif self.variant == "rev":
            configs = {"rs10": (100, 1000, 10)}
        else:
            configs = {"rs1-1000B": (100, 1000, 1), "rs10-100B": (100, 100, 10)}
        direction = "fwd" if self.variant == "fwd" else "rev"
        # With TCP taking about half, twice the ideal. The 100 B collection spends only a few
        # seconds in each bin, so it is sampled every 0.25 s.
        item = {k: (req if direction == "fwd" else rep) for k, (req, rep, rs) in configs.items()}
        specs = [topology_spec([session("ticp", n, req, rep, rs, start=100)],
                               100 + 3 * ideal_duration(n, item[k], share=0.5), background="newreno",
                               direction=direction, interval=0.25 if rep * rs == 1000 and rs > 1 else 1.0)
                 for k, (req, rep, rs) in configs.items()]
        results = run_many(specs, jobs=jobs)
        report = ExperimentReport(self.name)
        variable, entity, _ = measured(direction == "rev")
        for label, res in zip(configs, results):
            s = res.summary["ticp"]["ticp"]
            report.checks.append(collected(f"{label}: ", s))
            whole = reading() == "whole-bin"
            windows = whole_bin_windows(res, "ticp") if whole else bin_windows(res, "ticp")
            rate_over = mean_rate if whole else median_rate
            for i in range(1, BINS + 1):
                ticp = rate_over(res, variable, entity, windows[i])
                tcp = rate_over(res, "rate", f"newreno{i}", windows[i])
                half = capacity_bps(i) / 2
                if self.variant == "rev":
                    report.checks.append(Check(f"bin {i}: TICP / TCP rate", ticp / tcp if tcp else math.inf,
                                               "much above 1 (about 10 TCP flows)", 3.0, math.inf, SOURCE, unit="ratio"))
                elif self.variant == "fwd":
                    report.checks.append(fair_share_check(label, i, ticp, tcp))
                else:
                    report.checks.append(Check(f"{label}: bin {i} TICP / equal share", ticp / half,
                                               "about 1 (fair to TCP)", 0.7, 1.3, SOURCE, unit="ratio"))
                    report.checks.append(Check(f"{label}: bin {i} TCP / equal share", tcp / half,
                                               "about 1 (fair to TICP)", 0.7, 1.3, SOURCE, unit="ratio"))
        if self.variant == "fair":
            d = [r.summary["ticp"]["ticp"]["duration_s"] or math.inf for r in results]
            report.checks.append(Check("duration with 100 B reports / with 1000 B", d[1] / d[0],
                                       "below 1 (less to collect)", 0.0, 0.99, SOURCE, unit="ratio"))
        self._write(report, out_dir, dict(zip(configs, results)))
        panels = [(label, res, [(variable, entity, "TICP"), ("rate", "newreno1", "TCP on b_1"),
                                ("rate", "newreno5", "TCP on b_5")]) for label, res in zip(configs, results)]
        report.figures.append(throughput_figure(out_dir / "throughput.png", self.title, panels))
        return report


#: What ticp-tcp-fwd's band rests on (section V and Fig. 7).
FAIR_QUOTE = ("\"At long time scale and for the same network conditions, TCP and TICP should obtain almost the same "
              "throughput\"; Fig. 7: \"Both protocols manage to share fairly the network resources\"")


def fair_share_check(label: str, i: int, ticp: float, tcp: float) -> Check:
    """ticp-tcp-fwd's check of bin ``i`` (issue 41): TICP's rate over the TCP's on the same path,
    within [2/3, 3/2] of each other.

    CHOICE: "almost the same throughput" read as within 3:2 either way. On the same paths, ns-2.35's
    timer and agents and 20-packet buffers, a second NewReno flow gets 0.85-1.03 of the first's
    rate in every bin (tests/test_ticp.py), so two TCPs pass with room; a collector ten times as
    aggressive (RS = 10) takes 2-4 times the TCP's rate and falls outside. The band before (each
    within 30 % of an equal share) admitted 1.86:1."""
    return Check(f"{label}: bin {i} TICP / TCP rate", ticp / tcp if tcp else math.inf,
                 f"about 1: {FAIR_QUOTE}", 2 / 3, 3 / 2, SOURCE, unit="ratio")


def cbr_share_check(i: int, rate: float, what: str = "request") -> Check:
    """ticp-udp-fwd's CBR check of bin ``i``: TICP's ``rate`` against the paper's 20 % of b_i,
    which CBR UDP at 80 % leaves exactly. Against the rate UDP's measured throughput leaves (the
    Poisson checks) a collector ten times as aggressive (RS = 10) passed in most bins (0.83-1.06),
    since UDP then loses more; against 20 % it falls outside (1.45-2.00; tests/test_ticp.py)."""
    left = 0.2 * capacity_bps(i)
    return Check(f"cbr: bin {i} {what} rate / 20 % of b_i", rate / left,
                 f"1 ({left / 1e3:.0f} kbit/s left by CBR UDP at 80 %)", 0.85, 1.15, SOURCE, unit="ratio")


#: The collector's first timeout (TICP section IV, the paper's 3 s).
INITIAL_TIMER_S = 3.0


class TicpTwo(_Ticp):
    """ticp-two: two sessions of the same size, the second starting 5 s after the first."""

    name = "ticp-two"
    title = "two TICP sessions share each bottleneck (Figs. 10 and 11)"
    readings = (Reading(
        "settled", "from the second session's first timer expiry",
        "Each bin's shares are measured from the second session's first timer expiry in the bin (3 s after it "
        "enters it) instead of over the whole overlap: the paper does not say over which part of Figs. 10 and 11 "
        "its sessions share, and until its first timeout the second session holds its window at RS "
        "(reproduction-audit, ticp-two)"),)

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        n = _n(quick)
        configs = {"fwd": (1000, 100, 1), "rev": (100, 1000, 10)}
        specs = []
        for direction, (req, rep, rs) in configs.items():
            item = req if direction == "fwd" else rep
            specs.append(topology_spec([session("first", n, req, rep, rs), session("second", n, req, rep, rs, start=5)],
                                       10 + 3 * ideal_duration(n, item)))
        results = run_many(specs, jobs=jobs)
        report = ExperimentReport(self.name)
        for direction, res in zip(configs, results):
            variable = "rate"
            entities = ("first/requests", "second/requests") if direction == "fwd" else ("first", "second")
            for name in ("first", "second"):
                s = res.summary["ticp"][name]
                report.checks.append(collected(f"{direction}: {name}: ", s))
            w1, w2 = bin_windows(res, "first"), bin_windows(res, "second")
            for i in range(1, BINS + 1):
                both = np.intersect1d(w1[i], w2[i])
                if reading() == "settled" and len(w2[i]):
                    both = both[both >= float(np.min(w2[i])) + INITIAL_TIMER_S]
                half = capacity_bps(i) / 2
                for name, entity in zip(("first", "second"), entities):
                    # CHOICE: a bin the two sessions share for fewer than five samples is not
                    # judged in that replica (optional: judged over the replicas that share it).
                    r = median_rate(res, variable, entity, both) if len(both) >= 5 else math.nan
                    report.checks.append(Check(f"{direction}: bin {i} {name} / half of b_{i}", r / half,
                                               "about 1 (half each)", 0.75, 1.25, SOURCE, unit="ratio",
                                               optional=True))
        self._write(report, out_dir, dict(zip(configs, results)))
        panels = []
        for direction, res in zip(configs, results):
            variable = "rate"
            entities = ("first/requests", "second/requests") if direction == "fwd" else ("first", "second")
            panels.append((direction, res, [(variable, e, e.split("/")[0]) for e in entities]))
        report.figures.append(throughput_figure(out_dir / "throughput.png", self.title, panels))
        return report


EXPERIMENTS: list[Experiment] = [TicpAlone(False), TicpAlone(True), TicpUdp(False), TicpUdp(True), TicpTcp("fwd"),
                                 TicpTcp("rev"), TicpTcp("fair"), TicpTwo()]
