"""`ccsim emulate`: run real processes across a link emulated by ccsim's own link and queue code.

Two network namespaces, "client" and "server", each get a TUN device (``ccsim0``; the client
10.77.0.1, the server 10.77.0.2, point to point); every IP packet one sends to the other crosses
the emulator (``ccsim-emulate``: a simulated link per direction, run in real time, with the
rate, delay, queue and loss of the file's one ``[[links]]`` entry; the ports of its
``[[port_delays]]`` behind access links of their own). The server command, if any,
starts first in the server namespace; the client command runs in the client namespace with the
server's address in ``CCSIM_SERVER``; the emulator stops when the client command exits, and its
exit status is returned. docs/real-networks.md has the details and the accuracy to expect.

CHOICE: IPv6 is disabled in both namespaces, so the path carries only the commands' own IPv4
traffic (no router solicitations or duplicate-address probes).
CHOICE: the server command is given 0.5 s to start listening before the client starts, and, when
the client command has exited, SIGTERM and 2 s to end before SIGKILL.
CHOICE: a direction's release is faithful when its p99 lateness is at most a tenth of the time
one 1500-byte packet takes at the link's rate (research note modern-tcp.md section 4.3); above
it the run warns, and with ``strict`` fails (exit status 3, the summary still written).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from types import FrameType
from typing import Any, Iterator
from contextlib import contextmanager

from .errors import ResourceError, SpecError

CLIENT_ADDRESS = "10.77.0.1"
SERVER_ADDRESS = "10.77.0.2"
DEVICE = "ccsim0"
#: Seconds the server command gets to start before the client runs.
SERVER_START_S = 0.5
#: Seconds the server command gets to end after SIGTERM before it is killed.
SERVER_STOP_S = 2.0
#: Seconds the link keeps running after the client command exits, at most, to drain
#: (``--drain``), and how long it must be empty and quiet to count as drained.
DRAIN_S = 2.0
DRAIN_QUIET_S = 0.2
#: Seconds the server gets to exit on its own after the drain, before SIGTERM (``--grace``).
GRACE_S = 2.0
#: The longest ``--drain`` or ``--grace`` accepted.
MAX_WAIT_S = 3600.0
#: The faithful-release bound: this fraction of one 1500-byte packet time at the link rate.
LATENESS_FRACTION = 0.1
#: Exit status of a strict run whose release was not faithful.
UNFAITHFUL_STATUS = 3
#: The exit status of a run ended by Ctrl-C or SIGTERM.
INTERRUPTED_STATUS = 130


class EmulationError(ResourceError, RuntimeError):
    """The machine cannot emulate (no root, no TUN device, no `ip` command), or a command of the
    emulation could not run; ``resource`` names what (a :class:`ResourceError`, and a
    ``RuntimeError`` as before)."""


def check_machine() -> None:
    """An :class:`EmulationError` naming what is missing, if this machine cannot emulate."""
    if sys.platform != "linux":
        raise EmulationError("ccsim emulate needs Linux (network namespaces and TUN devices)", sys.platform)
    if os.geteuid() != 0:
        raise EmulationError("ccsim emulate needs root (it creates network namespaces and TUN devices)", "root")
    if not os.path.exists("/dev/net/tun"):
        raise EmulationError("ccsim emulate needs /dev/net/tun (modprobe tun)", "/dev/net/tun")
    if shutil.which("ip") is None:
        raise EmulationError("ccsim emulate needs the ip command (Debian package iproute2)", "ip")


#: The tables of a link file's ``[[links]]`` entry that give one direction keys of its own.
DIRECTION_TABLES = {"client_to_server": "client->server", "server_to_client": "server->client"}


def load_link_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The scenario spec of a LINK.toml's client-to-server direction: its one ``[[links]]``
    entry between "client" and "server" (the usual keys, with those of its
    ``client_to_server`` table) and an optional ``[run]`` with a ``seed``; a
    :class:`SpecError` naming the field otherwise."""
    return load_link_directions(path)[0]


