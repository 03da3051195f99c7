"""Running scenarios from Python."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

from . import _ccsim
from .results import Result
from .spec import SpecLike, to_json_text


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

            from .results import _interrupts_deferred

            # Ctrl-C waits until the bar is built and held: one that comes while tqdm draws it
            # for the first time would otherwise leave it on the screen, never cleared.
            with _interrupts_deferred():
                self._bar = tqdm(total=horizon, unit="sim s", file=sys.stderr, desc=self._label,
                                 bar_format="{desc}{percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} sim s "
                                            "[{elapsed}<{remaining}{postfix}]",
                                 leave=False, dynamic_ncols=True)
        self._bar.update(sim_seconds - self._bar.n)
        self._bar.set_postfix_str(f"{events / max(elapsed, 1e-9) / 1e6:.1f} M events/s", refresh=False)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _native_input(spec: SpecLike) -> tuple[str, bool]:
    """The text the native run parses, and whether it is TOML. A scenario file is read and
    handed over as it is, so it is parsed, validated and built once; anything else (and a
    file that cannot be read, whose error :func:`ccsim.load` words) goes through JSON."""
    if isinstance(spec, (str, os.PathLike)):
        path = Path(spec)
        try:
            if path.is_file():
                return path.read_text(encoding="utf-8"), path.suffix.lower() != ".json"
        except (OSError, UnicodeDecodeError, ValueError):
            pass
    return to_json_text(spec), False


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
    text, is_toml = _native_input(spec)  # validated once, by the native run
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
