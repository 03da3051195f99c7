"""The Python API: the README's sweep example, ``ccsim.tidy`` over a sweep's results, the
builder's ``assist`` key and ``datetime.timedelta`` durations.

The builder is checked against the TOML file that says the same (house rule: the Python builder
and the TOML file produce the same spec); tidy's rows against each run's own summary.
"""

from __future__ import annotations

import ast
import random
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.spec import duration_text

ROOT = Path(__file__).resolve().parent.parent


def readme_python() -> str:
    """The Python block of the README's "From Python" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def readme_assignments(*names: str) -> dict[str, Any]:
    """Execute only the README block's top-level assignments to ``names`` (not its runs)."""
    tree = ast.parse(readme_python())
    kept = [node for node in tree.body if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id in names for t in node.targets)]
    namespace: dict[str, Any] = {"ccsim": ccsim}
    exec(compile(ast.Module(body=kept, type_ignores=[]), "README.md", "exec"), namespace)
    return namespace


def test_the_readme_seed_sweep_changes_the_seed_and_keeps_the_rest_of_run() -> None:
    ns = readme_assignments("s", "base", "specs")
    base = ns["s"].to_dict()
    assert base["run"].get("warmup"), "the README's scenario should have a warm-up for the sweep to keep"
    specs = ns["specs"]
    assert [spec["run"]["seed"] for spec in specs] == list(range(8))
    for spec in specs:
        assert {k: v for k, v in spec["run"].items() if k != "seed"} == \
               {k: v for k, v in base["run"].items() if k != "seed"}
        assert {k: v for k, v in spec.items() if k != "run"} == {k: v for k, v in base.items() if k != "run"}
    # The scenario itself is left as it was.
    assert ns["s"].to_dict() == base


def test_the_readme_idiom_keeps_reroute_and_routing_too() -> None:
    """The same expression, applied to a spec whose [run] has every optional key."""
    ns = readme_assignments("s", "base", "specs")
    source = next(line for line in readme_python().splitlines() if line.startswith("specs = "))
    base = (ccsim.Scenario(duration="10s", seed=3, warmup="2s", routing="hops", reroute="1s")
            .link("a", "b", rate="1Mbps", delay="1ms").to_dict())
    scope = {**ns, "base": base}
    exec(source, scope)
    for k, spec in enumerate(scope["specs"]):
        assert spec["run"] == {"duration": "10s", "seed": k, "warmup": "2s", "routing": "hops", "reroute": "1s"}
        ccsim.validate(spec)


# --- ccsim.tidy ---------------------------------------------------------------------------------

def dumbbell(rate: str, seed: int) -> dict[str, Any]:
    return (ccsim.Scenario(duration="3s", seed=seed, warmup="1s")
            .link("s", "r", rate="100Mbps", delay="1ms")
            .link("r", "d", rate=rate, delay="10ms", queue="50p")
            .flow("a", "newreno", "s", "d")
            .flow("b", "poisson", "s", "d", rate="1Mbps")
            .to_dict())


GRID = [{"rate": r, "replica": k} for r in ("5Mbps", "20Mbps") for k in (1, 2)]


@pytest.fixture(scope="module")
def sweep() -> list[ccsim.Result]:
    return ccsim.run_many([dumbbell(g["rate"], 10 + g["replica"]) for g in GRID], jobs=1)


def test_tidy_has_a_row_per_run_and_flow_with_the_swept_paths_as_columns(sweep: list[ccsim.Result]) -> None:
    table = ccsim.tidy(sweep, params=["links[1].rate", "run.seed"])
    assert list(table.columns[:6]) == ["run", "links[1].rate", "run.seed", "seed", "spec_hash", "flow"]
    assert len(table) == len(GRID) * 2
    for _, row in table.iterrows():
        g, res = GRID[row["run"]], sweep[row["run"]]
        assert row["links[1].rate"] == g["rate"]
        assert row["run.seed"] == row["seed"] == 10 + g["replica"]
        assert row["spec_hash"] == res.spec_hash
        own = res.summary["flows"][row["flow"]]
        assert row["goodput_bps"] == own["goodput_bps"] and row["protocol"] == own["protocol"]
        assert row["sent_packets"] == own["sent_packets"]
    assert sorted(table["flow"].unique()) == ["a", "b"]
    # What one writes the table for: the swept parameter against a flow's goodput.
    by_rate = table[table["flow"] == "a"].groupby("links[1].rate")["goodput_bps"].max()
    assert by_rate["5Mbps"] <= 5e6 < by_rate["20Mbps"] <= 20e6


