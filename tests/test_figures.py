"""Experiment figures and tables say what they claim: a figure's rate axis is in its table's unit,
every reference line is in a legend, a time axis ends where the data ends; every check row has a
unit and a one-sided band prints as one; and sat-slowstart's figure shows the overflow its table
reports (issue 13, section 4)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.projections.polar import PolarAxes

from ccsim.experiments import REGISTRY, Check, ExperimentReport
from ccsim.experiments.figures import RATE_UNITS
from ccsim.experiments.satellite import BDP, BUFFER, RTT

from conftest import quick_experiment_cache

# One experiment for each figure-drawing function (sat-slowstart; the CBRAA rate figure with a
# reference level, and with instants; the TICP throughput with and without the staircase; the
# parking-lot rates; the dumbbell goodput; the pentagons).
# obp-capacity: the OBP sweep figure (a metric against the swept parameter, one line per protocol).
DRAWN = ["sat-slowstart", "cbraa-vs-mathis", "cbraa-arrivals", "ticp-fwd", "ticp-two", "primo-parking",
         "dumbbell-newreno", "primo-bw", "obp-capacity"]
#: Figures whose x axis is a swept parameter on a log scale, not time.
SWEPT = {"obp-capacity"}


@cache
def drawn(name: str, out: str) -> tuple[ExperimentReport, tuple[Figure, ...]]:
    """The quick variant's report and every matplotlib figure it saved, kept for inspection."""
    saved: list[tuple[Figure, Path]] = []
    original = Figure.savefig

    def keep(self: Figure, fname: object, *args: object, **kwargs: object) -> None:
        saved.append((self, Path(str(fname))))
        original(self, fname, *args, **kwargs)

    Figure.savefig = keep  # type: ignore[method-assign]
    try:
        with quick_experiment_cache(cached_figures=False):  # drawn here, where savefig is watched
            report = REGISTRY[name].run(Path(out) / name, quick=True, jobs=2)
    finally:
        Figure.savefig = original  # type: ignore[method-assign]
    # The experiment's own figures; the per-run plots of its sub-folders are ccsim.plots'.
    return report, tuple(fig for fig, path in saved if path.parent == Path(out) / name and path in report.figures)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("figures"))


def cartesian_axes(fig: Figure) -> Iterator[object]:
    return (ax for ax in fig.axes if not isinstance(ax, PolarAxes))


def data_lines(ax: object) -> list[Line2D]:
    """Lines drawn in data coordinates (not axhline / axvline, which span the axes)."""
    return [ln for ln in ax.lines if ln.get_transform() == ax.transData]  # type: ignore[attr-defined]


def legend_texts(fig: Figure) -> set[str]:
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    return {t.get_text() for leg in legends for t in leg.get_texts()}


@pytest.mark.parametrize("name", DRAWN)
def test_reference_lines_are_in_a_legend(name: str, out: str) -> None:
    _, figures = drawn(name, out)
    assert figures
    for fig in figures:
        texts = legend_texts(fig)
        for ax in cartesian_axes(fig):
            references = [ln for ln in ax.lines if ln not in data_lines(ax)]  # type: ignore[attr-defined]
            references += [c for c in ax.collections if isinstance(c, LineCollection)]  # type: ignore[attr-defined]
            for ref in references:
                labels = {ref.get_label()}
                # A labelled staircase of hlines has its label on the first step only.
                if isinstance(ref, LineCollection) and ref.get_label().startswith("_"):
                    labels = {c.get_label() for c in ax.collections if isinstance(c, LineCollection)}  # type: ignore[attr-defined]
                assert labels & texts, f"{name}: a reference line without a legend entry ({ref})"


@pytest.mark.parametrize("name", [n for n in DRAWN if n not in SWEPT])
def test_time_axes_end_where_the_data_ends(name: str, out: str) -> None:
    _, figures = drawn(name, out)
    for fig in figures:
        for ax in cartesian_axes(fig):
            xs = np.concatenate([np.asarray(ln.get_xdata(), dtype=float) for ln in data_lines(ax)])
            lo, hi = ax.get_xlim()  # type: ignore[attr-defined]
            assert hi == pytest.approx(xs.max(), abs=1e-9), f"{name}: axis ends at {hi}, data at {xs.max()}"
            assert lo <= xs.min() and lo >= 0


@pytest.mark.parametrize("name", DRAWN)
def test_figure_and_table_use_one_rate_unit(name: str, out: str) -> None:
    report, figures = drawn(name, out)
    labels = [ax.get_ylabel() for fig in figures for ax in cartesian_axes(fig)]  # type: ignore[attr-defined]
    in_figures = {u for u in RATE_UNITS for label in labels if f"({u})" in label or label.endswith(u)}
    in_table = {c.unit for c in report.checks if c.unit in RATE_UNITS}
    assert len(in_figures | in_table) <= 1, f"{name}: figure in {in_figures}, table in {in_table}"


@pytest.mark.parametrize("name", DRAWN)
def test_every_check_row_carries_its_unit(name: str, out: str) -> None:
    report, _ = drawn(name, out)
    table = report.table_markdown().splitlines()
    assert table[0].split("|")[3].strip() == "unit"
    for c, row in zip(report.checks, table[2:]):
        assert c.unit and row.split("|")[3].strip() == c.unit
        assert "1e-09" not in row and "inf" not in row


