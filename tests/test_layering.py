"""The crate layering of docs/architecture.md, checked: dependencies point downward only, the
protocols see nothing but ccsim-core (sans-IO), and only the binding crate links pyo3."""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT

if sys.version_info < (3, 11):
    pytest.skip("tomllib needs Python 3.11", allow_module_level=True)
import tomllib

ALLOWED = {
    "ccsim-core": set(),
    "ccsim-engine": {"ccsim-core"},
    "ccsim-protocols": {"ccsim-core"},
    "ccsim-scenario": {"ccsim-core", "ccsim-engine", "ccsim-protocols"},
    "ccsim-py": {"ccsim-scenario"},
}


def deps(crate: str) -> set[str]:
    manifest = tomllib.loads((ROOT / "crates" / crate / "Cargo.toml").read_text())
    return set(manifest.get("dependencies", {}))


@pytest.mark.parametrize("crate", sorted(ALLOWED))
def test_crate_depends_only_on_lower_layers(crate: str) -> None:
    internal = {d for d in deps(crate) if d.startswith("ccsim-")}
    assert internal <= ALLOWED[crate], f"{crate} depends on {internal - ALLOWED[crate]}"


def test_only_the_binding_crate_links_pyo3() -> None:
    for crate in ALLOWED:
        if crate != "ccsim-py":
            assert "pyo3" not in deps(crate), crate


@pytest.mark.parametrize("crate", ["ccsim-core", "ccsim-engine", "ccsim-protocols"])
def test_simulation_crates_use_no_wall_clock_or_hash_maps(crate: str) -> None:
    """Determinism by construction: no wall clock, no hash-order iteration, no global RNG."""
    for path in (ROOT / "crates" / crate / "src").rglob("*.rs"):
        text = path.read_text()
        for banned in ("std::time", "Instant::now", "HashMap", "HashSet", "thread_rng"):
            assert banned not in text, f"{path.relative_to(ROOT)} uses {banned}"
