//! The event queue: a min-queue keyed by (time, insertion sequence).
//!
//! Equal times pop in insertion order (first in, first out), which makes every run
//! deterministic without relying on a structure's internal tie-breaking. Events are small
//! `Copy` values holding indices; nothing on this path allocates once the queue has grown.
//!
//! Two implementations sit behind one small interface, [`Scheduler`]:
//! * [`EventQueue`], the one the simulation uses: a binary heap while it holds few entries and
//!   a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest path
//!   problem", J. ACM 37(2), 1990) once it holds many. The radix heap works because a
//!   discrete-event simulation never schedules before the event it is running: every key
//!   pushed is at least the last key popped.
//! * [`HeapQueue`], a binary heap alone, kept as the reference the queue is checked against
//!   (same pop order, entry for entry) and measured against (`ccsim bench event-queue`).
//!
//! The key is one `u128`, the time in its high 64 bits and the insertion sequence in its low
//! 64, so keys are unique and their order is exactly (time, sequence). The key is read in
//! digits of six bits: bucket (`level`, `digit`) holds the keys whose highest digit differing
//! from the last popped key is digit `level`, with value `digit` there. The smallest key is in
//! the lowest level's lowest bucket (two bit-mask look-ups). A pop takes it as the new last key
//! and moves the rest of its bucket to lower levels; the level's other buckets keep their
//! place. Each entry moves at most once per digit of its distance from the key popped before
//! it, so a pop costs about the number of digits in how far ahead events are scheduled, not
//! the logarithm of how many are pending.
//!
//! CHOICE: a radix heap rather than a calendar queue or a timing wheel: it needs no bucket
//! width (a calendar queue's must be re-estimated as the mix of link delays, serialisation
//! times and timers changes), it keeps the exact (time, sequence) order without sorting
//! buckets, and it is a hundred lines. CHOICE: six-bit digits (64 buckets a level): against
//! one-bit digits (the textbook radix heap), 1.17 times the pops per second in the hold model
//! with 10 000 pending and 1.16 times the OBP parking lot's events per second; four-bit digits
//! measured the same within noise. Measured against the binary heap in docs/performance.md
//! (The event queue).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens when an entry pops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet being serialised on a link has finished.
    TxDone {
        /// Link index.
        link: u32,
        /// The link's epoch when the entry was pushed; stale once the link has gone down.
        epoch: u32,
    },
    /// The head packet propagating on a link reaches the far end.
    Arrive {
        /// Link index.
        link: u32,
        /// As for `TxDone`.
        epoch: u32,
    },
    /// A timer slot of an agent; stale when `generation` no longer matches.
    Timer {
        /// Agent slot (the index into the agent table, reused after retirement).
        agent: u32,
        /// Slot index.
        slot: u8,
        /// Generation stamped when the entry was pushed.
        generation: u32,
    },
    /// An agent starts (by agent id; ignored if it has been retired).
    Start(u32),
    /// An agent stops offering new data (by agent id; ignored if retired).
    Stop(u32),
    /// A simplex link's own state changes.
    LinkState {
        /// Link index.
        link: u32,
        /// The new state.
        up: bool,
    },
    /// A node's state changes.
    NodeState {
        /// Node index.
        node: u32,
        /// The new state.
        up: bool,
    },
    /// Delayed rerouting: the tables computed now take effect.
    Reroute,
    /// A packet addressed to an agent on the sending node itself.
    LocalDeliver(u32),
    /// Take a time-series sample.
    Sample,
    /// Snapshot the counters at the end of the warm-up.
    Warmup,
}

/// The interface of an event queue: what the simulation and the benchmarks use.
pub trait Scheduler {
    /// Schedule `event` at `time` (nanoseconds). `time` must not precede the time of the
    /// last entry popped: the simulation never schedules into its past.
    fn push(&mut self, time: u64, event: Event);
    /// Remove and return the earliest entry if its time is at most `max_time`.
    fn pop_until(&mut self, max_time: u64) -> Option<(u64, Event)>;
    /// The earliest entry, if any, without removing it.
    fn peek(&self) -> Option<(u64, Event)>;
    /// Number of entries, stale ones included.
    fn len(&self) -> usize;
    /// Whether the queue is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Remove and return the earliest entry.
    fn pop(&mut self) -> Option<(u64, Event)> {
        self.pop_until(u64::MAX)
    }
    /// The earliest entry's time, if any.
    fn peek_time(&self) -> Option<u64> {
        self.peek().map(|(t, _)| t)
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Time in the high 64 bits, insertion sequence in the low 64.
    key: u128,
    event: Event,
}

impl Entry {
    fn time(&self) -> u64 {
        (self.key >> 64) as u64
    }
}

/// Bits of a digit of the key.
const DIGIT_BITS: u32 = 6;
/// Values a digit takes.
const RADIX: usize = 1 << DIGIT_BITS;
/// Digits of a key.
const LEVELS: usize = 128_usize.div_ceil(DIGIT_BITS as usize);

/// The radix heap over (time, insertion sequence) keys.
#[derive(Debug)]
struct RadixHeap {
    /// Bucket `level * RADIX + digit`.
    buckets: Vec<Vec<Entry>>,
    /// Bit `level` set when some bucket of that level holds entries.
    levels: u64,
    /// Per level, bit `digit` set when that bucket holds entries.
    digits: [u64; LEVELS],
    /// The last key popped (0 before the first pop).
    last: u128,
    len: usize,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap {
            buckets: vec![Vec::new(); LEVELS * RADIX],
            levels: 0,
            digits: [0; LEVELS],
            last: 0,
            len: 0,
        }
    }
}

