"""A ccsim spec as an ns-2.35 Tcl script: the subset the ns-2 papers' baselines use.

`translate(spec)` takes any spec form ccsim accepts, fills in every default through ccsim's
own validator (`_ccsim.full_spec`, what `ccsim validate --print` shows), and returns a
`Translation`: the Tcl text and the names of the flows and link directions it measures. What
ns-2.35 cannot run as ccsim does is refused with `Untranslatable`, whose message names the
key (`flows[2].protocol: ...`), never approximated silently.

The script writes one JSON object on stdout at the end of the run with the same measures as
ccsim's summary over the window [warmup, duration]: per flow the in-order goodput (the sink's
`bytes_`, which counts whole packets handed up in order, times payload / packet size), the
timeouts (`nrexmit_`) and the retransmitted segments (`nrexmitpack_`); per link direction the
utilisation (bytes dequeued for transmission over rate x window), the drops and the mean
waiting queue (a QueueMonitor's packet integrator). With `trace=True` every TCP agent's
`cwnd_`, `ssthresh_`, `srtt_`, `rttvar_` and `backoff_` changes are written by its trace to
`<trace_dir>/<flow>.ns2trace` (ns-2's own format: time, addresses, variable, value), which
oracle.py turns into cwnd, ssthresh and RTO series (`run.py --trace DIR`).

The series the spec's `output.series` names are sampled as ccsim samples them (at interval,
2 x interval, ... and at the end of the run; a flow after its start) and printed one per line
(`CCSIM-NS2-SAMPLE time variable entity value`): `rate` (per flow, the sink's new in-order
bytes times payload / packet size over the time since the last sample, bit/s), `sent_rate`
(per TCP flow, data packets sent times their wire size, bit/s), `queue` and `queue_bytes` (per
link direction, the waiting packets and bytes), `cwnd` and `ssthresh` (per TCP flow, bytes).
Other series are not produced (`Translation.series` lists those that are). Per flow, the
data packets sent (`ndatapack_`) and dropped in any queue (a flow monitor per link direction,
classified by `fid_`) give `sent_packets` and `lost_packets`.

CHOICE: ns-2's sink counts a packet when it is handed up in order, ccsim's `rate` when it first
arrives (in order or above a gap): over one interval they differ by what a hole held back,
over a run by nothing.
CHOICE: a flow's data packets carry `fid_` = its index, its ACKs index + number of flows, so
that a flow's `lost_packets` counts its data packets only, as ccsim's does. ns-2 counts the
drops of the window [warmup, duration] by instant, ccsim by the send instant of the packet
(docs/metrics.md): they differ by the drops of packets in flight at the warm-up's end.

Every mapping choice is here, each as a CHOICE line, and listed in docs/validation.md
("ns-2.35 as a second oracle"):

CHOICE: ccsim's `packet_size` is the whole packet; ns-2's `packetSize_` is the payload and it
adds `tcpip_base_hdr_size_` (40 B, ccsim's TCP header without options) on the wire, so
packetSize_ = packet_size - 40 (Vegas adds none: packetSize_ = packet_size; `wire_header`). ACKs are 40 B in both. UDP sources send `packetSize_` as the
wire size in both.
CHOICE: DropTail's `queue-limit` L drops an arrival when L - 1 packets wait (drop-tail.cc
`q_->length() + 1 >= qlim_`); ccsim's `queue = "Np"` holds N waiting packets, so L = N + 1.
A byte limit maps to `queue-in-bytes_` with `limit_` in `mean_pktsize_` units only when it is
a whole multiple; otherwise it is refused.
CHOICE: ns-2's agents start sending at the flow's start without a handshake when ccsim's
`handshake = false` (`syn_ false`, so `delay_growth_` has nothing to delay); `handshake =
true` maps to ns-2's default one-way SYN (`syn_ true`, `delay_growth_ true`: a 40 B first
packet, growth after its ACK), which is a SYN and its ACK, not a three-way handshake.
CHOICE: `window_` (ns-2's receiver window, 20 by default) is ccsim's `max_window`, or
1 000 000 segments when ccsim's is unbounded; `maxburst_ 0`, as ns-2's default.
CHOICE: the delayed-ACK sink's `interval_` is ccsim's 200 ms (ns-2's default is 100 ms).
CHOICE: ns-2's timer constants are the flow's `tick`, `initial_rto`, `min_rto` (absent:
ns-2.35's 10 ms, 3 s, 200 ms, which are ccsim's `rto = "ns2"` defaults too); a flow on any
other timer is refused: ns-2.35 has only its own.
CHOICE: ns-2's static routing takes the fewest hops; a topology with more than one path
between two nodes is refused rather than routed differently from ccsim's delay routing.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from ccsim import _ccsim
from ccsim.errors import SpecError
from ccsim.spec import to_json_text

#: ns-2's TCP/IP header without options, ccsim's TCP header without options.
TCPIP_HEADER = 40
#: IPv4 and UDP headers, which ccsim's UDP sources count inside `packet_size` and out of goodput.
UDP_IP_HEADER = 28
#: The series a translated script can sample, as ccsim names them.
SERIES = ("rate", "sent_rate", "queue", "queue_bytes", "cwnd", "ssthresh")
#: The prefix of a result line and of a sample line on the script's standard output.
RESULT_MARKER = "CCSIM-NS2-RESULT "
SAMPLE_MARKER = "CCSIM-NS2-SAMPLE "
#: `window_` when ccsim's receiver window is unbounded.
UNBOUNDED_WINDOW = 1_000_000
#: ccsim's delayed-ACK timer (RFC 1122's 200 ms; docs/protocols.md).
DELACK_INTERVAL_S = 0.2

TCP_AGENTS = {
    "tahoe": "Agent/TCP",
    "reno": "Agent/TCP/Reno",
    "newreno": "Agent/TCP/Newreno",
    "sack": "Agent/TCP/Sack1",
    "vegas": "Agent/TCP/Vegas",
    "xcp": "Agent/TCP/Reno/XCP",
}
#: A generator's packet size and rate when the spec leaves them out (crates/ccsim-scenario/src/spec/traffic.rs,
#: `TrafficSpec::packet_size`, `rate_bps`, `on_off`), and the voice source's mean talk spurt and silence.
TRAFFIC_DEFAULTS = {"web": ("1000B", None), "voice": ("200B", "64kbps"), "streaming": ("840B", "640kbps")}
VOICE_ON_OFF = ("1s", "1.35s")
#: ccsim's rate-based data header: IP, UDP and 12 bytes (sequence, timestamp, RTT; docs/protocols.md).
RATE_HEADER = 40
#: ns-2.35's TFRC `headersize_`, added to `packetSize_` on the wire (`useHeaders_ true`).
TFRC_HEADER = 32
#: ccsim's TFRC feedback packet.
TFRC_FEEDBACK = 44
#: ns-2.35's timestamp option (`ts_option_size_`), on by default in Agent/TCP/Reno/XCP.
TS_OPTION = 10


class Untranslatable(SpecError):
    """A spec ns-2.35 cannot run as ccsim does; the message names the key."""


@dataclasses.dataclass
class Translation:
    tcl: str
    flows: list[str]
    links: list[str]  # "a->b", the directions measured
    trace_files: dict[str, str]  # flow name -> file trace-var writes (with trace=True)
    #: flow name -> (tcpTick_, minrto_, maxrto_, payload bytes), to read its trace
    timers: dict[str, tuple[float, float, float, int]] = dataclasses.field(default_factory=dict)
    #: The series the script samples (of those `output.series` names), and the interval, s.
    series: list[str] = dataclasses.field(default_factory=list)
    interval: float = 0.0
    #: generated flow name -> `generator`, `protocol` (as flows.parquet names it), `start_s` and
    #: `size_bytes`, for the flows replayed from ccsim's run
    generated: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Generated:
    """A flow a `[[traffic]]` generator started in ccsim's run (a row of flows.parquet):
    ns-2.35 replays it with the same start (and, for a web transfer, size)."""

    name: str
    generator: str
    start: float  # s
    size: int | None = None  # bytes, web transfers


def generated_flows(result: Any) -> list[Generated]:
    """The generated flows of a ccsim run (`ccsim.Result`), in the order ccsim started them."""
    flows = result.flows()
    gen = flows[flows["generator"] != ""]
    return [Generated(str(name), str(g), float(start), None if size != size else int(size))
            for name, g, start, size in zip(gen.index, gen["generator"], gen["start_s"], gen["size_bytes"])]


def _replayed(full: dict[str, Any], generated: list[Generated]) -> list[tuple[str, dict[str, Any], str]]:
    """Every generated flow as a flow of the script: web transfers as finite TCP transfers of
    the generator's protocol and options, voice sources as Exponential on/off sources over UDP,
    streaming sources as CBR over UDP.

    CHOICE: web transfers keep ccsim's drawn starts and sizes; only generators with one `from`
    and one `to` node are replayed, since the endpoints drawn per transfer are not in ccsim's
    results. Voice and streaming source k keeps its drawn start and `from[k mod n]`,
    `to[k mod n]`; the on/off periods are ns-2.35's own draws."""
    gens = {g["name"]: (i, g) for i, g in enumerate(full["traffic"])}
    bases: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    out: list[tuple[str, dict[str, Any], str]] = []
    for flow in generated:
        if flow.generator not in gens:
            raise Untranslatable(f"traffic: {flow.name} names a generator {flow.generator!r} the spec does not have")
        i, g = gens[flow.generator]
        key = f"traffic[{i}]"
        k = counts.get(flow.generator, 0)
        counts[flow.generator] = k + 1
        stop = g.get("stop")
        packet_size, rate = g.get("packet_size") or TRAFFIC_DEFAULTS[g["kind"]][0], \
            g.get("rate") or TRAFFIC_DEFAULTS[g["kind"]][1]
        if g["kind"] == "web":
            if flow.generator not in bases:
                for end in ("from", "to"):
                    _refuse_unless(len(g[end]) == 1, f"{key}.{end}",
                                   f"{len(g[end])} nodes, one drawn per transfer: the draws are not in ccsim's "
                                   f"results, so the transfers cannot be replayed")
                one = {"name": "w", "protocol": g["protocol"], "from": g["from"][0], "to": g["to"][0],
                       "packet_size": packet_size, **(g.get("options") or {})}
                checked = full_spec({"run": {"duration": full["run"]["duration"], **{
                    k2: v for k2, v in full["run"].items() if k2 == "xcp_router"}}, "links": full["links"],
                    "flows": [one]})
                bases[flow.generator] = checked["flows"][0]
            _refuse_unless(flow.size is not None and flow.size > 0, key, f"{flow.name} has no size")
            f = dict(bases[flow.generator], name=flow.name, start=f"{flow.start!r}s", size=f"{flow.size}B", stop=None)
        else:
            f = {"name": flow.name, "protocol": "voice" if g["kind"] == "voice" else "cbr",
                 "from": g["from"][k % len(g["from"])], "to": g["to"][k % len(g["to"])],
                 "start": f"{flow.start!r}s", "stop": stop, "rate": rate, "packet_size": packet_size,
                 "on": g.get("on") or VOICE_ON_OFF[0], "off": g.get("off") or VOICE_ON_OFF[1]}
        out.append((key, f, flow.generator))
    return out


