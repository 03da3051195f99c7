"""The cross-validation suite against ns-3 3.44 (validation/ns3) builds and runs: its quick
scenarios go through ns-3 and ccsim and give comparable, sane numbers on both sides.

The full suite and its table are `make validate-ns3` and docs/validation.md. The ns-3 program
is compiled against the `ns3` wheel, which validation/ns3/build.sh installs on first use; the
test is skipped only when the wheel cannot be installed (build.sh exits with 3).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
NS3 = ROOT / "validation" / "ns3"


@pytest.fixture(scope="module")
def ns3_binary() -> Path:
    out = subprocess.run([str(NS3 / "build.sh")], capture_output=True, text=True, timeout=1800)
    if out.returncode == 3:
        pytest.skip(f"the ns3 wheel could not be installed: {out.stderr.strip().splitlines()[-1]}")
    assert out.returncode == 0, out.stderr
    binary = Path(out.stdout.strip().splitlines()[-1])
    assert binary.is_file()
    return binary


@pytest.fixture(scope="module")
def quick(ns3_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out_json = tmp_path_factory.mktemp("ns3") / "quick.json"
    out = subprocess.run([sys.executable, str(NS3 / "run.py"), "--quick", "--ns3", str(ns3_binary),
                          "--json", str(out_json)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("| scenario |"), out.stdout
    records: list[dict[str, Any]] = json.loads(out_json.read_text())["records"]
    return records


def test_both_simulators_ran_every_quick_scenario(quick: list[dict[str, Any]]) -> None:
    assert [r["scenario"] for r in quick] == ["quick-db-10M-1-sack", "quick-db-100M-10-cubic", "quick-db-10M-4-dctcp",
                                              "quick-db-10M-1-bbr"]
    for rec in quick:
        flows = rec["settings"]["flows"]
        for side in ("ns3", "ccsim"):
            got = rec[side]
            assert len(got["goodput_mbps"]) == flows, (rec["scenario"], side)
            assert all(g > 0 for g in got["goodput_mbps"]), (rec["scenario"], side, got["goodput_mbps"])
            assert got["wall_s"] > 0


def test_every_number_is_within_its_physical_bounds(quick: list[dict[str, Any]]) -> None:
    for rec in quick:
        queue = rec["settings"]["queue"]
        for side in ("ns3", "ccsim"):
            got = rec[side]
            where = (rec["scenario"], side)
            # A link carries at most its rate (ns-3 counts dequeued bytes: a packet's worth of slack).
            assert 0 < got["utilisation"] <= 1.001, where
            # In-order goodput may exceed the capacity only by what was held above a gap at the
            # window's start (docs/validation.md measured up to 1.8 %).
            assert 0 < got["goodput_fraction"] <= 1.05, where
            assert 0 < got["jain"] <= 1 + 1e-9, where
            assert got["drops"] >= 0 and 0 <= got["mean_queue"] <= queue, where
            # Every flow leaves slow start (a loss, an ECN echo or HyStart) above its initial window.
            exits = got["ss_exit_cwnd_per_flow"]
            assert all(c is not None and c >= 10 for c in exits), (where, exits)


def test_the_two_simulators_agree_on_the_converged_quick_scenarios(quick: list[dict[str, Any]]) -> None:
    for rec in quick:
        assert rec["converged"]
        where = rec["scenario"]
        assert abs(rec["goodput_ratio"] - 1) <= 0.15, (where, rec["ns3"]["goodput_fraction"], rec["ccsim"]["goodput_fraction"])
        assert abs(rec["utilisation_ratio"] - 1) <= 0.15, where
        assert abs(rec["jain_difference"]) <= 0.15, where


def test_dctcp_is_marked_at_its_step_threshold_in_both(quick: list[dict[str, Any]]) -> None:
    (rec,) = [r for r in quick if r["settings"]["protocol"] == "dctcp"]
    for side in ("ns3", "ccsim"):
        got = rec[side]
        # Marks, not drops, hold the queue: it stays within a few packets of the threshold.
        assert got["marks"] > 0 and got["drops"] == 0, (side, got["marks"], got["drops"])
        assert got["mean_queue"] < 3 * rec["settings"]["threshold"], (side, got["mean_queue"])


def test_one_bbr_flow_fills_the_10_mbit_link_in_both(quick: list[dict[str, Any]]) -> None:
    # One paced BBR v1 flow on a 1-BDP buffer keeps the link busy, apart from its 200 ms in
    # PROBE_RTT every 10 s (2 % of the time) and the 3/4 phase of its gain cycle.
    (rec,) = [r for r in quick if r["settings"]["protocol"] == "bbr"]
    for side in ("ns3", "ccsim"):
        assert rec[side]["utilisation"] > 0.95, (side, rec[side]["utilisation"])
    assert abs(rec["utilisation_ratio"] - 1) <= 0.05, (rec["ns3"]["utilisation"], rec["ccsim"]["utilisation"])


@pytest.mark.xfail(strict=True, reason=(
    "ns-3's BBR keeps a standing queue on one flow at 10 Mbit/s x 40 ms (quick-db-10M-1-bbr, seed 1: "
    "mean 29.8 packets and 84 drops in 30 s, against ccsim's 6.8 and 0): its bandwidth estimate is "
    "about 9.75 Mbit/s of payload against 9.49 of capacity (pacing rate at gain 1: 9.65), so pacing "
    "at 0.99 of it still overfills the link; not traced to its line (docs/validation.md, BBR)"))
def test_one_bbr_flow_keeps_the_same_queue_in_both(quick: list[dict[str, Any]]) -> None:
    (rec,) = [r for r in quick if r["settings"]["protocol"] == "bbr"]
    n, c = rec["ns3"]["mean_queue"], rec["ccsim"]["mean_queue"]
    assert abs(n - c) <= 0.5 * max(n, c), (n, c)
