"""What every experiment shares: checks, the report table, parallel runs and the TCP
retransmission timer its runs use."""

from __future__ import annotations

import contextvars
import copy
import functools
import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SpecError
from ..results import Result


#: The range a quantity counted in each unit can take: a check's confidence interval is clipped
#: to it (a drop rate cannot be below 0 %, however wide the seeds' spread). "ratio" and
#: "percentage points" may be differences, which can take any sign: a check of such a unit
#: gives its own range (``physical``) when it has one (a utilisation, Jain's index).
PHYSICAL_RANGE: dict[str, tuple[float, float]] = {
    "%": (0.0, 100.0),
    "% of buffer": (0.0, 100.0),
    "index": (0.0, 1.0),
    **{unit: (0.0, math.inf) for unit in ("packets", "segments", "entries", "nodes", "timeouts", "s",
                                          "Mbit/s", "kbit/s", "kB/s", "fraction of capacity",
                                          "fraction of a third")},
}
#: A utilisation or Jain's index, counted as a "ratio".
FRACTION = (0.0, 1.0)


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
    #: The value of each seed replica when there are several (``measured`` is then their mean).
    samples: list[float] = field(default_factory=list, kw_only=True)
    #: The range the quantity can physically take, when its unit does not say it
    #: (:data:`PHYSICAL_RANGE`).
    physical: tuple[float, float] | None = field(default=None, kw_only=True)
    #: True for a check some replicas cannot measure (``measured`` NaN: e.g. too short an
    #: overlap of two sessions): it is judged over the replicas that measured it, and left out
    #: when fewer than two did (:func:`combine`).
    optional: bool = field(default=False, kw_only=True)
    #: False for a value reported without a band (the paper gives a number that no faithful
    #: set-up can be expected to meet, e.g. one random draw of a topology generator): its verdict
    #: is :data:`NO_BAND`, and it counts neither for nor against the experiment.
    banded: bool = field(default=True, kw_only=True)

    def __post_init__(self) -> None:
        self.measured = float(self.measured)
        self.low, self.high = float(self.low), float(self.high)
        if not self.unit.strip():
            raise SpecError(f"check {self.name!r} needs a unit (e.g. \"Mbit/s\", \"packets\", \"ratio\")", "unit")
        if math.isnan(self.low) or math.isnan(self.high) or self.low > self.high:
            raise SpecError(f"check {self.name!r}: the band [{self.low}, {self.high}] is empty", "low")
        if self.physical is not None:
            self.physical = (float(self.physical[0]), float(self.physical[1]))
        if not self.banded:
            self.low, self.high = -math.inf, math.inf

    @property
    def physical_range(self) -> tuple[float, float]:
        """The range the quantity can take: ``physical``, else its unit's, else unbounded."""
        return self.physical or PHYSICAL_RANGE.get(self.unit, (-math.inf, math.inf))

    @property
    def passed(self) -> bool:
        """Whether the measured value (the mean over the seeds) lies in the band."""
        return not math.isnan(self.measured) and self.contains(self.measured)

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the band."""
        above = self.low < x if self.open_low else self.low <= x
        return above and x <= self.high

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95 % confidence interval of the mean over the seed replicas (Student's t),
        clipped to the quantity's physical range, or None with fewer than two."""
        samples = self.samples
        if len(samples) < 2 or any(math.isnan(x) for x in samples):
            return None
        if min(samples) == max(samples):  # equal values (infinite ones too): a point
            return samples[0], samples[0]
        if any(math.isinf(x) for x in samples):
            return None
        n = len(samples)
        mean = math.fsum(samples) / n
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in samples) / (n - 1))
        half = student_t_975(n - 1) * sd / math.sqrt(n)
        floor, ceiling = self.physical_range
        return max(mean - half, floor), min(mean + half, ceiling)

    @property
    def verdict(self) -> str:
        """"reproduced" when the value (with several seeds: its whole confidence interval) lies
        in the band, "not reproduced" when it (the whole interval) lies outside, else
        "inconclusive": the interval straddles an edge of the band; :data:`NO_BAND` for a value
        reported without a band."""
        if not self.banded:
            return NO_BAND
        if math.isnan(self.measured) or any(math.isnan(x) for x in self.samples):
            return "not reproduced"
        if len(self.samples) > 1 and min(self.samples) != max(self.samples) and \
                any(math.isinf(x) for x in self.samples):
            return "not reproduced"  # some seeds gave no finite value: no interval can be drawn
        ci = self.interval
        if ci is None or ci[0] == ci[1]:
            return "reproduced" if self.passed else "not reproduced"
        lo, hi = ci
        if self.contains(lo) and self.contains(hi):
            return "reproduced"
        below = hi < self.low or (self.open_low and hi <= self.low)
        if below or lo > self.high:
            return "not reproduced"
        return "inconclusive"

    @property
    def band(self) -> str:
        """The band as a reader writes it: ``[1.6, 2.4]``, ``> 0``, ``>= 1``, ``<= 0.5``, ``= 0``."""
        lo, hi = self.low, self.high
        if not self.banded:
            return "none"
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


