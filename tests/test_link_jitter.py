"""A link's `jitter` (docs/scenarios.md, `[[links]]`): each packet's delay lengthened by a seeded
uniform draw below the bound, in the link's order; checked against the uniform law's mean, the
spec's errors and determinism."""

from __future__ import annotations

from typing import Any

import pytest

import ccsim
from ccsim.errors import SpecError


def _cbr(jitter: str | None, seed: int = 1) -> dict[str, Any]:
    """1 Mbit/s of 1000-byte CBR packets (8 ms apart) over 100 Mbit/s x 10 ms, for 10 s."""
    link: dict[str, Any] = {"between": ["a", "b"], "rate": "100Mbps", "delay": "10ms", "queue": "100p"}
    if jitter is not None:
        link["jitter"] = jitter
    return {"run": {"duration": "10s", "seed": seed},
            "links": [link],
            "flows": [{"name": "u", "protocol": "cbr", "from": "a", "to": "b", "rate": "1Mbps",
                       "packet_size": "1000B"}],
            "output": {"series": ["delay"], "interval": "1s"}}


def _mean_delay_s(spec: dict[str, Any]) -> float:
    series = ccsim.run(spec, progress=False).series("delay")
    return float(series["value"].mean())


def test_the_mean_one_way_delay_grows_by_half_the_bound() -> None:
    # Packets 8 ms apart never catch up with one another under 2 ms of jitter, so each delay is
    # 10 ms of propagation, 0.08 ms of serialisation and a uniform draw on [0, 2 ms): mean
    # 11.08 ms, standard error 2 ms / sqrt(12 x 1250) = 0.016 ms.
    assert _mean_delay_s(_cbr(None)) == pytest.approx(0.01008, abs=1e-7)
    assert _mean_delay_s(_cbr("2ms")) == pytest.approx(0.01108, abs=0.0001)


def test_no_jitter_and_zero_jitter_run_alike_and_the_draws_follow_the_seed() -> None:
    def summary(spec: dict[str, Any]) -> dict[str, Any]:
        s = ccsim.run(spec, progress=False).summary
        return {"flows": s["flows"], "links": s["links"]}

    assert summary(_cbr(None)) == summary(_cbr("0s"))
    assert _mean_delay_s(_cbr("2ms", seed=3)) == _mean_delay_s(_cbr("2ms", seed=3))
    assert _mean_delay_s(_cbr("2ms", seed=3)) != _mean_delay_s(_cbr("2ms", seed=4))


@pytest.mark.parametrize("value", ["fast", "-1ms", 5, "1000s"])
def test_a_bad_jitter_names_its_field(value: Any) -> None:
    spec = _cbr(None)
    spec["links"][0]["jitter"] = value
    with pytest.raises(SpecError, match=r"links\[0\]\.jitter"):
        ccsim.run(spec, progress=False)


def _kernel_suite() -> Any:
    import importlib.util
    import sys

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("kernel_suite_jitter", ROOT / "validation" / "kernel" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_kernel_suites_jitter_reading_puts_every_flow_behind_a_jittered_access_link() -> None:
    suite = _kernel_suite()
    case = next(c for c in suite.suite() if c.name == "cubic-2-rtt-40-80ms")
    plain = suite.spec(case, 1)
    assert plain == suite.spec(case, 1, None)
    # Without the reading only the longer round trip has an access link, and no link jitters.
    assert [f["from"] for f in plain["flows"]] == ["client", "client1"]
    assert not any("jitter" in link for link in plain["links"])
    read = suite.spec(case, 1, "30us")
    assert [f["from"] for f in read["flows"]] == ["client0", "client1"]
    access = [link for link in read["links"] if link["between"][1] == "client"]
    assert [(link["delay"], link["jitter"]) for link in access] == [("0us", "30us"), ("20000us", "30us")]
    assert read["links"][0] == plain["links"][0]  # the bottleneck as it was
    assert suite.main(["--case", "cubic-2-rtt", "--jitter", "fast"]) == 2
