"""The report of ``ccsim reproduce --all``: one static HTML page, ``DIR/index.html``.

It reads only the output folder (layout in docs/experiments.md, "The report"):
``DIR/reproduce.json`` (the run), ``DIR/<name>/reproduce.json`` (one experiment) and
``DIR/<name>/table.json`` (its checks; absent when the experiment failed). Other files are ignored.

The page holds, in order: a summary paragraph and table (one row per experiment), one section per
experiment (its figures, its checks against the paper with the interval drawn, the explanation
from the project's docs) and the run's metadata. It loads nothing: figures are data: URIs, the
style is inline, and the one short script only counts broken images and script errors for the
browser test (tests/test_report.py).

CHOICE: figures are embedded byte for byte as the experiments wrote them (PNG or SVG), each once;
no recompression or downscaling, so the report shows exactly what the folder holds. Lossless PNG
re-encoding was measured on the project's figures and saves about 2 %.

CHOICE: the explanation of an experiment is one section of docs/experiments.md or
docs/validation.md, rendered from the markdown each time the report is written: the section whose
heading names the experiment; else the family section (by the name's prefix: ticp-, cbraa-, obp-,
...) if it names the experiment; else the deepest section whose text names it; else the family
section. Several experiments that share a section (the six OBP experiments) show it once, and
the others link to it. Raw HTML in the docs is shown as text; links to other doc pages become
plain text naming the page, since the report must stand alone.

CHOICE: an experiment's verdict is "not reproduced" if any check is not reproduced, else
"inconclusive" if any check is (its interval straddles a band edge), else "reproduced";
"failed" if it did not run, "not run" if an interrupted run never reached it.

CHOICE: a check reported without a band (its verdict "measured (no band)") counts neither for
nor against its experiment: it is left out of the verdict, the counts and the worst check.

CHOICE: the worst check of an experiment (the summary's "measured") is the first by verdict
(not reproduced, inconclusive, reproduced), then by the distance of its mean from the band, in
band widths (in units of the value itself for a one-sided band); inside the band the one nearest
an edge.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markdown

from .errors import SpecError
from .inputs import read_input_text
from .experiments.base import MISS_CLASSES, NO_BAND, STUDY, STUDY_WORDS, SYMMETRIC
from .results import atomic_write_text
from .topfiles import claim_top_file, redact

__all__ = ["write_report", "main"]

VERDICTS = ("reproduced", "not reproduced", "inconclusive", STUDY)
#: A check's verdicts: an experiment's, or a value reported without a band.
CHECK_VERDICTS = (*VERDICTS, NO_BAND)
#: A reading's verdicts: an experiment's, or a symmetric reading run without jitter.
READING_VERDICTS = (*VERDICTS, SYMMETRIC)
#: What ``--oracle ns2`` records of an experiment's pass through ns-2.35 (reproduce.ns2_pass).
ORACLE_STATUSES = ("ran", "not installed", "not an ns-2 paper", "nothing translates", "unavailable")
#: Families by name prefix, in the order the docs present them.
FAMILIES = ("dumbbell", "ticp", "sat", "cbraa", "primo", "tcpm", "xcp", "obp")
_DOC_FILES = ("experiments.md", "validation.md")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


# ---------------------------------------------------------------------------------------------
# Reading the output folder


def _read_json(path: Path) -> Any:
    if not path.exists():
        raise SpecError("missing (expected the output of `ccsim reproduce --all`)", str(path))
    try:
        text = read_input_text(path, str(path), "file")
    except SpecError as e:
        raise SpecError(e.message.replace(f"file {str(path)[:200]} ", "", 1), str(path)) from None
    except UnicodeDecodeError:
        raise SpecError("is not UTF-8 text", str(path)) from None
    except OSError as e:
        raise SpecError(f"cannot be read ({e.strerror})", str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SpecError(f"is not JSON ({e.msg} at line {e.lineno}, column {e.colno})", str(path)) from None


class _Fields:
    """A JSON object read field by field; every error names the file and the field path."""

    def __init__(self, data: Any, file: Path, where: str = "") -> None:
        self.file, self.where = file, where
        if not isinstance(data, dict):
            self.fail("", "expected an object", data)
        self.data: dict[str, Any] = data

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str, expected: str, found: Any) -> None:
        where = self.path(key) if key else (self.where or "top level")
        shown = json.dumps(found) if not isinstance(found, float) else repr(found)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        raise SpecError(f"{where}: {expected}, found {shown}", str(self.file))

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise SpecError(f"{self.path(key)}: missing", str(self.file))
        return self.data[key]

    def string(self, key: str, *, null: bool = False) -> str | None:
        v = self.get(key)
        if isinstance(v, str) or (null and v is None):
            return v
        self.fail(key, "expected a string" + (" or null" if null else ""), v)
        return None

    def text(self, key: str) -> str:
        v = self.string(key)
        assert v is not None
        return v

    def whole(self, key: str, *, null: bool = False) -> int | None:
        v = self.get(key)
        if (isinstance(v, int) and not isinstance(v, bool) and v >= 0) or (null and v is None):
            return v
        self.fail(key, "expected a whole number >= 0" + (" or null" if null else ""), v)
        return None

    def count(self, key: str) -> int:
        v = self.whole(key)
        assert v is not None
        return v

    def number(self, key: str, *, null: bool = False) -> float | None:
        return _number(self.get(key), null, lambda what, v: self.fail(key, what, v))

    def real(self, key: str) -> float:
        v = self.number(key)
        assert v is not None
        return v

    def flag(self, key: str) -> bool:
        v = self.get(key)
        if not isinstance(v, bool):
            self.fail(key, "expected true or false", v)
        return bool(v)

    def items(self, key: str) -> list[Any]:
        v = self.get(key)
        if not isinstance(v, list):
            self.fail(key, "expected a list", v)
        return list(v)

    def strings(self, key: str) -> list[str]:
        items = self.items(key)
        for i, s in enumerate(items):
            if not isinstance(s, str):
                self.fail(f"{key}[{i}]", "expected a string", s)
        return items


def _number(v: Any, null: bool, fail: Any) -> float | None:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if null and v is None:
        return None
    fail("expected a number" + (" or null" if null else ""), v)
    return None


@dataclass
class Check:
    name: str
    measured: float | None
    expected: str
    low: float | None
    high: float | None
    band: str
    source: str
    unit: str
    open_low: bool
    passed: bool
    samples: list[float | None]
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    verdict: str
    #: With ``--oracle ns2``: the check with the translated runs from ns-2.35 (``mean``,
    #: ``verdict``, ``same`` when ccsim's value to the bit), else None.
    ns2: dict[str, Any] | None = None

    @property
    def value(self) -> float | None:
        """The mean over seeds (the measured value), None when it is not a number."""
        v = self.mean if self.mean is not None else self.measured
        return None if v is None or math.isnan(v) else v


def reading_words(verdict: str, label: str, name: str) -> str:
    """A reading's verdict in a status line: "reproduced under reading B: simultaneous start",
    or for a symmetric one run without jitter "reading B (simultaneous start) is symmetric:
    not a test"."""
    if verdict == SYMMETRIC:
        return f"reading {label} ({name}) is {SYMMETRIC}"
    return f"{verdict} under reading {label}: {name}"


