"""The public package type-checks under mypy --strict, and the native stub matches the module."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_package_passes_mypy_strict() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_native_stub_matches_the_module() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy.stubtest", "ccsim._ccsim"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_python_code_has_no_unused_or_undefined_names() -> None:
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "python", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