_UNITS_S = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
_UNITS_BPS = {"bps": 1.0, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12}
_UNITS_B = {"B": 1, "kB": 1000, "KB": 1000, "MB": 10**6, "GB": 10**9}


def _split(text: str) -> tuple[float, str]:
    m = re.fullmatch(r"([0-9.eE+-]+)\s*([A-Za-zµ]*)", str(text))
    if not m:
        raise Untranslatable(f"cannot read {text!r}")
    return float(m.group(1)), m.group(2)


def seconds(text: str) -> float:
    v, u = _split(text)
    return v * _UNITS_S[u]


def bps(text: str) -> float:
    v, u = _split(text)
    return v * _UNITS_BPS[u]


def nbytes(text: str) -> int:
    v, u = _split(text)
    return int(round(v * _UNITS_B[u]))


def full_spec(spec: Any) -> dict[str, Any]:
    """Every key with its value, defaults included (raises ccsim.SpecError on bad input)."""
    result: dict[str, Any] = json.loads(_ccsim.full_spec(to_json_text(spec)))
    return result


def _num(x: float) -> str:
    # 15 significant digits: exact for every value a spec can write, without binary residue.
    return f"{float(x):.15g}"


def _refuse_unless(cond: bool, key: str, why: str) -> None:
    if not cond:
        raise Untranslatable(f"{key}: {why}")


