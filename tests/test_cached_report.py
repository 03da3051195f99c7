"""A cached rerun of ``ccsim reproduce`` assembles its folder and report from stored pieces and
writes what the first run wrote (python/ccsim/figcache.py; docs/experiments.md, The result cache).

- A figure read from the figure cache is byte for byte the figure drawn in this process without
  any cache, and the one a worker process draws.
- Other data drawn is another key (a redraw); a corrupt entry is removed, drawn again and
  replaced; a folder that is not ccsim's is refused.
- ``Result.wide`` is the table ``pivot_table`` gives, on edge cases and on real runs.
- Two real quick experiments reproduced three ways (a first run into an empty cache; every
  figure drawn in this process without the figure cache, as before figures were cached; a
  second run with everything in the cache) write the same files, byte for byte, except the fields that are wall
  times or run metadata: in ``reproduce.json`` ``wall_seconds``, ``started_utc``,
  ``cache_hits`` and ``cache``; in an experiment's ``reproduce.json`` ``wall_seconds`` and
  ``cache_hits``; and the index.html those fields are rendered into, which is compared after
  setting them equal and rendering it again from the folder.
"""

from __future__ import annotations

import pickle

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ccsim import figcache
from ccsim.cache import ResultCache
from ccsim.errors import SpecError
from ccsim.experiments import REGISTRY
from ccsim.experiments.figures import cached_figure, pyplot, save
from ccsim.report import write_report
from ccsim.reproduce import reproduce
from ccsim.results import wide_table
from ccsim.sweep import run_many

SPEC = {"run": {"duration": "3s", "seed": 1},
        "links": [{"between": ["s", "d"], "rate": "10Mbps", "delay": "10ms"}],
        "flows": [{"name": "f", "protocol": "newreno", "from": "s", "to": "d"}],
        "output": {"interval": "0.5s", "series": ["rate", "cwnd"]}}


@cached_figure
def line_figure(values: list[float], label: str, path: Path) -> Path:
    """A small figure of a list of numbers (module level: a worker process imports it)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(3, 2), constrained_layout=True)
    ax.plot(values, label=label)
    ax.legend()
    return save(fig, path, dpi=60)


@cached_figure
def rate_of(result: Any, path: Path) -> Path:
    """A figure drawn from a run (a Result travels to the worker packed)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(3, 2), constrained_layout=True)
    w = result.wide("rate")
    ax.plot(w.index, w["f"])
    return save(fig, path, dpi=60)


def drawn_plainly(tmp: Path, name: str, *args: Any) -> bytes:
    """The figure drawn in this process with no cache at all (no drawer)."""
    fn = {"line": line_figure, "rate": rate_of}[name]
    path = tmp / "plain" / f"{name}.png"
    assert figcache.current() is None
    fn(*args, path)
    return path.read_bytes()


def through(drawer: figcache.Drawer, folder: Path, fn: Any, *args: Any) -> bytes:
    with figcache.drawing(drawer):
        path = fn(*args, folder / "fig.png")
    drawer.wait(folder)
    return Path(path).read_bytes()


@pytest.fixture
def drawer(tmp_path: Path) -> figcache.Drawer:
    d = figcache.Drawer(figcache.FigureCache(ResultCache(tmp_path / "cache")), workers=2)
    yield d
    d.close()


def test_a_cached_figure_is_the_figure_drawn_here_and_in_a_worker(tmp_path: Path, drawer: figcache.Drawer) -> None:
    (result,) = run_many([SPEC])
    for name, fn, args in (("line", line_figure, ([1.0, 3.0, 2.0], "three")), ("rate", rate_of, (result,))):
        plain = drawn_plainly(tmp_path, name, *args)
        worker = through(drawer, tmp_path / f"a-{name}", fn, *args)  # a miss: drawn by a worker process
        cached = through(drawer, tmp_path / f"b-{name}", fn, *args)  # a hit: copied
        assert plain == worker == cached
        assert plain.startswith(b"\x89PNG")
    assert (drawer.stats.drawn, drawer.stats.hits, drawer.stats.uncached) == (2, 2, 0)


class _Unpicklable(list):  # type: ignore[type-arg]
    def __reduce__(self) -> Any:
        raise pickle.PicklingError("stays in this process")


