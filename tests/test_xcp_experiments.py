"""The XCP validation experiments (docs/validation.md (XCP)): the dumbbell builder against closed
forms, the measuring helpers against hand-made series, determinism, and the quick variants
against the XCP paper's bands (strict xfails where they do not reproduce)."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport
from ccsim.experiments import xcp as x
from ccsim.sweep import run_many
from conftest import assert_every_check_listed, judge_check, quick_experiment_cache

EXPERIMENTS = ["xcp-capacity", "xcp-rtt-fairness", "xcp-convergence"]


def _ms(s: str) -> float:
    assert s.endswith("ms"), s
    return float(s[:-2])


def round_trip_ms(spec: dict[str, Any], flow: str) -> float:
    """Twice the one-way propagation delay of ``flow``'s path on the dumbbell."""
    f = next(f for f in spec["flows"] if f["name"] == flow)
    ends = {f["from"], f["to"]}
    one_way = sum(_ms(link["delay"]) for link in spec["links"]
                  if set(link["between"]) & ends or set(link["between"]) == {"r1", "r2"})
    return 2 * one_way


# --- the builder -------------------------------------------------------------------------------


def test_every_flow_of_the_fairness_run_has_its_round_trip() -> None:
    spec = x.fairness_spec(duration=10, warmup=1)
    assert len(spec["flows"]) == 30
    for rtt in x.FAIRNESS_RTTS:
        assert round_trip_ms(spec, f"x{round(rtt * 1e3)}") == pytest.approx(rtt * 1e3)
    # One BDP at the mean RTT (185 ms) of 30 Mbit/s in 1000 B packets.
    assert spec["links"][0]["queue"] == f"{round(30e6 * 0.185 / 8000)}p"


def test_the_capacity_run_has_50_flows_each_way_at_80_ms_and_one_bdp() -> None:
    spec = x.capacity_spec(100e6, duration=10, warmup=1)
    fwd = [f for f in spec["flows"] if f["from"].startswith("s")]
    rev = [f for f in spec["flows"] if f["from"].startswith("d")]
    assert len(fwd) == len(rev) == 50
    assert all(round_trip_ms(spec, f["name"]) == pytest.approx(80.0) for f in spec["flows"])
    assert spec["links"][0] == {"between": ["r1", "r2"], "rate": "100000kbps", "delay": "38ms", "queue": "1000p"}
    starts = [_ms(f["start"]) for f in spec["flows"]]
    assert all(0 <= s < 1000 for s in starts) and len(set(starts)) == 100
    assert x.capacity_spec(100e6, duration=10, warmup=1) == spec  # seeded: the same starts
    assert {_ms(f["start"]) for f in x.capacity_spec(100e6, duration=10, warmup=1, jitter=0)["flows"]} == {0.0}
    assert all(f["protocol"] == "xcp" and f["packet_size"] == "1000B" for f in spec["flows"])


def test_the_specs_validate() -> None:
    for spec in (x.capacity_spec(10e6, duration=5, warmup=1), x.fairness_spec(duration=5, warmup=1),
                 x.convergence_spec(5, duration=10)):
        ccsim.validate(spec)


def test_a_round_trip_shorter_than_the_dumbbell_is_refused() -> None:
    with pytest.raises(ValueError, match="below the dumbbell"):
        x.dumbbell_spec(10e6, [x.XcpFlow("a", 0.010)], bottleneck_delay=0.010, buffer_packets=10, duration=1,
                        warmup=0)


def test_bdp_and_payload_rate() -> None:
    assert x.bdp_packets(4e9, 0.08) == 40_000
    assert x.bdp_packets(1.5e6, 0.08) == 15
    assert x.bdp_packets(1e3, 0.08) == 2
    assert x.payload_rate(45e6) == pytest.approx(43.2e6)


# --- the measuring helpers ---------------------------------------------------------------------


def test_jain_closed_forms() -> None:
    assert x.jain([3.0] * 30) == pytest.approx(1.0)
    assert x.jain([1.0] + [0.0] * 9) == pytest.approx(0.1)  # one flow has everything: 1/n
    assert x.jain([1.0, 2.0]) == pytest.approx(9 / 10)
    assert math.isnan(x.jain([]))


