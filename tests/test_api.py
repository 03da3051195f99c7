"""The Python API: three doors to one spec, the result object, output files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest

import ccsim
from conftest import EXAMPLES, small_spec

TOML = """
[run]
duration = "5s"
seed = 1

[[links]]
between = ["s", "r"]
rate = "100Mbps"
delay = "1ms"
queue = "100p"

[[links]]
between = ["r", "d"]
rate = "10Mbps"
delay = "10ms"
queue = "30p"

[[flows]]
name = "tcp1"
protocol = "newreno"
from = "s"
to = "d"
"""


def builder() -> ccsim.Scenario:
    return (
        ccsim.Scenario(duration="5s", seed=1)
        .link("s", "r", rate="100Mbps", delay="1ms", queue="100p")
        .link("r", "d", rate="10Mbps", delay="10ms", queue="30p")
        .flow("tcp1", "newreno", "s", "d")
    )


def test_toml_dict_and_builder_give_the_same_spec(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(TOML)
    from_toml = ccsim.load(f)
    assert from_toml == ccsim.validate(small_spec()) == builder().validate()
    # Defaults are filled in once, by the Rust validator.
    assert from_toml["flows"][0]["packet_size"] == "1kB"
    assert from_toml["output"]["series"] == ["rate", "cwnd", "queue"]


def test_summary_has_the_documented_fields() -> None:
    res = builder().run(progress=False)
    s = res.summary
    flow = s["flows"]["tcp1"]
    for key in ["goodput_bps", "sent_packets", "received_packets", "lost_packets", "retransmitted_packets", "completion_time_s"]:
        assert key in flow
    link = s["links"]["r->d"]
    for key in ["utilization", "drops", "mean_queue_packets"]:
        assert key in link
    assert s["fairness"]["jain"] == pytest.approx(1.0)
    for key in ["seed", "events", "sim_seconds", "wall_seconds", "events_per_second"]:
        assert key in s["run"]
    # Goodput cannot exceed the bottleneck's payload rate (960 of 1000 bytes at 10 Mbps).
    assert 0 < flow["goodput_bps"] <= 10e6 * 960 / 1000


def test_series_is_a_tidy_dataframe() -> None:
    res = ccsim.run(small_spec(), progress=False)
    rate = res.series("rate")
    assert list(rate.columns) == ["time", "entity", "variable", "value"]
    assert set(rate["entity"].astype(str)) == {"tcp1"}
    # One sample per second of a 5 s run.
    assert list(rate["time"]) == [1.0, 2.0, 3.0, 4.0, 5.0]
    # The rate series integrates to the delivered bytes that the summary reports.
    delivered_bits = rate["value"].sum() * 1.0
    assert delivered_bits == pytest.approx(res.summary["flows"]["tcp1"]["goodput_bps"] * 5, rel=1e-9)
    with pytest.raises(KeyError, match="recorded: cwnd, queue, queue_bytes, rate"):
        res.series("srtt")


def test_finite_transfer_reports_completion_time() -> None:
    spec = small_spec(duration="30s")
    spec["flows"][0]["size"] = "1MB"
    res = ccsim.run(spec, progress=False)
    f = res.summary["flows"]["tcp1"]
    # 1 MB over a 10 Mbps bottleneck needs at least 0.8 s of payload time.
    assert f["completion_time_s"] is not None and 0.8 < f["completion_time_s"] < 5
    assert f["goodput_bps"] * 30 == pytest.approx(8e6)


def test_write_produces_summary_parquet_and_plots(tmp_path: Path) -> None:
    res = ccsim.run(EXAMPLES / "dumbbell.toml", progress=False)
    out = res.write(tmp_path / "out")
    assert json.loads((out / "summary.json").read_text()) == res.summary
    table = pq.read_table(out / "series.parquet")
    meta = table.schema.metadata
    assert meta[b"ccsim.seed"] == b"1"
    assert meta[b"ccsim.spec_hash"] == res.spec_hash.encode()
    df = table.to_pandas()
    pd.testing.assert_frame_equal(df, res.table.astype({"entity": df["entity"].dtype, "variable": df["variable"].dtype}))
    for png in ["rate.png", "cwnd.png", "queue.png"]:
        assert (out / png).stat().st_size > 1000


def test_schema_describes_the_spec() -> None:
    schema: dict[str, Any] = ccsim.schema()
    assert set(schema["required"]) == {"run", "links"}
    assert "flows" in schema["properties"]


def test_on_progress_reports_monotonic_time_and_can_stop_a_run() -> None:
    seen: list[tuple[float, float, int]] = []
    ccsim.run(small_spec(duration="20s"), progress=False, on_progress=lambda t, h, e: seen.append((t, h, e)))
    assert seen[-1][0] == seen[-1][1] == 20.0
    assert all(a[0] <= b[0] and a[2] <= b[2] for a, b in zip(seen, seen[1:]))

    class Stop(Exception):
        pass

    def stop(t: float, h: float, e: int) -> None:
        raise Stop(f"stopped at {t}")

    with pytest.raises(Stop):
        ccsim.run(small_spec(duration="1000s"), progress=False, on_progress=stop)
