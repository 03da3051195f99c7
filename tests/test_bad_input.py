"""Every bad input of the foundation issue gets a clear error naming the field and the bad
value, through Python and through the CLI (exit status 2, one line, no output folder)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import pytest

import ccsim
from conftest import cli, small_spec


def mutate(f: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    spec = copy.deepcopy(small_spec())
    f(spec)
    return spec


def set_(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(spec: dict[str, Any]) -> None:
        node = spec
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return apply


def add_flow(**kw: Any) -> Callable[[dict[str, Any]], None]:
    return lambda spec: spec["flows"].append({"name": "f2", "protocol": "newreno", "from": "s", "to": "d", **kw})


def island(spec: dict[str, Any]) -> None:
    spec["links"].append({"between": ["x", "y"], "rate": "1Mbps", "delay": "1ms"})
    spec["flows"].append({"name": "f2", "protocol": "newreno", "from": "s", "to": "x"})


CASES = [
    ("unknown unit", set_(["links", 1, "rate"], "10Mbs"), "links[1].rate", '"10Mbs" is not a rate (try "10Mbps")'),
    ("malformed number", set_(["links", 1, "delay"], "1.2.3ms"), "links[1].delay", '"1.2.3ms" is not a duration'),
    ("negative rate", set_(["links", 1, "rate"], "-5Mbps"), "links[1].rate", 'must not be negative, found "-5Mbps"'),
    ("zero rate", set_(["links", 1, "rate"], "0Mbps"), "links[1].rate", 'must be positive, found "0bps"'),
    ("unknown protocol", set_(["flows", 0, "protocol"], "reno2"), "flows[0].protocol",
     'expected one of: tahoe, reno, newreno, sack, vegas, cubic, dctcp, bbr, bbr3, prague, cbr, poisson, tfrc, tcp-friend, cbraa, primo, xcp, obp, found "reno2"'),
    ("no route", island, "flows[1].to", 'no route from "s" to "x"'),
    ("node in no link", set_(["flows", 0, "to"], "nowhere"), "flows[0].to", 'node "nowhere" is in no link'),
    ("duplicate flow", add_flow(name="tcp1"), "flows[1].name", 'duplicate flow name "tcp1"'),
    ("start after end", set_(["flows", 0, "start"], "9s"), "flows[0].start", '"9s" is not before the end of the run ("5s")'),
    ("min_rto above max", set_(["flows", 0, "min_rto"], "90s"), "flows[0].min_rto", "must be at most the 60 s maximum RTO"),
    ("drop off the data path", set_(["drops"], [{"flow": "tcp1", "link": "d->r", "seqs": [1]}]), "drops[0].link",
     '"d->r" is not on the path of flow "tcp1"\'s data (s->r, r->d)'),
    ("unknown key", set_(["links", 0, "rat"], "1Mbps"), "links[0].rat", 'unknown key "rat" (known keys: between, rate, delay, queue, loss, jitter, assist, trace)'),
    ("unknown top-level key", set_(["flow"], []), "flow", 'unknown key "flow"'),
]


@pytest.mark.parametrize("label,change,path,message", CASES, ids=[c[0] for c in CASES])
def test_python_names_the_field(label: str, change: Callable[[dict[str, Any]], None], path: str, message: str) -> None:
    with pytest.raises(ccsim.SpecError) as info:
        ccsim.run(mutate(change), progress=False)
    assert info.value.path == path
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}: ")
    assert isinstance(info.value, ValueError)


def to_toml(spec: dict[str, Any]) -> str:
    """A minimal TOML writer for these test specs."""

    def value(v: Any) -> str:
        if isinstance(v, str):
            return '"' + v + '"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return str(v)

    lines = []
    for key, v in spec.items():
        if isinstance(v, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {value(x)}" for k, x in v.items()]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                lines.append(f"[[{key}]]")
                lines += [f"{k} = {value(x)}" for k, x in item.items()]
        else:
            lines.append(f"{key} = {value(v)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("label,change,path,message", CASES, ids=[c[0] for c in CASES])
def test_cli_prints_one_line_and_exits_2(tmp_path: Path, label: str, change: Callable[[dict[str, Any]], None], path: str, message: str) -> None:
    f = tmp_path / "bad.toml"
    spec = mutate(change)
    if "flow" in spec and spec["flow"] == []:
        f.write_text("flow = []\n" + to_toml({k: v for k, v in spec.items() if k != "flow"}))
    else:
        f.write_text(to_toml(spec))
    out = tmp_path / "out"
    for cmd in (["validate", str(f)], ["run", str(f), "-o", str(out)]):
        proc = cli(*cmd)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith(f"ccsim: error: {path}: "), lines[0]
        assert message in lines[0]
        assert "Traceback" not in proc.stderr
    assert not out.exists(), "no output folder may be written for bad input"


def test_toml_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('[run]\nduration = "5s"\nseed = = 3\n')
    with pytest.raises(ccsim.SpecError) as info:
        ccsim.load(f)
    assert info.value.path == "line 3, column 8"
    assert str(info.value).startswith("TOML syntax error at line 3, column 8")
    proc = cli("validate", str(f))
    assert proc.returncode == 2
    assert proc.stderr.startswith("ccsim: error: TOML syntax error at line 3, column 8")


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    proc = cli("run", str(tmp_path / "nope.toml"), "-o", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "no such scenario file" in proc.stderr


def test_builder_errors_come_from_the_same_validator() -> None:
    s = ccsim.Scenario(duration="5s").link("a", "b", rate="10Mbs", delay="1ms")
    with pytest.raises(ccsim.SpecError, match=r'links\[0\].rate: "10Mbs" is not a rate'):
        s.run(progress=False)
    s = ccsim.Scenario(duration="5s").link("a", "b", rate="1Mbps", delay="1ms").flow("f", "cbr", "a", "b", rat="1Mbps")
    with pytest.raises(ccsim.SpecError, match='unknown key "rat"'):
        s.validate()


def test_unit_less_number_is_rejected_with_a_hint() -> None:
    spec = small_spec()
    spec["run"]["duration"] = 60
    with pytest.raises(ccsim.SpecError, match='run.duration: 60 has no unit'):
        ccsim.validate(spec)


def test_non_finite_or_non_data_values_are_spec_errors() -> None:
    spec = small_spec()
    spec["links"][0]["loss"] = float("inf")
    with pytest.raises(ccsim.SpecError, match=r"links\[0\]\.loss: expected a finite number, found inf"):
        ccsim.validate(spec)
    spec = small_spec()
    spec["run"]["seed"] = object()
    with pytest.raises(ccsim.SpecError, match="not plain data"):
        ccsim.run(spec, progress=False)
    with pytest.raises(ccsim.SpecError, match="expected a TOML path, a dict or a Scenario, found int"):
        ccsim.run(42, progress=False)  # type: ignore[arg-type]
