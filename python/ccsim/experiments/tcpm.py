"""The TCP-M experiments: reliable multicast with ACK fusion in routers (R. Ghosh and G. Varghese,
"Congestion Control in Multicast Transport Protocols", WUCS-98-19, 1998; seed 001, Section 6 and
Table 1), nine registered recipes.

Seven run on the ten-node topology of the paper's Figure 7. Its figure is lost from the seed's
text, so the topology is **ours**, reconstructed in ../shared/EXPERIMENTS.md: S-R1 10 Mbit/s 2 ms;
R1-D1, R1-R2, R2-R4, R4-D2, R4-D3, R1-R3 10 Mbit/s 5 ms; R3-D4 2 Mbit/s 10 ms; R3-D5 3 Mbit/s
10 ms; D4-R4 1 Mbit/s 20 ms (an alternate path on no shortest path). Receivers D1..D5, source S,
every node a fusion node unless stated, embedded TCP Vegas, 1000 B packets. R3-D5 is 3 Mbit/s:
Section 6.1 names R3-D4 (2 Mbit/s) the bottleneck of the five-receiver transfer, so R3-D5 must
be wider, and Section 6.2(a) gives S2's tree (D1, D2, D3, D5) its own bottleneck, which R3-D5
then is. (Until issue 25 it was 1.5 Mbit/s, narrower than R3-D4, contrary to Section 6.1.) The
checks measure against the narrowest link of each session's tree as computed from the
topology (so the tables say which link that is), and tcpm-single also against the paper's
2 Mbit/s.

tcpm-random builds GT-ITM's graph of Figure 13 ("geo 1 23", "100 50 3 0.03"; 100 kbit/s links,
delay 1 ms per grid unit) with ``ccsim.topology.waxman``; tcpm-fusion the complete binary trees
of 63 and 127 nodes (500 kbit/s, delays uniform in 0..10 ms) with ``ccsim.topology.binary_tree``.

Every figure is a sender sequence plot as in the paper: the segment number of each segment the
embedded TCP sends (retransmissions included) against time, from the change trace ``seq``.
Throughputs are application bytes: a 1000 B packet carries 960 B, so "a shade under 2 Mbit/s" on
the wire is at most 1.92 Mbit/s here.

CHOICE: DropTail queues of 50 packets everywhere (ns-2's default ``limit_``; the paper names
none).
CHOICE: the embedded TCP's window is capped at 20 segments (``max_window = 20``), ns-2's default
``window_``: the paper ran ns-2 with no word on it, and Table 1's unicast throughputs (174.3 kbit/s
on 500 kbit/s links with 5 hops, 145.2 with 6) are in the ratio 6/5 of the round trips, as a
window-limited sender's are, and far below what the links carry.
CHOICE: tcpm-fusion's "40 byte" segments are 40 B of payload in 80 B packets (our TCP header is
40 B and a packet must carry data); ns-2 sent 40 B packets and counted them as 40 B of data, so
the throughputs compare, while our data packets load the links twice as much.
CHOICE: the two-session and unicast experiments start the second sender 0.5 s after the first
(the paper: "a little after", "staggered times"); tcpm-fastrtx drops the segments on R1->D1.
CHOICE: shares of a shared link are measured over the last half of the run (30 s); the rate after
R2's crash from 1 s after it; the rate after tcpm-fastrtx's losses from 1 s after the first.
CHOICE: tcpm-crash moves 1 MB with static routes (R3's crash cuts D4 and D5 off either way:
their parent is R3), so the application's list of receivers that got everything is checked too;
tcpm-reroute recomputes routes at once (``reroute = "instant"``, ns-2's session routing).
CHOICE: tcpm-random slows the source's link that the most receivers' shortest paths cross (the
paper does not say which link), so that it is on the tree.
CHOICE: tcpm-fusion's unicast Vegas goes to the leaf farthest from the root by delay (the paper:
"one of the leaf nodes"), whose round trip bounds the multicast window too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .. import topology
from ..errors import InternalError
from ..results import Result
from .base import Check, Experiment, ExperimentReport, StartJitter, run_many
from .figures import cached_figure, pyplot, save, time_axis

if TYPE_CHECKING:
    import networkx as nx

SOURCE = "Ghosh and Varghese 1998"
HEADER = 40  # bytes of IP and TCP header in each data packet
PACKET = 1000  # bytes, Figure 7's experiments and tcpm-random
TREE_PACKET = 80  # bytes: 40 B segments (tcpm-fusion)
WINDOW = 20  # segments, ns-2's default window_
QUEUE = "50p"  # ns-2's default queue limit
INTERVAL = 0.1  # s, between the rate samples of unicast flows

#: Figure 7, reconstructed (ours): (a, b, rate in bit/s, delay in ms).
FIG7_LINKS: list[tuple[str, str, float, float]] = [
    ("S", "R1", 10e6, 2), ("R1", "D1", 10e6, 5), ("R1", "R2", 10e6, 5), ("R2", "R4", 10e6, 5),
    ("R4", "D2", 10e6, 5), ("R4", "D3", 10e6, 5), ("R1", "R3", 10e6, 5), ("R3", "D4", 2e6, 10),
    ("R3", "D5", 3e6, 10), ("D4", "R4", 1e6, 20),
]
RECEIVERS = ["D1", "D2", "D3", "D4", "D5"]

PAPER_REACHABLE = 54
# Table 1 (kbit/s). The 127-node row is partly unreadable in the seed; the text gives "a drop of
# about 37 %" from 63 to 31 fusion nodes.
TABLE1: dict[int, dict[str, float | None]] = {
    63: {"63": 173.2, "31": 173.2, "15": 164.5, "7": 18.74, "source": 1.59, "unicast": 174.3},
    127: {"127": 142.9, "63": 142.9, "31": 142.9 * 0.63, "15": 13.8, "7": None, "source": 0.47, "unicast": 145.2},
}


def payload_share(packet: int) -> float:
    """Application bytes per byte on the wire of a full data packet."""
    return (packet - HEADER) / packet


def _rate(bps: float) -> str:
    return f"{bps / 1e3:g}kbps"


def fig7_graph(down: tuple[str, ...] = ()) -> nx.Graph:
    """Figure 7 (ours) as a graph with ``rate_bps`` and ``delay_s`` per link, without the nodes
    ``down``."""
    import networkx as nx

    g = nx.Graph()
    for a, b, rate, delay in FIG7_LINKS:
        if a not in down and b not in down:
            g.add_edge(a, b, rate_bps=rate, delay_s=delay / 1e3)
    return g


def fig7_links() -> list[dict[str, Any]]:
    return [{"between": [a, b], "rate": _rate(rate), "delay": f"{delay:g}ms", "queue": QUEUE}
            for a, b, rate, delay in FIG7_LINKS]


def tree_links(g: nx.Graph, source: str, receivers: list[str]) -> set[tuple[str, str]]:
    """The links of the multicast tree: the union of the shortest paths by delay (the run's
    ``routing = "delay"``) from ``source`` to each receiver, each link as (parent, child)."""
    import networkx as nx

    out: set[tuple[str, str]] = set()
    for r in receivers:
        path = nx.shortest_path(g, source, r, weight="delay_s")
        out |= set(zip(path, path[1:]))
    return out


def narrowest(g: nx.Graph, source: str, receivers: list[str]) -> tuple[str, float]:
    """The narrowest link of the multicast tree ("a-b") and its rate in bit/s."""
    a, b = min(tree_links(g, source, receivers), key=lambda e: (g.edges[e]["rate_bps"], e))
    return f"{a}-{b}", float(g.edges[a, b]["rate_bps"])


#: The paper's Vegas: ns-2's `Agent/TCP/Vegas` (section 6: "we used TCP Vegas", in ns-2), not
#: the Linux-style Vegas with NewReno recovery (docs/protocols.md, Vegas).
VEGAS = {"variant": "ns2"}


def session(name: str, source: str, receivers: list[str], *, start: float = 0.0, fusion: Any = "all",
            packet: int = PACKET, **extra: Any) -> dict[str, Any]:
    """A ``[[tcpm]]`` session with the paper's constants (ns-2's Vegas, RCVR_TMOUT 1 s,
    TCP-M_TMOUT 2 s, MAX_DUPLICATE 5) and our window of 20 segments."""
    s: dict[str, Any] = {"name": name, "source": source, "receivers": list(receivers), "protocol": "vegas",
                         "fusion": fusion, "start": f"{start:g}s", "packet_size": f"{packet}B",
                         "rcvr_timeout": "1s", "tcpm_timeout": "2s", "max_duplicate": 5,
                         "options": {"max_window": WINDOW}}
    s.update(extra)
    s["options"] = dict(s.get("options") or {})
    if s["protocol"] == "vegas":
        s["options"].setdefault("vegas", dict(VEGAS))
    return s


def unicast(name: str, src: str, dst: str, *, start: float = 0.0, packet: int = PACKET) -> dict[str, Any]:
    """A unicast flow of ns-2's Vegas with the sessions' packet size and window."""
    return {"name": name, "protocol": "vegas", "from": src, "to": dst, "start": f"{start:g}s",
            "packet_size": f"{packet}B", "max_window": WINDOW, "vegas": dict(VEGAS)}


def output() -> dict[str, Any]:
    return {"interval": f"{INTERVAL * 1e3:g}ms", "series": ["rate"], "trace": ["seq"]}


def fig7_spec(sessions: list[dict[str, Any]], duration: float, *, flows: list[dict[str, Any]] | None = None,
              events: list[dict[str, Any]] | None = None, drops: list[dict[str, Any]] | None = None,
              reroute: str | None = None, seed: int = 1) -> dict[str, Any]:
    """A run on Figure 7 (ours) with TCP-M ``sessions`` and the other parts given."""
    run: dict[str, Any] = {"duration": f"{duration:g}s", "seed": seed}
    if reroute is not None:
        run["reroute"] = reroute
    spec: dict[str, Any] = {"run": run, "links": fig7_links(), "flows": list(flows or []), "tcpm": sessions,
                            "output": output()}
    if events:
        spec["events"] = events
    if drops:
        spec["drops"] = drops
    return spec


# ---------------------------------------------------------------------------------------------
# The sender's sequence trace


@dataclass
class SeqTrace:
    """Every segment a session's sender transmitted: ``times`` (s) and segment ``seqs`` (from 0),
    in order of transmission, retransmissions included."""

    times: np.ndarray
    seqs: np.ndarray

    @classmethod
    def of(cls, res: Result, name: str) -> SeqTrace:
        try:
            rows = res.series("seq:change")
        except KeyError:
            return cls(np.empty(0), np.empty(0))
        rows = rows[rows["entity"] == name]
        return cls(rows["time"].to_numpy(dtype=float), rows["value"].to_numpy(dtype=float))

    def new_data(self) -> tuple[np.ndarray, np.ndarray]:
        """The first transmissions of new segments (each above every segment sent before)."""
        if len(self.seqs) == 0:
            return self.times, self.seqs
        prior = np.maximum.accumulate(np.concatenate([[-np.inf], self.seqs[:-1]]))
        keep = self.seqs > prior
        return self.times[keep], self.seqs[keep]

    def retransmitted(self) -> set[int]:
        """Segment numbers sent more than once."""
        values, counts = np.unique(self.seqs, return_counts=True)
        return {int(v) for v in values[counts > 1]}

    def longest_pause(self, after: float, until: float) -> tuple[float, float]:
        """The longest interval in [after, until] in which no new segment was sent: (start, end)."""
        t, _ = self.new_data()
        marks = np.concatenate([[after], t[(t > after) & (t <= until)], [until]])
        gaps = np.diff(marks)
        i = int(np.argmax(gaps))
        return float(marks[i]), float(marks[i + 1])


def delivered(res: Result, flow: str, payload: int) -> SeqTrace:
    """A unicast flow's sender trace if the engine recorded one, else the segments its receiver
    had taken in order by each ``rate`` sample (the cumulative sum of the samples)."""
    own = SeqTrace.of(res, flow)
    if len(own.times):
        return own
    s = res.wide("rate")[flow].dropna()
    return SeqTrace(s.index.to_numpy(dtype=float), np.cumsum(s.to_numpy()) * INTERVAL / (8 * payload))


def flow_rate(res: Result, flow: str, t1: float, t2: float) -> float:
    """Mean of a flow's ``rate`` samples in (t1, t2]: application bit/s delivered to a unicast
    receiver, or acknowledged at a TCP-M session's source by every receiver."""
    s = res.wide("rate")[flow]
    s = s[(s.index > t1 + 1e-9) & (s.index <= t2 + 1e-9)]
    return float(s.mean()) if len(s) else math.nan


