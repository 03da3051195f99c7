"""The retransmission timer keys (`rto`, `clock_granularity`, `tick`, `initial_rto`,
`min_rto`): what each policy promises at a steady RTT, seen in the `rto` and `srtt` series of a
run, and the keys' checks. The arithmetic itself is checked in crates/ccsim-protocols/src/tcp/
rtt/tests.rs against each source, worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

import ccsim
from conftest import small_spec


def steady_flow(**keys: Any) -> dict[str, Any]:
    """One TCP flow on a 200 ms round trip that never queues: a 5-segment window on 10 Mbit/s
    (the BDP is 250 segments), so every RTT sample is the propagation delay plus
    serialisation, the same each round trip."""
    spec = small_spec(duration="60s")
    spec["links"] = [
        {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "queue": "100p"},
        {"between": ["r", "d"], "rate": "10Mbps", "delay": "99ms", "queue": "100p"},
    ]
    spec["flows"][0].update({"max_window": 5, **keys})
    spec["output"] = {"interval": "1s", "series": ["rto", "srtt"]}
    return spec


def margin_at_the_end(**keys: Any) -> tuple[float, float]:
    res = ccsim.run(steady_flow(**keys), progress=False)
    rto, srtt = (res.wide(v)["tcp1"].dropna().iloc[-1] for v in ("rto", "srtt"))
    assert res.summary["flows"]["tcp1"]["timeouts"] == 0
    return float(rto), float(srtt)


@pytest.mark.parametrize(("keys", "margin_s"), [
    ({}, 0.200),                                              # linux, the default: rto_min
    ({"rto": "linux"}, 0.200),
    ({"rto": "ns2"}, 0.030),                                  # 3 ticks of 10 ms
    ({"rto": "ns2", "tick": "100ms"}, 0.300),                 # the 1998 ns-2's ticks
    ({"rto": "rfc6298", "min_rto": "200ms"}, 0.001),          # G = 1 ms
    ({"rto": "ns3", "min_rto": "200ms"}, 0.001),              # G = 1 ms
    ({"rto": "rfc6298", "clock_granularity": "1ns", "min_rto": "200ms"}, 1e-9),  # the old timer
])
def test_each_policy_keeps_its_margin_above_srtt(keys: dict[str, Any], margin_s: float) -> None:
    rto, srtt = margin_at_the_end(**keys)
    assert 0.199 < srtt < 0.3, srtt
    # Linux rounds up to whole milliseconds (401 ms at 200 ms); ns-2's samples are whole
    # ticks, so its SRTT is 200 or 210 ms; the others are exact.
    slack = {"linux": 0.0011, "ns2": 1e-9}.get(keys.get("rto", "linux"), 1e-9)
    assert margin_s - 1e-9 <= rto - srtt <= margin_s + slack, (rto, srtt)


def test_the_minimum_of_rfc6298_and_ns3_is_a_second() -> None:
    for rto in ("rfc6298", "ns3"):
        got, _ = margin_at_the_end(rto=rto)
        assert got == pytest.approx(1.0), rto


def refusal(**keys: Any) -> str:
    spec = small_spec()
    spec["flows"][0].update(keys)
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate(spec)
    return str(e.value)


def test_the_keys_are_checked_with_their_names() -> None:
    assert refusal(rto="bsd").startswith('flows[0].rto: expected one of: linux, rfc6298, ns2, ns3, found "bsd"')
    assert refusal(clock_granularity="1ms") == \
        'flows[0].clock_granularity: applies to rto = "rfc6298" or "ns3", not rto = "linux"'
    assert refusal(rto="rfc6298", tick="10ms") == 'flows[0].tick: applies to rto = "ns2", not rto = "rfc6298"'
    assert refusal(rto="ns2", tick="0s") == 'flows[0].tick: must be positive and at most 60 s, found "0s"'
    assert refusal(initial_rto="2min").startswith("flows[0].initial_rto:")
    spec = small_spec()
    spec["flows"] = [{"name": "u", "protocol": "cbr", "from": "s", "to": "d", "rate": "1Mbps", "rto": "ns2"}]
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.rto"):
        ccsim.validate(spec)
