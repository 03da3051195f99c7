"""A run of ns-2.35 read as a :class:`ccsim.Result`, for the code that computes an experiment's
checks (``ccsim reproduce --oracle ns2``).

:class:`Ns2Result` answers what translate.py's script measures: the summary's per-flow
``goodput_bps``, ``sent_packets``, ``lost_packets``, ``retransmitted_packets`` and
``timeouts``, per link direction ``utilization``, ``drops``, ``tx_packets`` and
``mean_queue_packets``, the aggregate and Jain's index of those, the run's seed, duration and
warm-up, and the series of ``Translation.series`` (``rate``, ``sent_rate``, ``queue``,
``queue_bytes``, ``cwnd``, ``ssthresh``) with ccsim's names and units. Anything else a check
reads raises :class:`Ns2Missing`, a ``KeyError`` (and a ``ccsim.errors.NotFoundError``) that names it: the experiment then has no
ns-2.35 column, and the report says which measure stopped it; nothing falls back to ccsim's
value silently.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import NotFoundError
from ..results import Result
from .oracle import Measures
from .translate import Translation

if TYPE_CHECKING:
    import pandas as pd

    from ..summary_types import Overview, Summary


class Ns2Missing(NotFoundError):
    """A measure ccsim gives and the ns-2.35 translation does not."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "a measure the ns-2.35 translation does not give"


class _Entry(dict):  # type: ignore[type-arg]
    """A summary entry whose missing keys name themselves (:class:`Ns2Missing`)."""

    def __init__(self, where: str, values: dict[str, Any]) -> None:
        super().__init__(values)
        self._where = where

    def __missing__(self, key: str) -> Any:
        raise Ns2Missing(f"{self._where}.{key} is not measured by the ns-2.35 translation "
                         f"(it gives {', '.join(sorted(self))})")


def _jain(values: list[float]) -> float:
    total = sum(values)
    squares = sum(v * v for v in values)
    return total * total / (len(values) * squares) if squares > 0 else 1.0


