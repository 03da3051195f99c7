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
    summary_text, samples = _ccsim.real_run(json.dumps(spec), role, bind, to, flow, idle_end_s,
                                            first_arrival_timeout_s)
    summary: dict[str, Any] = json.loads(summary_text)
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
    from .results import prepare_output_dir

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
    return INTERRUPTED_STATUS if r["interrupted"] else 0
