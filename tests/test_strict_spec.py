"""Issue 13: a spec is read strictly and its errors speak the user's language (section 3), and
every key whose value sizes memory is bounded before a run is built (section 1).

Where the message is the point, the CLI is run on a small file: one line naming the field path
and the bad value, exit status 2.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

import ccsim
from conftest import cli, small_spec

LINKS = """
[[links]]
between = ["s", "r"]
rate = "100Mbps"
delay = "1ms"
[[links]]
between = ["r", "d"]
rate = "10Mbps"
delay = "10ms"
"""
FLOW = """
[[flows]]
name = "tcp1"
protocol = "newreno"
from = "s"
to = "d"
"""


def validate_file(tmp_path: Path, text: str) -> tuple[int, str]:
    """``ccsim validate`` on ``text``: exit status and the single stderr line (or stdout)."""
    f = tmp_path / "spec.toml"
    f.write_text(text)
    proc = cli("validate", str(f), "--print")
    if proc.returncode == 0:
        return 0, proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.returncode, lines[0]


# Section 3, bullet 1: only tables fill tables.

@pytest.mark.parametrize("text,line", [
    ('run = ["5s", 1]\n' + LINKS, "ccsim: error: run: expected a table, found an array"),
    ('run = { duration = "5s" }\nlinks = [[["s1", "r1"], "100Mbps", "1ms"]]\n', "ccsim: error: links[0]: expected a table, found an array"),
    ('output = ["rate", "cwnd"]\n[run]\nduration = "5s"\n' + LINKS, "ccsim: error: output: expected a table, found an array"),
    ('[run]\nduration = "5s"\n' + LINKS + FLOW + "vegas = [1, 3, 1]\n", "ccsim: error: flows[0].vegas: expected a table, found an array"),
], ids=["run", "links", "output", "vegas"])
def test_an_array_never_fills_a_table(tmp_path: Path, text: str, line: str) -> None:
    assert validate_file(tmp_path, text) == (2, line)


# Section 3, bullet 2: unit strings written by programs.

def test_scientific_notation_and_float_noise_are_read(tmp_path: Path) -> None:
    text = ('[run]\nduration = "5s"\n[[links]]\nbetween = ["s", "d"]\nrate = "1e3Mbps"\ndelay = "1e-3s"\nqueue = "1e3p"\n'
            '[[links]]\nbetween = ["d", "e"]\nrate = "1.5e9bps"\ndelay = "1ms"\nqueue = "1.5e4B"\n'
            + FLOW.replace('"d"', '"e"') + f'start = "{0.1 * 3}s"\n')
    status, out = validate_file(tmp_path, text)
    assert status == 0, out
    canon = json.loads(out)
    assert canon["links"][0]["rate"] == "1Gbps"
    assert canon["links"][0]["delay"] == "1ms"
    assert canon["links"][0]["queue"] == "1000p"
    assert canon["links"][1]["rate"] == "1500Mbps"
    assert canon["links"][1]["queue"] == "15kB"
    assert canon["flows"][0]["start"] == "300ms"


@pytest.mark.parametrize("key,value,line", [
    ("delay", "-5ms", 'ccsim: error: links[0].delay: must not be negative, found "-5ms"'),
    ("rate", "1e30Gbps", 'ccsim: error: links[0].rate: "1e30Gbps" is too large: a rate is at most 18446744073709551615bps'),
    ("queue", "-5p", 'ccsim: error: links[0].queue: must not be negative, found "-5p"'),
    ("queue", "1e30GB", 'ccsim: error: links[0].queue: "1e30GB" is too large: a size is at most 18446744073709551615B'),
])
def test_negative_and_huge_quantities_say_so(tmp_path: Path, key: str, value: str, line: str) -> None:
    text = '[run]\nduration = "5s"\n' + LINKS.replace('delay = "1ms"', 'delay = "1ms"\nqueue = "100p"', 1)
    text = re.sub(rf'(?m)^{key} = .*$', f'{key} = "{value}"', text, count=1)
    assert validate_file(tmp_path, text) == (2, line)


# Section 3, bullet 3: no Rust vocabulary.

RUST = re.compile(r"\b(u8|u16|u32|u64|usize|i64|f32|f64|struct|enum|variant|sequence)\b|invalid (type|value|length)"
                  r"|unknown field|missing field|floating point|`")


def bad_specs() -> list[tuple[str, dict[str, Any]]]:
    """Type confusions on every kind of key, and the other shapes serde names in Rust."""
    values: list[Any] = [None, True, -1, 1.5, 5_000_000_000, "text", [1, 2, 3], {"a": 1}]
    keys = [("run", "duration"), ("run", "seed"), ("run", "routing"), ("links", 0, "between"),
            ("links", 0, "rate"), ("links", 0, "queue"), ("links", 0, "loss"), ("flows", 0, "protocol"),
            ("flows", 0, "name"), ("flows", 0, "initial_window"), ("flows", 0, "delayed_ack"),
            ("flows", 0, "max_window"), ("flows", 0, "vegas"), ("flows", 0, "size"), ("output",),
            ("flows",), ("links",), ("run",)]
    out = []
    for key in keys:
        for v in values:
            spec = copy.deepcopy(small_spec())
            node: Any = spec
            for k in key[:-1]:
                node = node[k]
            node[key[-1]] = v
            out.append((f"{key} = {v!r}", spec))
    spec = copy.deepcopy(small_spec())
    spec["links"][0]["between"] = ["s", "r", "x"]
    out.append(("three nodes", spec))
    spec = copy.deepcopy(small_spec())
    del spec["run"]["duration"]
    out.append(("missing duration", spec))
    spec = copy.deepcopy(small_spec())
    spec["flows"][0]["protocol"] = "vegas"
    spec["flows"][0]["vegas"] = {"alpha": 1, "delta": 2}
    out.append(("unknown vegas key", spec))
    return out


def test_no_message_speaks_rust() -> None:
    messages = []
    for label, spec in bad_specs():
        try:
            ccsim.validate(spec)
        except ccsim.SpecError as e:
            messages.append((label, str(e)))
    assert len(messages) > 100
    offenders = [f"{label}: {m}" for label, m in messages if RUST.search(_without_key_names(m))]
    assert not offenders, "\n".join(offenders)


def _without_key_names(message: str) -> str:
    """The message less what names keys (a table's key list, a key's path): `vegas.variant` is
    a key, not Rust's vocabulary."""
    return message.replace("vegas.variant", "vegas.<key>").replace(", variant)", ")")


