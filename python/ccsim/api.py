"""Running scenarios from Python."""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

from . import _ccsim
from .results import Result
from .spec import SpecLike, to_json_text


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


ProgressCallback = Callable[[float, float, int], None]


def run(spec: SpecLike, *, progress: bool = True, label: str = "",
        on_progress: ProgressCallback | None = None) -> Result:
    """Run a scenario: a TOML path, a spec dict or a :class:`ccsim.Scenario`.

    Shows a progress bar on stderr for runs that take more than a second unless
    ``progress=False``. ``on_progress(sim_seconds, horizon_seconds, events)`` is called
    every few hundred thousand events; an exception it raises stops the run and propagates.
    Ctrl-C stops the run and raises ``KeyboardInterrupt``.
    Raises :class:`ccsim.SpecError` for bad input, :class:`ccsim.InternalError` for bugs.
    """
    text = to_json_text(spec)  # validated once, by the native run
    bar = _ProgressBar(None, label) if progress else None
    callbacks = [cb for cb in (bar, on_progress) if cb is not None]

    def report(sim_seconds: float, horizon: float, events: int) -> None:
        for cb in callbacks:
            cb(sim_seconds, horizon, events)

    try:
        raw: dict[str, Any] = _ccsim.run(text, report if callbacks else None)
    finally:
        if bar is not None:
            bar.close()
    return Result(raw)
