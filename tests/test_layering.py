"""The crate layering of docs/architecture.md, checked: dependencies point downward only, the
protocols see nothing but ccsim-core (sans-IO), and only the binding crate links pyo3; and the
modules of the scenario crate and of the Python package import one way."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from conftest import ROOT

if sys.version_info < (3, 11):
    pytest.skip("tomllib needs Python 3.11", allow_module_level=True)
import tomllib

ALLOWED = {
    "ccsim-core": set(),
    "ccsim-engine": {"ccsim-core"},
    "ccsim-protocols": {"ccsim-core"},
    # Wire formats see the packets and headers only: never the engine or a scenario.
    "ccsim-wire": {"ccsim-core", "ccsim-protocols"},
    # The driver of agents over real UDP sockets: the protocols and their encoding, never the
    # engine, so that what runs over sockets is the agent alone (issue 29).
    "ccsim-udp": {"ccsim-core", "ccsim-protocols", "ccsim-wire"},
    "ccsim-scenario": {"ccsim-core", "ccsim-engine", "ccsim-protocols", "ccsim-wire", "ccsim-udp"},
    # The link emulator drives the engine in real time; it needs no spec, reads the ECN
    # field through ccsim-wire, and waits on its descriptors with the UDP driver's ppoll.
    "ccsim-emulate": {"ccsim-core", "ccsim-engine", "ccsim-wire", "ccsim-udp"},
    # Python algorithms implement the protocols' CongestionControl and the engine's
    # QueueDiscipline contracts (pycc.rs).
    "ccsim-py": {"ccsim-scenario", "ccsim-emulate", "ccsim-udp", "ccsim-protocols", "ccsim-engine", "ccsim-core"},
}


def deps(crate: str) -> set[str]:
    manifest = tomllib.loads((ROOT / "crates" / crate / "Cargo.toml").read_text())
    return set(manifest.get("dependencies", {}))


@pytest.mark.parametrize("crate", sorted(ALLOWED))
def test_crate_depends_only_on_lower_layers(crate: str) -> None:
    internal = {d for d in deps(crate) if d.startswith("ccsim-")}
    assert internal <= ALLOWED[crate], f"{crate} depends on {internal - ALLOWED[crate]}"


def test_the_udp_driver_never_reaches_the_engine() -> None:
    """Not even through a dependency: the closure of ccsim-udp's internal dependencies."""
    seen, todo = set(), ["ccsim-udp"]
    while todo:
        crate = todo.pop()
        for d in deps(crate):
            if d.startswith("ccsim-") and d not in seen:
                seen.add(d)
                todo.append(d)
    assert "ccsim-engine" not in seen and "ccsim-scenario" not in seen, seen


def test_only_the_binding_crate_links_pyo3() -> None:
    for crate in ALLOWED:
        if crate != "ccsim-py":
            assert "pyo3" not in deps(crate), crate


#: The modules that make system calls, the only places `unsafe` is allowed (by name, under the
#: workspace's `unsafe_code = "deny"`); every other crate forbids it at its root.
SYSTEM_CALLS = {"ccsim-udp": "src/sys.rs", "ccsim-emulate": "src/sys.rs", "ccsim-py": "src/guard.rs"}


def test_every_crate_takes_the_workspace_lints() -> None:
    for crate in ALLOWED:
        manifest = tomllib.loads((ROOT / "crates" / crate / "Cargo.toml").read_text())
        assert manifest.get("lints") == {"workspace": True}, f"{crate}: [lints] workspace = true, and nothing else"
    workspace = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["lints"]
    assert workspace["rust"]["unsafe_code"] == "deny"
    assert workspace["clippy"]["undocumented_unsafe_blocks"] in ("warn", "deny")


@pytest.mark.parametrize("crate", sorted(ALLOWED))
def test_unsafe_code_only_in_the_system_call_modules_each_block_with_its_safety_argument(crate: str) -> None:
    """A crate without system calls forbids `unsafe` at its root (nothing inside can allow it);
    in the others only the system-call module allows it, and every unsafe block or item there
    is preceded by a `// SAFETY:` comment saying why it is sound."""
    src = ROOT / "crates" / crate / "src"
    lib = (src / "lib.rs").read_text()
    if crate not in SYSTEM_CALLS:
        assert "#![forbid(unsafe_code)]" in lib, f"{crate}/src/lib.rs must forbid unsafe_code"
    unsafe = re.compile(r"\bunsafe\s*(\{|fn\b|impl\b)")
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(ROOT / "crates" / crate).as_posix()
        text = path.read_text()
        if rel != SYSTEM_CALLS.get(crate):
            assert "allow(unsafe_code)" not in text, f"{crate}/{rel} allows unsafe_code"
            assert not unsafe.search(text), f"{crate}/{rel} uses unsafe outside {SYSTEM_CALLS.get(crate)}"
            continue
        lines = text.splitlines()
        for i, line in enumerate(lines):
            code = line.split("//")[0]
            if not unsafe.search(code):
                continue
            above = lines[max(0, i - 6):i]
            assert any("// SAFETY:" in a for a in above), f"{crate}/{rel}:{i + 1}: unsafe without a // SAFETY: comment"

