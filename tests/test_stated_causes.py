"""The stated cause of each strict xfail of the OBP, XCP, Primo and rate-based experiments,
demonstrated by a run (docs/experiments.md gives the measurements). A cause is a claim about
the simulator as well as the reason a band fails, so each has a test that fails the day it no
longer holds: the xfail's reason would then be false.

The runs are small (quick-variant set-ups, or single flows on a dumbbell) and the assertions are
relations the cause predicts (the same run without the named ingredient lands in the band; a
spectrum peak within a few round trips; a queue between two thresholds worked out by hand),
not today's exact numbers; the numbers measured when these tests were written are in the
comments and the xfail reasons.

Where an xfail names its cause:
- test_obp_experiments.py OSCILLATION, DRIFT, TWO_WAY_XCP and "XCP drops over the sweep";
- test_xcp_experiments.py ("xcp-capacity", "10 Mbit/s: mean queue");
- test_primo.py NOT_YET;
- test_rate_based.py NOT_YET (cbraa-vs-mathis).
"""

from __future__ import annotations

import copy
import dataclasses
from functools import cache
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ccsim
from ccsim.experiments import obp as o
from ccsim.experiments import primo as p
from ccsim.experiments import xcp as x
from ccsim.experiments.cbraa import cbraa_spec, fair_flows, mean_kBps, rate_window
from ccsim.metrics import fairness_criterion, stability
from ccsim.experiments import REGISTRY
from ccsim.experiments.base import run_many, timer_of

# The causes are the experiments': every run here uses the retransmission timer of the experiment
# whose xfail it explains (docs/experiments.md, "Retransmission timers").
#: The experiment whose xfail each test explains, by the test's name; the rest explain OBP's.
EXPERIMENT_OF = {
    "test_xcps_queue_in_obp_capacity_is_the_reverse_ftp_traffic": "obp-capacity",
    "test_xcps_drops_in_obp_capacity_need_the_xcp_papers_router": "obp-capacity",
    "test_xcp_is_held_below_full_at_200_ms_by_the_reverse_ftp_traffic": "obp-rtt",
    "test_xcp_capacitys_queue_is_the_reverse_flows": "xcp-capacity",
    "test_renos_steadiness_is_the_one_second_sampling": "primo-bw",
    "test_primos_unsteadiness_in_primo_bw_is_its_per_packet_reception_rate": "primo-bw",
    "test_primos_queue_in_primo_bw_is_its_thresholds_and_its_per_packet_rate": "primo-bw",
    "test_primos_steps_widen_the_gap_left_by_the_start_or_keep_it": "primo-queue",
    "test_primos_unequal_flows_fluctuate_in_primo_delay": "primo-delay",
    "test_the_starved_primo_flow_fluctuates_in_primo_hetero": "primo-hetero",
    "test_the_longer_path_wins_because_the_thresholds_scale_with_its_own_round_trip": "primo-hetero",
    "test_primo_parking_shares_only_with_the_16_gap_rate_and_staggered_starts": "primo-parking",
    "test_cbraa_runs_above_its_band_because_reno_loses_more_beside_it": "cbraa-vs-mathis",
    "test_the_tcp_in_cbraa_rtt_idles_in_coarse_timeouts": "cbraa-rtt",
    "test_cbraa_loses_half_of_what_the_tcps_beside_it_lose": "cbraa-fair",
    "test_sack_keeps_its_fairness_at_200_ms_over_ns2_red": "obp-jain",
}


def _experiment_of(test_name: str) -> str:
    return EXPERIMENT_OF.get(test_name.split("[")[0], "obp-rtt")


@pytest.fixture(autouse=True)
def _the_experiments_timer(request: pytest.FixtureRequest) -> Iterator[None]:
    with timer_of(REGISTRY[_experiment_of(request.node.name)]):
        yield


def run_timed(spec: Any, **kwargs: Any) -> ccsim.Result:
    """One run with the timer of the experiment the running test is about."""
    (res,) = run_many([spec], jobs=1, **kwargs)
    return res


def jain(xs: Any) -> float:
    """Jain's index (sum x)^2 / (n sum x^2), written out here rather than taken from the code."""
    a = np.asarray(xs, dtype=float)
    return float(a.sum() ** 2 / (len(a) * (a * a).sum()))


