"""A web transfer that meets no other traffic runs as on the empty network (slowdown exactly 1),
for every protocol a web generator can run, router-assisted ones (XCP, OBP) included.

"Meets no other traffic" includes the routers' memory: an XCP or OBP port that has seen no packet
for a whole control interval (or measurement period) is a new port again (ns-2.35's XCP queue
after an interval without traffic), so transfers a second apart on a 100 ms path meet none.
"""
from __future__ import annotations

from typing import Any

import pytest

import ccsim

WEB_PROTOCOLS = ["tahoe", "reno", "newreno", "sack", "vegas", "cubic", "xcp", "obp"]


def web_rows(protocol: str, arrivals: float, seed: int = 3) -> list[dict[str, Any]]:
    res = (ccsim.Scenario(duration="60s", seed=seed)
           .link("s", "r1", rate="100Mbps", delay="1ms")
           .link("r1", "r2", rate="10Mbps", delay="48ms")
           .link("r2", "d", rate="100Mbps", delay="1ms")
           .traffic("web", "web", "s", "d", protocol=protocol, arrivals=arrivals, mean_size="20kB")
           .output(series=[])
           .run(progress=False))
    cols = res.flow_columns()
    keep = [i for i, g in enumerate(cols["generator"]) if g == "web"]
    return [{k: v[i] for k, v in cols.items()} for i in keep]


def quiet_before(rows: list[dict[str, Any]], r: dict[str, Any], gap_s: float) -> bool:
    """No other transfer ran in the `gap_s` before r started nor while it ran."""
    start, end = r["start_s"], r["start_s"] + r["completion_time_s"]
    for o in rows:
        if o is r:
            continue
        o_end = o["start_s"] + (o["completion_time_s"] if o["completion_time_s"] is not None else 1e9)
        if o["start_s"] < end and o_end > start - gap_s:
            return False
    return True


@pytest.mark.parametrize("protocol", WEB_PROTOCOLS)
def test_a_lone_transfer_has_slowdown_exactly_one(protocol: str) -> None:
    rows = [r for r in web_rows(protocol, 0.3) if r["completion_time_s"] is not None]
    # A second of quiet before the start is ten round trips, five XCP control intervals.
    alone = [r for r in rows if quiet_before(rows, r, 1.0)]
    assert len(alone) >= 8, len(alone)
    assert all(r["slowdown"] == 1.0 for r in alone), [(r["start_s"], r["slowdown"]) for r in alone]


@pytest.mark.parametrize("protocol", ["xcp", "obp"])
def test_the_only_transfer_of_a_run_has_slowdown_one(protocol: str) -> None:
    # One transfer in the whole run: with this seed the first arrival comes at 9.83 s and the
    # second at 9.87 s, so a generator stopped at 9.85 s starts exactly one.
    res = (ccsim.Scenario(duration="30s", seed=1)
           .link("s", "r", rate="10Mbps", delay="50ms")
           .traffic("web", "web", "s", "r", protocol=protocol, arrivals=0.1, mean_size="50kB",
                    stop="9.85s")
           .output(series=[])
           .run(progress=False))
    cols = res.flow_columns()
    done = [s for g, s in zip(cols["generator"], cols["slowdown"]) if g == "web" and s is not None]
    assert len(done) == 1 and done[0] == 1.0, done


def test_xcp_transfers_sharing_a_control_interval_may_beat_the_empty_network() -> None:
    # A new XCP port gives no feedback in its first 50 ms (ns-2.35: Cp = 0 until the first
    # Te_timeout); a transfer that starts while another keeps the port warm is spared that, so
    # its slowdown can be below 1. This is the only way below 1: every one of them overlaps
    # another transfer's run or the control interval after it.
    rows = [r for r in web_rows("xcp", 0.5) if r["completion_time_s"] is not None]
    below = [r for r in rows if r["slowdown"] < 1.0]
    assert below, "the run is meant to hold some overlapping transfers"
    assert all(not quiet_before(rows, r, 0.3) for r in below), below
