"""The third outside trial (issue 40): inputs that are not regular files, `ccsim real ticp`'s
sizes, and the other edges it found. Each test failed on the code before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.inputs import read_input

CLI = [sys.executable, "-m", "ccsim.cli"]


ROOT = Path(__file__).resolve().parent.parent


def ccsim_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)


TRACE_SPEC = """[run]
duration = "1s"
[[links]]
between = ["a", "b"]
rate = "10Mbps"
delay = "1ms"
trace = "{trace}"
[[flows]]
name = "f"
protocol = "reno"
from = "a"
to = "b"
"""


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_a_device_given_as_a_scenario_is_refused_not_read_forever() -> None:
    # /dev/zero reports a size of 0 and never ends: reading it grew to gigabytes.
    proc = ccsim_cli("validate", "/dev/zero", timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("ccsim: error: (document): scenario file /dev/zero is a device, not a "
                                   "regular file; write it to a file first")


def test_a_fifo_without_a_writer_does_not_block_open(fifo: Path) -> None:
    proc = ccsim_cli("validate", str(fifo), timeout=30)  # open() of a FIFO blocked until a writer came
    assert proc.returncode == 2 and "is a FIFO, not a regular file" in proc.stderr


@pytest.mark.parametrize("trace", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_a_links_trace_is_refused_naming_the_link(tmp_path: Path, trace: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(TRACE_SPEC.format(trace=trace))
    with pytest.raises(ccsim.SpecError, match=r"^links\[0\]\.trace: trace file /dev/\w+ is a device"):
        ccsim.load(path)
    proc = ccsim_cli("run", str(path), "-o", str(tmp_path / "out"), timeout=30)
    assert proc.returncode == 2 and "links[0].trace: trace file" in proc.stderr


def test_a_file_is_bounded_by_the_bytes_read_not_by_its_stated_size(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"1\n" * 600)
    assert len(read_input(path, "field", limit=1200)) == 1200
    with pytest.raises(ccsim.SpecError, match=r"^field: file .* is larger than 1199 bytes$"):
        read_input(path, "field", limit=1199)


def test_a_fifo_with_a_writer_is_refused_too(fifo: Path) -> None:
    def write() -> None:
        try:
            with open(fifo, "wb") as f:
                f.write(b"0" * 100)
        except OSError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    with pytest.raises(ccsim.SpecError, match="is a FIFO, not a regular file"):
        read_input(fifo, "trace", "trace file")
    os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # let the writer finish
    writer.join(5)


def test_emulate_key_and_source_files_are_bounded_the_same_way(tmp_path: Path) -> None:
    from ccsim.emulate import load_link_directions
    from ccsim.real import read_secret, read_sources_file

    with pytest.raises(ccsim.SpecError, match=r"^link file: link file /dev/zero is a device"):
        load_link_directions("/dev/zero")
    with pytest.raises(ccsim.SpecError, match=r"^key_file: key file /dev/urandom is a device"):
        read_secret("/dev/urandom")
    with pytest.raises(ccsim.SpecError, match=r"^sources: sources file /dev/zero is a device"):
        read_sources_file("/dev/zero")


COLLECT = ["real", "ticp", "collect", "--sources", "/nonexistent", "--key-file", "/nonexistent"]
SOURCE = ["real", "ticp", "source", "--listen", "127.0.0.1:0", "--ids", "0-3", "--report-file", "/etc/hostname",
          "--key-file", "/nonexistent"]


@pytest.mark.parametrize("args,message", [
    # --rs -1 ended in "internal error: OverflowError ... please report" (exit 1).
    (["--rs", "-1"], "--rs: must be 1 to 65535 request messages, found -1"),
    (["--rs", "0"], "--rs: must be 1 to 65535 request messages, found 0"),
    (["--request-size", "0"], "--request-size: must be 1 to 65535 bytes, found 0"),
    # 70000 B requests were accepted and the session ended with 0 of 100 reports.
    (["--request-size", "70000"], "--request-size: must be 1 to 65535 bytes, found 70000"),
    (["--rs", "1000", "--request-size", "100"],
     "--request-size: a request packet of --rs 1000 messages of 100 B is 100000 B, more than an IPv4 packet's 65535"),
    (["--probes", "0"], "--probes: must be 1 to 10 probes per landmark, found 0"),
    (["--probes", "11"], "--probes: must be 1 to 10 probes per landmark, found 11"),
    (["--bin-thresholds", "abc"],
     "--bin-thresholds: expected a duration with its unit, such as \"2s\" or \"500ms\", found 'abc'"),
    (["--bin-thresholds", "0ms,100ms"], "--bin-thresholds: expected a positive duration such as 100ms, found '0ms'"),
    (["--bin-thresholds", "200ms,100ms"], "--bin-thresholds: must be strictly ascending, found '200ms,100ms'"),
])
def test_real_ticp_collect_refuses_sizes_no_datagram_carries(args: list[str], message: str) -> None:
    proc = ccsim_cli(*COLLECT, *args)
    assert (proc.returncode, proc.stderr.strip()) == (2, f"ccsim: error: {message}")


@pytest.mark.parametrize("size", ["0", "20", "101", "65536", "10000000"])
def test_real_ticp_source_refuses_report_sizes_outside_a_datagram(size: str) -> None:
    # --report-size 20 sent 102-byte reports; 10000000 sent none, without a reason.
    proc = ccsim_cli(*SOURCE, "--report-size", size)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"ccsim: error: --report-size: must be 102 B (IPv4, UDP and TICP headers, "
                                   f"session, length and tag) to 65535 B, found {size}")


def test_real_ticp_smallest_report_size_is_accepted() -> None:
    from ccsim.real import MIN_REPORT_BYTES, check_ticp_sizes

    check_ticp_sizes(rs=1, request_size=64, report_size=MIN_REPORT_BYTES)
    check_ticp_sizes(rs=65535, request_size=1, report_size=65535)


def _study_folder(out: Path) -> Path:
    import json

    from ccsim.experiments.base import STUDY

    out.mkdir()
    (out / "reproduce.json").write_text(json.dumps({
        "ccsim_version": "0", "build": "b", "commit": None, "machine": {"platform": "Linux", "cpus": 2},
        "started_utc": "2026-11-28T00:00:00Z", "wall_seconds": 1.0, "quick": True, "jobs": 2, "scheduler": None,
        "cache_dir": None, "runs": 1, "cache_hits": 0, "interrupted": False, "experiments": ["l4s-coexistence"]}))
    d = out / "l4s-coexistence"
    d.mkdir()
    (d / "reproduce.json").write_text(json.dumps({
        "name": "l4s-coexistence", "title": "a study", "source": "ours", "quick": True, "seeds": [1],
        "randomness": "", "wall_seconds": 1.0, "runs": 1, "cache_hits": 0, "spec_hashes": [], "figures": [],
        "status": "ran", "error": None, "verdict": STUDY}))
    check = {"name": "utilisation", "measured": 0.5, "expected": "ours", "low": 0.0, "high": 1.0, "band": "[0, 1]",
             "source": "ours", "unit": "ratio", "open_low": False, "passed": True, "samples": [0.5], "mean": 0.5,
             "ci_low": None, "ci_high": None, "verdict": "reproduced"}
    (d / "table.json").write_text(json.dumps([check, dict(check, name="delay", measured=2.0, mean=2.0,
                                                          samples=[2.0], passed=False, verdict="not reproduced")]))
    return out


def test_the_report_never_calls_a_studys_check_reproduced(tmp_path: Path) -> None:
    from ccsim.report import write_report

    page = write_report(_study_folder(tmp_path / "out")).read_text()
    section = page[page.index('<section id="l4s-coexistence"'):]
    # l4s-coexistence showed 258 green "reproduced" badges against bands of our own.
    assert "v-reproduced" not in section and ">reproduced<" not in section
    assert '<span class="v v-study">in band</span>' in section
    assert '<span class="v v-study">outside the band</span>' in section
    # The study's own badge had no style: white text on the page's white.
    assert ".v-study-no-verdict,.v-study{background:" in page


def test_a_studys_table_words_its_checks_against_the_band() -> None:
    from ccsim.experiments.base import Check, ExperimentReport

    checks = [Check("x", 0.5, "ours", 0.0, 1.0, unit="ratio", samples=[0.49, 0.51]),
              Check("y", 2.0, "ours", 0.0, 1.0, unit="ratio", samples=[1.99, 2.01])]
    table = ExperimentReport("s", checks, study=True).table_markdown()
    assert "| in band |" in table and "| outside the band |" in table and "reproduced" not in table
    assert "| reproduced |" in ExperimentReport("s", checks).table_markdown()


@pytest.mark.parametrize("call,message", [
    # run_many("x.toml") iterated the string's characters ("no such scenario file: x").
    (lambda: ccsim.run_many("x.toml"), "specs: expected a list of specs (paths, dicts or Scenarios), found the "
                                       "string 'x.toml'; for one spec, use ccsim.run or pass [spec]"),
    (lambda: ccsim.run_many(None), "specs: expected a list of specs (paths, dicts or Scenarios), found NoneType"),
    (lambda: ccsim.tidy([], params=5), "params: expected a path such as \"run.seed\", a list of paths or one "
                                       "mapping per result, found int"),
    (lambda: ccsim.tidy([None]), "results[0]: expected a ccsim.Result, found NoneType"),
])
def test_sweeps_name_a_wrong_argument_instead_of_a_bare_type_error(call: Any, message: str) -> None:
    with pytest.raises(ccsim.SpecError) as e:
        call()
    assert str(e.value).startswith(message)


def test_run_many_still_takes_any_iterable_of_specs() -> None:
    spec = {"run": {"duration": "0.2s"}, "links": [{"between": ["a", "b"], "rate": "1Mbps", "delay": "1ms"}],
            "flows": [{"name": "f", "protocol": "cbr", "from": "a", "to": "b", "rate": "100kbps"}]}
    assert len(ccsim.run_many(s for s in (spec, spec))) == 2


def test_a_second_reproduce_into_a_folder_being_written_refuses(tmp_path: Path) -> None:
    from ccsim.experiments import REGISTRY
    from ccsim.reproduce import reproduce

    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from ccsim.results import output_lock\n"
                               f"with output_lock(Path({str(out)!r})):\n"
                               "    print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        # Two reproduce into one folder both ran and exited 0; the index kept only the last.
        with pytest.raises(ccsim.SpecError, match=r"^output: another ccsim \(pid \d+\) is writing"):
            reproduce([REGISTRY["dumbbell-newreno"]], out, quick=True, progress=False)
    finally:
        holder.kill()
        holder.communicate()
    assert not (out / "index.html").exists()


def _lone_flow(protocol: str, **keys: Any) -> dict[str, Any]:
    """One flow over 100 Mbit/s x 40 ms with half a BDP of buffer (issue 40, item 3)."""
    return {"run": {"duration": "5s", "seed": 1},
            "links": [{"between": ["s", "r"], "rate": "1Gbps", "delay": "1ms", "queue": "10000p"},
                      {"between": ["r", "d"], "rate": "100Mbps", "delay": "18ms", "queue": "333p"}],
            "flows": [{"name": "f", "protocol": protocol, "from": "s", "to": "d", "packet_size": "1500B", **keys}]}


@pytest.mark.parametrize("protocol", ["bbr3", "prague"])
def test_linux_algorithms_recover_as_linux_by_default(protocol: str) -> None:
    default = ccsim.run(_lone_flow(protocol), progress=False).summary
    linux = ccsim.run(_lone_flow(protocol, recovery="linux"), progress=False).summary
    assert default["flows"] == linux["flows"]
    ns3 = ccsim.run(_lone_flow(protocol, recovery="ns3"), progress=False).summary["flows"]["f"]
    f = default["flows"]["f"]
    # RACK finds a lost retransmission before the timer; ns-3's rules wait for the timeout.
    assert f["timeouts"] == 0 < ns3["timeouts"]
    assert f["retransmitted_packets"] < ns3["retransmitted_packets"]


def test_ns3_recovery_stays_available_and_resends_what_the_timeout_marks() -> None:
    f = ccsim.run(_lone_flow("bbr3", recovery="ns3"), progress=False).summary
    drops, retx = f["links"]["r->d"]["drops"], f["flows"]["f"]["retransmitted_packets"]
    # ns-3's timeout marks every unSACKed segment lost, the last round trip's in flight too.
    assert f["flows"]["f"]["timeouts"] >= 1 and retx > 3 * drops


@pytest.mark.parametrize("flow,message", [
    ({"protocol": "prague", "ecn": False}, "flows[0].ecn: Prague reacts to ECN marks and always runs with ECN; "
                                          "remove ecn = false"),
    ({"protocol": "dctcp", "ecn": False}, "flows[0].ecn: DCTCP reacts to ECN marks and always runs with ECN; "
                                         "remove ecn = false"),
    # accecn = true with ecn = false silently ran with ECN on.
    ({"protocol": "cubic", "accecn": True, "ecn": False},
     "flows[0].ecn: false contradicts accecn = true (AccECN is ECN's feedback and turns ECN on); remove one of them"),
])
def test_ecn_contradictions_are_refused(flow: dict[str, Any], message: str) -> None:
    spec = _lone_flow("cubic")
    spec["flows"][0].update(flow)
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate(spec)
    assert str(e.value) == message


def test_writing_ecn_false_where_it_is_the_default_keeps_the_specs_hash() -> None:
    plain, written = _lone_flow("cubic"), _lone_flow("cubic", ecn=False)
    assert ccsim.validate(plain) == ccsim.validate(written)
    assert ccsim.validate(_lone_flow("prague", ecn=True))["flows"][0]["ecn"] is True


def _five_on_a_shared_link(warmup: str = "1s") -> dict[str, Any]:
    links: list[dict[str, Any]] = [{"between": ["r1", "r2"], "rate": "5Mbps", "delay": "10ms", "queue": "10p"}]
    flows = []
    for i in range(5):
        links.append({"between": [f"s{i}", "r1"], "rate": "100Mbps", "delay": "1ms"})
        links.append({"between": ["r2", f"d{i}"], "rate": "100Mbps", "delay": "1ms"})
        flows.append({"name": f"f{i}", "protocol": "sack", "from": f"s{i}", "to": f"d{i}", "start": f"{i * 13}ms"})
    return {"run": {"duration": "4s", "warmup": warmup, "seed": 1}, "links": links, "flows": flows}


def test_goodput_exceeds_arrival_by_at_most_what_was_held_at_the_windows_start() -> None:
    summary = ccsim.run(_five_on_a_shared_link(), progress=False).summary
    span = 3.0
    assert sum(f["held_at_start_bytes"] for f in summary["flows"].values()) > 0
    for f in summary["flows"].values():
        # goodput - arrival = held at the start - held at the end, and what is held is >= 0.
        assert (f["goodput_bps"] - f["arrival_bps"]) * span / 8 <= f["held_at_start_bytes"] + 1e-6
    payload_capacity = 5e6 * (1000 - 40) / 1000
    assert sum(f["arrival_bps"] for f in summary["flows"].values()) <= payload_capacity


def test_ccsim_run_prints_arrival_and_held_bytes_where_goodput_shows_above_arrival(tmp_path: Path) -> None:
    import json

    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(_five_on_a_shared_link()))
    proc = ccsim_cli("run", str(spec), "-o", str(tmp_path / "out"), "--no-plots")
    assert proc.returncode == 0, proc.stderr
    flows = json.loads((tmp_path / "out" / "summary.json").read_text())["flows"]
    above = [n for n, f in flows.items() if round(f["goodput_bps"] / 1e3) > round(f["arrival_bps"] / 1e3)]
    assert above
    for name in above:
        f = flows[name]
        line = next(x for x in proc.stdout.splitlines() if x.startswith(f"  {name} "))
        assert (f"goodput {f['goodput_bps'] / 1e6:9.3f} Mbit/s in order ({f['arrival_bps'] / 1e6:.3f} arrived in the "
                f"window; {f['held_at_start_bytes']} B held above a gap at the window's start)") in line


def test_what_an_experiment_derives_from_a_run_is_cached_with_the_run(tmp_path: Path) -> None:
    from ccsim.cache import ResultCache
    from ccsim.derived import derived
    from ccsim.sweep import sweep_options

    spec = _five_on_a_shared_link()
    calls: list[int] = []

    def p99() -> dict[str, float]:
        calls.append(1)
        return {"p99": 0.25, "none": float("nan")}

    cache = ResultCache(tmp_path / "cache")
    with sweep_options(cache=cache):
        res = ccsim.run_many([spec])[0]
        first = derived(res, "test.p99", p99)
        again = derived(ccsim.run_many([spec])[0], "test.p99", p99)  # a cached rerun: not derived again
        other = derived(res, "test.p99 warmup=2", p99)  # another derivation: derived
    assert len(calls) == 2 and first["p99"] == again["p99"] == other["p99"] == 0.25
    assert again["none"] != again["none"]  # NaN survives
    # A corrupt entry is derived again, never trusted.
    for entry in (tmp_path / "cache" / "derived").rglob("*.json"):
        entry.write_bytes(entry.read_bytes()[:-3])
    with sweep_options(cache=cache):
        derived(res, "test.p99", p99)
    assert len(calls) == 3
    assert derived(res, "test.p99", p99) == {"p99": 0.25, "none": pytest.approx(float("nan"), nan_ok=True)}
    assert len(calls) == 4  # without a cache: computed


def test_a_closed_pipe_ends_quietly() -> None:
    # `ccsim validate --print | head -1` printed "ccsim: error: Broken pipe at <cwd>".
    proc = subprocess.run(f"{sys.executable} -m ccsim.cli validate examples/dumbbell.toml --print | head -c 1; "
                          "echo \" ${PIPESTATUS[0]}\"", shell=True, executable="/bin/bash", capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.stderr == ""
    assert proc.stdout.split()[-1] in ("0", "141")  # 141 (SIGPIPE's) when the write met the closed pipe


def test_an_os_error_without_a_path_names_no_folder() -> None:
    from ccsim.errors import describe_os_error

    assert describe_os_error(OSError(32, "Broken pipe"), None) == "Broken pipe"


def test_an_output_folder_name_beyond_the_systems_limit_names_the_field(tmp_path: Path) -> None:
    proc = ccsim_cli("run", "examples/dumbbell.toml", "-q", "-o", str(tmp_path / ("x" * 300)))
    assert proc.returncode == 2
    assert proc.stderr.startswith("ccsim: error: output: a folder name in the path is 300 bytes long; a name has "
                                  "at most 255")


@pytest.mark.parametrize("args,message", [
    (["send", "--to", "127.0.0.1:0"], "--to: expected the receiver's port, 1 to 65535, found 0 in '127.0.0.1:0'"),
    (["recv", "--listen", "127.0.0.1:0", "--first-arrival-timeout", "0s"],
     "--first-arrival-timeout: must be a positive number of seconds up to 604800, found 0"),
    (["recv", "--listen", "127.0.0.1:0", "--first-arrival-timeout", "1e300s"],
     "--first-arrival-timeout: must be a positive number of seconds up to 604800, found 1e+300"),
    (["recv", "--listen", "127.0.0.1:0", "--idle-end", "1e400s"],
     "--idle-end: '1e400s' is too large"),
    (["recv", "--listen", "127.0.0.1:0", "--idle-end", "3"],
     "--idle-end: expected a duration with its unit, such as \"2s\" or \"500ms\", found '3' (\"3s\" for seconds)"),
])
def test_real_names_a_bad_address_or_time(args: list[str], message: str) -> None:
    proc = ccsim_cli("real", *args[:1], "examples/dumbbell.toml", "--flow", "tcp1", *args[1:])
    assert (proc.returncode, proc.stderr.strip()) == (2, f"ccsim: error: {message}")


def test_real_send_with_no_receiver_fails_and_says_so(tmp_path: Path) -> None:
    import json

    spec = tmp_path / "one.json"
    spec.write_text(json.dumps({"run": {"duration": "1s"},
                                "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "5ms"}],
                                "flows": [{"name": "t", "protocol": "newreno", "from": "a", "to": "b"}]}))
    # It sent into a port where nothing listens, heard nothing, and exited 0.
    proc = ccsim_cli("real", "send", str(spec), "--to", "127.0.0.1:9", "-q", timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("ccsim: error: nothing came back from 127.0.0.1:9: newreno needs its receiver's "
                                   "feedback; start `ccsim real recv` there first")


def test_real_send_of_a_file_without_flows_says_what_it_holds() -> None:
    proc = ccsim_cli("real", "send", "examples/ticp.toml", "--to", "127.0.0.1:9")
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("ccsim: error: flow: the file has no [[flows]] entry to run (a TICP session runs "
                                   "over real sockets with `ccsim real ticp`)")


def test_dualpi2_step_thresh_hint_names_both_forms_it_takes() -> None:
    spec = {"run": {"duration": "1s"}, "links": [{"between": ["a", "b"], "rate": "1Mbps", "delay": "1ms",
                                                  "queue": {"kind": "dualpi2", "step_thresh": "5B"}}]}
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate(spec)
    assert str(e.value) == ('links[0].queue.step_thresh: expected a duration such as "1ms" (units: ns, us, ms, s) '
                            'or packets such as "5p", found "5B"')
    spec["links"][0]["queue"]["step_thresh"] = "5p"
    assert ccsim.validate(spec)["links"][0]["queue"]["step_thresh"] == "5p"