def tcpm(res: Result, name: str) -> dict[str, Any]:
    """A session's summary (``summary["tcpm"][name]``)."""
    return cast(dict[str, Any], res.summary["tcpm"][name])


# ---------------------------------------------------------------------------------------------
# Figures


@dataclass
class Curve:
    label: str
    trace: SeqTrace


@dataclass
class Panel:
    title: str
    curves: list[Curve]
    instants: list[tuple[float, str]]  # vertical lines: (time, legend label)
    slopes: list[tuple[float, float, float, str]]  # (t0, seq0, segments per second, legend label)
    window: tuple[float, float] | None = None  # the time axis shown, else 0 to the data's end


@cached_figure
def sequence_figure(path: Path, title: str, panels: list[Panel]) -> Path:
    """One panel per entry: segment number sent against time (one dot per transmission), the
    instants of events as dotted vertical lines, and reference rates as dashed lines."""
    plt = pyplot()
    cols = 1 if len(panels) < 3 else 2
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(9.0 if cols == 1 else 13.0, 3.6 * rows), squeeze=False,
                             constrained_layout=True)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, panel in zip(axes.flat, panels):
        t0, t1 = panel.window if panel.window else (0.0, math.inf)
        end = t0
        for k, curve in enumerate(panel.curves):
            t, s = curve.trace.times, curve.trace.seqs
            keep = (t >= t0) & (t <= t1)
            t, s = t[keep], s[keep]
            ax.plot(t, s, ".", markersize=1.5, color=f"C{k}", label=curve.label)
            if len(t):
                end = max(end, float(t.max()))
        # The time axis ends with the last transmission shown (an empty panel shows a second).
        end = end if end > t0 else t0 + 1.0
        for k, (ts, seq0, per_s, label) in enumerate(panel.slopes):
            start = max(ts, t0)
            ax.plot([start, end], [seq0 + (start - ts) * per_s, seq0 + (end - ts) * per_s], "--", linewidth=0.8,
                    color=f"C{k + len(panel.curves)}", label=label)
        for k, (at, label) in enumerate(panel.instants):
            ax.axvline(at, color="black", linestyle=":" if k == 0 else "-.", linewidth=1, label=label)
        ax.set_title(panel.title, fontsize="medium")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("packet sequence number")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", markerscale=6)
        time_axis(ax, end, t0)
    fig.suptitle(title)
    return save(fig, path, dpi=110)


