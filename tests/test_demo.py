"""`make demo`: it ends with one table of every experiment it ran and its verdict, says where the
full reproduction status is documented, and exits 0 when the experiments ran, reproduced or
not (issue 13, section 4)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ccsim.experiments import REGISTRY
from ccsim.experiments.demo import DEMO, main

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
    # ticp-fwd reproduces and ticp-tcp-rev does not (tests/test_ticp.py); both take under a second.
    names = ["ticp-fwd", "ticp-tcp-rev"]
    assert main([*names, "-o", str(tmp_path), "--quick"]) == 0
    out = capsys.readouterr().out
    rows = verdicts(out)
    assert list(rows) == names
    assert rows["ticp-fwd"][0] == "reproduced" and rows["ticp-tcp-rev"][0] == "NOT reproduced"
    for name in names:
        table = json.loads((tmp_path / name / "table.json").read_text())
        assert rows[name][1] == f"{sum(r['passed'] for r in table)}/{len(table)}"
    last = out.rstrip().splitlines()
    assert last[-1].startswith("1 of 2 reproduced") and last[-1].endswith("docs/experiments.md")
    assert (ROOT / "docs" / "experiments.md").exists()
    # Nothing after the table but the line that points to the full status.
    assert out.rstrip().endswith(last[-1]) and "| ticp-tcp-rev" in "\n".join(last[-4:])


def test_demo_exits_non_zero_only_when_an_experiment_did_not_run(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ticp-fwd", "nonesuch", "-o", str(tmp_path), "--quick"]) == 2
    captured = capsys.readouterr()
    assert "unknown experiment 'nonesuch'" in captured.err
    assert list(verdicts(captured.out)) == ["ticp-fwd"]


def test_an_experiment_the_demo_runs_quick_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from ccsim.experiments import demo

    monkeypatch.setattr(demo, "DEMO_QUICK", {"ticp-fwd"})
    assert main(["ticp-fwd", "-o", str(tmp_path)]) == 0
    assert list(verdicts(capsys.readouterr().out)) == ["ticp-fwd (quick)"]


def test_make_demo_runs_the_demo_module_and_its_experiments_exist() -> None:
    from ccsim.experiments.demo import DEMO_QUICK

    assert DEMO_QUICK <= set(DEMO)
    assert set(DEMO) <= set(REGISTRY)
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
    proc = subprocess.run([sys.executable, "-m", "ccsim.experiments.demo", "ticp-rev", "-o", str(tmp_path),
                           "--quick"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert verdicts(proc.stdout) == {"ticp-rev": ("reproduced", "7/7")}