def _next_hop(neighbours: dict[str, list[str]], src: str, dst: str) -> str:
    """The neighbour of `src` on the path to `dst` (the topology is a tree: _tree_check)."""
    seen = {src: src}
    frontier = [src]
    while frontier and dst not in seen:
        node = frontier.pop(0)
        for n in neighbours.get(node, []):
            if n not in seen:
                seen[n] = seen[node] if node != src else n
                frontier.append(n)
    if dst not in seen:
        raise Untranslatable(f"flows: no path from {src} to {dst}")
    return seen[dst]


def _tree_check(links: list[dict[str, Any]]) -> None:
    parent: dict[str, str] = {}

    def find(a: str) -> str:
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a

    for i, link in enumerate(links):
        a, b = (find(x) for x in link["between"])
        if a == b:
            raise Untranslatable(f"links[{i}].between: a second path between {link['between'][0]} and "
                                 f"{link['between'][1]}; ns-2 routes by hop count, ccsim by delay")
        parent[a] = b


def _queue(i: int, link: dict[str, Any], rate: float, delay: float, xcp: bool) -> tuple[str, list[str]]:
    """The queue class and the Tcl lines that configure one direction's queue `$q` (between
    nodes `$x` and `$y`)."""
    q = link["queue"]
    key = f"links[{i}].queue"
    if xcp:
        # CHOICE: with XCP flows every link runs ns-2.35's Queue/XCP, as every ccsim link runs
        # the XCP router function; its XCP virtual queue (Queue/DropTail/XCPQ) drops as
        # DropTail does, so the limit maps as DropTail's. `set-link-capacity` gives the
        # controller the link's rate (Queue/XCP `tcp_xcp_on_ 0`: the whole rate is XCP's).
        _refuse_unless(link.get("assist", True), f"links[{i}].assist",
                       "false: ns-2.35 runs XCP on a link only through its Queue/XCP")
        _refuse_unless(isinstance(q, str) and _split(q)[1] == "p", key,
                       f"{q!r}: under XCP only a limit in packets is translated (Queue/XCP's queue-limit)")
        return "XCP", [f"$ns queue-limit $n($x) $n($y) {int(_split(q)[0]) + 1}",
                       f"$q set-link-capacity {_num(rate)}"]
    if isinstance(q, str):
        v, unit = _split(q)
        if unit == "p":
            return "DropTail", [f"$q set limit_ {int(v) + 1}"]
        raise Untranslatable(f"{key}: a byte limit ({q}) is not translated; ns-2's DropTail counts bytes "
                             f"in mean_pktsize_ units")
    _refuse_unless(q.get("kind") == "red", f"{key}.kind", f"ns-2.35 has no {q.get('kind')!r} queue here")
    _refuse_unless(q.get("profile") == "ns2.35", f"{key}.profile",
                   "only profile = \"ns2.35\" is ns-2.35's RED (fj93 counts and spaces drops otherwise)")
    lines = []
    mean = nbytes(q["mean_packet_size"]) if q.get("mean_packet_size") else 500
    lines.append(f"$q set mean_pktsize_ {mean}")
    byte_mode = True if q.get("bytes") is None else bool(q["bytes"])
    lines.append(f"$q set bytes_ {'true' if byte_mode else 'false'}")
    lines.append(f"$q set queue_in_bytes_ {'true' if byte_mode else 'false'}")
    limit = q["limit"]["value"] if isinstance(q.get("limit"), dict) else q.get("limit", "100p")
    v, unit = _split(limit)
    if byte_mode:
        if unit == "p":
            raise Untranslatable(f"{key}.limit: {limit} in packets; ns-2.35's RED in byte mode counts "
                                 f"limit_ x mean_pktsize_ bytes: write it in bytes (e.g. \"25kB\")")
        total = nbytes(limit)
        _refuse_unless(total % mean == 0, f"{key}.limit",
                       f"{limit} is not a whole number of mean_pktsize_ ({mean} B)")
        lines.append(f"$q set limit_ {total // mean}")
    else:
        _refuse_unless(unit == "p", f"{key}.limit", "a byte limit needs bytes = true")
        lines.append(f"$q set limit_ {int(v)}")
    for ours, theirs in (("min_th", "thresh_"), ("max_th", "maxthresh_"), ("w_q", "q_weight_")):
        if q.get(ours) is not None:
            lines.append(f"$q set {theirs} {_num(q[ours])}")
    if q.get("max_p") is not None:
        _refuse_unless(q["max_p"] > 0, f"{key}.max_p", "0 has no linterm_")
        lines.append(f"$q set linterm_ {_num(1.0 / q['max_p'])}")
    if q.get("gentle") is not None:
        lines.append(f"$q set gentle_ {'true' if q['gentle'] else 'false'}")
    if q.get("ecn"):
        lines.append("$q set setbit_ true")
    if q.get("mark_p") is not None:
        lines.append(f"$q set mark_p_ {_num(q['mark_p'])}")
    return "RED", lines


