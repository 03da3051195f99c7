"""Running scenarios from Python."""

from __future__ import annotations

import os
from pathlib import Path

from . import _ccsim
from .algorithms import note_scenario_dir
from .errors import SpecError
from .inputs import read_input_text
from .results import Result
from .runner import ProgressCallback, run_text
from .spec import SpecLike, names_files, to_json_text, with_trace_files


def _native_input(spec: SpecLike) -> tuple[str, bool]:
    """The text the native run parses, and whether it is TOML. A scenario file is read and
    handed over as it is, so it is parsed, validated and built once; anything else (and a
    file that cannot be read, whose error :func:`ccsim.load` words) goes through JSON."""
    if isinstance(spec, (str, os.PathLike)):
        path = Path(spec)
        try:
            if path.is_file():
                text = read_input_text(path, "(document)", "scenario file")
                note_scenario_dir(path.parent)  # a "module:Class" protocol may sit beside it
                is_json = path.suffix.lower() == ".json"
                # A link's `trace = "FILE"` is replaced by the file's numbers first.
                resolved = with_trace_files(text, path.parent, is_json) if names_files(text) else None
                return (resolved, False) if resolved is not None else (text, not is_json)
        except (OSError, ValueError, SpecError):
            pass
    return to_json_text(spec), False


def flow_file(spec: SpecLike, generator: str | None = None) -> str:
    """The flows a ``kind = "flows"`` generator of ``spec`` starts, in HPCC's flow-file format
    (the count on the first line, then ``<src> <dst> 3 100 <bytes> <start seconds>`` a line,
    hosts numbered by their place in the generator's ``hosts``): the same draws as the run, so
    ns-3 or HPCC's simulator can replay them. ``generator`` may be left out when the scenario
    has one such generator. Raises :class:`ccsim.SpecError` for bad input."""
    from .spec import validate

    if generator is None:
        names = [t["name"] for t in validate(spec).get("traffic", []) if t.get("kind") == "flows"]
        if len(names) != 1:
            raise SpecError(f"the scenario has {len(names)} flows generators ({', '.join(names) or 'none'}); "
                            "name one", "traffic")
        generator = names[0]
    return _ccsim.hpcc_flow_file(to_json_text(spec), generator)


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
    return run_text(text, is_toml, progress=progress, label=label, on_progress=on_progress)
