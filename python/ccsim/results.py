"""Run results: the summary, the per-flow and per-link tables and the recorded time series,
with a writer for an output folder.

The native run keeps its results until they are asked for; pandas and numpy are imported
only by the methods that return DataFrames (and numpy and pyarrow by :meth:`Result.arrow`),
so running a scenario and writing its files need neither (the Parquet files are written
natively). The summary's types are in :mod:`ccsim.summary_types`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from . import _ccsim
from .errors import InternalError, NotFoundError, SpecError, WriteError, describe_os_error
from .summary_types import FlowSummary, LinkSummary, Overview, Summary

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    import pyarrow as pa

#: The file in an output folder that lists the files ccsim wrote there (one name a line).
MANIFEST = ".ccsim-manifest"

#: Every file a run may write into its output folder, besides the manifest.
OUTPUT_FILES = frozenset({"summary.json", "spec.json", "series.parquet", "series.csv", "flows.parquet",
                          "links.parquet", "ticp_reports.parquet", "slowdown.parquet", "rate.png", "cwnd.png",
                          "queue.png", "slowdown.png"})

#: The columns of slowdown.parquet, one row per (workload generator, size bucket).
SLOWDOWN_COLUMNS = ("generator", "from_percent", "to_percent", "max_size_bytes", "flows", "mean", "p50", "p95",
                    "p99")


#: The tables :meth:`Result.arrow` gives.
ArrowTableName = Literal["series", "flows", "links"]

#: A DualPI2 link's counters that count packets (summary.json's integers).
_DUALPI2_COUNTS = ("l_packets", "c_packets", "l_step_marks", "l_coupled_marks", "c_marks", "l_drops", "c_drops")

#: Columns of flows.parquet that summary.json's flows do not have.
_GENERATED_COLUMNS = ("start_s", "size_bytes", "slowdown")


def _rows(columns: dict[str, list[Any]]) -> dict[str, dict[str, Any]]:
    """A columnar table as ``{name: {column: value}}``; dotted column names nest."""
    names = columns.pop("name")
    out: dict[str, dict[str, Any]] = {}
    keys = list(columns)
    for i, name in enumerate(names):
        row: dict[str, Any] = {}
        for k in keys:
            head, dot, tail = k.partition(".")
            if dot:
                row.setdefault(head, {})[tail] = columns[k][i]
            else:
                row[k] = columns[k][i]
        out[name] = row
    return out


class Result:
    """What a run returns.

    ``summary`` is a dict with the content of ``summary.json`` and, for runs of any size, the
    per-flow (``flows``) and per-link (``links``) entries (typed
    :class:`ccsim.summary_types.Summary`); :meth:`flows` and :meth:`links` give the same as
    DataFrames, :meth:`series` a time series as a tidy DataFrame (columns ``time``,
    ``entity``, ``variable``, ``value``), :meth:`arrow` any of the three as a pyarrow Table.
    """

    def __init__(self, data: _ccsim.RunData) -> None:
        self._data = data
        self.spec_hash: str = data.spec_hash
        self.seed: int = data.seed
        #: The summary without the per-flow and per-link entries (cheap for any run).
        self.overview: Overview = json.loads(data.summary_json())
        self._summary: Summary | None = None
        self._spec: dict[str, Any] | None = None
        self._table: pd.DataFrame | None = None
        #: :meth:`wide`'s tables, built once per variable (an experiment asks for one several times).
        self._wide: dict[str, pd.DataFrame] = {}

    @property
    def summary(self) -> Summary:
        """The summary with every flow and link direction (built on first use)."""
        if self._summary is None:
            table = dict(self._data.table("flows"))
            # summary.json's flows are the spec's own; generated flows are in the table only,
            # with the columns that say which generator made them.
            own = [i for i, g in enumerate(table.pop("generator")) if not g]
            for extra in _GENERATED_COLUMNS:
                table.pop(extra)
            flows = _rows({k: [v[i] for i in own] for k, v in table.items()})
            for row in flows.values():
                # With spray a flow has no single route: summary.json leaves the key out.
                if row.get("route") == "":
                    del row["route"]
            links = _rows(self._data.table("links"))
            for row in links.values():
                # As summary.json: a DualPI2 link's counters on DualPI2 links only (the table
                # has the columns for every link of such a run, empty elsewhere), counts whole.
                queues = row.get("dualpi2")
                if queues is None:
                    continue
                if all(v is None for v in queues.values()):
                    del row["dualpi2"]
                else:
                    queues.update({k: int(queues[k]) for k in _DUALPI2_COUNTS})
            self._summary = {"flows": cast(dict[str, FlowSummary], flows),
                             "links": cast(dict[str, LinkSummary], links), **self.overview}
        return self._summary

    @property
    def spec(self) -> dict[str, Any]:
        """The canonical spec (defaults filled in)."""
        if self._spec is None:
            self._spec = json.loads(self._data.canonical_spec)
        return self._spec

    def content_key(self) -> str:
        """What determines this result's values beside the simulator's build: the canonical
        spec's text (the figure cache keys a figure drawn from results by it)."""
        return str(self._data.canonical_spec)

    def flow_columns(self, *columns: str) -> dict[str, list[Any]]:
        """The per-flow table as plain lists, in the spec's order (no pandas needed): every
        column, or the ``columns`` named."""
        return dict(self._data.table("flows", list(columns) if columns else None))

    def __repr__(self) -> str:
        r = self.overview["run"]
        cols = self.flow_columns("name", "goodput_bps")
        shown = ", ".join(f"{n}: {g / 1e6:.3g} Mbit/s" for n, g in list(zip(cols["name"], cols["goodput_bps"]))[:4])
        more = "" if len(cols["name"]) <= 4 else f", ... ({len(cols['name'])} flows)"
        return (f"<ccsim.Result {r['sim_seconds']:g} s simulated, seed {self.seed}, spec {self.spec_hash}; "
                f"{shown}{more}; {self._data.series_len()} series records>")

    def flows(self) -> pd.DataFrame:
        """One row per flow (index ``name``), in the spec's order: what ``flows.parquet`` holds."""
        import pandas as pd

        return pd.DataFrame(self._data.table("flows")).set_index("name")

    def links(self) -> pd.DataFrame:
        """One row per link direction (index ``name``, "a->b"): what ``links.parquet`` holds."""
        import pandas as pd

        return pd.DataFrame(self._data.table("links")).set_index("name")

    @property
    def table(self) -> pd.DataFrame:
        """Every recorded series, in one tidy table."""
        if self._table is None:
            import numpy as np
            import pandas as pd

            raw = self._data.series()
            time_ns = np.frombuffer(raw["time_ns"], dtype="<u8")
            entity = np.frombuffer(raw["entity"], dtype="<u4")
            var = np.frombuffer(raw["var"], dtype="<u2")
            self._table = pd.DataFrame(
                {
                    "time": time_ns / 1e9,
                    "entity": pd.Categorical.from_codes(entity.astype("int32"), categories=list(raw["entities"])),
                    "variable": pd.Categorical.from_codes(var.astype("int32"), categories=list(raw["vars"])),
                    "value": np.frombuffer(raw["value"], dtype="<f8"),
                }
            )
        return self._table

    def series(self, variable: str | None = None) -> pd.DataFrame:
        """The records of one variable ("rate", "queue", "cwnd", ...) or all of them.

        Raises ``KeyError`` naming the recorded variables if ``variable`` was not recorded.
        """
        table = self.table
        if variable is None:
            return table.copy()
        mask = table["variable"] == variable
        if not mask.any():
            recorded = sorted(set(table["variable"].astype(str)))
            raise NotFoundError(f"no series {variable!r} was recorded (recorded: {', '.join(recorded) or 'none'})",
                                "variable")
        out = table[mask].reset_index(drop=True)
        out["entity"] = _used_categories(out["entity"])
        out["variable"] = _used_categories(out["variable"])
        return out

    def arrow(self, which: ArrowTableName) -> pa.Table:
        """The recorded series (``"series"``) or the per-flow or per-link table (``"flows"``,
        ``"links"``) as a ``pyarrow.Table``, built from the native data without pandas (not
        even imported): ``polars.from_arrow(result.arrow("series"))`` reads it into polars.

        The series has :attr:`table`'s and ``series.parquet``'s columns: ``time`` (float64
        seconds), ``entity`` and ``variable`` (dictionary-encoded: the run's own codes, uint32
        and uint16, over every entity and variable name of the run) and ``value`` (float64);
        the codes and values are the native buffers, not copies.
        CHOICE: time in float64 seconds only, not also the native nanoseconds: the same
        columns as ``series.parquet`` and :attr:`table`, so that one code reads any of them.

        The tables have :meth:`flows`' and :meth:`links`' columns with ``name`` first, their
        rows in the same order, and the types of ``flows.parquet`` and ``links.parquet``
        (int64 counts, float64 numbers with nulls where there is no value, strings, booleans).
        Raises :class:`ccsim.SpecError` for another ``which``.
        """
        import pyarrow as pa

        if which in ("flows", "links"):
            columns = self._data.table(which)
            return pa.table([_arrow_column(v) for v in columns.values()], names=list(columns))
        if which != "series":
            raise SpecError(f"no table {which!r} (series, flows, links)", "which")
        raw = self._data.series()

        def names(codes: bytes, dtype: str, index_type: pa.DataType, values: list[str]) -> pa.DictionaryArray:
            return pa.DictionaryArray.from_arrays(_arrow_numbers(_native_view(codes, dtype), index_type),
                                                  _arrow_column(values))

        return pa.table([
            _arrow_numbers(_native_view(raw["time_ns"], "<u8") / 1e9, pa.float64()),
            names(raw["entity"], "<u4", pa.uint32(), list(raw["entities"])),
            names(raw["var"], "<u2", pa.uint16(), list(raw["vars"])),
            _arrow_numbers(_native_view(raw["value"], "<f8"), pa.float64()),
        ], names=["time", "entity", "variable", "value"])

    def ticp_reports(self, session: str | None = None) -> pd.DataFrame:
        """Per source of each TICP session: its node, cluster rank, the arrival time of its report
        (``arrived_s``, NaN if it never arrived), the round that collected it and whether it was
        delayed. Raises :class:`ccsim.errors.NotFoundError` (a ``KeyError``) naming the sessions if ``session`` is not one of them."""
        import numpy as np
        import pandas as pd

        ticp = self._data.ticp()
        table = pd.DataFrame(
            {
                "session": pd.Categorical(ticp["session"]),
                "source": np.asarray(ticp["source"], dtype="uint32"),
                "node": pd.Categorical(ticp["node"]),
                "cluster": np.asarray(ticp["cluster"], dtype="uint32"),
                "arrived_s": np.asarray(ticp["arrived_s"], dtype="float64"),
                "round": np.asarray(ticp["round"], dtype="uint32"),
                "delayed": np.asarray(ticp["delayed"], dtype="bool"),
            }
        )
        if session is None:
            return table
        sessions = self.overview.get("ticp", {})
        if session not in sessions:
            raise NotFoundError(f"no TICP session {session!r} (sessions: {', '.join(sessions) or 'none'})", "session")
        return table[table["session"] == session].reset_index(drop=True)

    def wide(self, variable: str) -> pd.DataFrame:
        """One variable as a wide table: index time, one column per entity (a copy: change it
        freely)."""
        return self.shared_wide(variable).copy()

    def shared_wide(self, variable: str) -> pd.DataFrame:
        """:meth:`wide`'s table itself, not a copy, for code that only reads it (ccsim's metrics)."""
        table = self._wide.get(variable)
        if table is None:
            table = wide_table(self.series(variable))
            self._wide[variable] = table
        return table

    def slowdown(self) -> pd.DataFrame:
        """FCT slowdown by flow size for every ``kind = "flows"`` generator: one row per
        (generator, size bucket), as ``summary.json``'s ``traffic.<name>.slowdown_buckets`` and
        ``slowdown.parquet`` hold them (docs/datacenter.md)."""
        import pandas as pd

        rows = [{"generator": name, **bucket} for name, t in self.overview.get("traffic", {}).items()
                for bucket in t.get("slowdown_buckets") or []]
        return pd.DataFrame(rows, columns=list(SLOWDOWN_COLUMNS))

    def write(self, out_dir: str | os.PathLike[str], *, plots: bool = True, csv: bool = False) -> Path:
        """Write ``summary.json``, ``spec.json``, ``flows.parquet``, ``links.parquet``,
        ``series.parquet`` (and ``series.csv``, ``ticp_reports.parquet``) and PNG plots into
        ``out_dir``, creating it if needed; return the folder.

        The files are written into a temporary folder first and moved into place together:
        an error or Ctrl-C leaves the previous results or the new ones, never a mix or
        nothing. ``.ccsim-manifest`` lists what ccsim wrote; the next write removes only
        those files, and refuses (:class:`ccsim.SpecError`, before writing anything) to
        replace a file of the same name that ccsim did not write.
        """
        captures = {capture_file_name(d) for d in self.spec.get("output", {}).get("pcap", [])}
        out = prepare_output_dir(out_dir, planned_names(plots=plots, csv=csv) | captures)
        with output_lock(out):
            return self._write_locked(out, plots=plots, csv=csv)

    def _write_locked(self, out: Path, *, plots: bool, csv: bool) -> Path:
        try:
            tmp = Path(tempfile.mkdtemp(prefix=".ccsim-tmp-", dir=out))
        except OSError as e:
            raise WriteError(f"results not written: {describe_os_error(e, out)}", str(out)) from e
        try:
            names = list(self._data.write(str(tmp), csv))
            # pandas is imported only for a run that has slowdown buckets to write.
            if any(t.get("slowdown_buckets") for t in self.overview.get("traffic", {}).values()):
                self.slowdown().to_parquet(tmp / "slowdown.parquet", index=False)
                names.append("slowdown.parquet")
            plot_error: Exception | None = None
            if plots:
                from .plots import plot_result

                try:
                    names += [p.name for p in plot_result(self, tmp)]
                except Exception as e:  # noqa: BLE001 - a failed figure must not cost the data
                    plot_error = e
                    names = [n for n in names if not n.endswith(".png")]
            refuse_foreign_files(out, names)
            (tmp / MANIFEST).write_text("".join(f"{n}\n" for n in sorted(names)))
            swap_in(out, tmp, names + [MANIFEST], previous_outputs(out) | {MANIFEST})
        except OSError as e:
            raise WriteError(f"results not written ({describe_os_error(e, out)}); the folder keeps "
                             f"its previous results", str(out)) from e
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(plot_error, OSError):
            raise WriteError(f"the plots were not written ({describe_os_error(plot_error, out)}); "
                             f"the data files were written to {out}", str(out)) from plot_error
        if plot_error is not None:
            raise InternalError(f"internal error (please report): the plots failed "
                                f"({type(plot_error).__name__}: {plot_error}); the data files were written "
                                f"to {out}") from plot_error
        return out


