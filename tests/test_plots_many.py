"""The rate figure of a run with many flows and per-flow series: its lines against closed forms.

Flow ``f<i>`` is CBR at (i + 1) x 8 kbit/s with 1000 B packets on links of 10 Gbit/s, so it
delivers i + 1 packets of 972 B of UDP payload a second (docs/scenarios.md, ``packet_size``):
its goodput is (i + 1) x 7776 bit/s in every interval (with delays of 1 us, the packets sent in
[t - 1 s, t) have arrived by t), and the spread over the flows at every instant is that of
7776 x {1, ..., N}. The time a figure takes is measured by `ccsim bench
plots-20k`, not here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ccsim

N = 1000
PAYLOAD_BITS = (1000 - 28) * 8  # a 1000 B packet carries 972 B of UDP payload


def many_flows(per_flow_series: bool) -> dict[str, Any]:
    s = (ccsim.Scenario(duration="5s", seed=1)
         .link("s", "r1", rate="10Gbps", delay="1us", queue="100000p")
         .link("r1", "r2", rate="10Gbps", delay="1us", queue="100000p")
         .link("r2", "d", rate="10Gbps", delay="1us"))
    for i in range(N):
        s.flow(f"f{i}", "cbr", "s", "d", rate=f"{8 * (i + 1)}kbps")
    return s.output(series=["rate"], per_flow_series=per_flow_series).to_dict()


def rate_figure(spec: dict[str, Any], out: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run ``spec``, write it with its plots and return the rate figure as drawn."""
    import matplotlib.figure

    saved: dict[str, Any] = {}
    original = matplotlib.figure.Figure.savefig

    def keep(fig: Any, path: Any, *args: Any, **kwargs: Any) -> Any:
        saved[Path(path).name] = fig
        return original(fig, path, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", keep)
    written = ccsim.run(spec, progress=False).write(out)
    assert (written / "rate.png").is_file()
    return saved["rate.png"]


def line(ax: Any, label: str) -> Any:
    found = [ln for ln in ax.get_lines() if ln.get_label().startswith(label)]
    assert len(found) == 1, [ln.get_label() for ln in ax.get_lines()]
    return found[0]


@pytest.fixture(scope="module")
def expected() -> dict[str, float]:
    rates = PAYLOAD_BITS * np.arange(1, N + 1, dtype=float)
    p10, median, p90 = np.percentile(rates, [10, 50, 90])  # linear interpolation, numpy's default
    return {"sum": float(rates.sum()), "p10": p10, "median": median, "p90": p90, "least": rates[0],
            "most": rates[-1]}


def test_the_rate_figure_of_many_flows_draws_their_spread_total_and_extremes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expected: dict[str, float]) -> None:
    fig = rate_figure(many_flows(True), tmp_path / "out", monkeypatch)
    ax, total_ax = fig.axes
    times = np.arange(1.0, 6.0)

    total = line(total_ax, f"all {N} flows (total, right)")
    np.testing.assert_allclose(total.get_xdata(), times)
    np.testing.assert_allclose(total.get_ydata(), expected["sum"] / 1e6, rtol=1e-12)

    median = line(ax, "median flow")
    np.testing.assert_allclose(median.get_ydata(), expected["median"] / 1e6, rtol=1e-12)

    # The 10-90 % band: at every instant the polygon spans p10 to p90.
    (band,) = [c for c in ax.collections if c.get_label() == "10-90 % of flows"]
    vertices = band.get_paths()[0].vertices
    for t in times:
        ys = vertices[np.isclose(vertices[:, 0], t)][:, 1]
        assert min(ys) == pytest.approx(expected["p10"] / 1e6, rel=1e-12)
        assert max(ys) == pytest.approx(expected["p90"] / 1e6, rel=1e-12)

    least = line(ax, "f0: least goodput")
    most = line(ax, f"f{N - 1}: most goodput")
    np.testing.assert_allclose(least.get_ydata(), expected["least"] / 1e6, rtol=1e-12)
    np.testing.assert_allclose(most.get_ydata(), expected["most"] / 1e6, rtol=1e-12)
    # Nothing else: no line per flow.
    assert len(ax.get_lines()) == 3 and len(total_ax.get_lines()) == 1


def test_per_flow_series_draw_the_figure_the_engine_aggregates_draw(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bands computed in Python from per-flow series equal the engine's aggregate series
    (crates/ccsim-scenario/src/run.rs) drawn for the same run without them."""
    per_flow = rate_figure(many_flows(True), tmp_path / "per-flow", monkeypatch)
    aggregate = rate_figure(many_flows(False), tmp_path / "aggregate", monkeypatch)
    a, b = line(per_flow.axes[0], "median flow"), line(aggregate.axes[0], "median flow")
    np.testing.assert_allclose(a.get_xydata(), b.get_xydata(), rtol=1e-12)
    total = f"all {N} flows (total, right)"
    np.testing.assert_allclose(line(per_flow.axes[1], total).get_xydata(),
                               line(aggregate.axes[1], total).get_xydata(), rtol=1e-12)
