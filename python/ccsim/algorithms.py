"""Your own congestion control and queue discipline, in Python: subclass
:class:`CongestionControl`, name it in a scenario (``protocol = "module:Class"``) or register
it (:func:`register_cc`), and ccsim's TCP sender runs it in place of a built-in algorithm;
subclass :class:`QueueDiscipline` and a link runs it (``queue = { kind = "python", class =
"module:Class" }``). docs/your-own-algorithm.md is the tutorial.

The sender owns sequence numbers, timers and loss recovery; the algorithm decides the window,
as Linux's ``tcp_congestion_ops`` does (the Rust contract is ``CongestionControl`` in
crates/ccsim-protocols/src/tcp/cc/mod.rs, version :data:`CONTRACT_VERSION`). On each ACK of
new data outside recovery the sender calls ``on_rtt`` (when the ACK gave an RTT sample), then
``on_ack``; on a loss ``loss_ssthresh`` (``ssthresh`` unless overridden), on an ECN echo
``ssthresh``, then ``on_state``; on a timeout ``on_rto`` after setting cwnd to one segment.

Windows and counts are bytes, times seconds. The ``w`` and ``ack`` objects a hook receives
are rewritten before each call: read them during the call, keep plain values.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import marshal
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

from . import _ccsim
from ._ccsim import Ack, Packet, Queue, RateSample, Window
from .errors import SpecError

#: The version of the hooks' contract this module implements.
CONTRACT_VERSION = 1

RECOVERIES = ("tahoe", "reno", "newreno", "sack")

# Folders of scenario files read in this process: a "module:Class" that is not on sys.path
# is looked for beside them, the latest first.
_scenario_dirs: list[Path] = []
_path_lock = threading.Lock()


class CongestionControl:
    """Base class of a congestion-control algorithm written in Python.

    Class attributes the sender reads once:

    ``recovery``
        the loss recovery the sender runs with it: ``"sack"`` (RFC 6675, default),
        ``"newreno"`` (RFC 6582), ``"reno"`` or ``"tahoe"``.
    ``model_based``
        ``True`` for an algorithm that sets the window and the pacing rate itself on every
        ACK in :meth:`cong_control` (as BBR); the sender then never grows or cuts the window.
    ``precise_ecn``
        ``True`` for per-segment CE feedback (DCTCP's) instead of RFC 3168's ECE until CWR;
        the flow is then ECN-capable.

    Keyword arguments of the constructor are the flow's ``cc = { ... }`` table.
    """

    recovery: ClassVar[str] = "sack"
    model_based: ClassVar[bool] = False
    precise_ecn: ClassVar[bool] = False

    def on_ack(self, w: Window, ack: Ack) -> None:
        """An ACK of new data outside loss recovery: set ``w.cwnd`` (bytes).

        ``w``: ``cwnd``, ``ssthresh`` (settable), ``mss``, ``flight``, ``cwnd_limited`` and
        ``in_slow_start()``. ``ack``: ``acked`` (bytes newly delivered), ``segments``,
        ``now`` and ``rtt`` (seconds; ``rtt`` is ``None`` without a sample), ``snd_una``,
        ``snd_nxt``. A model-based algorithm need not define it."""
        if not self.model_based:
            raise NotImplementedError(f"{type(self).__name__} must define on_ack(self, w, ack)")

    def ssthresh(self, w: Window) -> int:
        """The slow-start threshold after a congestion event, bytes (RFC 5681 equation 4 by
        default: half the flight, at least two segments)."""
        return max(w.flight // 2, 2 * w.mss)

    def loss_ssthresh(self, w: Window) -> int:
        """The threshold after a loss (duplicate ACKs or a timeout); :meth:`ssthresh` by
        default (DCTCP halves here and takes alpha / 2 on an ECN echo)."""
        return self.ssthresh(w)

    def on_rtt(self, rtt: float, now: float) -> None:
        """An RTT sample, seconds (a segment sent once, acknowledged for the first time)."""

    def on_rto(self, w: Window) -> None:
        """A retransmission timeout fired; the sender has set cwnd to one segment."""

    def on_state(self, w: Window, state: str) -> None:
        """The sender entered ``"open"``, ``"cwr"``, ``"recovery"`` or ``"loss"``."""

    def on_delivery(self, d: SimpleNamespace) -> None:
        """Every ACK, in recovery too: ``d.delivered`` and ``d.ce`` (bytes), ``d.ece``.
        Defining it costs a call per ACK."""

    def cong_control(self, w: Window, rs: RateSample) -> int | None:
        """A model-based algorithm's decision on every ACK: set ``w.cwnd`` and return the
        pacing rate in bytes per second (``None`` keeps it). ``rs`` is the delivery-rate
        sample: ``delivered``, ``interval``, ``delivery_rate``, ``is_app_limited``, ``acked``,
        ``losses``, ``delivered_ce``, ``rtt``, ``prior_in_flight``, ``in_flight``, ``srtt``,
        ``min_rtt``, ``now``, ``state``."""
        return None

    def on_init(self, w: Window) -> int | None:
        """The connection is open; a model-based algorithm may return its first pacing rate
        (bytes per second)."""
        return None


def _traits(cls: Any) -> tuple[str, bool, bool, bool]:
    """(recovery, model_based, precise_ecn, wants_deliveries) of a class, checked."""
    if not (isinstance(cls, type) and issubclass(cls, CongestionControl)):
        raise SpecError(f"{cls!r} is not a subclass of ccsim.CongestionControl")
    recovery = getattr(cls, "recovery", "sack")
    if recovery not in RECOVERIES:
        raise SpecError(
            f"{cls.__name__}.recovery must be one of {', '.join(RECOVERIES)}, found {recovery!r}")
    model_based = bool(cls.model_based)
    if model_based and cls.cong_control is CongestionControl.cong_control:
        raise SpecError(f"{cls.__name__} is model_based but does not define cong_control(self, w, rs)")
    if not model_based and cls.on_ack is CongestionControl.on_ack:
        raise SpecError(f"{cls.__name__} must define on_ack(self, w, ack)")
    wants_deliveries = cls.on_delivery is not CongestionControl.on_delivery
    return recovery, model_based, bool(cls.precise_ecn), wants_deliveries


def _import(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module.split(".")[0] or not _scenario_dirs:
            raise
    with _path_lock:  # run_many's threads may resolve at once
        saved = list(sys.path)
        sys.path[:0] = [str(d) for d in reversed(_scenario_dirs)]
        try:
            return importlib.import_module(module)
        finally:
            sys.path[:] = saved


def _class_at(name: str, what: str) -> Any:
    """The object a ``"module:Class"`` name points to (``what`` names the kind in messages),
    its module imported and its source recorded for the result cache. Raises with one line
    saying what is wrong."""
    module, _, qualname = name.partition(":")
    if not module or not qualname:
        raise SpecError(f"{name!r}: a Python {what} is named \"module:Class\"")
    try:
        mod = _import(module)
    except Exception as e:  # the user's module: any error while importing it
        raise SpecError(f"cannot import module {module!r}: {type(e).__name__}: {e}") from None
    source_digest(name)  # the code that runs from now on, for the result cache's key
    obj: Any = mod
    for part in qualname.split("."):
        if not hasattr(obj, part):
            raise SpecError(f"module {module!r} has no {qualname!r}")
        obj = getattr(obj, part)
    return obj


def _describe(name: str) -> tuple[Any, str, bool, bool, bool] | None:
    """The class a ``"module:Class"`` name points to, with its traits; ``None`` for a name
    that is not a Python path. Raises with one line saying what is wrong."""
    if ":" not in name:
        return None
    obj = _class_at(name, "algorithm")
    try:
        return (obj, *_traits(obj))
    except SpecError as e:
        raise SpecError(f"{name}: {e}") from None


def _check_options(cls: Any, options: dict[str, Any]) -> None:
    """Whether the flow's ``cc`` table binds the constructor's parameters."""
    try:
        inspect.signature(cls).bind(**options)
    except TypeError as e:
        raise SpecError(f"the cc table does not fit {cls.__name__}(): {e}") from None


def register_cc(name: str, cls: type[CongestionControl]) -> None:
    """Register ``cls`` as ``protocol = name`` for scenarios run in this process. A plain
    name (letters, digits, ``-``, ``_``, ``.``) that is not a built-in protocol's; registering
    it again replaces the class for runs parsed after. :class:`ccsim.SpecError` for a name or a
    class that cannot be registered."""
    try:
        _traits(cls)
    except SpecError as e:
        raise SpecError(str(e), "cls") from None
    _ccsim.register_cc(name, cls)


def note_scenario_dir(folder: Path) -> None:
    """Look for ``"module:Class"`` modules in ``folder`` too (a scenario file's folder)."""
    folder = folder.resolve()
    if folder in _scenario_dirs:
        _scenario_dirs.remove(folder)
    _scenario_dirs.append(folder)


class QueueDiscipline:
    """Base class of a link's queue discipline written in Python (an AQM).

    Keyword arguments of the constructor are the queue table's keys beyond ``kind``,
    ``class`` and ``limit``; ``limit`` is the physical limit, applied after the discipline
    accepts a packet. Each direction of the link has its own instance.
    """

    def enqueue(self, pkt: Packet, q: Queue) -> str:
        """A packet is offered to the link: ``"accept"``, ``"drop"`` or ``"mark"`` (set CE;
        a packet that is not ECN-capable is dropped instead, as RFC 3168 routers do).

        ``pkt``: ``size`` (bytes), ``ecn_capable``, ``ce``, ``flow`` (the flow's number),
        ``enqueued_at`` (seconds). ``q``: ``packets`` and ``bytes`` waiting (not the one being
        sent), ``now`` (seconds)."""
        raise NotImplementedError(f"{type(self).__name__} must define enqueue(self, pkt, q)")

    def dequeue(self, q: Queue) -> str | int | tuple[str, int] | None:
        """The link is free and ``q.packets`` > 0 packets wait; ``q.peek(i)`` is the
        ``i``-th oldest. Return ``None`` or ``"send"`` (the oldest goes), ``"drop"`` (drop
        the oldest and ask again), ``"mark"`` (mark it CE and send it), an index (send that
        packet), or ``(action, index)``. Without this hook the queue is FIFO; defining it
        costs a call per packet sent."""
        return None


def _describe_queue(name: str) -> Any:
    """The :class:`QueueDiscipline` class a ``"module:Class"`` name points to; ``None`` for a
    name that is not a Python path. Raises with one line saying what is wrong."""
    if ":" not in name:
        return None
    obj = _class_at(name, "queue discipline")
    _check_queue_class(obj, name)
    return obj


def _check_queue_class(cls: Any, name: str) -> None:
    if not (isinstance(cls, type) and issubclass(cls, QueueDiscipline)):
        raise SpecError(f"{name}: {cls!r} is not a subclass of ccsim.QueueDiscipline")
    if cls.enqueue is QueueDiscipline.enqueue:
        raise SpecError(f"{name}: {cls.__name__} must define enqueue(self, pkt, q)")


def register_queue(name: str, cls: type[QueueDiscipline]) -> None:
    """Register ``cls`` as ``queue = { kind = "python", class = name }`` for scenarios run in
    this process (a plain name; registering it again replaces the class for runs parsed
    after). :class:`ccsim.SpecError` for a name or a class that cannot be registered."""
    try:
        _check_queue_class(cls, name)
    except SpecError as e:
        raise SpecError(str(e), "cls") from None
    _ccsim.register_queue(name, cls)


_BUILTIN_PROTOCOLS = frozenset(("tahoe", "reno", "newreno", "sack", "vegas", "cubic", "dctcp", "bbr", "bbr3",
                                "prague", "cbr", "poisson", "tfrc", "tcp-friend", "cbraa", "primo", "xcp", "obp"))


def user_code_names(spec: dict[str, Any]) -> set[str]:
    """The user's algorithms and queues a validated spec names (flows, traffic templates,
    TCP-M sessions, link queues)."""
    names = set()
    for section in ("flows", "traffic", "tcpm"):
        for entry in spec.get(section, []):
            protocol = entry.get("protocol")
            if isinstance(protocol, str) and protocol not in _BUILTIN_PROTOCOLS:
                names.add(protocol)
    for link in spec.get("links", []):
        queue = link.get("queue")
        if isinstance(queue, dict) and queue.get("kind") in ("python", "custom"):
            names.add(str(queue.get("class")))
    return names


# The digest of each user module's code as this process resolved it (a name resolves once per
# process: the class then kept is what runs, whatever the file says later).
_digests: dict[str, str | None] = {}

_SIMPLE = (int, float, complex, str, bytes, bool, type(None))


def _feed(h: Any, value: Any, module: str, depth: int = 0) -> None:
    """Hash the code ``value`` carries: a function's bytecode and constants, a class's
    methods and simple attributes (recursively for classes of the same module), a simple
    constant's value; anything else by its type's name."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        value = value.fget
    if inspect.isfunction(value):
        h.update(marshal.dumps(value.__code__))
        h.update(repr(value.__defaults__).encode())
        h.update(repr(value.__kwdefaults__).encode())
    elif inspect.isclass(value) and value.__module__ == module and depth < 8:
        h.update(f"class {value.__qualname__}({[b.__qualname__ for b in value.__mro__]})".encode())
        for key in sorted(vars(value)):
            h.update(key.encode())
            _feed(h, vars(value)[key], module, depth + 1)
    elif isinstance(value, _SIMPLE) or (isinstance(value, (tuple, frozenset)) and all(
            isinstance(v, _SIMPLE) for v in value)):
        h.update(repr(value).encode())
    else:
        h.update(type(value).__qualname__.encode())


def _code_digest(mod: Any) -> str:
    """The SHA-256 of a loaded module's code: its functions, classes and constants as this
    process holds them (not its file, which may have been edited since the import)."""
    h = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for key in sorted(vars(mod)):
        if key.startswith("__"):
            continue
        h.update(key.encode())
        _feed(h, vars(mod)[key], mod.__name__)
    return h.hexdigest()


def source_digest(name: str) -> str | None:
    """The digest of the code a ``"module:Class"`` name runs: its module's functions, classes
    and constants as this process resolved them; ``None`` for a registered name."""
    module, colon, _ = name.partition(":")
    if not colon:
        return None
    if module not in _digests:
        try:
            _digests[module] = _code_digest(_import(module))
        except ImportError:
            return None
    return _digests[module]