#: Student's t at 97.5 % (two-sided 95 %) for 1 to 30 degrees of freedom, from the standard
#: table (e.g. NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2).
_T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
          2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
          2.045, 2.042)
#: Beyond 30: the table's rows for 40, 60, 120 and infinity (the normal's 1.960).
_T_975_TAIL = ((40, 2.021), (60, 2.000), (120, 1.980))


def student_t_975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (the half-width of a 95 %
    interval is this times the standard error); beyond 30, the next row of the table at or
    below ``df`` (a slightly wider interval)."""
    if df < 1:
        raise SpecError("a confidence interval needs at least two samples", "df")
    if df <= len(_T_975):
        return _T_975[df - 1]
    value = _T_975[-1]
    for row, t in _T_975_TAIL:
        if df >= row:
            value = t
    return 1.960 if df > 1000 else value


def combine(runs: list[list[Check]]) -> list[Check]:
    """The checks of several seed replicas of one experiment as one list: each check with its
    mean as ``measured`` and every replica's value in ``samples``, named as the first replica
    names it.

    CHOICE: replicas that made the same number of checks are matched by position (a check's name
    may hold a measured count, "(2 drops, 10-20 s)", which differs between seeds); otherwise by
    name, and a replica that lacks a check gives NaN, which makes its verdict "not reproduced".
    An optional check (:attr:`Check.optional`) keeps only the replicas that measured it, and is
    left out when fewer than two did.
    """
    if len(runs) == 1:
        return [c for c in runs[0] if not (c.optional and math.isnan(c.measured))]
    out: list[Check] = []
    by_position = all(len(run) == len(runs[0]) for run in runs)
    by_name = [{c.name: c for c in run} for run in runs]
    for i, first in enumerate(runs[0]):
        if by_position:
            samples = [run[i].measured for run in runs]
        else:
            samples = [r[first.name].measured if first.name in r else math.nan for r in by_name]
        if first.optional:
            samples = [x for x in samples if not math.isnan(x)]
            if len(samples) < 2:  # one trajectory decides nothing: not judged
                continue
        if any(math.isnan(x) for x in samples):
            mean = math.nan
        elif min(samples) == max(samples):
            mean = samples[0]
        else:
            mean = math.fsum(samples) / len(samples)
        out.append(Check(first.name, mean, first.expected, first.low, first.high, first.source, unit=first.unit,
                         open_low=first.open_low, samples=samples, physical=first.physical, banded=first.banded,
                         optional=first.optional))
    return out


def _ok(c: Check) -> str:
    """A one-seed table's last column: "yes", "NO", or "no band" for a value reported without one."""
    if not c.banded:
        return "no band"
    return "yes" if c.passed else "NO"


def _finite(x: float) -> float | None:
    return None if math.isinf(x) else x


#: The verdict of a study of ours (no claim of a paper to reproduce).
STUDY = "study (no verdict)"
#: The verdict of a check reported without a band (:attr:`Check.banded`).
NO_BAND = "measured (no band)"
#: How a study's table and report word its checks' verdicts: a study reproduces nothing, its
#: checks say where a value lies against our own band.
STUDY_WORDS = {"reproduced": "in band", "not reproduced": "outside the band", "inconclusive": "straddles the band"}


