"""Shared parts of the Vegas traces against ns-2.35 (README.md): running a ccsim spec and an
ns-2.35 script with the packet logs both need, reading those logs, and an offline replica of
the once-per-round section of ns-2.35's tcp/tcp-vegas.cc that gives BaseRTT, the round's RTT
and delta from the logs of either simulator.

Neither simulator exposes Vegas's BaseRTT (ccsim's `VegasNs2::base_rtt` is not a series;
ns-2.35's `v_baseRTT_` is not bound to Tcl). Both are rebuilt here from what each simulator
logs: every transmission of the sender with its segment number and instant (ccsim: the `seq`
change trace; ns-2.35: the `+` events of `trace-queue` on the sender's first link, which an
agent's packet enters at the instant it is sent), and every ACK with the instant it reaches
the sender (ccsim: the pcap of the last link of the ACKs' path, stamped when the ACK starts
transmission there, plus its transmission and propagation time; ns-2.35: the `r` events of
`trace-queue` on that link). `vegas_rounds` then runs tcp-vegas.cc lines 209-278 (the round's
end, BaseRTT, delta) and 303-332 (the per-ACK sample) on them. Its decisions are checked
against each simulator's own cwnd trace (`check_rounds`): in congestion avoidance every round
with delta > beta must take exactly one segment off cwnd at that ACK, and no other ACK may.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "python"))

import ccsim  # noqa: E402
from ccsim.ns2.translate import RESULT_MARKER, SAMPLE_MARKER, TCPIP_HEADER, translate  # noqa: E402

MSS = 960  # payload of a 1000 B packet
ACK_BYTES = 40  # a unicast ACK in both simulators

#: The experiment's timer (ccsim.experiments.base.TIMERS["ns-2 (1998)"]) and ns-2.35's defaults,
#: as ccsim flow keys; translate.py writes them as tcpTick_, rtxcur_init_, minrto_.
TIMERS: dict[str, dict[str, Any]] = {
    "1998": {"rto": "ns2", "tick": "100ms", "initial_rto": "6s", "min_rto": "0s"},
    "2.35": {"rto": "ns2"},
}


# ---------------------------------------------------------------------------------------------
# Logs


def read_pcap(path: Path) -> list[tuple[float, int, int, int, bytes]]:
    """(time s, IPv4 protocol, IP total length, source node index, bytes after the IP header)
    of every record of one of ccsim's pcap files (docs/pcap.md)."""
    data = path.read_bytes()
    if struct.unpack("<I", data[:4])[0] != 0xA1B23C4D:
        raise ValueError(f"{path}: not a nanosecond pcap")
    out = []
    off = 24
    while off < len(data):
        sec, nsec, incl, orig = struct.unpack("<IIII", data[off:off + 16])
        off += 16
        rec = data[off:off + incl]
        off += incl
        ihl = (rec[0] & 15) * 4
        src = struct.unpack(">I", rec[12:16])[0] - 0x0A000001
        out.append((sec + nsec * 1e-9, rec[9], orig, src, rec[ihl:]))
    return out


def ccsm(payload: bytes) -> tuple[Any, ...] | None:
    """ccsim's private UDP header (docs/pcap.md): ('ctl', kind, node, value) for a TCP-M control
    message, ('ack', next expected segment) for an encapsulated or fused TCP-M ACK."""
    p = payload[8:]
    if p[:4] != b"CCSM":
        return None
    if p[5] == 11:
        node, _agent = struct.unpack(">II", p[24:32])
        return ("ctl", p[20], node, struct.unpack(">Q", p[32:40])[0])
    if p[5] == 12:
        return ("ack", struct.unpack(">Q", p[20:28])[0])
    return ("other", p[5])


def ccsim_sends(result: ccsim.Result, flow: str) -> list[tuple[float, int]]:
    """Every transmission of `flow`'s sender: (instant, segment), retransmissions included."""
    s = result.series("seq:change")
    s = s[s["entity"] == flow]
    return [(float(t), int(v)) for t, v in zip(s["time"], s["value"])]


def ccsim_cwnd(result: ccsim.Result, flow: str) -> list[tuple[float, float]]:
    """`flow`'s cwnd at every change, segments."""
    s = result.series("cwnd:change")
    s = s[s["entity"] == flow]
    return [(float(t), float(v) / MSS) for t, v in zip(s["time"], s["value"])]


def ccsim_ssthresh(result: ccsim.Result, flow: str) -> list[tuple[float, float]]:
    """`flow`'s ssthresh at every change, segments (NaN while unset)."""
    s = result.series("ssthresh:change")
    s = s[s["entity"] == flow]
    return [(float(t), float(v) / MSS) for t, v in zip(s["time"], s["value"])]