def _arrow_numbers(values: np.ndarray[Any, Any], arrow_type: pa.DataType) -> pa.Array:
    """A numpy array of ``arrow_type``'s width as an Arrow array sharing its memory.
    (``pyarrow.array`` would import pandas to look at its argument.)"""
    import pyarrow as pa

    return pa.Array.from_buffers(arrow_type, len(values), [None, pa.py_buffer(values)])


def _arrow_column(values: list[Any]) -> pa.Array:
    """A native table's column (strings, booleans, counts, or numbers with None for no value)
    as an Arrow array of the type its Parquet file gives it (float64 for a column without
    rows), without importing pandas."""
    import numpy as np
    import pyarrow as pa

    n = len(values)
    sample = next((v for v in values if v is not None), None)
    if isinstance(sample, str):
        data = [v.encode() for v in values]
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum([len(b) for b in data], out=offsets[1:])
        small = offsets[-1] < 2**31  # else 64-bit offsets: large_string
        text = pa.string() if small else pa.large_string()
        offsets = offsets.astype(np.int32) if small else offsets
        return pa.Array.from_buffers(text, n, [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])
    if isinstance(sample, bool):
        bits = np.packbits(np.array(values, dtype=bool), bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(bits)])
    if isinstance(sample, int):
        return _arrow_numbers(np.array(values, dtype=np.int64), pa.int64())
    present = np.array([v is not None for v in values], dtype=bool)
    numbers = np.array([v if v is not None else 0.0 for v in values], dtype=np.float64)
    if present.all():
        return _arrow_numbers(numbers, pa.float64())
    validity = pa.py_buffer(np.packbits(present, bitorder="little"))
    return pa.Array.from_buffers(pa.float64(), n, [validity, pa.py_buffer(numbers)], null_count=n - int(present.sum()))


