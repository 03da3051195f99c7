"""Plots of a run: flow rates, congestion windows and queue lengths, drawn with matplotlib.

Up to :data:`MAX_FLOW_LINES` flows get a line each. More flows are drawn as their total
(rate) and the spread over the flows at each instant (median and the 10-90 % band), with the
flows of least and most goodput named and drawn thin; the same figure is drawn from the
aggregate series that runs of many flows record instead of per-flow series.

This module sits below results.py, whose :meth:`ccsim.Result.write` draws these figures: it
names what it reads of a run (:class:`RunView`) instead of importing the class.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from .drawing import InlineDrawer
    from .summary_types import Overview


class RunView(Protocol):
    """What the plots read of a run: the part of :class:`ccsim.Result` they use."""

    @property
    def overview(self) -> Overview: ...

    @property
    def table(self) -> pd.DataFrame: ...

    def flow_columns(self, *columns: str) -> dict[str, list[Any]]: ...

    def series(self, variable: str | None = None) -> pd.DataFrame: ...

    def wide(self, variable: str) -> pd.DataFrame: ...

    def slowdown(self) -> pd.DataFrame: ...

_TITLES = {
    "rate": ("Flow goodput", "Mbit/s", 1e-6),
    "cwnd": ("Congestion window", "kB", 1e-3),
    "queue": ("Queue length", "packets", 1.0),
}

#: CHOICE: above a dozen flows, lines per flow stop being readable; draw the spread instead.
MAX_FLOW_LINES = 12

#: The entities of the aggregate flow series (crates/ccsim-scenario/src/run.rs).
AGGREGATE = {"sum": "flows (sum)", "p10": "flows (p10)", "median": "flows (median)", "p90": "flows (p90)"}


def _busy_links(result: RunView) -> set[str]:
    """Link directions that ever held a queue (others only clutter the plot)."""
    q = result.series("queue")
    busy = q.groupby("entity", observed=True)["value"].max()
    return {str(e) for e, v in busy.items() if v > 0}


def flow_bands(wide: pd.DataFrame, flows: list[str]) -> pd.DataFrame:
    """Per instant over ``flows``' columns of ``wide``: ``sum``, ``p10``, ``median``, ``p90``
    (linear interpolation, as the aggregate series)."""
    import pandas as pd

    wanted = set(flows)  # built once: a membership test per column keeps this linear in the flows
    cols = wide[[c for c in wide.columns if str(c) in wanted]]
    q = cols.quantile([0.1, 0.5, 0.9], axis=1)
    return pd.DataFrame({"sum": cols.sum(axis=1, min_count=1), "p10": q.loc[0.1], "median": q.loc[0.5],
                         "p90": q.loc[0.9]})


def _draw_bands(ax: Any, bands: pd.DataFrame, scale: float, var: str, n: int, unit: str) -> Any:
    """Draw the spread over the flows on ``ax`` and, for rates, their total on a second axis
    (right), so the total does not flatten the band; return that axis or None."""
    total = None
    if var == "rate":
        total = ax.twinx()
        total.plot(bands.index, bands["sum"] * scale, color="black", linewidth=1.2, label=f"all {n} flows (total, right)")
        total.set_ylabel(f"total, {unit}")
        total.set_ylim(bottom=0)
    ax.fill_between(bands.index, bands["p10"] * scale, bands["p90"] * scale, color="tab:blue", alpha=0.25,
                    linewidth=0, label="10-90 % of flows")
    ax.plot(bands.index, bands["median"] * scale, color="tab:blue", linewidth=1.4, label="median flow")
    return total


def plain_log_axes(ax: Any) -> None:
    """Both axes of ``ax`` logarithmic, their major ticks labelled as plain numbers ("1000",
    "0.5") and the minor ones not at all: the runs' plots are drawn with mathtext off (names
    are text), and the log axes' default labels are mathtext."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())


