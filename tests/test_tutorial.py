"""docs/your-own-algorithm.md as a reader meets it: its Python files are the ones in
examples/your-own/, and its commands run as written there, in a copy of that folder (the
emulated run where ``ccsim emulate`` can run: root, namespaces, TUN)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from test_emulate import WHY_NOT, our_namespaces

DOC = ROOT / "docs" / "your-own-algorithm.md"
FOLDER = ROOT / "examples" / "your-own"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(), re.S)


def test_the_docs_python_is_the_examples() -> None:
    files = {p.name: p.read_text() for p in FOLDER.glob("*.py")}
    shown = blocks("python")
    assert len(shown) >= 2
    for block in shown:
        assert block in files.values(), f"a Python block of the tutorial is no file of {FOLDER}:\n{block[:200]}"
    # The scenario's flow is shown as the file has it.
    for toml_block in blocks("toml"):
        assert toml_block in (FOLDER / "dumbbell.toml").read_text()


def commands() -> list[str]:
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def test_the_tutorial_commands_run_as_written(tmp_path: Path) -> None:
    work = tmp_path / "your-own"
    shutil.copytree(FOLDER, work, ignore=shutil.ignore_patterns("out", "__pycache__"))
    bin_dir = Path(sys.executable).parent  # `ccsim` and `python` as the reader's venv has them
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "MPLBACKEND": "Agg"}
    ran = []
    for command in commands():
        if command == "cd examples/your-own":
            continue
        if "ccsim emulate" in command:
            if WHY_NOT is not None:
                continue
            command = command.removeprefix("sudo ")  # root already
        done = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        ran.append(command)
    assert len(ran) >= 2
    summary = json.loads((work / "out" / "dumbbell" / "summary.json").read_text())
    flows = summary["flows"]
    # What the tutorial says of the run: the delay-based flow is starved by CUBIC and BBR.
    assert flows["mine"]["goodput_bps"] < 1e6
    assert flows["cubic"]["goodput_bps"] + flows["bbr"]["goodput_bps"] > 17e6
    assert (work / "out" / "sweep.png").stat().st_size > 10_000
    if WHY_NOT is None:
        received = json.loads((work / "out" / "rx" / "summary.json").read_text())["flows"]["mine"]
        assert 5e6 < received["goodput_bps"] <= 20e6
        assert our_namespaces() == []


def test_the_tutorial_says_what_its_numbers_are(tmp_path: Path) -> None:
    """The goodputs the tutorial quotes are the run's (rounded as written)."""
    import ccsim

    alone = ccsim.load(FOLDER / "dumbbell.toml")
    alone["flows"] = alone["flows"][:1]
    text = DOC.read_text()
    old = os.getcwd()
    os.chdir(FOLDER)
    try:
        mine_alone = ccsim.run(alone, progress=False).summary["flows"]["mine"]
        shared = ccsim.run(ccsim.load(FOLDER / "dumbbell.toml"), progress=False).summary["flows"]["mine"]
    finally:
        os.chdir(old)
    assert f"about {mine_alone['goodput_bps'] / 1e6:.1f} of 20 Mbit/s" in text
    assert f"{mine_alone['mean_delay_s'] * 1e3:.1f} ms of one-way delay" in text
    assert f"about\n{shared['goodput_bps'] / 1e6:.2f} Mbit/s" in text or \
        f"about {shared['goodput_bps'] / 1e6:.2f} Mbit/s" in text


def test_the_sweeps_figures_are_the_runs(tmp_path: Path) -> None:
    """The shares and delays the tutorial reads off its sweep (rounded as written)."""
    import copy

    import ccsim

    base = ccsim.load(FOLDER / "dumbbell.toml")
    queues = {"droptail": "200p", "dualpi2": {"kind": "dualpi2"},
              "sojourn": {"kind": "python", "class": "sojourn_aqm:Sojourn", "target": 0.005}}
    specs = []
    for queue in queues.values():
        for target in (0.002, 0.005, 0.01, 0.02):
            spec = copy.deepcopy(base)
            spec["links"][3]["queue"] = queue
            spec["flows"][0]["cc"] = {"target": target}
            specs.append(spec)
    old = os.getcwd()
    os.chdir(FOLDER)
    try:
        runs = [r.summary["flows"]["mine"] for r in ccsim.run_many(specs, progress=False)]
    finally:
        os.chdir(old)
    share = [f["goodput_bps"] / 20e6 * 100 for f in runs]
    delay = [f["mean_delay_s"] * 1e3 for f in runs]
    text = " ".join(DOC.read_text().split())
    assert f"({share[4]:.1f} % to {share[7]:.1f} % of the link" in text
    assert share[4] < share[5] < share[6] < share[7]  # "more with a larger target"
    assert f"from about {round(min(delay[:4]))} ms to {round(min(delay[4:8]))}-{round(max(delay[4:8]))} ms" in text
    low, high = round(min(delay[8:])), round(max(delay[8:]))
    assert f"its delay is {low} ms" in text if low == high else f"its delay is {low}-{high} ms" in text
    assert max(share[8:]) < 1  # "its share stays under 1 %"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
