"""An AQM on the packets' sojourn time: at the head of the queue, a packet that waited longer
than `target` is marked CE if it can be, dropped if not (a simplified CoDel, RFC 8289, without
its control law)."""

import ccsim


class Sojourn(ccsim.QueueDiscipline):
    def __init__(self, target=0.005):
        self.target = target  # seconds

    def enqueue(self, pkt, q):
        return "accept"

    def dequeue(self, q):
        oldest = q.peek(0)
        if q.now - oldest.enqueued_at <= self.target:
            return "send"
        return "mark" if oldest.ecn_capable else "drop"
