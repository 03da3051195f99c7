"""Traffic generators (docs/scenarios.md "Traffic generators"), checked against their
models: Poisson arrivals, Pareto sizes, the on/off duty cycle, constant-rate streams, and the
completion time of a lone transfer against its closed form (slow-start rounds plus
serialisation)."""

from __future__ import annotations

import json
import math
from typing import Any

import pyarrow.parquet as pq
import pytest

import ccsim
from ccsim import SpecError, _ccsim


def fast_pair(duration: str) -> ccsim.Scenario:
    return (ccsim.Scenario(duration=duration, seed=7)
            .link("s", "r", rate="1Gbps", delay="1ms", queue="10000p")
            .link("r", "d", rate="1Gbps", delay="5ms", queue="10000p")
            .output(series=[]))


def rows_of(res: Any, generator: str) -> list[dict[str, Any]]:
    cols = res.flow_columns()
    keep = [i for i, g in enumerate(cols["generator"]) if g == generator]
    return [{k: v[i] for k, v in cols.items()} for i in keep]


def test_web_arrivals_are_poisson_and_sizes_pareto() -> None:
    # 50 flows/s for 100 s: the count is Poisson with mean 5000 (sd 71).
    shape, mean = 2.5, 30_000
    res = (fast_pair("100s")
           .traffic("web", "web", "s", "d", protocol="newreno", arrivals=50.0, mean_size=f"{mean}B", shape=shape)
           .run(progress=False))
    t = res.summary["traffic"]["web"]
    n = t["started"]
    assert abs(n - 5000) < 4 * math.sqrt(5000)
    rows = rows_of(res, "web")
    assert len(rows) == n
    # Interarrival gaps: exponential, mean 20 ms, so a fraction exp(-1) exceed the mean.
    starts = [r["start_s"] for r in rows]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert abs(sum(gaps) / len(gaps) - 0.02) < 4 * 0.02 / math.sqrt(len(gaps))
    above = sum(g > 0.02 for g in gaps) / len(gaps)
    assert abs(above - math.exp(-1)) < 4 * math.sqrt(math.exp(-1) * (1 - math.exp(-1)) / len(gaps))
    # Sizes: Pareto with x_m = mean (shape - 1) / shape; shape 2.5 has a finite variance,
    # mean^2 / (shape (shape - 2)), so the sample mean is within 4 standard errors.
    sizes = [r["size_bytes"] for r in rows]
    sd = mean / math.sqrt(shape * (shape - 2))
    assert abs(sum(sizes) / n - mean) < 4 * sd / math.sqrt(n)
    x_m = mean * (shape - 1) / shape
    assert min(sizes) >= round(x_m)
    assert t["bytes_started"] == sum(sizes)
    # Every transfer on an idle gigabit path completes (but those still going at the end),
    # nearly as fast as alone.
    assert all(r["completion_time_s"] is not None for r in rows if r["start_s"] < 99)
    assert t["completed"] == sum(r["completion_time_s"] is not None for r in rows)
    assert 1.0 <= t["slowdown"]["median"] < 1.05


def test_heavy_tailed_sizes_follow_the_pareto_tail() -> None:
    # The XCP paper's shape 1.35 (infinite variance): check P(size > x) = (x_m / x)^shape.
    shape, mean = 1.35, 30_000
    res = (fast_pair("60s")
           .traffic("web", "web", "s", "d", protocol="newreno", arrivals=100.0, mean_size=f"{mean}B")
           .run(progress=False))
    sizes = [r["size_bytes"] for r in rows_of(res, "web")]
    n = len(sizes)
    x_m = mean * (shape - 1) / shape
    for factor in (2, 5, 20):
        p = factor ** -shape
        frac = sum(s > factor * x_m for s in sizes) / n
        assert abs(frac - p) < 4 * math.sqrt(p * (1 - p) / n), (factor, frac, p)


