"""The result cache: a run's results kept under the key of what determines them, so that
running the same spec again with the same ccsim reads them instead of simulating.

The key is the SHA-256 of the build's fingerprint (ccsim's version, its build profile and the
SHA-256 of the native library) and of the canonical spec (defaults filled in, seed included):
two runs with one key give bit-identical results (ccsim is deterministic), so a hit is the run.

CHOICE: the whole native library is the build's part of the key. Any change to the Rust code
re-runs every spec; a change to an experiment's Python code re-runs only the specs it changes.
CHOICE: a spec that runs a user's Python algorithm or queue (``"module:Class"``) keys a digest
of each such module's code as the process resolved it (its functions' bytecode, its classes,
its constants: ``ccsim.algorithms.source_digest``), so a changed class re-runs; the modules it
imports are not hashed. A spec naming a registered algorithm (a name without ``:``) is not
cached: nothing in the spec says which code it ran.

An entry is one file, ``v1/<first two hex digits>/<key>.ccres``: a header line with the format
and the SHA-256 of the payload, then the payload (:func:`ccsim.stored.pack`). An entry is written
to a temporary file and renamed into place, so a reader never sees half an entry; an entry
whose checksum or format does not match (a truncated or corrupt file) is removed and run again,
never trusted.

What an experiment derives from a run (a percentile of a series, the numbers of a table row)
is kept too, as JSON, under ``derived/v1/``: the key is the run's key, the derivation's name
and the SHA-256 of the ccsim package's Python sources (:func:`ccsim.figcache.code_identity`),
so a change to the code that derives re-derives. :func:`ccsim.derived.derived` reads or
computes it.
CHOICE: JSON, not pickle: an entry is data, and a cache folder shared between users never
runs code.

The folder holds a ``CACHEDIR.TAG`` (https://bford.info/cachedir/), which backup tools skip,
worded as ccsim words it; a folder that holds files but not ccsim's tag (another tool's cache
has a tag of its own) is refused (ccsim never writes into, nor deletes from,
a folder it did not make).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import _ccsim
from .algorithms import source_digest, user_code_names
from .errors import SpecError
from .results import Result
from .stored import FORMAT, pack, packable, unpack

_TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"
_TAG = f"{_TAG_SIGNATURE}\n# This folder is ccsim's result cache (docs/experiments.md, The result cache).\n"
_MAGIC = b"ccsim-cache 1 "


def default_cache_dir() -> Path:
    """``$CCSIM_CACHE_DIR``, else ``$XDG_CACHE_HOME/ccsim``, else ``~/.cache/ccsim``."""
    if os.environ.get("CCSIM_CACHE_DIR"):
        return Path(os.environ["CCSIM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ccsim"


@functools.cache
def build_fingerprint() -> str:
    """ccsim's version, build profile and the first 16 hex digits of its native library's SHA-256."""
    digest = hashlib.sha256(Path(_ccsim.__file__).read_bytes()).hexdigest()[:16]
    return f"{_ccsim.__version__}+{_ccsim.build_profile}+{digest}"


def user_code_identity(spec: dict[str, Any]) -> str | None:
    """The digests of the code of the user's classes a spec runs (``""`` for a spec without
    any); ``None`` when it names code the spec does not identify (a registered name)."""
    names = user_code_names(spec)
    if not names:
        return ""
    digests = []
    for name in sorted(names):
        digest = source_digest(name)
        if digest is None:
            return None
        digests.append(f"{name}={digest}")
    return "\n" + "\n".join(digests)


def canonical_text(spec: dict[str, Any]) -> str:
    """A validated spec as one text: keys sorted, no spaces."""
    return json.dumps(spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def cache_key(spec: dict[str, Any]) -> str:
    """The cache key of the validated ``spec`` with this build (and its user code's source)."""
    code = user_code_identity(spec) or ""
    return hashlib.sha256(f"{build_fingerprint()}\n{canonical_text(spec)}{code}".encode()).hexdigest()


def cacheable(spec: dict[str, Any]) -> bool:
    """A spec that writes pcap captures is not cached: its captures are files of their own;
    nor is one that names a registered algorithm, whose code the spec does not identify."""
    return not spec.get("output", {}).get("pcap") and user_code_identity(spec) is not None


@dataclass
class CacheStats:
    """What a cache did: hits, misses (runs), entries stored and corrupt entries dropped."""

    hits: int = 0
    misses: int = 0
    stored: int = 0
    corrupt: list[str] = field(default_factory=list)


def entry_payload(data: bytes, magic: bytes) -> bytes | None:
    """The payload of a cache entry's bytes: a header line of ``magic`` and the payload's
    SHA-256, then the payload; None when the header or the checksum does not match."""
    header, newline, payload = data.partition(b"\n")
    if newline and header == magic + hashlib.sha256(payload).hexdigest().encode():
        return payload
    return None


def write_entry(path: Path, magic: bytes, payload: bytes) -> None:
    """Write a cache entry to ``path`` through a temporary file renamed into place, so that a
    reader never sees half an entry; the temporary file is removed on any failure, and an
    ``OSError`` is raised for the caller to report."""
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem[:8]}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(magic + hashlib.sha256(payload).hexdigest().encode() + b"\n")
            f.write(payload)
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