# =================================================================================================
# OBP: the flows oscillate in lock step (OSCILLATION)
#
# Forward OBP flows alone on 20 Mbit/s (the quick obp-rtt bottleneck), 10-20 s, 20 ms samples.
# Measured when written: one flow 1.000 at 20 and 200 ms; 2 flows 0.972 and 0.937; 10 flows
# 0.941 and 0.837; at 200 ms the 10 flows' total from 0.28 to 1.20 of the link, the queue empty
# in 38 % of the samples, the flows' rates correlated 0.73 on average (at least 0.61), the
# total's spectrum peaking at 0.48 s (2.4 round trips); with the quick mix 0.867.

OBP_CAPACITY = o.QUICK_CAPACITY
SAMPLE = 0.02  # s


@cache
def obp_alone(n: int, rtt: float, with_mix: bool = False) -> ccsim.Result:
    mix = dataclasses.replace(o.QUICK_RTT_MIX, ftp_fwd=n) if with_mix else o.Mix(n, 0, 0.0, 0, 0)
    spec = o.dumbbell_spec("obp", OBP_CAPACITY, rtt, mix, duration=20.0, warmup=10.0,
                           series=["sent_rate", "queue"], interval=SAMPLE)
    return run_timed(spec, progress=False)


def forward_utilisation(res: ccsim.Result) -> float:
    return float(res.summary["links"][o.FORWARD]["utilization"])


def window(res: ccsim.Result, variable: str) -> Any:
    w = res.wide(variable)
    return w[w.index > float(res.summary["run"]["warmup_seconds"])]


@pytest.mark.parametrize("rtt", [0.02, 0.2])
def test_one_obp_flow_alone_holds_exactly_the_link(rtt: float) -> None:
    # The sender's rate is clamped at the narrow link's capacity (Max.TR): nothing to oscillate.
    res = obp_alone(1, rtt)
    assert forward_utilisation(res) >= 0.99
    assert res.summary["links"][o.FORWARD]["drops"] == 0


def test_obp_flows_alone_oscillate_in_lock_step_and_leave_the_link_idle() -> None:
    rtt = 0.2
    res = obp_alone(10, rtt)
    assert forward_utilisation(res) < o.UTIL_HIGH  # the shortfall, with no other traffic at all
    rates = window(res, "sent_rate")
    flows = [c for c in rates.columns if c.startswith("f")]
    assert len(flows) == 10
    total = rates[flows].sum(axis=1).to_numpy() / OBP_CAPACITY
    # Overshoot above the link, then troughs far below it...
    assert total.max() > 1.0 and total.min() < 0.5, (total.min(), total.max())
    # ...which the queue cannot cover: it is empty in a good part of the samples.
    queue = window(res, "queue")
    empty = float(np.mean(queue[o.FORWARD].to_numpy() == 0)) if o.FORWARD in queue.columns else 1.0
    assert empty > 0.2, empty
    # In lock step: the flows' own rates move together (independent flows would correlate ~0).
    corr = np.corrcoef(rates[flows].to_numpy().T)
    pairs = corr[np.triu_indices(len(flows), 1)]
    assert pairs.mean() > 0.5 and pairs.min() > 0.3, (pairs.mean(), pairs.min())
    # An oscillation of the control loop: the total's spectrum peaks at a period of a few
    # round trips (one measure-and-react cycle of every flow at once), not at the window's length.
    dev = total - total.mean()
    power = np.abs(np.fft.rfft(dev)) ** 2
    freqs = np.fft.rfftfreq(len(dev), SAMPLE)
    period = 1.0 / freqs[1 + int(np.argmax(power[1:]))]
    assert rtt <= period <= 5 * rtt, period


def test_the_oscillation_deepens_with_more_flows_and_longer_round_trips() -> None:
    util = {(n, rtt): forward_utilisation(obp_alone(n, rtt)) for n in (1, 2, 10) for rtt in (0.02, 0.2)}
    for rtt in (0.02, 0.2):
        assert util[(1, rtt)] > util[(2, rtt)] > util[(10, rtt)], util
    for n in (2, 10):
        assert util[(n, 0.02)] > util[(n, 0.2)], util


def test_the_traffic_mix_is_not_the_cause_of_obps_shortfall() -> None:
    # The quick obp-rtt point at 200 ms, with its web, voice, streaming and reverse flows, and
    # its 10 forward flows alone: alone is no better, so the mix is not what holds OBP back.
    alone = forward_utilisation(obp_alone(10, 0.2))
    mixed = forward_utilisation(obp_alone(10, 0.2, with_mix=True))
    assert alone < o.UTIL_HIGH and mixed < o.UTIL_HIGH
    assert alone <= mixed + 0.01, (alone, mixed)


