"""A run's results as bytes, and back: what the result cache stores and what a Dask worker sends.

:func:`pack` turns a :class:`ccsim.Result` into one Arrow IPC stream; :func:`unpack` gives back a
``Result`` whose every table, series, summary and written file is the same, bit for bit, as the
run's own (tests/test_cache.py compares them with a fresh run).

The stream is one Arrow table of two columns, ``part`` (a name) and ``data`` (bytes), whose schema
metadata holds the run's identity (spec hash, seed, canonical spec, summary). The parts are:

- ``flows``, ``links``, ``ticp``: the run's tables, each an Arrow IPC stream of its columns;
- ``series``: the recorded series as four columns (``time_ns`` u64, ``entity`` u32, ``var`` u16,
  ``value`` f64) with the entity and variable names in its metadata;
- ``file:NAME``: each file the native writer wrote for the run (``summary.json``, ``spec.json``,
  the Parquet files), so that :meth:`ccsim.Result.write` writes the same bytes as the run would.

CHOICE: ``series.csv`` is not stored; a stored result that is asked for it writes it from the
series in the native writer's format (Rust's ``{:?}`` of an f64; tests compare the two files).

A run with pcap captures (``[output] pcap``) is never packed: its captures are files of their
own, and the cache and the Dask path run such a spec as a plain local run.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .errors import SpecError
from .results import Result

#: The format's name and version, in the stream's metadata; another value is not read.
FORMAT = "ccsim-result/1"

_TABLE_PARTS = ("flows", "links", "ticp")


def _arrow_table(columns: dict[str, list[Any]]) -> Any:
    """Columns of plain Python values as an Arrow table, every value kept exactly (an integer
    column above 2^63 - 1 is unsigned)."""
    import pyarrow as pa

    arrays = {}
    for name, values in columns.items():
        try:
            arrays[name] = pa.array(values)
        except OverflowError:
            arrays[name] = pa.array(values, type=pa.uint64())
    return pa.table(arrays)


def _ipc_bytes(table: Any) -> bytes:
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def _read_ipc(data: bytes) -> Any:
    import pyarrow as pa

    return pa.ipc.open_stream(pa.py_buffer(data)).read_all()


def packable(result: Result) -> bool:
    """Whether ``result`` can be packed: it has no pcap capture."""
    return not result.spec.get("output", {}).get("pcap")


def pack(result: Result) -> bytes:
    """``result`` as one Arrow IPC stream (see the module's documentation)."""
    import numpy as np
    import pyarrow as pa

    if not packable(result):
        raise SpecError("a run with pcap captures cannot be packed", "output.pcap")
    data = result._data
    parts: dict[str, bytes] = {}
    for name in _TABLE_PARTS:
        columns = data.ticp() if name == "ticp" else data.table(name)
        parts[name] = _ipc_bytes(_arrow_table(dict(columns)))
    raw = data.series()
    series = pa.table({"time_ns": np.frombuffer(raw["time_ns"], dtype="<u8"),
                       "entity": np.frombuffer(raw["entity"], dtype="<u4"),
                       "var": np.frombuffer(raw["var"], dtype="<u2"),
                       "value": np.frombuffer(raw["value"], dtype="<f8")})
    series = series.replace_schema_metadata({"entities": json.dumps(list(raw["entities"])),
                                             "vars": json.dumps(list(raw["vars"]))})
    parts["series"] = _ipc_bytes(series)
    tmp = Path(tempfile.mkdtemp(prefix=".ccsim-pack-"))
    try:
        names = list(data.write(str(tmp), False))
        for name in names:
            parts[f"file:{name}"] = (tmp / name).read_bytes()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    meta = {"format": FORMAT, "spec_hash": data.spec_hash, "seed": str(data.seed),
            "canonical_spec": data.canonical_spec, "summary": data.summary_json(),
            "files": json.dumps(names)}
    table = pa.table({"part": pa.array(list(parts), pa.string()),
                      "data": pa.array(list(parts.values()), pa.large_binary())})
    return _ipc_bytes(table.replace_schema_metadata(meta))


class StoredRunData:
    """The native run's results interface (``ccsim._ccsim.RunData``), read from a packed run."""

    def __init__(self, packed: bytes) -> None:
        outer = _read_ipc(packed)
        meta: dict[str, str] = {k.decode(): v.decode() for k, v in (outer.schema.metadata or {}).items()}
        if meta.get("format") != FORMAT:
            raise SpecError(f"not a packed ccsim result (format {meta.get('format')!r}, expected {FORMAT!r})",
                            "packed")
        self._parts: dict[str, bytes] = dict(zip(outer.column("part").to_pylist(),
                                                 outer.column("data").to_pylist()))
        self._meta: dict[str, str] = meta
        self._decoded: dict[str, Any] = {}

    @property
    def canonical_spec(self) -> str:
        return self._meta["canonical_spec"]

    @property
    def spec_hash(self) -> str:
        return self._meta["spec_hash"]

    @property
    def seed(self) -> int:
        return int(self._meta["seed"])

    def summary_json(self) -> str:
        return self._meta["summary"]

    def _table(self, part: str) -> Any:
        if part not in self._decoded:
            self._decoded[part] = _read_ipc(self._parts[part])
        return self._decoded[part]

    def table(self, which: str, columns: list[str] | None = None) -> dict[str, list[Any]]:
        if which not in ("flows", "links"):
            raise SpecError(f"no table {which!r} (flows, links)", "which")
        t = self._table(which)
        return {name: t.column(name).to_pylist() for name in t.column_names if columns is None or name in columns}

    def ticp(self) -> dict[str, list[Any]]:
        t = self._table("ticp")
        return {name: t.column(name).to_pylist() for name in t.column_names}

    def series(self) -> dict[str, Any]:
        t = self._table("series")
        meta = t.schema.metadata
        out: dict[str, Any] = {"entities": json.loads(meta[b"entities"]), "vars": json.loads(meta[b"vars"])}
        for name, dtype in (("time_ns", "<u8"), ("entity", "<u4"), ("var", "<u2"), ("value", "<f8")):
            out[name] = t.column(name).to_numpy().astype(dtype, copy=False).tobytes()
        return out

    def series_len(self) -> int:
        return int(self._table("series").num_rows)

    def write(self, dir: str, csv: bool = False) -> list[str]:
        names: list[str] = []
        for name in json.loads(self._meta["files"]):
            (Path(dir) / name).write_bytes(self._parts[f"file:{name}"])
            names.append(name)
            if name == "series.parquet" and csv:
                self._write_csv(Path(dir) / "series.csv")
                names.append("series.csv")
        return names

    def _write_csv(self, path: Path) -> None:
        """``series.csv`` as the native writer words it (crates/ccsim-scenario/src/outputs.rs)."""
        t = self._table("series")
        meta = t.schema.metadata
        entities = [_csv_quote(e) for e in json.loads(meta[b"entities"])]
        var_names = json.loads(meta[b"vars"])
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write("time,entity,variable,value\n")
            for time_ns, entity, var, value in zip(t.column("time_ns").to_pylist(), t.column("entity").to_pylist(),
                                                   t.column("var").to_pylist(), t.column("value").to_pylist()):
                out.write(f"{rust_debug_f64(time_ns / 1e9)},{entities[entity]},{var_names[var]},"
                          f"{rust_debug_f64(value)}\n")


def _csv_quote(s: str) -> str:
    if any(c in s for c in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


def rust_debug_f64(x: float) -> str:
    """``x`` as Rust's ``{:?}`` prints an f64: the shortest digits that read back as ``x``,
    in exponent form below 1e-4 and from 1e16 on (as Python's ``repr``, whose exponent is
    written ``e-05`` where Rust writes ``e-5``)."""
    if x != x:
        return "NaN"
    text = repr(x)
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}" if e else text


def unpack(packed: bytes) -> Result:
    """The :class:`ccsim.Result` that :func:`pack` packed."""
    return Result(StoredRunData(packed))  # type: ignore[arg-type]
