"""One error family: every exception ccsim raises is a ``ccsim.CcsimError`` (docs/scenarios.md,
"Errors and exit statuses"). Checked three ways: every exception class the package defines or
exports, every ``raise`` statement in its source, and every error the native module builds;
then a few raised for real, and the command line's exit statuses."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import typing
from pathlib import Path
from typing import Any

import pytest

import ccsim
import ccsim.cli
from ccsim.errors import CcsimError, NotFoundError, ResourceError, SimulationError, SpecError, WriteError
from conftest import ROOT, small_spec

PACKAGE = ROOT / "python" / "ccsim"

#: Raised on purpose and not a CcsimError, with why.
NOT_CCSIM = {
    # The hooks a user's CongestionControl or QueueDiscipline must define: Python's idiom for an
    # abstract method, raised inside the user's class (a run turns it into a UserCodeError).
    ("algorithms.py", "NotImplementedError"),
    # An argument's type function tells argparse the text is wrong; argparse prints the usage
    # line and exits 2 (the parser's own error), so it never leaves the parser.
    ("cli.py", "ArgumentTypeError"),
}


def _modules() -> list[Any]:
    """Every module of the package that imports here (the Dask one needs its extra)."""
    modules = []
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="ccsim."):
        try:
            modules.append(importlib.import_module(info.name))
        except ImportError as e:
            if "distributed" not in str(e) and "dask" not in str(e):
                raise
    return modules


def test_every_exception_class_of_the_package_is_a_ccsim_error() -> None:
    classes = {c for m in _modules() for _, c in inspect.getmembers(m, inspect.isclass)
               if issubclass(c, BaseException) and c.__module__.startswith("ccsim")}
    classes |= {getattr(ccsim, name) for name in ccsim.__all__
                if isinstance(getattr(ccsim, name), type) and issubclass(getattr(ccsim, name), BaseException)}
    assert len(classes) >= 10, sorted(c.__name__ for c in classes)
    assert [c.__qualname__ for c in classes if not issubclass(c, CcsimError)] == []
    # The family's members keep the built-in bases users catch.
    assert issubclass(SpecError, ValueError) and issubclass(NotFoundError, KeyError)
    assert issubclass(SimulationError, RuntimeError) and issubclass(ResourceError, OSError)
    assert issubclass(WriteError, ResourceError) and issubclass(WriteError, SimulationError)


def _raised_names(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) of every ``raise Name(...)`` or ``raise module.Name(...)``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None:
                found.append((node.lineno, name))
    return found


def test_every_raise_in_the_package_raises_a_ccsim_error() -> None:
    """Each ``raise X(...)``: X, looked up in its module, is a CcsimError (or listed above)."""
    loaded = _modules()
    modules = {Path(m.__file__).resolve(): m for m in loaded if getattr(m, "__file__", None)}
    builtins = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
    # A name imported inside a function is no module attribute: look it up among the package's
    # exception classes by name (they are unique).
    by_name = {c.__name__: c for m in loaded for _, c in inspect.getmembers(m, inspect.isclass)
               if issubclass(c, BaseException) and c.__module__.startswith("ccsim")}
    seen, wrong = 0, []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = modules.get(path.resolve())
        if module is None:
            continue
        rel = path.relative_to(PACKAGE).as_posix()
        for line, name in _raised_names(ast.parse(path.read_text())):
            seen += 1
            cls = getattr(module, name, None) or by_name.get(name) or builtins.get(name)
            if (rel, name) in NOT_CCSIM:
                continue
            if inspect.isfunction(cls):  # a function that builds the exception: its return type
                cls = typing.get_type_hints(cls).get("return")
            if not (isinstance(cls, type) and issubclass(cls, CcsimError)):
                wrong.append(f"{rel}:{line}: raise {name}")
    assert seen > 150, seen  # the walk read the package
    assert wrong == [], "\n".join(wrong)


#: The Python exceptions the native module may build itself; every other goes through errors.rs.
NATIVE_ALLOWED = {
    # Ctrl-C's own exception (the command line's status 130), and the one raised if
    # ``ccsim.errors`` itself cannot be imported.
    "errors.rs": {"PyKeyboardInterrupt", "PyRuntimeError"},
    # To a user's queue class, inside its own hook, as any sequence answers an index out of
    # range (``q.peek(i)``); if the class does not catch it the run ends in a UserCodeError.
    "pycc.rs": {"PyIndexError"},
}


def test_the_native_module_builds_its_errors_in_one_place() -> None:
    built = re.compile(r"\b(Py[A-Z][A-Za-z]*)::new_err\b")
    files = sorted((ROOT / "crates" / "ccsim-py" / "src").glob("*.rs"))
    assert len(files) > 5
    for path in files:
        used = set(built.findall(path.read_text()))
        assert used <= NATIVE_ALLOWED.get(path.name, set()), f"{path.name} builds {sorted(used)} itself"
    errors_rs = (ROOT / "crates" / "ccsim-py" / "src" / "errors.rs").read_text()
    for cls in ("SpecError", "SimulationError", "ResourceError", "InternalError", "UserCodeError"):
        assert f'"{cls}"' in errors_rs, cls
        assert hasattr(ccsim.errors, cls)


def test_a_missing_table_from_the_native_module_is_a_spec_error() -> None:
    result = ccsim.run(small_spec(duration="0.2s"))
    with pytest.raises(SpecError, match="no table .nodes.") as err:
        result._data.table("nodes")
    assert err.value.path == "which"


def test_a_missing_series_is_a_not_found_error_and_a_key_error() -> None:
    result = ccsim.run(small_spec(duration="0.2s"))
    with pytest.raises(KeyError) as err:
        result.series("no-such-variable")
    assert isinstance(err.value, NotFoundError) and err.value.path == "variable"
    assert "no series 'no-such-variable'" in str(err.value)


def test_a_resource_error_names_its_resource() -> None:
    e = ResourceError("cannot open TUN device ccsim0 in /run/netns/x: permission denied",
                      "TUN device ccsim0 in /run/netns/x")
    assert isinstance(e, OSError) and isinstance(e, CcsimError)
    assert e.resource == "TUN device ccsim0 in /run/netns/x" and str(e).startswith("cannot open")


@pytest.mark.parametrize("error,status", [
    (SpecError("must be positive", "links[0].rate"), 2),
    (NotFoundError("no flow 'x'", "flows"), 2),
    (SimulationError("run stopped"), 1),
    (ResourceError("ccsim emulate needs root", "root"), 1),
    (WriteError("results not written: read-only file system at /x", "/x"), 1),
    (ccsim.InternalError("internal error (please report): x"), 1),
])
def test_the_command_line_gives_each_error_one_line_and_its_status(
        error: CcsimError, status: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def fail(_args: Any) -> int:
        raise error

    monkeypatch.setattr(ccsim.cli, "_cmd_schema", fail)
    assert ccsim.cli.main(["schema"]) == status
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(error) in err[0] and err[0].startswith("ccsim: "), err
