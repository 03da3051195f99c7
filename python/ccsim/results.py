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

    def wide(self, variable: str) -> pd.DataFrame:
        """One variable as a wide table: index time, one column per entity."""
        s = self.series(variable)
        return s.pivot_table(index="time", columns="entity", values="value", observed=True, aggfunc="last")

    def write(self, out_dir: str | os.PathLike[str], *, plots: bool = True, csv: bool = False) -> Path:
        """Write ``summary.json``, ``series.parquet`` (and ``series.csv``) and PNG plots.

        Files are written to a temporary folder beside ``out_dir`` and moved in at the end,
        so an error never leaves a half-written folder.
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        out = Path(out_dir)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
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
            if plots:
                from .plots import plot_result

                plot_result(self, tmp)
            out.mkdir(parents=True, exist_ok=True)
            for f in tmp.iterdir():
                os.replace(f, out / f.name)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return out
