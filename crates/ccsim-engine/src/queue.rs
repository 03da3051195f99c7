//! The event queue: a binary heap keyed by (time, insertion sequence).
//!
//! Equal times pop in insertion order (first in, first out), which makes every run
//! deterministic without relying on the heap's internal tie-breaking. Events are small
//! `Copy` values holding indices; nothing on this path allocates once the heap has grown.

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

#[derive(Clone, Copy, Debug)]
struct Entry {
    time: u64,
    seq: u64,
    event: Event,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the earliest entry.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

/// A min-queue of events ordered by (time, insertion sequence).
#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
}

impl EventQueue {
    /// Schedule `event` at `time` (nanoseconds).
    pub fn push(&mut self, time: u64, event: Event) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { time, seq, event });
    }

    /// The earliest entry's time, if any.
    #[must_use]
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|e| e.time)
    }

    /// The earliest entry, if any.
    #[must_use]
    pub fn peek(&self) -> Option<(u64, Event)> {
        self.heap.peek().map(|e| (e.time, e.event))
    }

    /// Remove and return the earliest entry.
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        self.heap.pop().map(|e| (e.time, e.event))
    }

    /// Number of entries, stale ones included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether the queue is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_first_in_first_out() {
        let mut q = EventQueue::default();
        q.push(5, Event::Start(1));
        q.push(3, Event::Start(2));
        q.push(5, Event::Start(3));
        q.push(5, Event::Start(4));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (3, Event::Start(2)),
                (5, Event::Start(1)),
                (5, Event::Start(3)),
                (5, Event::Start(4))
            ]
        );
    }
}
