"""Replicas of deterministic experiments (issue 41): the start-time jitter, optional checks,
values reported without a band and symmetric readings, against their definitions."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from ccsim.experiments import REGISTRY
from ccsim.experiments.base import (NO_BAND, SYMMETRIC, Check, Experiment, ExperimentReport, Reading, StartJitter,
                                    combine, jittered, run_many)
from ccsim.report import reading_words
from ccsim.spec import validate
from ccsim.sweep import sweep_options
from conftest import small_spec


def _starts_ns(spec: dict[str, Any]) -> dict[str, int]:
    return {f["name"]: int(f["start"].removesuffix("ns")) for f in spec["flows"]}


def _two_flows() -> dict[str, Any]:
    spec = small_spec()
    spec["flows"].append({"name": "tcp2", "protocol": "newreno", "from": "s", "to": "d", "start": "1s"})
    return validate(spec)


def test_each_start_is_shifted_within_the_width_the_same_way_for_the_same_replica() -> None:
    spec, jitter = _two_flows(), StartJitter(0.05, "test")
    with sweep_options(replica=1):
        first, again = jittered(spec, jitter), jittered(spec, jitter)
    with sweep_options(replica=2):
        second = jittered(spec, jitter)
    assert first == again  # deterministic
    shifts = {n: s - base for (n, s), base in zip(_starts_ns(first).items(), (0, 1_000_000_000))}
    assert all(0 <= x < 50_000_000 for x in shifts.values()) and len(set(shifts.values())) == 2
    assert _starts_ns(second) != _starts_ns(first)  # another replica, other draws
    assert spec["flows"][1]["start"] == "1s"  # the spec given is not changed


def test_a_flows_shift_does_not_depend_on_the_other_flows() -> None:
    spec, jitter = _two_flows(), StartJitter(0.05, "test")
    alone = validate(small_spec())
    with sweep_options(replica=3):
        assert _starts_ns(jittered(alone, jitter))["tcp1"] == _starts_ns(jittered(spec, jitter))["tcp1"]


def test_the_shifts_are_uniform_over_the_width() -> None:
    """The draw is uniform on [0, W): over 2000 flows the mean is W / 2 within 3 standard errors
    and each tenth of [0, W) holds 10 % within 2.5 points."""
    spec = validate(small_spec())
    spec["flows"] = [dict(spec["flows"][0], name=f"f{i}") for i in range(2000)]
    out = jittered(spec, StartJitter(1e-3, "test"))
    shifts = [x / 1e6 for x in _starts_ns(out).values()]
    mean = sum(shifts) / len(shifts)
    assert abs(mean - 0.5) < 3 * math.sqrt(1 / 12 / len(shifts))
    for k in range(10):
        share = sum(k / 10 <= x < (k + 1) / 10 for x in shifts) / len(shifts)
        assert abs(share - 0.1) < 0.025


def test_an_experiment_with_jitter_runs_its_replicas_and_runs_elsewhere_keep_their_starts(tmp_path: Path) -> None:
    class Two(Experiment):
        name = "jitter-two"
        jitter = StartJitter(0.2, "test")
        quick_seeds = 3

        def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
            (res,) = run_many([_two_flows()], jobs=1)
            return ExperimentReport(self.name, [Check("bytes", res.summary["flows"]["tcp2"]["sent_bytes"], "", 0,
                                                      math.inf, unit="packets")])

    exp = Two()
    assert exp.default_seeds(True) == 3 and "jittered" in exp.randomness_line
    values = []
    for k in (1, 2):
        with sweep_options(replica=k):
            values.append(exp.run(tmp_path / str(k), quick=True).checks[0].measured)
    assert values[0] != values[1]  # the second flow starts at another instant
    (plain,) = run_many([_two_flows()], jobs=1)  # outside the experiment: the registered starts
    assert plain.spec["flows"][1]["start"] == "1s"


def test_an_optional_check_is_judged_over_the_replicas_that_measured_it() -> None:
    def check(x: float) -> Check:
        return Check("bin 1", x, "", 0.75, 1.25, unit="ratio", optional=True)

    (c,) = combine([[check(1.0)], [check(math.nan)], [check(1.1)]])
    assert c.samples == [1.0, 1.1] and c.measured == pytest.approx(1.05)
    assert combine([[check(math.nan)], [check(math.nan)]]) == []
    assert combine([[check(1.0)], [check(math.nan)], [check(math.nan)]]) == []  # one trajectory: not judged
    assert combine([[check(math.nan)]]) == []


def test_a_readings_keys_reach_the_flows_and_runs_of_its_protocol_only() -> None:
    from ccsim.experiments.base import with_reading_keys

    spec = small_spec()
    spec["flows"].append({"name": "c", "protocol": "cbraa", "from": "s", "to": "d", "cbraa": {"report_interval": "2s"}})
    out = with_reading_keys(spec, {"cbraa": {"cbraa": {"beta": 0.25}}, "newreno": {"max_window": 20}},
                            {"obp": {"obp_period": "30ms"}})
    flows = {f["name"]: f for f in out["flows"]}
    assert flows["c"]["cbraa"] == {"report_interval": "2s", "beta": 0.25}  # merged, not replaced
    assert flows["tcp1"]["max_window"] == 20 and "obp_period" not in out["run"]  # no OBP flow: run as registered
    spec["flows"][0]["protocol"] = "obp"
    assert with_reading_keys(spec, {}, {"obp": {"obp_period": "30ms"}})["run"]["obp_period"] == "30ms"
    assert "beta" not in spec["flows"][1]["cbraa"]  # the spec given is not changed
    # The registered readings name protocols their experiments run, and keys that validate.
    for exp in REGISTRY.values():
        for r in exp.readings:
            for protocol in (*r.flow_keys, *r.run_keys):
                assert protocol in {"cbraa", "newreno", "reno", "sack", "vegas", "obp"}, (exp.name, r.label)


def test_the_jitter_breaks_the_lockstep_of_primos_simultaneous_reading() -> None:
    """Two identical Primo sources started together stay in lockstep (equal rates to the bit);
    started a few milliseconds apart by the jitter they no longer do: the symmetric reading is
    then a test of Primo, not of the symmetry."""
    from ccsim.experiments.base import as_reading, jitter_of, timer_of
    from ccsim.experiments.primo import SIMULTANEOUS, dumbbell_spec

    exp = REGISTRY["primo-queue"]
    with as_reading(SIMULTANEOUS.label), timer_of(exp):
        (together,) = run_many([dumbbell_spec("primo", queue=20, duration=20, warmup=5)], jobs=1)
        with jitter_of(exp), sweep_options(replica=2):
            (jittered_run,) = run_many([dumbbell_spec("primo", queue=20, duration=20, warmup=5)], jobs=1)
    rates = together.summary["flows"]
    assert rates["f1"]["received_bytes"] == rates["f2"]["received_bytes"]
    apart = jittered_run.summary["flows"]
    assert apart["f1"]["received_bytes"] != apart["f2"]["received_bytes"]


def test_a_value_without_a_band_counts_neither_way() -> None:
    free = Check("reachable", 93, "54", 54, 54, unit="nodes", banded=False)
    assert free.verdict == NO_BAND and free.band == "none" and math.isinf(free.high)
    failing = Check("rate", 0.5, "1", 0.9, 1.1, unit="ratio")
    assert ExperimentReport("x", [free]).verdict == "not reproduced"  # nothing judged: nothing shown
    assert ExperimentReport("x", [free, Check("ok", 1, "1", 0.9, 1.1, unit="ratio")]).verdict == "reproduced"
    assert ExperimentReport("x", [free, failing]).verdict == "not reproduced"
    assert "no band" in ExperimentReport("x", [free]).table_markdown()


def test_a_symmetric_reading_without_jitter_is_not_a_test() -> None:
    class Symmetric(Experiment):
        name = "symmetric"
        readings = (Reading("together", "both at 0 s", "identical flows started together", symmetric=True),
                    Reading("other", "another reading", "not symmetric"))

    exp = Symmetric()
    assert exp.reading_verdict("together", "reproduced", 1) == SYMMETRIC
    assert exp.reading_verdict("other", "reproduced", 1) == "reproduced"
    line = exp.reading_line("not reproduced", {"together": SYMMETRIC, "other": "reproduced"})
    assert "reading together (both at 0 s) is symmetric: not a test" in line
    assert "reproduced under reading together" not in line
    assert reading_words(SYMMETRIC, "together", "both at 0 s") == "reading together (both at 0 s) is symmetric: not a test"
    exp.jitter = StartJitter(0.02, "test")
    assert exp.reading_verdict("together", "reproduced", 3) == "reproduced"  # judged over the jitter
    assert exp.reading_verdict("together", "reproduced", 1) == SYMMETRIC


def test_every_symmetric_reading_registered_runs_under_jitter() -> None:
    symmetric = [(n, r.label) for n, e in REGISTRY.items() for r in e.readings if r.symmetric]
    assert symmetric
    for name, _ in symmetric:
        exp = REGISTRY[name]
        assert exp.jitter is not None and exp.default_seeds(True) >= 2 and exp.default_seeds(False) >= 2, name


def test_the_start_shift_scan_knows_the_round_trip_of_every_one_trajectory_experiment() -> None:
    import importlib.util

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("start_shift", ROOT / "validation" / "start_shift.py")
    assert spec is not None and spec.loader is not None
    scan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scan)
    names = scan.one_trajectory()
    assert "ticp-fwd" in names and "ticp-tcp-rev" not in names and "cbraa-fair" not in names
    assert set(names) <= set(scan.ROUND_TRIP_S)
