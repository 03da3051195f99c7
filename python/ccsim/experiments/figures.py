"""Drawing helpers shared by the experiments' figures.

Rules every experiment figure keeps (tests/test_figures.py checks them on the quick variants):
a rate axis is in the unit of the experiment's table; every reference line (fair share, buffer,
capacity, an event's instant) has a label in a legend; a time axis ends where the data ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..figcache import cached_figure as cached_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Bits per second in one unit of each rate unit the experiments use.
RATE_UNITS: dict[str, float] = {"Mbit/s": 1e6, "kbit/s": 1e3, "kB/s": 8e3}


def pyplot() -> Any:
    """matplotlib.pyplot on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def time_axis(ax: Axes, end: float, start: float = 0.0) -> None:
    """Let the time axis run from ``start`` to ``end`` (the data's last instant), no margin."""
    ax.set_xlim(start, end)


def save(fig: Figure, path: Path, dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` (creating its folder) and close it. The file depends on the
    figure only: a PNG's metadata holds matplotlib's version and no date; an SVG or PDF is
    written without its date and, for SVG, with fixed element ids (the figure cache,
    python/ccsim/figcache.py, relies on drawing the same bytes twice)."""
    plt = pyplot()
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    metadata: dict[str, Any] | None = {"Date": None} if suffix in (".svg", ".pdf") else None
    with plt.rc_context({"svg.hashsalt": "ccsim"} if suffix == ".svg" else {}):
        fig.savefig(path, dpi=dpi, metadata=metadata)
    plt.close(fig)
    return path
