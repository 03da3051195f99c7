"""pcap output end to end: a run writes one pcap per named link direction, tshark (Wireshark's
reader, installed by `make install`) parses them, and what it reports matches the simulation:
packet counts and bytes against the link counters, timestamps against closed forms and the
link's serialisation, TCP byte numbers, SACK blocks and ECN bits against the scenario.

The layout of the files is in docs/pcap.md. Tests fail, not skip, without tshark.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ccsim
from conftest import cli

MSS = 960  # the default 1000-byte packet less 40 bytes of IP and TCP header
SIZE = 300_000  # bytes of each TCP transfer
SEGMENTS = -(-SIZE // MSS)  # 313, the last one holding 480 bytes
ACCESS_BPS = 100e6
BOTTLENECK_BPS = 10e6
RED = {"kind": "red", "limit": "100p", "min_th": 5, "max_th": 15, "w_q": 0.02, "ecn": True}
Rows = list[dict[str, str]]
Captured = tuple[dict[str, Any], dict[str, Path], dict[str, Rows]]
FIELDS = [
    "frame.time_epoch", "frame.len", "ip.dsfield.ecn", "tcp.seq_raw", "tcp.ack_raw", "tcp.len",
    "tcp.flags.ack", "tcp.flags.push", "tcp.flags.ece", "tcp.flags.cwr", "tcp.options.sack_le",
    "tcp.options.sack_re", "udp.dstport", "data.data",
]


def access(a: str, b: str) -> dict[str, Any]:
    return {"between": [a, b], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"}


def scenario() -> dict[str, Any]:
    """A dumbbell r1-r2 (10 Mbps, 20 ms) carrying three flows, one after the other:
    - `cbr`, s3 -> d3, 1 Mbps of 500-byte datagrams alone on the bottleneck for the first second;
    - `sack`, d1 -> s1 from 1.2 s: data on r2->r1, ACKs on r1->r2, window-limited so that it
      never queues, with segments 50 and 53 dropped the first time r2->r1 is offered them;
    - `ecn`, s2 -> d2 from 1.2 s, ECN-capable through a RED queue (5 Mbps r0-r1) that marks it
      before it reaches r1->r2; its window (60 segments, about twice the path's BDP) keeps RED's
      average between the thresholds, so it is marked, never dropped, and answers with CWR."""
    return {
        "run": {"duration": "6s", "seed": 7},
        "links": [
            access("s1", "r1"), access("s3", "r1"), access("s2", "r0"),
            {"between": ["r0", "r1"], "rate": "5Mbps", "delay": "5ms", "queue": RED},
            {"between": ["r1", "r2"], "rate": "10Mbps", "delay": "20ms", "queue": "1000p"},
            access("r2", "d1"), access("r2", "d2"), access("r2", "d3"),
        ],
        "flows": [
            {"name": "cbr", "protocol": "cbr", "from": "s3", "to": "d3", "rate": "1Mbps",
             "packet_size": "500B", "stop": "1s"},
            {"name": "sack", "protocol": "sack", "from": "d1", "to": "s1", "size": "300kB",
             "max_window": 10, "start": "1.2s"},
            {"name": "ecn", "protocol": "newreno", "from": "s2", "to": "d2", "size": "300kB",
             "ecn": True, "max_window": 60, "start": "1.2s"},
        ],
        "drops": [{"flow": "sack", "link": "r2->r1", "seqs": [50, 53]}],
        "output": {"series": [], "pcap": ["r1->r2", "r2->r1"]},
    }


def run_with_pcap(spec: dict[str, Any], out: Path) -> tuple[ccsim.Result, dict[str, Path]]:
    """Run and write the output folder; the pcap file of each named direction, found by its
    name with the arrow written however the output folder spells it ("r1->r2", "r1-r2")."""
    res = ccsim.run(spec, progress=False)
    res.write(out, plots=False)
    files = {re.sub(r"[^0-9A-Za-z]+", "-", p.stem): p for p in out.rglob("*.pcap")}
    found = {d: files[re.sub(r"[^0-9A-Za-z]+", "-", d)] for d in spec["output"]["pcap"]}
    assert len(files) == len(found), sorted(files)
    return res, found


def tshark(path: Path, fields: tuple[str, ...] = tuple(FIELDS)) -> Rows:
    """tshark's reading of `path`: one row per packet, the named fields (byte numbers, not
    relative sequence numbers; a field that occurs more than once joined by commas)."""
    exe = shutil.which("tshark")
    assert exe, "tshark is missing: `make install` installs it (Debian package tshark)"
    cmd = [exe, "-r", str(path), "-o", "tcp.relative_sequence_numbers:FALSE",
           "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,"]
    for f in fields:
        cmd += ["-e", f]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return [dict(zip(fields, line.split("|"), strict=True)) for line in proc.stdout.splitlines()]


def ns(epoch: str) -> int:
    """frame.time_epoch ("1.201080000") as integer nanoseconds, without rounding."""
    sec, _, frac = epoch.partition(".")
    return int(sec) * 1_000_000_000 + int(frac.ljust(9, "0")[:9])


@pytest.fixture(scope="module")
def captured(tmp_path_factory: pytest.TempPathFactory) -> Captured:
    out = tmp_path_factory.mktemp("pcap")
    res, files = run_with_pcap(scenario(), out)
    return res.summary, files, {d: tshark(p) for d, p in files.items()}


def data(rows: Rows) -> Rows:
    """TCP data segments: a payload, ACK set, acknowledging the receiver's SYN (docs/pcap.md)."""
    return [r for r in rows if r["tcp.seq_raw"] and r["tcp.len"] not in ("", "0")]