impl RadixHeap {
    #[inline]
    fn put(&mut self, entry: Entry) {
        let differ = entry.key ^ self.last;
        // The key equal to the last popped (only the very first, (0, 0)) goes to level 0.
        let level = if differ == 0 {
            0
        } else {
            ((127 - differ.leading_zeros()) / DIGIT_BITS) as usize
        };
        let digit = ((entry.key >> (level as u32 * DIGIT_BITS)) as usize) & (RADIX - 1);
        self.buckets[level * RADIX + digit].push(entry);
        self.levels |= 1 << level;
        self.digits[level] |= 1 << digit;
    }

    /// The bucket holding the smallest key: the lowest level's lowest digit.
    #[inline]
    fn lowest(&self) -> Option<(usize, usize)> {
        if self.levels == 0 {
            return None;
        }
        let level = self.levels.trailing_zeros() as usize;
        let digit = self.digits[level].trailing_zeros() as usize;
        Some((level, digit))
    }

    /// Position of the smallest key in bucket `b` (non-empty).
    #[inline]
    fn min_in(&self, b: usize) -> usize {
        let bucket = &self.buckets[b];
        let mut best = 0;
        let mut key = bucket[0].key;
        for (i, e) in bucket.iter().enumerate().skip(1) {
            if e.key < key {
                key = e.key;
                best = i;
            }
        }
        best
    }
}

impl RadixHeap {
    /// Add `entry`, whose key is at least the last popped.
    #[inline]
    fn insert(&mut self, entry: Entry) {
        debug_assert!(
            entry.key >= self.last,
            "an event scheduled before the last one popped"
        );
        self.len += 1;
        self.put(entry);
    }

    #[inline]
    fn pop_until(&mut self, max_time: u64) -> Option<Entry> {
        let (level, digit) = self.lowest()?;
        let b = level * RADIX + digit;
        let at = self.min_in(b);
        let entry = self.buckets[b][at];
        if entry.time() > max_time {
            return None;
        }
        self.buckets[b].swap_remove(at);
        self.last = entry.key;
        // The bucket's other keys share the new last key's digits from `level` up and differ
        // below: each moves to a lower level. The level's other buckets hold keys whose digit
        // `level` is larger, still their place relative to the new last key.
        self.digits[level] &= !(1 << digit);
        if self.digits[level] == 0 {
            self.levels &= !(1 << level);
        }
        let mut moved = std::mem::take(&mut self.buckets[b]);
        for e in moved.drain(..) {
            self.put(e);
        }
        self.buckets[b] = moved;
        self.len -= 1;
        Some(entry)
    }

    fn peek(&self) -> Option<Entry> {
        let (level, digit) = self.lowest()?;
        let b = level * RADIX + digit;
        Some(self.buckets[b][self.min_in(b)])
    }

    /// Every entry, in no order, leaving the heap empty (its last key kept).
    fn drain_all(&mut self) -> Vec<Entry> {
        let mut all = Vec::with_capacity(self.len);
        for level in 0..LEVELS {
            let mut digits = self.digits[level];
            while digits != 0 {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                all.append(&mut self.buckets[level * RADIX + digit]);
            }
            self.digits[level] = 0;
        }
        self.levels = 0;
        self.len = 0;
        all
    }
}

/// A binary-heap entry ordered by its key, smallest first.
#[derive(Clone, Copy, Debug)]
struct Smallest(Entry);

impl PartialEq for Smallest {
    fn eq(&self, other: &Self) -> bool {
        self.0.key == other.0.key
    }
}
impl Eq for Smallest {}
impl PartialOrd for Smallest {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Smallest {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.key.cmp(&self.0.key)
    }
}

/// Entries at which a queue held in the binary heap moves into the radix heap.
const GROW_AT: usize = 2048;
/// Entries under which a queue held in the radix heap moves back into the binary heap.
const SHRINK_BELOW: usize = 512;