def rate_line(trace: SeqTrace, rate_bps: float, payload: int, label: str) -> tuple[float, float, float, str]:
    """A reference line from the session's first segment, rising at ``rate_bps`` of payload."""
    t0 = float(trace.times[0]) if len(trace.times) else 0.0
    return t0, 0.0, rate_bps / (8 * payload), label


# ---------------------------------------------------------------------------------------------
# The experiments


#: The runs of the experiments that Figure 4's duplicate rule upsets: the paper's rule, and ours
#: (`duplicate_rule = "fused"`: duplicates fused by the minimum as ACKs are, docs/protocols.md),
#: measured side by side.
RULES: dict[str, dict[str, Any]] = {"run": {}, "fused-duplicates": {"duplicate_rule": "fused"}}
FUSED = "ours, fused duplicates"


class _Tcpm(Experiment):
    source = SOURCE
    simulator = "ns-2 (1998)"
    timer = "ns-2 (1998)"

    def duration(self, quick: bool) -> float:
        """Simulated seconds of each run. Every run takes well under a second, so the quick
        variants are the full experiments, but for tcpm-fusion's 127-node tree."""
        raise NotImplementedError

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        """The runs, by the name of their output folder."""
        raise NotImplementedError

    def _run(self, quick: bool, jobs: int | None) -> dict[str, Result]:
        specs = self.specs(quick)
        return dict(zip(specs, run_many(list(specs.values()), jobs=jobs)))

    def _write(self, out_dir: Path, runs: dict[str, Result]) -> None:
        for label, res in runs.items():
            res.write(out_dir / label, plots=False)


#: Why a sum of rates over a window may pass 1 by a little: data queued or in flight when the
#: window opens is acknowledged or delivered inside it (two windows of 20 segments are 2 % of
#: what R3-D4 carries in 15 s).
TOGETHER = "up to 1.02: what the windows held when the measurement began"


def _count(name: str, measured: float, expected: str, low: float, high: float, unit: str = "receivers") -> Check:
    return Check(name, measured, expected, low, high, SOURCE, unit=unit)


class Single(_Tcpm):
    """tcpm-single: one session S -> D1..D5 (Figure 8)."""

    name = "tcpm-single"
    title = "one TCP-M session S -> D1..D5 on Figure 7's topology (Fig. 8)"

    def duration(self, quick: bool) -> float:
        return 10.0

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        return {"run": fig7_spec([session("m1", "S", RECEIVERS)], self.duration(quick))}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        runs = self._run(quick, jobs)
        res = runs["run"]
        s = tcpm(res, "m1")
        link, rate = narrowest(fig7_graph(), "S", RECEIVERS)
        ceiling = rate * payload_share(PACKET)
        report = ExperimentReport(self.name)
        report.checks.append(Check(f"throughput / payload rate of the narrowest tree link ({link})",
                                   s["throughput_bps"] / ceiling, "a shade under 1 (the tree's bottleneck)",
                                   0.9, 1.0, SOURCE, unit="ratio"))
        paper = 2e6 * payload_share(PACKET)
        report.checks.append(Check("throughput against the paper's", s["throughput_bps"] / 1e6,
                                   "a shade under 2 Mbit/s on the wire (R3-D4), 1.92 of payload",
                                   0.9 * paper / 1e6, paper / 1e6, SOURCE, unit="Mbit/s"))
        report.checks.append(Check("fused ACKs at the source per ACK sent by the receivers",
                                   s["acks_at_source"] / max(s["acks_from_receivers"], 1),
                                   "about 1/5: one fused ACK per five receiver ACKs", 0.15, 0.25, SOURCE,
                                   unit="ratio"))
        report.checks.append(_count("receivers reported failed", len(s["failed"]), "none", 0, 0))
        self._write(out_dir, runs)
        trace = SeqTrace.of(res, "m1")
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, [
            Panel("", [Curve("TCP-M S -> D1..D5", trace)], [],
                  [rate_line(trace, ceiling, PACKET - HEADER, f"payload rate of {link} ({rate / 1e6:g} Mbit/s)")])]))
        return report


