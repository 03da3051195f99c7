"""DualPI2 (`queue = { kind = "dualpi2" }`, RFC 9332 as Linux's sch_dualpi2) from Python: bad
keys are one line naming the field with exit status 2, and a run's summary reports each queue.
The algorithm itself is checked in crates/ccsim-engine/tests/dualpi2.rs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ccsim
from conftest import cli, small_spec

SPEC = """
[run]
duration = "5s"
[[links]]
between = ["s", "d"]
rate = "10Mbps"
delay = "10ms"
queue = {{ kind = "dualpi2", {key} = {value} }}
[[flows]]
name = "f"
protocol = "newreno"
from = "s"
to = "d"
"""


@pytest.mark.parametrize("key,value", [
    ("limit", '"20kB"'), ("target", "15"), ("tupdate", '"0s"'), ("alpha", "0"), ("beta", "-3.2"),
    ("coupling_factor", "0"), ("step_thresh", '"1kB"'), ("min_qlen_step", "-1"),
    ("classic_protection", "101"), ("classify", '"ect1"'), ("overload", '"drop"'),
    ("drop_at", '"dequeue"'), ("min_th", "5"),
])
def test_a_bad_key_is_one_line_naming_it(tmp_path: Path, key: str, value: str) -> None:
    f = tmp_path / "spec.toml"
    f.write_text(SPEC.format(key=key, value=value))
    proc = cli("validate", str(f))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"links[0].queue.{key}" in lines[0], lines[0]
    # A wrong value is shown; a key that does not belong is named (min_th is RED's).
    shown = "RED key" if key == "min_th" else value.strip('"').lstrip("-")
    assert shown in lines[0], lines[0]


def run(queue: dict[str, Any]) -> dict[str, Any]:
    spec = small_spec(duration="10s", warmup="2s")
    spec["links"][1]["queue"] = {"kind": "dualpi2", **queue}
    spec["flows"] = [{"name": f"t{i}", "protocol": "newreno", "from": "s", "to": "d", "ecn": True,
                      "start": f"{i * 0.1:.1f}s"} for i in range(4)]
    return ccsim.run(spec, progress=False).summary["links"]["r->d"]


def test_ect0_flows_are_classic_unless_any_ect_and_the_summary_says_where() -> None:
    classic = run({})
    d = classic["dualpi2"]
    assert d["l_packets"] == 0 and d["c_packets"] > 0, d
    # ECT(0) in the C queue is marked with p_C, never dropped below overload.
    assert d["c_marks"] == classic["ecn_marks"] > 0 and d["l_step_marks"] == 0, classic
    assert d["c_sojourn_mean_s"] > 0 and d["l_sojourn_mean_s"] is None
    assert classic["drops_by_reason"]["dualpi2_c"] == d["c_drops"]
    low = run({"classify": "any_ect"})
    d = low["dualpi2"]
    assert d["c_packets"] == 0 and d["l_packets"] > 0, d
    assert d["l_step_marks"] + d["l_coupled_marks"] == low["ecn_marks"] > 0, low
    # The L queue's step keeps its delay far below the classic target.
    assert d["l_sojourn_mean_s"] < classic["dualpi2"]["c_sojourn_mean_s"], (d, classic["dualpi2"])


def test_runs_without_dualpi2_are_unchanged_in_shape() -> None:
    links = ccsim.run(small_spec(), progress=False).summary["links"]
    for link in links.values():
        assert "dualpi2" not in link
        assert not any(r.startswith("dualpi2") for r in link["drops_by_reason"])
