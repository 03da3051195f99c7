"""The simulator's TCP against the Linux kernel's on the same link: the quick subset of the kernel
suite (validation/kernel/run.py, `make validate-kernel`; docs/validation.md, "The kernel suite").

Each quick case runs the kernel's algorithm once between two network namespaces through `ccsim
emulate` and ccsim once on the same link (Reno, CUBIC and BBR v1 alone on 10 Mbit/s x 40 ms with
one BDP of DropTail, and two BBR v1 flows), and holds ccsim to issue 45's targets: goodput within
5 %, Jain's index within 0.05, retransmissions after the warm-up within 20 % or 5, and for the
loss-based algorithms the sawtooth period within 15 %. The kernel's algorithm is set on each
socket (`TCP_CONGESTION`, which root may set to any available algorithm): a namespace's
`net.ipv4.tcp_congestion_control` accepts only the init namespace's allowed list, and widening
that list would change the host. These tests need root, network namespaces and /dev/net/tun, and
skip without them.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

from test_emulate import needs_emulation

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("kernel_suite", ROOT / "validation" / "kernel" / "run.py")
assert _spec is not None and _spec.loader is not None
suite: Any = importlib.util.module_from_spec(_spec)
sys.modules["kernel_suite"] = suite
_spec.loader.exec_module(suite)

QUICK = {c.name: c for c in suite.quick_suite()}
#: Targets the quick run (one kernel run against the suite's twenty seeds) does not judge, and
#: why: the full suite judges them over three kernel runs (docs/validation.md, "The kernel suite").
NOT_JUDGED_QUICKLY = {
    ("reno-1", "retransmitted"):
        "a few events either way, and one run's count moves by their size: the kernel retransmits 7-11 "
        "times after the warm-up in seven runs, ccsim 14. ccsim loses a second segment one round trip "
        "after the first at every loss event, the kernel at 3-5 of 8: the second overflow and the "
        "first loss's detection fall within a millisecond, a tie the kernel's timing breaks either "
        "way (docs/validation.md); 5 events of slack holds three of five runs",
    ("bbr-2", "retransmitted"):
        "one kernel run's count is too noisy to hold either way: the kernel retransmits 801-1028 "
        "times after the warm-up in eight runs, ccsim 591-1096 over sixteen seeds; the means over "
        "eight runs and twenty seeds (926 against 840) are within the target (docs/validation.md)",
}
#: The sawtooth period's band: a per-run median of 3-6 loss events moves by about 10 % between
#: kernel runs (docs/validation.md).
PERIOD_TOL = 0.15


@needs_emulation
@pytest.mark.parametrize("name", sorted(QUICK))
def test_simulated_tcp_meets_the_kernel_suites_targets(name: str, tmp_path: Path) -> None:
    rec = suite.compare(QUICK[name], runs=1, seeds=suite.SEEDS, work=tmp_path)
    assert rec["kernel"], rec["kernel_missing"]
    (real,) = rec["kernel"]
    if QUICK[name].cc in suite.SAWTOOTH:
        periods = [s["period"] for s in rec["ccsim"]]
        assert real["period"] and all(periods), suite.row(rec)
        assert abs(statistics.fmean(periods) / real["period"] - 1) <= PERIOD_TOL, suite.row(rec)
    judged = {t: ok for t, ok in rec["within"].items() if (name, t) not in NOT_JUDGED_QUICKLY}
    assert judged and all(judged.values()), suite.row(rec)


#: One kernel run of bbr-1 as the suite's ``--json`` recorded it (this machine, before the
#: ``extra_delay_ms`` setting existed).
RECORDED_BBR1 = {"goodput": 9515762.810264478, "flows": [9515762.810264478], "jain": 1.0, "smallest_share": 1.0,
                 "retransmitted": 0, "timeouts": 0, "period": None, "start_spread_s": 0.0, "lateness_p99_s": 3.1104e-05}
RECORDED_SETTINGS = {"name": "bbr-1", "cc": "bbr", "flows": 1, "rate_mbps": 10.0, "delay_ms": 20.0, "buffer_bdp": 1.0,
                     "queue_packets": None, "queue": "droptail", "seconds": 20.0, "loss": 0.0, "quick": True,
                     "kernel_gso_segs": None}


def test_recorded_kernel_runs_are_judged_again_without_the_kernel(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``--kernel-from``: ccsim runs afresh against kernel runs recorded earlier (no root
    needed); a record of other settings is refused with one line naming the case."""
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"records": [{"case": "bbr-1", "settings": RECORDED_SETTINGS,
                                            "kernel": [RECORDED_BBR1]}]}))
    args = ["--case", "^bbr-1$", "--kernel-from", str(old), "--seeds", "2", "--json", str(new)]
    assert suite.main(args) == 0
    (rec,) = json.loads(new.read_text())["records"]
    assert rec["kernel"] == [RECORDED_BBR1] and len(rec["ccsim"]) == 2
    # ccsim's one BBR flow: 9.509 Mbit/s against the kernel's 9.516.
    assert rec["within"] == {"goodput": True, "jain": True, "retransmitted": True}
    old.write_text(json.dumps({"records": [{"case": "bbr-1", "settings": {**RECORDED_SETTINGS, "buffer_bdp": 2.0},
                                            "kernel": [RECORDED_BBR1]}]}))
    capsys.readouterr()
    assert suite.main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("validate-kernel: error: --kernel-from:") and "'bbr-1'" in err and "other settings" in err
    assert len(err.splitlines()) == 1