class TwoSessions(_Tcpm):
    """tcpm-two-disjoint and tcpm-two-shared: two sessions from S, the second 0.5 s later (Fig. 9)."""

    def __init__(self, shared: bool) -> None:
        self.shared = shared
        self.name = "tcpm-two-shared" if shared else "tcpm-two-disjoint"
        self.title = ("two TCP-M sessions to D1..D5 share R3-D4 (Fig. 9b)" if shared else
                      "two TCP-M sessions, S1 -> D1..D4 and S2 -> D1,D2,D3,D5 (Fig. 9a)")
        self.receivers = ({"s1": RECEIVERS, "s2": RECEIVERS} if shared else
                          {"s1": ["D1", "D2", "D3", "D4"], "s2": ["D1", "D2", "D3", "D5"]})

    def duration(self, quick: bool) -> float:
        return 30.0 if self.shared else 10.0

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        sessions = [session(n, "S", r, start=0.5 * i) for i, (n, r) in enumerate(self.receivers.items())]
        return {"run": fig7_spec(sessions, self.duration(quick))}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        duration = self.duration(quick)
        runs = self._run(quick, jobs)
        res = runs["run"]
        report = ExperimentReport(self.name)
        g = fig7_graph()
        traces = {n: SeqTrace.of(res, n) for n in self.receivers}
        panel = Panel("", [Curve(f"{n} -> {','.join(r)}", traces[n]) for n, r in self.receivers.items()], [], [])
        if self.shared:
            # Both sessions' trees are the same; measured once both have run for a while (ours:
            # the last half of the run).
            link, rate = narrowest(g, "S", RECEIVERS)
            ceiling = rate * payload_share(PACKET)
            t1 = duration / 2
            rates = {n: flow_rate(res, n, t1, duration) for n in self.receivers}
            for n in self.receivers:
                report.checks.append(Check(f"{n} / half the payload rate of {link} (last half)", rates[n] / (ceiling / 2),
                                           "about 1 (about 1 Mbit/s each of R3-D4's 2)", 0.75, 1.25, SOURCE,
                                           unit="ratio"))
            report.checks.append(Check(f"s1 + s2 / payload rate of {link} (last half)", sum(rates.values()) / ceiling,
                                       f"a shade under 1 (the link is shared, not wasted); {TOGETHER}", 0.85, 1.02,
                                       SOURCE, unit="ratio"))
            panel.slopes.append(rate_line(traces["s1"], ceiling / 2, PACKET - HEADER,
                                          f"half of {link} ({rate / 2e6:g} Mbit/s)"))
        else:
            for n, r in self.receivers.items():
                link, rate = narrowest(g, "S", r)
                s = tcpm(res, n)
                report.checks.append(Check(f"{n} throughput / payload rate of its narrowest link ({link})",
                                           s["throughput_bps"] / (rate * payload_share(PACKET)),
                                           "a shade under 1 (each gets its own bottleneck's rate)", 0.9, 1.0,
                                           SOURCE, unit="ratio"))
                panel.slopes.append(rate_line(traces[n], rate * payload_share(PACKET), PACKET - HEADER,
                                              f"{n}: {link} ({rate / 1e6:g} Mbit/s)"))
        for n in self.receivers:
            report.checks.append(_count(f"{n}: receivers reported failed", len(tcpm(res, n)["failed"]), "none", 0, 0))
        self._write(out_dir, runs)
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, [panel]))
        return report


class WithUnicast(_Tcpm):
    """tcpm-unicast: a unicast Vegas S -> D4 beside the session S -> D1..D5 (Fig. 10)."""

    name = "tcpm-unicast"
    title = "TCP-M S -> D1..D5 beside a unicast TCP Vegas S -> D4 (Fig. 10)"
    # Replicas (issue 41): a start shift of up to 100 ms moves both shares across their band
    # (validation/start_shift.py: the session 0.67-1.07 of half the link over five shifts).
    # CHOICE: 100 ms, about the longest round trip of Figure 7's receivers; the paper starts the
    # unicast "a little after" the session.
    jitter = StartJitter(0.100, "about the longest round trip of Figure 7's receivers; the paper gives no start times")
    # CHOICE: ten replicas (five quick), the CBRAA experiments' count; a run takes well under a second.
    seeds = 10
    quick_seeds = 5

    def duration(self, quick: bool) -> float:
        return 30.0

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        return {"run": fig7_spec([session("m1", "S", RECEIVERS)], self.duration(quick),
                                 flows=[unicast("u1", "S", "D4", start=0.5)])}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        duration = self.duration(quick)
        runs = self._run(quick, jobs)
        res = runs["run"]
        g = fig7_graph()
        link, rate = narrowest(g, "S", ["D4"])
        ceiling = rate * payload_share(PACKET)
        t1 = duration / 2
        trace = SeqTrace.of(res, "m1")
        m = flow_rate(res, "m1", t1, duration)
        u = flow_rate(res, "u1", t1, duration)
        report = ExperimentReport(self.name)
        report.checks.append(Check(f"TCP-M / half the payload rate of {link} (last half)", m / (ceiling / 2),
                                   "about 1 (about 1 Mbit/s each)", 0.75, 1.25, SOURCE, unit="ratio"))
        report.checks.append(Check(f"unicast / half the payload rate of {link} (last half)", u / (ceiling / 2),
                                   "about 1 (about 1 Mbit/s each)", 0.75, 1.25, SOURCE, unit="ratio"))
        report.checks.append(Check(f"TCP-M + unicast / payload rate of {link} (last half)", (m + u) / ceiling,
                                   f"a shade under 1 (they share R3-D4's 2 Mbit/s); {TOGETHER}", 0.85, 1.02, SOURCE,
                                   unit="ratio"))
        report.checks.append(_count("receivers reported failed", len(tcpm(res, "m1")["failed"]), "none", 0, 0))
        self._write(out_dir, runs)
        panels = [Panel("", [Curve("TCP-M S -> D1..D5", trace), Curve("unicast S -> D4", delivered(res, "u1", PACKET - HEADER))],
                        [(t1, "start of the measurement")],
                        [rate_line(trace, ceiling / 2, PACKET - HEADER, f"half of {link} ({rate / 2e6:g} Mbit/s)")])]
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, panels))
        return report