@dataclass
class ReadingResult:
    """Another reading of an experiment's open set-up, as ``reproduce`` judged it."""

    label: str
    name: str
    detail: str
    verdict: str
    in_band: int
    checks: int


@dataclass
class Experiment:
    name: str
    title: str = ""
    source: str = ""
    quick: bool = False
    seeds: list[int] = field(default_factory=list)
    randomness: str = ""
    wall_seconds: float = 0.0
    run_seconds: float = 0.0
    runs: int = 0
    cache_hits: int = 0
    spec_hashes: list[str] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)  # (relative path, data: URI)
    status: str = "ran"  # "ran", "failed" or "not run"
    error: str | None = None
    checks: list[Check] = field(default_factory=list)
    #: A study of ours (reproduce.json's verdict says so): no verdict, not counted.
    study: bool = False
    #: The other readings of the set-up (reproduce.json's "readings"), each with its verdict.
    readings: list[ReadingResult] = field(default_factory=list)
    #: What ``--oracle ns2`` recorded of the experiment (reproduce.json's "oracle"), else None.
    oracle: dict[str, Any] | None = None
    #: Why the claim does not reproduce (reproduce.json's "miss": class, cause, test), else None.
    miss: dict[str, str] | None = None

    @property
    def judged(self) -> list[Check]:
        """The checks with a band: a value reported without one counts neither way."""
        return [c for c in self.checks if c.verdict != NO_BAND]

    @property
    def why(self) -> str:
        """The class and cause of a miss, with the test that shows it, for a claim that is not
        reproduced or is inconclusive; "" otherwise, or "not classified" when none is recorded."""
        if self.verdict not in ("not reproduced", "inconclusive"):
            return ""
        if self.miss is None:
            return "not classified"
        return f"{self.miss['class']}: {self.miss['cause']} (`{self.miss['test']}`)"

    @property
    def readings_note(self) -> str:
        """The other readings' verdicts where they differ from the experiment's:
        "reproduced under reading B: simultaneous start"."""
        return "; ".join(reading_words(r.verdict, r.label, r.name) for r in self.readings
                         if r.verdict != self.verdict)

    @property
    def verdict(self) -> str:
        if self.status != "ran":
            return self.status
        if self.study:
            return STUDY
        verdicts = {c.verdict for c in self.judged}
        for v in ("not reproduced", "inconclusive", "reproduced"):
            if v in verdicts:
                return v
        return "no checks"


@dataclass
class Run:
    version: str
    build: str
    commit: str | None
    machine: dict[str, Any]
    started_utc: str
    wall_seconds: float
    quick: bool
    jobs: int | None
    scheduler: str | None
    cache_dir: str | None
    runs: int
    cache_hits: int
    interrupted: bool
    experiments: list[Experiment]
    #: "default" or "given" (a cache was used, its folder not recorded), None (no cache, or a
    #: file written before this field, whose ``cache_dir`` says).
    cache: str | None = None


def _read_run(out_dir: Path) -> Run:
    file = out_dir / "reproduce.json"
    f = _Fields(_read_json(file), file)
    machine = f.get("machine")
    if not isinstance(machine, dict):
        f.fail("machine", "expected an object", machine)
    for k, v in machine.items():
        if not (v is None or isinstance(v, (str, int, float))):
            f.fail(f"machine.{k}", "expected a string or a number", v)
    names = f.strings("experiments")
    seen: set[str] = set()
    for i, n in enumerate(names):
        if not _NAME.match(n):
            f.fail(f"experiments[{i}]", "expected an experiment name (letters, digits, '-', '_', '.')", n)
        if n in seen:
            f.fail(f"experiments[{i}]", "expected each experiment once", n)
        seen.add(n)
    interrupted = f.flag("interrupted")
    run = Run(
        version=f.text("ccsim_version"), build=f.text("build"), commit=f.string("commit", null=True),
        machine=dict(machine), started_utc=f.text("started_utc"), wall_seconds=f.real("wall_seconds"),
        quick=f.flag("quick"), jobs=f.whole("jobs", null=True), scheduler=f.string("scheduler", null=True),
        cache_dir=f.string("cache_dir", null=True), runs=f.count("runs"), cache_hits=f.count("cache_hits"),
        interrupted=interrupted, experiments=[])
    if "cache" in f.data:  # written since the cache folder is recorded only when asked
        run.cache = f.string("cache", null=True)
        if run.cache not in (None, "default", "given"):
            f.fail("cache", 'expected "default", "given" or null', run.cache)
    for name in names:
        run.experiments.append(_read_experiment(out_dir, name, interrupted))
    return run


