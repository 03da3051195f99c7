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
from conftest import judge_check

# Each check of each quick experiment. Those that do not reproduce are strict xfails (see
# docs/experiments.md for why): one turns into a failure the day it reproduces.
REPRODUCED = {("primo-bw", "TFRC mean queue - Vegas's")}
NOT_YET = {
    ("primo-bw", "Reno sending-rate stability"): "Reno's 1 s sending rate is steadier than Primo's per-packet one",
    ("primo-bw", "Vegas mean queue - Primo's"): "Primo's queue grows with the path (thresholds scale with FTT_ref)",
    ("primo-queue", "Reno sending-rate stability"): "Reno's 1 s sending rate is steadier than Primo's",
    ("primo-queue", "Primo fairness"): "Primo's multiplicative steps keep or widen the gap left by the start",
    ("primo-delay", "Reno sending-rate stability"): "Primo is unfair, and its unequal flows fluctuate",
    ("primo-delay", "Primo sending-rate stability"): "Primo is unfair, and its unequal flows fluctuate",
    ("primo-hetero", "Reno sending-rate stability"): "the starved Primo flow fluctuates",
    ("primo-hetero", "Primo fairness"): "thresholds scale with each flow's own FTT_ref: the longer path wins",
    ("primo-parking", "Primo, together"): "the flows do not converge to a third of a link each",
    ("primo-parking", "Primo, staggered"): "the flows do not converge to a third of a link each",
}
EXPERIMENTS = ["primo-bw", "primo-queue", "primo-delay", "primo-hetero", "primo-parking"]


@cache
def quick_report(name: str, out: str) -> ExperimentReport:
    return REGISTRY[name].run(Path(out), quick=True, jobs=2)


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("primo")


@pytest.mark.parametrize("name,check", sorted(REPRODUCED | set(NOT_YET)))
def test_quick_primo_experiment_check(name: str, check: str, out_dir: Path) -> None:
    judge_check(quick_report(name, str(out_dir / name)), name, check, NOT_YET)


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
