"""obp-period is a sensitivity study of ours, not a claim of the OBP paper: it gets no verdict
and is not counted in the reproduction totals (issue 25, section 4)."""

from __future__ import annotations

import json
from pathlib import Path

from ccsim.experiments import REGISTRY
from ccsim.experiments.base import STUDY
from ccsim.experiments.demo import Verdict, summary
from conftest import cli


def test_the_studies_are_obp_period_l4s_coexistence_and_datacenter_slowdown() -> None:
    assert {name for name, e in REGISTRY.items() if e.study} == {"obp-period", "l4s-coexistence",
                                                                 "datacenter-slowdown"}


def test_a_study_has_no_verdict_and_a_run_of_it_alone_succeeds(tmp_path: Path) -> None:
    proc = cli("reproduce", "obp-period", "--quick", "--seeds", "1", "-q", "-o", str(tmp_path), timeout=600)
    assert proc.returncode == 0, proc.stderr  # nothing failed to reproduce: there was no claim
    record = json.loads((tmp_path / "obp-period" / "reproduce.json").read_text())
    assert record["verdict"] == STUDY
    html = (tmp_path / "index.html").read_text()
    # The summary counts it apart: "0 reproduced, 0 not reproduced, ..., 1 study (no verdict)".
    assert f"1 {STUDY}" in html and "1 not reproduced" not in html


def test_the_totals_leave_studies_out() -> None:
    rows = [Verdict("a", True, 2, 2, 1.0), Verdict("b", False, 1, 2, 1.0),
            Verdict("obp-period", False, 3, 6, 1.0, verdict_text=STUDY)]
    text = summary(rows)
    assert "1 of 2 reproduced (and 1 study of ours, without a verdict)" in text
