"""RED as ns-2.35 configures it (`queue = { kind = "red", profile = "ns2.35" }`): the keys, and
its marking rule seen in runs. The decision path and the automatic settings are checked against
red.cc in crates/ccsim-engine/src/red.rs's tests."""

from __future__ import annotations

from typing import Any

import pytest

import ccsim
from conftest import small_spec


def red_run(queue: dict[str, Any], ecn: bool) -> dict[str, Any]:
    spec = small_spec(duration="20s", warmup="5s")
    spec["links"][1]["queue"] = {"kind": "red", "limit": "200p", **queue}
    spec["flows"] = [{"name": f"t{i}", "protocol": "newreno", "from": "s", "to": "d", "ecn": ecn,
                      "start": f"{i * 0.1:.1f}s"} for i in range(8)]
    return ccsim.run(spec, progress=False).summary["links"]["r->d"]


def test_ns2_35_does_not_mark_unless_told_and_marks_only_up_to_mark_p() -> None:
    # setbit_ false: ECN-capable flows are dropped early, never marked.
    plain = red_run({"profile": "ns2.35"}, ecn=True)
    assert plain["ecn_marks"] == 0 and plain["drops_by_reason"]["red_early"] > 0, plain
    # ecn = true marks, and no forced drop on the average exists in this profile.
    marking = red_run({"profile": "ns2.35", "ecn": True}, ecn=True)
    assert marking["ecn_marks"] > 0 and marking["drops_by_reason"]["red_forced"] == 0, marking
    # mark_p = 0: every selected packet is above it, so nothing is marked.
    never = red_run({"profile": "ns2.35", "ecn": True, "mark_p": 0.0}, ecn=True)
    assert never["ecn_marks"] == 0 and never["drops_by_reason"]["red_early"] > 0, never


def test_the_fj93_profile_is_the_default_and_unchanged() -> None:
    # Same run, profile named or not: bit for bit the same.
    assert red_run({}, ecn=True) == red_run({"profile": "fj93"}, ecn=True)


def test_the_profile_keys_are_checked() -> None:
    spec = small_spec()
    spec["links"][1]["queue"] = {"kind": "red", "mark_p": 0.2}
    with pytest.raises(ccsim.SpecError, match=r'links\[1\]\.queue\.mark_p: applies to profile = "ns2.35" only'):
        ccsim.validate(spec)
    spec["links"][1]["queue"] = {"kind": "red", "profile": "ns2.36"}
    with pytest.raises(ccsim.SpecError, match=r"links\[1\]\.queue\.profile"):
        ccsim.validate(spec)
    spec["links"][1]["queue"] = {"kind": "red", "profile": "ns2.35"}
    assert ccsim.validate(spec)["links"][1]["queue"]["profile"] == "ns2.35"
