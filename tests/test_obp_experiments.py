"""The OBP experiments (docs/experiments.md, OBP): the dumbbell and parking-lot builders against
closed forms (round trips, buffers, ns-2.35's automatic RED), the measuring helpers against
hand-made numbers, determinism, and the quick variants against the OBP paper's bands (strict
xfails where they do not reproduce)."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport
from ccsim.experiments import obp as o
from ccsim.experiments.base import as_reading
from ccsim.sweep import run_many
from conftest import assert_every_check_listed, judge_check, quick_experiment_cache

EXPERIMENTS = ["obp-capacity", "obp-rtt", "obp-convergence", "obp-jain", "obp-parking-flows", "obp-parking-rtt"]


def _ms(s: str) -> float:
    """A duration as the builders and ccsim.topology write it, in ms."""
    for unit, scale in (("ns", 1e-6), ("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
        if s.endswith(unit):
            return float(s[:-len(unit)]) * scale
    raise AssertionError(s)


def round_trip_ms(spec: dict[str, Any], flow: str) -> float:
    """Twice the propagation delay of ``flow``'s shortest path (by hops; each path here is the
    only one)."""
    f = next(f for f in spec["flows"] if f["name"] == flow)
    g = nx.Graph()
    for link in spec["links"]:
        g.add_edge(*link["between"], delay=_ms(link["delay"]))
    path = nx.shortest_path(g, f["from"], f["to"])
    return 2 * sum(g.edges[a, b]["delay"] for a, b in zip(path, path[1:]))


def bottlenecks_crossed(spec: dict[str, Any], flow: str) -> list[tuple[str, str]]:
    f = next(f for f in spec["flows"] if f["name"] == flow)
    g = nx.Graph([link["between"] for link in spec["links"]])
    path = nx.shortest_path(g, f["from"], f["to"])
    return [(a, b) for a, b in zip(path, path[1:]) if a.startswith("r") and b.startswith("r")]


# --- the builders ------------------------------------------------------------------------------


@pytest.mark.parametrize("rtt", [0.010, 0.100, 1.0])
def test_every_dumbbell_flow_has_the_rtt_and_the_buffer_is_one_bdp(rtt: float) -> None:
    spec = o.dumbbell_spec("xcp", 1e9, rtt, o.RTT_MIX, duration=10, warmup=1)
    fwd = [f for f in spec["flows"] if f["from"] == "s"]
    rev = [f for f in spec["flows"] if f["from"] == "d"]
    assert len(fwd) == len(rev) == 100
    for f in spec["flows"]:
        assert round_trip_ms(spec, f["name"]) == pytest.approx(rtt * 1e3)
        assert f["packet_size"] == "1000B" and f["protocol"] == "xcp" and "ecn" not in f
    bottleneck = spec["links"][1]
    assert bottleneck["between"] == ["r1", "r2"] and bottleneck["rate"] == "1e+06kbps"
    assert bottleneck["queue"] == f"{round(1e9 * rtt / 8000)}p"
    starts = [_ms(f["start"]) for f in spec["flows"]]
    assert all(0 <= s < 1000 for s in starts) and len(set(starts)) == 200
    assert o.dumbbell_spec("xcp", 1e9, rtt, o.RTT_MIX, duration=10, warmup=1) == spec  # seeded


def test_the_paper_traffic_both_ways() -> None:
    spec = o.dumbbell_spec("obp", 1e9, 0.1, o.RTT_MIX, duration=10, warmup=1)
    gens = {g["name"]: g for g in spec["traffic"]}
    assert set(gens) == {"web", "voice-fwd", "voice-rev", "streaming-fwd", "streaming-rev"}
    assert gens["web"]["protocol"] == "obp" and gens["web"]["arrivals"] == 100.0 and "options" not in gens["web"]
    assert gens["web"]["mean_size"] == "30000B" and gens["web"]["packet_size"] == "1000B"
    for kind in ("voice", "streaming"):
        assert gens[f"{kind}-fwd"]["count"] == gens[f"{kind}-rev"]["count"] == 50
        assert (gens[f"{kind}-fwd"]["from"], gens[f"{kind}-rev"]["from"]) == (["s"], ["d"])


def test_reno_and_sack_run_over_ns2_automatic_red_with_ecn() -> None:
    # The paper's baselines: "RED and ECN" with "the settings ... presented in NS2
    # implementations": ns-2.35's RED profile (its automatic thresholds and weight, byte mode,
    # its drop and mark rules: red.rs and tests/test_red_ns2.py check them against red.cc) with
    # ECN, limit one BDP of 1000 B packets in bytes (ns-2.35's byte mode counts bytes: its
    # limit_ is 250 of mean_pktsize_ 500 B); OBP and XCP on DropTail.
    from ccsim.experiments.base import NS2_AGENTS, TIMERS, with_timer
    from ccsim.ns2.translate import translate

    for protocol in ("reno", "sack"):
        spec = o.dumbbell_spec(protocol, 10e6, 0.1, o.CAPACITY_MIX, duration=10, warmup=1)
        assert spec["links"][1]["queue"] == {"kind": "red", "profile": "ns2.35", "limit": "125000B", "ecn": True}
        assert all(f["ecn"] is True for f in spec["flows"])
        assert spec["traffic"][0]["options"] == {"ecn": True}
        ccsim.validate(spec)
        as_run = with_timer(spec, TIMERS["ns-2.35"], NS2_AGENTS["ns-2.35"])
        assert "$q set limit_ 250" in translate(as_run, generated=[]).tcl
    assert o.dumbbell_spec("obp", 10e6, 0.1, o.CAPACITY_MIX, duration=10, warmup=1)["links"][1]["queue"] == "125p"


def test_xcp_runs_as_ns2_35s_xcp() -> None:
    # "The settings of the TCP Reno, SACK and XCP were those recommended by their authors and
    # presented in NS2 implementations": ns-2.35's router and its Reno-based sender, on every
    # FTP flow and web transfer (the xcp-* experiments keep the XCP paper's router).
    spec = o.dumbbell_spec("xcp", 10e6, 0.1, o.CAPACITY_MIX, duration=10, warmup=1)
    assert spec["run"]["xcp_router"] == "ns2.35"
    assert all(f["xcp"] == {"recovery": "reno"} for f in spec["flows"])
    assert spec["traffic"][0]["options"] == {"xcp": {"recovery": "reno"}}
    ccsim.validate(spec)
    assert "xcp_router" not in o.dumbbell_spec("obp", 10e6, 0.1, o.CAPACITY_MIX, duration=10, warmup=1)["run"]


@pytest.mark.parametrize("rtt", [0.010, 0.080, 1.0])
def test_the_parking_lot_long_flows_have_the_rtt_and_cross_flows_one_bottleneck(rtt: float) -> None:
    spec = o.parking_spec("xcp", 1e9, rtt, o.parking_mix(10, quick=False), 5, duration=10, warmup=1)
    names = {tuple(link["between"]) for link in spec["links"]}
    assert {(f"r{i}", f"r{i + 1}") for i in range(1, 8)} <= names
    for f in spec["flows"]:
        if f["name"][0] in "fr":
            assert round_trip_ms(spec, f["name"]) == pytest.approx(rtt * 1e3)
            assert len(bottlenecks_crossed(spec, f["name"])) == 7
        else:
            i = int(f["name"][1:].split("_")[0])
            assert bottlenecks_crossed(spec, f["name"]) == [(f"r{i}", f"r{i + 1}")]
    assert sum(f["name"].startswith("c") for f in spec["flows"]) == 35
    assert sum(f["name"].startswith("r") for f in spec["flows"]) == 100
    hop = next(link for link in spec["links"] if link["between"] == ["r1", "r2"])
    assert _ms(hop["delay"]) == pytest.approx(min(5.0, rtt * 1e3 / 16))
    assert hop["queue"] == f"{round(1e9 * rtt / 8000)}p"
    # Fig. 8: at 80 ms every bottleneck is 5 ms.
    assert o.hop_delay(0.080) == 0.005
    assert set(o.PARKING_LINKS) == {f"r{i}->r{i + 1}" for i in range(1, 8)} | {f"r{i + 1}->r{i}" for i in range(1, 8)}


def one_way_ms(spec: dict[str, Any], flow: str) -> float:
    return round_trip_ms(spec, flow) / 2


@pytest.mark.parametrize("rtt", [0.010, 0.050, 0.080, 0.2])
def test_the_cross_flows_have_their_own_5_ms_and_the_other_reading_only_the_bottlenecks(rtt: float) -> None:
    """"5 cross flows in each bottleneck link with 5 ms of propagation delay" (section IV-B-2):
    registered, each cross flow's one-way propagation delay is at least 5 ms (6 ms where the
    bottleneck alone is 5 ms); under the reading ``bottleneck-delay`` it is its bottleneck's
    RTT / 16 and two 0.5 ms access links. From 80 ms up the two readings build the same spec."""
    mix = o.parking_mix(10, quick=False)
    registered = o.parking_spec("obp", 1e9, rtt, mix, 5, duration=10, warmup=1)
    with as_reading("bottleneck-delay"):
        other = o.parking_spec("obp", 1e9, rtt, mix, 5, duration=10, warmup=1)
    h = min(5.0, rtt * 1e3 / 16)
    for i in range(1, 8):
        assert one_way_ms(registered, f"c{i}_0") == pytest.approx(max(5.0, h + 1.0))
        assert one_way_ms(other, f"c{i}_0") == pytest.approx(h + 1.0)
    for spec in (registered, other):  # the long flows keep the experiment's RTT
        assert round_trip_ms(spec, "f0") == pytest.approx(rtt * 1e3)
    assert (registered == other) == (rtt >= 0.080)
    assert [r.label for r in REGISTRY["obp-parking-rtt"].readings] == ["bottleneck-delay"]


def test_the_web_share_reading_scales_the_web_to_links_below_1_gbps() -> None:
    """obp-capacity's reading ``web-share``: below 1 Gbit/s the web offers 2.4 % of the link (one
    30 kB transfer per second at 10 Mbit/s) instead of 100 per second (24 Mbit/s); from 1 Gbit/s up,
    and in the quick variant, the registered set-up."""
    with as_reading("web-share"):
        scaled = {c: o.capacity_mix(c, quick=False) for c in o.CAPACITIES}
        quick = {c: o.capacity_mix(c, quick=True) for c in o.QUICK_CAPACITIES}
    assert scaled[10e6].web == pytest.approx(1.0) and scaled[100e6].web == pytest.approx(10.0)
    assert scaled[1e9] == scaled[2.488e9] == o.CAPACITY_MIX
    assert all(scaled[c].web * o.WEB_MEAN_BYTES * 8 / c == pytest.approx(o.WEB_SHARE) for c in (10e6, 155e6, 622e6))
    assert quick == {c: o.capacity_mix(c, quick=True) for c in o.QUICK_CAPACITIES}
    assert o.capacity_mix(10e6, quick=False) == o.CAPACITY_MIX  # registered: 100 flows/s everywhere


def test_obp_without_its_fairness_term_fails_the_convergence_band() -> None:
    """obp-convergence's band (Jain at least 0.99 over the paper's 200 s epochs, issue 25) fails
    for OBP whose fairness term is all but off (delta 0.01 in place of 0.9): two flows 100 s
    apart on 100 Mbit/s stay apart, while the paper's delta gives Jain 1.000. A delta of 0.45
    still gave 0.998 here and 0.991-0.9998 over the full experiment's five flows: over 200 s
    epochs the band tells an OBP without the term from one with it, not finer."""
    specs = []
    for delta in (None, 0.01):
        spec = o.convergence_spec("obp", 100e6, 2, 100.0)
        if delta is not None:
            for f in spec["flows"]:
                f["obp"] = {"delta": delta}
        specs.append(spec)
    right, wrong = (o.epoch_jain(r.wide("rate"), 2, 100.0)[0] for r in run_many(specs, jobs=2))
    assert o.convergence_check(100e6, 1, 100.0, right, quick=False).passed, right
    assert not o.convergence_check(100e6, 1, 100.0, wrong, quick=False).passed, wrong
    assert o.convergence_check(100e6, 1, 100.0, 0.97, quick=True).passed  # the quick band stays 0.95


@pytest.mark.parametrize("protocol", o.PROTOCOLS)
def test_the_specs_validate(protocol: str) -> None:
    for spec in (o.dumbbell_spec(protocol, 10e6, 0.1, o.CAPACITY_MIX, duration=5, warmup=1),
                 o.parking_spec(protocol, 20e6, 0.2, o.parking_mix(10, quick=True), 2, duration=5, warmup=1),
                 o.convergence_spec(protocol, 10e6, 3, 10.0)):
        ccsim.validate(spec)


def test_an_rtt_too_short_for_the_dumbbell_is_refused() -> None:
    with pytest.raises(ValueError, match="no delay for the bottleneck"):
        o.dumbbell_spec("xcp", 10e6, 0.004, o.CAPACITY_MIX, duration=1, warmup=0)


def test_quick_web_keeps_the_paper_share_of_the_link() -> None:
    # 100 flows/s of 30 kB on 1 Gbit/s offer 2.4 %; so do 2 flows/s on 20 Mbit/s.
    assert o.WEB_SHARE == pytest.approx(0.024)
    assert o.quick_web(1e9) == pytest.approx(100.0)
    assert o.quick_web(20e6) == pytest.approx(2.0)


# --- the measuring helpers ---------------------------------------------------------------------


def test_jain_closed_forms() -> None:
    assert o.jain([3.0] * 50) == pytest.approx(1.0)
    assert o.jain([1.0] + [0.0] * 9) == pytest.approx(0.1)
    assert o.jain([1.0, 2.0]) == pytest.approx(0.9)
    assert math.isnan(o.jain([]))


def test_epoch_jain_takes_each_epochs_last_half_of_the_active_flows() -> None:
    t = np.round(np.arange(1, 31) * 1.0, 6)  # 1 s samples of a 3-flow, 10 s gap run
    f0 = [10.0] * 10 + [9.0] * 5 + [5.0] * 5 + [99.0] * 5 + [4.0] * 5
    f1 = [0.0] * 10 + [1.0] * 5 + [5.0] * 5 + [99.0] * 5 + [2.0] * 5
    f2 = [0.0] * 20 + [0.0] * 5 + [4.0] * 5
    rates = pd.DataFrame({"f0": f0, "f1": f1, "f2": f2}, index=t)
    # Epoch 1 (2 flows): samples in (15, 20]: 5 and 5, equal. Epoch 2: (25, 30]: 4, 2, 4.
    assert o.epoch_jain(rates, 3, 10.0) == pytest.approx([1.0, 100 / (3 * 36)])


class _Tables:
    """A run's two tables, made by hand."""

    def links(self) -> pd.DataFrame:
        return pd.DataFrame({"utilization": [0.9, 0.5, 0.1], "mean_queue_packets": [10.0, 30.0, 99.0],
                             "drops": [3, 1, 50], "tx_packets": [96, 100, 7]},
                            index=pd.Index(["r1->r2", "r2->r1", "s0->r1"], name="name"))

    def flows(self) -> pd.DataFrame:
        return pd.DataFrame({"goodput_bps": [2.0, 2.0, 0.0, 100.0, 5.0],
                             "generator": ["", "", "", "", "web"]},
                            index=pd.Index(["f0", "f1", "f2", "r0", "f9"], name="name"))


