"""ccsim against ns-3 3.44 on a datacenter fabric: the same flows on the same fat-tree.

A k = 4 fat-tree (16 hosts), every link 10 Gbit/s and 1 us, every egress port DCTCP's step
marker (K = 65 packets, the DCTCP paper's at 10 Gbit/s, in 500-packet buffers), DCTCP with SACK.
Routing is ccsim's single-path tables (`multipath = "none"`: toward each host the lowest-indexed
link that starts a shortest path), installed in ns-3 as static host routes; `--routing spray`
sprays instead (ccsim's `multipath = "spray"`, ns-3.44's Ipv4GlobalRouting::RandomEcmpRouting),
which ns-3.44's TCP survives only at light load (it aborts on the reordering: NS_ASSERT
"From OPEN->DISORDER but with 4 dup ACKs"). ns-3.44 has no per-flow ECMP hash to compare with
ccsim's `"ecmp"`. Facebook Hadoop flow sizes (HPCC's FbHdp) arrive for
100 ms at a load of the host links, all to all; the run lasts 150 ms so that nearly every flow
completes. ccsim draws the flows and writes them as HPCC's flow file (`ccsim flows`); the ns-3
program (validation/ns3/ns3_fattree.cc, built by build.sh) replays that file, and again with each
flow alone on the empty fabric (`--alone`), which gives ns-3's own slowdown denominators.

Matched settings (validation/ns3/run.py's `matched_settings`, for DCTCP): 1500-byte packets on
the wire, timestamps on (ns-3's 1446 payload bytes + 52 + 2 PPP; ccsim's 1448 + 52), initial
window 10, ns-3's timer (`rto = "ns3"`), limited transmit, the three-way handshake, SACK
recovery as ns-3 (`recovery = "ns3"`, PRR), and every segment acknowledged at once (ns-3's
DelAckCount = 1, ccsim's `delayed_ack = false`): with delayed ACKs ns-3 acknowledged a flow's
lone first segment at once while ccsim waits out the 200 ms timer (docs/validation.md).

Compared: per size bucket (the flows sorted by size, 10 % of them a bucket), the median and
99th-percentile slowdown of each simulator (its FCT over its own alone FCT), and the mean
utilisation of the aggregation-core links over the whole run. Beside each ratio of quantiles, its 95 %
interval under a paired bootstrap of the bucket's flows (the same flows drawn in both): a ratio
whose interval holds 1 differs by which flows fell in the bucket, not by the simulators. The wall time of each
simulator's main run (ccsim's includes its alone runs; ns-3's alone run is not counted).

    python validation/ns3/fattree.py                    # loads 0.1 and 0.2, the markdown table
    python validation/ns3/fattree.py --loads 0.3 --json out.json

`--speed` times the two simulators on one run of the same flows instead (no slowdown
comparison, ns-3 without its alone runs, ccsim with them): `--speed --k 8 --rate 100 --queue
2700 --mark 100 --sizes websearch --loads 0.5 --arrivals-ms 5 --duration-ms 5` is the bench's
fattree-k8-50 (examples/datacenter/fattree-k8-websearch.toml) over its first 5 ms, on one
path per destination in both.

CHOICE: the loads are 10 and 20 % of the host links. With one path per destination every flow
from a pod to the others leaves it on one core link (ccsim's lowest-index tie-break), which
carries 4 hosts x 12/15 of their traffic: 32 and 64 % at these loads, past 95 % at 30 %.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

import ccsim

HERE = Path(__file__).resolve().parent
NS3_SEGMENT = 1446
BUCKETS = 10
#: Paired bootstrap resamples of each bucket's flows, and their generator's seed.
BOOTSTRAP, BOOTSTRAP_SEED = 1000, 1


def quantile(xs: np.ndarray, p: float) -> float:
    """The ``p`` quantile of the sorted ``xs`` as HPCC's fct_analysis.py takes it: the element at
    ``int(len * p)``."""
    return float(xs[min(int(len(xs) * p), len(xs) - 1)])


@dataclass(frozen=True)
class Fabric:
    """The fat-tree, its ports and the workload: the defaults are the k = 4 cross-check's."""

    k: int = 4
    rate_gbps: float = 10
    delay_us: float = 1
    queue: int = 500
    mark: int = 65
    sizes: str = "fb-hadoop"
    arrivals_ms: float = 100
    duration_ms: float = 150


