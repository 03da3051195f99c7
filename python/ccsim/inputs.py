"""Reading the files a user names (scenario, trace, link file, key file, source list): bounded
by the bytes actually read, and only regular files.

A device or a FIFO reports a size of 0, so a bound on the size a file claims does not bound
what reading it returns (`/dev/zero` never ends); a FIFO without a writer blocks ``open``
forever. Every file ccsim reads on a user's behalf goes through :func:`read_input`, which
opens without blocking, refuses what is not a regular file, and reads at most its limit plus
one byte, so a file that grows while it is read is refused too. Each refusal is one
:class:`ccsim.SpecError` naming the field.

CHOICE: a device, FIFO or socket is refused rather than read with a bound and a timeout: no
input of ccsim's is a stream (a scenario is parsed whole, a trace replayed whole), and a
process substitution's pipe can be written to a file first.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import SpecError

#: The most bytes of any one input file: a scenario, a mahimahi trace (150 MB holds about 25
#: million delivery opportunities), a link file, a key file or a source list.
MAX_INPUT_BYTES = 150_000_000


def read_input(path: str | os.PathLike[str], field: str, what: str = "file", *,
               limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit``; a :class:`SpecError` naming
    ``field`` for a missing file, a folder, a device, FIFO or socket, a file beyond ``limit``
    and any other error of the operating system. ``what`` names the file in the message
    ("trace file")."""
    shown = str(path)[:200]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SpecError(f"no such {what}: {shown}", field) from None
    except IsADirectoryError:
        raise SpecError(f"{what} {shown} is a folder", field) from None
    except OSError as e:
        if e.errno == errno.ENXIO:  # a FIFO or socket with nothing at the other end
            raise SpecError(f"{what} {shown} is a FIFO or socket, not a regular file", field) from None
        raise SpecError(f"cannot read {what} {shown}: {e.strerror or e}", field) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise SpecError(f"{what} {shown} is a folder", field)
        if not stat.S_ISREG(mode):
            kind = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file")
            raise SpecError(f"{what} {shown} is {kind}, not a regular file; write it to a file first", field)
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise SpecError(f"{what} {shown} is larger than {limit} bytes", field)
        return b"".join(chunks)
    except OSError as e:
        raise SpecError(f"cannot read {what} {shown}: {e.strerror or e}", field) from None
    finally:
        os.close(fd)


def read_input_text(path: str | os.PathLike[str], field: str, what: str = "file", *,
                    limit: int = MAX_INPUT_BYTES) -> str:
    """:func:`read_input` decoded as UTF-8; a :class:`SpecError` naming ``field`` if it is not."""
    data = read_input(path, field, what, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SpecError(f"{what} {str(path)[:200]} is not UTF-8 text ({e.reason})", field) from None


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a regular file (following links), without opening it."""
    try:
        return stat.S_ISREG(Path(path).stat().st_mode)
    except (OSError, ValueError):
        return False