def test_metrics_average_the_bottleneck_directions_and_judge_the_forward_ftp_flows() -> None:
    m = o.metrics(_Tables(), o.DUMBBELL_LINKS, 100)  # type: ignore[arg-type]
    assert m.utilisation == pytest.approx(0.7)  # (0.9 + 0.5) / 2; the access link is not counted
    assert m.queue_pct == pytest.approx(20.0)  # (10 + 30) / 2 of a 100-packet buffer
    assert m.drops == 4 and m.drop_pct == pytest.approx(2.0)  # 4 of 196 sent + 4 dropped
    assert m.jain == pytest.approx(16 / 24)  # f0, f1, f2 = 2, 2, 0: (4)^2 / (3 x 8)


def test_metrics_of_a_run_are_deterministic() -> None:
    spec = o.dumbbell_spec("reno", 10e6, 0.1, o.Mix(4, 4, 1.0, 1, 1), duration=4, warmup=1)
    (res,) = run_many([spec], jobs=1)
    (again,) = run_many([spec], jobs=1)
    assert o.metrics(again, o.DUMBBELL_LINKS, 125) == o.metrics(res, o.DUMBBELL_LINKS, 125)


# --- the quick experiments against the paper ---------------------------------------------------

REPRODUCED = {
    ("obp-capacity", "10 Mbit/s: OBP drops"), ("obp-capacity", "10 Mbit/s: OBP mean queue"),
    ("obp-capacity", "155 Mbit/s: OBP drops"), ("obp-capacity", "155 Mbit/s: OBP mean queue"),
    ("obp-capacity", "155 Mbit/s: Reno (RED, ECN) utilisation"),
    ("obp-capacity", "155 Mbit/s: SACK (RED, ECN) utilisation"),
    ("obp-capacity", "Reno (RED, ECN) drops over the sweep"),
    ("obp-capacity", "SACK (RED, ECN) drops over the sweep"),
    ("obp-rtt", "RTT 20 ms: OBP mean queue"), ("obp-rtt", "RTT 20 ms: OBP drops"),
    ("obp-rtt", "RTT 200 ms: OBP mean queue"), ("obp-rtt", "RTT 200 ms: OBP drops"),
    ("obp-jain", "RTT 200 ms: OBP Jain"), ("obp-jain", "RTT 20 ms: XCP Jain"),
    ("obp-convergence", "10 Mbit/s: OBP Jain's index of the 2 flows"),
    ("obp-convergence", "10 Mbit/s: OBP Jain's index of the 3 flows"),
    ("obp-convergence", "20 Mbit/s: OBP Jain's index of the 2 flows"),
    ("obp-convergence", "20 Mbit/s: OBP Jain's index of the 3 flows"),
    ("obp-parking-flows", "1 flows: OBP utilisation"), ("obp-parking-flows", "1 flows: OBP mean queue"),
    ("obp-parking-flows", "10 flows: OBP utilisation"), ("obp-parking-flows", "10 flows: OBP mean queue"),
    ("obp-parking-rtt", "RTT 20 ms: OBP mean queue"),
    ("obp-parking-rtt", "RTT 20 ms: OBP drops"),
    ("obp-parking-rtt", "RTT 200 ms: OBP mean queue"), ("obp-parking-rtt", "RTT 200 ms: OBP drops"),
    # Fig. 9's own words since issue 41: "not sensitive to RTT variations"; "for high RTTs, OBP has
    # higher bottleneck capacity utilization than XCP".
    ("obp-parking-rtt", "OBP utilisation, highest less lowest"), ("obp-parking-rtt", "highest RTT (200 ms)"),
    # In the band on seed 1 since XCP's flows run ns-2.35's timer instead of one 1 ns above SRTT
    # (issue 25): 20.6 % of the buffer (25.5 % before). The mean over three seeds stays
    # inconclusive (26.8 %).
    ("obp-capacity", "155 Mbit/s: XCP mean queue"),
}
# The cause of OBP's shortfall on one bottleneck, measured with forward OBP flows alone on
# 20 Mbit/s, 10-20 s (20 ms samples of the flows' total sending rate): one flow holds exactly the
# link at 20 and 200 ms (TR clamped at Max.TR); 2 flows 0.972 and 0.937, 10 flows 0.941 and 0.837,
# their total swinging from 0.28 to 1.20 of the link at 200 ms with the queue empty in 38 % of
# the samples; the flows' sending rates correlate (pairwise 0.73 on average, at least 0.61) and
# the total swings with a period of 0.48 s (2.4 round trips). Every flow reads the same AB and multiplies its TR by the same factor, so the
# aggregate overshoots within a round trip and all cut together: a synchronised oscillation whose
# troughs leave the link idle, deeper with more flows and longer RTTs. The traffic mix is not
# the cause: without web, voice, streaming and reverse flows the 200 ms run gives 0.837 too.
# Demonstrated, with these numbers, by tests/test_stated_causes.py (test_one_obp_flow_alone_holds_exactly_the_link,
# test_obp_flows_alone_oscillate_in_lock_step_and_leave_the_link_idle, test_the_oscillation_deepens_with_more_flows_
# and_longer_round_trips, test_the_traffic_mix_is_not_the_cause_of_obps_shortfall: forward 0.837 alone, 0.867 with
# the quick mix).
OSCILLATION = "OBP flows oscillate in lock step (see the comment above NOT_YET; tests/test_stated_causes.py)"
# XCP's queue: the two-way traffic. Without the reverse FTP flows the obp-capacity runs hold
# 4.9 % (10 Mbit/s), 0.5 % (40 Mbit/s) and 0.2 % (155 Mbit/s) forward; with FTP alone both ways
# 39-56 %: the ACKs of each direction queue behind the other's data and come back in bursts
# (docs/validation.md, XCP). Demonstrated by tests/test_stated_causes.py (test_xcps_queue_in_obp_capacity_is_the_
# reverse_ftp_traffic: with the reverse FTP flows 27.4 % and 25.5 % of the buffer, both directions, without them
# 2.5 % and 0.1 %; test_xcps_drops_come_with_the_reverse_ftp_traffic; test_xcp_is_held_below_full_at_200_ms_by_the_
# reverse_ftp_traffic: forward 0.841 with them, 0.971 without).
TWO_WAY_XCP = "the two-way traffic (see the comment above NOT_YET; tests/test_stated_causes.py)"
# OBP's fairness among many flows drifts away: the same forward OBP flows on 100 Mbit/s, Jain's
# index of their goodputs in successive 10 s windows (per-flow series): 50 flows started together
# at 20 ms 0.974, 0.917, 0.845, 0.824, 0.785, 0.740 over 60 s (at 200 ms 0.996 to 0.976); 100
# flows each way at 100 ms 0.672 falling to 0.456 over 80 s (the lowest flow at 0.01 of the mean,
# the highest at 3.3), while 20 flows each way rise to 0.99 within 40 s. With n flows near C / n each,
# expression (3)'s fairness fraction delta EP / sqrt(EP^2 + (Max.TR / 2)^2) is about 2 delta / n
# (0.036 at n = 50) and the multiplicative increase and decrease keep the flows' ratios: MIMD with
# a fairness term too weak at many flows to pull them together, faster at short RTTs (more steps).
# Demonstrated by tests/test_stated_causes.py (test_obp_fairness_among_fifty_flows_drifts_away_with_time,
# test_the_drift_needs_many_flows_and_is_slower_at_long_round_trips); measured again there: 50 flows at 20 ms 0.977,
# 0.910, 0.844, 0.791, 0.773, 0.745; at 200 ms 0.999 to 0.959; 20 flows at 20 ms at least 0.996 throughout.
DRIFT = "OBP's fairness drifts with many flows (see the comment above NOT_YET; tests/test_stated_causes.py)"
NOT_YET = {
    # With ns-2.35's RED (profile "ns2.35", issue 25) in place of packet-mode RED with the same
    # automatic thresholds: the profile is the only difference, and with the old one the same
    # run gave -0.064 (in band).
    ("obp-jain", "SACK (RED, ECN): Jain"):
        "-0.010 (band at most -0.05): SACK over ns-2.35's RED shares about as fairly at 200 ms as at 20 ms; "
        "over packet-mode RED with the same thresholds the same run gave -0.064",
    # Since Reno runs ns-2.35's agents (issue 39: limited transmit, `bug_fix_` recovery, ns-2's
    # ssthresh; checked against ns-2.35 in validation/ns2): the same run with the agents of
    # before gave -0.052 (in band).
    ("obp-jain", "Reno (RED, ECN): Jain"):
        "-0.009 (band at most -0.05): with ns-2.35's agents Reno over ns-2.35's RED shares about as fairly at "
        "200 ms as at 20 ms, as SACK does; with the agents of before the same run gave -0.052",
    ("obp-jain", "RTT 20 ms: OBP Jain"): f"0.917 for 50 flows (10-20 s): {DRIFT}",
    # Fig. 4's words since issue 41 ("OBP and XCP achieve similar results"): OBP within 0.05 of XCP.
    ("obp-capacity", "10 Mbit/s: OBP less XCP"): f"-0.082 (OBP 0.888, XCP 0.969): {OSCILLATION}",
    ("obp-capacity", "155 Mbit/s: OBP less XCP"): f"-0.104 (OBP 0.863, XCP 0.967): {OSCILLATION}",
    ("obp-capacity", "10 Mbit/s: XCP mean queue"): f"27.4 % of the buffer: {TWO_WAY_XCP}",
    ("obp-capacity", "XCP drops over the sweep"):
        "0: ccsim's XCP on ns-2.35's router drops nothing at 10, 40, 100 and 155 Mbit/s with this traffic; "
        "on the XCP paper's router with NewReno recovery (the arm before 2026-11-28) the 40 Mbit/s set-up drops "
        "237, all in the two-way ACK bursts (none without the reverse FTP flows; "
        "test_stated_causes.py::test_xcps_drops_in_obp_capacity_need_the_xcp_papers_router). The paper's XCP dropped "
        "at 100 Mb/s and below; ns-2.35's Queue/XCP, which queues UDP apart from XCP, cannot run this traffic "
        "through the translation",
    ("obp-rtt", "RTT 20 ms: OBP utilisation"): f"0.947: {OSCILLATION}",
    ("obp-rtt", "RTT 200 ms: OBP utilisation"): f"0.867: {OSCILLATION}",
    # A knife edge on seed 1: at 200 ms XCP's utilisation (held down by the two-way traffic) falls
    # to OBP's (held down by the oscillation). The difference was +5e-6 (in band) until a FIFO
    # link's transmission end became an event only while packets wait (issue 43), which reorders
    # equal-time events; -0.004 before issue 25. Seeds 2 and 3 give -0.123 and -0.020.
    ("obp-rtt", "highest RTT (200 ms): OBP utilisation less XCP's"):
        f"-0.00015 (band above 0), OBP 0.867 and XCP 0.867 on seed 1: {OSCILLATION}; {TWO_WAY_XCP}",
    ("obp-rtt", "OBP utilisation, highest less lowest"): f"0.079: {OSCILLATION}, deeper at 200 ms than at 20 ms",
}