def scenario(load: float, seed: int, routing: str = "single", fabric: Fabric = Fabric()) -> dict[str, Any]:
    """The ccsim side: the fat-tree and the workload, with ns-3's matched TCP settings."""
    options = {"ecn": True, "delayed_ack": False, "initial_window": 10, "rto": "ns3", "limited_transmit": True,
               "handshake": True, "timestamps": True, "recovery": "ns3", "prr": True}
    return {
        "run": {"duration": f"{fabric.duration_ms:g}ms", "seed": seed,
                "multipath": "spray" if routing == "spray" else "none"},
        "topology": {"kind": "fat-tree", "k": fabric.k, "rate": f"{fabric.rate_gbps:g}Gbps",
                     "delay": f"{fabric.delay_us:g}us",
                     "queue": {"kind": "step", "limit": f"{fabric.queue}p", "threshold": fabric.mark}},
        "traffic": [{"name": "dc", "kind": "flows", "hosts": "all", "sizes": fabric.sizes, "load": load,
                     "stop": f"{fabric.arrivals_ms:g}ms", "protocol": "dctcp", "packet_size": "1500B",
                     "options": options}],
        "output": {"series": []},
    }


def links_file(spec: dict[str, Any]) -> str:
    """The fabric for ns3_fattree.cc: the hosts as `hosts = "all"` lists them (single-homed nodes
    in order of first appearance), then `a b core` per link in ccsim's order (core: a link to a
    core switch `c<i>`)."""
    links = ccsim.validate(spec)["links"]
    degree: dict[str, int] = {}
    order: list[str] = []
    for link in links:
        for n in link["between"]:
            degree[n] = degree.get(n, 0) + 1
            if n not in order:
                order.append(n)
    hosts = [n for n in order if degree[n] == 1]
    rows = [" ".join(hosts)]
    for link in links:
        a, b = link["between"]
        core = any(n.startswith("c") and n[1:].isdigit() for n in (a, b))
        rows.append(f"{a} {b} {int(core)}")
    return "\n".join(rows) + "\n"


