"""TCP-M from Python: the builder, the experiments' topologies and trace helpers against closed
forms and hand-worked traces, the paper-form figures and Table 1, and the quick experiments
against the paper's bands (docs/experiments.md, TCP-M)."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest
from matplotlib.figure import Figure

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport
from ccsim.experiments import tcpm as t
from ccsim.experiments.base import run_many, timer_of
from conftest import assert_every_check_listed, judge_check, quick_experiment_cache, replicated_report

EXPERIMENTS = ["tcpm-single", "tcpm-two-disjoint", "tcpm-two-shared", "tcpm-unicast", "tcpm-crash", "tcpm-reroute",
               "tcpm-fastrtx", "tcpm-random", "tcpm-fusion"]


# --- the builder -------------------------------------------------------------------------------


def test_the_builder_writes_the_toml_keys() -> None:
    sc = (ccsim.Scenario(duration="5s").link("S", "R1", rate="10Mbps", delay="2ms")
          .link("R1", "D1", rate="10Mbps", delay="5ms").link("R1", "D2", rate="2Mbps", delay="10ms")
          .tcpm("m1", "S", ("D1", "D2"), protocol="vegas", fusion=["R1"], size="2MB", options={"max_window": 20}))
    [session] = sc.to_dict()["tcpm"]
    assert session == {"name": "m1", "source": "S", "receivers": ["D1", "D2"], "protocol": "vegas",
                       "fusion": ["R1"], "size": "2MB", "options": {"max_window": 20}}
    # A single receiver may be named alone, and sessions are numbered in order.
    sc.tcpm("m2", "S", "D2")
    assert sc.to_dict()["tcpm"][1]["receivers"] == ["D2"]


def test_a_bad_session_key_is_left_to_the_validator() -> None:
    sc = ccsim.Scenario(duration="1s").link("S", "D1", rate="1Mbps", delay="1ms").tcpm("m1", "S", ["D1"], fusion=7)
    with pytest.raises(ccsim.SpecError, match=r"tcpm\[0\]\.fusion"):
        sc.validate()


# --- Figure 7, reconstructed -------------------------------------------------------------------


def test_figure_7_has_ten_nodes_and_the_documented_bottlenecks() -> None:
    g = t.fig7_graph()
    assert g.number_of_nodes() == 10 and g.number_of_edges() == 10
    # EXPERIMENTS.md: R3-D4 (2 Mbit/s) and R3-D5 (3 Mbit/s) are the two sessions' bottlenecks of
    # Fig. 9a; with all five receivers R3-D4 bounds the tree, as Section 6.1 says.
    assert t.narrowest(g, "S", ["D1", "D2", "D3", "D4"]) == ("R3-D4", 2e6)
    assert t.narrowest(g, "S", ["D1", "D2", "D3", "D5"]) == ("R3-D5", 3e6)
    assert t.narrowest(g, "S", t.RECEIVERS) == ("R3-D4", 2e6)
    assert t.narrowest(g, "S", ["D4"]) == ("R3-D4", 2e6)


def test_the_alternate_link_is_on_no_shortest_path_until_r2_fails() -> None:
    g = t.fig7_graph()
    on_tree = {frozenset(e) for e in t.tree_links(g, "S", t.RECEIVERS)}
    assert frozenset(("D4", "R4")) not in on_tree and len(on_tree) == 9  # a tree spanning 10 nodes, less the link
    # Nothing from the source's side routes over D4-R4 while R2 is up.
    for a in ("S", "R1"):
        paths = nx.shortest_path(g, a, weight="delay_s")
        assert all(frozenset(("D4", "R4")) not in {frozenset(e) for e in zip(p, p[1:])} for p in paths.values())
    down = t.fig7_graph(down=("R2",))
    assert nx.shortest_path(down, "S", "D2", weight="delay_s") == ["S", "R1", "R3", "D4", "R4", "D2"]
    assert t.narrowest(down, "S", t.RECEIVERS) == ("D4-R4", 1e6)


def test_the_spec_links_are_the_graph() -> None:
    links = t.fig7_links()
    assert [tuple(link["between"]) for link in links] == [(a, b) for a, b, *_ in t.FIG7_LINKS]
    assert {link["rate"] for link in links} == {"10000kbps", "2000kbps", "3000kbps", "1000kbps"}
    assert all(link["queue"] == "50p" for link in links)


def test_payload_share_counts_the_40_byte_header() -> None:
    assert t.payload_share(1000) == 0.96 and t.payload_share(80) == 0.5


# --- the sender's sequence trace ---------------------------------------------------------------


def trace(pairs: list[tuple[float, int]]) -> t.SeqTrace:
    return t.SeqTrace(np.array([p[0] for p in pairs], dtype=float), np.array([p[1] for p in pairs], dtype=float))


# Segments 0..5 at 0.1 s apart, then 2 and 3 again (a retransmission), a pause, then 6, 7.
WORKED = trace([(0.1, 0), (0.2, 1), (0.3, 2), (0.4, 3), (0.5, 4), (0.6, 5), (0.7, 2), (0.8, 3), (2.0, 6), (2.1, 7)])


def test_new_data_leaves_out_retransmissions() -> None:
    times, seqs = WORKED.new_data()
    assert list(seqs) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert list(times) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 2.0, 2.1]
    assert WORKED.retransmitted() == {2, 3}


def test_the_longest_pause_ends_when_new_data_resumes() -> None:
    assert WORKED.longest_pause(0.55, 3.0) == (0.6, 2.0)
    # A pause that runs to the end of the window.
    assert WORKED.longest_pause(2.1, 5.0) == (2.1, 5.0)
    empty = t.SeqTrace(np.empty(0), np.empty(0))
    assert empty.longest_pause(1.0, 4.0) == (1.0, 4.0)


# --- generated topologies ----------------------------------------------------------------------


def test_the_random_graph_is_figure_13s_parameters() -> None:
    g = t.waxman_graph()
    # docs/topology.md: seed 23 keeps 94 of the 100 nodes in n0's component, 135 links.
    assert g.number_of_nodes() == 94 and g.number_of_edges() == 135
    assert nx.is_connected(g)
    assert all(d["rate"] == "100kbps" for *_, d in g.edges(data=True))
    a, b = t.slowed_link(g, "n0")
    # The slowed link is on the multicast tree: every receiver's shortest path from n0 crosses
    # it when n0 has one link (as with seed 23), and it carries the most receivers otherwise.
    timed = t._timed(g)
    crossing = sum(1 for r in g.nodes if r != "n0" and nx.shortest_path(timed, "n0", r, weight="delay_s")[1] == b)
    assert a == "n0" and crossing == max(
        sum(1 for r in g.nodes if r != "n0" and nx.shortest_path(timed, "n0", r, weight="delay_s")[1] == h)
        for h in g.neighbors("n0"))
    if g.degree("n0") == 1:
        assert crossing == g.number_of_nodes() - 1


@pytest.mark.parametrize("nodes", [63, 127])
def test_the_trees_and_their_fusion_sets(nodes: int) -> None:
    g = t.tree_graph(nodes)
    assert g.number_of_nodes() == nodes and nx.is_tree(g)
    delays = [t._timed(g).edges[e]["delay_s"] for e in g.edges]
    assert 0.0 <= min(delays) and max(delays) <= 0.010
    sets = t.fusion_sets(nodes)
    assert sets[str(nodes)] == "all" and sets["source"] == "source"
    for k in (63, 31, 15, 7):
        if k < nodes:
            # The topmost k = 2^j - 1 nodes are exactly the levels 1..j.
            levels = {g.nodes[v]["level"] for v in sets[str(k)]}
            assert len(sets[str(k)]) == k and levels == set(range(1, int(math.log2(k + 1)) + 1))
    # Half the nodes (rounded down) are every node that is not a leaf: why the paper's 63 and 31
    # columns (127 and 63) are equal.
    assert set(sets[str(nodes // 2)]) == {v for v in g.nodes if g.degree(v) > 1 or v == "n0"}
    leaf = t.farthest_leaf(g)
    lengths = nx.single_source_dijkstra_path_length(t._timed(g), "n0", weight="delay_s")
    assert g.degree(leaf) == 1 and lengths[leaf] == max(lengths[v] for v in g.nodes if g.degree(v) == 1)


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_run_of_the_quick_and_full_variants_is_a_valid_scenario(name: str) -> None:
    e = REGISTRY[name]
    for quick in (True, False):
        specs = e.specs(quick)  # type: ignore[attr-defined]
        assert specs
        for spec in specs.values():
            assert spec["run"]["duration"] == f"{e.duration(quick):g}s"  # type: ignore[attr-defined]
            canonical = ccsim.validate(spec)
            assert canonical["output"]["trace"] == ["seq"]


def test_the_fusion_runs_cover_table_1() -> None:
    e = REGISTRY["tcpm-fusion"]
    assert sorted(e.specs(True)) == ["63-15", "63-31", "63-63", "63-7", "63-source", "63-unicast"]  # type: ignore[attr-defined]
    full = e.specs(False)  # type: ignore[attr-defined]
    assert len(full) == 6 + 7
    spec = full["127-31"]
    [session] = spec["tcpm"]
    assert session["fusion"] == [f"n{i}" for i in range(31)] and len(session["receivers"]) == 126
    assert session["packet_size"] == "80B" and session["options"] == {"max_window": 20, "vegas": {"variant": "ns2"}}


def test_ns2_vegas_fills_the_slow_link_alone_but_not_behind_the_fused_acks() -> None:
    """The cause of tcpm-random's 50 kbit/s shortfall under ns-2's Vegas: the same Vegas alone
    on the slow path to the farthest receiver behind it fills the link; the session does not."""
    import networkx as nx

    e = REGISTRY["tcpm-random"]
    g = t.waxman_graph()
    _, hop = t.slowed_link(g, "n0")
    h = t._timed(g)
    paths = nx.single_source_dijkstra_path(h, "n0", weight="delay_s")
    far = max((n for n in paths if len(paths[n]) > 1 and paths[n][1] == hop), key=lambda n: (len(paths[n]), n))
    with timer_of(e):
        session = e.specs(True)["slow-link"]  # type: ignore[attr-defined]
        alone = {k: v for k, v in session.items() if k != "tcpm"}
        alone["flows"] = [t.unicast("u", "n0", far)]
        alone["output"] = {"interval": "1s", "series": ["rate"]}
        multicast, unicast = run_many([session, alone], jobs=2)
    payload = 50e3 * 960 / 1000

    def late(res: ccsim.Result, name: str) -> float:
        rate = res.wide("rate")[name]
        return float(rate[rate.index > 30].mean()) / payload

    assert late(unicast, "u") > 0.95
    assert late(multicast, "m1") < 0.85


def test_tcpm_crash_bands_catch_a_receiver_that_reports_its_path_too_often() -> None:
    """The tightened bands of tcpm-crash (from the paper's 2.0235 s) fail for a plausible wrong
    implementation that the old ones ([2.0, 3.05] and [2.0, 3.1] s) let through: receivers that
    send REVERSE_PATH every 0.5 s instead of every RCVR_TMOUT = 1 s."""
    e = REGISTRY["tcpm-crash"]
    with timer_of(e):
        right, wrong = run_many([e.specs(True)["run"], e.specs(True, rcvr_timeout="0.5s")["run"]], jobs=2)  # type: ignore[attr-defined]

    def reported(res: ccsim.Result) -> float:
        return max(f["at_s"] for f in res.summary["tcpm"]["m1"]["failures"] if f["receiver"] in {"D4", "D5"})

    def resumed(res: ccsim.Result) -> float:  # as the experiment measures it
        trace = t.SeqTrace.of(res, "m1")
        times, _ = trace.new_data()
        return trace.longest_pause(e.crash, float(times.max()))[1]  # type: ignore[attr-defined]

    low, high = e.reported_band  # type: ignore[attr-defined]
    assert low <= reported(right) <= high
    assert high < reported(wrong) <= 3.05, reported(wrong)
    low, high = e.resumed_band  # type: ignore[attr-defined]
    assert low <= resumed(right) <= high
    assert high < resumed(wrong) <= 3.1, resumed(wrong)


# --- a session end to end ----------------------------------------------------------------------


def small_transfer(size: int) -> ccsim.Scenario:
    sc = ccsim.Scenario(duration="10s")
    for a, b, rate, delay in t.FIG7_LINKS:
        sc.link(a, b, rate=f"{rate / 1e3:g}kbps", delay=f"{delay:g}ms", queue="50p")
    sc.tcpm("m1", "S", t.RECEIVERS, protocol="vegas", size=f"{size}B", options={"max_window": 20})
    return sc.output(trace="seq", series="rate")


def test_a_finite_session_sends_every_segment_once_and_every_receiver_confirms() -> None:
    size = 100_000
    res = small_transfer(size).run()
    s = res.summary["tcpm"]["m1"]
    assert sorted(s["completed"]) == t.RECEIVERS and s["failed"] == []
    assert s["acked_bytes"] == size and s["completion_s"] is not None
    trace = t.SeqTrace.of(res, "m1")
    # ceil(100 000 / 960) = 105 segments, 0..104, each sent once on a path that loses nothing.
    assert list(trace.seqs) == list(range(105)) and s["retransmissions"] == 0
    assert np.all(np.diff(trace.times) >= 0)


def test_the_same_experiment_run_twice_gives_the_same_trace() -> None:
    spec = REGISTRY["tcpm-crash"].specs(True)["run"]  # type: ignore[attr-defined]
    a, b = ccsim.run(spec), ccsim.run(spec)
    assert a.summary["tcpm"] == b.summary["tcpm"]
    ta, tb = t.SeqTrace.of(a, "m1"), t.SeqTrace.of(b, "m1")
    assert np.array_equal(ta.times, tb.times) and np.array_equal(ta.seqs, tb.seqs)


# --- figures and Table 1 from synthetic traces -------------------------------------------------


def test_the_sequence_figure_labels_every_reference_line_and_ends_with_the_data(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    saved: list[Figure] = []
    original = Figure.savefig

    def keep(self: Figure, *args: Any, **kwargs: Any) -> None:
        saved.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    panels = [t.Panel("all", [t.Curve("TCP-M", WORKED)], [(1.0, "R3 crashes")],
                      [t.rate_line(WORKED, 960 * 8 * 10, 960, "10 segments/s")]),
              t.Panel("zoom", [t.Curve("TCP-M", WORKED)], [], [], window=(0.5, 1.0))]
    path = t.sequence_figure(tmp_path / "seq.png", "worked", panels)
    assert path.stat().st_size > 5_000
    [fig] = saved
    ax_all, ax_zoom = fig.axes[:2]
    assert ax_all.get_xlim() == (0.0, 2.1)  # the last transmission
    assert ax_zoom.get_xlim() == (0.5, 0.8)  # the last transmission in the window
    legend = ax_all.get_legend()
    assert legend is not None
    assert {text.get_text() for text in legend.get_texts()} == {"TCP-M", "R3 crashes", "10 segments/s"}
    # The reference line rises 10 segments a second from the first transmission.
    ref = [ln for ln in ax_all.lines if ln.get_label() == "10 segments/s"][0]
    (x0, x1), (y0, y1) = np.asarray(ref.get_xdata(), dtype=float), np.asarray(ref.get_ydata(), dtype=float)
    assert (y1 - y0) / (x1 - x0) == pytest.approx(10.0)


def test_table_1_lists_the_paper_beside_the_measured() -> None:
    kbps = {(63, c): v for c, v in {"63": 70.0, "31": 70.0, "15": 69.0, "7": 20.0, "source": 1.0,
                                    "unicast": 71.0}.items()}
    text = t.table1_markdown(kbps, [63], 60.0)
    rows = {line.split("|")[2].strip(): [c.strip() for c in line.split("|")[3:-1]]
            for line in text.splitlines() if line.startswith("| 63 ")}
    assert rows["paper"] == ["-", "173.2", "173.2", "164.5", "18.74", "1.59", "174.3"]
    assert rows["measured"] == ["-", "70", "70", "69", "20", "1", "71"]


# --- the quick experiments against the paper ---------------------------------------------------

# Each check of each quick experiment, by the start of its name. Those that do not reproduce
# are strict xfails with the measured value and the cause found (docs/experiments.md, TCP-M):
# one turns into a failure the day it reproduces.
REPRODUCED = {
    ("tcpm-single", "throughput / payload rate of the narrowest tree link"),
    ("tcpm-single", "fused ACKs at the source"),
    ("tcpm-single", "receivers reported failed"), ("tcpm-single", "throughput against the paper's"),
    ("tcpm-two-disjoint", "s1 throughput"), ("tcpm-two-disjoint", "s2 throughput"),
    ("tcpm-two-disjoint", "s1: receivers"), ("tcpm-two-disjoint", "s2: receivers"),
    ("tcpm-two-shared", "s1 / half"), ("tcpm-two-shared", "s2 / half"), ("tcpm-two-shared", "s1 + s2"),
    ("tcpm-two-shared", "s1: receivers"), ("tcpm-two-shared", "s2: receivers"),
    ("tcpm-unicast", "TCP-M + unicast"),
    ("tcpm-unicast", "receivers reported failed"),
    ("tcpm-crash", "receivers reported failed"), ("tcpm-crash", "of those, D4 or D5"),
    ("tcpm-crash", "failure of D4 and D5 reported at"), ("tcpm-crash", "new data resumes at"),
    ("tcpm-crash", "receivers that confirmed"),
    ("tcpm-reroute", "receivers reported failed"), ("tcpm-reroute", "longest pause"),
    ("tcpm-fastrtx", "segments 333..337"), ("tcpm-fastrtx", "receivers reported failed"),
    # Since the sessions embed ns-2's Vegas (issue 25): no timeout, and the rate continues (1.00).
    ("tcpm-fastrtx", "timeouts"), ("tcpm-fastrtx", "rate from 1 s after the losses"),
    ("tcpm-fastrtx", "ours, fused duplicates: rate from 1 s after the losses"),
    ("tcpm-random", "ours, fused duplicates, 100kbps: rate over the last"),
    ("tcpm-random", "100kbps: receivers reported failed"),
    # Reproduced since the sessions run the 1998 ns-2 timer (issue 25): before, with a 1 s first
    # timeout and an RTO 1 ns above SRTT, segment 0 timed out before its 1.3 s round trip ended and
    # the spurious retransmissions fed the fast-retransmit cycle (0.48-0.81 of the payload rate).
    ("tcpm-random", "100kbps: throughput"),
    ("tcpm-random", "100kbps: rate over the last"),
    ("tcpm-random", "ours, fused duplicates, 100kbps: throughput"),
    ("tcpm-fusion", "63 nodes: 63 FNs / unicast"), ("tcpm-fusion", "63 nodes: 31 FNs / 63 FNs"),
    ("tcpm-fusion", "63 nodes: 15 FNs / unicast"), ("tcpm-fusion", "63 nodes: source-only FNs / unicast"),
    ("tcpm-fusion", "63 nodes, source-only: receivers timed out"),
    ("tcpm-fusion", "63 nodes, all FNs: largest ack-table"), ("tcpm-fusion", "63 nodes, source only: largest ack-table"),
}
# The cycle of spurious fast retransmits that three of these share: a retransmission is multicast
# to every receiver; those that hold the segment answer with duplicate ACKs, which each fusion
# node forwards (Figure 4: 0 < duplicate <= MAX_DUPLICATE), so three or more reach the sender,
# which fast-retransmits a segment nobody lost, whose copies make the next duplicates. The rows
# "ours, fused duplicates" rerun the set-up with duplicate_rule = "fused" (docs/protocols.md).
# ns-2's Vegas takes the mean of a round's RTT samples (tcp-vegas.cc: v_sumRTT_ / v_cntRTT_). Every
# receiver's REVERSE_PATH (40 B, once a second) crosses the slow link n90 -> n0, 29.8 kbit/s of
# 50, in a burst each second; the fused ACKs queue behind it, the round's mean RTT is 1.554 s
# against a BaseRTT of 1.333 s (the slowest receiver, n52), and the session holds 7 segments, 0.72
# of the slow link. Traced against ns-2.35's own Agent/TCP/Vegas (validation/ns2/vegas-tcpm/,
# issue 41): on n52's path alone both fill the link (0.997 / 1.003); with the REVERSE_PATH
# streams replayed on their paths both hold 7 segments and 0.747 / 0.747. With REVERSE_PATHs ten
# times rarer ccsim's session reaches 0.992.
ROUND_MEAN = ("ns-2's Vegas averages a round's RTT samples, and the fused ACKs queue behind the burst of every "
              "receiver's REVERSE_PATH that crosses the slow link each second, so it holds 7 segments; ns-2.35's own "
              "Vegas on the same path with the same REVERSE_PATH streams holds the same (0.747 / 0.747; "
              "validation/ns2/vegas-tcpm) and fills the link alone (test_ns2_vegas_fills_the_slow_link_alone_but_not_"
              "behind_the_fused_acks)")
CYCLE = ("a cycle of spurious fast retransmits (receivers holding a retransmitted segment send duplicate ACKs, "
         "which fusion nodes forward)")
UNICAST_SPLIT = ("inconclusive over five replicas whose starts are jittered within 100 ms (issue 41): the split "
                 "between the session and the unicast Vegas is bimodal, 1.07 / 0.93 or 0.67-0.71 / 1.29-1.33 of half "
                 "the link, by the start (validation/start_shift.py)")
NOT_YET = {
    ("tcpm-unicast", "TCP-M / half"): f"0.92 [0.66, 1.17] (band [0.75, 1.25]): {UNICAST_SPLIT}",
    ("tcpm-unicast", "unicast / half"): f"1.09 [0.83, 1.35] (band [0.75, 1.25]): {UNICAST_SPLIT}",
    # Under ns-2's Vegas (issue 25), each cause found by a run.
    ("tcpm-reroute", "rate after the crash"):
        f"0.40 of D4-R4's payload rate (0.51 with the Linux-style Vegas and {CYCLE}): BaseRTT stays the old "
        "path's 39.9 ms; ns-2's Vegas measures it afresh only when a sample is lower or a round sends at most "
        "one segment (tcp-vegas.cc), so with 99.3 ms on the new path delta = 5 - 5 x 39.9 / 99.3 = 3 = beta "
        "holds cwnd at 5 segments; ns-2.35's own Vegas keeps the old BaseRTT the same way on Figure 7 with R2 "
        "down (validation/ns2/vegas-tcpm: 0.174 / 0.174, identical transmissions)",
    ("tcpm-reroute", "ours, fused duplicates: rate after the crash"):
        "0.40 (0.33 with the Linux-style Vegas): the same BaseRTT held from the old path",
    **{("tcpm-random", k): f"{v}: {ROUND_MEAN}"
       for k, v in (("50kbps: throughput", "0.667"), ("50kbps: rate over the last", "0.72"),
                    ("ours, fused duplicates, 50kbps: throughput", "0.667"),
                    ("ours, fused duplicates, 50kbps: rate over the last", "0.72"))},
    ("tcpm-random", "50kbps: receivers reported failed"):
        "1: receiver n89 behind the slow link falls silent for TCP-M_TMOUT five times (its REVERSE_PATHs lost "
        "at n90 -> n0, where they arrive last in the burst of every receiver's REVERSE_PATH and find the 50-packet "
        "queue full) and is reported failed at 15.5 s; from 13.4 s the fused ACKs leave n90 at the same instants "
        "each second, every one of its REVERSE_PATHs is dropped there, and the source revives a receiver only on "
        "a REVERSE_PATH (traced: validation/ns2/vegas-tcpm/README.md). A reporting failure: the tree still "
        "counts n89",
    ("tcpm-fusion", "63 nodes: unicast Vegas"):
        "70.2 kbit/s: 20 segments of 40 B per 91 ms round trip to the farthest leaf; the paper's 174.3 "
        "implies a 37 ms round trip",
    ("tcpm-fusion", "63 nodes: 7 FNs / unicast"):
        "0.67: Vegas settles, without losses, where the busiest ACK link is full: 500 kbit/s over 7 ACKs "
        "of 60 B a segment is 47.6 kbit/s of payload (measured 47.1); the paper's collapse came with drops",
}

#: Values reported without a band (issue 41), with the value measured: the paper states no claim
#: they could be held to. tcpm-fastrtx's text claims only "TCP-M retransmits packets 333 through
#: 337 and after a brief period the data transfer continues as before" (no timeout, the five
#: segments and the rate are banded); ns-2's Vegas also resends 348, 350, 355, 362, 369, 375 and
#: 381 by its fine-grained check (each 38-48 ms after it left; the fused rule resends 338 alone).
#: tcpm-random's "all 54 reachable nodes" is one draw of GT-ITM's generator: G(100, 0.03) keeps
#: about 94 nodes in n0's component (docs/topology.md).
UNBANDED = {
    ("tcpm-fastrtx", "other segments retransmitted"): 7,
    ("tcpm-fastrtx", "ours, fused duplicates: other segments retransmitted"): 1,
    ("tcpm-random", "receivers reachable"): 93,
}


@cache
def drawn(name: str, out: str) -> tuple[ExperimentReport, tuple[Figure, ...]]:
    """The quick variant's report and the figures it saved (kept open for inspection)."""
    saved: list[Figure] = []
    original = Figure.savefig

    def keep(self: Figure, *args: Any, **kwargs: Any) -> None:
        saved.append(self)
        original(self, *args, **kwargs)

    Figure.savefig = keep  # type: ignore[method-assign]
    try:
        with quick_experiment_cache(cached_figures=False):  # drawn here, where savefig is watched
            report = REGISTRY[name].run(Path(out), quick=True, jobs=2)
    finally:
        Figure.savefig = original  # type: ignore[method-assign]
    return report, tuple(saved)


@cache
def quick_report(name: str, out: str) -> ExperimentReport:
    # An experiment judged over jittered replicas (tcpm-unicast, issue 41) as `ccsim reproduce`
    # judges it; the others run one trajectory.
    if REGISTRY[name].jitter is not None:
        return replicated_report(name, Path(out))  # type: ignore[no-any-return]
    return drawn(name, out)[0]


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tcpm")


@pytest.mark.parametrize("name,check", sorted(REPRODUCED | set(NOT_YET) | set(UNBANDED)))
def test_quick_tcpm_experiment_check(name: str, check: str, out_dir: Path) -> None:
    judge_check(quick_report(name, str(out_dir / name)), name, check, NOT_YET)


@pytest.mark.parametrize("name,check", sorted(UNBANDED))
def test_values_the_paper_states_no_claim_for_are_reported_without_a_band(name: str, check: str,
                                                                         out_dir: Path) -> None:
    report = quick_report(name, str(out_dir / name))
    (c,) = [c for c in report.checks if c.name.startswith(check)]
    assert not c.banded and c.verdict == "measured (no band)" and c.band == "none"
    assert c.measured == UNBANDED[(name, check)]
    # It counts neither way: the experiment's verdict is its banded checks'.
    assert report.verdict == ("reproduced" if all(x.passed for x in report.checks if x.banded) else "not reproduced")


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_check_is_listed_and_every_figure_written(name: str, out_dir: Path) -> None:
    report = quick_report(name, str(out_dir / name))
    assert_every_check_listed(report, name, REPRODUCED | set(NOT_YET) | set(UNBANDED))
    assert report.figures and all(f.stat().st_size > 10_000 for f in report.figures)
    assert (out_dir / name / "run" / "summary.json").exists() or name == "tcpm-fusion"


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_figures_keep_the_house_rules(name: str, out_dir: Path) -> None:
    # tests/test_figures.py's rules: every reference line in a legend, a time axis from 0 or its
    # window's start to the last point drawn.
    _, figures = drawn(name, str(out_dir / name))
    assert figures
    for fig in figures:
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            data = [ln for ln in ax.lines if ln.get_transform() == ax.transData]
            legend = ax.get_legend()
            assert legend is not None, name
            assert {ln.get_label() for ln in ax.lines} <= {text.get_text() for text in legend.get_texts()}, name
            xs = np.concatenate([np.asarray(ln.get_xdata(), dtype=float) for ln in data])
            lo, hi = ax.get_xlim()
            assert hi == pytest.approx(xs.max(), abs=1e-9) and 0 <= lo <= xs.min(), (name, ax.get_title())
            assert ax.get_ylabel() == "packet sequence number" and ax.get_xlabel() == "time (s)"


def test_every_tcpm_experiment_is_registered() -> None:
    assert [n for n in REGISTRY if n.startswith("tcpm")] == EXPERIMENTS
