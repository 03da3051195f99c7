"""`ccsim emulate`: real processes in two network namespaces across a link emulated by ccsim's
link and queue code. The end-to-end tests need root, network namespaces and /dev/net/tun (CI
has them); without them they skip and say why. The link-file checks run everywhere.

Checked against closed forms: the round trip of a small datagram is twice the propagation delay
plus two serialisation times; a bulk TCP transfer's goodput stays under the link's rate times
its payload fraction and near it; a step-marking queue marks a kernel ECN flow's packets CE
(the kernel accepts them, so the rewritten checksum is valid); the command's exit status comes
back; no namespace is left behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ccsim import SpecError
from ccsim.cli import main
from ccsim.emulate import emulate, load_link_directions, load_link_file, load_link_path


def _can_emulate() -> str | None:
    if sys.platform != "linux":
        return "not Linux"
    if os.geteuid() != 0:
        return "not root"
    if not os.path.exists("/dev/net/tun"):
        return "no /dev/net/tun"
    if shutil.which("ip") is None:
        return "no ip command"
    probe = f"ccsim-probe-{os.getpid()}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        return "cannot create a network namespace"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


WHY_NOT = _can_emulate()
needs_emulation = pytest.mark.skipif(WHY_NOT is not None, reason=f"ccsim emulate cannot run here: {WHY_NOT}")


def link_file(tmp_path: Path, **keys: Any) -> Path:
    lines = ['[[links]]', 'between = ["client", "server"]']
    for k, v in keys.items():
        lines.append(f"{k} = {json.dumps(v) if not isinstance(v, str) or not v.startswith('{') else v}")
    path = tmp_path / "link.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def our_namespaces() -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(f"ccsim-{os.getpid()}-")]


# --- the link file, everywhere ---

def test_a_link_file_is_one_link_between_client_and_server(tmp_path: Path) -> None:
    spec = load_link_file(link_file(tmp_path, rate="10Mbps", delay="20ms", queue="50p"))
    assert spec["links"][0]["rate"] == "10Mbps"
    bad = tmp_path / "bad.toml"
    bad.write_text('[[links]]\nbetween = ["a", "b"]\nrate = "1Mbps"\ndelay = "1ms"\n')
    with pytest.raises(SpecError, match=r'between = \["client", "server"\]'):
        load_link_file(bad)
    bad.write_text('[[links]]\nbetween = ["client", "server"]\nrate = "fast"\ndelay = "1ms"\n')
    with pytest.raises(SpecError) as e:
        load_link_file(bad)
    assert e.value.path == "links[0].rate"
    bad.write_text('[flows]\n')
    with pytest.raises(SpecError, match="unknown key 'flows'"):
        load_link_file(bad)
    bad.write_text('[[links]]\nbetween = ["client", "server"]\nrate = "1Mbps"\ndelay = "1ms"\n' * 2)
    with pytest.raises(SpecError, match="exactly one"):
        load_link_file(bad)


def test_the_command_line_refuses_a_bad_link_file_with_status_2(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[links]]\nbetween = ["client", "server"]\nrate = "1Mbps"\ndelay = "-1ms"\n')
    assert main(["emulate", str(bad), "--", "true"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ccsim: error: links[0].delay") and err.count("\n") == 1


# --- end to end ---

RTT_CLIENT = r"""
import os, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
rtts = []
for i in range(20):
    t = time.perf_counter()
    s.sendto(bytes(100), (os.environ["CCSIM_SERVER"], 9000))
    s.recvfrom(2000)
    rtts.append(time.perf_counter() - t)
    time.sleep(0.02)
open(sys.argv[1], "w").write(" ".join(map(str, rtts)))
"""

ECHO_SERVER = r"""
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 9000))
while True:
    data, peer = s.recvfrom(2000)
    s.sendto(data, peer)