def _read_experiment(out_dir: Path, name: str, interrupted: bool) -> Experiment:
    folder = out_dir / name
    file = folder / "reproduce.json"
    if interrupted and not file.exists():
        return Experiment(name=name, status="not run")
    f = _Fields(_read_json(file), file)
    if f.get("name") != name:
        f.fail("name", f"expected {json.dumps(name)} (the folder's name)", f.get("name"))
    status = f.text("status")
    if status not in ("ran", "failed"):
        f.fail("status", 'expected "ran" or "failed"', status)
    seeds = f.items("seeds")
    for i, s in enumerate(seeds):
        if not isinstance(s, int) or isinstance(s, bool):
            f.fail(f"seeds[{i}]", "expected a whole number", s)
    exp = Experiment(
        name=name, title=f.text("title"), source=f.text("source"), quick=f.flag("quick"), seeds=seeds,
        randomness=f.text("randomness"), wall_seconds=f.real("wall_seconds"), runs=f.count("runs"),
        cache_hits=f.count("cache_hits"), spec_hashes=f.strings("spec_hashes"), status=status,
        error=f.string("error", null=True))
    if "run_seconds" in f.data:  # written since the status table shows it
        exp.run_seconds = f.real("run_seconds")
    for i, rel in enumerate(f.strings("figures")):
        exp.figures.append((rel, _figure_uri(folder, rel, file, f"figures[{i}]")))
    if status == "ran":
        exp.checks = _read_checks(folder / "table.json")
        exp.study = f.data.get("verdict") == STUDY
    for i, item in enumerate(f.items("readings") if "readings" in f.data else []):
        r = _Fields(item, file, f"readings[{i}]")
        verdict = r.text("verdict")
        if verdict not in READING_VERDICTS:
            r.fail("verdict", "expected one of " + ", ".join(json.dumps(v) for v in READING_VERDICTS), verdict)
        label = r.text("label")
        if not _NAME.match(label):
            r.fail("label", "expected a label (letters, digits, '-', '_', '.')", label)
        exp.readings.append(ReadingResult(label=label, name=r.text("name"), detail=r.text("detail"),
                                          verdict=verdict, in_band=r.count("in_band"), checks=r.count("checks")))
    if f.data.get("miss") is not None:
        m = _Fields(f.get("miss"), file, "miss")
        kind = m.text("class")
        if kind not in MISS_CLASSES:
            m.fail("class", "expected one of " + ", ".join(json.dumps(v) for v in MISS_CLASSES), kind)
        exp.miss = {"class": kind, "cause": m.text("cause"), "test": m.text("test")}
    if f.data.get("oracle") is not None:
        o = _Fields(f.get("oracle"), file, "oracle")
        status = o.text("status")
        if status not in ORACLE_STATUSES:
            o.fail("status", "expected one of " + ", ".join(json.dumps(v) for v in ORACLE_STATUSES), status)
        refused = o.get("refused")
        if not isinstance(refused, dict) or not all(isinstance(k, str) and isinstance(v, int) and
                                                    not isinstance(v, bool) for k, v in refused.items()):
            o.fail("refused", "expected an object of counts", refused)
        oracle_verdict = o.string("verdict", null=True)
        if oracle_verdict is not None and oracle_verdict not in VERDICTS:
            o.fail("verdict", "expected one of " + ", ".join(json.dumps(v) for v in VERDICTS), oracle_verdict)
        exp.oracle = {"status": status, "translated": o.count("translated"), "runs": o.count("runs"),
                      "refused": dict(refused), "verdict": oracle_verdict, "error": o.string("error", null=True)}
    return exp


def _read_checks(file: Path) -> list[Check]:
    data = _read_json(file)
    if not isinstance(data, list):
        raise SpecError(f"top level: expected a list of checks, found {type(data).__name__}", str(file))
    checks = []
    for i, item in enumerate(data):
        f = _Fields(item, file, f"[{i}]")
        samples = f.items("samples")
        for j, s in enumerate(samples):
            samples[j] = _number(s, True, lambda what, v, j=j: f.fail(f"samples[{j}]", what, v))
        low, high = f.number("low", null=True), f.number("high", null=True)
        for key, end in (("low", low), ("high", high)):
            if end is not None and math.isnan(end):
                f.fail(key, "expected a number or null (an open end)", end)
        if low is not None and high is not None and low > high:
            f.fail("low", f"expected at most high ({high:g})", low)
        verdict = f.text("verdict")
        if verdict not in CHECK_VERDICTS:
            f.fail("verdict", "expected one of " + ", ".join(json.dumps(v) for v in CHECK_VERDICTS), verdict)
        ns2 = None
        if f.data.get("ns2") is not None:
            n = _Fields(f.get("ns2"), file, f"[{i}].ns2")
            ns2_verdict = n.text("verdict")
            if ns2_verdict not in CHECK_VERDICTS:
                n.fail("verdict", "expected one of " + ", ".join(json.dumps(v) for v in CHECK_VERDICTS), ns2_verdict)
            ns2 = {"mean": n.number("mean", null=True), "verdict": ns2_verdict, "same": n.flag("same")}
        checks.append(Check(
            name=f.text("name"), measured=f.number("measured", null=True), expected=f.text("expected"),
            low=low, high=high, band=f.text("band"),
            source=f.text("source"), unit=f.text("unit"), open_low=f.flag("open_low"), passed=f.flag("passed"),
            samples=samples, mean=f.number("mean", null=True), ci_low=f.number("ci_low", null=True),
            ci_high=f.number("ci_high", null=True), verdict=verdict, ns2=ns2))
    return checks


def _figure_uri(folder: Path, rel: str, file: Path, where: str) -> str:
    """The figure as a data: URI, after checking that it is a PNG or an SVG inside the folder."""
    path = (folder / rel).resolve()
    if Path(rel).is_absolute() or not path.is_relative_to(folder.resolve()):
        raise SpecError(f"{where}: expected a path inside {folder}, found {json.dumps(rel)}", str(file))
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SpecError(f"{where}: {folder / rel} cannot be read ({e.strerror})", str(file)) from None
    if data.startswith(_PNG_MAGIC):
        mime = "image/png"
    elif _is_svg(data):
        mime = "image/svg+xml"
    else:
        raise SpecError(f"{where}: {folder / rel} is neither a PNG nor an SVG image", str(file))
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _is_svg(data: bytes) -> bool:
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return False
    return root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")


def _png_size(uri: str) -> tuple[int, int] | None:
    if not uri.startswith("data:image/png;base64,"):
        return None
    head = base64.b64decode(uri[22:22 + 32])
    if head[12:16] != b"IHDR":
        return None
    w, h = struct.unpack(">II", head[16:24])
    return int(w), int(h)


# ---------------------------------------------------------------------------------------------
# The explanations from the docs


