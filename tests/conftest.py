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