def _native_view(data: bytes, dtype: str) -> np.ndarray[Any, Any]:
    """A little-endian buffer as an array of ``dtype`` in the machine's byte order: a view of
    ``data`` (no copy) on a little-endian machine."""
    import numpy as np

    view = np.frombuffer(data, dtype=dtype)
    return view.astype(view.dtype.newbyteorder("="), copy=False)


def _used_categories(column: pd.Series) -> pd.Categorical:
    """``column.cat.remove_unused_categories()``, in linear time: the categories that occur,
    in their order, found by counting codes rather than by sorting them (np.unique)."""
    import numpy as np
    import pandas as pd

    cat = column.array
    codes = np.asarray(cat.codes)
    used = np.flatnonzero(np.bincount(codes[codes >= 0], minlength=len(cat.categories)))
    remap = np.full(len(cat.categories), -1, dtype=codes.dtype)
    remap[used] = np.arange(len(used), dtype=codes.dtype)
    return pd.Categorical.from_codes(np.where(codes >= 0, remap[codes], -1), categories=cat.categories[used])


def wide_table(series: pd.DataFrame) -> pd.DataFrame:
    """A tidy series (``time``, ``entity``, ``value``) as a wide table: index time, one column
    per entity, at each instant an entity's last value that is not NaN. The same table as
    ``series.pivot_table(index="time", columns="entity", values="value", observed=True,
    aggfunc="last", dropna=False)`` (tests/test_cached_report.py compares them), built in half
    the time."""
    return series.groupby(["time", "entity"], observed=True, sort=True)["value"].last().unstack("entity")