def test_the_suite_covers_what_the_issue_names() -> None:
    """Reno, CUBIC, BBR v1 and DCTCP with step marking; 1, 2, 4 and 10 flows; equal and unequal
    round trips; buffers from 0.2 to 2 BDP; DropTail, RED and step marking."""
    cases = suite.suite()
    assert {c.cc for c in cases} == {"reno", "cubic", "bbr", "dctcp"}
    assert {c.flows for c in cases} >= {1, 2, 4, 10}
    assert {c.buffer_bdp for c in cases} >= {0.2, 1.0, 2.0}
    assert {c.queue for c in cases} == {"droptail", "red", "step"}
    assert all(c.queue == "step" for c in cases if c.cc == "dctcp")
    assert {c.cc for c in cases if len({c.extra_s(i) for i in range(c.flows)}) > 1} == {"reno", "cubic", "bbr"}
    assert len({c.name for c in cases}) == len(cases)


def test_unequal_round_trips_take_access_links_on_both_sides() -> None:
    """A flow's extra delay: an access link of its own in the simulation, the delay each way,
    as the emulator's ``[[port_delays]]`` puts it on the kernel's side."""
    case = next(c for c in suite.suite() if c.name == "cubic-4-rtt-40-100ms")
    spec = suite.spec(case, 1)
    ccsim = pytest.importorskip("ccsim")
    # Every flow opens at 0, so each SYN reaches the shared link before the first data.
    flows = [{**f, "start": "0s"} for f in spec["flows"]]
    result = ccsim.run({**spec, "run": {**spec["run"], "duration": "1s", "warmup": "0s"}, "flows": flows},
                       progress=False)
    srtt = result.series("srtt")
    # The smoothed RTT starts at the handshake's: twice the path's delays, and a SYN's and a
    # SYN-ACK's serialisation (tens of microseconds).
    for i, extra_ms in enumerate((0, 10, 20, 30)):
        assert case.extra_s(i) == extra_ms / 1e3
        first = srtt[srtt["entity"] == f"f{i}"]["value"].min()
        base = 2 * (0.020 + extra_ms / 1e3)
        assert base < first < base + 0.0005, (i, first)


def test_the_simulated_side_matches_the_kernels_set_up() -> None:
    """The spec ccsim runs for a case: Linux's defaults on every flow, starts within the spread
    and the case's link."""
    case = QUICK["bbr-2"]
    spec = suite.spec(case, 1)
    assert spec["links"][0]["queue"] == f"{case.buffer_packets}p" == "33p"
    for flow in spec["flows"]:
        assert flow["protocol"] == "bbr" and flow["handshake"] and flow["timestamps"] and flow["delayed_ack"]
        assert flow["initial_window"] == 10 and flow["recovery"] == "linux"
        # Linux 6.6's receiver: a segment with PSH acknowledged at once (the reading without it
        # turns it off).
        assert flow["ack_on_push"]
        assert 0 <= int(flow["start"].removesuffix("us")) < suite.START_SPREAD_S * 1e6
    assert not any(f["ack_on_push"] for f in suite.spec(case, 1, ack_on_push=False)["flows"])
