"""A user's congestion control in Python (issue 42): ``protocol = "module:Class"``, the ``cc``
table, ``ccsim.register_cc``, and the rules a user's code runs under.

The independent checks: the built-in algorithms written again through the interface
(:mod:`ccsim.reference`: RFC 5681 Reno, Linux's CUBIC) give the same bytes as the built-ins on
the bench dumbbells; a run is deterministic; a model-based algorithm stays under the link's
capacity; an exception in user code is one line naming the flow, the class, the hook and the
user's file and line.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim import _ccsim
from ccsim.bench import PYTHON_BENCHMARKS, python_spec

from conftest import cli, small_spec


def _shortened(spec: dict[str, Any], duration: str = "3s") -> dict[str, Any]:
    """``spec`` for ``duration``, every flow's window traced at each change."""
    spec = copy.deepcopy(spec)
    spec["run"]["duration"] = duration
    spec["run"].pop("warmup", None)
    spec.setdefault("output", {})["trace"] = ["cwnd"]
    return spec


def _comparable(summary: dict[str, Any], *, events: bool = True) -> str:
    """A summary without what names the run rather than its outcome: the protocol's name, the
    spec's hash and the wall-clock figures (and the count of events, unless ``events``)."""
    s = copy.deepcopy(summary)
    for flow in s["flows"].values():
        flow.pop("protocol")
    for key in ("spec_hash", "wall_seconds", "events_per_second", "packets_per_second"):
        s["run"].pop(key, None)
    if not events:
        s["run"].pop("events")
    return json.dumps(s, sort_keys=True)


@pytest.mark.parametrize("name", sorted(PYTHON_BENCHMARKS))
def test_reference_algorithms_in_python_give_the_builtins_bytes(name: str) -> None:
    native_name = PYTHON_BENCHMARKS[name][0]
    native = _shortened(json.loads(_ccsim.bench_spec(native_name)))
    python = _shortened(python_spec(name))
    a = ccsim.run(native, progress=False)
    b = ccsim.run(python, progress=False)
    assert a.summary["aggregate"]["lost_packets"] > 100  # the runs exercise loss recovery
    assert _comparable(a.summary) == _comparable(b.summary)
    assert len(a.series("cwnd:change")) > 10_000
    assert a.series("cwnd:change").equals(b.series("cwnd:change"))


def test_python_reno_with_sack_recovery_is_the_builtin_sack() -> None:
    native = _shortened(json.loads(_ccsim.bench_spec("sack-100")))
    python = copy.deepcopy(native)
    for f in python["flows"]:
        f["protocol"] = "ccsim.reference.reno:Sack"
    assert _comparable(ccsim.run(native, progress=False).summary) == \
        _comparable(ccsim.run(python, progress=False).summary)


