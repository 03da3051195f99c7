"""A delay-based window rule: grow while the queueing delay is under a target, back off once
per round trip when it is over (in the spirit of TCP Vegas and LEDBAT)."""

import ccsim


class DelayTarget(ccsim.CongestionControl):
    def __init__(self, target=0.005, gain=1.0, backoff=0.8):
        self.target = target    # queueing delay to aim at, seconds
        self.gain = gain        # segments added per round trip below the target
        self.backoff = backoff  # share of the window kept above it, once per round trip
        self.min_rtt = float("inf")
        self.rtt = None
        self.next_cut = 0       # no second cut before this segment is acknowledged

    def on_rtt(self, rtt, now):
        self.min_rtt = min(self.min_rtt, rtt)
        self.rtt = rtt

    def on_ack(self, w, ack):
        if self.rtt is None:
            return
        queueing = self.rtt - self.min_rtt
        if queueing < self.target and w.cwnd < w.ssthresh:
            w.cwnd += ack.acked                         # slow start while the path is empty
        elif queueing < self.target:
            w.cwnd += max(1, int(self.gain * w.mss * ack.acked / w.cwnd))
        elif ack.snd_una >= self.next_cut:
            w.cwnd = max(2 * w.mss, int(w.cwnd * self.backoff))
            w.ssthresh = w.cwnd
            self.next_cut = ack.snd_nxt
