"""The second outside trial's edge cases (issue 24): errors that name the key the user wrote,
ranges as each key accepts them, values echoed as written, the whole spec from
`validate --print`, keys present as null, a full disk, two runs into one folder, and Ctrl-C
after the results are in place."""

from __future__ import annotations

import copy
import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import ccsim
from ccsim.errors import describe_os_error
from ccsim.results import output_lock
from conftest import EXAMPLES, ROOT, cli, small_spec

DOCS = ROOT / "docs" / "scenarios.md"


def refusal(spec: dict[str, Any]) -> str:
    with pytest.raises(ccsim.SpecError) as e:
        ccsim.validate(spec)
    return str(e.value)


def red(**queue: Any) -> dict[str, Any]:
    spec = small_spec()
    spec["links"][1]["queue"] = {"kind": "red", **queue}
    return spec


def test_a_red_mean_packet_size_of_zero_is_refused_by_its_own_name() -> None:
    for bytes_mode in (False, True):
        msg = refusal(red(mean_packet_size="0B", bytes=bytes_mode))
        assert msg.startswith("links[1].queue.mean_packet_size:"), msg
        assert '"0B"' in msg, msg


def test_a_red_limit_below_min_th_is_refused() -> None:
    msg = refusal(red(limit="3p", min_th=5.0, max_th=15.0))
    assert msg.startswith('links[1].queue.limit: "3p" is below min_th = 5 packets'), msg
    # Byte mode: 5 packets of 500 B are 2500 B.
    msg = refusal(red(limit="2kB", min_th=5.0, max_th=15.0, bytes=True, mean_packet_size="500B"))
    assert msg.startswith('links[1].queue.limit: "2kB" is below min_th = 5 packets of mean_packet_size'), msg
    assert "2500 bytes" in msg, msg
    # At the threshold or above it is a RED queue.
    ccsim.validate(red(limit="5p", min_th=5.0, max_th=15.0))
    ccsim.validate(red(limit="2500B", min_th=5.0, max_th=15.0, bytes=True, mean_packet_size="500B"))


def ticp_spec(**session: Any) -> dict[str, Any]:
    spec = small_spec()
    spec["flows"] = []
    spec["ticp"] = [{"name": "t", "collector": "s", "sources": {"d": 10}, **session}]
    return spec


@pytest.mark.parametrize("probes", [0, 11, 10**6])
def test_ticp_probes_out_of_range_are_refused_with_explicit_clusters_too(probes: int) -> None:
    msg = refusal(ticp_spec(clusters="explicit", probes=probes))
    assert msg == f"ticp[0].probes: must be 1 to 10, found {probes}", msg


def test_type_errors_state_the_keys_own_range() -> None:
    spec = small_spec()
    spec["flows"][0]["initial_window"] = -1
    assert refusal(spec) == "flows[0].initial_window: expected a whole number from 1 to 100000, found -1"
    spec = ticp_spec(probes=2.5)
    assert refusal(spec) == "ticp[0].probes: expected a whole number from 1 to 10, found 2.5"
    spec = ticp_spec(sources={"d": -4})
    assert refusal(spec) == "ticp[0].sources.d: expected a whole number, at least 1, found -4"
    # A key whose type's range is its own keeps it.
    spec = small_spec()
    spec["run"]["seed"] = -1
    assert refusal(spec) == "run.seed: expected a whole number from 0 to 18446744073709551615, found -1"


def test_zero_durations_read_as_written() -> None:
    spec = small_spec(warmup="0ms")
    spec["links"][0]["delay"] = "0us"
    canonical = ccsim.validate(spec)
    assert canonical["links"][0]["delay"] == "0s"
    assert canonical["run"].get("warmup", "0s") == "0s"


def documented_units() -> dict[str, list[str]]:
    """The units table of docs/scenarios.md: kind -> suffixes."""
    table: dict[str, list[str]] = {}
    for line in DOCS.read_text().splitlines():
        m = re.match(r"\| (rate|duration|size) \| (.*?) \|", line)
        if m:
            table[m.group(1)] = re.findall(r"`([^`]+)`", m.group(2))
    return table


@pytest.mark.parametrize(("kind", "key", "bad"), [("rate", "rate", "10Mbit"), ("duration", "delay", "3min"),
                                                  ("size", "packet_size", "1000bytes")])
def test_the_unit_hint_lists_exactly_the_documented_units(kind: str, key: str, bad: str) -> None:
    spec = small_spec()
    (spec["flows"][0] if key == "packet_size" else spec["links"][0])[key] = bad
    msg = refusal(spec)
    listed = msg.split("units: ")[1].rstrip(")").split(", ")
    assert listed == documented_units()[kind], msg


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.toml")))
def test_validate_print_shows_every_key_and_reads_back_as_the_same_spec(example: str, tmp_path: Path) -> None:
    proc = cli("validate", str(EXAMPLES / example), "--print")
    assert proc.returncode == 0, proc.stderr
    full = json.loads(proc.stdout)
    # The defaults the canonical form leaves out are all there.
    assert {"reroute", "xcp_router", "obp_period", "warmup", "seed", "routing"} <= set(full["run"])
    for link in full["links"]:
        assert {"loss", "assist", "queue", "rate", "delay"} <= set(link), link
    for flow in full["flows"]:
        assert {"stop", "size", "delayed_ack", "max_window", "ecn", "initial_window", "min_rto"} <= set(flow)
    for key in ("events", "drops", "traffic", "ticp", "tcpm"):
        assert key in full
    path = tmp_path / "full.json"
    path.write_text(proc.stdout)
    assert ccsim.load(path) == ccsim.load(EXAMPLES / example)


