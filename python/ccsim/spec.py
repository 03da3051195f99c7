"""Scenario specs: load a TOML file, pass a dict, or build one with :class:`Scenario`.

All three produce the same JSON-shaped document; validation happens once, in Rust. Before a
dict crosses into Rust it is checked here for what JSON cannot say or Rust would misread: a NaN
or infinite number, an integer beyond 64 bits, a value that is not plain data, nesting deeper
than any spec has; each is a :class:`SpecError` naming its field path. A ``datetime.timedelta``
is a duration wherever it stands (:func:`duration_text`).

CHOICE: a ``str`` spec is always a file path, never TOML text. A string that names no file and
looks like TOML (a newline, a leading ``[``, an ``=`` outside a ``.toml``/``.json`` name) is
refused with an error that says so, rather than parsed: a typo in a path must not be read as a
(wrong) scenario.
"""

from __future__ import annotations

import copy
import decimal
import json
import math
import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from . import _ccsim
from .algorithms import note_scenario_dir
from .errors import SpecError
from .inputs import MAX_INPUT_BYTES, read_input_text
from .runner import ProgressCallback, run_text

if TYPE_CHECKING:
    from .results import Result

SpecLike = Union[str, os.PathLike[str], dict[str, Any], "Scenario"]
#: A duration as the spec writes it ("20ms") or as a ``datetime.timedelta``.
Duration = Union[str, timedelta]


def duration_text(value: timedelta) -> str:
    """``value`` as a spec duration, exactly, in the largest of s, ms and us that holds it whole
    (``timedelta(milliseconds=1500)`` is ``"1500ms"``, ``timedelta(minutes=2)`` ``"120s"``).
    A timedelta counts whole microseconds, so nothing is rounded. A negative one gives a
    negative text ("-5s"), which validation refuses at its field, as it refuses that text."""
    micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    for per, unit in ((1_000_000, "s"), (1_000, "ms")):
        if micros % per == 0:
            return f"{micros // per}{unit}"
    return f"{micros}us"