def planned_names(*, plots: bool, csv: bool) -> set[str]:
    """The files a run may write with these options (plots depend on what was recorded)."""
    skip = ({"series.csv"} if not csv else set()) | ({"rate.png", "cwnd.png", "queue.png"} if not plots else set())
    return set(OUTPUT_FILES) - skip


def previous_outputs(out: Path) -> set[str]:
    """The files the manifest in ``out`` says ccsim wrote (only plain names it could write)."""
    try:
        listed = (out / MANIFEST).read_text().split("\n")
    except (FileNotFoundError, UnicodeDecodeError):
        return set()
    return {n for n in listed if n in OUTPUT_FILES or is_capture_name(n)}


def capture_file_name(direction: str) -> str:
    """The file of the pcap capture of link direction ``direction`` ("r1->r2" is
    ``r1-r2.pcap``), as the run names it (crates/ccsim-scenario/src/spec/output.rs)."""
    a, _, b = direction.partition("->")

    def clean(name: str) -> str:
        return "".join(c if (c.isascii() and (c.isalnum() or c in "_-")) or (c == "." and i > 0) else "_"
                       for i, c in enumerate(name))

    return f"{clean(a)}-{clean(b)}.pcap"


def is_capture_name(name: str) -> bool:
    """Whether ``name`` is one ccsim gives a pcap capture (``r1-r2.pcap``; docs/pcap.md)."""
    return re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.pcap", name) is not None