@pytest.mark.parametrize("key,toml_value,line", [
    ("seed", "1.5", "ccsim: error: run.seed: expected a whole number from 0 to 18446744073709551615, found 1.5"),
    ("seed", "-1", "ccsim: error: run.seed: expected a whole number from 0 to 18446744073709551615, found -1"),
    ("routing", '"fast"', 'ccsim: error: run.routing: expected one of: delay, hops, found "fast"'),
])
def test_cli_words_type_errors_for_users(tmp_path: Path, key: str, toml_value: str, line: str) -> None:
    assert validate_file(tmp_path, f'[run]\nduration = "5s"\n{key} = {toml_value}\n' + LINKS) == (2, line)


def test_cli_names_two_nodes_and_known_keys(tmp_path: Path) -> None:
    status, line = validate_file(tmp_path, '[run]\nduration = "5s"\n' + LINKS.replace('["s", "r"]', '["s", "r", "x"]'))
    assert (status, line) == (2, 'ccsim: error: links[0].between: expected exactly two node names, such as ["s1", "r1"], '
                                 'found ["s","r","x"]')
    status, line = validate_file(tmp_path, '[run]\nduration = "5s"\n' + LINKS + FLOW + 'protocl = "reno"\n')
    assert status == 2
    assert line.startswith('ccsim: error: flows[0].protocl: unknown key "protocl" (known keys: name, protocol, from, to,')


