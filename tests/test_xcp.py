"""XCP flows from Python: the `xcp` table's errors name their path, and a run through the XCP
router function fills a link without loss (Katabi et al. 2002, section 4's claims: utilisation
near 1, near-zero drops). The protocol's state machines are tested in
crates/ccsim-protocols/src/xcp/tests.rs, sessions through the engine in
crates/ccsim-scenario/tests/xcp.rs."""

from __future__ import annotations

from typing import Any

import pytest

import ccsim


def spec(**flow: Any) -> dict[str, Any]:
    f = {"name": "x", "protocol": "xcp", "from": "a", "to": "b"}
    f.update(flow)
    return {"run": {"duration": "10s", "seed": 1, "warmup": "2s"},
            "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "10ms", "queue": "100p"}],
            "flows": [f], "output": {"series": []}}


@pytest.mark.parametrize(("flow", "path", "words"), [
    ({"ecn": True}, "flows[0].ecn", "feedback alone"),
    ({"paced_slow_start": True}, "flows[0].paced_slow_start", "feedback alone"),
    ({"xcp": {"desired_rate": "0bps"}}, "flows[0].xcp.desired_rate", "must be positive"),
    ({"xcp": {"recovery": "sack"}}, "flows[0].xcp.recovery", "sack"),
    ({"xcp": {"colour": 1}}, "flows[0].xcp.colour", "known keys: desired_rate, recovery"),
    ({"protocol": "newreno", "xcp": {}}, "flows[0].xcp", "need protocol = \"xcp\""),
    ({"protocol": "tfrc", "xcp": {}}, "flows[0].xcp", "TCP flows"),
])
def test_bad_xcp_keys_name_their_path(flow: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.run(spec(**flow), progress=False)
    assert str(e.value).startswith(path), str(e.value)
    assert words in str(e.value), str(e.value)


def test_a_lone_xcp_flow_fills_the_link_without_loss() -> None:
    s = ccsim.run(spec(), progress=False).summary
    link = s["links"]["a->b"]
    assert link["drops"] == 0
    assert link["utilization"] > 0.95, link
    # Its goodput is the link's payload rate: 10 Mbit/s of 1000 B packets carry 9.6 Mbit/s.
    assert 0.95 * 9.6e6 < s["flows"]["x"]["goodput_bps"] <= 9.6e6


def test_the_ns2_router_settings_are_accepted_and_change_nothing_here() -> None:
    base = ccsim.run(spec(), progress=False).summary["flows"]["x"]["goodput_bps"]
    s = spec()
    s["run"]["xcp_router"] = "ns2.35"
    other = ccsim.run(s, progress=False).summary["flows"]["x"]["goodput_bps"]
    # A 20 ms RTT is far under ns-2.35's 1 s cap; only the queue window differs.
    assert abs(other - base) / base < 0.02
    s["run"]["xcp_router"] = "ns3"
    with pytest.raises(ccsim.SpecError, match=r"^run\.xcp_router"):
        ccsim.run(s, progress=False)


def test_web_transfers_may_run_xcp() -> None:
    s = spec()
    s["flows"] = []
    s["traffic"] = [{"name": "web", "kind": "web", "protocol": "xcp", "from": ["a"], "to": ["b"],
                     "arrivals": 20.0, "mean_size": "20kB"}]
    t = ccsim.run(s, progress=False).summary["traffic"]["web"]
    assert t["completed"] > 100, t


def test_a_link_without_assistance_leaves_the_headers_alone() -> None:
    # a -(100 Mbit/s)- r -(10 Mbit/s)- b. With the router function on the bottleneck, XCP
    # fills it without loss; with it switched off there (partial deployment), only the fast
    # link gives feedback, which keeps granting increases, and the bottleneck's queue overflows.
    def run(assist: bool) -> dict[str, Any]:
        s = spec()
        s["links"] = [{"between": ["a", "r"], "rate": "100Mbps", "delay": "5ms", "queue": "1000p"},
                      {"between": ["r", "b"], "rate": "10Mbps", "delay": "5ms", "queue": "100p",
                       "assist": assist}]
        return ccsim.run(s, progress=False).summary["links"]["r->b"]

    assert run(True)["drops"] == 0
    assert run(False)["drops"] > 0
    with pytest.raises(ccsim.SpecError, match=r"^links\[0\]\.assist"):
        bad = spec()
        bad["links"][0]["assist"] = "no"
        ccsim.run(bad, progress=False)
