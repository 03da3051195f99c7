"""Datacenter fabrics (docs/datacenter.md): equal-cost multipath routing over a fat-tree, its
balance against the binomial spread a fair hash gives, its determinism, and its behaviour under a
failure; the checks are counts against closed forms and conservation, not recorded numbers."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import ccsim
from ccsim import topology
from conftest import cli

SIGMAS = 4.0


def fat_tree_file(tmp_path: Path, multipath: str | None, flows: list[tuple[str, str]], *, seed: int = 1,
                  duration: str = "20ms", extra: str = "", rate: str = "10Gbps") -> Path:
    """A k = 4 fat-tree scenario with one 1 Mbit/s CBR flow per (source, destination) pair."""
    text = topology.to_toml(topology.fat_tree(4, rate=rate), duration=duration, seed=seed)
    if multipath is not None:
        text = text.replace("[run]\n", f'[run]\nmultipath = "{multipath}"\n', 1)
    for i, (src, dst) in enumerate(flows):
        text += f'\n[[flows]]\nname = "f{i}"\nprotocol = "cbr"\nfrom = "{src}"\nto = "{dst}"\nrate = "1Mbps"\n'
    path = tmp_path / f"ft-{multipath}-{seed}.toml"
    path.write_text(text + extra)
    return path


def inter_pod_pairs(n: int) -> list[tuple[str, str]]:
    """``n`` flows from the hosts of pod 0 (h0..h3) to hosts of pods 1-3 (h4..h15)."""
    return [(f"h{i % 4}", f"h{4 + (i * 7 + i // 12) % 12}") for i in range(n)]


def test_ecmp_routes_are_shortest_paths_spread_over_the_cores_as_a_fair_die(tmp_path: Path) -> None:
    """Every inter-pod flow's route is one of the k^2/4 = 4 shortest (6-link) paths of the
    fat-tree, and the number of flows through each core switch is binomial(n, 1/4)."""
    n = 800
    result = ccsim.run(str(fat_tree_file(tmp_path, "ecmp", inter_pod_pairs(n))), progress=False)
    g = topology.fat_tree(4)
    cores: Counter[str] = Counter()
    for name, row in result.summary["flows"].items():
        route = row["route"].split()
        assert len(route) == 7 and row["paths"] == 4, (name, row["route"])
        assert all(g.has_edge(a, b) for a, b in zip(route, route[1:]))
        assert route[3].startswith("c")
        cores[route[3]] += 1
    assert set(cores) == {"c0", "c1", "c2", "c3"}
    sd = math.sqrt(n * 0.25 * 0.75)
    for core, count in cores.items():
        assert abs(count - n / 4) < SIGMAS * sd, (core, cores)
    # The hash is per flow: the packets a core switch forwarded are exactly those its flows
    # delivered (the flows start together, so some packets are lost at the hosts' queues,
    # before the core; none after it).
    links = result.summary["links"]
    for core in cores:
        delivered = sum(row["received_packets"] for row in result.summary["flows"].values()
                        if row["route"].split()[3] == core)
        into = sum(row["tx_packets"] for ln, row in links.items() if ln.endswith(f"->{core}"))
        out = sum(row["tx_packets"] for ln, row in links.items() if ln.startswith(f"{core}->"))
        assert into == out == delivered > 0


def test_flows_within_an_edge_switch_have_one_path_and_within_a_pod_two(tmp_path: Path) -> None:
    """Path counts are the fat-tree's closed forms: 1 under one edge switch, k/2 within a pod,
    (k/2)^2 across pods."""
    pairs = [("h0", "h1"), ("h0", "h2"), ("h0", "h9")]
    result = ccsim.run(str(fat_tree_file(tmp_path, "ecmp", pairs)), progress=False)
    rows = result.summary["flows"]
    assert [rows[f"f{i}"]["paths"] for i in range(3)] == [1, 2, 4]
    assert [len(rows[f"f{i}"]["route"].split()) for i in range(3)] == [3, 5, 7]


def test_spray_spreads_packets_over_the_core_links(tmp_path: Path) -> None:
    """Per-packet spraying: each of the 4 aggregation-to-core links of pod 0 carries a
    binomial(total, 1/4) share of the packets leaving the pod, and no flow reports one route."""
    result = ccsim.run(str(fat_tree_file(tmp_path, "spray", inter_pod_pairs(100), duration="300ms")),
                       progress=False)
    up = {ln: row["tx_packets"] for ln, row in result.summary["links"].items()
          if ln.startswith("p0a") and "->c" in ln}
    total = sum(up.values())
    assert len(up) == 4 and total > 3000
    sd = math.sqrt(total * 0.25 * 0.75)
    for ln, count in up.items():
        assert abs(count - total / 4) < SIGMAS * sd, up
    for row in result.summary["flows"].values():
        assert "route" not in row and row["paths"] == 4


def test_single_path_is_the_default_and_reports_no_route(tmp_path: Path) -> None:
    result = ccsim.run(str(fat_tree_file(tmp_path, None, inter_pod_pairs(40))), progress=False)
    used = [ln for ln, row in result.summary["links"].items() if "->c" in ln and row["tx_packets"] > 0]
    assert used == ["p0a0->c0"], used
    assert all("route" not in row and "paths" not in row for row in result.summary["flows"].values())
    assert "multipath" not in result.spec["run"] or result.spec["run"]["multipath"] == "none"


def test_ecmp_is_deterministic_and_its_salt_follows_the_seed(tmp_path: Path) -> None:
    pairs = inter_pod_pairs(60)

    def routes(seed: int) -> list[str]:
        rows = ccsim.run(str(fat_tree_file(tmp_path, "ecmp", pairs, seed=seed)), progress=False).summary["flows"]
        return [rows[f"f{i}"]["route"] for i in range(len(pairs))]

    first = routes(1)
    assert routes(1) == first
    assert routes(2) != first


def test_ecmp_moves_flows_off_a_failed_core_link_and_conserves_packets(tmp_path: Path) -> None:
    """A core link fails at 5 ms with instant rerouting: after it, no packet crosses it, the
    flows that used it keep delivering over the other equal-cost paths, and every packet sent
    is delivered, dropped or still in the network."""
    pairs = inter_pod_pairs(80)
    events = ('\n[[events]]\nat = "5ms"\nlink = ["p0a0", "c0"]\nstate = "down"\n')
    path = fat_tree_file(tmp_path, "ecmp", pairs, extra=events, duration="20ms")
    text = path.read_text().replace("[run]\n", '[run]\nreroute = "instant"\n', 1)
    path.write_text(text)
    result = ccsim.run(str(path), progress=False)
    flows = result.summary["flows"]
    via_c0 = [f for f, row in flows.items() if row["route"].split()[3] == "c0" and row["route"].split()[2] == "p0a0"]
    assert via_c0, "some flow hashes onto p0a0->c0 at the start"
    delivered = {name: row["received_packets"] for name, row in flows.items()}
    # 1 Mbit/s of 1000 B packets for 20 ms is 2.5 packets: a flow cut off at 5 ms would have
    # delivered at most one.
    for f in via_c0:
        assert delivered[f] >= 2, (f, flows[f])
    link = result.summary["links"]["p0a0->c0"]
    assert link["drops_by_reason"].get("link_down", 0) <= link["tx_packets"] + 1
    sent = sum(row["sent_packets"] for row in flows.values())
    lost = sum(row["lost_packets"] for row in flows.values())
    assert sum(delivered.values()) + lost <= sent
    assert sent - sum(delivered.values()) - lost <= len(flows) * 2


@pytest.mark.parametrize("value", ["ECMP", "hash", 1])
def test_a_bad_multipath_value_is_one_spec_error(tmp_path: Path, value: Any) -> None:
    path = fat_tree_file(tmp_path, None, [("h0", "h5")])
    shown = f'"{value}"' if isinstance(value, str) else str(value)
    path.write_text(path.read_text().replace("[run]\n", f"[run]\nmultipath = {shown}\n", 1))
    with pytest.raises(ccsim.SpecError, match=r"run\.multipath"):
        ccsim.run(str(path), progress=False)


def test_the_path_count_matches_networkx(tmp_path: Path) -> None:
    """The reported count of equal-cost paths is networkx's count of shortest paths on a
    leaf-spine fabric (every leaf pair: one path per spine)."""
    g = topology.leaf_spine(4, 3, 2, rate="10Gbps")
    text = topology.to_toml(g, duration="5ms").replace("[run]\n", '[run]\nmultipath = "ecmp"\n', 1)
    pairs = [("h0", "h1"), ("h0", "h2"), ("h0", "h7")]
    for i, (src, dst) in enumerate(pairs):
        text += f'\n[[flows]]\nname = "f{i}"\nprotocol = "cbr"\nfrom = "{src}"\nto = "{dst}"\nrate = "1Mbps"\n'
    path = tmp_path / "ls.toml"
    path.write_text(text)
    rows = ccsim.run(str(path), progress=False).summary["flows"]
    for i, (src, dst) in enumerate(pairs):
        assert rows[f"f{i}"]["paths"] == len(list(nx.all_shortest_paths(g, src, dst)))


# --- Workloads: [[traffic]] kind = "flows" ------------------------------------------------------

def workload_file(tmp_path: Path, body: str, *, duration: str = "20ms", rate: str = "10Gbps", delay: str = "2us",
                  multipath: str = "ecmp", name: str = "wl.toml") -> Path:
    """A k = 4 fat-tree (16 hosts) with multipath routing and one workload generator."""
    text = topology.to_toml(topology.fat_tree(4, rate=rate, delay=delay), duration=duration)
    text = text.replace("[run]\n", f'[run]\nmultipath = "{multipath}"\n', 1)
    path = tmp_path / name
    path.write_text(text + '\n[[traffic]]\nname = "dc"\nkind = "flows"\nhosts = "all"\nprotocol = "dctcp"\n' + body)
    return path


def generated(result: ccsim.Result) -> Any:
    """The generated flows' rows, with their sender and receiver read off their routes."""
    df = result.flows()
    df = df[df.generator == "dc"].copy()
    df["src"] = df.route.str.split().str[0]
    df["dst"] = df.route.str.split().str[-1]
    return df


