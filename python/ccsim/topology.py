"""Generated topologies: networkx graphs for the standard shapes, and the scenario spec they
expand to (``[run]`` and ``[[links]]``), as a dict, a :class:`ccsim.Scenario` or a TOML file.

Every generator returns an undirected ``networkx.Graph`` whose edges carry the ``[[links]]``
keys as attributes (``rate``, ``delay``, ``queue``; canonical unit strings), so a graph can be
edited in Python before it becomes a spec, and ``ccsim topology`` writes the same links for
TOML users. Shapes and names (docs/topology.md has the whole story):

- :func:`dumbbell`: senders ``s1..sn`` on router ``r1``, receivers ``d1..dn`` on ``r2``, the
  bottleneck ``r1-r2``;
- :func:`parking_lot`: routers ``r1..r(k+1)`` in a chain of ``k`` bottlenecks; ``s0 -> d0``
  crosses them all; cross-traffic hosts ``si`` (on ``ri``) and ``di`` (on ``r(i+1)``) cross
  bottleneck ``i`` only;
- :func:`binary_tree`: the complete binary tree of ``depth`` levels (2^depth - 1 nodes) in heap
  order: root ``n0``, the children of ``ni`` are ``n(2i+1)`` and ``n(2i+2)``;
- :func:`fat_tree`: the k-ary fat-tree of Al-Fares, Loukissas and Vahdat (SIGCOMM 2008):
  ``k`` pods of ``k/2`` edge switches ``p<pod>e<i>`` and ``k/2`` aggregation switches
  ``p<pod>a<i>``, ``(k/2)^2`` core switches ``c<i>``, and ``k^3/4`` hosts ``h0..`` (more with
  oversubscription), numbered edge switch by edge switch;
- :func:`leaf_spine`: ``leaves`` leaf switches ``l<i>``, each joined to every one of
  ``spines`` spine switches ``s<i>``, and ``hosts`` hosts per leaf, ``h0..`` leaf by leaf;
- :func:`meta_fabric`: Meta's datacenter fabric as Parsimon builds it (Andreyev, "Introducing
  data center fabric", 2014; parsimon-eval's ``dhall/fb-fabric``): ``pods`` pods of ``racks``
  racks, each a top-of-rack switch ``p<pod>t<r>`` with ``hosts`` hosts; ``fabrics`` fabric
  switches ``p<pod>f<i>`` per pod, every ToR of the pod joined to each; ``fabrics`` spine planes
  of ``spines`` spine switches ``x<plane>s<j>``, fabric switch ``i`` of every pod joined to every
  spine of plane ``i``; hosts ``h0..`` rack by rack, pod by pod;
- :func:`waxman`: GT-ITM's flat random graphs ("geo", Calvert, Doar and Zegura, IEEE Commun.
  Mag. 1997; geog.c of GT-ITM): ``n`` nodes on an integer ``scale`` x ``scale`` grid, at most
  one per point; a pair (i < j) is joined with probability ``p``: method 2 (Waxman's RG1,
  Waxman, IEEE JSAC 1988) ``p = alpha exp(-d / (beta L))``, method 1 (RG2) the same with ``d``
  replaced by a uniform random distance in [0, L], method 3 ``p = alpha``; ``L = sqrt(2)
  scale``; nodes ``n0..n(n-1)``, GT-ITM's node numbers.

networkx is imported when a graph is built, never at ``import ccsim``.

CHOICE: randomness comes from ``random.Random(seed)`` and only its ``random()`` method, whose
sequence Python guarantees across versions; so a seed gives the same file on every machine and
Python (Waxman's probabilities use the platform's ``exp``: a last-bit difference between two C
libraries could change an edge only if a draw fell within about 1e-16 of p). The graphs are GT-ITM's in distribution, not the very graphs GT-ITM draws (that needs
the Stanford GraphBase generator, gb_flip).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InternalError, SpecError

if TYPE_CHECKING:
    import networkx as nx

    from .spec import Scenario

#: The first line of every file ``ccsim topology`` writes; ``--force`` replaces only such files.
MARKER = "# Written by `ccsim topology`"
#: Edge attributes that become ``[[links]]`` keys, in this order.
LINK_KEYS = ("rate", "delay", "queue", "loss", "jitter")
#: GT-ITM's edge methods that ccsim implements (geog.h: RG2 = 1, RG1 = 2, RANDOM = 3).
WAXMAN_METHODS = {1: "rg2", 2: "rg1", 3: "random"}
#: Bounds that keep a generated file and its generation in seconds, not hours (the Waxman loop
#: visits every pair: 10 000 nodes are 5e7 pairs, about half a minute).
MAX_DEPTH = 20
MAX_WAXMAN_NODES = 10_000
MAX_SCALE = 1_000_000
MAX_PAIRS = 100_000
MAX_BOTTLENECKS = 100_000
#: The largest fat-tree arity (48: 27 648 hosts and 82 944 links before oversubscription).
MAX_FAT_TREE_K = 48
#: Bounds of a leaf-spine fabric's switches and of any fabric's hosts.
MAX_SWITCHES = 10_000
MAX_HOSTS = 200_000


# ---------------------------------------------------------------------------------------------
# Argument checks and unit strings

def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"expected a whole number from {low} to {high}, found {value!r}", name)
    if not low <= value <= high:
        raise SpecError(f"expected a whole number from {low} to {high}, found {value}", name)
    return int(value)


def _number(value: Any, name: str, low: float, high: float, *, low_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SpecError(f"expected a finite number, found {value!r}", name)
    x = float(value)
    if x < low or x > high or (low_open and x == low):
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}]"
        raise SpecError(f"expected a number in {interval}, found {value!r}", name)
    return x


def _seed(value: Any) -> int:
    return _whole(value, "seed", 0, 2**64 - 1)


def _canonical_link(rate: Any, delay: Any, queue: Any, names: tuple[str, str, str]) -> tuple[str, str, str]:
    """The canonical unit strings of a link's rate, delay and queue, checked by the scenario
    validator itself; an error names the generator argument (``names``) that held the value."""
    from . import _ccsim

    for value, name in zip((rate, delay, queue), names):
        if not isinstance(value, str):
            raise SpecError(f"expected a unit string such as \"10Mbps\", \"20ms\" or \"100p\", found {value!r}", name)
    probe = {"run": {"duration": "1s"}, "links": [{"between": ["a", "b"], "rate": rate, "delay": delay,
                                                    "queue": queue}]}
    try:
        canonical = json.loads(_ccsim.validate(json.dumps(probe)))
    except SpecError as e:
        key = (e.path or "").removeprefix("links[0].").split(".")[0]
        where = dict(zip(("rate", "delay", "queue"), names)).get(key, names[0])
        raise SpecError(e.message, where) from None
    link = canonical["links"][0]
    return link["rate"], link["delay"], link["queue"]


_DURATION = re.compile(r"^([0-9]+)(ns|us|ms|s)$")
_NS_PER = {"ns": 1, "us": 10**3, "ms": 10**6, "s": 10**9}


def _ns(canonical: str) -> int:
    """Nanoseconds of a canonical duration (``"1500us"``, as the validator writes it)."""
    m = _DURATION.match(canonical)
    if m is None:  # the validator's canonical form is an integer and a unit
        raise InternalError(f"not a canonical duration: {canonical!r}")
    return int(m.group(1)) * _NS_PER[m.group(2)]


def format_duration(ns: int) -> str:
    """A whole number of nanoseconds in the largest unit that keeps it whole, as the scenario
    validator's canonical form writes durations: ``57ms``, ``1500us``, ``0s``."""
    if ns == 0:
        return "0s"
    for unit in ("s", "ms", "us"):
        if ns and ns % _NS_PER[unit] == 0:
            return f"{ns // _NS_PER[unit]}{unit}"
    return f"{ns}ns"