class ResultCache:
    """A cache folder (made, with its tag, on first use)."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        if folder is not None and os.fspath(folder) == "":
            raise SpecError("the cache folder is empty; name a folder", "cache")
        self.folder = Path(folder) if folder is not None else default_cache_dir()
        self._lock = threading.Lock()
        self._warned = False
        self.stats = CacheStats()
        self._ready = False

    def prepare(self) -> None:
        """Make the folder and its tag if needed; a SpecError if it cannot be this cache's."""
        if self._ready:
            return
        tag = self.folder / "CACHEDIR.TAG"
        if self.folder.exists():
            if not self.folder.is_dir():
                raise SpecError(f"{self.folder} exists and is not a folder", "cache")
            try:
                ours = tag.read_text(encoding="utf-8", errors="replace") == _TAG  # ccsim's own tag, not any tool's
            except OSError:
                ours = False
            if not ours and any(self.folder.iterdir()):
                raise SpecError(f"{self.folder} holds files and is not a ccsim cache (no CACHEDIR.TAG); "
                                "choose another cache folder", "cache")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not tag.exists():
                tag.write_text(_TAG, encoding="utf-8")
        except OSError as e:
            raise SpecError(f"cannot use the cache folder {self.folder}: {e.strerror or e}", "cache") from None
        self._ready = True

    def path(self, key: str) -> Path:
        return self.folder / "v1" / key[:2] / f"{key}.ccres"

    def get(self, key: str) -> Result | None:
        """The result stored under ``key``, or None (a miss, or an entry that fails its check,
        which is then removed)."""
        self.prepare()
        path = self.path(key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError:
            return None
        payload = entry_payload(data, _MAGIC)
        ok = payload is not None
        if payload is not None:
            try:
                result = unpack(payload)
            except Exception:  # noqa: BLE001 - a payload that passed its checksum but does not read
                ok = False
        with self._lock:
            if not ok:
                self.stats.corrupt.append(key)
                path.unlink(missing_ok=True)
                return None
            self.stats.hits += 1
        return result

    def put(self, key: str, result: Result) -> None:
        """Store ``result`` under ``key`` (nothing for a run with pcap captures)."""
        if not packable(result):
            return
        self.prepare()
        try:
            write_entry(self.path(key), _MAGIC, pack(result))
        except OSError as e:
            # The cache only saves time: a run whose entry cannot be written is still a result.
            with self._lock:
                if not self._warned:
                    self._warned = True
                    print(f"ccsim: warning: cannot store results in the cache {self.folder}: {e.strerror or e}; "
                          "going on without storing", file=sys.stderr)
            return
        with self._lock:
            self.stats.stored += 1


__all__ = ["FORMAT", "ResultCache", "build_fingerprint", "cache_key", "cacheable", "default_cache_dir",
           "user_code_identity"]