class Crash(_Tcpm):
    """tcpm-crash: R3 (a fusion node) crashes at 1.0 s (Fig. 11a)."""

    name = "tcpm-crash"
    title = "R3 crashes at 1.0 s during a 1 MB transfer to D1..D5 (Fig. 11a)"
    crash = 1.0

    def duration(self, quick: bool) -> float:
        return 8.0

    #: The bands of the two instants. The paper's 2.0235 s puts R1's last REVERSE_PATH from R3 at
    #: 0.0235 s, the session's first: with RCVR_TMOUT = 1 s the next would come at about 1.02 s,
    #: after the crash at 1.0 s, so R1's TCP-M_TMOUT (2 s) runs from the first REVERSE_PATH, which
    #: arrives within the set-up's first round trips. [2.0, 2.2] s admits a set-up up to 0.2 s long;
    #: new data resumes once the failure is reported, so its band ends 50 ms later. A receiver
    #: that sent REVERSE_PATH twice as often (a last one near 0.5 s) would report at about 2.5 s
    #: (tests/test_tcpm_experiments.py).
    reported_band = (2.0, 2.2)
    resumed_band = (2.0, 2.25)

    def specs(self, quick: bool, **extra: Any) -> dict[str, dict[str, Any]]:
        return {"run": fig7_spec([session("m1", "S", RECEIVERS, size="1MB", **extra)], self.duration(quick),
                                 events=[{"at": f"{self.crash:g}s", "node": "R3", "state": "down"}])}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        runs = self._run(quick, jobs)
        res = runs["run"]
        s = tcpm(res, "m1")
        trace = SeqTrace.of(res, "m1")
        report = ExperimentReport(self.name)
        failed = set(s["failed"])
        report.checks.append(_count("receivers reported failed", len(failed), "2 (D4 and D5, behind R3)", 2, 2))
        report.checks.append(_count("of those, D4 or D5", len(failed & {"D4", "D5"}), "2", 2, 2))
        detected = [f["at_s"] for f in s["failures"] if f["receiver"] in {"D4", "D5"}]
        # R1's last REVERSE_PATH from R3 arrived before the crash; its timer runs TCP-M_TMOUT = 2 s.
        report.checks.append(Check("failure of D4 and D5 reported at", max(detected) if detected else math.nan,
                                   "TCP-M_TMOUT (2 s) after R1's last REVERSE_PATH from R3 (paper: 2.0235 s)",
                                   *self.reported_band, SOURCE, unit="s"))
        # The stall is the longest pause in new data between the crash and the transfer's last
        # new segment.
        times, _ = trace.new_data()
        _, resumed = trace.longest_pause(self.crash, max(self.crash, float(times.max()) if len(times) else 0.0))
        report.checks.append(Check("new data resumes at", resumed, "just after R1's timer expires (paper: 2.02 s)",
                                   *self.resumed_band, SOURCE, unit="s"))
        report.checks.append(_count("receivers that confirmed the whole 1 MB", len(set(s["completed"]) & {"D1", "D2", "D3"}),
                                    "3 (D1, D2, D3)", 3, 3))
        self._write(out_dir, runs)
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, [
            Panel("", [Curve("TCP-M S -> D1..D5", trace)],
                  [(self.crash, "R3 crashes"), (max(detected) if detected else self.crash,
                                                "D4, D5 reported failed")], [])]))
        return report


class Reroute(_Tcpm):
    """tcpm-reroute: R2, not a fusion node, crashes at 2.0 s; routes are recomputed at once and
    D2, D3 are reached through R1-R3-D4-R4 (Fig. 11b)."""

    name = "tcpm-reroute"
    title = "R2 (not a fusion node) crashes at 2.0 s; routing moves to R1-R3-D4-R4 (Fig. 11b)"
    crash = 2.0

    def duration(self, quick: bool) -> float:
        return 8.0

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        fusion = sorted(({a for a, *_ in FIG7_LINKS} | {b for _, b, *_ in FIG7_LINKS}) - {"R2"})
        return {label: fig7_spec([session("m1", "S", RECEIVERS, fusion=fusion, **extra)], self.duration(quick),
                                 reroute="instant", events=[{"at": f"{self.crash:g}s", "node": "R2", "state": "down"}])
                for label, extra in RULES.items()}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        duration = self.duration(quick)
        runs = self._run(quick, jobs)
        res = runs["run"]
        s = tcpm(res, "m1")
        trace = SeqTrace.of(res, "m1")
        link, rate = narrowest(fig7_graph(down=("R2",)), "S", RECEIVERS)
        ceiling = rate * payload_share(PACKET)
        before_link, before_rate = narrowest(fig7_graph(), "S", RECEIVERS)
        # Ours: after a second to settle on the new path.
        t1 = self.crash + 1.0
        after = flow_rate(res, "m1", t1, duration)
        report = ExperimentReport(self.name)
        report.checks.append(_count("receivers reported failed", len(s["failed"]), "none (the transfer continues)", 0, 0))
        start, end = trace.longest_pause(self.crash, duration)
        report.checks.append(Check("longest pause in new data after the crash", end - start,
                                   "a few retransmissions, well under TCP-M_TMOUT (2 s)", 0.0, 2.0, SOURCE, unit="s",
                                   open_low=False))
        report.checks.append(Check(f"rate after the crash / payload rate of {link}", after / ceiling,
                                   "a shade under 1 (the new path's bottleneck)", 0.8, 1.0, SOURCE, unit="ratio"))
        fixed = flow_rate(runs["fused-duplicates"], "m1", t1, duration)
        report.checks.append(Check(f"{FUSED}: rate after the crash / payload rate of {link}", fixed / ceiling,
                                   "a shade under 1 (the new path's bottleneck)", 0.8, 1.0, SOURCE, unit="ratio"))
        self._write(out_dir, runs)
        slope = (t1, float(np.interp(t1, *trace.new_data())) if len(trace.times) else 0.0,
                 ceiling / (8 * (PACKET - HEADER)), f"{link} ({rate / 1e6:g} Mbit/s)")
        before = rate_line(trace, before_rate * payload_share(PACKET), PACKET - HEADER,
                           f"{before_link} ({before_rate / 1e6:g} Mbit/s)")
        panels = [Panel("whole run", [Curve("TCP-M S -> D1..D5", trace)], [(self.crash, "R2 crashes")], [before, slope]),
                  Panel("1 to 3 s, as the paper's figure", [Curve("TCP-M S -> D1..D5", trace)],
                        [(self.crash, "R2 crashes")], [], window=(1.0, 3.0))]
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, panels))
        return report


