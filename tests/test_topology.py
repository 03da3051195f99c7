"""Generated topologies (ccsim.topology, `ccsim topology`): counts against closed forms, GT-ITM's
edge probabilities measured over many seeds against their formulas, determinism, the scenario
files they write, and a run over them with the real engine."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections import deque
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import ccsim
from ccsim import topology
from conftest import cli

SIGMAS = 4.0


def bfs_nodes(links: list[dict[str, Any]], start: str) -> set[str]:
    """Nodes reachable from ``start`` over ``[[links]]`` entries (no networkx)."""
    adj: dict[str, list[str]] = {}
    for link in links:
        a, b = link["between"]
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    seen, todo = {start}, deque([start])
    while todo:
        for w in adj.get(todo.popleft(), []):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


# --- dumbbell, parking lot, binary tree: counts and shapes -------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 17])
def test_dumbbell_counts_and_names(n: int) -> None:
    g = topology.dumbbell(n)
    assert g.number_of_nodes() == 2 * n + 2
    assert g.number_of_edges() == 2 * n + 1
    assert g.degree("r1") == n + 1 and g.degree("r2") == n + 1
    assert {f"s{i}" for i in range(1, n + 1)} | {f"d{i}" for i in range(1, n + 1)} | {"r1", "r2"} == set(g.nodes)
    links = topology.links(g)
    assert links[0] == {"between": ["r1", "r2"], "rate": "10Mbps", "delay": "20ms", "queue": "100p"}
    assert links[1] == {"between": ["s1", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"}


@pytest.mark.parametrize("k", [1, 2, 3, 9])
@pytest.mark.parametrize("cross", [True, False])
def test_parking_lot_counts_and_paths(k: int, cross: bool) -> None:
    g = topology.parking_lot(k, cross=cross, hop_rates={k: "5Mbps"})
    nodes, edges = (3 * k + 3, 3 * k + 2) if cross else (k + 3, k + 2)
    assert (g.number_of_nodes(), g.number_of_edges()) == (nodes, edges)
    assert nx.is_tree(g)
    # s0 -> d0 crosses every bottleneck: access, k router hops, access.
    assert nx.shortest_path_length(g, "s0", "d0") == k + 2
    for i in range(1, k + 1):
        rate = g.edges[f"r{i}", f"r{i + 1}"]["rate"]
        assert rate == ("5Mbps" if i == k else "10Mbps")
        if cross:
            path = nx.shortest_path(g, f"s{i}", f"d{i}")
            necks = [(a, b) for a, b in zip(path, path[1:]) if g.edges[a, b]["role"] == "bottleneck"]
            assert necks == [(f"r{i}", f"r{i + 1}")]  # a cross flow crosses its own bottleneck alone


@pytest.mark.parametrize("depth", range(2, 10))
def test_binary_tree_counts(depth: int) -> None:
    g = topology.binary_tree(depth)
    assert g.number_of_nodes() == 2**depth - 1
    assert g.number_of_edges() == 2**depth - 2
    assert nx.is_tree(g)
    assert sum(1 for v in g.nodes if g.degree(v) == 1) == 2 ** (depth - 1)  # leaves
    assert max(nx.single_source_shortest_path_length(g, "n0").values()) == depth - 1
    heap = nx.relabel_nodes(nx.balanced_tree(2, depth - 1), lambda i: f"n{i}")  # networkx numbers it the same
    assert set(map(frozenset, g.edges)) == set(map(frozenset, heap.edges))
    for i in range(1, 2**depth - 1):
        assert g.has_edge(f"n{(i - 1) // 2}", f"n{i}")  # heap order
        assert g.nodes[f"n{i}"]["level"] == nx.shortest_path_length(g, "n0", f"n{i}") + 1


@pytest.mark.parametrize("k, over", [(2, 1), (4, 1), (6, 1), (8, 1), (4, 3)])
def test_fat_tree_is_al_fares_counts_degrees_and_path_lengths(k: int, over: int) -> None:
    """Al-Fares et al. section 3.2: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2
    cores, k^3/4 hosts (times the oversubscription); every switch has k ports toward the
    fabric and hosts; hosts under one edge switch are 2 links apart, in one pod 4, across
    pods 6; and k^3/4 host-pairs can cross the core at once (the cores' k^3/4 down-links)."""
    g = topology.fat_tree(k, oversubscription=over)
    half = k // 2
    roles = [d["role"] for _, d in g.nodes(data=True)]
    hosts = over * k**3 // 4
    assert (roles.count("host"), roles.count("edge"), roles.count("aggregation"), roles.count("core")) == \
        (hosts, k * half, k * half, half * half)
    assert g.number_of_edges() == hosts + 2 * k**3 // 4
    assert [n for n, d in g.nodes(data=True) if d["role"] == "host"] == [f"h{i}" for i in range(hosts)]
    for n, d in g.nodes(data=True):
        expected = {"host": 1, "edge": half + over * half, "aggregation": k, "core": k}[d["role"]]
        assert g.degree(n) == expected, n
    per_edge = over * half
    length = nx.shortest_path_length
    assert length(g, "h0", f"h{per_edge - 1}") == 2 if per_edge > 1 else True
    if k > 2:
        assert length(g, "h0", f"h{per_edge}") == 4  # the next edge switch of pod 0
    assert length(g, "h0", f"h{hosts - 1}") == 6  # the last pod
    cores = [n for n, d in g.nodes(data=True) if d["role"] == "core"]
    assert sum(g.degree(c) for c in cores) == k**3 // 4


def test_leaf_spine_counts_and_paths() -> None:
    g = topology.leaf_spine(4, 3, 5)
    assert g.number_of_nodes() == 4 + 3 + 20 and g.number_of_edges() == 4 * 3 + 20
    assert all(g.degree(f"l{i}") == 3 + 5 for i in range(4)) and all(g.degree(f"s{i}") == 4 for i in range(3))
    assert nx.shortest_path_length(g, "h0", "h4") == 2 and nx.shortest_path_length(g, "h0", "h19") == 4


def test_a_fat_tree_runs_at_100_gbits(tmp_path: Path) -> None:
    """A k = 4 fat-tree at 100 Gbit/s and 1 us links: a flow across pods (6 links) fills its
    path; the bytes it delivers are bounded by the host link's rate."""
    text = topology.to_toml(topology.fat_tree(4), duration="20ms")
    path = tmp_path / "ft.toml"
    path.write_text(text + FLOW.format(src="h0", dst="h15").replace('"newreno"', '"cubic"')
                    + 'packet_size = "1500B"\n')
    result = ccsim.run(str(path), progress=False)
    flow = result.summary["flows"]["tcp1"]
    assert 20e9 < flow["goodput_bps"] <= 100e9 * 1460 / 1500


def test_binary_tree_random_delays_are_uniform_whole_microseconds_and_seeded() -> None:
    delays = []
    for seed in range(20):
        g = topology.binary_tree(6, delay="0ms", delay_max="10ms", seed=seed)
        for link in topology.links(g):
            assert link["delay"].endswith(("us", "ms")) or link["delay"] == "0s"
            ns = topology._ns(link["delay"])
            assert 0 <= ns <= 10_000_000 and ns % 1000 == 0
            delays.append(ns)
    mean, sd = 5_000_000, 10_000_000 / math.sqrt(12)
    assert abs(sum(delays) / len(delays) - mean) < SIGMAS * sd / math.sqrt(len(delays))
    a = topology.to_toml(topology.binary_tree(6, delay="0ms", delay_max="10ms", seed=3))
    assert a == topology.to_toml(topology.binary_tree(6, delay="0ms", delay_max="10ms", seed=3))
    assert a != topology.to_toml(topology.binary_tree(6, delay="0ms", delay_max="10ms", seed=4))


# --- Waxman (GT-ITM geo) -----------------------------------------------------------------------

def pair_outcomes(g: nx.Graph, n: int) -> list[tuple[float, bool, int | None]]:
    """(Euclidean distance, joined?, GT-ITM length) for every pair of ``n0..n(n-1)``."""
    pos = [g.nodes[f"n{i}"]["pos"] for i in range(n)]
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            d = math.dist(pos[i], pos[j])
            joined = g.has_edge(f"n{i}", f"n{j}")
            out.append((d, joined, g.edges[f"n{i}", f"n{j}"]["length"] if joined else None))
    return out


def test_waxman_places_nodes_on_distinct_grid_points() -> None:
    for seed in range(5):
        g = topology.waxman(200, scale=20, seed=seed)
        pos = [g.nodes[f"n{i}"]["pos"] for i in range(200)]
        assert len(set(pos)) == 200
        assert all(isinstance(c, int) and 0 <= c < 20 for p in pos for c in p)
    full = topology.waxman(16, scale=4, seed=1)  # n = scale^2 is allowed: every point taken
    assert {full.nodes[v]["pos"] for v in full.nodes} == {(x, y) for x in range(4) for y in range(4)}
    with pytest.raises(ccsim.SpecError, match=r"^nodes: 17 nodes do not fit on a 4 x 4 grid"):
        topology.waxman(17, scale=4)


def test_waxman_rg1_edge_probability_by_distance_matches_the_formula() -> None:
    """Method 2 (RG1): p = alpha exp(-d / (beta L)), L = sqrt(2) scale, per distance bin over
    many seeds, within 4 binomial standard deviations (the pairs are independent trials)."""
    n, scale, alpha, beta = 60, 40, 0.6, 0.15
    big_l = math.sqrt(2) * scale
    bins = 8
    count, edges, expect, var = [0] * bins, [0] * bins, [0.0] * bins, [0.0] * bins
    for seed in range(60):
        g = topology.waxman(n, scale=scale, method=2, alpha=alpha, beta=beta, seed=seed)
        for d, joined, length in pair_outcomes(g, n):
            b = min(int(d / big_l * bins), bins - 1)
            p = alpha * math.exp(-d / (beta * big_l))
            count[b] += 1
            edges[b] += joined
            expect[b] += p
            var[b] += p * (1 - p)
            if joined:
                assert length == round(d)
    checked = 0
    for b in range(bins):
        if var[b] > 25:  # enough expected edges for the normal bound
            assert abs(edges[b] - expect[b]) <= SIGMAS * math.sqrt(var[b]), (b, edges[b], expect[b])
            checked += 1
    assert checked >= 4


def test_waxman_rg2_edges_ignore_positions_and_take_a_random_length() -> None:
    """Method 1 (RG2): the distance is uniform in [0, L] for each pair, so the edge probability
    is alpha beta (1 - e^(-1/beta)) whatever the nodes' distance, and an edge's length is that
    random distance (mean beta L (1 - e^(-x)(1 + x)) / (1 - e^(-x)), x = 1/beta)."""
    n, scale, alpha, beta = 60, 40, 0.8, 0.3
    big_l = math.sqrt(2) * scale
    p = alpha * beta * (1 - math.exp(-1 / beta))
    x = 1 / beta
    mean_len = beta * big_l * (1 - math.exp(-x) * (1 + x)) / (1 - math.exp(-x))
    bins = 4
    count, edges = [0] * bins, [0] * bins
    lengths: list[int] = []
    for seed in range(40):
        g = topology.waxman(n, scale=scale, method=1, alpha=alpha, beta=beta, seed=seed)
        for d, joined, length in pair_outcomes(g, n):
            b = min(int(d / big_l * bins * 1.2), bins - 1)
            count[b] += 1
            edges[b] += joined
            if length is not None:
                lengths.append(length)
    for b in range(bins):
        assert abs(edges[b] - count[b] * p) <= SIGMAS * math.sqrt(count[b] * p * (1 - p)), (b, edges[b], count[b] * p)
    mean = sum(lengths) / len(lengths)
    sd = math.sqrt(sum((v - mean) ** 2 for v in lengths) / (len(lengths) - 1))
    assert abs(mean - mean_len) <= SIGMAS * sd / math.sqrt(len(lengths)) + 0.05, (mean, mean_len)


@pytest.mark.parametrize("alpha", [0.03, 0.2])
def test_waxman_pure_random_edge_fraction_is_alpha(alpha: float) -> None:
    n, seeds = 100, 40
    pairs = seeds * n * (n - 1) // 2
    edges = sum(topology.waxman(n, scale=50, method=3, alpha=alpha, seed=s).number_of_edges() for s in range(seeds))
    assert abs(edges - pairs * alpha) <= SIGMAS * math.sqrt(pairs * alpha * (1 - alpha))


def test_waxman_delay_is_length_times_ms_per_unit() -> None:
    for unit, scale in ((1.0, 1e6), (10.0, 1e7), (0.5, 5e5)):
        g = topology.waxman(40, scale=30, alpha=1.0, beta=0.5, seed=2, ms_per_unit=unit)
        assert g.number_of_edges() > 0
        for _, _, e in g.edges(data=True):
            assert topology._ns(e["delay"]) == round(e["length"] * scale)
            assert e["length"] == round(e["distance"]) >= 1


def test_waxman_is_deterministic_in_the_seed() -> None:
    a = topology.to_toml(topology.waxman(100, scale=50, method=3, alpha=0.03, seed=23))
    assert a == topology.to_toml(topology.waxman(100, scale=50, method=3, alpha=0.03, seed=23))
    assert a != topology.to_toml(topology.waxman(100, scale=50, method=3, alpha=0.03, seed=24))
    assert "seed = 23\n" in a


def test_waxman_reachable_component() -> None:
    for seed in range(10):
        full = topology.waxman(100, scale=50, method=3, alpha=0.02, seed=seed)
        if full.degree("n0") == 0:
            with pytest.raises(ccsim.SpecError, match="^reachable_from: n0 is in no link"):
                topology.waxman(100, scale=50, method=3, alpha=0.02, seed=seed, reachable_from="n0")
            continue
        part = topology.waxman(100, scale=50, method=3, alpha=0.02, seed=seed, reachable_from="n0")
        links = topology.links(part)
        assert bfs_nodes(links, "n0") == set(part.nodes) == nx.node_connected_component(full, "n0")
        assert part.number_of_edges() == full.subgraph(part.nodes).number_of_edges()
        assert f"# Kept the {part.number_of_nodes()} nodes reachable from n0; {100 - part.number_of_nodes()} were not." \
            in topology.to_toml(part)


def test_tcpm_parameters_give_a_connected_core_not_54_nodes() -> None:
    """TCP-M's geo 1 23 / 100 50 3 0.03 (next.md section 4): n0's component is mostly the whole
    graph (median 94 of 100 over seeds), delays within the grid's diagonal at 1 ms a unit."""
    sizes = sorted(len(nx.node_connected_component(topology.waxman(100, scale=50, method=3, alpha=0.03, seed=s),
                                                   "n0")) for s in range(41))
    assert 85 <= sizes[20] <= 99
    g = topology.waxman(100, scale=50, method=3, alpha=0.03, seed=23, reachable_from="n0")
    assert all(1 <= e["length"] <= math.ceil(50 * math.sqrt(2)) for _, _, e in g.edges(data=True))


# --- arguments ------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: topology.dumbbell(0), r"^pairs: expected a whole number from 1 to 100000, found 0$"),
    (lambda: topology.dumbbell(2.5), r"^pairs: expected a whole number"),  # type: ignore[arg-type]
    (lambda: topology.dumbbell(2, bottleneck_rate="10Mbs"), r'^bottleneck_rate: "10Mbs" is not a rate'),
    (lambda: topology.dumbbell(2, access_queue="-1p"), r"^access_queue: "),
    (lambda: topology.parking_lot(3, hop_rates={4: "1Mbps"}), r"^hop_rates: bottlenecks are numbered 1 to 3"),
    (lambda: topology.parking_lot(3, hop_rates={2: "fast"}), r"^hop_rates\[2\]: "),
    (lambda: topology.binary_tree(1), r"^depth: expected a whole number from 2 to 20, found 1$"),
    (lambda: topology.binary_tree(21), r"^depth: "),
    (lambda: topology.binary_tree(3, delay="5ms", delay_max="1ms"), r"^delay_max: must not be less than delay"),
    (lambda: topology.waxman(10, method=4), r"^method: expected 1 \(rg2\), 2 \(rg1\) or 3 \(random\), found 4$"),
    (lambda: topology.waxman(10, alpha=0.0), r"^alpha: expected a number in \(0, 1\], found 0.0$"),
    (lambda: topology.waxman(10, alpha=float("nan")), r"^alpha: expected a finite number"),
    (lambda: topology.waxman(10, beta=0.0), r"^beta: expected a number in \(0, inf\], found 0.0$"),
    (lambda: topology.waxman(10, ms_per_unit=-1.0), r"^ms_per_unit: "),
    (lambda: topology.waxman(10, seed=-1), r"^seed: expected a whole number from 0"),
    (lambda: topology.waxman(10, reachable_from="n10"), r"^reachable_from: expected a node name n0 to n9"),
    (lambda: topology.waxman(1), r"^nodes: expected a whole number from 2 to 10000, found 1$"),
    (lambda: topology.links(nx.DiGraph([(1, 2)])), r"^graph: a directed graph"),
    (lambda: topology.links(nx.path_graph(3)), r"^links\[0\]: the edge \('0', '1'\) has no 'rate' attribute"),
    (lambda: topology.scenario_dict(topology.dumbbell(1), duration="5"), r'^duration: "5" is not a duration'),
])
def test_bad_arguments_name_the_argument(call: Any, message: str) -> None:
    with pytest.raises(ccsim.SpecError, match=message):
        call()