def _graph() -> nx.Graph:
    import networkx as nx

    return nx.Graph()


def _record(g: nx.Graph, generator: str, args: dict[str, Any], example: tuple[str, str] | None) -> None:
    """Keep what made the graph (for the file's header), a flow the header can suggest, and the
    links in the order and orientation they were added (networkx orders edges by node)."""
    g.graph["ccsim"] = {"generator": generator, "args": args, "example_flow": example,
                        "links": [(u, v) for u, v in g.graph.pop("_added", []) if g.has_edge(u, v)]}


def _add(g: nx.Graph, u: str, v: str, **attrs: Any) -> None:
    g.add_edge(u, v, **attrs)
    g.graph.setdefault("_added", []).append((u, v))


def _edges(g: nx.Graph) -> list[tuple[Any, Any, dict[str, Any]]]:
    """The edges as a generator added them, if the graph still has exactly those; else in
    networkx's order."""
    added = (g.graph.get("ccsim") or {}).get("links")
    if added and len(added) == g.number_of_edges() and all(g.has_edge(u, v) for u, v in added):
        return [(u, v, g.edges[u, v]) for u, v in added]
    return list(g.edges(data=True))


# ---------------------------------------------------------------------------------------------
# Generators

def dumbbell(pairs: int, *, access_rate: str = "100Mbps", access_delay: str = "1ms", access_queue: str = "1000p",
             bottleneck_rate: str = "10Mbps", bottleneck_delay: str = "20ms",
             bottleneck_queue: str = "100p") -> nx.Graph:
    """``pairs`` senders ``s1..sn`` on router ``r1``, receivers ``d1..dn`` on ``r2``; the
    bottleneck ``r1-r2`` comes first, then ``si-r1`` and ``r2-di`` for each pair. Nodes have a
    ``role`` (``sender``, ``receiver``, ``router``), links a ``role`` (``access``,
    ``bottleneck``). 2n + 2 nodes, 2n + 1 links."""
    n = _whole(pairs, "pairs", 1, MAX_PAIRS)
    acc = _canonical_link(access_rate, access_delay, access_queue, ("access_rate", "access_delay", "access_queue"))
    neck = _canonical_link(bottleneck_rate, bottleneck_delay, bottleneck_queue,
                           ("bottleneck_rate", "bottleneck_delay", "bottleneck_queue"))
    g = _graph()
    g.add_node("r1", role="router")
    g.add_node("r2", role="router")
    _add(g, "r1", "r2", rate=neck[0], delay=neck[1], queue=neck[2], role="bottleneck")
    for i in range(1, n + 1):
        g.add_node(f"s{i}", role="sender")
        g.add_node(f"d{i}", role="receiver")
    for i in range(1, n + 1):
        _add(g, f"s{i}", "r1", rate=acc[0], delay=acc[1], queue=acc[2], role="access")
    for i in range(1, n + 1):
        _add(g, "r2", f"d{i}", rate=acc[0], delay=acc[1], queue=acc[2], role="access")
    _record(g, "dumbbell", {"pairs": n, "access_rate": access_rate, "access_delay": access_delay,
                            "access_queue": access_queue, "bottleneck_rate": bottleneck_rate,
                            "bottleneck_delay": bottleneck_delay, "bottleneck_queue": bottleneck_queue},
            ("s1", "d1"))
    return g


