"""The five efficiency criteria of Chatté, Ducourthial and Niculescu, "A study of a simple
preventive transport protocol" (002_adc93c9d0a027d91.txt), section IV-C, and the pentagon
diagram of section IV-D that shows them together.

Each criterion is a percentage, higher is better: sending-rate stability and reception-rate
stability (100 (1 - std / mean) of a flow's 1 s rate series, at least 0), goodput
(100 (1 - loss rate)), occupancy (100 x bottleneck utilisation, not capped) and fairness (the lowest
flow's share of the total throughput against the fair share 1/n). The mean queue at the
bottleneck is reported beside them. The functions on numbers and arrays are the definitions;
:func:`efficiency_criteria` applies them to a :class:`~ccsim.results.Result`. See
``docs/metrics.md`` for each choice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .errors import NotFoundError, SpecError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .results import Result

#: The five criteria in the order of the paper (and around the pentagon): (key, display label).
CRITERIA: tuple[tuple[str, str], ...] = (
    ("send_stability", "Sending rate stability"),
    ("recv_stability", "Reception rate stability"),
    ("goodput", "Goodput"),
    ("occupancy", "Occupancy"),
    ("fairness", "Fairness"),
)

#: Reported beside the criteria: (key, display label).
QUEUE_METRICS: tuple[tuple[str, str], ...] = (
    ("mean_queue", "Mean queue (packets)"),
    ("queue_pct", "Mean queue (% of buffer)"),
)


def stability(samples: npt.ArrayLike) -> float:
    """100 (1 - std / mean) of a rate series, at least 0; population std (ddof 0).

    Non-finite samples (intervals without a record) are left out. An empty series or one whose
    mean is not positive scores 0.
    """
    x = np.asarray(samples, dtype=float).ravel()
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return 0.0
    mean = float(x.mean())
    if mean <= 0:
        return 0.0
    return max(0.0, 100.0 * (1.0 - float(x.std()) / mean))


def goodput_criterion(sent_packets: float, lost_packets: float) -> float:
    """100 (1 - lost / sent); 0 if nothing was sent.

    CHOICE: not clipped at 0. The window counts a packet by the instant it was sent, on both
    sides (docs/metrics.md), so lost <= sent; more lost than sent is a counting error, shown as
    a negative score rather than hidden, as occupancy above 100 is.
    """
    if sent_packets < 0 or lost_packets < 0:
        raise SpecError(f"packet counts must not be negative (sent {sent_packets}, lost {lost_packets})",
                        "sent_packets" if sent_packets < 0 else "lost_packets")
    if sent_packets == 0:
        return 0.0
    return 100.0 * (1.0 - lost_packets / sent_packets)


def occupancy_criterion(utilization: float) -> float:
    """100 x the bottleneck's utilisation (fraction of its capacity used).

    CHOICE: not capped at 100. A link cannot carry more than its capacity, so a utilisation
    above 1 is a counting error (e.g. a measurement window that counts a packet on one side of
    its edge only), and it is shown as it is, above 100, rather than hidden by a cap; raising
    would stop a whole sweep over a rounding in the last digits.
    """
    if not (utilization >= 0 and math.isfinite(utilization)):
        raise SpecError(f"utilisation must be a finite number >= 0, not {utilization}", "utilization")
    return 100.0 * utilization


def fairness_criterion(throughputs: npt.ArrayLike) -> float:
    """100 x (the lowest flow's share of the total) / (fair share 1/n).

    100 when all flows get the same, 0 when one gets nothing (or none gets anything).
    """
    x = np.asarray(throughputs, dtype=float).ravel()
    if len(x) == 0:
        raise SpecError("fairness needs at least one flow", "throughputs")
    if not np.all(np.isfinite(x)) or np.any(x < 0):
        raise SpecError(f"throughputs must be finite and >= 0, not {x.tolist()}", "throughputs")
    total = float(x.sum())
    if total <= 0:
        return 0.0
    return min(100.0, 100.0 * float(x.min()) / total * len(x))


def queue_pct(mean_queue_packets: float, buffer_packets: float | None) -> float:
    """The mean queue as a percentage of the buffer; NaN if the buffer size is not given."""
    if buffer_packets is None:
        return math.nan
    if not buffer_packets > 0:
        raise SpecError(f"buffer_packets must be > 0, not {buffer_packets}", "buffer_packets")
    return 100.0 * mean_queue_packets / buffer_packets


def _window(result: Result, variable: str, flow: str, start: float, end: float | None) -> np.ndarray:
    """The samples of ``variable`` for ``flow`` with start < time <= end."""
    recorded = {str(v) for v in result.table["variable"].unique()}  # the codes' distinct values, not every row's text
    if variable not in recorded:
        raise NotFoundError(f"the efficiency criteria need the {variable!r} series, which was not recorded "
                            f"(add it to output.series; recorded: {', '.join(sorted(recorded)) or 'none'})",
                            "result")
    wide = result.shared_wide(variable)  # read only
    if flow not in wide.columns:
        raise NotFoundError(f"no {variable!r} series for flow {flow!r}", "flows")
    col = wide[flow]
    times = col.index.to_numpy(dtype=float)
    keep = times > start
    if end is not None:
        keep &= times <= end
    if not keep.any():
        raise SpecError(f"no {variable!r} sample of flow {flow!r} with {start:g} < time <= "
                        f"{'the end' if end is None else f'{end:g}'}", "start")
    return np.asarray(col.to_numpy(dtype=float)[keep])


def efficiency_criteria(result: Result, flows: Sequence[str], bottleneck: str, *, start: float | None = None,
                        end: float | None = None, buffer_packets: float | None = None) -> dict[str, float]:
    """The five criteria of ``flows`` sharing the link direction ``bottleneck`` (e.g. "R1->R2"),
    plus ``mean_queue`` (packets) and ``queue_pct`` (NaN unless ``buffer_packets`` is given).

    The stability criteria use the 1 s ``sent_rate`` and ``rate`` series with
    start < time <= end (default: after the warm-up, to the end) and are the mean over the
    flows; goodput, fairness, occupancy and the queue use the summary (the measurement window).
    """
    if isinstance(flows, str):
        raise SpecError(f"flows must be a list of flow names, not the string {flows!r}", "flows")
    flows = list(flows)
    if not flows:
        raise SpecError("efficiency_criteria needs at least one flow", "flows")
    summary_flows = result.summary["flows"]
    for f in flows:
        if f not in summary_flows:
            raise NotFoundError(f"no flow {f!r} in the result (flows: {', '.join(summary_flows) or 'none'})", "flows")
    links = result.summary["links"]
    if bottleneck not in links:
        raise NotFoundError(f"no link {bottleneck!r} in the result (links: {', '.join(links) or 'none'})",
                            "bottleneck")
    lo = float(result.summary["run"]["warmup_seconds"]) if start is None else float(start)
    if end is not None and end <= lo:
        raise SpecError(f"the window end ({end:g} s) must be after its start ({lo:g} s)", "end")

    send = [stability(_window(result, "sent_rate", f, lo, end)) for f in flows]
    recv = [stability(_window(result, "rate", f, lo, end)) for f in flows]
    sent = sum(float(summary_flows[f]["sent_packets"]) for f in flows)
    lost = sum(float(summary_flows[f]["lost_packets"]) for f in flows)
    link = links[bottleneck]
    mean_queue = float(link["mean_queue_packets"])
    return {
        "send_stability": float(np.mean(send)),
        "recv_stability": float(np.mean(recv)),
        "goodput": goodput_criterion(sent, lost),
        "occupancy": occupancy_criterion(float(link["utilization"])),
        "fairness": fairness_criterion([float(summary_flows[f]["goodput_bps"]) for f in flows]),
        "mean_queue": mean_queue,
        "queue_pct": queue_pct(mean_queue, buffer_packets),
    }


def mean_criteria(rows: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The mean of each key over ``rows`` (e.g. the points of a sweep), leaving NaN out; NaN for a
    key with no number. Keys keep their first-seen order."""
    values: dict[str, list[float]] = {}
    for row in rows:
        for key, v in row.items():
            values.setdefault(key, [])
            if not math.isnan(float(v)):
                values[key].append(float(v))
    return {key: math.fsum(vs) / len(vs) if vs else math.nan for key, vs in values.items()}


def draw_pentagon(ax: Axes, criteria_by_protocol: Mapping[str, Mapping[str, float]], title: str = "") -> None:
    """Draw the pentagon diagram into ``ax`` (an Axes made with ``projection="polar"``): one
    filled polygon per protocol over the five criteria, radius 0..100. NaN is drawn at 0."""
    from matplotlib.projections.polar import PolarAxes

    if not isinstance(ax, PolarAxes):
        raise SpecError('the pentagon needs a polar Axes (made with projection="polar")', "ax")
    keys = [k for k, _ in CRITERIA]
    angles = np.linspace(0.0, 2 * np.pi, len(keys), endpoint=False)
    closed = np.append(angles, angles[0])
    ax.set_theta_offset(np.pi / 2)
    ax.set_theta_direction(-1)
    ax.set_ylim(0, 100)
    ax.set_xticks(angles)
    ax.set_xticklabels([label.replace(" rate ", " rate\n") for _, label in CRITERIA], fontsize="small")
    ax.tick_params(axis="x", pad=10)
    ax.set_yticks([20, 40, 60, 80, 100])
    ax.set_yticklabels(["20", "40", "60", "80", "100"], fontsize="x-small", color="grey")
    ax.set_rlabel_position(0)
    ax.yaxis.grid(False)
    ax.spines["polar"].set_visible(False)
    for r in (20, 40, 60, 80, 100):
        ax.plot(closed, np.full(len(closed), r), color="grey", linewidth=0.5, alpha=0.5)
    for protocol, criteria in criteria_by_protocol.items():
        missing = [k for k in keys if k not in criteria]
        if missing:
            raise NotFoundError(f"protocol {protocol!r} lacks the criteria {', '.join(missing)}",
                                "criteria_by_protocol")
        vals = np.array([float(criteria[k]) for k in keys])
        vals = np.clip(np.nan_to_num(vals, nan=0.0), 0.0, 100.0)
        closed_vals = np.append(vals, vals[0])
        (line,) = ax.plot(closed, closed_vals, linewidth=1.5, label=str(protocol))
        ax.fill(closed, closed_vals, color=line.get_color(), alpha=0.15)
    if title:
        ax.set_title(title, pad=18)
    if criteria_by_protocol:
        ax.legend(loc="upper right", bbox_to_anchor=(1.3, 1.1), fontsize="small")


def pentagon(criteria_by_protocol: Mapping[str, Mapping[str, float]], path: str | Path,
             title: str = "Efficiency criteria") -> Path:
    """Write the pentagon diagram of ``criteria_by_protocol`` (protocol -> criteria, in percent)
    as a PNG at ``path``; return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(path)
    fig = plt.figure(figsize=(6.5, 5.5))
    ax = fig.add_subplot(projection="polar")
    try:
        draw_pentagon(ax, criteria_by_protocol, title)
        fig.savefig(out, dpi=120, bbox_inches="tight")
    finally:
        plt.close(fig)
    return out


def _cell(v: float, fmt: str) -> str:
    return "n/a" if math.isnan(v) else format(v, fmt)


def criteria_table_markdown(criteria_by_protocol: Mapping[str, Mapping[str, float]]) -> str:
    """A markdown table: one row per protocol, the five criteria (%) and the mean queue (packets
    and % of the buffer); "n/a" for NaN or a missing value."""
    cols = [(key, f"{label} (%)", ".1f") for key, label in CRITERIA]
    cols += [(key, label, ".2f" if key == "mean_queue" else ".1f") for key, label in QUEUE_METRICS]
    rows = ["| protocol | " + " | ".join(head for _, head, _ in cols) + " |", "|---" + "|---:" * len(cols) + "|"]
    for protocol, criteria in criteria_by_protocol.items():
        cells = [_cell(float(criteria.get(key, math.nan)), fmt) for key, _, fmt in cols]
        rows.append(f"| {protocol} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"
