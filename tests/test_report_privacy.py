"""The mailable report names no user and no machine unless asked (`--include-machine`).

The host name, the home folder and the user name are set to values that occur nowhere else
(the real ones may be short words, such as "root", that the docs' text quoted in the report
contains), then searched for in everything ``reproduce`` writes at the top of its folder and in
the experiments' own ``reproduce.json``.
"""

from __future__ import annotations

import getpass
import json
import socket
from pathlib import Path

import pytest

from ccsim.cache import ResultCache
from ccsim.experiments.base import Check, Experiment, ExperimentReport
from ccsim.report import write_report
from ccsim.reproduce import redact, reproduce, shown_scheduler
from ccsim.sweep import run_many

HOST = "host-q7xz3k"
USER = "user-m4pw8v"
SPEC = {"run": {"duration": "1s", "seed": 1},
        "links": [{"between": ["s", "d"], "rate": "10Mbps", "delay": "10ms"}],
        "flows": [{"name": "f", "protocol": "cbr", "from": "s", "to": "d", "rate": "1Mbps"}]}


class OneRun(Experiment):
    name = "one-run"
    title = "one CBR flow of 1 Mbit/s"
    source = "this test"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        (res,) = run_many([SPEC], jobs=jobs)
        res.write(out_dir / "run", plots=False)
        goodput = res.summary["flows"]["f"]["goodput_bps"]
        return ExperimentReport(self.name, [Check("goodput", goodput / 1e6, "1", 0.9, 1.0, "CBR", unit="Mbit/s")])


class Fails(Experiment):
    name = "fails"
    title = "an experiment whose error names a file in the home folder"
    source = "this test"

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        raise RuntimeError(f"cannot read {Path.home() / 'data' / 'trace.csv'}")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder, user and host of distinctive names; the default cache inside that home."""
    home = tmp_path / f"home-{USER}-u9kx2"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(var, USER)
    monkeypatch.delenv("CCSIM_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(socket, "gethostname", lambda: HOST)
    assert Path.home() == home and getpass.getuser() == USER and socket.gethostname() == HOST
    return home


def written(out: Path) -> dict[str, str]:
    """The report, the run's reproduce.json and each experiment's reproduce.json."""
    files = [out / "index.html", out / "reproduce.json", *sorted(out.glob("*/reproduce.json"))]
    return {str(f.relative_to(out)): f.read_text(encoding="utf-8") for f in files}


def test_without_the_flag_nothing_names_the_host_the_user_or_the_home_folder(home: Path) -> None:
    out = home / "results"
    reproduce([OneRun(), Fails()], out, cache=ResultCache(), progress=False)
    assert (home / ".cache" / "ccsim").is_dir()  # the default cache, inside the home folder, was used
    files = written(out)
    assert set(files) == {"index.html", "reproduce.json", "one-run/reproduce.json", "fails/reproduce.json"}
    for name, text in files.items():
        for secret in (socket.gethostname(), str(home), getpass.getuser()):
            assert secret not in text, f"{name} holds {secret!r}"
    meta = json.loads(files["reproduce.json"])
    assert meta["cache"] == "default" and meta["cache_dir"] is None and meta["include_machine"] is False
    assert set(meta["machine"]) == {"platform", "python", "cpus"}
    # What is kept says what it can without naming anyone.
    assert "~/data/trace.csv" in json.loads(files["fails/reproduce.json"])["error"]
    assert "~/data/trace.csv" in files["index.html"]
    assert "the default folder (its path is not recorded without --include-machine)" in files["index.html"]
    # Docs not found where the report looks for them: it says where, the home folder as ~.
    (home / "no-docs").mkdir()
    page = write_report(out, docs_dir=home / "no-docs").read_text()
    assert "~/no-docs" in page and str(home) not in page


def test_with_the_flag_the_report_names_the_host_and_the_cache(home: Path) -> None:
    out = home / "results"
    reproduce([OneRun()], out, cache=ResultCache(), progress=False, include_machine=True)
    files = written(out)
    assert HOST in files["index.html"] and HOST in files["reproduce.json"]
    assert str(home / ".cache" / "ccsim") in files["index.html"]
    meta = json.loads(files["reproduce.json"])
    assert meta["machine"]["hostname"] == HOST and meta["cache_dir"] == str(home / ".cache" / "ccsim")


def test_a_schedulers_host_is_left_out_without_the_flag(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A host name names a machine; the report says that a cluster ran the runs, and its port."""
    import ccsim.distributed

    address = f"tcp://{HOST}:8786"
    monkeypatch.setattr(ccsim.distributed, "connect", lambda scheduler: (None, False))

    class Local(OneRun):
        def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
            return ExperimentReport(self.name, [Check("nothing", 0.0, "0", 0.0, 0.0, "test", unit="ratio")])

    for include in (False, True):
        out = home / f"results-{include}"
        reproduce([Local()], out, scheduler=address, progress=False, include_machine=include)
        report = (out / "index.html").read_text()
        assert (HOST in report) == include
        assert "Dask cluster " + (address if include else "tcp://(host left out):8786") in report


def test_the_shown_scheduler() -> None:
    assert shown_scheduler(None, include=False) is None
    assert shown_scheduler(f"tcp://{HOST}:8786", include=False) == "tcp://(host left out):8786"
    assert shown_scheduler("tls://10.1.2.3:8786", include=False) == "tls://(host left out):8786"
    # This machine's loopback names no machine.
    for local in ("tcp://127.0.0.1:41235", "tcp://localhost:8786", "tcp://[::1]:8786"):
        assert shown_scheduler(local, include=False) == local
    assert HOST not in str(shown_scheduler(object(), include=False))


def test_the_cli_has_the_flag(home: Path) -> None:
    from ccsim.cli import build_parser

    assert build_parser().parse_args(["reproduce", "--all", "--include-machine"]).include_machine is True
    assert build_parser().parse_args(["reproduce", "--all"]).include_machine is False


def test_redact_writes_the_home_folder_as_a_tilde(home: Path) -> None:
    assert redact(f"{home}/a and {home}") == "~/a and ~"
    # A folder whose name only begins like the home folder's is not the home folder.
    assert redact(f"{home}2/a") == f"{home}2/a"
