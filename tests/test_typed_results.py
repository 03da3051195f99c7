"""Typed results: the TypedDicts of ccsim.summary_types against real summaries (the Python
summary, the overview and summary.json, key by key and value by value), Result.arrow against
the DataFrames and the Parquet files, zero-copy and without pandas, and mypy --strict on a
user's script and on the documentation's complete Python programs."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
import types
from functools import cache
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ccsim
from ccsim import summary_types
from ccsim.summary_types import Overview, Summary
from conftest import EXAMPLES, ROOT, small_spec


def mismatches(value: Any, annotation: Any, where: str, seen: dict[str, set[str]]) -> list[str]:
    """Where ``value`` is not of type ``annotation`` (empty if it is). A TypedDict must hold its
    required keys and no undeclared one; ``float`` takes an int, as for mypy. ``seen`` collects
    each TypedDict's keys that occurred."""
    if is_typeddict(annotation):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a {annotation.__name__}"]
        hints = get_type_hints(annotation)
        seen.setdefault(annotation.__name__, set()).update(value)
        out = [f"{where}.{k}: not declared in {annotation.__name__}" for k in value if k not in hints]
        out += [f"{where}.{k}: required by {annotation.__name__}, missing" for k in annotation.__required_keys__
                if k not in value]
        for k, v in value.items():
            if k in hints:
                out += mismatches(v, hints[k], f"{where}.{k}", seen)
        return out
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        for option in get_args(annotation):
            found: dict[str, set[str]] = {}
            if not mismatches(value, option, where, found):
                for name, keys in found.items():
                    seen.setdefault(name, set()).update(keys)
                return []
        return [f"{where}: {value!r} is none of {annotation}"]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a dict"]
        _, of = get_args(annotation)
        return [m for k, v in value.items() for m in
                ([f"{where}: key {k!r} is not a str"] if not isinstance(k, str) else [])
                + mismatches(v, of, f"{where}[{k!r}]", seen)]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        return [m for i, v in enumerate(value) for m in mismatches(v, get_args(annotation)[0], f"{where}[{i}]", seen)]
    if annotation is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    accepted = {float: (int, float), int: (int,), bool: (bool,), str: (str,)}[annotation]
    if isinstance(value, accepted) and (annotation is bool or not isinstance(value, bool)):
        return []
    return [f"{where}: {value!r} is not a {annotation.__name__}"]


def _example(name: str) -> dict[str, Any]:
    return ccsim.load(EXAMPLES / name)


def _scenarios() -> dict[str, dict[str, Any]]:
    """Small runs that between them fill every section and optional key of the summary."""
    dualpi2 = small_spec(duration="3s")
    dualpi2["links"][1]["queue"] = {"kind": "dualpi2"}
    dualpi2["flows"][0]["ecn"] = True
    mix = _example("traffic-mix.toml")  # web, voice and streaming generators; drops at nodes
    mix["run"]["duration"] = "2s"
    fabric = ccsim.topology.scenario(ccsim.topology.fat_tree(4, rate="10Gbps", delay="2us"), duration="2ms").to_dict()
    fabric["run"]["multipath"] = "ecmp"  # routes and path counts
    fabric["flows"] = [{"name": "f0", "protocol": "cbr", "from": "h0", "to": "h5", "rate": "1Mbps"}]
    fabric["traffic"] = [{"name": "dc", "kind": "flows", "hosts": "all", "protocol": "dctcp",
                          "sizes": [[0, 0], [1000, 100]], "load": 0.01}]
    ticp = _example("ticp.toml")  # binning: the bins' level vectors
    ticp["ticp"][0]["sources"] = {"b1": 20, "b2": 20}
    ticp["run"]["duration"] = "20s"
    tcpm = _example("tcpm-figure7.toml")  # a fusion node fails: failures and deaths
    tcpm["events"] = [{"at": "2s", "node": "R3", "state": "down"}]
    tcpm["run"]["duration"] = "8s"
    return {"dumbbell": small_spec(), "dualpi2": dualpi2, "traffic": mix, "fabric": fabric,
            "failover": _example("failover.toml"), "ticp": ticp, "tcpm": tcpm}


@cache
def results() -> dict[str, ccsim.Result]:
    return {name: ccsim.run(spec, progress=False) for name, spec in _scenarios().items()}


def _typeddicts() -> dict[str, Any]:
    return {name: t for name, t in vars(summary_types).items() if is_typeddict(t) and not name.startswith("_")}


