"""Exceptions raised by ccsim. Every one derives from :class:`CcsimError`."""

from __future__ import annotations


class CcsimError(Exception):
    """Base class of every ccsim error."""


class SpecError(CcsimError, ValueError):
    """A scenario is malformed or inconsistent.

    ``path`` names the field (``links[3].rate``) or, for TOML syntax errors, the line and
    column; ``str(err)`` reads ``path: message``.
    """

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message, path)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        if self.path and not self.message.startswith("TOML syntax error"):
            return f"{self.path}: {self.message}"
        return self.message


class SimulationError(CcsimError, RuntimeError):
    """A run could not complete for a reason other than bad input (e.g. it would hold more
    memory than the machine has: see ``CCSIM_MEMORY_LIMIT`` in docs/scenarios.md)."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InternalError(CcsimError):
    """A bug in ccsim (a caught panic or a broken invariant). Please report it."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