def test_graphs_of_your_own_take_defaults() -> None:
    links = topology.links(nx.path_graph(3), rate="10Mbps", delay="5ms")
    assert links == [{"between": ["0", "1"], "rate": "10Mbps", "delay": "5ms"},
                     {"between": ["1", "2"], "rate": "10Mbps", "delay": "5ms"}]
    text = topology.to_toml(nx.path_graph(3), rate="10Mbps", delay="5ms")
    assert text.startswith(topology.MARKER + ".\n# 3 nodes, 2 links.\n")


# --- scenario files and runs ---------------------------------------------------------------------

FLOW = '\n[[flows]]\nname = "tcp1"\nprotocol = "newreno"\nfrom = "{src}"\nto = "{dst}"\n'


def test_a_generated_file_with_a_flow_runs(tmp_path: Path) -> None:
    g = topology.waxman(60, scale=40, method=3, alpha=0.08, seed=7, rate="1Mbps", reachable_from="n0")
    path = topology.write(g, tmp_path / "w.toml", duration="0.5s")
    far = max(nx.single_source_shortest_path_length(g, "n0").items(), key=lambda kv: (kv[1], kv[0]))[0]
    with path.open("a") as f:
        f.write(FLOW.format(src="n0", dst=far))
    res = ccsim.run(path, progress=False)
    flow = res.summary["flows"]["tcp1"]
    assert flow["received_packets"] > 0
    # The one-way delay is at least the propagation delay of the route, shortest by delay.
    prop = nx.shortest_path_length(g, "n0", far, weight=lambda u, v, e: topology._ns(e["delay"]))
    assert flow["mean_delay_s"] >= prop / 1e9


