"""Golden summaries: fixed scenarios must give exactly the stored numbers, on every machine.

A change that alters them on purpose regenerates the files with
``CCSIM_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and says why in its commit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import ccsim
from conftest import EXAMPLES

GOLDEN = Path(__file__).parent / "golden"
WALL = {"wall_seconds", "events_per_second", "packets_per_second"}
GOLDEN_KEYS = {"flows", "links", "fairness", "run"}


def stable(summary: dict[str, Any]) -> dict[str, Any]:
    return {**summary, "run": {k: v for k, v in summary["run"].items() if k not in WALL}}


@pytest.mark.parametrize("name", ["dumbbell"])
def test_summary_matches_golden(name: str) -> None:
    res = ccsim.run(EXAMPLES / f"{name}.toml", progress=False)
    got = stable(res.summary)
    path = GOLDEN / f"{name}.summary.json"
    if os.environ.get("CCSIM_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps({k: got[k] for k in GOLDEN_KEYS}, indent=2, sort_keys=True) + "\n")
    expected = json.loads(path.read_text())
    # The golden file holds the per-flow, per-link, fairness and run sections; the aggregate
    # section added later is checked against the per-flow entries it sums.
    assert set(expected) == GOLDEN_KEYS
    assert {k: got[k] for k in GOLDEN_KEYS} == expected
    flows = expected["flows"].values()
    assert got["aggregate"]["goodput_bps"] == pytest.approx(sum(f["goodput_bps"] for f in flows), rel=1e-12)
    assert got["aggregate"]["lost_packets"] == sum(f["lost_packets"] for f in flows)


def test_the_old_timer_and_goodput_are_reachable_bit_for_bit() -> None:
    # dumbbell.ccsim-0.summary.json is the golden summary as it stood before issue 25 made the
    # retransmission timer a choice and goodput in-order delivery: the old timer, named by its
    # keys, gives every number again bit for bit, the old goodput as arrival_bps (and Jain's
    # index over it); only the spec's hash differs, the spec having three keys more.
    from ccsim.experiments.base import TIMERS, with_timer

    spec = with_timer(ccsim.load(EXAMPLES / "dumbbell.toml"), {**TIMERS["ccsim-0"], "recovery": "rfc6675"})
    assert {f.get("rto") for f in spec["flows"] if f["protocol"] != "cbr"} == {"rfc6298"}
    assert {f.get("recovery") for f in spec["flows"] if f["protocol"] != "cbr"} == {"rfc6675"}
    got = stable(ccsim.run(spec, progress=False).summary)
    expected = json.loads((GOLDEN / "dumbbell.ccsim-0.summary.json").read_text())
    got["run"].pop("spec_hash")
    expected["run"].pop("spec_hash")
    for flow in got["flows"].values():
        flow["goodput_bps"] = flow.pop("arrival_bps")
        del flow["held_at_start_bytes"]  # added by issue 40, after this file was written
    arrivals = [f["goodput_bps"] for f in got["flows"].values()]
    got["fairness"]["jain"] = sum(arrivals) ** 2 / (len(arrivals) * sum(x * x for x in arrivals))
    assert got["fairness"]["jain"] == pytest.approx(expected.pop("fairness")["jain"], rel=1e-12)
    assert {k: got[k] for k in GOLDEN_KEYS - {"fairness"}} == expected


def sack20() -> dict[str, Any]:
    """20 SACK flows through a 20 Mbit/s bottleneck with a 30-packet queue: recoveries with
    lost retransmissions and 30 timeouts."""
    links: list[dict[str, Any]] = [{"between": ["r1", "r2"], "rate": "20Mbps", "delay": "20ms", "queue": "30p"}]
    flows = []
    for i in range(20):
        links.append({"between": [f"s{i}", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"})
        links.append({"between": ["r2", f"d{i}"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"})
        flows.append({"name": f"tcp{i}", "protocol": "sack", "from": f"s{i}", "to": f"d{i}", "start": f"{i * 37}ms",
                      "delayed_ack": i % 2 == 0, "initial_window": 10})
    return {"run": {"duration": "6s", "seed": 3, "warmup": "1s"}, "links": links, "flows": flows}


def test_rfc6675_recovery_gives_the_sack_sender_before_issue_25_section_2_bit_for_bit() -> None:
    # sack20.rfc6675.summary.json is the summary of sack20() with the old timer, written by
    # the build before `recovery` existed (its SACK sender, then the only one): with
    # recovery = "rfc6675" every number comes back bit for bit; only the spec's hash differs.
    from ccsim.experiments.base import TIMERS, with_timer

    spec = with_timer(sack20(), {**TIMERS["ccsim-0"], "recovery": "rfc6675"})
    got = stable(ccsim.run(spec, progress=False).summary)
    expected = json.loads((GOLDEN / "sack20.rfc6675.summary.json").read_text())
    got["run"].pop("spec_hash")
    expected["run"].pop("spec_hash")
    for flow in got["flows"].values():
        assert "held_at_start_bytes" not in expected["flows"]  # added by issue 40, after this file
        del flow["held_at_start_bytes"]
    assert sum(f["timeouts"] for f in expected["flows"].values()) == 30
    assert {k: got[k] for k in GOLDEN_KEYS} == expected
    # The default recovery changes the run.
    default = ccsim.run(with_timer(sack20(), TIMERS["ccsim-0"]), progress=False).summary
    assert default["flows"] != got["flows"]
