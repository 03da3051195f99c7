"""The experiment registry: named recipes that build specs, run them, and compare.

An experiment produces a table of measured values beside the values the paper (or a
closed-form model) gives, each with the band that counts as reproduced.
"""

from __future__ import annotations

from .base import Check, Experiment, ExperimentReport
from .cbraa import EXPERIMENTS as CBRAA_EXPERIMENTS
from .datacenter import EXPERIMENTS as DATACENTER_EXPERIMENTS
from .dumbbell import DumbbellNewReno
from .l4s import EXPERIMENTS as L4S_EXPERIMENTS
from .misses import MISSES
from .obp import EXPERIMENTS as OBP_EXPERIMENTS
from .obp_period import EXPERIMENTS as OBP_PERIOD_EXPERIMENTS
from .primo import EXPERIMENTS as PRIMO_EXPERIMENTS
from .satellite import EXPERIMENTS as SATELLITE_EXPERIMENTS
from .tcpm import EXPERIMENTS as TCPM_EXPERIMENTS
from .ticp import EXPERIMENTS as TICP_EXPERIMENTS
from .xcp import EXPERIMENTS as XCP_EXPERIMENTS

REGISTRY: dict[str, Experiment] = {e.name: e for e in [DumbbellNewReno(), *TICP_EXPERIMENTS, *SATELLITE_EXPERIMENTS,
                                                *CBRAA_EXPERIMENTS, *PRIMO_EXPERIMENTS, *TCPM_EXPERIMENTS,
                                                *XCP_EXPERIMENTS, *OBP_EXPERIMENTS, *OBP_PERIOD_EXPERIMENTS,
                                                *L4S_EXPERIMENTS, *DATACENTER_EXPERIMENTS]}
for _name, _miss in MISSES.items():  # why a claim does not reproduce (misses.py)
    REGISTRY[_name].miss = _miss

__all__ = ["Check", "Experiment", "ExperimentReport", "REGISTRY"]