def test_a_tree_through_the_builder_runs() -> None:
    sc = topology.scenario(topology.binary_tree(3, delay="1ms"), duration="0.5s").flow("t", "newreno", "n3", "n6")
    res = sc.run(progress=False)
    assert res.summary["flows"]["t"]["received_packets"] > 0
    assert res.summary["flows"]["t"]["mean_delay_s"] >= 0.004  # four hops of 1 ms
    assert ccsim.validate(sc)["links"] == topology.links(topology.binary_tree(3, delay="1ms"))


def test_file_bytes_do_not_depend_on_the_process(tmp_path: Path) -> None:
    """Same arguments, two interpreters with different hash seeds: the same bytes, and the same
    as the Python API writes."""
    args = ["topology", "waxman", "--nodes", "80", "--scale", "30", "--method", "rg1", "--alpha", "0.5",
            "--beta", "0.2", "--seed", "9"]
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-m", "ccsim.cli", *args], capture_output=True, text=True,
                              timeout=120, env=env)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert outs[0] == topology.to_toml(topology.waxman(80, scale=30, method=2, alpha=0.5, beta=0.2, seed=9))
    assert "\n# ccsim topology waxman --nodes 80 --scale 30 --method 2 --alpha 0.5 --beta 0.2 --seed 9 " in outs[0]


