"""The efficiency criteria of the Primo paper (section IV-C): each definition against
hand-computed numbers, and the Result adapter against an independent recomputation from the
same run's summary and series."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ccsim
from ccsim.metrics import (
    CRITERIA,
    criteria_table_markdown,
    draw_pentagon,
    efficiency_criteria,
    fairness_criterion,
    goodput_criterion,
    mean_criteria,
    occupancy_criterion,
    pentagon,
    queue_pct,
    stability,
)

BOTTLENECK = "R1->R2"


def two_flow_dumbbell(series: list[str] | None = None) -> dict[str, Any]:
    """The paper's Figure 1-top, small: S1, S2 -(10 Mbps)- R1 -(4 Mbps, 30 packets)- R2 - D1, D2."""
    links: list[dict[str, Any]] = [{"between": ["R1", "R2"], "rate": "4Mbps", "delay": "10ms", "queue": "30p"}]
    flows = []
    for i, proto in enumerate(["reno", "vegas"], start=1):
        links.append({"between": [f"S{i}", "R1"], "rate": "10Mbps", "delay": f"{i}ms"})
        links.append({"between": ["R2", f"D{i}"], "rate": "10Mbps", "delay": "1ms"})
        flows.append({"name": f"f{i}", "protocol": proto, "from": f"S{i}", "to": f"D{i}", "packet_size": "1000B",
                      "start": f"{100 * (i - 1)}ms"})
    return {
        "run": {"duration": "12s", "warmup": "2s", "seed": 1},
        "links": links,
        "flows": flows,
        "output": {"interval": "1s", "series": series or ["rate", "sent_rate", "queue"]},
    }


@pytest.fixture(scope="module")
def result() -> ccsim.Result:
    return ccsim.run(two_flow_dumbbell())


# --- definitions against hand-computed values ---------------------------------------------------

def test_stability_of_1_and_3_is_50() -> None:
    assert stability([1.0, 3.0]) == pytest.approx(50.0)  # std 1 (population), mean 2


def test_stability_of_a_constant_series_is_100() -> None:
    assert stability(np.full(7, 2.5e6)) == pytest.approx(100.0)


