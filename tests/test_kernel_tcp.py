"""The simulator's TCP against the Linux kernel's on the same link (issue 29, section 4).

Kernel TCP (CUBIC, Reno with SACK, and BBR v1) runs between two network namespaces through `ccsim
emulate`; ccsim simulates the same link with its CUBIC and SACK (Linux's loss recovery,
timestamps, delayed ACKs, an initial window of 10; Reno with `growth = "linux"`, as the kernel
counts acknowledged segments). Compared: goodput over the run after its first 5 s, within 10 %;
the cwnd sawtooth period (the median time between loss events, pooled over the flows, the kernel's cwnd read from
TCP_INFO every 5 ms, the struct `ss -ti` prints), within 15 %. The kernel's algorithm is set on
each socket (`TCP_CONGESTION`, which root may set to any available algorithm): a namespace's
`net.ipv4.tcp_congestion_control` accepts only the init namespace's allowed list (reno and bbr
on this machine), and widening that list would change the host. Cases: the 10 Mbit/s x 40 ms x
1 BDP dumbbell with one flow and with two, and two of Pantheon's calibrated paths (research
note modern-tcp.md section 4.2) with their mean rates as constant rates. docs/validation.md has
the numbers (and a third Pantheon path, Nepal to India at 4.8 % loss, where the period is the
time between random losses and two kernel runs of 20 and 40 s differ from the simulation by 17 %
and 12 %: too noisy for a 15 % band in a test's time). These tests need root, network namespaces and /dev/net/tun, and skip without them.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.emulate import emulate
from test_emulate import WHY_NOT

pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=f"ccsim emulate cannot run here: {WHY_NOT}")

SENDER = r'''
import json, os, socket, struct, sys, threading, time
out, cc, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
s.connect((os.environ["CCSIM_SERVER"], 9001))
samples, stop, t0 = [], False, time.perf_counter()
def sample():
    while not stop:
        info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
        cwnd = struct.unpack_from("<I", info, 80)[0]  # tcpi_snd_cwnd, segments
        samples.append((time.perf_counter() - t0, cwnd))
        time.sleep(0.005)
th = threading.Thread(target=sample); th.start()
chunk = bytes(1 << 16)
while time.perf_counter() - t0 < seconds:
    s.send(chunk)
stop = True; th.join()
s.shutdown(socket.SHUT_WR); s.recv(1)
json.dump(samples, open(out, "w"))
'''

RECEIVER = r'''
import json, socket, sys, threading, time
out, n = sys.argv[1], int(sys.argv[2])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9001)); s.listen(n)
t0 = time.perf_counter(); results = [None] * n
def serve(i, c):
    total, marks, last = 0, [], 0.0
    while True:
        b = c.recv(1 << 16)
        if not b: break
        total += len(b); t = time.perf_counter() - t0
        if t - last >= 0.01: marks.append((t, total)); last = t
    marks.append((time.perf_counter() - t0, total))
    c.send(b"x"); results[i] = marks
threads = []
for i in range(n):
    c, _ = s.accept()
    th = threading.Thread(target=serve, args=(i, c)); th.start(); threads.append(th)
for th in threads: th.join()
json.dump(results, open(out, "w"))
'''

WARMUP_S = 5.0
#: ccsim's counterpart of each kernel algorithm.
SIMULATED = {"cubic": {"protocol": "cubic"}, "reno": {"protocol": "sack", "growth": "linux"},
             "bbr": {"protocol": "bbr"}}


def loss_events(samples: list[tuple[float, float]], start: float = WARMUP_S, drop: float = 0.15,
                merge: float = 0.5) -> list[float]:
    """Instants after ``start`` where cwnd falls by more than ``drop`` from its value since its
    last rise; falls within ``merge`` seconds of the previous one are the same event (a
    recovery lowers cwnd in steps)."""
    events: list[float] = []
    peak = None
    for t, c in samples:
        if peak is None or c >= peak:
            peak = c
            continue
        if c < (1 - drop) * peak:
            if t >= start and (not events or t - events[-1] > merge):
                events.append(t)
            peak = c
    return events


def event_gaps(samples: list[tuple[float, float]]) -> list[float]:
    """The times between one flow's consecutive loss events."""
    events = loss_events(samples)
    return [b - a for a, b in zip(events, events[1:])]


def sawtooth_period(flows: list[tuple[float, list[float]]]) -> float:
    """The median of the gaps between loss events, pooled over the flows: with two flows a
    per-flow median of a 20 s run moved by 15 % between kernel runs; pooled over 40 s it
    stays within 8 % (1.51-1.59 s in three runs)."""
    gaps = [g for _, flow_gaps in flows for g in flow_gaps]
    assert len(gaps) >= 2 * len(flows), f"too few loss events to time the sawtooth: {gaps}"
    return statistics.median(gaps)


def goodput_after_warmup(marks: list[list[float]]) -> float:
    def at(t: float) -> float:
        return max((n for tt, n in marks if tt <= t), default=0.0)
    end = marks[-1][0]
    return (at(end) - at(WARMUP_S)) * 8 / (end - WARMUP_S)