@pytest.mark.parametrize("crate", ["ccsim-core", "ccsim-engine", "ccsim-protocols"])
def test_simulation_crates_use_no_wall_clock_or_hash_maps(crate: str) -> None:
    """Determinism by construction: no wall clock, no hash-order iteration, no global RNG."""
    for path in (ROOT / "crates" / crate / "src").rglob("*.rs"):
        text = path.read_text()
        for banned in ("std::time", "Instant::now", "HashMap", "HashSet", "thread_rng"):
            assert banned not in text, f"{path.relative_to(ROOT)} uses {banned}"


# The modules of the scenario crate, layered as docs/architecture.md ("Inside ccsim-scenario") says:
# run.rs on top; protocols/, generators.rs and capture.rs below it, on the build context
# (netsim.rs) and the engine; spec/, units.rs and error.rs below everything. The check reads
# every path into the crate (`crate::...`, `super::...`, `self::...`, and in lib.rs the
# top-level module names), in code and in serde's path strings (`skip_serializing_if =
# "crate::spec::omit_none"`), and draws an edge from the importing module to the module the
# path lands in.
#
# Nodes: each file directly under src/ is one node, and each folder is one node with its mod.rs
# and every file under it. A folder is one unit because its files share types both ways by
# design (`Spec` holds `FlowSpec`, which holds `VegasSpec`, and the Vegas checks read the flow;
# a mod.rs dispatches to its files, which use the folder's shared items); its place in the
# layering is that of all its files together. A `pub use` is an import like any other: a
# module that re-exports another's items depends on it. lib.rs re-exports for users outside
# the crate; a path through it (`crate::ScenarioError`) is an edge to lib.rs, so modules
# inside the crate name the module that holds an item.
SCENARIO_SRC = ROOT / "crates" / "ccsim-scenario" / "src"

# Comments, char literals, raw strings and strings, leftmost first (so `"//"` stays a string).
_LEXEMES = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?\*/)"""
    r"""|(?P<char>'(?:\\.|[^\\'\n])')"""
    r"""|(?P<raw>\br(?P<hashes>\#*)".*?"(?P=hashes))"""
    r"""|(?P<string>b?"(?:\\.|[^"\\])*")""",
    re.S,
)
_PATH = re.compile(r"(?<![\w:$])(crate|super|self)((?:\s*::\s*(?:\w+|\{))+)")
_INLINE_MOD = re.compile(r"\bmod\s+(\w+)\s*\{")


def _code(text: str) -> str:
    """`text` without comments and literals (line breaks kept), a string that is a path into the
    crate kept as that path."""

    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        if m.group("string") and re.fullmatch(r'"crate(::\w+)+"', s):
            return " " + s[1:-1] + " "
        return re.sub(r"[^\n]", " ", s)

    return _LEXEMES.sub(blank, text)


def _braced(code: str, start: int) -> str:
    """The text inside the brace group opening at `code[start]`."""
    depth = 0
    for i in range(start, len(code)):
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        if depth == 0:
            return code[start + 1 : i]
    raise AssertionError(f"unbalanced braces after offset {start}")


def _top_level_items(group: str) -> list[str]:
    """The first identifier of each item of a `use` group (`a, b::c, {d}` gives a, b, d...)."""
    items, depth, current = [], 0, ""
    for ch in group + ",":
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += ch
    firsts = []
    for item in items:
        m = re.match(r"\s*\{?\s*(\w+)", item)
        if m:
            firsts.append(m.group(1))
    return firsts


def scenario_module_graph() -> dict[str, dict[str, str]]:
    """Node -> {node it imports: the first import that makes the edge, as `file:line path`}."""
    files = sorted(SCENARIO_SRC.rglob("*.rs"))
    rel = [f.relative_to(SCENARIO_SRC).as_posix() for f in files]
    node_of_name = {}
    for r in rel:
        first = r.split("/")[0]
        if r != "lib.rs":
            node_of_name[first.removesuffix(".rs")] = first + ("/" if "/" in r else "")
    graph: dict[str, dict[str, str]] = {}
    for path, r in zip(files, rel):
        node = node_of_name.get(r.split("/")[0].removesuffix(".rs"), "lib.rs")
        graph.setdefault(node, {})
        code = _code(path.read_text())
        # The module path at a position: the file's, then the inline `mod x { ... }` around it.
        module = [p.removesuffix(".rs") for p in r.split("/") if p not in ("mod.rs", "lib.rs")]
        inline = []
        for m in _INLINE_MOD.finditer(code):
            body = _braced(code, m.end() - 1)
            inline.append((m.end(), m.end() + len(body), m.group(1)))
        paths = [(m.start(), m.group(1), m.group(2)) for m in _PATH.finditer(code)]
        if r == "lib.rs":
            names = "|".join(sorted(node_of_name))
            bare = re.compile(rf"(?<![\w:$])({names})((?:\s*::\s*(?:\w+|\{{))+)")
            paths += [(m.start(), "self", "::" + m.group(0)) for m in bare.finditer(code)]
        for start, head, rest in paths:
            segments = [s for s in re.split(r"\s*::\s*", rest.strip()) if s]
            base = module + [name for (a, b, name) in inline if a <= start < b]
            if head == "crate":
                base = []
            elif head == "super":
                base = base[:-1]
            while segments and segments[0] == "super":
                base, segments = base[:-1], segments[1:]
            if segments and segments[-1] == "{":
                segments.pop()
                group = _braced(code, code.index("{", start))
                firsts = [s for s in _top_level_items(group) if s != "self"] if not segments else []
            else:
                firsts = []
            full = base + segments
            targets = [full[0]] if full else (firsts or [""])
            line = code.count("\n", 0, start) + 1
            for t in targets:
                target = node_of_name.get(t, "lib.rs")
                if target != node and target not in graph[node]:
                    graph[node][target] = f"{r}:{line} " + re.sub(r"\s+", "", head + rest).replace("{", "{..}")
    return graph