"""


@needs_emulation
def test_a_datagrams_round_trip_is_twice_the_delay_plus_two_serialisations(tmp_path: Path) -> None:
    out = tmp_path / "rtts"
    status = emulate(link_file(tmp_path, rate="10Mbps", delay="20ms"),
                     [sys.executable, "-c", RTT_CLIENT, str(out)],
                     server=f"{sys.executable} -c '{ECHO_SERVER}'", out=tmp_path / "o", quiet=True)
    assert status == 0
    rtts = sorted(float(x) for x in out.read_text().split())
    # 100 bytes of payload: 128-byte IP packets, 102.4 us each way at 10 Mbit/s.
    expected = 2 * 0.020 + 2 * 128 * 8 / 10e6
    assert expected <= rtts[0] <= expected + 0.001, rtts[:3]
    assert rtts[len(rtts) // 2] <= expected + 0.002, rtts
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    up = summary["directions"]["client->server"]
    assert up["packets"] == 20 and up["bytes"] == 20 * 128
    assert summary["exit_status"] == 0
    assert not our_namespaces()


PORTS_CLIENT = r"""
import json, os, socket, sys, time
rtts = {}
for port in (40001, 40002):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(2)
    rtts[port] = []
    for i in range(10):
        t = time.perf_counter()
        s.sendto(bytes(100), (os.environ["CCSIM_SERVER"], 9000))
        s.recvfrom(2000)
        rtts[port].append(time.perf_counter() - t)
        time.sleep(0.02)
open(sys.argv[1], "w").write(json.dumps(rtts))
"""


@needs_emulation
def test_a_ports_access_link_adds_its_delay_each_way_to_that_port_only(tmp_path: Path) -> None:
    path = link_file(tmp_path, rate="10Mbps", delay="20ms")
    path.write_text(path.read_text() + '\n[[port_delays]]\nport = 40001\ndelay = "15ms"\n')
    out = tmp_path / "rtts"
    status = emulate(path, [sys.executable, "-c", PORTS_CLIENT, str(out)],
                     server=f"{sys.executable} -c '{ECHO_SERVER}'", out=tmp_path / "o", quiet=True)
    assert status == 0
    rtts = {int(port): values for port, values in json.loads(out.read_text()).items()}
    # 128-byte IP packets: 102.4 us each way at 10 Mbit/s; the access link adds 15 ms each way
    # (and 1 ns of serialisation at 1 Tbit/s) to port 40001's datagrams and their echoes.
    for port, extra in ((40001, 0.015), (40002, 0.0)):
        expected = 2 * (0.020 + extra) + 2 * 128 * 8 / 10e6
        fastest = min(rtts[port])
        assert expected <= fastest <= expected + 0.001, (port, sorted(rtts[port]))
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["port_delays"] == [{"port": 40001, "delay_s": 0.015}]
    assert summary["directions"]["client->server"]["packets"] == 20


@pytest.mark.parametrize(("entry", "path", "message"), [
    ('port = 0\ndelay = "5ms"', "port_delays[0].port", "1 to 65535, found 0"),
    ('port = "80"\ndelay = "5ms"', "port_delays[0].port", "found '80'"),
    ('port = 80\ndelay = "-5ms"', "port_delays[0].delay", "must not be negative"),
    ('port = 80\ndelay = "5 parsecs"', "port_delays[0].delay", "5 parsecs"),
    ('port = 80', "port_delays[0].delay", "missing delay"),
    ('port = 80\ndelay = "5ms"\nqueue = "3p"', "port_delays[0].queue", "unknown key 'queue'"),
    ('port = 80\ndelay = "5ms"\n[[port_delays]]\nport = 80\ndelay = "9ms"', "port_delays[1].port",
     "port 80 has two entries"),
])
def test_a_bad_port_delay_is_named(tmp_path: Path, entry: str, path: str, message: str) -> None:
    link = link_file(tmp_path, rate="10Mbps", delay="20ms")
    link.write_text(link.read_text() + "\n[[port_delays]]\n" + entry + "\n")
    with pytest.raises(SpecError, match=re.escape(message)) as e:
        load_link_path(link)
    assert e.value.path == path


def test_port_delays_are_read_in_nanoseconds(tmp_path: Path) -> None:
    link = link_file(tmp_path, rate="10Mbps", delay="20ms")
    link.write_text(link.read_text() + '\n[[port_delays]]\nport = 5001\ndelay = "20.5ms"\n'
                    '[[port_delays]]\nport = 5002\ndelay = "0s"\n')
    assert load_link_path(link)[2] == [(5001, 20_500_000), (5002, 0)]


ASYMMETRIC = """[[links]]
between = ["client", "server"]
rate = "10Mbps"
delay = "20ms"

