"""Start-up: the CLI and a run without plots import neither pandas, numpy, pyarrow, matplotlib
nor tqdm (together they take several times as long as a small simulation)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLES

HEAVY = ("pandas", "numpy", "pyarrow", "matplotlib", "tqdm")


def imported_after(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    heavy: list[str] = json.loads(proc.stdout.splitlines()[-1])
    return heavy


def test_importing_the_cli_imports_no_heavy_library() -> None:
    assert imported_after("import ccsim.cli") == []


def test_a_run_without_plots_imports_no_heavy_library(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code = (f"from ccsim.cli import main\nassert main(['run', {str(EXAMPLES / 'dumbbell.toml')!r}, '-o', {str(out)!r}, "
            f"'--no-plots']) == 0")
    assert imported_after(code) == []
    assert (out / "series.parquet").exists()