@dataclass(frozen=True)
class Reading:
    """Another reading of a set-up the paper leaves open (issue 25, section 4): run beside the
    experiment's registered reading and judged on the same checks, with its own verdict. The
    registered reading stays the experiment's verdict."""

    #: Short and stable: the folder name (``readings/LABEL``) and the tests' key.
    label: str
    #: What it changes, in a few words ("simultaneous start").
    name: str
    #: What it changes and the paper's words, or the audit's finding, that admit it.
    detail: str
    #: Whether it builds identical flows on identical paths started at the same instant, which
    #: a deterministic simulator keeps in lockstep whatever the protocol: such a reading is a
    #: test only under the experiment's start-time jitter (:class:`StartJitter`); without it its
    #: verdict is :data:`SYMMETRIC`.
    symmetric: bool = False
    #: Keys the reading sets on every flow of a protocol, by protocol ({"cbraa": {"cbraa":
    #: {"beta": 0.25}}}): a reading that changes a constant or a default of the flows the paper
    #: leaves open, applied by :func:`run_many` to every spec the experiment runs.
    flow_keys: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Keys the reading sets in ``[run]`` of every spec with a flow or a generator of a protocol,
    #: by protocol ({"obp": {"obp_period": "30ms"}}): the other specs (the baselines') are left
    #: as registered.
    run_keys: dict[str, dict[str, Any]] = field(default_factory=dict)


#: The verdict a symmetric reading (:attr:`Reading.symmetric`) gets where no jitter breaks the
#: lockstep: whatever its checks say, they show the symmetry, not the protocol.
SYMMETRIC = "symmetric: not a test"


@dataclass(frozen=True)
class StartJitter:
    """Replicas of a deterministic but chaotic experiment (issue 41): in each seed replica every
    flow, TICP session and TCP-M session starts later than the set-up says by an amount drawn
    uniformly from [0, ``width_s``), independently for each, so that a verdict rests on several
    trajectories instead of one. Traffic generators are not shifted (their arrivals are random
    already).

    CHOICE: the shift is drawn from SHA-256 of the replica's seed and the flow's or session's
    name, whole nanoseconds: the same replica always gets the same shifts, and adding a flow
    moves no other flow's shift. Every replica is shifted, the first too: the registered start
    is one draw among many, not a privileged trajectory.
    """

    #: The largest shift, in seconds: one round-trip time of the set-up (``why`` says whose).
    width_s: float
    #: Why this width: the round-trip time it is, and that the paper gives no start times.
    why: str

    def describe(self) -> str:
        return f"start times jittered, each uniform in [0, {self.width_s * 1e3:g} ms) ({self.why})"


