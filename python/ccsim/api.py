"""Running scenarios from Python."""

from __future__ import annotations

import sys
import time
from typing import Any

from . import _ccsim
from .results import Result
from .spec import SpecLike, to_spec_json


class _ProgressBar:
    """A tqdm bar over simulated seconds, shown only for runs longer than a second."""

    def __init__(self, horizon: float | None, label: str) -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=horizon, unit="sim s", delay=1.0, file=sys.stderr, desc=label,
                         bar_format="{desc}{percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} sim s [{elapsed}<{remaining}{postfix}]",
                         leave=False, dynamic_ncols=True)
        self._start = time.perf_counter()

    def __call__(self, sim_seconds: float, horizon: float, events: int) -> None:
        if self._bar.total is None:
            self._bar.total = horizon
        self._bar.update(sim_seconds - self._bar.n)
        rate = events / max(time.perf_counter() - self._start, 1e-9)
        self._bar.set_postfix_str(f"{rate / 1e6:.1f} M events/s", refresh=False)

    def close(self) -> None:
        self._bar.close()


def run(spec: SpecLike, *, progress: bool = True, label: str = "") -> Result:
    """Run a scenario: a TOML path, a spec dict or a :class:`ccsim.Scenario`.

    Shows a progress bar on stderr for runs that take more than a second unless
    ``progress=False``. Ctrl-C stops the run and raises ``KeyboardInterrupt``.
    Raises :class:`ccsim.SpecError` for bad input, :class:`ccsim.InternalError` for bugs.
    """
    text = to_spec_json(spec)
    bar = _ProgressBar(None, label) if progress else None
    try:
        raw: dict[str, Any] = _ccsim.run(text, bar)
    finally:
        if bar is not None:
            bar.close()
    return Result(raw)
