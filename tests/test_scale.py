"""Large scenarios are cheap around the simulation: what is written for 50 000 flows does not grow
with the series of every flow (one summary of a few kB, one series record per aggregate entity and
sampling instant). How long the writing takes is not asserted here, on a machine shared with
other work: `ccsim bench setup-100k` times it (its `write_seconds`; docs/performance.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

import ccsim
from ccsim.bench import scale_toml


def test_fifty_thousand_flows_are_written_compactly(tmp_path: Path) -> None:
    path = tmp_path / "scale.toml"
    path.write_text(scale_toml(50_000))
    res = ccsim.run(path, progress=False)
    out = res.write(tmp_path / "out", plots=False)
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
