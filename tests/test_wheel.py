"""The wheel installs and runs without a compiler (issue 44): one abi3 wheel for manylinux,
built by maturin from the artifacts the tests already built (the fasttest profile; `make wheel`
builds the release one the same way), installed into a fresh virtual environment with the
registry's dependencies, then run from there with no Rust toolchain on PATH: the command line, a
scenario, a quick experiment and the API."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

MATURIN = Path(sys.executable).with_name("maturin")


def _without_rust(env: dict[str, str]) -> dict[str, str]:
    """The environment with every folder holding cargo or rustc taken off PATH."""
    kept = [d for d in env.get("PATH", "").split(os.pathsep)
            if d and not (Path(d, "cargo").exists() or Path(d, "rustc").exists())]
    return {**{k: v for k, v in env.items() if not k.startswith(("CARGO", "RUSTUP", "VIRTUAL_ENV"))},
            "PATH": os.pathsep.join(kept)}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not MATURIN.exists():
        pytest.skip("maturin is not installed in this environment")
    where = tmp_path_factory.mktemp("wheel")
    subprocess.run([str(MATURIN), "build", "--profile", "fasttest", "--out", str(where / "dist"), "-q"],
                   cwd=ROOT, check=True, capture_output=True, text=True, timeout=1800)
    wheels = sorted((where / "dist").glob("ccsim-*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]
    # One wheel for every CPython from 3.10 (the stable ABI), for glibc Linux as PyPI tags it.
    assert "-cp310-abi3-" in wheel.name and "manylinux" in wheel.name, wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "ccsim/py.typed" in names and any(n.startswith("ccsim/_ccsim") and n.endswith(".so") for n in names)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # --no-compile: the byte-code cache is not what is tested, and writing it is half of pip's time.
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile", str(wheel)],
                         capture_output=True, text=True, timeout=1800, env=_without_rust(dict(os.environ)))
    assert pip.returncode == 0, pip.stderr[-3000:]
    return venv


def _in(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = _without_rust(dict(os.environ))
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env["PATH"]])
    assert shutil.which("cargo", path=env["PATH"]) is None and shutil.which("rustc", path=env["PATH"]) is None
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_the_installed_wheel_runs_the_cli_a_scenario_and_a_quick_experiment(installed: Path, tmp_path: Path) -> None:
    version = _in(installed, "ccsim", "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("ccsim 0."), version
    shutil.copy(ROOT / "examples" / "dumbbell.toml", tmp_path / "dumbbell.toml")
    run = _in(installed, "ccsim", "run", "dumbbell.toml", "-o", "out", "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out" / "summary.json").exists() and (tmp_path / "out" / "flows.parquet").exists()
    rep = _in(installed, "ccsim", "reproduce", "dumbbell-newreno", "--quick", "-o", "rep", "-q", "--no-cache",
              cwd=tmp_path)
    assert rep.returncode == 0, rep.stderr
    assert (tmp_path / "rep" / "index.html").exists()


def test_the_installed_wheel_serves_the_api_from_its_own_folder(installed: Path, tmp_path: Path) -> None:
    script = ("import ccsim, pathlib\n"
              "r = ccsim.run({'run': {'duration': '1s'}, 'links': [{'between': ['a', 'b'], 'rate': '10Mbps', "
              "'delay': '5ms'}], 'flows': [{'name': 't', 'protocol': 'cubic', 'from': 'a', 'to': 'b'}]}, "
              "progress=False)\n"
              "print(pathlib.Path(ccsim.__file__).parent)\n"
              "print(r.summary['flows']['t']['goodput_bps'] > 1e6)\n")
    done = _in(installed, str(installed / "bin" / "python"), "-c", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    where, ok = done.stdout.split()
    assert Path(where).is_relative_to(installed) and ok == "True"
