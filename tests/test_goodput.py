"""Goodput is application bytes delivered in order in the measurement window, as ns-3's
PacketSink and iperf count it; `arrival_bps` also counts bytes that arrived above a gap
(issue 25, section 2)."""

from __future__ import annotations

from typing import Any

import ccsim
from conftest import small_spec

MSS = 960  # the default 1000-byte packet less 40 bytes of header


def sack_run(warmup: str, drops: list[int]) -> dict[str, Any]:
    # A 20-segment window, under the path's 27-segment BDP: nothing is lost but the drops.
    spec = small_spec(duration="2s", warmup=warmup)
    spec["flows"][0].update({"protocol": "sack", "max_window": 20})
    if drops:
        spec["drops"] = [{"flow": "tcp1", "link": "r->d", "seqs": drops}]
    summary: dict[str, Any] = ccsim.run(spec, progress=False).summary["flows"]["tcp1"]
    return summary


def test_bytes_held_above_a_gap_at_the_window_start_count_in_goodput_not_in_arrival() -> None:
    # Segments 400-402 are lost from a 20-segment window; when the window opens at 0.55 s, inside
    # the recovery, the receiver holds the other 17 segments of that window above the hole,
    # released in order inside the window once it is repaired. Goodput counts them, arrival
    # does not: the difference is exactly those 17 segments.
    window_s = 2.0 - 0.55
    f = sack_run("0.55s", [400, 401, 402])
    held = (f["goodput_bps"] - f["arrival_bps"]) * window_s / 8
    assert abs(held - 17 * MSS) < 1e-6, held
    # Without a loss nothing is ever held: the two are the same.
    clean = sack_run("0.55s", [])
    assert clean["lost_packets"] == 0 and clean["goodput_bps"] == clean["arrival_bps"] > 0


def test_goodput_is_what_flows_parquet_and_summary_say() -> None:
    res = ccsim.run(small_spec(duration="3s"), progress=False)
    row = res.flows().loc["tcp1"]
    flow = res.summary["flows"]["tcp1"]
    assert row["goodput_bps"] == flow["goodput_bps"] and row["arrival_bps"] == flow["arrival_bps"]
