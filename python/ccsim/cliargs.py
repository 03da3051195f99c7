"""The command line's values, written as scenario files write them (docs/scenarios.md, Units):
a duration carries its unit (``"2s"``, ``"500ms"``, ``"1.5e-3s"``) and a bare number is
refused, as ``60 has no unit`` is in a scenario file. A refusal is one
:class:`ccsim.SpecError` naming the option, so the command line prints one line and exits 2.

CHOICE: the flags are read in the commands rather than as argparse types: an argparse type's
error prints the usage block before its message, where every other bad value is one line.
"""

from __future__ import annotations

import math
import re

from .errors import SpecError

#: Seconds per unit of a duration, the units of a scenario file's durations (µs for us too).
SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
_DURATION = re.compile(r"((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)(ns|us|µs|ms|s)")


def duration_seconds(text: str, option: str) -> float:
    """``text``, a duration with its unit, in seconds (finite, not negative); a
    :class:`SpecError` at ``option`` for anything else, with a hint for a bare number."""
    found = _DURATION.fullmatch(text.strip())
    if found is None:
        bare = re.fullmatch(r"[0-9.eE+-]+", text.strip()) is not None
        hint = f' ("{text.strip()}s" for seconds)' if bare else ""
        raise SpecError(f'expected a duration with its unit, such as "2s" or "500ms", found {text!r}{hint}',
                        option)
    seconds = float(found.group(1)) * SECONDS_PER_UNIT[found.group(2)]
    if not math.isfinite(seconds):
        raise SpecError(f"{text!r} is too large", option)
    return seconds