class FastRetransmit(_Tcpm):
    """tcpm-fastrtx: segments 333..337 are lost on R1->D1 (Fig. 12)."""

    name = "tcpm-fastrtx"
    title = "D1 loses segments 333 to 337: fast retransmit and recovery (Fig. 12)"
    dropped = list(range(333, 338))

    def duration(self, quick: bool) -> float:
        return 6.0

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        return {label: fig7_spec([session("m1", "S", RECEIVERS, **extra)], self.duration(quick),
                                 drops=[{"flow": "m1", "link": "R1->D1", "seqs": self.dropped}])
                for label, extra in RULES.items()}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        runs = self._run(quick, jobs)
        res = runs["run"]
        s = tcpm(res, "m1")
        trace = SeqTrace.of(res, "m1")
        again = trace.retransmitted()
        report = ExperimentReport(self.name)
        report.checks.append(_count("timeouts", s["timeouts"], "none (fast retransmit and recovery)", 0, 0,
                                    unit="timeouts"))
        report.checks.append(_count("segments 333..337 retransmitted", len(again & set(self.dropped)), "all 5", 5, 5,
                                    unit="segments"))
        # CHOICE: the other retransmitted segments are reported without a band (issue 41).
        # The paper claims only "TCP-M retransmits packets 333 through 337 and after a brief period
        # the data transfer continues as before" (section 6.5): the timeouts, the five segments and
        # the rate are banded; what else was resent is reported without a band (issue 41).
        report.checks.append(Check("other segments retransmitted", len(again - set(self.dropped)),
                                   "not stated (\"retransmits packets 333 through 337 and after a brief period the "
                                   "data transfer continues as before\")", 0, 0, SOURCE, unit="segments",
                                   banded=False))
        lost = trace.times[np.isin(trace.seqs, self.dropped)]
        first = float(lost.min()) if len(lost) else 0.0
        # Ours: the rate from 1 s after the first loss against the rate in the second before it.
        duration = self.duration(quick)
        before = flow_rate(res, "m1", first - 1.0, first)
        after = flow_rate(res, "m1", first + 1.0, duration)
        report.checks.append(Check("rate from 1 s after the losses / rate in the second before", after / before,
                                   "1: the transfer continues as before", 0.9, 1.1, SOURCE, unit="ratio"))
        report.checks.append(_count("receivers reported failed", len(s["failed"]), "none", 0, 0))
        # Ours: the same run with duplicates counted only from children at the minimum.
        fixed = runs["fused-duplicates"]
        fixed_again = SeqTrace.of(fixed, "m1").retransmitted()
        report.checks.append(Check(f"{FUSED}: other segments retransmitted", len(fixed_again - set(self.dropped)),
                                   "not stated (section 6.5)", 0, 0, SOURCE, unit="segments", banded=False))
        fixed_ratio = flow_rate(fixed, "m1", first + 1.0, duration) / flow_rate(fixed, "m1", first - 1.0, first)
        report.checks.append(Check(f"{FUSED}: rate from 1 s after the losses / rate in the second before",
                                   fixed_ratio, "1: the transfer continues as before", 0.9, 1.1, SOURCE, unit="ratio"))
        self._write(out_dir, runs)
        panels = [Panel("whole run", [Curve("TCP-M S -> D1..D5", trace)], [(first, "segment 333 first sent")], []),
                  Panel("around the losses", [Curve("TCP-M S -> D1..D5", trace)], [(first, "segment 333 first sent")],
                        [], window=(max(0.0, first - 0.3), first + 0.7))]
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, panels))
        return report


def waxman_graph() -> nx.Graph:
    """Figure 13's graph: node n0's component, 100 kbit/s links, 1 ms per grid unit."""
    # GT-ITM's "geo 1 23" / "100 50 3 0.03": 100 nodes, 50 x 50 grid, pure random, p = 0.03, seed 23.
    return topology.waxman(100, scale=50, method=3, alpha=0.03, seed=23, rate="100kbps", queue=QUEUE,
                           reachable_from="n0")


def _timed(g: nx.Graph) -> nx.Graph:
    """A copy of a generated graph with ``rate_bps`` and ``delay_s`` per link."""
    import networkx as nx

    h = nx.Graph()
    for a, b, d in g.edges(data=True):
        h.add_edge(a, b, rate_bps=_number(d["rate"], RATE_UNITS), delay_s=_number(d["delay"], DELAY_UNITS))
    return h


RATE_UNITS = {"Gbps": 1e9, "Mbps": 1e6, "kbps": 1e3, "bps": 1.0}
DELAY_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def _number(text: str, units: dict[str, float]) -> float:
    """A generated link's rate (bit/s) or delay (s) from its canonical string ("500kbps", "1343us")."""
    m = re.fullmatch(r"([0-9.]+)([A-Za-z]+)", text)
    if m is None or m.group(2) not in units:
        raise InternalError(f"not a canonical rate or delay: {text!r}")
    return float(m.group(1)) * units[m.group(2)]


def slowed_link(g: nx.Graph, source: str) -> tuple[str, str]:
    """The link tcpm-random slows to 50 kbit/s (ours; the paper does not say which): the
    source's link that the shortest paths of the most receivers cross, so it is on the tree."""
    import networkx as nx

    t = _timed(g)
    counts: dict[str, int] = {}
    for r in t.nodes:
        if r != source:
            hop = nx.shortest_path(t, source, r, weight="delay_s")[1]
            counts[hop] = counts.get(hop, 0) + 1
    hop = max(sorted(counts), key=lambda h: counts[h])
    return source, hop