# Section 3, bullet 4: Python.

@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_a_non_finite_number_names_its_field(value: float) -> None:
    spec = small_spec()
    spec["links"][1]["loss"] = value
    with pytest.raises(ccsim.SpecError) as info:
        ccsim.validate(spec)
    assert info.value.path == "links[1].loss"
    assert str(info.value) == f"links[1].loss: expected a finite number, found {value}"


def test_a_non_finite_numpy_value_names_its_field() -> None:
    np = pytest.importorskip("numpy")
    spec = small_spec()
    spec["links"][0]["queue"] = {"kind": "red", "w_q": np.float64("nan")}
    with pytest.raises(ccsim.SpecError) as info:
        ccsim.validate(spec)
    assert info.value.path == "links[0].queue.w_q"


@pytest.mark.parametrize("seed", [2**64, 2**70, -1, -(2**63) - 1])
def test_a_seed_out_of_range_is_a_whole_number_error(seed: int) -> None:
    for spec in (small_spec(seed=seed), ccsim.Scenario(duration="5s", seed=seed).link("a", "b", rate="1Mbps", delay="1ms")):
        with pytest.raises(ccsim.SpecError) as info:
            ccsim.validate(spec)
        assert info.value.path == "run.seed"
        message = str(info.value)
        assert "expected a whole number from 0 to 18446744073709551615" in message
        assert f"found {seed}" in message
        assert "float" not in message and "e+" not in message


def test_deep_nesting_is_a_spec_error_not_a_recursion_error() -> None:
    deep: Any = 1
    for _ in range(10_000):
        deep = [deep]
    spec = small_spec()
    spec["flows"][0]["name"] = deep
    with pytest.raises(ccsim.SpecError, match="nested more than 32 levels deep") as info:
        ccsim.validate(spec)
    assert info.value.path is not None and info.value.path.startswith("flows[0].name[0][0]")
    with pytest.raises(ccsim.SpecError):
        ccsim.run({"run": deep}, progress=False)


@pytest.mark.parametrize("text", [
    '[run]\nduration = "5s"\n' + LINKS,
    'run = { duration = "5s" }',
    "[run]",
])
def test_toml_text_given_as_a_path_says_so(text: str) -> None:
    for call in (ccsim.validate, ccsim.load, lambda s: ccsim.run(s, progress=False)):
        with pytest.raises(ccsim.SpecError) as info:
            call(text)
        assert "looks like TOML text, not a file path" in str(info.value)
        assert info.value.path == "(document)"


def test_a_file_whose_name_has_an_equals_sign_still_loads(tmp_path: Path) -> None:
    f = tmp_path / "rate=10.toml"
    with pytest.raises(ccsim.SpecError, match="no such scenario file"):
        ccsim.load(str(f))
    f.write_text('[run]\nduration = "5s"\n' + LINKS)
    assert ccsim.load(str(f))["run"]["duration"] == "5s"


def test_run_many_names_the_index_of_a_bad_spec() -> None:
    specs = [small_spec(duration="100ms", seed=s) for s in range(5)]
    specs[3]["links"][0]["rate"] = "10Mbs"
    for jobs in (1, 2):
        with pytest.raises(ccsim.SpecError) as info:
            ccsim.run_many(specs, jobs=jobs)
        assert info.value.path == "specs[3].links[0].rate"
        assert str(info.value) == 'specs[3].links[0].rate: "10Mbs" is not a rate (try "10Mbps")'
    specs[3] = {"run": "5s"}
    with pytest.raises(ccsim.SpecError, match=r"^specs\[3\]\.run: expected a table, found \"5s\"$"):
        ccsim.run_many(specs, jobs=2)
    specs[3] = 42
    with pytest.raises(ccsim.SpecError, match=r"^specs\[3\]: expected a TOML path, a dict or a Scenario"):
        ccsim.run_many(specs, jobs=2)


