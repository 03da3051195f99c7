"""`make demo`: the quick report of every experiment; it ends with one table of every experiment it
ran and its verdict, says where the report and the full reproduction status are, and exits 0 when
the experiments ran, reproduced or not (issues 13 and 17)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ccsim.experiments.demo import main

ROOT = Path(__file__).resolve().parents[1]


def verdicts(stdout: str) -> dict[str, tuple[str, str]]:
    """The closing table's rows: experiment -> (verdict, checks in band)."""
    tail = stdout[stdout.rindex("| experiment"):]
    rows = {}
    for line in tail.splitlines()[2:]:
        if not line.startswith("|"):
            break
        name, verdict, checks, _ = (cell.strip() for cell in line.strip("|").split("|"))
        rows[name] = (verdict, checks)
    return rows


def test_demo_ends_with_the_verdict_of_every_experiment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ticp-fwd reproduces and tcpm-reroute does not (tests/test_ticp.py, tests/test_tcpm_experiments.py);
    # both take under a second.
    names = ["ticp-fwd", "tcpm-reroute"]
    assert main([*names, "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = verdicts(out)
    assert list(rows) == names
    assert rows["ticp-fwd"][0] == "reproduced" and rows["tcpm-reroute"][0] == "NOT reproduced"
    for name in names:
        table = json.loads((tmp_path / name / "table.json").read_text())
        banded = [r for r in table if r["banded"]]  # a value without a band is not counted (issue 41)
        assert rows[name][1] == f"{sum(r['passed'] for r in banded)}/{len(banded)}"
        assert json.loads((tmp_path / name / "reproduce.json").read_text())["quick"] is True
    last = out.rstrip().splitlines()
    assert last[-1].startswith("1 of 2 reproduced") and last[-1].endswith("docs/experiments.md")
    assert last[-2].endswith(str(tmp_path / "index.html")) and (tmp_path / "index.html").exists()
    assert (ROOT / "docs" / "experiments.md").exists()
    assert "| tcpm-reroute" in "\n".join(last[-5:])


def test_demo_refuses_an_unknown_experiment_before_running_any(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ticp-fwd", "nonesuch", "-o", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "unknown experiment 'nonesuch'" in captured.err
    assert not (tmp_path / "ticp-fwd").exists()


def test_make_demo_runs_the_demo_module_alone() -> None:
    # Run as from a shell even under `make test`, where a nested make would print its
    # "Entering/Leaving directory" lines.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    dry = subprocess.run(["make", "--no-print-directory", "-n", "demo"], cwd=ROOT, capture_output=True,
                         text=True, check=True, env=env).stdout
    commands = [line for line in dry.splitlines() if "ccsim.experiments.demo" in line]
    assert len(commands) == 1 and dry.rstrip().splitlines()[-1] == commands[0]
    # No recipe line is allowed to fail ("-" prefix): the demo's own exit status decides.
    recipe = (ROOT / "Makefile").read_text().split("\ndemo:")[1].split("\n\n")[0]
    assert not re.search(r"^\t-", recipe, re.MULTILINE)


def test_demo_module_runs_from_the_command_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "ccsim.experiments.demo", "ticp-rev", "-o", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert verdicts(proc.stdout) == {"ticp-rev": ("reproduced", "7/7")}
