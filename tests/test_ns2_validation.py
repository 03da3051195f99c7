"""ccsim's ns-2 modes against ns-2.35 itself (validation/ns2; docs/validation.md, "ns-2.35 as a
second oracle").

The quick twins run one spec through ccsim and, translated to Tcl, through Debian's ns-2.35
(`make` installs the package `ns2`). Each measure is held to issue 39's targets (goodput and
utilisation within 3 %, Jain within 0.03, drops, timeouts and retransmissions within 10 % or 5
events); the measures still outside are strict expected failures with the values measured
and the cause as far as it was traced. The full suite is `make validate-ns2`.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "validation" / "ns2"))

import run as twins  # noqa: E402
from ccsim.ns2.translate import Untranslatable, translate  # noqa: E402

#: CI installs ns2 (make system-deps); there its absence is a failure, not a skip.
REQUIRE = bool(os.environ.get("CCSIM_REQUIRE_BROWSER"))
needs_ns2 = pytest.mark.skipif(shutil.which("ns") is None and not REQUIRE,
                               reason="ns-2.35 is not installed (make installs the Debian package ns2)")

QUICK = {t.name: t for t in twins.quick_suite()}


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    assert shutil.which("ns") is not None, "ns-2.35 (`ns`) is required but not installed"
    return {name: twins.compare(t) for name, t in QUICK.items()}


#: (scenario, measure) pairs that agree today; each failed before issue 39's changes or
#: guards a mapping (queue limits, RED's profile, CBR over UDP).
WITHIN = [
    # Tahoe's go-back-N resent a window the receiver held and its duplicate ACKs started the
    # next fast retransmit: 6208 retransmissions for 55 drops (30 s) before recovery = "ns2".
    ("quick-tahoe-100M-10", "retransmitted"), ("quick-tahoe-100M-10", "goodput"),
    ("quick-tahoe-100M-10", "jain"), ("quick-tahoe-100M-10", "timeouts"),
    # A timeout inside NewReno's recovery from slow start's overshoot halved FlightSize, 2x the
    # window, so slow start overshot again: 0.40 of ns-2's goodput before ns-2's ssthresh rule.
    ("quick-newreno-100M-1", "goodput"), ("quick-newreno-100M-1", "timeouts"),
    ("quick-newreno-100M-1", "retransmitted"), ("quick-newreno-100M-1", "drops"),
    ("quick-tahoe-10M-10", "goodput"), ("quick-tahoe-10M-10", "utilization"), ("quick-tahoe-10M-10", "drops"),
    ("quick-tahoe-10M-10", "timeouts"), ("quick-tahoe-10M-10", "retransmitted"), ("quick-tahoe-10M-10", "jain"),
    # Timeouts in recovery where ns-2.35 had none (7 / 0) until the fast retransmit restarted
    # the timer as ns-2.35's reset_rtx_timer does.
    ("quick-newreno-10M-10-delack", "goodput"), ("quick-newreno-10M-10-delack", "timeouts"),
    ("quick-newreno-10M-10-delack", "retransmitted"), ("quick-newreno-10M-10-delack", "drops"),
    ("quick-reno-red-10M-1", "timeouts"), ("quick-reno-red-10M-1", "drops"),
    ("quick-newreno-redecn-10M-10", "goodput"), ("quick-newreno-redecn-10M-10", "drops"),
    ("quick-newreno-redecn-10M-10", "jain"),
    ("quick-cbr-10M-4", "goodput"), ("quick-cbr-10M-4", "utilization"), ("quick-cbr-10M-4", "retransmitted"),
    # The CBR source's goodput: ccsim counts its payload (500 - 28 B), ns-2's LossMonitor whole
    # packets; once the translation scales them alike, 4.68 against 4.95 Mbit/s became equal.
    ("quick-cbr-10M-4", "udp"), ("quick-cbr-10M-4", "drops"),
    # XCP over ns-2.35's Queue/XCP: one way, the link full and no drop in both.
    ("quick-xcp-10M-10", "goodput"), ("quick-xcp-10M-10", "utilization"), ("quick-xcp-10M-10", "jain"),
    ("quick-xcp-10M-10", "drops"), ("quick-xcp-10M-10", "timeouts"),
    # Both directions loaded (ACKs behind data): hundreds of drops in both.
    ("quick-xcp-10M-10-2way", "drops"), ("quick-xcp-10M-10-2way", "retransmitted"),
    # ccsim's TFRC (RFC 5348) against ns-2.35's Agent/TFRC: the same goodput and share; drops
    # agree here, where ten flows keep the queue full in both.
    ("quick-tfrc-10M-10", "goodput"), ("quick-tfrc-10M-10", "utilization"), ("quick-tfrc-10M-10", "jain"),
    ("quick-tfrc-10M-10", "drops"),
    ("quick-tfrc-newreno-10M-4", "goodput"), ("quick-tfrc-newreno-10M-4", "drops"),
    # NewReno beside TFRC resent 40 segments where ns-2.35's resent 30 while ccsim's TFRC paced at
    # X; with RFC 5348 section 4.5 (ns-2.35's `ca_ 1`) TFRC backs off as the queue builds: 29 / 30.
    ("quick-tfrc-newreno-10M-4", "retransmitted"), ("quick-tfrc-newreno-10M-4", "jain"),
    # Web, voice and streaming replayed from ccsim's run beside ten NewReno flows.
    ("quick-mix-newreno-10M-10", "goodput"), ("quick-mix-newreno-10M-10", "utilization"),
    ("quick-mix-newreno-10M-10", "jain"), ("quick-mix-newreno-10M-10", "timeouts"),
]

#: Measures outside their target, with what was measured (ccsim / ns-2.35) and the cause.
OUTSIDE = [
    ("quick-xcp-10M-10-2way", "timeouts",
     "74 / 87 with drops 404 / 394 and retransmissions 507 / 531: ns-2.35's Reno/XCP sender times out "
     "more often for the same drops; not traced (docs/validation.md, XCP twins)"),
    # Within until the XCP router's restart kept the timer's phase (2026-11-28); the 60 s twin
    # xcp-10M-10-2way moved the other way, into the targets (0.775 / 0.762, Jain 0.960 / 0.980).
    ("quick-xcp-10M-10-2way", "goodput",
     "0.740 / 0.764 (3.1 %) over 5-20 s, both directions loaded; the 60 s twin agrees within 1.7 %; "
     "the lock step of the two directions is not traced (docs/validation.md, XCP twins)"),
    ("quick-xcp-10M-10-2way", "jain",
     "0.926 / 0.966 over 5-20 s, both directions loaded; the 60 s twin 0.960 / 0.980; not traced"),
    ("quick-newreno-10M-10-delack", "jain",
     "0.885 / 0.945: how ten NewReno flows with delayed ACKs share the link over 10 s (both simulators "
     "are deterministic here); goodput, drops, timeouts and retransmissions agree; not traced"),
    ("quick-reno-red-10M-1", "goodput",
     "0.735 / 0.779 on seed 1: RED's early drops are random and the two simulators draw different streams; "
     "over seeds 1-8 ccsim gives 0.66-0.85 (mean 0.735), ns-2.35 0.69-0.89 (mean 0.765), and both traces "
     "show the same cycle (a fast retransmit to ssthresh 33 and a timeout 0.25 s later to 16, every 2.7-2.8 s "
     "in the 30 s twin)"),
]


def test_translation_refuses_what_ns2_cannot_run_with_the_key() -> None:
    spec = QUICK["quick-tahoe-10M-10"].spec()
    spec["flows"][0]["protocol"] = "cubic"
    spec["flows"][0].pop("recovery")
    with pytest.raises(Untranslatable, match=r"^flows\[0\]\.protocol: 'cubic' is not translated"):
        translate(spec)
    spec = QUICK["quick-tahoe-10M-10"].spec()
    spec["flows"][1]["rto"] = "linux"
    with pytest.raises(Untranslatable, match=r"^flows\[1\]\.rto: 'linux': ns-2\.35 has only its own timer"):
        translate(spec)
    spec = QUICK["quick-tahoe-10M-10"].spec()
    spec["flows"][2].pop("recovery")
    with pytest.raises(Untranslatable, match=r"^flows\[2\]\.recovery"):
        translate(spec)


def test_xcp_runs_on_every_link_as_ns2_queue_xcp_and_refuses_what_ns2_runs_otherwise() -> None:
    twin = QUICK["quick-xcp-10M-10"]
    tcl = translate(twin.spec()).tcl
    assert "$ns duplex-link $n(r0) $n(r1) 10000000 0.018 XCP" in tcl
    assert f"$ns queue-limit $n(r0) $n(r1) {twin.buffer_packets + 1}" in tcl
    assert "$q set-link-capacity 10000000" in tcl
    assert "new Agent/TCP/Reno/XCP" in tcl and "new Agent/TCPSink/XCPSink" in tcl
    # ns-2.35's XCP sender carries a 10-byte timestamp option: the same wire size as ccsim's.
    assert f"$a set packetSize_ {twins.WIRE - 50}" in tcl
    cases = [
        (lambda s: s["run"].update(xcp_router="paper"), r"^run\.xcp_router: 'paper'"),
        (lambda s: s["flows"][3].update(xcp={"recovery": "newreno"}), r"^flows\[3\]\.xcp\.recovery: 'newreno'"),
        (lambda s: s["flows"][0].update(delayed_ack=True), r"^flows\[0\]\.delayed_ack"),
        (lambda s: (s["flows"][1].pop("xcp"), s["flows"][1].update(protocol="newreno", recovery="ns2")),
         r"^flows\[1\]\.protocol: 'newreno' beside XCP flows"),
        (lambda s: s["links"][0].update(assist=False), r"^links\[0\]\.assist"),
    ]
    for change, message in cases:
        spec = twin.spec()
        change(spec)
        with pytest.raises(Untranslatable, match=message):
            translate(spec)


def test_tfrc_keeps_the_wire_size_and_the_history_discounting_of_the_spec() -> None:
    twin = QUICK["quick-tfrc-10M-10"]
    spec = twin.spec()
    tcl = translate(spec).tcl
    # ns-2.35 adds headersize_ (32 B) to packetSize_ on the wire.
    assert f"$a set packetSize_ {twins.WIRE - 32}" in tcl and "$a set headersize_ 32" in tcl
    assert "$s set discount_ 0" in tcl and "$s set packetSize_ 44" in tcl
    # RFC 5348 section 4.5 is on in both unless the spec turns it off (ns-2.35's `ca_`).
    assert "$a set ca_ 1" in tcl
    spec["flows"][0]["tfrc"] = {"history_discounting": True}
    assert "$s set discount_ 1" in translate(spec).tcl
    spec["flows"][0]["tfrc"] = {"oscillation_prevention": False}
    assert "$a set ca_ 0" in translate(spec).tcl
    spec["flows"][0]["min_rate"] = "100kbps"
    with pytest.raises(Untranslatable, match=r"^flows\[0\]\.min_rate"):
        translate(spec)


@needs_ns2
def test_tfrc_oscillation_prevention_on_and_off_agrees_with_ns2_ca() -> None:
    """One TFRC flow alone on a one-BDP DropTail queue, with and without RFC 5348 section 4.5
    (ns-2.35's `ca_` 1 and 0): each setting agrees with ns-2.35 on goodput and drops, and in
    both simulators the section's rate scaling (X R_sqmean / sqrt(R_sample)) keeps the queue
    from overflowing as often as pacing at X does (measured: 2 / 4 drops against 13 / 10)."""
    twin = twins.Twin("quick-tfrc-10M-1", "tfrc", 1, 10.0, 40.0, 1.0, 20.0, 5.0)
    drops = {}
    for on in (True, False):
        spec = twin.spec()
        spec["flows"][0]["tfrc"] = {"oscillation_prevention": on}
        pair = twins.run_both(spec)
        c, n = twins.side(twin, pair.ccsim), twins.side(twin, pair.ns2)
        within = twins.verdicts(c, n)
        assert within["goodput"] and within["drops"], (on, c, n)
        drops[on] = (c["drops"], n["drops"])
    assert drops[True][0] < drops[False][0] and drops[True][1] < drops[False][1], drops


@needs_ns2
def test_generated_flows_are_replayed_with_ccsims_starts_and_sizes() -> None:
    """Every flow ccsim's generators started runs in ns-2.35 from the same instant: web
    transfers of the same sizes, voice as ns-2's Exponential on/off, streaming as CBR, whose
    packets are then rate x time / size in both."""
    import ccsim
    from ccsim.ns2.oracle import run_ns2
    from ccsim.ns2.result import Ns2Result
    from ccsim.ns2.translate import generated_flows

    spec = QUICK["quick-mix-newreno-10M-10"].spec()
    ours = ccsim.run(spec, progress=False)
    generated = generated_flows(ours)
    t = translate(spec, generated=generated)
    assert set(t.generated) == {g.name for g in generated}
    web = [g for g in generated if g.generator == "web"]
    assert web and all(g.size for g in web)
    payload = twins.WIRE - 40
    for g in web[:5]:
        assert f"$ns at {g.start!r} \"$app({g.name}) produce {-(-g.size // payload)}\"" in t.tcl
    measures, wall = run_ns2(t.tcl)
    theirs = Ns2Result(ccsim.validate(spec), "test", t, measures, wall)
    rows, ns2_rows = ours.flows(), theirs.flows()
    assert set(ns2_rows.index) == set(rows.index)
    assert list(theirs.summary["flows"]) == [f["name"] for f in spec["flows"]]
    video = rows[rows["generator"] == "video"]
    expected = sum((20.0 - start) * 640e3 / (840 * 8) for start in video["start_s"])
    for side in (rows, ns2_rows):
        sent = side[side["generator"] == "video"]["sent_packets"].sum()
        assert abs(sent - expected) <= 2 * len(video), (sent, expected)
    # Every web transfer sends at least its segments in both.
    for side in (rows, ns2_rows):
        w = side[side["generator"] == "web"]
        assert (w["sent_packets"] >= 1).all()


def test_droptail_limits_count_the_arriving_packet_in_ns2() -> None:
    """drop-tail.cc drops when `length + 1 >= limit_`: N waiting packets are limit N + 1."""
    tcl = translate(QUICK["quick-tahoe-10M-10"].spec()).tcl
    assert "$ns duplex-link $n(r0) $n(r1) 10000000 0.018 DropTail" in tcl
    assert f"$q set limit_ {QUICK['quick-tahoe-10M-10'].buffer_packets + 1}" in tcl


@needs_ns2
def test_both_simulators_ran_every_quick_twin_within_physical_bounds(records: dict[str, dict[str, Any]]) -> None:
    for name, rec in records.items():
        for side in ("ccsim", "ns2"):
            got = rec[side]
            # ns-2's side counts a packet's bytes when it starts its transmission: one packet
            # at the window's end may be counted whole.
            edge = 0.0 if side == "ccsim" else twins.WIRE * 8 / (rec["settings"]["rate_mbps"] * 1e6 * (
                rec["settings"]["duration_s"] - rec["settings"]["warmup_s"]))
            assert 0 < got["utilization"] <= 1 + edge + 1e-9, (name, side, got["utilization"])
            # In-order goodput counts at the window's edges what was held above a gap:
            # a little above the payload capacity at most.
            assert 0 < got["goodput"] <= 1.02, (name, side, got["goodput"])
            assert all(g > 0 for g in got["goodput_bps"]), (name, side)
            assert got["drops"] >= 0 and got["timeouts"] >= 0


@needs_ns2
@pytest.mark.parametrize("name,measure", WITHIN)
def test_ccsim_matches_ns2(records: dict[str, dict[str, Any]], name: str, measure: str) -> None:
    rec = records[name]
    assert rec["within"][measure], (name, measure, rec["ccsim"], rec["ns2"])


@needs_ns2
@pytest.mark.parametrize("name,measure,measured", OUTSIDE)
def test_known_differences_from_ns2(records: dict[str, dict[str, Any]], name: str, measure: str,
                                    measured: str) -> None:
    rec = records[name]
    if not rec["within"][measure]:
        pytest.xfail(measured)
    # A difference that has gone is news: the table in docs/validation.md must change with it.
    raise AssertionError(f"{name} {measure} is now within its target; update OUTSIDE and docs/validation.md")


@needs_ns2
def test_one_newreno_flow_slows_times_out_and_halves_when_ns2_does(tmp_path: Path) -> None:
    """The traces of both sides (`run.py --trace`): one NewReno flow on the 10 Mbit/s x 40 ms
    dumbbell (one BDP) overshoots in slow start; ns-2.35 and ccsim's ns-2 modes halve to the same
    ssthresh at the same fast retransmit, time out at the same instant with the RTO doubled from
    the same 200 ms, and halve again to the same value (ns-2.35: 97, 48 segments at 0.357 s and
    0.638 s)."""
    import csv

    from ccsim.ns2.oracle import run_both

    twin = twins.Twin("trace-newreno-10M-1", "newreno", 1, 10.0, 40.0, 1.0, 3.0, 1.0)
    run_both(twin.spec(), tmp_path / "trace.csv")
    rows = list(csv.DictReader((tmp_path / "trace.csv").read_text().splitlines()))

    def changes(sim: str, var: str) -> list[tuple[float, float]]:
        # ns-2 writes its initial ssthresh_ (window_ or 20) at 0 s; the changes that matter come later.
        return [(float(r["time"]), float(r["value"])) for r in rows
                if r["simulator"] == sim and r["variable"] == var and float(r["time"]) > 0]

    for var in ("ssthresh", "rto"):
        ours, theirs = changes("ccsim", var), changes("ns2", var)
        assert [v for _, v in ours] == [v for _, v in theirs], (var, ours, theirs)
        # ns-2 writes its trace's times to 10 us. The RTO's return from 0.4 to 0.2 s comes one
        # round trip later in ccsim (1.079 s against 1.039 s: the back-off ends with the first RTT
        # sample after the timeout, not traced further), so only the instants before it are held.
        pairs = list(zip(ours, theirs))[:2]
        assert all(abs(a - b) < 1e-4 for (a, _), (b, _) in pairs), (var, ours, theirs)
    assert [v for _, v in changes("ns2", "ssthresh")][:2] == [97.0, 48.0]


@needs_ns2
def test_slow_start_overshoot_and_its_recovery_are_identical_in_both() -> None:
    """One NewReno flow on the 10 Mbit/s x 40 ms dumbbell (one BDP, 48 packets) over its first
    0.62 s: slow start overflows the queue and NewReno repairs the holes one per partial ACK. The
    two simulators agree packet for packet: 98 drops, 308 transmissions at the bottleneck, 6
    retransmissions, the same mean queue (ns-2.35: 11.0549 packets)."""
    from ccsim.ns2.oracle import run_both

    pair = run_both(twins.Twin("first-0.62s", "newreno", 1, 10.0, 40.0, 1.0, 0.62, 0.0).spec())
    ours, theirs = pair.ccsim.links["r0->r1"], pair.ns2.links["r0->r1"]
    assert (ours["drops"], ours["tx_packets"]) == (theirs["drops"], theirs["tx_packets"]) == (98, 308)
    assert pair.ccsim.flows["f0"]["retransmitted_packets"] == pair.ns2.flows["f0"]["retransmitted_packets"] == 6
    assert ours["mean_queue_packets"] == pytest.approx(theirs["mean_queue_packets"], abs=1e-4)