@dataclass
class _Section:
    file: str  # "experiments.md"
    level: int
    heading: str
    lines: list[str]  # the heading line and the body, up to the next heading of this level or above
    body: list[str]  # the body before the first sub-heading (this section's own text)
    key: str = ""

    def __post_init__(self) -> None:
        self.key = f"{self.file}#{self.heading}"


def _sections(docs_dir: Path) -> list[_Section]:
    out: list[_Section] = []
    for fname in _DOC_FILES:
        path = docs_dir / fname
        if not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        heads: list[tuple[int, int, str]] = []  # (line, level, text)
        fenced = False
        for i, line in enumerate(lines):
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            m = None if fenced else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if m:
                heads.append((i, len(m.group(1)), m.group(2)))
        for k, (i, level, text) in enumerate(heads):
            end = next((j for j, lv, _ in heads[k + 1:] if lv <= level), len(lines))
            first_sub = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
            out.append(_Section(fname, level, text, lines[i:end], lines[i + 1:min(first_sub, end)]))
    return out


def _names(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(name) + r"(?![A-Za-z0-9_-])")


def _family_of(heading: str, family: str) -> bool:
    words = heading.split()
    if not words:
        return False
    first = words[0].lower()
    return re.sub(r"'s$", "", first).replace("-", "") == family or first.startswith(family + "-")


def _prose(lines: list[str]) -> str:
    """The text of lines that are not table rows (a table lists experiments without explaining them)."""
    return "\n".join(line for line in lines if not line.lstrip().startswith("|"))


def _doc_section(sections: list[_Section], name: str) -> _Section | None:
    named = _names(name)
    for s in sections:
        if named.search(s.heading):
            return s
    family = name.split("-")[0].lower()
    families = [s for s in sections if _family_of(s.heading, family)]
    for s in families:
        if named.search("\n".join(s.lines)):
            return s
    by_text = [s for s in sections if s.level > 1 and named.search(_prose(s.body))]
    if by_text:
        return max(by_text, key=lambda s: s.level)
    return families[0] if families else None


class _DocTree:
    """Markdown tree processor: headings shifted under the experiment's, links made to stand alone."""

    def __init__(self, shift: int, file: str) -> None:
        self.shift, self.file = shift, file

    def run(self, root: ET.Element) -> None:
        for el in root.iter():
            if re.fullmatch(r"h[1-6]", el.tag):
                el.tag = f"h{min(6, int(el.tag[1]) + self.shift)}"
            elif el.tag == "a":
                href = el.get("href", "")
                if not href.startswith(("https://", "http://", "mailto:")):
                    # Another doc page or a heading of one: the report cannot follow it.
                    target = href.split("#")[0] or self.file
                    el.tag, el.attrib = "span", {"class": "doclink", "title": f"docs/{target}"}
            elif el.tag == "img":
                alt = el.get("alt", "")
                el.tag, el.attrib = "span", {"class": "doclink"}
                el.text = f"[image: {alt}]"


# A list may interrupt a paragraph when it is a bullet list or a numbered one starting at 1 (GFM).
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_LIST_START = re.compile(r"^\s*(?:[-*+]|1[.)])\s+")


def _lists_apart(text: str) -> str:
    """A blank line before a list that follows a paragraph line: the docs are written for GitHub's
    renderer, which starts a list there; Python-Markdown needs the blank line."""
    out: list[str] = []
    in_list = fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if not fenced and _LIST_ITEM.match(line):
            prev = out[-1] if out else ""
            if not prev.strip() or in_list:
                in_list = True
            elif _LIST_START.match(line) and not prev.lstrip().startswith("|"):
                out.append("")
                in_list = True
        elif not line.strip():
            in_list = False
        out.append(line)
    return "\n".join(out)


def _render_markdown(text: str, shift: int, file: str) -> str:
    # CHOICE: tab_length 2, since the docs nest lists by two spaces (GitHub's rule).
    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists"], output_format="html", tab_length=2)
    # The docs are shown as written: raw HTML in them is text, never markup.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_DocTree(shift, file), "ccsim_report", 0)
    return str(md.convert(_lists_apart(text)))


# ---------------------------------------------------------------------------------------------
# Drawing


def _num(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4g}"


def _duration(s: float) -> str:
    if s < 60:
        return f"{s:.1f} s"
    if s < 3600:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.2f} h"


def _outside(c: Check) -> float:
    """Distance of the mean from the band, positive outside and negative inside, in band widths
    (or in units of the value when the band has an open end or no width)."""
    v = c.value
    if v is None:
        return math.inf
    lo = -math.inf if c.low is None else c.low
    hi = math.inf if c.high is None else c.high
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
        scale = hi - lo
    else:
        scale = max(abs(x) for x in (v, lo, hi, 1e-12) if math.isfinite(x))
    if v < lo or (c.open_low and v == lo):
        return (lo - v) / scale
    if v > hi:
        return (v - hi) / scale
    return -min(v - lo, hi - v) / scale


def _worst(checks: list[Check]) -> Check:
    rank = {"not reproduced": 0, "inconclusive": 1, "reproduced": 2, NO_BAND: 3}
    return min(checks, key=lambda c: (rank[c.verdict], -_outside(c)))


_VERDICT_COLOUR = {"reproduced": "#1a7f37", "not reproduced": "#c62828", "inconclusive": "#b26a00", NO_BAND: "#555"}


