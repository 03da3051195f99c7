"""TICP from Python: the builder, the per-source table, and the experiments' quick variants
against the paper's bands."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import assert_every_check_listed, judge_check, replicated_report

import ccsim
from ccsim.experiments import REGISTRY, ExperimentReport


def two_bins(**options: object) -> ccsim.Scenario:
    sc = ccsim.Scenario(duration="60s")
    sc.link("c", "core", rate="10Gbps", delay="10ms", queue="1000p")
    sc.link("core", "b1", rate="1000kbps", delay="20ms", queue="20p")
    sc.link("core", "b2", rate="850kbps", delay="40ms", queue="20p")
    sc.ticp("census", "c", {"b1": 300, "b2": 200}, **options)
    sc.output(series=["rate", "sent_rate", "cwnd", "reports", "round"])
    return sc


def test_the_builder_gives_the_same_spec_as_the_toml_example() -> None:
    toml = ccsim.load(Path(__file__).parent.parent / "examples" / "ticp.toml")
    assert toml["ticp"][0]["sources"] == {"b1": 2000, "b2": 2000}
    built = two_bins(rs=1, request_size="1000B").to_dict()
    assert built["ticp"][0]["name"] == "census" and built["ticp"][0]["rs"] == 1


def test_the_report_table_lists_every_source_once_with_its_arrival() -> None:
    res = two_bins(rs=2).run()
    s = res.summary["ticp"]["census"]
    table = res.ticp_reports("census")
    assert len(table) == 500 == s["reports_received"]
    assert table["source"].is_unique
    assert np.isfinite(table["arrived_s"]).all()
    # Nearest bin first: b1's sources (IDs 0..299) are collected before b2's.
    assert table[table["node"] == "b1"]["arrived_s"].median() < table[table["node"] == "b2"]["arrived_s"].median()
    # Reports collected over time end at the number of sources.
    reports = res.wide("reports")["census"]
    assert reports.iloc[-1] == 500 and reports.is_monotonic_increasing
    with pytest.raises(KeyError, match="sessions: census"):
        res.ticp_reports("other")


def test_a_run_writes_the_report_table(tmp_path: Path) -> None:
    import pandas as pd

    two_bins().run().write(tmp_path, plots=False)
    table = pd.read_parquet(tmp_path / "ticp_reports.parquet")
    assert len(table) == 500


def test_sources_that_are_not_a_table_name_their_path() -> None:
    sc = ccsim.Scenario(duration="1s")
    with pytest.raises(ccsim.SpecError, match=r"ticp\[0\]\.sources"):
        sc.ticp("census", "c", ["b1", "b2"])  # type: ignore[arg-type]


def test_a_misspelt_option_names_its_path() -> None:
    with pytest.raises(ccsim.SpecError, match=r"ticp\[0\]") as e:
        two_bins(delivery="broadcast").validate()
    assert "broadcast" in str(e.value)


# --- the experiments' quick variants against the paper, check by check ---------------------------

def _bins(*names: str) -> set[str]:
    return {name.format(i=i) for name in names for i in range(1, 6)}


#: Every check of every TICP experiment, by the start of its name (docs/experiments.md, TICP).
CHECKS: dict[str, set[str]] = {
    "ticp-fwd": {"every report collected", "session duration / ideal", *_bins("bin {i} request rate / b_{i}")},
    "ticp-rev": {"every report collected", "session duration / ideal", *_bins("bin {i} report rate / b_{i}")},
    "ticp-udp-fwd": {f"{k}: every report collected" for k in ("cbr", "poisson")}
    | _bins("cbr: bin {i} request rate / 20 % of b_i", "poisson: bin {i} request rate / available"),
    "ticp-udp-rev": {"cbr: every report collected", "poisson: every report collected", "cbr: session duration / ideal",
                     "poisson: session duration / ideal at the measured available rate"}
    | _bins("cbr: bin {i} report rate / available", "poisson: bin {i} report rate / available"),
    "ticp-tcp-fwd": {"rs1: every report collected"} | _bins("rs1: bin {i} TICP / TCP rate"),
    "ticp-tcp-rev": {"rs10: every report collected"} | _bins("bin {i}: TICP / TCP rate"),
    "ticp-tcp-rev-fair": {"rs1-1000B: every report collected", "rs10-100B: every report collected",
                          "duration with 100 B reports / with 1000 B"}
    | _bins(*(f"{k}: bin {{i}} {who} / equal share" for k in ("rs1-1000B", "rs10-100B") for who in ("TICP", "TCP"))),
    "ticp-two": {f"{d}: {s}: every report collected" for d in ("fwd", "rev") for s in ("first", "second")}
    | _bins(*(f"{d}: bin {{i}} {s} / half of b_{{i}}" for d in ("fwd", "rev") for s in ("first", "second"))),
}

# The checks that do not reproduce, each a strict xfail with its mean and 95 % interval over the
# twenty replicas whose starts are jittered within bin 5's round trip (issue 41; ticp.TICP_JITTER)
# and the cause recorded in docs/experiments.md (TICP, "What we see where the paper is not
# reproduced"): one turns into a failure the day it reproduces. Every other check is asserted.
RS10_BURSTS = ("RS = 10 with 100 B reports: each request makes ten 100 B reports leave one node at the same "
               "instant, the bursts take half of the 20 packet slots and the reverse TCP loses whole windows "
               "(docs/experiments.md, TICP; not yet resolved)")
CHAOTIC = ("one trajectory passed or failed by the exact start (with one run, 1.7-15 over nine start offsets); over "
           "twenty jittered replicas the interval straddles the band's edge (docs/experiments.md, TICP)")
LATE_JOIN = ("the second session joins bin 1 in slow start 5 s after the first, and bin 1's overlap is a few "
             "seconds while the sessions separate: the split depends on the start (one run: 0.81/1.18 to 1.94/0.05 "
             "over five starts of the second session) and twenty replicas straddle the band")
NOT_YET: dict[tuple[str, str], str] = {
    ("ticp-tcp-fwd", "rs1: bin 1 TICP / TCP rate"):
        "1.60 [1.54, 1.66] (band [2/3, 3/2], issue 41's band from \"almost the same throughput\"): bin 1 opens "
        "with the session's slow start, which first halves at the collector's 3 s timer, and its round 1 takes "
        "1.6 times the TCP's rate; bins 2-5 hold 1.26-1.38",
    ("ticp-tcp-rev", "bin 3: TICP / TCP rate"): f"3.67 [2.99, 4.35], inconclusive (band: at least 3): {CHAOTIC}",
    ("ticp-tcp-rev", "bin 5: TICP / TCP rate"): f"3.12 [2.59, 3.66], inconclusive (band: at least 3): {CHAOTIC}",
    **{("ticp-tcp-rev-fair", f"rs10-100B: bin {i} TICP / equal share"): f"{v} (band [0.7, 1.3]): {RS10_BURSTS}"
       for i, v in ((1, 1.95), (2, 1.93), (3, 1.93), (4, 2.17), (5, 1.69))},
    **{("ticp-tcp-rev-fair", f"rs10-100B: bin {i} TCP / equal share"): f"{v} (band [0.7, 1.3]): {RS10_BURSTS}"
       for i, v in ((1, 0.04), (2, 0.15), (3, 0.19), (4, "0.61 [0.48, 0.75], inconclusive"), (5, 0.14))},
    **{("ticp-two", f"{d}: bin 1 {s} / half of b_1"): f"{v}, inconclusive (band [0.75, 1.25]): {LATE_JOIN}"
       for d, s, v in (("fwd", "first", "1.18 [0.92, 1.44]"), ("fwd", "second", "0.82 [0.56, 1.08]"),
                       ("rev", "first", "1.26 [1.06, 1.46]"), ("rev", "second", "0.73 [0.53, 0.93]"))},
}
ALL = {(name, check) for name, checks in CHECKS.items() for check in checks}


@cache
def quick_report(name: str, out: str) -> ExperimentReport:
    # Judged over the quick replicas, whose starts are jittered (issue 41), as `ccsim reproduce`
    # judges them.
    return replicated_report(name, Path(out))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ticp")


@pytest.mark.parametrize("name,check", sorted(ALL))
def test_quick_ticp_experiment_check(name: str, check: str, out_dir: Path) -> None:
    judge_check(quick_report(name, str(out_dir / name)), name, check, NOT_YET)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_every_check_is_listed_and_every_figure_written(name: str, out_dir: Path) -> None:
    report = quick_report(name, str(out_dir / name))
    assert len(report.checks) == len(CHECKS[name])
    assert_every_check_listed(report, name, ALL)
    assert set(NOT_YET) <= ALL
    assert report.figures and all(f.exists() for f in report.figures)


def test_every_ticp_experiment_is_registered() -> None:
    assert {n for n in REGISTRY if n.startswith("ticp")} == set(CHECKS)


def test_ticp_two_measured_from_the_second_sessions_first_timeout_judges_bin_1_on_fewer_replicas(
        out_dir: Path) -> None:
    """The "settled" reading (issue 25, section 4): each bin's shares from the second session's
    first timer expiry in it. Bin 1 then keeps five samples of overlap in only some replicas (7 of
    20 in reverse when written, reverse bin 2 in 12; the first session leaves it soon after the
    second's first timeout), and they straddle the band over them, so the reading does not reproduce
    (inconclusive); with one trajectory bin 1 was never judged and bin 2 split 0.62 / 1.37."""
    report = quick_report("ticp-two", str(out_dir / "ticp-two"))
    settled = report.readings["settled"]
    names = {c.name: c for c in settled.checks}
    replicas = REGISTRY["ticp-two"].default_seeds(True)
    rev1 = names["rev: bin 1 first / half of b_1"]
    assert 1 <= len(rev1.samples) < replicas and rev1.optional
    assert settled.verdict != "reproduced"
    assert all(len(c.samples) == replicas for n, c in names.items() if n.startswith(("fwd: bin 2", "rev: bin 5")))


def test_ticp_udp_fwd_cbr_band_catches_a_collector_ten_times_as_aggressive() -> None:
    """ticp-udp-fwd's CBR checks are judged against the paper's 20 % of b_i (issue 25, section 4):
    a collector with RS = 10 (ten requests where the paper sends one) falls outside the band in
    every bin, while against the rate UDP's losses leave (the old denominator) it passed in
    most."""
    from ccsim.experiments import ticp as t
    from ccsim.experiments.base import run_many, timer_of

    n = t._n(True)
    ideal = t.ideal_duration(n, 1000, share=0.2)
    with timer_of(REGISTRY["ticp-udp-fwd"]):
        (res,) = run_many([t.topology_spec([t.session("ticp", n, 1000, 100, 10, start=100)], 100 + 2 * ideal,
                                           background="cbr", direction="fwd")], jobs=1)
    variable, entity, _ = t.measured(False)
    windows = t.bin_windows(res, "ticp")
    checks, measured = [], []
    for i in range(1, t.BINS + 1):
        r = t.median_rate(res, variable, entity, windows[i])
        checks.append(t.cbr_share_check(i, r))  # the experiment's own check
        measured.append(r / (t.capacity_bps(i) - t.median_rate(res, "rate", f"cbr{i}", windows[i])))
    assert not any(c.passed for c in checks), [c.measured for c in checks]
    assert sum(0.85 <= x <= 1.15 for x in measured) >= 3, measured  # 0.83-1.06 when written


def test_ticp_tcp_fwd_band_catches_a_collector_ten_times_as_aggressive() -> None:
    """ticp-tcp-fwd's band from the paper's words (issue 41: "TCP and TICP should obtain almost the
    same throughput"): TICP's rate within 3:2 of the TCP's on the same path. A collector that
    probes ten sources per request (RS = 10, where the paper's forward run has 1) takes 2.6-21
    times the TCP's rate and falls outside in every bin; the paper's RS = 1, started as
    registered, gave 1.33-1.48 when written."""
    from ccsim.experiments import ticp as t
    from ccsim.experiments.base import run_many, timer_of

    n = t._n(True)
    spec = t.topology_spec([t.session("ticp", n, 1000, 100, 10, start=100)],
                           100 + 3 * t.ideal_duration(n, 1000, share=0.5), background="newreno", direction="fwd")
    with timer_of(REGISTRY["ticp-tcp-fwd"]):
        (res,) = run_many([spec], jobs=1)
    windows = t.bin_windows(res, "ticp")
    variable, entity, _ = t.measured(False)
    checks = [t.fair_share_check("rs10", i, t.median_rate(res, variable, entity, windows[i]),
                                 t.median_rate(res, "rate", f"newreno{i}", windows[i])) for i in range(1, t.BINS + 1)]
    assert not any(c.passed for c in checks), [c.measured for c in checks]
    assert all(c.measured > 1.5 for c in checks)


def test_the_whole_bin_reading_measures_every_round_of_a_bin(out_dir: Path) -> None:
    """ticp-tcp-rev-fair's reading ``whole-bin`` (issue 25, section 4): each bin's TICP and TCP
    rates over every sample the collector spends in the bin, in any round, as means (bytes over
    the bin's time). The 100 B session's shares move toward the TCP's (bin 1: TICP 1.27 and TCP
    0.62 of an equal share, against 1.86 and 0.12 over round 1's medians) but stay outside the
    band in bins 1, 2, 4 and 5: the reading does not reproduce either."""
    from ccsim.experiments import ticp as t

    report = quick_report("ticp-tcp-rev-fair", str(out_dir / "ticp-tcp-rev-fair"))
    whole = report.readings["whole-bin"]
    assert [c.name for c in whole.checks] == [c.name for c in report.checks]
    assert whole.verdict == "not reproduced"
    registered = {c.name: c.measured for c in report.checks}
    reading = {c.name: c.measured for c in whole.checks}
    key = "rs10-100B: bin 1 TICP / equal share"
    assert reading[key] < registered[key] - 0.3, (reading[key], registered[key])
    tcp = "rs10-100B: bin 1 TCP / equal share"
    assert reading[tcp] > registered[tcp] + 0.3, (reading[tcp], registered[tcp])
    # The whole bin holds round 1's samples and those of the later rounds.
    from ccsim.experiments.base import run_many, timer_of

    n = t._n(True)
    spec = t.topology_spec([t.session("ticp", n, 100, 100, 10, start=100)],
                           100 + 3 * t.ideal_duration(n, 100, share=0.5), background="newreno", direction="rev",
                           interval=0.25)
    with timer_of(REGISTRY["ticp-tcp-rev-fair"]):
        (res,) = run_many([spec], jobs=1)
    first, every = t.bin_windows(res, "ticp"), t.whole_bin_windows(res, "ticp")
    assert all(set(first[i]) <= set(every[i]) for i in first)
    assert sum(len(every[i]) for i in every) > sum(len(first[i]) for i in first)


def test_two_newreno_flows_on_the_ticp_paths_split_within_three_to_two() -> None:
    """What two TCPs do where ticp-tcp-fwd's band asked TICP and TCP each within 30 % of an
    equal share before issue 41: on the same paths, with ns-2.35's timer and agents and 20-packet buffers, a
    second NewReno flow started at 100 s beside the first gets 0.85-1.03 of the first's median
    rate over 101-160 s in every bin. Before the agents were ns-2.35's (issue 39) it got 0.61 on
    bin 3 (52 timeouts), which is why the band was not tightened to [2/3, 3/2]; two TCPs now
    pass such a band, which ticp-tcp-fwd's check of TICP / TCP within 3:2 has been since issue 41
    (over 101-160 s here; the check reads round 1 of each bin, and over a bin's whole time bin 1
    gives TICP the same 1.6-1.9 times the TCP's rate)."""
    from ccsim.experiments import ticp as t
    from ccsim.experiments.base import run_many, timer_of

    spec = t.topology_spec([], 160, background="newreno", direction="fwd")
    spec.pop("ticp")
    spec["output"]["series"] = ["rate"]
    spec["flows"] += [{"name": f"second{i}", "protocol": "newreno", "from": "c", "to": f"b{i}", "start": "100s"}
                      for i in range(1, t.BINS + 1)]
    with timer_of(REGISTRY["ticp-tcp-fwd"]):
        (res,) = run_many([spec], jobs=1)
    w = res.wide("rate")
    w = w[(w.index > 101) & (w.index <= 160)]
    ratios = [float(np.median(w[f"second{i}"]) / np.median(w[f"newreno{i}"])) for i in range(1, t.BINS + 1)]
    assert all(2 / 3 <= r <= 3 / 2 for r in ratios), ratios
