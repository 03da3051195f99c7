"""tcpm-reroute traced (README.md, part 2).

1. Runs the experiment's session (the registered spec with its timer: R2 down at 2.0 s,
   `reroute = "instant"`) with traces of the embedded Vegas and a pcap of the fused ACKs into S,
   and rebuilds its BaseRTT before and after the crash (common.vegas_rounds).
2. The same topology change for a unicast ns-2 Vegas S -> D2 (D2 and D3 are the receivers the
   crash moves onto R1-R3-D4-R4; their ACKs release every fused ACK after it): in ccsim with
   `[[events]]` R2 down at 2 s and `reroute = "instant"`, and in ns-2.35 with
   `$ns rtmodel-at 2.0 down $n(R2)` and `$ns rtproto Session` (routes recomputed at once over
   the links that are up) with `$ns cost` = each link's delay in ms (ccsim routes by delay, ns-2
   by cost), each with the experiment's timer ("1998") and ns-2.35's defaults ("2.35").
3. The same with only the direction R2 -> R4 down (FAILURES): the data moves onto R1-R3-D4-R4
   and the ACKs keep their path, so the unicast changes path without a timeout, as the session
   did, and its round trip about doubles. Prints one table.

    .venv/bin/python validation/ns2/vegas-tcpm/tcpm_reroute.py [--out DIR]
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

from common import (MSS, TIMERS, ccsim, ccsim_acks, ccsim_cwnd, ccsim_sends, ccsim_ssthresh, check_rounds, fmt,
                    link_of, same_sends,
                    mean_rate, node_ids, ns2_queue_events, ns2_trace_var, prepare, run_ns2, slow_start_exit,
                    summarize, time_mean, vegas_rounds)

from ccsim.experiments import REGISTRY  # noqa: E402
from ccsim.experiments import tcpm as t  # noqa: E402
from ccsim.experiments.base import TIMERS as EXPERIMENT_TIMERS  # noqa: E402
from ccsim.experiments.base import with_timer  # noqa: E402
from ccsim.ns2.translate import bps, full_spec, nbytes, seconds  # noqa: E402

CRASH = 2.0
DURATION = 8.0
AFTER = CRASH + 1.0  # the experiment's rate window: from 1 s after the crash
PAYLOAD_1M = 1e6 * MSS / 1000  # D4-R4's payload rate


def session_spec() -> dict[str, Any]:
    e = REGISTRY["tcpm-reroute"]
    return with_timer(e.specs(True)["run"], EXPERIMENT_TIMERS[e.timer])  # type: ignore[attr-defined]


#: The failures mapped: R2 down, as the experiment (`rtmodel-at 2.0 down $n(R2)` in ns-2.35);
#: only the direction R2 -> R4, which moves the unicast's data onto R1-R3-D4-R4 (the session's
#: new path) while its ACKs keep R4-R2-R1; and only R4 -> R2, which moves its ACKs onto
#: R4-D4-R3-R1 and loses nothing but ACKs, so that the round trip grows (37 to 62 ms) with no
#: retransmission at all. ns-2.35 takes one direction down by hand as rtModel does it (the link
#: made dynamic, `down`, `intf-changed`, the route logic's `notify`).
FAILURES: dict[str, dict[str, Any]] = {
    "node R2": {"at": f"{CRASH:g}s", "node": "R2", "state": "down"},
    "link R2->R4": {"at": f"{CRASH:g}s", "link": "R2->R4", "state": "down"},
    "link R4->R2": {"at": f"{CRASH:g}s", "link": "R4->R2", "state": "down"},
}


def unicast_spec(timer: dict[str, Any], failure: str, dst: str = "D2") -> dict[str, Any]:
    """Figure 7 (ours, tcpm.FIG7_LINKS) with one unicast ns-2 Vegas S -> `dst` carrying the
    session's packet size, window and Vegas keys, `failure` at 2 s, routes recomputed at once."""
    flow = {**t.unicast("vegas", "S", dst), **timer}
    return {"run": {"duration": f"{DURATION:g}s", "seed": 1, "reroute": "instant"}, "links": t.fig7_links(),
            "flows": [flow], "events": [dict(FAILURES[failure])],
            "output": {"interval": "100ms", "series": ["rate", "cwnd"], "trace": ["seq", "cwnd", "ssthresh"],
                       "pcap": ["R1->S"]}}


