"""Rate-based protocols from Python: the CBRAA experiments pass the paper's bands, TCP-Friend
and CBRAA keys are validated with their path, and the send-rate trace follows the
controllers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.experiments import REGISTRY
from ccsim.experiments.cbraa import cbraa_spec, cov, mean_kBps


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


@pytest.mark.parametrize("name", ["cbraa-vs-mathis", "cbraa-arrivals", "cbraa-fair", "cbraa-rtt"])
def test_cbraa_experiment_reproduces(name: str, tmp_path: Path) -> None:
    # The full experiments: each run is under a second, so the quick variant is the full one.
    report = REGISTRY[name].run(tmp_path, quick=True, jobs=1)
    failed = [c for c in report.checks if not c.passed]
    assert not failed, report.table_markdown()
    assert all(p.exists() for p in report.figures)


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
