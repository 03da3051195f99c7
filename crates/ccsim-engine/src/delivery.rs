//! A link's rate as a mahimahi packet-delivery trace (issue 29).
//!
//! Source: mahimahi (github.com/ravinet/mahimahi, commit ae477d4), `src/frontend/link_queue.cc`
//! and `link_queue.hh`, `man/mm-link.1`, `traces/README`. A trace is a list of millisecond
//! timestamps, non-decreasing; each line is one delivery opportunity of `PACKET_SIZE` = 1504
//! bytes (the man page says 1500; the code's constant, "default max TUN payload size", is
//! 1504), a timestamp repeated once per opportunity in that millisecond. The schedule repeats:
//! when the last line is used, the base time advances by the last timestamp (so the period is
//! the last timestamp, and a leading 0 coincides with the previous period's last instant).
//! mahimahi refuses an empty file, a decreasing timestamp and a last timestamp of 0.
//!
//! At each opportunity (`LinkQueue::rationalize`) mahimahi takes 1504 bytes of budget and, while
//! budget is left, continues the packet in transit or dequeues the head packet, sending
//! min(budget, bytes left of it); a packet whose last byte is sent departs at the opportunity's
//! time. A packet that does not fit in what is left is partly sent and finishes at a later
//! opportunity. When the queue is empty the rest of the budget is lost. Opportunities at or
//! before the present are burned (`rationalize(now)`) before an arriving packet is enqueued, so
//! a packet never uses an opportunity of the millisecond it arrived in.
//!
//! ccsim computes the same thing per packet when its transmission starts ([`TraceCursor::finish`]):
//! a packet taken from the queue as the previous one finishes continues in that opportunity's
//! leftover bytes (then the following opportunities, repeated ones at the same instant
//! included); a packet starting on an idle link starts with the first opportunity strictly
//! after `now`, even when a packet finished at `now` (mahimahi burns the present's
//! opportunities before it enqueues an arrival).
//!
//! CHOICE: a packet larger than 1504 bytes spans as many opportunities as it needs (mahimahi
//! throws "packet size is greater than maximum": its TUN devices never carry one).
//! CHOICE: timing is in nanoseconds from the start of the run (mahimahi's clock is whole
//! milliseconds from the shell's start, so its packets arriving within one millisecond are
//! all "at" it). A packet offered in the very nanosecond a transmission ends, and handled
//! before that end, waits in the queue and so uses the leftover bytes (mahimahi would not);
//! handled after it, it finds the link idle and does not.
//! CHOICE: a packet waiting for its first opportunity on an idle link is "in service" (it has
//! left the queue, as under a fixed rate), so the queue counts one packet fewer than
//! mahimahi's, whose packet waits in the queue until its opportunity; the link's busy time
//! (utilisation) counts that wait, and stays at most the window.

use std::sync::Arc;

/// mahimahi's `LinkQueue::PACKET_SIZE`: bytes one delivery opportunity carries.
pub const OPPORTUNITY_BYTES: u32 = 1504;

const NS_PER_MS: u64 = 1_000_000;

/// The most opportunities a trace may hold (mahimahi's longest shipped trace has 505 078).
pub const MAX_OPPORTUNITIES: usize = 10_000_000;

/// The largest timestamp, ms (about 31.7 years; keeps every instant in nanoseconds far from
/// overflow).
pub const MAX_TIMESTAMP_MS: u64 = 1_000_000_000_000;

/// A delivery schedule: the opportunities of one period, ns from its start, non-decreasing,
/// the last equal to the period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveryTrace {
    at: Vec<u64>,
    period: u64,
}

impl DeliveryTrace {
    /// A schedule from mahimahi's millisecond timestamps.
    ///
    /// # Errors
    /// A sentence saying what is wrong (empty, too long, decreasing at an index, too large, or
    /// a last timestamp of 0), for the caller to prefix with the key.
    pub fn from_ms(ms: &[u64]) -> Result<Self, String> {
        if ms.is_empty() {
            return Err("a delivery trace needs at least one timestamp".into());
        }
        if ms.len() > MAX_OPPORTUNITIES {
            return Err(format!(
                "{} timestamps: a delivery trace holds at most {MAX_OPPORTUNITIES}",
                ms.len()
            ));
        }
        let mut prev = 0;
        for (i, &t) in ms.iter().enumerate() {
            if t < prev {
                return Err(format!(
                    "timestamps must be non-decreasing: [{i}] = {t} follows {prev}"
                ));
            }
            if t > MAX_TIMESTAMP_MS {
                return Err(format!(
                    "[{i}] = {t} ms is too large: a timestamp is at most {MAX_TIMESTAMP_MS} ms"
                ));
            }
            prev = t;
        }
        if prev == 0 {
            return Err(
                "the last timestamp is 0: a trace must last a nonzero time (its period)".into(),
            );
        }
        Ok(DeliveryTrace {
            at: ms.iter().map(|&t| t * NS_PER_MS).collect(),
            period: prev * NS_PER_MS,
        })
    }

