"""What an experiment derives from a run, kept in the result cache beside the run (the
cache's ``derived/v1/``; docs/experiments.md, The result cache): see :func:`derived`."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from .cache import cache_key, cacheable, entry_payload, write_entry
from .errors import SpecError
from .figcache import code_identity
from .results import Result

_DERIVED_MAGIC = b"ccsim-derived 1 "


def derived(result: Result, name: str, compute: Any) -> Any:
    """``compute()``, a JSON value derived from ``result`` (numbers, NaN and infinities
    included), read from the cache of the sweep in progress (``ccsim reproduce``'s, or a
    :func:`ccsim.sweep.sweep_options` block's) when it was derived before by the same code, and
    stored there otherwise; without a cache it is just ``compute()``. ``name`` names the
    derivation and what it depends on besides the run ("l4s.measure warmup=10")."""
    from .sweep import _options

    cache = _options.get().cache
    spec = result.spec
    if cache is None or not cacheable(spec):
        return compute()
    key = hashlib.sha256("\n".join((cache_key(spec), name, _code_identity(code_identity))).encode()).hexdigest()
    path = cache.folder / "derived" / "v1" / key[:2] / f"{key}.json"
    try:
        payload = entry_payload(path.read_bytes(), _DERIVED_MAGIC)
    except OSError:
        payload = None
    if payload is not None:
        try:
            return json.loads(payload)
        except ValueError:
            pass
    value = compute()
    try:
        cache.prepare()
        write_entry(path, _DERIVED_MAGIC, json.dumps(value).encode())
    except (OSError, SpecError):
        pass  # the cache only saves time
    return value


@functools.lru_cache(maxsize=1)
def _code_identity(identity: Any) -> str:
    """The package's code identity, computed once per process (it reads every source)."""
    return str(identity())


__all__ = ["derived"]
