"""L4S end to end: TCP Prague (ECT(1), AccECN, paced) through DualPI2, alone and against
CUBIC, and over queues that do not know L4S (DropTail, a classic ECN RED)."""

from __future__ import annotations

import functools
from typing import Any

import pytest

import ccsim


def pair(first: str, second: str | None, rtt_ms: float, queue: Any = None,
         duration: str = "30s", first_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Two flows (or one) over a 100 Mbit/s bottleneck of base round trip `rtt_ms`
    (1 ms access links each way), measured over the last 20 s."""
    links = [
        {"between": ["s1", "r1"], "rate": "1Gbps", "delay": "1ms"},
        {"between": ["s2", "r1"], "rate": "1Gbps", "delay": "1ms"},
        {"between": ["r1", "r2"], "rate": "100Mbps", "delay": f"{rtt_ms / 2 - 2}ms",
         "queue": queue if queue is not None else {"kind": "dualpi2"}},
        {"between": ["r2", "d"], "rate": "1Gbps", "delay": "1ms"},
    ]
    flows = [{"name": "a", "protocol": first, "from": "s1", "to": "d", "packet_size": "1500B",
              "initial_window": 10, **(first_options or {})}]
    if second:
        flows.append({"name": "b", "protocol": second, "from": "s2", "to": "d",
                      "packet_size": "1500B", "initial_window": 10})
    return {"run": {"duration": duration, "seed": 1, "warmup": "10s"}, "links": links,
            "flows": flows, "output": {"series": []}}


def test_prague_alone_keeps_the_l_queue_near_its_step() -> None:
    # DualPI2's L queue marks above 1 ms of sojourn; a scalable flow holds it there with the
    # link full and no loss (RFC 9332 section 1: L4S queue delay "about 1 ms" at the 99th
    # percentile is the goal; Linux's step_thresh 1 ms).
    s = ccsim.run(pair("prague", None, 20), progress=False).summary
    link = s["links"]["r1->r2"]
    dual = link["dualpi2"]
    assert link["utilization"] > 0.95, link["utilization"]
    assert link["drops"] == 0
    assert dual["c_packets"] == 0 and dual["l_packets"] > 0, "ECT(1) is classified to L"
    assert dual["l_sojourn_mean_s"] < 0.001, dual
    assert dual["l_sojourn_p99_s"] < 0.002, dual
    assert s["flows"]["a"]["retransmitted_packets"] == 0


@functools.cache
def prague_against_cubic(rtt_ms: float) -> dict[str, Any]:
    return ccsim.run(pair("prague", "cubic", rtt_ms), progress=False).summary


@pytest.mark.parametrize("rtt_ms", [
    10,
    pytest.param(20, marks=pytest.mark.xfail(strict=True, reason=(
        "Prague takes 2.26 times CUBIC's rate at 20 ms (seed 1); seeds 1-5 give 1.90-3.63, "
        "mean 2.76 (before the AccECN option made Prague's ACKs 12 bytes longer: 1.67-2.75, "
        "mean 2.31, seed 1 passing at 1.67 by chance). Cause, from the runs: CUBIC's round "
        "trip carries the C queue's ~14 ms of sojourn, Prague's under 1 ms, 35 against 21 ms "
        "at this base RTT, and one 30 s run of two flows varies that much with the seed"))),
    50,
    100,
])
def test_prague_and_cubic_share_dualpi2_within_a_factor_of_two(rtt_ms: float) -> None:
    # RFC 9332 couples the queues with p_C = (p_L / k)^2, k = 2, so that a scalable flow and
    # a Classic flow of the same RTT get roughly equal rates (its appendix: the model gives
    # the L4S flow 1/1.22 of a Reno flow's rate). Measured Prague / CUBIC rate ratios (seed 1):
    # 1.70 at 10 ms, 2.26 at 20, 1.87 at 50, 0.78 at 100 (docs/protocols.md, Prague). The
    # Classic flow also waits in the C queue's 15 ms target, the L flow in well under 1 ms,
    # which lengthens CUBIC's round trip at short RTTs. Tested: within a factor of 2.
    s = prague_against_cubic(rtt_ms)
    a, b = s["flows"]["a"]["goodput_bps"], s["flows"]["b"]["goodput_bps"]
    assert 0.5 <= a / b <= 2.0, (a / b, a, b)


@pytest.mark.parametrize("rtt_ms", [10, 20, 50, 100])
def test_prague_and_cubic_hold_each_dualpi2_queue_at_its_target(rtt_ms: float) -> None:
    # The C queue at its 15 ms target (mean sojourn 14.4, 13.7, 11.4 ms at 10, 20 and 50 ms;
    # 6.4 ms at 100 ms, the single CUBIC flow's window leaving the queue empty after each
    # reduction; p99 17.7-20.6 ms) and the L queue under its 1 ms step (p99 0.23 ms).
    s = prague_against_cubic(rtt_ms)
    dual = s["links"]["r1->r2"]["dualpi2"]
    assert 0.012 <= dual["c_sojourn_p99_s"] <= 0.022, dual
    if rtt_ms <= 50:
        assert 0.008 <= dual["c_sojourn_mean_s"] <= 0.016, dual
    assert dual["l_sojourn_p99_s"] < 0.001, dual
    assert s["links"]["r1->r2"]["utilization"] > 0.95


def test_prague_falls_back_to_halving_on_loss_over_droptail() -> None:
    # Without ECN marks Prague halves on each loss (its enter_loss), as a Reno flow: the link
    # stays full and the buffer is used.
    s = ccsim.run(pair("prague", None, 20, queue="100p"), progress=False).summary
    link = s["links"]["r1->r2"]
    assert link["utilization"] > 0.9, link
    assert link["drops"] > 0 and s["flows"]["a"]["retransmitted_packets"] > 0


def test_classic_ecn_fallback_gives_back_bandwidth_at_a_classic_aqm() -> None:
    # A single RED queue that marks ECT(0) and ECT(1) alike: without the fallback Prague
    # answers each mark with alpha/2 while CUBIC halves, and takes almost everything (17.5
    # times CUBIC's rate at 20 ms); the detector sees the deep, varying queue and the flow
    # then reduces by at least its score (3.6 times). At 50 ms the RED queue stays under the
    # detector's 2 ms depth reference and nothing changes (2.87 both).
    red = {"kind": "red", "limit": "400p", "min_th": 20, "max_th": 60, "ecn": True}

    def ratio(fallback: bool) -> float:
        spec = pair("prague", "cubic", 20, queue=red,
                    first_options={"prague": {"classic_ecn_fallback": fallback}})
        spec["flows"][1]["ecn"] = True
        flows = ccsim.run(spec, progress=False).summary["flows"]
        return float(flows["a"]["goodput_bps"] / flows["b"]["goodput_bps"])

    without, with_fallback = ratio(False), ratio(True)
    assert without > 8, without
    assert with_fallback < without / 2, (without, with_fallback)


def test_prague_is_deterministic() -> None:
    a = ccsim.run(pair("prague", "cubic", 20, duration="12s"), progress=False).summary
    b = ccsim.run(pair("prague", "cubic", 20, duration="12s"), progress=False).summary
    assert a["flows"] == b["flows"] and a["links"] == b["links"]


@pytest.mark.parametrize("protocol,options,path,message", [
    ("prague", {"accecn": False}, "flows[0].accecn", "remove accecn = false"),
    ("prague", {"pacing": True}, "flows[0].pacing", "remove pacing"),
    ("prague", {"hystart": "linux"}, "flows[0].hystart", "remove hystart"),
    ("prague", {"prague": {"rtt_target": "10ms"}}, "flows[0].prague", "rtt_target"),
    ("prague", {"prague": {"classic_ecn_fallback": "yes"}}, "flows[0].prague.classic_ecn_fallback",
     'expected true or false, found "yes"'),
    ("cubic", {"prague": {"rtt_independence": False}}, "flows[0].prague",
     'need protocol = "prague", found "cubic"'),
    ("cubic", {"accecn": 1}, "flows[0].accecn", "expected true or false, found 1"),
    ("cbr", {"rate": "1Mbps", "accecn": True}, "flows[0].accecn", "accecn"),
    ("xcp", {"accecn": True}, "flows[0].accecn", "remove accecn"),
])
def test_bad_l4s_keys_name_their_path(protocol: str, options: dict[str, Any], path: str,
                                      message: str) -> None:
    spec = pair(protocol, None, 20, duration="11s")
    spec["flows"][0].update(options)
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.run(spec, progress=False)
    assert path in str(e.value) and message in str(e.value), str(e.value)


def test_accecn_on_a_classic_flow_reports_the_marks() -> None:
    # AccECN is a feedback option of any TCP flow: DCTCP with AccECN sees the same marks
    # through the ACE count as with its per-segment echo, so the step queue holds the same
    # band (the count is exact for ACKs of up to 7 segments).
    step = {"kind": "step", "limit": "1000p", "threshold": 20}
    plain = ccsim.run(pair("dctcp", None, 20, queue=step), progress=False).summary
    acc = ccsim.run(pair("dctcp", None, 20, queue=step, first_options={"accecn": True}),
                    progress=False).summary
    q_plain = plain["links"]["r1->r2"]["mean_queue_packets"]
    q_acc = acc["links"]["r1->r2"]["mean_queue_packets"]
    assert acc["links"]["r1->r2"]["ecn_marks"] > 0
    assert abs(q_acc - q_plain) < 0.25 * q_plain + 2, (q_plain, q_acc)