class Ns2Result(Result):
    """ns-2.35's run of ``spec`` (its translation ``translation``, its measures ``measures``)."""

    def __init__(self, spec: dict[str, Any], spec_hash: str, translation: Translation, measures: Measures,
                 wall_seconds: float) -> None:
        self.spec_hash = spec_hash
        self.translation = translation
        self._canonical = spec
        run = spec["run"]
        self.seed = int(run["seed"])
        from .translate import seconds

        duration = seconds(run["duration"])
        warmup = seconds(run["warmup"]) if run.get("warmup") else 0.0
        protocols = {f["name"]: f["protocol"] for f in spec["flows"]}
        flows = {name: _Entry(f"flows[{name}]", {"protocol": protocols[name], **values})
                 for name, values in measures.flows.items() if name not in translation.generated}
        # Generated flows (replayed `[[traffic]]`) are in flows() only, as in ccsim's results.
        self._generated = {name: {**translation.generated[name], **values}
                           for name, values in measures.flows.items() if name in translation.generated}
        links = {name: _Entry(f"links[{name}]", values) for name, values in measures.links.items()}
        goodputs = [float(f["goodput_bps"]) for f in flows.values()]
        aggregate = {"flows": len(flows), "goodput_bps": sum(goodputs)}
        for key in ("sent_packets", "lost_packets", "retransmitted_packets", "timeouts"):
            aggregate[key] = sum(float(f[key]) for f in flows.values())
        # ns-2.35's measures stand where ccsim's summary does; one it lacks raises Ns2Missing.
        self.overview = cast("Overview", {
            "aggregate": _Entry("aggregate", aggregate),
            "fairness": _Entry("fairness", {"jain": _jain(goodputs) if goodputs else 1.0}),
            "run": _Entry("run", {"seed": self.seed, "spec_hash": spec_hash, "sim_seconds": duration,
                                  "warmup_seconds": warmup, "wall_seconds": wall_seconds,
                                  "simulator": "ns-2.35"}),
        })
        self._measured: dict[str, Any] = {"flows": flows, "links": links, **self.overview}
        self._samples = measures.samples
        self._table = None
        self._wide = {}

    @property
    def summary(self) -> Summary:
        return cast("Summary", self._measured)

    @property
    def spec(self) -> dict[str, Any]:
        return self._canonical

    def content_key(self) -> str:
        """ns-2.35's run is keyed by the script it ran and everything it measured."""
        return json.dumps({"tcl": self.translation.tcl, "flows": self._measured["flows"],
                           "generated": self._generated, "links": self._measured["links"],
                           "samples": self._samples}, sort_keys=True, default=str)

    @property
    def table(self) -> pd.DataFrame:
        """The sampled series as a tidy table (``time``, ``entity``, ``variable``, ``value``),
        as :attr:`ccsim.Result.table`."""
        if self._table is None:
            import pandas as pd

            rows = self._samples
            self._table = pd.DataFrame({
                "time": [r[0] for r in rows],
                "entity": pd.Categorical([r[2] for r in rows]),
                "variable": pd.Categorical([r[1] for r in rows]),
                "value": [r[3] for r in rows],
            })
        return self._table

    def series(self, variable: str | None = None) -> pd.DataFrame:
        if variable is not None and variable not in self.translation.series:
            raise Ns2Missing(f"the {variable!r} series is not sampled by the ns-2.35 translation "
                             f"(it samples {', '.join(self.translation.series) or 'none'})")
        return super().series(variable)

    def _flow_rows(self) -> dict[str, dict[str, Any]]:
        rows: dict[str, dict[str, Any]] = {name: _Entry(f"flows[{name}]", {**values, "generator": ""})
                                           for name, values in self._measured["flows"].items()}
        rows.update({name: _Entry(f"flows[{name}]", values) for name, values in self._generated.items()})
        return rows

    def flow_columns(self, *columns: str) -> dict[str, list[Any]]:
        rows = self._flow_rows()
        names = list(rows)
        wanted = columns or ("name", *next(iter(rows.values()), {}).keys())
        return {c: names if c == "name" else [rows[n][c] for n in names] for c in wanted}

    def flows(self) -> pd.DataFrame:
        """The spec's flows (`generator` "") and the replayed generated flows, whose counters
        are over their life (`received_bytes`, `sent_packets`, `lost_packets`,
        `retransmitted_packets`, `timeouts`) with their `generator`, `start_s` and
        `size_bytes`."""
        import pandas as pd

        rows = {name: dict(values) for name, values in self._flow_rows().items()}
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("name")

    def links(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame.from_dict(self._measured["links"], orient="index").rename_axis("name")

    def ticp_reports(self, session: str | None = None) -> pd.DataFrame:
        raise Ns2Missing("TICP reports are not translated to ns-2.35")

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}: {float(f['goodput_bps']) / 1e6:.3g} Mbit/s"
                          for n, f in list(self._measured["flows"].items())[:4])
        return f"<ccsim.ns2.Ns2Result seed {self.seed}, spec {self.spec_hash}; {shown}>"

    def write(self, out_dir: str | os.PathLike[str], *, plots: bool = True, csv: bool = False) -> Path:
        """The run's folder: ``summary.json`` (ns-2.35's measures), ``spec.json`` (the spec
        ccsim would have run) and ``scenario.tcl`` (the script ns-2.35 ran)."""
        from ..results import prepare_output_dir

        out = prepare_output_dir(out_dir, {"summary.json", "spec.json", "scenario.tcl"})
        summary = {"flows": dict(self._measured["flows"]), "links": dict(self._measured["links"]),
                   **{k: dict(cast(_Entry, v)) for k, v in self.overview.items()}}
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        (out / "spec.json").write_text(json.dumps(self._canonical, indent=2) + "\n")
        (out / "scenario.tcl").write_text(self.translation.tcl)
        return out