def test_every_summary_has_the_declared_keys_and_types_and_every_key_occurs(tmp_path: Path) -> None:
    seen: dict[str, set[str]] = {}
    problems = []
    for name, result in results().items():
        problems += mismatches(result.summary, Summary, f"{name}: summary", seen)
        problems += mismatches(result.overview, Overview, f"{name}: overview", seen)
        assert "flows" not in result.overview and "links" not in result.overview
        # summary.json is serde's own text (with every flow and link for these small runs).
        result.write(tmp_path / name, plots=False)
        written = json.loads((tmp_path / name / "summary.json").read_text())
        assert "flows" in written and "links" in written, name
        problems += mismatches(written, Summary, f"{name}: summary.json", seen)
    assert not problems, "\n".join(problems)
    # The runs reach every TypedDict and every key declared: none is declared in vain.
    # (WebTransfers' keys are TrafficSummary's.)
    for name, t in _typeddicts().items():
        if name == "WebTransfers":
            continue
        unseen = set(get_type_hints(t)) - seen.get(name, set())
        assert not unseen, f"{name}: {sorted(unseen)} never occurred"


def test_the_type_check_catches_an_undeclared_key_a_missing_one_and_a_wrong_value() -> None:
    summary = json.loads(json.dumps(results()["dumbbell"].summary))
    assert not mismatches(summary, Summary, "s", {})
    summary["flows"]["tcp1"]["goodput"] = 1.0
    del summary["run"]["seed"]
    summary["fairness"]["jain"] = "high"
    assert sorted(mismatches(summary, Summary, "s", {})) == [
        "s.fairness.jain: 'high' is none of float | None",
        "s.flows['tcp1'].goodput: not declared in FlowSummary",
        "s.run.seed: required by RunInfo, missing",
    ]


def _equal(a: list[Any], b: list[Any]) -> bool:
    """Equal lists, a missing value (None or NaN) equal to another."""
    def missing(x: Any) -> bool:
        return x is None or (isinstance(x, float) and np.isnan(x))

    return len(a) == len(b) and all((missing(x) and missing(y)) or x == y for x, y in zip(a, b))


@pytest.mark.parametrize("name", ["traffic", "dualpi2", "fabric"])
def test_arrow_tables_hold_what_the_dataframes_and_parquet_files_hold(name: str, tmp_path: Path) -> None:
    result = results()[name]
    result.write(tmp_path, plots=False)
    for which, frame in (("flows", result.flows()), ("links", result.links())):
        table = result.arrow(which)
        assert table.column_names == ["name", *frame.columns], which
        assert table.column("name").to_pylist() == list(frame.index), which
        for column in frame.columns:
            assert _equal(table.column(column).to_pylist(), frame[column].tolist()), (which, column)
        # The Parquet file's types too (it marks its columns without nulls as such; Arrow's
        # tables allow nulls in every column).
        stored = pq.read_table(tmp_path / f"{which}.parquet")
        assert stored.cast(table.schema).equals(table), which
        assert [f.type for f in stored.schema] == [f.type for f in table.schema], which


def test_the_arrow_series_is_the_tidy_table_with_its_codes() -> None:
    spec = small_spec(duration="4s")
    spec["flows"].append({"name": "tcp2", "protocol": "cubic", "from": "s", "to": "d", "start": "0.5s"})
    spec["output"] = {"interval": "100ms", "series": ["rate", "cwnd", "queue", "srtt"]}
    result = ccsim.run(spec, progress=False)
    table, frame = result.arrow("series"), result.table
    assert table.column_names == list(frame.columns) == ["time", "entity", "variable", "value"]
    assert len({*frame["variable"]}) >= 4 and len({*frame["entity"]}) >= 4 and table.num_rows == len(frame) > 100
    assert table.schema.field("time").type == pa.float64() == table.schema.field("value").type
    assert table.schema.field("entity").type == pa.dictionary(pa.uint32(), pa.string())
    assert table.schema.field("variable").type == pa.dictionary(pa.uint16(), pa.string())
    np.testing.assert_array_equal(table.column("time").to_numpy(), frame["time"].to_numpy())
    np.testing.assert_array_equal(table.column("value").to_numpy(), frame["value"].to_numpy())
    for column in ("entity", "variable"):
        chunk = table.column(column).chunk(0)
        assert chunk.dictionary.to_pylist() == list(frame[column].cat.categories), column
        np.testing.assert_array_equal(chunk.indices.to_numpy(), frame[column].cat.codes.to_numpy())
    rate = result.series("rate")
    arrow_rate = table.filter(pa.compute.equal(table.column("variable"), "rate"))
    assert arrow_rate.column("entity").to_pylist() == rate["entity"].astype(str).tolist()
    assert arrow_rate.column("value").to_pylist() == rate["value"].tolist()


