"""Datacenter fabrics (docs/datacenter.md): equal-cost multipath routing over a fat-tree, its
balance against the binomial spread a fair hash gives, its determinism, and its behaviour under a
failure; the checks are counts against closed forms and conservation, not recorded numbers."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import ccsim
from ccsim import topology

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