_TCP_DEFAULTS: dict[str, Any] = {
    "recovery": None, "clock_granularity": None, "accecn": None,
    "prr": None, "rescue_retransmission": None, "rack": None, "timestamps": False, "pacing": False,
    "tlp": None, "hystart": None, "growth": None, "xcp": None, "paced_slow_start": False,
    "pacing_spacing": None, "cubic": None, "prague": None, "ack_on_push": False,
}


def _tcp(key: str, f: dict[str, Any]) -> tuple[str, str, list[str]]:
    """Agent class, sink class and the agent's settings (`key` names the flow in messages)."""
    proto = f["protocol"]
    if proto in ("tahoe", "reno", "newreno"):
        # ns-2.35's agents always run `bug_fix_ true`; ccsim matches them with recovery = "ns2".
        _refuse_unless(f.get("recovery") == "ns2", f"{key}.recovery",
                       f"{f.get('recovery')!r}: ns-2.35's {TCP_AGENTS[proto]} recovers as recovery = \"ns2\" does")
    if proto == "xcp":
        x = f.get("xcp") or {}
        _refuse_unless(x.get("recovery") == "reno", f"{key}.xcp.recovery",
                       f"{x.get('recovery')!r}: ns-2.35's XCP sender is Agent/TCP/Reno/XCP (xcp.recovery = \"reno\")")
        _refuse_unless(x.get("desired_rate") is None, f"{key}.xcp.desired_rate",
                       "ns-2.35's XCP sender always asks for more (MAX_THROUGHPUT)")
        _refuse_unless(not f["delayed_ack"], f"{key}.delayed_ack",
                       "ns-2.35's Agent/TCPSink/XCPSink has no delayed-ACK form")
    for k, default in _TCP_DEFAULTS.items():
        if k == "recovery" and proto in ("sack", "tahoe", "reno", "newreno"):
            continue
        if k == "xcp" and proto == "xcp":
            continue
        _refuse_unless(f.get(k) == default, f"{key}.{k}",
                       f"{f.get(k)!r} has no counterpart in ns-2.35's {TCP_AGENTS[proto]}")
    _refuse_unless((f.get("rto") or "linux") == "ns2", f"{key}.rto",
                   f"{f.get('rto') or 'linux'!r}: ns-2.35 has only its own timer; run the flow with rto = \"ns2\"")
    size = nbytes(f["packet_size"])
    header = wire_header(proto)
    _refuse_unless(size > header, f"{key}.packet_size", f"{f['packet_size']} leaves no payload")
    lines = [
        f"$a set packetSize_ {size - header}",
        f"$a set window_ {f['max_window'] or UNBOUNDED_WINDOW}",
        f"$a set windowInit_ {f['initial_window']}",
        "$a set maxburst_ 0",
        f"$a set tcpTick_ {_num(seconds(f['tick']) if f.get('tick') else 0.01)}",
        f"$a set rtxcur_init_ {_num(seconds(f['initial_rto']) if f.get('initial_rto') else 3.0)}",
        f"$a set minrto_ {_num(seconds(f['min_rto']) if f.get('min_rto') else 0.2)}",
        f"$a set syn_ {'true' if f['handshake'] else 'false'}",
        f"$a set delay_growth_ {'true' if f['handshake'] else 'false'}",
        # ns-2.35's `singledup_` (1 by default) is RFC 3042's limited transmit.
        f"$a set singledup_ {1 if f['limited_transmit'] else 0}",
    ]
    if f.get("initial_ssthresh") is not None:
        ss = f["initial_ssthresh"]
        _refuse_unless(ss != "bdp", f"{key}.initial_ssthresh", "\"bdp\" is not translated; give a size")
        # CHOICE: TcpAgent::reset() sets ssthresh_ = window_ when `$ns run` resets the nodes,
        # so the initial ssthresh is set by an event at the flow's start, before its first packet.
        lines.append(f"set initial_ssthresh($a) {max(1, nbytes(ss) // (size - TCPIP_HEADER))}")
    if f["ecn"]:
        lines.append("$a set ecn_ 1")
    if proto == "vegas":
        v = f.get("vegas") or {}
        _refuse_unless(v.get("variant", "ns2") == "ns2", f"{key}.vegas.variant",
                       "only variant = \"ns2\" is ns-2.35's Agent/TCP/Vegas")
        for ours, theirs in (("alpha", "v_alpha_"), ("beta", "v_beta_"), ("gamma", "v_gamma_")):
            if v.get(ours) is not None:
                lines.append(f"$a set {theirs} {v[ours]}")
    if proto == "xcp":
        return TCP_AGENTS[proto], "Agent/TCPSink/XCPSink", lines
    sink = "Agent/TCPSink/Sack1" if proto == "sack" else "Agent/TCPSink"
    if f["delayed_ack"]:
        sink += "/DelAck"
    return TCP_AGENTS[proto], sink, lines


