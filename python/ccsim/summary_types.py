"""The types of a run's summary: :attr:`ccsim.Result.summary` is a :class:`Summary`,
:attr:`ccsim.Result.overview` an :class:`Overview`, both plain dicts at run time.

Each TypedDict mirrors a serde struct of crates/ccsim-scenario/src/summary.rs (and
:class:`TicpSummary`, :class:`TcpmSummary` those of its protocols/ticp.rs and protocols/tcpm.rs):
a field that is always written is a required key, ``T | None`` when it is an ``Option``; a
field that serde leaves out when it is empty or ``None`` is an optional key.

CHOICE: optional keys are declared in a ``total=False`` subclass of a class with the required
ones rather than with ``NotRequired``, which needs Python 3.11 or typing_extensions (not a
dependency); mypy reads both the same, and ``__required_keys__`` is right on every Python.

CHOICE: two types, :class:`Overview` (``summary.json`` without flows and links) and
:class:`Summary` (the overview with ``flows`` and ``links`` required), rather than one with
optional ``flows`` and ``links``: :attr:`ccsim.Result.summary` always has them and
:attr:`ccsim.Result.overview` never does, and a ``Summary`` is accepted where an ``Overview``
is asked for.
"""

from typing import TypedDict


class _FlowSummaryRequired(TypedDict):
    protocol: str
    goodput_bps: float
    arrival_bps: float
    held_at_start_bytes: int
    sent_packets: int
    sent_bytes: int
    received_packets: int
    received_bytes: int
    lost_packets: int
    retransmitted_packets: int
    timeouts: int
    completion_time_s: float | None
    greedy: bool
    mean_delay_s: float | None


class FlowSummary(_FlowSummaryRequired, total=False):
    """One flow's results over the measurement window (``summary["flows"][name]``)."""

    #: With multipath routing: the nodes its data crosses, space-separated (absent with spray).
    route: str
    #: With multipath routing: the number of equal-cost paths between its ends.
    paths: int


class Dualpi2Summary(TypedDict):
    """A DualPI2 link's counters by queue (on DualPI2 links only)."""

    l_packets: int
    c_packets: int
    l_step_marks: int
    l_coupled_marks: int
    c_marks: int
    l_drops: int
    c_drops: int
    l_sojourn_mean_s: float | None
    l_sojourn_p99_s: float | None
    c_sojourn_mean_s: float | None
    c_sojourn_p99_s: float | None
    base_probability: float


class _LinkSummaryRequired(TypedDict):
    utilization: float
    drops: int
    drops_by_reason: dict[str, int]
    mean_queue_packets: float
    tx_packets: int
    ecn_marks: int


class LinkSummary(_LinkSummaryRequired, total=False):
    """One link direction's results over the window (``summary["links"]["a->b"]``)."""

    #: A DualPI2 link's counters by queue.
    dualpi2: Dualpi2Summary


class Fairness(TypedDict):
    """Jain's index over the flows' goodputs (``None`` without flows or when all got nothing)."""

    jain: float | None


class RunInfo(TypedDict):
    """Run statistics (``summary["run"]``)."""

    seed: int
    spec_hash: str
    events: int
    sim_seconds: float
    warmup_seconds: float
    wall_seconds: float
    events_per_second: float
    packets_per_second: float


class Percentiles(TypedDict):
    """A spread: smallest, 10th percentile, median, 90th percentile, largest."""

    min: float
    p10: float
    median: float
    p90: float
    max: float


class Aggregate(TypedDict):
    """Totals and spread over the spec's flows (``summary["aggregate"]``)."""

    flows: int
    goodput_bps: float
    goodput_bps_percentiles: Percentiles | None
    lowest_flow: str | None
    highest_flow: str | None
    starved_flows: int
    sent_packets: int
    received_packets: int
    lost_packets: int
    retransmitted_packets: int
    timeouts: int


class SlowdownBucket(TypedDict):
    """The completed flows of one size bucket of a ``kind = "flows"`` generator."""

    from_percent: int
    to_percent: int
    max_size_bytes: int
    flows: int
    mean: float
    p50: float
    p95: float
    p99: float