def ns2_tcl(spec: dict[str, Any]) -> str:
    """The unicast spec as an ns-2.35 script (by hand: translate.py refuses topologies with more
    than one path and failures). Its mappings are translate.py's (DropTail limit_ N + 1, ACKs of
    40 B, the timer keys as tcpTick_/rtxcur_init_/minrto_, window_ = max_window, windowInit_,
    syn_ false, maxburst_ 0), with packetSize_ = ccsim's whole packet (Agent/TCP/Vegas adds no
    header: common.translated_tcl) and link costs = delays in ms. It writes `vegas.ns2trace` (cwnd_,
    ssthresh_) and `q.tr` (trace-queue of S-R1 both ways) where ns runs."""
    full = full_spec(spec)
    [f] = full["flows"]
    ids = node_ids(full)
    lines = ["set ns [new Simulator]", "$ns rtproto Session"]
    for name in ids:
        lines.append(f"set n({name}) [$ns node]")
    for link in full["links"]:
        a, b = link["between"]
        rate, delay = bps(link["rate"]), seconds(link["delay"])
        limit = int(link["queue"][:-1]) + 1
        lines.append(f"$ns duplex-link $n({a}) $n({b}) {rate:.15g} {delay:.15g} DropTail")
        lines.append(f"$ns queue-limit $n({a}) $n({b}) {limit}; $ns queue-limit $n({b}) $n({a}) {limit}")
        cost = round(delay * 1e3)
        lines.append(f"$ns cost $n({a}) $n({b}) {cost}; $ns cost $n({b}) $n({a}) {cost}")
    tick = seconds(f["tick"]) if f.get("tick") else 0.01
    init = seconds(f["initial_rto"]) if f.get("initial_rto") else 3.0
    minrto = seconds(f["min_rto"]) if f.get("min_rto") else 0.2
    v = f["vegas"]
    lines += [
        "set a [new Agent/TCP/Vegas]",
        f"$a set packetSize_ {nbytes(f['packet_size'])}", f"$a set window_ {f['max_window']}",
        f"$a set windowInit_ {f['initial_window']}", "$a set maxburst_ 0",
        f"$a set tcpTick_ {tick:.15g}", f"$a set rtxcur_init_ {init:.15g}", f"$a set minrto_ {minrto:.15g}",
        "$a set syn_ false", "$a set delay_growth_ false",
        f"$a set v_alpha_ {int(v['alpha'])}", f"$a set v_beta_ {int(v['beta'])}", f"$a set v_gamma_ {int(v['gamma'])}",
        "$a set fid_ 0",
        "set s [new Agent/TCPSink]",
        f"$ns attach-agent $n({f['from']}) $a; $ns attach-agent $n({f['to']}) $s; $ns connect $a $s",
        "set ftp [new Application/FTP]; $ftp attach-agent $a",
        f"$ns at {seconds(f['start']):.15g} \"$ftp start\"",
        "set tf [open vegas.ns2trace w]",
        "$a attach $tf; $a trace cwnd_; $a trace ssthresh_",
        "set qtrace [open q.tr w]",
        f"$ns trace-queue $n({f['from']}) $n(R1) $qtrace; $ns trace-queue $n(R1) $n({f['from']}) $qtrace",
        *failure_tcl(full["events"][0]),
        "set last 0; set lastt 0",
        "proc sample {} {",
        "  global ns s last lastt",
        "  set now [$ns now]; set b [$s set bytes_]",
        f"  puts \"CCSIM-NS2-SAMPLE $now rate vegas [expr {{($b - $last) * 8.0 * {MSS} / 1000 / ($now - $lastt)}}]\"",
        "  set last $b; set lastt $now",
        f"  if {{$now < {DURATION - 1e-9}}} {{ $ns at [expr {{$now + 0.1}}] \"sample\" }}",
        "}",
        "proc finish {} {",
        "  global a s",
        "  puts \"CCSIM-NS2-RESULT {\\\"flow:vegas\\\": {\\\"timeouts\\\": [$a set nrexmit_], "
        "\\\"retransmitted_packets\\\": [$a set nrexmitpack_], \\\"sent_packets\\\": [$a set ndatapack_], "
        "\\\"bytes\\\": [$s set bytes_]}}\"",
        "  exit 0",
        "}",
        "$ns at 0.1 \"sample\"",
        f"$ns at {DURATION + 1e-6:.15g} \"finish\"",
        "$ns run",
    ]
    return "\n".join(lines) + "\n"


def failure_tcl(event: dict[str, Any]) -> list[str]:
    """The failure in ns-2.35: a node by `rtmodel-at` (every link of it, both directions); one
    link direction by hand as rtModel does it (dynamic link, `down`, `intf-changed`, the route
    logic's `notify`, which has Session routing recompute every route over the links up)."""
    at = seconds(event["at"])
    if event.get("node"):
        return [f"$ns rtmodel-at {at:.15g} down $n({event['node']})"]
    a, b = (event["link"].split("->") if isinstance(event["link"], str) else event["link"])
    return [f"[$ns link $n({a}) $n({b})] dynamic",
            f"$ns at {at:.15g} \"[$ns link $n({a}) $n({b})] down; $n({a}) intf-changed; $n({b}) intf-changed; "
            f"[$ns get-routelogic] notify\""]


