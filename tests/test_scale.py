"""Large scenarios are cheap around the simulation: writing the results of 50 000 flows takes a
small fraction of a second (it took seconds when every flow went through pandas and JSON), and
what is written does not grow with the series of every flow."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pyarrow.parquet as pq

import ccsim
from ccsim.bench import scale_toml


def test_fifty_thousand_flows_are_written_in_a_blink(tmp_path: Path) -> None:
    path = tmp_path / "scale.toml"
    path.write_text(scale_toml(50_000))
    res = ccsim.run(path, progress=False)
    start = time.perf_counter()
    out = res.write(tmp_path / "out", plots=False)
    seconds = time.perf_counter() - start
    assert seconds < 0.5, f"writing took {seconds:.2f} s"
    assert (out / "summary.json").stat().st_size < 4096
    assert pq.read_metadata(out / "flows.parquet").num_rows == 50_000
    # One record per aggregate entity and sampling instant (11 instants), not per flow.
    assert pq.read_metadata(out / "series.parquet").num_rows < 1000
    assert json.loads((out / "summary.json").read_text())["aggregate"]["flows"] == 50_000


def test_the_generator_makes_what_it_says(tmp_path: Path) -> None:
    spec = ccsim.load(_write(tmp_path / "s.toml", scale_toml(5, hosts=True)))
    assert len(spec["flows"]) == 5 and len(spec["links"]) == 1 + 2 * 5
    assert {f["rate"] for f in spec["flows"]} == {"1kbps"}


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
