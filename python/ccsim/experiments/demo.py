"""``make demo``: the quick report. Every registered experiment's quick variant is reproduced with
``ccsim reproduce --all --quick`` (each over its seed replicas), the report is written to
``DIR/index.html``, and the last screen is one table of every experiment and its verdict.

``python -m ccsim.experiments.demo [NAME ...] [-o DIR] [--full] [-j N]``.

Exit status: 0 when every experiment ran, whatever its verdict (an experiment that does not
reproduce is a finding, documented in docs/experiments.md, not an error); 1 when one failed;
2 for bad input (an unknown name, a folder ccsim did not write); 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from .base import STUDY

STATUS_DOC = "docs/experiments.md"
@dataclass
class Verdict:
    """One experiment's outcome as the demo's last table shows it."""

    name: str
    reproduced: bool
    passed: int
    checks: int
    seconds: float

    verdict_text: str = ""
    #: The other readings' verdicts where they differ ("reproduced under reading B: ...").
    readings: str = ""

    @property
    def verdict(self) -> str:
        if self.verdict_text:
            return self.verdict_text
        return "reproduced" if self.reproduced else "NOT reproduced"


def verdict_table(rows: list[Verdict]) -> str:
    """The closing table: each experiment, its verdict and how many checks fell in their band."""
    width = max([len("experiment"), *(len(r.name) for r in rows)])
    lines = [f"| {'experiment':<{width}} | verdict            | checks in band | time    |",
             f"|{'-' * (width + 2)}|--------------------|----------------|---------|"]
    for r in rows:
        lines.append(f"| {r.name:<{width}} | {r.verdict:<18} | {f'{r.passed}/{r.checks}':>14} | "
                     f"{r.seconds:5.1f} s |")
    others = [f"- {r.name}: {r.readings}" for r in rows if r.readings]
    if others:
        lines += ["", "Other readings of open set-ups, where their verdict differs:", *others]
    return "\n".join(lines) + "\n"


def summary(rows: list[Verdict], report: Path | None = None) -> str:
    """The verdict table, where the report is, and where the full status is documented."""
    done = sum(r.reproduced for r in rows)
    claims = [r for r in rows if r.verdict != STUDY]
    studies = len(rows) - len(claims)
    also = f" (and {studies} {'study' if studies == 1 else 'studies'} of ours, without a verdict)" if studies else ""
    where = f"The report, with every figure and table: {report}\n" if report is not None else ""
    return (f"\n{verdict_table(rows)}\n{where}{done} of {len(claims)} reproduced{also}. The reproduction status of "
            f"every experiment, with the measured cause of each band that fails: {STATUS_DOC}\n")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ccsim.experiments.demo",
                                description="reproduce the experiments' quick variants, write the report and "
                                            "end with a table of their verdicts")
    p.add_argument("names", nargs="*", help="experiments (default: all)")
    p.add_argument("-o", "--output", default="out", help="output folder (default: out)")
    p.add_argument("--full", action="store_true", help="the full variants (hours) instead of the quick ones")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel runs (default: all cores)")
    return p


def main(argv: list[str] | None = None) -> int:
    from ..cache import ResultCache
    from ..errors import SpecError
    from ..reproduce import reproduce
    from . import REGISTRY

    args = build_parser().parse_args(argv)
    names = args.names or list(REGISTRY)
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        print(f"ccsim: error: reproduce: unknown experiment {unknown[0]!r} (known: {', '.join(REGISTRY)})",
              file=sys.stderr)
        return 2
    try:
        outcomes = reproduce([REGISTRY[n] for n in names], args.output, quick=not args.full, jobs=args.jobs,
                             cache=ResultCache(), echo=lambda line: print(line, flush=True))
    except SpecError as e:
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ccsim: interrupted", file=sys.stderr)
        return 130
    rows = [Verdict(o.name, o.verdict == "reproduced", o.in_band, o.checks, o.seconds,
                    verdict_text={"not reproduced": "NOT reproduced"}.get(o.verdict, o.verdict),
                    readings=o.verdict_line[len(o.verdict):].strip(" ()"))
            for o in outcomes]
    print(summary(rows, Path(args.output) / "index.html"), end="")
    return 0 if all(o.status == "ran" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