def _durations(value: Any) -> Any:
    """``value`` with every timedelta in it (in dicts, lists and tuples) written as a duration."""
    if isinstance(value, timedelta):
        return duration_text(value)
    if isinstance(value, dict):
        return {k: _durations(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_durations(v) for v in value]
    return value


class Scenario:
    """A fluent builder that mirrors the TOML format.

    >>> s = (Scenario(duration="60s", seed=1)
    ...      .link("s1", "r1", rate="100Mbps", delay="1ms", queue="100p")
    ...      .link("r1", "d1", rate="10Mbps", delay="20ms")
    ...      .flow("tcp1", "newreno", "s1", "d1"))

    Every duration, here and in the options, may also be a ``datetime.timedelta``
    (``delay=timedelta(milliseconds=20)``); :meth:`to_dict` writes it as the spec does ("20ms").
    """

    def __init__(self, duration: Duration, seed: int = 1, warmup: Duration | None = None,
                 routing: str | None = None, reroute: Duration | None = None) -> None:
        run: dict[str, Any] = {"duration": duration, "seed": seed}
        if warmup is not None:
            run["warmup"] = warmup
        if routing is not None:
            run["routing"] = routing
        if reroute is not None:
            run["reroute"] = reroute
        self._spec: dict[str, Any] = {"run": run, "links": [], "flows": []}

    def link(self, a: str, b: str, *, rate: str, delay: Duration, queue: str | dict[str, Any] | None = None,
             loss: float | None = None, jitter: Duration | None = None, assist: bool | None = None,
             trace: list[int] | str | os.PathLike[str] | None = None) -> Scenario:
        """Add a duplex link between nodes ``a`` and ``b`` (created by naming them): the TOML
        keys of ``[[links]]`` (docs/scenarios.md). ``queue`` is a DropTail limit ("100p",
        "20kB") or a RED table (``{"kind": "red", ...}``); ``loss`` the probability that a
        packet is lost; ``jitter`` the bound of a uniform random addition to each packet's
        delay (packets keep their order); ``assist=False`` leaves the headers of
        router-assisted protocols (XCP, OBP) untouched on this link (partial deployment;
        default true); ``trace`` a mahimahi
        delivery trace timing the link (its millisecond timestamps, or the path of its file,
        read now)."""
        link: dict[str, Any] = {"between": [a, b], "rate": rate, "delay": delay}
        if isinstance(trace, (str, os.PathLike)):
            link["trace"] = read_trace_file(Path(trace), f"links[{len(self._spec['links'])}].trace")
        elif trace is not None:
            link["trace"] = list(trace)
        if queue is not None:
            link["queue"] = queue
        if loss is not None:
            link["loss"] = loss
        if jitter is not None:
            link["jitter"] = jitter
        if assist is not None:
            link["assist"] = assist
        self._spec["links"].append(link)
        return self

    def flow(self, name: str, protocol: str, src: str, dst: str, **options: Any) -> Scenario:
        """Add a flow; ``options`` are the TOML keys (start, stop, size, rate, packet_size,
        delayed_ack, initial_window, min_rto, max_window)."""
        clash = sorted({"name", "protocol", "from", "to"} & set(options))
        if clash:
            raise SpecError(f"{clash[0]!r} is a positional argument of flow(), not an option",
                            f"flows[{len(self._spec['flows'])}].{clash[0]}")
        flow: dict[str, Any] = {"name": name, "protocol": protocol, "from": src, "to": dst}
        flow.update(options)
        self._spec["flows"].append(flow)
        return self

    def ticp(self, name: str, collector: str, sources: dict[str, int], **options: Any) -> Scenario:
        """Add a TICP collection session: ``sources`` maps attachment nodes to source counts;
        ``options`` are the TOML keys (rs, request_size, report_size, report_packets, delivery,
        clusters, landmarks, bin_thresholds, probes, binning_phase, start, allotted,
        initial_timeout)."""
        index = len(self._spec.get("ticp", []))
        clash = sorted({"name", "collector", "sources"} & set(options))
        if clash:
            raise SpecError(f"{clash[0]!r} is a positional argument of ticp(), not an option",
                            f"ticp[{index}].{clash[0]}")
        if not isinstance(sources, dict):
            raise SpecError(f"sources must map node names to source counts, found {type(sources).__name__}",
                            f"ticp[{index}].sources")
        session: dict[str, Any] = {"name": name, "collector": collector, "sources": dict(sources)}
        session.update(options)
        self._spec.setdefault("ticp", []).append(session)
        return self

    def tcpm(self, name: str, source: str, receivers: list[str] | tuple[str, ...] | str, **options: Any) -> Scenario:
        """Add a TCP-M reliable multicast session from ``source`` to ``receivers`` (a name or a
        list of names); ``options`` are the TOML keys (protocol, fusion, start, stop, size,
        packet_size, delayed_ack, rcvr_timeout, tcpm_timeout, max_duplicate, duplicate_rule,
        join_timeout, join_retries, path_timeout, path_retries, options); docs/scenarios.md."""
        session: dict[str, Any] = {"name": name, "source": source,
                                   "receivers": [receivers] if isinstance(receivers, str) else list(receivers)}
        session.update(options)
        self._spec.setdefault("tcpm", []).append(session)
        return self

    def drop(self, flow: str, link: str, seqs: list[int]) -> Scenario:
        """Drop the first arrival of data packets ``seqs`` of ``flow`` on direction ``link`` ("a->b")."""
        self._spec.setdefault("drops", []).append({"flow": flow, "link": link, "seqs": list(seqs)})
        return self

    def event(self, at: Duration, state: str, *, link: list[str] | tuple[str, str] | str | None = None,
              node: str | None = None) -> Scenario:
        """Schedule a failure or a repair: ``state`` "down" or "up" of a ``link`` (``("a", "c")``
        for both directions, ``"a->c"`` for one) or of a ``node``, at time ``at``."""
        event: dict[str, Any] = {"at": at, "state": state}
        if link is not None:
            event["link"] = link if isinstance(link, str) else list(link)
        if node is not None:
            event["node"] = node
        self._spec.setdefault("events", []).append(event)
        return self

    def traffic(self, name: str, kind: str, src: list[str] | str, dst: list[str] | str, **options: Any) -> Scenario:
        """Add a traffic generator of ``kind`` "web", "voice" or "streaming" between the nodes
        ``src`` and ``dst`` (a name or a list of names); ``options`` are the TOML keys
        (protocol, arrivals, mean_size, shape, count, rate, packet_size, on, off, start, stop,
        options)."""
        index = len(self._spec.get("traffic", []))
        clash = sorted({"name", "kind", "from", "to"} & set(options))
        if clash:
            raise SpecError(f"{clash[0]!r} is a positional argument of traffic(), not an option",
                            f"traffic[{index}].{clash[0]}")
        gen: dict[str, Any] = {
            "name": name,
            "kind": kind,
            "from": [src] if isinstance(src, str) else list(src),
            "to": [dst] if isinstance(dst, str) else list(dst),
        }
        gen.update(options)
        self._spec.setdefault("traffic", []).append(gen)
        return self

    def output(self, *, interval: Duration | None = None, series: list[str] | str | None = None,
               trace: list[str] | str | None = None, pcap: list[str] | str | None = None,
               per_flow_series: bool | None = None) -> Scenario:
        """Choose the time series to record (a single name may be given as a string) and the
        link directions to capture as pcap files ("r1->r2")."""
        out: dict[str, Any] = self._spec.setdefault("output", {})
        if pcap is not None:
            out["pcap"] = [pcap] if isinstance(pcap, str) else list(pcap)
        if per_flow_series is not None:
            out["per_flow_series"] = per_flow_series
        if interval is not None:
            out["interval"] = interval
        if series is not None:
            out["series"] = [series] if isinstance(series, str) else list(series)
        if trace is not None:
            out["trace"] = [trace] if isinstance(trace, str) else list(trace)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The spec as a plain dict (not yet validated), durations as text."""
        result: dict[str, Any] = _durations(copy.deepcopy(self._spec))
        return result

    def validate(self) -> dict[str, Any]:
        """Validate and return the canonical spec (defaults filled in)."""
        return validate(self)

    def run(self, *, progress: bool = True, label: str = "",
            on_progress: ProgressCallback | None = None) -> Result:
        """Run this scenario; see :func:`ccsim.run`."""
        return run_text(to_json_text(self), False, progress=progress, label=label, on_progress=on_progress)


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and validate a scenario file, TOML or (``.json``) the JSON form that
    ``spec.json`` and ``ccsim validate --print`` write; return the canonical spec."""
    if isinstance(path, str) and _looks_like_toml(path) and not os.path.exists(path):
        raise SpecError("this string looks like TOML text, not a file path: a str spec is a path to a scenario "
                        "file; pass TOML text as a dict (tomllib.loads(text))", "(document)")
    if os.fspath(path) == "":
        raise SpecError("the scenario path is empty; name a scenario file", "(document)")
    p = Path(path)
    if p.is_dir():
        raise SpecError(f"{p} is a folder, not a scenario file", str(p))
    text = read_input_text(p, "(document)", "scenario file")
    is_json = p.suffix.lower() == ".json"
    note_scenario_dir(p.parent)  # a "module:Class" protocol may sit beside the file
    resolved = with_trace_files(text, p.parent, is_json) if names_files(text) else None
    if resolved is not None:
        canonical = _ccsim.validate(resolved)
    else:
        canonical = _ccsim.validate(text) if is_json else _ccsim.load_toml(text)
    result: dict[str, Any] = json.loads(canonical)
    return result


#: Tables of a link entry whose keys apply to one direction (``ccsim emulate``'s link files).
TRACE_TABLES = ("client_to_server", "server_to_client")


#: What the front builds in a scenario document before the native validation, beside the files
#: it reads: ccsim.topology registers its ``[topology]`` expansion here when it is imported (the
#: package imports it), so that this module need not import it (it imports this one).
DOCUMENT_EXPANDERS: list[Callable[[dict[str, Any]], bool]] = []


def names_files(text: str) -> bool:
    """Whether a scenario's text may hold what the front resolves before the native
    validation: a file it reads (a link's ``trace``, a workload's ``sizes``) or a
    ``[topology]`` it builds."""
    return "trace" in text or "sizes" in text or "topology" in text or "flow_file" in text


def with_trace_files(text: str, base: Path, is_json: bool) -> str | None:
    """The scenario as JSON text with each link's ``trace = "FILE"`` replaced by the file's
    timestamps and each workload's ``sizes = "FILE"`` by the CDF's points, or None when
    nothing names a file (or the text does not parse: the usual loader then reports it)."""
    try:
        if is_json:
            doc = json.loads(text)
        else:
            import tomllib

            doc = tomllib.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    expanded = [expand(doc) for expand in DOCUMENT_EXPANDERS]
    if not (any(expanded) | resolve_trace_files(doc, base) | resolve_cdf_files(doc, base)):
        return None
    try:
        return json.dumps(doc, allow_nan=False)
    except (ValueError, TypeError):
        return None


def resolve_trace_files(doc: dict[str, Any], base: Path) -> bool:
    """Replace, in place, every ``links[i].trace`` (and ``links[i].<direction>.trace``) that
    is a string by the timestamps of the mahimahi trace file it names, relative to ``base``;
    return whether any was. So the canonical spec, and the result cache's key, holds the
    trace's content, never a path whose file may change."""
    links = doc.get("links")
    if not isinstance(links, list):
        return False
    found = False
    for i, link in enumerate(links):
        if not isinstance(link, dict):
            continue
        places = [(link, f"links[{i}].trace")]
        places += [(link[t], f"links[{i}].{t}.trace") for t in TRACE_TABLES if isinstance(link.get(t), dict)]
        for table, field in places:
            value = table.get("trace")
            if isinstance(value, str):
                table["trace"] = read_trace_file(base / value, field)
                found = True
    return found


#: A CDF file's size bound: far above any published distribution (a few dozen points).
MAX_CDF_FILE_BYTES = 10_000_000


def resolve_cdf_files(doc: dict[str, Any], base: Path) -> bool:
    """Replace, in place, every ``traffic[i].sizes`` string that names a file relative to
    ``base`` by the CDF's points, ``[[bytes, percent], ...]``; return whether any was. A
    vendored distribution's name (no such file) is left for the native validation."""
    traffic = doc.get("traffic")
    if not isinstance(traffic, list):
        return False
    found = False
    for i, t in enumerate(traffic):
        value = t.get("sizes") if isinstance(t, dict) else None
        if isinstance(value, str) and value and (base / value).is_file():
            t["sizes"] = read_cdf_file(base / value, f"traffic[{i}].sizes")
            found = True
        value = t.get("flow_file") if isinstance(t, dict) else None
        if isinstance(value, str):
            t["flow_file"] = read_hpcc_flow_file(base / value, f"traffic[{i}].flow_file")
            found = True
    return found


#: A flow file's size bound: about 5 million flows of HPCC's lines.
MAX_FLOW_FILE_BYTES = MAX_INPUT_BYTES


def read_hpcc_flow_file(path: Path, field: str) -> list[list[int]]:
    """The flows of an HPCC flow file as ``[from, to, bytes, start_ns]`` lists: its first line
    the number of flows, then one flow a line, ``<src> <dst> <priority group> <dst port>
    <bytes> <start s>`` as HPCC's traffic generator writes them and its simulator reads them
    (the priority group and port are not used). ``src`` and ``dst`` are places in the
    workload's ``hosts``, checked by the native validation with the sizes and the order.
    CHOICE: the start time is read as a decimal number of seconds, exactly, and rounded to the
    nanosecond (the engine's clock); HPCC's files carry nine decimals."""
    data = read_input_text(path, field, "flow file", limit=MAX_FLOW_FILE_BYTES)
    lines = data.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise SpecError(f"flow file {path} is empty: its first line is the number of flows", field)
    head = lines[0].strip()
    if not head.isascii() or not head.isdigit():
        raise SpecError(f"{path} line 1: expected the number of flows, found {head[:40]!r}", field)
    if int(head) != len(lines) - 1:
        raise SpecError(f"{path} line 1: announces {int(head)} flows, the file lists {len(lines) - 1}", field)
    out = []
    for n, line in enumerate(lines[1:], 2):
        words = line.split()
        try:
            if len(words) != 6 or not all(w.isascii() and w.isdigit() for w in words[:5]):
                raise ValueError
            start = decimal.Decimal(words[5])
            if not start.is_finite() or start < 0 or start > 1_000_000_000:
                raise ValueError
        except (ValueError, decimal.InvalidOperation):
            raise SpecError(f'{path} line {n}: expected "<src> <dst> <pg> <dport> <bytes> <start s>", '
                            f"found {line[:80]!r}", field) from None
        ns = int((start * 1_000_000_000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))
        src, dst, size = int(words[0]), int(words[1]), int(words[4])
        if max(src, dst) >= 1 << 32 or size >= 1 << 64:
            raise SpecError(f"{path} line {n}: a host or size out of range in {line[:80]!r}", field)
        out.append([src, dst, size, ns])
    return out


def read_cdf_file(path: Path, field: str) -> list[list[float]]:
    """A flow-size CDF file's points, one ``<bytes> <percent>`` a line as HPCC's traffic
    generator reads them (blank lines skipped). A SpecError naming ``field``, the file and the
    line for a line that is not two numbers; the points' order is checked by the validation."""
    data = read_input_text(path, field, "CDF file", limit=MAX_CDF_FILE_BYTES)
    out = []
    for n, line in enumerate(data.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        try:
            if len(words) != 2:
                raise ValueError
            point = [float(words[0]), float(words[1])]
        except ValueError:
            raise SpecError(f'{path} line {n}: expected "<bytes> <percent>", found {line[:60]!r}', field) from None
        out.append(point)
    return out


#: A trace file's size bound: 10 000 000 lines (the engine's bound on opportunities) of up
#: to 13 digits.
MAX_TRACE_FILE_BYTES = 150_000_000


def read_trace_file(path: Path, field: str) -> list[int]:
    """A mahimahi trace file's timestamps (ms, one a line, as mm-link reads them: an empty
    line is an error; surrounding spaces and a final newline are allowed). A SpecError naming
    ``field``, the file and the line otherwise; the order, bounds and length are checked by
    the spec's validation, which names ``field`` too."""
    shown = str(path)
    data = read_input_text(path, field, "trace file", limit=MAX_TRACE_FILE_BYTES)
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise SpecError(f"trace file {shown} is empty: a trace needs at least one timestamp", field)
    out = []
    for n, line in enumerate(lines, 1):
        word = line.strip()
        if not word.isascii() or not word.isdigit():
            what = "an empty line" if not word else f"{word[:40]!r}"
            raise SpecError(f"{shown} line {n}: expected a whole number of milliseconds, found {what}", field)
        if len(word) > 20:
            raise SpecError(f"{shown} line {n}: {word[:20]}... is too large for a timestamp", field)
        out.append(int(word))
    return out


def _looks_like_toml(text: str) -> bool:
    """Whether a string handed over as a path reads like TOML text instead: a newline, a
    leading ``[``, or an ``=`` in a string that does not end like a scenario file's name."""
    if "\n" in text or text.lstrip().startswith("["):
        return True
    return "=" in text and not text.rstrip().lower().endswith((".toml", ".json"))


#: Deeper than any spec (``flows[0].primo.tau`` is four levels); a limit far below Python's
#: recursion limit, so a pathological value is a SpecError, not a RecursionError.
MAX_DEPTH = 32
#: The widest whole number a spec holds (seeds are 64-bit).
MAX_WHOLE = 2**64 - 1


def _index(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _plain_data(value: Any, path: str = "", depth: int = 0) -> Any:
    """``value`` as plain JSON data (numpy scalars and arrays become numbers and lists, tuples
    lists), or a :class:`SpecError` at the path of the first value JSON cannot carry."""
    where = path or "(document)"
    if depth > MAX_DEPTH:
        raise SpecError(f"nested more than {MAX_DEPTH} levels deep", where)
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, timedelta):
        return duration_text(value)
    if isinstance(value, int):
        if not -(2**63) <= value <= MAX_WHOLE:
            raise SpecError(f"expected a whole number from 0 to {MAX_WHOLE}, found {value}", where)
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SpecError(f"expected a finite number, found {value}", where)
        return float(value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise SpecError(f"keys are strings, found {k!r}", where)
            out[k] = _plain_data(v, _index(path, k), depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain_data(v, _index(path, i), depth + 1) for i, v in enumerate(value)]
    # numpy scalars and arrays (seed sweeps from ``np.arange``).
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", None) == 0:
        return _plain_data(value.item(), path, depth)
    if hasattr(value, "tolist") and callable(value.tolist):
        return _plain_data(value.tolist(), path, depth)
    raise SpecError(f"{type(value).__name__} is not plain data (str, number, bool, list, dict)", where)


def to_json_text(spec: SpecLike) -> str:
    """Any accepted spec form as JSON text, not yet validated (TOML files are, on loading)."""
    if isinstance(spec, Scenario):
        spec = spec.to_dict()
    if isinstance(spec, dict):
        plain = _plain_data(spec)
        if isinstance(plain, dict):
            for expand in DOCUMENT_EXPANDERS:
                expand(plain)
            # Files a dict names are read relative to the working folder.
            resolve_trace_files(plain, Path.cwd())
            resolve_cdf_files(plain, Path.cwd())
        return json.dumps(plain, allow_nan=False)
    if isinstance(spec, (str, os.PathLike)):
        return json.dumps(load(spec))
    raise SpecError(f"expected a TOML path, a dict or a Scenario, found {type(spec).__name__}", "(document)")


def to_spec_json(spec: SpecLike) -> str:
    """Any accepted spec form, as canonical validated JSON text."""
    return _ccsim.validate(to_json_text(spec))


def validate(spec: SpecLike) -> dict[str, Any]:
    """Validate any spec form; return the canonical spec."""
    result: dict[str, Any] = json.loads(to_spec_json(spec))
    return result


def schema() -> dict[str, Any]:
    """The JSON Schema of the scenario format."""
    result: dict[str, Any] = json.loads(_ccsim.schema())
    return result
