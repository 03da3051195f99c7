"""The HTML report of `ccsim reproduce --all` (python/ccsim/report.py), read back by a real HTML
parser and loaded by a real browser (headless Chromium, the Debian package the Makefile installs).

The fixture is an output folder in the layout `ccsim reproduce --all` writes (docs/experiments.md,
"The report"): four experiments, one with three seeds and an inconclusive check, one with one seed
and a check out of its band, one reproduced with an SVG figure, one failed; real PNGs drawn with
matplotlib, and files the report must ignore.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

import ccsim  # noqa: E402
from ccsim import report  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium")
REQUIRE_BROWSER = bool(os.environ.get("CCSIM_REQUIRE_BROWSER"))

# ---------------------------------------------------------------------------------------------
# The fixture


def _png(path: Path, seed: int, fmt: str = "png") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(4, 2.5), dpi=60)
    ax.plot([0, 1, 2, 3], [seed, seed + 1, seed - 1, seed + 2], label=f"flow {seed}")
    ax.set_xlabel("time (s)")
    ax.legend()
    fig.savefig(path, format=fmt)
    plt.close(fig)


def _check(name: str, samples: list[float], low: float | None, high: float | None, band: str,
           verdict: str, ci: tuple[float, float] | None = None, unit: str = "ratio") -> dict[str, Any]:
    mean = sum(samples) / len(samples)
    passed = (low is None or mean >= low) and (high is None or mean <= high)
    return {"name": name, "measured": mean, "expected": "the paper's value", "low": low, "high": high,
            "band": band, "source": "Fig. 1", "unit": unit, "open_low": False, "passed": passed,
            "samples": samples, "mean": mean, "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
            "verdict": verdict}


# The three-seed experiment: one check reproduced, one whose interval straddles the band's upper edge.
TICP_CHECKS = [
    _check("utilisation", [0.96, 0.97, 0.98], 0.95, 1.0, "[0.95, 1]", "reproduced", (0.945, 0.995)),
    _check("queue <b>&amp; drops</b>", [18.0, 21.0, 24.0], None, 22.0, "<= 22", "inconclusive", (13.5, 28.5),
           unit="% of buffer"),
]
OBP_BETA_CHECKS = [
    _check("OBP utilisation", [0.86], 0.95, None, ">= 0.95", "not reproduced"),
    _check("OBP drops", [0.0], 0.0, 0.0, "= 0", "reproduced", unit="packets"),
    _check("Jain's index", [0.99], 0.95, 1.0, "[0.95, 1]", "reproduced", unit="index"),
]
OBP_GAMMA_CHECKS = [_check("parking-lot utilisation", [0.93], 0.9, None, ">= 0.9", "reproduced"),
                    # A value reported without a band (issue 41): counted neither way.
                    dict(_check("reachable nodes", [93.0], None, None, "none", "measured (no band)", unit="nodes"),
                         banded=False)]
#: Why obp-beta's claim does not reproduce (issue 41), with markup to escape.
OBP_BETA_MISS = {"class": "honest negative", "cause": "OBP's flows <step> together", "test": "tests/t.py::test_<x>"}
#: A symmetric reading run without jitter (issue 41).
OBP_GAMMA_READINGS = [{"label": "together", "name": "both at 0 s", "detail": "identical flows started together",
                       "verdict": "symmetric: not a test", "in_band": 1, "checks": 1}]


def _experiment(out: Path, name: str, *, seeds: list[int], checks: list[dict[str, Any]] | None,
                figures: list[str], randomness: str = "", error: str | None = None, **more: Any) -> None:
    d = out / name
    d.mkdir(parents=True)
    meta = {"name": name, "title": f"The claim of {name}", "source": "OBP paper section IV-A-1, Fig. 4",
            "quick": True, "seeds": seeds, "randomness": randomness, "wall_seconds": 4.2,
            "runs": 4 * len(seeds), "cache_hits": 1, "spec_hashes": [f"{i:02x}" * 32 for i in range(3)],
            "figures": figures, "status": "failed" if checks is None else "ran", "error": error, **more}
    (d / "reproduce.json").write_text(json.dumps(meta, indent=2))
    if checks is not None:
        (d / "table.json").write_text(json.dumps(checks, indent=2))
        (d / "table.md").write_text("| ignored |\n")
    (d / "points.parquet").write_bytes(b"PAR1 not read")
    (d / "n2").mkdir()
    (d / "n2" / "summary.json").write_text("{ not even json")


def build_fixture(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    names = ["ticp-alpha", "obp-beta", "obp-gamma", "primo-delta"]
    run = {"ccsim_version": "0.1.0", "build": "ab12cd34ef", "commit": "0123456789abcdef",
           "machine": {"hostname": "lab", "platform": "Linux-6.1-x86_64", "python": "3.11.2", "cpus": 2},
           "started_utc": "2026-11-23T10:00:00Z", "wall_seconds": 12.3, "quick": True, "jobs": 2,
           "scheduler": None, "cache_dir": "/tmp/cache", "runs": 24, "cache_hits": 6, "interrupted": False,
           "experiments": names}
    (out / "reproduce.json").write_text(json.dumps(run, indent=2))
    _experiment(out, "ticp-alpha", seeds=[1, 2, 3], checks=TICP_CHECKS, figures=["throughput.png", "sub/x.png"],
                randomness="random start times")
    _png(out / "ticp-alpha" / "throughput.png", 1)
    _png(out / "ticp-alpha" / "sub" / "x.png", 2)
    _experiment(out, "obp-beta", seeds=[1], checks=OBP_BETA_CHECKS, figures=["fig4_util.png"], miss=OBP_BETA_MISS)
    _png(out / "obp-beta" / "fig4_util.png", 3)
    _experiment(out, "obp-gamma", seeds=[1], checks=OBP_GAMMA_CHECKS, figures=["parking.svg"],
                readings=OBP_GAMMA_READINGS)
    _png(out / "obp-gamma" / "parking.svg", 4, fmt="svg")
    _experiment(out, "primo-delta", seeds=[1], checks=None, figures=[], error="runs[3]: the spec <is> bad")
    return out


DOCS_EXPERIMENTS = """# Experiments

