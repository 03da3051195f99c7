"""The efficiency criteria of the Primo paper (section IV-C): each definition against
hand-computed numbers, and the Result adapter against closed forms of runs whose every rate is
set by the spec (CBR flows on a dumbbell: constant, switched on mid-window, or offered above the
link's rate), never against the module's own formulas applied to the same numbers."""

from __future__ import annotations

import math
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
CBR_LINK = "r->d"


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


def cbr_dumbbell(flows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """CBR flows of 1000 B packets, each from its own host over 100 Mbit/s, 1 ms, into r
    -(4 Mbit/s, 10 ms, 10 packets)- d; measured over (2 s, 12 s]. A flow starting at 1 ms
    sends at 0.001 + k / (packets per second): at the rates below no packet is sent at a
    sample's edge, and a 50 packet/s flow's packets (at most 17 ms on the way) never cross one."""
    links: list[dict[str, Any]] = [{"between": ["r", "d"], "rate": "4Mbps", "delay": "10ms", "queue": "10p"}]
    specs = []
    for i, (name, keys) in enumerate(flows.items()):
        links.append({"between": [f"s{i}", "r"], "rate": "100Mbps", "delay": "1ms"})
        specs.append({"name": name, "protocol": "cbr", "from": f"s{i}", "to": "d", "packet_size": "1000B",
                      "start": "1ms", **keys})
    return {"run": {"duration": "12s", "warmup": "2s", "seed": 1}, "links": links, "flows": specs,
            "output": {"interval": "1s", "series": ["rate", "sent_rate", "queue"]}}


@pytest.fixture(scope="module")
def result() -> ccsim.Result:
    return ccsim.run(two_flow_dumbbell())


@pytest.fixture(scope="module")
def light() -> ccsim.Result:
    """Below the link's rate, no loss: c1 400 kbit/s (50 packets/s) and c2 1.2 Mbit/s (150/s)
    throughout; c3 400 kbit/s switched on at 5.001 s, so on in 7 of the window's 10 samples."""
    return ccsim.run(cbr_dumbbell({"c1": {"rate": "400kbps"}, "c2": {"rate": "1200kbps"},
                                   "c3": {"rate": "400kbps", "start": "5001ms"}}), progress=False)


@pytest.fixture(scope="module")
def overload() -> ccsim.Result:
    """One CBR flow offering 6 Mbit/s to the 4 Mbit/s link."""
    return ccsim.run(cbr_dumbbell({"o": {"rate": "6Mbps"}}), progress=False)


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


def test_goodput_shows_more_lost_than_sent_instead_of_hiding_it() -> None:
    # Impossible in a window that counts by send instant; a counting error must stay visible.
    assert goodput_criterion(10, 15) == pytest.approx(-50.0)


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
    # Not capped: a utilisation above 1 (a counting error) stays visible.
    assert occupancy_criterion(1.0122) == pytest.approx(101.22)
    assert occupancy_criterion(1.000002) > 100.0
    for bad in (math.nan, math.inf, -0.1):
        with pytest.raises(ValueError):
            occupancy_criterion(bad)
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


# --- runs whose criteria have closed forms ----------------------------------------------------

def on_for(p: float) -> float:
    """The stability of a rate that is r in a fraction p of the samples and 0 in the others:
    mean p r, population std r sqrt(p (1 - p)), so 100 (1 - sqrt((1 - p) / p))."""
    return max(0.0, 100.0 * (1.0 - math.sqrt((1.0 - p) / p)))


def test_constant_flows_are_perfectly_stable_and_their_fairness_is_their_rate_ratio(light: ccsim.Result) -> None:
    c = efficiency_criteria(light, ["c1", "c2"], CBR_LINK, buffer_packets=10)
    assert c["send_stability"] == 100.0  # 50 and 150 packets in every 1 s sample
    # Deliveries shifted by a near-constant delay: a sample may gain or lose a packet at the
    # window's end (a packet on the way), at most one in 50.
    assert c["recv_stability"] >= 99.0
    assert c["goodput"] == 100.0  # nothing offered above the link's rate, nothing lost
    # The lowest flow's share 0.4 / 1.6 against the fair 1/2: 50 (the packets on the way at
    # the window's edges move it by a few in a thousand).
    assert c["fairness"] == pytest.approx(50.0, abs=0.5)
    # Every packet is 1000 B on the wire: the link is busy 0.4 + 1.2 + 0.4 x 0.7 of 4 Mbit/s
    # over the window.
    assert c["occupancy"] == pytest.approx(100 * (0.4 + 1.2 + 0.4 * 0.7) / 4, abs=0.05)
    assert c["queue_pct"] == pytest.approx(100 * c["mean_queue"] / 10)


def test_a_flow_switched_on_mid_window_has_the_on_off_stability(light: ccsim.Result) -> None:
    # c3 is on in 7 of the 10 samples: 100 (1 - sqrt(0.3 / 0.7)) = 34.53 with the population
    # std; the sample std would give 30.99.
    alone = efficiency_criteria(light, ["c3"], CBR_LINK)
    assert alone["send_stability"] == pytest.approx(on_for(0.7), abs=0.01)
    assert alone["recv_stability"] == pytest.approx(on_for(0.7), abs=0.01)
    assert alone["fairness"] == 100.0  # one flow has the whole of its own share
    # With a steady flow: the mean of the two flows' criteria, (100 + 34.53) / 2.
    both = efficiency_criteria(light, ["c1", "c3"], CBR_LINK)
    assert both["send_stability"] == pytest.approx((100 + on_for(0.7)) / 2, abs=0.01)
    # Goodputs over the window 0.4 and 0.4 x 0.7 Mbit/s: 0.28 / 0.68 against 1/2.
    assert both["fairness"] == pytest.approx(100 * (0.28 / 0.68) * 2, abs=0.5)


def test_the_window_selects_the_samples(light: ccsim.Result) -> None:
    # (4, 9]: c3 off in (4, 5], on in the next four samples: p = 0.8, 100 (1 - 0.5) = 50.
    c = efficiency_criteria(light, ["c3"], CBR_LINK, start=4.0, end=9.0)
    assert c["send_stability"] == pytest.approx(on_for(0.8), abs=0.01) and on_for(0.8) == pytest.approx(50.0)
    # From 5 s on it is always on.
    assert efficiency_criteria(light, ["c3"], CBR_LINK, start=5.0)["send_stability"] == 100.0
    assert math.isnan(c["queue_pct"])
    with pytest.raises(ValueError, match="after its start"):
        efficiency_criteria(light, ["c3"], CBR_LINK, start=9.0, end=4.0)
    with pytest.raises(ValueError, match="no 'sent_rate' sample"):
        efficiency_criteria(light, ["c3"], CBR_LINK, start=50.0)


def test_an_overloaded_link_loses_the_excess_and_is_fully_occupied(overload: ccsim.Result) -> None:
    # 6 Mbit/s offered to 4: once the 10-packet queue is full, one packet in three is dropped,
    # so goodput is 100 (1 - 1/3); the link never idles; the queue stays between 9 and 10
    # waiting packets (full, less the one that has just gone into service); the rates are
    # constant, 750 packets/s sent and 500/s delivered.
    c = efficiency_criteria(overload, ["o"], CBR_LINK, buffer_packets=10)
    assert c["goodput"] == pytest.approx(100 * (1 - 1 / 3), abs=0.1)
    assert c["occupancy"] == pytest.approx(100.0, abs=0.05)
    assert 9.0 <= c["mean_queue"] <= 10.0 and 90.0 <= c["queue_pct"] <= 100.0
    assert c["send_stability"] == 100.0 and c["recv_stability"] == 100.0
    for key, _ in CRITERIA:
        assert 0.0 <= c[key] <= 100.0 + 1e-9, key


def test_a_utilisation_above_one_shows_as_an_occupancy_above_100(overload: ccsim.Result,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # A link cannot carry more than its capacity: a utilisation above 1 is a counting error
    # (issue 24 saw 1.0122 for 1 Mbit/s of CBR over 500 kbit/s with a 2.51 s warm-up), and the
    # criterion must show it, not cap it at 100.
    monkeypatch.setitem(overload.summary["links"][CBR_LINK], "utilization", 1.0122)
    assert efficiency_criteria(overload, ["o"], CBR_LINK)["occupancy"] == pytest.approx(101.22)


def test_a_run_with_tcp_flows_keeps_every_criterion_in_range(result: ccsim.Result) -> None:
    # Not a recomputation: what any correct run must satisfy. Reno loses packets at the
    # 30-packet queue, so goodput is exercised below 100; the two TCP flows keep the link busy.
    c = efficiency_criteria(result, ["f1", "f2"], BOTTLENECK, buffer_packets=30)
    assert list(c) == [k for k, _ in CRITERIA] + ["mean_queue", "queue_pct"]
    for key, _ in CRITERIA:
        assert 0.0 <= c[key] <= 100.0, key
    assert result.summary["flows"]["f1"]["lost_packets"] > 0 and c["goodput"] < 100.0
    assert c["occupancy"] > 80.0
    assert 0.0 <= c["mean_queue"] <= 30.0


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
        with pytest.raises(ccsim.SpecError, match="polar"):
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
    with pytest.raises(ccsim.SpecError, match="list of flow names"):
        efficiency_criteria(result, "f1", BOTTLENECK)
