"""Figures as results: each figure ``ccsim reproduce`` draws is kept in the result cache under
the hash of what it is drawn from, and figures that must be drawn are drawn in worker processes.

A figure-drawing function is marked with :func:`cached_figure`; it takes the file to write as
its ``path`` argument and returns it. Outside a :func:`drawing` block (a test, a script) the
mark does nothing: the function draws and saves as written. Inside one, a call:

- computes the figure's key: the SHA-256 of the function's module and name, the code that
  draws (:func:`code_identity`: the SHA-256 of every Python source of the ccsim package, ccsim's
  build fingerprint, the versions of matplotlib, numpy, pandas and Python), matplotlib's
  settings in force (``rcParams``), the suffix of ``path`` (the file's format) and every other
  argument, encoded canonically (:func:`fingerprint`);
- on a hit, copies the stored bytes to ``path``;
- on a miss, sends the function and its arguments to a pool of worker processes, which draw the
  figure into a file of their own and return its bytes; :meth:`Drawer.wait` writes them to
  ``path`` and stores them. The caller gets ``path`` at once and goes on.

CHOICE: the code's part of the key is the whole Python package, not the drawing function's
source: a figure function calls helpers anywhere in ccsim (``Result.wide``, the metrics, the
experiment's own analysis), and a key that missed one of them could serve a stale figure. Any
edit of ccsim's Python code therefore redraws every figure once (in parallel), which is cheap
next to a stale figure.

CHOICE: a :class:`ccsim.Result` argument is encoded as its identity, ccsim's build fingerprint
and the SHA-256 of its canonical spec, which is what the result cache keys a run by: the same
spec with the same build gives bit-identical results, so it is exactly what the figure is drawn
from.

CHOICE: an argument of a type :func:`fingerprint` does not know makes the figure uncacheable;
it is then drawn in this process, as without the cache, never keyed by a guess.

An entry is ``figures/v1/<first two hex digits>/<key>.ccfig`` under the cache folder: a header
line with the format and the SHA-256 of the figure's bytes, then the bytes, written to a
temporary file and renamed into place. An entry that fails its checksum is removed and the
figure drawn again. The folder is the result cache's (:class:`ccsim.cache.ResultCache`), with
its ``CACHEDIR.TAG`` rules.

Figures are deterministic: the same arguments drawn here or in a worker give the same bytes
(Agg rendering; PNG metadata holds only matplotlib's version, and an SVG's date is left out,
:func:`ccsim.experiments.figures.save`), so a figure read from the cache is byte for byte the
figure drawn.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import inspect
import io
import math
import pickle
import platform
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from . import drawing as _drawing
from .cache import ResultCache, build_fingerprint, entry_payload, write_entry
from .errors import InternalError
from .results import Result

_MAGIC = b"ccsim-figure 1 "
_FORMAT = b"ccsim figure key 1\n"


class Unhashable(InternalError, TypeError):
    """An argument :func:`fingerprint` cannot encode: the figure is drawn without the cache."""


# ---------------------------------------------------------------------------------------------
# What a figure is drawn from, as bytes


def _tag(h: Any, name: str) -> None:
    h.update(name.encode())
    h.update(b"\0")


def _text(h: Any, s: str) -> None:
    data = s.encode("utf-8", "surrogatepass")
    h.update(struct.pack("<Q", len(data)))
    h.update(data)


def _array(h: Any, a: Any) -> None:
    import numpy as np

    a = np.asarray(a)
    _tag(h, "ndarray")
    _text(h, a.dtype.str)
    _text(h, repr(a.shape))
    if a.dtype.hasobject:
        for x in a.ravel(order="C"):
            fingerprint(x, h)
    else:
        h.update(np.ascontiguousarray(a).tobytes())


def _index(h: Any, idx: Any) -> None:
    import pandas as pd

    _tag(h, type(idx).__name__)
    fingerprint(list(idx.names), h)
    if isinstance(idx, pd.MultiIndex):
        for level, codes in zip(idx.levels, idx.codes):
            _index(h, level)
            _array(h, codes)
    elif isinstance(idx, pd.CategoricalIndex):
        _index(h, idx.categories)
        _array(h, idx.codes)
        fingerprint(bool(idx.ordered), h)
    else:
        _text(h, str(idx.dtype))
        _array(h, idx.to_numpy())


def _series(h: Any, s: Any) -> None:
    import pandas as pd

    _text(h, str(s.dtype))
    if isinstance(s.dtype, pd.CategoricalDtype):
        _index(h, s.cat.categories)
        _array(h, s.cat.codes.to_numpy())
        fingerprint(bool(s.cat.ordered), h)
    else:
        _array(h, s.to_numpy())


def fingerprint(obj: Any, h: Any) -> None:
    """Feed ``obj`` into the hash ``h`` canonically: two objects that feed the same bytes draw
    the same figure. Raises :class:`Unhashable` for a type it does not know."""
    if obj is None or isinstance(obj, bool):
        _tag(h, repr(obj))
    elif isinstance(obj, enum.Enum):
        _tag(h, "enum")
        _text(h, f"{type(obj).__module__}.{type(obj).__qualname__}.{obj.name}")
    elif isinstance(obj, int):
        _tag(h, "int")
        _text(h, str(obj))
    elif isinstance(obj, float):
        _tag(h, "float")
        _text(h, "nan" if math.isnan(obj) else obj.hex())
    elif isinstance(obj, str):
        _tag(h, "str")
        _text(h, obj)
    elif isinstance(obj, bytes):
        _tag(h, "bytes")
        h.update(struct.pack("<Q", len(obj)))
        h.update(obj)
    elif isinstance(obj, Result):
        _tag(h, "Result")
        _text(h, build_fingerprint())
        _text(h, hashlib.sha256(obj.content_key().encode()).hexdigest())
    elif isinstance(obj, Path):
        _tag(h, "Path")
        _text(h, obj.as_posix())
    elif isinstance(obj, (list, tuple)):
        _tag(h, type(obj).__qualname__ if isinstance(obj, tuple) and type(obj) is not tuple else type(obj).__name__)
        h.update(struct.pack("<Q", len(obj)))
        for x in obj:
            fingerprint(x, h)
    elif isinstance(obj, dict):
        # Insertion order is kept: a figure draws its entries in that order (legends, colours).
        _tag(h, "dict")
        h.update(struct.pack("<Q", len(obj)))
        for k, v in obj.items():
            fingerprint(k, h)
            fingerprint(v, h)
    elif isinstance(obj, (set, frozenset)):
        parts = []
        for x in obj:
            sub = hashlib.sha256()
            fingerprint(x, sub)
            parts.append(sub.digest())
        _tag(h, "set")
        for p in sorted(parts):
            h.update(p)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        _tag(h, f"{type(obj).__module__}.{type(obj).__qualname__}")
        for f in dataclasses.fields(obj):
            _text(h, f.name)
            fingerprint(getattr(obj, f.name), h)
    else:
        _fingerprint_data(obj, h)


def _fingerprint_data(obj: Any, h: Any) -> None:
    """numpy and pandas values (imported only when such a value is seen)."""
    numpy = sys.modules.get("numpy")
    pandas = sys.modules.get("pandas")
    if numpy is not None:
        if isinstance(obj, numpy.ndarray):
            _array(h, obj)
            return
        if isinstance(obj, numpy.generic):
            _tag(h, "npscalar")
            _array(h, numpy.asarray(obj))
            return
    if pandas is not None:
        if isinstance(obj, pandas.DataFrame):
            _tag(h, "DataFrame")
            _index(h, obj.index)
            _index(h, obj.columns)
            for i in range(obj.shape[1]):
                _series(h, obj.iloc[:, i])
            return
        if isinstance(obj, pandas.Series):
            _tag(h, "Series")
            fingerprint(obj.name, h)
            _index(h, obj.index)
            _series(h, obj)
            return
        if isinstance(obj, pandas.Index):
            _index(h, obj)
            return
    raise Unhashable(f"cannot key a figure by a {type(obj).__module__}.{type(obj).__qualname__}")


def _package_sources() -> list[Path]:
    root = Path(__file__).resolve().parent
    return sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix())


@functools.cache
def code_identity() -> str:
    """The code that draws: every Python source of the ccsim package (SHA-256), the build
    fingerprint and the versions of matplotlib, numpy, pandas and Python."""
    import matplotlib
    import numpy
    import pandas

    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in _package_sources():
        _text(h, path.relative_to(root).as_posix())
        data = path.read_bytes()
        h.update(struct.pack("<Q", len(data)))
        h.update(data)
    for part in (build_fingerprint(), matplotlib.__version__, numpy.__version__, pandas.__version__,
                 platform.python_version()):
        _text(h, part)
    return h.hexdigest()


#: matplotlib settings that are no part of a figure's key. CHOICE: the backend, which the
#: first ``pyplot`` import resolves (so it reads differently before and after it): figures are
#: always drawn on Agg (``ccsim.experiments.figures.pyplot``, ``ccsim.plots.plot_result``).
_NOT_DRAWN = frozenset({"backend", "backend_fallback"})


def _settings() -> str:
    """matplotlib's settings in force, as text (a user's matplotlibrc or an ``rc_context``)."""
    import matplotlib

    return "\n".join(f"{k}={v!r}" for k, v in sorted(matplotlib.rcParams.items()) if k not in _NOT_DRAWN)


def figure_key(name: str, arguments: dict[str, Any], path: Path) -> str:
    """The key of the figure the function ``name`` (module and qualified name) draws from
    ``arguments`` into ``path``; :class:`Unhashable` if an argument cannot be encoded.
    ``path``'s folder and name are no part of it, its suffix is."""
    h = hashlib.sha256(_FORMAT)
    _text(h, code_identity())
    _text(h, name)
    _text(h, hashlib.sha256(_settings().encode()).hexdigest())
    _text(h, path.suffix.lower())
    for name, value in arguments.items():
        if name != "path":
            _text(h, name)
            fingerprint(value, h)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# The entries


