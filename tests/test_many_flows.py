"""Runs with many flows: the CLI lists flows in natural order and names the starved ones; the
rate figure turns into the total and the spread over the flows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ccsim
from ccsim.cli import flow_lines, natural_key
from ccsim.plots import flow_bands
from conftest import cli


def cbr_spec(rates: dict[str, str]) -> dict[str, Any]:
    return {"run": {"duration": "4s", "seed": 1},
            "links": [{"between": ["s", "d"], "rate": "100Mbps", "delay": "5ms"}],
            "flows": [{"name": n, "protocol": "cbr", "from": "s", "to": "d", "rate": r} for n, r in rates.items()],
            "output": {"interval": "0.5s", "series": ["rate"]}}


def test_natural_order_puts_tcp2_before_tcp10() -> None:
    names = ["tcp10", "tcp2", "tcp1", "b", "a10b", "a9b"]
    assert sorted(names, key=natural_key) == ["a9b", "a10b", "b", "tcp1", "tcp2", "tcp10"]


def test_the_cli_lists_flows_in_natural_order_and_names_the_starved_one(tmp_path: Path) -> None:
    # 14 bulk TCP flows over one 50 ms path; c7's receiver window of one segment holds it to
    # one segment per 100 ms round trip (77 kbit/s), far under a tenth of an equal share.
    spec = cbr_spec({})
    spec["links"][0]["delay"] = "50ms"
    spec["flows"] = [{"name": f"c{i}", "protocol": "newreno", "from": "s", "to": "d",
                      **({"max_window": 1} if i == 7 else {})} for i in range(1, 15)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(spec))
    proc = cli("run", str(path), "-o", str(tmp_path / "out"), "--no-plots")
    assert proc.returncode == 0, proc.stderr
    listed = [m.group(1) for m in re.finditer(r"^  (\S+) +goodput ", proc.stdout, re.MULTILINE)]
    assert listed == [f"c{i}" for i in range(1, 15)]
    starved = [line for line in proc.stdout.splitlines() if "starved" in line]
    assert len(starved) == 1 and starved[0].rstrip().endswith(": c7")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["aggregate"]["starved_flows"] == 1
    assert summary["aggregate"]["lowest_flow"] == "c7"


def test_a_source_that_wants_little_is_not_starved(tmp_path: Path) -> None:
    # c7 sends 8 kbit/s and gets all of it: a CBR source is never starved, however small.
    rates = {f"c{i}": ("8kbps" if i == 7 else "1Mbps") for i in range(1, 15)}
    path = tmp_path / "many.json"
    path.write_text(json.dumps(cbr_spec(rates)))
    proc = cli("run", str(path), "-o", str(tmp_path / "out"), "--no-plots")
    assert proc.returncode == 0, proc.stderr
    assert "starved" not in proc.stdout
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["aggregate"]["starved_flows"] == 0
    assert summary["aggregate"]["lowest_flow"] == "c7"


def test_no_starved_line_when_shares_are_equal() -> None:
    assert not [line for line in flow_lines(["a", "b"], [1e6, 1e6], [0, 0]) if "starved" in line]


def test_only_greedy_flows_can_be_starved() -> None:
    lines = flow_lines(["bulk", "cbr", "slow"], [10e6, 1e3, 1e3], [0, 0, 0], [True, False, True])
    assert [line for line in lines if "starved" in line][0].rstrip().endswith(": slow")


def test_long_flow_lists_are_cut_with_a_count() -> None:
    names = [f"f{i}" for i in range(30, 0, -1)]
    lines = flow_lines(names, [1e6] * 30, [0] * 30)
    assert lines[0].split()[0] == "f1" and lines[19].split()[0] == "f20"
    assert "10 more flows" in lines[20]


def test_flow_bands_are_the_percentiles_over_the_flows() -> None:
    rng = np.random.default_rng(1)
    wide = pd.DataFrame(rng.random((5, 20)), columns=[f"f{i}" for i in range(20)], index=np.arange(5.0))
    bands = flow_bands(wide, list(wide.columns))
    assert np.allclose(bands["p10"], np.percentile(wide.to_numpy(), 10, axis=1))
    assert np.allclose(bands["median"], np.median(wide.to_numpy(), axis=1))
    assert np.allclose(bands["sum"], wide.to_numpy().sum(axis=1))


@pytest.mark.parametrize("flows", [13, 100])
def test_rate_figure_of_many_flows_is_drawn(tmp_path: Path, flows: int) -> None:
    res = ccsim.run(cbr_spec({f"c{i}": f"{100 + i}kbps" for i in range(flows)}), progress=False)
    out = res.write(tmp_path / "out")
    assert (out / "rate.png").stat().st_size > 1000