def slow_start_exit(ssthresh: list[tuple[float, float]], cwnd: list[tuple[float, float]]) -> tuple[float, float]:
    """The first instant ssthresh drops to 2 segments (ns-2's Vegas leaves slow start so, at a
    growing round with delta > gamma, cutting cwnd by an eighth) and cwnd just after it."""
    t = next((t for t, v in ssthresh if abs(v - 2.0) < 1e-9), math.nan)
    if math.isnan(t):
        return t, math.nan
    after = [v for tc, v in cwnd if tc <= t + 1e-9]
    return t, after[-1] if after else math.nan


def ccsim_acks(pcap: Path, rate_bps: float, delay_s: float, *, fused: bool = False) -> list[tuple[float, int]]:
    """The ACKs that reach the sender over the link whose pcap is `pcap`: (arrival, ns-2's
    seqno, the highest segment acknowledged). A TCP ACK's number is a byte (segment k starts at
    k x 960, docs/pcap.md); a fused TCP-M ACK (`fused`, 60 B) names the next expected segment."""
    out = []
    for t, proto, size, _src, pl in read_pcap(pcap):
        if fused:
            m = ccsm(pl) if proto == 17 else None
            if m and m[0] == "ack":
                out.append((t + 60 * 8 / rate_bps + delay_s, int(m[1]) - 1))
        elif proto == 6 and pl[13] & 0x10 and size <= ACK_BYTES + 32:
            ack = struct.unpack(">I", pl[8:12])[0]
            out.append((t + size * 8 / rate_bps + delay_s, ack // MSS - 1))
    return out


def ns2_queue_events(path: Path, event: str, a: int, b: int, kind: str, fid: int) -> list[tuple[float, int]]:
    """(instant, seqno) of every `event` ('+', 'r', 'd') of packets of `kind` ('tcp', 'ack') and
    flow id `fid` on the link from node `a` to node `b` in an ns-2 `trace-queue` file. (A
    TCPSink's ACK carries its data packet's `fid_`, not the sink's.)"""
    out = []
    with path.open() as f:
        for line in f:
            p = line.split()
            if len(p) >= 12 and p[0] == event and p[2] == str(a) and p[3] == str(b) and p[4] == kind \
                    and p[7] == str(fid):
                out.append((float(p[1]), int(p[10])))
    return out


def ns2_trace_var(path: Path, var: str) -> list[tuple[float, float]]:
    """(instant, value) of every change of `var` (`cwnd_`, ...) an agent's `trace` wrote."""
    out = []
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) >= 7 and p[5] == var:
            out.append((float(p[0]), float(p[6])))
    return out


# ---------------------------------------------------------------------------------------------
# tcp-vegas.cc's once-per-round section, offline


@dataclass
class Round:
    t: float  # the ACK that ended it
    rtt: float  # the round's RTT: mean of its samples, else its duration
    base: float  # BaseRTT after the round's update
    rtt_len: int  # segments sent in the round (t_seqno_ - v_begseq_)
    window: int  # t_seqno_ - last_ack_
    delta: int
    reset: bool  # BaseRTT taken from this round because rttLen <= 1 (not because it was lower)


@dataclass
class VegasLog:
    rounds: list[Round] = field(default_factory=list)
    samples: list[tuple[float, float]] = field(default_factory=list)  # (t, per-ACK RTT sample)
    base: list[tuple[float, float]] = field(default_factory=list)  # BaseRTT at every change


def vegas_rounds(sends: list[tuple[float, int]], acks: list[tuple[float, int]]) -> VegasLog:
    """tcp-vegas.cc's round logic on a sender's transmissions and ACK arrivals (see the module).
    `acks` carry ns-2's seqno (the highest segment acknowledged). At equal instants an ACK is
    taken before a transmission (ns-2 runs the round's end before `send_much`).

    Approximations: t_seqno_ is the highest segment sent plus one (ns-2 resets it to the ACK
    point at a timeout, go-back-N; rounds right after a timeout may be cut differently), and
    segment 0's sample is kept (ns-2 skips it: its `vegastime()` send time is exactly 0)."""
    events = [(round(t, 9), 0, s) for t, s in acks] + [(round(t, 9), 1, s) for t, s in sends]
    events.sort(key=lambda e: (e[0], e[1]))
    log = VegasLog()
    sent: dict[int, tuple[float, int]] = {}
    t_seqno = 0
    last_ack = -1
    begseq, begtime = 0, None
    total, count = 0.0, 0
    base = math.inf
    first_sent = None
    for t, kind, seq in events:
        if kind == 1:
            first_sent = t if first_sent is None else first_sent
            prev = sent.get(seq)
            sent[seq] = (t, (prev[1] + 1) if prev else 1)
            t_seqno = max(t_seqno, seq + 1)
            continue
        if first_sent is None:
            continue
        if not log.base:  # firstrecv_: BaseRTT = the first ACK's time since the first send
            base = t - first_sent
            log.base.append((t, base))
        if seq <= last_ack:
            continue
        last_ack = seq
        if seq >= begseq:
            rtt = total / count if count else t - (begtime if begtime is not None else first_sent)
            total, count = 0.0, 0
            rtt_len = t_seqno - begseq
            if rtt > 0:
                reset = rtt >= base and rtt_len <= 1
                if rtt < base or rtt_len <= 1:
                    base = rtt
                    log.base.append((t, base))
                actual = rtt_len / rtt
                expect = (t_seqno - last_ack) / base
                delta = int((expect - actual) * base + 0.5)
                log.rounds.append(Round(t, rtt, base, rtt_len, t_seqno - last_ack, delta, reset))
            begseq, begtime = t_seqno, t
        info = sent.get(seq)
        if info and info[1] == 1:
            sample = t - info[0]
            total += sample
            count += 1
            log.samples.append((t, sample))
            if 0 < sample < base:
                base = sample
                log.base.append((t, base))
    return log


def check_rounds(log: VegasLog, cwnd: list[tuple[float, float]], t1: float, t2: float, beta: int = 3) -> dict[str, int]:
    """The replica's rounds with delta > beta in (t1, t2] against the cwnd decrements of one
    whole segment in the simulator's own trace: how many of each and how many coincide (the same
    instant within 10 us: ns-2 prints its traced variables' instants with 5 decimals). Slow start's cut by an eighth is not a whole segment and is left out,
    so the window should be in congestion avoidance."""
    cuts = [r.t for r in log.rounds if t1 < r.t <= t2 and r.delta > beta]
    steps = []
    for (ta, a), (tb, b) in zip(cwnd, cwnd[1:]):
        if t1 < tb <= t2 and abs((a - b) - 1.0) < 1e-6 and a > 2.0 + 1e-9:
            steps.append(tb)
    # ns-2 prints a traced variable's instant with 5 decimals: 10 us.
    matched = sum(1 for c in cuts if any(abs(c - s) < 1e-5 for s in steps))
    return {"rounds_delta_gt_beta": len(cuts), "cwnd_minus_one": len(steps), "coincide": matched}


def same_sends(a: list[tuple[float, int]], b: list[tuple[float, int]], tol: float = 1e-6) -> tuple[int, int, Any]:
    """How two senders' transmissions compare: (transmissions of `a`, of `b`, the first pair
    (instant, segment) that differs by segment or by more than `tol` s, or None)."""
    for (ta, sa), (tb, sb) in zip(a, b):
        if sa != sb or abs(ta - tb) > tol:
            return len(a), len(b), ((round(ta, 6), sa), (round(tb, 6), sb))
    return len(a), len(b), None


def summarize(log: VegasLog, cwnd: list[tuple[float, float]], t1: float, t2: float) -> dict[str, float]:
    """Means over (t1, t2]: the round RTT, BaseRTT, delta; cwnd time-averaged; the per-ACK
    samples' min, mean and max; and BaseRTT at t2."""
    rs = [r for r in log.rounds if t1 < r.t <= t2]
    smp = [s for t, s in log.samples if t1 < t <= t2]
    base_end = next((b for t, b in reversed(log.base) if t <= t2), math.nan)
    return {
        "rounds": len(rs),
        "rtt_mean": float(np.mean([r.rtt for r in rs])) if rs else math.nan,
        "base_mean": float(np.mean([r.base for r in rs])) if rs else math.nan,
        "base_end": base_end,
        "delta_mean": float(np.mean([r.delta for r in rs])) if rs else math.nan,
        "sample_min": float(min(smp)) if smp else math.nan,
        "sample_mean": float(np.mean(smp)) if smp else math.nan,
        "sample_max": float(max(smp)) if smp else math.nan,
        "cwnd_mean": time_mean(cwnd, t1, t2),
        "base_resets": sum(1 for r in log.rounds if t1 < r.t <= t2 and r.reset),
    }


def time_mean(steps: list[tuple[float, float]], t1: float, t2: float) -> float:
    """The time-average over [t1, t2] of a step function given at its changes."""
    if not steps:
        return math.nan
    acc, last_t, last_v = 0.0, t1, None
    for t, v in steps:
        if t <= t1:
            last_v = v
            continue
        if t > t2:
            break
        if last_v is not None:
            acc += last_v * (t - last_t)
        last_t, last_v = t, v
    if last_v is None:
        return math.nan
    acc += last_v * (t2 - last_t)
    return acc / (t2 - t1)


def mean_rate(samples: list[tuple[float, float]], t1: float, t2: float) -> float:
    """Mean of rate samples (bit/s) with instants in (t1, t2], as the experiment's `flow_rate`."""
    xs = [v for t, v in samples if t1 + 1e-9 < t <= t2 + 1e-9]
    return float(np.mean(xs)) if xs else math.nan


# ---------------------------------------------------------------------------------------------
# Running the two simulators


def ns_available() -> bool:
    return shutil.which("ns") is not None


def run_ns2(tcl: str, workdir: Path, name: str) -> tuple[dict[str, Any], list[tuple[float, str, str, float]], float]:
    """Run `tcl` in `workdir` (kept: its traces are read afterwards); the result JSON's flows and
    links, the sampled series and the wall time."""
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / f"{name}.tcl"
    script.write_text(tcl)
    t0 = time.perf_counter()
    proc = subprocess.run(["ns", script.name], capture_output=True, text=True, cwd=workdir, timeout=1800)
    wall = time.perf_counter() - t0
    result = None
    samples = []
    for line in proc.stdout.splitlines():
        if line.startswith(SAMPLE_MARKER):
            t, var, ent, val = line[len(SAMPLE_MARKER):].split()
            samples.append((float(t), var, ent, float(val)))
        elif line.startswith(RESULT_MARKER):
            result = json.loads(line[len(RESULT_MARKER):])
    if proc.returncode != 0 or result is None:
        raise RuntimeError(f"ns {script}: exit {proc.returncode}: {(proc.stderr or proc.stdout)[-800:]}")
    return result, samples, wall


def translated_tcl(spec: dict[str, Any], workdir: Path, name: str, queue_traces: list[tuple[str, str]],
                   vegas_wire: bool = True) -> tuple[str, Any]:
    """translate.py's script for `spec` (its cwnd_ traces in `workdir`) with a `trace-queue` of
    every link direction in `queue_traces` added to `<name>.tr`.

    translate.py gives every Agent/TCP/Vegas `packetSize_` = ccsim's whole packet_size (issue 41):
    ns-2.35's `VegasTcpAgent::output` (tcp-vegas.cc lines 455-490) sends `allocpkt()`'s `size_`
    and, unlike `TcpAgent::output` (tcp.cc lines 773-774), never adds `headersize()`. Without
    `vegas_wire` the script is put back as translate.py wrote it before, packet_size - 40, which
    puts 960 B packets on ns-2.35's wire where ccsim sends 1000 B (vegas_packet_size.py shows
    what that did)."""
    plain = {k: v for k, v in spec.items() if k != "output"}
    out = dict(spec.get("output") or {})
    plain["output"] = {k: v for k, v in out.items() if k in ("interval", "series")}
    # Relative paths: the script writes its traces where ns runs (run_ns2 runs it in `workdir`).
    tr = translate(plain, trace=True, trace_dir=".")
    tcl = tr.tcl
    if not vegas_wire:
        fixed, vegas = [], False
        for line in tcl.split("\n"):
            if line.startswith("set a [new "):
                vegas = line == "set a [new Agent/TCP/Vegas]"
            m = re.fullmatch(r"\$a set packetSize_ (\d+)", line)
            if vegas and m:
                line = f"$a set packetSize_ {int(m.group(1)) - TCPIP_HEADER}"
            fixed.append(line)
        tcl = "\n".join(fixed)
    lines = [f"set qtrace [open {{{name}.tr}} w]"]
    lines += [f"$ns trace-queue $n({a}) $n({b}) $qtrace" for a, b in queue_traces]
    tcl = tcl.replace("\n$ns run\n", "\n" + "\n".join(lines) + "\n$ns run\n")
    return tcl, tr


def node_ids(spec: dict[str, Any]) -> dict[str, int]:
    """Node name -> index: the order of first appearance in `links` (ccsim's pcap addresses and
    translate.py's `$ns node` calls both follow it)."""
    ids: dict[str, int] = {}
    for link in spec["links"]:
        for n in link["between"]:
            ids.setdefault(n, len(ids))
    return ids


def link_of(spec: dict[str, Any], a: str, b: str) -> tuple[float, float]:
    """(rate bit/s, delay s) of the link between `a` and `b`."""
    from ccsim.ns2.translate import bps, seconds

    for link in spec["links"]:
        if set(link["between"]) == {a, b}:
            return bps(link["rate"]), seconds(link["delay"])
    raise KeyError(f"no link {a}-{b}")


def fmt(x: float, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{digits}f}"


def prepare(doc: str, default_out: str, argv: list[str] | None) -> tuple[Path, Path] | None:
    """A script's start: its ``--out`` folder (made) and the scenarios folder beside these
    scripts (made), or ``None`` (said on stdout) when ns-2.35 is not on PATH."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path(default_out))
    out: Path = ap.parse_args(argv).out
    out.mkdir(parents=True, exist_ok=True)
    scen = HERE / "scenarios"
    scen.mkdir(exist_ok=True)
    if not ns_available():
        print("ns (ns-2.35) is not on PATH")
        return None
    return out, scen
