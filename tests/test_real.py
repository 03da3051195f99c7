"""`ccsim real send|recv`: one end of a scenario's flow over real UDP sockets.

On the loopback interface (everywhere): a CBR flow's receiver gets every packet its sender sent,
at the source's rate, and both write a summary and series in the simulated run's layout; a bad
option or flow is one line naming it (exit 2). Through `ccsim emulate` (root, namespaces, TUN;
skipped elsewhere): TFRC between two real processes across an emulated link against TFRC in the
simulator on the same link: mean rate within 10 % (issue 29, part 4); DCTCP over UDP across a
marking queue; TICP with 1000 sources alone (against the simulator's duration), beside ccsim's
TCP over UDP (an equal share) and beside a kernel TCP flow (every report).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ccsim
from ccsim.cli import main
from ccsim.emulate import emulate

from test_emulate import needs_emulation, our_namespaces

CLI = [sys.executable, "-m", "ccsim.cli"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_bound(port: int, timeout_s: float = 20.0) -> None:
    """Wait until a UDP socket is bound to ``port`` (the receiver is ready; a datagram sent
    before would be refused and lost)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        lines = Path("/proc/net/udp").read_text().splitlines()[1:]
        if any(int(line.split()[1].split(":")[1], 16) == port for line in lines):
            return
        time.sleep(0.02)
    raise AssertionError(f"nothing bound UDP port {port} within {timeout_s} s")


def scenario(tmp_path: Path, flow: str, *, duration: str = "2s", warmup: str = "0.5s",
             link: str = 'rate = "10Mbps"\ndelay = "10ms"\nqueue = "50p"') -> Path:
    path = tmp_path / "flow.toml"
    path.write_text(f'[run]\nduration = "{duration}"\nwarmup = "{warmup}"\nseed = 1\n\n'
                    f'[[links]]\nbetween = ["client", "server"]\n{link}\n\n'
                    f'[[flows]]\nname = "f"\nfrom = "client"\nto = "server"\n{flow}\n'
                    '[output]\ninterval = "100ms"\n')
    return path


def test_cbr_over_loopback_every_packet_at_the_source_rate(tmp_path: Path) -> None:
    spec = scenario(tmp_path, 'protocol = "cbr"\nrate = "2Mbps"\npacket_size = "1000B"\n')
    port = free_port()
    rx = subprocess.Popen([*CLI, "real", "recv", str(spec), "--listen", f"127.0.0.1:{port}",
                           "-o", str(tmp_path / "rx"), "--idle-end", "1s", "-q"])
    try:
        wait_bound(port)
        status = main(["real", "send", str(spec), "--to", f"127.0.0.1:{port}", "-o", str(tmp_path / "tx"), "-q"])
        assert status == 0
        assert rx.wait(timeout=30) == 0
    finally:
        rx.kill()
    tx = json.loads((tmp_path / "tx" / "summary.json").read_text())
    rcv = json.loads((tmp_path / "rx" / "summary.json").read_text())
    sent, got = tx["flows"]["f"], rcv["flows"]["f"]
    # 2 Mbit/s of 1000-byte packets for 2 s: 500 packets; loopback loses none.
    assert 498 <= sent["sent_packets"] <= 501
    assert got["received_packets"] == sent["sent_packets"]
    assert got["received_bytes"] == sent["sent_bytes"] == 1000 * sent["sent_packets"]
    # Goodput over the window counts application bytes (972 of each 1000-byte packet).
    assert got["goodput_bps"] == pytest.approx(2e6 * 972 / 1000, rel=0.03)
    assert sent["send_rate_bps"] == pytest.approx(2e6, rel=0.03)
    assert rcv["real"]["malformed"] == 0 and tx["real"]["send_errors"] == 0
    series = pd.read_parquet(tmp_path / "rx" / "series.parquet")
    assert list(series.columns) == ["time", "entity", "variable", "value"]
    rate = series[series.variable == "rate"]
    assert rate.value.iloc[3:-3].median() == pytest.approx(2e6 * 972 / 1000, rel=0.1)
    assert (tmp_path / "rx" / ".ccsim-manifest").read_text().split() == ["series.parquet", "summary.json"]