def test_a_lone_transfer_completes_in_slow_start_rounds_plus_serialisation() -> None:
    # One flow of 30 segments on an idle dumbbell: rounds of 2, 4, 8, 16 segments.
    size, ack = 1000, 40
    c1, cb, c3 = 100e6, 10e6, 100e6
    d1, db, d3 = 1e-3, 20e-3, 1e-3
    res = (ccsim.Scenario(duration="5s")
           .link("s", "r1", rate="100Mbps", delay="1ms", queue="1000p")
           .link("r1", "r2", rate="10Mbps", delay="20ms", queue="1000p")
           .link("r2", "d", rate="100Mbps", delay="1ms", queue="1000p")
           .flow("f", "newreno", "s", "d", size=f"{30 * 960}B")
           .run(progress=False))
    data = size * 8 / c1 + d1 + size * 8 / cb + db + size * 8 / c3 + d3
    back = ack * 8 / c3 + d3 + ack * 8 / cb + db + ack * 8 / c1 + d1
    rounds, left, window = [], 30, 2
    while left > 0:
        rounds.append(min(window, left))
        left -= window
        window *= 2
    # Each round starts one round trip after the last; its segments leave the bottleneck back
    # to back; the last segment's acknowledgement ends the transfer.
    closed = ((len(rounds) - 1) * (data + back) + size * 8 / c1 + d1 + rounds[-1] * size * 8 / cb
              + db + size * 8 / c3 + d3 + back)
    assert res.summary["flows"]["f"]["completion_time_s"] == pytest.approx(closed, abs=1e-9)


def test_a_web_transfer_alone_has_slowdown_one() -> None:
    res = (ccsim.Scenario(duration="20s", seed=3)
           .link("s", "r1", rate="100Mbps", delay="1ms")
           .link("r1", "r2", rate="10Mbps", delay="20ms")
           .link("r2", "d", rate="100Mbps", delay="1ms")
           .traffic("web", "web", "s", "d", protocol="sack", arrivals=0.5, mean_size="20kB")
           .output(series=[])
           .run(progress=False))
    rows = rows_of(res, "web")
    assert len(rows) >= 4
    # Transfers that overlap no other run exactly as on the empty network.
    alone = [r for i, r in enumerate(rows)
             if all(o is r or o["start_s"] > r["start_s"] + r["completion_time_s"]
                    or o["start_s"] + o["completion_time_s"] < r["start_s"] for o in rows)]
    assert alone and all(r["slowdown"] == 1.0 for r in alone)


def test_voice_calls_talk_for_their_duty_cycle() -> None:
    # 20 calls for 200 s; each talks on / (on + off) = 1 / 2.35 of the time at 64 kbit/s in
    # 200 B packets (40 per second).
    res = (fast_pair("200s").traffic("calls", "voice", "s", "d", count=20).run(progress=False))
    t = res.summary["traffic"]["calls"]
    expected = 20 * 200 * 40 / 2.35
    assert abs(t["sent_packets"] - expected) < 0.1 * expected
    assert t["received_packets"] + t["lost_packets"] <= t["sent_packets"]
    assert t["lost_packets"] == 0


def test_streams_send_at_their_constant_rate() -> None:
    # 640 kbit/s in 840 B packets: one every 10.5 ms, so 190 or 191 in 2 s whatever the phase.
    res = (fast_pair("2s").traffic("video", "streaming", ["s"], ["d"], count=4).run(progress=False))
    rows = rows_of(res, "video")
    assert [r["name"] for r in rows] == ["video/0", "video/1", "video/2", "video/3"]
    for r in rows:
        assert r["sent_packets"] in (190, 191)
        assert 0 <= r["start_s"] < 0.0105
    assert res.summary["traffic"]["video"]["sent_packets"] == sum(r["sent_packets"] for r in rows)


def test_generated_flows_are_deterministic_and_written(tmp_path: Any) -> None:
    s = (fast_pair("5s")
         .traffic("web", "web", ["s"], ["d"], protocol="newreno", arrivals=40.0, mean_size="30kB")
         .traffic("calls", "voice", "s", "d", count=3))
    a, b = s.run(progress=False), s.run(progress=False)
    assert a.summary["traffic"] == b.summary["traffic"]
    out = a.write(tmp_path / "out", plots=False)
    table = pq.read_table(out / "flows.parquet").to_pylist()
    assert sum(r["generator"] == "web" for r in table) == a.summary["traffic"]["web"]["started"]
    assert sum(r["generator"] == "calls" for r in table) == 3
    # summary.json's own flows are the spec's (none here); the traffic section names both.
    assert set(a.summary["traffic"]) == {"web", "calls"} and a.summary["flows"] == {}


