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
from ccsim.experiments.cbraa import cbraa_spec, cov, mean_kBps
from ccsim.experiments.base import run_many, timer_of


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
# REAL's timer as 4.3BSD computes it (500 ms ticks, a 1 s floor: 1.5 s at these round trips)
# makes every Reno timeout cost 1.5 s or more, and Reno beside the paced CBRAA loses more than
# CBRAA and times out, so CBRAA, which answers only its own loss rate, takes the rest. The same
# checks with NewReno beside CBRAA (the "NewReno:" rows) all pass.
BESIDE_RENO = ("Reno beside the paced CBRAA loses 2-4 times as much as CBRAA and times out, each timeout 1.5 s "
               "or more under REAL's BSD timer; with NewReno in its place the same check passes "
               "(test_stated_causes.py, CBRAA beside Reno)")
# Measured by the same run under both timers; the timer is the only difference.
ARRIVALS_TIMER = ("REAL's BSD timer: the three Reno flows time out 31, 28 and 24 times, each for 1.5 s or more; "
                  "under ccsim's old timer, 1 ns above SRTT (124, 82 and 85 timeouts), the check passed (234 kB/s; "
                  "601 s)")
NOT_YET = {
    ("cbraa-vs-mathis", "CBRAA rate held after 60 s"):
        "CBRAA holds 2.60 Mbit/s after 60 s beside Reno (band [1.6, 2.4]): Reno loses 0.48 % beside the paced "
        "source, CBRAA 0.11 % (two Reno flows alone: 0.18 % each); beside NewReno it holds 2.27, beside SACK 2.01; "
        "with ns-2.35's timer beside Reno 1.97 "
        "(test_stated_causes.py::test_cbraa_runs_above_its_band_because_reno_loses_more_beside_it)",
    ("cbraa-arrivals", "CBRAA mean rate 6"):
        f"278 kB/s from 20 s after the last TCP leaves (band [150, 250]): {ARRIVALS_TIMER}",
    ("cbraa-arrivals", "second arriving TCP leaves"): f"621 s (band [500, 620]): {ARRIVALS_TIMER}",
    ("cbraa-fair", "cbraa rate"): f"1.29 of the mean of the four (band [0.75, 1.25]): {BESIDE_RENO}",
    ("cbraa-rtt", "tcp rate"):
        "0.35 of its ideal share (band [0.65, 1.35]): Reno at 25 ms one way times out 149 times in 500 s, each "
        "timeout at least 1.5 s under REAL's BSD timer (test_stated_causes.py::test_the_tcp_in_cbraa_rtt_idles_in_"
        "coarse_timeouts); with NewReno 0.88",
}


@cache
def cbraa_report(name: str, out: str) -> ExperimentReport:
    # The full experiments: each run is under a second, so the quick variant is the full one.
    return REGISTRY[name].run(Path(out) / name, quick=True, jobs=1)


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
    "cbraa-arrivals": ["CBRAA mean rate 310 s to", "CBRAA mean rate 6", "CBRAA mean rate 70-300 s",
                       "CBRAA mean rate 570-700 s", "first arriving TCP leaves", "second arriving TCP leaves"],
    "cbraa-fair": [f"{label}{n} rate" for label in ("", "NewReno: ") for n in ("tcp1", "tcp2", "tcp3", "cbraa")],
    "cbraa-rtt": [f"{label}{n} rate" for label in ("", "NewReno: ") for n in ("tcp", "cbraa25", "cbraa100")],
}


@pytest.mark.parametrize("name,prefix", cbraa_checks())
def test_cbraa_experiment_check(name: str, prefix: str, out: str) -> None:
    report = cbraa_report(name, out)
    (c,) = [c for c in report.checks if c.name.startswith(prefix)]
    assert c.passed, c.describe()
    assert all(p.exists() for p in report.figures)


# The reading with ns-2.35's timer for the TCPs (issue 25, section 4: REAL's timer is unknown),
# as measured; it leaves one check of cbraa-arrivals out: CBRAA's mean rate from 310 s until the
# first arrival leaves, 162.8 kB/s against a band to 162.5.
READINGS = {"cbraa-vs-mathis": "reproduced", "cbraa-arrivals": "not reproduced", "cbraa-fair": "reproduced",
            "cbraa-rtt": "reproduced"}


@pytest.mark.parametrize("name", sorted(READINGS))
def test_the_fine_timer_reading_gets_its_own_verdict(name: str, out: str) -> None:
    report = cbraa_report(name, out)
    (label,) = report.readings
    assert label == "ns2-timer" and REGISTRY[name].timer_for(label) == "ns-2.35"
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
    with timer_of(REGISTRY["cbraa-vs-mathis"]):
        res = run_many([cbraa_spec([{"name": "tcp", "protocol": "reno"}, {"name": "cbraa", "protocol": "cbraa"}])])[0]
    settled = mean_kBps(res, "cbraa", 300) * 8e3 / 1e6
    (c,) = [c for c in cbraa_report("cbraa-vs-mathis", out).checks if c.name.startswith("CBRAA rate held")]
    assert c.unit == "Mbit/s" and c.measured == pytest.approx(settled, rel=0.05)


def test_cbraa_arrivals_uses_the_papers_intervals(out: str) -> None:
    # "In approximately 10 seconds" after the arrivals at 300 s; "less than 20 seconds after the
    # two TCP connections leave"; the averages over 70-300 s and 570-700 s.
    report = cbraa_report("cbraa-arrivals", out)
    leave = max(c.measured for c in report.checks if c.name.endswith("TCP leaves"))
    names = [c.name for c in report.checks]
    assert any(n.startswith("CBRAA mean rate 310 s to") for n in names)
    assert any(n.startswith(f"CBRAA mean rate {leave + 20:.0f} s to 700 s") for n in names)
    assert {c.unit for c in report.checks if "rate" in c.name} == {"kB/s"}


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