# =================================================================================================
# OBP: fairness among many flows drifts away (DRIFT)
#
# 50 forward OBP flows started together on 100 Mbit/s (the quick obp-jain set-up, no web),
# Jain's index of their goodputs in successive 10 s windows over 60 s. Measured when written:
# 20 ms 0.977, 0.910, 0.844, 0.791, 0.773, 0.745; 200 ms 0.999 to 0.959; 20 flows at 20 ms
# 0.996 to 0.998 throughout.

@cache
def jain_by_window(n: int, rtt: float) -> list[float]:
    spec = o.dumbbell_spec("obp", o.QUICK_JAIN_CAPACITY, rtt, o.Mix(n, 0, 0.0, 0, 0), duration=60.0, warmup=0.0,
                           jitter=0.0, series=["rate"], interval=10.0)
    rates = run_timed(spec, progress=False).wide("rate")
    flows = [c for c in rates.columns if c.startswith("f")]
    assert len(flows) == n
    return [jain(rates.loc[t, flows]) for t in rates.index]


def test_obp_fairness_among_fifty_flows_drifts_away_with_time() -> None:
    j = jain_by_window(50, 0.02)
    assert len(j) == 6
    assert all(b <= a + 0.01 for a, b in zip(j, j[1:])), j  # falls window after window
    assert j[0] >= o.JAIN_NEAR_1 and j[-1] < j[0] - 0.15, j  # from fair to far from it


def test_the_drift_needs_many_flows_and_is_slower_at_long_round_trips() -> None:
    # Expression (3)'s fairness fraction is about 2 delta / n with n flows near C / n each: 20
    # flows are pulled together, 50 are not; fewer control steps a second at 200 ms drift slower.
    few = jain_by_window(20, 0.02)
    assert min(few) >= 0.98, few
    assert jain_by_window(50, 0.2)[-1] > jain_by_window(50, 0.02)[-1] + 0.1


# =================================================================================================
# XCP: the two-way traffic (TWO_WAY_XCP, XCP drops over the sweep, xcp-capacity's mean queue)
#
# The quick obp-capacity set-up for XCP, with and without its 20 reverse FTP flows. Measured
# when written (mean of both directions): 10 Mbit/s 27.4 % against 2.5 %, 155 Mbit/s 25.5 %
# against 0.1 %; FTP alone both ways at 10 Mbit/s 41.4 %; at 40 Mbit/s 671 drops against 0. Since
# the experiments run ns-2.35's timer (issue 25) 155 Mbit/s holds 20.6 %, in the band, and only
# 10 Mbit/s fails.

def obp_capacity_xcp(capacity: float, *, reverse_ftp: bool = True, others: bool = True) -> dict[str, Any]:
    mix = o.capacity_mix(capacity, True)
    if not reverse_ftp:
        mix = dataclasses.replace(mix, ftp_rev=0)
    if not others:
        mix = dataclasses.replace(mix, web=0.0, voice=0, streaming=0)
    return o.dumbbell_spec("xcp", capacity, o.CAPACITY_RTT, mix, duration=20.0, warmup=10.0)


def both_directions(res: ccsim.Result, capacity: float, rtt: float) -> o.Metrics:
    return o.metrics(res, o.DUMBBELL_LINKS, o.bdp_packets(capacity, rtt))


def test_xcps_queue_in_obp_capacity_is_the_reverse_ftp_traffic() -> None:
    caps = [10e6]
    runs = run_many([obp_capacity_xcp(c, reverse_ftp=r) for c in caps for r in (True, False)]
                    + [obp_capacity_xcp(10e6, others=False)], jobs=2)
    for i, c in enumerate(caps):
        with_rev, without = (both_directions(r, c, o.CAPACITY_RTT) for r in runs[2 * i:2 * i + 2])
        assert with_rev.queue_pct > o.QUEUE_NEAR_20, (c, with_rev)  # the check's failure
        assert without.queue_pct <= 5.0, (c, without)  # in the band, by far
        assert without.drops == 0
    # FTP alone both ways (no web, voice or streaming) holds the queue as well.
    assert both_directions(runs[-1], 10e6, o.CAPACITY_RTT).queue_pct > o.QUEUE_NEAR_20