Intro that names obp-beta in passing. <script>alert("from the docs")</script>

## TICP (the family)

Family text of TICP.

### ticp-alpha

TICP-ALPHA-TEXT: the **interval** straddles the edge; see [the validation](validation.md#xcp).

## OBP (the family)

OBP-FAMILY-TEXT: obp-beta falls short by a lock-step oscillation.

| experiment | verdict |
|---|---|
| obp-gamma | reproduced |

### Measured

OBP-SUBSECTION-TEXT under the family. The causes, as GitHub renders a list:
- FIRST-CAUSE, continued
  on a second line;
  - NESTED-CAUSE.
- SECOND-CAUSE.
"""

DOCS_VALIDATION = """# Validation

## Primo in validation

PRIMO-FAMILY-TEXT, a family section that names no experiment.
"""


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("docs")
    (d / "experiments.md").write_text(DOCS_EXPERIMENTS)
    (d / "validation.md").write_text(DOCS_VALIDATION)
    return d


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, docs: Path) -> Path:
    out = build_fixture(tmp_path_factory.mktemp("out"))
    return report.write_report(out, docs_dir=docs)


# ---------------------------------------------------------------------------------------------
# Reading the page back with a real HTML parser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """Every element with its attributes, the ids, the text, and the nesting checked as it goes."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.ids: list[str] = []
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.text_parts: list[str] = []
        self.in_style_or_script = 0
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed: {self.stack}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if tag in ("style", "script"):
            self.in_style_or_script += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.in_style_or_script -= 1
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.in_style_or_script:
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.text_parts).split())

    def all(self, tag: str) -> list[dict[str, str]]:
        return [a for t, a in self.elements if t == tag]


