//! A queue discipline from outside the engine: a user's AQM behind [`QueueDiscipline`]
//! (Rust, or Python through the `ccsim` module; docs/your-own-algorithm.md).
//!
//! The discipline decides on each packet offered to the link (after random loss, the drop
//! rules and a router function, as RED does): accept, drop, or mark CE. The link's physical
//! limit applies after it, as under every discipline. A discipline that reads the dequeue
//! ([`QueueDiscipline::reads_dequeue`]) then chooses, each time the link is free, which
//! waiting packet goes next, and may drop or mark on the way (as CoDel and DualPI2 do).
//!
//! CHOICE: "mark" on a packet that is not ECN-capable drops it, as an RFC 3168 router does
//! when it would mark (section 5).
//! CHOICE: the discipline's drops are counted under their own reason, `aqm`, listed in the
//! summaries of runs that have such a queue, so a tail drop the discipline decides reads apart
//! from one the physical limit makes (`queue_full`).

use std::collections::VecDeque;

/// A packet as a discipline sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueuedPacket {
    /// Whole packet, bytes.
    pub size: u32,
    /// ECT(0) or ECT(1).
    pub ecn_capable: bool,
    /// Already marked CE.
    pub ce: bool,
    /// The flow it belongs to (the order flows are declared in, then generated).
    pub flow: u32,
    /// When it joined the queue, ns (now, on enqueue).
    pub enqueued_at: u64,
}

/// The queue as a discipline sees it: what waits, not the packet being serialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueState {
    /// Packets waiting.
    pub packets: u64,
    /// Bytes waiting.
    pub bytes: u64,
    /// Now, ns.
    pub now: u64,
}

/// What a discipline decides about an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Queue it (the physical limit still applies).
    Accept,
    /// Drop it (reason `aqm`).
    Drop,
    /// Set CE and queue it (a packet that is not ECN-capable is dropped instead).
    Mark,
}

/// What a discipline decides when the link is free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Send the waiting packet at this position (0: the oldest).
    Send(usize),
    /// Set CE on it and send it.
    Mark(usize),
    /// Drop it (reason `aqm`) and ask again.
    Drop(usize),
}

/// A queue discipline.
pub trait QueueDiscipline {
    /// A packet is offered to the link.
    fn enqueue(&mut self, pkt: &QueuedPacket, q: &QueueState) -> Admit;

    /// Whether [`QueueDiscipline::dequeue`] is to be called; without it the queue is FIFO.
    fn reads_dequeue(&self) -> bool {
        false
    }

    /// The link is free and `q.packets` > 0 packets wait; `waiting(i)` is the `i`-th oldest.
    fn dequeue(&mut self, _q: &QueueState, _waiting: &dyn Fn(usize) -> QueuedPacket) -> Pick {
        Pick::Send(0)
    }
}

/// A link's discipline and when each waiting packet joined (the link's FIFO holds the
/// packets, in the same order).
pub struct CustomPort {
    /// The discipline.
    pub discipline: Box<dyn QueueDiscipline + Send>,
    /// Enqueue times, ns, parallel to the link's FIFO.
    pub enqueued_at: VecDeque<u64>,
    /// Cached [`QueueDiscipline::reads_dequeue`].
    pub reads_dequeue: bool,
}

impl CustomPort {
    /// A port running `discipline`.
    #[must_use]
    pub fn new(discipline: Box<dyn QueueDiscipline + Send>) -> Self {
        let reads_dequeue = discipline.reads_dequeue();
        CustomPort {
            discipline,
            enqueued_at: VecDeque::new(),
            reads_dequeue,
        }
    }
}

impl std::fmt::Debug for CustomPort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomPort")
            .field("waiting", &self.enqueued_at.len())
            .field("reads_dequeue", &self.reads_dequeue)
            .finish_non_exhaustive()
    }
}