def as_xcp_papers_router(spec: dict[str, Any]) -> dict[str, Any]:
    """The OBP experiments' XCP arm as it ran before 2026-11-28: the XCP paper's router and
    NewReno recovery in place of ns-2.35's router and Reno/XCP sender."""
    spec = copy.deepcopy(spec)
    spec["run"]["xcp_router"] = "paper"
    for f in spec["flows"]:
        f["xcp"] = {"recovery": "newreno"}
    for g in spec.get("traffic", []):
        if g["kind"] == "web":
            g["options"] = {"xcp": {"recovery": "newreno"}}
    return spec


def test_xcps_drops_in_obp_capacity_need_the_xcp_papers_router() -> None:
    # "XCP drops over the sweep" fails: the arm, on ns-2.35's router, drops nothing at 10, 40
    # and 155 Mbit/s. On the XCP paper's router with NewReno (the arm before 2026-11-28) the
    # 40 Mbit/s set-up dropped (237 when measured), and only with the reverse FTP flows.
    ns2, paper, paper_one_way = run_many([obp_capacity_xcp(40e6), as_xcp_papers_router(obp_capacity_xcp(40e6)),
                                          as_xcp_papers_router(obp_capacity_xcp(40e6, reverse_ftp=False))], jobs=2)
    assert both_directions(ns2, 40e6, o.CAPACITY_RTT).drops == 0
    assert both_directions(paper, 40e6, o.CAPACITY_RTT).drops > 0
    assert both_directions(paper_one_way, 40e6, o.CAPACITY_RTT).drops == 0


def test_xcp_is_held_below_full_at_200_ms_by_the_reverse_ftp_traffic() -> None:
    # obp-rtt's "highest RTT: OBP utilisation less XCP's": XCP's own forward utilisation at the
    # quick 200 ms point is below the band with the reverse flows (0.841) and above it without
    # (0.971).
    runs = run_many([o.dumbbell_spec("xcp", o.QUICK_CAPACITY, 0.2, dataclasses.replace(o.QUICK_RTT_MIX, ftp_rev=r),
                                     duration=20.0, warmup=10.0) for r in (o.QUICK_RTT_MIX.ftp_rev, 0)], jobs=2)
    with_rev, without = (forward_utilisation(r) for r in runs)
    assert with_rev < o.UTIL_HIGH <= without, (with_rev, without)


@pytest.mark.parametrize("capacity", [10e6])
def test_xcp_capacitys_queue_is_the_reverse_flows(capacity: float) -> None:
    # xcp-capacity's 50 + 50 flows at 80 ms: forward queue with the reverse flows 37.7 % (10
    # Mbit/s) and 24.1 % (45), without them 2.1 % and 0.5 % (measured when written). Under
    # ns-2.35's timer (issue 25) 45 Mbit/s holds 16.4 % with the reverse flows, in the band.
    full = x.capacity_spec(capacity, duration=20.0, warmup=10.0)
    one_way = {**full, "flows": [f for f in full["flows"] if not f["name"].startswith("r")]}
    assert len(one_way["flows"]) == x.CAPACITY_FLOWS
    buffer = x.bdp_packets(capacity, x.CAPACITY_RTT)
    with_rev, without = (100.0 * r.summary["links"][x.FORWARD]["mean_queue_packets"] / buffer
                         for r in run_many([full, one_way], jobs=2))
    assert with_rev > x.QUEUE_PCT_MAX >= without, (with_rev, without)
    assert with_rev > 5 * without


# =================================================================================================
# Primo (test_primo.py NOT_YET; docs/experiments.md, Primo)
#
# The quick sweeps (40 s, 10 s warm-up), criteria as the experiments compute them.

@cache
def primo_rows(name: str) -> dict[str, list[dict[str, float]]]:
    sweep = {"primo-bw": p.PrimoBw.sweep, "primo-queue": p.PrimoQueue.sweep, "primo-delay": p.PrimoDelay.sweep,
             "primo-hetero": p.PrimoHetero.sweep}[name]
    rows, _ = p.run_sweep(sweep, quick=True, jobs=2)
    return rows


def mean_of(rows: list[dict[str, float]], key: str) -> float:
    return float(np.mean([r[key] for r in rows]))


RCV16 = {"primo": {"rcv_samples": 16}}


