"""Shared fixtures: small valid scenarios and a CLI runner."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(autouse=True)
def _private_result_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's `ccsim reproduce` calls (and their subprocesses) use a fresh cache of their own,
    never the user's nor another test's."""
    monkeypatch.setenv("CCSIM_CACHE_DIR", str(tmp_path_factory.mktemp("ccsim-cache")))


def small_spec(**run: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "run": {"duration": "5s", "seed": 1, **run},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "queue": "100p"},
            {"between": ["r", "d"], "rate": "10Mbps", "delay": "10ms", "queue": "30p"},
        ],
        "flows": [{"name": "tcp1", "protocol": "newreno", "from": "s", "to": "d"}],
    }
    return spec


@pytest.fixture
def spec() -> dict[str, Any]:
    return copy.deepcopy(small_spec())


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ccsim.cli", *args], capture_output=True, text=True, timeout=timeout)


def judge_check(report: Any, name: str, check: str, not_yet: dict[tuple[str, str], str]) -> None:
    """The one check of experiment `name`'s `report` whose name starts with `check`: it must
    pass, unless `not_yet` records it as not reproduced, when it is a strict xfail (and a
    failure the day it passes, so that the list is kept true)."""
    matching = [c for c in report.checks if c.name.startswith(check)]
    assert len(matching) == 1, [c.name for c in report.checks]
    (c,) = matching
    if (name, check) in not_yet:
        if c.passed:
            pytest.fail(f"{name}: {c.name!r} now reproduces ({c.describe()}): move it to REPRODUCED")
        pytest.xfail(not_yet[(name, check)])
    assert c.passed, report.table_markdown()


def assert_every_check_listed(report: Any, name: str, listed: set[tuple[str, str]]) -> None:
    """Every check of `report` is named, by the start of its name, exactly once in `listed`."""
    prefixes = [check for n, check in listed if n == name]
    for c in report.checks:
        assert sum(c.name.startswith(p) for p in prefixes) == 1, c.name