def _interval_svg(c: Check) -> str:
    """One axis: the band shaded, the samples as ticks, the CI as a whisker, the mean as a dot."""
    w, h, pad_x, y = 300, 44, 10, 25
    finite = [x for x in (c.low, c.high, c.value, c.ci_low, c.ci_high, *c.samples)
              if x is not None and math.isfinite(x)]
    label = (f"{c.name}: mean {_num(c.value)} {c.unit}"
             + (f", 95 % CI [{_num(c.ci_low)}, {_num(c.ci_high)}]" if c.ci_low is not None else "")
             + f", band {c.band}, samples " + ", ".join(_num(s) for s in c.samples))
    parts = [f'<svg class="iv" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="{_esc(label)}"><title>{_esc(label)}</title>']
    if not finite:
        parts.append(f'<text x="{pad_x}" y="{y + 4}" class="ivt">no value</text></svg>')
        return "".join(parts)
    lo_d, hi_d = min(finite), max(finite)
    span = hi_d - lo_d
    margin = span * 0.08 if span > 0 else max(abs(lo_d) * 0.05, 1e-9 if lo_d else 1.0)
    lo_d, hi_d = lo_d - margin, hi_d + margin

    def x(v: float) -> float:
        return round(pad_x + (v - lo_d) / (hi_d - lo_d) * (w - 2 * pad_x), 1)

    parts.append(f'<line x1="{pad_x}" y1="{y}" x2="{w - pad_x}" y2="{y}" class="ax"/>')
    b_lo = x(c.low) if c.low is not None and math.isfinite(c.low) else 0.0
    b_hi = x(c.high) if c.high is not None and math.isfinite(c.high) else float(w)
    if b_hi - b_lo < 2:  # a point band
        b_lo, b_hi = b_lo - 1, b_hi + 1
    if c.verdict != NO_BAND:  # a value reported without a band has none to shade
        parts.append(f'<rect x="{b_lo}" y="{y - 9}" width="{round(b_hi - b_lo, 1)}" height="18" class="band"/>')
    labels = [(x(v), _num(v)) for v in (c.low, c.high) if v is not None and math.isfinite(v)]
    if len(labels) == 2 and labels[1][0] - labels[0][0] < 36:
        labels = labels[:1]
    for lx, text in labels:
        parts.append(f'<text x="{lx}" y="{h - 1}" class="ivt" text-anchor="middle">{_esc(text)}</text>')
    for s in c.samples:
        if s is not None and math.isfinite(s):
            parts.append(f'<line x1="{x(s)}" y1="{y - 12}" x2="{x(s)}" y2="{y - 3}" class="smp"/>')
    colour = _VERDICT_COLOUR[c.verdict]
    if c.ci_low is not None and c.ci_high is not None and math.isfinite(c.ci_low) and math.isfinite(c.ci_high):
        a, b = x(c.ci_low), x(c.ci_high)
        parts.append(f'<path d="M{a} {y - 4}V{y + 4}M{a} {y}H{b}M{b} {y - 4}V{y + 4}" '
                     f'stroke="{colour}" class="ci"/>')
    if c.value is not None:
        parts.append(f'<circle cx="{x(c.value)}" cy="{y}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{x(c.value)}" y="9" class="ivt" text-anchor="middle">{_esc(_num(c.value))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _badge(verdict: str) -> str:
    return f'<span class="v v-{re.sub(r"[^a-z]+", "-", verdict).strip("-")}">{_esc(verdict)}</span>'


def _check_badge(verdict: str, study: bool) -> str:
    """A check's verdict; in a study, which has no claim to reproduce, where its value lies
    against our own band (:data:`ccsim.experiments.base.STUDY_WORDS`)."""
    if not study:
        return _badge(verdict)
    word = STUDY_WORDS.get(verdict, verdict)
    return f'<span class="v v-study">{_esc(word)}</span>'


_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;
padding:0 1.2em 3em;color:#1b1b1b}
h1{font-size:1.6em;margin:.8em 0 .3em}h2{margin-top:2.2em;border-bottom:1px solid #ccc;padding-bottom:.2em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #d4d4d4;padding:.25em .5em;vertical-align:top;
text-align:left}th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.v{display:inline-block;padding:0 .45em;border-radius:.7em;color:#fff;font-size:.85em;white-space:nowrap}
.v-reproduced{background:#1a7f37}.v-not-reproduced{background:#c62828}.v-inconclusive{background:#b26a00}
.v-failed{background:#444}.v-not-run,.v-no-checks{background:#888}
.v-study-no-verdict,.v-study{background:#4a5d82}
.v-measured-no-band,.v-symmetric-not-a-test{background:#777}
td.name,td.band{white-space:nowrap}
.meta{color:#555;font-size:.9em}.err{color:#c62828;font-family:monospace}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.85em;color:#555}
svg.iv .ax{stroke:#777;stroke-width:1}svg.iv .band{fill:#1a7f37;fill-opacity:.18}
svg.iv .smp{stroke:#666;stroke-width:1.5}svg.iv .ci{stroke-width:2;fill:none}
svg.iv .ivt{font-size:9px;fill:#444}
.doc{background:#fafafa;border-left:3px solid #bbb;padding:.2em 1em;margin:.5em 0}
.doc table{font-size:.88em}.doclink{text-decoration:underline dotted}
code,.hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em}
.banner{background:#fff3cd;border:1px solid #e0c36c;padding:.5em 1em}
"""

# For the browser test only (tests/test_report.py): errors are counted from the first line on,
# broken images once everything has loaded.
_SCRIPT = """window.onerror=function(){var b=document.body;
b.dataset.scriptErrors=String(Number(b.dataset.scriptErrors||0)+1);};
window.addEventListener("load",function(){var n=0;
for(var i=0;i<document.images.length;i++){if(document.images[i].naturalWidth===0){n++;}}
document.body.dataset.brokenImages=String(n);});"""


# ---------------------------------------------------------------------------------------------
# The page


def _summary_paragraph(run: Run) -> str:
    exps = run.experiments
    counts = {v: sum(e.verdict == v for e in exps)
              for v in ("reproduced", "not reproduced", "inconclusive", "failed", "not run", "no checks", STUDY)}
    parts = [f"{counts[v]} {v}" for v in counts if counts[v] or v in ("reproduced", "not reproduced",
                                                                     "inconclusive", "failed")]
    share = f" ({100 * run.cache_hits / run.runs:.0f} %)" if run.runs else ""
    kind = "quick variants" if run.quick else "full experiments"
    return (f"<p class=\"summary\">{len(exps)} experiments ({kind}) by ccsim {_esc(run.version)}: "
            f"{_esc(', '.join(parts))}. Wall time {_esc(_duration(run.wall_seconds))}; {run.runs} runs, "
            f"{run.cache_hits} of them from the cache{share}. Started {_esc(run.started_utc)}.</p>")


def _summary_table(run: Run) -> str:
    rows = ["<table class=\"sum\"><thead><tr><th>experiment</th><th>paper and figure</th><th>claim</th>"
            "<th>measured</th><th>band</th><th>verdict</th><th>why (class and cause of a miss)</th>"
            "<th>wall time</th></tr></thead><tbody>"]
    for e in run.experiments:
        if e.judged:
            worst = _worst(e.judged)
            # Counted as the console line counts them (reproduce.Outcome.in_band): a check is in
            # band when its verdict is, the whole interval over the seeds inside the band.
            inband = sum(c.verdict == "reproduced" for c in e.judged)
            inconcl = sum(c.verdict == "inconclusive" for c in e.judged)
            unit = "" if worst.unit in ("index", "ratio") else f" {worst.unit}"
            measured = (f"{inband} / {len(e.judged)} in band"
                        + (f" ({inconcl} inconclusive)" if inconcl else "")
                        + f"; worst: {worst.name}: {_num(worst.value)}{unit}")
            band = worst.band
        else:
            measured = e.error or ("no checks" if e.status == "ran" else "")
            band = ""
        wall = _duration(e.wall_seconds) if e.status != "not run" else ""
        rows.append(f'<tr><td class="name"><a href="#{_esc(e.name)}">{_esc(e.name)}</a></td><td>{_esc(e.source)}</td>'
                    f'<td>{_esc(e.title)}</td><td>{_esc(measured)}</td><td class="band">{_esc(band)}</td>'
                    f'<td>{_badge(e.verdict)}{_readings_note(e)}</td><td>{_why_cell(e)}</td>'
                    f'<td class="n">{_esc(wall)}</td></tr>')
    rows.append("</tbody></table>")
    return "\n".join(rows)


def _why_cell(e: Experiment) -> str:
    """The class of a miss, its cause and the test that shows it (:attr:`Experiment.why`)."""
    if not e.why:
        return ""
    if e.miss is None:
        return '<span class="meta">not classified</span>'
    return (f"<strong>{_esc(e.miss['class'])}</strong>: {_esc(e.miss['cause'])} "
            f'<span class="meta">(<code>{_esc(e.miss["test"])}</code>)</span>')


def _readings_note(e: Experiment) -> str:
    note = e.readings_note
    out = f'<br><span class="meta">({_esc(note)})</span>' if note else ""
    if e.oracle is not None and e.oracle["status"] == "ran":
        out += f'<br><span class="meta">with ns-2.35\'s runs: {_esc(e.oracle["verdict"] or "")}</span>'
    return out


def _readings_table(e: Experiment) -> str:
    """The other readings of the set-up, each with its verdict (their checks: readings/LABEL/)."""
    if not e.readings:
        return ""
    rows = ["<h3>Other readings of the set-up</h3>",
            "<p>The paper leaves this set-up open; each reading below ran beside the registered one and is "
            "judged on the same checks (its table: <code>readings/LABEL/table.md</code>). The experiment's "
            "verdict is the registered reading's.</p>",
            '<table class="checks"><thead><tr><th>reading</th><th>what it changes</th><th>checks in band</th>'
            "<th>verdict</th></tr></thead><tbody>"]
    for r in e.readings:
        rows.append(f"<tr><td>{_esc(r.label)}: {_esc(r.name)}</td><td>{_esc(r.detail)}</td>"
                    f'<td class="n">{r.in_band} of {r.checks}</td><td>{_badge(r.verdict)}</td></tr>')
    rows.append("</tbody></table>")
    return "\n".join(rows)


def _checks_table(e: Experiment) -> str:
    with_ci = len(e.seeds) > 1
    with_ns2 = any(c.ns2 is not None for c in e.checks)
    head = ("<th>check</th><th>mean</th>" + ("<th>95 % CI</th>" if with_ci else "")
            + "<th>unit</th><th>expected (paper)</th><th>band</th><th>verdict</th><th>interval</th>"
            + ("<th>with ns-2.35's runs</th><th>ns-2.35 verdict</th>" if with_ns2 else ""))
    rows = [f"<table class=\"checks\"><thead><tr>{head}</tr></thead><tbody>"]
    for c in e.checks:
        ci = f"<td class=\"n\">[{_esc(_num(c.ci_low))}, {_esc(_num(c.ci_high))}]</td>" if with_ci else ""
        src = f'<br><span class="meta">{_esc(c.source)}</span>' if c.source else ""
        ns2 = ""
        if with_ns2:
            n = c.ns2 or {}
            shown = "=" if n.get("same") else _num(n.get("mean"))
            ns2 = (f'<td class="n">{_esc(shown)}</td><td>{_check_badge(n["verdict"], e.study) if n else ""}</td>')
        rows.append(f"<tr><td>{_esc(c.name)}</td><td class=\"n\">{_esc(_num(c.value))}</td>{ci}"
                    f"<td>{_esc(c.unit)}</td><td>{_esc(c.expected)}{src}</td><td class=\"band\">{_esc(c.band)}</td>"
                    f"<td>{_check_badge(c.verdict, e.study)}</td><td>{_interval_svg(c)}</td>{ns2}</tr>")
    rows.append("</tbody></table>")
    return "\n".join(rows)


def _oracle_paragraph(e: Experiment) -> str:
    """What the pass through ns-2.35 ran, and why it ran no more (``--oracle ns2``)."""
    o = e.oracle
    if o is None or o["status"] == "not an ns-2 paper":
        return ""
    if o["status"] == "not installed":
        return ("<p class=\"meta\">ns-2.35 is not installed here (<code>apt-get install ns2</code>): this "
                "report has no ns-2.35 column.</p>")
    refused = "; ".join(f"{k} ({v} runs)" for k, v in o["refused"].items())
    ran = (f"ns-2.35 ran {o['translated']} of the {o['runs']} runs (those that translate to ns-2.35's agents and "
           f"queues); the others ran in ccsim" + (f", refused by the translation: {refused}" if refused else ""))
    if o["status"] == "ran":
        return (f"<p class=\"meta\">{_esc(ran)}. With those runs from ns-2.35 the verdict is "
                f"{_badge(o['verdict'] or '')}; a check marked “=” kept ccsim's value to the bit (it reads no "
                "run ns-2.35 made, or ns-2.35 gave the same).</p>")
    why = {"nothing translates": "no run of this experiment translates to ns-2.35",
           "unavailable": f"its checks read what the translation does not give: {o.get('error') or ''}"}
    return f"<p class=\"meta\">No ns-2.35 column: {_esc(why.get(o['status'], o['status']))}. {_esc(ran)}.</p>"


def _explanation(e: Experiment, docs: list[_Section] | None, docs_where: Path, shown: dict[str, str]) -> str:
    title = "Why it is not reproduced" if e.verdict == "not reproduced" else "Set-up and discussion"
    if docs is None:
        # CHOICE: without the docs the report says where they are rather than failing.
        return (f"<h3>{title}</h3><p>The explanations of claims that are not reproduced are written in "
                f"docs/experiments.md and docs/validation.md of the ccsim source; they were not found here "
                f"({_esc(_shown_path(docs_where))}).</p>")
    sec = _doc_section(docs, e.name)
    if sec is None:
        return (f"<h3>{title}</h3><p>Neither docs/experiments.md nor docs/validation.md has a section "
                f"on {_esc(e.name)}.</p>")
    where = f"docs/{sec.file}, section “{sec.heading}”"
    quick = ("<p class=\"meta\">This is the quick variant: the heading above states the set-up it ran; the "
             "docs' section describes the full experiment.</p>" if e.quick else "")
    if sec.key in shown:
        first = shown[sec.key]
        return (f'<h3>{title}</h3><p>See <a href="#_doc-{_esc(first)}">{_esc(where)}</a>, shown with '
                f"{_esc(first)}.</p>{quick}")
    shown[sec.key] = e.name
    body = _render_markdown("\n".join(sec.lines[1:]), 3 - sec.level, sec.file)
    return (f"<h3>{title}</h3>{quick}<p class=\"meta\">From {_esc(where)}:</p>"
            f'<div class="doc" id="_doc-{_esc(e.name)}">\n{body}\n</div>')


def _experiment_section(e: Experiment, docs: list[_Section] | None, docs_where: Path,
                        shown: dict[str, str]) -> str:
    out = [f'<section id="{_esc(e.name)}" class="exp">',
           f"<h2>{_esc(e.title or e.name)}</h2>",
           f"<p><code>{_esc(e.name)}</code> · {_esc(e.source)} · {_badge(e.verdict)} · "
           '<a href="#_summary">back to the summary</a></p>']
    if e.status == "not run":
        out.append("<p>Not run: the run was interrupted before this experiment.</p></section>")
        return "\n".join(out)
    seeds = ", ".join(str(s) for s in e.seeds)
    rnd = f"randomness: {e.randomness}" if e.randomness else "deterministic"
    out.append(f'<p class="meta">{"seed" if len(e.seeds) == 1 else "seeds"} {_esc(seeds)} ({_esc(rnd)}) · '
               f"{e.runs} runs, {e.cache_hits} from the cache · {_esc(_duration(e.wall_seconds))}"
               f"{' · quick variant' if e.quick else ''}</p>")
    if e.status == "failed":
        out.append(f'<p>The experiment failed: <span class="err">{_esc(e.error or "no message")}</span></p>')
    for rel, uri in e.figures:
        size = _png_size(uri)
        wh = f' width="{size[0]}" height="{size[1]}"' if size else ""
        out.append(f'<figure><img src="{uri}" alt="{_esc(f"{e.name}: {rel}")}"{wh}>'
                   f"<figcaption>{_esc(rel)}</figcaption></figure>")
    if e.status == "ran":
        out.append("<h3>Measured against the paper</h3>")
        if e.checks:
            out.append(_checks_table(e))
            legend = "Interval: the band shaded, each seed's value a grey tick above the axis, the mean a dot"
            if len(e.seeds) > 1:
                legend += (", its 95 % confidence interval over the seeds (Student t) a whisker; a check is "
                           "inconclusive when the interval straddles an edge of the band")
            out.append(f'<p class="meta">{_esc(legend)}.</p>')
            out.append(_oracle_paragraph(e))
            out.append(_readings_table(e))
        else:
            out.append("<p>No checks.</p>")
    out.append(_explanation(e, docs, docs_where, shown))
    out.append("</section>")
    return "\n".join(out)


def _cache_text(run: Run) -> str:
    if run.cache_dir:
        return run.cache_dir
    if run.cache == "default":
        return "the default folder (its path is not recorded without --include-machine)"
    if run.cache == "given":
        return "a folder given with --cache (its path is not recorded without --include-machine)"
    return "none (--no-cache)"


def _shown_path(path: Path) -> str:
    """``path`` with the user's home folder written ``~``: the report names no user."""
    return redact(str(path))


def _metadata(run: Run) -> str:
    machine = ", ".join(f"{k} {v}" for k, v in run.machine.items())
    if run.scheduler:
        where = f"Dask cluster {run.scheduler}"
    else:
        where = f"this machine, {run.jobs if run.jobs is not None else 'one per core'} parallel runs"
    rows = [("ccsim version", run.version), ("build", run.build), ("commit", run.commit or "unknown"),
            ("machine", machine), ("started (UTC)", run.started_utc),
            ("wall time", _duration(run.wall_seconds)), ("variants", "quick" if run.quick else "full"),
            ("ran on", where), ("cache", _cache_text(run)),
            ("runs", f"{run.runs}, {run.cache_hits} from the cache"),
            ("interrupted", "yes" if run.interrupted else "no")]
    out = ['<section id="_run"><h2>Run metadata</h2><table class="run"><tbody>']
    out += [f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in rows]
    out.append("</tbody></table>")
    out.append("<table class=\"expmeta\"><thead><tr><th>experiment</th><th>seeds</th><th>runs</th>"
               "<th>cache hits</th><th>wall time</th><th>spec hashes</th></tr></thead><tbody>")
    for e in run.experiments:
        hashes = "".join(f'<span class="hash">{_esc(h)}</span><br>' for h in e.spec_hashes)
        hashes_cell = (f"<details><summary>{len(e.spec_hashes)}</summary>{hashes}</details>"
                       if e.spec_hashes else "")
        wall = _duration(e.wall_seconds) if e.status != "not run" else ""
        out.append(f'<tr><td><a href="#{_esc(e.name)}">{_esc(e.name)}</a></td>'
                   f"<td>{_esc(', '.join(str(s) for s in e.seeds))}</td><td class=\"n\">{e.runs}</td>"
                   f'<td class="n">{e.cache_hits}</td><td class="n">{_esc(wall)}</td><td>{hashes_cell}</td></tr>')
    out.append("</tbody></table></section>")
    return "\n".join(out)


def default_docs_dir() -> Path:
    """The checkout's docs/ beside the package (python/ccsim/../../docs)."""
    return Path(__file__).resolve().parent.parent.parent / "docs"


def render(run: Run, docs_dir: Path | None = None) -> str:
    """The page for an already-read run."""
    where = docs_dir if docs_dir is not None else default_docs_dir()
    docs: list[_Section] | None = None
    if any((where / f).is_file() for f in _DOC_FILES):
        docs = _sections(where)
    shown: dict[str, str] = {}
    title = f"ccsim reproduce: {len(run.experiments)} experiments ({'quick' if run.quick else 'full'})"
    page = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_esc(title)}</title>", f"<style>{_STYLE}</style>", "</head>",
            '<body data-script-errors="0">', f"<script>{_SCRIPT}</script>",
            "<header><h1>ccsim: the papers' claims, measured</h1>", _summary_paragraph(run)]
    if run.interrupted:
        page.append('<p class="banner">This run was interrupted: experiments it did not reach are marked '
                    "“not run”.</p>")
    page.append('<p class="meta">Sections: <a href="#_summary">summary</a> · one per experiment · '
                '<a href="#_run">run metadata</a>.</p></header>')
    page.append('<section id="_summary"><h2>Summary</h2>')
    page.append(_summary_table(run))
    page.append("</section>")
    for e in run.experiments:
        page.append(_experiment_section(e, docs, where, shown))
    page.append(_metadata(run))
    page.append("</body>")
    page.append("</html>")
    return "\n".join(page) + "\n"


def write_report(out_dir: Path, *, docs_dir: Path | None = None) -> Path:
    """Write ``out_dir/index.html`` from the output of ``ccsim reproduce --all`` and return its path.

    Raises :class:`ccsim.SpecError` naming the file when an input file is missing or malformed.
    """
    out_dir = Path(out_dir)
    if docs_dir is not None and not Path(docs_dir).is_dir():
        raise SpecError("is not a folder", f"docs_dir {docs_dir}")
    run = _read_run(out_dir)
    text = render(run, Path(docs_dir) if docs_dir is not None else None)
    target = out_dir / "index.html"
    claim_top_file(out_dir, "index.html")  # never replaces an index.html that ccsim did not write
    atomic_write_text(target, text)
    return target


#: The lines that enclose the status table generated into docs/experiments.md.
DOCS_BEGIN = "<!-- generated by `python -m ccsim.report DIR --update-docs docs/experiments.md`: do not edit -->"
DOCS_END = "<!-- end of generated status -->"


def status_markdown(run: Run) -> str:
    """The status of every experiment of ``run`` as a markdown table, with the line that says
    which run it comes from: what docs/experiments.md shows between :data:`DOCS_BEGIN` and
    :data:`DOCS_END`."""
    kind = "quick" if run.quick else "full"
    commit = f", commit {run.commit[:12]}" if run.commit else ""
    lines = [f"The {kind} run of {run.started_utc[:10]} (ccsim {run.version}, build {run.build}{commit}; "
             f"{run.machine.get('cpus')} cores; {_duration(run.wall_seconds)} for {run.runs} runs, "
             f"{run.cache_hits} of them read from the cache). Each verdict is judged on the "
             "95 % interval over the seeds (Seeds and confidence intervals, above).", "",
             "\"time in runs\" sums the wall time of each experiment's runs as they ran (one core each; "
             "a run read from the cache brings the time it took then). \"why\" gives, for a claim that is "
             "not reproduced, the class of the miss, its cause and the test that demonstrates the cause "
             "(Why a claim does not reproduce, below); a value reported without a band is not counted "
             "among the checks.", "",
             "| experiment | verdict | checks reproduced | inconclusive | seeds | runs | time in runs | why |",
             "|---|---|---|---|---|---|---|---|"]
    for e in run.experiments:
        if e.status != "ran":
            lines.append(f"| {e.name} | {e.status} | | | | | | |")
            continue
        ok = sum(c.verdict == "reproduced" for c in e.judged)
        unsure = sum(c.verdict == "inconclusive" for c in e.judged)
        verdict = e.verdict if e.verdict in ("reproduced", STUDY) else f"**{e.verdict}**"
        if e.readings_note:
            verdict += f" ({e.readings_note})"
        why = e.why.replace("|", "\\|")
        lines.append(f"| {e.name} | {verdict} | {ok} of {len(e.judged)} | {unsure} | {len(e.seeds)} | {e.runs} | "
                     f"{_duration(e.run_seconds)} | {why} |")
    return "\n".join(lines) + "\n"


def update_docs(out_dir: Path, doc: Path) -> None:
    """Replace the generated status table in ``doc`` by the status of the run in ``out_dir``."""
    text = doc.read_text(encoding="utf-8")
    if text.count(DOCS_BEGIN) != 1 or text.count(DOCS_END) != 1 or text.index(DOCS_BEGIN) > text.index(DOCS_END):
        raise SpecError(f"expected one generated block ({DOCS_BEGIN} ... {DOCS_END})", str(doc))
    head, rest = text.split(DOCS_BEGIN)
    _, tail = rest.split(DOCS_END)
    doc.write_text(f"{head}{DOCS_BEGIN}\n{status_markdown(_read_run(Path(out_dir)))}{DOCS_END}{tail}",
                   encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ccsim.report",
        description="Write DIR/index.html from the output folder of `ccsim reproduce --all`.")
    parser.add_argument("dir", type=Path, metavar="DIR", help="the output folder")
    parser.add_argument("--docs", type=Path, metavar="DOCS",
                        help="the docs folder with experiments.md and validation.md (default: the checkout's)")
    parser.add_argument("--update-docs", type=Path, metavar="FILE",
                        help="also replace the generated status table in FILE (docs/experiments.md)")
    args = parser.parse_args(argv)
    try:
        path = write_report(args.dir, docs_dir=args.docs)
        if args.update_docs is not None:
            update_docs(args.dir, args.update_docs)
    except SpecError as e:
        print(f"ccsim: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