[links.server_to_client]
rate = "2Mbps"
delay = "5ms"
"""


def test_a_directions_table_overrides_its_keys_for_that_direction_only(tmp_path: Path) -> None:
    path = tmp_path / "link.toml"
    path.write_text(ASYMMETRIC)
    up, down = load_link_directions(path)
    assert (up["links"][0]["rate"], up["links"][0]["delay"]) == ("10Mbps", "20ms")
    assert (down["links"][0]["rate"], down["links"][0]["delay"]) == ("2Mbps", "5ms")
    path.write_text(ASYMMETRIC.replace('rate = "2Mbps"', 'rate = "slow"'))
    with pytest.raises(SpecError) as e:
        load_link_directions(path)
    assert e.value.path == "links[0].server_to_client.rate"
    path.write_text(ASYMMETRIC + '\n[links.client_to_server]\nbetween = ["a", "b"]\n')
    with pytest.raises(SpecError, match="cannot change between"):
        load_link_directions(path)


@needs_emulation
def test_each_direction_has_its_own_delay_and_rate(tmp_path: Path) -> None:
    out = tmp_path / "rtts"
    (tmp_path / "link.toml").write_text(ASYMMETRIC)
    status = emulate(tmp_path / "link.toml", [sys.executable, "-c", RTT_CLIENT, str(out)],
                     server=f"{sys.executable} -c '{ECHO_SERVER}'", out=tmp_path / "o", quiet=True)
    assert status == 0
    rtts = sorted(float(x) for x in out.read_text().split())
    # 128-byte IP packets: 20 ms + 102.4 us out at 10 Mbit/s, 5 ms + 512 us back at 2 Mbit/s.
    expected = 0.020 + 0.005 + 128 * 8 / 10e6 + 128 * 8 / 2e6
    assert expected <= rtts[0] <= expected + 0.001, rtts[:3]
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    down = summary["directions"]["server->client"]
    assert down["link"]["rate"] == "2Mbps" and down["lateness_limit_s"] == pytest.approx(0.1 * 1500 * 8 / 2e6)


BULK_SERVER = r"""
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9001)); s.listen(1)
c, _ = s.accept()
n = 0
while True:
    b = c.recv(1 << 16)
    if not b:
        break
    n += len(b)
open(sys.argv[1], "w").write(str(n))
"""

BULK_CLIENT = r"""
import os, socket, sys, time
cc = sys.argv[2]
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
s.connect((os.environ["CCSIM_SERVER"], 9001))
t0 = time.perf_counter(); chunk = bytes(1 << 16)
while time.perf_counter() - t0 < float(sys.argv[3]):
    s.send(chunk)
