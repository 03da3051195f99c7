"""The top files of a ``ccsim reproduce`` output folder (``index.html``, ``reproduce.json``):
ccsim replaces only the files it lists in the folder's report manifest, and writes no user's
home folder into them.

It sits below reproduce.py and report.py, which both write top files (docs/architecture.md,
"Inside the Python package").
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import SpecError
from .results import atomic_write_text

REPORT_MANIFEST = ".ccsim-report-manifest"


def redact(text: str) -> str:
    """``text`` with the user's home folder written ``~`` (an error message that names a file)."""
    try:
        home = str(Path.home())
    except (RuntimeError, KeyError):  # no home folder known
        return text
    if len(home.rstrip("/\\")) == 0:  # "/": no home folder to hide
        return text
    return re.sub(re.escape(home.rstrip("/\\")) + r"(?!\w)", "~", text)


def claim_top_file(out: Path, name: str) -> None:
    """List ``out/name`` as ccsim's in the folder's report manifest, refusing a file ccsim did
    not write."""
    check_top_file(out, name)
    manifest = out / REPORT_MANIFEST
    ours = set(manifest.read_text().split("\n")) if manifest.exists() else set()
    atomic_write_text(manifest, "".join(f"{n}\n" for n in sorted(ours | {name}) if n))


def check_top_file(out: Path, name: str) -> None:
    """Refuse at the start, before any run, a top file that ccsim did not write."""
    manifest = out / REPORT_MANIFEST
    ours = set(manifest.read_text().split("\n")) if manifest.exists() else set()
    if (out / name).exists() and name not in ours:
        raise SpecError(f"{out / name} exists and was not written by ccsim (it is not listed in {manifest}); "
                        "move it or choose another output folder", "output")
