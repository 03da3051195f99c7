"""ccsim's ns-2 modes against ns-2.35 itself: the twin suite (`make validate-ns2`).

Each scenario is one ccsim spec, run by ccsim and, translated by translate.py, by ns-2.35
(Debian's `ns2`); one markdown table puts the two side by side with the issue's targets:
in-order goodput and bottleneck utilisation within 3 %, Jain's index within 0.03, and drops,
timeouts and retransmissions within 10 % or 5 events. A row outside a target is marked and
its cause is in docs/validation.md ("ns-2.35 as a second oracle"). A twin that depends on the
seed (RED's early drops, Poisson arrivals) runs seeds 1-5 in each simulator and is judged on
the means (the quick subset: seed 1 only).

    python validation/ns2/run.py                 # the full suite (make validate-ns2)
    python validation/ns2/run.py --quick         # the quick subset (tests/test_ns2_validation.py)
    python validation/ns2/run.py --scenario 'reno' --json out.json
    python validation/ns2/run.py --list
    python validation/ns2/run.py --scenario 'newreno-10M-10$' --trace traces/   # cwnd, ssthresh, RTO

Topology. A dumbbell: N senders, each on its own access link (10 x the bottleneck's rate, 1 ms,
1000 packets) to r0; the bottleneck r0 - r1 (rate B, one-way delay D); access links from r1 to
the receivers. The base RTT (propagation only, access links included) names the dumbbell; the
bottleneck's buffer is a fraction of the BDP in 1040-byte packets (at least 2). Flows start
10 ms apart. The parking lot: three hops r0 - r1 - r2 - r3 of 10 Mbit/s and 10 ms, two long
flows r0 -> r3 and one cross flow per hop.

ccsim runs every TCP flow as ns-2.35 runs it by default (`NS2_FLOW`): `rto = "ns2"` (10 ms
ticks, 200 ms minrto, 3 s first timeout), `limited_transmit = true` (ns-2.35's
`singledup_ 1`) and, for Tahoe, Reno and NewReno, `recovery = "ns2"` (`bug_fix_`); Vegas with
`variant = "ns2"`; RED with `profile = "ns2.35"`; XCP with `xcp_router = "ns2.35"` and
`xcp.recovery = "reno"` (ns-2.35's Queue/XCP on every link, Agent/TCP/Reno/XCP senders).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ccsim.ns2.oracle import Measures, Ns2Failed, ns2_available, run_both  # noqa: E402
from ccsim.ns2.translate import TCP_AGENTS  # noqa: E402

WIRE = 1040
#: ns-2.35's defaults, as ccsim flow keys (what the experiments' ns-2 baselines run with).
NS2_FLOW: dict[str, Any] = {"rto": "ns2", "limited_transmit": True}
#: Targets of issue 39.
GOODPUT_TOL = 0.03
JAIN_TOL = 0.03
COUNT_TOL = 0.10
COUNT_SLACK = 5
#: Seeds of a twin whose runs depend on the seed (`Twin.random`), unless --seeds names others.
RANDOM_SEEDS = (1, 2, 3, 4, 5)


@dataclasses.dataclass(frozen=True)
class Twin:
    name: str
    #: a TCP variant, "xcp", "tfrc", "tfrc-newreno" (the two alternating), or "cbr" / "poisson"
    #: beside NewReno flows
    protocol: str
    flows: int
    rate_mbps: float
    rtt_ms: float
    buffer_bdp: float
    duration_s: float
    warmup_s: float
    delayed_ack: bool = False
    queue: str = "droptail"  # "droptail", "red", "red-ecn"
    topology: str = "dumbbell"
    #: Odd-numbered flows run from the receivers' side back to the senders' (both directions
    #: of the bottleneck loaded, as in xcp-capacity and the OBP experiments).
    two_way: bool = False
    #: Web transfers, voice and streaming sources beside the flows (`[[traffic]]`, replayed in
    #: ns-2.35 from ccsim's run): web offering a tenth of the link in 30 kB transfers, 4 voice
    #: sources each way and 2 streaming sources, all between s0 and d0.
    mix: bool = False

    @property
    def random(self) -> bool:
        """Whether the seed changes the run (RED's early drops, Poisson arrivals): such a twin is
        judged on the means over RANDOM_SEEDS, each simulator drawing its own streams."""
        return self.queue != "droptail" or self.protocol == "poisson" or self.mix

    @property
    def buffer_packets(self) -> int:
        return max(2, round(self.buffer_bdp * self.rate_mbps * 1e6 * self.rtt_ms / 1000 / 8 / WIRE))

    def spec(self, seed: int = 1) -> dict[str, Any]:
        return parking_lot(self, seed) if self.topology == "parkinglot" else dumbbell(self, seed)


def _tcp_flow(t: Twin, name: str, src: str, dst: str, start: float) -> dict[str, Any]:
    if t.protocol == "tfrc":
        # ns-2.35's Agent/TFRC with its own constants (translate.py); ccsim's TFRC is RFC 5348's.
        return {"name": name, "protocol": "tfrc", "from": src, "to": dst, "start": f"{start:g}s",
                "packet_size": f"{WIRE}B"}
    f: dict[str, Any] = {"name": name, "protocol": t.protocol, "from": src, "to": dst, "start": f"{start:g}s",
                         "packet_size": f"{WIRE}B", "delayed_ack": t.delayed_ack, **NS2_FLOW}
    if t.protocol in ("tahoe", "reno", "newreno"):
        f["recovery"] = "ns2"
    if t.protocol == "xcp":
        f["xcp"] = {"recovery": "reno"}  # ns-2.35's Agent/TCP/Reno/XCP
    if t.protocol == "vegas":
        f["vegas"] = {"variant": "ns2"}
        f.pop("limited_transmit")  # ns-2.35's Vegas has no singledup_ branch
    if t.queue == "red-ecn":
        f["ecn"] = True
    return f


def _bottleneck_queue(t: Twin) -> Any:
    if t.queue == "droptail":
        return f"{t.buffer_packets}p"
    # ns-2.35's RED in byte mode counts limit_ in 500-byte units.
    limit = f"{max(2, round(t.buffer_packets * WIRE / 500)) * 500}B"
    q: dict[str, Any] = {"kind": "red", "profile": "ns2.35", "limit": limit}
    if t.queue == "red-ecn":
        q["ecn"] = True
    return q


def dumbbell(t: Twin, seed: int) -> dict[str, Any]:
    access = f"{10 * t.rate_mbps:g}Mbps"
    links: list[dict[str, Any]] = []
    n = t.flows + (1 if t.protocol in ("cbr", "poisson") else 0)
    for i in range(n):
        links.append({"between": [f"s{i}", "r0"], "rate": access, "delay": "1ms", "queue": "1000p"})
        links.append({"between": ["r1", f"d{i}"], "rate": access, "delay": "1ms", "queue": "1000p"})
    links.append({"between": ["r0", "r1"], "rate": f"{t.rate_mbps:g}Mbps", "delay": f"{t.rtt_ms / 2 - 2:g}ms",
                  "queue": _bottleneck_queue(t)})
    flows: list[dict[str, Any]] = []
    if t.protocol in ("cbr", "poisson"):
        # The UDP source takes half the link beside NewReno flows.
        flows.append({"name": "udp", "protocol": t.protocol, "from": f"s{t.flows}", "to": f"d{t.flows}",
                      "rate": f"{t.rate_mbps / 2:g}Mbps", "packet_size": "500B", "start": "0s"})
        tcp = dataclasses.replace(t, protocol="newreno")
        flows += [_tcp_flow(tcp, f"f{i}", f"s{i}", f"d{i}", 0.01 * i) for i in range(t.flows)]
    elif t.protocol == "tfrc-newreno":
        # TFRC and NewReno flows alternate: TCP-friendliness, as the Primo experiments measure it.
        for i in range(t.flows):
            proto = dataclasses.replace(t, protocol="newreno" if i % 2 else "tfrc")
            flows.append(_tcp_flow(proto, f"f{i}", f"s{i}", f"d{i}", 0.01 * i))
    else:
        flows += [_tcp_flow(t, f"f{i}", *((f"d{i}", f"s{i}") if t.two_way and i % 2 else (f"s{i}", f"d{i}")),
                            0.01 * i) for i in range(t.flows)]
    spec: dict[str, Any] = {"run": _run(t, seed), "links": links, "flows": flows}
    if t.mix:
        options = {k: v for k, v in flows[0].items()
                   if k not in ("name", "protocol", "from", "to", "start", "packet_size")}
        spec["traffic"] = [
            {"name": "web", "kind": "web", "protocol": t.protocol, "from": ["s0"], "to": ["d0"],
             "arrivals": t.rate_mbps * 1e6 / 10 / (30_000 * 8), "mean_size": "30kB", "packet_size": f"{WIRE}B",
             "options": options},
            {"name": "calls", "kind": "voice", "from": ["s0"], "to": ["d0"], "count": 4},
            {"name": "back", "kind": "voice", "from": ["d0"], "to": ["s0"], "count": 4},
            {"name": "video", "kind": "streaming", "from": ["s0"], "to": ["d0"], "count": 2},
        ]
    return spec


def _run(t: Twin, seed: int) -> dict[str, Any]:
    run: dict[str, Any] = {"duration": f"{t.duration_s:g}s", "warmup": f"{t.warmup_s:g}s", "seed": seed}
    if t.protocol == "xcp":
        run["xcp_router"] = "ns2.35"
    return run


def parking_lot(t: Twin, seed: int) -> dict[str, Any]:
    hops = 3
    access = f"{10 * t.rate_mbps:g}Mbps"
    links: list[dict[str, Any]] = [
        {"between": [f"r{h}", f"r{h + 1}"], "rate": f"{t.rate_mbps:g}Mbps", "delay": f"{t.rtt_ms / 2 - 2:g}ms",
         "queue": _bottleneck_queue(t)} for h in range(hops)]
    flows: list[dict[str, Any]] = []
    for i in range(t.flows):
        links.append({"between": [f"ls{i}", "r0"], "rate": access, "delay": "1ms", "queue": "1000p"})
        links.append({"between": [f"r{hops}", f"ld{i}"], "rate": access, "delay": "1ms", "queue": "1000p"})
        flows.append(_tcp_flow(t, f"long{i}", f"ls{i}", f"ld{i}", 0.01 * i))
    for h in range(hops):
        links.append({"between": [f"cs{h}", f"r{h}"], "rate": access, "delay": "1ms", "queue": "1000p"})
        links.append({"between": [f"r{h + 1}", f"cd{h}"], "rate": access, "delay": "1ms", "queue": "1000p"})
        flows.append(_tcp_flow(t, f"cross{h}", f"cs{h}", f"cd{h}", 0.005 + 0.01 * h))
    return {"run": _run(t, seed), "links": links, "flows": flows}


def _label(rate: float) -> str:
    return f"{rate:g}M"


def suite() -> list[Twin]:
    """Every baseline on dumbbells of 1, 10 and 100 flows at 1.5, 10 and 100 Mbit/s, base RTTs
    from 24 to 200 ms, buffers from a fifth of a BDP to two, with and without delayed ACKs,
    over DropTail and RED; UDP sources beside NewReno; a parking lot."""
    out: list[Twin] = []
    dumbbells = ((1.5, 200.0, 60.0, 20.0), (10.0, 40.0, 30.0, 10.0), (100.0, 24.0, 20.0, 5.0))
    for proto in (p for p in TCP_AGENTS if p != "xcp"):
        for rate, rtt, dur, warm in dumbbells:
            for n in (1, 10, 100):
                if rate == 1.5 and n == 100:
                    continue  # 100 flows in 1.5 Mbit/s hold windows below one packet
                base = Twin(f"{proto}-{_label(rate)}-{n}", proto, n, rate, rtt, 1.0, dur, warm)
                out.append(base)
                if n == 10:
                    out.append(dataclasses.replace(base, name=base.name + "-delack", delayed_ack=True))
                    out.append(dataclasses.replace(base, name=base.name + "-q0.2", buffer_bdp=0.2))
                    out.append(dataclasses.replace(base, name=base.name + "-q2", buffer_bdp=2.0))
    for proto in ("reno", "newreno", "sack"):
        for n in (1, 10):
            out.append(Twin(f"{proto}-red-10M-{n}", proto, n, 10.0, 40.0, 1.0, 30.0, 10.0, queue="red"))
            out.append(Twin(f"{proto}-redecn-10M-{n}", proto, n, 10.0, 40.0, 1.0, 30.0, 10.0, queue="red-ecn"))
        out.append(Twin(f"{proto}-red-100M-10", proto, 10, 100.0, 24.0, 1.0, 20.0, 5.0, queue="red"))
    for udp in ("cbr", "poisson"):
        out.append(Twin(f"{udp}-10M-4", udp, 4, 10.0, 40.0, 1.0, 30.0, 10.0))
    for proto in ("reno", "newreno", "sack"):
        out.append(Twin(f"{proto}-parkinglot-10M", proto, 2, 10.0, 24.0, 1.0, 30.0, 10.0, topology="parkinglot"))
    # XCP (no delayed-ACK form in ns-2.35's XCPSink): one-way dumbbells, buffers, both directions.
    for rate, rtt, dur, warm in dumbbells:
        for n in (1, 10, 100):
            if rate == 1.5 and n == 100:
                continue
            base = Twin(f"xcp-{_label(rate)}-{n}", "xcp", n, rate, rtt, 1.0, dur, warm)
            out.append(base)
            if n == 10:
                out.append(dataclasses.replace(base, name=base.name + "-q0.2", buffer_bdp=0.2))
                out.append(dataclasses.replace(base, name=base.name + "-2way", two_way=True))
    out.append(Twin("xcp-parkinglot-10M", "xcp", 2, 10.0, 24.0, 1.0, 30.0, 10.0, topology="parkinglot"))
    # TFRC (ns-2.35's Agent/TFRC against ccsim's RFC 5348 TFRC), alone and beside NewReno.
    for rate, rtt, dur, warm in dumbbells:
        for n in (1, 10):
            base = Twin(f"tfrc-{_label(rate)}-{n}", "tfrc", n, rate, rtt, 1.0, dur, warm)
            out.append(base)
            if n == 10 and rate == 10.0:
                out.append(dataclasses.replace(base, name=base.name + "-q0.2", buffer_bdp=0.2))
                out.append(dataclasses.replace(base, name=base.name + "-red", queue="red"))
        out.append(Twin(f"tfrc-newreno-{_label(rate)}-4", "tfrc-newreno", 4, rate, rtt, 1.0, dur, warm))
    # The XCP and OBP papers' traffic mix beside long flows (generators replayed from ccsim's run).
    for proto, queue in (("newreno", "droptail"), ("reno", "red-ecn"), ("sack", "red-ecn")):
        for rate, rtt, dur, warm in dumbbells[1:]:
            out.append(Twin(f"mix-{proto}{'-' + queue if queue != 'droptail' else ''}-{_label(rate)}-10", proto, 10,
                            rate, rtt, 1.0, dur, warm, queue=queue, mix=True))
    return out


def quick_suite() -> list[Twin]:
    """Short runs whose agreement is checked in `make test` (tests/test_ns2_validation.py)."""
    return [
        Twin("quick-tahoe-100M-10", "tahoe", 10, 100.0, 24.0, 1.0, 15.0, 5.0),
        Twin("quick-newreno-100M-1", "newreno", 1, 100.0, 24.0, 1.0, 15.0, 5.0),
        Twin("quick-newreno-10M-10-delack", "newreno", 10, 10.0, 40.0, 1.0, 20.0, 5.0, delayed_ack=True),
        Twin("quick-tahoe-10M-10", "tahoe", 10, 10.0, 40.0, 1.0, 20.0, 5.0),
        Twin("quick-reno-red-10M-1", "reno", 1, 10.0, 40.0, 1.0, 20.0, 5.0, queue="red"),
        Twin("quick-newreno-redecn-10M-10", "newreno", 10, 10.0, 40.0, 1.0, 20.0, 5.0, queue="red-ecn"),
        Twin("quick-cbr-10M-4", "cbr", 4, 10.0, 40.0, 1.0, 20.0, 5.0),
        Twin("quick-xcp-10M-10", "xcp", 10, 10.0, 40.0, 1.0, 20.0, 5.0),
        Twin("quick-xcp-10M-10-2way", "xcp", 10, 10.0, 40.0, 1.0, 20.0, 5.0, two_way=True),
        Twin("quick-tfrc-10M-10", "tfrc", 10, 10.0, 40.0, 1.0, 20.0, 5.0),
        Twin("quick-tfrc-newreno-10M-4", "tfrc-newreno", 4, 10.0, 40.0, 1.0, 20.0, 5.0),
        Twin("quick-mix-newreno-10M-10", "newreno", 10, 10.0, 40.0, 1.0, 20.0, 5.0, mix=True),
    ]


def jain(xs: list[float]) -> float:
    s = sum(xs)
    return s * s / (len(xs) * sum(x * x for x in xs)) if s > 0 else 0.0


def bottlenecks(t: Twin) -> list[str]:
    if t.topology == "parkinglot":
        return [f"r{h}->r{h + 1}" for h in range(3)]
    return ["r0->r1", "r1->r0"] if t.two_way else ["r0->r1"]


def side(t: Twin, m: Measures) -> dict[str, Any]:
    """The compared measures of one simulator's run."""
    # The TCP flows of the spec (replayed generated flows have no goodput over the window).
    tcp = {k: v for k, v in m.flows.items() if k != "udp" and "goodput_bps" in v}
    goodputs = [v["goodput_bps"] for v in tcp.values()]
    links = [m.links[b] for b in bottlenecks(t)]
    hops = len(links)
    capacity = t.rate_mbps * 1e6 * (WIRE - 40) / WIRE
    return {
        "goodput_bps": goodputs,
        # Summed TCP goodput as a fraction of the payload capacity of the bottlenecks.
        "goodput": sum(goodputs) / (capacity * (1 if hops == 1 else 2)),
        "jain": jain(goodputs),
        "timeouts": sum(v["timeouts"] for v in tcp.values()),
        "retransmitted": sum(v["retransmitted_packets"] for v in tcp.values()),
        "utilization": sum(x["utilization"] for x in links) / hops,
        "drops": sum(x["drops"] for x in links),
        "mean_queue": sum(x["mean_queue_packets"] for x in links) / hops,
        "udp_goodput_bps": m.flows["udp"]["goodput_bps"] if "udp" in m.flows else None,
    }


def _count_ok(a: float, b: float) -> bool:
    return abs(a - b) <= max(COUNT_SLACK, COUNT_TOL * max(a, b))


def verdicts(c: dict[str, Any], n: dict[str, Any]) -> dict[str, bool]:
    out = {
        "goodput": abs(c["goodput"] - n["goodput"]) <= GOODPUT_TOL * max(n["goodput"], 1e-9),
        "utilization": abs(c["utilization"] - n["utilization"]) <= GOODPUT_TOL * max(n["utilization"], 1e-9),
        "jain": abs(c["jain"] - n["jain"]) <= JAIN_TOL,
        "drops": _count_ok(c["drops"], n["drops"]),
        "timeouts": _count_ok(c["timeouts"], n["timeouts"]),
        "retransmitted": _count_ok(c["retransmitted"], n["retransmitted"]),
    }
    if c["udp_goodput_bps"] is not None:
        out["udp"] = abs(c["udp_goodput_bps"] - n["udp_goodput_bps"]) <= GOODPUT_TOL * n["udp_goodput_bps"]
    return out


HEADER = ("| scenario | flows | Mbit/s | RTT ms | Q pkts | goodput (ccsim / ns-2) | Jain | timeouts | "
          "retransmitted | utilisation | drops | mean queue | wall s (ccsim / ns-2) | outside |")


def compare(t: Twin, seed: int = 1, trace_dir: Path | None = None) -> dict[str, Any]:
    pair = run_both(t.spec(seed), trace_dir / f"{t.name}-seed{seed}.csv" if trace_dir else None)
    c, n = side(t, pair.ccsim), side(t, pair.ns2)
    v = verdicts(c, n)
    return {"scenario": t.name, "seed": seed, "settings": dataclasses.asdict(t), "buffer_packets": t.buffer_packets,
            "ccsim": dict(c, wall_s=pair.wall_ccsim), "ns2": dict(n, wall_s=pair.wall_ns2), "within": v}


def mean_record(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """One record of several seeds' runs of a twin: every measure the mean over the seeds,
    judged again on the means."""
    first = recs[0]

    def mean_side(side: str) -> dict[str, Any]:
        out = dict(recs[0][side])
        for key, value in out.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out[key] = sum(r[side][key] for r in recs) / len(recs)
        return out

    c, n = mean_side("ccsim"), mean_side("ns2")
    return dict(first, scenario=f"{first['scenario']} (mean of {len(recs)} seeds)", seed=[r["seed"] for r in recs],
                ccsim=c, ns2=n, within=verdicts(c, n), seeds=recs)


def row(rec: dict[str, Any]) -> str:
    c, n, v, s = rec["ccsim"], rec["ns2"], rec["within"], rec["settings"]

    def pair(key: str, fmt: str) -> str:
        text = f"{format(c[key], fmt)} / {format(n[key], fmt)}"
        return f"**{text}**" if not v.get(key, True) else text

    outside = [k for k, ok in v.items() if not ok]
    return (f"| {rec['scenario']} | {s['flows']} | {s['rate_mbps']:g} | {s['rtt_ms']:g} | {rec['buffer_packets']} | "
            f"{pair('goodput', '.3f')} | {pair('jain', '.3f')} | {pair('timeouts', '.0f')} | "
            f"{pair('retransmitted', '.0f')} | {pair('utilization', '.3f')} | {pair('drops', '.0f')} | "
            f"{c['mean_queue']:.1f} / {n['mean_queue']:.1f} | {c['wall_s']:.2f} / {n['wall_s']:.2f} | "
            f"{', '.join(outside) or '-'} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the quick subset only")
    ap.add_argument("--scenario", default="", help="run the scenarios whose name matches this regular expression")
    ap.add_argument("--seeds", nargs="+", type=int,
                    help="seeds of every twin (default: 1, and 1-5 judged on their means for RED and Poisson)")
    ap.add_argument("--json", type=Path, help="also write every record (both sides) to this file")
    ap.add_argument("--list", action="store_true", help="list the scenarios")
    ap.add_argument("--trace", type=Path, help="write both simulators' cwnd, ssthresh and RTO changes per TCP flow "
                                               "into this folder, one CSV per scenario")
    args = ap.parse_args(argv)
    twins = quick_suite() if args.quick else suite()
    if args.scenario:
        twins = [t for t in twins if re.search(args.scenario, t.name)]
    if args.list:
        for t in twins:
            print(f"{t.name}: {t.flows} {t.protocol} flows, {t.rate_mbps:g} Mbit/s x {t.rtt_ms:g} ms, "
                  f"Q {t.buffer_packets} ({t.queue}), T {t.duration_s:g} s, warmup {t.warmup_s:g} s"
                  + (", delayed ACKs" if t.delayed_ack else ""))
        return 0
    if not twins:
        print("ccsim: error: --scenario: no scenario matches", file=sys.stderr)
        return 2
    if not ns2_available():
        print("ccsim: error: ns-2.35 is not installed (`ns` not on PATH); apt-get install ns2", file=sys.stderr)
        return 3
    t0 = time.perf_counter()
    records = []
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    for t in twins:
        seeds = args.seeds or (list(RANDOM_SEEDS) if t.random and not args.quick else [1])
        try:
            recs = [compare(t, seed, args.trace) for seed in seeds]
        except Ns2Failed as e:
            print(f"| {t.name} | ns-2 failed: {str(e)[:200]} |", flush=True)
            continue
        rec = recs[0] if len(recs) == 1 else mean_record(recs)
        records.append(rec)
        print(row(rec), flush=True)
    inside = sum(1 for r in records if all(r["within"].values()))
    print(f"\n{inside} of {len(records)} scenarios within every target; {time.perf_counter() - t0:.0f} s in all, "
          f"ns-2.35 {sum(r['ns2']['wall_s'] for r in records):.1f} s, "
          f"ccsim {sum(r['ccsim']['wall_s'] for r in records):.2f} s of run time.")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"records": records}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