def acks(rows: Rows) -> Rows:
    """Pure ACKs: ACK without a payload, never PSH."""
    pure = [r for r in rows if r["tcp.flags.ack"] == "1" and r["tcp.len"] == "0"]
    assert all(r["tcp.flags.push"] == "0" for r in pure)
    return pure


def test_every_transmission_is_captured_with_its_size(captured: Captured) -> None:
    summary, _, rows = captured
    for flow in ("sack", "ecn"):
        assert summary["flows"][flow]["completion_time_s"] is not None, flow  # links idle at the end
    for direction, recs in rows.items():
        link = summary["links"][direction]
        assert len(recs) == link["tx_packets"], direction
        # frame.len is the simulated size: the bytes sum to the link's utilisation.
        bits = 8 * sum(int(r["frame.len"]) for r in recs)
        assert bits / (BOTTLENECK_BPS * 6.0) == pytest.approx(link["utilization"], rel=1e-12)


def test_timestamps_follow_the_links_serialisation(captured: Captured) -> None:
    _, _, rows = captured
    for direction, recs in rows.items():
        t = [ns(r["frame.time_epoch"]) for r in recs]
        for k in range(1, len(recs)):
            # A transmission starts no earlier than the previous one ends (1 ns of rounding).
            tx_ns = int(recs[k - 1]["frame.len"]) * 8 * 1e9 / BOTTLENECK_BPS
            assert t[k] - t[k - 1] >= tx_ns - 1, (direction, k)


def test_cbr_datagrams_leave_at_their_closed_form_times(captured: Captured) -> None:
    summary, _, rows = captured
    udp = [r for r in rows["r1->r2"] if r["udp.dstport"]]
    assert len(udp) == summary["flows"]["cbr"]["sent_packets"] == 250
    # Datagram k leaves s3 at k x 4 ms (500 B at 1 Mbps), crosses the access link (40 us of
    # serialisation, 1 ms of delay) and finds the bottleneck idle.
    for k, r in enumerate(udp):
        assert ns(r["frame.time_epoch"]) == k * 4_000_000 + 40_000 + 1_000_000, k
        assert r["frame.len"] == "500"
        payload = r["data.data"]
        assert payload[:12] == "4343534d0101", "private header: CCSM, version 1, type 1"
        assert int(payload[40:56], 16) == k, "the datagram's sequence number"