def _duration_ns(text: str, where: str) -> int:
    """Nanoseconds of a validated spec's duration ("123457ns", "100ms", "1s") at ``where``."""
    for unit, scale in (("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000)):
        if text.endswith(unit) and text[:-len(unit)].replace(".", "", 1).isdigit():
            return round(float(text[:-len(unit)]) * scale)
    raise SpecError(f"{text!r} is not a duration", where)


def jittered(spec: dict[str, Any], jitter: StartJitter) -> dict[str, Any]:
    """``spec`` (validated and canonical, as ``ccsim.spec.validate`` returns it) with every flow's,
    TICP session's and TCP-M session's start shifted by its draw of ``jitter`` (a copy)."""
    import hashlib

    from ..sweep import replica_seed

    out = copy.deepcopy(spec)
    seed = replica_seed(int(out["run"]["seed"]))
    width_ns = round(jitter.width_s * 1e9)
    for section in ("flows", "ticp", "tcpm"):
        for i, entry in enumerate(out.get(section, [])):
            digest = hashlib.sha256(f"ccsim start jitter {seed} {section} {entry['name']}".encode()).digest()
            shift = int.from_bytes(digest[:8], "little") * width_ns >> 64
            start = _duration_ns(str(entry.get("start", "0s")), f"{section}[{i}].start")
            entry["start"] = f"{start + shift}ns"
    return out


#: What keeps a claim from reproducing (issue 41, "the class of every miss"): each class as the
#: report prints it.
MISS_CLASSES = {
    "honest negative": "the paper's algorithm as written does not give the claim",
    "open reading": "an open choice of the set-up decides the verdict",
    "band": "the band asks for more, or other, than the paper's sentence",
    "too few replicas": "the runs cannot tell the band's side",
    "ccsim deviation": "ccsim departs from the paper or its simulator",
}


@dataclass(frozen=True)
class Miss:
    """Why an experiment's claim does not reproduce: its class (:data:`MISS_CLASSES`), one sentence
    of cause and the test (``tests/FILE.py::NAME``) that demonstrates the cause."""

    kind: str
    cause: str
    test: str

    def __post_init__(self) -> None:
        if self.kind not in MISS_CLASSES:
            raise SpecError(f"miss class {self.kind!r} is not one of {sorted(MISS_CLASSES)}", "kind")


@dataclass
class ExperimentReport:
    """The outcome of one experiment."""

    name: str
    checks: list[Check] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    #: A study of ours, not a claim of the paper: its checks are measured against our own
    #: bands, but it has no verdict and is not counted in the reproduction totals.
    study: bool = False
    #: The other readings' reports, by label (:class:`Reading`), in the experiment's order.
    readings: dict[str, ExperimentReport] = field(default_factory=dict)
    #: The same checks with the runs that translate run by ns-2.35 (``--oracle ns2``), one per
    #: check in order; None when no pass through ns-2.35 was made or it gave no checks.
    ns2: list[Check] | None = None

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks if c.banded)

    @property
    def verdict(self) -> str:
        """"reproduced" when every check is, "not reproduced" when one is not, else "inconclusive";
        :data:`STUDY` for a study of ours."""
        if self.study:
            return STUDY
        verdicts = {c.verdict for c in self.checks if c.banded}
        if not verdicts or "not reproduced" in verdicts:  # no check: nothing was shown
            return "not reproduced"
        return "inconclusive" if "inconclusive" in verdicts else "reproduced"

    def ns2_same(self, i: int) -> bool:
        """Whether check ``i`` with ns-2.35's runs is ccsim's to the bit: it reads no
        translated run, or ns-2.35 gave the same."""
        assert self.ns2 is not None
        theirs, ours = self.ns2[i], self.checks[i]
        return theirs.samples == ours.samples and theirs.measured == ours.measured

    def ns2_cells(self, i: int) -> str:
        """The ns-2.35 columns of check ``i``: its value with the translated runs from ns-2.35
        ("=" when :meth:`ns2_same`) and its verdict then."""
        if self.ns2 is None:
            return ""
        theirs = self.ns2[i]
        return f" {'=' if self.ns2_same(i) else f'{theirs.measured:.4g}'} | {theirs.verdict} |"

    def table_markdown(self) -> str:
        seeds = max((len(c.samples) for c in self.checks), default=0)
        extra = " ns-2.35 | ns-2.35 verdict |" if self.ns2 is not None else ""
        rule = "---|---|" if self.ns2 is not None else ""
        if seeds < 2:
            rows = [f"| check | measured | unit | expected | band | source | ok |{extra}",
                    f"|---|---|---|---|---|---|---|{rule}"]
            for i, c in enumerate(self.checks):
                rows.append(f"| {c.name} | {c.measured:.4g} | {c.unit} | {c.expected} | {c.band} | {c.source} | "
                            f"{_ok(c)} |{self.ns2_cells(i)}")
            return "\n".join(rows) + "\n"
        rows = [f"| check | mean of {seeds} seeds | 95 % interval | unit | expected | band | source | verdict |{extra}",
                f"|---|---|---|---|---|---|---|---|{rule}"]
        for i, c in enumerate(self.checks):
            ci = c.interval
            shown = "n/a" if ci is None else f"[{ci[0]:.4g}, {ci[1]:.4g}]"
            verdict = STUDY_WORDS.get(c.verdict, c.verdict) if self.study else c.verdict
            rows.append(f"| {c.name} | {c.measured:.4g} | {shown} | {c.unit} | {c.expected} | {c.band} | {c.source} | "
                        f"{verdict} |{self.ns2_cells(i)}")
        return "\n".join(rows) + "\n"

    def write(self, out_dir: Path) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "table.md").write_text(f"# {self.name}\n\n" + self.table_markdown())
        # An open end of a band is null in JSON (which has no infinity); ``band`` spells it out.
        data = []
        for i, c in enumerate(self.checks):
            ci = c.interval
            row = dict(asdict(c), low=_finite(c.low), high=_finite(c.high),
                       physical=[_finite(x) for x in c.physical_range],
                       band=c.band, passed=c.passed, samples=c.samples or [c.measured],
                       mean=c.measured, ci_low=None if ci is None else ci[0],
                       ci_high=None if ci is None else ci[1], verdict=c.verdict)
            if self.ns2 is not None:
                n = self.ns2[i]
                nci = n.interval
                row["ns2"] = {"mean": n.measured, "samples": n.samples or [n.measured],
                              "ci_low": None if nci is None else nci[0], "ci_high": None if nci is None else nci[1],
                              "verdict": n.verdict, "same": self.ns2_same(i)}
            data.append(row)
        (out_dir / "table.json").write_text(json.dumps(data, indent=2) + "\n")