def _section_text(page_html: str, ident: str) -> str:
    """The text of the element with this id (a <section> or <div>), by a second parser run."""
    m = re.search(rf'<(section|div)[^>]* id="{re.escape(ident)}"', page_html)
    assert m, f"no element with id {ident}"
    tag, start, depth = m.group(1), m.start(), 0
    for t in re.finditer(rf"<(/?){tag}\b", page_html[start:]):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            return Page(page_html[start:start + t.end()] + ">").text
    raise AssertionError(f"unclosed {tag} {ident}")


@pytest.fixture(scope="module")
def page(written: Path) -> Page:
    return Page(written.read_text(encoding="utf-8"))


def test_the_page_is_well_formed_html5_with_unique_ids(written: Path, page: Page) -> None:
    text = written.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>\n")
    assert page.errors == []
    assert len(page.ids) == len(set(page.ids))
    assert [a.get("charset") for a in page.all("meta")][0] == "utf-8"


def test_every_image_is_an_embedded_png_or_svg_that_decodes(written: Path, page: Page) -> None:
    out = written.parent
    imgs = page.all("img")
    # Each listed figure exactly once, in its experiment's order; nothing else.
    expected = [out / "ticp-alpha" / "throughput.png", out / "ticp-alpha" / "sub" / "x.png",
                out / "obp-beta" / "fig4_util.png", out / "obp-gamma" / "parking.svg"]
    assert len(imgs) == len(expected)
    for img, path in zip(imgs, expected):
        m = re.fullmatch(r"data:(image/png|image/svg\+xml);base64,([A-Za-z0-9+/=]+)", img["src"])
        assert m, img["src"][:60]
        data = base64.b64decode(m.group(2), validate=True)
        assert data == path.read_bytes()  # byte for byte, never recompressed
        if m.group(1) == "image/png":
            with Image.open(io.BytesIO(data)) as im:
                im.verify()
                assert im.format == "PNG"
                assert (int(img["width"]), int(img["height"])) == im.size
        else:
            assert ET.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"


def test_every_internal_link_resolves_and_nothing_is_loaded_from_the_network(written: Path, page: Page) -> None:
    hrefs = [a["href"] for a in page.all("a")]
    internal = [h for h in hrefs if h.startswith("#")]
    assert internal and all(h[1:] in page.ids for h in internal)
    assert all(h.startswith(("#", "http://", "https://", "mailto:")) for h in hrefs), hrefs
    # The summary table links every experiment to its section.
    for name in ("ticp-alpha", "obp-beta", "obp-gamma", "primo-delta"):
        assert f"#{name}" in internal and name in page.ids
    for tag, attrs in page.elements:
        for key in ("src", "srcset", "data", "poster", "background"):
            assert not attrs.get(key, "").startswith(("http:", "https:", "//")), (tag, key)
        if tag == "link":
            raise AssertionError("a <link> loads a resource")
        if tag == "script":
            assert "src" not in attrs
    text = written.read_text(encoding="utf-8")
    assert "@import" not in text and "url(" not in text
    assert len(page.all("script")) == 1  # the test hook; the docs' raw <script> is text


def test_the_summary_counts_the_fixture(page: Page) -> None:
    assert ("4 experiments (quick variants) by ccsim 0.1.0: 1 reproduced, 1 not reproduced, 1 inconclusive, "
            "1 failed") in page.text
    assert "24 runs, 6 of them from the cache (25 %)" in page.text
    # The one-seed experiment: 2 of 3 in band, the worst check is the one out of it.
    # A dimensionless unit is not spelt after the value ("Jain's index = 1 index" read oddly).
    assert "2 / 3 in band; worst: OBP utilisation: 0.86 >= 0.95" in page.text
    # Counted as the console counts: an inconclusive check is not in band (issue 40).
    assert "1 / 2 in band (1 inconclusive); worst: queue <b>&amp; drops</b>: 21 % of buffer <= 22" in page.text
    assert "1 / 1 in band; worst: parking-lot utilisation: 0.93 >= 0.9" in page.text
    assert "runs[3]: the spec <is> bad" in page.text  # the failure's line, escaped
    assert not [t for t, _ in page.elements if t in ("is", "b")]


