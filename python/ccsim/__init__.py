"""ccsim: a fast, deterministic packet-level congestion-control laboratory.

>>> import ccsim
>>> res = ccsim.run("scenario.toml")          # or a dict, or a ccsim.Scenario
>>> res.summary["flows"]["tcp1"]["goodput_bps"]
>>> res.series("rate")                          # tidy pandas DataFrame
>>> ccsim.tidy(ccsim.run_many(specs), params=["run.seed"])  # a sweep: a row per run and flow
"""

from __future__ import annotations

from . import _ccsim
from . import summary_types as summary_types  # the TypedDicts of Result.summary and Result.overview
from . import topology as topology  # networkx is imported only when a graph is built
from .algorithms import CongestionControl, QueueDiscipline, register_cc, register_queue
from .api import flow_file, run
from .errors import CcsimError, InternalError, ResourceError, SimulationError, SpecError, UserCodeError, WriteError
from .results import Result
from .spec import Scenario, load, schema, validate
from .sweep import run_many, tidy

__version__: str = _ccsim.__version__

__all__ = [
    "CcsimError",
    "CongestionControl",
    "InternalError",
    "QueueDiscipline",
    "ResourceError",
    "Result",
    "Scenario",
    "SimulationError",
    "SpecError",
    "UserCodeError",
    "WriteError",
    "flow_file",
    "load",
    "register_cc",
    "register_queue",
    "run",
    "run_many",
    "schema",
    "tidy",
    "validate",
    "__version__",
]
