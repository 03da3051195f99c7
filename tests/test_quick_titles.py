"""Every experiment's title states the set-up its variant runs: each rate and each time a quick
(or full) title names is found in the specs that variant hands to ``run_many``.

The specs are captured without running them: ``run_many`` in each experiment module is replaced
by one that records its specs and stops the experiment. Rates are compared with every rate in
the specs (links, flows, generators); a time in a clause that speaks of the RTT with the
round-trip propagation time of some flow's path (twice the sum of its links' delays, by the
least-delay route); any other time with every duration in the specs (delays, durations, starts,
events, protocol constants), one-way path delays included. The ``[output]`` table (sampling
interval) is left out: no title speaks of it.
"""

from __future__ import annotations

import heapq
import importlib
import json
import math
import pkgutil
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import ccsim
import ccsim.experiments
from ccsim.experiments import REGISTRY
from ccsim.spec import to_json_text

_RATE_UNIT = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}
_TIME_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0}
_NUM = r"(\d+(?:\.\d+)?)"
# "20 Mbit/s", "1..16 Mbps", "10 Mbit/s to 2488 Mbit/s" (each value separately)
_TITLE_RATE = re.compile(_NUM + r"\s*(?:(?:\.\.|to)\s*" + _NUM + r"\s*)?([kMG])(?:bit/s|bps)")
# "100 ms", "5..200 ms", "from 40 to 330 ms", "1.0 s"
_TITLE_TIME = re.compile(_NUM + r"\s*(?:(?:\.\.|to)\s*" + _NUM + r"\s*)?(ms|s)\b")