@dataclass
class FigureStats:
    """What the figure cache did: hits, figures drawn (misses), entries stored, corrupt ones."""

    hits: int = 0
    drawn: int = 0
    stored: int = 0
    uncached: int = 0
    corrupt: list[str] = dataclasses.field(default_factory=list)


class FigureCache:
    """The figures of a result cache, in its folder's ``figures/`` (made on first use)."""

    def __init__(self, results: ResultCache) -> None:
        self.results = results
        self.folder = results.folder / "figures"
        self.stats = FigureStats()
        self._lock = threading.Lock()
        self._warned = False

    def path(self, key: str) -> Path:
        return self.folder / "v1" / key[:2] / f"{key}.ccfig"

    def get(self, key: str) -> bytes | None:
        """The figure stored under ``key``, or None (a miss, or an entry that fails its
        checksum, which is then removed)."""
        self.results.prepare()
        path = self.path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        payload = entry_payload(data, _MAGIC)
        if payload is not None:
            with self._lock:
                self.stats.hits += 1
            return payload
        with self._lock:
            self.stats.corrupt.append(key)
        path.unlink(missing_ok=True)
        return None

    def put(self, key: str, payload: bytes) -> None:
        """Store ``payload`` under ``key``; a failure to write is a warning, once."""
        self.results.prepare()
        try:
            write_entry(self.path(key), _MAGIC, payload)
        except OSError as e:
            with self._lock:
                if not self._warned:
                    self._warned = True
                    print(f"ccsim: warning: cannot store figures in the cache {self.folder}: {e.strerror or e}; "
                          "going on without storing", file=sys.stderr)
            return
        with self._lock:
            self.stats.stored += 1


