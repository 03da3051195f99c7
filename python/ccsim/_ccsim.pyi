"""Private native module of ccsim. Use the public API in :mod:`ccsim` instead."""

from typing import Any, Callable

__all__ = ["__version__", "_selftest_panic", "bench_names", "bench_spec", "build_profile", "load_toml", "run", "schema", "validate"]

__version__: str
build_profile: str

def run(
    spec_json: str,
    progress: Callable[[float, float, int], object] | None = None,
    chunk_events: int = 262144,
) -> dict[str, Any]: ...
def validate(spec_json: str) -> str: ...
def load_toml(text: str) -> str: ...
def schema() -> str: ...
def bench_names() -> list[str]: ...
def bench_spec(name: str) -> str: ...
def _selftest_panic() -> None:
    """Panic inside the guarded region (for the test suite); raises ccsim.InternalError."""
