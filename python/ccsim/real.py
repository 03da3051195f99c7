"""`ccsim real send|recv`: one end of a scenario's flow over real UDP sockets.

The flow's sender or receiver is the agent the simulator would run (built from the same
scenario file, with the same keys, defaults and seed), driven by ``ccsim-udp`` from a monotonic
clock and a UDP socket instead of the event queue. Each packet travels as one datagram carrying
the simulator's private header (docs/pcap.md), padded so that the IP packet has the size the
agent gave it. docs/real-networks.md has the details.

The output folder gets ``summary.json`` (``flows.<name>`` with the fields of a simulated run's
flow summary that this end can know, the others null; ``real`` with the driver's counters and
timer lateness) and ``series.parquet`` (the simulated run's long layout: ``time``, ``entity``,
``variable``, ``value``): a receiver's ``rate`` (bytes delivered in order, bit/s per interval),
a sender's ``sent_rate``, and the agent's variables (``cwnd``, ``srtt``, ``send_rate``) where
it has them, sampled every ``[output] interval``.

CHOICE: a receiver's times count from its first datagram, a sender's from its own start, so
that both series line up with the simulated run's within one one-way delay.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

#: Seconds without a datagram after which a receiver ends (its sender is gone).
IDLE_END_S = 3.0
#: Seconds a receiver waits for its first datagram.
FIRST_ARRIVAL_TIMEOUT_S = 60.0
#: Exit status of a run stopped by Ctrl-C or SIGTERM (its outputs still written).
INTERRUPTED_STATUS = 130


def run_end(role: str, scenario: str, *, bind: str, to: str | None = None, flow: str | None = None,
            idle_end_s: float = IDLE_END_S, first_arrival_timeout_s: float = FIRST_ARRIVAL_TIMEOUT_S
            ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run one end (``role`` "send" or "recv") of ``flow`` of the scenario file ``scenario``;
    return the summary and the series rows. A :class:`ccsim.errors.SpecError` names a bad
    field or option."""
    from . import _ccsim
    from .spec import load

    spec = load(scenario)
    started = time.time()
    summary_text, samples = _ccsim.real_run(json.dumps(spec), role, bind, to, flow, idle_end_s,
                                            first_arrival_timeout_s)
    summary: dict[str, Any] = json.loads(summary_text)
    # The wall clock at the driver's time 0, to line a run up with other processes' records.
    summary["real"]["started_unix"] = started
    (name,) = summary["flows"]
    rows = _series_rows(name, role, summary["real"]["sampled"], samples)
    return summary, rows