# ---------------------------------------------------------------------------------------------
# Drawing in worker processes


class _Pickler(pickle.Pickler):
    """Pickles a :class:`ccsim.Result` as its packed bytes (:func:`ccsim.stored.pack`)."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Result):
            from .stored import pack

            return ("ccsim.Result", pack(obj))
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        kind, packed = pid
        if kind != "ccsim.Result":
            raise InternalError(f"unknown persistent id {kind!r} in a figure worker's answer")
        from .stored import unpack

        return unpack(packed)


def _dumps(obj: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


def _changed_settings() -> dict[str, Any]:
    """matplotlib's settings that differ from those its matplotlibrc gave (a worker, started
    in the same environment, reads the same file and applies these on top)."""
    import matplotlib

    return {k: v for k, v in matplotlib.rcParams.items()
            if k not in _NOT_DRAWN and matplotlib.rcParamsOrig.get(k) != v}


def _draw_in_worker(job: bytes) -> bytes:
    """Draw one figure in a worker process: the marked function with its arguments and this
    process's matplotlib settings, into a temporary file of the same name; return its bytes."""
    import matplotlib

    matplotlib.use("Agg")
    draw, arguments, name, settings = _Unpickler(io.BytesIO(job)).load()
    with tempfile.TemporaryDirectory(prefix="ccsim-figure-") as tmp, matplotlib.rc_context(settings):
        path = Path(tmp) / name
        draw(**{**arguments, "path": path})
        data: bytes = path.read_bytes()
    return data


@dataclass
class _Pending:
    path: Path
    key: str | None
    future: Future[bytes]


