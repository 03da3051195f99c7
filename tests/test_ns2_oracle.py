"""`ccsim reproduce --oracle ns2`: an experiment's checks with the runs that translate run by
ns-2.35 (python/ccsim/ns2; docs/validation.md, "ns-2.35 as a second oracle").

The ns-2.35 side's series are checked against its own counters (the rate series integrates to
the goodput of the window, per-flow drops sum to the links' drops), the pass against ccsim's
own column (left bit for bit as it was), and the report against what reproduce.json records.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import ccsim
import ccsim.ns2
from ccsim.cache import ResultCache
from ccsim.experiments import REGISTRY
from ccsim.experiments.base import NS2_AGENTS, TIMERS, with_timer
from ccsim.ns2.oracle import run_ns2
from ccsim.ns2.result import Ns2Missing, Ns2Result
from ccsim.ns2.translate import nbytes, translate
from ccsim.reproduce import reproduce

REQUIRE = bool(os.environ.get("CCSIM_REQUIRE_BROWSER"))
pytestmark = pytest.mark.skipif(shutil.which("ns") is None and not REQUIRE,
                                reason="ns-2.35 is not installed (make installs the Debian package ns2)")

DURATION, WARMUP = 20.0, 5.0
SPEC: dict[str, Any] = with_timer({
    "run": {"duration": f"{DURATION:g}s", "warmup": f"{WARMUP:g}s", "seed": 1},
    "links": [{"between": ["s", "r1"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"},
              {"between": ["r1", "r2"], "rate": "10Mbps", "delay": "20ms", "queue": "30p"},
              {"between": ["r2", "d"], "rate": "100Mbps", "delay": "1ms", "queue": "1000p"}],
    "flows": [{"name": "f1", "protocol": "reno", "from": "s", "to": "d", "start": "0s"},
              {"name": "f2", "protocol": "newreno", "from": "s", "to": "d", "start": "0.3s"}],
    "output": {"interval": "1s", "series": ["rate", "sent_rate", "queue", "cwnd"]},
}, TIMERS["ns-2.35"], NS2_AGENTS["ns-2.35"])


@pytest.fixture(scope="module")
def twin() -> tuple[Ns2Result, ccsim.Result]:
    full = ccsim.validate(SPEC)
    t = translate(full)
    measures, wall = run_ns2(t.tcl)
    return Ns2Result(full, "test", t, measures, wall), ccsim.run(SPEC, progress=False)


def test_ns2_rate_series_integrates_to_the_goodput_of_the_window(twin: tuple[Ns2Result, ccsim.Result]) -> None:
    ns2, _ = twin
    rate = ns2.wide("rate")
    assert list(rate.index[:2]) == [1.0, 2.0] and rate.index[-1] == DURATION  # ccsim's sampling grid
    window = rate[rate.index > WARMUP]
    wire = {f["name"]: nbytes(f["packet_size"]) for f in ns2.spec["flows"]}
    for flow in ("f1", "f2"):
        carried = float(window[flow].sum()) * 1.0  # 1 s samples
        assert carried == pytest.approx(ns2.summary["flows"][flow]["goodput_bps"] * (DURATION - WARMUP), rel=1e-9)
        sent = float(ns2.wide("sent_rate")[flow][lambda s: s.index > WARMUP].sum()) / 8
        assert sent == pytest.approx(ns2.summary["flows"][flow]["sent_packets"] * wire[flow], rel=1e-9)


def test_ns2_flow_drops_are_the_links_drops(twin: tuple[Ns2Result, ccsim.Result]) -> None:
    ns2, ours = twin
    lost = sum(ns2.summary["flows"][f]["lost_packets"] for f in ("f1", "f2"))
    drops = sum(link["drops"] for link in ns2.summary["links"].values())
    assert lost == drops > 0  # only data packets are dropped here (ACKs cross empty queues)
    assert sum(ours.summary["flows"][f]["lost_packets"] for f in ("f1", "f2")) == pytest.approx(lost, rel=0.25, abs=5)


def test_ns2_series_match_ccsim_in_aggregate(twin: tuple[Ns2Result, ccsim.Result]) -> None:
    ns2, ours = twin
    theirs, mine = (r.wide("rate")[lambda s: s.index > WARMUP].sum(axis=1).mean() for r in (ns2, ours))
    assert theirs == pytest.approx(mine, rel=0.03)  # issue 39's goodput target
    q_theirs, q_mine = (r.wide("queue")["r1->r2"][lambda s: s.index > WARMUP].mean() for r in (ns2, ours))
    assert 0 < q_theirs <= 31 and 0 < q_mine <= 30
    assert ns2.wide("cwnd")["f1"].max() == pytest.approx(ours.wide("cwnd")["f1"].max(), rel=0.5)  # bytes, as ccsim's


def test_what_ns2_does_not_measure_is_named_not_replaced(twin: tuple[Ns2Result, ccsim.Result]) -> None:
    ns2, _ = twin
    with pytest.raises(Ns2Missing, match="mean_delay_s"):
        ns2.summary["flows"]["f1"]["mean_delay_s"]
    with pytest.raises(Ns2Missing, match="'ca_state:change' series is not sampled"):
        ns2.series("ca_state:change")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> ResultCache:
    return ResultCache(tmp_path_factory.mktemp("cache"))


def _table(out: Path, name: str) -> list[dict[str, Any]]:
    return json.loads((out / name / "table.json").read_text())  # type: ignore[no-any-return]


def test_reproduce_gives_each_check_ns2_value_and_leaves_ccsims_as_it_was(tmp_path: Path,
                                                                           cache: ResultCache) -> None:
    exp = REGISTRY["primo-bw"]
    replicas = 1  # of its three (its starts are jittered, issue 41): ns-2.35 runs 12 a replica
    plain = reproduce([exp], tmp_path / "plain", quick=True, jobs=2, seeds=replicas, cache=cache, progress=False)
    both = reproduce([exp], tmp_path / "both", quick=True, jobs=2, seeds=replicas, cache=cache, progress=False,
                     oracle="ns2")
    assert both[0].verdict == plain[0].verdict
    before, after = _table(tmp_path / "plain", "primo-bw"), _table(tmp_path / "both", "primo-bw")
    assert [c["samples"] for c in before] == [c["samples"] for c in after]
    assert all("ns2" not in c for c in before) and all(c["ns2"]["verdict"] for c in after)
    # Primo's sweep is run per protocol: Reno, SACK, Vegas and TFRC translate; Primo does not.
    assert any(not c["ns2"]["same"] for c in after)
    record = json.loads((tmp_path / "both" / "primo-bw" / "reproduce.json").read_text())["oracle"]
    assert (record["status"], record["translated"], record["runs"]) == ("ran", 12 * replicas, 18 * replicas)
    assert record["refused"] == {"flows[].protocol: 'primo' is not translated to ns-2.35": 6 * replicas}
    scripts = sorted((tmp_path / "both" / "primo-bw" / "oracle-ns2" / "scripts").iterdir())
    assert [p.name for p in scripts] == [f"run-{k:03d}.tcl" for k in range(1, 12 * replicas + 1)]
    assert all("Agent/TCP" in p.read_text() or "Agent/TFRC" in p.read_text() for p in scripts)
    assert "oracle-ns2" not in json.dumps(json.loads((tmp_path / "both" / "primo-bw" / "reproduce.json")
                                                     .read_text())["figures"])
    html = (tmp_path / "both" / "index.html").read_text()
    assert "<th>with ns-2.35's runs</th>" in html and f"ns-2.35 ran {12 * replicas} of the {18 * replicas} runs" in html
    assert "| ns-2.35 | ns-2.35 verdict |" in (tmp_path / "both" / "primo-bw" / "table.md").read_text()


def test_without_ns2_the_report_says_so_and_runs(tmp_path: Path, cache: ResultCache,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ccsim.ns2, "available", lambda: False)
    out = reproduce([REGISTRY["primo-bw"]], tmp_path, quick=True, jobs=2, seeds=1, cache=cache, progress=False,
                    oracle="ns2")
    assert out[0].oracle is not None and out[0].oracle["status"] == "not installed"
    assert all("ns2" not in c for c in _table(tmp_path, "primo-bw"))
    assert "ns-2.35 is not installed here" in (tmp_path / "index.html").read_text()
    assert "ns-2.35: not installed" in out[0].line(tmp_path)
