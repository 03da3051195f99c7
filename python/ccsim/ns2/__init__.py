"""ns-2.35, the simulator of four of the five papers, as ccsim's second oracle
(docs/validation.md, "ns-2.35 as a second oracle").

- :mod:`ccsim.ns2.translate`: a spec as an ns-2.35 Tcl script, or ``Untranslatable`` naming the key;
- :mod:`ccsim.ns2.oracle`: run a script (``ns``, Debian's package ns2) and read its measures;
- :mod:`ccsim.ns2.result`: those measures as a :class:`ccsim.Result` for an experiment's checks
  (``ccsim reproduce NAME --oracle ns2``).
"""

from __future__ import annotations

import shutil


def available() -> bool:
    """Whether ``ns`` (ns-2.35) is on PATH."""
    return shutil.which("ns") is not None
