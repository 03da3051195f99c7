"""OBP flows from Python: the `obp` table's errors name their path, a lone flow fills its link
without loss through the OBP router function (the paper's section IV claims: high utilisation,
no drops), and tshark reads the narrow-link field the routers stamp. The protocol's state
machines are tested in crates/ccsim-protocols/src/obp/tests.rs, flows through the engine in
crates/ccsim-scenario/tests/obp.rs."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ccsim


def spec(**flow: Any) -> dict[str, Any]:
    f = {"name": "o", "protocol": "obp", "from": "a", "to": "b"}
    f.update(flow)
    return {"run": {"duration": "10s", "seed": 1, "warmup": "2s"},
            "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "10ms", "queue": "100p"}],
            "flows": [f], "output": {"series": []}}


@pytest.mark.parametrize(("flow", "path", "words"), [
    ({"obp": {"delta": 1.0}}, "flows[0].obp.delta", "in (0, 1)"),
    ({"obp": {"gamma": 0}}, "flows[0].obp.gamma", "in (0, 1]"),
    ({"obp": {"initial_rtt": "0s"}}, "flows[0].obp.initial_rtt", "between 1us and 60s"),
    ({"obp": {"colour": 1}}, "flows[0].obp.colour", "known keys: delta, gamma, initial_rtt"),
    ({"max_rate": "1Mbps"}, "flows[0].max_rate", "narrow-link field"),
    ({"size": "0B"}, "flows[0].size", "must be positive"),
    ({"min_rate": "2Mbps", "initial_rate": "1Mbps"}, "flows[0].initial_rate", "at least min_rate"),
    ({"ecn": True}, "flows[0].ecn", "TCP flows"),
    ({"rate": "1Mbps"}, "flows[0].rate", "from below with min_rate"),
    ({"min_rto": "61s"}, "flows[0].min_rto", "at most the 60 s maximum RTO"),
    ({"delayed_ack": True}, "flows[0].delayed_ack", "TCP flows"),
    ({"protocol": "newreno", "obp": {}}, "flows[0].obp", "rate-based flows"),
    ({"protocol": "tfrc", "obp": {}}, "flows[0].obp", "need protocol = \"obp\""),
])
def test_bad_obp_keys_name_their_path(flow: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.run(spec(**flow), progress=False)
    assert str(e.value).startswith(path), str(e.value)
    assert words in str(e.value), str(e.value)


def test_a_bad_measurement_period_names_its_path() -> None:
    s = spec()
    s["run"]["obp_period"] = "1us"
    with pytest.raises(ccsim.SpecError, match=r"^run\.obp_period: must be between 10us and 10s"):
        ccsim.run(s, progress=False)


def test_a_lone_obp_flow_fills_the_link_without_loss() -> None:
    s = ccsim.run(spec(), progress=False).summary
    link = s["links"]["a->b"]
    assert link["drops"] == 0
    assert link["utilization"] > 0.9, link
    # Its goodput is at most the link's payload rate: 10 Mbit/s of 1000 B packets carry 9.6.
    assert 0.9 * 9.6e6 < s["flows"]["o"]["goodput_bps"] <= 9.6e6


def test_web_transfers_may_run_obp() -> None:
    s = spec()
    s["flows"] = []
    s["traffic"] = [{"name": "web", "kind": "web", "protocol": "obp", "from": ["a"], "to": ["b"],
                     "arrivals": 20.0, "mean_size": "20kB", "stop": "8s"}]
    t = ccsim.run(s, progress=False).summary["traffic"]["web"]
    assert t["started"] > 100, t
    assert t["completed"] == t["started"], t


def test_a_lone_web_transfer_runs_as_fast_as_alone() -> None:
    # Transfers far apart each run alone on the link; the slowdown compares a transfer with its
    # run alone on an empty copy of its path, router functions included, so it is 1 (within a
    # few packet times of start-up jitter) for OBP as for TCP.
    s = spec()
    s["flows"] = []
    s["run"]["duration"] = "30s"
    s["traffic"] = [{"name": "web", "kind": "web", "protocol": "obp", "from": ["a"], "to": ["b"],
                     "arrivals": 0.2, "mean_size": "200kB", "stop": "25s"}]
    t = ccsim.run(s, progress=False).summary["traffic"]["web"]
    assert t["completed"] >= 3, t
    assert 0.99 <= t["slowdown"]["min"] and t["slowdown"]["median"] <= 1.01, t


def test_tshark_reads_the_capacity_the_router_stamps(tmp_path: Path) -> None:
    # a -(100 Mbit/s)- r -(10 Mbit/s)- b: data leaving r carries the narrow link, 10 Mbit/s =
    # 1 250 000 bytes/s, and an available bandwidth no larger; ACKs bring both back.
    s = spec()
    s["run"]["duration"] = "2s"
    s["run"]["warmup"] = "0s"
    s["links"] = [{"between": ["a", "r"], "rate": "100Mbps", "delay": "5ms", "queue": "1000p"},
                  {"between": ["r", "b"], "rate": "10Mbps", "delay": "5ms", "queue": "100p"}]
    s["output"]["pcap"] = ["r->b", "b->r"]
    res = ccsim.run(s, progress=False)
    res.write(tmp_path, plots=False)
    exe = shutil.which("tshark")
    assert exe, "tshark is missing: `make install` installs it (Debian package tshark)"

    def frames(direction: str) -> list[tuple[int, float, float]]:
        pcap = next(p for p in tmp_path.rglob("*.pcap") if direction in p.stem)
        out = subprocess.run([exe, "-r", str(pcap), "-T", "fields", "-e", "udp.dstport", "-e", "data.data"],
                             capture_output=True, text=True, check=True).stdout
        rows = []
        for line in out.splitlines():
            port, data = line.split("\t")
            assert port == "65205", line
            raw = bytes.fromhex(data)
            assert raw[:4] == b"CCSM"
            narrow, tight = struct.unpack(">ff", raw[28:36])
            rows.append((raw[5], narrow, tight))
        return rows

    down, up = frames("r-b"), frames("b-r")
    # The capture takes a packet as it starts on the wire; `tx_packets` counts it once sent,
    # so the one on the wire when the run ends is in the capture only.
    sent = res.summary["links"]["r->b"]["tx_packets"]
    assert sent > 100 and sent <= len(down) <= sent + 1
    assert {ty for ty, _, _ in down} == {15} and {ty for ty, _, _ in up} == {16}
    assert all(n == 1_250_000.0 and t <= n for _, n, t in down)
    assert all(n == 1_250_000.0 for _, n, _ in up)
    assert any(t < 1_250_000.0 for _, _, t in down), "the load lowers the available bandwidth"