def test_tidy_takes_the_grid_the_specs_were_built_from(sweep: list[ccsim.Result]) -> None:
    table = ccsim.tidy(sweep, params=GRID)
    assert list(table.columns[:5]) == ["run", "rate", "replica", "seed", "spec_hash"]
    assert list(table["rate"]) == [g["rate"] for g in GRID for _ in "ab"]
    assert list(table["replica"]) == [g["replica"] for g in GRID for _ in "ab"]
    # A bare path, no parameters, and a "seed" parameter that is the run's seed.
    assert list(ccsim.tidy(sweep, params="run.seed")["run.seed"]) == list(ccsim.tidy(sweep)["seed"])
    assert "run.seed" not in ccsim.tidy(sweep).columns
    seeds = [{"seed": r.seed} for r in sweep]
    assert list(ccsim.tidy(sweep, params=seeds).columns) == list(ccsim.tidy(sweep).columns)


def test_tidy_of_no_results_is_an_empty_table() -> None:
    table = ccsim.tidy([], params=["run.seed"])
    assert table.empty and list(table.columns) == ["run", "run.seed", "seed", "spec_hash", "flow"]


@pytest.mark.parametrize("params, path, words", [
    (["run.sede"], "params[0]", "results[0]'s spec has no 'run.sede'"),
    (["links[9].rate"], "params[0]", "has no 'links[9].rate'"),
    (["run..seed"], "params[0]", "has no 'run..seed'"),
    ([{"rate": 1}], "params", "expected one mapping per result (4), found 1"),
    ([{"goodput_bps": 1}] * 4, "params", "'goodput_bps' would hide the flows' column"),
    ([{"seed": 1}] * 4, "params", "must be the run's own seed"),
    ([1, 2, 3, 4], "params", "expected spec paths (str) or one mapping per result, found int"),
])
def test_tidy_refuses_parameters_it_cannot_place(sweep: list[ccsim.Result], params: Any, path: str,
                                                words: str) -> None:
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.tidy(sweep, params=params)
    assert e.value.path == path and words in str(e.value)


def test_the_readme_tidy_line(sweep: list[ccsim.Result]) -> None:
    line = next(line for line in readme_python().splitlines() if line.startswith("table = "))
    scope: dict[str, Any] = {"ccsim": ccsim, "runs": sweep}
    exec(line, scope)
    assert list(scope["table"]["run.seed"]) == [r.seed for r in sweep for _ in "ab"]


# --- the builder: assist and timedelta --------------------------------------------------------

TOML = """
[run]
duration = "2s"
seed = 3
warmup = "500ms"
reroute = "1500ms"

[[links]]
between = ["s", "r"]
rate = "10Mbps"
delay = "2ms"
assist = false

[[links]]
between = ["r", "d"]
rate = "5Mbps"
delay = "250us"
queue = { kind = "red", limit = "40p" }

[[flows]]
name = "x"
protocol = "xcp"
from = "s"
to = "d"
start = "100ms"
min_rto = "200ms"

[[events]]
at = "1s"
state = "down"
link = ["r", "d"]

[output]
interval = "250ms"
"""


def builder_with_timedeltas() -> ccsim.Scenario:
    ms = timedelta(milliseconds=1)
    return (ccsim.Scenario(duration=timedelta(seconds=2), seed=3, warmup=500 * ms, reroute=timedelta(seconds=1.5))
            .link("s", "r", rate="10Mbps", delay=2 * ms, assist=False)
            .link("r", "d", rate="5Mbps", delay=timedelta(microseconds=250), queue={"kind": "red", "limit": "40p"})
            .flow("x", "xcp", "s", "d", start=100 * ms, min_rto=timedelta(seconds=0.2))
            .event(timedelta(seconds=1), "down", link=("r", "d"))
            .output(interval=250 * ms))


def test_the_builder_with_assist_and_timedeltas_is_the_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "same.toml"
    path.write_text(TOML)
    assert builder_with_timedeltas().validate() == ccsim.load(path)
    assert builder_with_timedeltas().validate()["links"][0]["assist"] is False


def test_assist_defaults_to_the_spec_default() -> None:
    s = ccsim.Scenario(duration="1s").link("a", "b", rate="1Mbps", delay="1ms")
    assert "assist" not in s.to_dict()["links"][0]
    on = ccsim.Scenario(duration="1s").link("a", "b", rate="1Mbps", delay="1ms", assist=True)
    assert s.validate() == on.validate() != ccsim.Scenario(duration="1s").link(
        "a", "b", rate="1Mbps", delay="1ms", assist=False).validate()


