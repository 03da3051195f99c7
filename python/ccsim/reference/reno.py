"""RFC 5681 slow start and congestion avoidance, written through ccsim's Python interface.

The same rule as ccsim's built-in Reno family (crates/ccsim-protocols/src/tcp/cc/reno.rs):
slow start adds min(bytes acknowledged, MSS) per ACK (RFC 5681 equation 2), congestion
avoidance max(1, MSS*MSS/cwnd) bytes per ACK (equation 3), neither grows a window the sender
is not using, and the threshold after a loss is RFC 5681 equation 4 (the base class's).
With ``recovery = "newreno"`` it is ``protocol = "newreno"``; tests/test_user_algorithms.py
checks that the two give the same bytes.

    [[flows]]
    protocol = "ccsim.reference.reno:NewReno"
"""

import ccsim
from ccsim._ccsim import Ack, Window


class Reno(ccsim.CongestionControl):
    """RFC 5681's window growth with Reno's fast recovery."""

    recovery = "reno"

    def on_ack(self, w: Window, ack: Ack) -> None:
        if not w.cwnd_limited:
            return
        if w.cwnd < w.ssthresh:
            w.cwnd += min(ack.acked, w.mss)
        else:
            w.cwnd += max(1, w.mss * w.mss // w.cwnd)


class NewReno(Reno):
    """The same growth with RFC 6582's recovery."""

    recovery = "newreno"


class Sack(Reno):
    """The same growth with RFC 6675's SACK recovery."""

    recovery = "sack"