def _module(tmp_path: Path, name: str, source: str) -> str:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    return str(tmp_path)


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A module of small algorithms, importable for this test only."""
    folder = tmp_path / f"mod_{tmp_path.name}"
    folder.mkdir()
    module = f"usercc_{abs(hash(str(tmp_path))) % 10**8}"
    (folder / f"{module}.py").write_text(textwrap.dedent('''
        import ccsim

        class Fixed(ccsim.CongestionControl):
            """A window of `segments` segments, whatever happens."""
            def __init__(self, segments=10):
                self.segments = segments
            def on_ack(self, w, ack):
                w.cwnd = self.segments * w.mss
            def ssthresh(self, w):
                return self.segments * w.mss

        class Raises(ccsim.CongestionControl):
            def on_ack(self, w, ack):
                if ack.now > 0.5:
                    {}["missing"]
                w.cwnd += w.mss

        class BadThreshold(ccsim.CongestionControl):
            def on_ack(self, w, ack):
                w.cwnd += w.mss
            def ssthresh(self, w):
                return w.cwnd / 2

        class FailsToBuild(ccsim.CongestionControl):
            def __init__(self):
                raise RuntimeError("no such thing")
            def on_ack(self, w, ack):
                pass

        class NoHooks(ccsim.CongestionControl):
            pass

        class Huge(ccsim.CongestionControl):
            """A window of 2**62 bytes on the first ACK."""
            def on_ack(self, w, ack):
                w.cwnd = 2**62

        class ZeroThreshold(ccsim.CongestionControl):
            recovery = "reno"
            def on_ack(self, w, ack):
                w.cwnd += w.mss
            def ssthresh(self, w):
                return 0

        class HugeThreshold(ZeroThreshold):
            def ssthresh(self, w):
                return 2**64 - 1

        class Paced(ccsim.CongestionControl):
            """Model-based: a window of 100 segments, paced at `rate` bytes of payload a second."""
            model_based = True
            def __init__(self, rate):
                self.rate = rate
            def on_init(self, w):
                return self.rate
            def cong_control(self, w, rs):
                w.cwnd = 100 * w.mss
                return self.rate

        class Interrupted(ccsim.CongestionControl):
            def on_ack(self, w, ack):
                if ack.now > 0.5:
                    raise KeyboardInterrupt
                w.cwnd += w.mss

        class RateBased(ccsim.CongestionControl):
            """Model-based: a window of twice the delivery rate times the least RTT, paced at
            the delivery rate (a caricature of BBR's steady state)."""
            model_based = True
            def __init__(self):
                self.max_rate = 0.0
            def cong_control(self, w, rs):
                if rs.delivery_rate is not None and not rs.is_app_limited:
                    self.max_rate = max(self.max_rate, rs.delivery_rate)
                if self.max_rate == 0 or rs.min_rtt is None:
                    w.cwnd = max(w.cwnd, 10 * w.mss)
                    return None
                w.cwnd = max(4 * w.mss, int(2 * self.max_rate * rs.min_rtt))
                return int(1.25 * self.max_rate)
    '''))
    monkeypatch.syspath_prepend(str(folder))
    return folder / f"{module}.py"


def _one_flow(protocol: str, **keys: Any) -> dict[str, Any]:
    """One flow of ``protocol`` across small_spec's 10 Mbit/s x 22 ms path for 2 s, its window
    sampled every 100 ms."""
    spec = small_spec(duration="2s")
    spec["flows"][0].update(protocol=protocol, **keys)
    spec["output"] = {"interval": "100ms", "series": ["cwnd"]}
    return spec


def test_cc_table_reaches_the_constructor(user_module: Path) -> None:
    mod = user_module.stem
    ten = ccsim.run(_one_flow(f"{mod}:Fixed"), progress=False)
    four = ccsim.run(_one_flow(f"{mod}:Fixed", cc={"segments": 4}), progress=False)
    cwnd = four.series("cwnd")
    assert set(cwnd.value.iloc[2:]) == {4 * 960}  # 1000-byte packets: a 960-byte MSS
    assert four.summary["flows"]["tcp1"]["goodput_bps"] < ten.summary["flows"]["tcp1"]["goodput_bps"]


def test_a_python_algorithm_is_deterministic(user_module: Path) -> None:
    spec = _one_flow("ccsim.reference.cubic:Cubic")
    spec["flows"].append({"name": "tcp2", "protocol": "ccsim.reference.reno:NewReno", "from": "s", "to": "d",
                          "start": "0.3s"})
    spec["output"]["trace"] = ["cwnd"]
    a, b = ccsim.run(spec, progress=False), ccsim.run(spec, progress=False)
    assert _comparable(a.summary) == _comparable(b.summary)
    assert a.series("cwnd:change").equals(b.series("cwnd:change"))


def test_a_model_based_python_algorithm_sets_window_and_pacing(user_module: Path) -> None:
    """The rate a model-based class returns paces the sender: a window of 100 segments paced
    at 250 000 bytes of payload a second delivers 2 Mbit/s of goodput over the 10 Mbit/s
    link, with an empty queue; a class that estimates the rate fills the link."""
    spec = _one_flow(f"{user_module.stem}:Paced", cc={"rate": 250_000})
    spec["run"]["warmup"] = "0.5s"
    paced = ccsim.run(spec, progress=False).summary
    assert paced["flows"]["tcp1"]["goodput_bps"] == pytest.approx(2e6, rel=0.02)
    assert paced["links"]["r->d"]["mean_queue_packets"] < 1
    estimating = ccsim.run(_one_flow(f"{user_module.stem}:RateBased"), progress=False).summary
    assert estimating["links"]["r->d"]["utilization"] > 0.7


def test_windows_and_thresholds_stay_within_bounds(user_module: Path) -> None:
    """A user's window stays between one segment and 2**30 bytes (the largest receive window,
    RFC 7323), a threshold at least two segments: a window of 2**62 does not exhaust the
    machine, a threshold of 0 does not stall the flow, one of 2**64 - 1 does not overflow."""
    mss = 960
    huge = ccsim.run(_one_flow(f"{user_module.stem}:Huge", max_window=1 << 40), progress=False)
    assert huge.series("cwnd").value.max() <= 2**30
    for cls in ("ZeroThreshold", "HugeThreshold"):
        spec = _one_flow(f"{user_module.stem}:{cls}")
        spec["links"][1]["queue"] = "5p"  # losses call ssthresh
        spec["output"]["trace"] = ["cwnd", "ssthresh"]
        result = ccsim.run(spec, progress=False)
        assert result.series("cwnd:change").value.min() >= mss
        thresholds = result.series("ssthresh:change").value
        assert thresholds.min() >= 2 * mss and thresholds[thresholds < 2**63].max() <= 2**30
        assert result.summary["flows"]["tcp1"]["goodput_bps"] > 2e5  # the flow goes on


def test_ctrl_c_in_a_hook_is_ctrl_c(user_module: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        ccsim.run(_one_flow(f"{user_module.stem}:Interrupted"), progress=False)


def test_an_exception_in_a_hook_is_one_line_naming_flow_hook_and_place(user_module: Path) -> None:
    with pytest.raises(ccsim.UserCodeError) as info:
        ccsim.run(_one_flow(f"{user_module.stem}:Raises"), progress=False)
    message = str(info.value)
    assert message.startswith(f'flow "tcp1" ({user_module.stem}:Raises).on_ack raised at {user_module}:')
    assert message.endswith("KeyError: 'missing'")
    assert "\n" not in message
    assert isinstance(info.value, ccsim.CcsimError)


def test_a_hook_returning_a_non_integer_is_named(user_module: Path) -> None:
    spec = _one_flow(f"{user_module.stem}:BadThreshold")
    spec["links"][1]["queue"] = "5p"  # losses call ssthresh
    with pytest.raises(ccsim.UserCodeError, match=r"\.ssthresh must return a whole number of bytes"):
        ccsim.run(spec, progress=False)


@pytest.mark.parametrize("protocol,keys,path,message", [
    ("no_such_module_xyz:C", {}, "flows[0].protocol", "cannot import module 'no_such_module_xyz'"),
    ("{mod}:Missing", {}, "flows[0].protocol", "has no 'Missing'"),
    ("{mod}:ccsim", {}, "flows[0].protocol", "is not a subclass of ccsim.CongestionControl"),
    ("{mod}:NoHooks", {}, "flows[0].protocol", "must define on_ack(self, w, ack)"),
    ("{mod}:", {}, "flows[0].protocol", 'is named "module:Class"'),
    ("{mod}:Fixed", {"cc": {"window": 3}}, "flows[0].cc", "got an unexpected keyword argument 'window'"),
    ("cubic", {"cc": {"beta": 1}}, "flows[0].cc", "holds a custom algorithm's options"),
    ("{mod}:Fixed", {"growth": "linux"}, "flows[0].growth", "grows by its own"),
    ("{mod}:RateBased", {"hystart": "linux"}, "flows[0].hystart", "a model-based algorithm sets its window"),
])
def test_bad_algorithms_are_spec_errors_at_the_field(user_module: Path, protocol: str, keys: dict[str, Any],
                                                     path: str, message: str) -> None:
    spec = _one_flow(protocol.format(mod=user_module.stem), **keys)
    with pytest.raises(ccsim.SpecError) as info:
        ccsim.validate(spec)
    assert info.value.path == path
    assert message in str(info.value)


def test_a_constructor_that_raises_is_named(user_module: Path) -> None:
    with pytest.raises(ccsim.SpecError, match=r'flow "tcp1" \(.*:FailsToBuild\): the constructor raised at .*'
                                              r"RuntimeError: no such thing") as info:
        ccsim.run(_one_flow(f"{user_module.stem}:FailsToBuild"), progress=False)
    assert info.value.path == "flows[0].protocol"


def test_register_by_name(user_module: Path) -> None:
    module = __import__(user_module.stem)
    ccsim.register_cc("fixed-window", module.Fixed)
    result = ccsim.run(_one_flow("fixed-window", cc={"segments": 3}), progress=False)
    assert set(result.series("cwnd").value.iloc[2:]) == {3 * 960}
    assert result.summary["flows"]["tcp1"]["protocol"] == "fixed-window"
    with pytest.raises(ccsim.SpecError, match="is a built-in protocol"):
        ccsim.register_cc("cubic", module.Fixed)
    with pytest.raises(ccsim.SpecError, match="not a plain name"):
        ccsim.register_cc("a:b", module.Fixed)
    with pytest.raises(ccsim.SpecError, match="not a subclass"):
        ccsim.register_cc("thing", int)  # type: ignore[arg-type]


def test_a_scenario_file_finds_its_modules_beside_it_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "halving.py").write_text(textwrap.dedent('''
        import ccsim

        class Halving(ccsim.CongestionControl):
            recovery = "newreno"
            def on_ack(self, w, ack):
                w.cwnd += w.mss if w.cwnd < w.ssthresh else max(1, w.mss * w.mss // w.cwnd)

        class Broken(Halving):
            def on_rtt(self, rtt, now):
                raise ValueError(f"rtt {rtt:.3f}")

        class Capped(ccsim.QueueDiscipline):
            def __init__(self, packets):
                self.packets = packets
            def enqueue(self, pkt, q):
                return "drop" if q.packets >= self.packets else "accept"
    '''))
    scenario = tmp_path / "run.toml"
    scenario.write_text(textwrap.dedent('''
        [run]
        duration = "2s"
        [[links]]
        between = ["a", "b"]
        rate = "10Mbps"
        delay = "10ms"
        queue = { kind = "python", class = "halving:Capped", packets = 20 }
        [[flows]]
        name = "mine"
        protocol = "halving:Halving"
        from = "a"
        to = "b"
    '''))
    done = cli("run", str(scenario), "-o", str(tmp_path / "out"), "-q", "--no-plots")
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["flows"]["mine"]["protocol"] == "halving:Halving"
    assert 3e6 < summary["flows"]["mine"]["goodput_bps"] <= 10e6
    # The queue beside the scenario ran too: its drops are its own.
    assert summary["links"]["a->b"]["drops_by_reason"]["aqm"] > 0
    assert summary["links"]["a->b"]["drops_by_reason"]["queue_full"] == 0
    scenario.write_text(scenario.read_text().replace("halving:Halving", "halving:Broken"))
    failed = cli("run", str(scenario), "-o", str(tmp_path / "out2"), "-q", "--no-plots")
    assert failed.returncode == 1
    lines = failed.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith('ccsim: error: flow "mine" (halving:Broken).on_rtt raised at ')
    assert lines[0].endswith("ValueError: rtt 0.021")


def test_run_many_runs_python_algorithms_as_run_does(user_module: Path) -> None:
    specs = [_one_flow("ccsim.reference.reno:NewReno", start=f"{s}s") for s in (0, 0.1, 0.2)]
    together = ccsim.run_many(specs, jobs=2, progress=False)
    alone = [ccsim.run(s, progress=False) for s in specs]
    assert [_comparable(r.summary) for r in together] == [_comparable(r.summary) for r in alone]


def test_a_python_algorithm_runs_over_real_sockets(tmp_path: Path) -> None:
    """``ccsim real``: the same class drives a sender over UDP on the loopback."""
    from test_real import free_port, scenario, wait_bound

    spec = scenario(tmp_path, 'protocol = "ccsim.reference.cubic:Cubic"\nsize = "300kB"\n', duration="5s")
    port = free_port()
    rx = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "real", "recv", str(spec), "--listen",
                           f"127.0.0.1:{port}", "-o", str(tmp_path / "rx"), "--idle-end", "1s", "-q"])
    try:
        wait_bound(port)
        sent = cli("real", "send", str(spec), "--to", f"127.0.0.1:{port}", "-o", str(tmp_path / "tx"), "-q")
        assert sent.returncode == 0, sent.stderr
        assert rx.wait(timeout=30) == 0
    finally:
        rx.kill()
    tx = json.loads((tmp_path / "tx" / "summary.json").read_text())["flows"]["f"]
    got = json.loads((tmp_path / "rx" / "summary.json").read_text())["flows"]["f"]
    assert tx["protocol"] == "ccsim.reference.cubic:Cubic"
    assert got["received_bytes"] >= 300_000  # every byte of the transfer arrived


def _python_queues(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with each DropTail and step-marking queue replaced by its Python twin."""
    spec = copy.deepcopy(spec)
    for link in spec["links"]:
        q = link.get("queue", "100p")
        if isinstance(q, str) and q.endswith("p"):
            link["queue"] = {"kind": "python", "class": "ccsim.reference.queues:DropTail",
                             "capacity": int(q[:-1]), "limit": "1000000p"}
        elif isinstance(q, dict) and q["kind"] == "step":
            link["queue"] = {"kind": "python", "class": "ccsim.reference.queues:StepMark",
                             "threshold": q["threshold"], "limit": q.get("limit", "100p")}
    return spec


def _drops_as_queue_full(summary: dict[str, Any]) -> dict[str, Any]:
    """A Python queue's drops are its decisions (``aqm``); the built-in DropTail's are the
    limit's (``queue_full``): the same packets under two names."""
    summary = copy.deepcopy(summary)
    for link in summary["links"].values():
        reasons = link["drops_by_reason"]
        reasons["queue_full"] += reasons.pop("aqm", 0)
    return summary


@pytest.mark.parametrize("bench", ["dumbbell-100", "dctcp-100"])
def test_python_droptail_and_step_marking_give_the_builtins_packets(bench: str) -> None:
    native = _shortened(json.loads(_ccsim.bench_spec(bench)))
    python = _python_queues(native)
    assert any(isinstance(link["queue"], dict) and link["queue"]["kind"] == "python" for link in python["links"])
    a = ccsim.run(native, progress=False).summary
    b = ccsim.run(python, progress=False).summary
    bottleneck = a["links"]["r1->r2"]
    assert bottleneck["ecn_marks"] + bottleneck["drops_by_reason"]["queue_full"] > 100  # the queue acts
    # The same packets, not the same events: a built-in FIFO link has an event at the end of a
    # transmission only while packets wait, a user's discipline at every one (it dequeues then).
    assert _comparable(a, events=False) == _comparable(_drops_as_queue_full(b), events=False)


@pytest.fixture
def queue_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    folder = tmp_path / "queues"
    folder.mkdir()
    module = f"userq_{abs(hash(str(tmp_path))) % 10**8}"
    (folder / f"{module}.py").write_text(textwrap.dedent('''
        import ccsim

        class SojournDrop(ccsim.QueueDiscipline):
            """Drop at the head every packet that waited longer than `target` seconds."""
            def __init__(self, target):
                self.target = target
            def enqueue(self, pkt, q):
                return "accept"
            def dequeue(self, q):
                return "drop" if q.now - q.peek(0).enqueued_at > self.target else "send"

        class Newest(ccsim.QueueDiscipline):
            """Last in, first out."""
            def enqueue(self, pkt, q):
                return "accept"
            def dequeue(self, q):
                return q.packets - 1

        class Wrong(ccsim.QueueDiscipline):
            def enqueue(self, pkt, q):
                return "accept" if q.now < 0.5 else "keep"

        class OutOfRange(Newest):
            def dequeue(self, q):
                return q.packets

        class Raises(Newest):
            def dequeue(self, q):
                return q.peek(q.packets)
    '''))
    monkeypatch.syspath_prepend(str(folder))
    return module


def _through(queue: dict[str, Any], flows: int = 3) -> dict[str, Any]:
    """``flows`` NewReno flows through a 10 Mbit/s x 10 ms bottleneck running ``queue``."""
    spec = small_spec(duration="3s")
    spec["links"][1]["queue"] = queue
    spec["flows"] = [{"name": f"tcp{i}", "protocol": "newreno", "from": "s", "to": "d", "start": f"{0.1 * i}s"}
                     for i in range(flows)]
    return spec


def test_a_dequeue_hook_bounds_the_sojourn_time(queue_module: str) -> None:
    """Each packet sent waited at most `target`: the flows' mean one-way delay is bounded by
    the propagation (11 ms), the serialisation on both links and 5 ms."""
    result = ccsim.run(_through({"kind": "python", "class": f"{queue_module}:SojournDrop", "target": 0.005,
                                 "limit": "1000p"}), progress=False)
    bottleneck = result.summary["links"]["r->d"]
    assert bottleneck["drops_by_reason"]["aqm"] > 0 and bottleneck["drops_by_reason"]["queue_full"] == 0
    bound = 0.011 + 0.005 + 1000 * 8 / 10e6 + 1000 * 8 / 100e6
    for flow in result.summary["flows"].values():
        assert flow["mean_delay_s"] <= bound
    # Without the hook the same 1000-packet queue fills: the bound is the hook's doing.
    fifo = ccsim.run(_through("1000p"), progress=False)
    assert max(f["mean_delay_s"] for f in fifo.summary["flows"].values()) > 3 * bound


def test_a_lifo_dequeue_reorders(queue_module: str) -> None:
    """Last in, first out: the receivers see segments out of order, so the senders take
    duplicate ACKs for losses and retransmit segments that were only late."""
    fifo = ccsim.run(_through("100p"), progress=False).summary
    lifo = ccsim.run(_through({"kind": "python", "class": f"{queue_module}:Newest", "limit": "100p"}),
                     progress=False).summary
    retransmitted = [sum(f["retransmitted_packets"] for f in s["flows"].values()) for s in (fifo, lifo)]
    dropped = [s["links"]["r->d"]["drops"] for s in (fifo, lifo)]
    assert retransmitted[1] - dropped[1] > 2 * max(1, retransmitted[0] - dropped[0])


@pytest.mark.parametrize("cls,message", [
    ("Wrong", r'\.enqueue must return "accept", "drop" or "mark", returned \'keep\''),
    ("OutOfRange", r"\.dequeue must return None, .* with an index below q\.packets, returned \d+"),
    ("Raises", r"\.dequeue raised at .*: IndexError: peek\(\d+\): \d+ packets wait"),
])
def test_bad_queue_code_is_one_line(queue_module: str, cls: str, message: str) -> None:
    with pytest.raises(ccsim.UserCodeError, match=r'link "(r->d|d->r)" \(' + queue_module + ":" + cls + r"\)" + message):
        ccsim.run(_through({"kind": "python", "class": f"{queue_module}:{cls}"}), progress=False)


@pytest.mark.parametrize("queue,path,message", [
    ({"kind": "python", "class": "no_such_queue_mod:Q"}, "links[1].queue.class", "cannot import module"),
    ({"kind": "python", "class": "{mod}:Nope"}, "links[1].queue.class", "has no 'Nope'"),
    ({"kind": "python", "class": "ccsim.reference.reno:Reno"}, "links[1].queue.class",
     "not a subclass of ccsim.QueueDiscipline"),
    ({"kind": "python", "class": "{mod}:SojournDrop"}, "links[1].queue", "missing a required argument: 'target'"),
    ({"kind": "python", "class": "{mod}:Newest", "limit": "ten"}, "links[1].queue.limit", "ten"),
    ({"kind": "python"}, "links[1].queue", 'the key "class" is required'),
    ({"kind": "custom", "class": "unregistered"}, "links[1].queue.class", "unknown queue discipline"),
    ({"kind": "step", "threshold": 5, "ceiling": 1}, "links[1].queue.ceiling", 'unknown key "ceiling"'),
    ({"kind": "red", "min_th": "x"}, "links[1].queue.min_th", "expected a number"),
])
def test_bad_queue_tables_are_spec_errors_at_the_field(queue_module: str, queue: dict[str, Any], path: str,
                                                       message: str) -> None:
    queue = {k: v.format(mod=queue_module) if isinstance(v, str) else v for k, v in queue.items()}
    with pytest.raises(ccsim.SpecError) as info:
        ccsim.validate(_through(queue))
    assert info.value.path == path
    assert message in str(info.value)


def test_the_result_cache_keys_the_users_source(tmp_path: Path) -> None:
    """Editing a user's class changes the cache key (a new process sees the edit); a
    registered name, whose code the spec does not name, is never cached."""
    module = tmp_path / "keyed_cc.py"
    source = "import ccsim\nclass W(ccsim.CongestionControl):\n    def on_ack(self, w, ack):\n        w.cwnd += {}\n"
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(_one_flow("keyed_cc:W")))
    program = ("import json, sys, ccsim; from ccsim.cache import cache_key, cacheable; "
               f"s = ccsim.validate(json.load(open({str(spec_path)!r}))); print(cache_key(s), cacheable(s))")

    def key() -> str:
        done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(tmp_path)})
        assert done.returncode == 0, done.stderr
        return done.stdout

    module.write_text(source.format("w.mss"))
    first = key()
    assert first.endswith("True\n") and key() == first
    module.write_text(source.format("2 * w.mss"))
    assert key() != first
    from ccsim.cache import cacheable
    ccsim.register_cc("cache-test-window", __import__("ccsim.reference.reno", fromlist=["Reno"]).Reno)
    assert not cacheable(ccsim.validate(_one_flow("cache-test-window")))


def test_the_cache_key_is_the_code_that_runs_not_the_file(tmp_path: Path) -> None:
    """A module imported, then edited on disk, still runs its imported code in this process:
    its key is the imported code's (a fresh process with the old file), not the new file's."""
    module = tmp_path / "edited_cc.py"
    source = "import ccsim\nclass W(ccsim.CongestionControl):\n    def on_ack(self, w, ack):\n        w.cwnd += {}\n"
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(_one_flow("edited_cc:W")))
    key = ("import json, sys, ccsim; from ccsim.cache import cache_key; "
           f"print(cache_key(ccsim.validate(json.load(open({str(spec_path)!r})))))")
    edit_then_key = (f"import edited_cc, pathlib; pathlib.Path({str(module)!r}).write_text("
                     f"{source.format('2 * w.mss')!r}); " + key)

    def run(program: str) -> str:
        done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(tmp_path)})
        assert done.returncode == 0, done.stderr
        return done.stdout

    module.write_text(source.format("w.mss"))
    old_code = run(key)
    edited_meanwhile = run(edit_then_key)  # imports the old file, then writes the new one
    new_code = run(key)
    assert edited_meanwhile == old_code != new_code


def test_the_contract_version_is_the_rust_one() -> None:
    source = (Path(__file__).parent.parent / "crates/ccsim-protocols/src/tcp/cc/mod.rs").read_text()
    assert f"pub const CONTRACT_VERSION: u32 = {ccsim.algorithms.CONTRACT_VERSION};" in source


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
