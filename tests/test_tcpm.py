"""TCP-M sessions from Python and the command line: clear errors for bad `[[tcpm]]` keys, the
sequence plot, and captures that tshark reads with the counts the summary reports.

The protocol's state machines are tested in crates/ccsim-protocols/src/tcpm/tests.rs and the
sessions end to end in crates/ccsim-scenario/tests/tcpm.rs; the paper's experiments in
tests/test_tcpm_experiments.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ccsim


def link(a: str, b: str, rate: str = "10Mbps", delay: str = "5ms") -> dict[str, Any]:
    return {"between": [a, b], "rate": rate, "delay": delay, "queue": "50p"}


def spec(**session: Any) -> dict[str, Any]:
    """S - R1 - {D1, R3 - D4 (2 Mbit/s)}: one session S -> D1, D4."""
    tcpm = {"name": "m", "source": "S", "receivers": ["D1", "D4"], "size": "200kB"}
    tcpm.update(session)
    return {"run": {"duration": "5s", "seed": 1},
            "links": [link("S", "R1", delay="2ms"), link("R1", "D1"), link("R1", "R3"),
                      link("R3", "D4", rate="2Mbps", delay="10ms")],
            "tcpm": [tcpm], "output": {"series": [], "trace": ["seq"]}}


@pytest.mark.parametrize(("session", "path", "words"), [
    ({"receivers": ["D1", "X"]}, "tcpm[0].receivers[1]", "node \"X\" is in no link"),
    ({"receivers": ["D1", "D1"]}, "tcpm[0].receivers[1]", "listed twice"),
    ({"receivers": ["S"]}, "tcpm[0].receivers[0]", "is the source"),
    ({"receivers": []}, "tcpm[0].receivers", "at least one receiver"),
    ({"protocol": "tfrc"}, "tcpm[0].protocol", "the embedded sender is a TCP"),
    ({"fusion": "some"}, "tcpm[0].fusion", "\"all\", \"source\" or a list of node names"),
    ({"fusion": ["R1", "Q"]}, "tcpm[0].fusion[1]", "node \"Q\" is in no link"),
    ({"tcpm_timeout": "1s"}, "tcpm[0].tcpm_timeout", "must exceed rcvr_timeout"),
    ({"rcvr_timeout": "0s"}, "tcpm[0].rcvr_timeout", "between 1ms and 1h"),
    ({"packet_size": "40B"}, "tcpm[0].packet_size", "40-byte header"),
    ({"options": {"size": "1MB"}}, "tcpm[0].options.size", "set tcpm[0].size instead"),
    ({"options": {"vegas": {"alpha": 1}}, "protocol": "newreno"}, "tcpm[0].options.vegas",
     "need protocol = \"vegas\""),
    ({"options": {"initial_window": 0}}, "tcpm[0].options.initial_window", "must be 1 to"),
    ({"options": {"initial_ssthresh": "bdp"}}, "tcpm[0].options.initial_ssthresh", "one path"),
    ({"options": {"colour": 1}}, "tcpm[0].options.colour", "(TCP options: initial_window, max_window"),
    ({"max_duplicate": 5000}, "tcpm[0].max_duplicate", "at most 1000"),
])
def test_bad_keys_are_refused_with_their_path(session: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.run(spec(**session), progress=False)
    message = str(e.value)
    assert message.startswith(path), message
    assert words in message, message


def test_a_session_name_must_not_clash_with_a_flow() -> None:
    s = spec()
    s["flows"] = [{"name": "m", "protocol": "newreno", "from": "S", "to": "D1"}]
    with pytest.raises(ccsim.SpecError, match=r"^tcpm\[0\]\.name"):
        ccsim.run(s, progress=False)


def test_the_summary_and_the_sequence_plot(tmp_path: Path) -> None:
    res = ccsim.run(spec(), progress=False)
    m = res.summary["tcpm"]["m"]
    assert m["completed"] == ["D1", "D4"] and m["failed"] == []
    assert m["acked_bytes"] == 200_000
    # The R3-D4 branch (2 Mbit/s of 1000-byte packets) bounds the payload rate at 1.92 Mbit/s.
    assert 1.2e6 < m["throughput_bps"] <= 1.92e6
    res.write(tmp_path / "out")
    assert (tmp_path / "out" / "seq.png").stat().st_size > 1000  # the sequence plot
    seq = res.table[res.table["variable"] == "seq:change"]
    assert len(seq) >= 209  # 200 kB in 960-byte segments, each transmitted at least once


def test_captures_hold_the_sessions_segments_and_its_fused_acks(tmp_path: Path) -> None:
    s = spec()
    s["output"]["pcap"] = ["S->R1", "R1->S"]
    res = ccsim.run(s, progress=False)
    res.write(tmp_path, plots=False)
    exe = shutil.which("tshark")
    assert exe, "tshark is missing: `make install` installs it (Debian package tshark)"

    def frames(name: str) -> list[tuple[str, str, str]]:
        pcap = next(p for p in tmp_path.rglob("*.pcap") if p.stem.replace(">", "").replace("-", "") == name)
        out = subprocess.run([exe, "-r", str(pcap), "-T", "fields", "-E", "separator=|",
                              "-e", "tcp.seq_raw", "-e", "udp.dstport", "-e", "data.data"],
                             capture_output=True, text=True, check=True).stdout
        return [tuple(line.split("|")) for line in out.splitlines()]  # type: ignore[misc]

    down, up = frames("SR1"), frames("R1S")
    segments = res.table[res.table["variable"] == "seq:change"]
    assert sum(1 for f in down if f[0]) == len(segments), "every transmitted segment"
    m = res.summary["tcpm"]["m"]
    # Private header: "CCSM", version, type at byte 5 (12: an encapsulated ACK).
    fused = [f for f in up if f[1] == "65203" and f[2][10:12] == "0c"]
    assert len(fused) == m["acks_at_source"] > 0
    control = [f for f in down if f[1] == "65203" and f[2][10:12] == "0b"]
    # JOIN_REQUEST to each receiver, PATH and FIN once each (no loss on this path).
    assert len(control) == 2 + 1 + 1


def test_the_figure7_example_runs_from_the_command_line(tmp_path: Path) -> None:
    from conftest import EXAMPLES, cli

    proc = cli("run", str(EXAMPLES / "tcpm-figure7.toml"), "-o", str(tmp_path), "--quiet")
    assert proc.returncode == 0, proc.stderr
    import json

    m = json.loads((tmp_path / "summary.json").read_text())["tcpm"]["m1"]
    assert m["completed"] == ["D1", "D2", "D3", "D4", "D5"]
    # The slowest branch, R3-D4 at 2 Mbit/s, carries at most 1.92 Mbit/s of payload.
    assert 1.6e6 < m["throughput_bps"] <= 1.92e6
    # Each router fuses its children: R1 sees D1, R2 and R3; the source sees R1 alone.
    assert m["fusion_nodes"]["R1"] == 3 and m["fusion_nodes"]["S"] == 1
    assert (tmp_path / "seq.png").exists()


@pytest.mark.parametrize("protocol", ["tahoe", "reno", "newreno", "sack", "vegas", "cubic"])
@pytest.mark.parametrize("delayed_ack", [False, True])
def test_every_embedded_tcp_completes_a_transfer_to_every_receiver(protocol: str, delayed_ack: bool) -> None:
    s = spec(protocol=protocol, delayed_ack=delayed_ack)
    s["drops"] = [{"flow": "m", "link": "R3->D4", "seqs": [40, 41, 90]}]  # losses at one receiver
    m = ccsim.run(s, progress=False).summary["tcpm"]["m"]
    assert m["completed"] == ["D1", "D4"], m
    assert m["acked_bytes"] == 200_000
    assert m["retransmissions"] >= 3
    # With delayed ACKs a receiver sends about one ACK per two segments (209 segments each).
    per_receiver = m["acks_from_receivers"] / 2
    if delayed_ack:
        assert per_receiver < 0.75 * 209, m["acks_from_receivers"]
    else:
        assert per_receiver >= 209