def _tfrc(key: str, f: dict[str, Any], size: int) -> list[str]:
    """An Agent/TFRC `$a` and its Agent/TFRCSink `$s`, as ns-2.35 runs them by default but
    for the packet sizes and history discounting.

    CHOICE: ns-2.35's TFRC puts `headersize_` (32 B) on `packetSize_` (`useHeaders_ true`), so
    packetSize_ = packet_size - 32 gives ccsim's wire size; goodput counts ccsim's payload
    (packet_size - 40: IP, UDP and 12 B of rate header) per packet received, as ccsim does.
    CHOICE: the receiver's feedback packets are ccsim's 44 B (`packetSize_` of the sink; ns-2.35's
    default is 40).
    CHOICE: history discounting follows the spec (`discount_` 1 with `tfrc.history_discounting`,
    else 0; ns-2.35's default is 1), and so does RFC 5348 section 4.5 (`ca_` 1 unless
    `tfrc.oscillation_prevention` is false; ns-2.35's default is 1, as ccsim's). Every other
    constant is ns-2.35's own: its slow start (`ssmult_` 2, `rate_init_option_` 2), `df_` 0.95
    (the weight of its RTT and sqrt-RTT averages; ccsim's q and q2 are RFC 5348's 0.9),
    `tcp_tick_` 0.1, `smooth_` 1, `minlc_` 4."""
    for k in ("initial_rate", "min_rate", "max_rate", "size", "ecn"):
        _refuse_unless(not f.get(k), f"{key}.{k}", f"{f.get(k)!r} is not translated to ns-2.35's Agent/TFRC")
    _refuse_unless(size > TFRC_HEADER, f"{key}.packet_size", f"{f['packet_size']} leaves no payload")
    options = f.get("tfrc") or {}
    discount = bool(options.get("history_discounting"))
    oscillation_prevention = options.get("oscillation_prevention") is not False
    return ["set a [new Agent/TFRC]", f"$a set packetSize_ {size - TFRC_HEADER}", "$a set useHeaders_ true",
            f"$a set headersize_ {TFRC_HEADER}", f"$a set ca_ {int(oscillation_prevention)}",
            "set s [new Agent/TFRCSink]", f"$s set packetSize_ {TFRC_FEEDBACK}", f"$s set discount_ {int(discount)}"]


def wire_header(proto: str) -> int:
    """The header bytes ns-2.35 adds to an agent's `packetSize_` on the wire.

    CHOICE: ns-2.35's XCP sender runs `timestamps_ true` (ns-default.tcl), so its data packets
    carry `ts_option_size_` (10 B) more header than ccsim's XCP packets, which have no option;
    its `packetSize_` is packet_size - 50 so the two carry packets of the same wire size, and
    its goodput counts ccsim's payload (packet_size - 40) per packet delivered, as ccsim's
    does. Its RTT estimate (xcp-end-sys.cc `rtt_update`, FIX1) needs the timestamps.
    CHOICE: ns-2.35's Vegas adds no header: `VegasTcpAgent::output` (tcp-vegas.cc) sends the
    packet `allocpkt` made, `packetSize_` bytes, where `TcpAgent::output` (tcp.cc) adds
    `headersize()`; so its `packetSize_` is the whole packet_size (before issue 41 it was
    packet_size - 40, and every Vegas twin ran 40 B short: tcpm-fusion's 80 B unicast gave
    36.3 kbit/s in ns-2.35 against ccsim's 70.0, 70.0 with the whole size)."""
    if proto == "vegas":
        return 0
    return TCPIP_HEADER + (TS_OPTION if proto == "xcp" else 0)


def _sampler(series: list[str], interval: float, sends: list[tuple[str, str, int, int]], starts: dict[str, float],
             directions: list[tuple[str, str, float]], duration: float) -> list[str]:
    """The Tcl proc `sample`, which prints every series' values since the last sample and
    schedules the next one (at k x interval, then at the end of the run)."""
    if not series:
        return ["set ns_last_sample 0"]
    out = ["set ns_last_sample 0; set ns_sample_k 0", "proc sample {} {",
           "  global ns agent sink qm ns_last_sample ns_sample_k last_bytes last_sent",
           "  set now [$ns now]; set dt [expr {$now - $ns_last_sample}]",
           "  if {$dt <= 0} { return }"]
    for name, kind, payload, wire in sends:
        out.append(f"  if {{$now > {_num(starts[name])}}} {{")
        if "rate" in series:
            out.append(f"    set b [$sink({name}) set bytes_]; if {{![info exists last_bytes({name})]}} "
                       f"{{ set last_bytes({name}) 0 }}")
            out.append(f"    puts \"{SAMPLE_MARKER}$now rate {name} "
                       f"[expr {{($b - $last_bytes({name})) * 8.0 * {payload} / {wire} / $dt}}]\"")
            out.append(f"    set last_bytes({name}) $b")
        if kind in ("tcp", "tfrc"):
            if "sent_rate" in series:
                out.append(f"    set p [$agent({name}) set ndatapack_]; if {{![info exists last_sent({name})]}} "
                           f"{{ set last_sent({name}) 0 }}")
                out.append(f"    puts \"{SAMPLE_MARKER}$now sent_rate {name} "
                           f"[expr {{($p - $last_sent({name})) * 8.0 * {wire} / $dt}}]\"")
                out.append(f"    set last_sent({name}) $p")
            for var in ("cwnd", "ssthresh"):
                if var in series and kind == "tcp":
                    out.append(f"    puts \"{SAMPLE_MARKER}$now {var} {name} "
                               f"[expr {{[$agent({name}) set {var}_] * {payload}}}]\"")
        out.append("  }")
    for x, y, _ in directions:
        d = f"{x}->{y}"
        if "queue" in series:
            out.append(f"  puts \"{SAMPLE_MARKER}$now queue {d} [$qm({d}) set pkts_]\"")
        if "queue_bytes" in series:
            out.append(f"  puts \"{SAMPLE_MARKER}$now queue_bytes {d} [$qm({d}) set size_]\"")
    out += ["  set ns_last_sample $now; incr ns_sample_k",
            f"  set next [expr {{($ns_sample_k + 1) * {_num(interval)}}}]",
            f"  if {{$next > {_num(duration)}}} {{ set next {_num(duration)} }}",
            "  if {$next > $now} { $ns at $next \"sample\" }",
            "}"]
    return out