def test_stability_uses_the_population_std() -> None:
    # [2, 4, 4, 4, 5, 5, 7, 9]: mean 5, population std 2 (the sample std would be 2.14)
    assert stability([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(60.0)


def test_stability_floors_at_zero() -> None:
    assert stability([0.0, 0.0, 0.0, 10.0]) == 0.0  # mean 2.5, std 4.33


def test_stability_of_nothing_is_zero() -> None:
    assert stability([]) == 0.0
    assert stability([0.0, 0.0]) == 0.0


def test_stability_leaves_out_missing_samples() -> None:
    assert stability([1.0, math.nan, 3.0]) == pytest.approx(50.0)


def test_goodput_of_1000_sent_20_lost_is_98() -> None:
    assert goodput_criterion(1000, 20) == pytest.approx(98.0)
    assert goodput_criterion(1000, 0) == 100.0
    assert goodput_criterion(0, 0) == 0.0


def test_goodput_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        goodput_criterion(10, -1)


def test_fairness_of_1_and_3_is_50() -> None:
    assert fairness_criterion([1.0, 3.0]) == pytest.approx(50.0)  # lowest share 0.25 against 0.5


def test_fairness_for_n_flows() -> None:
    assert fairness_criterion([2.0, 2.0, 2.0]) == pytest.approx(100.0)
    assert fairness_criterion([1.0, 2.0, 3.0, 4.0]) == pytest.approx(40.0)  # 0.1 against 0.25
    assert fairness_criterion([5.0]) == pytest.approx(100.0)
    assert fairness_criterion([0.0, 4.0]) == 0.0
    assert fairness_criterion([0.0, 0.0]) == 0.0


def test_fairness_refuses_no_flows_and_negative_throughput() -> None:
    with pytest.raises(ValueError, match="at least one flow"):
        fairness_criterion([])
    with pytest.raises(ValueError, match=">= 0"):
        fairness_criterion([1.0, -1.0])


def test_occupancy_and_queue() -> None:
    assert occupancy_criterion(0.93) == pytest.approx(93.0)
    assert occupancy_criterion(1.0) == 100.0
    with pytest.raises(ValueError):
        occupancy_criterion(math.nan)
    assert queue_pct(7.5, 30) == pytest.approx(25.0)
    assert math.isnan(queue_pct(7.5, None))


def test_criteria_are_the_papers_five_in_order() -> None:
    assert [k for k, _ in CRITERIA] == ["send_stability", "recv_stability", "goodput", "occupancy", "fairness"]
    assert all(label for _, label in CRITERIA)


def test_mean_criteria_leaves_nan_out() -> None:
    rows = [{"goodput": 90.0, "fairness": math.nan, "queue_pct": math.nan},
            {"goodput": 100.0, "fairness": 80.0, "queue_pct": math.nan},
            {"goodput": 95.0, "fairness": 60.0}]
    mean = mean_criteria(rows)
    assert list(mean) == ["goodput", "fairness", "queue_pct"]
    assert mean["goodput"] == pytest.approx(95.0)
    assert mean["fairness"] == pytest.approx(70.0)
    assert math.isnan(mean["queue_pct"])
    assert mean_criteria([]) == {}


def test_table_has_a_row_per_protocol() -> None:
    table = criteria_table_markdown({
        "reno": {"send_stability": 40.0, "recv_stability": 45.0, "goodput": 98.0, "occupancy": 97.0,
                 "fairness": 90.0, "mean_queue": 12.345, "queue_pct": math.nan},
        "vegas": {"send_stability": 90.0, "recv_stability": 88.0, "goodput": 100.0, "occupancy": 95.0,
                  "fairness": 75.0, "mean_queue": 3.0, "queue_pct": 10.0},
    })
    lines = table.strip().splitlines()
    assert len(lines) == 4
    assert all(label in lines[0] for _, label in CRITERIA) and "Mean queue" in lines[0]
    assert lines[2].startswith("| reno | 40.0 | 45.0 | 98.0 | 97.0 | 90.0 | 12.35 | n/a |")
    assert lines[3].endswith("| 3.00 | 10.0 |")


# --- one real run --------------------------------------------------------------------------------

def _window(res: ccsim.Result, variable: str, flow: str, start: float, end: float) -> list[float]:
    tidy = res.series(variable)
    rows = tidy[(tidy["entity"] == flow) & (tidy["time"] > start) & (tidy["time"] <= end)]
    return [float(v) for v in rows["value"]]


def _by_hand(x: list[float]) -> float:
    return max(0.0, 100.0 * (1.0 - statistics.pstdev(x) / statistics.fmean(x)))


def test_efficiency_criteria_match_a_recomputation(result: ccsim.Result) -> None:
    c = efficiency_criteria(result, ["f1", "f2"], BOTTLENECK, buffer_packets=30)
    s = result.summary
    flows = s["flows"]
    assert s["run"]["warmup_seconds"] == 2.0
    send = [_window(result, "sent_rate", f, 2.0, 12.0) for f in ("f1", "f2")]
    recv = [_window(result, "rate", f, 2.0, 12.0) for f in ("f1", "f2")]
    assert [len(x) for x in send + recv] == [10, 10, 10, 10]
    sent = flows["f1"]["sent_packets"] + flows["f2"]["sent_packets"]
    lost = flows["f1"]["lost_packets"] + flows["f2"]["lost_packets"]
    g1, g2 = flows["f1"]["goodput_bps"], flows["f2"]["goodput_bps"]
    link = s["links"][BOTTLENECK]
    expected = {
        "send_stability": (_by_hand(send[0]) + _by_hand(send[1])) / 2,
        "recv_stability": (_by_hand(recv[0]) + _by_hand(recv[1])) / 2,
        "goodput": 100.0 * (1 - lost / sent),
        "occupancy": 100.0 * link["utilization"],
        "fairness": 100.0 * (min(g1, g2) / (g1 + g2)) / 0.5,
        "mean_queue": link["mean_queue_packets"],
        "queue_pct": 100.0 * link["mean_queue_packets"] / 30,
    }
    assert list(c) == list(expected)
    for key, value in expected.items():
        assert c[key] == pytest.approx(value, rel=1e-9), key
    for key, _ in CRITERIA:
        assert 0.0 <= c[key] <= 100.0, key
    assert lost > 0 and c["goodput"] < 100.0  # the run does lose packets, so goodput is exercised
    assert c["occupancy"] > 80.0


def test_the_window_selects_the_samples(result: ccsim.Result) -> None:
    c = efficiency_criteria(result, ["f1"], BOTTLENECK, start=4.0, end=9.0)
    x = _window(result, "sent_rate", "f1", 4.0, 9.0)
    assert len(x) == 5
    assert c["send_stability"] == pytest.approx(_by_hand(x), rel=1e-9)
    assert c["fairness"] == pytest.approx(100.0)  # one flow has the whole of its own share
    assert math.isnan(c["queue_pct"])
    with pytest.raises(ValueError, match="after its start"):
        efficiency_criteria(result, ["f1"], BOTTLENECK, start=9.0, end=4.0)
    with pytest.raises(ValueError, match="no 'sent_rate' sample"):
        efficiency_criteria(result, ["f1"], BOTTLENECK, start=50.0)


def test_pentagon_is_written(result: ccsim.Result, tmp_path: Path) -> None:
    both = efficiency_criteria(result, ["f1", "f2"], BOTTLENECK)
    alone = efficiency_criteria(result, ["f2"], BOTTLENECK)
    path = pentagon({"f1+f2": both, "f2": alone}, tmp_path / "pentagon.png", title="dumbbell")
    assert path == tmp_path / "pentagon.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_several_pentagons_in_one_figure(result: ccsim.Result, tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    c = efficiency_criteria(result, ["f1", "f2"], BOTTLENECK)
    fig, axes = plt.subplots(1, 2, subplot_kw={"projection": "polar"})
    try:
        draw_pentagon(axes[0], {"a": c}, "left")
        draw_pentagon(axes[1], {"b": c}, "right")
        assert axes[0].get_title() == "left" and len(axes[1].patches) == 1
        fig.savefig(tmp_path / "two.png")
        flat = fig.add_subplot(2, 2, 4)
        with pytest.raises(TypeError, match="polar"):
            draw_pentagon(flat, {"a": c})
        with pytest.raises(KeyError, match="fairness"):
            draw_pentagon(axes[0], {"a": {k: v for k, v in c.items() if k != "fairness"}})
    finally:
        plt.close(fig)
    assert (tmp_path / "two.png").stat().st_size > 0


def test_a_missing_series_is_named() -> None:
    res = ccsim.run(two_flow_dumbbell(series=["rate", "queue"]))
    with pytest.raises(KeyError, match="'sent_rate' series"):
        efficiency_criteria(res, ["f1", "f2"], BOTTLENECK)


def test_a_missing_flow_or_link_is_named(result: ccsim.Result) -> None:
    with pytest.raises(KeyError, match="no flow 'f3'"):
        efficiency_criteria(result, ["f1", "f3"], BOTTLENECK)
    with pytest.raises(KeyError, match="no link 'R2->R1x'"):
        efficiency_criteria(result, ["f1"], "R2->R1x")
    with pytest.raises(ValueError, match="at least one flow"):
        efficiency_criteria(result, [], BOTTLENECK)
    with pytest.raises(TypeError, match="list of flow names"):
        efficiency_criteria(result, "f1", BOTTLENECK)
