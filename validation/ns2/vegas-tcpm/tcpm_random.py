"""tcpm-random's 50 kbit/s run traced (README.md, part 1).

1. Runs the experiment's slow-link session exactly as `ccsim reproduce tcpm-random --quick`
   does (the registered spec with the experiment's timer), with pcaps on the path to the
   receiver reported failed and on the links that feed that path, and traces of the embedded
   Vegas's transmissions and cwnd.
2. Says which receiver failed, its path, and what happened to its REVERSE_PATHs link by link.
3. Rebuilds, from the session's pcaps, every receiver's REVERSE_PATH stream where it joins that
   path (node, first instant; one 40 B message a second, RCVR_TMOUT).
4. Writes the path as a ccsim spec and, through translate.py, as an ns-2.35 script with
   Agent/TCP/Vegas: a unicast Vegas from the source to that receiver over the same links,
   alone ("alone") and beside the REVERSE_PATH streams as CBR sources of 40 B every second
   from their join node to the source ("+rp"), each with the experiment's timer ("1998") and
   ns-2.35's defaults ("2.35"); runs both simulators and prints one table.

    .venv/bin/python validation/ns2/vegas-tcpm/tcpm_random.py [--out DIR]
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from common import (MSS, TIMERS, ccsim, ccsim_acks, ccsim_cwnd, ccsim_sends, ccsim_ssthresh, ccsm, check_rounds, fmt,
                    slow_start_exit,
                    link_of, mean_rate, node_ids, same_sends, ns2_queue_events, ns2_trace_var, prepare, read_pcap,
                    run_ns2, summarize, translated_tcl, vegas_rounds)

from ccsim.experiments import REGISTRY  # noqa: E402
from ccsim.experiments.base import TIMERS as EXPERIMENT_TIMERS  # noqa: E402
from ccsim.experiments.base import with_timer  # noqa: E402

DURATION = 60.0
PAYLOAD_50K = 50e3 * MSS / 1000  # the slow link's payload rate, bit/s
RCVR_TMOUT = 1.0
CTL_BYTES = 40  # a TCP-M control message (docs/protocols.md)


def session_spec() -> dict[str, Any]:
    """The 50 kbit/s run as the experiment runs it (quick and full are the same run)."""
    e = REGISTRY["tcpm-random"]
    return with_timer(e.specs(True)["slow-link"], EXPERIMENT_TIMERS[e.timer])  # type: ignore[attr-defined]


def graph(spec: dict[str, Any]) -> nx.Graph:
    g = nx.Graph()
    for link in spec["links"]:
        a, b = link["between"]
        rate, delay = link_of(spec, a, b)
        g.add_edge(a, b, rate=rate, delay=delay, link=link)
    return g


def slowest_receiver(spec: dict[str, Any]) -> str:
    """The receiver with the longest round trip without queues (1000 B data, 60 B encapsulated
    ACKs, every hop store-and-forward): the one whose ACK releases each fused ACK at the source."""
    g = graph(spec)
    paths = nx.single_source_dijkstra_path(g, "n0", weight="delay")

    def rtt(r: str) -> float:
        return sum(2 * g.edges[a, b]["delay"] + (1000 + 60) * 8 / g.edges[a, b]["rate"]
                   for a, b in zip(paths[r], paths[r][1:]))

    return max((r for r in paths if r != "n0"), key=rtt)


def run_session(spec: dict[str, Any], out: Path) -> tuple[ccsim.Result, dict[str, list[str]], dict[str, str]]:
    """The session with pcaps on the paths to the receiver reported failed and to the slowest
    receiver, and on every tree link into those paths."""
    g = graph(spec)
    probe = ccsim.run(spec, progress=False)
    failed = probe.summary["tcpm"]["m1"]["failed"]
    paths = nx.single_source_dijkstra_path(g, "n0", weight="delay")
    parent = {r: p[-2] for r, p in paths.items() if r != "n0"}
    targets = {"failed": failed[0]} if failed else {}
    targets["slowest"] = slowest_receiver(spec)
    pcaps: list[str] = []
    for target in targets.values():
        path = paths[target]
        for a, b in zip(path, path[1:]):
            pcaps += [f"{a}->{b}", f"{b}->{a}"]
        for j in path[1:]:
            pcaps += [f"{c}->{j}" for c in g.neighbors(j) if parent.get(c) == j and c not in path]
    traced = copy.deepcopy(spec)
    traced["output"] = {"interval": "100ms", "series": ["rate", "cwnd"], "trace": ["seq", "cwnd", "ssthresh"],
                        "pcap": sorted(set(pcaps))}
    res = ccsim.run(traced, progress=False)
    res.write(out, plots=False)
    return res, {k: paths[t] for k, t in targets.items()}, parent


def reverse_path_streams(spec: dict[str, Any], out: Path, path: list[str], parent: dict[str, str]
                         ) -> dict[str, tuple[str, float]]:
    """Every receiver's REVERSE_PATH stream where it joins `path`: receiver -> (node, first
    arrival there in its steady phase). A receiver on the path sends its own from its node when
    PATH arrives (receiver.rs: at once, then every RCVR_TMOUT); one below a path node's other
    child arrives over that child's link (pcap instant + 40 B transmission + propagation)."""
    g = graph(spec)
    ids = node_ids(spec)
    name = {i: n for n, i in ids.items()}
    streams: dict[str, tuple[str, float]] = {}
    for a, b in zip(path, path[1:]):
        rate, delay = link_of(spec, a, b)
        arrivals = [t + CTL_BYTES * 8 / rate + delay for t, proto, _s, _src, pl in read_pcap(out / f"{a}-{b}.pcap")
                    if proto == 17 and (m := ccsm(pl)) and m[0] == "ctl" and m[1] == 2]
        streams[b] = (b, arrivals[-1])  # the last PATH sets the phase
    for j in path[1:]:
        for c in g.neighbors(j):
            if parent.get(c) != j or c in path:
                continue
            rate, delay = link_of(spec, c, j)
            seen: dict[str, list[float]] = {}
            for t, proto, _s, _src, pl in read_pcap(out / f"{c}-{j}.pcap"):
                m = ccsm(pl) if proto == 17 else None
                if m and m[0] == "ctl" and m[1] == 3:
                    seen.setdefault(name[m[2]], []).append(t + CTL_BYTES * 8 / rate + delay)
            for r, ts in seen.items():
                arr = np.array(ts)
                phase = float(np.median(arr[arr > 5.0] % RCVR_TMOUT))
                first = next(t for t in arr if abs((t - phase) % RCVR_TMOUT) < 0.01
                             or abs((t - phase) % RCVR_TMOUT - RCVR_TMOUT) < 0.01)
                streams[r] = (j, float(first))
    return streams