#: The TCP retransmission timers experiments run with, as flow keys (docs/experiments.md,
#: "Retransmission timers"; the arithmetic of each in docs/protocols.md).
TIMERS: dict[str, dict[str, str]] = {
    # ccsim's own timer until issue 25: RFC 6298's recurrences in nanoseconds, G = 1 ns and a
    # 200 ms floor, so that at a steady RTT the timer sits 1 ns above SRTT.
    "ccsim-0": {"rto": "rfc6298", "clock_granularity": "1ns", "min_rto": "200ms"},
    # ns-2.35's TcpAgent defaults: 10 ms ticks, minrto 200 ms, rtxcur_init 3 s.
    "ns-2.35": {"rto": "ns2"},
    # The 1998 ns-2 of the TCP-M paper: 100 ms ticks, a 6 s first timeout, no minrto. ns-2 kept
    # these defaults until 2002 (tcpTick_), 2004 (minrto_) and 2006 (rtxcur_init_).
    "ns-2 (1998)": {"rto": "ns2", "tick": "100ms", "initial_rto": "6s", "min_rto": "0s"},
    # 4.3BSD's timer, which REAL's TCP took over: tcp_xmit_timer's srtt x8 and rttvar x4 in
    # whole 500 ms slow-timer ticks (ns-2's tcp.cc keeps the same arithmetic), a floor of
    # TCPTV_MIN = 1 s and a first timeout of 6 s (srtt 0, rttvar from TCPTV_SRTTDFLT = 3 s).
    "BSD (REAL)": {"rto": "ns2", "tick": "500ms", "initial_rto": "6s", "min_rto": "1s"},
    # Linux, ccsim's default for flows that name none.
    "linux": {"rto": "linux"},
}

#: What an ns-2 profile's agents do besides their timer, per protocol, as flow keys: ns-2.35's
#: `Agent/TCP`, `Reno` and `Newreno` recover by `bug_fix_` (`recovery = "ns2"`), and since
#: 2001/11/28 every TCP agent but Vegas sends on the first two duplicate ACKs (`singledup_ 1`,
#: `limited_transmit`); validated against ns-2.35 itself (docs/validation.md, "ns-2.35 as a
#: second oracle"). Keys a flow sets itself stay. The 1998 ns predates `singledup_`.
NS2_AGENTS: dict[str, dict[str, dict[str, Any]]] = {
    "ns-2.35": {
        **{p: {"recovery": "ns2", "limited_transmit": True} for p in ("tahoe", "reno", "newreno")},
        "sack": {"limited_transmit": True},
    },
    "ns-2 (1998)": {p: {"recovery": "ns2"} for p in ("tahoe", "reno", "newreno")},
}

_reading: contextvars.ContextVar[str] = contextvars.ContextVar("ccsim_experiment_reading", default="")

#: ns-2's receiver window, `Agent/TCP set window_ 20` by default (ns-default.tcl): a reading of
#: an ns-2 paper whose TCP baselines do not say they raised it (issue 41). The TCP-M experiments
#: take it as registered; the other ns-2 papers' experiments run unbounded and offer it.
NS2_WINDOW = 20


def ns2_window_reading(protocols: tuple[str, ...], why: str) -> Reading:
    """The reading that caps the TCP baselines' window at ns-2's default ``window_ 20``."""
    return Reading("window-20", "ns-2's default window_ 20 on the TCPs",
                   f"Every {', '.join(protocols)} flow's window is capped at ns-2's default receiver window, "
                   f"`window_ 20` (max_window = 20), as an ns-2 script that does not raise it runs: {why}",
                   flow_keys={p: {"max_window": NS2_WINDOW} for p in protocols})


def reading() -> str:
    """The label of the :class:`Reading` being run, "" for the experiment's registered one."""
    return _reading.get()


@contextmanager
def as_reading(label: str, flow_keys: dict[str, dict[str, Any]] | None = None,
               run_keys: dict[str, dict[str, Any]] | None = None) -> Iterator[None]:
    """Within the block, :func:`reading` answers ``label``: the set-up as that reading builds
    it ("" for the registered one), and :func:`run_many` sets the reading's flow and run keys."""
    token = _reading.set(label)
    keys_token = _reading_keys.set((flow_keys or {}, run_keys or {}))
    try:
        yield
    finally:
        _reading_keys.reset(keys_token)
        _reading.reset(token)


_TCP_PROTOCOLS = frozenset({"tahoe", "reno", "newreno", "sack", "vegas", "cubic", "xcp"})
#: The TIMERS profile and the NS2_AGENTS profile ("" for none) the running experiment's flows take.
_timer: contextvars.ContextVar[tuple[str, str]] = contextvars.ContextVar("ccsim_experiment_timer",
                                                                         default=("linux", ""))