def test_what_cannot_go_to_a_worker_is_drawn_here_once(tmp_path: Path, drawer: figcache.Drawer) -> None:
    """An argument that cannot be pickled (an ns-2.35 run read as a Result was one) is drawn by
    the drawing function in this process, the same figure as without a drawer."""
    values = _Unpicklable([1.0, 3.0, 2.0])
    here = through(drawer, tmp_path / "a", line_figure, values, "three")
    assert here == drawn_plainly(tmp_path, "line", [1.0, 3.0, 2.0], "three")
    assert drawer.stats.drawn == 1


def test_other_data_is_another_figure(tmp_path: Path, drawer: figcache.Drawer) -> None:
    first = through(drawer, tmp_path / "a", line_figure, [1.0, 3.0, 2.0], "three")
    changed = through(drawer, tmp_path / "b", line_figure, [1.0, 3.0, 2.5], "three")
    relabelled = through(drawer, tmp_path / "c", line_figure, [1.0, 3.0, 2.0], "four")
    assert drawer.stats.drawn == 3 and drawer.stats.hits == 0
    assert len({first, changed, relabelled}) == 3
    assert changed == drawn_plainly(tmp_path, "line", [1.0, 3.0, 2.5], "three")


def test_a_corrupt_entry_is_drawn_again_and_replaced(tmp_path: Path, drawer: figcache.Drawer) -> None:
    good = through(drawer, tmp_path / "a", line_figure, [1.0, 2.0], "two")
    (entry,) = (tmp_path / "cache" / "figures").rglob("*.ccfig")
    stored = entry.read_bytes()
    entry.write_bytes(stored[:-20])  # truncated
    again = through(drawer, tmp_path / "b", line_figure, [1.0, 2.0], "two")
    assert again == good
    assert drawer.stats.corrupt == [entry.stem] and drawer.stats.drawn == 2
    assert entry.read_bytes() == stored  # replaced by a good entry
    header, _, payload = stored.partition(b"\n")
    assert header == b"ccsim-figure 1 " + hashlib.sha256(payload).hexdigest().encode() and payload == good


def test_a_folder_that_is_not_ccsims_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    drawer = figcache.Drawer(figcache.FigureCache(ResultCache(folder)), workers=1)
    with pytest.raises(SpecError, match="not a ccsim cache"), figcache.drawing(drawer):
        line_figure([1.0], "one", tmp_path / "out" / "fig.png")
    drawer.close()
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_an_argument_of_an_unknown_type_is_drawn_without_the_cache(tmp_path: Path, drawer: figcache.Drawer) -> None:
    class Opaque:
        pass

    with pytest.raises(figcache.Unhashable):
        figcache.figure_key("x", {"o": Opaque()}, tmp_path / "f.png")
    # A set's order does not change its key; a float's last bit does.
    keys = {figcache.figure_key("x", {"s": s}, tmp_path / "f.png") for s in ({"a", "b"}, {"b", "a"})}
    assert len(keys) == 1
    assert figcache.figure_key("x", {"v": 0.1}, tmp_path / "f.png") != \
        figcache.figure_key("x", {"v": np.nextafter(0.1, 1.0).item()}, tmp_path / "f.png")


