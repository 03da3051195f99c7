"""l4s-coexistence (issue 28): the quick variant runs every point of its sweep, and what it reports
holds together: shares in [0, 1] that are the goodputs' quotient, utilisation and goodput within
the link's capacity, DualPI2's per-queue p99 where a flow uses that queue, DropTail's sampled p99
within the buffer, one table row set per point, and the same numbers for the same seed.

A study without a verdict: no band is checked here (docs/experiments.md, l4s-coexistence)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport
from ccsim.experiments.base import STUDY
from ccsim.experiments.l4s import (BUFFERS_BDP, PACKET, PAIRS, QUEUES, QUICK_TIME, RATE, RTTS_MS, Point,
                                   buffer_packets, point_spec, points)

from conftest import quick_experiment_cache

NAME = "l4s-coexistence"
#: Payload bytes of a 1500 B packet (IPv4 and TCP headers of 40 B): the most goodput the link carries.
PAYLOAD_RATE = RATE * (PACKET - 40) / PACKET


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[ExperimentReport, list[dict[str, Any]], Path]:
    out = tmp_path_factory.mktemp("l4s") / NAME
    with quick_experiment_cache():
        report = REGISTRY[NAME].run(out, quick=True, jobs=2)
    return report, json.loads((out / "points.json").read_text()), out


def test_it_is_registered_as_a_study() -> None:
    exp = REGISTRY[NAME]
    assert exp.study and exp.title and exp.source and exp.randomness
    assert len(PAIRS) == 10 and len(set(PAIRS)) == 10  # 6 distinct pairs and 4 self-pairs
    assert len(points()) == len(QUEUES) * len(RTTS_MS) * len(BUFFERS_BDP) * len(PAIRS) == 120


def test_every_point_ran(quick: tuple[ExperimentReport, list[dict[str, Any]], Path]) -> None:
    report, rows, out = quick
    ran = [Point(r["queue"], r["rtt_ms"], r["buffer_bdp"], r["a"], r["b"]) for r in rows]
    assert ran == points()
    for p in points():
        assert (out / p.folder / "summary.json").is_file(), p.folder
    assert [f.name for f in report.figures] == ["l4s_share.png", "l4s_delay.png"]
    assert all(f.is_file() and f.stat().st_size > 10_000 for f in report.figures)


def test_shares_are_the_goodputs_quotient(quick: tuple[ExperimentReport, list[dict[str, Any]], Path]) -> None:
    _, rows, _ = quick
    for r in rows:
        ga, gb = r["goodput_a_bps"], r["goodput_b_bps"]
        assert ga > 0 and gb >= 0, r
        share_b = gb / (ga + gb)
        assert 0.0 <= r["share_a"] <= 1.0 and 0.0 <= share_b <= 1.0
        assert math.isclose(r["share_a"] + share_b, 1.0, rel_tol=1e-12)
        assert math.isclose(r["share_a"], ga / (ga + gb), rel_tol=1e-12)


def test_utilisation_and_goodput_within_capacity(quick: tuple[ExperimentReport, list[dict[str, Any]], Path]) -> None:
    _, rows, _ = quick
    for r in rows:
        assert 0.5 < r["utilisation"] <= 1.0, r
        # Every data packet that reached a receiver in the window crossed r1->r2 in it, or
        # was in flight behind it when the window opened (at most the buffer and the path).
        in_flight = buffer_packets(r["rtt_ms"], r["buffer_bdp"]) + RATE * r["rtt_ms"] / 1e3 / 8 / PACKET
        assert r["received_packets_a"] + r["received_packets_b"] <= r["tx_packets"] + in_flight, r
        # The goodputs are not bounded by the link's payload rate over a short window: the
        # summary counts bytes delivered in order in it, which after a long recovery includes
        # bytes that arrived before it (docs/experiments.md, l4s-coexistence). Over the window
        # they stay within 1.5 times it.
        assert r["goodput_a_bps"] + r["goodput_b_bps"] <= 1.5 * PAYLOAD_RATE, r


def test_queue_delays_are_where_the_flows_are(quick: tuple[ExperimentReport, list[dict[str, Any]], Path]) -> None:
    _, rows, _ = quick
    for r in rows:
        # The sampled queue never holds more than the buffer (limit) in bytes.
        limit_s = buffer_packets(r["rtt_ms"], r["buffer_bdp"]) * PACKET * 8 / RATE
        assert 0.0 <= r["sampled_p99_s"] <= limit_s + 1e-9, r
        if r["queue"] == "droptail":
            assert math.isnan(r["l_p99_s"]) and math.isnan(r["c_p99_s"]), r
            continue
        prague = "prague" in (r["a"], r["b"])
        classic = (r["a"], r["b"]) != ("prague", "prague")
        # Prague's ECT(1) packets go to the L queue, the others' Not-ECT packets to the C queue.
        assert (r["l_packets"] > 0) == prague, r
        if prague:
            assert 0.0 < r["l_p99_s"] < 0.015, r  # under the PI2 target: Prague is in the L queue
        if classic:
            # A C packet waits behind the limit's packets and behind L packets that arrive after
            # it (the scheduler serves L first) but gets at least classic_protection (10 %) of
            # the link: its sojourn is under ten times the limit's drain time. (It can exceed
            # the limit's drain time: 11.2 ms against 5.0 ms at 10 ms, 0.5 BDP, cubic vs prague.)
            assert 0.0 < r["c_p99_s"] <= 10 * limit_s * 1.01, r


def test_the_table_has_the_rows_of_every_point(quick: tuple[ExperimentReport, list[dict[str, Any]], Path]) -> None:
    report, rows, _ = quick
    assert report.study and report.verdict == STUDY
    expected = 0
    for r in rows:
        if r["queue"] == "droptail":
            expected += 2  # share, sampled p99
        else:
            expected += 1 + ("prague" in (r["a"], r["b"])) + ((r["a"], r["b"]) != ("prague", "prague"))
    assert len(report.checks) == expected
    shares = [c for c in report.checks if ", share of " in c.name]
    assert [c.measured for c in shares] == [r["share_a"] for r in rows]
    assert all(c.unit in ("ratio", "s") and "study" in c.expected for c in report.checks)
    t0, t1 = QUICK_TIME
    assert all(c.name.endswith(f"({t1:g}-{t0:g} s)") for c in report.checks)


def _one(seed: int) -> dict[str, Any]:
    p = Point("dualpi2", 40, 2.0, "cubic", "prague")
    spec = point_spec(p, *QUICK_TIME, seed=seed)
    spec["output"] = {"series": []}
    return ccsim.run(spec, progress=False).summary


def test_a_point_is_deterministic_and_its_seed_matters() -> None:
    a, b, other = _one(1), _one(1), _one(2)
    assert a["flows"] == b["flows"] and a["links"] == b["links"]
    # DualPI2's marks and drops are random draws: another seed gives other numbers.
    assert a["flows"]["a"]["goodput_bps"] != other["flows"]["a"]["goodput_bps"]