#: The flow keys of the reading being run (:attr:`Reading.flow_keys`).
_reading_keys: contextvars.ContextVar[tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]] = \
    contextvars.ContextVar("ccsim_experiment_reading_keys", default=({}, {}))


def with_reading_keys(spec: dict[str, Any], keys: dict[str, dict[str, Any]],
                      run_keys: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """``spec`` with ``keys[protocol]`` set on every flow of that protocol (a copy); a table of
    keys (``cbraa = {beta = 0.25}``) is merged into the flow's own. ``run_keys[protocol]`` go into
    ``[run]`` when a flow or a generator runs that protocol."""
    out = copy.deepcopy(spec)
    present = {f.get("protocol", "") for f in out.get("flows", [])} | \
              {g.get("protocol", "") for g in out.get("traffic", [])}
    for protocol, values in (run_keys or {}).items():
        if protocol in present:
            out.setdefault("run", {}).update(copy.deepcopy(values))
    for flow in out.get("flows", []):
        for key, value in copy.deepcopy(keys.get(flow.get("protocol", ""), {})).items():
            if isinstance(value, dict) and isinstance(flow.get(key), dict):
                flow[key].update(value)
            else:
                flow[key] = value
    return out


#: The start-time jitter of the running experiment (:attr:`Experiment.jitter`).
_jitter: contextvars.ContextVar[StartJitter | None] = contextvars.ContextVar("ccsim_experiment_jitter",
                                                                            default=None)


def with_timer(spec: dict[str, Any], keys: dict[str, str],
               agents: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """``spec`` with the timer ``keys`` on every TCP flow, web generator and TCP-M session that
    does not set ``rto`` itself, and on those TCP flows and generators the ``agents`` keys of
    their protocol that they do not set (a copy; the spec given is not changed)."""
    out = copy.deepcopy(spec)
    agents = agents or {}
    for flow in out.get("flows", []):
        if flow.get("protocol") in _TCP_PROTOCOLS and "rto" not in flow:
            flow.update(keys)
            for k, v in agents.get(flow["protocol"], {}).items():
                flow.setdefault(k, v)
    for gen in out.get("traffic", []):
        if gen.get("kind") == "web" and gen.get("protocol", "newreno") in _TCP_PROTOCOLS:
            options = gen.setdefault("options", {})
            if "rto" not in options:
                options.update(keys)
                for k, v in agents.get(gen.get("protocol", "newreno"), {}).items():
                    options.setdefault(k, v)
    for session in out.get("tcpm", []):
        options = session.setdefault("options", {})
        if "rto" not in options:
            options.update(keys)
    return out


@contextmanager
def timer_of(experiment: Experiment) -> Iterator[None]:
    """Within the block, :func:`run_many` gives TCP flows ``experiment``'s timer (or the one
    of the reading being run, :meth:`Experiment.timer_for`) and, for a paper simulated in ns-2,
    ns-2's agents (:data:`NS2_AGENTS`): for runs of an experiment's set-up made outside its
    ``run`` (tests that look into a result)."""
    # The agents are the paper's simulator's (its registered timer's profile); a reading
    # changes the timer only (cbraa's "ns2-timer" keeps REAL's agents).
    agents = experiment.timer if experiment.timer in NS2_AGENTS else ""
    token = _timer.set((experiment.timer_for(_reading.get()), agents))
    try:
        yield
    finally:
        _timer.reset(token)


@contextmanager
def jitter_of(experiment: Experiment) -> Iterator[None]:
    """Within the block, :func:`run_many` shifts the starts by ``experiment``'s jitter
    (:class:`StartJitter`), drawn for the seed replica being run: an experiment's ``run`` is
    inside it; a test that runs a set-up through :func:`timer_of` alone gets the registered
    starts."""
    token = _jitter.set(experiment.jitter)
    try:
        yield
    finally:
        _jitter.reset(token)


@dataclass
class OraclePass:
    """An experiment's pass through ns-2.35 (``ccsim reproduce --oracle ns2``): inside
    :func:`through_ns2`, :func:`run_many` runs every spec that translates
    (:mod:`ccsim.ns2.translate`) in ns-2.35 and the others in ccsim, and counts both here."""

    #: Runs handed to ns-2.35, and all runs.
    translated: int = 0
    total: int = 0
    #: Why the others were not translated: the refusal's key (indices dropped) and reason, counted.
    refused: dict[str, int] = field(default_factory=dict)
    #: ns-2.35's wall time, summed over its runs.
    ns2_seconds: float = 0.0
    #: The scripts ns-2.35 ran, in order.
    scripts: list[str] = field(default_factory=list)


_oracle: contextvars.ContextVar[OraclePass | None] = contextvars.ContextVar("ccsim_experiment_oracle",
                                                                           default=None)


@contextmanager
def through_ns2(record: OraclePass) -> Iterator[OraclePass]:
    """Within the block, :func:`run_many` runs what translates in ns-2.35 (:class:`OraclePass`)
    and an experiment's ``run`` skips its other readings."""
    token = _oracle.set(record)
    try:
        yield record
    finally:
        _oracle.reset(token)


def _run_through_ns2(record: OraclePass, timed: list[dict[str, Any]], jobs: int | None,
                     **kwargs: Any) -> list[Result]:
    import hashlib
    import os
    import re
    from concurrent.futures import ThreadPoolExecutor

    from ..ns2.oracle import run_ns2
    from ..ns2.result import Ns2Result
    from ..ns2.translate import Untranslatable, generated_flows, translate
    from ..sweep import _checked, replica_seed
    from ..sweep import run_many as run_specs

    canonical = _checked(timed)
    for spec in canonical:  # the seed of the replica being run, as ccsim's runs take it
        spec["run"]["seed"] = replica_seed(spec["run"]["seed"])
    results: list[Result | None] = [None] * len(canonical)
    # ns-2.35 replays the flows ccsim's generators started: their runs come first (from the
    # cache, after the experiment's own pass).
    replay = [i for i, spec in enumerate(canonical) if spec.get("traffic")]
    if replay:
        for i, res in zip(replay, run_specs([timed[i] for i in replay], jobs=jobs, **kwargs)):
            results[i] = res
    translations: dict[int, Any] = {}
    for i, spec in enumerate(canonical):
        try:
            ccsim_run = results[i]
            translations[i] = translate(spec, generated=generated_flows(ccsim_run) if ccsim_run is not None else None)
        except Untranslatable as e:
            key, _, why = str(e).partition(": ")
            reason = re.sub(r"\[[0-9]+\]", "[]", key) + ": " + why
            record.refused[reason] = record.refused.get(reason, 0) + 1
    record.total += len(canonical)
    record.translated += len(translations)
    record.scripts.extend(translations[i].tcl for i in sorted(translations))
    others = [i for i in range(len(canonical)) if i not in translations and results[i] is None]
    if others:
        for i, res in zip(others, run_specs([timed[i] for i in others], jobs=jobs, **kwargs)):
            results[i] = res

    def ns2(i: int) -> tuple[int, Result]:
        spec = canonical[i]
        measures, wall = run_ns2(translations[i].tcl)
        digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
        return i, Ns2Result(spec, digest, translations[i], measures, wall)

    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for i, res in pool.map(ns2, sorted(translations)):
            results[i] = res
            record.ns2_seconds += float(res.overview["run"]["wall_seconds"])
    return [r for r in results if r is not None]


def run_many(specs: Sequence[Any], jobs: int | None = None, **kwargs: Any) -> list[Result]:
    """:func:`ccsim.run_many` with the running experiment's retransmission timer on every TCP
    flow (its ``timer``; see :data:`TIMERS`); inside :func:`through_ns2`, what translates runs
    in ns-2.35."""
    from ..spec import Scenario
    from ..sweep import _checked
    from ..sweep import run_many as run_specs

    profile, agents = _timer.get()
    timed = [with_timer(s.to_dict() if isinstance(s, Scenario) else s, TIMERS[profile], NS2_AGENTS.get(agents))
             for s in specs]
    flow_keys, run_keys = _reading_keys.get()
    if flow_keys or run_keys:
        timed = [with_reading_keys(s, flow_keys, run_keys) for s in timed]
    jitter = _jitter.get()
    if jitter is not None:
        # Validated first (an error names specs[i]), so that every start is a canonical duration.
        timed = [jittered(s, jitter) for s in _checked(timed)]
    record = _oracle.get()
    if record is not None:
        return _run_through_ns2(record, timed, jobs, **kwargs)
    return run_specs(timed, jobs=jobs, **kwargs)


class Experiment:
    """A named, parameterised recipe. Subclasses set the class attributes and ``run``; their
    runs go through :func:`run_many`, which gives their TCP flows the experiment's ``timer``."""

    name: str = ""
    #: The set-up the full experiment runs, in a line (the report's heading and summary row).
    title: str = ""
    #: The same line for the quick variant, where it runs another set-up than ``title`` states
    #: (other rates, delays, counts): written beside the quick parameters it names, from them.
    #: Empty when the quick variant runs what ``title`` says (only shorter, or the same).
    quick_title: str = ""
    source: str = ""
    #: What makes the results depend on the seed ("web traffic", "random start times", ...); ""
    #: for an experiment whose results no seed changes (it then runs once).
    randomness: str = ""
    #: Seed replicas of a full run, and of a quick run, when ``randomness`` is set.
    seeds: int = 5
    quick_seeds: int = 3
    #: The simulator the paper's numbers come from.
    simulator: str = ""
    #: A sensitivity study of ours rather than a claim of the paper: no verdict, not counted.
    study: bool = False
    #: The key of :data:`TIMERS` its TCP flows run with: the timer of ``simulator``
    #: (docs/experiments.md, "Retransmission timers"); Linux's for an experiment of ours.
    timer: str = "linux"
    #: Other readings of what the paper leaves open, each run beside the registered one and
    #: judged on its own (:class:`Reading`); the set-up asks :func:`reading` which it runs.
    readings: tuple[Reading, ...] = ()
    #: Start-time jitter over the seed replicas, for a deterministic experiment whose checks
    #: move across their band under a start shift of one round trip (:class:`StartJitter`).
    jitter: StartJitter | None = None
    #: Why its claim does not reproduce, where it does not (:class:`Miss`): the report's "why".
    miss: Miss | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        run = cls.__dict__.get("run")
        if run is None:
            return

        @functools.wraps(run)
        def timed_run(self: Experiment, out_dir: Path, *args: Any, **kw: Any) -> Any:
            if _reading.get():  # a reading's own run
                with timer_of(self), jitter_of(self):
                    return run(self, out_dir, *args, **kw)
            with timer_of(self), jitter_of(self):
                report = run(self, out_dir, *args, **kw)
            if _oracle.get() is not None:  # a pass through ns-2.35 checks the registered reading only
                return report
            for r in self.readings:
                with as_reading(r.label, r.flow_keys, r.run_keys), timer_of(self), jitter_of(self):
                    report.readings[r.label] = run(self, Path(out_dir) / "readings" / r.label, *args, **kw)
            return report

        cls.run = timed_run  # type: ignore[method-assign]

    def timer_for(self, label: str) -> str:
        """The key of :data:`TIMERS` the reading ``label`` runs with ("" for the registered
        reading): ``timer`` unless a reading changes it."""
        return self.timer

    def reading_verdict(self, label: str, verdict: str, replicas: int) -> str:
        """The verdict the reading ``label`` is reported with: :data:`SYMMETRIC` for a symmetric
        reading unless it ran over at least two replicas with jittered starts, else ``verdict``.

        CHOICE: any jitter counts as breaking the lockstep: two identical flows started any
        whole nanoseconds apart no longer see the same events (tests/test_jitter.py shows the
        Primo sources' rates differ once jittered)."""
        symmetric = any(r.label == label and r.symmetric for r in self.readings)
        if symmetric and (self.jitter is None or replicas < 2):
            return SYMMETRIC
        return verdict

    def reading_line(self, verdict: str, readings: dict[str, str]) -> str:
        """The verdict of the registered reading, and where it differs, the other readings':
        "not reproduced (reproduced under reading B: simultaneous start)"."""
        names = {r.label: r.name for r in self.readings}
        other = [f"reading {label} ({names.get(label, label)}) is {SYMMETRIC}" if v == SYMMETRIC else
                 f"{v} under reading {label}: {names.get(label, label)}" for label, v in readings.items()
                 if v != verdict]
        return f"{verdict} ({'; '.join(other)})" if other else verdict

    def title_for(self, quick: bool) -> str:
        """The title of the variant that runs: ``quick_title`` in a quick run when it is set."""
        return self.quick_title if quick and self.quick_title else self.title

    def default_seeds(self, quick: bool) -> int:
        """How many seed replicas ``reproduce`` runs unless told (``--seeds``)."""
        if not self.randomness and self.jitter is None:
            return 1
        return self.quick_seeds if quick else self.seeds

    @property
    def randomness_line(self) -> str:
        """What makes the replicas differ: ``randomness``, and the start-time jitter if any."""
        parts = [self.randomness] if self.randomness else []
        if self.jitter is not None:
            parts.append(self.jitter.describe())
        return "; ".join(parts)

    def run(self, out_dir: Path, *, quick: bool = False, jobs: int | None = None) -> ExperimentReport:
        raise NotImplementedError