/// The simulation's event queue: a binary heap while it holds few entries, a radix heap once
/// it holds many (`GROW_AT`, back under `SHRINK_BELOW`). Both pop by the same unique keys, so
/// the order is the same whichever holds them, and a move between them is a pass over the
/// entries.
///
/// CHOICE: the binary heap for small queues. With a few entries pending (one CBR flow over four
/// hops: nine) a radix heap's moves between levels cost more than a heap's few comparisons:
/// cbr-4hop took 1.48 times the binary heap's wall time with the radix heap alone, and the
/// 100-flow dumbbells 1.03-1.05 times; the thresholds are docs/performance.md's measurements.
#[derive(Debug)]
pub struct EventQueue {
    heap: BinaryHeap<Smallest>,
    radix: RadixHeap,
    in_radix: bool,
    grow_at: usize,
    shrink_below: usize,
    next_seq: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue::with_thresholds(GROW_AT, SHRINK_BELOW)
    }
}

impl EventQueue {
    /// A queue that moves into the radix heap at `grow_at` entries and back under
    /// `shrink_below` (for tests of both and of the moves).
    #[must_use]
    pub fn with_thresholds(grow_at: usize, shrink_below: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            radix: RadixHeap::default(),
            in_radix: false,
            grow_at,
            shrink_below: shrink_below.min(grow_at),
            next_seq: 0,
        }
    }

    #[cold]
    #[inline(never)]
    fn move_to_radix(&mut self) {
        for Smallest(e) in self.heap.drain() {
            self.radix.insert(e);
        }
        self.in_radix = true;
    }

    #[cold]
    #[inline(never)]
    fn move_to_heap(&mut self) {
        self.heap = self.radix.drain_all().into_iter().map(Smallest).collect();
        self.in_radix = false;
    }
}

impl Scheduler for EventQueue {
    #[inline]
    fn push(&mut self, time: u64, event: Event) {
        let key = (u128::from(time) << 64) | u128::from(self.next_seq);
        self.next_seq += 1;
        let entry = Entry { key, event };
        if self.in_radix {
            self.radix.insert(entry);
        } else {
            debug_assert!(
                key >= self.radix.last,
                "an event scheduled before the last one popped"
            );
            self.heap.push(Smallest(entry));
            if self.heap.len() >= self.grow_at {
                self.move_to_radix();
            }
        }
    }

    #[inline]
    fn pop_until(&mut self, max_time: u64) -> Option<(u64, Event)> {
        let entry = if self.in_radix {
            let e = self.radix.pop_until(max_time)?;
            if self.radix.len < self.shrink_below {
                self.move_to_heap();
            }
            e
        } else {
            if self.heap.peek()?.0.time() > max_time {
                return None;
            }
            let Smallest(e) = self.heap.pop()?;
            // The radix heap keeps the last key popped, whichever structure popped it.
            self.radix.last = e.key;
            e
        };
        Some((entry.time(), entry.event))
    }

    fn peek(&self) -> Option<(u64, Event)> {
        let e = if self.in_radix {
            self.radix.peek()?
        } else {
            self.heap.peek()?.0
        };
        Some((e.time(), e.event))
    }