def run_ns3(binary: Path, flows: Path, links: Path, routing: str, *, alone: bool, seed: int,
            fabric: Fabric = Fabric()) -> dict[str, Any]:
    seconds = fabric.duration_ms / 1000
    args = [str(binary), f"--flows={flows}", f"--links={links}", f"--routing={routing}",
            f"--rate={fabric.rate_gbps}", f"--delay={fabric.delay_us}", f"--Q={fabric.queue}", f"--K={fabric.mark}",
            f"--segSize={NS3_SEGMENT}", f"--T={seconds}", f"--window={seconds}", f"--seed={seed}",
            "--delAckCount=1"]
    if alone:
        args += ["--alone", "--gap=0.02"]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({out.returncode}): {out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def through_ns3(spec: dict[str, Any], seed: int, binary: Path, routing: str, fabric: Fabric, *,
                alone: bool) -> tuple[dict[str, Any], float, dict[str, Any] | None]:
    """ns-3's run of ``spec``'s flows (its flow file and links file written to a temporary
    folder), the whole process's wall time, and with ``alone`` its run of each flow alone."""
    with tempfile.TemporaryDirectory(prefix="ccsim-fattree-") as d:
        flows = Path(d) / "flows.txt"
        flows.write_text(ccsim.flow_file(spec, "dc"))
        links = Path(d) / "links.txt"
        links.write_text(links_file(spec))
        start = time.perf_counter()
        ns3 = run_ns3(binary, flows, links, routing, alone=False, seed=seed, fabric=fabric)
        whole = time.perf_counter() - start
        apart = run_ns3(binary, flows, links, routing, alone=True, seed=seed, fabric=fabric) if alone else None
    return ns3, whole, apart


def compare(load: float, seed: int, binary: Path, routing: str, fabric: Fabric = Fabric()) -> dict[str, Any]:
    spec = scenario(load, seed, routing, fabric)
    ns3, ns3_whole, ns3_alone = through_ns3(spec, seed, binary, routing, fabric, alone=True)
    assert ns3_alone is not None
    start = time.perf_counter()
    result = ccsim.run(spec, progress=False)
    ccsim_whole = time.perf_counter() - start
    df = result.flows()
    df = df[df.generator == "dc"].copy()
    df["k"] = df.index.str.split("/").str[1].astype(int)
    df = df.sort_values("k")
    size = df.size_bytes.to_numpy()
    fct_c = df.completion_time_s.to_numpy() * 1e9
    slow_c = df.slowdown.to_numpy()
    fct_n = np.array(ns3["fct_ns"], dtype=float)
    alone_n = np.array(ns3_alone["fct_ns"], dtype=float)
    both = np.isfinite(fct_c) & np.isfinite(slow_c) & (fct_n >= 0) & (alone_n > 0)
    slow_n = np.where(both, fct_n / np.where(alone_n > 0, alone_n, 1), np.nan)
    order = np.argsort(size[both], kind="stable")
    sz, sc, sn = size[both][order], slow_c[both][order], slow_n[both][order]
    n = len(sz)
    rows = []
    resample = np.random.default_rng(BOOTSTRAP_SEED)
    for i in range(BUCKETS):
        lo, hi = n * i // BUCKETS, n * (i + 1) // BUCKETS
        c, m = np.sort(sc[lo:hi]), np.sort(sn[lo:hi])
        row: dict[str, Any] = {"max_size": int(sz[hi - 1]), "flows": hi - lo}
        # The same flows resampled in both simulators: how far the ratio of the quantiles moves
        # with which flows happen to fall in the bucket.
        picks = resample.integers(0, hi - lo, size=(BOOTSTRAP, hi - lo))
        for q, name in ((0.5, "p50"), (0.99, "p99")):
            row[f"{name}_ccsim"], row[f"{name}_ns3"] = quantile(c, q), quantile(m, q)
            ratios = [quantile(np.sort(sc[lo:hi][k]), q) / quantile(np.sort(sn[lo:hi][k]), q) for k in picks]
            row[f"{name}_ratio_ci"] = [float(np.percentile(ratios, 2.5)), float(np.percentile(ratios, 97.5))]
        rows.append(row)
    links = result.summary["links"]
    core = [row["utilization"] for name, row in links.items() if "->c" in name or name.startswith("c")]
    util_c = float(np.mean(core))
    alone_ratio = alone_n[both] / (fct_c[both] / slow_c[both])
    return {
        "load": load, "seed": seed, "routing": routing, "flows": len(df), "compared": int(n),
        "completed_ccsim": int(np.isfinite(fct_c).sum()), "completed_ns3": int((fct_n >= 0).sum()),
        "alone_ns3_over_ccsim_median": float(np.median(alone_ratio)),
        "core_utilization_ccsim": util_c, "core_utilization_ns3": ns3["core_utilization"],
        "buckets": rows,
        "wall_ccsim_s": ccsim_whole, "wall_ns3_s": ns3["wall_seconds"], "wall_ns3_process_s": ns3_whole,
        "events_ccsim": result.overview["run"]["events"], "events_ns3": ns3["events"],
    }


def speed(load: float, seed: int, binary: Path, routing: str, fabric: Fabric) -> dict[str, Any]:
    """Both simulators' wall time and events on one run of the same flows."""
    spec = scenario(load, seed, routing, fabric)
    ns3, ns3_whole, _ = through_ns3(spec, seed, binary, routing, fabric, alone=False)
    start = time.perf_counter()
    result = ccsim.run(spec, progress=False)
    ccsim_whole = time.perf_counter() - start
    run = result.overview["run"]
    return {"load": load, "seed": seed, "routing": routing, "fabric": asdict(fabric),
            "flows": int(ns3.get("flows", 0)) or len(result.flows()),
            "wall_ccsim_s": ccsim_whole, "wall_ns3_s": ns3["wall_seconds"], "wall_ns3_process_s": ns3_whole,
            "events_ccsim": run["events"], "events_ns3": ns3["events"],
            "ratio": ns3["wall_seconds"] / ccsim_whole}


def markdown(results: list[dict[str, Any]]) -> str:
    lines = []
    for r in results:
        lines.append(f"**Load {r['load']:.0%}**, {r['routing']} routing (seed {r['seed']}): {r['flows']} flows, "
                     f"{r['compared']} completed "
                     f"in both; alone FCT ns-3 / ccsim median {r['alone_ns3_over_ccsim_median']:.3f}; core "
                     f"utilisation ccsim {r['core_utilization_ccsim']:.3f}, ns-3 {r['core_utilization_ns3']:.3f}; "
                     f"wall ccsim {r['wall_ccsim_s']:.2f} s, ns-3 {r['wall_ns3_s']:.2f} s "
                     f"({r['wall_ns3_s'] / r['wall_ccsim_s']:.1f} x).")
        lines.append("")
        lines.append("| sizes up to | flows | p50 ccsim | p50 ns-3 | ratio (95 % bootstrap) | p99 ccsim | p99 ns-3 | "
                     "ratio (95 % bootstrap) |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for b in r["buckets"]:
            cells = [f"{b['max_size']} B", str(b["flows"])]
            for q in ("p50", "p99"):
                lo, hi = b[f"{q}_ratio_ci"]
                cells += [f"{b[f'{q}_ccsim']:.3f}", f"{b[f'{q}_ns3']:.3f}",
                          f"{b[f'{q}_ccsim'] / b[f'{q}_ns3']:.3f} ({lo:.2f}-{hi:.2f})"]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def pooled(results: list[dict[str, Any]]) -> str:
    """Per load, each bucket's ratio of quantiles (ccsim over ns-3) over the seeds: their
    geometric mean and their range; the core links' utilisation ratio likewise."""
    lines = []
    for load in sorted({r["load"] for r in results}):
        runs = [r for r in results if r["load"] == load]
        util = [r["core_utilization_ccsim"] / r["core_utilization_ns3"] for r in runs]
        lines.append(f"**Load {load:.0%}, {len(runs)} seeds** ({', '.join(str(r['seed']) for r in runs)}): "
                     f"core utilisation ccsim / ns-3 {min(util):.4f}-{max(util):.4f}.")
        lines.append("")
        lines.append("| flows by size | p50 ratio, geometric mean | p50 ratio, range | p99 ratio, geometric mean | "
                     "p99 ratio, range |")
        lines.append("|---|---|---|---|---|")
        for i in range(BUCKETS):
            cells = [f"{100 * i // BUCKETS}-{100 * (i + 1) // BUCKETS} %"]
            for q in ("p50", "p99"):
                ratios = [r["buckets"][i][f"{q}_ccsim"] / r["buckets"][i][f"{q}_ns3"] for r in runs]
                cells += [f"{float(np.exp(np.mean(np.log(ratios)))):.3f}", f"{min(ratios):.2f}-{max(ratios):.2f}"]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=float, nargs="+", default=[0.1, 0.2])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1], help="one run per seed and load")
    parser.add_argument("--routing", choices=("single", "spray"), default="single")
    parser.add_argument("--json", type=Path, help="write the results here too")
    parser.add_argument("--speed", action="store_true", help="time one run of each simulator instead")
    defaults = Fabric()
    parser.add_argument("--k", type=int, default=defaults.k)
    parser.add_argument("--rate", type=float, default=defaults.rate_gbps, help="Gbit/s, every link")
    parser.add_argument("--queue", type=int, default=defaults.queue, help="packets, every port")
    parser.add_argument("--mark", type=int, default=defaults.mark, help="DCTCP step threshold, packets")
    parser.add_argument("--sizes", default=defaults.sizes, help="a vendored flow-size distribution")
    parser.add_argument("--arrivals-ms", type=float, default=defaults.arrivals_ms)
    parser.add_argument("--duration-ms", type=float, default=defaults.duration_ms)
    args = parser.parse_args()
    fabric = Fabric(k=args.k, rate_gbps=args.rate, queue=args.queue, mark=args.mark, sizes=args.sizes,
                    arrivals_ms=args.arrivals_ms, duration_ms=args.duration_ms)
    build = subprocess.run([str(HERE / "build.sh"), "ns3_fattree"], capture_output=True, text=True)
    if build.returncode != 0:
        sys.stderr.write(build.stderr)
        return build.returncode
    binary = Path(build.stdout.strip())
    if args.speed:
        results = [speed(load, seed, binary, args.routing, fabric) for seed in args.seeds for load in args.loads]
        print(json.dumps(results, indent=1))
    else:
        results = [compare(load, seed, binary, args.routing, fabric) for seed in args.seeds for load in args.loads]
        print(markdown(results))
        if len(args.seeds) > 1:
            print(pooled(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
