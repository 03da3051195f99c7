"""What every experiment shares: checks, the report table and parallel runs."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path



@dataclass
class Check:
    """One measured value against what counts as reproduced: ``low <= measured <= high``."""

    name: str
    measured: float
    expected: str
    low: float
    high: float
    source: str = ""

    def __post_init__(self) -> None:
        self.measured = float(self.measured)
        self.low, self.high = float(self.low), float(self.high)

    @property
    def passed(self) -> bool:
        return not math.isnan(self.measured) and self.low <= self.measured <= self.high


@dataclass
class ExperimentReport:
    """The outcome of one experiment."""

    name: str
    checks: list[Check] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def table_markdown(self) -> str:
        rows = ["| check | measured | expected | band | source | ok |", "|---|---|---|---|---|---|"]
        for c in self.checks:
            rows.append(f"| {c.name} | {c.measured:.4g} | {c.expected} | [{c.low:g}, {c.high:g}] | {c.source} | "
                        f"{'yes' if c.passed else 'NO'} |")
        return "\n".join(rows) + "\n"

    def write(self, out_dir: Path) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "table.md").write_text(f"# {self.name}\n\n" + self.table_markdown())
        data = [dict(asdict(c), passed=c.passed) for c in self.checks]
        (out_dir / "table.json").write_text(json.dumps(data, indent=2) + "\n")


class Experiment:
    """A named, parameterised recipe. Subclasses set the class attributes and ``run``."""

    name: str = ""
    title: str = ""
    source: str = ""

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        raise NotImplementedError