def _series_rows(name: str, role: str, sampled: list[str],
                 samples: list[tuple[float, int, int, list[float]]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    previous: tuple[float, int, int] | None = None
    for t, delivered, sent, values in samples:
        if previous is not None and t > previous[0]:
            dt = t - previous[0]
            if role == "recv":
                rows.append({"time": t, "entity": name, "variable": "rate",
                             "value": (delivered - previous[1]) * 8.0 / dt})
            else:
                rows.append({"time": t, "entity": name, "variable": "sent_rate",
                             "value": (sent - previous[2]) * 8.0 / dt})
        previous = (t, delivered, sent)
        for var, value in zip(sampled, values):
            rows.append({"time": t, "entity": name, "variable": var, "value": value})
    return rows


def _write(out: Path, summary: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    from .results import MANIFEST, atomic_write_text, previous_outputs, refuse_foreign_files

    names = ["summary.json", "series.parquet"]
    refuse_foreign_files(out, names)
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({
        "time": pa.array([r["time"] for r in rows], pa.float64()),
        "entity": pa.array([r["entity"] for r in rows], pa.string()),
        "variable": pa.array([r["variable"] for r in rows], pa.string()),
        "value": pa.array([r["value"] for r in rows], pa.float64()),
    })
    tmp = out / ".series.parquet.tmp"
    pq.write_table(table, tmp, compression="none")
    tmp.replace(out / "series.parquet")
    known = previous_outputs(out) | set(names)
    atomic_write_text(out / MANIFEST, "".join(f"{n}\n" for n in sorted(known)))


def real(role: str, scenario: str, *, bind: str, to: str | None = None, flow: str | None = None,
         out: str | None = None, idle_end_s: float = IDLE_END_S,
         first_arrival_timeout_s: float = FIRST_ARRIVAL_TIMEOUT_S, quiet: bool = False) -> int:
    """`ccsim real send|recv`: run, write ``out`` if given, print a line; the exit status."""
    from .errors import SpecError
    from .results import prepare_output_dir

    if to is not None and to.rpartition(":")[2].strip() == "0":
        raise SpecError(f"expected the receiver's port, 1 to 65535, found 0 in {to!r}", "--to")
    for name, value in (("--idle-end", idle_end_s), ("--first-arrival-timeout", first_arrival_timeout_s)):
        if not 0 < value <= MAX_REAL_WAIT_S:
            raise SpecError(f"must be a positive number of seconds up to {MAX_REAL_WAIT_S:g}, found {value:.6g}", name)

    from .emulate import terminate_as_interrupt

    out_dir = prepare_output_dir(out, {"summary.json", "series.parquet"}) if out is not None else None
    # SIGTERM (a shell's kill, `ccsim emulate` ending its server command) ends the run as
    # Ctrl-C does: the driver stops and the outputs are still written.
    with terminate_as_interrupt():
        summary, rows = run_end(role, scenario, bind=bind, to=to, flow=flow, idle_end_s=idle_end_s,
                                first_arrival_timeout_s=first_arrival_timeout_s)
    if out_dir is not None:
        _write(out_dir, summary, rows)
    r = summary["real"]
    if not quiet:
        ((name, f),) = summary["flows"].items()
        if role == "recv":
            rate = f["goodput_bps"]
            what = f"goodput {rate / 1e6:.3f} Mbit/s" if rate is not None else "no goodput (window not reached)"
        else:
            rate = f["send_rate_bps"]
            what = f"send rate {rate / 1e6:.3f} Mbit/s" if rate is not None else "no send rate (window not reached)"
        p99 = r["timer_lateness_p99_s"]
        late = f", timer lateness p99 {p99 * 1e6:.1f} us" if p99 is not None else ""
        print(f"{name} ({f['protocol']}, {'receiver' if role == 'recv' else 'sender'} on {r['bound']}): "
              f"{what}; {r['datagrams_sent']} datagrams sent, {r['datagrams_received']} received, "
              f"{r['malformed']} malformed{late}", file=sys.stderr)
    if r["interrupted"]:
        return INTERRUPTED_STATUS
    ((_, flow_summary),) = summary["flows"].items()
    if role == "send" and r["datagrams_received"] == 0 and flow_summary["protocol"] not in OPEN_LOOP_PROTOCOLS:
        # A sender that heard nothing back did not run the protocol: no receiver was there.
        print(f"ccsim: error: nothing came back from {to}: {flow_summary['protocol']} needs its receiver's "
              f"feedback; start `ccsim real recv` there first", file=sys.stderr)
        return 1
    return 0


# --- TICP as a deployable collector ---

#: The shortest shared secret accepted, bytes.
MIN_SECRET_BYTES = 16
#: Protocols whose sender expects nothing back (a UDP source), so that hearing nothing is no error.
OPEN_LOOP_PROTOCOLS = frozenset({"cbr", "poisson"})
#: The longest `--timeout` or `--idle-end` of `ccsim real send|recv`, seconds (a week).
MAX_REAL_WAIT_S = 7 * 24 * 3600.0
#: The most bytes of a key file (a secret is read whole into memory).
MAX_KEY_FILE_BYTES = 1 << 20


def read_secret(path: str) -> bytes:
    """The shared secret in ``path`` (any bytes, at least :data:`MIN_SECRET_BYTES`); a
    :class:`SpecError` naming ``key_file`` otherwise."""
    from .errors import SpecError

    from .inputs import read_input

    secret = read_input(path, "key_file", "key file", limit=MAX_KEY_FILE_BYTES)
    if len(secret) < MIN_SECRET_BYTES:
        raise SpecError(f"{path} holds {len(secret)} bytes; a shared secret needs at least {MIN_SECRET_BYTES} "
                        "(e.g. head -c 32 /dev/urandom > KEY)", "key_file")
    return secret


def parse_id_block(text: str, field: str) -> tuple[int, int]:
    """``"FIRST-LAST"`` (or one ID) as (first, count); a :class:`SpecError` naming ``field``."""
    from .errors import SpecError

    parts = text.split("-")
    try:
        first, last = (int(parts[0]), int(parts[-1])) if len(parts) in (1, 2) else (-1, -2)
    except ValueError:
        first, last = -1, -2
    if not 0 <= first <= last < 2**32 - 2:
        raise SpecError(f"expected source IDs FIRST-LAST such as 0-999, found {text!r}", field)
    return first, last - first + 1


def read_sources_file(path: str) -> list[tuple[str, int, int]]:
    """The source hosts of a sources file: one ``ADDR:PORT FIRST-LAST`` per line (``#``
    starts a comment), the blocks covering IDs 0..n in order."""
    from .errors import SpecError

    from .inputs import read_input_text

    lines = read_input_text(path, "sources", "sources file").splitlines()
    hosts = []
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            raise SpecError(f"{path} line {n}: expected ADDR:PORT FIRST-LAST, found {line.strip()!r}", "sources")
        first, count = parse_id_block(words[1], f"sources line {n}")
        hosts.append((words[0], first, count))
    if not hosts:
        raise SpecError(f"{path} lists no source hosts", "sources")
    return hosts


#: The bytes of the smallest TICP report on the wire: IPv4 and UDP (28), the private header of a
#: report (32), and its session, content length and tag (42; crates/ccsim-udp/src/ticp.rs).
MIN_REPORT_BYTES = 28 + 32 + 42
#: The most bytes an IPv4 packet holds, headers included.
MAX_IP_PACKET_BYTES = 65_535
#: Probes per landmark, as the simulator's `ticp.probes` allows.
MAX_PROBES = 10


def check_ticp_sizes(*, rs: int | None = None, request_size: int | None = None,
                     report_size: int | None = None) -> None:
    """Refuse, naming the flag, TICP sizes no IPv4 datagram can carry: ``rs`` at least 1 and
    ``rs`` x ``request_size`` at most 65 535 B, as the simulator's spec (a request packet of RS
    messages); ``request_size`` at least 1 B; a report from its 102 B of headers to 65 535 B."""
    from .errors import SpecError

    if rs is not None and not 1 <= rs <= MAX_IP_PACKET_BYTES:
        raise SpecError(f"must be 1 to {MAX_IP_PACKET_BYTES} request messages, found {rs}", "--rs")
    if request_size is not None:
        if not 1 <= request_size <= MAX_IP_PACKET_BYTES:
            raise SpecError(f"must be 1 to {MAX_IP_PACKET_BYTES} bytes, found {request_size}", "--request-size")
        if rs is not None and rs * request_size > MAX_IP_PACKET_BYTES:
            raise SpecError(f"a request packet of --rs {rs} messages of {request_size} B is "
                            f"{rs * request_size} B, more than an IPv4 packet's {MAX_IP_PACKET_BYTES}",
                            "--request-size")
    if report_size is not None and not MIN_REPORT_BYTES <= report_size <= MAX_IP_PACKET_BYTES:
        raise SpecError(f"must be {MIN_REPORT_BYTES} B (IPv4, UDP and TICP headers, session, length and tag) "
                        f"to {MAX_IP_PACKET_BYTES} B, found {report_size}", "--report-size")


def parse_binning(landmarks: str | None, thresholds: str, probes: int, phase: str) -> dict[str, Any]:
    """Keyword arguments of the native TICP functions for landmark binning: ``landmarks`` a
    comma-separated list of ADDR:PORT (None: no binning), ``thresholds`` and ``phase``
    durations such as ``100ms,200ms`` and ``2s``. Every value is checked, with or without
    landmarks: a mistyped flag is an error even where it would not be used."""
    from .cliargs import duration_seconds
    from .errors import SpecError

    def seconds(text: str, field: str) -> float:
        value = duration_seconds(text, field)
        if value <= 0:
            raise SpecError(f"expected a positive duration such as 100ms, found {text!r}", field)
        return value

    levels = [seconds(t, "--bin-thresholds") for t in thresholds.split(",")]
    if any(b <= a for a, b in zip(levels, levels[1:])):
        raise SpecError(f"must be strictly ascending, found {thresholds!r}", "--bin-thresholds")
    phase_s = seconds(phase, "--binning-phase")
    if not 1 <= probes <= MAX_PROBES:
        raise SpecError(f"must be 1 to {MAX_PROBES} probes per landmark, found {probes}", "--probes")
    if landmarks is None:
        return {}
    return {"landmarks": [a.strip() for a in landmarks.split(",") if a.strip()],
            "bin_thresholds_s": levels, "probes": probes, "binning_phase_s": phase_s}


def ticp_collect(sources: str, key_file: str, *, bind: str = "0.0.0.0:0", out: str | None = None, rs: int = 1,
                 request_size: int = 64, initial_timeout_s: float = 3.0, allotted_s: float | None = None,
                 timeout_s: float = 3600.0, binning: dict[str, Any] | None = None, quiet: bool = False) -> int:
    """`ccsim real ticp collect`: one TICP session over UDP; exit status 0 when every report
    arrived, 1 when the session ended without some, 130 when interrupted."""
    import os

    from . import _ccsim
    from .emulate import terminate_as_interrupt
    from .results import prepare_output_dir

    check_ticp_sizes(rs=rs, request_size=request_size)
    hosts = read_sources_file(sources)
    secret = read_secret(key_file)
    names = {"summary.json", "ticp_reports.parquet"}
    out_dir = prepare_output_dir(out, names) if out is not None else None
    session = int.from_bytes(os.urandom(8), "big")
    started = time.time()
    with terminate_as_interrupt():
        text, reports = _ccsim.ticp_collect(bind, hosts, secret, session, rs, request_size, initial_timeout_s,
                                            allotted_s, timeout_s, **(binning or {}))
    summary: dict[str, Any] = json.loads(text)
    t = summary["ticp"]
    t["started_unix"] = started
    if out_dir is not None:
        _write_ticp(out_dir, summary, reports)
    if not quiet:
        took = f" in {t['duration_s']:.3f} s" if t["duration_s"] is not None else ""
        print(f"ticp session {t['session']}: {t['reports']} of {t['sources']} reports{took}, {t['rounds']} round(s); "
              f"{t['forged_reports']} forged and {t['replayed_reports']} replayed rejected", file=sys.stderr)
    if t["interrupted"]:
        return INTERRUPTED_STATUS
    return 0 if t["complete"] else 1


def _write_ticp(out: Path, summary: dict[str, Any], reports: list[tuple[int, float, bytes]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .results import MANIFEST, atomic_write_text, previous_outputs, refuse_foreign_files

    names = ["summary.json", "ticp_reports.parquet"]
    refuse_foreign_files(out, names)
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    table = pa.table({
        "source": pa.array([r[0] for r in reports], pa.uint32()),
        "arrived_s": pa.array([r[1] for r in reports], pa.float64()),
        "content": pa.array([r[2] for r in reports], pa.binary()),
    })
    tmp = out / ".ticp_reports.parquet.tmp"
    pq.write_table(table, tmp, compression="none")
    tmp.replace(out / "ticp_reports.parquet")
    known = previous_outputs(out) | set(names)
    atomic_write_text(out / MANIFEST, "".join(f"{n}\n" for n in sorted(known)))


def ticp_source(ids: str, key_file: str, *, bind: str, report_file: str | None = None,
                report_command: str | None = None, report_size: int = 1000, request_size: int = 64,
                idle_end_s: float = 10.0, first_request_timeout_s: float = 300.0, out: str | None = None,
                collector: str | None = None, binning: dict[str, Any] | None = None, quiet: bool = False) -> int:
    """`ccsim real ticp source`: answer a collector's requests for the IDs ``ids``."""
    from . import _ccsim
    from .emulate import terminate_as_interrupt
    from .errors import SpecError
    from .results import MANIFEST, atomic_write_text, prepare_output_dir, previous_outputs, refuse_foreign_files

    check_ticp_sizes(request_size=request_size, report_size=report_size)
    from .inputs import is_regular_file

    first, count = parse_id_block(ids, "ids")
    if (report_file is None) == (report_command is None):
        raise SpecError("give exactly one of --report-file and --report-command", "report")
    if report_file is not None and not is_regular_file(report_file):
        raise SpecError(f"no such report file (a regular file): {report_file}", "report_file")
    secret = read_secret(key_file)
    out_dir = prepare_output_dir(out, {"summary.json"}) if out is not None else None
    with terminate_as_interrupt():
        text = _ccsim.ticp_sources(bind, first, count, secret, report_file, report_command, request_size,
                                   report_size, idle_end_s, first_request_timeout_s, collector, **(binning or {}))
    summary: dict[str, Any] = json.loads(text)
    s = summary["ticp_sources"]
    if out_dir is not None:
        refuse_foreign_files(out_dir, ["summary.json"])
        atomic_write_text(out_dir / "summary.json", json.dumps(summary, indent=2) + "\n")
        known = previous_outputs(out_dir) | {"summary.json"}
        atomic_write_text(out_dir / MANIFEST, "".join(f"{n}\n" for n in sorted(known)))
    if not quiet:
        print(f"ticp sources {first}-{first + count - 1} on {s['bound']}: {s['requests_received']} requests, "
              f"{s['reports_sent']} reports, {s['requests_rejected']} requests rejected", file=sys.stderr)
    return INTERRUPTED_STATUS if s["interrupted"] else 0


def ticp_landmark(bind: str, *, quiet: bool = False) -> int:
    """`ccsim real ticp landmark`: answer binning probes until Ctrl-C or SIGTERM."""
    from . import _ccsim
    from .emulate import terminate_as_interrupt

    with terminate_as_interrupt():
        text = _ccsim.ticp_landmark(bind)
    if not quiet:
        s = json.loads(text)["ticp_landmark"]
        print(f"ticp landmark on {s['bound']}: {s['probes_answered']} probes answered", file=sys.stderr)
    return 0