@pytest.mark.parametrize(("gen", "path", "words"), [
    ({"kind": "web", "arrivals": 10.0, "mean_size": "30kB"}, "traffic[0].protocol", "need a protocol"),
    ({"kind": "web", "protocol": "cbr", "arrivals": 10.0, "mean_size": "30kB"}, "traffic[0].protocol",
     "TCP variant"),
    ({"kind": "web", "protocol": "reno", "mean_size": "30kB"}, "traffic[0].arrivals", "need arrivals"),
    ({"kind": "web", "protocol": "reno", "arrivals": -1.0, "mean_size": "30kB"}, "traffic[0].arrivals", "positive"),
    ({"kind": "web", "protocol": "reno", "arrivals": 1.0}, "traffic[0].mean_size", "need a mean_size"),
    ({"kind": "web", "protocol": "reno", "arrivals": 1.0, "mean_size": "3kB", "shape": 1.0}, "traffic[0].shape",
     "no mean"),
    ({"kind": "web", "protocol": "reno", "arrivals": 1.0, "mean_size": "3kB", "count": 3}, "traffic[0].count",
     "voice and streaming"),
    ({"kind": "web", "protocol": "reno", "arrivals": 1.0, "mean_size": "3kB", "options": {"size": "1kB"}},
     "traffic[0].options.size", "set by the generator"),
    ({"kind": "web", "protocol": "reno", "arrivals": 1.0, "mean_size": "3kB", "options": {"initial_windw": 3}},
     "traffic[0].options.initial_windw", "unknown"),
    ({"kind": "web", "protocol": "reno", "arrivals": 1.0, "mean_size": "3kB", "options": {"initial_window": 0}},
     "traffic[0].options.initial_window", "must be 1 to"),
    ({"kind": "voice"}, "traffic[0].count", "need a count"),
    ({"kind": "voice", "count": 2, "on": "0s"}, "traffic[0].on", "between 1ns"),
    ({"kind": "streaming", "count": 2, "on": "1s"}, "traffic[0].on", "voice generators only"),
    ({"kind": "streaming", "count": 2, "arrivals": 3.0}, "traffic[0].arrivals", "web generators only"),
    ({"kind": "streaming", "count": 2, "packet_size": "20B"}, "traffic[0].packet_size", "header"),
    ({"kind": "streaming", "count": 2, "rate": "0bps"}, "traffic[0].rate", "positive"),
    ({"kind": "podcast", "count": 2}, "traffic[0].kind", "web, voice, streaming"),
])
def test_bad_generators_name_their_field(gen: dict[str, Any], path: str, words: str) -> None:
    spec = fast_pair("5s").to_dict()
    spec["traffic"] = [{"name": "g", "from": ["s"], "to": ["d"], **gen}]
    with pytest.raises(SpecError) as e:
        ccsim.validate(spec)
    assert e.value.path == path and words in str(e.value), str(e.value)


@pytest.mark.parametrize(("change", "path", "words"), [
    ({"from": []}, "traffic[0].from", "at least one node"),
    ({"to": ["q"]}, "traffic[0].to[0]", "is in no link"),
    ({"to": ["s"]}, "traffic[0].from[0]", "also in to"),
    ({"name": "a/b"}, "traffic[0].name", "may not contain"),
    ({"start": "9s"}, "traffic[0].start", "not before the end"),
])
def test_generator_ends_and_names_are_checked(change: dict[str, Any], path: str, words: str) -> None:
    spec = fast_pair("5s").to_dict()
    spec["traffic"] = [{"name": "g", "kind": "streaming", "count": 1, "from": ["s"], "to": ["d"], **change}]
    with pytest.raises(SpecError) as e:
        ccsim.validate(spec)
    assert e.value.path == path and words in str(e.value), str(e.value)


def test_a_flow_may_not_take_a_generated_name() -> None:
    s = fast_pair("5s").flow("g/1", "cbr", "s", "d", rate="1Mbps").traffic("g", "streaming", "s", "d", count=2)
    with pytest.raises(SpecError) as e:
        ccsim.validate(s)
    assert e.value.path == "flows[0].name" and "generator" in str(e.value)