    #[inline]
    fn len(&self) -> usize {
        if self.in_radix {
            self.radix.len
        } else {
            self.heap.len()
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct HeapEntry {
    time: u64,
    seq: u64,
    event: Event,
}

impl PartialEq for HeapEntry {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl Eq for HeapEntry {}
impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeapEntry {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the earliest entry.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

/// A binary heap over (time, insertion sequence): the reference for [`EventQueue`].
#[derive(Debug, Default)]
pub struct HeapQueue {
    heap: BinaryHeap<HeapEntry>,
    next_seq: u64,
}

impl Scheduler for HeapQueue {
    fn push(&mut self, time: u64, event: Event) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(HeapEntry { time, seq, event });
    }

    fn pop_until(&mut self, max_time: u64) -> Option<(u64, Event)> {
        if self.heap.peek()?.time > max_time {
            return None;
        }
        self.heap.pop().map(|e| (e.time, e.event))
    }

    fn peek(&self) -> Option<(u64, Event)> {
        self.heap.peek().map(|e| (e.time, e.event))
    }

    fn len(&self) -> usize {
        self.heap.len()
    }
}

/// The hold model of event-queue benchmarks (Vaucher and Duval, CACM 18(4), 1975): fill a
/// queue with `pending` entries, then `operations` times pop the earliest and push one
/// `delay(i)` nanoseconds after it. Returns a checksum of the popped times (so the work
/// cannot be optimised away; equal for two queues that pop in the same order).
pub fn hold<Q: Scheduler>(
    queue: &mut Q,
    pending: u32,
    operations: u64,
    mut delay: impl FnMut(u64) -> u64,
) -> u64 {
    for i in 0..pending {
        queue.push(delay(u64::from(i)), Event::Start(i));
    }
    let mut sum = 0u64;
    for i in 0..operations {
        let (t, event) = queue.pop().expect("the hold model keeps the queue full");
        sum = sum.wrapping_mul(31).wrapping_add(t);
        queue.push(t + delay(i), event);
    }
    sum
}

/// The hold model's delays for `ccsim bench event-queue`, drawn as a packet simulation
/// schedules (SplitMix64 of the operation's index, so both queues get the same sequence):
/// 45 % serialisation ends (1 to 20 µs ahead), 45 % arrivals after a propagation delay
/// (0.5 to 40 ms), 10 % timers (1 ms to 1 s), and one in 64 at the current instant.
#[must_use]
pub fn simulation_like_delay(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let pick = z % 100;
    let r = z >> 8;
    if r.is_multiple_of(64) {
        0
    } else if pick < 45 {
        1_000 + r % 19_000
    } else if pick < 90 {
        500_000 + r % 39_500_000
    } else {
        1_000_000 + r % 999_000_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain<Q: Scheduler>(q: &mut Q) -> Vec<(u64, Event)> {
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn equal_times_pop_first_in_first_out() {
        let mut q = EventQueue::default();
        q.push(5, Event::Start(1));
        q.push(3, Event::Start(2));
        q.push(5, Event::Start(3));
        q.push(5, Event::Start(4));
        assert_eq!(
            drain(&mut q),
            vec![
                (3, Event::Start(2)),
                (5, Event::Start(1)),
                (5, Event::Start(3)),
                (5, Event::Start(4))
            ]
        );
    }

    /// A small deterministic generator (SplitMix64) for the model test.
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[test]
    fn pops_in_the_binary_heaps_order_entry_for_entry() {
        // Pushes at the current time (ties), a few ns, µs, ms and s ahead, and at times near
        // 2^64, interleaved with pops, bounded pops and peeks, as a simulation makes them.
        for seed in 0..20u64 {
            let mut rng = seed;
            // The default queue, the radix heap alone (moved into at once), and one moving
            // between the two every few entries.
            let (grow, shrink) = [(GROW_AT, SHRINK_BELOW), (0, 0), (8, 4)][seed as usize % 3];
            let (mut radix, mut heap) = (
                EventQueue::with_thresholds(grow, shrink),
                HeapQueue::default(),
            );
            let mut now = 0u64;
            for step in 0..20_000u32 {
                let r = splitmix(&mut rng);
                if r % 5 < 3 {
                    let ahead = match (r >> 8) % 6 {
                        0 => 0,
                        1 => (r >> 16) % 16,
                        2 => (r >> 16) % 20_000,
                        3 => (r >> 16) % 50_000_000,
                        4 => (r >> 16) % 5_000_000_000,
                        _ => (u64::MAX - now).saturating_sub((r >> 16) % 4),
                    };
                    let event = Event::Start(step);
                    radix.push(now.saturating_add(ahead), event);
                    heap.push(now.saturating_add(ahead), event);
                } else {
                    assert_eq!(radix.peek(), heap.peek());
                    let bound = if r.is_multiple_of(7) {
                        now.saturating_add((r >> 20) % 1000)
                    } else {
                        u64::MAX
                    };
                    let (a, b) = (radix.pop_until(bound), heap.pop_until(bound));
                    assert_eq!(a, b, "seed {seed} step {step}");
                    if let Some((t, _)) = a {
                        now = t;
                    }
                }
                assert_eq!(radix.len(), heap.len());
            }
            assert_eq!(drain(&mut radix), drain(&mut heap));
        }
    }

    #[test]
    fn a_bounded_pop_leaves_the_queue_open_to_earlier_pushes() {
        // `Sim::run_until` stops before an entry, then agents are scheduled at the limit,
        // earlier than that entry.
        let mut q = EventQueue::default();
        q.push(100, Event::Start(1));
        assert_eq!(q.pop_until(49), None);
        q.push(50, Event::Start(2));
        assert_eq!(q.pop(), Some((50, Event::Start(2))));
        assert_eq!(q.pop(), Some((100, Event::Start(1))));
        assert!(q.is_empty());
    }

    #[test]
    fn the_hold_model_pops_the_same_times_from_both_queues() {
        let delay = |i: u64| 1 + (i.wrapping_mul(2_654_435_761) % 1_000_000);
        let b = hold(&mut HeapQueue::default(), 1000, 100_000, delay);
        for (grow, shrink) in [(GROW_AT, SHRINK_BELOW), (0, 0), (600, 300)] {
            let a = hold(
                &mut EventQueue::with_thresholds(grow, shrink),
                1000,
                100_000,
                delay,
            );
            assert_eq!(a, b);
        }
    }
}
