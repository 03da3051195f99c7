"""The TCP family from Python: every variant runs and is named in the summary, the new flow
keys are validated with their path, and the sat-slowstart experiment passes its checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.experiments import REGISTRY


def dumbbell(protocol: str, **options: Any) -> dict[str, Any]:
    return {
        "run": {"duration": "5s", "seed": 3},
        "links": [
            {"between": ["s", "r1"], "rate": "100Mbps", "delay": "1ms"},
            {"between": ["r1", "r2"], "rate": "10Mbps", "delay": "10ms", "queue": "30p"},
            {"between": ["r2", "d"], "rate": "100Mbps", "delay": "1ms"},
        ],
        "flows": [{"name": "f", "protocol": protocol, "from": "s", "to": "d", **options}],
    }


@pytest.mark.parametrize("protocol", ["tahoe", "reno", "newreno", "sack", "vegas", "cubic", "dctcp", "bbr", "bbr3"])
def test_every_variant_fills_the_bottleneck(protocol: str) -> None:
    res = ccsim.run(dumbbell(protocol))
    assert res.summary["flows"]["f"]["protocol"] == protocol
    assert res.summary["links"]["r1->r2"]["utilization"] > 0.8


def test_vegas_thresholds_must_be_ordered() -> None:
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.vegas\.beta"):
        ccsim.run(dumbbell("vegas", vegas={"alpha": 4, "beta": 2}))


def test_vegas_thresholds_need_vegas() -> None:
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.vegas"):
        ccsim.run(dumbbell("reno", vegas={"alpha": 1}))


@pytest.mark.parametrize("options,path,message", [
    ({"protocol": "reno", "cubic": {"beta": 0.7}}, "flows[0].cubic", 'need protocol = "cubic", found "reno"'),
    ({"cubic": {"beta": 1.0}}, "flows[0].cubic.beta", "must be at least 1/1024 and below 1, found 1"),
    ({"cubic": {"beta": 0}}, "flows[0].cubic.beta", "found 0"),
    ({"cubic": {"c": -0.4}}, "flows[0].cubic.c", "found -0.4"),
    ({"cubic": {"gamma": 1}}, "flows[0].cubic", "gamma"),
    ({"hystart": "bic"}, "flows[0].hystart", 'expected one of: linux, rfc9406, off, found "bic"'),
    ({"growth": "linux"}, "flows[0].growth", 'the Reno family\'s window rule (tahoe, reno, newreno, sack); "cubic"'),
    ({"protocol": "sack", "growth": "abc"}, "flows[0].growth", 'expected one of: rfc5681, linux, found "abc"'),
    ({"protocol": "cbr", "rate": "1Mbps", "growth": "linux"}, "flows[0].growth", "growth"),
    ({"protocol": "xcp", "hystart": "linux"}, "flows[0].hystart", "remove hystart"),
    ({"protocol": "cbr", "rate": "1Mbps", "hystart": "off"}, "flows[0].hystart", "hystart"),
    ({"protocol": "cbr", "rate": "1Mbps", "limited_transmit": True}, "flows[0].limited_transmit", "limited_transmit"),
    ({"limited_transmit": "yes"}, "flows[0].limited_transmit", 'expected true or false, found "yes"'),
    ({"protocol": "newreno", "prr": True}, "flows[0].prr", 'applies to SACK loss recovery (protocol "sack", '
     '"cubic", "dctcp", "bbr", "bbr3" or "prague"), found "newreno"'),
    ({"protocol": "vegas", "rescue_retransmission": False}, "flows[0].rescue_retransmission", 'found "vegas"'),
    ({"prr": 1}, "flows[0].prr", "expected true or false, found 1"),
    ({"protocol": "cbr", "rate": "1Mbps", "prr": True}, "flows[0].prr", "prr"),
    ({"recovery": "bsd"}, "flows[0].recovery", 'expected one of: ns3, rfc6675, linux, ns2, found "bsd"'),
    ({"protocol": "sack", "recovery": "ns2"}, "flows[0].recovery",
     '"ns2" applies to protocol "tahoe", "reno" or "newreno" (ns-2.35\'s Sack1 recovery is not built), found "sack"'),
    ({"protocol": "reno", "rack": True}, "flows[0].rack", 'found "reno"'),
    ({"tlp": True, "rack": False}, "flows[0].tlp", "relies on RACK to detect the loss it reveals (RFC 8985 section 7); set rack = true"),
    ({"recovery": "linux", "rack": False, "tlp": True}, "flows[0].tlp", "set rack = true"),
    ({"rack": "on"}, "flows[0].rack", 'expected true or false, found "on"'),
    ({"protocol": "xcp", "handshake": True}, "flows[0].handshake", "remove handshake"),
    ({"protocol": "cbr", "rate": "1Mbps", "handshake": True}, "flows[0].handshake", "handshake"),
    ({"handshake": "yes"}, "flows[0].handshake", 'expected true or false, found "yes"'),
    ({"protocol": "xcp", "timestamps": True}, "flows[0].timestamps", "remove timestamps"),
    ({"timestamps": True, "packet_size": "52B"}, "flows[0].packet_size",
     'must exceed the 52-byte header and be at most 65535B, found "52B"'),
])
def test_bad_cubic_and_hystart_keys_name_their_path(options: dict[str, Any], path: str, message: str) -> None:
    flow = {"protocol": "cubic", **options}
    spec = dumbbell(flow.pop("protocol"), **flow)
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.run(spec)
    assert path in str(e.value) and message in str(e.value), str(e.value)


def test_bad_step_queues_name_their_path() -> None:
    def refusal(queue: dict[str, Any]) -> str:
        spec = dumbbell("dctcp")
        spec["links"][1]["queue"] = queue
        with pytest.raises(ccsim.SpecError) as e:
            ccsim.run(spec)
        return str(e.value)
    assert "links[1].queue.threshold: is needed" in refusal({"kind": "step", "limit": "100p"})
    assert "must be below the limit (100 packets), found 100" in refusal(
        {"kind": "step", "limit": "100p", "threshold": 100})
    assert "links[1].queue.min_th: is a RED key" in refusal({"kind": "step", "limit": "100p", "threshold": 5,
                                                             "min_th": 5})
    assert "links[1].queue.limit: a step-marking queue counts packets" in refusal(
        {"kind": "step", "limit": "20kB", "threshold": 5})
    assert "links[1].queue.threshold: applies to kind = \"step\" only" in refusal(
        {"kind": "red", "threshold": 5})


def test_dctcp_over_step_marking_is_marked_not_dropped() -> None:
    spec = dumbbell("dctcp")
    spec["links"][1]["queue"] = {"kind": "step", "limit": "100p", "threshold": 10}
    link = ccsim.run(spec).summary["links"]["r1->r2"]
    assert link["ecn_marks"] > 0 and link["drops"] == 0 and link["utilization"] > 0.95, link


def test_tcp_keys_are_refused_on_udp_flows() -> None:
    spec = dumbbell("cbr", rate="1Mbps", ecn=True)
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.ecn"):
        ccsim.run(spec)


def test_a_bad_initial_ssthresh_names_the_key() -> None:
    with pytest.raises(ccsim.SpecError, match=r"initial_ssthresh"):
        ccsim.run(dumbbell("reno", initial_ssthresh="lots"))


def test_pacing_spacing_needs_paced_slow_start() -> None:
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.pacing_spacing"):
        ccsim.run(dumbbell("reno", pacing_spacing="4ms"))


def test_ca_state_trace_records_recovery() -> None:
    spec = dumbbell("sack")
    spec["drops"] = [{"flow": "f", "link": "r1->r2", "seqs": [50, 53]}]
    spec["output"] = {"series": [], "trace": ["ca_state"]}
    res = ccsim.run(spec)
    states = list(res.series("ca_state:change")["value"])
    assert 2.0 in states, states  # fast recovery was entered


def test_sat_slowstart_reproduces(tmp_path: Path) -> None:
    report = REGISTRY["sat-slowstart"].run(tmp_path, quick=True, jobs=2)
    failed = [c for c in report.checks if not c.passed]
    assert not failed, report.table_markdown()
    assert (tmp_path / "sat_slowstart.png").exists()