class Random(_Tcpm):
    """tcpm-random: GT-ITM's random graph of Figure 13, node 0 to every reachable node (Fig. 14)."""

    name = "tcpm-random"
    title = "TCP-M from node 0 to every reachable node of GT-ITM's geo 100 50 3 0.03 graph (Fig. 14)"

    def duration(self, quick: bool) -> float:
        return 60.0  # the paper's minute in both variants: the two runs take under a second

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        g = waxman_graph()
        receivers = sorted((v for v in g.nodes if v != "n0"), key=lambda v: int(v[1:]))
        slow = g.copy()
        a, b = slowed_link(g, "n0")
        slow.edges[a, b]["rate"] = "50kbps"
        out = {}
        for label, graph in (("run", g), ("slow-link", slow)):
            for rule, extra in RULES.items():
                spec = topology.scenario_dict(graph, duration=f"{self.duration(quick):g}s")
                spec["tcpm"] = [session("m1", "n0", receivers, **extra)]
                spec["output"] = output()
                out[label if rule == "run" else f"{label}-fused-duplicates"] = spec
        return out

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        runs = self._run(quick, jobs)
        results = [runs["run"], runs["slow-link"]]
        g = waxman_graph()
        receivers = [v for v in g.nodes if v != "n0"]
        a, b = slowed_link(g, "n0")
        report = ExperimentReport(self.name)
        # CHOICE: reported without a band (issue 41): "all 54 reachable nodes" is one draw of
        # GT-ITM's generator, which ccsim does not reimplement bit for bit (its `geo` method on
        # Stanford GraphBase's gb_flip); G(100, 0.03)'s giant component holds about 94 nodes.
        report.checks.append(Check("receivers reachable from node 0", len(receivers),
                                   f"{PAPER_REACHABLE}: one draw of GT-ITM's generator (G(100, 0.03) gives about 94; "
                                   "docs/topology.md)", PAPER_REACHABLE, PAPER_REACHABLE, SOURCE, unit="nodes",
                                   banded=False))
        labels = {"100kbps": (results[0], 100e3, 94.3), "50kbps": (results[1], 50e3, 49.2)}
        for label, (res, rate, paper) in labels.items():
            s = tcpm(res, "m1")
            ceiling = rate * payload_share(PACKET)
            which = "every link" if label == "100kbps" else f"{a}-{b}"
            report.checks.append(Check(f"{label}: throughput / payload rate of {which} ({rate / 1e3:g} kbit/s)",
                                       s["throughput_bps"] / ceiling,
                                       f"about {paper / (rate / 1e3):.3f} (paper: {paper} kbit/s)", 0.85, 1.0,
                                       SOURCE, unit="ratio"))
            report.checks.append(_count(f"{label}: receivers reported failed", len(s["failed"]), "none", 0, 0))
        duration = self.duration(quick)
        for label, key, rate, paper in (("100kbps", "run", 100e3, 94.3), ("50kbps", "slow-link", 50e3, 49.2)):
            ceiling = rate * payload_share(PACKET)
            fixed = tcpm(runs[f"{key}-fused-duplicates"], "m1")
            report.checks.append(Check(f"{FUSED}, {label}: throughput / payload rate",
                                       fixed["throughput_bps"] / ceiling,
                                       f"about {paper / (rate / 1e3):.3f} (paper: {paper} kbit/s)", 0.85, 1.0,
                                       SOURCE, unit="ratio"))
            # Section 6.6: "eventually it reaches the throughput allowed by the link bandwidths".
            for rule_label, run_key in (("", key), (f"{FUSED}, ", f"{key}-fused-duplicates")):
                late = flow_rate(runs[run_key], "m1", duration / 2, duration)
                report.checks.append(Check(f"{rule_label}{label}: rate over the last {duration / 2:g} s / payload rate",
                                           late / ceiling, f"eventually the links' rate ({TOGETHER})", 0.9,
                                           1.02, SOURCE, unit="ratio"))
        self._write(out_dir, runs)
        panels = []
        for label, (res, rate, paper) in labels.items():
            trace = SeqTrace.of(res, "m1")
            title = "all links 100 kbit/s" if label == "100kbps" else f"{a}-{b} at 50 kbit/s"
            panels.append(Panel(title, [Curve(f"n0 -> {len(receivers)} receivers", trace)], [],
                                [rate_line(trace, rate * payload_share(PACKET), PACKET - HEADER,
                                           f"payload rate of {rate / 1e3:g} kbit/s")]))
        report.figures.append(sequence_figure(out_dir / "sequence.png", self.title, panels))
        return report


def tree_graph(nodes: int) -> nx.Graph:
    """A complete binary tree of 63 or 127 nodes as Section 6.7 has it."""
    return topology.binary_tree(int(math.log2(nodes + 1)), rate="500kbps", delay="0ms", delay_max="10ms",
                                queue=QUEUE, seed=1)


def farthest_leaf(g: nx.Graph) -> str:
    """The leaf with the longest path delay from the root (ours: the paper's "one of the leaf
    nodes"; this one's round trip bounds the multicast window)."""
    import networkx as nx

    t = _timed(g)
    lengths = nx.single_source_dijkstra_path_length(t, "n0", weight="delay_s")
    leaves = [v for v in g.nodes if g.degree(v) == 1 and v != "n0"]
    return str(max(leaves, key=lambda v: (lengths[v], -int(v[1:]))))


def fusion_sets(nodes: int) -> dict[str, Any]:
    """Table 1's columns: all nodes, the topmost 63/31/15/7, or the source only."""
    out: dict[str, Any] = {str(nodes): "all"}
    for k in (63, 31, 15, 7):
        if k < nodes:
            out[str(k)] = [f"n{i}" for i in range(k)]
    out["source"] = "source"
    return out


def fusion_spec(nodes: int, duration: float, fusion: Any) -> dict[str, Any]:
    g = tree_graph(nodes)
    spec = topology.scenario_dict(g, duration=f"{duration:g}s")
    receivers = [f"n{i}" for i in range(1, nodes)]
    if fusion == "unicast":
        spec["flows"] = [unicast("unicast", "n0", farthest_leaf(g), packet=TREE_PACKET)]
    else:
        spec["tcpm"] = [session("m1", "n0", receivers, fusion=fusion, packet=TREE_PACKET)]
    spec["output"] = output()
    return spec