def translate(spec: Any, *, trace: bool = False, trace_dir: str = ".",
              generated: list[Generated] | None = None) -> Translation:
    """The ns-2.35 script of `spec` (see the module docs); raises Untranslatable. A spec with
    `[[traffic]]` generators needs `generated`, the flows they started in ccsim's run of the
    same spec (`generated_flows(result)`), which the script replays."""
    full = full_spec(spec)
    run = full["run"]
    duration = seconds(run["duration"])
    warmup = seconds(run["warmup"]) if run.get("warmup") else 0.0
    for k in ("failures", "drops", "ticp", "tcpm", "multicast"):
        if full.get(k):
            raise Untranslatable(f"{k}: not translated to ns-2.35")
    links = full["links"]
    _tree_check(links)
    entries: list[tuple[str, dict[str, Any], str]] = [(f"flows[{i}]", f, "") for i, f in enumerate(full["flows"])]
    if full.get("traffic"):
        if generated is None:
            raise Untranslatable("traffic: the flows the generators started in ccsim's run are needed to replay "
                                 "them (translate(spec, generated=generated_flows(result)))")
        entries += _replayed(full, generated)
    protocols = [f["protocol"] for _, f, _ in entries]
    xcp = "xcp" in protocols
    if xcp:
        _refuse_unless(run.get("xcp_router") == "ns2.35", "run.xcp_router",
                       f"{run.get('xcp_router')!r}: ns-2.35's Queue/XCP is xcp_router = \"ns2.35\"")
        for (key, _, _), proto in zip(entries, protocols):
            # CHOICE: ns-2.35's Queue/XCP serves XCP, TCP and other packets from three virtual
            # queues in weighted round robin (xcp.cc `queueToDeque`), ccsim's XCP port from one
            # FIFO: a spec that mixes XCP with other traffic is refused, not approximated.
            _refuse_unless(proto == "xcp", f"{key}.protocol",
                           f"{proto!r} beside XCP flows: ns-2.35's Queue/XCP queues XCP, TCP and other "
                           f"packets apart, in round robin")
    out = [
        "# Generated from a ccsim spec by validation/ns2/translate.py",
        "set ns [new Simulator]",
        f"global defaultRNG; $defaultRNG seed {int(run['seed']) % 2147483647 + 1}",
        "proc ccsim_json_num {x} { if {[string is double -strict $x]} { return $x } else { return null } }",
    ]
    nodes: dict[str, None] = {}
    for link in links:
        for n in link["between"]:
            nodes.setdefault(n, None)
    for n in nodes:
        out.append(f"set n({n}) [$ns node]")
    directions: list[tuple[str, str, float]] = []
    for i, link in enumerate(links):
        _refuse_unless(not link.get("trace"), f"links[{i}].trace", "a delivery trace has no ns-2 counterpart")
        _refuse_unless(float(link.get("loss", 0.0)) == 0.0, f"links[{i}].loss", "random loss is not translated")
        a, b = link["between"]
        rate, delay = bps(link["rate"]), seconds(link["delay"])
        qclass, qlines = _queue(i, link, rate, delay, xcp)
        out.append(f"$ns duplex-link $n({a}) $n({b}) {_num(rate)} {_num(delay)} {qclass}")
        for x, y in ((a, b), (b, a)):
            out.append(f"set q [[$ns link $n({x}) $n({y})] queue]")
            out.extend(line.replace("$n($x)", f"$n({x})").replace("$n($y)", f"$n({y})") for line in qlines)
            # A flow monitor is a QueueMonitor (the direction's counters and its integrator)
            # that also counts per fid_ (a flow's drops).
            out.append(f"set qm({x}->{y}) [$ns makeflowmon Fid]; $qm({x}->{y}) set-pkts-integrator [new Integrator]")
            out.append(f"$ns attach-fmon [$ns link $n({x}) $n({y})] $qm({x}->{y})")
            directions.append((x, y, rate))
    flows: list[str] = []
    trace_files: dict[str, str] = {}
    timers: dict[str, tuple[float, float, float, int]] = {}
    sends: list[tuple[str, str, int, int]] = []  # (name, kind, payload and wire bytes per packet)
    starts: dict[str, float] = {}
    fids: dict[str, int] = {}
    output = full.get("output") or {}
    series = [v for v in SERIES if v in (output.get("series") or [])]
    interval = seconds(output["interval"]) if series and output.get("interval") else 0.0
    if interval <= 0:
        series = []
    total = len(entries)
    neighbours: dict[str, list[str]] = {}
    for link in links:
        a, b = link["between"]
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    first_hops: dict[str, str] = {}
    replayed: dict[str, dict[str, Any]] = {}
    for i, (key, f, generator) in enumerate(entries):
        name, proto = f["name"], f["protocol"]
        if generator:
            replayed[name] = {"generator": generator, "protocol": proto if proto in TCP_AGENTS else "udp",
                              "start_s": seconds(f["start"]),
                              "size_bytes": nbytes(f["size"]) if f.get("size") else None}
        _refuse_unless(f["from"] in nodes and f["to"] in nodes, key, "endpoint not on any link")
        start = seconds(f["start"])
        stop = seconds(f["stop"]) if f.get("stop") else None
        if proto in TCP_AGENTS:
            agent, sink, lines = _tcp(key, f)
            out.append(f"set a [new {agent}]")
            out.extend(lines)
            out.append(f"$a set fid_ {i}")
            out.append(f"set s [new {sink}]; $s set fid_ {i + total}")
            if f["delayed_ack"]:
                out.append(f"$s set interval_ {DELACK_INTERVAL_S}")
            if f["ecn"]:
                out.append("$s set ecn_ 1")
            out.append(f"$ns attach-agent $n({f['from']}) $a; $ns attach-agent $n({f['to']}) $s; $ns connect $a $s")
            out.append(f"set agent({name}) $a; set sink({name}) $s")
            out.append(f"set app({name}) [new Application/FTP]; $app({name}) attach-agent $a")
            if f.get("initial_ssthresh") is not None:
                out.append(f"$ns at {_num(start)} \"$a set ssthresh_ $initial_ssthresh($a)\"")
            if f.get("size") is not None:
                payload = nbytes(f["packet_size"]) - TCPIP_HEADER
                segments = -(-nbytes(f["size"]) // payload)
                out.append(f"$ns at {_num(start)} \"$app({name}) produce {segments}\"")
            else:
                out.append(f"$ns at {_num(start)} \"$app({name}) start\"")
            if stop is not None:
                out.append(f"$ns at {_num(stop)} \"$app({name}) stop\"")
            if trace:
                path = f"{trace_dir}/{name}.ns2trace"
                trace_files[name] = path
                timers[name] = (seconds(f["tick"]) if f.get("tick") else 0.01,
                                seconds(f["min_rto"]) if f.get("min_rto") else 0.2, 60.0,
                                nbytes(f["packet_size"]) - TCPIP_HEADER)
                out.append(f"set tf({name}) [open {{{path}}} w]")
                out.append(f"$a attach $tf({name}); $a trace cwnd_; $a trace ssthresh_; $a trace srtt_; $a trace rttvar_; $a trace backoff_")
            sends.append((name, "tcp", nbytes(f["packet_size"]) - TCPIP_HEADER, nbytes(f["packet_size"])))
            starts[name] = start
            fids[name] = i
        elif proto in ("cbr", "poisson", "voice"):
            size = nbytes(f["packet_size"])
            rate = bps(f["rate"])
            out.append("set a [new Agent/UDP]")
            out.append(f"$a set fid_ {i}; $a set packetSize_ {size}")
            out.append("set s [new Agent/LossMonitor]")
            out.append(f"$ns attach-agent $n({f['from']}) $a; $ns attach-agent $n({f['to']}) $s; $ns connect $a $s")
            if proto == "cbr":
                out.append(f"set app({name}) [new Application/Traffic/CBR]")
                out.append(f"$app({name}) set packetSize_ {size}; $app({name}) set rate_ {_num(rate)}")
                out.append(f"$app({name}) set random_ 0")
            elif proto == "voice":
                # ns-2.35's Exponential on/off source, which ccsim's voice source is (expoo.cc:
                # bursts of round(exponential(on / interval)) packets, at least 1, then an
                # exponential silence); the two draw their own streams.
                out.append(f"set app({name}) [new Application/Traffic/Exponential]")
                out.append(f"$app({name}) set packetSize_ {size}; $app({name}) set rate_ {_num(rate)}")
                out.append(f"$app({name}) set burst_time_ {_num(seconds(f['on']))}; "
                           f"$app({name}) set idle_time_ {_num(seconds(f['off']))}")
            else:
                # CHOICE: a Poisson source is ns-2's Exponential on/off source with bursts of
                # zero length (one packet each) and idle_time_ the mean gap.
                out.append(f"set app({name}) [new Application/Traffic/Exponential]")
                out.append(f"$app({name}) set packetSize_ {size}; $app({name}) set burst_time_ 0")
                out.append(f"$app({name}) set idle_time_ {_num(size * 8 / rate)}; $app({name}) set rate_ {_num(rate * 1000)}")
            out.append(f"$app({name}) attach-agent $a")
            out.append(f"set agent({name}) $a; set sink({name}) $s")
            out.append(f"$ns at {_num(start)} \"$app({name}) start\"")
            if stop is not None:
                out.append(f"$ns at {_num(stop)} \"$app({name}) stop\"")
            # ccsim counts a UDP packet's payload (packet_size - 28 B of IP and UDP headers) as
            # goodput; ns-2's LossMonitor counts whole packets: scale as for TCP.
            sends.append((name, "udp", size - UDP_IP_HEADER, size))
            first_hops[name] = f"{f['from']}->{_next_hop(neighbours, f['from'], f['to'])}"
            starts[name] = start
            fids[name] = i
        elif proto == "tfrc":
            size = nbytes(f["packet_size"])
            out.extend(_tfrc(key, f, size))
            out.append(f"$a set fid_ {i}; $s set fid_ {i + total}")
            out.append(f"$ns attach-agent $n({f['from']}) $a; $ns attach-agent $n({f['to']}) $s; $ns connect $a $s")
            out.append(f"set agent({name}) $a; set sink({name}) $s")
            out.append(f"$ns at {_num(start)} \"$a start\"")
            if stop is not None:
                out.append(f"$ns at {_num(stop)} \"$a stop\"")
            sends.append((name, "tfrc", size - RATE_HEADER, size))
            starts[name] = start
            fids[name] = i
        else:
            raise Untranslatable(f"{key}.protocol: {proto!r} is not translated to ns-2.35")
        if not generator:
            flows.append(name)

    # Snapshots at the window's edges, then one JSON object on stdout. Generated flows are not
    # in the sampled series, as in ccsim's (docs/scenarios.md, [[traffic]]).
    out.extend(_sampler(series, interval, [x for x in sends if x[0] not in replayed], starts, directions,
                        duration))
    out.append("proc snap {tag} {")
    out.append("  global agent sink qm snapshot ns")
    out.append("  foreach d [array names qm] { foreach f [$qm($d) flows] {")
    out.append("    set k $tag,fid,[$f set flowid_]")
    out.append("    if {![info exists snapshot($k)]} { set snapshot($k) 0 }")
    out.append("    set snapshot($k) [expr {$snapshot($k) + [$f set pdrops_]}]")
    out.append("    set snapshot($tag,arrivals,$d,[$f set flowid_]) [$f set parrivals_]")
    out.append("  } }")
    for name, kind, payload, wire in sends:
        if kind == "tcp":
            out.append(f"  set snapshot($tag,{name}) [list [$sink({name}) set bytes_] "
                       f"[$agent({name}) set nrexmit_] [$agent({name}) set nrexmitpack_] [$agent({name}) set ndatapack_]]")
        elif kind == "tfrc":
            out.append(f"  set snapshot($tag,{name}) [list [$sink({name}) set bytes_] 0 0 [$agent({name}) set ndatapack_]]")
        else:
            # A UDP source's packets sent: its fid's arrivals at its first link (Agent/UDP counts none).
            hop = first_hops[name]
            out.append(f"  set k $tag,arrivals,{hop},{fids[name]}")
            out.append(f"  set snapshot($tag,{name}) [list [$sink({name}) set bytes_] 0 0 "
                       f"[expr {{[info exists snapshot($k)] ? $snapshot($k) : 0}}]]")
    for x, y, _ in directions:
        d = f"{x}->{y}"
        # The integrator's sum stops at its last update: bring it to now first.
        out.append(f"  [$qm({d}) get-pkts-integrator] newpoint [$ns now] [$qm({d}) set pkts_]")
        out.append(f"  set snapshot($tag,{d}) [list [$qm({d}) set bdepartures_] [$qm({d}) set pdepartures_] "
                   f"[$qm({d}) set pdrops_] [[$qm({d}) get-pkts-integrator] set sum_] [$qm({d}) set pkts_]]")
    out.append("}")
    span = duration - warmup
    out.append("proc lost {fid} {")
    out.append("  global snapshot")
    out.append("  set e 0; set b 0")
    out.append("  if {[info exists snapshot(end,fid,$fid)]} { set e $snapshot(end,fid,$fid) }")
    out.append("  if {[info exists snapshot(warm,fid,$fid)]} { set b $snapshot(warm,fid,$fid) }")
    out.append("  return [expr {$e - $b}]")
    out.append("}")
    out.append("proc lost_life {fid} {")
    out.append("  global snapshot")
    out.append("  if {[info exists snapshot(end,fid,$fid)]} { return $snapshot(end,fid,$fid) }")
    out.append("  return 0")
    out.append("}")
    out.append("proc finish {} {")
    out.append("  global snapshot ns ns_last_sample")
    if series:
        out.append(f"  if {{$ns_last_sample < {_num(duration)}}} {{ sample }}")
    out.append("  snap end")
    out.append(f"  set T {_num(duration)}; set W {_num(warmup)}; set span {_num(span)}")
    out.append("  set parts {}")
    for name, kind, payload, wire in sends:
        if name in replayed:
            # A generated flow's counters over its life, as flows.parquet gives them.
            out.append(f"  set e $snapshot(end,{name})")
            out.append(f"  lappend parts \"\\\"flow:{name}\\\": {{\\\"received_bytes\\\": "
                       f"[expr {{[lindex $e 0] * {payload} / {wire}}}], "
                       f"\\\"timeouts\\\": [lindex $e 1], \\\"retransmitted_packets\\\": [lindex $e 2], "
                       f"\\\"sent_packets\\\": [lindex $e 3], \\\"lost_packets\\\": [lost_life {fids[name]}]}}\"")
            continue
        out.append(f"  set b $snapshot(warm,{name}); set e $snapshot(end,{name})")
        out.append(f"  set good [expr {{([lindex $e 0] - [lindex $b 0]) * 8.0 * {payload} / {wire} / $span}}]")
        out.append(f"  lappend parts \"\\\"flow:{name}\\\": {{\\\"goodput_bps\\\": $good, "
                   f"\\\"timeouts\\\": [expr {{[lindex $e 1] - [lindex $b 1]}}], "
                   f"\\\"retransmitted_packets\\\": [expr {{[lindex $e 2] - [lindex $b 2]}}], "
                   f"\\\"sent_packets\\\": [expr {{[lindex $e 3] - [lindex $b 3]}}], "
                   f"\\\"lost_packets\\\": [lost {fids[name]}]}}\"")
    for x, y, rate in directions:
        d = f"{x}->{y}"
        out.append(f"  set b $snapshot(warm,{d}); set e $snapshot(end,{d})")
        out.append("  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]")
        out.append(f"  lappend parts \"\\\"link:{d}\\\": {{\\\"utilization\\\": "
                   f"[expr {{([lindex $e 0] - [lindex $b 0]) * 8.0 / ({_num(rate)} * $span)}}], "
                   f"\\\"drops\\\": [expr {{[lindex $e 2] - [lindex $b 2]}}], "
                   f"\\\"tx_packets\\\": [expr {{[lindex $e 1] - [lindex $b 1]}}], "
                   f"\\\"mean_queue_packets\\\": [expr {{$qsum / $span}}]}}\"")
    out.append(f"  puts \"{RESULT_MARKER}{{[join $parts {{, }}]}}\"")
    out.append("  exit 0")
    out.append("}")
    out.append(f"$ns at {_num(warmup)} \"snap warm\"")
    out.append(f"$ns at {_num(duration)} \"finish\"")
    if series:
        out.append(f"$ns at {_num(min(interval, duration))} \"sample\"")
    out.append("$ns run")
    return Translation("\n".join(out) + "\n", flows, [f"{x}->{y}" for x, y, _ in directions], trace_files, timers,
                       series, interval, replayed)
