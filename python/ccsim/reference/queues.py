"""DropTail and step marking written again through the public queue interface
(:class:`ccsim.QueueDiscipline`); each gives the same packets as its built-in twin
(``queue = "30p"``; ``queue = { kind = "step", threshold = K }``), which
tests/test_user_algorithms.py checks. Their drops are counted as ``aqm`` (the discipline
decided) where the built-in DropTail's read ``queue_full``.

    [[links]]
    queue = { kind = "python", class = "ccsim.reference.queues:StepMark", threshold = 20 }
"""

import ccsim
from ccsim._ccsim import Packet, Queue


class DropTail(ccsim.QueueDiscipline):
    """Tail drop when ``capacity`` packets wait (the link's ``limit`` then never binds)."""

    def __init__(self, capacity: int = 100) -> None:
        self.capacity = capacity

    def enqueue(self, pkt: Packet, q: Queue) -> str:
        return "drop" if q.packets >= self.capacity else "accept"


class StepMark(ccsim.QueueDiscipline):
    """DCTCP's step marking (RFC 8257 section 3.1): CE on an ECN-capable packet that arrives
    while more than ``threshold`` packets wait."""

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold

    def enqueue(self, pkt: Packet, q: Queue) -> str:
        return "mark" if q.packets > self.threshold and pkt.ecn_capable else "accept"