class Fusion(_Tcpm):
    """tcpm-fusion: throughput as the fusion nodes are reduced (Table 1, Fig. 15)."""

    name = "tcpm-fusion"
    title = "binary trees of 63 and 127 nodes, fusion nodes reduced (Table 1, Fig. 15)"

    def duration(self, quick: bool) -> float:
        return 60.0  # the paper's minute; the quick variant runs the 63-node tree only

    def sizes(self, quick: bool) -> list[int]:
        return [63] if quick else [63, 127]

    def specs(self, quick: bool) -> dict[str, dict[str, Any]]:
        return {f"{n}-{col}": fusion_spec(n, self.duration(quick), fusion) for n in self.sizes(quick)
                for col, fusion in [*fusion_sets(n).items(), ("unicast", "unicast")]}

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        duration = self.duration(quick)
        sizes = self.sizes(quick)
        runs = self._run(quick, jobs)
        results = {(int(k.split("-")[0]), k.split("-", 1)[1]): res for k, res in runs.items()}
        kbps: dict[tuple[int, str], float] = {}
        for (n, col), res in results.items():
            if col == "unicast":
                kbps[n, col] = float(res.summary["flows"]["unicast"]["goodput_bps"]) / 1e3
            else:
                kbps[n, col] = tcpm(res, "m1")["throughput_bps"] / 1e3
        report = ExperimentReport(self.name)
        for n in sizes:
            self._checks(report, n, kbps, results)
        self._write(out_dir, runs)
        (out_dir / "table1.md").write_text(table1_markdown(kbps, sizes, duration))
        panels = []
        for col in ("source", "7", "15", "63"):
            trace = SeqTrace.of(results[63, col], "m1")
            label = "source only" if col == "source" else f"{col} fusion nodes"
            panels.append(Panel(label, [Curve("TCP-M n0 -> n1..n62", trace)], [], [], window=(0.0, 10.0)))
        report.figures.append(sequence_figure(out_dir / "sequence-63.png",
                                              "63-node tree, first 10 s, as fusion nodes are reduced (Fig. 15)",
                                              panels))
        return report

    def _checks(self, report: ExperimentReport, n: int, kbps: dict[tuple[int, str], float],
                results: dict[tuple[int, str], Result]) -> None:
        paper = TABLE1[n]
        uni = kbps[n, "unicast"]
        top = str(n)
        half = str(n // 2)

        def ratio(col: str, low: float, high: float, expected: str, *, open_low: bool = False) -> None:
            report.checks.append(Check(f"{n} nodes: {col if col != 'source' else 'source-only'} FNs / unicast",
                                       kbps[n, col] / uni, expected, low, high, SOURCE, unit="ratio",
                                       open_low=open_low))

        def p(col: str) -> str:
            v = paper[col]
            return "unreadable in the seed" if v is None else f"{v / paper['unicast']:.3g}"  # type: ignore[operator]

        report.checks.append(Check(f"{n} nodes: unicast Vegas to the farthest leaf", uni, f"{paper['unicast']} kbit/s",
                                   0.75 * paper["unicast"], 1.25 * paper["unicast"], SOURCE,  # type: ignore[operator]
                                   unit="kbit/s"))
        ratio(top, 0.85, 1.05, f"close to 1 (paper {p(top)})")
        report.checks.append(Check(f"{n} nodes: {half} FNs / {top} FNs", kbps[n, half] / kbps[n, top],
                                   "1: leaves fuse nothing (paper: equal)", 0.97, 1.03, SOURCE, unit="ratio"))
        if n == 63:
            ratio("15", 0.8, 1.05, f"a little below 1 (paper {p('15')})")
            ratio("7", 0.0, 0.3, f"collapse (paper {p('7')})", open_low=True)
        else:
            report.checks.append(Check("127 nodes: 31 FNs / 63 FNs", kbps[n, "31"] / kbps[n, "63"],
                                       "about 0.63 (a drop of about 37 %)", 0.45, 0.8, SOURCE, unit="ratio"))
            ratio("15", 0.0, 0.3, f"collapse (paper {p('15')})")
        ratio("source", 0.0, 0.05, f"ACK implosion (paper {p('source')})")
        if n == 63:
            # "Several hosts were timed out": receivers declared dead at some time, revived or not.
            s = tcpm(results[n, "source"], "m1")
            timed_out = {f["receiver"] for f in s["failures"] if f["stage"] == "timeout"}
            report.checks.append(_count("63 nodes, source-only: receivers timed out", len(timed_out),
                                        "several (REVERSE_PATHs dropped)", 1, math.inf))
        # Section 5.4: with every node fusing, a node fuses its own receiver and its two subtrees;
        # with the source alone, every receiver.
        full = tcpm(results[n, top], "m1")["max_fusion_children"]
        report.checks.append(_count(f"{n} nodes, all FNs: largest ack-table", full,
                                    "3: own receiver and two child FNs (cut-degree)", 2, 3, unit="entries"))
        only = tcpm(results[n, "source"], "m1")["max_fusion_children"]
        report.checks.append(_count(f"{n} nodes, source only: largest ack-table", only,
                                    f"{n - 1}: every receiver", n - 1, n - 1, unit="entries"))


def table1_markdown(kbps: dict[tuple[int, str], float], sizes: list[int], duration: float) -> str:
    """Table 1 with the measured throughputs beside the paper's, kbit/s of payload."""
    cols = ["127", "63", "31", "15", "7", "source", "unicast"]
    head = "| nodes | | " + " | ".join("source only" if c == "source" else ("unicast" if c == "unicast" else f"{c} FNs")
                                      for c in cols) + " |"
    rows = [f"# Table 1: throughput (kbit/s), fusion nodes reduced ({duration:g} s runs)", "", head,
            "|" + "---|" * (len(cols) + 2)]
    for n in sizes:
        paper = TABLE1[n]
        rows.append(f"| {n} | paper | " + " | ".join(
            "-" if c not in paper else ("?" if paper[c] is None else f"{paper[c]:.4g}") for c in cols) + " |")
        rows.append(f"| {n} | measured | " + " | ".join(
            f"{kbps[n, c]:.4g}" if (n, c) in kbps else "-" for c in cols) + " |")
    note = ("\nThe paper's 127-node row is partly unreadable in the seed: its 31-FN value is the text's "
            "\"a drop of about 37 %\" from 63 FNs, its 7-FN value is lost.\n")
    return "\n".join(rows) + "\n" + note


EXPERIMENTS: list[Experiment] = [Single(), TwoSessions(False), TwoSessions(True), WithUnicast(), Crash(), Reroute(),
                                 FastRetransmit(), Random(), Fusion()]