def load_link_directions(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The scenario specs of a LINK.toml's two directions, client to server and back. The
    ``[[links]]`` entry's keys apply to both; its optional tables ``client_to_server`` and
    ``server_to_client`` override them for one direction (e.g. ``[links.server_to_client]``
    with ``rate = "50Mbps"``). A :class:`SpecError` names the field."""
    spec, reverse, _ = load_link_path(path)
    return spec, reverse


#: The most ``[[port_delays]]`` entries a link file may have.
MAX_PORT_DELAYS = 64


def load_link_path(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Any], list[tuple[int, int]]]:
    """:func:`load_link_directions`, and the file's ``[[port_delays]]`` as (port, one-way
    delay in nanoseconds): each entry's TCP or UDP port (source or destination) crosses an
    access link of that delay each way on the client's side, for flows of unequal round trips
    through the one link (docs/real-networks.md)."""
    from .inputs import read_input_text

    text = read_input_text(path, "link file", "link file")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path} is not valid TOML: {e}", "link file") from None
    extra = sorted(set(doc) - {"links", "run", "port_delays"})
    if extra:
        raise SpecError(f"unknown key {extra[0]!r}: a link file has [[links]], an optional [run] and optional "
                        f"[[port_delays]]", extra[0])
    links = doc.get("links")
    if not isinstance(links, list) or len(links) != 1:
        found = len(links) if isinstance(links, list) else "none"
        raise SpecError(f"a link file has exactly one [[links]] entry, found {found}", "links")
    link = links[0]
    if not isinstance(link, dict) or link.get("between") != ["client", "server"]:
        shown = link.get("between") if isinstance(link, dict) else link
        raise SpecError(f'the link must be between = ["client", "server"], found {shown!r}', "links[0].between")
    run = doc.get("run", {})
    if not isinstance(run, dict) or set(run) - {"seed"}:
        raise SpecError("[run] takes only seed in a link file", "run")
    from .spec import resolve_trace_files

    resolve_trace_files(doc, Path(path).parent)
    base = {k: v for k, v in link.items() if k not in DIRECTION_TABLES}
    specs = []
    for table in DIRECTION_TABLES:
        override = link.get(table, {})
        if not isinstance(override, dict):
            raise SpecError(f"expected a table of link keys, found {override!r}", f"links[0].{table}")
        if "between" in override:
            raise SpecError("a direction's table cannot change between", f"links[0].{table}.between")
        specs.append(_validated({"run": {"duration": "1s", **run}, "links": [{**base, **override}], "flows": []},
                                table, set(override)))
    return specs[0], specs[1], _port_delays(doc.get("port_delays", []))


def _port_delays(entries: Any) -> list[tuple[int, int]]:
    """``[[port_delays]]`` validated: (port, one-way delay in ns) per entry."""
    from . import _ccsim
    from .sweep import _TIME_UNITS, _quantity

    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise SpecError("expected [[port_delays]] tables of port and delay", "port_delays")
    if len(entries) > MAX_PORT_DELAYS:
        raise SpecError(f"at most {MAX_PORT_DELAYS} entries, found {len(entries)}", "port_delays")
    out: list[tuple[int, int]] = []
    for i, entry in enumerate(entries):
        where = f"port_delays[{i}]"
        unknown = sorted(set(entry) - {"port", "delay"})
        if unknown:
            raise SpecError(f"unknown key {unknown[0]!r}: an entry has port and delay", f"{where}.{unknown[0]}")
        for key in ("port", "delay"):
            if key not in entry:
                raise SpecError(f"missing {key}", f"{where}.{key}")
        port = entry["port"]
        if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
            raise SpecError(f"must be a TCP or UDP port, 1 to 65535, found {port!r}", f"{where}.port")
        if any(port == p for p, _ in out):
            raise SpecError(f"port {port} has two entries", f"{where}.port")
        # The access link's delay as a link's delay (units, bounds), on a 1 Gbit/s link.
        access = {"run": {"duration": "1s"}, "flows": [],
                  "links": [{"between": ["client", "access"], "rate": "1Gbps", "delay": entry["delay"]}]}
        try:
            canonical = json.loads(_ccsim.validate(json.dumps(access)))["links"][0]["delay"]
        except SpecError as e:
            message = str(e).removeprefix(f"{e.path}: ").replace('at "1Gbps" ', "at 1 Gbit/s ")
            raise SpecError(message, f"{where}.delay") from None
        out.append((port, round(_quantity(canonical, _TIME_UNITS) * 1e9)))
    return out


def _validated(spec: dict[str, Any], table: str, overridden: set[str]) -> dict[str, Any]:
    """``spec`` validated; an error in a key the direction's table set names that table."""
    from . import _ccsim

    try:
        return dict(json.loads(_ccsim.validate(json.dumps(spec))))
    except SpecError as e:
        path = e.path or ""
        key = path.removeprefix("links[0].").split(".")[0].split("[")[0]
        if path.startswith("links[0].") and key in overridden:
            raise SpecError(str(e).removeprefix(f"{path}: "), f"links[0].{table}.{path.removeprefix('links[0].')}") \
                from None
        raise


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise EmulationError(f"ip {' '.join(args)}: {done.stderr.strip() or done.returncode}", f"ip {' '.join(args)}")


