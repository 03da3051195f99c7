"""One command-line grammar (issue 44): every subcommand's --help is walked; options follow one
style (a help text for each, lower case but for a proper name, no final full stop, defaults as
"(default: X)"); durations carry their unit as in scenario files; --timeout means one thing;
the commands that write files take -o and those that print lines take -q."""

from __future__ import annotations

import argparse
import re
from typing import Any

import pytest

from ccsim.cli import build_parser, main
from ccsim.cliargs import duration_seconds
from ccsim.errors import SpecError

#: Words a help text may start with in capitals: names, not sentences.
PROPER_NAMES = {"TICP", "RS", "GT-ITM", "Meta's"}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = sub
    return found


def leaves(parser: argparse.ArgumentParser | None = None, path: tuple[str, ...] = ()
           ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command a user can run: (its words after ``ccsim``, its parser)."""
    parser = parser or build_parser()
    subs = _subparsers(parser)
    if not subs:
        return [(path, parser)]
    return [leaf for name, sub in subs.items() for leaf in leaves(sub, (*path, name))]


COMMANDS = leaves()


def test_the_walk_finds_every_command() -> None:
    words = {" ".join(path) for path, _ in COMMANDS}
    assert {"run", "validate", "flows", "schema", "bench", "reproduce", "emulate", "real send", "real recv",
            "real ticp collect", "real ticp source", "real ticp landmark", "topology dumbbell",
            "topology fat-tree", "topology waxman"} <= words, words


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS] + [()], ids=lambda p: " ".join(p) or "ccsim")
def test_every_help_prints_and_exits_0(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([*path, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: ccsim {' '.join(path)}".rstrip()), out[:200]


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._VersionAction,
                                                               argparse._SubParsersAction))]


@pytest.mark.parametrize("path,parser", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_option_has_a_help_text_in_the_house_style(path: tuple[str, ...], parser: argparse.ArgumentParser
                                                         ) -> None:
    for action in _options(parser):
        name = action.option_strings[-1] if action.option_strings else action.dest
        text = action.help
        assert text, f"ccsim {' '.join(path)} {name}: no help text"
        first = text.split()[0].rstrip(",:")
        assert text[0].islower() or not text[0].isalpha() or first in PROPER_NAMES, f"{name}: {text!r}"
        assert not text.rstrip().endswith("."), f"{name}: a help text ends without a full stop: {text!r}"
        assert not re.search(r"\(default [^:]", text), f"{name}: write defaults as (default: X): {text!r}"
        # A duration is a DURATION with its unit, never a bare number of seconds.
        assert action.metavar not in ("SECONDS", "MS"), f"{name}: durations are DURATION strings"


def test_durations_are_read_only_with_their_unit() -> None:
    assert duration_seconds("2s", "--x") == 2.0
    assert duration_seconds("500ms", "--x") == 0.5
    assert duration_seconds("1.5e-3s", "--x") == pytest.approx(0.0015)
    assert duration_seconds("250us", "--x") == pytest.approx(250e-6)
    assert duration_seconds("250µs", "--x") == pytest.approx(250e-6)
    with pytest.raises(SpecError, match=r'^--x: .*found \'3\' \("3s" for seconds\)$'):
        duration_seconds("3", "--x")
    for bad in ("", "s", "-1s", "2 sec", "2min", "inf", "1e400s"):
        with pytest.raises(SpecError, match=r"^--x: "):
            duration_seconds(bad, "--x")


def _option(path: str, flag: str) -> argparse.Action | None:
    parser = dict((" ".join(p), q) for p, q in COMMANDS)[path]
    return next((a for a in _options(parser) if flag in a.option_strings), None)


def test_timeout_means_one_thing() -> None:
    """``--timeout`` ends a whole run whatever happens; a wait for a first packet has its own name."""
    with_timeout = [" ".join(p) for p, q in COMMANDS if any("--timeout" in a.option_strings for a in _options(q))]
    assert with_timeout == ["real ticp collect"]
    action = _option("real ticp collect", "--timeout")
    assert action is not None and "whatever happens" in (action.help or "")
    assert _option("real recv", "--first-arrival-timeout") is not None
    assert _option("real ticp source", "--first-request-timeout") is not None


@pytest.mark.parametrize("path,flags", [
    ("run", {"-o", "-q", "--json"}), ("flows", {"-o", "-q"}), ("reproduce", {"-o", "-q"}), ("emulate", {"-o", "-q"}),
    ("real send", {"-o", "-q"}), ("real recv", {"-o", "-q"}), ("real ticp collect", {"-o", "-q"}),
    ("real ticp source", {"-o", "-q"}), ("real ticp landmark", {"-q"}), ("validate", {"-q"}),
    ("topology dumbbell", {"-o", "-q"}), ("topology waxman", {"-o", "-q"}), ("bench", {"--json"}),
])
def test_the_commands_share_their_output_options(path: str, flags: set[str]) -> None:
    for flag in flags:
        assert _option(path, flag) is not None, f"ccsim {path} has no {flag}"


def test_a_bare_number_for_a_duration_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["real", "recv", "examples/dumbbell.toml", "--flow", "tcp1", "--listen", "127.0.0.1:0",
                 "--idle-end", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['ccsim: error: --idle-end: expected a duration with its unit, such as "2s" or "500ms", '
                   'found \'3\' ("3s" for seconds)'], err


def test_run_json_prints_the_summary(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["run", "examples/dumbbell.toml", "-o", str(tmp_path / "out"), "-q", "--json", "--no-plots"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((tmp_path / "out" / "summary.json").read_text())
    assert set(printed) >= {"flows", "links", "aggregate", "fairness", "run"}