def parking_lot(bottlenecks: int, *, rate: str = "10Mbps", delay: str = "10ms", queue: str = "100p",
                hop_rates: Mapping[int, str] | None = None, cross: bool = True, access_rate: str = "100Mbps",
                access_delay: str = "1ms", access_queue: str = "1000p") -> nx.Graph:
    """``bottlenecks`` = k links in a chain of routers ``r1..r(k+1)``; bottleneck ``i`` is
    ``ri-r(i+1)`` with ``rate`` (or ``hop_rates[i]``, i counted from 1), ``delay`` and
    ``queue``. Hosts attach by access links: ``s0`` on ``r1`` and ``d0`` on ``r(k+1)`` (a
    flow ``s0 -> d0`` crosses every bottleneck) and, with ``cross``, ``si`` on ``ri`` and
    ``di`` on ``r(i+1)`` for each bottleneck ``i`` (a flow ``si -> di`` crosses bottleneck
    ``i`` alone). Many flows may share a host pair. 3k + 3 nodes and 3k + 2 links with cross
    hosts, k + 3 and k + 2 without."""
    k = _whole(bottlenecks, "bottlenecks", 1, MAX_BOTTLENECKS)
    if not isinstance(cross, bool):
        raise SpecError(f"expected true or false, found {cross!r}", "cross")
    hop = _canonical_link(rate, delay, queue, ("rate", "delay", "queue"))
    acc = _canonical_link(access_rate, access_delay, access_queue, ("access_rate", "access_delay", "access_queue"))
    rates = {i: hop[0] for i in range(1, k + 1)}
    for i, r in sorted((hop_rates or {}).items()):
        where = f"hop_rates[{i}]"
        if isinstance(i, bool) or not isinstance(i, int) or not 1 <= i <= k:
            raise SpecError(f"bottlenecks are numbered 1 to {k}, found {i!r}", "hop_rates")
        rates[i] = _canonical_link(r, delay, queue, (where, "delay", "queue"))[0]
    g = _graph()
    for i in range(1, k + 2):
        g.add_node(f"r{i}", role="router")
    for i in range(1, k + 1):
        _add(g, f"r{i}", f"r{i + 1}", rate=rates[i], delay=hop[1], queue=hop[2], role="bottleneck")
    hosts = [(0, 1, k + 1)] + ([(i, i, i + 1) for i in range(1, k + 1)] if cross else [])
    for i, entry, exit_ in hosts:
        g.add_node(f"s{i}", role="sender")
        _add(g, f"s{i}", f"r{entry}", rate=acc[0], delay=acc[1], queue=acc[2], role="access")
        g.add_node(f"d{i}", role="receiver")
        _add(g, f"r{exit_}", f"d{i}", rate=acc[0], delay=acc[1], queue=acc[2], role="access")
    _record(g, "parking-lot", {"bottlenecks": k, "rate": rate, "delay": delay, "queue": queue,
                               "hop_rates": dict(sorted((hop_rates or {}).items())), "cross": cross,
                               "access_rate": access_rate, "access_delay": access_delay,
                               "access_queue": access_queue}, ("s0", "d0"))
    return g


def fat_tree(k: int, *, rate: str = "100Gbps", delay: str = "1us", queue: str = "100p",
             host_rate: str | None = None, host_delay: str | None = None, host_queue: str | None = None,
             oversubscription: int = 1) -> nx.Graph:
    """The k-ary fat-tree (Al-Fares, Loukissas and Vahdat, SIGCOMM 2008, section 3.2): ``k``
    pods (``k`` even), each of ``k/2`` edge switches ``p<pod>e<i>`` and ``k/2`` aggregation
    switches ``p<pod>a<i>``, every edge switch joined to every aggregation switch of its pod;
    ``(k/2)^2`` core switches ``c0..``, aggregation switch ``i`` of every pod joined to cores
    ``i*k/2 .. i*k/2 + k/2 - 1``; each edge switch has ``oversubscription * k/2`` hosts, so
    hosts ``h0..h<N-1>`` (N = ``oversubscription * k^3/4``) are numbered edge switch by edge
    switch, pod by pod. Switch links have ``rate``, ``delay`` and ``queue``, host links the
    ``host_*`` values (the switch links' by default). With ``oversubscription`` = 1 the
    fabric has full bisection bandwidth; with r, each edge switch's uplinks carry 1/r of its
    hosts' rate. Nodes have a ``role`` (``host``, ``edge``, ``aggregation``, ``core``) and a
    ``pod``; links a ``role`` (``host``, ``edge-aggregation``, ``aggregation-core``)."""
    k = _whole(k, "k", 2, MAX_FAT_TREE_K)
    if k % 2:
        raise SpecError(f"a fat-tree's k is even (k/2 switches and hosts per switch), found {k}", "k")
    over = _whole(oversubscription, "oversubscription", 1, 64)
    half = k // 2
    hosts_per_edge = over * half
    if k * half * hosts_per_edge > MAX_HOSTS:
        raise SpecError(f"{k * half * hosts_per_edge} hosts is more than {MAX_HOSTS}; lower k or oversubscription",
                        "oversubscription" if over > 1 else "k")
    fabric = _canonical_link(rate, delay, queue, ("rate", "delay", "queue"))
    host = _canonical_link(host_rate or rate, host_delay or delay, host_queue or queue,
                           ("host_rate" if host_rate else "rate", "host_delay" if host_delay else "delay",
                            "host_queue" if host_queue else "queue"))
    g = _graph()
    for c in range(half * half):
        g.add_node(f"c{c}", role="core")
    h = 0
    for pod in range(k):
        for i in range(half):
            g.add_node(f"p{pod}a{i}", role="aggregation", pod=pod)
            for j in range(half):
                _add(g, f"p{pod}a{i}", f"c{i * half + j}", rate=fabric[0], delay=fabric[1], queue=fabric[2],
                     role="aggregation-core")
        for e in range(half):
            g.add_node(f"p{pod}e{e}", role="edge", pod=pod)
            for i in range(half):
                _add(g, f"p{pod}e{e}", f"p{pod}a{i}", rate=fabric[0], delay=fabric[1], queue=fabric[2],
                     role="edge-aggregation")
            for _ in range(hosts_per_edge):
                g.add_node(f"h{h}", role="host", pod=pod)
                _add(g, f"h{h}", f"p{pod}e{e}", rate=host[0], delay=host[1], queue=host[2], role="host")
                h += 1
    args: dict[str, Any] = {"k": k, "rate": rate, "delay": delay, "queue": queue}
    args.update({n: v for n, v in (("host_rate", host_rate), ("host_delay", host_delay),
                                   ("host_queue", host_queue)) if v is not None})
    if over != 1:
        args["oversubscription"] = over
    _record(g, "fat-tree", args, ("h0", f"h{h - 1}"))
    return g