def _tx_dropped(netns: str) -> int | None:
    """The TUN device's transmit drops (packets the kernel could not hand to the emulator)."""
    done = subprocess.run(["ip", "-n", netns, "-j", "-s", "link", "show", "dev", DEVICE],
                          capture_output=True, text=True)
    try:
        return int(json.loads(done.stdout)[0]["stats64"]["tx"]["dropped"])
    except (ValueError, KeyError, IndexError, TypeError):
        return None


@contextmanager
def _namespaces() -> Iterator[tuple[str, str]]:
    """Two fresh network namespaces, removed on the way out whatever happens (their
    processes killed first). Those an earlier emulate left behind when it was killed
    (SIGKILL) are removed first (:func:`remove_stale_namespaces`)."""
    remove_stale_namespaces()
    tag = f"ccsim-{os.getpid()}-{time.monotonic_ns() % 1_000_000}"
    names = (f"{tag}-client", f"{tag}-server")
    created: list[str] = []
    try:
        for name in names:
            _ip("netns", "add", name)
            created.append(name)
        yield names
    finally:
        for name in created:
            _remove_namespace(name)


#: The names of emulate's namespaces: ccsim-<pid of the emulate>-<6 digits>-client|server.
_OUR_NAMESPACE = re.compile(r"ccsim-(\d+)-\d{1,6}-(?:client|server)")


def _remove_namespace(name: str) -> None:
    pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    subprocess.run(["ip", "netns", "del", name], capture_output=True)


def remove_stale_namespaces() -> list[str]:
    """Remove the namespaces (and kill the processes in them) that an emulate killed before
    its cleanup left behind, and return their names: those named as emulate names its own
    whose emulate process is gone. CHOICE: a namespace of a live process, or of any other
    name, is never touched; a dead process's pid may be reused by an unrelated process, which
    then keeps the stale pair until it ends (`ip netns del NAME` removes it by hand)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split("\n")
    stale = []
    for line in listed:
        name = line.split(" ")[0]
        m = _OUR_NAMESPACE.fullmatch(name)
        if m is None or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue  # its emulate still runs
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        _remove_namespace(name)
        stale.append(name)
    if stale:
        print(f"ccsim: removed {len(stale)} network namespaces a killed ccsim emulate left: {', '.join(stale)}",
              file=sys.stderr)
    return stale


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt while the emulator runs, so cleanup runs."""
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _configure(netns: str, local: str, peer: str) -> None:
    for key in ("all", "default"):
        subprocess.run(["ip", "netns", "exec", netns, "sysctl", "-q", "-w",
                        f"net.ipv6.conf.{key}.disable_ipv6=1"], capture_output=True)
    _ip("-n", netns, "link", "set", "lo", "up")
    _ip("-n", netns, "addr", "add", local, "peer", f"{peer}/32", "dev", DEVICE)
    _ip("-n", netns, "link", "set", DEVICE, "mtu", "1500", "txqueuelen", "10000", "up")


def lateness_limit_s(rate_bps: float) -> float:
    """The faithful-release bound for a link of ``rate_bps``: a tenth of one 1500-byte packet time."""
    return LATENESS_FRACTION * 1500 * 8 / rate_bps