def test_a_difference_above_zero_prints_as_such(out: str) -> None:
    report, _ = drawn("primo-bw", out)
    differences = [c for c in report.checks if "difference" in c.name or " - " in c.name]
    assert len(differences) == 3
    for c in differences:
        assert c.band == "> 0" and c.unit == "percentage points"
        assert c.passed == (c.measured > 0)


def test_check_bands_print_as_a_reader_writes_them() -> None:
    assert Check("d", 0.5, "", 0, math.inf, unit="percentage points", open_low=True).band == "> 0"
    assert Check("g", 2, "", 1.2, math.inf, unit="ratio").band == ">= 1.2"
    assert Check("n", 0, "", 0, 0, unit="packets").band == "= 0"
    assert Check("r", 2, "", 1.6, 2.4, unit="Mbit/s").band == "[1.6, 2.4]"
    assert not Check("z", 0.0, "", 0, math.inf, unit="ratio", open_low=True).passed
    assert Check("z", 1e-12, "", 0, math.inf, unit="ratio", open_low=True).passed


def test_a_check_without_a_unit_is_refused() -> None:
    with pytest.raises(ValueError, match="needs a unit"):
        Check("rate", 2.0, "about 2", 1.6, 2.4, "paper")


def test_open_band_ends_are_null_in_table_json(tmp_path: Path) -> None:
    report = ExperimentReport("x", [Check("drops", 3, "> 0", 0, math.inf, "paper", unit="packets", open_low=True)])
    report.write(tmp_path)
    (row,) = json.loads((tmp_path / "table.json").read_text())  # strict JSON: no Infinity
    assert row["high"] is None and row["band"] == "> 0" and row["unit"] == "packets" and row["passed"]


# sat-slowstart: the figure's own data (the lines drawn) against the table.

def sat_lines(out: str) -> tuple[dict[str, float], dict[str, Line2D], dict[str, Line2D], dict[str, Line2D],
                                 object]:
    report, (fig,) = drawn("sat-slowstart", out)
    checks = {c.name: c.measured for c in report.checks}
    cwnd_ax, queue_ax, zoom_ax = fig.axes[0], fig.axes[2], fig.axes[3]
    cwnd = {ln.get_label(): ln for ln in data_lines(cwnd_ax) if ln.get_linestyle() != "None"}
    losses = {ln.get_label().split(":")[0]: ln for ln in data_lines(cwnd_ax) if ln.get_label().endswith("detected")}
    queue = {ln.get_label(): ln for ln in data_lines(queue_ax)}
    return checks, cwnd, losses, queue, zoom_ax


def test_sat_slowstart_figure_shows_the_overflow_the_table_reports(out: str) -> None:
    checks, cwnd, losses, queue, zoom_ax = sat_lines(out)
    drops = {"plain": checks["no change: drops"], "ssthresh-2B": checks["ssthresh = 2B: drops"],
             "ssthresh-bdp": checks["ssthresh = BDP: drops"], "paced": checks["spacing = packet time: drops"],
             "both": checks["both changes: drops"], "paced-default": checks["default spacing (half inter-ACK): drops"]}
    assert set(queue) == set(drops) == set(cwnd)
    for n, line in queue.items():
        t = np.asarray(line.get_xdata(), dtype=float)
        q = np.asarray(line.get_ydata(), dtype=float)
        # Sampled finer than the bottleneck's packet time (4 ms), so no overflow falls between samples.
        assert np.diff(t).max() < 4e-3
        # A drop-tail buffer drops only when full: the figure shows B packets waiting exactly
        # when the table counts drops.
        assert (q.max() >= BUFFER) == (drops[n] > 0), (n, q.max(), drops[n])
        assert (n in losses) == (drops[n] > 0), n
    # The overflow comes first, its detection about a round trip later, and the close-up shows both.
    t = np.asarray(queue["plain"].get_xdata(), dtype=float)
    full = t[np.asarray(queue["plain"].get_ydata(), dtype=float) >= BUFFER][0]
    detected = float(np.asarray(losses["plain"].get_xdata())[0])
    assert 0 < detected - full < 2 * RTT
    assert detected < zoom_ax.get_xlim()[1]  # type: ignore[attr-defined]
    # Early overflow: the window when the loss is detected is below the path's P + B, as the table says.
    at_loss = float(np.asarray(losses["plain"].get_ydata())[0])
    assert at_loss < BDP + BUFFER and checks["no change: window at first loss / (P + B)"] < 1


def test_sat_slowstart_figure_keeps_every_window_readable(out: str) -> None:
    # Before the window grew only while used, the paced flow's cwnd reached about 14 000
    # segments (95 times P + B) and flattened every other curve. Grown only while the flow is
    # cwnd-limited (RFC 7661, Linux tcp_is_cwnd_limited), a window stays within a small
    # multiple of what the path holds, and every curve is readable on one axis.
    _, cwnd, _, _, _ = sat_lines(out)
    for n, line in cwnd.items():
        assert np.max(line.get_ydata()) <= 3 * (BDP + BUFFER), n