def test_results_do_not_depend_on_how_the_run_is_chunked() -> None:
    # Transfers are retired at the instant they finish, not when the run loop next returns.
    spec = (fast_pair("3s")
            .traffic("web", "web", "s", "d", protocol="newreno", arrivals=30.0, mean_size="50kB")
            .validate())
    text = json.dumps(spec)
    a = ccsim.Result(_ccsim.run(text))
    for chunk in (1, 7, 1000):
        b = ccsim.Result(_ccsim.run(text, chunk_events=chunk))
        assert b.summary["traffic"] == a.summary["traffic"]
        assert b.overview["run"]["events"] == a.overview["run"]["events"]


def test_every_completed_transfer_has_a_slowdown_the_first_too() -> None:
    res = (fast_pair("5s")
           .traffic("web", "web", ["s"], ["d", "r"], protocol="newreno", arrivals=20.0, mean_size="20kB")
           .run(progress=False))
    rows = rows_of(res, "web")
    done = [r for r in rows if r["completion_time_s"] is not None]
    assert done and all(r["slowdown"] is not None and r["slowdown"] >= 1.0 for r in done)
    assert rows[0]["slowdown"] is not None


def test_generated_flows_stay_out_of_the_series_unless_asked() -> None:
    s = fast_pair("2s").traffic("video", "streaming", "s", "d", count=3).flow("own", "cbr", "s", "d", rate="1Mbps")
    s.output(series=["rate"])
    entities = set(s.run(progress=False).series()["entity"])
    assert entities == {"own"}
    s.output(per_flow_series=True)
    entities = set(s.run(progress=False).series()["entity"])
    assert entities == {"own", "video/0", "video/1", "video/2"}


def test_the_series_bound_counts_the_sources_when_they_are_recorded() -> None:
    s = (fast_pair("2s").traffic("video", "streaming", "s", "d", count=30_000)
         .output(series=["rate"], interval="1ms", per_flow_series=True))
    with pytest.raises(SpecError) as e:
        ccsim.validate(s)
    assert e.value.path == "output.series"
    s.output(per_flow_series=False)
    ccsim.validate(s)


def test_a_finished_transfers_rate_series_accounts_for_every_byte() -> None:
    # With per-flow series, the values of a transfer retired between two samples are
    # recorded at the next one: the series stay on the sampling grid and integrate to its size.
    interval = 0.1
    res = (fast_pair("3s")
           .traffic("web", "web", "s", "d", protocol="newreno", arrivals=5.0, mean_size="40kB")
           .output(series=["rate"], interval=f"{interval}s", per_flow_series=True)
           .run(progress=False))
    series = res.series("rate")
    steps = series["time"] / interval
    assert ((steps - steps.round()).abs() < 1e-6).all()
    done = [r for r in rows_of(res, "web") if r["completion_time_s"] is not None]
    assert len(done) >= 5
    for r in done:
        rows = series[series["entity"] == r["name"]].sort_values("time")
        carried = 0.0
        for t, rate in zip(rows["time"], rows["value"]):
            since = t - math.floor(t / interval - 1e-9) * interval  # back to the previous sample
            carried += rate * since / 8
        assert carried == pytest.approx(r["size_bytes"], rel=1e-9), r["name"]


def test_a_transfer_that_starts_during_an_outage_is_compared_with_the_intact_network() -> None:
    # The only path's router is down from 1 s to 1.5 s; with instant rerouting a transfer
    # starting then has no route until the repair, and completes after it.
    res = (ccsim.Scenario(duration="4s", seed=2, reroute="instant")
           .link("s", "r", rate="100Mbps", delay="1ms")
           .link("r", "d", rate="100Mbps", delay="5ms")
           .traffic("web", "web", "s", "d", protocol="newreno", arrivals=20.0, mean_size="10kB")
           .event("1s", "down", node="r").event("1.5s", "up", node="r")
           .output(series=[])
           .run(progress=False))
    rows = rows_of(res, "web")
    stuck = [r for r in rows if 1.0 < r["start_s"] < 1.5 and r["completion_time_s"] is not None]
    assert stuck
    for r in stuck:
        assert r["slowdown"] is not None and r["slowdown"] > 1.5, r