def find_cycle(graph: dict[str, dict[str, str]]) -> list[str]:
    """One cycle of `graph` as [a, b, ..., a], or [] if it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(n: str) -> list[str]:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, {})):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return []

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return []


def test_scenario_modules_import_one_way() -> None:
    graph = scenario_module_graph()
    # The reader sees the imports it must see.
    assert "protocols/" in graph["run.rs"] and "spec/" in graph["protocols/"], graph
    cycle = find_cycle(graph)
    steps = "\n".join(f"  {a} -> {b}: {graph[a][b]}" for a, b in zip(cycle, cycle[1:]))
    assert not cycle, f"the scenario crate's modules import in a circle, {' -> '.join(cycle)}:\n{steps}"


def test_scenario_spec_units_and_errors_sit_below_everything() -> None:
    graph = scenario_module_graph()
    leaves = {"spec/", "units.rs", "error.rs", "registry.rs", "workloads.rs", "bisection.rs"}
    for node in sorted(leaves):
        above = {t: why for t, why in graph[node].items() if t not in leaves}
        assert not above, f"{node} imports modules above it: {above}"


# The modules of the Python package, layered as docs/architecture.md ("Inside the Python package")
# says. The check parses every module of python/ccsim and draws an edge for each import of a
# ccsim module, absolute (`import ccsim.x`, `from ccsim import x`) or relative (`from .x import
# y`, `from .. import x`), wherever it stands: at the top, under `if TYPE_CHECKING:` or inside a
# function (an import put off to run time still ties the two modules together). A node is a
# module (a package is its __init__.py); `from p import x` lands on the module p.x if there is
# one, else on p. An import also runs the __init__.py of each package on the way to its module,
# so it draws an edge to each of those too, except the packages that hold the importing module,
# which are already loaded.
PACKAGE = ROOT / "python" / "ccsim"


def python_modules() -> dict[str, Path]:
    """Dotted module name -> its file; the compiled module (`ccsim._ccsim`) by its stub."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py*")):
        if path.suffix not in (".py", ".pyi"):
            continue
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules.setdefault(".".join(parts), path)
    return modules


def python_import_graph() -> dict[str, dict[str, str]]:
    """Module -> {module it imports: the first import that makes the edge, as `file:line import`}."""
    modules = python_modules()
    graph: dict[str, dict[str, str]] = {}
    for name, path in modules.items():
        if path.suffix != ".py":
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = graph.setdefault(name, {})
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]
            else:
                continue
            why = f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {ast.unparse(node)}"
            for target in targets:
                parts = target.split(".")
                if parts[0] != "ccsim":
                    continue
                while ".".join(parts) not in modules:  # `import ccsim.x.attr` and the like
                    parts.pop()
                # The module and the packages on the way to it that do not hold this module.
                for depth in range(1, len(parts) + 1):
                    step = ".".join(parts[:depth])
                    inside = name == step or name.startswith(step + ".")
                    if step != name and (depth == len(parts) or not inside):
                        edges.setdefault(step, why)
    return graph


def test_python_modules_import_one_way() -> None:
    graph = python_import_graph()
    # The reader sees the imports it must see: top level, relative and absolute, under
    # TYPE_CHECKING, inside a function, through a package.
    assert "ccsim.spec" in graph["ccsim.api"] and "ccsim.runner" in graph["ccsim.spec"], graph
    assert "ccsim.plots" in graph["ccsim.results"] and "ccsim.report" in graph["ccsim.reproduce"], graph
    assert "ccsim.results" in graph["ccsim.metrics"], graph  # under TYPE_CHECKING
    assert "ccsim.topology" in graph["ccsim.experiments.obp"], graph  # from .. import topology
    assert "ccsim.experiments" in graph["ccsim.report"], graph  # the package of experiments.base
    assert "ccsim" not in graph["ccsim.api"], graph  # the package holding api is not an edge
    cycle = find_cycle(graph)
    steps = "\n".join(f"  {a} -> {b}: {graph[a][b]}" for a, b in zip(cycle, cycle[1:]))
    assert not cycle, f"the Python package's modules import in a circle, {' -> '.join(cycle)}:\n{steps}"