class _FixedSeries:
    """A run's native data whose series() gives the same buffers at every call."""

    def __init__(self, data: Any) -> None:
        self._data = data
        self.raw = data.series()

    def series(self) -> dict[str, Any]:
        return self.raw

    def __getattr__(self, name: str) -> Any:
        return getattr(self._data, name)


def test_the_arrow_series_shares_the_native_buffers() -> None:
    result = ccsim.run(small_spec(), progress=False)
    native = _FixedSeries(result._data)
    result._data = native
    table = result.arrow("series")
    assert table.num_rows > 0

    def address(array: pa.Array) -> int:
        return array.buffers()[1].address

    assert address(table.column("value").chunk(0)) == pa.py_buffer(native.raw["value"]).address
    assert address(table.column("entity").chunk(0).indices) == pa.py_buffer(native.raw["entity"]).address
    assert address(table.column("variable").chunk(0).indices) == pa.py_buffer(native.raw["var"]).address


def test_arrow_imports_no_pandas_and_refuses_other_tables() -> None:
    script = textwrap.dedent(f"""
        import sys
        import ccsim
        result = ccsim.run({small_spec()!r}, progress=False)
        tables = [result.arrow(which) for which in ("series", "flows", "links")]
        assert all(t.num_rows > 0 for t in tables)
        assert "pandas" not in sys.modules, "arrow() imported pandas"
        result.flows()
        assert "pandas" in sys.modules  # the control: pandas is there to be imported
        try:
            result.arrow("summary")
        except ccsim.SpecError as e:
            assert e.path == "which" and "series, flows, links" in str(e), e
        else:
            raise AssertionError("no error")
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def _mypy(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """mypy as a user runs it on their own files: strict, no project configuration."""
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                           "--cache-dir", str(cwd / ".mypy_cache"), *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


USER_SCRIPT = '''
import ccsim
from ccsim.summary_types import FlowSummary, Summary

result = ccsim.run({"run": {"duration": "1s"}}, progress=False)
reveal_type(result.summary["flows"]["x"]["goodput_bps"])
reveal_type(result.overview["fairness"]["jain"])
reveal_type(result.summary["traffic"]["web"]["slowdown_buckets"][0]["p99"])
reveal_type(result.arrow("series"))
scenario = ccsim.Scenario(duration="1s").link("s", "d", rate="1Mbps", delay="1ms").flow("f", "newreno", "s", "d")
reveal_type(scenario.run(progress=False))


def slowest(summary: Summary) -> FlowSummary:
    return min(summary["flows"].values(), key=lambda f: f["goodput_bps"])
'''

WRONG_SCRIPT = '''
import ccsim

result = ccsim.run({"run": {"duration": "1s"}}, progress=False)
goodput: float = result.summary["flows"]["x"]["goodput"]
seed: str = result.overview["run"]["seed"]
table = result.arrow("summary")
jain: float = result.summary["fairness"]["jain"]
'''


def test_a_users_script_type_checks_strictly_and_mistakes_do_not(tmp_path: Path) -> None:
    (tmp_path / "user.py").write_text(USER_SCRIPT)
    (tmp_path / "wrong.py").write_text(WRONG_SCRIPT)
    good = _mypy(tmp_path, "user.py")
    assert good.returncode == 0, good.stdout + good.stderr
    revealed = re.findall(r'Revealed type is "(.*)"', good.stdout)
    assert revealed[:2] == ["float", "float | None"], revealed
    assert revealed[2] == "float" and revealed[4] == "ccsim.results.Result", revealed
    # pyarrow has no type stubs: its Table is Any to mypy.
    assert revealed[3] == "Any", revealed
    bad = _mypy(tmp_path, "wrong.py")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    errors = [line for line in bad.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 4, bad.stdout
    assert 'wrong.py:5: error: TypedDict "FlowSummary" has no key "goodput"' in errors[0]
    assert "wrong.py:6: error: Incompatible types in assignment" in errors[1] and '"int"' in errors[1]
    assert "wrong.py:7: error: Argument 1 to \"arrow\"" in errors[2] and "Literal['summary']" in errors[2]
    assert "wrong.py:8: error: Incompatible types in assignment" in errors[3] and '"float | None"' in errors[3]


def _python_blocks() -> dict[str, str]:
    """The ```python blocks of README.md and docs/*.md, by file and number."""
    blocks = {}
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found = re.findall(r"^```python\n(.*?)^```", path.read_text(), flags=re.S | re.M)
        for i, code in enumerate(found, 1):
            blocks[f"{path.stem.replace('-', '_')}_{i}"] = code
    return blocks


def _fragments(folder: Path) -> set[str]:
    """The files of ``folder`` that do not parse or use a name they do not define (ruff's F821)."""
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "F821",
                           "--output-format", "concise", "."], cwd=folder, capture_output=True, text=True)
    return {m.group(1) for m in re.finditer(r"^(\w+)\.py:\d+:\d+: ", proc.stdout, flags=re.M)}


def _has_untyped_def(code: str) -> bool:
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is None
               for n in ast.walk(ast.parse(code)))


def test_the_documentations_complete_python_programs_pass_mypy_strict(tmp_path: Path) -> None:
    """A block that parses and defines every name it uses is a program and is checked; the
    others are fragments (they use a spec, a scenario or results from the text around them).
    The user-algorithm examples leave their hooks unannotated, for readability: they are
    checked with untyped definitions allowed, which still checks each hook's signature
    against the base class."""
    blocks = _python_blocks()
    for name, code in blocks.items():
        (tmp_path / f"{name}.py").write_text(code)
    fragments = _fragments(tmp_path)
    programs = sorted(n for n in blocks if n not in fragments)
    # The README's example of the Python API and docs/scenarios.md's typed-results example are programs.
    assert any("ccsim.run(" in blocks[n] for n in programs if n.startswith("README")), programs
    assert any("result.arrow(" in blocks[n] for n in programs if n.startswith("scenarios")), programs
    for name in programs:
        if _has_untyped_def(blocks[name]):
            (tmp_path / f"{name}.py").write_text("# mypy: allow-untyped-defs\n" + blocks[name])
    proc = _mypy(tmp_path, *(f"{n}.py" for n in programs))
    assert proc.returncode == 0, f"checked {programs}:\n{proc.stdout}{proc.stderr}"


def test_the_typed_results_example_runs() -> None:
    (example,) = [code for code in _python_blocks().values() if "result.arrow(" in code]
    proc = subprocess.run([sys.executable, "-c", example], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "'name', 'protocol', 'goodput_bps'" in proc.stdout, proc.stdout


def _rust_structs() -> dict[str, list[tuple[str, bool, str | None]]]:
    """The summary's serde structs: per struct, its fields as (name, whether serde may leave it
    out, the struct it flattens into its parent or None)."""
    structs = {}
    for path in ("summary.rs", "protocols/ticp.rs", "protocols/tcpm.rs"):
        text = (ROOT / "crates/ccsim-scenario/src" / path).read_text()
        for name, body in re.findall(r"^pub struct (\w+) \{(.*?)^\}", text, flags=re.S | re.M):
            fields, attributes = [], ""
            for line in (line.strip() for line in body.splitlines()):
                if line.startswith("#[serde("):
                    attributes += line
                elif m := re.match(r"pub (\w+): (?:Option<(\w+)>)?", line):
                    fields.append((m.group(1), "skip" in attributes, m.group(2) if "flatten" in attributes else None))
                    attributes = ""
            structs[name] = fields
    return structs


def test_the_typeddicts_are_the_serde_structs_field_for_field() -> None:
    """Each TypedDict has its Rust struct's fields (WebTransfers' flattened into
    TrafficSummary), optional exactly where serde may leave them out."""
    structs = _rust_structs()
    for name, t in _typeddicts().items():
        if name in ("Overview", "Summary"):
            continue
        expected = {}
        for field, skipped, flattened in structs[name]:
            if flattened:
                expected.update({f: True for f, _, _ in structs[flattened]})
            else:  # WebTransfers is flattened from an Option: all of its keys or none
                expected[field] = skipped or name == "WebTransfers"
        assert {k: k in t.__optional_keys__ for k in get_type_hints(t)} == expected, name
    # Summary's flows and links are serde's `skip`: Python adds them, always.
    rust = {field: skipped for field, skipped, _ in structs["Summary"] if field not in ("flows", "links")}
    assert {k: k in Overview.__optional_keys__ for k in get_type_hints(Overview)} == rust
    assert Summary.__required_keys__ == Overview.__required_keys__ | {"flows", "links"}