def _not_ours(path: Path, out: Path) -> SpecError:
    why = (f"it is not listed in {out / MANIFEST}" if (out / MANIFEST).exists()
           else f"{out} has no {MANIFEST}; an older ccsim wrote none")
    return SpecError(f"{path} exists and was not written by ccsim ({why}); move it or choose another "
                     "output folder", "output")


def refuse_foreign_files(out: Path, names: set[str] | list[str]) -> None:
    """A SpecError if a file ccsim is about to write exists in ``out`` and ccsim did not write it."""
    ours = previous_outputs(out)
    foreign = sorted(n for n in names if n not in ours and (out / n).exists())
    if foreign:
        raise _not_ours(out / foreign[0], out)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``path`` through a temporary file beside it, renamed into place with the user's
    umask: a reader sees the old file or the new one, and a failure (or Ctrl-C) leaves no
    temporary file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_folder_manifest(folder: Path) -> None:
    """List every file below ``folder`` (relative paths) in its manifest: the folder is ccsim's."""
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    (folder / MANIFEST).write_text("".join(f"{n}\n" for n in names if n != MANIFEST))


def refuse_foreign_folder(folder: Path) -> None:
    """A SpecError if ``folder``, which ccsim is about to replace whole, holds a file its
    manifest does not list (a file of the user's, or a folder ccsim never wrote)."""
    if not folder.is_dir():
        if folder.exists():
            raise SpecError(f"{folder} exists and is not a folder", "output")
        return
    try:
        listed = set((folder / MANIFEST).read_text().split("\n"))
    except (FileNotFoundError, UnicodeDecodeError):
        listed = set()
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if rel not in (MANIFEST, LOCK) and not path.is_dir() and rel not in listed:
            raise _not_ours(path, folder)


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back for the duration of the block; raise it after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[object] = []
    previous = signal.signal(signal.SIGINT, lambda *a: received.append(a))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if received:
        raise KeyboardInterrupt


