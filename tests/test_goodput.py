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


def dumbbell_100(recovery: str) -> dict[str, Any]:
    """The 100-flow 1 Gbit/s dumbbell of issue 25 (validation/ns3/run.py --suite issue25: D = 20 ms,
    1000-packet queue, 100 Mbit/s access links), SACK flows starting at uniform times in [0, 1) s
    (seed 1)."""
    import random

    rng = random.Random(1)
    links: list[dict[str, Any]] = [{"between": ["r1", "r2"], "rate": "1Gbps", "delay": "20ms", "queue": "1000p"}]
    flows = []
    for i in range(100):
        links.append({"between": [f"s{i}", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"})
        links.append({"between": ["r2", f"d{i}"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"})
        flows.append({"name": f"tcp{i}", "protocol": "sack", "from": f"s{i}", "to": f"d{i}",
                      "start": f"{round((rng.random() + 0.044) * 1e9)}ns", "packet_size": "1054B",
                      "delayed_ack": True, "initial_window": 10, "rto": "ns3", "recovery": recovery})
    return {"run": {"duration": "10s", "seed": 1, "warmup": "2s"}, "links": links, "flows": flows,
            "output": {"series": []}}


def test_seed_1_in_order_goodput_stays_under_the_payload_capacity_after_a_sack_backlog() -> None:
    # A pin of seed 1's start times, not a law: over seeds 1-4 validation.md measures the
    # default at 0.978, 0.993, 1.004 and 0.989 of the capacity and RFC 6675 at 1.004, 0.998,
    # 1.022 and 0.988, so which side of the capacity a seed lands on is not guaranteed. What
    # holds is the last assertion: far less data held above gaps with the default.
    # From 0.7 s the bottleneck queue overflows; flows whose retransmissions are lost hold
    # SACKed data above a hole until their timeout, some of it past the warm-up at 2 s. The
    # link carries at most 1 Gbit/s x 1014/1054 of payload. On seed 1 RFC 6675 to the letter
    # leaves more above the holes at 2 s than the window's spare capacity and its in-order
    # goodput exceeds it (1.004); the default recovery (ns-3's) stays under it (0.978).
    capacity = 1e9 * (1054 - 40) / 1054
    default = ccsim.run(dumbbell_100("ns3"), progress=False).flows()
    rfc = ccsim.run(dumbbell_100("rfc6675"), progress=False).flows()
    assert default["goodput_bps"].sum() <= capacity
    assert default["arrival_bps"].sum() <= capacity
    assert rfc["goodput_bps"].sum() > capacity
    # What the receivers held above a gap at 2 s and released later is what separates the two
    # measures: far less with the default.
    held_default = default["goodput_bps"].sum() - default["arrival_bps"].sum()
    held_rfc = rfc["goodput_bps"].sum() - rfc["arrival_bps"].sum()
    assert held_default < held_rfc / 2