    /// The period, ns (the last timestamp).
    #[must_use]
    pub fn period_ns(&self) -> u64 {
        self.period
    }

    /// The opportunities of one period, ns from its start.
    #[must_use]
    pub fn opportunities_ns(&self) -> &[u64] {
        &self.at
    }

    /// The mean capacity, bit/s: opportunities per period x 1504 x 8 over the period.
    #[must_use]
    pub fn mean_bps(&self) -> f64 {
        self.at.len() as f64 * f64::from(OPPORTUNITY_BYTES * 8) * 1e9 / self.period as f64
    }

    /// Opportunities at instants `t` with `from_ns < t <= to_ns` (a leading 0 at time 0
    /// counts for neither), times 1504: the most the schedule can carry in that time.
    #[must_use]
    pub fn capacity_bytes(&self, from_ns: u64, to_ns: u64) -> u64 {
        let upto = |t: u64| {
            let n = self.at.len() as u64;
            (t / self.period) * n + self.at.partition_point(|&a| a <= t % self.period) as u64
        };
        (upto(to_ns).saturating_sub(upto(from_ns))) * u64::from(OPPORTUNITY_BYTES)
    }

    fn time(&self, cycle: u64, idx: usize) -> u64 {
        cycle
            .saturating_mul(self.period)
            .saturating_add(self.at[idx])
    }

    fn next(&self, cycle: u64, idx: usize) -> (u64, usize) {
        if idx + 1 == self.at.len() {
            (cycle + 1, 0)
        } else {
            (cycle, idx + 1)
        }
    }

    /// The first opportunity strictly after `now`: (period number, index).
    fn first_after(&self, now: u64) -> (u64, usize) {
        let cycle = now / self.period;
        let r = now % self.period;
        // r < period = the last entry, so some entry is > r.
        (cycle, self.at.partition_point(|&t| t <= r))
    }
}

/// A link direction's position in its schedule.
#[derive(Clone, Debug)]
pub struct TraceCursor {
    trace: Arc<DeliveryTrace>,
    /// When the last packet finished (`u64::MAX`: none, or forgotten).
    at: u64,
    cycle: u64,
    idx: usize,
    /// Bytes left in opportunity (`cycle`, `idx`).
    left: u32,
}

impl TraceCursor {
    /// A cursor at the start of `trace` (time 0 is the start of its first period).
    #[must_use]
    pub fn new(trace: Arc<DeliveryTrace>) -> Self {
        TraceCursor {
            trace,
            at: u64::MAX,
            cycle: 0,
            idx: 0,
            left: 0,
        }
    }

    /// Forget the last packet (the link went down: its transmission never finished).
    pub fn reset(&mut self) {
        self.at = u64::MAX;
    }