def kernel(tmp_path: Path, cc: str, flows: int, seconds: float,
           link: dict[str, Any]) -> list[tuple[float, list[float]]]:
    """(goodput, gaps between loss events) of each kernel flow through the emulated link."""
    (tmp_path / "sender.py").write_text(SENDER)
    (tmp_path / "receiver.py").write_text(RECEIVER)
    lines = ['[[links]]', 'between = ["client", "server"]'] + [f"{k} = {json.dumps(v)}" for k, v in link.items()]
    (tmp_path / "link.toml").write_text("\n".join(lines) + "\n")
    py = sys.executable
    senders = " & ".join(f"{py} {tmp_path}/sender.py {tmp_path}/s{i}.json {cc} {seconds}" for i in range(flows))
    status = emulate(tmp_path / "link.toml", ["sh", "-c", f"{senders} & wait"],
                     server=f"{py} {tmp_path}/receiver.py {tmp_path}/r.json {flows}", out=tmp_path / "o", quiet=True)
    assert status == 0
    marks = json.loads((tmp_path / "r.json").read_text())
    out = []
    for i in range(flows):
        samples = [(t, float(c)) for t, c in json.loads((tmp_path / f"s{i}.json").read_text())]
        out.append((goodput_after_warmup(marks[i]), event_gaps(samples)))
    return out


def simulated(cc: str, flows: int, seconds: float, link: dict[str, Any]) -> list[tuple[float, list[float]]]:
    spec = {"run": {"duration": f"{seconds}s", "seed": 1, "warmup": f"{WARMUP_S}s"},
            "links": [{"between": ["client", "server"], **link}],
            "flows": [{"name": f"f{i}", "from": "client", "to": "server", "packet_size": "1500B", "timestamps": True,
                       "recovery": "linux", "delayed_ack": True, "initial_window": 10, **SIMULATED[cc]}
                      for i in range(flows)],
            "output": {"series": ["cwnd"], "interval": "5ms"}}
    result = ccsim.run(spec, progress=False)
    series = result.series("cwnd")
    out = []
    for i in range(flows):
        flow = series[series["entity"] == f"f{i}"]
        samples = list(zip(flow["time"].tolist(), (flow["value"] / 1448).tolist()))
        out.append((result.summary["flows"][f"f{i}"]["goodput_bps"], event_gaps(samples)))
    return out


DUMBBELL = {"rate": "10Mbps", "delay": "20ms", "queue": "33p"}  # 10 Mbit/s x 40 ms, 1 BDP
#: Pantheon's calibrated emulators (observatory experiments.yml), their mean rates as constant.
MEXICO_CELLULAR = {"rate": "2640kbps", "delay": "88ms", "queue": "130p"}
KOREA_TO_CHINA = {"rate": "77720kbps", "delay": "51ms", "queue": "94p", "loss": 0.0006}


@pytest.mark.parametrize("cc, flows, seconds, link", [
    ("cubic", 1, 20, DUMBBELL),
    ("reno", 1, 20, DUMBBELL),
    ("cubic", 2, 40, DUMBBELL),
    ("cubic", 1, 30, MEXICO_CELLULAR),
    ("cubic", 1, 30, KOREA_TO_CHINA),
], ids=["dumbbell-cubic", "dumbbell-reno", "dumbbell-two-cubic", "pantheon-mexico-cellular",
        "pantheon-korea-china"])
def test_simulated_tcp_matches_the_kernels(tmp_path: Path, cc: str, flows: int, seconds: float,
                                           link: dict[str, Any]) -> None:
    real = kernel(tmp_path, cc, flows, seconds, link)
    sim = simulated(cc, flows, seconds, link)
    real_goodput, sim_goodput = sum(g for g, _ in real), sum(g for g, _ in sim)
    assert abs(sim_goodput / real_goodput - 1) <= 0.10, (real, sim)
    real_period, sim_period = sawtooth_period(real), sawtooth_period(sim)
    assert abs(sim_period / real_period - 1) <= 0.15, (real_period, sim_period, real, sim)


@pytest.mark.parametrize("flows, seconds", [(1, 20), (2, 20)], ids=["dumbbell-bbr", "dumbbell-two-bbr"])
def test_simulated_bbr_matches_the_kernels(tmp_path: Path, flows: int, seconds: float) -> None:
    """BBR v1 (the kernel's tcp_bbr.c, ccsim's port of it): goodput within 10 % and, with two
    flows, each flow's share of it within 0.1. BBR has no loss-driven sawtooth to time. Measured:
    one flow 9.39 (kernel) and 9.51 Mbit/s (ccsim); two flows 4.87 + 4.66 and 4.71 + 4.73 over
    40 s, 4.86 + 4.60 and 4.69 + 4.77 over 20 s. (Ten flows are not: the kernel's Jain index is 0.97, ccsim's 0.38-0.82; docs/validation.md.)"""
    real = kernel(tmp_path, "bbr", flows, seconds, DUMBBELL)
    sim = simulated("bbr", flows, seconds, DUMBBELL)
    real_goodput, sim_goodput = sum(g for g, _ in real), sum(g for g, _ in sim)
    assert abs(sim_goodput / real_goodput - 1) <= 0.10, (real, sim)
    for (r, _), (m, _) in zip(real, sim):
        assert abs(m / sim_goodput - r / real_goodput) <= 0.1, (real, sim)
