"""Run results: the summary and the recorded time series, with writers for an output folder."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd


class Result:
    """What a run returns.

    ``summary`` is a dict with the content of ``summary.json``; :meth:`series` gives a time
    series as a tidy pandas DataFrame (columns ``time``, ``entity``, ``variable``, ``value``).
    """

    def __init__(self, raw: dict[str, Any]) -> None:
        self.summary: dict[str, Any] = json.loads(raw["summary_json"])
        self.spec: dict[str, Any] = json.loads(raw["canonical_spec"])
        self.spec_hash: str = raw["spec_hash"]
        self.seed: int = raw["seed"]
        entities = list(raw["entities"])
        variables = list(raw["vars"])
        time_ns = np.frombuffer(raw["time_ns"], dtype="<u8")
        entity = np.frombuffer(raw["entity"], dtype="<u4")
        var = np.frombuffer(raw["var"], dtype="<u2")
        value = np.frombuffer(raw["value"], dtype="<f8")
        self._table = pd.DataFrame(
            {
                "time": time_ns / 1e9,
                "entity": pd.Categorical.from_codes(entity.astype("int32"), categories=entities),
                "variable": pd.Categorical.from_codes(var.astype("int32"), categories=variables),
                "value": value,
            }
        )
        ticp = raw.get("ticp") or {}
        self._ticp = pd.DataFrame(
            {
                "session": pd.Categorical(ticp.get("session", [])),
                "source": np.asarray(ticp.get("source", []), dtype="uint32"),
                "node": pd.Categorical(ticp.get("node", [])),
                "cluster": np.asarray(ticp.get("cluster", []), dtype="uint32"),
                "arrived_s": np.asarray(ticp.get("arrived_s", []), dtype="float64"),
                "round": np.asarray(ticp.get("round", []), dtype="uint32"),
                "delayed": np.asarray(ticp.get("delayed", []), dtype="bool"),
            }
        )

    def __repr__(self) -> str:
        r = self.summary["run"]
        flows = ", ".join(f"{n}: {f['goodput_bps'] / 1e6:.3g} Mbit/s" for n, f in list(self.summary["flows"].items())[:4])
        more = "" if len(self.summary["flows"]) <= 4 else f", ... ({len(self.summary['flows'])} flows)"
        return (f"<ccsim.Result {r['sim_seconds']:g} s simulated, seed {self.seed}, spec {self.spec_hash}; "
                f"{flows}{more}; {len(self._table)} series records>")

    @property
    def table(self) -> pd.DataFrame:
        """Every recorded series, in one tidy table."""
        return self._table

    def series(self, variable: str | None = None) -> pd.DataFrame:
        """The records of one variable ("rate", "queue", "cwnd", ...) or all of them.

        Raises ``KeyError`` naming the recorded variables if ``variable`` was not recorded.
        """
        if variable is None:
            return self._table.copy()
        mask = self._table["variable"] == variable
        if not mask.any():
            recorded = sorted(set(self._table["variable"].astype(str)))
            raise KeyError(f"no series {variable!r} was recorded (recorded: {', '.join(recorded) or 'none'})")
        out = self._table[mask].reset_index(drop=True)
        out["entity"] = out["entity"].cat.remove_unused_categories()
        out["variable"] = out["variable"].cat.remove_unused_categories()
        return out

    def ticp_reports(self, session: str | None = None) -> pd.DataFrame:
        """Per source of each TICP session: its node, cluster rank, the arrival time of its report
        (``arrived_s``, NaN if it never arrived), the round that collected it and whether it was
        delayed. Raises ``KeyError`` naming the sessions if ``session`` is not one of them."""
        if session is None:
            return self._ticp.copy()
        if session not in self.summary.get("ticp", {}):
            raise KeyError(f"no TICP session {session!r} (sessions: {', '.join(self.summary.get('ticp', {})) or 'none'})")
        return self._ticp[self._ticp["session"] == session].reset_index(drop=True)

    def wide(self, variable: str) -> pd.DataFrame:
        """One variable as a wide table: index time, one column per entity."""
        s = self.series(variable)
        return s.pivot_table(index="time", columns="entity", values="value", observed=True, aggfunc="last",
                             dropna=False)

    def write(self, out_dir: str | os.PathLike[str], *, plots: bool = True, csv: bool = False) -> Path:
        """Write ``summary.json``, ``spec.json``, ``series.parquet`` (and ``series.csv``) and PNG
        plots into ``out_dir``, creating it if needed.

        Files are written to a temporary folder inside ``out_dir`` and moved into place at the
        end, so an error never leaves a half-written set; files a previous run of ccsim left
        there and this run does not write (an old ``series.csv`` or plot) are removed.
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        out = prepare_output_dir(out_dir)
        tmp = Path(tempfile.mkdtemp(prefix=".ccsim-tmp-", dir=out))
        try:
            (tmp / "summary.json").write_text(json.dumps(self.summary, indent=2, allow_nan=False) + "\n")
            (tmp / "spec.json").write_text(json.dumps(self.spec, indent=2) + "\n")
            table = pa.Table.from_pandas(self._table, preserve_index=False)
            meta = dict(table.schema.metadata or {})
            meta.update({b"ccsim.seed": str(self.seed).encode(), b"ccsim.spec_hash": self.spec_hash.encode(),
                         b"ccsim.spec": json.dumps(self.spec).encode()})
            pq.write_table(table.replace_schema_metadata(meta), tmp / "series.parquet")
            if csv:
                self._table.to_csv(tmp / "series.csv", index=False)
            if len(self._ticp):
                pq.write_table(pa.Table.from_pandas(self._ticp, preserve_index=False), tmp / "ticp_reports.parquet")
            if plots:
                from .plots import plot_result

                plot_result(self, tmp)
            written = {f.name for f in tmp.iterdir()}
            for name in OUTPUT_FILES - written:
                (out / name).unlink(missing_ok=True)
            for f in tmp.iterdir():
                os.replace(f, out / f.name)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return out


#: Every file a run writes into its output folder.
OUTPUT_FILES = {"summary.json", "spec.json", "series.parquet", "series.csv", "ticp_reports.parquet", "rate.png",
                "cwnd.png", "queue.png"}


def check_output_dir(out_dir: str | os.PathLike[str]) -> Path:
    """Check, without creating anything, that ``out_dir`` is or can become a writable folder."""
    from .errors import SpecError

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise SpecError(f"{out} exists and is not a folder", "output")
    ancestor = out
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise SpecError(f"cannot create the output folder {out}: {ancestor} is not a folder", "output")
    if not os.access(ancestor, os.W_OK):
        raise SpecError(f"cannot create the output folder {out}: {ancestor} is not writable", "output")
    return out


def prepare_output_dir(out_dir: str | os.PathLike[str]) -> Path:
    """Create ``out_dir`` (and its parents) if needed; a clear SpecError if it cannot be one."""
    from .errors import SpecError

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise SpecError(f"{out} exists and is not a folder", "output")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SpecError(f"cannot create the output folder {out}: {e.strerror or e}", "output") from None
    if not os.access(out, os.W_OK):
        raise SpecError(f"the output folder {out} is not writable", "output")
    return out