#: Reported without a band since issue 41: Fig. 4 and Fig. 9 say "high utilization" and give no
#: number (the 0.95 and 0.9 these checks took before were Fig. 5's and Fig. 8's).
UNBANDED = {(name, f"{x}: {who} utilisation") for name, xs, whos in (
    ("obp-capacity", ("10 Mbit/s", "155 Mbit/s"), ("OBP", "XCP")), ("obp-parking-rtt", ("RTT 20 ms", "RTT 200 ms"), ("OBP",)))
    for x in xs for who in whos}


def test_the_fig_4_and_fig_9_bands_tell_a_lagging_obp_from_one_like_xcp() -> None:
    """The bands written from Fig. 4's and Fig. 9's sentences (issue 41) catch an OBP that lags
    XCP or loses utilisation at long round trips, and pass one that matches XCP."""
    like = o.Metrics(utilisation=0.96, queue_pct=5.0, drop_pct=0.0, drops=0, jain=0.99)
    xcp = o.Metrics(utilisation=0.97, queue_pct=10.0, drop_pct=0.0, drops=0, jain=0.99)
    lagging = o.Metrics(utilisation=0.86, queue_pct=5.0, drop_pct=0.0, drops=0, jain=0.99)
    assert o.capacity_utilisation_checks("x", "w", like, xcp)[0].passed
    assert not o.capacity_utilisation_checks("x", "w", lagging, xcp)[0].passed
    assert all(not c.banded for c in o.capacity_utilisation_checks("x", "w", lagging, xcp)[1:])
    for obp_long, ok in ((like, True), (lagging, False)):
        sweep = o.Sweep("RTT", [0.01, 1.0], {(0.01, "obp"): like, (0.01, "xcp"): xcp, (1.0, "obp"): obp_long,
                                             (1.0, "xcp"): o.Metrics(0.90, 5.0, 0.0, 0, 0.99)})
        report = ExperimentReport("obp-parking-rtt")
        o.parking_rtt_checks(report, sweep, "w")
        spread = next(c for c in report.checks if c.name.startswith("OBP utilisation, highest less lowest"))
        assert spread.passed is ok, spread.describe()