def test_to_dict_writes_timedeltas_as_text() -> None:
    d = builder_with_timedeltas().to_dict()
    assert d["run"] == {"duration": "2s", "seed": 3, "warmup": "500ms", "reroute": "1500ms"}
    assert d["links"][1]["delay"] == "250us" and d["flows"][0]["min_rto"] == "200ms"
    assert d["events"][0]["at"] == "1s" and d["output"]["interval"] == "250ms"


def test_a_dict_spec_takes_timedeltas_and_runs_as_its_text() -> None:
    text = ccsim.Scenario(duration="1s", seed=1).link("a", "b", rate="1Mbps", delay="15ms") \
        .flow("f", "cbr", "a", "b", rate="100kbps", start="250ms").to_dict()
    timed = {**text, "run": {**text["run"], "duration": timedelta(seconds=1)},
             "links": [{**text["links"][0], "delay": timedelta(milliseconds=15)}],
             "flows": [{**text["flows"][0], "start": timedelta(milliseconds=250)}]}
    assert ccsim.validate(timed) == ccsim.validate(text)
    assert ccsim.run(timed, progress=False).spec_hash == ccsim.run(text, progress=False).spec_hash


_UNIT_US = {"s": 1_000_000, "ms": 1_000, "us": 1}


def test_duration_text_is_exact_in_the_largest_whole_unit() -> None:
    rng = random.Random(24)
    cases = [timedelta(0), timedelta(microseconds=1), timedelta(days=3), timedelta(days=1, microseconds=1),
             timedelta(hours=1, milliseconds=1), timedelta(seconds=-1, microseconds=500_000)]
    cases += [timedelta(microseconds=rng.randrange(0, 10**12)) for _ in range(200)]
    cases += [timedelta(milliseconds=rng.randrange(0, 10**9)) for _ in range(200)]
    for td in cases:
        text = duration_text(td)
        m = re.fullmatch(r"(-?\d+)(s|ms|us)", text)
        assert m is not None, text
        micros = td // timedelta(microseconds=1)  # timedelta's own count of microseconds
        assert int(m.group(1)) * _UNIT_US[m.group(2)] == micros
        larger = {"us": 1_000, "ms": 1_000_000, "s": None}[m.group(2)]
        assert larger is None or micros % larger != 0, text  # no larger unit holds it whole
    assert duration_text(timedelta(minutes=2)) == "120s"
    assert duration_text(timedelta(milliseconds=1500)) == "1500ms"


def test_a_timedelta_where_no_duration_belongs_is_refused_at_its_field() -> None:
    spec = ccsim.Scenario(duration="1s").link("a", "b", rate="1Mbps", delay="1ms").to_dict()
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate({**spec, "run": {"duration": "1s", "seed": timedelta(seconds=1)}})
    assert e.value.path == "run.seed" and '"1s"' in str(e.value)
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate({**spec, "run": {"duration": timedelta(seconds=-1)}})
    assert e.value.path == "run.duration" and '"-1s"' in str(e.value)


def test_a_sweep_starts_its_longest_runs_first_and_returns_them_in_input_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Five runs whose lengths (10 to 50 ms of a 100 Mbps dumbbell) rank as their expected costs
    # (duration times the links' rates); with two workers the two longest start first.
    from ccsim import sweep as sweep_module

    durations = ["20ms", "50ms", "10ms", "40ms", "30ms"]
    specs = [{**dumbbell("100Mbps", 1), "run": {"duration": d, "seed": 1}} for d in durations]
    canonical = [ccsim.validate(s) for s in specs]
    costs = [sweep_module.expected_cost(s) for s in canonical]
    assert sorted(range(5), key=lambda i: -costs[i]) == [1, 3, 4, 0, 2]
    started: list[str] = []
    real_run = sweep_module.run

    def recording_run(spec: Any, **kwargs: Any) -> ccsim.Result:
        started.append(spec["run"]["duration"])
        return real_run(spec, **kwargs)

    monkeypatch.setattr(sweep_module, "run", recording_run)
    results = ccsim.run_many(specs, jobs=2, cache=False)
    assert sorted(started[:2]) == ["40ms", "50ms"]
    assert [r.spec["run"]["duration"] for r in results] == durations