def _plot_slowdown(buckets: pd.DataFrame, out_dir: Path) -> Path:
    """slowdown.png: median and 99th-percentile FCT slowdown against the largest flow size of
    each size bucket, one pair of lines per workload generator (HPCC's and Parsimon's figure)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for name, rows in buckets.groupby("generator", sort=True):
        line = ax.plot(rows["max_size_bytes"], rows["p50"], marker="o", ms=3, label=f"{name} p50")[0]
        ax.plot(rows["max_size_bytes"], rows["p99"], marker="^", ms=3, ls="--", color=line.get_color(),
                label=f"{name} p99")
    plain_log_axes(ax)
    ax.set_xlabel("flow size, bytes (largest of each 5 % bucket of flows by size)")
    ax.set_ylabel("FCT slowdown (FCT / FCT alone)")
    ax.set_title("FCT slowdown by flow size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "slowdown.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_result(result: RunView, out_dir: Path) -> list[Path]:
    """Write one PNG per recorded series among rate, cwnd and queue; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    recorded = set(result.table["variable"].astype(str))
    overview = result.overview["aggregate"]
    flow_cols = result.flow_columns("name", "goodput_bps")
    flows = list(flow_cols["name"])
    extremes = [(label, name) for label, name in (("least", overview["lowest_flow"]), ("most", overview["highest_flow"]))
                if name is not None]
    written: list[Path] = []
    from .drawing import current

    drawer: InlineDrawer | None = current()
    # Names come from the user: "$" in a flow name is text, not matplotlib's maths.
    with plt.rc_context({"text.parse_math": False}):
        for var, (title, unit, scale) in _TITLES.items():
            def one(var: str = var, title: str = title, unit: str = unit, scale: float = scale) -> Path | None:
                return _plot_one(result, out_dir, var, title, unit, scale, recorded, flows, flow_cols, extremes)

            # CHOICE: inside ``ccsim reproduce`` (a figure drawer), each plot is read from the
            # figure cache, keyed by the run and the variable; a miss is drawn here, since the
            # plots belong to Result.write's atomic step (python/ccsim/figcache.py).
            path = one() if drawer is None else drawer.inline(f"{__name__}._plot_one", {"result": result, "var": var},
                                                              out_dir / f"{var}.png", one)
            if path is not None:
                written.append(path)
        slowdown = result.slowdown()
        if len(slowdown):
            written.append(_plot_slowdown(slowdown, out_dir))
        if "seq:change" in recorded:
            if drawer is None:
                written.append(_plot_sequence(result, out_dir))
            else:
                seq = drawer.inline(f"{__name__}._plot_sequence", {"result": result}, out_dir / "seq.png",
                                    lambda: _plot_sequence(result, out_dir))
                if seq is not None:
                    written.append(seq)
    return written


def _plot_sequence(result: RunView, out_dir: Path) -> Path:
    """The sequence-number plot of the ``seq`` trace: one dot per transmitted segment."""
    import matplotlib.pyplot as plt

    rows = result.table[result.table["variable"] == "seq:change"]
    fig, ax = plt.subplots(figsize=(8, 4.5), constrained_layout=True)
    entities = list(rows["entity"].cat.remove_unused_categories().cat.categories)  # one pass over the rows
    for entity in entities[:MAX_FLOW_LINES]:
        mine = rows[rows["entity"] == entity]
        ax.scatter(mine["time"], mine["value"], s=2, label=str(entity))
    if 1 < len(entities) <= MAX_FLOW_LINES:
        ax.legend(fontsize="small", markerscale=4)
    ax.set_title("segments sent")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("segment number")
    ax.grid(True, alpha=0.3)
    path = out_dir / "seq.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _plot_one(result: RunView, out_dir: Path, var: str, title: str, unit: str, scale: float, recorded: set[str],
              flows: list[str], flow_cols: dict[str, Any], extremes: list[tuple[str, Any]]) -> Path | None:
    """The figure of one variable, or None if it was not recorded or has nothing to show."""
    import matplotlib.pyplot as plt
    import pandas as pd

    if var not in recorded:
        return None
    wide = result.wide(var)
    columns = [str(c) for c in wide.columns]
    aggregated = AGGREGATE["median"] in columns
    flow_set = set(flows)
    per_flow = [c for c in columns if c in flow_set]
    if var == "queue":
        keep = _busy_links(result)
        wide = wide[[c for c in wide.columns if str(c) in keep]]
        if wide.empty or len(wide.columns) == 0:
            return None
    fig, ax = plt.subplots(figsize=(8, 4.5), constrained_layout=True)
    if var != "queue" and (aggregated or len(per_flow) > MAX_FLOW_LINES):
        if aggregated:
            bands = pd.DataFrame({k: wide[e] for k, e in AGGREGATE.items()})
        else:
            bands = flow_bands(wide, per_flow)
        total_ax = _draw_bands(ax, bands, scale, var, len(flows), unit)
        for (label, name), color in zip(extremes, ("tab:red", "tab:green")):
            goodput = flow_cols["goodput_bps"][flows.index(name)]
            text = f"{name}: {label} goodput ({goodput / 1e6:.3g} Mbit/s)"
            if name in wide.columns:
                ax.plot(wide.index, wide[name] * scale, color=color, linewidth=0.8, label=text)
            else:
                ax.plot([], [], color=color, linewidth=0, label=text)
        handles, labels = ax.get_legend_handles_labels()
        if total_ax is not None:
            more = total_ax.get_legend_handles_labels()
            handles, labels = more[0] + handles, more[1] + labels
        ax.legend(handles, labels, fontsize="small")
        ax.set_ylabel(f"per flow, {unit}")
    else:
        for col in wide.columns[:20]:
            ax.plot(wide.index, wide[col] * scale, label=str(col), linewidth=1.2,
                    drawstyle="steps-post" if var == "queue" else "default")
        if len(wide.columns) <= MAX_FLOW_LINES:
            ax.legend(fontsize="small", ncol=2)
    ax.set_title(title)
    ax.set_xlabel("time (s)")
    if not ax.get_ylabel():
        ax.set_ylabel(unit)
    ax.grid(True, alpha=0.3)
    path = out_dir / f"{var}.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