def test_bad_options_and_flows_are_one_line_naming_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = scenario(tmp_path, 'protocol = "tfrc"\n')
    assert main(["real", "send", str(spec), "--to", "somewhere"]) == 2
    assert "to: expected an IPv4 address and port" in capsys.readouterr().err
    assert main(["real", "send", str(spec), "--to", "127.0.0.1:9", "--flow", "g"]) == 2
    assert 'no flow named "g"' in capsys.readouterr().err
    xcp = scenario(tmp_path, 'protocol = "xcp"\n')
    assert main(["real", "recv", str(xcp), "--listen", "127.0.0.1:0"]) == 2
    assert "cannot run over plain sockets" in capsys.readouterr().err
    assert main(["real", "recv", str(spec), "--listen", "127.0.0.1:0", "--idle-end=-1s"]) == 2
    assert "--idle-end: expected a duration with its unit" in capsys.readouterr().err


def _simulated_rate(spec_path: Path) -> float:
    result = ccsim.run(str(spec_path), progress=False)
    return float(result.summary["flows"]["f"]["goodput_bps"])


def real_through_emulator(tmp_path: Path, spec: Path, link: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the flow of ``spec`` between two processes (``ccsim real``) across ``ccsim emulate``'s
    ``link``; (the receiver's summary, the emulator's)."""
    (tmp_path / "link.toml").write_text(f'[[links]]\nbetween = ["client", "server"]\n{link}\n')
    py = sys.executable
    server = f"{py} -m ccsim.cli real recv {spec} --listen 10.77.0.2:9000 -o {tmp_path / 'rx'} -q"
    # The sender ends at the run's duration; the second lets the receiver end its window too.
    client = ["sh", "-c", f'{py} -m ccsim.cli real send {spec} --to "$CCSIM_SERVER:9000" -o {tmp_path / "tx"} -q'
                          " && sleep 1"]
    assert emulate(tmp_path / "link.toml", client, server=server, out=str(tmp_path / "emu"), quiet=True) == 0
    assert our_namespaces() == []
    return (json.loads((tmp_path / "rx" / "summary.json").read_text()),
            json.loads((tmp_path / "emu" / "summary.json").read_text()))


@needs_emulation
def test_tfrc_through_the_emulator_matches_the_simulator(tmp_path: Path) -> None:
    # A 10 Mbit/s x 20 ms (one way) link with a 1-BDP DropTail queue (50 packets of 1000 B),
    # one TFRC flow for 20 s, measured over [5 s, 20 s] in both. Measured: 0.944 of the
    # simulator's goodput (30 s runs over [10 s, 30 s]: 0.962 and 0.942); the sender's late
    # timers cost the real flow sending time (docs/real-networks.md).
    link = 'rate = "10Mbps"\ndelay = "20ms"\nqueue = "50p"'
    spec = scenario(tmp_path, 'protocol = "tfrc"\npacket_size = "1000B"\n', duration="20s", warmup="5s",
                    link=link)
    simulated = _simulated_rate(spec)
    rcv, _ = real_through_emulator(tmp_path, spec, link)
    real = rcv["flows"]["f"]["goodput_bps"]
    assert rcv["real"]["malformed"] == 0
    assert real == pytest.approx(simulated, rel=0.10), f"real {real / 1e6:.3f} Mbit/s, simulated {simulated / 1e6:.3f}"


@needs_emulation
def test_dctcp_over_udp_gets_every_ce_mark_of_the_emulated_step_queue(tmp_path: Path) -> None:
    # ccsim's own DCTCP, carried in UDP between two processes, across a step-marking queue
    # (K = 20 packets) of the emulator: the packets the queue marked reach the receiver with
    # CE in its IP header, and the sender, reacting to the echoed marks, keeps the link full
    # without a drop, as it does in the simulator on the same link.
    link = 'rate = "10Mbps"\ndelay = "20ms"\nqueue = { kind = "step", limit = "100p", threshold = 20 }'
    spec = scenario(tmp_path, 'protocol = "dctcp"\npacket_size = "1000B"\n', duration="10s", warmup="3s",
                    link=link)
    simulated = _simulated_rate(spec)
    rcv, summary = real_through_emulator(tmp_path, spec, link)
    emu = summary["directions"]["client->server"]
    assert emu["ecn_marks"] > 100
    # The receiver ends one one-way delay after the sender; the marked packets still queued or
    # on the wire then (at most the queue's 100 and the 50 of a BDP) are marked, never received.
    received = rcv["real"]["ce_received"]
    assert emu["ecn_marks"] - 150 <= received <= emu["ecn_marks"]
    assert emu["drops"] == {}
    # The link's payload rate: 10 Mbit/s x 960 / 1000.
    assert simulated == pytest.approx(9.6e6, rel=0.02)
    assert rcv["flows"]["f"]["goodput_bps"] == pytest.approx(simulated, rel=0.02)


# --- TICP as a deployable collector ---

def ticp_files(tmp_path: Path, hosts: list[tuple[str, str]]) -> tuple[Path, Path, Path]:
    key = tmp_path / "key"
    key.write_bytes(bytes(range(32)))
    report = tmp_path / "report.txt"
    report.write_text("cpu 0.42\n")
    sources = tmp_path / "sources.txt"
    sources.write_text("# address ids\n" + "".join(f"{a} {ids}\n" for a, ids in hosts))
    return key, report, sources


def test_ticp_over_loopback_collects_every_report_once(tmp_path: Path) -> None:
    ports = [free_port(), free_port()]
    key, report, sources = ticp_files(tmp_path, [(f"127.0.0.1:{ports[0]}", "0-299"), (f"127.0.0.1:{ports[1]}", "300-499")])
    cmd = [*CLI, "real", "ticp", "source", "--key-file", str(key), "--idle-end", "2s", "-q"]
    procs = [subprocess.Popen([*cmd, "--listen", f"127.0.0.1:{ports[0]}", "--ids", "0-299", "--report-file", str(report)]),
             subprocess.Popen([*cmd, "--listen", f"127.0.0.1:{ports[1]}", "--ids", "300-499",
                               "--report-command", "echo source $CCSIM_SOURCE_ID", "-o", str(tmp_path / "s2")])]
    try:
        for port in ports:
            wait_bound(port)
        status = main(["real", "ticp", "collect", "--sources", str(sources), "--key-file", str(key),
                       "--initial-timeout", "0.5s", "-o", str(tmp_path / "c"), "-q"])
        assert status == 0
        assert [p.wait(timeout=30) for p in procs] == [0, 0]
    finally:
        for p in procs:
            p.kill()
    summary = json.loads((tmp_path / "c" / "summary.json").read_text())["ticp"]
    assert (summary["sources"], summary["reports"], summary["complete"]) == (500, 500, True)
    assert summary["forged_reports"] == summary["replayed_reports"] == 0
    reports = pd.read_parquet(tmp_path / "c" / "ticp_reports.parquet")
    assert sorted(reports.source) == list(range(500))
    content = dict(zip(reports.source, reports.content))
    assert content[0] == b"cpu 0.42\n" and content[299] == b"cpu 0.42\n"
    assert content[300] == b"source 300\n" and content[499] == b"source 499\n"
    sources_summary = json.loads((tmp_path / "s2" / "summary.json").read_text())["ticp_sources"]
    assert sources_summary["reports_sent"] >= 200 and sources_summary["requests_rejected"] == 0


def test_ticp_sources_answer_no_collector_with_another_key(tmp_path: Path) -> None:
    port = free_port()
    key, report, sources = ticp_files(tmp_path, [(f"127.0.0.1:{port}", "0-9")])
    other = tmp_path / "other-key"
    other.write_bytes(bytes(range(1, 33)))
    src = subprocess.Popen([*CLI, "real", "ticp", "source", "--key-file", str(other), "--listen", f"127.0.0.1:{port}",
                            "--ids", "0-9", "--report-file", str(report), "--idle-end", "1s", "-o", str(tmp_path / "s"),
                            "-q"])
    try:
        wait_bound(port)
        status = main(["real", "ticp", "collect", "--sources", str(sources), "--key-file", str(key),
                       "--initial-timeout", "0.2s", "--allotted", "1s", "-o", str(tmp_path / "c"), "-q"])
        assert src.wait(timeout=30) == 0
    finally:
        src.kill()
    assert status == 1
    assert json.loads((tmp_path / "c" / "summary.json").read_text())["ticp"]["reports"] == 0
    sources = json.loads((tmp_path / "s" / "summary.json").read_text())["ticp_sources"]
    assert sources["requests_rejected"] >= 1 and sources["reports_sent"] == 0


def test_ticp_refuses_short_keys_and_bad_source_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, report, sources = ticp_files(tmp_path, [("127.0.0.1:9", "0-9"), ("127.0.0.1:10", "20-29")])
    assert main(["real", "ticp", "collect", "--sources", str(sources), "--key-file", str(key)]) == 2
    assert "starts at ID 20, expected 10" in capsys.readouterr().err
    (tmp_path / "short").write_bytes(b"short")
    assert main(["real", "ticp", "source", "--key-file", str(tmp_path / "short"), "--listen", "127.0.0.1:0",
                 "--ids", "0-9", "--report-file", str(report)]) == 2
    assert "key_file" in capsys.readouterr().err
    assert main(["real", "ticp", "source", "--key-file", str(key), "--listen", "127.0.0.1:0", "--ids", "9-0",
                 "--report-file", str(report)]) == 2
    assert "FIRST-LAST" in capsys.readouterr().err


TCP_RECEIVER = r"""
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9001)); s.listen(1)
c, _ = s.accept()
n, last, f = 0, 0.0, open(sys.argv[1], "w")
while True:
    b = c.recv(1 << 16)
    if not b:
        break
    n += len(b)
    t = time.time()
    if t - last > 0.05:
        f.write(f"{t} {n}\n"); f.flush(); last = t