def test_tcp_byte_numbers_and_sack_blocks(captured: Captured) -> None:
    summary, _, rows = captured
    segs = data(rows["r2->r1"])
    sack = summary["flows"]["sack"]
    assert len(segs) == sack["sent_packets"] - sack["lost_packets"]
    assert sack["lost_packets"] == 2
    seqs = [int(r["tcp.seq_raw"]) for r in segs]
    assert sorted(set(seqs)) == [k * MSS for k in range(SEGMENTS)]
    assert seqs.count(50 * MSS) == 1 and seqs.count(53 * MSS) == 1, "dropped once, resent once"
    last = [r for r in segs if int(r["tcp.seq_raw"]) == (SEGMENTS - 1) * MSS]
    assert {r["frame.len"] for r in last} == {str(SIZE - (SEGMENTS - 1) * MSS + 40)}
    # The first segment leaves d1 at 1.2 s: 80 us on the access link, 1 ms, an idle r2->r1.
    assert ns(segs[0]["frame.time_epoch"]) == 1_200_000_000 + 80_000 + 1_000_000

    back = acks(rows["r1->r2"])
    blocks = {(r["tcp.ack_raw"], r["tcp.options.sack_le"], r["tcp.options.sack_re"]) for r in back}
    # RFC 2018: 51 arrives above the hole at 50; after 53's loss 54 opens a second block,
    # reported first.
    assert (str(50 * MSS), str(51 * MSS), str(52 * MSS)) in blocks
    assert (str(50 * MSS), f"{54 * MSS},{51 * MSS}", f"{55 * MSS},{53 * MSS}") in blocks
    assert max(int(r["tcp.ack_raw"]) for r in back) == SIZE, "the last ACK covers the short segment"


def test_ecn_marks_echoes_and_reductions(captured: Captured) -> None:
    summary, _, rows = captured
    segs = data(rows["r1->r2"])
    ecn = summary["flows"]["ecn"]
    assert len(segs) == ecn["sent_packets"] - ecn["lost_packets"]
    assert sorted({int(r["tcp.seq_raw"]) for r in segs}) == [k * MSS for k in range(SEGMENTS)]
    marks = summary["links"]["r0->r1"]["ecn_marks"]
    assert marks > 0
    assert sum(r["ip.dsfield.ecn"] == "3" for r in segs) == marks, "CE marks reach r1->r2 intact"
    assert any(r["tcp.flags.cwr"] == "1" for r in segs)
    assert ecn["retransmitted_packets"] == 0
    assert all(r["ip.dsfield.ecn"] in ("2", "3") for r in segs), "every segment ECT(0) or CE"
    assert any(r["tcp.flags.ece"] == "1" for r in acks(rows["r2->r1"]))
    # The first segment: 80 us and 1 ms to r0, 1.6 ms and 5 ms across r0-r1, r1->r2 idle.
    assert ns(segs[0]["frame.time_epoch"]) == 1_200_000_000 + 80_000 + 1_000_000 + 1_600_000 + 5_000_000


def test_the_same_run_writes_the_same_bytes(tmp_path: Path) -> None:
    _, a = run_with_pcap(scenario(), tmp_path / "a")
    _, b = run_with_pcap(scenario(), tmp_path / "b")
    for direction in a:
        assert a[direction].read_bytes() == b[direction].read_bytes(), direction


def test_two_directions_that_would_share_a_file_are_refused() -> None:
    spec = {"run": {"duration": "1s"},
            "links": [{"between": ["a-b", "c"], "rate": "1Mbps", "delay": "1ms"},
                      {"between": ["a", "b-c"], "rate": "1Mbps", "delay": "1ms"}],
            "output": {"pcap": ["a-b->c", "a->b-c"]}}
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate(spec)
    assert e.value.path == "output.pcap[1]" and "a-b-c.pcap" in str(e.value)