def per_flow_stability(res: ccsim.Result) -> dict[str, float]:
    warm = float(res.summary["run"]["warmup_seconds"])
    rates = res.wide("sent_rate")
    return {f: stability(rates[f][rates.index > warm]) for f in ("f1", "f2")}


def test_renos_steadiness_is_the_one_second_sampling() -> None:
    # "Reno's sending-rate stability below Primo's": on the 1 s samples the issue fixes, Reno's
    # sawtooth (a cycle well under a second at a 24 ms RTT) is averaged out and Reno scores above
    # Primo; sampled at the round trip it scores far below. Measured when written (5 Mbit/s):
    # 1 s Reno 97.6, Primo 92.5; 24 ms Reno 31.8, Primo 77.8.
    def mean_stability(protocol: str, interval: str) -> float:
        spec = p.dumbbell_spec(protocol, duration=40, warmup=10)
        spec["output"]["interval"] = interval
        return float(np.mean(list(per_flow_stability(run_timed(spec, progress=False)).values())))

    assert mean_stability("reno", "1s") > mean_stability("primo", "1s")
    assert mean_stability("reno", "24ms") < mean_stability("primo", "24ms")
    assert mean_stability("reno", "24ms") < mean_stability("reno", "1s") - 30


def test_primos_unsteadiness_in_primo_bw_is_its_per_packet_reception_rate() -> None:
    # Primo's low sweep mean comes from 1 Mbit/s (42 % when written); measured over 16 gaps
    # (the experiments' "Primo (rcv 16)") Primo is steadier than Reno at every point.
    rows = primo_rows("primo-bw")
    assert mean_of(rows["Primo"], "send_stability") < mean_of(rows["Reno"], "send_stability")  # the failure
    assert mean_of(rows["Primo (rcv 16)"], "send_stability") > mean_of(rows["Reno"], "send_stability")
    assert min(r["send_stability"] for r in rows["Primo"]) < 60


def rtt_ref(bw_mbps: float, delay_ms: float = 10.0) -> float:
    """The dumbbell's smallest round trip (s): propagation both ways over the 1 ms access links
    and the shared link, the 1000 B packet's transmission on the two 10 Mbit/s links and the
    shared one, and the 40 B acknowledgement's on the way back."""
    prop = 2 * (1.0 + delay_ms + 1.0) / 1e3
    return prop + (2 / 10e6 + 1 / (bw_mbps * 1e6)) * 8 * (p.PACKET + 40)


def test_primos_queue_in_primo_bw_is_its_thresholds_and_its_per_packet_rate() -> None:
    # The stated cause ("the queue grows with the path: thresholds scale with FTT_ref") read
    # against primo-bw, whose path delay does not change. (1) With the 16-gap rate Primo's mean
    # queue at every point lies between TH_rel and TH_str (0.15 and 0.34 of RTT_ref / 2, its
    # defaults) counted in packets of the shared link: it grows with bandwidth x RTT_ref, to
    # 6.2 packets (21 %) at 16 Mbit/s against Vegas's 3.4 (11 %) when written. (2) With the
    # per-packet rate the 1 Mbit/s point holds 11.9 packets (40 %), 17 times its TH_str of 0.71:
    # not the thresholds but the unequal flows of the per-packet estimate. The sweep mean is
    # above Vegas's with the per-packet rate and below it with 16 gaps.
    rows = primo_rows("primo-bw")

    def thresholds(bw: float) -> tuple[float, float]:
        packets_per_half_rtt = rtt_ref(bw) / 2 * bw * 1e6 / (8 * p.PACKET)
        return 0.15 * packets_per_half_rtt, 0.34 * packets_per_half_rtt

    for r in rows["Primo (rcv 16)"]:
        low, high = thresholds(r["bw_mbps"])
        assert low <= r["mean_queue"] <= high, (r["bw_mbps"], r["mean_queue"], low, high)
    highest = max(rows["Primo (rcv 16)"], key=lambda r: r["bw_mbps"])
    assert highest["queue_pct"] > max(r["queue_pct"] for r in rows["Vegas"] if r["bw_mbps"] == highest["bw_mbps"])
    lowest = min(rows["Primo"], key=lambda r: r["bw_mbps"])
    assert lowest["mean_queue"] > 5 * thresholds(lowest["bw_mbps"])[1], lowest
    vegas = mean_of(rows["Vegas"], "queue_pct")
    assert mean_of(rows["Primo"], "queue_pct") > vegas  # the failure
    assert mean_of(rows["Primo (rcv 16)"], "queue_pct") < vegas