def swap_in(out: Path, tmp: Path, new: list[str], old: set[str]) -> None:
    """Move the files ``new`` from ``tmp`` into ``out`` in place of the files ``old``, as one step:
    the old files are first moved aside, and any failure puts them back. Ctrl-C is held back
    until the step is done."""
    with _interrupts_deferred():
        backup = Path(tempfile.mkdtemp(prefix=".ccsim-old-", dir=out))
        moved_aside: list[str] = []
        moved_in: list[str] = []
        try:
            for name in sorted(old):
                if (out / name).exists():
                    os.replace(out / name, backup / name)
                    moved_aside.append(name)
            for name in new:
                os.replace(tmp / name, out / name)
                moved_in.append(name)
        except BaseException:
            for name in moved_in:
                (out / name).unlink(missing_ok=True)
            for name in moved_aside:
                os.replace(backup / name, out / name)
            raise
        finally:
            shutil.rmtree(backup, ignore_errors=True)


def replace_folder(new: Path, dest: Path) -> None:
    """Put the folder ``new`` in place of ``dest`` (which may not exist) as one step: the old
    folder is moved aside first and restored on failure; Ctrl-C is held back meanwhile."""
    with _interrupts_deferred():
        aside = dest.with_name(f".{dest.name}.old-{os.getpid()}")
        if dest.exists():
            os.replace(dest, aside)
        try:
            os.replace(new, dest)
        except BaseException:
            if aside.exists():
                os.replace(aside, dest)
            raise
        shutil.rmtree(aside, ignore_errors=True)


