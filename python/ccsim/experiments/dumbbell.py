"""dumbbell-newreno: N NewReno flows over a shared bottleneck.

The reference is closed-form, not a paper: with a buffer of one bandwidth-delay product,
NewReno keeps the bottleneck busy (utilisation near 1), and flows with equal round-trip
times share it equally (Jain's index near 1). Set-up (ours): senders s_i reach router r1
over 100 Mbps / 1 ms links; r1-r2 is the 20 Mbps / 18 ms bottleneck; r2 reaches receivers
d_i over 100 Mbps / 1 ms. Round trip 40 ms, BDP 100 kB = 100 packets of 1000 B. Flows
start 0.1 s apart. Swept over N = 2, 4, 8 (quick: 2 and 4, 40 s instead of 120 s).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..results import Result
from .base import Check, Experiment, ExperimentReport, run_many
from .figures import cached_figure, pyplot, save, time_axis


def dumbbell_spec(n: int, duration: str, warmup: str, seed: int = 1) -> dict[str, Any]:
    links: list[dict[str, Any]] = [{"between": ["r1", "r2"], "rate": "20Mbps", "delay": "18ms", "queue": "100p"}]
    flows = []
    for i in range(n):
        links.append({"between": [f"s{i}", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"})
        links.append({"between": ["r2", f"d{i}"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"})
        flows.append({"name": f"tcp{i}", "protocol": "newreno", "from": f"s{i}", "to": f"d{i}",
                      "start": f"{100 * i}ms"})
    return {
        "run": {"duration": duration, "warmup": warmup, "seed": seed},
        "links": links,
        "flows": flows,
        "output": {"interval": "0.5s", "series": ["rate", "cwnd", "queue"]},
    }


class DumbbellNewReno(Experiment):
    name = "dumbbell-newreno"
    simulator = "ours (closed form)"
    timer = "linux"
    title = "N NewReno flows share a bottleneck fairly and fill it"
    source = "closed form (full utilisation with a 1-BDP buffer; equal shares)"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        ns = [2, 4] if quick else [2, 4, 8]
        duration, warmup = ("40s", "10s") if quick else ("120s", "20s")
        results = run_many([dumbbell_spec(n, duration, warmup) for n in ns], jobs=jobs)
        report = ExperimentReport(self.name)
        jain_low = 0.90 if quick else 0.95
        for n, res in zip(ns, results):
            s = res.summary
            report.checks.append(Check(f"N={n} bottleneck utilisation", s["links"]["r1->r2"]["utilization"],
                                       "1.0 (1-BDP buffer)", 0.95, 1.0, "closed form",
                                       unit="fraction of capacity"))
            report.checks.append(Check(f"N={n} Jain's index", s["fairness"]["jain"] or float("nan"),
                                       "1.0 (equal RTTs)", jain_low, 1.0, "closed form", unit="index"))
            sub = out_dir / f"n{n}"
            res.write(sub, plots=True)
            report.figures.extend(sorted(sub.glob("*.png")))
        report.figures.append(goodput_figure(ns, results, out_dir / "goodput.png"))
        return report


@cached_figure
def goodput_figure(ns: list[int], results: list[Result], path: Path) -> Path:
    """Every flow's goodput over time, one panel per N, with the fair share."""
    plt = pyplot()
    fig, axes = plt.subplots(1, len(ns), figsize=(5 * len(ns), 4), sharey=True, constrained_layout=True)
    for ax, n, res in zip(axes, ns, results):
        wide = res.wide("rate")
        for col in wide.columns:
            ax.plot(wide.index, wide[col] / 1e6, linewidth=1, label=str(col))
        ax.axhline(20 / n, color="black", linestyle="--", linewidth=1, label=f"fair share ({20 / n:g} Mbit/s)")
        ax.set_title(f"N = {n}")
        ax.set_xlabel("time (s)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", ncol=2)
        time_axis(ax, float(wide.index.max()))
    axes[0].set_ylabel("goodput (Mbit/s)")
    return save(fig, path)