def reverse_path_fate(spec: dict[str, Any], out: Path, path: list[str], target: str) -> dict[str, Any]:
    """How many of `target`'s REVERSE_PATHs each upward link of its path transmitted, and what
    the top link (into the source) did with the burst it sits in."""
    ids = node_ids(spec)
    up = list(zip(path[::-1], path[::-1][1:]))
    counts = {}
    for a, b in up:
        n = 0
        times = []
        for t, proto, _s, _src, pl in read_pcap(out / f"{a}-{b}.pcap"):
            m = ccsm(pl) if proto == 17 else None
            if m and m[0] == "ctl" and m[1] == 3 and m[2] == ids[target]:
                n += 1
                times.append(t)
        counts[f"{a}->{b}"] = (n, times)
    return counts


def top_queue_at_arrivals(spec: dict[str, Any], out: Path, path: list[str], parent: dict[str, str],
                          streams: dict[str, tuple[str, float]], target: str) -> list[tuple[float, int, int, bool]]:
    """At each arrival of `target`'s REVERSE_PATH at the node below the source: the REVERSE_PATHs
    waiting in that node's queue to the source (arrived, less started, less those lost before),
    the fused ACKs that started transmission in the 0.4 s before, and whether it got through."""
    top = path[1]
    ids = node_ids(spec)
    rate, delay = link_of(spec, top, "n0")
    deps = read_pcap(out / f"{top}-n0.pcap")
    rp_dep = np.array([t for t, proto, _s, _src, pl in deps if proto == 17 and (m := ccsm(pl)) and m[0] == "ctl"
                       and m[1] == 3])
    target_dep = [t for t, proto, _s, _src, pl in deps if proto == 17 and (m := ccsm(pl)) and m[0] == "ctl"
                  and m[1] == 3 and m[2] == ids[target]]
    ack_dep = np.array([t for t, proto, _s, _src, pl in deps if proto == 17 and (m := ccsm(pl)) and m[0] == "ack"])
    # REVERSE_PATH arrivals at the top node: every stream that joins there or below it.
    arrivals = []
    below_top = {r for r, (j, _t) in streams.items()}
    for r in below_top:
        j, t0 = streams[r]
        # time from the join node up to the top node: sum over links of transmission + delay
        node, extra = j, 0.0
        while node != top:
            p = parent[node]
            rr, dd = link_of(spec, node, p)
            extra += CTL_BYTES * 8 / rr + dd
            node = p
        arrivals += [(t0 + extra + k * RCVR_TMOUT, r) for k in range(int(DURATION))]
    arrivals.sort()
    at = np.array([t for t, _ in arrivals])
    out_rows = []
    lost_before = 0
    for t, r in arrivals:
        if r != target or t > DURATION - 1:
            continue
        waiting = int((at < t - 1e-9).sum() - (rp_dep <= t).sum()) - lost_before
        acks = int(((ack_dep > t - 0.4) & (ack_dep <= t)).sum())
        through = any(t <= d < t + 1.0 for d in target_dep)
        if not through:
            lost_before += 1
        out_rows.append((t, waiting, acks, through))
    return out_rows