def check_output_dir(out_dir: str | os.PathLike[str], names: set[str] | None = None) -> Path:
    """Check, without creating anything, that ``out_dir`` is or can become a writable folder,
    is not one that must never hold results (the current folder named as "", a filesystem
    root, the home folder) and holds no file of one of ``names`` that ccsim did not write."""
    if os.fspath(out_dir) == "":
        raise SpecError("the output folder is empty; name a folder (e.g. -o out)", "output")
    out = Path(out_dir)
    longest = max((len(os.fsencode(part)) for part in out.parts), default=0)
    if longest > 255:
        raise SpecError(f"a folder name in the path is {longest} bytes long; a name has at most 255 "
                        f"({str(out)[:60]}...)", "output")
    resolved = out.expanduser().resolve()
    if resolved == Path(resolved.anchor):
        raise SpecError(f"{out} is a filesystem root; choose a folder for the results (e.g. -o out)", "output")
    if resolved == Path.home().resolve():
        raise SpecError(f"{out} is your home folder; choose a folder for the results (e.g. -o out)", "output")
    if out.exists() and not out.is_dir():
        raise SpecError(f"{out} exists and is not a folder", "output")
    ancestor = out
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise SpecError(f"cannot create the output folder {out}: {ancestor} is not a folder", "output")
    if not os.access(ancestor, os.W_OK):
        raise SpecError(f"cannot create the output folder {out}: {ancestor} is not writable", "output")
    if names and out.is_dir():
        refuse_foreign_files(out, names)
    return out


#: The lock file of an output folder: held (``flock``) by the ccsim process writing the
#: folder, from before its run to the end of its write, so that a second one refuses.
LOCK = ".ccsim-lock"

_held_locks: dict[Path, int] = {}
_held_guard = threading.Lock()


@contextmanager
def output_lock(out: Path) -> Iterator[None]:
    """Hold ``out``'s lock (the folder must exist) for the block: a second ccsim process
    writing the same folder at once gets a SpecError naming the first one's pid. Re-entrant
    within a process. The lock is the kernel's (``flock``), so a killed process holds none.
    The lock file holds the holder's pid and is removed, still locked, when the block ends;
    a process that locked a file since removed tries again on the new one.
    CHOICE: refuse rather than wait: a user who started two runs into one folder by mistake
    learns it at once, and the first run's results are never replaced by the second's."""
    key = out.resolve()
    with _held_guard:
        nested = key in _held_locks
        if nested:
            _held_locks[key] += 1
    if nested:
        try:
            yield
        finally:
            with _held_guard:
                _held_locks[key] -= 1
        return
    fd = _take_lock(out)
    with _held_guard:
        _held_locks[key] = 1
    try:
        yield
    finally:
        with _held_guard:
            del _held_locks[key]
        try:
            os.unlink(out / LOCK)
        except OSError:
            pass  # the folder went away, or is read-only now: the lock ends with the fd
        os.close(fd)


def _take_lock(out: Path) -> int:
    import fcntl

    path = out / LOCK
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise WriteError(f"cannot lock the output folder: {describe_os_error(e, out)}", str(out)) from e
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise SpecError(f"another ccsim{who} is writing {out} now; wait for it to finish or choose "
                            f"another folder", "output") from None
        try:
            current = os.stat(path)
        except FileNotFoundError:
            current = None
        if current is not None and (current.st_dev, current.st_ino) == (os.fstat(fd).st_dev, os.fstat(fd).st_ino):
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            return fd
        os.close(fd)  # its holder removed it as we opened it: lock the new one


def prepare_output_dir(out_dir: str | os.PathLike[str], names: set[str] | None = None) -> Path:
    """Create ``out_dir`` (and its parents) if needed; a clear SpecError if it cannot be one, or
    if it holds a file of one of ``names`` that ccsim did not write."""
    out = check_output_dir(out_dir, names)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SpecError(f"cannot create the output folder {out}: {e.strerror or e}", "output") from None
    if not os.access(out, os.W_OK):
        raise SpecError(f"the output folder {out} is not writable", "output")
    return out
