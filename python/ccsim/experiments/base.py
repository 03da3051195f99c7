"""What every experiment shares: checks, the report table and parallel runs."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class Check:
    """One measured value against what counts as reproduced: ``low <= measured <= high``
    (``low < measured`` when ``open_low``), in ``unit``.

    ``unit`` is what ``measured``, ``low`` and ``high`` are counted in ("Mbit/s", "kB/s", "s",
    "packets", "%", "ratio" for a dimensionless quotient). Every check names it, so a table row
    never leaves its reader to guess. A one-sided band has an infinite other end and prints as
    ``> 0`` or ``>= 1``, a point band as ``= 0``.
    """

    name: str
    measured: float
    expected: str
    low: float
    high: float
    source: str = ""
    unit: str = field(default="", kw_only=True)
    open_low: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        self.measured = float(self.measured)
        self.low, self.high = float(self.low), float(self.high)
        if not self.unit.strip():
            raise ValueError(f"check {self.name!r} needs a unit (e.g. \"Mbit/s\", \"packets\", \"ratio\")")
        if math.isnan(self.low) or math.isnan(self.high) or self.low > self.high:
            raise ValueError(f"check {self.name!r}: the band [{self.low}, {self.high}] is empty")

    @property
    def passed(self) -> bool:
        if math.isnan(self.measured):
            return False
        above = self.low < self.measured if self.open_low else self.low <= self.measured
        return above and self.measured <= self.high

    @property
    def band(self) -> str:
        """The band as a reader writes it: ``[1.6, 2.4]``, ``> 0``, ``>= 1``, ``<= 0.5``, ``= 0``."""
        lo, hi = self.low, self.high
        if lo == hi:
            return f"= {lo:g}"
        if math.isinf(hi) and math.isinf(lo):
            return "any"
        if math.isinf(hi):
            return f"{'>' if self.open_low else '>='} {lo:g}"
        if math.isinf(lo):
            return f"<= {hi:g}"
        return f"{'(' if self.open_low else '['}{lo:g}, {hi:g}]"

    def describe(self) -> str:
        """One line: the name, the measured value with its unit and the band."""
        return f"{self.name}: {self.measured:.4g} {self.unit}, band {self.band}"


def _finite(x: float) -> float | None:
    return None if math.isinf(x) else x


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
        rows = ["| check | measured | unit | expected | band | source | ok |", "|---|---|---|---|---|---|---|"]
        for c in self.checks:
            rows.append(f"| {c.name} | {c.measured:.4g} | {c.unit} | {c.expected} | {c.band} | {c.source} | "
                        f"{'yes' if c.passed else 'NO'} |")
        return "\n".join(rows) + "\n"

    def write(self, out_dir: Path) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "table.md").write_text(f"# {self.name}\n\n" + self.table_markdown())
        # An open end of a band is null in JSON (which has no infinity); ``band`` spells it out.
        data = [dict(asdict(c), low=_finite(c.low), high=_finite(c.high), band=c.band, passed=c.passed)
                for c in self.checks]
        (out_dir / "table.json").write_text(json.dumps(data, indent=2) + "\n")


class Experiment:
    """A named, parameterised recipe. Subclasses set the class attributes and ``run``."""

    name: str = ""
    title: str = ""
    source: str = ""

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        raise NotImplementedError