def leaf_spine(leaves: int, spines: int, hosts: int, *, rate: str = "100Gbps", delay: str = "1us",
               queue: str = "100p", host_rate: str | None = None, host_delay: str | None = None,
               host_queue: str | None = None) -> nx.Graph:
    """A two-tier leaf-spine fabric: ``leaves`` leaf switches ``l0..``, each joined to every
    one of ``spines`` spine switches ``s0..`` (``rate``, ``delay``, ``queue``), and ``hosts``
    hosts per leaf, ``h0..`` leaf by leaf (the ``host_*`` link values, the fabric's by
    default). Nodes have a ``role`` (``host``, ``leaf``, ``spine``); links a ``role``
    (``host``, ``leaf-spine``)."""
    nl = _whole(leaves, "leaves", 1, MAX_SWITCHES)
    ns = _whole(spines, "spines", 1, MAX_SWITCHES)
    nh = _whole(hosts, "hosts", 1, MAX_HOSTS)
    if nl * nh > MAX_HOSTS:
        raise SpecError(f"{nl * nh} hosts is more than {MAX_HOSTS}; lower leaves or hosts", "hosts")
    if nl * ns > MAX_HOSTS:
        raise SpecError(f"{nl * ns} leaf-spine links is more than {MAX_HOSTS}; lower leaves or spines", "spines")
    fabric = _canonical_link(rate, delay, queue, ("rate", "delay", "queue"))
    host = _canonical_link(host_rate or rate, host_delay or delay, host_queue or queue,
                           ("host_rate" if host_rate else "rate", "host_delay" if host_delay else "delay",
                            "host_queue" if host_queue else "queue"))
    g = _graph()
    for s_ in range(ns):
        g.add_node(f"s{s_}", role="spine")
    for leaf in range(nl):
        g.add_node(f"l{leaf}", role="leaf")
        for s_ in range(ns):
            _add(g, f"l{leaf}", f"s{s_}", rate=fabric[0], delay=fabric[1], queue=fabric[2], role="leaf-spine")
    for leaf in range(nl):
        for i in range(nh):
            name = f"h{leaf * nh + i}"
            g.add_node(name, role="host")
            _add(g, name, f"l{leaf}", rate=host[0], delay=host[1], queue=host[2], role="host")
    args: dict[str, Any] = {"leaves": nl, "spines": ns, "hosts": nh, "rate": rate, "delay": delay, "queue": queue}
    args.update({n: v for n, v in (("host_rate", host_rate), ("host_delay", host_delay),
                                   ("host_queue", host_queue)) if v is not None})
    _record(g, "leaf-spine", args, ("h0", f"h{nl * nh - 1}"))
    return g


