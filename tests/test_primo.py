"""Primo from Python: the quick experiments against the paper's bands, the experiment outputs,
the scenario keys and their validation, and determinism."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport
from ccsim.experiments.primo import PROTOCOLS, dumbbell_spec, parking_spec
from ccsim.metrics import efficiency_criteria
from conftest import judge_check, replicated_report

# Each check of each quick experiment, judged as `ccsim reproduce` judges it: over the quick
# variant's three seed replicas, whose starts are jittered within the dumbbell's 24 ms round trip
# (issue 41; primo.PRIMO_JITTER). Those that do not reproduce are strict xfails with the mean and
# 95 % interval measured when they were written and their cause; each cause is demonstrated by a
# run in tests/test_stated_causes.py (the test named in brackets), and docs/experiments.md
# (Primo) has the full measurements. One turns into a failure the day it reproduces.
REPRODUCED = {
    ("primo-bw", "TFRC mean queue - Vegas's"),
    # Since the Reno flows run ns-2.35's agents (issue 39).
    ("primo-delay", "Reno sending-rate stability"),
}
SAMPLING = ("on the issue's 1 s samples Reno's sawtooth (a cycle well under a second) is averaged out; sampled "
            "at the 24 ms round trip Reno scores 32 against Primo's 78 [test_renos_steadiness_is_the_one_second_"
            "sampling]")
NOT_YET = {
    ("primo-bw", "Reno sending-rate stability"):
        f"-7.1 [-11.5, -2.8]: {SAMPLING}; and Primo's per-packet reception rate makes it unsteady at 1 Mbit/s "
        "(42 with the registered start), over 16 gaps it scores 99.0 [test_primos_unsteadiness_in_primo_bw_is_its_"
        "per_packet_reception_rate]",
    ("primo-bw", "Vegas mean queue - Primo's"):
        "-20.6 [-45.9, 4.6], inconclusive: the thresholds (fractions of RTT_ref / 2) hold 4-9 packets at 16 "
        "Mbit/s where Vegas holds 3.4, and the per-packet rate's unequal flows hold 40 % at 1 Mbit/s (1.6 % over 16 "
        "gaps) [test_primos_queue_in_primo_bw_is_its_thresholds_and_its_per_packet_rate]",
    ("primo-queue", "Reno sending-rate stability"): f"-4.8 [-16.9, 7.2], inconclusive: {SAMPLING}",
    ("primo-queue", "Primo fairness"):
        "12.7 [10.3, 15.0] above 10 packets: the per-packet rate lets the larger flow grow at the smaller's "
        "expense; over 16 gaps the steps keep the ratio the start left and fairness is 88 "
        "[test_primos_steps_widen_the_gap_left_by_the_start_or_keep_it]",
    ("primo-delay", "Primo sending-rate stability"):
        "88.6 [84.1, 93.0], inconclusive (77.9 with the registered start alone): where Primo's flows are unequal "
        "its smaller flow fluctuates, and how unequal depends on the start [test_primos_unequal_flows_fluctuate_in_"
        "primo_delay]",
    ("primo-hetero", "Reno sending-rate stability"): f"0.7 [-5.4, 6.9], inconclusive: {SAMPLING}",
    ("primo-hetero", "Primo fairness"):
        "9.4 [7.8, 11.1]: thresholds scale with each flow's own RTT_ref, so the longer path wins (and the "
        "per-packet rate's bias at 1 ms); with thresholds of equal absolute delay and 16 gaps the flows share (98) "
        "[test_the_longer_path_wins_because_the_thresholds_scale_with_its_own_round_trip]",
    ("primo-parking", "Primo, together"):
        "1.81 [1.67, 1.96] off a third: with the per-packet rate two flows take 2.8 Mbit/s; nothing pulls flows "
        "together, so even over 16 gaps a simultaneous start stays 1.52 off in the full run [test_primo_parking_"
        "shares_only_with_the_16_gap_rate_and_staggered_starts]",
    ("primo-parking", "Primo, staggered"):
        "1.68 [1.51, 1.85] off a third: the per-packet rate (over 16 gaps the full run's 40 s steps share within "
        "0.06; the quick variant's 10 s steps stay 0.81 off) [test_primo_parking_shares_only_with_the_16_gap_rate_"
        "and_staggered_starts]",
}
EXPERIMENTS = ["primo-bw", "primo-queue", "primo-delay", "primo-hetero", "primo-parking"]


@cache
def quick_report(name: str, out: str) -> ExperimentReport:
    # Judged over the quick replicas, whose starts are jittered (issue 41), as `ccsim reproduce`
    # judges them.
    return replicated_report(name, Path(out))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("primo")


@pytest.mark.parametrize("name,check", sorted(REPRODUCED | set(NOT_YET)))
def test_quick_primo_experiment_check(name: str, check: str, out_dir: Path) -> None:
    judge_check(quick_report(name, str(out_dir / name)), name, check, NOT_YET)


# The other readings of section IV's open set-up (issue 25, section 4), each judged on the
# experiment's own checks over the same jittered replicas. Both are symmetric readings (two
# identical sources on identical paths started together), which only the jitter makes a test:
# before it, primo-bw and primo-delay "reproduced" under both through lockstep alone. With it,
# Primo's fairness falls to 9.7 % in primo-queue and 9.9 % in primo-hetero under both, and
# primo-bw's Primo queue exceeds Vegas's (-17.1 points); primo-delay still reproduces under
# `simultaneous` (and is inconclusive under `simultaneous-0.1s`, Primo's stability 85.4
# [84.7, 86.2]).
READINGS = {
    ("primo-bw", "simultaneous"): "not reproduced", ("primo-bw", "simultaneous-0.1s"): "not reproduced",
    ("primo-queue", "simultaneous"): "not reproduced", ("primo-queue", "simultaneous-0.1s"): "not reproduced",
    ("primo-delay", "simultaneous"): "reproduced", ("primo-delay", "simultaneous-0.1s"): "inconclusive",
    ("primo-hetero", "simultaneous"): "not reproduced", ("primo-hetero", "simultaneous-0.1s"): "not reproduced",
}


@pytest.mark.parametrize("name,label", sorted(READINGS))
def test_each_reading_of_the_open_set_up_gets_its_own_verdict(name: str, label: str, out_dir: Path) -> None:
    report = quick_report(name, str(out_dir / name))
    assert [r.label for r in REGISTRY[name].readings] == list(report.readings)
    reading = report.readings[label]
    assert reading.verdict == READINGS[(name, label)], reading.table_markdown()
    # The same checks as the registered reading, on the reading's own runs and figures.
    assert [c.name.split("(")[0] for c in reading.checks] == [c.name.split("(")[0] for c in report.checks]
    assert reading.figures and all(f.is_relative_to(out_dir / name / "readings" / label) for f in reading.figures)


def test_every_check_is_listed(out_dir: Path) -> None:
    listed = REPRODUCED | set(NOT_YET)
    for name in EXPERIMENTS:
        for c in quick_report(name, str(out_dir / name)).checks:
            assert sum(c.name.startswith(check) for n, check in listed if n == name) == 1, c.name
    assert {n for n in REGISTRY if n.startswith("primo")} == set(EXPERIMENTS)


def test_sweeps_write_criteria_tables_and_pentagons(out_dir: Path) -> None:
    report = quick_report("primo-queue", str(out_dir / "primo-queue"))
    d = out_dir / "primo-queue"
    assert [p.name for p in report.figures] == ["primo-queue.png"] and report.figures[0].stat().st_size > 10_000
    rows = (d / "criteria.csv").read_text().splitlines()
    # A header, then one row per protocol and queue size (5, 20 and 50 packets).
    assert len(rows) == 1 + 3 * len(PROTOCOLS)
    table = (d / "criteria.md").read_text()
    for label, _, _ in PROTOCOLS:
        assert f"| {label} |" in table
    assert "The paper reports" in table


def test_parking_lot_draws_both_start_orders(out_dir: Path) -> None:
    report = quick_report("primo-parking", str(out_dir / "primo-parking"))
    assert sorted(p.name for p in report.figures) == ["primo_parking_staggered.png", "primo_parking_together.png"]
    assert "| staggered | Vegas |" in (out_dir / "primo-parking" / "rates.md").read_text()


def test_parking_lot_puts_three_flows_on_each_link() -> None:
    res = ccsim.run(parking_spec("vegas", staggered=False, duration=20))
    # Each chain link carries flows a, c, e / c, d, e / b, d, e: their goodputs (960 of every
    # 1000 bytes are payload) sum to at most 2.88 Mbit/s, and Vegas keeps each link busy.
    g = {f: res.summary["flows"][f]["goodput_bps"] for f in "abcde"}
    for flows in ("ace", "cde", "bde"):
        assert 2.0e6 < sum(g[f] for f in flows) <= 2.88e6, g


def test_primo_keys_reach_the_protocol() -> None:
    def run(primo: dict[str, Any]) -> ccsim.Result:
        return ccsim.run(dumbbell_spec("primo", duration=10, warmup=2, extra={"primo": primo}))

    base = run({})
    same = run({"th_rel": 0.15, "f_rel": 1.05, "receiver_clock_offset": "20s"})
    assert same.summary["flows"] == base.summary["flows"]
    # Tolerating four times the FTT excess before slowing down holds a longer queue.
    lax = run({"th_rel": 0.6, "th_mod": 0.68, "th_str": 1.36})
    assert lax.summary["links"]["R1->R2"]["mean_queue_packets"] > base.summary["links"]["R1->R2"]["mean_queue_packets"]


def test_primo_criteria_are_deterministic() -> None:
    spec = dumbbell_spec("primo", bw_mbps=2, duration=20, warmup=5)
    a, b = ccsim.run(spec), ccsim.run(spec)
    assert efficiency_criteria(a, ["f1", "f2"], "R1->R2") == efficiency_criteria(b, ["f1", "f2"], "R1->R2")
    assert a.summary["flows"] == b.summary["flows"]


@pytest.mark.parametrize("primo,path", [
    ({"w2": 1.5}, "flows[0].primo.w2"),
    ({"rcv_samples": 0}, "flows[0].primo.rcv_samples"),
    ({"threshold": 1}, "threshold"),
])
def test_bad_primo_constants_name_their_path(primo: dict[str, Any], path: str) -> None:
    with pytest.raises(ccsim.SpecError, match=path.replace("[", r"\[").replace("]", r"\]")):
        ccsim.run(dumbbell_spec("primo", duration=5, warmup=1, extra={"primo": primo}))


def test_primo_constants_on_another_protocol_are_refused() -> None:
    with pytest.raises(ccsim.SpecError, match=r"flows\[0\]\.primo"):
        ccsim.run(dumbbell_spec("tfrc", duration=5, warmup=1, extra={"primo": {}}))
