"""Randomly mutated specs: every outcome is a clean run or a SpecError with a field path;
never a panic, an InternalError or a hang."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import ccsim
from conftest import small_spec

ODD_VALUES: list[Any] = [
    None, True, -1, 0, 1, 2**64, 1.5, float("inf"), "", " ", "0s", "1ns", "-1s", "1e9s", "10Mbs",
    "1Gbps", "999999999999999Gbps", "0p", "1p", "100", "1.2.3", "nan", "ünïcode", [], [1, 2], {}, {"a": 1},
    "a->b", "s", "d", "newreno", "cbr", "poisson",
]


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, prefix + (i,))
    return out


def mutated(rng: random.Random) -> dict[str, Any]:
    spec = small_spec(duration="2s")
    spec["flows"].append({"name": "u", "protocol": "cbr", "from": "s", "to": "d", "rate": "1Mbps"})
    spec["output"] = {"interval": "0.5s", "series": ["rate", "queue", "cwnd"], "trace": ["cwnd"]}
    for _ in range(rng.randint(1, 3)):
        target = rng.choice(paths(spec))
        node: Any = spec
        for key in target[:-1]:
            node = node[key]
        if rng.random() < 0.15 and isinstance(node, dict):
            del node[target[-1]]
        else:
            node[target[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    return spec


@pytest.mark.parametrize("seed", range(300))
def test_mutated_spec_fails_cleanly_or_runs(seed: int) -> None:
    spec = mutated(random.Random(seed))
    try:
        res = ccsim.run(spec, progress=False)
    except ccsim.SpecError as e:
        assert e.path, f"error without a path: {e}"
        assert str(e).startswith(f"{e.path}: ")
        return
    assert res.summary["run"]["sim_seconds"] > 0