def path_spec(spec: dict[str, Any], path: list[str], streams: dict[str, tuple[str, float]] | None, start: float,
              timer: dict[str, Any]) -> dict[str, Any]:
    """The path as its own topology: a unicast ns-2 Vegas with the session's packet size,
    window and Vegas keys, and with `streams` the REVERSE_PATHs as CBR sources."""
    links = []
    for a, b in zip(path, path[1:]):
        link = next(x for x in spec["links"] if set(x["between"]) == {a, b})
        links.append({"between": [a, b], "rate": link["rate"], "delay": link["delay"], "queue": link["queue"]})
    [session] = spec["tcpm"]
    opts = session["options"]
    flow = {"name": "vegas", "protocol": "vegas", "from": path[0], "to": path[-1], "start": f"{start:.7f}s",
            "packet_size": session["packet_size"], "max_window": opts["max_window"], "vegas": dict(opts["vegas"]),
            **timer}
    flows = [flow]
    for r, (j, t0) in sorted((streams or {}).items(), key=lambda kv: kv[1][1]):
        flows.append({"name": f"rp-{r}", "protocol": "cbr", "from": j, "to": path[0], "start": f"{t0:.7f}s",
                      "rate": f"{CTL_BYTES * 8 / RCVR_TMOUT:g}bps", "packet_size": f"{CTL_BYTES}B"})
    return {"run": {"duration": f"{DURATION:g}s", "seed": 1}, "links": links, "flows": flows,
            "output": {"interval": "100ms", "series": ["rate", "cwnd"], "trace": ["seq", "cwnd", "ssthresh"],
                       "per_flow_series": True,
                       "pcap": [f"{path[1]}->{path[0]}"]}}