def test_a_miss_shows_its_class_cause_and_test_and_a_symmetric_reading_is_not_a_test(written: Path,
                                                                                       page: Page) -> None:
    """Issue 41: the summary's "why" column gives a miss's class, cause and test (escaped); a
    symmetric reading run without jitter is "not a test", never a reproduction; a value without
    a band is left out of the counts (obp-gamma: 1 / 1 in band, above)."""
    html = written.read_text()
    assert "<th>why (class and cause of a miss)</th>" in html
    assert ("<strong>honest negative</strong>: OBP&#x27;s flows &lt;step&gt; together "
            '<span class="meta">(<code>tests/t.py::test_&lt;x&gt;</code>)</span>') in html
    assert "reading together (both at 0 s) is symmetric: not a test" in page.text
    assert "reproduced under reading together" not in page.text
    assert "measured (no band)" in page.text


def test_the_three_seed_check_draws_band_samples_mean_and_interval(written: Path) -> None:
    text = written.read_text(encoding="utf-8")
    svgs = re.findall(r'<svg class="iv".*?</svg>', text)
    assert len(svgs) == len(TICP_CHECKS) + len(OBP_BETA_CHECKS) + len(OBP_GAMMA_CHECKS)
    inconclusive = next(s for s in svgs if "queue" in s)
    ticks = [float(x) for x in re.findall(r'<line x1="([\d.]+)" y1="\d+" x2="[\d.]+" y2="\d+" class="smp"', inconclusive)]
    assert len(ticks) == 3
    band = re.search(r'<rect x="([\d.]+)" y="\d+" width="([\d.]+)"', inconclusive)
    ci = re.search(r'<path d="M([\d.]+) [\d.]+V[\d.]+M[\d.]+ [\d.]+H([\d.]+)', inconclusive)
    dot = re.search(r'<circle cx="([\d.]+)"', inconclusive)
    assert band and ci and dot
    band_hi = float(band.group(1)) + float(band.group(2))  # the band "<= 22" runs to 22 from the left edge
    ci_lo, ci_hi, mean = float(ci.group(1)), float(ci.group(2)), float(dot.group(1))
    assert float(band.group(1)) == 0
    # Samples 18, 21, 24 and the mean 21 on a linear axis; the interval straddles the band's edge at 22.
    assert ticks[1] - ticks[0] == pytest.approx(ticks[2] - ticks[1], abs=0.2)
    assert mean == pytest.approx(ticks[1], abs=0.2)
    assert ci_lo < band_hi < ci_hi
    step = (ticks[2] - ticks[0]) / 6  # one unit of the value
    assert band_hi == pytest.approx(ticks[1] + step, abs=0.3)
    assert ci_hi - ci_lo == pytest.approx(15 * step, abs=0.5)
    # A one-seed check has no whisker, one tick.
    single = next(s for s in svgs if "OBP utilisation" in s)
    assert "<path" not in single and single.count('class="smp"') == 1


def test_the_checks_table_shows_the_interval_only_with_several_seeds(written: Path) -> None:
    text = written.read_text(encoding="utf-8")
    assert _section_text(text, "ticp-alpha").count("95 % CI") >= 1
    assert "[13.5, 28.5]" in _section_text(text, "ticp-alpha")
    assert "95 % CI" not in _section_text(text, "obp-beta")