def test_a_users_file_named_like_a_capture_is_refused_before_the_run(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text('[run]\nduration = "1s"\n[[links]]\nbetween = ["s", "d"]\nrate = "1Mbps"\ndelay = "1ms"\n'
                        '[output]\npcap = ["s->d"]\n')
    out = tmp_path / "out"
    out.mkdir()
    (out / "s-d.pcap").write_text("mine")
    proc = cli("run", str(scenario), "-o", str(out), "-q")
    assert proc.returncode == 2 and "s-d.pcap" in proc.stderr
    assert (out / "s-d.pcap").read_text() == "mine"


def test_the_capture_covers_the_warm_up_and_tx_packets_only_the_window(tmp_path: Path) -> None:
    # A warm-up changes what the summary counts, not what the run does: the capture is the same
    # file, its records the whole run's transmissions (tx_packets without a warm-up), while
    # tx_packets with a warm-up counts only the transmissions that ended in the window.
    plain, a = run_with_pcap(scenario(), tmp_path / "plain")
    warm_spec = scenario()
    warm_spec["run"]["warmup"] = "1.5s"
    warm, b = run_with_pcap(warm_spec, tmp_path / "warm")
    for direction in a:
        assert a[direction].read_bytes() == b[direction].read_bytes(), direction
        records = len(tshark(b[direction]))
        assert records == plain.summary["links"][direction]["tx_packets"], direction
        window = warm.summary["links"][direction]["tx_packets"]
        early = [r for r in tshark(b[direction]) if ns(r["frame.time_epoch"]) < 1_500_000_000]
        assert window < records and len(early) - 1 <= records - window <= len(early), direction


def test_the_handshake_is_captured_as_tshark_reads_a_real_one(tmp_path: Path) -> None:
    """`handshake = true`: SYN, SYN-ACK (RFC 9293 section 3.5) with the MSS, SACK-permitted and
    window-scale options tshark decodes, and the first data segment one round trip after the
    SYN: two 52-byte serialisations at 10 Mbps (41.6 us each) and two 10 ms propagations."""
    spec = {
        "run": {"duration": "1s"},
        "links": [{"between": ["s", "d"], "rate": "10Mbps", "delay": "10ms"}],
        "flows": [{"name": "f", "protocol": "sack", "from": "s", "to": "d", "size": "20kB",
                   "handshake": True, "start": "0.1s"}],
        "output": {"series": [], "pcap": ["s->d", "d->s"]},
    }
    _, files = run_with_pcap(spec, tmp_path)
    fields = ("frame.time_epoch", "frame.len", "tcp.flags.syn", "tcp.flags.ack", "tcp.seq_raw",
              "tcp.ack_raw", "tcp.options.mss_val", "tcp.options.sack_perm", "tcp.options.wscale.shift")
    fwd, back = tshark(files["s->d"], fields), tshark(files["d->s"], fields)
    syn, syn_ack = fwd[0], back[0]
    assert (syn["tcp.flags.syn"], syn["tcp.flags.ack"], syn["frame.len"]) == ("1", "0", "52")
    assert (syn_ack["tcp.flags.syn"], syn_ack["tcp.flags.ack"]) == ("1", "1")
    assert syn["tcp.seq_raw"] == str(2**32 - 1) and syn_ack["tcp.ack_raw"] == "0"
    assert syn["tcp.options.mss_val"] == str(MSS)
    assert syn["tcp.options.sack_perm"] != "" and syn["tcp.options.wscale.shift"] == "7"
    assert ns(syn["frame.time_epoch"]) == 100_000_000
    first_data = fwd[1]
    assert first_data["tcp.flags.syn"] == "0" and first_data["tcp.seq_raw"] == "0"
    assert ns(first_data["frame.time_epoch"]) == 100_000_000 + 2 * (41_600 + 10_000_000)
    assert sum(1 for r in fwd if r["tcp.flags.syn"] == "1") == 1


def test_timestamps_are_captured_as_tshark_reads_them(tmp_path: Path) -> None:
    """`timestamps = true` (RFC 7323): 12 more header bytes on every segment and ACK, the
    option decoded by tshark with TSval the send time in ms; 1052-byte packets carry 1000
    payload bytes, so the second segment starts at byte 1000; the SYN carries the option too."""
    spec = {
        "run": {"duration": "1s"},
        "links": [{"between": ["s", "d"], "rate": "10Mbps", "delay": "10ms"}],
        "flows": [{"name": "f", "protocol": "sack", "from": "s", "to": "d", "size": "20kB",
                   "packet_size": "1052B", "timestamps": True, "handshake": True, "start": "0.1s"}],
        "output": {"series": [], "pcap": ["s->d", "d->s"]},
    }
    _, files = run_with_pcap(spec, tmp_path)
    fields = ("frame.len", "tcp.flags.syn", "tcp.seq_raw", "tcp.len", "tcp.options.timestamp.tsval")
    fwd, back = tshark(files["s->d"], fields), tshark(files["d->s"], fields)
    assert fwd[0]["tcp.flags.syn"] == "1" and fwd[0]["frame.len"] == "60"
    assert fwd[0]["tcp.options.timestamp.tsval"] == "100"
    segs = fwd[1:]
    assert [r["tcp.len"] for r in segs[:2]] == ["1000", "1000"]
    assert [r["tcp.seq_raw"] for r in segs[:2]] == ["0", "1000"]
    assert {r["frame.len"] for r in segs[:-1]} == {"1052"}
    assert all(r["tcp.options.timestamp.tsval"] != "" for r in fwd + back)
    assert {r["frame.len"] for r in back[1:]} == {"52"}, "plain ACKs: 40 + 12"