def analyse(sends: list[tuple[float, int]], acks: list[tuple[float, int]], cwnd: list[tuple[float, float]],
            ssthresh: list[tuple[float, float]], rates: list[tuple[float, float]], timeouts: Any,
            retransmitted: Any) -> dict[str, Any]:
    log = vegas_rounds(sends, acks)
    # The rate as the session's `rate` series measures it: bytes acknowledged at the sender.
    def acked(at: float) -> int:
        return max((a for ta, a in acks if ta <= at), default=-1) + 1
    acked_rate = (acked(DURATION) - acked(AFTER)) * MSS * 8 / (DURATION - AFTER)
    sent_times = {}
    for ts, seg in sends:
        sent_times.setdefault(seg, []).append(ts)
    resent = sorted(min(v[1:]) for v in sent_times.values() if len(v) > 1)
    before = next((b for tb, b in reversed(log.base) if tb <= CRASH), math.nan)
    after = summarize(log, cwnd, AFTER, DURATION)
    resets = [r for r in log.rounds if r.t > CRASH and r.rtt_len <= 1]
    changes = [(tb, b) for tb, b in log.base if tb > CRASH]
    return {"log_sends": sends, "check": check_rounds(log, cwnd, CRASH, DURATION), "rate": mean_rate(rates, AFTER, DURATION), "rate_before": mean_rate(rates, 1.0, CRASH),
            "acked_rate": acked_rate, "first_resend": resent[0] if resent else math.nan, "sends": len(sends),
            "base_before": before, "base_after": after["base_end"], "rtt_after": after["rtt_mean"],
            "sample_min_after": after["sample_min"], "delta_after": after["delta_mean"],
            "cwnd_after": time_mean(cwnd, AFTER, DURATION), "cwnd_before": time_mean(cwnd, 1.0, CRASH),
            "timeouts": timeouts, "retransmitted": retransmitted, "short_rounds_after": len(resets),
            "base_changes_after": changes, "ss": slow_start_exit(ssthresh, cwnd)}


def unicast_row(spec: dict[str, Any], folder: Path, r1s: Any) -> dict[str, Any]:
    """Run the unicast `spec` in ccsim into `folder` and analyse its Vegas flow."""
    res = ccsim.run(spec, progress=False)
    res.write(folder, plots=False)
    rate = res.wide("rate")["vegas"].dropna()
    fl = res.summary["flows"]["vegas"]
    return analyse(ccsim_sends(res, "vegas"), ccsim_acks(folder / "R1-S.pcap", *r1s), ccsim_cwnd(res, "vegas"),
                   ccsim_ssthresh(res, "vegas"), list(zip(rate.index.astype(float), rate.to_numpy(dtype=float))),
                   fl["timeouts"], fl["retransmitted_packets"])