class WebTransfers(TypedDict, total=False):
    """A web or flows generator's transfers: all of these keys or none (serde flattens them
    into :class:`TrafficSummary`)."""

    completed: int
    mean_fct_s: float | None
    fct_s: Percentiles | None
    mean_slowdown: float | None
    slowdown: Percentiles | None
    bytes_started: int


class _TrafficSummaryRequired(TypedDict):
    kind: str
    started: int
    sent_packets: int
    received_packets: int
    lost_packets: int
    goodput_bps: float
    mean_delay_s: float | None


class TrafficSummary(_TrafficSummaryRequired, WebTransfers, total=False):
    """One traffic generator's results over the whole run (``summary["traffic"][name]``)."""

    offered_bps: float
    alone_runs: int
    alone_cached: int
    slowdown_buckets: list[SlowdownBucket]


class _TopologyRecordRequired(TypedDict):
    at_s: float
    what: str


class TopologyRecord(_TopologyRecordRequired, total=False):
    """One change of a link's or node's state ("link", "node") or of the routes ("routes")."""

    name: str
    state: str
    unreachable: int


class TicpClusterSummary(TypedDict):
    """A TICP cluster's first round."""

    nodes: list[str]
    sources: int
    bin: list[int] | None
    first_request_s: float | None
    last_request_s: float | None
    request_rate_bps: float | None
    report_rate_bps: float | None


class TicpSummary(TypedDict):
    """One TICP session's results (``summary["ticp"][name]``)."""

    duration_s: float | None
    began_s: float | None
    reports_expected: int
    reports_received: int
    rounds: int
    delayed_reports: int
    duplicate_reports: int
    requests_sent: int
    request_packets: int
    window_halvings: int
    window_resets: int
    collector_bin: list[int] | None
    clusters: list[TicpClusterSummary]


class TcpmFailure(TypedDict):
    """A failure a TCP-M session's Group Module reported."""

    receiver: str
    at_s: float
    stage: str
    revived_s: float | None


class TcpmDeath(TypedDict):
    """A child a TCP-M fusion node (or the source) declared dead."""

    node: str
    child: str
    at_s: float


class TcpmSummary(TypedDict):
    """One TCP-M session's results (``summary["tcpm"][name]``)."""

    throughput_bps: float | None
    acked_bytes: int
    data_start_s: float | None
    data_done_s: float | None
    completion_s: float | None
    completed: list[str]
    failed: list[str]
    failures: list[TcpmFailure]
    abandoned: bool
    acks_at_source: int
    acks_to_tcp: int
    acks_from_receivers: int
    reverse_paths: int
    retransmissions: int
    timeouts: int
    fusion_nodes: dict[str, int]
    max_fusion_children: int
    max_fusion_memory_words: int
    deaths: list[TcpmDeath]


class _OverviewRequired(TypedDict):
    aggregate: Aggregate
    fairness: Fairness
    run: RunInfo


class Overview(_OverviewRequired, total=False):
    """``summary.json`` without the per-flow and per-link entries (:attr:`ccsim.Result.overview`);
    the sections of sessions, generators, topology changes and node drops only when there are any."""

    ticp: dict[str, TicpSummary]
    tcpm: dict[str, TcpmSummary]
    traffic: dict[str, TrafficSummary]
    topology: list[TopologyRecord]
    #: Packets lost at nodes, by node and reason.
    node_drops: dict[str, dict[str, int]]


class Summary(Overview):
    """The overview with every spec flow and link direction (:attr:`ccsim.Result.summary`)."""

    flows: dict[str, FlowSummary]
    links: dict[str, LinkSummary]


__all__ = [
    "Aggregate",
    "Dualpi2Summary",
    "Fairness",
    "FlowSummary",
    "LinkSummary",
    "Overview",
    "Percentiles",
    "RunInfo",
    "SlowdownBucket",
    "Summary",
    "TcpmDeath",
    "TcpmFailure",
    "TcpmSummary",
    "TicpClusterSummary",
    "TicpSummary",
    "TopologyRecord",
    "TrafficSummary",
    "WebTransfers",
]