"""

TCP_SENDER = r"""
import socket, sys, time
t0 = time.time()
while True:
    try:
        s = socket.create_connection((sys.argv[1], 9001), timeout=1); break
    except OSError:
        if time.time() - t0 > 10: raise
        time.sleep(0.1)
s.settimeout(None)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"reno")
chunk = bytes(1 << 16)
while time.time() - t0 < float(sys.argv[2]):
    s.send(chunk)
"""


TICP_LINK = '[[links]]\nbetween = ["client", "server"]\nrate = "1Mbps"\ndelay = "20ms"\nqueue = "10p"\n'


CCSIM_TCP_FLOW = ('[run]\nduration = "60s"\nseed = 1\n\n[[links]]\nbetween = ["client", "server"]\nrate = "1Mbps"\n'
                  'delay = "20ms"\nqueue = "10p"\n\n[[flows]]\nname = "tcp"\nfrom = "server"\nto = "client"\n'
                  'protocol = "sack"\ngrowth = "linux"\ntimestamps = true\ndelayed_ack = true\ninitial_window = 10\n'
                  'recovery = "linux"\npacket_size = "1500B"\n\n[output]\ninterval = "100ms"\n')


def ticp_through_emulator(tmp_path: Path, tcp: str | None) -> dict[str, Any]:
    """1000 sources in one host (the server namespace) report 1000-byte datagrams (900 bytes
    of content) to a collector (the client namespace) across 1 Mbit/s x 20 ms with a 10-packet
    queue. With ``tcp``, a bulk TCP flow in the same direction has had the link to itself for
    5 s: "kernel" (the kernel's Reno) or "ccsim" (ccsim's SACK with Linux's growth, the
    simulator's stand-in for it, over UDP through `ccsim real`). The collector's summary, with
    ``tcp_wire_bps``: the TCP flow's rate on the wire over the session (1500 of every 1448
    payload bytes, timestamps on)."""
    d = tmp_path
    (d / "link.toml").write_text(TICP_LINK)
    key, report, sources = ticp_files(d, [("10.77.0.2:9100", "0-999")])
    report.write_text("x" * 900)
    py = sys.executable
    tcp_tx, tcp_rx, end_rx = "", "", ""
    if tcp == "kernel":
        (d / "rx.py").write_text(TCP_RECEIVER)
        (d / "tx.py").write_text(TCP_SENDER)
        tcp_tx = f" & {py} {d}/tx.py 10.77.0.1 120"
        tcp_rx = f"{py} {d}/rx.py {d}/tcp.txt & RX=$!; sleep 5; "
        end_rx = " kill $RX;"
    elif tcp == "ccsim":
        (d / "flow.toml").write_text(CCSIM_TCP_FLOW)
        tcp_tx = f" & (sleep 1; {py} -m ccsim.cli real send {d}/flow.toml --to 10.77.0.1:9200 -q)"
        tcp_rx = f"{py} -m ccsim.cli real recv {d}/flow.toml --listen 10.77.0.1:9200 -o {d}/rx -q & RX=$!; sleep 6; "
        end_rx = " kill $RX; wait $RX;"
    server = (f"{py} -m ccsim.cli real ticp source --listen 10.77.0.2:9100 --ids 0-999 --key-file {key} "
              f"--report-file {report} --idle-end 30s -o {d}/src -q{tcp_tx} & wait")
    client = ["sh", "-c", f"{tcp_rx}{py} -m ccsim.cli real ticp collect --sources {sources} --key-file {key} "
                          f"--timeout 100s -o {d}/col -q; S=$?;{end_rx} exit $S"]
    assert emulate(d / "link.toml", client, server=server, out=str(d / "emu"), quiet=True) == 0
    t: dict[str, Any] = json.loads((d / "col" / "summary.json").read_text())["ticp"]
    assert (t["sources"], t["reports"], t["complete"]) == (1000, 1000, True)
    assert t["forged_reports"] == t["replayed_reports"] == t["malformed"] == 0
    # The collector's report rate over its session cannot exceed the 1 Mbit/s link.
    assert t["report_rate_bps"] <= 1e6, t
    began, ended = t["started_unix"] + t["began_s"], t["started_unix"] + t["completed_s"]
    if tcp == "kernel":
        marks = [tuple(map(float, line.split())) for line in (d / "tcp.txt").read_text().splitlines() if line]

        def delivered(at: float) -> float:
            return max((n for when, n in marks if when <= at), default=0.0)

        t["tcp_wire_bps"] = (delivered(ended) - delivered(began)) * 8 / (ended - began) * 1500 / 1448
    elif tcp == "ccsim":
        real = json.loads((d / "rx" / "summary.json").read_text())["real"]
        series = pd.read_parquet(d / "rx" / "series.parquet")
        rate = series[series.variable == "rate"]
        wall = real["started_unix"] + real["anchor_s"] + rate.time
        t["tcp_wire_bps"] = float(rate[(wall > began) & (wall <= ended)].value.mean()) * 1500 / 1448
    return t


def simulated_ticp(with_tcp: bool) -> tuple[float, float | None]:
    """The same session in the simulator (ccsim's SACK with Linux's growth for the kernel's
    Reno): (session duration, the TCP flow's rate on the wire over it)."""
    spec: dict[str, Any] = {
        "run": {"duration": "60s", "seed": 1},
        "links": [{"between": ["client", "server"], "rate": "1Mbps", "delay": "20ms", "queue": "10p"}],
        "ticp": [{"name": "ticp", "collector": "client", "sources": {"server": 1000}, "rs": 1,
                  "request_size": "64B", "report_size": "1000B", "delivery": "unicast", "start": "5s"}],
        "output": {"series": ["rate"], "interval": "100ms"}}
    if with_tcp:
        spec["flows"] = [{"name": "tcp", "from": "server", "to": "client", "protocol": "sack", "growth": "linux",
                          "timestamps": True, "delayed_ack": True, "initial_window": 10, "recovery": "linux",
                          "packet_size": "1500B"}]
    result = ccsim.run(spec, progress=False)
    duration = float(result.summary["ticp"]["ticp"]["duration_s"])
    if not with_tcp:
        return duration, None
    s = result.series("rate")
    tcp = s[(s.entity == "tcp") & (s.time > 5.0) & (s.time <= 5.0 + duration)]["value"].mean()
    return duration, float(tcp) * 1500 / 1448


@needs_emulation
def test_ticp_alone_through_the_emulator_takes_the_simulators_time(tmp_path: Path) -> None:
    # The collector and 1000 sources, real processes across the emulated bottleneck, against the
    # same session in the simulator: every report, and the session's duration within 10 %.
    # Measured: 8.21 s real (4 rounds), 8.13 s simulated (3 rounds).
    real = ticp_through_emulator(tmp_path, None)
    simulated, _ = simulated_ticp(with_tcp=False)
    assert real["duration_s"] == pytest.approx(simulated, rel=0.10)


@needs_emulation
def test_ticp_collects_1000_sources_beside_a_kernel_tcp_flow(tmp_path: Path) -> None:
    # With a kernel Reno flow on the bottleneck, every report still arrives and none is
    # rejected, and the two fill the link between them. TCP-friendliness is not asserted: over
    # six runs the collector's rate over its session was 0.52, 0.75, 0.76, 2.5 and 7.7 times
    # the TCP flow's, and once the TCP flow got 0.13 of the link (bimodal, cause not found;
    # docs/real-networks.md), where the simulator's same set-up gives 1.09 and the paper's
    # Fig. 9 "about as one TCP flow".
    t = ticp_through_emulator(tmp_path, "kernel")
    assert t["report_rate_bps"] + t["tcp_wire_bps"] >= 0.85e6, t


@needs_emulation
def test_ticp_beside_ccsims_tcp_over_udp_is_tcp_friendly(tmp_path: Path) -> None:
    # The same session beside ccsim's own TCP (SACK, Linux's growth: the simulator's stand-in
    # for the kernel's Reno), carried over UDP between two processes by `ccsim real`: both get
    # about an equal share, within ticp-tcp-rev-fair's band (0.7-1.3 of half the link; the
    # paper's Fig. 9, "about as one TCP flow"), as in the simulator (1.09 : 1). Measured in four
    # runs: TICP 0.93-1.09 and TCP 0.92-1.07 of an equal share. Against the kernel's Reno
    # (the test above) the share is bimodal.
    t = ticp_through_emulator(tmp_path, "ccsim")
    half = 1e6 / 2
    assert 0.7 <= t["report_rate_bps"] / half <= 1.3, t
    assert 0.7 <= t["tcp_wire_bps"] / half <= 1.3, t


def test_ticp_with_landmark_binning_over_loopback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two landmark daemons; a source host that bins itself against them and registers its bin
    # with the collector before the session; a collector that bins itself too. On loopback
    # every round trip is under the first threshold: level 0 everywhere, bin 0.
    ports = [free_port() for _ in range(4)]
    landmarks = f"127.0.0.1:{ports[0]},127.0.0.1:{ports[1]}"
    key, report, sources = ticp_files(tmp_path, [(f"127.0.0.1:{ports[2]}", "0-99")])
    procs = [subprocess.Popen([*CLI, "real", "ticp", "landmark", "--listen", f"127.0.0.1:{p}", "-q"]) for p in ports[:2]]
    procs.append(subprocess.Popen([*CLI, "real", "ticp", "source", "--key-file", str(key), "--listen",
                                   f"127.0.0.1:{ports[2]}", "--ids", "0-99", "--report-file", str(report),
                                   "--landmarks", landmarks, "--collector", f"127.0.0.1:{ports[3]}",
                                   "--binning-phase", "500ms", "--idle-end", "2s", "-q"]))
    try:
        for port in ports[:3]:
            wait_bound(port)
        status = main(["real", "ticp", "collect", "--sources", str(sources), "--key-file", str(key), "--listen",
                       f"127.0.0.1:{ports[3]}", "--landmarks", landmarks, "--binning-phase", "500ms",
                       "--initial-timeout", "0.5s", "-o", str(tmp_path / "c"), "-q"])
        assert status == 0
        assert procs[2].wait(timeout=30) == 0
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=10)
    summary = json.loads((tmp_path / "c" / "summary.json").read_text())["ticp"]
    assert (summary["reports"], summary["host_bins"]) == (100, [0])
    assert summary["began_s"] == pytest.approx(0.5, abs=0.1)
    # A source that bins needs the collector's address to register.
    assert main(["real", "ticp", "source", "--key-file", str(key), "--listen", "127.0.0.1:0", "--ids", "0-9",
                 "--report-file", str(report), "--landmarks", landmarks]) == 2
    assert "collector" in capsys.readouterr().err
