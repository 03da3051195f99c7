"""``make demo``: reproduce a few experiments with ``ccsim reproduce`` and end with one table of
every experiment run and its verdict.

``python -m ccsim.experiments.demo [NAME ...] [-o DIR] [--quick] [-j N]``. Each experiment is
run exactly as ``ccsim reproduce NAME -o DIR`` runs it (its table is printed as it finishes);
the last screen is the verdict table and where the full reproduction status is documented.

Exit status: 0 when every experiment ran, whatever its verdict (an experiment that does not
reproduce is a finding, documented in docs/experiments.md, not an error); otherwise the status
``ccsim reproduce`` gave for the first one that did not run (2 bad input, 1 internal error,
130 interrupted), after the table of those that did.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

#: The experiments ``make demo`` runs: one of each family, the headline ones first.
DEMO: list[str] = ["dumbbell-newreno", "ticp-fwd", "ticp-rev", "sat-slowstart", "cbraa-vs-mathis",
                   "cbraa-arrivals", "primo-bw", "primo-parking", "tcpm-single", "tcpm-fusion", "obp-capacity"]

#: Experiments the demo runs in their quick variant even without ``--quick``: their full runs
#: take many minutes (obp-capacity's full sweep reaches 2.488 Gbit/s for 100 s, four protocols).
DEMO_QUICK: set[str] = {"obp-capacity"}

STATUS_DOC = "docs/experiments.md"
#: ``ccsim reproduce`` exit statuses of an experiment that ran.
_REPRODUCED, _NOT_REPRODUCED = 0, 3


@dataclass
class Verdict:
    """One experiment's outcome as the demo's last table shows it."""

    name: str
    reproduced: bool
    passed: int
    checks: int
    seconds: float

    @property
    def verdict(self) -> str:
        return "reproduced" if self.reproduced else "NOT reproduced"


def verdict_table(rows: list[Verdict]) -> str:
    """The closing table: each experiment, its verdict and how many checks fell in their band."""
    width = max([len("experiment"), *(len(r.name) for r in rows)])
    lines = [f"| {'experiment':<{width}} | verdict        | checks in band | time    |",
             f"|{'-' * (width + 2)}|----------------|----------------|---------|"]
    for r in rows:
        lines.append(f"| {r.name:<{width}} | {r.verdict:<14} | {f'{r.passed}/{r.checks}':>14} | "
                     f"{r.seconds:5.1f} s |")
    return "\n".join(lines) + "\n"


def summary(rows: list[Verdict]) -> str:
    """The verdict table and the line that says where the full status is."""
    done = sum(r.reproduced for r in rows)
    return (f"\n{verdict_table(rows)}\n{done} of {len(rows)} reproduced. The reproduction status of every "
            f"experiment, with the measured cause of each band that fails: {STATUS_DOC}\n")


def run_one(name: str, out: Path, *, quick: bool, jobs: int | None) -> tuple[int, Verdict | None]:
    """Run ``ccsim reproduce name``; its exit status, and its verdict if it ran."""
    from ..cli import main as ccsim

    argv = ["reproduce", name, "-o", str(out), *(["--quick"] if quick else []), *(["-j", str(jobs)] if jobs else [])]
    start = time.perf_counter()
    status = ccsim(argv)
    if status not in (_REPRODUCED, _NOT_REPRODUCED):
        return status, None
    table = json.loads((out / name / "table.json").read_text())
    passed = sum(bool(row["passed"]) for row in table)
    return status, Verdict(name, status == _REPRODUCED, passed, len(table), time.perf_counter() - start)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ccsim.experiments.demo",
                                description="reproduce experiments and end with a table of their verdicts")
    p.add_argument("names", nargs="*", default=DEMO, help=f"experiments (default: {' '.join(DEMO)})")
    p.add_argument("-o", "--output", default="out", help="output folder (default: out)")
    p.add_argument("--quick", action="store_true", help="the reduced variants")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel runs (default: all cores)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    rows: list[Verdict] = []
    for name in args.names:
        forced_quick = name in DEMO_QUICK and not args.quick
        status, verdict = run_one(name, Path(args.output), quick=args.quick or forced_quick, jobs=args.jobs)
        if verdict is None:
            break
        if forced_quick:
            verdict.name += " (quick)"
        rows.append(verdict)
    else:
        status = 0
    if rows:
        print(summary(rows), end="")
    return status


if __name__ == "__main__":
    sys.exit(main())