def test_primos_steps_widen_the_gap_left_by_the_start_or_keep_it() -> None:
    # primo-queue's "Primo fairness": nothing pulls two Primo flows together. With the
    # per-packet rate the larger flow's estimate runs high and the ratio widens without end
    # (f1 / f2 1.48 at 1 s, 0.83 at 3 s, 0.03 at 40 s when written); over 16 gaps the
    # multiplicative steps keep the ratio the start left (1.22 from 3 s on).
    def ratio(extra: dict[str, Any] | None) -> Any:
        rates = run_timed(p.dumbbell_spec("primo", queue=20, duration=40, warmup=10, extra=extra),
                          progress=False).wide("sent_rate")
        return (rates["f1"] / rates["f2"]).loc[3.0:]

    per_packet = np.abs(np.log(ratio(None).loc[[3.0, 5.0, 10.0, 20.0, 40.0]].to_numpy()))
    assert np.all(np.diff(per_packet) > 0) and per_packet[-1] > np.log(10), per_packet
    kept = ratio(RCV16).to_numpy()
    assert kept.max() / kept.min() < 1.1 and abs(np.log(kept.mean())) > np.log(1.1), kept
    rows = primo_rows("primo-queue")
    above_10 = [r for r in rows["Primo (rcv 16)"] if r["queue"] > 10]
    assert np.mean([r["fairness"] for r in above_10]) > 80
    assert np.mean([r["fairness"] for r in rows["Primo"] if r["queue"] > 10]) < 30


def test_primos_unequal_flows_fluctuate_in_primo_delay() -> None:
    # primo-delay's stability checks: where the two Primo flows are unequal (5 and 50 ms) the
    # smaller one's 1 s rate fluctuates (72 and 23 % against 98 and 78 % for the larger when
    # written); where they are equal (200 ms) both are steady; with the 16-gap rate the sweep
    # mean is in the band (94.5 against 77.9).
    for delay in (5, 50, 200):
        res = run_timed(p.dumbbell_spec("primo", delay_ms=delay, duration=40, warmup=10), progress=False)
        goodput = {f: res.summary["flows"][f]["goodput_bps"] for f in ("f1", "f2")}
        stab = per_flow_stability(res)
        small, large = sorted(goodput, key=goodput.get)  # type: ignore[arg-type]
        if fairness_criterion(list(goodput.values())) < 50:
            assert stab[small] < 85 and stab[small] < stab[large] - 15, (delay, goodput, stab)
        else:
            assert min(stab.values()) >= 85, (delay, goodput, stab)
    rows = primo_rows("primo-delay")
    assert mean_of(rows["Primo"], "send_stability") < 85 <= mean_of(rows["Primo (rcv 16)"], "send_stability")


def test_the_starved_primo_flow_fluctuates_in_primo_hetero() -> None:
    # primo-hetero's "Reno sending-rate stability": Primo's mean is pulled down by the starved
    # flow (S1, the short path; 48 and 49 % against 97 % for the other when written).
    for access in (20, 50):
        res = run_timed(p.dumbbell_spec("primo", s2_access_ms=access, duration=40, warmup=10), progress=False)
        goodput = {f: res.summary["flows"][f]["goodput_bps"] for f in ("f1", "f2")}
        stab = per_flow_stability(res)
        assert goodput["f1"] < 0.1 * goodput["f2"], goodput
        assert stab["f1"] < 60 and stab["f2"] > 90, stab


def test_the_longer_path_wins_because_the_thresholds_scale_with_its_own_round_trip() -> None:
    # primo-hetero's "Primo fairness" at 50 ms of S2 access (RTT_ref 27 and 125 ms). With the
    # 16-gap rate (so that the estimator's bias is out of the way) the long-path flow takes
    # nearly all (fairness 10 when written); give it thresholds scaled by RTT_ref1 / RTT_ref2,
    # the same absolute queueing delays as the short flow's, and the two share (98).
    access = 50
    scale = (2 * (access + 10 + 1) / 1e3 + rtt_ref(5) - 2 * 12 / 1e3) / rtt_ref(5)

    def goodputs(equal_delays: bool) -> dict[str, float]:
        spec = p.dumbbell_spec("primo", s2_access_ms=access, duration=40, warmup=10, extra=RCV16)
        if equal_delays:
            spec["flows"][1]["primo"] = {"rcv_samples": 16, "th_str": 0.34 / scale, "th_mod": 0.17 / scale,
                                         "th_rel": 0.15 / scale}
        res = run_timed(spec, progress=False)
        return {f: res.summary["flows"][f]["goodput_bps"] for f in ("f1", "f2")}

    own = goodputs(False)
    assert own["f2"] > 0.9 * (own["f1"] + own["f2"]), own
    assert fairness_criterion(list(goodputs(True).values())) >= 90


