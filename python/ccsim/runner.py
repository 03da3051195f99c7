"""The native run of a spec's text, with its progress bar: what :func:`ccsim.run` and
:meth:`ccsim.Scenario.run` share.

It sits below spec.py and api.py (docs/architecture.md, "Inside the Python package"): the
caller turns its spec into text, and this module knows no spec form.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

from . import _ccsim
from .results import Result, _interrupts_deferred


class _ProgressBar:
    """A tqdm bar over simulated seconds, shown only for runs longer than a second (tqdm is
    imported then, not before: short runs never pay for it)."""

    def __init__(self, label: str) -> None:
        self._label = label
        self._bar: Any = None
        self._start = time.perf_counter()

    def __call__(self, sim_seconds: float, horizon: float, events: int) -> None:
        elapsed = time.perf_counter() - self._start
        if self._bar is None:
            if elapsed < 1.0:
                return
            from tqdm import tqdm

            # Ctrl-C waits until the bar is built and held: one that comes while tqdm draws it
            # for the first time would otherwise leave it on the screen, never cleared.
            with _interrupts_deferred():
                self._bar = tqdm(total=horizon, unit="sim s", file=sys.stderr, desc=self._label,
                                 bar_format="{desc}{percentage:3.0f}%|{bar}| {n:.3g}/{total:.3g} sim s "
                                            "[{elapsed}<{remaining}{postfix}]",
                                 leave=False, dynamic_ncols=True)
        self._bar.update(sim_seconds - self._bar.n)
        rate = sim_seconds / max(elapsed, 1e-9)
        self._bar.set_postfix_str(f"{_sim_rate(rate)}, {events / max(elapsed, 1e-9) / 1e6:.1f} M events/s",
                                  refresh=False)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _sim_rate(sim_per_wall: float) -> str:
    """Simulated time per wall second, in the unit that reads best ("3.2 sim ms/s")."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us")):
        if sim_per_wall >= scale:
            return f"{sim_per_wall / scale:.3g} sim {unit}/s"
    return f"{sim_per_wall / 1e-9:.3g} sim ns/s"


ProgressCallback = Callable[[float, float, int], None]


def run_text(text: str, is_toml: bool, *, progress: bool = True, label: str = "",
             on_progress: ProgressCallback | None = None) -> Result:
    """Run the scenario in ``text`` (TOML if ``is_toml``, else JSON), validated once, by the
    native run; the options are :func:`ccsim.run`'s."""
    bar = _ProgressBar(label) if progress else None
    callbacks = [cb for cb in (bar, on_progress) if cb is not None]

    def report(sim_seconds: float, horizon: float, events: int) -> None:
        for cb in callbacks:
            cb(sim_seconds, horizon, events)

    try:
        data = _ccsim.run(text, report if callbacks else None, toml=is_toml)
    finally:
        if bar is not None:
            bar.close()
    return Result(data)
