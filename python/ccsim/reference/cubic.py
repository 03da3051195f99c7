"""CUBIC as Linux computes it (net/ipv4/tcp_cubic.c; RFC 9438), through ccsim's Python
interface: the same integer arithmetic as ccsim's built-in CUBIC
(crates/ccsim-protocols/src/tcp/cc/cubic.rs): windows in segments, time in jiffies at
HZ = 1000, the cube root by table and one Newton step, TCP friendliness, fast convergence.
tests/test_user_algorithms.py checks that it gives the same bytes as ``protocol = "cubic"``
(with ``recovery = "linux"`` and ``hystart = "linux"``, which the built-in takes by default).

Times reach a hook as seconds (floats); ``round(t * 1e9)`` gives the simulator's exact
nanoseconds back (below about 26 days), which Linux's jiffies need.

    [[flows]]
    protocol = "ccsim.reference.cubic:Cubic"
    recovery = "linux"
    hystart = "linux"
    cc = { beta = 717 }           # keyword arguments of Cubic()
"""

import ccsim
from ccsim._ccsim import Ack, Window

BETA_SCALE = 1024
BICTCP_HZ = 10
HZ = 1000
U32 = 0xFFFFFFFF

_V = (
    0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164,
    168, 170, 173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209,
    211, 213, 215, 217, 219, 221, 222, 224, 225, 227, 229, 231, 232, 234, 236, 237, 239, 240,
    242, 244, 245, 246, 248, 250, 251, 252, 254,
)


def cubic_root(a: int) -> int:
    """Linux's ``cubic_root``: a table lookup and one Newton-Raphson step."""
    fls = a.bit_length()
    if fls < 7:
        return (_V[a] + 35) >> 6
    b = ((fls * 84) >> 8) - 1
    x = ((_V[a >> (b * 3)] + 10) << b) >> 6
    x = 2 * x + min(a // (x * (x - 1)), U32)
    return ((x * 341) >> 10) & U32


def jiffies(seconds: float) -> int:
    return (round(seconds * 1e9) // (1_000_000_000 // HZ)) & U32


def usecs_to_jiffies(us: int) -> int:
    return -(-(us * HZ) // 1_000_000)


def cong_avoid_ai(cwnd: int, count: int, per: int, acked: int) -> tuple[int, int]:
    """Linux's ``tcp_cong_avoid_ai`` in segments: (cwnd, count) after ``acked`` segments."""
    per = max(per, 1)
    if count >= per:
        count = 0
        cwnd += 1
    count += acked
    if count >= per:
        delta = count // per
        count -= delta * per
        cwnd += delta
    return cwnd, count


class Cubic(ccsim.CongestionControl):
    """tcp_cubic.c's window growth and reduction; SACK recovery."""

    recovery = "sack"

    def __init__(self, beta: int = 717, bic_scale: int = 41, fast_convergence: bool = True,
                 tcp_friendliness: bool = True) -> None:
        self.beta = beta
        self.fast_convergence = fast_convergence
        self.tcp_friendliness = tcp_friendliness
        self.beta_scale = 8 * (BETA_SCALE + beta) // 3 // (BETA_SCALE - beta)
        self.cube_rtt_scale = bic_scale * 10
        self.cube_factor = (1 << (10 + 3 * BICTCP_HZ)) // (bic_scale * 10)
        self.cwnd_cnt = 0
        self.now = 0
        self.reset()

    def reset(self) -> None:
        """``bictcp_reset``: every field but the growth credit and the clock."""
        self.cnt = 0
        self.last_max_cwnd = 0
        self.last_cwnd = 0
        self.last_time = 0
        self.origin_point = 0
        self.k = 0
        self.delay_min = 0
        self.epoch_start: int | None = None
        self.ack_cnt = 0
        self.tcp_cwnd = 0

    def target(self, t: int) -> int:
        offs = abs(t - self.k)
        delta = ((self.cube_rtt_scale * offs * offs * offs) >> (10 + 3 * BICTCP_HZ)) & U32
        if t < self.k:
            return max(self.origin_point - delta, 0)
        return min(self.origin_point + delta, U32)

    def update(self, cwnd: int, acked: int) -> None:
        """``bictcp_update``: the growth credit ``cnt`` for this ACK."""
        self.ack_cnt = min(self.ack_cnt + acked, U32)
        if self.last_cwnd == cwnd and self.now - self.last_time <= HZ // 32:
            return
        if not (self.epoch_start is not None and self.now == self.last_time):
            self.last_cwnd = cwnd
            self.last_time = self.now
            if self.epoch_start is None:
                self.epoch_start = self.now
                self.ack_cnt = acked
                self.tcp_cwnd = cwnd
                if self.last_max_cwnd <= cwnd:
                    self.k = 0
                    self.origin_point = cwnd
                else:
                    self.k = cubic_root(self.cube_factor * (self.last_max_cwnd - cwnd))
                    self.origin_point = self.last_max_cwnd
            t = ((self.now - self.epoch_start) + usecs_to_jiffies(self.delay_min)) << BICTCP_HZ
            target = self.target(t // HZ)
            self.cnt = cwnd // (target - cwnd) if target > cwnd else 100 * cwnd
            if self.last_max_cwnd == 0 and self.cnt > 20:
                self.cnt = 20
        if self.tcp_friendliness:
            delta = max((cwnd * self.beta_scale) >> 3, 1)
            while self.ack_cnt > delta:
                self.ack_cnt -= delta
                self.tcp_cwnd += 1
            if self.tcp_cwnd > cwnd:
                self.cnt = min(self.cnt, cwnd // (self.tcp_cwnd - cwnd))
        self.cnt = max(self.cnt, 2)

    def on_ack(self, w: Window, ack: Ack) -> None:
        self.now = jiffies(ack.now)
        if not w.cwnd_limited:
            return
        mss = w.mss
        cwnd = max(min(w.cwnd // mss, U32), 1)
        ssthresh = min(w.ssthresh // mss, U32)
        acked = min(ack.segments, U32)
        if cwnd < ssthresh:  # tcp_slow_start
            grown = min(cwnd + acked, ssthresh)
            acked -= grown - cwnd
            cwnd = grown
            if acked == 0:
                w.cwnd = cwnd * mss
                return
        self.update(cwnd, acked)
        cwnd, self.cwnd_cnt = cong_avoid_ai(cwnd, self.cwnd_cnt, self.cnt, acked)
        w.cwnd = cwnd * mss

    def ssthresh(self, w: Window) -> int:
        cwnd = min(w.cwnd // w.mss, U32)
        self.epoch_start = None
        if cwnd < self.last_max_cwnd and self.fast_convergence:
            self.last_max_cwnd = (cwnd * (BETA_SCALE + self.beta)) // (2 * BETA_SCALE)
        else:
            self.last_max_cwnd = cwnd
        return max(cwnd * self.beta // BETA_SCALE, 2) * w.mss

    def on_rtt(self, rtt: float, now: float) -> None:
        self.now = jiffies(now)
        if self.epoch_start is not None and self.now - self.epoch_start < HZ:
            return
        delay = max(min(round(rtt * 1e9) // 1000, U32), 1)
        if self.delay_min == 0 or self.delay_min > delay:
            self.delay_min = delay

    def on_state(self, w: Window, state: str) -> None:
        if state == "loss":
            self.reset()