def test_fct_keys_are_null_when_no_web_transfer_completes() -> None:
    spec = small_spec(duration="1s")
    spec["traffic"] = [{"name": "web", "kind": "web", "protocol": "newreno", "from": ["s"], "to": ["d"],
                        "arrivals": 50.0, "mean_size": "50MB", "start": "0.5s"}]
    web = ccsim.run(spec, progress=False).summary["traffic"]["web"]
    assert web["started"] > 0 and web["completed"] == 0, web
    for key in ("mean_fct_s", "fct_s", "mean_slowdown", "slowdown"):
        assert key in web and web[key] is None, (key, web)
    # Voice and streaming generators have no transfers: no FCT keys at all.
    spec["traffic"] = [{"name": "calls", "kind": "voice", "from": ["s"], "to": ["d"], "count": 2}]
    calls = ccsim.run(spec, progress=False).summary["traffic"]["calls"]
    assert "mean_fct_s" not in calls and "completed" not in calls, calls


def test_an_os_error_is_described_with_its_device_or_path(tmp_path: Path) -> None:
    full = OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "x" / "summary.json"))
    msg = describe_os_error(full, tmp_path)
    assert msg.startswith("no space left on the device mounted at /"), msg
    assert str(tmp_path / "x" / "summary.json") in msg and "bytes free" in msg, msg
    # The Rust writer's errors carry the code only in their text.
    assert describe_os_error(OSError("No space left on device (os error 28)"), tmp_path).startswith("no space")
    assert describe_os_error(OSError(errno.EACCES, "Permission denied", "/x/y"), tmp_path) == "permission denied at /x/y"


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Any:
    mount = tmp_path / "tiny"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(mount)], capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"this machine cannot mount a small tmpfs here: {proc.stderr.strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=False)


def test_a_full_disk_is_said_in_plain_words_and_old_results_stay(tiny_disk: Path) -> None:
    out = tiny_disk / "out"
    out.mkdir()
    (out / "mine.txt").write_text("kept")
    proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--no-plots")
    assert proc.returncode == 1, proc
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("ccsim: error: results not written (no space left on the device mounted at "), line
    assert str(tiny_disk) in line and "please report" not in line, line
    assert (out / "mine.txt").read_text() == "kept"
    assert not any(p.name.startswith(".ccsim-tmp") for p in out.iterdir())


def test_a_second_run_into_a_folder_being_written_refuses(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with output_lock(out):
        proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--no-plots")
        assert proc.returncode == 2, proc
        assert proc.stderr.strip() == (f"ccsim: error: output: another ccsim (pid {os.getpid()}) is writing "
                                       f"{out} now; wait for it to finish or choose another folder"), proc.stderr
        assert not (out / "summary.json").exists()
    # Released: the next run writes, and leaves no lock behind.
    proc = cli("run", str(EXAMPLES / "dumbbell.toml"), "-o", str(out), "--no-plots", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert (out / "summary.json").exists() and not (out / ".ccsim-lock").exists()


def test_a_run_that_fails_leaves_no_folder_behind(tmp_path: Path) -> None:
    spec = copy.deepcopy(small_spec())
    spec["run"]["duration"] = "1000000s"
    path = tmp_path / "long.json"
    path.write_text(json.dumps(spec))
    out = tmp_path / "new"
    proc = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "run", str(path), "-o", str(out)],
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    deadline = time.monotonic() + 300
    while not (out / ".ccsim-lock").exists():  # the folder is held from before the run
        assert time.monotonic() < deadline, "the run never took its folder"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert not out.exists(), list(out.iterdir())


def test_ctrl_c_once_the_results_are_in_place_is_never_death_by_signal(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for attempt in range(3):
        proc = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "run", str(EXAMPLES / "dumbbell.toml"),
                                 "-o", str(out), "--no-plots"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("wrote "):
                proc.send_signal(signal.SIGINT)
                break
        _, err = proc.communicate(timeout=300)
        assert proc.returncode in (0, 130), (attempt, proc.returncode, err)
        if proc.returncode == 130:
            assert err.strip().endswith("ccsim: interrupted"), err
        assert (out / "summary.json").exists()


def test_identical_runs_differ_only_in_the_documented_wall_clock_fields(tmp_path: Path) -> None:
    documented = {"wall_seconds", "events_per_second", "packets_per_second"}
    assert all(f"`run.{k}`" in DOCS.read_text() for k in documented)
    outs = []
    for name in ("a", "b"):
        proc = cli("run", str(EXAMPLES / "traffic-mix.toml"), "-o", str(tmp_path / name), "--no-plots", "--quiet")
        assert proc.returncode == 0, proc.stderr
        outs.append(tmp_path / name)
    a, b = (json.loads((o / "summary.json").read_text()) for o in outs)
    assert set(a["run"]) >= documented
    changed = {k for k in a["run"] if a["run"][k] != b["run"][k]}
    assert changed <= documented, changed
    assert {k: v for k, v in a.items() if k != "run"} == {k: v for k, v in b.items() if k != "run"}
    for f in outs[0].iterdir():
        if f.name != "summary.json":
            assert f.read_bytes() == (outs[1] / f.name).read_bytes(), f.name