class Drawer:
    """The figures of one ``reproduce``: read from ``cache`` (None: no cache), drawn by up to
    ``workers`` processes (started at the first figure to draw)."""

    def __init__(self, cache: FigureCache | None, workers: int) -> None:
        self.cache = cache
        self.workers = max(1, workers)
        self.stats = cache.stats if cache is not None else FigureStats()
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[_Pending] = []

    def figure(self, draw: Callable[..., Any], arguments: dict[str, Any], path: Path) -> Path:
        """Write the figure ``draw(**arguments)`` draws to ``path`` now (from the cache), or
        once it is drawn (:meth:`wait`)."""
        key = self._key(f"{draw.__module__}.{draw.__qualname__}", arguments, path)
        if key is not None and self.cache is not None:
            data = self.cache.get(key)
            if data is not None:
                _write(path, data)
                return path
        try:
            job = _dumps((draw, {k: v for k, v in arguments.items() if k != "path"}, path.name,
                          _changed_settings()))
        except (pickle.PicklingError, TypeError, AttributeError, ValueError):
            job = None
        if job is None:  # what cannot be sent to a worker is drawn here, by the function itself
            getattr(draw, "__wrapped__", draw)(**arguments)
            self._drawn(key, path)
            return path
        if self._pool is None:
            import multiprocessing

            # CHOICE: workers are spawned, not forked: this process runs threads (the sweep's
            # runs, the progress bar), which a fork would copy mid-step.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        self._pending.append(_Pending(path, key, self._pool.submit(_draw_in_worker, job)))
        return path

    def _key(self, name: str, arguments: dict[str, Any], path: Path) -> str | None:
        if self.cache is None:
            return None
        try:
            return figure_key(name, arguments, path)
        except Unhashable:
            self.stats.uncached += 1
            return None

    def _drawn(self, key: str | None, path: Path) -> None:
        self.stats.drawn += 1
        if key is not None and self.cache is not None:
            self.cache.put(key, path.read_bytes())

    def inline(self, name: str, arguments: dict[str, Any], path: Path, draw: Callable[[], Path | None]) -> Path | None:
        """The figure ``draw()`` writes to ``path`` (or None, when it has nothing to draw),
        drawn in this process on a miss: for figures drawn inside another writer's atomic
        step (:meth:`ccsim.Result.write`). ``name`` and ``arguments`` key it, as
        :func:`figure_key`."""
        key = self._key(name, arguments, path)
        if key is not None and self.cache is not None:
            data = self.cache.get(key)
            if data is not None:
                _write(path, data)
                return path
        written = draw()
        if written is not None:
            self._drawn(key, written)
        return written

    def pending(self, under: Path) -> bool:
        """Whether a figure below ``under`` is still being drawn."""
        return any(_below(p.path, under) and not p.future.done() for p in self._pending)

    def wait(self, under: Path) -> None:
        """Write every figure below ``under`` once drawn (in the order they were asked for), and
        store each in the cache; a figure that failed raises its error here."""
        mine = [p for p in self._pending if _below(p.path, under)]
        self._pending = [p for p in self._pending if not _below(p.path, under)]
        for p in mine:
            data = p.future.result()
            _write(p.path, data)
            self._drawn(p.key, p.path)

    def discard(self, under: Path) -> None:
        """Forget the figures below ``under`` (their folder is being thrown away)."""
        for p in self._pending:
            if _below(p.path, under):
                p.future.cancel()
        self._pending = [p for p in self._pending if not _below(p.path, under)]

    def close(self, *, cancel: bool = False) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=not cancel, cancel_futures=cancel)
            self._pool = None
        self._pending = []


def _below(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def current() -> Drawer | None:
    """The drawer of the :func:`drawing` block this call is in, if any."""
    drawer: Drawer | None = _drawing.current()
    return drawer


def drawing(drawer: Drawer) -> AbstractContextManager[Drawer]:
    """Within the block, figures marked with :func:`cached_figure` go through ``drawer``."""
    return _drawing.drawing(drawer)


F = TypeVar("F", bound=Callable[..., Path])


def cached_figure(draw: F) -> F:
    """Mark a function that draws one figure into its ``path`` argument and returns ``path``:
    inside :func:`drawing`, the figure is read from the cache or drawn by a worker."""
    signature = inspect.signature(draw)
    if "path" not in signature.parameters or any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                                                 for p in signature.parameters.values()):
        raise InternalError(f"{draw.__qualname__} must take the figure's file as its `path` argument, "
                        "and no *args or **kwargs")

    @functools.wraps(draw)
    def figure(*args: Any, **kwargs: Any) -> Path:
        drawer = current()
        if drawer is None:
            return draw(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return drawer.figure(figure, dict(bound.arguments), Path(bound.arguments["path"]))

    return figure  # type: ignore[return-value]
