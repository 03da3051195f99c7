"""Rate-based protocols from Python: the CBRAA experiments pass the paper's bands, TCP-Friend
and CBRAA keys are validated with their path, and the send-rate trace follows the
controllers."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport
from ccsim.experiments.cbraa import (arrivals_checks, arrivals_flows, cbraa_spec, cov, fair_checks, fair_flows,
                                     mean_kBps, rtt_checks, rtt_flows)
from ccsim.experiments.base import jitter_of, run_many, timer_of
from conftest import quick_experiment_cache, replicated_report


def line(protocol: str, **options: Any) -> dict[str, Any]:
    return {
        "run": {"duration": "30s", "seed": 3},
        "links": [
            {"between": ["s", "a"], "rate": "10Mbps", "delay": "5ms"},
            {"between": ["a", "b"], "rate": "4Mbps", "delay": "40ms", "queue": "20000B"},
            {"between": ["b", "d"], "rate": "10Mbps", "delay": "5ms"},
        ],
        "flows": [{"name": "f", "protocol": protocol, "from": "s", "to": "d", **options}],
        "output": {"interval": "1s", "series": ["rate", "send_rate"]},
    }


# Checks measured over the paper's interval that fail (docs/experiments.md says why): a strict
# xfail turns into a failure the day they pass.
# The paced CBRAA loses about half of what the TCPs beside it lose at the DropTail queue (fair,
# Reno: 0.42 % against 0.83-0.86 %; NewReno: 0.49 % against 0.83-0.92 %), and it answers only its
# own loss rate, so it settles above the TCPs' share, beside NewReno too. REAL's timer as 4.3BSD
# computes it (500 ms ticks, a 1 s floor: 1.5 s at these round trips) makes every Reno timeout
# cost 1.5 s or more (fair: 19-27 timeouts per Reno flow; NewReno 0-3).
PACED = ("the paced CBRAA loses about half of what the TCPs beside it lose (0.42-0.49 % against 0.83-0.92 %) and "
         "answers only its own loss rate (test_stated_causes.py::test_cbraa_loses_half_of_what_the_tcps_beside_it_"
         "lose)")
BESIDE_RENO = (f"{PACED}; Reno also times out 19-31 times, each 1.5 s or more under REAL's BSD timer")
# The values are the mean and 95 % interval over the quick variant's five replicas, whose starts are
# jittered within 60 ms (issue 41: a shift of one round trip moved cbraa-vs-mathis's, cbraa-fair's
# and cbraa-rtt's checks across their bands); "inconclusive" where the interval straddles an edge.
JITTER = ("a start shift within one round trip moves it across the band (validation/start_shift.py), and five "
          "replicas straddle the edge")
NOT_YET = {
    ("cbraa-vs-mathis", "CBRAA rate held after 60 s"):
        "2.35 [2.12, 2.57] Mbit/s, inconclusive (band [1.6, 2.4]): beside Reno the paced source loses less than "
        "Reno (with the registered start 2.60; beside NewReno 2.05, in band; with ns-2.35's timer beside Reno "
        f"1.97) (test_stated_causes.py::test_cbraa_runs_above_its_band_because_reno_loses_more_beside_it); {JITTER}",
    ("cbraa-vs-mathis", "CoV of CBRAA"): f"0.44 [0.33, 0.56], inconclusive (band at most 0.5): {JITTER}",
    ("cbraa-vs-mathis", "CBRAA first reaches 90 %"): f"84.6 [65.7, 103.5] s, inconclusive (band [40, 90]): {JITTER}",
    ("cbraa-arrivals", "CBRAA mean rate from 10 s after the arrivals"):
        f"160.5 [156.9, 164.1] kB/s while the two arrivals are there (band [106, 144]): {BESIDE_RENO}",
    ("cbraa-arrivals", "CBRAA mean rate 20-140 s after"): f"259 [250, 268] kB/s (band [170, 230]): {BESIDE_RENO}",
    ("cbraa-arrivals", "CBRAA mean rate 10-140 s after"): f"255 [247, 263] kB/s (band [170, 230]): {BESIDE_RENO}",
    ("cbraa-arrivals", "first arriving TCP leaves"):
        f"608 [596, 619] s (band [525, 575]): the arrivals get 0.8 of the fair share CBRAA takes above; {BESIDE_RENO}",
    ("cbraa-arrivals", "second arriving TCP leaves"):
        f"623 [611, 635] s (band [534, 586]): the arrivals get 0.8 of the fair share CBRAA takes above; {BESIDE_RENO}",
    ("cbraa-fair", "tcp1 rate"): f"0.90 [0.84, 0.96] of the mean of four, inconclusive (band [0.85, 1.15]): {JITTER}",
    ("cbraa-fair", "tcp2 rate"): f"0.90 [0.83, 0.98] of the mean of four, inconclusive (band [0.85, 1.15]): {JITTER}",
    ("cbraa-fair", "cbraa rate"): f"1.44 [1.36, 1.52] of the Reno flows' mean (band [0.8, 1.05]): {BESIDE_RENO}",
    ("cbraa-fair", "NewReno: cbraa rate"):
        f"1.17 [0.97, 1.37] of the NewReno flows' mean, inconclusive (band [0.8, 1.05]): {PACED}",
    ("cbraa-rtt", "tcp rate"):
        "0.33 [0.30, 0.37] of its ideal share (band [0.7, 1.05]): Reno at 25 ms one way times out 149 times in 500 "
        "s, each timeout at least 1.5 s under REAL's BSD timer (test_stated_causes.py::test_the_tcp_in_cbraa_rtt_"
        "idles_in_coarse_timeouts); with NewReno 0.88",
    ("cbraa-rtt", "cbraa25 rate"): f"1.36 [1.31, 1.41] of its ideal share (band [0.8, 1.2]): what the idle Reno leaves; {PACED}",
    ("cbraa-rtt", "cbraa100 rate"):
        f"1.17 [1.10, 1.24], inconclusive (band [0.8, 1.2]): what the idle Reno leaves; {PACED}",
}


@cache
def cbraa_report(name: str, out: str) -> ExperimentReport:
    # The full set-up (each run is under a second), over the quick variant's jittered replicas,
    # judged as `ccsim reproduce` judges them.
    return replicated_report(name, Path(out) / name)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("cbraa"))


def cbraa_checks() -> list[Any]:
    params = []
    for name in ["cbraa-vs-mathis", "cbraa-arrivals", "cbraa-fair", "cbraa-rtt"]:
        for prefix in CHECKS[name]:
            reason = NOT_YET.get((name, prefix))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(name, prefix, marks=marks, id=f"{name}: {prefix}"))
    return params


#: The checks of each CBRAA experiment, by the start of their names.
CHECKS = {
    "cbraa-vs-mathis": ["CBRAA rate held after 60 s", "NewReno: CBRAA rate held after 60 s", "CoV of CBRAA",
                        "TCP-Friend mean rate", "CBRAA first reaches 90 %"],
    "cbraa-arrivals": ["CBRAA mean rate from 10 s after the arrivals", "CBRAA mean rate 20-140 s after",
                       "CBRAA mean rate 70-300 s", "CBRAA mean rate 10-140 s after", "first arriving TCP leaves",
                       "second arriving TCP leaves"],
    "cbraa-fair": [f"{label}{n} rate" for label in ("", "NewReno: ") for n in ("tcp1", "tcp2", "tcp3", "cbraa")],
    "cbraa-rtt": [f"{label}{n} rate" for label in ("", "NewReno: ") for n in ("tcp", "cbraa25", "cbraa100")],
}


@pytest.mark.parametrize("name,prefix", cbraa_checks())
def test_cbraa_experiment_check(name: str, prefix: str, out: str) -> None:
    report = cbraa_report(name, out)
    (c,) = [c for c in report.checks if c.name.startswith(prefix)]
    assert c.verdict == "reproduced", c.describe()
    assert all(p.exists() for p in report.figures)


# The reading with ns-2.35's timer for the TCPs (issue 25, section 4: REAL's timer is unknown),
# as measured. Under the bands of issue 25 (tightened to what section 4.3 says) only
# cbraa-vs-mathis reproduces under it: CBRAA still takes 1.36 of the Reno flows' mean in
# cbraa-fair (0.95 in the paper), Reno gets 0.66 of its ideal in cbraa-rtt, and the arrivals
# leave at 591 and 613 s in cbraa-arrivals.
# Over the jittered replicas (issue 41) cbraa-vs-mathis and cbraa-rtt are inconclusive under it.
READINGS = {"cbraa-vs-mathis": "inconclusive", "cbraa-arrivals": "not reproduced", "cbraa-fair": "not reproduced",
            "cbraa-rtt": "inconclusive"}


@pytest.mark.parametrize("name", sorted(READINGS))
def test_the_fine_timer_reading_gets_its_own_verdict(name: str, out: str) -> None:
    report = cbraa_report(name, out)
    label = "ns2-timer"
    assert list(report.readings) == ["ns2-timer", "beta-0.25", "beta-0.75"]
    assert REGISTRY[name].timer_for(label) == "ns-2.35"
    assert report.readings[label].verdict == READINGS[name], report.readings[label].table_markdown()


def test_every_cbraa_check_is_listed(out: str) -> None:
    for name, prefixes in CHECKS.items():
        names = [c.name for c in cbraa_report(name, out).checks]
        assert sorted(sum(n.startswith(p) for n in names) for p in prefixes) == [1] * len(prefixes), names
        assert len(names) == len(prefixes)


def test_cbraa_band_is_measured_on_the_rate_held_after_60_s(out: str) -> None:
    # Section 4.1: after 60 s CBRAA's rate is smooth at about 2 Mbit/s. The check must report the
    # level it holds then, which the last 200 s show plainly, not an average that includes the
    # ramp (2.39 Mbit/s over 60-500 s where CBRAA settles at 2.56).
    # One replica (its starts jittered as the experiment's first replica's are) against the check
    # that replica's run gives.
    exp = REGISTRY["cbraa-vs-mathis"]
    with timer_of(exp), jitter_of(exp):
        res = run_many([cbraa_spec([{"name": "tcp", "protocol": "reno"}, {"name": "cbraa", "protocol": "cbraa"}])])[0]
    settled = mean_kBps(res, "cbraa", 300) * 8e3 / 1e6
    with quick_experiment_cache():
        checks = exp.run(Path(out) / "one-replica", quick=True, jobs=1).checks
    (c,) = [c for c in checks
            if c.name.startswith("CBRAA rate held")]
    assert c.unit == "Mbit/s" and c.measured == pytest.approx(settled, rel=0.05)


def test_cbraa_arrivals_uses_the_papers_intervals(out: str) -> None:
    # "In approximately 10 seconds" after the arrivals at 300 s; "less than 20 seconds after the
    # two TCP connections leave"; the averages over 70-300 s and 570-700 s, the latter 10 s to
    # 140 s after the paper's arrivals left (560 s), placed as far after this run's.
    with quick_experiment_cache():
        report = REGISTRY["cbraa-arrivals"].run(Path(out) / "one-replica-arrivals", quick=True, jobs=1)
    leave = max(c.measured for c in report.checks if c.name.endswith("TCP leaves"))
    names = [c.name for c in report.checks]
    assert any(n.endswith(f"({leave + 20:.0f}-{leave + 140:.0f} s)") for n in names), names
    assert any(n.endswith(f"({leave + 10:.0f}-{leave + 140:.0f} s)") for n in names), names
    assert leave + 140 <= 800  # inside the run
    assert {c.unit for c in report.checks if "rate" in c.name} == {"kB/s"}


# The bands tightened in issue 25 (docs/experiments.md "Bands tightened"), each failing for a
# plausible wrong variant. A CBRAA that cuts its rate only when the observed loss exceeds three
# times the theoretical one (a = 3, Figure 1's thresholds misread) takes more than the NewReno
# flows beside it: outside cbraa-fair's band. A CBRAA that weighs Loss_th at 0.1 in increase()
# and decrease() (the paper gives no beta; ccsim takes 0.5) gives the 100 ms source 1.28 of its
# ideal share: inside cbraa-rtt's old band [0.65, 1.35], outside the new [0.8, 1.2]. A source
# that does not react at all (CBR at 235 kB/s, halfway between the paper's 270 and 200 kB/s
# averages) passed both averages of cbraa-arrivals at 25 %; at 15 % one of them fails, and its
# TCPs' departures too.

def test_a_cbraa_that_cuts_only_at_three_times_the_theoretical_loss_fails_the_fair_band() -> None:
    with timer_of(REGISTRY["cbraa-fair"]):
        right, wrong = run_many([cbraa_spec(fair_flows("newreno")),
                                 cbraa_spec(fair_flows("newreno", {"cbraa": {"a": 3.0}}))], jobs=2)
    (cbraa,) = [c for c in fair_checks(wrong) if c.name.startswith("cbraa")]
    assert not cbraa.passed and cbraa.measured > 1.05, cbraa.describe()
    assert fair_checks(right)[-1].measured < cbraa.measured


def test_a_cbraa_with_a_light_loss_weight_fails_the_rtt_band() -> None:
    with timer_of(REGISTRY["cbraa-rtt"]):
        right, wrong = run_many([cbraa_spec(rtt_flows("newreno")),
                                 cbraa_spec(rtt_flows("newreno", {"cbraa": {"beta": 0.1}}))], jobs=2)
    # Beside NewReno the paper's thresholds and ccsim's beta pass every cbraa-rtt check.
    assert all(c.passed for c in rtt_checks(right)), [c.describe() for c in rtt_checks(right)]
    (far,) = [c for c in rtt_checks(wrong) if c.name.startswith("cbraa100")]
    assert not far.passed and 1.2 < far.measured <= 1.35, far.describe()  # inside the old band


def test_a_source_that_does_not_react_fails_the_arrivals_bands() -> None:
    cbr = {"name": "cbraa", "protocol": "cbr", "rate": "1.88Mbps", "packet_size": "1000B"}
    with timer_of(REGISTRY["cbraa-arrivals"]):
        (res,) = run_many([cbraa_spec(arrivals_flows(cbr), duration="800s")], jobs=1)
    checks = {c.name.split(" (")[0]: c for c in arrivals_checks(res)}
    assert not all(c.passed for c in checks.values()), [c.describe() for c in checks.values()]
    before = checks["CBRAA mean rate 70-300 s"].measured
    after = checks["CBRAA mean rate 10-140 s after the last leaves, the paper's 570-700 s"].measured
    # The old 25 % bands ([202.5, 337.5] and [150, 250]) admitted both averages.
    assert 202.5 <= before <= 337.5 and 150 <= after <= 250, (before, after)


@pytest.mark.parametrize("protocol", ["tcp-friend", "cbraa"])
def test_rate_based_flows_start_at_five_packets_per_second(protocol: str) -> None:
    res = ccsim.run(line(protocol))
    rate = res.wide("send_rate")["f"]
    # 5 packets/s of 1000 B until the first report, 5 s after the first arrival.
    assert rate.loc[1.0] == pytest.approx(40_000)
    assert rate.loc[5.0] == pytest.approx(40_000)
    assert rate.loc[10.0] > 40_000
    assert res.summary["flows"]["f"]["protocol"] == protocol


def test_report_interval_sets_how_often_the_rate_changes() -> None:
    res = ccsim.run(line("tcp-friend", report_interval="1s", max_rate="1Mbps"))
    rate = res.wide("send_rate")["f"]
    changes = rate.diff().fillna(0) != 0
    # A report every second after the first arrival (about 55 ms); without loss each adds
    # T / (2 srtt^2), about 1 / (2 * 0.1^2) = 50 packets/s (400 kbit/s): the rate steps
    # every second until it meets max_rate, then stays.
    assert changes.loc[1.5:4].all()
    assert rate.loc[4.0] == pytest.approx(1e6)
    assert not changes.loc[4.5:].any()


def test_tcp_friend_oscillates_more_than_cbraa() -> None:
    def flows(p: str) -> list[dict[str, Any]]:
        return [{"name": "tcp", "protocol": "reno"}, {"name": "x", "protocol": p}]

    friend = ccsim.run(cbraa_spec(flows("tcp-friend"), duration="200s"))
    cbraa = ccsim.run(cbraa_spec(flows("cbraa"), duration="200s"))
    assert cov(cbraa, "x", 100) < cov(friend, "x", 100)


@pytest.mark.parametrize(("options", "path"), [
    ({"rate": "1Mbps"}, r"flows\[0\]\.rate"),
    ({"size": "1MB"}, r"flows\[0\]\.size"),
    ({"cbraa": {"beta": 2}}, r"flows\[0\]\.cbraa\.beta"),
    ({"cbraa": {"alpha": 1}}, r"flows\[0\]\.cbraa\.alpha"),
    ({"report_interval": "0s"}, r"flows\[0\]\.report_interval"),
    ({"min_rate": "3Mbps", "max_rate": "1Mbps"}, r"flows\[0\]\.max_rate"),
    ({"delayed_ack": True}, r"flows\[0\]\.delayed_ack"),
])
def test_bad_cbraa_keys_name_their_path(options: dict[str, Any], path: str) -> None:
    with pytest.raises(ccsim.SpecError, match=path):
        ccsim.run(line("cbraa", **options))


def test_rate_keys_are_refused_on_tcp_flows() -> None:
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.report_interval.*rate-based"):
        ccsim.run(line("reno", report_interval="5s"))


def test_tfrc_shares_with_newreno_and_is_smoother() -> None:
    # RFC 5348's aim: a long-run rate comparable with TCP's on the same path, and a smoother
    # one. One TFRC and one NewReno flow on the CBRAA paper's dumbbell, 300 s.
    flows = [{"name": "tcp", "protocol": "newreno"}, {"name": "tfrc", "protocol": "tfrc"}]
    res = ccsim.run(cbraa_spec(flows, duration="300s"))
    ratio = mean_kBps(res, "tfrc", 30) / mean_kBps(res, "tcp", 30)
    assert 0.5 <= ratio <= 2.0
    assert cov(res, "tfrc", 30) < cov(res, "tcp", 30)