@cache
def quick_report(name: str, out: str) -> ExperimentReport:
    with quick_experiment_cache():
        return REGISTRY[name].run(Path(out), quick=True, jobs=2)


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("obp")


@pytest.mark.parametrize("name,check", sorted(REPRODUCED | set(NOT_YET) | UNBANDED))
def test_quick_obp_experiment_check(name: str, check: str, out_dir: Path) -> None:
    judge_check(quick_report(name, str(out_dir / name)), name, check, NOT_YET)


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_check_is_listed_and_every_figure_and_table_written(name: str, out_dir: Path) -> None:
    report = quick_report(name, str(out_dir / name))
    assert report.checks
    assert_every_check_listed(report, name, REPRODUCED | set(NOT_YET) | UNBANDED)
    assert report.figures and all(f.stat().st_size > 10_000 for f in report.figures)
    points = (out_dir / name / "points.md").read_text()
    assert all(label in points for label in o.LABELS.values())


def test_the_experiments_are_registered() -> None:
    assert set(EXPERIMENTS) <= set(REGISTRY)
    assert all(REGISTRY[n].title and REGISTRY[n].source for n in EXPERIMENTS)


def test_the_full_variants_run_their_own_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The full variants (``ccsim reproduce`` without --quick) at toy sizes: every sweep point,
    check and figure of the full path is built, with the full set-ups' checks (Reno's above
    100 Mbit/s, the parking lot's drops)."""
    monkeypatch.setattr(o, "DURATION", 3.0)
    monkeypatch.setattr(o, "WARMUP", 1.0)
    monkeypatch.setattr(o, "CAPACITIES", [2e6, 120e6])
    monkeypatch.setattr(o, "CAPACITY_MIX", o.Mix(2, 2, 1.0, 1, 1))
    monkeypatch.setattr(o, "RTTS", [0.02, 0.05, 0.1])
    monkeypatch.setattr(o, "RTT_CAPACITY", 5e6)
    monkeypatch.setattr(o, "RTT_MIX", o.Mix(2, 2, 1.0, 1, 1))
    monkeypatch.setattr(o, "JAIN_FLOWS", 3)
    monkeypatch.setattr(o, "CONVERGENCE_CAPACITIES", [5e6])
    monkeypatch.setattr(o, "CONVERGENCE_FLOWS", 2)
    monkeypatch.setattr(o, "GAP", 1.5)
    monkeypatch.setattr(o, "PARKING_CAPACITY", 5e6)
    monkeypatch.setattr(o, "PARKING_FLOWS", [1, 2])
    monkeypatch.setattr(o, "parking_mix", lambda n, quick: o.Mix(n, 1, 0.5, 1, 1))
    counts = {}
    for name in EXPERIMENTS:
        report = REGISTRY[name].run(tmp_path / name, quick=False, jobs=2)
        assert report.figures and (tmp_path / name / "points.md").exists()
        counts[name] = [c.name for c in report.checks]
    assert any(n.startswith("120 Mbit/s: Reno (RED, ECN) utilisation") for n in counts["obp-capacity"])
    assert not any(n.startswith("2 Mbit/s: Reno") for n in counts["obp-capacity"])
    assert len(counts["obp-rtt"]) == 3 * 3 + 2
    assert len(counts["obp-jain"]) == 3 + 2 + 2  # OBP at each RTT, XCP below the highest, Reno and SACK
    assert len(counts["obp-convergence"]) == 1
    assert len(counts["obp-parking-flows"]) == 2 * 2 and len(counts["obp-parking-rtt"]) == 3 * 3 + 2
    assert all("(1-3 s)" in n for n in counts["obp-rtt"])