def run_pair(spec: dict[str, Any], label: str, work: Path, start: float, vegas_wire: bool = True
             ) -> dict[str, dict[str, Any]]:
    """`spec` in ccsim and ns-2.35; per simulator the rates, counters, cwnd and the Vegas
    replica's rounds."""
    src, first = spec["links"][0]["between"]
    rate, delay = link_of(spec, first, src)
    ids = node_ids(spec)
    out: dict[str, dict[str, Any]] = {}
    # ccsim
    cdir = work / f"{label}-ccsim"
    res = ccsim.run(spec, progress=False)
    res.write(cdir, plots=False)
    sends = ccsim_sends(res, "vegas")
    acks = ccsim_acks(cdir / f"{first}-{src}.pcap", rate, delay)
    f = res.summary["flows"]["vegas"]
    rates = res.wide("rate")["vegas"].dropna()
    out["ccsim"] = {"sends": sends, "rate": list(zip(rates.index.astype(float), rates.to_numpy(dtype=float))),
                    "timeouts": f["timeouts"], "retransmitted": f["retransmitted_packets"],
                    "cwnd": ccsim_cwnd(res, "vegas"), "ssthresh": ccsim_ssthresh(res, "vegas"),
                    "log": vegas_rounds(sends, acks),
                    "rp_drops": sum(int(v["lost_packets"]) for k, v in res.summary["flows"].items() if k != "vegas"),
                    "rp_lost": {k: int(v["lost_packets"]) for k, v in res.summary["flows"].items()
                                if k != "vegas" and int(v["lost_packets"])}}
    # ns-2.35
    ndir = work / f"{label}-ns2"
    tcl, tr = translated_tcl(spec, ndir, label, [(src, first), (first, src)], vegas_wire=vegas_wire)
    (work / f"{label}.tcl").write_text(tcl)
    result, samples, _wall = run_ns2(tcl, ndir, label)
    fid = tr.flows.index("vegas")
    sends = ns2_queue_events(ndir / f"{label}.tr", "+", ids[src], ids[first], "tcp", fid)
    acks = ns2_queue_events(ndir / f"{label}.tr", "r", ids[first], ids[src], "ack", fid)
    cw = ns2_trace_var(ndir / tr.trace_files["vegas"], "cwnd_")
    fl = result["flow:vegas"]
    lost_rp = sum(int(v["lost_packets"]) for k, v in result.items() if k.startswith("flow:rp-"))
    out["ns2"] = {"sends": sends, "rate": [(t, v) for t, var, ent, v in samples if var == "rate" and ent == "vegas"],
                  "timeouts": fl["timeouts"], "retransmitted": fl["retransmitted_packets"], "cwnd": cw,
                  "ssthresh": ns2_trace_var(ndir / tr.trace_files["vegas"], "ssthresh_"),
                  "log": vegas_rounds(sends, acks), "rp_drops": lost_rp,
                  "rp_lost": {k[5:]: int(v["lost_packets"]) for k, v in result.items()
                              if k.startswith("flow:rp-") and int(v["lost_packets"])}}
    return out


def after_slow_start(ss: tuple[float, float]) -> float:
    """Where the check of the replica's decisions starts: after slow start's last cut (its cut
    by an eighth is one whole segment at cwnd 8, not a congestion-avoidance step)."""
    return ss[0] + 1e-6 if not math.isnan(ss[0]) else 0.0


def describe_path(g: nx.Graph, path: list[str]) -> str:
    hops = [(a, b, g.edges[a, b]["rate"] / 1e3, g.edges[a, b]["delay"] * 1e3) for a, b in zip(path, path[1:])]
    return (f"{len(hops)} hops, {sum(h[3] for h in hops):g} ms one way: "
            + ", ".join(f"{a}-{b} {r:g} kbit/s {d:g} ms" for a, b, r, d in hops))


Row = tuple[str, str, str, float, float, dict[str, float], Any, Any, dict[str, int], Any, tuple[float, float]]


def pair_rows(name: str, timer: str, pair: dict[str, dict[str, Any]], start: float, sims: tuple[str, ...] = ("ccsim", "ns2")
              ) -> list[Row]:
    rows = []
    for sim in sims:
        p = pair[sim]
        ss = slow_start_exit(p["ssthresh"], p["cwnd"])
        rows.append((name, timer, sim, mean_rate(p["rate"], start, DURATION), mean_rate(p["rate"], 30, DURATION),
                     summarize(p["log"], p["cwnd"], 30, DURATION), p["timeouts"], p["retransmitted"],
                     check_rounds(p["log"], p["cwnd"], after_slow_start(ss), DURATION), p["rp_drops"], ss))
    return rows