def segment_cdf_moments(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Mean and second moment of a piecewise-linear CDF (uniform between its points)."""
    m1 = m2 = 0.0
    for (a, p), (b, q) in zip(points, points[1:]):
        w = (q - p) / 100
        m1 += w * (a + b) / 2
        m2 += w * (a * a + a * b + b * b) / 3
    return m1, m2


def test_offered_load_is_the_target_fraction_of_the_host_links(tmp_path: Path) -> None:
    """Arrivals are Poisson at load * sum(host rates) / (8 * mean size): the flows started in
    the run and their bytes are within 4 standard deviations of what that rate offers (a
    compound Poisson sum: variance = rate * duration * E[size^2])."""
    points = [(0.0, 0.0), (10_000.0, 50.0), (20_000.0, 100.0)]
    load, duration, hosts, rate = 0.1, 0.01, 16, 10e9
    path = workload_file(tmp_path, f"sizes = {[list(p) for p in points]}\nload = {load}\n", duration="10ms")
    summary = ccsim.run(str(path), progress=False).summary["traffic"]["dc"]
    mean, second = segment_cdf_moments(points)
    per_second = load * hosts * rate / 8 / mean
    expected = per_second * duration
    assert abs(summary["started"] - expected) < SIGMAS * math.sqrt(expected), (summary["started"], expected)
    target_bytes = load * hosts * rate / 8 * duration
    sd = math.sqrt(expected * second)
    assert abs(summary["bytes_started"] - target_bytes) < SIGMAS * sd, (summary["bytes_started"], target_bytes)


def test_alone_completion_time_is_the_closed_form_on_an_idle_path(tmp_path: Path) -> None:
    """At a load so light that flows seldom meet, one-segment flows complete in one data
    packet's and one acknowledgement's crossing of the 6 links between pods: per hop the
    propagation delay and the serialisation rounded up to the nanosecond (the engine's
    clock). The run's own FCT, the empty-network FCT (slowdown 1) and the formula agree."""
    path = workload_file(tmp_path, "sizes = [[0, 0], [1000, 100]]\nload = 0.001\n")
    df = generated(ccsim.run(str(path), progress=False))
    inter_pod = df[df.route.str.split().str.len() == 7]
    assert len(inter_pod) > 200
    header, rate_bps, delay_ns = 40, 10e9, 2000

    def serialisation(nbytes: float) -> int:
        return math.ceil(nbytes * 8 * 1e9 / rate_bps)

    alone = 0
    for _, row in inter_pod.iterrows():
        predicted = 6 * (delay_ns + serialisation(row.size_bytes + header)) + 6 * (delay_ns + serialisation(header))
        assert abs(row.completion_time_s / row.slowdown * 1e9 - predicted) < 0.01, row
        if row.slowdown == 1.0:
            assert round(row.completion_time_s * 1e9) == predicted, row
            alone += 1
        else:
            assert row.slowdown > 1.0, row
    # A few flows meet another at a host link; most cross the fabric alone.
    assert alone > 0.9 * len(inter_pod)


def test_the_cached_alone_time_is_the_flow_run_alone(tmp_path: Path) -> None:
    """The empty-network completion time of generated flows (cached by path class and size)
    equals a fresh run of the same transfer alone on the same fabric as a [[flows]] entry."""
    path = workload_file(tmp_path, 'sizes = "websearch"\nload = 0.3\n', duration="10ms")
    df = generated(ccsim.run(str(path), progress=False))
    done = df[df.slowdown.notna()].sort_values("size_bytes")
    assert len(done) > 20 and (done.slowdown > 1.5).any()
    picks = done.iloc[[0, len(done) // 2, -1]]
    for name, row in picks.iterrows():
        ideal_ns = row.completion_time_s / row.slowdown * 1e9
        text = topology.to_toml(topology.fat_tree(4, rate="10Gbps", delay="2us"), duration="1s")
        text = text.replace("[run]\n", '[run]\nmultipath = "ecmp"\n', 1)
        text += (f'\n[[flows]]\nname = "alone"\nprotocol = "dctcp"\nfrom = "{row.src}"\nto = "{row.dst}"\n'
                 f'size = "{int(row.size_bytes)}B"\npacket_size = "1500B"\n')
        alone = tmp_path / "alone.toml"
        alone.write_text(text)
        fct = ccsim.run(str(alone), progress=False).summary["flows"]["alone"]["completion_time_s"]
        assert abs(fct * 1e9 - ideal_ns) < 1.0, (name, fct * 1e9, ideal_ns)


def test_slowdown_buckets_are_hpccs_fct_analysis(tmp_path: Path) -> None:
    """summary.json's buckets are HPCC's fct_analysis.py cut (flows sorted by size, ties by
    slowdown, 5 % of them
    a bucket, the value at index int(n p) of the sorted slowdowns) recomputed from the rows of
    flows.parquet; slowdown.parquet holds the same and slowdown.png is drawn."""
    path = workload_file(tmp_path, 'sizes = "websearch"\nload = 0.3\n', duration="10ms")
    result = ccsim.run(str(path), progress=False)
    df = generated(result)
    pairs = sorted((int(r.size_bytes), r.slowdown) for r in df.itertuples() if r.slowdown == r.slowdown)
    n = len(pairs)
    expected = []
    for i in range(0, 100, 5):
        chunk = pairs[n * i // 100:n * (i + 5) // 100]
        if not chunk:
            continue
        s = sorted(x for _, x in chunk)
        expected.append((i, i + 5, chunk[-1][0], len(chunk), s[int(len(s) * 0.5)], s[int(len(s) * 0.95)],
                         s[int(len(s) * 0.99)]))
    got = [(b["from_percent"], b["to_percent"], b["max_size_bytes"], b["flows"], b["p50"], b["p95"], b["p99"])
           for b in result.summary["traffic"]["dc"]["slowdown_buckets"]]
    assert got == expected
    assert all(b["p50"] >= 1.0 for b in result.summary["traffic"]["dc"]["slowdown_buckets"])
    out = result.write(tmp_path / "out")
    import pandas as pd

    table = pd.read_parquet(out / "slowdown.parquet")
    assert list(table.p99) == [e[6] for e in expected] and set(table.generator) == {"dc"}
    assert (out / "slowdown.png").stat().st_size > 10_000


def test_permutation_sends_each_host_to_one_other_and_is_a_derangement(tmp_path: Path) -> None:
    path = workload_file(tmp_path, 'sizes = "google-rpc"\nload = 0.05\npattern = "permutation"\n', duration="5ms")
    df = generated(ccsim.run(str(path), progress=False))
    image = df.groupby("src").dst.unique()
    assert all(len(d) == 1 for d in image)
    mapping = {s: d[0] for s, d in image.items()}
    assert len(mapping) == 16 and all(s != d for s, d in mapping.items())
    assert sorted(mapping.values()) == sorted(mapping)  # a bijection of the hosts


def test_incast_arrivals_are_fan_in_distinct_senders_to_one_host_with_one_size(tmp_path: Path) -> None:
    path = workload_file(tmp_path, 'sizes = "google-rpc"\nload = 0.05\npattern = "incast"\nfan_in = 5\n',
                         duration="5ms")
    df = generated(ccsim.run(str(path), progress=False))
    groups = df.groupby("start_s")
    assert len(groups) > 20
    for _, g in groups:
        assert len(g) == 5 and g.dst.nunique() == 1 and g.src.nunique() == 5
        assert g.dst.iloc[0] not in set(g.src) and g.size_bytes.nunique() == 1


def test_all_to_all_senders_are_uniform_over_equal_hosts(tmp_path: Path) -> None:
    path = workload_file(tmp_path, "sizes = [[0, 0], [2000, 100]]\nload = 0.01\n", duration="5ms")
    df = generated(ccsim.run(str(path), progress=False))
    n = len(df)
    assert n > 1000 and (df.src != df.dst).all()
    sd = math.sqrt(n / 16 * 15 / 16)
    for host, count in df.src.value_counts().items():
        assert abs(count - n / 16) < SIGMAS * sd, (host, count)


def test_a_cdf_file_beside_the_scenario_is_read_as_its_points(tmp_path: Path) -> None:
    (tmp_path / "mine.cdf").write_text("0 0\n1000 50\n\n2000 100\n")
    inline = ccsim.run(str(workload_file(tmp_path, "sizes = [[0, 0], [1000, 50], [2000, 100]]\nload = 0.01\n",
                                         duration="2ms", name="a.toml")), progress=False)
    from_file = ccsim.run(str(workload_file(tmp_path, 'sizes = "mine.cdf"\nload = 0.01\n', duration="2ms",
                                            name="b.toml")), progress=False)
    assert from_file.spec["traffic"][0]["sizes"] == [[0, 0], [1000, 50], [2000, 100]]
    assert from_file.summary["traffic"] == inline.summary["traffic"]
    (tmp_path / "bad.cdf").write_text("0 0\n1000 x\n")
    with pytest.raises(ccsim.SpecError, match=r"traffic\[0\]\.sizes: .*bad\.cdf line 2"):
        ccsim.run(str(workload_file(tmp_path, 'sizes = "bad.cdf"\nload = 0.01\n', name="c.toml")), progress=False)


@pytest.mark.parametrize(("body", "field", "words"), [
    ('load = 0.1\n', "sizes", "websearch"),
    ('sizes = "webserch"\nload = 0.1\n', "sizes", "no vendored distribution"),
    ('sizes = [[0, 0], [10, 50], [5, 100]]\nload = 0.1\n', "sizes", "point 2"),
    ('sizes = "websearch"\n', "load", "need a load"),
    ('sizes = "websearch"\nload = 1.5\n', "load", "at most 1"),
    ('sizes = "websearch"\nload = 0.1\npattern = "ring"\n', "pattern", ""),
    ('sizes = "websearch"\nload = 0.1\nfan_in = 4\n', "fan_in", "incast"),
    ('sizes = "websearch"\nload = 0.1\nsigma = 1.0\n', "sigma", "log-normal"),
    ('sizes = "websearch"\nload = 0.1\nfrom = ["h0"]\n', "from", "hosts, not from"),
    ('sizes = "websearch"\nload = 0.1\narrivals = 5.0\n', "arrivals", "web"),
    ('sizes = "websearch"\nload = 0.1\npattern = "incast"\nfan_in = 16\n', "hosts", "at least 17 hosts"),
])
def test_bad_workload_keys_are_one_spec_error_naming_the_field(tmp_path: Path, body: str, field: str,
                                                               words: str) -> None:
    with pytest.raises(ccsim.SpecError, match=rf"traffic\[0\]\.{field}") as e:
        ccsim.run(str(workload_file(tmp_path, body)), progress=False)
    assert words in str(e.value)


def test_a_workload_between_listed_hosts_and_a_non_tcp_protocol(tmp_path: Path) -> None:
    path = workload_file(tmp_path, 'sizes = "websearch"\nload = 0.1\n')
    path.write_text(path.read_text().replace('hosts = "all"', 'hosts = ["h0", "h0"]'))
    with pytest.raises(ccsim.SpecError, match=r"traffic\[0\]\.hosts\[1\]: .*twice"):
        ccsim.run(str(path), progress=False)
    path.write_text(path.read_text().replace('hosts = ["h0", "h0"]', 'hosts = ["h0", "h5"]')
                    .replace('protocol = "dctcp"', 'protocol = "cbr"'))
    with pytest.raises(ccsim.SpecError, match=r"traffic\[0\]\.protocol: .*TCP variant"):
        ccsim.run(str(path), progress=False)


def test_meta_fabric_counts_and_equal_cost_paths(tmp_path: Path) -> None:
    """Meta's fabric (Parsimon's dhall/fb-fabric): node and link counts are the closed forms,
    and ECMP finds 1 path within a rack, F (fabric switches) within a pod and F x S (S spines a
    plane) across pods."""
    pods, racks, hosts, fabs, spines = 2, 3, 2, 2, 3
    g = topology.meta_fabric(pods, racks, hosts, fabrics=fabs, spines=spines, rate="10Gbps")
    assert g.number_of_nodes() == pods * racks * hosts + pods * racks + pods * fabs + fabs * spines
    assert g.number_of_edges() == pods * racks * hosts + pods * racks * fabs + pods * fabs * spines
    assert [n for n in g.nodes if g.nodes[n]["role"] == "host"] == [f"h{i}" for i in range(pods * racks * hosts)]
    text = topology.to_toml(g, duration="5ms").replace("[run]\n", '[run]\nmultipath = "ecmp"\n', 1)
    pairs = [("h0", "h1"), ("h0", "h2"), ("h0", "h11")]
    for i, (src, dst) in enumerate(pairs):
        text += f'\n[[flows]]\nname = "f{i}"\nprotocol = "cbr"\nfrom = "{src}"\nto = "{dst}"\nrate = "1Mbps"\n'
    path = tmp_path / "meta.toml"
    path.write_text(text)
    rows = ccsim.run(str(path), progress=False).summary["flows"]
    assert [rows[f"f{i}"]["paths"] for i in range(3)] == [1, fabs, fabs * spines]
    for i, (src, dst) in enumerate(pairs):
        assert rows[f"f{i}"]["paths"] == len(list(nx.all_shortest_paths(g, src, dst)))


def test_meta_fabric_cli_writes_parsimons_cluster(tmp_path: Path) -> None:
    out = tmp_path / "meta.toml"
    r = cli("topology", "meta-fabric", "--pods", "2", "--racks", "2", "--hosts", "2", "--spines", "2", "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert text.count("[[links]]") == 2 * 2 * 2 + 2 * 2 * 4 + 2 * 4 * 2
    bad = cli("topology", "meta-fabric", "--pods", "0")
    assert bad.returncode == 2 and "pods" in bad.stderr


# --- [topology] in a scenario file, the canonical scenarios -------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "datacenter"


def test_a_topology_table_is_the_links_its_generator_writes(tmp_path: Path) -> None:
    """``[topology] kind = "fat-tree"`` gives the canonical spec the links `ccsim topology
    fat-tree` writes, a queue table going to every link (the hosts' too unless host_queue says),
    before the file's own links; errors name topology.<key>."""
    step = {"kind": "step", "limit": "1000p", "threshold": 100}
    doc = {"run": {"duration": "1ms"}, "topology": {"kind": "fat-tree", "k": 4, "rate": "10Gbps", "queue": step,
                                                    "host_queue": "50p"},
           "links": [{"between": ["h0", "extra"], "rate": "1Gbps", "delay": "1ms"}]}
    spec = ccsim.validate(doc)
    expected = topology.links(topology.fat_tree(4, rate="10Gbps"))
    assert [link["between"] for link in spec["links"]] == [link["between"] for link in expected] + [["h0", "extra"]]
    g = topology.fat_tree(4)
    for link in spec["links"][:-1]:
        host = g.edges[tuple(link["between"])]["role"] == "host"
        assert link["queue"] == ("50p" if host else step)
    for bad, field in [({"kind": "torus"}, "topology.kind"), ({"kind": "fat-tree", "k": 3}, "topology.k"),
                       ({"kind": "fat-tree", "k": 4, "arity": 4}, "topology.arity"),
                       ({"kind": "meta-fabric", "pods": 0}, "topology.pods")]:
        with pytest.raises(ccsim.SpecError, match=rf"^{field}"):
            ccsim.validate({"run": {"duration": "1ms"}, "topology": bad})


@pytest.mark.parametrize("name", ["fattree-k8-websearch.toml", "incast-k8.toml", "meta-6144.toml"])
def test_the_canonical_scenarios_run_and_offer_their_load(name: str, tmp_path: Path) -> None:
    """Each canonical scenario runs (shortened to 0.2 ms, on a smaller fabric for Parsimon's)
    with its generators' flows completing and slowdowns of at least 1."""
    import tomllib

    doc = tomllib.loads((EXAMPLES / name).read_text())
    doc["run"]["duration"] = "200us"
    if doc["topology"]["kind"] == "meta-fabric":
        doc["topology"].update(pods=2, racks=4, hosts=4, spines=4)
    result = ccsim.run(doc, progress=False)
    for gen, t in result.overview["traffic"].items():
        assert t["completed"] > 0, gen
        assert t["slowdown"]["min"] >= 1.0, (gen, t["slowdown"])


MEMORY_PROBE = """
import resource, sys, tomllib, ccsim
page = resource.getpagesize()
during = [0]

def sample(sim_seconds, horizon, events):
    with open("/proc/self/statm") as f:
        during[0] = max(during[0], int(f.read().split()[1]) * page)

doc = tomllib.loads(open(sys.argv[1]).read())
doc["run"]["duration"] = sys.argv[2]
r = ccsim.run(doc, progress=False, on_progress=sample)
t = r.overview["traffic"]["dc"]
print(t["started"], t["completed"], len(t["slowdown_buckets"]), during[0],
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def test_without_rows_memory_follows_the_flows_in_flight_over_a_million_flows(tmp_path: Path) -> None:
    """With `[output] generated_rows = false`, a million one-segment flows need little more
    memory than a tenth of them: the flows in flight are about as many, and each finished flow
    leaves 24 bytes (its completion time, size and slowdown, for the exact percentiles; up to
    twice that while their vectors grow) and 8 for its two agents' ids. Two runs in fresh
    processes: while the run goes on (the process's memory at each progress report) the growth
    per extra flow is under 80 bytes (measured: 65), and at its peak (the summary's sorted copies
    at the end included) under 120 (measured: 83; with rows kept it is about 1.2 kB)."""
    import subprocess
    import sys

    path = workload_file(tmp_path, "sizes = [[0, 0], [1000, 100]]\nload = 0.3\n")
    path.write_text(path.read_text() + "\n[output]\nseries = []\ngenerated_rows = false\n")

    def probe(duration: str) -> tuple[int, int, int]:
        out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(path), duration], capture_output=True,
                             text=True, check=True, timeout=600).stdout.split()
        started, completed, buckets, during, peak = (int(x) for x in out)
        assert completed > 0.99 * started and buckets == 20
        return started, during, peak

    small, small_during, small_peak = probe("8ms")
    large, large_during, large_peak = probe("84ms")
    assert large > 1_000_000 and small < 110_000
    extra = large - small
    assert (large_during - small_during) / extra < 80, (large_during - small_during) / extra
    assert (large_peak - small_peak) / extra < 120, (large_peak - small_peak) / extra


def test_reused_flow_slots_keep_each_flows_counters_apart(tmp_path: Path) -> None:
    """Finished flows hand their engine slot to later ones: every completed transfer's row still
    counts exactly its own packets (segments = ceil(size / 1460) plus retransmissions; what was
    sent arrived or was lost) and the run's conservation check passes."""
    path = workload_file(tmp_path, 'sizes = "google-rpc"\nload = 0.4\n', duration="3ms")
    df = generated(ccsim.run(str(path), progress=False))
    done = df[df.completion_time_s.notna()]
    assert len(done) > 1000
    for row in done.itertuples():
        assert row.sent_packets == math.ceil(row.size_bytes / 1460) + row.retransmitted_packets, row
        assert row.received_packets + row.lost_packets == row.sent_packets, row


def test_without_rows_the_generator_results_are_those_with_rows(tmp_path: Path) -> None:
    path = workload_file(tmp_path, 'sizes = "websearch"\nload = 0.3\n', duration="5ms")
    with_rows = ccsim.run(str(path), progress=False)
    path.write_text(path.read_text() + "\n[output]\ngenerated_rows = false\n")
    without = ccsim.run(str(path), progress=False)
    a, b = with_rows.overview["traffic"]["dc"], without.overview["traffic"]["dc"]
    for key in ("started", "completed", "bytes_started", "sent_packets", "received_packets", "lost_packets",
                "slowdown_buckets", "alone_runs", "alone_cached", "fct_s", "slowdown", "goodput_bps"):
        assert a[key] == b[key], key
    assert b["mean_fct_s"] == pytest.approx(a["mean_fct_s"], rel=1e-12)
    assert (with_rows.flows().generator == "dc").sum() == a["started"]
    assert (without.flows().generator == "dc").sum() == 0


def test_the_hpcc_flow_file_lists_the_flows_the_run_starts(tmp_path: Path) -> None:
    """`ccsim flows` writes HPCC's flow-file format (count, then `src dst 3 100 bytes start`), and
    its flows are the run's own, one for one: same hosts, size and start (to the nanosecond)."""
    path = workload_file(tmp_path, 'sizes = "google-rpc"\nload = 0.2\npattern = "incast"\nfan_in = 4\n',
                         duration="1ms")
    text = ccsim.flow_file(str(path))
    lines = text.splitlines()
    assert int(lines[0]) == len(lines) - 1 > 100
    spec = ccsim.validate(str(path))
    degree: Counter[str] = Counter()
    order: list[str] = []
    for link in spec["links"]:
        for n in link["between"]:
            degree[n] += 1
            if n not in order:
                order.append(n)
    hosts = [n for n in order if degree[n] == 1]
    df = generated(ccsim.run(str(path), progress=False))
    assert len(df) == len(lines) - 1
    for line, row in zip(lines[1:], df.sort_index(key=lambda i: i.str.split("/").str[1].astype(int)).itertuples()):
        src, dst, pg, port, size, start = line.split()
        assert (pg, port) == ("3", "100")
        assert (hosts[int(src)], hosts[int(dst)], int(size)) == (row.src, row.dst, int(row.size_bytes))
        assert round(float(start) * 1e9) == round(row.start_s * 1e9)
    out = tmp_path / "flows.txt"
    r = cli("flows", str(path), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_text() == text
    again = cli("flows", str(path), "-o", str(out))
    assert again.returncode == 2 and "exists" in again.stderr
    with pytest.raises(ccsim.SpecError, match=r"^traffic: no flows generator \"web\""):
        ccsim.flow_file(str(path), "web")


def replay_file(tmp_path: Path, flows: str, *, name: str = "replay.toml", extra: str = "") -> Path:
    """The k = 4 fabric of :func:`workload_file` replaying the HPCC flow file ``flows``."""
    (tmp_path / "flows.txt").write_text(flows)
    path = workload_file(tmp_path, 'flow_file = "flows.txt"\n' + extra, duration="2ms", name=name)
    return path


def test_an_hpcc_flow_file_replays_the_flows_it_lists(tmp_path: Path) -> None:
    """The flows a run draws, written as HPCC's flow file and replayed by `flow_file`, are the
    same transfers: same ends, sizes and starts, and the same completion times to the
    nanosecond, since nothing else of the run differs; the replay writes the file back."""
    drawn = workload_file(tmp_path, 'sizes = "fb-hadoop"\nload = 0.3\n', duration="2ms", name="drawn.toml")
    text = ccsim.flow_file(str(drawn))
    assert int(text.split()[0]) > 20
    replay = replay_file(tmp_path, text)
    a = generated(ccsim.run(str(drawn), progress=False))
    b = generated(ccsim.run(str(replay), progress=False))
    columns = ["src", "dst", "size_bytes", "start_s", "completion_time_s", "slowdown", "route"]
    assert len(a) == len(b) > 20
    assert a[columns].equals(b[columns])
    assert ccsim.flow_file(str(replay)) == text
    src, dst, _, _, size, start = text.splitlines()[1].split()
    first = [int(src), int(dst), int(size), int(start.replace(".", ""))]
    assert ccsim.validate(str(replay))["traffic"][0]["flow_file"][0] == first


def test_a_flow_file_replays_in_a_dict_spec_and_nine_decimals_are_exact(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Start times are read as decimals: 0.000000123 s is 123 ns, not a float's neighbour; two
    flows at one instant both start then. A dict's file is found from the working folder."""
    (tmp_path / "two.txt").write_text("3\n0 5 3 100 1000 0.000000123\n1 6 3 100 2000 0.000000123\n"
                                      "2 7 3 100 3000 0.001000001\n")
    monkeypatch.chdir(tmp_path)
    spec = ccsim.validate(workload_file(tmp_path, 'flow_file = "two.txt"\n', duration="2ms"))
    assert spec["traffic"][0]["flow_file"] == [[0, 5, 1000, 123], [1, 6, 2000, 123], [2, 7, 3000, 1000001]]
    spec["traffic"][0]["flow_file"] = "two.txt"
    df = ccsim.run(spec, progress=False).flows()
    starts = sorted(round(s * 1e9) for s in df[df.generator == "dc"].start_s)
    assert starts == [123, 123, 1000001]


@pytest.mark.parametrize(("flows", "extra", "field", "words"), [
    ("2\n0 1 3 100 1000 0.0\n", "", "flow_file", "announces 2 flows, the file lists 1"),
    ("1\n0 1 3 100 10x0 0.0\n", "", "flow_file", "line 2: expected"),
    ("1\n0 1 3 100 1000 -1\n", "", "flow_file", "line 2: expected"),
    ("", "", "flow_file", "empty"),
    ("1\n0 16 3 100 1000 0.0\n", "", r"flow_file\[0\]", "not among the 16 hosts"),
    ("1\n3 3 3 100 1000 0.0\n", "", r"flow_file\[0\]", "to itself"),
    ("1\n0 1 3 100 0 0.0\n", "", r"flow_file\[0\]", "1 byte"),
    ("2\n0 1 3 100 10 0.5\n1 2 3 100 10 0.4\n", "", r"flow_file\[1\]", "in order of start"),
    ("1\n0 1 3 100 1000 0.0\n", "load = 0.1\n", "load", "does not apply with a flow_file"),
    ("1\n0 1 3 100 1000 0.0\n", 'start = "1ms"\n', "start", "does not apply with a flow_file"),
])
def test_a_bad_flow_file_is_one_spec_error_naming_the_field(tmp_path: Path, flows: str, extra: str, field: str,
                                                             words: str) -> None:
    with pytest.raises(ccsim.SpecError, match=rf"traffic\[0\]\.{field}") as e:
        ccsim.run(str(replay_file(tmp_path, flows, extra=extra)), progress=False)
    assert words in str(e.value)


def leaf_spine_workload(tmp_path: Path, body: str, *, duration: str = "20ms") -> Path:
    """Four leaves of four 10 Gbit/s hosts under two spines: hosts h0-h7 reach h8-h15 over the
    four uplinks of leaves 0 and 1, a 40 Gbit/s cut where the hosts would offer 80."""
    text = topology.to_toml(topology.leaf_spine(4, 2, 4, rate="10Gbps", delay="2us", queue="500p"),
                            duration=duration)
    text = text.replace("[run]\n", '[run]\nmultipath = "ecmp"\n', 1)
    path = tmp_path / "ls.toml"
    path.write_text(text + '\n[[traffic]]\nname = "dc"\nkind = "flows"\nhosts = "all"\nprotocol = "dctcp"\n'
                    'load_of = "bisection"\n' + body)
    return path


def test_a_load_of_the_bisection_offers_its_cut_the_load(tmp_path: Path) -> None:
    """`load_of = "bisection"`: the capacity of the cut between the first and second half of
    the hosts is networkx's minimum cut of the same links; the offered rate is the load of that
    cut over the fraction of bytes that cross it one way (uniform receivers: half the senders,
    8 of 15 receivers each); the bytes that did cross, h0-h7 to h8-h15, are that load of the
    cut within the compound-Poisson spread."""
    points = [(0.0, 0.0), (10_000.0, 50.0), (20_000.0, 100.0)]
    load, duration = 0.3, 0.02
    path = leaf_spine_workload(tmp_path, f"sizes = {[list(p) for p in points]}\nload = {load}\n")
    spec = ccsim.validate(str(path))
    g = nx.DiGraph()
    for link in spec["links"]:
        a, b = link["between"]
        assert link["rate"] == "10Gbps"
        rate = 10e9
        g.add_edge(a, b, capacity=rate)
        g.add_edge(b, a, capacity=rate)
    hosts = [f"h{i}" for i in range(16)]
    for h in hosts[:8]:
        g.add_edge("S", h)
    for h in hosts[8:]:
        g.add_edge(h, "T")
    cut, _ = nx.minimum_cut(g, "S", "T")
    assert cut == 40e9
    crossing = 0.5 * 8 / 15
    result = ccsim.run(str(path), progress=False)
    summary = result.summary["traffic"]["dc"]
    assert summary["offered_bps"] == pytest.approx(load * cut / crossing, rel=1e-12)
    mean, second = segment_cdf_moments(points)
    df = generated(result)
    across = df[df.src.isin(hosts[:8]) & df.dst.isin(hosts[8:])]
    target = load * cut / 8 * duration
    sd = math.sqrt(target / mean * second)
    assert abs(across.size_bytes.sum() - target) < SIGMAS * sd, (across.size_bytes.sum(), target)


def test_a_bisection_load_the_hosts_cannot_offer_is_refused(tmp_path: Path) -> None:
    """0.6 of the 40 Gbit/s cut needs 90 Gbit/s from 160 Gbit/s of hosts (fine); on a
    full-bisection fat-tree 0.6 of the cut needs 1.2 of the hosts' rates."""
    ccsim.validate(str(leaf_spine_workload(tmp_path, 'sizes = "websearch"\nload = 0.6\n')))
    path = workload_file(tmp_path, 'sizes = "websearch"\nload = 0.6\nload_of = "bisection"\n')
    with pytest.raises(ccsim.SpecError, match=r"traffic\[0\]\.load: 0.6 of the bisection offers 1.1"):
        ccsim.validate(str(path))


def test_with_spray_the_alone_run_sprays_too(tmp_path: Path) -> None:
    """A sprayed flow's packets cross the fabric side by side, so its alone time is taken on
    every equal-cost path, sprayed as in the run. That time is itself one draw of the spray (two
    segments on one path queue behind each other at every hop, on two paths they do not), so a
    flow can beat it by a packet's serialisation per hop: slowdowns stay above 0.95 and fall
    below 1 for under 1 % of the flows (measured: 1 of 1001, at 0.998; with one path alone, 1 of
    1048 flows of the ns-3 comparison's workload fell to 0.989)."""
    path = workload_file(tmp_path, 'sizes = "fb-hadoop"\nload = 0.3\n', duration="20ms", multipath="spray")
    text = path.read_text().replace('protocol = "dctcp"\n', 'protocol = "dctcp"\noptions = { ecn = true, '
                                    'delayed_ack = false, handshake = true, timestamps = true }\n', 1)
    path.write_text(text)
    df = generated(ccsim.run(str(path), progress=False))
    done = df[df.slowdown.notna()]
    assert len(done) > 500
    assert done.slowdown.min() > 0.95
    assert (done.slowdown < 1).mean() < 0.01, (done.slowdown < 1).sum()


def test_the_readme_datacenter_example_is_a_valid_scenario() -> None:
    import re
    import tomllib

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Datacenter fabrics", 1)[1]
    block = re.search(r"```toml\n(.*?)```", section, re.S)
    assert block is not None
    spec = ccsim.validate(tomllib.loads(block.group(1)))
    assert len(spec["links"]) == 384 and spec["traffic"][0]["sizes"] == "websearch"


def test_the_large_bench_runs_the_canonical_scenarios_at_their_loads() -> None:
    from ccsim import bench

    assert set(bench.DATACENTER_BENCHMARKS) <= set(bench.names(large=True))
    assert not set(bench.DATACENTER_BENCHMARKS) & set(bench.names())
    for name, (file, load, duration) in bench.DATACENTER_BENCHMARKS.items():
        spec = ccsim.validate(bench.datacenter_spec(name))
        assert spec["run"]["duration"] == duration
        if load is not None:
            assert spec["traffic"][0]["load"] == load
        assert (EXAMPLES / file).is_file()


def test_the_slowdown_study_is_a_section_of_the_report(tmp_path: Path) -> None:
    """`ccsim reproduce datacenter-slowdown --quick`: a study whose every slowdown is at least 1
    (a flow alone is never slower), whose offered loads are near their targets, and whose
    report page has its section with the slowdown figure and one check per bucket shown."""
    from ccsim.experiments import REGISTRY
    from ccsim.experiments.datacenter import CHECKED_BUCKETS, LOADS
    from ccsim.reproduce import reproduce

    exp = REGISTRY["datacenter-slowdown"]
    assert exp.study
    reproduce([exp], tmp_path, quick=True, jobs=1, progress=False)
    rows = json.loads((tmp_path / "datacenter-slowdown" / "loads.json").read_text())
    assert [r["load"] for r in rows] == LOADS
    for r in rows:
        assert abs(r["offered_load"] - r["load"]) < 0.5 * r["load"], r["offered_load"]
        assert r["completed"] <= r["started"] and r["buckets"], r
        for b in r["buckets"]:
            assert 1.0 <= b["p50"] <= b["p99"], b
    page = (tmp_path / "index.html").read_text()
    section = page[page.index('<section id="datacenter-slowdown"'):]
    section = section[:section.index("</section>")]
    assert section.count("<img") == 1 and "data:image/png;base64," in section
    shown = set(re.findall(r"load \d+%: p(?:50|99) FCT slowdown, flows \d+-\d+ %", section))
    assert len(shown) == 2 * len(CHECKED_BUCKETS) * len(LOADS), shown
    assert "From docs/experiments.md, section “datacenter-slowdown" in section
