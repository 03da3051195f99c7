"""Exceptions raised by ccsim. Every one derives from :class:`CcsimError`:

- :class:`SpecError` (also a ``ValueError``): bad input, a scenario's field or an argument of
  an API call; ``.path`` names it. :class:`NotFoundError` (also a ``KeyError``) when the input
  names something a result does not hold.
- :class:`SimulationError` (also a ``RuntimeError``): a run could not complete;
  :class:`UserCodeError` when a user's algorithm raised.
- :class:`ResourceError` (also an ``OSError``): something the machine refused or lacks:
  privileges, a network namespace, a TUN device, a socket, a file, a program; ``.resource``
  names it. :class:`WriteError` (results not written) is one, and a ``SimulationError`` too.
- :class:`InternalError`: a bug in ccsim.

The command line maps them to its exit statuses (docs/scenarios.md, "Exit statuses"); a test
walks every ``raise`` in the package and every native call site (tests/test_errors.py)."""

from __future__ import annotations

import errno
import os
import re
import shutil
from pathlib import Path


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


class NotFoundError(SpecError, KeyError):
    """A name asked of a result or an experiment that it does not hold (a series, a flow, a
    link, a session). A :class:`SpecError` whose ``path`` is the argument, and a ``KeyError``
    as a lookup's error is in Python."""


class SimulationError(CcsimError, RuntimeError):
    """A run could not complete for a reason other than bad input (e.g. it would hold more
    memory than the machine has: see ``CCSIM_MEMORY_LIMIT`` in docs/scenarios.md)."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UserCodeError(SimulationError):
    """A user's algorithm (a Python congestion control or queue) raised an exception and the
    run stopped. The message names the flow or link, the class, the hook, where in the user's
    file, and the exception (the traceback's last line)."""


class ResourceError(CcsimError, OSError):
    """The machine refused or lacks something a command needs: privileges, a network
    namespace, a TUN device, a socket or an address, a file or folder, a program. ``resource``
    names it (a path, an address, a program); ``str(err)`` is the message."""

    def __init__(self, message: str, resource: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.resource = resource

    def __str__(self) -> str:
        return self.message


class InternalError(CcsimError):
    """A bug in ccsim (a caught panic or a broken invariant). Please report it."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class WriteError(ResourceError, SimulationError):
    """Results could not be written for a reason of the machine's, not ccsim's: a full disk,
    a quota, a read-only or forbidden folder. The message says what happened and where; the
    previous results in the folder are left as they were. A ``ResourceError`` (the folder is
    its ``resource``) and, as before, a ``SimulationError``."""


def describe_os_error(e: OSError, where: str | os.PathLike[str] | None) -> str:
    """One line for an operating-system error met while writing into ``where``: what
    happened, on which device or at which path (``e.filename`` when the system named one;
    no path when neither names one: a closed socket is at no path)."""
    if not isinstance(e.filename, (str, os.PathLike)) and where is None:
        return e.strerror or str(e)
    path = Path(e.filename) if isinstance(e.filename, (str, os.PathLike)) else Path(str(where))
    code = e.errno
    if code is None:  # the Rust writer's errors carry the code in their text: "(os error 28)"
        found = re.search(r"\(os error (\d+)\)", str(e))
        code = int(found.group(1)) if found else None
    if code == errno.ENOSPC:
        mount = _mount_point(path)
        free = shutil.disk_usage(mount).free if mount.exists() else None
        left = f", {free} bytes free" if free is not None else ""
        return f"no space left on the device mounted at {mount} (writing {path}{left})"
    what = {
        errno.EDQUOT: "disk quota exceeded",
        errno.EROFS: "read-only file system",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
    }.get(code or -1, e.strerror or str(e))
    return f"{what} at {path}"


def _mount_point(path: Path) -> Path:
    p = path.resolve() if path.exists() else path.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    while not os.path.ismount(p) and p != p.parent:
        p = p.parent
    return p
