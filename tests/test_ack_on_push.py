"""PSH as Linux's sender sets it and the `ack_on_push` receiver (Linux 6.6's), read back by tshark
from ccsim's pcap files (docs/protocols.md, the receiver and PSH).

Linux's `__tcp_transmit_skb` sets PSH on every send (skb) of more than one segment, and the
send is at most the TSO goal (two segments at 10 Mbit/s); Linux's receiver since 6.6
acknowledges a full-sized segment with PSH as soon as the application has read it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from test_pcap import Rows, ns, tshark

import ccsim
from ccsim.errors import SpecError
from ccsim.ns2.translate import Untranslatable, translate

PACKET = 1500
PAYLOAD = PACKET - 52  # 40 B of headers and 12 of timestamps
RATE, DELAY = 10e6, 0.020
END_NS = 12_000_000_000  # the run's end (pcap times are simulated times)
# An ACK sent at the receiver reaches the sender 41.6 us (52 B at 10 Mbit/s) + 20 ms + 1 us later.
ACK_TO_SENDER_NS = 41_600 + 20_000_000 + 1_000 + 100

SPEC: dict[str, Any] = {
    "run": {"duration": "12s", "seed": 3},
    "links": [{"between": ["s", "r"], "rate": "10Gbps", "delay": "1us", "queue": "1000p"},
              {"between": ["r", "d"], "rate": "10Mbps", "delay": "20ms", "queue": "33p"}],
    "flows": [{"name": "f", "protocol": "cubic", "from": "s", "to": "d", "packet_size": f"{PACKET}B",
               "delayed_ack": True, "timestamps": True, "initial_window": 10}],
    "output": {"pcap": ["s->r", "r->d", "d->r"]},
}

FIELDS = ("frame.time_epoch", "frame.len", "tcp.seq_raw", "tcp.ack_raw", "tcp.len", "tcp.flags.push",
          "tcp.options.sack_le", "tcp.analysis.retransmission")


def with_push(on: bool | None) -> dict[str, Any]:
    spec = copy.deepcopy(SPEC)
    if on is not None:
        spec["flows"][0]["ack_on_push"] = on
    return spec


def captured(tmp: Path, on: bool) -> dict[str, Rows]:
    ccsim.run(with_push(on), progress=False).write(tmp)
    return {d: tshark(tmp / f"{d.replace('->', '-')}.pcap", FIELDS) for d in SPEC["output"]["pcap"]}


@pytest.fixture(scope="module")
def pushed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rows]:
    return captured(tmp_path_factory.mktemp("push-on"), True)


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rows]:
    return captured(tmp_path_factory.mktemp("push-off"), False)


def data(rows: Rows) -> Rows:
    return [r for r in rows if r["tcp.len"] not in ("", "0")]


def test_ack_on_push_needs_delayed_acks_and_a_tcp_sender() -> None:
    spec = with_push(True)
    spec["flows"][0]["delayed_ack"] = False
    with pytest.raises(SpecError, match="needs delayed_ack = true") as e:
        ccsim.validate(spec)
    assert e.value.path == "flows[0].ack_on_push"
    for protocol, dropped, extra in (("xcp", ("timestamps",), {}),
                                     ("cbr", ("delayed_ack", "timestamps", "initial_window"), {"rate": "1Mbps"})):
        spec = with_push(True)
        flow = {k: v for k, v in spec["flows"][0].items() if k not in dropped}
        spec["flows"][0] = flow | {"protocol": protocol} | extra
        with pytest.raises(SpecError) as e:
            ccsim.validate(spec)
        assert e.value.path == "flows[0].ack_on_push", protocol


def test_ns2_has_no_such_receiver() -> None:
    spec = with_push(True)
    spec["flows"][0] |= {"protocol": "sack", "rto": "ns2", "timestamps": False}
    spec["output"] = {}
    with pytest.raises(Untranslatable, match=r"^flows\[0\]\.ack_on_push: True has no counterpart"):
        translate(ccsim.validate(spec))


def sends_of(goal: int, n: int) -> list[str]:
    """PSH flags of n segments sent at once in sends of `goal`: on the last of each send of
    several segments."""
    return ["1" if (i % goal == goal - 1) or (i == n - 1 and n % goal >= 2) else "0" for i in range(n)]


def test_psh_ends_each_send_of_several_as_tshark_reads_it(pushed: dict[str, Rows]) -> None:
    # On the 10 Gbit/s access link a burst leaves back to back (1.2 us a packet), cut into sends
    # of the TSO goal: about 1 ms of data at Linux's pacing rate for the window, at least two,
    # and half the window at most. The initial window goes before any RTT sample, when Linux's
    # pacing rate is unlimited: two sends of five, PSH on the fifth and the tenth. Slow start's
    # 200 % rate gives sends of three late in it; from 3 s on, in congestion avoidance at
    # 10 Mbit/s, every send is of two at most.
    segs = data(pushed["s->r"])
    start = ns(segs[0]["frame.time_epoch"])
    bursts: list[Rows] = [[segs[0]]]
    for prev, seg in zip(segs, segs[1:]):
        if ns(seg["frame.time_epoch"]) - ns(prev["frame.time_epoch"]) <= 1_300:
            bursts[-1].append(seg)
        else:
            bursts.append([seg])
    assert [r["tcp.flags.push"] for r in bursts[0]] == sends_of(5, 10)
    # Sends in SACK recovery carry no PSH (a CHOICE): skip a burst that contains a
    # retransmission or that the last ACK before it, carrying SACK blocks, released.
    acks = [(ns(r["frame.time_epoch"]) + ACK_TO_SENDER_NS, bool(r["tcp.options.sack_le"]))
            for r in pushed["d->r"] if r["tcp.len"] == "0"]
    highest = checked = late = 0
    for burst in bursts[1:]:
        t = ns(burst[0]["frame.time_epoch"])
        recovering = any(int(r["tcp.seq_raw"]) < highest for r in burst) or \
            max(((when, sack) for when, sack in acks if when <= t), default=(0, False))[1]
        highest = max([highest] + [int(r["tcp.seq_raw"]) + int(r["tcp.len"]) for r in burst])
        if recovering:
            continue
        flags = [r["tcp.flags.push"] for r in burst]
        if ns(burst[0]["frame.time_epoch"]) - start >= 3_000_000_000:
            assert flags == sends_of(2, len(flags)), flags
            late += len(flags)
        else:
            assert any(flags == sends_of(goal, len(flags)) for goal in range(2, 46)), flags
        checked += len(burst)
    assert checked > 0.9 * len(segs) and late > 0.5 * len(segs)
    assert 0.3 < sum(r["tcp.flags.push"] == "1" for r in segs) / len(segs) < 0.55


def advances(rows: Rows) -> list[tuple[int, int, bool]]:
    """Each ACK that moves the ACK point: (when, the new ACK point, whether it carries SACK)."""
    out, point = [], 0
    for r in rows:
        if r["tcp.len"] == "0" and r["tcp.ack_raw"] and int(r["tcp.ack_raw"]) > point:
            out.append((ns(r["frame.time_epoch"]), int(r["tcp.ack_raw"]), bool(r["tcp.options.sack_le"])))
            point = int(r["tcp.ack_raw"])
    return out


def test_each_pushed_segment_is_acknowledged_as_it_arrives(pushed: dict[str, Rows]) -> None:
    # Every packet the bottleneck transmits arrives (drops happen at its queue, before), so its
    # capture gives the receiver's stream: a segment arrives at transmission start plus its
    # 1.2 ms on the wire plus the link's 20 ms. A new segment with PSH that arrives in order,
    # with nothing held above it, must be acknowledged by an ACK of exactly its end at exactly
    # that instant in the receiver's capture (up to the run's end).
    acks = {(t, point) for t, point, _ in advances(pushed["d->r"])}
    rcv_nxt, expected, seen = 0, 0, 0
    held: set[int] = set()
    for seg in data(pushed["r->d"]):
        first = int(seg["tcp.seq_raw"])
        end = first + int(seg["tcp.len"])
        plain_in_order = first == rcv_nxt and not held
        if first == rcv_nxt:
            rcv_nxt = end
            while rcv_nxt in held:
                held.discard(rcv_nxt)
                rcv_nxt += PAYLOAD
        elif first > rcv_nxt:
            held.add(first)
        arrival = ns(seg["frame.time_epoch"]) + round(int(seg["frame.len"]) * 8 / RATE * 1e9) + round(DELAY * 1e9)
        if plain_in_order and seg["tcp.flags.push"] == "1" and arrival < END_NS:
            expected += 1
            seen += (arrival, end) in acks
    assert expected > 1000
    assert seen == expected


def single_segment_acks(rows: Rows) -> tuple[int, int]:
    """ACKs that move the ACK point by exactly one segment, without SACK blocks, and all that
    move it."""
    moved = advances(rows)
    singles = sum(1 for (_, a, _), (_, b, sack) in zip(moved, moved[1:]) if b - a == PAYLOAD and not sack)
    return singles, len(moved)


def test_one_segment_acks_come_with_push_only(pushed: dict[str, Rows], plain: dict[str, Rows]) -> None:
    # RFC 1122's receiver acknowledges every second segment, so an ACK of one segment is the
    # delayed-ACK timer's or a loss's; with ack_on_push a send of one followed by a send of two
    # draws one (the kernel captures: 13 to 26 % of the ACKs that advance).
    on, moved_on = single_segment_acks(pushed["d->r"])
    off, moved_off = single_segment_acks(plain["d->r"])
    assert off < 0.01 * moved_off
    assert 0.05 * moved_on < on < 0.5 * moved_on