s.shutdown(socket.SHUT_WR); s.recv(1)
open(sys.argv[1], "w").write(str(time.perf_counter() - t0))
"""


def bulk(tmp_path: Path, seconds: float, cc: str = "cubic", ecn: bool = False, **link: Any) -> tuple[float, dict[str, Any]]:
    received, elapsed = tmp_path / "received", tmp_path / "elapsed"
    client = [sys.executable, "-c", BULK_CLIENT, str(elapsed), cc, str(seconds)]
    if ecn:
        client = ["sh", "-c", 'sysctl -q -w net.ipv4.tcp_ecn=1 && exec "$@"', "sh", *client]
    server = f"{sys.executable} -c '{BULK_SERVER}' {received}"
    if ecn:
        server = f"sysctl -q -w net.ipv4.tcp_ecn=1 && {server}"
    status = emulate(link_file(tmp_path, **link), client, server=server, out=tmp_path / "o", quiet=True)
    assert status == 0
    goodput = int(received.read_text()) * 8 / float(elapsed.read_text())
    return goodput, json.loads((tmp_path / "o" / "summary.json").read_text())


@needs_emulation
def test_a_kernel_tcp_transfer_fills_the_link_and_no_more(tmp_path: Path) -> None:
    goodput, summary = bulk(tmp_path, 3.0, rate="10Mbps", delay="10ms", queue="20p")
    # Payload per 1500-byte packet with timestamps: 1448 bytes.
    ceiling = 10e6 * 1448 / 1500
    assert 0.8 * ceiling <= goodput <= ceiling * 1.01, goodput
    up = summary["directions"]["client->server"]
    # Conservation in the emulated link: read = written + dropped + still inside.
    assert up["packets_in"] == up["packets"] + sum(up["drops"].values()) + up["in_link_at_stop"] + up["write_errors"]
    assert up["drops"].get("queue_full", 0) > 0, "cubic fills a 20-packet queue"
    # Never faster than the link: bytes written over the run.
    assert up["bytes"] * 8 <= 10e6 * summary["duration_s"] + 20 * 1500 * 8
    assert not our_namespaces()


@needs_emulation
def test_step_marking_reaches_a_kernel_ecn_flow(tmp_path: Path) -> None:
    goodput, summary = bulk(tmp_path, 2.0, ecn=True, rate="10Mbps", delay="10ms",
                            queue='{ kind = "step", limit = "100p", threshold = 10 }')
    up = summary["directions"]["client->server"]
    assert up["ecn_marks"] > 0, up
    assert up["drops"] == {}, "marks instead of drops"
    assert goodput >= 0.8 * 10e6 * 1448 / 1500


@needs_emulation
def test_the_commands_exit_status_comes_back_and_no_namespace_stays(tmp_path: Path) -> None:
    assert emulate(link_file(tmp_path, rate="1Mbps", delay="1ms"), ["sh", "-c", "exit 7"], quiet=True) == 7
    assert main(["emulate", str(link_file(tmp_path, rate="1Mbps", delay="1ms")), "-q", "--", "true"]) == 0
    assert not our_namespaces()


@needs_emulation
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_emulation_leaves_no_namespace(tmp_path: Path, sig: int) -> None:
    link = link_file(tmp_path, rate="1Mbps", delay="1ms")
    proc = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "emulate", str(link), "-q", "-o", str(tmp_path / "o"),
                             "--", "sleep", "30"], stderr=subprocess.PIPE, text=True)
    prefix = f"ccsim-{proc.pid}-"

    def theirs() -> list[str]:
        out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        return [line.split()[0] for line in out.splitlines() if line.startswith(prefix)]

    deadline = time.monotonic() + 20
    while len(theirs()) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert len(theirs()) == 2, "the namespaces were made"
    time.sleep(0.5)  # the client command is running
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert theirs() == []
    # The summary of what crossed the link until then is still written (it was not).
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["interrupted"] is True


@needs_emulation
def test_strict_fails_a_run_whose_release_was_not_faithful(tmp_path: Path, capsys: Any) -> None:
    # At 1 Gbit/s the bound is a tenth of 12 us: no machine releases that punctually through
    # a system call, so the run warns, and with --strict exits with status 3.
    link = link_file(tmp_path, rate="1Gbps", delay="1ms")
    client = [sys.executable, "-c", RTT_CLIENT, str(tmp_path / "rtts")]
    server = f"{sys.executable} -c '{ECHO_SERVER}'"
    assert emulate(link, client, server=server, out=tmp_path / "o", quiet=True) == 0
    assert "was not faithful" in capsys.readouterr().err
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["faithful"] is False and summary["lateness_limit_s"] == pytest.approx(1.2e-6)
    assert emulate(link, client, server=server, strict=True, quiet=True) == 3


@needs_emulation
def test_a_kernel_tcp_transfer_over_a_trace_link_gets_the_traces_capacity(tmp_path: Path) -> None:
    # mahimahi's fixed-rate trace "1": one 1504-byte opportunity a millisecond, 12.032 Mbit/s
    # (traces/README); the nominal rate is set far from it, so only the trace can explain
    # the goodput.
    (tmp_path / "one.trace").write_text("1\n")
    goodput, summary = bulk(tmp_path, 3.0, rate="30Mbps", delay="10ms", queue="40p", trace="one.trace")
    ceiling = 1504 * 8 * 1000 * 1448 / 1500
    assert 0.85 * ceiling <= goodput <= ceiling * 1.01, goodput
    up = summary["directions"]["client->server"]
    assert up["bytes"] * 8 <= 1504 * 8 * 1000 * (summary["duration_s"] + 0.001) + 40 * 1500 * 8
    assert not our_namespaces()


WRITE_AND_EXIT = r"""
import os, socket, sys
s = socket.socket()
s.connect((os.environ["CCSIM_SERVER"], 9001))
s.sendall(bytes(int(sys.argv[1])))
s.close()
"""


@needs_emulation
def test_what_a_client_wrote_before_exiting_is_delivered_and_the_server_sees_its_end(tmp_path: Path) -> None:
    # A client that writes, closes and exits left its send buffer in the link (46 packets) and
    # the server was killed before it saw EOF (issue 40, item 8).
    size = 600_000  # about 0.5 s at 10 Mbit/s, most of it still in the socket when the client exits
    received = tmp_path / "received"
    server = f"{sys.executable} -c '{BULK_SERVER}' {received}"
    status = emulate(link_file(tmp_path, rate="10Mbps", delay="10ms", queue="100p"),
                     [sys.executable, "-c", WRITE_AND_EXIT, str(size)], server=server, out=tmp_path / "o",
                     quiet=True, drain_s=10.0, grace_s=5.0)
    assert status == 0
    assert received.read_text() == str(size)  # the server wrote it on EOF, by itself
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["drain"]["drained"] and 0.2 <= summary["drain"]["waited_s"] < 10.0
    assert all(d["in_link_at_stop"] == 0 for d in summary["directions"].values())


@needs_emulation
def test_without_a_drain_the_summary_says_what_was_left_in_the_link(tmp_path: Path, capsys: Any) -> None:
    status = emulate(link_file(tmp_path, rate="1Mbps", delay="10ms", queue="1000p"),
                     [sys.executable, "-c", WRITE_AND_EXIT, "300000"],
                     server=f"{sys.executable} -c '{BULK_SERVER}' {tmp_path / 'r'}", out=tmp_path / "o",
                     quiet=True, drain_s=0.0, grace_s=0.0)
    assert status == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    left = summary["directions"]["client->server"]["in_link_at_stop"]
    assert left > 0 and not summary["drain"]["drained"]
    assert f"{left} packets still in the client->server link" in capsys.readouterr().err


@needs_emulation
def test_a_client_killed_by_a_signal_exits_as_a_shell_says(tmp_path: Path) -> None:
    # SIGKILL came back as 247 (-9 & 255); the convention is 128 + 9.
    link = link_file(tmp_path, rate="1Mbps", delay="1ms")
    assert emulate(link, ["sh", "-c", "kill -KILL $$"], quiet=True, drain_s=0.0, grace_s=0.0) == 137


def test_drain_and_grace_are_checked(tmp_path: Path) -> None:
    link = link_file(tmp_path, rate="1Mbps", delay="1ms")
    with pytest.raises(SpecError, match=r"^--drain: must be 0 to 3600 seconds, found -1"):
        emulate(link, ["true"], drain_s=-1)
    with pytest.raises(SpecError, match=r"^--grace: must be 0 to 3600 seconds, found inf"):
        emulate(link, ["true"], grace_s=float("inf"))


def test_a_client_command_that_does_not_exist_is_named_before_anything_starts(tmp_path: Path,
                                                                             capsys: Any) -> None:
    # `ip netns exec` said so itself, without ccsim's prefix, after the namespaces were made.
    assert main(["emulate", str(link_file(tmp_path, rate="1Mbps", delay="1ms")), "--", "/nonexistent/cmd"]) == 2
    assert capsys.readouterr().err.strip() == ("ccsim: error: command: no such command: '/nonexistent/cmd' (not a "
                                               "file that can run, nor on PATH)")


@needs_emulation
def test_namespaces_a_killed_emulate_left_are_removed_by_the_next(tmp_path: Path) -> None:
    from ccsim.emulate import remove_stale_namespaces

    # A SIGKILLed emulate left its two namespaces (and their processes) behind, and the next run
    # neither removed nor mentioned them.
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = [f"ccsim-{dead.pid}-123456-client", f"ccsim-{dead.pid}-123456-server"]
    alive = "ccsim-1-123456-client"  # pid 1 always runs
    other = "ccsim-test-not-ours"
    for name in (*stale, alive, other):
        subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        assert sorted(remove_stale_namespaces()) == sorted(stale)
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        assert alive in listed and other in listed and not any(s in listed for s in stale)
    finally:
        for name in (*stale, alive, other):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