def test_the_explanations_come_from_the_docs_one_section_each(written: Path) -> None:
    text = written.read_text(encoding="utf-8")
    alpha = _section_text(text, "ticp-alpha")
    assert "TICP-ALPHA-TEXT" in alpha and "Family text of TICP" not in alpha  # its own heading wins
    assert "<strong>interval</strong>" in text  # rendered markdown, not copied text
    beta = _section_text(text, "obp-beta")
    assert "OBP-FAMILY-TEXT" in beta and "OBP-SUBSECTION-TEXT" in beta  # the family section, whole
    assert "Why it is not reproduced" in beta
    gamma = _section_text(text, "obp-gamma")
    assert "OBP-FAMILY-TEXT" not in gamma  # shown once; obp-gamma links to it
    assert 'href="#_doc-obp-beta"' in text
    assert "PRIMO-FAMILY-TEXT" in _section_text(text, "primo-delta")
    assert text.count("OBP-FAMILY-TEXT") == 1
    # A list right after a paragraph line, nested by two spaces, is a list (GitHub's rule).
    causes = re.search(r"<ul>\s*<li>FIRST-CAUSE, continued\s+on a second line;\s*<ul>\s*<li>NESTED-CAUSE\.</li>\s*"
                       r"</ul>\s*</li>\s*<li>SECOND-CAUSE\.</li>\s*</ul>", text)
    assert causes, text[text.index("OBP-SUBSECTION-TEXT"):][:400]
    # Headings of the docs sit under the experiment's <h3>: "### Measured" of a "##" section is an <h4>.
    assert "<h4>Measured</h4>" in text
    assert '&lt;script&gt;alert("from the docs")&lt;/script&gt;' not in text  # the intro is not shown at all


def test_only_a_bullet_or_a_list_from_1_interrupts_a_paragraph() -> None:
    """GitHub's rule (GFM): "2006. The paper" inside a paragraph stays text; "1." and "-" start a list."""
    rendered = report._render_markdown("Published in\n2006. The paper\nsays:\n1. one\n2. two\n\nThen:\n- a\n", 0, "x.md")
    assert "<ol>" not in rendered.split("says:")[0]
    assert re.search(r"<ol>\s*<li>one</li>\s*<li>two</li>\s*</ol>", rendered)
    assert re.search(r"<ul>\s*<li>a</li>\s*</ul>", rendered)


def test_the_run_metadata_is_reported(page: Page) -> None:
    for value in ("ab12cd34ef", "0123456789abcdef", "hostname lab", "cpus 2", "2026-11-23T10:00:00Z",
                  "this machine, 2 parallel runs", "/tmp/cache", "12.3 s", "01" * 32, "seeds 1, 2, 3 (randomness: random start times)"):
        assert value in page.text, value


