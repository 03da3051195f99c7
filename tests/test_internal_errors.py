"""A panic in Rust reaches Python as ccsim.InternalError and the CLI user as one line with
exit status 1: never an abort, a PanicException (a BaseException) or a Rust backtrace."""

from __future__ import annotations

import subprocess
import sys

import pytest

import ccsim
from ccsim import _ccsim


def test_panic_becomes_internal_error() -> None:
    with pytest.raises(ccsim.InternalError, match=r"internal error \(please report\): self-test panic at crates/ccsim-py/src/lib\.rs:\d+"):
        _ccsim._selftest_panic()
    # The interpreter is intact and the next run works.
    assert ccsim.run({"run": {"duration": "1s"}, "links": [{"between": ["a", "b"], "rate": "1Mbps", "delay": "1ms"}]},
                     progress=False).summary["run"]["sim_seconds"] == 1.0


def test_internal_error_is_a_ccsim_error_not_a_value_error() -> None:
    with pytest.raises(ccsim.CcsimError) as info:
        _ccsim._selftest_panic()
    assert not isinstance(info.value, ValueError)


def test_cli_reports_internal_errors_in_one_line() -> None:
    code = ("import sys, ccsim.cli as c, ccsim._ccsim as n; "
            "c._cmd_schema = lambda a: n._selftest_panic(); sys.exit(c.main(['schema']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("ccsim: internal error (please report): self-test panic at ")