def meta_fabric(pods: int = 8, racks: int = 48, hosts: int = 16, *, fabrics: int = 4, spines: int = 48,
                rate: str = "10Gbps", delay: str = "1us", queue: str = "100p", host_rate: str | None = None,
                host_delay: str | None = None, host_queue: str | None = None) -> nx.Graph:
    """Meta's datacenter fabric as Parsimon evaluates it (parsimon-eval ``dhall/fb-fabric``,
    NSDI 2023): the defaults are its 6,144-host cluster, 8 pods of 48 racks of 16 hosts, 4
    fabric switches per pod and 4 planes of 48 spines, every link 10 Gbit/s and 1 us. Each
    rack's top-of-rack switch ``p<pod>t<r>`` joins its hosts and every fabric switch
    ``p<pod>f<i>`` of its pod; fabric switch ``i`` of each pod joins every spine ``x<i>s<j>`` of
    plane ``i``. Hosts ``h0..`` are numbered rack by rack, pod by pod. Switch links have
    ``rate``, ``delay`` and ``queue``; host links the ``host_*`` values (the fabric's by
    default). Nodes have a ``role`` (``host``, ``tor``, ``fabric``, ``spine``) and, but spines, a
    ``pod``; links a ``role`` (``host``, ``tor-fabric``, ``fabric-spine``). With the defaults a
    ToR's 16 host links share 4 uplinks (4:1), as in Parsimon's runs."""
    npods = _whole(pods, "pods", 1, MAX_SWITCHES)
    nracks = _whole(racks, "racks", 1, MAX_SWITCHES)
    nhosts = _whole(hosts, "hosts", 1, MAX_HOSTS)
    nfabs = _whole(fabrics, "fabrics", 1, 64)
    nspines = _whole(spines, "spines", 1, MAX_SWITCHES)
    if npods * nracks * nhosts > MAX_HOSTS:
        raise SpecError(f"{npods * nracks * nhosts} hosts is more than {MAX_HOSTS}; lower pods, racks or hosts",
                        "hosts")
    if npods * nfabs * (nracks + nspines) > MAX_HOSTS:
        raise SpecError(f"{npods * nfabs * (nracks + nspines)} switch links is more than {MAX_HOSTS}; lower pods, "
                        f"racks, fabrics or spines", "spines")
    fabric = _canonical_link(rate, delay, queue, ("rate", "delay", "queue"))
    host = _canonical_link(host_rate or rate, host_delay or delay, host_queue or queue,
                           ("host_rate" if host_rate else "rate", "host_delay" if host_delay else "delay",
                            "host_queue" if host_queue else "queue"))
    g = _graph()
    for plane in range(nfabs):
        for j in range(nspines):
            g.add_node(f"x{plane}s{j}", role="spine")
    h = 0
    for pod in range(npods):
        for i in range(nfabs):
            g.add_node(f"p{pod}f{i}", role="fabric", pod=pod)
            for j in range(nspines):
                _add(g, f"p{pod}f{i}", f"x{i}s{j}", rate=fabric[0], delay=fabric[1], queue=fabric[2],
                     role="fabric-spine")
        for r in range(nracks):
            tor = f"p{pod}t{r}"
            g.add_node(tor, role="tor", pod=pod)
            for i in range(nfabs):
                _add(g, tor, f"p{pod}f{i}", rate=fabric[0], delay=fabric[1], queue=fabric[2], role="tor-fabric")
            for _ in range(nhosts):
                g.add_node(f"h{h}", role="host", pod=pod)
                _add(g, f"h{h}", tor, rate=host[0], delay=host[1], queue=host[2], role="host")
                h += 1
    args: dict[str, Any] = {"pods": npods, "racks": nracks, "hosts": nhosts, "fabrics": nfabs, "spines": nspines,
                            "rate": rate, "delay": delay, "queue": queue}
    args.update({n: v for n, v in (("host_rate", host_rate), ("host_delay", host_delay),
                                   ("host_queue", host_queue)) if v is not None})
    _record(g, "meta-fabric", args, ("h0", f"h{h - 1}"))
    return g