def test_convergence_time_is_the_first_sample_of_the_last_run_in_the_band() -> None:
    t = np.round(np.arange(1, 11) * 0.2, 6)
    # Flow a in band (10 +- 2) from 0.6 s, flow b from 1.0 s except a dip at 1.4 s.
    a = [0, 5, 10, 11, 9, 10, 10, 10, 10, 10]
    b = [0, 0, 3, 6, 9, 10, 7, 10, 11, 10]
    rates = pd.DataFrame({"a": a, "b": b}, index=t)
    assert x.convergence_time(rates, ["a"], 0.0, 2.0, 10.0) == pytest.approx(0.6)
    assert x.convergence_time(rates, ["a", "b"], 0.0, 2.0, 10.0) == pytest.approx(1.6)
    # Measured from the arrival: start 0.4 s, the same first sample at 1.6 s.
    assert x.convergence_time(rates, ["a", "b"], 0.4, 2.0, 10.0) == pytest.approx(1.2)
    # Out of the band at the last sample: never converged.
    assert math.isnan(x.convergence_time(rates.assign(b=[*b[:-1], 0]), ["b"], 0.0, 2.0, 10.0))


def test_link_metrics_of_a_short_run_count_both_directions() -> None:
    spec = x.capacity_spec(10e6, duration=4, warmup=1, flows=5)
    (res,) = run_many([spec], jobs=1)
    m = x.link_metrics(res, 100)
    links = res.summary["links"]
    assert m.utilisation == min(links["r1->r2"]["utilization"], links["r2->r1"]["utilization"])
    assert m.drops == links["r1->r2"]["drops"] + links["r2->r1"]["drops"]
    assert m.queue_pct == pytest.approx((links["r1->r2"]["mean_queue_packets"]
                                         + links["r2->r1"]["mean_queue_packets"]) / 2)
    # Determinism: the same spec gives the same numbers.
    (again,) = run_many([spec], jobs=1)
    assert x.link_metrics(again, 100) == m


# --- the quick experiments against the paper ---------------------------------------------------

REPRODUCED = {
    ("xcp-capacity", "10 Mbit/s: bottleneck utilisation"), ("xcp-capacity", "10 Mbit/s: drop rate"),
    ("xcp-capacity", "100 Mbit/s: bottleneck utilisation"), ("xcp-capacity", "100 Mbit/s: drop rate"),
    ("xcp-capacity", "100 Mbit/s: mean queue"),
    ("xcp-rtt-fairness", "Jain's index"), ("xcp-rtt-fairness", "lowest goodput"),
    ("xcp-rtt-fairness", "bottleneck utilisation"), ("xcp-rtt-fairness", "drop rate"),
    ("xcp-convergence", "arrival of x2"), ("xcp-convergence", "arrival of x3"),
    ("xcp-convergence", "last second (5-6 s): lowest"), ("xcp-convergence", "last second (5-6 s): highest"),
    ("xcp-convergence", "drops at the bottleneck"),
}
NOT_YET = {
    ("xcp-capacity", "10 Mbit/s: mean queue"):
        "38.1 % of the buffer (mean of the two directions; 45 % when this reason was first written): the two-way "
        "traffic. In the same run the forward direction holds 37.7 %, and 2.1 % when the 50 reverse flows are left "
        "out (45 Mbit/s: 24.1 % against 0.5 %; test_stated_causes.py::test_xcp_capacitys_queue_is_the_reverse_flows): "
        "ACKs queued behind the other direction's data come back in bursts, the queue empties "
        "briefly each round trip so the persistent queue (its minimum) stays small, and the efficiency "
        "controller keeps the windows where the mean queue is large (this mechanism is not demonstrated by a test)",
}


@cache
def quick_report(name: str, out: str) -> ExperimentReport:
    with quick_experiment_cache():
        return REGISTRY[name].run(Path(out), quick=True, jobs=2)


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("xcp")


@pytest.mark.parametrize("name,check", sorted(REPRODUCED | set(NOT_YET)))
def test_quick_xcp_experiment_check(name: str, check: str, out_dir: Path) -> None:
    judge_check(quick_report(name, str(out_dir / name)), name, check, NOT_YET)


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_check_is_listed_and_every_figure_written(name: str, out_dir: Path) -> None:
    report = quick_report(name, str(out_dir / name))
    assert_every_check_listed(report, name, REPRODUCED | set(NOT_YET))
    assert all(c.unit for c in report.checks)
    assert report.figures and all(f.stat().st_size > 10_000 for f in report.figures)


def test_the_experiments_are_registered() -> None:
    assert set(EXPERIMENTS) <= set(REGISTRY)
    assert all(REGISTRY[n].title and REGISTRY[n].source for n in EXPERIMENTS)