def test_primo_parking_shares_only_with_the_16_gap_rate_and_staggered_starts() -> None:
    # primo-parking: with the per-packet rate two flows take nearly all (a and d, or b and c,
    # 2.6-2.8 Mbit/s when written); over 16 gaps the full run's staggered start (40 s steps,
    # 240 s) shares within 6 % of a third of a link, but the simultaneous start does not
    # (1.52 off): the start decides, since nothing pulls the flows together.
    third = p.PARKING_LINK_MBPS / 3 * 1e6

    def deviation(staggered: bool, extra: dict[str, Any] | None) -> tuple[float, list[float]]:
        res = run_timed(p.parking_spec("primo", staggered=staggered, extra=extra), progress=False)
        rates = sorted(p.mean_rate(res, n, 120.0) for n, _, _ in p.PARKING_FLOWS)
        return max(abs(r / third - 1) for r in rates), rates

    for staggered in (False, True):
        worst, rates = deviation(staggered, None)
        assert worst > 0.25 and min(rates[-2:]) > 2.4 * third and max(rates[:3]) < 0.5 * third, rates
    assert deviation(True, RCV16)[0] <= 0.25
    assert deviation(False, RCV16)[0] > 0.25


# =================================================================================================
# CBRAA beside Reno (test_rate_based.py NOT_YET)
#
# The CBRAA experiments run REAL's timer as 4.3BSD computes it (500 ms ticks, 1 s floor; an RTO
# of 1.5 s at these round trips). Measured when written over the 500 s cbraa-vs-mathis run:
# beside CBRAA, Reno loses 0.478 % and times out 5 times, CBRAA loses 0.107 %; two Reno flows
# alone lose 0.18 % each; beside NewReno CBRAA holds 2.27 Mbit/s, beside SACK 2.01; with
# ns-2.35's 10 ms ticks beside Reno 1.97 (ccsim's old timer 1 ns above SRTT: 2.50, Reno timing
# out 101 times). In cbraa-rtt, Reno at 25 ms one way times out 149 times (about 224 s of idle
# timer at 1.5 s each) and gets 0.35 of its ideal share.

def test_cbraa_runs_above_its_band_because_reno_loses_more_beside_it() -> None:
    runs = run_many([cbraa_spec([{"name": "tcp", "protocol": tcp}, {"name": "x", "protocol": other}])
                     for tcp, other in (("reno", "cbraa"), ("reno", "reno"), ("newreno", "cbraa"),
                                        ("sack", "cbraa"))], jobs=2)
    beside, alone, newreno, sack = ({n: r.summary["flows"][n] for n in ("tcp", "x")} for r in runs)

    def loss(f: dict[str, Any]) -> float:
        return f["lost_packets"] / f["sent_packets"]

    held = float(np.median(rate_window(runs[0], "x", 60.0))) / 1e6
    assert held > 2.4, held  # the check's failure
    assert loss(beside["tcp"]) > 3 * loss(beside["x"])  # the paced source loses far less than Reno
    assert loss(beside["tcp"]) > 2 * max(loss(alone["tcp"]), loss(alone["x"]))
    # With a TCP that recovers a window's losses without a timeout, CBRAA holds its band.
    for res in (runs[2], runs[3]):
        held = float(np.median(rate_window(res, "x", 60.0))) / 1e6
        assert 1.6 <= held <= 2.4, held
    assert sack["tcp"]["timeouts"] <= 1


