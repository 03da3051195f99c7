"""The result cache and the packed form of a run (python/ccsim/cache.py, stored.py).

A packed run is checked against the run itself: every table, series and summary equal, and the
files written from it byte for byte those the native writer writes (series.csv included, which
the stored form words itself). The cache is checked for hits, keys, corrupt entries and
folders that are not its own.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest

import ccsim
import ccsim.cache as cache_mod
import ccsim.sweep as sweep_mod
from ccsim.cache import ResultCache, cache_key
from ccsim.stored import pack, rust_debug_f64, unpack

from conftest import EXAMPLES, small_spec


def _example(name: str) -> dict[str, Any]:
    return ccsim.load(EXAMPLES / name)


def _written(result: ccsim.Result, folder: Path, csv: bool) -> dict[str, bytes]:
    folder.mkdir()
    names = result._data.write(str(folder), csv)
    return {n: (folder / n).read_bytes() for n in names}


@pytest.mark.parametrize("example", ["dumbbell.toml", "ticp.toml", "traffic-mix.toml"])
def test_a_packed_run_reads_back_as_the_run(example: str, tmp_path: Path) -> None:
    run = ccsim.run(_example(example), progress=False)
    stored = unpack(pack(run))
    assert stored.spec_hash == run.spec_hash and stored.seed == run.seed
    assert stored.summary == run.summary and stored.spec == run.spec
    assert stored.flows().equals(run.flows()) and stored.links().equals(run.links())
    assert stored.table.equals(run.table)
    assert stored.ticp_reports().equals(run.ticp_reports())
    # The native writer is the reference: the stored run writes the same bytes, series.csv too.
    assert _written(stored, tmp_path / "stored", csv=True) == _written(run, tmp_path / "native", csv=True)


@pytest.mark.parametrize(("value", "text"), [
    (1.0, "1.0"), (0.1, "0.1"), (-2.5, "-2.5"), (0.0, "0.0"), (-0.0, "-0.0"), (1e-4, "0.0001"),
    (1e-5, "1e-5"), (1.5e-7, "1.5e-7"), (1e15, "1000000000000000.0"), (1e16, "1e16"),
    (1.2345678901234568e17, "1.2345678901234568e17"), (math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "NaN"),
])
def test_floats_are_worded_as_rust_debug_words_them(value: float, text: str) -> None:
    # Rust's `{:?}` for f64: shortest round-trip digits, exponent form below 1e-4 and from 1e16.
    assert rust_debug_f64(value) == text


def _specs(n: int) -> list[dict[str, Any]]:
    base = small_spec()
    return [dict(copy.deepcopy(base), run={**base["run"], "seed": s}) for s in range(1, n + 1)]


def test_a_second_sweep_reads_every_run_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    specs = _specs(3)
    store = ResultCache(tmp_path / "cache")
    first = ccsim.run_many(specs, cache=store, jobs=2)
    assert (store.stats.misses, store.stats.stored, store.stats.hits) == (3, 3, 0)

    def no_run(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("a cached spec was run")

    monkeypatch.setattr(sweep_mod, "run", no_run)
    again = ResultCache(tmp_path / "cache")
    second = ccsim.run_many(specs, cache=again, jobs=2)
    assert again.stats.hits == 3
    assert [r.summary for r in second] == [r.summary for r in first]
    assert [r.seed for r in second] == [1, 2, 3]
    assert (tmp_path / "cache" / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")


def test_the_key_is_the_canonical_spec_and_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = (ccsim.validate(s) for s in _specs(2))
    assert cache_key(a) == cache_key(ccsim.validate(copy.deepcopy(a)))
    assert cache_key(a) != cache_key(b)  # the seed is part of the spec
    before = cache_key(a)
    monkeypatch.setattr(cache_mod, "build_fingerprint", lambda: "0.0.0+release+another-build")
    assert cache_key(a) != before


@pytest.mark.parametrize("damage", ["truncate", "flip", "header"])
def test_a_damaged_entry_is_run_again_never_trusted(damage: str, tmp_path: Path) -> None:
    specs = _specs(1)
    store = ResultCache(tmp_path)
    (fresh,) = ccsim.run_many(specs, cache=store)
    entry = store.path(cache_key(ccsim.validate(specs[0])))
    data = bytearray(entry.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[-100] ^= 0x01
    else:
        data[:5] = b"xxxxx"
    entry.write_bytes(bytes(data))
    again = ResultCache(tmp_path)
    (rerun,) = ccsim.run_many(specs, cache=again)
    assert again.stats.corrupt and again.stats.hits == 0 and again.stats.stored == 1
    assert rerun.flows().equals(fresh.flows())
    assert ResultCache(tmp_path).get(cache_key(ccsim.validate(specs[0]))) is not None  # stored anew


def test_a_folder_that_is_not_a_cache_is_refused_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "thesis.tex").write_text("mine")
    with pytest.raises(ccsim.SpecError, match="not a ccsim cache") as e:
        ccsim.run_many(_specs(1), cache=tmp_path)
    assert e.value.path == "cache"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis.tex"]


def test_a_run_with_captures_is_not_cached(tmp_path: Path) -> None:
    spec = _specs(1)[0]
    spec["output"] = {"pcap": ["r->d"]}
    store = ResultCache(tmp_path / "cache")
    ccsim.run_many([spec], cache=store)
    assert store.stats.stored == 0 and not list((tmp_path / "cache").rglob("*.ccres"))


def test_an_interrupted_sweep_keeps_what_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_run = sweep_mod.run
    calls = []

    def interrupted_third(spec: Any, **kw: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_run(spec, **kw)

    monkeypatch.setattr(sweep_mod, "run", interrupted_third)
    store = ResultCache(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        ccsim.run_many(_specs(4), cache=store, jobs=1)
    assert store.stats.stored == 2
    monkeypatch.setattr(sweep_mod, "run", real_run)
    again = ResultCache(tmp_path)
    ccsim.run_many(_specs(4), cache=again, jobs=1)
    assert (again.stats.hits, again.stats.stored) == (2, 2)


def test_replicas_change_every_seed_but_the_first_keeps_them() -> None:
    assert sweep_mod.replica_seed(7) == 7
    with sweep_mod.sweep_options(replica=2):
        two = sweep_mod.replica_seed(7)
        assert two == sweep_mod.replica_seed(7) and two != 7 and 0 <= two < 2**63
        (res,) = ccsim.run_many(_specs(1))  # its spec's seed is 1
        assert res.seed == sweep_mod.replica_seed(1) != 1
    with sweep_mod.sweep_options(replica=3):
        assert sweep_mod.replica_seed(7) not in (7, two)