def test_the_report_is_deterministic_and_prints_nothing(tmp_path: Path, docs: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = build_fixture(tmp_path / "out")
    first = report.write_report(out, docs_dir=docs).read_bytes()
    second = report.write_report(out, docs_dir=docs).read_bytes()
    assert first == second
    assert capsys.readouterr() == ("", "")
    # Nothing but the page, and the list that marks it as ccsim's (a user's index.html is never replaced).
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == [".ccsim-report-manifest", "index.html",
                                                                     "reproduce.json"]
    (out / "index.html").unlink()
    (out / "index.html").write_text("mine")
    (out / ".ccsim-report-manifest").unlink()
    with pytest.raises(ccsim.SpecError, match="not written by ccsim"):
        report.write_report(out, docs_dir=docs)
    assert (out / "index.html").read_text() == "mine"


def test_the_checkouts_docs_explain_real_experiments(tmp_path: Path) -> None:
    """With no docs_dir the checkout's docs/ is read: obp-capacity gets the OBP section of
    docs/experiments.md, xcp-capacity and obp-period their sections of docs/validation.md."""
    out = tmp_path / "out"
    out.mkdir()
    names = ["obp-capacity", "xcp-capacity", "obp-period"]
    run = json.loads(json.dumps({"ccsim_version": "0.1.0", "build": "b", "commit": None,
                                 "machine": {"hostname": "h"}, "started_utc": "2026-11-23T10:00:00Z",
                                 "wall_seconds": 1.0, "quick": False, "jobs": None, "scheduler": "tcp://h:8786",
                                 "cache_dir": None, "runs": 3, "cache_hits": 0, "interrupted": False,
                                 "experiments": names}))
    (out / "reproduce.json").write_text(json.dumps(run))
    for n in names:
        _experiment(out, n, seeds=[1], checks=[_check("u", [0.5], 0.95, None, ">= 0.95", "not reproduced")],
                    figures=[])
    text = report.write_report(out).read_text(encoding="utf-8")

    def first_paragraph(doc: str, heading: str) -> str:
        lines = (REPO / "docs" / doc).read_text().splitlines()
        i = next(i for i, line in enumerate(lines) if line.startswith("#") and heading in line)
        body = []
        for line in lines[i + 1:]:
            if body and not line.strip():
                break
            if line.strip():
                body.append(line.strip())
        return " ".join(body)[:60]

    obp = first_paragraph("experiments.md", "## OBP (")
    assert obp in _section_text(text, "obp-capacity")
    assert first_paragraph("validation.md", "### xcp-capacity") in _section_text(text, "xcp-capacity")
    period = _section_text(text, "obp-period")
    assert "docs/validation.md, section “OBP's measurement period" in period
    assert "Dask cluster tcp://h:8786" in Page(text).text


def test_every_registered_experiment_has_a_docs_section_that_names_it() -> None:
    """docs/experiments.md and the report agree: each experiment's explanation is a section of
    the docs that names it (by its heading or its text)."""
    from ccsim.experiments import REGISTRY

    sections = report._sections(REPO / "docs")
    for name in REGISTRY:
        sec = report._doc_section(sections, name)
        assert sec is not None, name
        assert report._names(name).search("\n".join(sec.lines)), (name, sec.heading)


def test_without_docs_the_report_says_where_the_explanations_are(tmp_path: Path) -> None:
    out = build_fixture(tmp_path / "out")
    text = report.render(report._read_run(out), tmp_path / "nowhere")
    assert text.count("docs/experiments.md and docs/validation.md of the ccsim source") == 4
    with pytest.raises(ccsim.SpecError, match="nowhere"):
        report.write_report(out, docs_dir=tmp_path / "nowhere")


# ---------------------------------------------------------------------------------------------
# Bad input


def _garble(out: Path, rel: str, edit: Any) -> None:
    p = out / rel
    data = json.loads(p.read_text())
    edit(data)
    p.write_text(json.dumps(data))


@pytest.mark.parametrize("rel, edit, message", [
    ("reproduce.json", None, r"out/reproduce.json: missing"),
    ("obp-beta/table.json", "{not json", r"obp-beta/table.json: is not JSON \(Expecting property name"),
    ("obp-beta/table.json", lambda d: d[1].update(low="a"), r"obp-beta/table.json: \[1\].low: expected a number or null, found \"a\""),
    ("obp-beta/table.json", lambda d: d[2].update(low=2.0), r"\[2\].low: expected at most high \(1\), found 2.0"),
    ("obp-beta/table.json", lambda d: d[0].pop("samples"), r"obp-beta/table.json: \[0\].samples: missing"),
    ("obp-beta/table.json", lambda d: d[0].update(verdict="yes"), r"\[0\].verdict: expected one of"),
    ("ticp-alpha/reproduce.json", lambda d: d.update(name="other"), r"ticp-alpha/reproduce.json: name: expected \"ticp-alpha\""),
    ("ticp-alpha/reproduce.json", lambda d: d.update(figures=["../obp-beta/fig4_util.png"]), r"figures\[0\]: expected a path inside"),
    ("ticp-alpha/reproduce.json", lambda d: d.update(figures=["missing.png"]), r"figures\[0\]: .*missing.png cannot be read"),
    ("ticp-alpha/reproduce.json", lambda d: d.update(figures=["../../reproduce.json"]), r"expected a path inside"),
    ("ticp-alpha/reproduce.json", lambda d: d.update(figures=["table.md"]), r"table.md is neither a PNG nor an SVG"),
    ("ticp-alpha/reproduce.json", lambda d: d.update(seeds="1"), r"seeds: expected a list, found \"1\""),
    ("reproduce.json", lambda d: d.update(experiments=["ticp-alpha", "ticp-alpha"]), r"experiments\[1\]: expected each experiment once"),
    ("reproduce.json", lambda d: d.update(experiments=["../x"]), r"experiments\[0\]: expected an experiment name"),
    ("reproduce.json", lambda d: d.update(runs=-1), r"reproduce.json: runs: expected a whole number >= 0, found -1"),
    ("obp-gamma/reproduce.json", None, r"obp-gamma/reproduce.json: missing"),
])
def test_a_missing_or_garbled_file_is_named(tmp_path: Path, docs: Path, rel: str, edit: Any, message: str) -> None:
    out = build_fixture(tmp_path / "out")
    if edit is None:
        (out / rel).unlink()
    elif isinstance(edit, str):
        (out / rel).write_text(edit)
    else:
        _garble(out, rel, edit)
    with pytest.raises(ccsim.SpecError, match=message):
        report.write_report(out, docs_dir=docs)
    assert not (out / "index.html").exists()


def test_an_interrupted_run_marks_the_experiments_it_did_not_reach(tmp_path: Path, docs: Path) -> None:
    out = build_fixture(tmp_path / "out")
    _garble(out, "reproduce.json", lambda d: d.update(interrupted=True))
    shutil.rmtree(out / "obp-gamma")
    page = Page(report.write_report(out, docs_dir=docs).read_text())
    assert "0 reproduced, 1 not reproduced, 1 inconclusive, 1 failed, 1 not run" in page.text
    assert "This run was interrupted" in page.text


def test_the_command_line_writes_the_report_or_says_what_is_wrong(tmp_path: Path, docs: Path) -> None:
    out = build_fixture(tmp_path / "out")
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    ok = subprocess.run([sys.executable, "-m", "ccsim.report", str(out), "--docs", str(docs)],
                        capture_output=True, text=True, env=env, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == str(out / "index.html") and (out / "index.html").is_file()
    (out / "obp-beta" / "table.json").write_text("[")
    bad = subprocess.run([sys.executable, "-m", "ccsim.report", str(out)], capture_output=True, text=True,
                         env=env, timeout=60)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("ccsim: error: ")
    assert "obp-beta/table.json" in bad.stderr


# ---------------------------------------------------------------------------------------------
# A real browser

browser = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRE_BROWSER,
    reason="chromium is not installed (make install installs it; CCSIM_REQUIRE_BROWSER=1 makes this a failure)")


def _chromium(page_path: Path, profile: Path, *extra: str) -> str:
    assert CHROMIUM is not None, "chromium is required (CCSIM_REQUIRE_BROWSER is set) but not installed"
    proc = subprocess.run(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         "--no-first-run", "--virtual-time-budget=5000", *extra, page_path.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _body_counts(dom: str) -> tuple[str | None, str | None]:
    body = re.search(r"<body[^>]*>", dom)
    assert body, dom[:500]
    broken = re.search(r'data-broken-images="(\d+)"', body.group(0))
    errors = re.search(r'data-script-errors="(\d+)"', body.group(0))
    return (broken.group(1) if broken else None, errors.group(1) if errors else None)


@browser
def test_chromium_loads_every_image_without_a_script_error(written: Path, tmp_path: Path) -> None:
    dom = _chromium(written, tmp_path / "profile", "--dump-dom")
    assert _body_counts(dom) == ("0", "0")
    assert html.unescape(dom).count("data:image/") == 4


@browser
def test_chromium_detects_a_broken_image_and_a_script_error(written: Path, tmp_path: Path) -> None:
    """The negative control: the same check on a copy with one image corrupted and one failing
    script reports both, so the test above can fail."""
    text = written.read_text(encoding="utf-8")
    first = re.search(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert first
    bad = text.replace(first.group(1), base64.b64encode(b"\x89PNG\r\n\x1a\n truncated").decode(), 1)
    bad = bad.replace("</body>", "<script>notDefinedAnywhere();</script></body>")
    broken = tmp_path / "broken.html"
    broken.write_text(bad, encoding="utf-8")
    assert _body_counts(_chromium(broken, tmp_path / "profile", "--dump-dom")) == ("1", "1")


@browser
def test_chromium_takes_a_screenshot(written: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    _chromium(written, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,2000")
    with Image.open(shot) as im:
        assert im.size == (1280, 2000)
        # Not a blank page: the report's text, tables and figures make many distinct colours.
        assert len(im.convert("RGB").getcolors(1 << 20) or []) > 50
    assert shot.stat().st_size > 20_000