def drain(progress: Any, limit_s: float, quiet_s: float = DRAIN_QUIET_S) -> tuple[float, bool]:
    """Wait until the emulated link is drained: empty in both directions and nothing taken in
    for ``quiet_s``, or ``limit_s`` has passed; return the time waited and whether it drained.
    ``progress()`` gives, per direction, the packets in the link and those taken in so far.

    CHOICE: empty and quiet, not empty alone: a TCP sender whose process has exited still
    sends what its socket holds, and between two of its windows the link can be empty for
    a moment; an ACK on its way keeps the other direction non-empty."""
    start = time.monotonic()
    last_taken: int | None = None
    quiet_since: float | None = None
    while True:
        now = time.monotonic()
        directions = progress()
        in_link = sum(d[0] for d in directions)
        taken = sum(d[1] for d in directions)
        if in_link == 0 and taken == last_taken:
            quiet_since = now if quiet_since is None else quiet_since
            if now - quiet_since >= quiet_s:
                return now - start, True
        else:
            quiet_since = None
        last_taken = taken
        if now - start >= limit_s:
            return now - start, False
        time.sleep(0.01)


def emulate(link_file: str | os.PathLike[str], command: list[str], *, server: str | None = None,
            out: str | os.PathLike[str] | None = None, strict: bool = False, quiet: bool = False,
            drain_s: float = DRAIN_S, grace_s: float = GRACE_S) -> int:
    """Run ``command`` in the client namespace across the emulated link of ``link_file`` (and
    ``server``, a shell command, in the server namespace first); return the command's exit
    status (or :data:`UNFAITHFUL_STATUS` for a strict run whose release was late). With
    ``out``, write ``out/summary.json``.

    When the command exits, the link keeps running until it has drained (:func:`drain`, at
    most ``drain_s``), so that what the command wrote before it exited is delivered; then the
    server gets ``grace_s`` to exit on its own (to see the end of its input) before it is sent
    SIGTERM."""
    if not command:
        raise SpecError("name the command to run in the client namespace (after --)", "command")
    if shutil.which(command[0]) is None:  # else `ip netns exec` says so without ccsim's prefix
        raise SpecError(f"no such command: {command[0]!r} (not a file that can run, nor on PATH)", "command")
    for name, value in (("--drain", drain_s), ("--grace", grace_s)):
        if not 0 <= value <= MAX_WAIT_S:
            raise SpecError(f"must be 0 to {MAX_WAIT_S:g} seconds, found {value!r}", name)
    spec, reverse, port_delays = load_link_path(link_file)
    out_dir = None
    if out is not None:
        from .results import prepare_output_dir

        out_dir = prepare_output_dir(out, {"summary.json"})
    check_machine()
    from . import _ccsim

    from .sweep import _RATE_UNITS, _quantity

    rates = {"client->server": _quantity(spec["links"][0]["rate"], _RATE_UNITS),
             "server->client": _quantity(reverse["links"][0]["rate"], _RATE_UNITS)}
    started = time.time()
    server_proc: subprocess.Popen[bytes] | None = None
    status = 0
    dropped: dict[str, int | None] = {}
    waited, drained = 0.0, False
    interrupted = False
    with terminate_as_interrupt(), _namespaces() as (client_ns, server_ns):
        handle = _ccsim.emulator_start(json.dumps(spec), f"/run/netns/{client_ns}", f"/run/netns/{server_ns}",
                                       DEVICE, json.dumps(reverse), port_delays)
        reports: dict[str, Any] | None = None
        try:
            _configure(client_ns, CLIENT_ADDRESS, SERVER_ADDRESS)
            _configure(server_ns, SERVER_ADDRESS, CLIENT_ADDRESS)
            env = {**os.environ, "CCSIM_SERVER": SERVER_ADDRESS, "CCSIM_CLIENT": CLIENT_ADDRESS}
            if server is not None:
                server_proc = subprocess.Popen(["ip", "netns", "exec", server_ns, "sh", "-c", server], env=env,
                                               start_new_session=True)
                time.sleep(SERVER_START_S)
                if server_proc.poll() is not None:
                    raise EmulationError(f"the server command exited with status {server_proc.returncode} "
                                         f"before the client started: {server}", server)
            try:
                status = subprocess.run(["ip", "netns", "exec", client_ns, *command], env=env).returncode
                if status < 0:  # killed by a signal: the shell's convention, 128 + its number
                    status = 128 - status
                waited, drained = drain(handle.progress, drain_s)
                if server_proc is not None and grace_s > 0:
                    try:
                        server_proc.wait(timeout=grace_s)
                    except subprocess.TimeoutExpired:
                        pass
            except FileNotFoundError as e:
                raise EmulationError(f"cannot run {command[0]}: {e}", command[0]) from None
            except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the summary is still written
                interrupted = True
                status = INTERRUPTED_STATUS
            dropped = {"client->server": _tx_dropped(client_ns), "server->client": _tx_dropped(server_ns)}
        finally:
            reports = json.loads(handle.stop())
            if server_proc is not None and server_proc.poll() is None:
                # SIGTERM first, so a server that writes its results on it (ccsim real recv) can.
                os.killpg(server_proc.pid, signal.SIGTERM)
                try:
                    server_proc.wait(timeout=SERVER_STOP_S)
                except subprocess.TimeoutExpired:
                    os.killpg(server_proc.pid, signal.SIGKILL)
                    server_proc.wait()
    assert reports is not None
    faithful = True
    for name, r in reports.items():
        r["tun_tx_dropped"] = dropped.get(name)
        r["link"] = (spec if name == "client->server" else reverse)["links"][0]
        r["lateness_limit_s"] = lateness_limit_s(rates[name])
        p99 = r.get("lateness_p99_s")
        r["faithful"] = p99 is None or p99 <= r["lateness_limit_s"]
        faithful &= r["faithful"]
    limit = min(r["lateness_limit_s"] for r in reports.values())
    summary = {
        "link": spec["links"][0],
        "port_delays": [{"port": p, "delay_s": ns / 1e9} for p, ns in port_delays],
        "seed": spec["run"]["seed"],
        "command": command,
        "server_command": server,
        "exit_status": status,
        "started": started,
        "duration_s": time.time() - started,
        "lateness_limit_s": limit,
        "faithful": faithful,
        "interrupted": interrupted,
        "drain": {"limit_s": drain_s, "waited_s": waited, "drained": drained},
        "grace_s": grace_s,
        "directions": reports,
    }
    if out_dir is not None:
        _write_summary(out_dir, summary)
    left = {name: r.get("in_link_at_stop") or 0 for name, r in reports.items()}
    if any(left.values()):
        print("ccsim: warning: " + ", ".join(f"{n} packets still in the {name} link" for name, n in left.items() if n)
              + f" when it stopped (it had not drained in --drain {drain_s:g} s); summary.json has them",
              file=sys.stderr)
    for name, r in reports.items():
        if not r["faithful"]:
            print(f"ccsim: warning: {name}: p99 release lateness {r['lateness_p99_s'] * 1e6:.1f} us is above "
                  f"{r['lateness_limit_s'] * 1e6:.1f} us (a tenth of a 1500-byte packet time): the emulated link was not "
                  f"faithful", file=sys.stderr)
    if not quiet:
        for name, r in reports.items():
            drops = sum(r["drops"].values())
            p99 = r["lateness_p99_s"]
            late = f"{p99 * 1e6:.1f} us" if p99 is not None else "-"
            print(f"  {name:<15} {r['packets']} packets, {r['bytes']} bytes, {drops} dropped, "
                  f"{r['ecn_marks']} CE-marked, lateness p99 {late}", file=sys.stderr)
    if interrupted:
        raise KeyboardInterrupt  # after the summary: `ccsim: interrupted`, status 130
    if strict and not faithful:
        return UNFAITHFUL_STATUS
    return status


def _write_summary(out: Path, summary: dict[str, Any]) -> None:
    from .results import MANIFEST, atomic_write_text, previous_outputs, refuse_foreign_files

    refuse_foreign_files(out, ["summary.json"])
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    names = previous_outputs(out) | {"summary.json"}
    atomic_write_text(out / MANIFEST, "".join(f"{n}\n" for n in sorted(names)))
