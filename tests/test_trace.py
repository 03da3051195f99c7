"""``links[].trace``: a mahimahi trace file as a link's rate, as the loaders read it (the
engine's semantics are tested in crates/ccsim-engine/tests/delivery.rs, the runs in
crates/ccsim-scenario/tests/trace.rs, the emulator in tests/test_emulate.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ccsim
from ccsim import SpecError
from ccsim.emulate import load_link_directions

DATA = Path(__file__).parent / "data"

SCENARIO = """
[run]
duration = "3s"
[[links]]
between = ["a", "b"]
rate = "7Mbps"
delay = "10ms"
trace = {trace}
[[flows]]
name = "f"
protocol = "cubic"
from = "a"
to = "b"
"""


def scenario(tmp_path: Path, trace: str, text: str | None = None, name: str = "t.trace") -> Path:
    if text is not None:
        (tmp_path / name).write_text(text)
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(trace=trace))
    return path


def test_a_trace_file_becomes_its_numbers_in_the_canonical_spec(tmp_path: Path) -> None:
    spec = ccsim.load(scenario(tmp_path, '"t.trace"', "1\n1\n3\n"))
    assert spec["links"][0]["trace"] == [1, 1, 3]
    # The same numbers inline give the same canonical spec (and so the same cache key).
    inline = ccsim.load(scenario(tmp_path, "[1, 1, 3]"))
    assert json.dumps(spec, sort_keys=True) == json.dumps(inline, sort_keys=True)


def test_the_shipped_cellular_trace_loads(tmp_path: Path) -> None:
    text = (DATA / "cellular-2s.trace").read_text()
    spec = ccsim.load(scenario(tmp_path, '"t.trace"', text))
    assert len(spec["links"][0]["trace"]) == len(text.splitlines()) == 1172


@pytest.mark.parametrize("text, want", [
    (None, "no such trace file"),
    ("", "is empty"),
    ("1\n\n2\n", "line 2: expected a whole number of milliseconds, found an empty line"),
    ("1\n2\nx3\n", "line 3: expected a whole number of milliseconds, found 'x3'"),
    ("1\n-2\n", "line 2"),
    ("1\n" + "9" * 30 + "\n", "line 2: " + "9" * 20 + "... is too large"),
])
def test_a_bad_trace_file_is_one_line_naming_the_field_the_file_and_the_line(
        tmp_path: Path, text: str | None, want: str) -> None:
    with pytest.raises(SpecError) as e:
        ccsim.load(scenario(tmp_path, '"t.trace"', text))
    assert e.value.path == "links[0].trace"
    assert want in str(e.value) and "t.trace" in str(e.value) and "\n" not in str(e.value)


def test_a_decreasing_or_zero_trace_file_is_refused_by_the_specs_validation(tmp_path: Path) -> None:
    for text, want in (("3\n2\n", "[1] = 2 follows 3"), ("0\n0\n", "nonzero time")):
        with pytest.raises(SpecError) as e:
            ccsim.load(scenario(tmp_path, '"t.trace"', text))
        assert e.value.path == "links[0].trace" and want in str(e.value)


def test_a_link_files_direction_table_takes_a_trace_file(tmp_path: Path) -> None:
    (tmp_path / "down.trace").write_text("2\n")
    path = tmp_path / "link.toml"
    path.write_text('[[links]]\nbetween = ["client", "server"]\nrate = "10Mbps"\ndelay = "5ms"\n'
                    '[links.server_to_client]\ntrace = "down.trace"\n')
    up, down = load_link_directions(path)
    assert "trace" not in up["links"][0]
    assert down["links"][0]["trace"] == [2]
    path.write_text(path.read_text().replace("down.trace", "missing.trace"))
    with pytest.raises(SpecError) as e:
        load_link_directions(path)
    assert e.value.path == "links[0].server_to_client.trace"


def test_the_builder_takes_a_trace_file_or_its_numbers(tmp_path: Path) -> None:
    (tmp_path / "t.trace").write_text("1\n2\n")
    built = ccsim.Scenario("1s").link("a", "b", rate="1Mbps", delay="1ms", trace=tmp_path / "t.trace").validate()
    assert built["links"][0]["trace"] == [1, 2]
    inline = ccsim.Scenario("1s").link("a", "b", rate="1Mbps", delay="1ms", trace=[1, 2]).validate()
    assert inline == built
    with pytest.raises(SpecError) as e:
        ccsim.Scenario("1s").link("a", "b", rate="1Mbps", delay="1ms", trace=tmp_path / "none.trace")
    assert e.value.path == "links[0].trace"


def test_ccsim_run_reads_the_trace_file_and_spec_json_holds_its_numbers(tmp_path: Path) -> None:
    from ccsim.cli import main

    path = scenario(tmp_path, '"t.trace"', (DATA / "cellular-2s.trace").read_text())
    assert main(["run", str(path), "-o", str(tmp_path / "out"), "--no-plots", "-q"]) == 0
    written = json.loads((tmp_path / "out" / "spec.json").read_text())
    assert written["links"][0]["trace"] == ccsim.load(path)["links"][0]["trace"]
    # Goodput below the trace's mean capacity (7.05 Mbit/s).
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert 0 < summary["flows"]["f"]["goodput_bps"] < 7.05e6
