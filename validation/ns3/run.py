"""ccsim against ns-3 3.44: the same dumbbells and parking lot through both simulators.

Each scenario runs in ns-3 (validation/ns3/ns3_scenarios.cc, built by build.sh against the
`ns3==3.44.post0` wheel) and in ccsim (`ccsim.run`) with matched settings, and one markdown
table puts the two side by side: summed in-order goodput in [warmup, T] as a fraction of the
payload capacity, Jain's index, bottleneck utilisation, drops and mean queue at the bottleneck,
the congestion window when slow start ends (median over the flows, in segments) and the wall
time of each simulator, with ccsim / ns-3 ratios (for wall time, ns-3 / ccsim).

    python validation/ns3/run.py                 # the full suite (make validate-ns3)
    python validation/ns3/run.py --quick         # four scenarios (the CI test)
    python validation/ns3/run.py --scenario 'db-100M-10-' --seeds 1 2 --json out.json
    python validation/ns3/run.py --list
    python validation/ns3/run.py --suite probertt   # BBR through PROBE_RTT (ns-3.44 bug #1013)
    python validation/ns3/run.py --suite issue25 --seeds 1 2 3 --ccsim-keys '{"recovery": "rfc6675"}'

Topologies. A dumbbell: N senders, each on its own access link (10 B, 1 ms, 1000 packets) to
router r0, one bottleneck r0 -> r1 (rate B, one-way delay D, Q packets), access links from r1
to the receivers. The three dumbbells are named by rate and base round-trip time (propagation
only, access links included): 10 Mbit/s x 40 ms (D = 18 ms), 100 Mbit/s x 20 ms (D = 8 ms),
1 Gbit/s x 10 ms (D = 3 ms); Q is one bandwidth-delay product of 1054-byte packets (48, 238,
1186). The parking lot: three 100 Mbit/s hops r0 -> r1 -> r2 -> r3 of 5 ms each, two long flows
r0 -> r3 (base RTT 34 ms) and two cross flows per hop (14 ms); Q is the long flows' BDP (404).
DCTCP's bottlenecks mark CE above K = ceil(Q / 7) waiting packets (the DCTCP paper's K > C RTT / 7).
`--suite issue25` runs the SACK dumbbells of issue 25 instead (100 Mbit/s access links, D = 20 ms,
1 or 10 flows at 10 or 100 Mbit/s and 100 flows at 1 Gbit/s, 10 s).

Metrics. Goodput is what the receiving application got in order; a fraction of the payload
capacity divides it by H x B x payload / wire, H the bottleneck hops (ns-3: 1000 / 1054 bytes;
ccsim: 1014 / 1054, see `matched_settings`). Utilisation, drops and mean queue are those of the
bottlenecks' forward directions in the window (mean over hops; drops summed). The slow-start
exit window is the largest congestion window before ssthresh is first set (by a loss, an ECN
echo, HyStart or Vegas), per flow. The JSON output also has, per side, the data segments sent
and retransmitted in the window, and for ns-3 its entries into the loss state (`loss_episodes`,
from its congestion-state trace: a timeout that fires again in that state is not counted), for
ccsim its timer expiries (`timeouts`, each expiry counted); they are not the same count.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import ccsim

HERE = Path(__file__).resolve().parent
PROTOCOLS = ("newreno", "sack", "cubic", "dctcp", "vegas", "bbr")
#: ns-3's segments: payload + 20 TCP + 12 timestamp option + 20 IP + 2 PPP bytes.
NS3_SEGMENT = 1000
WIRE = NS3_SEGMENT + 20 + 12 + 20 + 2
ACCESS_MS = 1.0
ACCESS_Q = 1000


@dataclasses.dataclass(frozen=True)
class Scenario:
    """One topology and protocol, as both simulators run it."""

    name: str
    topology: str  # "dumbbell" or "parkinglot"
    protocol: str
    flows: int  # dumbbell: flows; parking lot: long flows
    rate_mbps: float
    hop_delay_ms: float  # one-way delay of each bottleneck hop
    queue: int
    duration_s: float
    warmup_s: float
    hops: int = 1
    cross_per_hop: int = 0
    #: False where the window does not reach a steady state (a report, not a test, compares them).
    converged: bool = True
    #: Access links' rate; None: 10 times the bottleneck's.
    access_mbps: float | None = None

    @property
    def access_rate_mbps(self) -> float:
        return self.access_mbps if self.access_mbps is not None else 10 * self.rate_mbps

    @property
    def threshold(self) -> int:
        return max(2, math.ceil(self.queue / 7))

    @property
    def total_flows(self) -> int:
        return self.flows + self.hops * self.cross_per_hop

    def route(self, i: int) -> tuple[int, int]:
        """The routers where flow i enters and leaves the chain r0 .. r(hops)."""
        if i < self.flows:
            return 0, self.hops
        h = (i - self.flows) // self.cross_per_hop
        return h, h + 1

    def base_rtt_s(self, i: int) -> float:
        entry, exit_ = self.route(i)
        return 2 * (2 * ACCESS_MS + (exit_ - entry) * self.hop_delay_ms) / 1000


def bdp_packets(rate_mbps: float, rtt_ms: float) -> int:
    return math.ceil(rate_mbps * 1e6 * rtt_ms / 1000 / 8 / WIRE)


#: (rate Mbit/s, base RTT ms, T s, warmup s) of the three dumbbells.
DUMBBELLS = ((10.0, 40.0, 60.0, 20.0), (100.0, 20.0, 30.0, 10.0), (1000.0, 10.0, 10.0, 3.0))
FLOW_COUNTS = (1, 10, 100)
#: Combinations left out of the suite, and why.
SKIPPED = {
    ("1G", 100): "ns-3 needs about 205 s of wall time for 10 s of 100 flows at 1 Gbit/s on this machine",
}
#: Protocols left out of a dumbbell rate, with the reason.
SKIPPED_PROTOCOLS = {
    ("1G", "bbr"): "ns-3's paced TcpBbr had simulated under 3 s of one flow at 1 Gbit/s after 100 s of wall time",
}


def rate_label(rate_mbps: float) -> str:
    return f"{rate_mbps / 1000:g}G" if rate_mbps >= 1000 else f"{rate_mbps:g}M"


def suite() -> list[Scenario]:
    out = []
    for rate, rtt, t, warm in DUMBBELLS:
        for n in FLOW_COUNTS:
            if (rate_label(rate), n) in SKIPPED:
                continue
            for proto in PROTOCOLS:
                if (rate_label(rate), proto) in SKIPPED_PROTOCOLS:
                    continue
                # 10 s at 1 Gbit/s: one flow is still climbing from its slow-start reduction at
                # the end (a segment per round trip towards 2372), and ten have not evened out.
                converged = rate < 1000
                out.append(Scenario(f"db-{rate_label(rate)}-{n}-{proto}", "dumbbell", proto, n, rate,
                                    rtt / 2 - 2 * ACCESS_MS, bdp_packets(rate, rtt), t, warm, converged=converged))
    for proto in PROTOCOLS:
        out.append(Scenario(f"pl-100M-{proto}", "parkinglot", proto, 2, 100.0, 5.0, bdp_packets(100.0, 34.0),
                            30.0, 10.0, hops=3, cross_per_hop=2))
    return out


def quick_suite() -> list[Scenario]:
    """Four scenarios that run in seconds in both simulators (the CI test)."""
    return [
        Scenario("quick-db-10M-1-sack", "dumbbell", "sack", 1, 10.0, 18.0, bdp_packets(10.0, 40.0), 40.0, 10.0),
        Scenario("quick-db-100M-10-cubic", "dumbbell", "cubic", 10, 100.0, 8.0, bdp_packets(100.0, 20.0), 12.0, 4.0),
        Scenario("quick-db-10M-4-dctcp", "dumbbell", "dctcp", 4, 10.0, 18.0, bdp_packets(10.0, 40.0), 40.0, 10.0),
        Scenario("quick-db-10M-1-bbr", "dumbbell", "bbr", 1, 10.0, 18.0, bdp_packets(10.0, 40.0), 40.0, 10.0),
    ]


def issue25_suite() -> list[Scenario]:
    """The SACK dumbbells of issue 25 (docs/validation.md): 100 Mbit/s access links, D = 20 ms,
    a queue of about one BDP (at least 100 packets), 10 s with a 2 s warm-up."""
    sets = {"100x1000": (100, 1000.0, 1000), "1x10": (1, 10.0, 100), "10x10": (10, 10.0, 100),
            "1x100": (1, 100.0, 500), "10x100": (10, 100.0, 500)}
    return [Scenario(f"i25-{name}", "dumbbell", "sack", n, b, 20.0, q, 10.0, 2.0, access_mbps=100.0)
            for name, (n, b, q) in sets.items()]


def probertt_suite() -> list[Scenario]:
    """Where ns-3.44's BBR bug #1013 shows (docs/validation.md, BBR): two BBR flows at 100 Mbit/s
    behind a buffer of 5 BDP, so nothing is lost and the standing queue keeps the min-RTT
    estimate from being refreshed: each flow enters PROBE_RTT every 10 s. At a base RTT of
    10 ms its 200 ms there span about 20 packet-timed rounds, more than the bandwidth filter's 10;
    at 40 ms, about 6 (the control)."""
    out = []
    for rtt in (10.0, 40.0):
        out.append(Scenario(f"bbr-probertt-{rtt:g}ms", "dumbbell", "bbr", 2, 100.0, rtt / 2 - 2 * ACCESS_MS,
                            5 * bdp_packets(100.0, rtt), 35.0, 5.0))
    return out


def matched_settings(protocol: str, ns3_start_s: float, base_rtt_s: float, *, handshake: bool = False,
                     timestamps: bool = False) -> tuple[list[str], dict[str, Any], int]:
    """The one place where ns-3's settings and ccsim's are matched, for one flow.

    Returns the ns-3 options of the protocol, the ccsim flow keys (less name, from, to) and
    ccsim's payload bytes per full packet.

    - Sizes: ns-3 sends 1000 payload bytes in 1054 on the wire (20 IP, 20 TCP, 12 timestamp,
      2 PPP); ccsim's packet is the same 1054 bytes and its header 40 bytes (52 with
      `timestamps`), so it carries 1014 (1002) payload bytes and the two goodputs are compared
      as fractions of their own payload capacity.
    - Start: ns-3's application starts at `ns3_start_s` and its data one round trip later, after
      the three-way handshake; ccsim opens the same way with `handshake = true` (the runner's
      default), or without it starts at ns-3's start plus the base RTT.
    - Timestamps: on in both (the runner's default), so ccsim's header is 52 bytes like ns-3's
      20 + 20 + 12, and its RTO takes a sample from every ACK as ns-3's does.
    - Both: delayed ACKs (every second segment or 200 ms), initial window 10, ns-3's timer
      (`rto = "ns3"`: MinRto 1 s, G 1 ms), limited transmit (ns-3's default), no receive-window
      limit (ns-3's buffers are set above what the path holds).
    - Recovery: where ccsim recovers with SACK (sack, cubic, dctcp; BBR below), ns-3's default, PRR, and
      ccsim's `prr = true` with `recovery = "ns3"`, set explicitly (ssthresh from the pipe, as
      ns-3's NewReno; ccsim's own default for cubic, dctcp and bbr is Linux's recovery);
      without SACK (newreno, vegas), ns-3's classic recovery (RFC 6582), as ccsim's.
    - Vegas: ns-3's alpha 2, beta 4, gamma 1. CUBIC: both run their HyStart (ns-3's differs from
      Linux's, which ccsim follows). DCTCP: ECN implied on both.
    - BBR (v1): ns-3's TcpBbr with its defaults (as Linux's tcp_bbr.c: high gain 2.89, bandwidth
      window 10 rounds, min-RTT window 10 s, PROBE_RTT 200 ms at 4 segments) and pacing on
      (`TcpSocketState::EnablePacing`; the initial window leaves unpaced in both); SACK on. Both
      let BBR set the window on every ACK and run no PRR for it (ns-3 skips its recovery
      algorithm when `HasCongControl`, ccsim as Linux), so `--recovery` is moot in ns-3 and
      ccsim gets no `prr` key; its `recovery = "ns3"` (explicit) marks every unSACKed segment
      lost at a timeout as ns-3's `SetSentListLost` does, and its ssthresh, which BBR ignores,
      comes from the pipe.

    `handshake` and `timestamps` turn on ccsim's flow keys of those names, when ccsim has them.
    """
    sack = protocol in ("sack", "cubic", "dctcp", "bbr")
    ns3 = [f"--cc={protocol}", f"--sack={'true' if sack else 'false'}",
           f"--recovery={'prr' if sack else 'classic'}", f"--segSize={NS3_SEGMENT}"]
    header = 40 + (12 if timestamps else 0)
    flow: dict[str, Any] = {
        "protocol": protocol, "packet_size": f"{WIRE}B", "delayed_ack": True, "initial_window": 10,
        "rto": "ns3", "limited_transmit": True,
    }
    if handshake:
        flow.update(start=f"{round(ns3_start_s * 1e9)}ns", handshake=True)
    else:
        flow["start"] = f"{round((ns3_start_s + base_rtt_s) * 1e9)}ns"
    if sack:
        flow["recovery"] = "ns3"  # ns-3's rules, whatever ccsim's default for the protocol
    if sack and protocol != "bbr":
        flow["prr"] = True
    if timestamps:
        flow["timestamps"] = True
    if protocol == "vegas":
        flow["vegas"] = {"alpha": 2, "beta": 4, "gamma": 1}
    return ns3, flow, WIRE - header


def ns3_args(sc: Scenario, seed: int) -> list[str]:
    ns3, _, _ = matched_settings(sc.protocol, 0.0, 0.0)
    return [
        f"--topology={sc.topology}", f"--N={sc.flows}", f"--hops={sc.hops}", f"--crossN={sc.cross_per_hop}",
        f"--B={sc.rate_mbps:g}", f"--D={sc.hop_delay_ms:g}", f"--Q={sc.queue}", f"--K={sc.threshold}",
        f"--T={sc.duration_s:g}", f"--warmup={sc.warmup_s:g}", f"--seed={seed}",
        f"--accessRate={sc.access_rate_mbps:g}", f"--accessDelay={ACCESS_MS:g}", f"--accessQ={ACCESS_Q}", *ns3,
    ]


def ccsim_spec(sc: Scenario, seed: int, starts: list[float], *, handshake: bool = False,
               timestamps: bool = False, extra: dict[str, Any] | None = None) -> tuple[dict[str, Any], int]:
    """The ccsim scenario of `sc` with ns-3's start times; also ccsim's payload per packet."""
    if sc.protocol == "dctcp":
        queue: Any = {"kind": "step", "limit": f"{sc.queue}p", "threshold": sc.threshold}
    else:
        queue = f"{sc.queue}p"
    links: list[dict[str, Any]] = [
        {"between": [f"r{h}", f"r{h + 1}"], "rate": f"{sc.rate_mbps:g}Mbps", "delay": f"{sc.hop_delay_ms:g}ms",
         "queue": queue}
        for h in range(sc.hops)
    ]
    access = {"rate": f"{sc.access_rate_mbps:g}Mbps", "delay": f"{ACCESS_MS:g}ms", "queue": f"{ACCESS_Q}p"}
    flows = []
    payload = 0
    for i in range(sc.total_flows):
        entry, exit_ = sc.route(i)
        links.append({"between": [f"s{i}", f"r{entry}"], **access})
        links.append({"between": [f"r{exit_}", f"d{i}"], **access})
        _, keys, payload = matched_settings(sc.protocol, starts[i], sc.base_rtt_s(i), handshake=handshake,
                                            timestamps=timestamps)
        flows.append({"name": f"f{i}", "from": f"s{i}", "to": f"d{i}", **keys, **(extra or {})})
    spec = {
        "run": {"duration": f"{sc.duration_s:g}s", "warmup": f"{sc.warmup_s:g}s", "seed": seed},
        "links": links,
        "flows": flows,
        "output": {"series": [], "trace": ["cwnd", "ssthresh"], "per_flow_series": True},
    }
    return spec, payload


def build_ns3() -> Path:
    out = subprocess.run([str(HERE / "build.sh")], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"validation/ns3/build.sh failed:\n{out.stderr}")
    return Path(out.stdout.strip().splitlines()[-1])


def run_ns3(binary: Path, sc: Scenario, seed: int, trace: Path | None = None) -> dict[str, Any]:
    cmd = [str(binary), *ns3_args(sc, seed)]
    if trace is not None:
        cmd.append(f"--traceCwnd={trace}")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    raw: dict[str, Any] = json.loads(out.stdout)
    capacity = sc.hops * sc.rate_mbps * NS3_SEGMENT / WIRE
    exits = [c / NS3_SEGMENT for c in raw["ss_exit_cwnd_bytes"] if c >= 0]
    return {
        "goodput_fraction": raw["goodput_sum_mbps"] / capacity,
        "goodput_mbps": raw["goodput_mbps"],
        "jain": raw["jain"],
        "utilisation": statistics.fmean(raw["util"]),
        "drops": sum(raw["drops_window"]),
        "marks": sum(raw["marks_window"]),
        "mean_queue": statistics.fmean(raw["queue_mean_pkts"]),
        "ss_exit_cwnd": statistics.median(exits) if exits else None,
        "ss_exit_cwnd_per_flow": [c / NS3_SEGMENT if c >= 0 else None for c in raw["ss_exit_cwnd_bytes"]],
        "sent": sum(raw["tx_data_pkts_window"]),
        "retransmitted": sum(raw["retx_pkts_window"]),
        "loss_episodes": sum(raw["timeouts_window"]),
        "wall_s": raw["wall_s"],
        "start_s": raw["start_s"],
        "probe_rtt_entries": sum(raw.get("bbr_probe_rtt_entries", [])),
        "probe_rtt_starts": raw.get("bbr_probe_rtt_starts", []),
    }


def slow_start_exits(res: Any, names: list[str], mss: int) -> list[float | None]:
    """Per flow, the largest cwnd (segments) up to the first change of ssthresh, or None."""
    table = res.series()
    out: list[float | None] = []
    for name in names:
        mine = table[table["entity"] == name]
        sst = mine[mine["variable"] == "ssthresh:change"]
        if sst.empty:
            out.append(None)
            continue
        t0 = float(sst["time"].iloc[0])
        cw = mine[(mine["variable"] == "cwnd:change") & (mine["time"] <= t0)]["value"]
        out.append(float(cw.max()) / mss if not cw.empty else None)
    return out


def run_ccsim(sc: Scenario, seed: int, starts: list[float], *, handshake: bool = False,
              timestamps: bool = False, extra: dict[str, Any] | None = None,
              series: list[str] | None = None) -> tuple[dict[str, Any], Any]:
    spec, payload = ccsim_spec(sc, seed, starts, handshake=handshake, timestamps=timestamps, extra=extra)
    if series:
        spec["output"].update(series=series, interval="1ms")
    res = ccsim.run(spec, progress=False)
    flows = res.flows()
    links = res.links()
    hops = [links.loc[f"r{h}->r{h + 1}"] for h in range(sc.hops)]
    capacity = sc.hops * sc.rate_mbps * 1e6 * payload / WIRE
    names = [f"f{i}" for i in range(sc.total_flows)]
    exits = slow_start_exits(res, names, payload)
    known = [c for c in exits if c is not None]
    return {
        "goodput_fraction": float(flows["goodput_bps"].sum()) / capacity,
        "goodput_mbps": [float(flows.loc[n, "goodput_bps"]) / 1e6 for n in names],
        "jain": float(res.overview["fairness"]["jain"]),
        "utilisation": statistics.fmean(float(h["utilization"]) for h in hops),
        "drops": int(sum(int(h["drops"]) for h in hops)),
        "marks": int(sum(int(h["ecn_marks"]) for h in hops)),
        "mean_queue": statistics.fmean(float(h["mean_queue_packets"]) for h in hops),
        "ss_exit_cwnd": statistics.median(known) if known else None,
        "ss_exit_cwnd_per_flow": exits,
        "sent": int(flows["sent_packets"].sum()),
        "retransmitted": int(flows["retransmitted_packets"].sum()),
        "timeouts": int(flows["timeouts"].sum()),
        "wall_s": float(res.overview["run"]["wall_seconds"]),
        "payload": payload,
    }, res


def _rate_at(times: list[float], values: list[float], t: float) -> float | None:
    """The last value set at or before t."""
    best = None
    for ti, v in zip(times, values):
        if ti > t:
            break
        best = v
    return best


def _probe_rtt_episodes(entries: list[float], exits: list[float], times: list[float], rates: list[float],
                        rtt_s: float, end_s: float) -> list[dict[str, float | None]]:
    """Per PROBE_RTT episode: the median pacing rate (bit/s) over the second before it began
    and over the gain cycle (8 base RTTs) after it ended, on a 1 ms grid (the medians leave out
    the cycle's 5/4 and 3/4 phases), and how long after the end the rate was back to 0.9 of the
    one before."""
    def grid(t0: float, t1: float) -> list[float]:
        vals = [_rate_at(times, rates, t0 + k * 1e-3) for k in range(max(1, round((t1 - t0) / 1e-3)))]
        return [v for v in vals if v is not None]

    out = []
    for t_in, t_out in zip(entries, exits):
        pre = grid(max(0.0, t_in - 1.0), t_in)
        post = grid(t_out, min(end_s, t_out + 8 * rtt_s))
        before = statistics.median(pre) if pre else None
        after = statistics.median(post) if post else None
        back = None
        if before:
            for ti, v in zip(times, rates):
                if ti >= t_out and v >= 0.9 * before:
                    back = ti - t_out
                    break
        out.append({"start_s": t_in, "end_s": t_out, "rate_before_bps": before, "rate_after_bps": after,
                    "after_over_before": (after / before) if before and after else None,
                    "back_to_0.9_s": back if back is not None else (None if t_out >= end_s else float("inf"))})
    return out


def ns3_probe_rtt(trace: Path, flows: int, rtt_s: float, end_s: float) -> list[list[dict[str, Any]]]:
    """PROBE_RTT episodes of each ns-3 flow from its trace: TcpBbr's window gain is 1 there
    only; its pacing rate is the PacingRate trace (payload bit/s)."""
    gains: list[list[tuple[float, float]]] = [[] for _ in range(flows)]
    rates: list[tuple[list[float], list[float]]] = [([], []) for _ in range(flows)]
    for line in trace.read_text().splitlines():
        f = line.split()
        if len(f) == 4 and f[2] == "cwndgain":
            gains[int(f[1])].append((float(f[0]), float(f[3])))
        elif len(f) == 4 and f[2] == "pacingrate":
            rates[int(f[1])][0].append(float(f[0]))
            rates[int(f[1])][1].append(float(f[3]))
    out = []
    for i in range(flows):
        entries, exits, inside = [], [], False
        for t, gain in gains[i]:
            if gain == 1.0 and not inside:
                entries.append(t)
                inside = True
            elif gain != 1.0 and inside:
                exits.append(t)
                inside = False
        if inside:
            exits.append(end_s)
        out.append(_probe_rtt_episodes(entries, exits, *rates[i], rtt_s, end_s))
    return out


def ccsim_probe_rtt(res: Any, names: list[str], mss: int, rtt_s: float, end_s: float) -> list[list[dict[str, Any]]]:
    """PROBE_RTT episodes of each ccsim flow: its window held at 4 segments (BBR's PROBE_RTT
    window; in a run without losses nothing else sets it there); the pacing rate is the
    `send_rate` series (payload bit/s)."""
    table = res.series()
    out = []
    for name in names:
        mine = table[table["entity"] == name]
        cw = mine[mine["variable"] == "cwnd:change"]
        sr = mine[mine["variable"] == "send_rate"]
        entries, exits, inside = [], [], False
        for t, v in zip(cw["time"].astype(float), cw["value"].astype(float)):
            if v <= 4 * mss and not inside:
                entries.append(t)
                inside = True
            elif v > 4 * mss and inside:
                exits.append(t)
                inside = False
        if inside:
            exits.append(end_s)
        out.append(_probe_rtt_episodes(entries, exits, list(sr["time"].astype(float)),
                                       list(sr["value"].astype(float)), rtt_s, end_s))
    return out


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


HEADER = ("| scenario | seed | goodput ns-3 / ccsim (ratio) | Jain ns-3 / ccsim | utilisation ns-3 / ccsim (ratio) "
          "| drops ns-3 / ccsim | mean queue ns-3 / ccsim | slow-start exit cwnd ns-3 / ccsim (ratio) "
          "| wall s ns-3 / ccsim (ratio) |")


def row(rec: dict[str, Any]) -> str:
    n, c = rec["ns3"], rec["ccsim"]
    cells = [
        rec["scenario"] + ("" if rec["converged"] else " *"),
        str(rec["seed"]),
        f"{n['goodput_fraction']:.3f} / {c['goodput_fraction']:.3f} ({fmt(rec['goodput_ratio'], '.3f')})",
        f"{n['jain']:.3f} / {c['jain']:.3f}",
        f"{n['utilisation']:.3f} / {c['utilisation']:.3f} ({fmt(rec['utilisation_ratio'], '.3f')})",
        f"{n['drops']} / {c['drops']}",
        f"{n['mean_queue']:.1f} / {c['mean_queue']:.1f}",
        f"{fmt(n['ss_exit_cwnd'], '.0f')} / {fmt(c['ss_exit_cwnd'], '.0f')} ({fmt(rec['ss_exit_ratio'], '.2f')})",
        f"{n['wall_s']:.2f} / {c['wall_s']:.3f} ({fmt(rec['wall_ratio'], '.0f')})",
    ]
    return "| " + " | ".join(cells) + " |"


def probe_rtt_lines(rec: dict[str, Any]) -> list[str]:
    """A line per PROBE_RTT episode of a probertt record: pacing rate before and after, both sides."""
    if "probe_rtt" not in rec["ns3"]:
        return []
    out = [f"\nPROBE_RTT, {rec['scenario']} seed {rec['seed']}: flow, start s, end s, median pacing rate Mbit/s "
           "over the second before -> over 8 base RTTs after the end (ratio), seconds until back to 0.9 of before"]
    for side in ("ns3", "ccsim"):
        for i, eps in enumerate(rec[side]["probe_rtt"]):
            for e in eps:
                mb = (lambda v: "-" if v is None else f"{v / 1e6:.1f}")
                back = e["back_to_0.9_s"]
                out.append(f"  {side} f{i}: {e['start_s']:.3f}-{e['end_s']:.3f}: {mb(e['rate_before_bps'])} -> "
                           f"{mb(e['rate_after_bps'])} ({fmt(e['after_over_before'], '.3f')}), back in "
                           f"{'-' if back is None else format(back, '.3f')} s")
    return out


def compare(binary: Path, sc: Scenario, seed: int, *, handshake: bool = False, timestamps: bool = False,
            extra: dict[str, Any] | None = None, trace_dir: Path | None = None) -> dict[str, Any]:
    probertt = sc.name.startswith("bbr-probertt")
    if probertt and trace_dir is None:
        trace_dir = Path(tempfile.mkdtemp(prefix="ccsim-ns3-"))
    trace = trace_dir / f"{sc.name}-{seed}.ns3-cwnd.txt" if trace_dir else None
    ns3 = run_ns3(binary, sc, seed, trace)
    ours, res = run_ccsim(sc, seed, ns3["start_s"], handshake=handshake, timestamps=timestamps, extra=extra,
                          series=["send_rate"] if probertt else None)
    if probertt:
        assert trace is not None
        rtt = sc.base_rtt_s(0)
        ns3["probe_rtt"] = ns3_probe_rtt(trace, sc.total_flows, rtt, sc.duration_s)
        ours["probe_rtt"] = ccsim_probe_rtt(res, [f"f{i}" for i in range(sc.total_flows)], ours["payload"], rtt,
                                            sc.duration_s)
    if trace_dir is not None:
        table = res.series()
        table[table["variable"].isin(["cwnd:change", "ssthresh:change"])].to_csv(
            trace_dir / f"{sc.name}-{seed}.ccsim-cwnd.csv", index=False)
    return {
        "scenario": sc.name, "seed": seed, "converged": sc.converged, "ccsim_extra": extra or {}, "settings": {**dataclasses.asdict(sc), "threshold": sc.threshold},
        "ns3": ns3, "ccsim": ours,
        "goodput_ratio": ratio(ours["goodput_fraction"], ns3["goodput_fraction"]),
        "jain_difference": ours["jain"] - ns3["jain"],
        "utilisation_ratio": ratio(ours["utilisation"], ns3["utilisation"]),
        "ss_exit_ratio": ratio(ours["ss_exit_cwnd"], ns3["ss_exit_cwnd"]),
        "wall_ratio": ratio(ns3["wall_s"], ours["wall_s"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="four short scenarios only")
    ap.add_argument("--suite", choices=("full", "issue25", "probertt"), default="full",
                    help="issue25: the SACK dumbbells of issue 25 (docs/validation.md) instead of the full suite; "
                         "probertt: two BBR flows through PROBE_RTT at 10 and 40 ms (ns-3.44 bug #1013)")
    ap.add_argument("--ccsim-keys", type=json.loads, default={},
                    help="ccsim flow keys over the matched ones, as JSON, e.g. '{\"recovery\": \"rfc6675\"}'")
    ap.add_argument("--scenario", default="", help="run the scenarios whose name matches this regular expression")
    ap.add_argument("--seeds", nargs="+", type=int, default=[1])
    ap.add_argument("--json", type=Path, help="also write every record (both sides, per flow) to this file")
    ap.add_argument("--ns3", type=Path, help="the ns3_scenarios binary (default: build it with build.sh)")
    ap.add_argument("--trace", type=Path, help="write both simulators' cwnd and ssthresh changes into this folder")
    ap.add_argument("--ccsim-handshake", action=argparse.BooleanOptionalAction, default=True,
                    help="ccsim's `handshake = true`, as ns-3 opens its connections (default); "
                         "--no-ccsim-handshake starts ccsim's flows one base RTT later instead")
    ap.add_argument("--ccsim-timestamps", action=argparse.BooleanOptionalAction, default=True,
                    help="ccsim's `timestamps = true`, as ns-3 sends them (default: 52-byte header, 1002 "
                         "payload bytes in 1054); --no-ccsim-timestamps: 40-byte header, 1014 payload bytes")
    ap.add_argument("--list", action="store_true", help="list the scenarios and the ones left out")
    args = ap.parse_args(argv)

    scenarios = (quick_suite() if args.quick else issue25_suite() if args.suite == "issue25"
                 else probertt_suite() if args.suite == "probertt" else suite())
    if args.scenario:
        scenarios = [s for s in scenarios if re.search(args.scenario, s.name)]
    if args.list:
        for s in scenarios:
            print(f"{s.name}: {s.total_flows} flows, {s.hops} x {s.rate_mbps:g} Mbit/s x {s.hop_delay_ms:g} ms, "
                  f"Q {s.queue}" + (f", K {s.threshold}" if s.protocol == "dctcp" else "") +
                  f", T {s.duration_s:g} s, warmup {s.warmup_s:g} s")
        if not args.quick and args.suite == "full":
            for (rate, n), why in SKIPPED.items():
                print(f"left out: db-{rate}-{n}-*: {why}")
            for (rate, proto), why in SKIPPED_PROTOCOLS.items():
                print(f"left out: db-{rate}-*-{proto}: {why}")
        return 0
    if not scenarios:
        print("no scenario matches", file=sys.stderr)
        return 2
    binary = args.ns3 or build_ns3()
    if args.trace:
        args.trace.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    records = []
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    for sc in scenarios:
        for seed in args.seeds:
            rec = compare(binary, sc, seed, handshake=args.ccsim_handshake, timestamps=args.ccsim_timestamps,
                          extra=args.ccsim_keys, trace_dir=args.trace)
            records.append(rec)
            print(row(rec), flush=True)
    for rec in records:
        for line in probe_rtt_lines(rec):
            print(line)
    if not args.quick and not args.scenario and args.suite == "full":
        for (rate, n), why in SKIPPED.items():
            print(f"\nLeft out: the {rate} dumbbell with {n} flows ({why}).")
    print(f"\n`*`: not converged in the window. {len(records)} comparisons in {time.perf_counter() - t0:.0f} s; "
          f"ns-3 {sum(r['ns3']['wall_s'] for r in records):.1f} s, ccsim {sum(r['ccsim']['wall_s'] for r in records):.2f} s "
          "of simulation wall time.")
    if args.json:
        args.json.write_text(json.dumps({"records": records}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
