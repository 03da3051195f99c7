"""sat-slowstart: early buffer overflow in slow start over a long-delay path, and the two
sender changes of Barakat, Chafer, Dabbous and Altman ("Improving TCP/IP over
geostationary satellite links", second paper of 003_13a89f4b9cbddf14.txt).

Set-up (ours; the seed holds only the paper's introduction): s -(100 Mbps, 1 ms)- r1
-(2 Mbps, 250 ms)- r2 -(100 Mbps, 1 ms)- d, 1000 B packets, one Reno flow, 60 s. The
round trip is 504 ms plus serialisation, so the BDP is P = 127 packets; the bottleneck
buffer is B = 20 packets, well under it.

Closed form behind the checks: in slow start every ACK, arriving at the bottleneck rate,
releases two packets, so the queue grows by one packet per ACK and a round that takes the
window from W/2 to W leaves W/2 queued. The buffer overflows once W exceeds about 2B = 40
packets, long before the window reaches P + B = 147 (early overflow), and TCP takes that
window for the path's capacity. The changes:

* a slow-start threshold at or below 2B ends slow start before the overflow (the
  paper's first change; a threshold of one BDP, as proposed by others, does not help when
  B < P/2, since P > 2B);
* spacing the segments of slow start by at least the bottleneck's packet time (the ACK
  spacing) sends at the bottleneck rate instead of twice it, so no queue builds (the
  second change). The default spacing, half the inter-ACK time, still sends pairs at
  twice the bottleneck rate and does not prevent the overflow.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..results import Result
from ..sweep import run_many
from .base import Check, Experiment, ExperimentReport

BUFFER = 20  # packets
PACKET = 1000  # bytes
MSS = PACKET - 40
RTT = 2 * 0.252 + 2 * PACKET * 8 / 100e6 + PACKET * 8 / 2e6
BDP = 2e6 / (8 * PACKET) * RTT  # packets

CONFIGS: dict[str, dict[str, Any]] = {
    "plain": {},
    "ssthresh-2B": {"initial_ssthresh": f"{2 * BUFFER * PACKET // 1000}kB"},
    "ssthresh-bdp": {"initial_ssthresh": "bdp"},
    "paced": {"paced_slow_start": True, "pacing_spacing": f"{PACKET * 8 / 2e6 * 1e3:g}ms"},
    "paced-default": {"paced_slow_start": True},
    "both": {"initial_ssthresh": f"{2 * BUFFER * PACKET // 1000}kB", "paced_slow_start": True,
             "pacing_spacing": f"{PACKET * 8 / 2e6 * 1e3:g}ms"},
}


def satellite_spec(options: dict[str, Any], duration: str = "60s", seed: int = 1) -> dict[str, Any]:
    return {
        "run": {"duration": duration, "seed": seed},
        "links": [
            {"between": ["s", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
            {"between": ["r1", "r2"], "rate": "2Mbps", "delay": "250ms", "queue": f"{BUFFER}p"},
            {"between": ["r2", "d"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
        ],
        "flows": [{"name": "tcp", "protocol": "reno", "from": "s", "to": "d", **options}],
        "output": {"interval": "0.5s", "series": ["rate", "cwnd", "queue"], "trace": ["ssthresh"]},
    }


def first_loss_window(res: Result) -> float:
    """Segments in flight when the first loss was detected: twice the first ssthresh that
    the sender computed from FlightSize/2 (NaN if it never lost)."""
    rows = res.series("ssthresh:change")
    values = [v for v in rows[rows["entity"] == "tcp"]["value"] if v == v]
    return float("nan") if not values else 2 * float(values[0]) / MSS


class SatSlowStart(Experiment):
    name = "sat-slowstart"
    title = "Early buffer overflow in slow start over a satellite path, and its removal"
    source = "003 (second paper), introduction; closed form of slow-start queue growth"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        names = list(CONFIGS)
        results = run_many([satellite_spec(CONFIGS[n]) for n in names], jobs=jobs)
        by = dict(zip(names, results))
        report = ExperimentReport(self.name)
        flows = {n: r.summary["flows"]["tcp"] for n, r in by.items()}
        drops = {n: r.summary["links"]["r1->r2"]["drops"] for n, r in by.items()}
        plain_goodput = flows["plain"]["goodput_bps"]
        w = first_loss_window(by["plain"])
        report.checks.append(Check("no change: window at first loss / (P + B)", w / (BDP + BUFFER),
                                   "< 1: lost before the path is full (overflow starts near 2B, detected "
                                   "one round later)", 0.0, 0.9, "closed form"))
        report.checks.append(Check("no change: drops", drops["plain"], "> 0", 1, float("inf"), "paper"))
        for n, label in [("ssthresh-2B", "ssthresh = 2B"), ("paced", "spacing = packet time"),
                         ("both", "both changes")]:
            report.checks.append(Check(f"{label}: drops", drops[n], "0", 0, 0, "paper"))
            report.checks.append(Check(f"{label}: goodput / no change", flows[n]["goodput_bps"] / plain_goodput,
                                       "> 1 (higher throughput)", 1.2, float("inf"), "paper"))
        report.checks.append(Check("ssthresh = BDP: drops", drops["ssthresh-bdp"],
                                   "> 0 (P > 2B: the threshold is above the overflow window)", 1, float("inf"),
                                   "closed form"))
        report.checks.append(Check("default spacing (half inter-ACK): drops", drops["paced-default"],
                                   "> 0 (pairs still at twice the bottleneck rate)", 1, float("inf"), "closed form"))
        for n, r in by.items():
            r.write(out_dir / n, plots=False)
        report.figures.append(self._figure(by, out_dir))
        return report

    def _figure(self, by: dict[str, Result], out_dir: Path) -> Path:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True, constrained_layout=True)
        for n, res in by.items():
            cwnd = res.wide("cwnd")["tcp"] / MSS
            top.plot(cwnd.index, cwnd, linewidth=1, label=n)
            queue = res.wide("queue")["r1->r2"]
            bottom.plot(queue.index, queue, linewidth=1, label=n)
        top.axhline(BDP + BUFFER, color="black", linestyle="--", linewidth=1, label="P + B")
        top.axhline(2 * BUFFER, color="grey", linestyle=":", linewidth=1, label="2B")
        top.set_ylabel("cwnd (segments)")
        bottom.axhline(BUFFER, color="black", linestyle="--", linewidth=1, label="buffer")
        bottom.set_ylabel("bottleneck queue (packets)")
        bottom.set_xlabel("time (s)")
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
        top.legend(fontsize="small", ncol=3)
        path = out_dir / "sat_slowstart.png"
        out_dir.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return path


EXPERIMENTS = [SatSlowStart()]
