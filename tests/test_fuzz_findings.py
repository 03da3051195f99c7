"""What the scenario fuzzer found (fuzz/README.md), checked through the public API."""

from __future__ import annotations

import json

import ccsim


def test_spec_json_reads_back_to_the_same_numbers_and_hash() -> None:
    # Found by fuzzing: without correctly rounded float parsing, 1.04e-70 came back from
    # the canonical JSON as 1.0400000000000001e-70, so re-running spec.json changed the
    # spec's hash and its loss probability.
    spec = {"run": {"duration": "1s", "seed": 2},
            "links": [{"between": ["a", "b"], "rate": "56Mbps", "delay": "5ms", "loss": 1.04e-70}],
            "flows": [{"name": "x", "protocol": "sack", "from": "a", "to": "b"}]}
    canonical = ccsim.validate(spec)
    assert canonical["links"][0]["loss"] == 1.04e-70
    again = ccsim.validate(json.loads(json.dumps(canonical)))
    assert again == canonical
    first = ccsim.run(spec, progress=False)
    second = ccsim.run(canonical, progress=False)
    assert first.summary["run"]["spec_hash"] == second.summary["run"]["spec_hash"]