def print_table(title: str, rows: list[Row]) -> None:
    print(f"\n# {title}\n")
    print("| run | timer | sim | rate / data phase | rate / 30-60 s | slow start left at s (cwnd) | cwnd 30-60 s (seg) "
          "| BaseRTT (s) | round RTT (s) | delta | ACK RTT min / mean / max (s) | timeouts | retransmitted "
          "| delta>3 rounds / cwnd-1 steps / same instant (after slow start) | 40 B drops |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, timer, sim, whole, late, sm, to, rx, chk, drops, ss in rows:
        print(f"| {name} | {timer} | {sim} | {fmt(whole / PAYLOAD_50K)} | {fmt(late / PAYLOAD_50K)} | "
              f"{fmt(ss[0], 2)} ({fmt(ss[1], 2)}) | {fmt(sm['cwnd_mean'], 2)} | {fmt(sm['base_end'])} | "
              f"{fmt(sm['rtt_mean'])} | {fmt(sm['delta_mean'], 2)} | {fmt(sm['sample_min'])} / "
              f"{fmt(sm['sample_mean'])} / {fmt(sm['sample_max'])} | {to} | {rx} | "
              f"{chk['rounds_delta_gt_beta']} / {chk['cwnd_minus_one']} / {chk['coincide']} | {drops} |")


def main(argv: list[str] | None = None) -> int:
    ready = prepare(__doc__, "/tmp/vegas-tcpm/tcpm-random", argv)
    if ready is None:
        return 1
    out, scen = ready

    spec = session_spec()
    (scen / "tcpm-random-session.json").write_text(json.dumps(spec, indent=1) + "\n")
    res, paths, parent = run_session(spec, out / "session")
    s = res.summary["tcpm"]["m1"]
    start = float(s["data_start_s"])
    g = graph(spec)
    top = paths["slowest"][1]
    links = res.links()
    links = links.set_index("name") if "name" in links.columns else links
    print(f"# tcpm-random, 50 kbit/s on n0-{top}: the session (ccsim, as the experiment runs it)\n")
    print(f"data phase from {start} s; throughput {s['throughput_bps'] / 1e3:.2f} kbit/s = "
          f"{s['throughput_bps'] / PAYLOAD_50K:.4f} of the payload rate; retransmissions {s['retransmissions']}, "
          f"timeouts {s['timeouts']}, deaths in fusion tables {len(s['deaths'])}")
    print(f"drops on {top}->n0: {int(links.loc[f'{top}->n0', 'drops'])}, mean queue "
          f"{links.loc[f'{top}->n0', 'mean_queue_packets']:.1f} packets")
    print("failure reports: " + "; ".join(f"{x['receiver']} at {x['at_s']} s (revived {x['revived_s']})"
                                          for x in s["failures"]))
    for role, path in paths.items():
        print(f"{role} receiver {path[-1]}: {describe_path(g, path)}")

    streams_of = {role: reverse_path_streams(spec, out / "session", path, parent) for role, path in paths.items()}
    if "failed" in paths:
        path = paths["failed"]
        target = path[-1]
        fate = reverse_path_fate(spec, out / "session", path, target)
        print(f"\n{target}'s REVERSE_PATHs transmitted per upward link: "
              + ", ".join(f"{k} {n}" for k, (n, _) in fate.items()))
        rows = top_queue_at_arrivals(spec, out / "session", path, parent, streams_of["failed"], target)
        print(f"at each arrival of {target}'s REVERSE_PATH at {top} (the first 16): REVERSE_PATHs waiting for "
              f"{top}->n0 / fused ACKs that started there in the 0.4 s before / through?")
        print("  " + "; ".join(f"{t:.3f}: {w}/{a}/{'yes' if ok else 'DROPPED'}" for t, w, a, ok in rows[:16]))
        print(f"  {sum(1 for r in rows if r[3])} of {len(rows)} through; the last through arrived at "
              f"{max((r[0] for r in rows if r[3]), default=math.nan):.3f} s")
    for role, streams in streams_of.items():
        joins: dict[str, int] = {}
        for r, (j, _t) in streams.items():
            joins[j] = joins.get(j, 0) + 1
        print(f"REVERSE_PATH streams joining the path to {paths[role][-1]}, by node: {joins} ({len(streams)} in all)")

    # The session's own Vegas, rebuilt from its transmissions and the fused ACKs into n0.
    rate, delay = link_of(spec, top, "n0")
    slog = vegas_rounds(ccsim_sends(res, "m1"), ccsim_acks(out / "session" / f"{top}-n0.pcap", rate, delay, fused=True))
    scw = ccsim_cwnd(res, "m1")
    srate = res.wide("rate")["m1"].dropna()
    session_rate = list(zip(srate.index.astype(float), srate.to_numpy(dtype=float)))
    session_row: Row = ("TCP-M session, fused ACKs", "1998", "ccsim", s["throughput_bps"],
                        mean_rate(session_rate, 30, DURATION), summarize(slog, scw, 30, DURATION), s["timeouts"],
                        s["retransmissions"], check_rounds(slog, scw, after_slow_start(slow_start_exit(ccsim_ssthresh(res, "m1"), scw)), DURATION),
                        int(links.loc[f"{top}->n0", "drops"]), slow_start_exit(ccsim_ssthresh(res, "m1"), scw))

    # The same session with REVERSE_PATHs ten times rarer (ccsim only: a check of the cause).
    rare = copy.deepcopy(spec)
    rare["tcpm"][0].update(rcvr_timeout="10s", tcpm_timeout="20s")
    rare["output"] = {"interval": "100ms", "series": ["rate"], "trace": ["seq", "cwnd", "ssthresh"], "pcap": [f"{top}->n0"]}
    (scen / "tcpm-random-session-rcvr10s.json").write_text(json.dumps(rare, indent=1) + "\n")
    rres = ccsim.run(rare, progress=False)
    rres.write(out / "session-rcvr10s", plots=False)
    rs = rres.summary["tcpm"]["m1"]
    rlog = vegas_rounds(ccsim_sends(rres, "m1"), ccsim_acks(out / "session-rcvr10s" / f"{top}-n0.pcap", rate, delay,
                                                             fused=True))
    rcw = ccsim_cwnd(rres, "m1")
    rrate = rres.wide("rate")["m1"].dropna()
    rlinks = rres.links()
    rlinks = rlinks.set_index("name") if "name" in rlinks.columns else rlinks
    rare_row: Row = ("TCP-M session, RCVR_TMOUT 10 s, TCP-M_TMOUT 20 s", "1998", "ccsim", rs["throughput_bps"],
                     mean_rate(list(zip(rrate.index.astype(float), rrate.to_numpy(dtype=float))), 30, DURATION),
                     summarize(rlog, rcw, 30, DURATION), rs["timeouts"], rs["retransmissions"],
                     check_rounds(rlog, rcw, after_slow_start(slow_start_exit(ccsim_ssthresh(rres, "m1"), rcw)), DURATION), int(rlinks.loc[f"{top}->n0", "drops"]),
                     slow_start_exit(ccsim_ssthresh(rres, "m1"), rcw))
    print(f"\nwith RCVR_TMOUT 10 s: failure reports {[(x['receiver'], x['at_s'], x['revived_s']) for x in rs['failures']]}")

    same: dict[str, Any] = {}
    lost: dict[str, Any] = {}
    for role, path in paths.items():
        target = path[-1]
        rows: list[Row] = [session_row, rare_row]
        for load in ("alone", "+rp"):
            for timer in ("1998", "2.35"):
                label = f"{target}-{load.strip('+')}-{timer}"
                pspec = path_spec(spec, path, streams_of[role] if load == "+rp" else None, start, TIMERS[timer])
                (scen / f"tcpm-random-{label}.json").write_text(json.dumps(pspec, indent=1) + "\n")
                pair = run_pair(pspec, label, out, start)
                (scen / f"tcpm-random-{label}.tcl").write_text((out / f"{label}.tcl").read_text())
                rows += pair_rows(f"unicast n0->{target}, {load}", timer, pair, start)
                same[label] = same_sends(pair["ccsim"]["sends"], pair["ns2"]["sends"])
                if load == "+rp":
                    lost[label] = (pair["ccsim"]["rp_lost"], pair["ns2"]["rp_lost"])
        if role == "failed":
            # translate.py's script as it stands: ns-2.35's Vegas then sends 960 B packets (common.py).
            label = f"{target}-alone-1998-translate960"
            pspec = path_spec(spec, path, None, start, TIMERS["1998"])
            pair = run_pair(pspec, label, out, start, vegas_wire=False)
            rows += pair_rows(f"unicast n0->{target}, alone, 960 B data (translate.py as is)", "1998", pair, start,
                              sims=("ns2",))
        print_table(f"Vegas on the path to the {role} receiver {target} (rates / 48 kbit/s, the payload rate of "
                    f"50 kbit/s; 'data phase' from {start} s)", rows)
    print("\nREVERSE_PATH streams (40 B CBR) that lost packets, ccsim / ns-2.35:")
    for label, (a, b) in lost.items():
        print(f"- {label}: {a} / {b}")
    print("\nTransmissions of the unicast Vegas, ccsim against ns-2.35 (count each; the first that differs by "
          "segment or by more than 1 us):")
    for label, (na, nb, first) in same.items():
        print(f"- {label}: {na} / {nb}; " + ("identical" if first is None else f"first difference ccsim {first[0]}, "
                                             f"ns-2.35 {first[1]}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
