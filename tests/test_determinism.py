"""Same spec and seed: bit-identical results. Different seed with random traffic: different."""

from __future__ import annotations

from typing import Any

import pandas as pd

import ccsim


def poisson_spec(seed: int) -> dict[str, Any]:
    return {
        "run": {"duration": "20s", "seed": seed, "warmup": "2s"},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "queue": "100p"},
            {"between": ["r", "d"], "rate": "10Mbps", "delay": "10ms", "queue": "30p", "loss": 0.001},
        ],
        "flows": [
            {"name": "tcp", "protocol": "newreno", "from": "s", "to": "d", "delayed_ack": True},
            {"name": "noise", "protocol": "poisson", "from": "s", "to": "d", "rate": "3Mbps"},
        ],
        "output": {"interval": "0.1s", "series": ["rate", "cwnd", "queue", "srtt"], "trace": ["cwnd"]},
    }


def without_wall(summary: dict[str, Any]) -> dict[str, Any]:
    run = {k: v for k, v in summary["run"].items() if k not in {"wall_seconds", "events_per_second", "packets_per_second"}}
    return {**summary, "run": run}


def test_same_seed_gives_identical_summary_and_series() -> None:
    a = ccsim.run(poisson_spec(7), progress=False)
    b = ccsim.run(poisson_spec(7), progress=False)
    assert without_wall(a.summary) == without_wall(b.summary)
    pd.testing.assert_frame_equal(a.table, b.table, check_exact=True)
    assert len(a.table) > 1000


def test_different_seed_changes_random_traffic() -> None:
    a = ccsim.run(poisson_spec(7), progress=False)
    b = ccsim.run(poisson_spec(8), progress=False)
    ra, rb = a.series("rate"), b.series("rate")
    noise_a = ra[ra["entity"] == "noise"]["value"].to_numpy()
    noise_b = rb[rb["entity"] == "noise"]["value"].to_numpy()
    assert (noise_a != noise_b).any()
    assert a.spec_hash != b.spec_hash


def test_adding_a_flow_does_not_change_another_flows_random_numbers() -> None:
    base: dict[str, Any] = {
        "run": {"duration": "10s", "seed": 3},
        "links": [
            {"between": ["a", "b"], "rate": "100Mbps", "delay": "1ms", "loss": 0.01},
            {"between": ["x", "y"], "rate": "100Mbps", "delay": "1ms", "loss": 0.01},
        ],
        "flows": [{"name": "p", "protocol": "poisson", "from": "a", "to": "b", "rate": "5Mbps"}],
        "output": {"interval": "0.1s", "series": ["rate"]},
    }
    alone = ccsim.run(base, progress=False)
    more = dict(base, flows=[{"name": "other", "protocol": "poisson", "from": "x", "to": "y", "rate": "7Mbps"},
                             *base["flows"]])
    crowded = ccsim.run(more, progress=False)
    pa, pc = alone.summary["flows"]["p"], crowded.summary["flows"]["p"]
    assert (pa["sent_packets"], pa["lost_packets"]) == (pc["sent_packets"], pc["lost_packets"])
    ra = alone.series("rate")
    rc = crowded.series("rate")
    assert list(ra[ra["entity"] == "p"]["value"]) == list(rc[rc["entity"] == "p"]["value"])
