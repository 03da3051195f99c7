"""The figure drawer in force: the :mod:`ccsim.figcache` drawer a ``ccsim reproduce`` sets
around its experiments, which the per-run plots (:mod:`ccsim.plots`) go through when there is
one. It sits apart from :mod:`ccsim.figcache` so that the plots, below the results in the
package's layering, need not import the result cache above them (tests/test_layering.py)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol


class InlineDrawer(Protocol):
    """What the per-run plots need of a drawer (:class:`ccsim.figcache.Drawer`)."""

    def inline(self, name: str, arguments: dict[str, Any], path: Path,
               draw: Callable[[], Path | None]) -> Path | None: ...


_drawer: contextvars.ContextVar[Any] = contextvars.ContextVar("ccsim_figure_drawer", default=None)


def current() -> Any:
    """The drawer of the :func:`drawing` block this call is in, if any."""
    return _drawer.get()


@contextmanager
def drawing(drawer: Any) -> Iterator[Any]:
    """Within the block, figures marked with :func:`ccsim.figcache.cached_figure` and the
    per-run plots go through ``drawer``."""
    token = _drawer.set(drawer)
    try:
        yield drawer
    finally:
        _drawer.reset(token)