def _series(seed: int, n: int, entities: list[str], nan: float, all_nan: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    times = np.sort(rng.integers(0, max(1, n // 3), n)) / 10  # several records at one instant
    codes = rng.integers(0, len(entities), n)
    values = rng.random(n)
    values[rng.random(n) < nan] = np.nan
    if all_nan:
        values[codes == 0] = np.nan
    entity = pd.Categorical.from_codes(codes, categories=entities).remove_unused_categories()
    return pd.DataFrame({"time": times, "entity": entity, "variable": "rate", "value": values})


@pytest.mark.parametrize("seed,n,entities,nan,all_nan", [
    (1, 60, ["a", "b", "c"], 0.0, False), (2, 300, ["x", "a", "b"], 0.3, False), (3, 300, ["x", "a"], 0.3, True),
    (4, 5, ["a"], 0.0, False), (5, 40, ["b", "a"], 1.0, False)])
def test_wide_is_pivot_table(seed: int, n: int, entities: list[str], nan: float, all_nan: bool) -> None:
    s = _series(seed, n, entities, nan, all_nan)
    expected = s.pivot_table(index="time", columns="entity", values="value", observed=True, aggfunc="last",
                             dropna=False)
    pd.testing.assert_frame_equal(wide_table(s), expected, check_exact=True)


def test_wide_of_a_run_is_pivot_table_and_a_copy() -> None:
    (result,) = run_many([SPEC])
    for variable in ("rate", "cwnd"):
        expected = result.series(variable).pivot_table(index="time", columns="entity", values="value",
                                                       observed=True, aggfunc="last", dropna=False)
        pd.testing.assert_frame_equal(result.wide(variable), expected, check_exact=True)
    changed = result.wide("rate")
    changed["f"] = -1.0
    assert (result.wide("rate")["f"] >= 0).all()


# The fields that are wall times or say how the run went rather than what it found.
RUN_FIELDS = {"wall_seconds": 1.0, "started_utc": "2000-01-01T00:00:00Z", "cache_hits": 0, "cache": "given"}
EXPERIMENT_FIELDS = {"wall_seconds": 1.0, "cache_hits": 0}
NAMES = ["dumbbell-newreno", "xcp-rtt-fairness"]


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _normalised(out: Path) -> dict[str, bytes]:
    """The folder's files with the wall-time and run-metadata fields set to one value, and its
    report rendered again from them."""
    for path in [out / "reproduce.json", *out.glob("*/reproduce.json")]:
        data = json.loads(path.read_text())
        data.update(RUN_FIELDS if path.parent == out else EXPERIMENT_FIELDS)
        path.write_text(json.dumps(data, indent=2) + "\n")
    write_report(out)
    return _files(out)


def test_a_cached_rerun_writes_what_the_first_run_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exps = [REGISTRY[n] for n in NAMES]
    cache = tmp_path / "cache"
    reproduce(exps, tmp_path / "first", quick=True, jobs=2, cache=ResultCache(cache), progress=False)
    with monkeypatch.context() as m:
        # As before figures were cached: every figure drawn here, in order, with no figure cache
        # (the runs are read from the result cache, so that their wall times are the same).
        m.setattr(figcache, "drawing", lambda drawer: contextlib.nullcontext(drawer))
        reproduce(exps, tmp_path / "plain", quick=True, jobs=2, cache=ResultCache(cache), progress=False)
    second = ResultCache(cache)
    reproduce(exps, tmp_path / "second", quick=True, jobs=2, cache=second, progress=False)
    assert second.stats.misses == 0
    figures = [f for n in NAMES for f in json.loads((tmp_path / "second" / n / "reproduce.json").read_text())["figures"]]
    assert len(figures) >= 4 and len(list((cache / "figures").rglob("*.ccfig"))) >= len(figures)
    plain, first, again = (_normalised(tmp_path / d) for d in ("plain", "first", "second"))
    assert sorted(plain) == sorted(first) == sorted(again)
    for name in plain:
        assert plain[name] == first[name] == again[name], name
    # The fields left out above are the only differences.
    hits = json.loads((tmp_path / "second" / NAMES[0] / "reproduce.json").read_text())
    assert hits["runs"] > 0


def test_a_cached_rerun_reads_every_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exps = [REGISTRY["xcp-rtt-fairness"]]
    cache = tmp_path / "cache"
    reproduce(exps, tmp_path / "first", quick=True, cache=ResultCache(cache), progress=False)
    drawn: list[str] = []
    original = figcache.Drawer._drawn

    def count(self: figcache.Drawer, key: str | None, path: Path) -> None:
        drawn.append(path.name)
        original(self, key, path)

    monkeypatch.setattr(figcache.Drawer, "_drawn", count)
    reproduce(exps, tmp_path / "second", quick=True, cache=ResultCache(cache), progress=False)
    assert drawn == []
    assert (tmp_path / "second" / "xcp-rtt-fairness" / "xcp_rtt_fairness.png").read_bytes() == \
        (tmp_path / "first" / "xcp-rtt-fairness" / "xcp_rtt_fairness.png").read_bytes()


def test_the_key_does_not_depend_on_whether_pyplot_was_imported(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("from pathlib import Path; from ccsim import figcache; {pre}"
            "print(figcache.figure_key('x', {{'v': [1.0]}}, Path('f.png')))")
    keys = {subprocess.run([sys.executable, "-c", code.format(pre=pre)], capture_output=True, text=True,
                           check=True).stdout
            for pre in ("", "import matplotlib.pyplot as plt; plt.subplots(); ")}
    assert len(keys) == 1