# Section 1, bullet 1: every key that sizes memory is bounded in validation.

BOUNDS = [
    ("initial_window = 1000000000\n", "flows[0].initial_window",
     "must be 1 to 100000 segments (the initial window is sent at once), found 1000000000"),
    (LINKS.replace('delay = "10ms"', 'delay = "10ms"\nqueue = "2000000p"'), "links[1].queue",
     'must be at most 1000000 packets ("1000000p"), found "2000000p"'),
    (LINKS.replace('delay = "10ms"', 'delay = "10ms"\nqueue = "2GB"'), "links[1].queue",
     'must be at most 1000000000 bytes ("1GB"), found "2GB"'),
    (LINKS.replace('delay = "10ms"', 'delay = "10ms"\nqueue = { kind = "red", limit = "5000000p" }'), "links[1].queue.limit",
     'must be at most 1000000 packets ("1000000p"), found "5000000p"'),
    (LINKS.replace('delay = "10ms"', 'delay = "10s"').replace('"10Mbps"', '"1000Gbps"'), "links[1].delay",
     '"10s" at "1000Gbps" holds 1250000000000 bytes in flight in each direction; at most 1000000000 (1GB)'),
    ('[output]\ninterval = "1us"\n', "output.interval", "at most 10000000 (use a longer interval)"),
    ('[output]\ninterval = "100us"\nseries = ["rate", "cwnd", "queue"]\n', "output.series",
     "10000000 samples of [\"rate\", \"cwnd\", \"queue\"] over 1 flows and 4 link directions make 100000000 values; at most 20000000 (use a longer interval or fewer series)"),
    ('[[ticp]]\nname = "a"\ncollector = "s"\nsources = { d = 4000000 }\n[[ticp]]\nname = "b"\ncollector = "s"\n'
     'sources = { d = 200000 }\n', "ticp[1].sources", "at most 4194304 in all"),
]


@pytest.mark.parametrize("extra,path,message", BOUNDS, ids=["initial_window", "queue_packets", "queue_bytes", "red_limit",
                                                             "link_bdp", "samples", "series_values", "ticp_sources"])
def test_keys_that_size_memory_are_bounded(tmp_path: Path, extra: str, path: str, message: str) -> None:
    text = '[run]\nduration = "5s"\n' + (extra if extra.startswith("\n[[links]]") else LINKS + FLOW + extra)
    if "[output]" in extra:
        text = '[run]\nduration = "1000s"\n' + LINKS + FLOW + extra
    status, line = validate_file(tmp_path, text)
    assert status == 2, line
    assert line.startswith(f"ccsim: error: {path}: "), line
    assert message in line


def test_the_schema_patterns_accept_what_the_parser_reads() -> None:
    defs = ccsim.schema()["definitions"]
    accepted = {"RateStr": ["1e3Mbps", "1.5e9bps", "10Mbps", ".5Gbps"], "DurStr": ["1e-3s", "0.30000000000000004s", "5.ms"],
                "BytesStr": ["1.5e4B", "20kB"], "QueueStr": ["1e3p", "100p", "1.5E4B"], "SsthreshStr": ["bdp", "6.4e4B"]}
    for name, examples in accepted.items():
        pattern = re.compile(defs[name]["pattern"])
        for text in examples:
            assert pattern.match(text), (name, text)
        assert not pattern.match("-" + examples[-1]), name


def test_an_empty_path_and_a_bad_jobs_count_are_spec_errors() -> None:
    with pytest.raises(ccsim.SpecError, match=r"the scenario path is empty"):
        ccsim.validate("")
    for jobs in ("2", 0, 1.5, True):
        with pytest.raises(ccsim.SpecError, match=r"^jobs: must be a whole number of at least 1"):
            ccsim.run_many([{}], jobs=jobs)  # type: ignore[arg-type]
