"""In-order goodput of ccsim against ns-3 3.44 on the dumbbells of docs/validation.md.

Runs ../shared/tools/ns3-dumbbell's `ns3_dumbbell_bench` (built by its `build.sh`) and ccsim on
the same dumbbell and prints one markdown row per scenario and seed: the summed goodput
(payload delivered in order in [warmup, T], Mbit/s) and its fraction of the bottleneck's payload
capacity, for ccsim's default recovery, ccsim's `recovery = "rfc6675"` and ns-3.

    python scripts/ns3_goodput.py --ns3 ../shared/tools/ns3-dumbbell/ns3_dumbbell_bench \
        --scenario 100x1000 --seeds 1 2 3

The mapping, from the tool's README: N senders on 100 Mbit/s, 1 ms access links (1000-packet
queues) into a bottleneck of B Mbit/s, D ms and a Q-packet DropTail queue, then 100 Mbit/s, 1 ms
to the receivers; bulk SACK flows with delayed ACKs (every second segment or 200 ms), initial
window 10, ns-3's timer (`rto = "ns3"`: MinRto 1 s, G 1 ms). ns-3 starts flow i at a uniform
time in [0, 1) s and sends data one handshake later; ccsim starts it at ns-3's start time plus
the base RTT. ns-3's segments carry 1000 payload bytes in 1054 on the wire (20 IP, 20 TCP, 12
timestamp, 2 PPP); ccsim's header is 40 bytes, so its packets are 1054 bytes with 1014 payload
bytes, and the two goodputs are compared as fractions of their own payload capacity
(B x payload / wire). ns-3 recovers with PRR, ccsim with RFC 6675's pipe rule.

`--trace` prints both simulators' summed cwnd, pipe, FlightSize and the number of flows in
recovery every 200 ms (ns-3 through the `--traceState` option of a patched copy of the tool,
when it has one).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import ccsim

#: (flows, bottleneck Mbit/s) of each scenario; D = 20 ms; Q is about one BDP (at least 100).
SCENARIOS = {
    "100x1000": (100, 1000.0, 1000),
    "1x10": (1, 10.0, 100),
    "10x10": (10, 10.0, 100),
    "1x100": (1, 100.0, 500),
    "10x100": (10, 100.0, 500),
}
T_S, D_MS, ACCESS_MBPS, ACCESS_MS, ACCESS_Q = 10.0, 20.0, 100.0, 1.0, 1000
SEG, WIRE = 1000, 1054


def ns3_run(binary: str, n: int, b: float, q: int, seed: int, trace: str = "") -> dict[str, Any]:
    cmd = [binary, f"--N={n}", f"--B={b:g}", f"--D={D_MS:g}", f"--Q={q}", f"--T={T_S:g}", f"--seed={seed}"]
    if trace:
        cmd.append(f"--traceState={trace}")
    out: dict[str, Any] = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return out


def ccsim_spec(n: int, b: float, q: int, seed: int, starts: list[float], recovery: str | None) -> dict[str, Any]:
    base_rtt = 2 * (2 * ACCESS_MS + D_MS) / 1000
    links: list[dict[str, Any]] = [{"between": ["r1", "r2"], "rate": f"{b:g}Mbps", "delay": f"{D_MS:g}ms", "queue": f"{q}p"}]
    flows = []
    for i in range(n):
        for a, z in ((f"s{i}", "r1"), ("r2", f"d{i}")):
            links.append({"between": [a, z], "rate": f"{ACCESS_MBPS:g}Mbps", "delay": f"{ACCESS_MS:g}ms", "queue": f"{ACCESS_Q}p"})
        flow: dict[str, Any] = {
            "name": f"tcp{i}", "protocol": "sack", "from": f"s{i}", "to": f"d{i}",
            "start": f"{round((starts[i] + base_rtt) * 1e9)}ns", "packet_size": f"{WIRE}B",
            "delayed_ack": True, "initial_window": 10, "rto": "ns3",
        }
        if recovery:
            flow["recovery"] = recovery
        flows.append(flow)
    return {
        "run": {"duration": f"{T_S:g}s", "seed": seed, "warmup": f"{0.2 * T_S:g}s"},
        "links": links, "flows": flows,
        "output": {"series": [], "interval": "0.2s"},
    }


def ccsim_trace(spec: dict[str, Any]) -> None:
    spec = {**spec, "output": {"series": ["cwnd", "inflight", "ca_state"], "interval": "0.2s", "per_flow_series": True}}
    res = ccsim.run(spec, progress=False)
    s = res.series()
    mss = WIRE - 40
    for t, g in s.groupby("time"):
        by = {v: g[g["variable"] == v]["value"] for v in ("cwnd", "inflight", "ca_state")}
        print(f"{t:.1f} cwnd {by['cwnd'].sum() / mss:.0f} flight {by['inflight'].sum() / mss:.0f} "
              f"recovery {(by['ca_state'] == 2).sum()} loss {(by['ca_state'] == 3).sum()}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ns3", required=True, help="path to ns3_dumbbell_bench")
    ap.add_argument("--scenario", nargs="+", default=list(SCENARIOS), choices=list(SCENARIOS))
    ap.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3])
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args()
    print("| scenario | seed | ccsim default | ccsim rfc6675 | ns-3 | default / ns-3 | rfc6675 / ns-3 |")
    print("|---|---|---|---|---|---|---|")
    for name in args.scenario:
        n, b, q = SCENARIOS[name]
        for seed in args.seeds:
            trace = f"/tmp/ns3-state-{name}-{seed}.txt" if args.trace else ""
            ns3 = ns3_run(args.ns3, n, b, q, seed, trace)
            ns3_frac = ns3["goodput_sum_mbps"] / (b * SEG / WIRE)
            cells = []
            fracs = []
            for recovery in (None, "rfc6675"):
                spec = ccsim_spec(n, b, q, seed, ns3["start_s"], recovery)
                res = ccsim.run(spec, progress=False)
                mbps = sum(f["goodput_bps"] for f in res.flows().to_dict("records")) / 1e6
                frac = mbps / (b * (WIRE - 40) / WIRE)
                fracs.append(frac)
                cells.append(f"{mbps:.1f} ({frac:.4f})")
                if args.trace:
                    print(f"# ccsim {recovery or 'default'} {name} seed {seed}", file=sys.stderr)
                    ccsim_trace(spec)
            cells.append(f"{ns3['goodput_sum_mbps']:.1f} ({ns3_frac:.4f})")
            ratios = [f"{f / ns3_frac:.3f}" for f in fracs]
            print(f"| {name} | {seed} | " + " | ".join(cells + ratios) + " |", flush=True)
            if args.trace and Path(trace).exists():
                print(Path(trace).read_text(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