def binary_tree(depth: int, *, rate: str = "10Mbps", delay: str = "1ms", queue: str = "100p",
                delay_max: str | None = None, seed: int = 1) -> nx.Graph:
    """The complete binary tree of ``depth`` levels (depth 1 is the root alone, so depth 6 has
    63 nodes): 2^depth - 1 nodes ``n0..``, in heap order (root ``n0``; the children of ``ni``
    are ``n(2i+1)`` and ``n(2i+2)``; the topmost 2^j - 1 nodes are ``n0..n(2^j - 2)``), 2^depth - 2
    links parent to child in that order. Nodes have a ``level`` (root 1). Every link has
    ``delay``, or with ``delay_max`` a delay drawn uniformly from [delay, delay_max] (whole
    nanoseconds, seeded)."""
    d = _whole(depth, "depth", 2, MAX_DEPTH)
    s = _seed(seed)
    r, lo, q = _canonical_link(rate, delay, queue, ("rate", "delay", "queue"))
    lo_ns = hi_ns = _ns(lo)
    if delay_max is not None:
        hi_ns = _ns(_canonical_link(rate, delay_max, queue, ("rate", "delay_max", "queue"))[1])
        if hi_ns < lo_ns:
            raise SpecError(f"must not be less than delay ({delay!r}), found {delay_max!r}", "delay_max")
    rng = random.Random(s)
    g = _graph()
    count = 2**d - 1
    for i in range(count):
        g.add_node(f"n{i}", level=(i + 1).bit_length())
    # CHOICE: random delays are whole microseconds when both bounds are (whole nanoseconds
    # otherwise), so the file reads "2380us" rather than "2379646ns".
    step = 1000 if lo_ns % 1000 == 0 and hi_ns % 1000 == 0 else 1
    for child in range(1, count):
        ns = lo_ns if delay_max is None else lo_ns + step * int(rng.random() * ((hi_ns - lo_ns) // step + 1))
        _add(g, f"n{(child - 1) // 2}", f"n{child}", rate=r, delay=format_duration(ns), queue=q)
    args: dict[str, Any] = {"depth": d, "rate": rate, "delay": delay, "queue": queue}
    if delay_max is not None:
        args.update(delay_max=delay_max, seed=s)
    _record(g, "binary-tree", args, ("n0", f"n{count - 1}"))
    g.graph["seed"] = s
    return g


def waxman(nodes: int, *, scale: int = 100, method: int | str = 2, alpha: float = 0.4, beta: float = 0.1,
           seed: int = 1, ms_per_unit: float = 1.0, rate: str = "10Mbps", queue: str = "100p",
           reachable_from: str | None = None) -> nx.Graph:
    """A GT-ITM "geo" random graph (flat; geog.c ``geo()``), drawn in GT-ITM's order.

    ``nodes`` nodes ``n0..`` are placed one after another at uniform integer points of a
    ``scale`` x ``scale`` grid, a point already taken drawn again. Then each pair (i, j), i < j
    in order, is joined with probability p (L = sqrt(2) scale, the grid's diagonal):

    - ``method`` 2 or ``"rg1"`` (Waxman's RG1): p = alpha exp(-d / (beta L)), d the Euclidean
      distance;
    - ``method`` 1 or ``"rg2"`` (Waxman's RG2): d is replaced by a distance drawn uniformly
      from [0, L] for each pair, so p does not depend on where the nodes are;
    - ``method`` 3 or ``"random"``: p = alpha (Erdos-Renyi G(n, alpha); ``beta`` unused).

    ``alpha`` (0 < alpha <= 1) is the largest probability and ``beta`` (> 0) the distance
    scale, as in GT-ITM; networkx's ``waxman_graph`` calls them ``beta`` and ``alpha``.

    A link's ``length`` is rint(d) grid units, as GT-ITM records it (for RG2 the random
    distance, as GT-ITM's fall-through does), its ``delay`` length x ``ms_per_unit``
    milliseconds (default 1, the scale that fits TCP-M's reported delays; ns-2's sgb2comns
    used 10). Nodes carry ``pos`` (x, y), links also ``distance`` (Euclidean, unrounded).

    The graph need not be connected (GT-ITM does not redraw). ``reachable_from`` keeps only
    the nodes reachable from that node (names unchanged); otherwise isolated nodes stay in the
    graph but, being in no link, not in the scenario.
    """
    n = _whole(nodes, "nodes", 2, MAX_WAXMAN_NODES)
    sc = _whole(scale, "scale", 1, MAX_SCALE)
    if n > sc * sc:
        raise SpecError(f"{n} nodes do not fit on a {sc} x {sc} grid (one node per point): use scale >= "
                        f"{math.isqrt(n - 1) + 1}", "nodes")
    names = {v: k for k, v in WAXMAN_METHODS.items()}
    if isinstance(method, str) and method.lower() in names:
        m = names[method.lower()]
    elif isinstance(method, int) and not isinstance(method, bool) and method in WAXMAN_METHODS:
        m = method
    else:
        raise SpecError(f"expected 1 (rg2), 2 (rg1) or 3 (random), found {method!r}", "method")
    a = _number(alpha, "alpha", 0.0, 1.0, low_open=True)
    b = _number(beta, "beta", 0.0, math.inf, low_open=True) if m != 3 else _number(beta, "beta", 0.0, math.inf)
    s = _seed(seed)
    unit = _number(ms_per_unit, "ms_per_unit", 0.0, 1e6, low_open=True)
    r, _, q = _canonical_link(rate, "1ms", queue, ("rate", "delay", "queue"))
    if reachable_from is not None and reachable_from not in {f"n{i}" for i in range(n)}:
        raise SpecError(f"expected a node name n0 to n{n - 1}, found {reachable_from!r}", "reachable_from")

    rng = random.Random(s)
    g = _graph()
    taken: set[tuple[int, int]] = set()
    pos: list[tuple[int, int]] = []
    for i in range(n):
        while True:
            x, y = int(rng.random() * sc), int(rng.random() * sc)
            if (x, y) not in taken:
                break
        taken.add((x, y))
        pos.append((x, y))
        g.add_node(f"n{i}", pos=(x, y))
    big_l = math.sqrt(2.0) * sc
    for i in range(n - 1):
        xi, yi = pos[i]
        for j in range(i + 1, n):
            xj, yj = pos[j]
            dist = math.sqrt(float((xi - xj) ** 2 + (yi - yj) ** 2))
            d = rng.random() * big_l if m == 1 else dist
            p = a if m == 3 else a * math.exp(-d / (b * big_l))
            if rng.random() < p:
                length = round(d)  # rint: halves to even, as C's rint in the default rounding mode
                ns = round(length * unit * 1e6)
                _add(g, f"n{i}", f"n{j}", rate=r, delay=format_duration(ns), queue=q, length=length,
                     distance=dist)
    removed = 0
    if reachable_from is not None:
        import networkx as nx

        if g.degree(reachable_from) == 0:
            raise SpecError(f"{reachable_from} is in no link of this graph (seed {s}): nothing is reachable from it",
                            "reachable_from")
        keep = nx.node_connected_component(g, reachable_from)
        removed = n - len(keep)
        g.remove_nodes_from([v for v in list(g.nodes) if v not in keep])
    args: dict[str, Any] = {"nodes": n, "scale": sc, "method": m, "alpha": a, "beta": b, "seed": s,
                            "ms_per_unit": unit, "rate": rate, "queue": queue}
    if m == 3:
        del args["beta"]  # unused by pure random graphs, as GT-ITM's spec lines omit it
    if reachable_from is not None:
        args["reachable_from"] = reachable_from
    g.graph["seed"] = s
    g.graph["unreachable_removed"] = removed
    _record(g, "waxman", args, _example_pair(g, reachable_from))
    return g


def _example_pair(g: nx.Graph, start: str | None) -> tuple[str, str] | None:
    """A flow the header can suggest: from ``start`` (or the first node in a link) to the last
    node a breadth-first search from it reaches."""
    import networkx as nx

    linked = [v for v in g.nodes if g.degree(v) > 0]
    if not linked:
        return None
    src = start if start is not None and g.degree(start) > 0 else linked[0]
    order = [src] + [v for _, v in nx.bfs_edges(g, src)]
    return (src, order[-1])


# ---------------------------------------------------------------------------------------------
# Graph -> spec

def _node_names(g: nx.Graph) -> dict[Any, str]:
    names = {v: v if isinstance(v, str) else str(v) for v in g.nodes}
    seen: dict[str, Any] = {}
    for v, name in names.items():
        if name in seen:
            raise SpecError(f"nodes {seen[name]!r} and {v!r} both become the node name {name!r}", "graph")
        seen[name] = v
    return names


def links(graph: nx.Graph, **defaults: Any) -> list[dict[str, Any]]:
    """The ``[[links]]`` entries of ``graph``, one per edge in the graph's edge order:
    ``between`` (node names; non-string nodes such as networkx's integers become ``str(node)``)
    and the edge's ``rate``, ``delay``, ``queue`` and ``loss`` attributes, an attribute an edge
    lacks taken from ``defaults`` (``links(nx.path_graph(4), rate="10Mbps", delay="5ms")``).
    Other attributes (``length``, ``role``) are left out."""
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise SpecError(f"expected a networkx graph, found {type(graph).__name__}", "graph")
    if graph.is_directed():
        raise SpecError("a directed graph: a ccsim link is duplex; pass graph.to_undirected()", "graph")
    if graph.is_multigraph():
        raise SpecError("a multigraph: ccsim allows one link between two nodes", "graph")
    unknown = sorted(set(defaults) - set(LINK_KEYS))
    if unknown:
        raise SpecError(f"not a link key: {unknown[0]!r} (link keys: {', '.join(LINK_KEYS)})", "defaults")
    names = _node_names(graph)
    out: list[dict[str, Any]] = []
    for u, v, attrs in _edges(graph):
        where = f"links[{len(out)}]"
        if u == v:
            raise SpecError(f"a link from {names[u]!r} to itself", where)
        link: dict[str, Any] = {"between": [names[u], names[v]]}
        for key in LINK_KEYS:
            value = attrs.get(key, defaults.get(key))
            if value is not None:
                link[key] = value
        for key in ("rate", "delay"):
            if key not in link:
                raise SpecError(f"the edge ({names[u]!r}, {names[v]!r}) has no {key!r} attribute and no default "
                                f"was given (links(graph, {key}=...))", where)
        out.append(link)
    if not out:
        raise SpecError("the graph has no edges; a scenario needs at least one link", "graph")
    return out


def _run_seed(graph: nx.Graph, seed: int | None) -> int:
    return _seed(seed if seed is not None else graph.graph.get("seed", 1))


def scenario_dict(graph: nx.Graph, *, duration: str = "60s", seed: int | None = None,
                  **defaults: Any) -> dict[str, Any]:
    """``{"run": ..., "links": [...]}`` for ``graph``, validated; append ``flows`` and run it.
    The run's ``seed`` is ``seed``, else the graph's (a seeded generator's), else 1."""
    from .spec import validate

    spec_links = links(graph, **defaults)
    spec: dict[str, Any] = {"run": {"duration": duration, "seed": _run_seed(graph, seed)}, "links": spec_links}
    try:
        validate(spec)
    except SpecError as e:
        if e.path == "run.duration":
            raise SpecError(e.message, "duration") from None
        raise
    return spec


def scenario(graph: nx.Graph, *, duration: str = "60s", seed: int | None = None, **defaults: Any) -> Scenario:
    """A :class:`ccsim.Scenario` holding ``graph``'s links; add flows with ``.flow(...)``."""
    from .spec import Scenario

    spec = scenario_dict(graph, duration=duration, seed=seed, **defaults)
    sc = Scenario(duration=spec["run"]["duration"], seed=spec["run"]["seed"])
    for link in spec["links"]:
        a, b = link["between"]
        sc.link(a, b, **{k: v for k, v in link.items() if k != "between"})
    return sc


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise SpecError(f"{type(value).__name__} cannot be written to TOML", "graph")


def _arg(value: Any) -> str:
    """A value as the command line takes it: 0.03, 1 (not 1.0), 100Mbps."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    return str(value)


def command_line(graph: nx.Graph, *, duration: str = "60s", seed: int | None = None) -> str | None:
    """The ``ccsim topology`` command that writes the same file as ``to_toml(graph, duration=...,
    seed=...)`` (None for a graph of your own). It records the generator's arguments: edits
    made to the graph afterwards are not in it."""
    made = graph.graph.get("ccsim")
    if not made:
        return None
    parts = ["ccsim topology", made["generator"]]
    for key, value in made["args"].items():
        if key == "hop_rates":
            parts += [f"--hop-rate {i}={r}" for i, r in value.items()]
        elif key == "cross":
            parts += [] if value else ["--no-cross"]
        elif key == "ms_per_unit":  # the command line takes a duration with its unit
            parts.append(f"--delay-per-unit {_arg(value)}ms")
        else:
            parts.append(f"--{key.replace('_', '-')} {_arg(value)}")
    if duration != "60s":
        parts.append(f"--duration {duration}")
    run_seed = _run_seed(graph, seed)
    if run_seed != made["args"].get("seed", 1):
        parts.append(f"--run-seed {run_seed}")
    return " ".join(parts)


def to_toml(graph: nx.Graph, *, duration: str = "60s", seed: int | None = None, **defaults: Any) -> str:
    """The scenario file for ``graph``: a header (how it was made, its size, how to add flows),
    ``[run]`` and the ``[[links]]``. The same arguments give the same text, byte for byte."""
    spec = scenario_dict(graph, duration=duration, seed=seed, **defaults)
    names = {n for link in spec["links"] for n in link["between"]}
    made = graph.graph.get("ccsim") or {}
    cmd = command_line(graph, duration=duration, seed=seed)
    lines = [f"{MARKER}{': ' + made['generator'] if made else ''}."]
    if cmd:
        lines.append(f"# {cmd}")
    lines.append(f"# {len(names)} nodes, {len(spec['links'])} links.")
    isolated = sum(1 for v in graph.nodes if graph.degree(v) == 0)
    if isolated:
        lines.append(f"# {isolated} nodes of the graph are in no link and so not in this file.")
    if made.get("generator") == "waxman":
        if "reachable_from" in made["args"]:
            lines.append(f"# Kept the {len(names)} nodes reachable from {made['args']['reachable_from']}; "
                         f"{graph.graph.get('unreachable_removed', 0)} were not.")
        delays = sorted(_delay_ns(link["delay"]) for link in spec["links"])
        lines.append(f"# Link delays {format_duration(delays[0])} to {format_duration(delays[-1])} "
                     f"({_arg(made['args']['ms_per_unit'])} ms per grid unit).")
    src, dst = made.get("example_flow") or spec["links"][0]["between"]
    lines += ["# Add flows at the end of this file (docs/scenarios.md lists their keys), e.g.",
              "#   [[flows]]", '#   name = "tcp1"', '#   protocol = "newreno"', f"#   from = {json.dumps(src)}",
              f"#   to = {json.dumps(dst)}", "# then run it: ccsim run FILE -o out", "",
              "[run]", f"duration = {_toml_value(spec['run']['duration'])}", f"seed = {spec['run']['seed']}"]
    for link in spec["links"]:
        lines += ["", "[[links]]"] + [f"{k} = {_toml_value(v)}" for k, v in link.items()]
    return "\n".join(lines) + "\n"


def _delay_ns(delay: str) -> int:
    """Nanoseconds of a link's delay: generated delays are canonical already; an edited one is
    made canonical by the validator first."""
    if _DURATION.match(delay) is None:
        delay = _canonical_link("1bps", delay, "1p", ("rate", "delay", "queue"))[1]
    return _ns(delay)


def write(graph: nx.Graph, path: str | os.PathLike[str], *, force: bool = False, duration: str = "60s",
          seed: int | None = None, **defaults: Any) -> Path:
    """Write :func:`to_toml` of ``graph`` to ``path`` and return it. An existing file is never
    replaced unless ``force`` is true, and then only if ``ccsim topology`` wrote it (its first
    line is the marker): a file of yours is left alone. The file appears whole or not at all."""
    text = to_toml(graph, duration=duration, seed=seed, **defaults)
    if os.fspath(path) == "":
        raise SpecError("the file name is empty; name a scenario file (e.g. -o topo.toml)", "output")
    p = Path(path)
    if p.is_dir():
        raise SpecError(f"{p} is a folder; name a scenario file", "output")
    if p.exists() or p.is_symlink():
        if not force:
            raise SpecError(f"{p} exists; choose another name, or replace it with --force (force=True in "
                            "Python) if ccsim topology wrote it", "output")
        if not _ours(p):
            raise SpecError(f"{p} exists and was not written by ccsim topology (its first line is not "
                            f"{MARKER!r}); move it or choose another name", "output")
    parent = p.parent
    if not parent.is_dir():
        why = "is not a folder" if parent.exists() else "does not exist"
        raise SpecError(f"cannot write {p}: {parent} {why}", "output")
    from .results import atomic_write_text

    try:
        atomic_write_text(p, text)
    except OSError as e:
        raise SpecError(f"cannot write {p}: {e.strerror or e}", "output") from None
    return p


def _ours(p: Path) -> bool:
    try:
        with p.open("r", encoding="utf-8") as f:
            return f.readline().startswith(MARKER)
    except (OSError, UnicodeDecodeError):
        return False


__all__ = ["MARKER", "binary_tree", "command_line", "dumbbell", "format_duration", "links",
           "parking_lot", "scenario", "scenario_dict", "to_toml", "waxman", "write"]


# --- `[topology]` in a scenario file --------------------------------------------------------------

#: The fabrics a scenario may name in ``[topology] kind``, and their builders' names.
TOPOLOGY_KINDS = {"fat-tree": "fat_tree", "leaf-spine": "leaf_spine", "meta-fabric": "meta_fabric"}


def expand_topology(doc: dict[str, Any]) -> bool:
    """Replace, in place, a scenario's ``[topology]`` table (``kind = "fat-tree"`` and the
    builder's arguments, e.g. ``k = 8``, ``rate = "100Gbps"``) by the ``[[links]]`` it builds,
    placed before the file's own links; return whether there was one. ``queue`` and
    ``host_queue`` may be queue tables (``{ kind = "step", limit = "1000p", threshold = 100 }``),
    given to the switch links and the host links (``host_queue`` defaults to ``queue``). Errors
    name ``topology.<key>``. So the canonical spec, and the result cache's key, holds the links
    themselves."""
    import inspect

    table = doc.get("topology")
    if table is None:
        return False
    if not isinstance(table, dict):
        raise SpecError('expected a table such as { kind = "fat-tree", k = 8 }', "topology")
    kind = table.get("kind")
    if kind not in TOPOLOGY_KINDS:
        raise SpecError(f"expected one of {', '.join(TOPOLOGY_KINDS)}, found {kind!r}", "topology.kind")
    builder = globals()[TOPOLOGY_KINDS[kind]]
    args = {k: v for k, v in table.items() if k != "kind"}
    accepted = inspect.signature(builder).parameters
    for key in args:
        if key not in accepted:
            raise SpecError(f"not a {kind} argument (expected one of {', '.join(accepted)})", f"topology.{key}")
    tables = {k: args.pop(k) for k in ("queue", "host_queue") if isinstance(args.get(k), dict)}
    try:
        graph = builder(**args)
    except SpecError as e:
        raise SpecError(e.message, f"topology.{e.path}") from None
    except TypeError as e:
        raise SpecError(str(e), "topology") from None
    built = links(graph)
    switch_queue = tables.get("queue")
    host_queue = tables.get("host_queue", switch_queue if "host_queue" not in table else None)
    for link in built:
        a, b = link["between"]
        queue = host_queue if graph.edges[a, b].get("role") == "host" else switch_queue
        if queue is not None:
            link["queue"] = queue
    own = doc.get("links", [])
    doc["links"] = built + (own if isinstance(own, list) else [own])
    del doc["topology"]
    return True


def _register() -> None:
    from .spec import DOCUMENT_EXPANDERS

    if expand_topology not in DOCUMENT_EXPANDERS:
        DOCUMENT_EXPANDERS.append(expand_topology)


_register()