def test_the_tcp_in_cbraa_rtt_idles_in_coarse_timeouts() -> None:
    spec = REGISTRY["cbraa-rtt"]
    flows = [{"name": "tcp", "protocol": "reno", "one_way_ms": 25},
             {"name": "cbraa25", "protocol": "cbraa", "one_way_ms": 25},
             {"name": "cbraa100", "protocol": "cbraa", "one_way_ms": 100}]
    run = cbraa_spec(flows)
    run["output"]["series"] = ["rate", "rto"]
    (res,) = run_many([run], jobs=1)
    tcp = res.summary["flows"]["tcp"]
    rto = res.wide("rto")["tcp"].dropna()
    assert spec.timer == "BSD (REAL)" and rto.min() >= 1.5  # at least three 500 ms ticks
    assert tcp["goodput_bps"] / 8e3 / 215 < 0.65  # the check's failure (ideal 215 kB/s)
    assert tcp["timeouts"] * rto.min() > 0.3 * 500  # a third of the run spent waiting for timeouts


# cbraa-fair (and the CBRAA sources of cbraa-rtt and cbraa-arrivals) under the bands of issue 25:
# beside three TCPs of equal RTT the paced CBRAA loses about half of what each TCP loses at the
# 20000-byte DropTail queue, so its hold band (Loss_obs within 0.5-1.5 of Loss_th) keeps it above
# the TCPs' share, beside NewReno as beside Reno. Measured when written: Reno 0.83-0.86 %, CBRAA
# 0.42 %, CBRAA 1.42 of the TCPs' mean; NewReno 0.83-0.92 %, CBRAA 0.49 %, 1.21.

def test_cbraa_loses_half_of_what_the_tcps_beside_it_lose() -> None:
    for res in run_many([cbraa_spec(fair_flows(tcp)) for tcp in ("reno", "newreno")], jobs=2):
        flows = res.summary["flows"]
        loss = {n: f["lost_packets"] / f["sent_packets"] for n, f in flows.items()}
        tcps = ("tcp1", "tcp2", "tcp3")
        assert loss["cbraa"] < 0.65 * min(loss[n] for n in tcps), loss
        share = mean_kBps(res, "cbraa", 0.0) / (sum(mean_kBps(res, n, 0.0) for n in tcps) / 3)
        assert share > 1.05, share  # the check's failure


# =================================================================================================
# OBP's SACK baseline over ns-2.35's RED (test_obp_experiments.py NOT_YET, obp-jain)
#
# The quick obp-jain set-up, seed 1: SACK's Jain's index at 200 ms less at 20 ms, with the
# experiment's RED (profile "ns2.35") and with packet-mode RED at the same automatic thresholds
# and weight (the queue before issue 25): -0.010 against -0.064 when written.

def test_sack_keeps_its_fairness_at_200_ms_over_ns2_red() -> None:
    def packet_mode_red(capacity_bps: float, delay: float, limit: int) -> dict[str, Any]:
        ptc = capacity_bps / (8 * 500)
        min_th = max(5.0, 0.005 * ptc / 2)
        w_q = 1 - float(np.exp(-1 / (10 * max(0.1, 3 * (delay + 1 / ptc)) * ptc)))
        return {"kind": "red", "limit": f"{limit}p", "min_th": min_th, "max_th": 3 * min_th, "w_q": w_q,
                "max_p": 0.1, "gentle": True, "ecn": True}

    low, high = o.QUICK_RTTS[0], o.QUICK_RTTS[-1]
    specs = []
    for rtt in (low, high):
        spec = o.dumbbell_spec("sack", o.QUICK_JAIN_CAPACITY, rtt, o.jain_mix(True), duration=20.0, warmup=10.0,
                               jitter=0.0)
        old = copy.deepcopy(spec)
        for link in old["links"]:
            if isinstance(link.get("queue"), dict):
                assert link["queue"]["profile"] == "ns2.35"
                link["queue"] = packet_mode_red(float(o.QUICK_JAIN_CAPACITY), float(link["delay"].rstrip("ms")) / 1e3,
                                                int(link["queue"]["limit"].rstrip("B")) // o.PACKET)
        specs += [spec, old]
    ns2_low, old_low, ns2_high, old_high = run_many(specs, jobs=2)

    def jain_of(res: ccsim.Result) -> float:
        return o.metrics(res, [o.FORWARD], o.bdp_packets(o.QUICK_JAIN_CAPACITY, low)).jain

    assert jain_of(ns2_high) - jain_of(ns2_low) > -o.JAIN_DEGRADE  # the check's failure
    assert jain_of(old_high) - jain_of(old_low) <= -o.JAIN_DEGRADE  # in band over packet-mode RED
