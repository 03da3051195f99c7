"""Plots of a run: flow rates, congestion windows and queue lengths, drawn with matplotlib."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .results import Result

_TITLES = {
    "rate": ("Flow goodput", "Mbit/s", 1e-6),
    "cwnd": ("Congestion window", "kB", 1e-3),
    "queue": ("Queue length", "packets", 1.0),
}


def _busy_links(result: Result) -> set[str]:
    """Link directions that ever held a queue (others only clutter the plot)."""
    q = result.series("queue")
    busy = q.groupby("entity", observed=True)["value"].max()
    return {str(e) for e, v in busy.items() if v > 0}


def plot_result(result: Result, out_dir: Path) -> list[Path]:
    """Write one PNG per recorded series among rate, cwnd and queue; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    recorded = set(result.table["variable"].astype(str))
    written = []
    for var, (title, unit, scale) in _TITLES.items():
        if var not in recorded:
            continue
        wide = result.wide(var)
        if var == "queue":
            keep = _busy_links(result)
            wide = wide[[c for c in wide.columns if str(c) in keep]]
            if wide.empty or len(wide.columns) == 0:
                continue
        fig, ax = plt.subplots(figsize=(8, 4.5), constrained_layout=True)
        for col in wide.columns[:20]:
            ax.plot(wide.index, wide[col] * scale, label=str(col), linewidth=1.2, drawstyle="steps-post" if var == "queue" else "default")
        ax.set_title(title)
        ax.set_xlabel("time (s)")
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        if len(wide.columns) <= 12:
            ax.legend(fontsize="small", ncol=2)
        path = out_dir / f"{var}.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written