def spec_rate(text: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*([kKMG]?)(?:bps|bit/s)\s*", text)
    return float(m.group(1)) * _RATE_UNIT[m.group(2)] if m else None


def spec_time(text: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(ns|us|ms|s|min)\s*", text)
    return float(m.group(1)) * _TIME_UNIT[m.group(2)] if m else None


def leaves(x: Any) -> Iterator[Any]:
    if isinstance(x, dict):
        for v in x.values():
            yield from leaves(v)
    elif isinstance(x, list):
        for v in x:
            yield from leaves(v)
    else:
        yield x


class _Captured(Exception):
    pass


def captured_specs(name: str, quick: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The specs of the first sweep experiment ``name`` runs, as written (defaults left out
    by the canonical form, such as OBP's period, count too) and canonical."""
    got: list[dict[str, Any]] = []

    def record(specs: list[Any], *args: Any, **kwargs: Any) -> Any:
        for s in specs:
            got.append(json.loads(to_json_text(s)))
            got.append(ccsim.validate(s))
        raise _Captured

    for info in pkgutil.iter_modules(ccsim.experiments.__path__):
        module = importlib.import_module(f"ccsim.experiments.{info.name}")
        if hasattr(module, "run_many"):
            monkeypatch.setattr(module, "run_many", record)
    with pytest.raises(_Captured):
        REGISTRY[name].run(tmp_path, quick=quick)
    monkeypatch.undo()
    return got


def path_delays(spec: dict[str, Any]) -> set[float]:
    """One-way propagation delay of every flow's and generator's least-delay path."""
    adjacent: dict[str, list[tuple[str, float]]] = {}
    for link in spec.get("links", []):
        a, b = link["between"]
        d = spec_time(link["delay"])
        assert d is not None
        adjacent.setdefault(a, []).append((b, d))
        adjacent.setdefault(b, []).append((a, d))
    pairs = [(f["from"], f["to"]) for f in spec.get("flows", [])]
    for g in spec.get("traffic", []):
        if "from" not in g:  # a datacenter workload between hosts: no title speaks of its paths
            continue
        sources = g["from"] if isinstance(g["from"], list) else [g["from"]]
        sinks = g["to"] if isinstance(g["to"], list) else [g["to"]]
        pairs += [(a, b) for a in sources for b in sinks]
    out: set[float] = set()
    distances: dict[str, dict[str, float]] = {}
    for a, b in pairs:
        if a not in distances:
            dist = {a: 0.0}
            heap = [(0.0, a)]
            while heap:
                d, u = heapq.heappop(heap)
                if d > dist[u]:
                    continue
                for v, w in adjacent.get(u, []):
                    if d + w < dist.get(v, math.inf):
                        dist[v] = d + w
                        heapq.heappush(heap, (d + w, v))
            distances[a] = dist
        if b in distances[a]:
            out.add(distances[a][b])
    return out


def title_values(title: str) -> tuple[list[float], list[tuple[float, bool]]]:
    """The rates, and the times with whether their clause speaks of the RTT."""
    rates = [float(v) * _RATE_UNIT[m.group(3)] for m in _TITLE_RATE.finditer(title) for v in m.group(1, 2) if v]
    times = []
    for clause in re.split(r"[,;()]", title):
        rtt = "RTT" in clause
        times += [(float(v) * _TIME_UNIT[m.group(3)], rtt) for m in _TITLE_TIME.finditer(clause)
                  for v in m.group(1, 2) if v]
    return rates, times


def contains(values: set[float], x: float) -> bool:
    return any(math.isclose(x, v, rel_tol=1e-9, abs_tol=1e-12) for v in values)


def check_title(title: str, specs: list[dict[str, Any]]) -> list[str]:
    rates: set[float] = set()
    times: set[float] = set()
    rtts: set[float] = set()
    for spec in specs:
        for leaf in leaves({k: v for k, v in spec.items() if k != "output"}):
            if isinstance(leaf, str):
                for parse, into in ((spec_rate, rates), (spec_time, times)):
                    value = parse(leaf)
                    if value is not None:
                        into.add(value)
        one_way = path_delays(spec)
        times |= one_way
        rtts |= {2 * d for d in one_way}
    title_rates, title_times = title_values(title)
    wrong = [f"rate {r:g} bit/s" for r in title_rates if not contains(rates, r)]
    wrong += [f"{'RTT' if rtt else 'time'} {t:g} s" for t, rtt in title_times
              if not contains(rtts if rtt else times | rtts, t)]
    return wrong


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_quick_variants_title_states_what_it_runs(name: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    exp = REGISTRY[name]
    specs = captured_specs(name, True, tmp_path, monkeypatch)
    assert specs, f"{name}'s quick variant ran no sweep"
    assert check_title(exp.title_for(True), specs) == [], exp.title_for(True)


@pytest.mark.parametrize("name", [n for n, e in REGISTRY.items() if e.quick_title])
def test_a_quick_title_differs_and_the_full_title_states_the_full_set_up(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exp = REGISTRY[name]
    assert exp.title_for(True) != exp.title_for(False) == exp.title
    full = captured_specs(name, False, tmp_path, monkeypatch)
    assert check_title(exp.title, full) == [], exp.title
    # The full title does not fit the quick run: that is why the quick variant has its own.
    assert check_title(exp.title, captured_specs(name, True, tmp_path, monkeypatch)) != []


def test_the_checker_refuses_a_set_up_the_specs_do_not_have() -> None:
    """obp-jain's quick variant as the issue found it: titled with the full set-up."""
    spec = {"run": {"duration": "20s"}, "links": [{"between": ["s", "r"], "rate": "100Mbps", "delay": "5ms"},
                                                 {"between": ["r", "d"], "rate": "100Mbps", "delay": "5ms"}],
            "flows": [{"name": "f", "protocol": "obp", "from": "s", "to": "d"}],
            "output": {"interval": "1s"}}
    assert check_title("50 flows on 100 Mbit/s, RTT 20 ms", [spec]) == []
    assert check_title("50 flows on 1 Gbit/s, RTT 10 ms to 1 s", [spec]) == \
           ["rate 1e+09 bit/s", "RTT 0.01 s", "RTT 1 s"]


def test_reproduce_records_the_title_of_the_variant_it_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick run's reproduce.json, which the report reads, carries the quick title."""
    from ccsim.experiments.base import Experiment, ExperimentReport
    from ccsim.reproduce import reproduce

    class Tiny(Experiment):
        name = "tiny"
        title = "full: 1 Gbit/s"
        quick_title = "quick: 10 Mbit/s"

        def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
            out_dir.mkdir(parents=True, exist_ok=True)
            return ExperimentReport(self.name)

    for quick, title in ((True, "quick: 10 Mbit/s"), (False, "full: 1 Gbit/s")):
        out = tmp_path / ("quick" if quick else "full")
        reproduce([Tiny()], out, quick=quick, progress=False)
        assert json.loads((out / "tiny" / "reproduce.json").read_text())["title"] == title
        assert f"<h2>{title}</h2>" in (out / "index.html").read_text()
