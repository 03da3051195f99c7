"""The Python API around sweeps: the README's sweep example."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import ccsim

ROOT = Path(__file__).resolve().parent.parent


def readme_python() -> str:
    """The Python block of the README's "From Python" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def readme_assignments(*names: str) -> dict[str, Any]:
    """Execute only the README block's top-level assignments to ``names`` (not its runs)."""
    tree = ast.parse(readme_python())
    kept = [node for node in tree.body if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id in names for t in node.targets)]
    namespace: dict[str, Any] = {"ccsim": ccsim}
    exec(compile(ast.Module(body=kept, type_ignores=[]), "README.md", "exec"), namespace)
    return namespace


def test_the_readme_seed_sweep_changes_the_seed_and_keeps_the_rest_of_run() -> None:
    ns = readme_assignments("s", "base", "specs")
    base = ns["s"].to_dict()
    assert base["run"].get("warmup"), "the README's scenario should have a warm-up for the sweep to keep"
    specs = ns["specs"]
    assert [spec["run"]["seed"] for spec in specs] == list(range(8))
    for spec in specs:
        assert {k: v for k, v in spec["run"].items() if k != "seed"} == \
               {k: v for k, v in base["run"].items() if k != "seed"}
        assert {k: v for k, v in spec.items() if k != "run"} == {k: v for k, v in base.items() if k != "run"}
    # The scenario itself is left as it was.
    assert ns["s"].to_dict() == base


def test_the_readme_idiom_keeps_reroute_and_routing_too() -> None:
    """The same expression, applied to a spec whose [run] has every optional key."""
    ns = readme_assignments("s", "base", "specs")
    source = next(line for line in readme_python().splitlines() if line.startswith("specs = "))
    base = (ccsim.Scenario(duration="10s", seed=3, warmup="2s", routing="hops", reroute="1s")
            .link("a", "b", rate="1Mbps", delay="1ms").to_dict())
    scope = {**ns, "base": base}
    exec(source, scope)
    for k, spec in enumerate(scope["specs"]):
        assert spec["run"] == {"duration": "10s", "seed": k, "warmup": "2s", "routing": "hops", "reroute": "1s"}
        ccsim.validate(spec)