def main(argv: list[str] | None = None) -> int:
    ready = prepare(__doc__, "/tmp/vegas-tcpm/tcpm-reroute", argv)
    if ready is None:
        return 1
    out, scen = ready
    rows: list[tuple[str, str, str, dict[str, Any]]] = []
    r1s = link_of({"links": t.fig7_links()}, "R1", "S")

    # The session.
    spec = session_spec()
    traced = copy.deepcopy(spec)
    traced["output"] = {"interval": "100ms", "series": ["rate"], "trace": ["seq", "cwnd", "ssthresh"],
                        "pcap": ["R1->S"]}
    (scen / "tcpm-reroute-session.json").write_text(json.dumps(traced, indent=1) + "\n")
    res = ccsim.run(traced, progress=False)
    res.write(out / "session", plots=False)
    srate = res.wide("rate")["m1"].dropna()
    s = res.summary["tcpm"]["m1"]
    rows.append(("TCP-M session S -> D1..D5, fused ACKs", "1998", "ccsim",
                 analyse(ccsim_sends(res, "m1"), ccsim_acks(out / "session" / "R1-S.pcap", *r1s, fused=True),
                         ccsim_cwnd(res, "m1"), ccsim_ssthresh(res, "m1"),
                         list(zip(srate.index.astype(float), srate.to_numpy(dtype=float))), s["timeouts"],
                         s["retransmissions"])))

    # The unicast, both simulators.
    for failure in FAILURES:
        for timer in ("1998", "2.35"):
            spec = unicast_spec(TIMERS[timer], failure)
            label = f"unicast-D2-{failure.split()[1].replace('->', '-')}-{timer}"
            (scen / f"tcpm-reroute-{label}.json").write_text(json.dumps(spec, indent=1) + "\n")
            rows.append((f"unicast S -> D2, {failure} down", timer, "ccsim (reroute instant)",
                         unicast_row(spec, out / f"{label}-ccsim", r1s)))
            # ns-2's TcpAgent::reset() starts ssthresh_ at window_ (tcp.cc line 473), ccsim's sender
            # unbounded (sender.rs: u64::MAX without initial_ssthresh): the same run with it at 20.
            capped = copy.deepcopy(spec)
            capped["flows"][0]["initial_ssthresh"] = f"{20 * MSS}B"
            (scen / f"tcpm-reroute-{label}-ssthresh20.json").write_text(json.dumps(capped, indent=1) + "\n")
            rows.append((f"unicast S -> D2, {failure} down", timer, "ccsim, initial_ssthresh 20 segments",
                         unicast_row(capped, out / f"{label}-ccsim-ss20", r1s)))
            wdir = out / f"{label}-ns2"
            wdir.mkdir(parents=True, exist_ok=True)
            tcl = ns2_tcl(spec)
            (scen / f"tcpm-reroute-{label}.tcl").write_text(tcl)
            result, samples, _ = run_ns2(tcl, wdir, label)
            ids = node_ids(spec)
            sends = ns2_queue_events(wdir / "q.tr", "+", ids["S"], ids["R1"], "tcp", 0)
            acks = ns2_queue_events(wdir / "q.tr", "r", ids["R1"], ids["S"], "ack", 0)
            fl = result["flow:vegas"]
            rows.append((f"unicast S -> D2, {failure} down", timer, "ns2 (rtproto Session)",
                         analyse(sends, acks, ns2_trace_var(wdir / "vegas.ns2trace", "cwnd_"),
                                 ns2_trace_var(wdir / "vegas.ns2trace", "ssthresh_"),
                                 [(tt, v) for tt, var, _e, v in samples if var == "rate"], fl["timeouts"],
                                 fl["retransmitted_packets"])))

    print(f"# tcpm-reroute: R2 down at {CRASH:g} s; rates / D4-R4's payload rate ({PAYLOAD_1M / 1e3:g} kbit/s), "
          f"'after' = ({AFTER:g}, {DURATION:g}] s\n")
    print("| run | timer | sim | rate 1-2 s | rate after (own series) | rate after (ACKed at the sender) "
          "| cwnd 1-2 s | cwnd after (seg) | BaseRTT at 2 s (s) "
          "| BaseRTT at 8 s (s) | min ACK RTT after (s) | round RTT after (s) | delta after | rounds with rttLen <= 1 "
          "after the crash | timeouts | retransmitted | first resend (s) | transmissions |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, timer, sim, a in rows:
        print(f"| {name} | {timer} | {sim} | {fmt(a['rate_before'] / PAYLOAD_1M)} | {fmt(a['rate'] / PAYLOAD_1M)} | "
              f"{fmt(a['acked_rate'] / PAYLOAD_1M)} | "
              f"{fmt(a['cwnd_before'], 2)} | {fmt(a['cwnd_after'], 2)} | {fmt(a['base_before'], 4)} | "
              f"{fmt(a['base_after'], 4)} | {fmt(a['sample_min_after'], 4)} | {fmt(a['rtt_after'], 4)} | "
              f"{fmt(a['delta_after'], 2)} | {a['short_rounds_after']} | {a['timeouts']} | {a['retransmitted']} | "
              f"{fmt(a['first_resend'], 4)} | {a['sends']} |")
    print("\nThe replica's rounds with delta > beta after the crash against the simulator's own cwnd "
          "decrements of one segment (count / count / at the same instant):")
    for name, timer, sim, a in rows:
        c = a["check"]
        print(f"- {name}, {timer}, {sim}: {c['rounds_delta_gt_beta']} / {c['cwnd_minus_one']} / {c['coincide']}")
    print("\nTransmissions, ccsim against ns-2.35 (count each; the first that differs by segment or by more than "
          "1 us):")
    by = {(name, timer, sim): a for name, timer, sim, a in rows}
    for name, timer, sim, a in rows:
        if not sim.startswith("ccsim") or name.startswith("TCP-M"):
            continue
        theirs = by[(name, timer, "ns2 (rtproto Session)")]
        na, nb, first = same_sends(a["log_sends"], theirs["log_sends"])
        print(f"- {name}, {timer}, {sim}: {na} / {nb}; " + ("identical" if first is None else
                                                          f"first difference ccsim {first[0]}, ns-2.35 {first[1]}"))
    print("\nBaseRTT changes after the crash (instant s, BaseRTT s):")
    for name, timer, sim, a in rows:
        ch = a["base_changes_after"]
        print(f"- {name}, {timer}, {sim}: " + (", ".join(f"{tb:.4f}: {b:.4f}" for tb, b in ch[:6]) or "none")
              + (f" ... ({len(ch)} in all)" if len(ch) > 6 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
