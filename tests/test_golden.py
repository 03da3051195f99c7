"""Golden summaries: fixed scenarios must give exactly the stored numbers, on every machine.

A change that alters them on purpose regenerates the files with
``CCSIM_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and says why in its commit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import ccsim
from conftest import EXAMPLES

GOLDEN = Path(__file__).parent / "golden"
WALL = {"wall_seconds", "events_per_second", "packets_per_second"}


def stable(summary: dict[str, Any]) -> dict[str, Any]:
    return {**summary, "run": {k: v for k, v in summary["run"].items() if k not in WALL}}


@pytest.mark.parametrize("name", ["dumbbell"])
def test_summary_matches_golden(name: str) -> None:
    res = ccsim.run(EXAMPLES / f"{name}.toml", progress=False)
    got = stable(res.summary)
    path = GOLDEN / f"{name}.summary.json"
    if os.environ.get("CCSIM_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n")
    expected = json.loads(path.read_text())
    assert got == expected