def test_cli_writes_the_63_node_tree_that_validates(tmp_path: Path) -> None:
    out = tmp_path / "tree.toml"
    proc = cli("topology", "binary-tree", "--depth", "6", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"wrote {out} (binary-tree: 63 nodes, 62 links; add [[flows]] to it)"
    spec = ccsim.load(out)
    assert len(spec["links"]) == 62 and spec["flows"] == []
    assert len({n for link in spec["links"] for n in link["between"]}) == 63
    assert cli("validate", str(out)).returncode == 0


@pytest.mark.parametrize("args", [["fat-tree", "--k", "4", "--host-rate", "25Gbps", "--oversubscription", "2"],
                                  ["leaf-spine", "--leaves", "3", "--spines", "2", "--hosts", "4", "--delay", "2us"]])
def test_cli_fabrics_header_command_reproduces_the_file(args: list[str]) -> None:
    first = cli("topology", *args)
    assert first.returncode == 0, first.stderr
    header = first.stdout.splitlines()[1].removeprefix("# ccsim topology ").split()
    again = cli("topology", *header)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    tomllib = pytest.importorskip("tomllib")
    ccsim.validate(tomllib.loads(first.stdout))


def test_cli_header_command_reproduces_the_file(tmp_path: Path) -> None:
    out = tmp_path / "p.toml"
    proc = cli("topology", "parking-lot", "--bottlenecks", "4", "--hop-rate", "3=2Mbps", "--no-cross",
               "--duration", "10s", "--run-seed", "5", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    header = text.splitlines()[1].removeprefix("# ccsim topology ").split()
    again = cli("topology", *header)
    assert again.returncode == 0, again.stderr
    assert again.stdout == text
    assert 'duration = "10s"\nseed = 5\n' in text and 'rate = "2Mbps"' in text


def test_cli_never_replaces_a_file_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text("my notes\n")
    for extra in ([], ["--force"]):
        proc = cli("topology", "dumbbell", "--pairs", "2", "-o", str(mine), *extra)
        assert proc.returncode == 2
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("ccsim: error: output: ")
        assert mine.read_text() == "my notes\n"
    ours = tmp_path / "ours.toml"
    assert cli("topology", "dumbbell", "--pairs", "2", "-o", str(ours)).returncode == 0
    proc = cli("topology", "dumbbell", "--pairs", "3", "-o", str(ours))
    assert proc.returncode == 2 and "--force" in proc.stderr
    assert cli("topology", "dumbbell", "--pairs", "3", "-o", str(ours), "--force").returncode == 0
    assert "# 8 nodes, 7 links." in ours.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.toml", "ours.toml"]  # no temporary left


@pytest.mark.parametrize("args, line", [
    (["waxman", "--nodes", "10", "--alpha", "1.5"], "ccsim: error: --alpha: expected a number in (0, 1], found 1.5"),
    (["binary-tree", "--depth", "0"], "ccsim: error: --depth: expected a whole number from 2 to 20, found 0"),
    (["dumbbell", "--pairs", "2", "--access-delay", "5"], 'ccsim: error: --access-delay: "5" is not a duration'),
    (["parking-lot", "--bottlenecks", "2", "--hop-rate", "x"], "ccsim: error: --hop-rate: expected HOP=RATE"),
    (["parking-lot", "--bottlenecks", "2", "--hop-rate", "2=1Mbs"], 'ccsim: error: --hop-rate 2: "1Mbs" is not a rate'),
    (["waxman", "--nodes", "101", "--scale", "10"], "ccsim: error: --nodes: 101 nodes do not fit on a 10 x 10 grid"),
    (["dumbbell", "--pairs", "1", "--run-seed", "-1"], "ccsim: error: --run-seed: expected a whole number from 0"),
    (["dumbbell", "--pairs", "1", "-o", "/nonexistent-ccsim/t.toml"],
     "ccsim: error: output: cannot write /nonexistent-ccsim/t.toml: /nonexistent-ccsim does not exist"),
    (["fat-tree", "--k", "5"], "ccsim: error: --k: a fat-tree's k is even (k/2 switches and hosts per switch), found 5"),
    (["fat-tree", "--k", "50"], "ccsim: error: --k: expected a whole number from 2 to 48, found 50"),
    (["fat-tree", "--k", "4", "--host-rate", "fast"], 'ccsim: error: --host-rate: "fast" is not a rate'),
    (["leaf-spine", "--leaves", "1000", "--spines", "2", "--hosts", "1000"],
     "ccsim: error: --hosts: 1000000 hosts is more than 200000; lower leaves or hosts"),
    (["waxman", "--nodes", "5", "--reachable-from", "n0", "--alpha", "0.001"],
     "ccsim: error: --reachable-from: n0 is in no link of this graph (seed 1)"),
])
def test_cli_bad_arguments_are_one_line_and_exit_2(args: list[str], line: str) -> None:
    proc = cli("topology", *args)
    assert proc.returncode == 2
    assert proc.stderr.startswith(line) and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stdout == ""


def test_importing_ccsim_does_not_import_networkx() -> None:
    code = ("import ccsim, ccsim.cli, ccsim.topology, sys, json\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'networkx')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


@pytest.mark.parametrize("name", ["binary-tree-63", "waxman-tcpm"])
def test_examples_are_what_their_header_command_writes(name: str) -> None:
    from conftest import EXAMPLES

    text = (EXAMPLES / f"{name}.toml").read_text()
    header = text.splitlines()[1].removeprefix("# ccsim topology ").split()
    proc = cli("topology", *header)
    assert proc.returncode == 0, proc.stderr
    assert text.startswith(proc.stdout)
    spec = ccsim.load(EXAMPLES / f"{name}.toml")
    assert spec["flows"]