    /// When a packet of `size` bytes starting transmission at `now` has had its last byte
    /// delivered; consumes the opportunities' bytes it uses. `follows`: the packet was taken
    /// from the queue as the previous one finished (else the link was idle).
    pub fn finish(&mut self, now: u64, size: u32, follows: bool) -> u64 {
        let tr = &*self.trace;
        let (mut cycle, mut idx, mut left) = if follows && now == self.at {
            if self.left > 0 {
                (self.cycle, self.idx, self.left)
            } else {
                let (c, i) = tr.next(self.cycle, self.idx);
                (c, i, OPPORTUNITY_BYTES)
            }
        } else {
            let (c, i) = tr.first_after(now);
            (c, i, OPPORTUNITY_BYTES)
        };
        let mut rem = size;
        while rem > left {
            rem -= left;
            (cycle, idx) = tr.next(cycle, idx);
            left = OPPORTUNITY_BYTES;
        }
        left -= rem;
        let t = tr.time(cycle, idx);
        self.at = t;
        self.cycle = cycle;
        self.idx = idx;
        self.left = left;
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cur(ms: &[u64]) -> TraceCursor {
        TraceCursor::new(Arc::new(DeliveryTrace::from_ms(ms).unwrap()))
    }
    const MS: u64 = NS_PER_MS;

    #[test]
    fn refuses_what_mahimahi_refuses() {
        assert!(DeliveryTrace::from_ms(&[]).is_err());
        assert!(DeliveryTrace::from_ms(&[0, 0]).is_err());
        let e = DeliveryTrace::from_ms(&[1, 3, 2]).unwrap_err();
        assert!(e.contains("[2] = 2 follows 3"), "{e}");
        assert!(DeliveryTrace::from_ms(&[MAX_TIMESTAMP_MS + 1]).is_err());
        let e = DeliveryTrace::from_ms(&vec![1; MAX_OPPORTUNITIES + 1]).unwrap_err();
        assert!(e.contains("at most 10000000"), "{e}");
    }

    #[test]
    fn capacity_counts_the_opportunities_in_a_window() {
        // 0, 2, 2, 5 ms, period 5: in (0, 5 ms] the 2, 2, 5 and the next period's 0 at 5 ms.
        let t = DeliveryTrace::from_ms(&[0, 2, 2, 5]).unwrap();
        assert_eq!(t.capacity_bytes(0, 5 * MS), 4 * 1504);
        assert_eq!(t.capacity_bytes(0, 5 * MS - 1), 2 * 1504);
        assert_eq!(t.capacity_bytes(5 * MS, 10 * MS), 4 * 1504);
        assert_eq!(t.capacity_bytes(3 * MS, 3 * MS), 0);
    }

    #[test]
    fn one_opportunity_per_ms_is_1504_bytes_per_ms() {
        let t = DeliveryTrace::from_ms(&[1]).unwrap();
        assert_eq!(t.mean_bps(), 1504.0 * 8.0 * 1000.0);
    }

    // The cases below follow link_queue.cc's rationalize() by hand.
    #[test]
    fn a_full_packet_uses_one_opportunity_and_a_wait_starts_strictly_after_now() {
        let mut c = cur(&[1]);
        // Idle at 0: the first opportunity after 0 is at 1 ms.
        assert_eq!(c.finish(0, 1504, false), MS);
        // Back-to-back: the next opportunity (2 ms).
        assert_eq!(c.finish(MS, 1504, true), 2 * MS);
        // Arriving exactly at an opportunity's instant on an idle link: not that one.
        assert_eq!(c.finish(5 * MS, 100, false), 6 * MS);
    }

    #[test]
    fn two_halves_share_and_a_large_packet_spans() {
        let mut c = cur(&[1]);
        assert_eq!(c.finish(0, 752, false), MS);
        assert_eq!(c.finish(MS, 752, true), MS);
        // The opportunity is used up: the next packet takes the next one.
        assert_eq!(c.finish(MS, 2000, true), 3 * MS); // 1504 at 2 ms, 496 at 3 ms
        assert_eq!(c.finish(3 * MS, 1008, true), 3 * MS); // the 1008 left at 3 ms
    }

    #[test]
    fn unused_bytes_are_lost_while_idle() {
        let mut c = cur(&[1]);
        assert_eq!(c.finish(0, 1000, false), MS); // 504 left at 1 ms
                                                  // The link idles past 1 ms: the 504 bytes are gone.
        assert_eq!(c.finish(MS + 1, 1000, false), 2 * MS);
        // An arrival at an idle link at the very instant the last packet finished: mahimahi
        // burned that opportunity before enqueuing it.
        assert_eq!(c.finish(2 * MS, 1000, false), 3 * MS);
    }

    #[test]
    fn repeated_lines_and_the_period_wrap() {
        // Opportunities at 0, 2, 2, 5 ms; period 5 ms: then 5 (again), 7, 7, 10, 10, ...
        let mut c = cur(&[0, 2, 2, 5]);
        assert_eq!(c.finish(0, 1504, false), 2 * MS); // 0 is not after 0
        assert_eq!(c.finish(2 * MS, 1504, true), 2 * MS); // the repeated line
        assert_eq!(c.finish(2 * MS, 1504, true), 5 * MS); // line 3
        assert_eq!(c.finish(5 * MS, 1504, true), 5 * MS); // next period's 0, also at 5 ms
        assert_eq!(c.finish(5 * MS, 1504, true), 7 * MS);
        assert_eq!(c.finish(7 * MS, 3008, true), 10 * MS); // 7 ms second line, 10 ms
                                                           // Idle, then a start in a far period: 1000 periods on, 1 ms in.
        assert_eq!(c.finish(5001 * MS, 1, false), 5002 * MS);
    }

    #[test]
    fn reset_forgets_the_cancelled_packet() {
        let mut c = cur(&[1]);
        assert_eq!(c.finish(0, 1000, false), MS);
        c.reset();
        assert_eq!(c.finish(MS, 1000, true), 2 * MS);
    }
}
