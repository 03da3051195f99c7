//! The OBP router function of one egress port (Loureiro and Monteiro, section III-B-2). Plain
//! state, no engine: the driver calls [`ObpRouter::on_packet`] for every packet offered to the
//! port, with an [`ObpPort`] view of the port.
//!
//! Per measurement period, expression (6): AB = IC - BR - BI, IC the interface capacity, BR
//! the bytes received for this interface in the period, BI the bytes in the output queue when
//! the period started. Per OBP data packet: narrow = min(narrow, IC), tight = min(tight, AB)
//! ("the same packet is again updated if the variables narrow link and tight link have lower
//! values than the values at the current node").
//!
//! CHOICE: expression (6) subtracts byte counts from a capacity; we read it per second:
//! AB = IC - (BR + BI) / T, T the period's length, so AB is the capacity left over once the
//! period's arrivals and the queue it started with are sent within one period (a queue of
//! BI bytes counts as BI / T of load). This makes AB negative both when the arrivals exceed
//! the capacity and when a standing queue remains, which is how section III-A-1 uses it
//! ("whenever the end systems produce more load than the network capacity, the network
//! informs them of a negative AB").
//! CHOICE: the period is 10 ms (`ObpRouterConfig::period`). The paper says only that BR "is
//! updated in short periods of time". 10 ms is the smallest round-trip delay of the paper's
//! runs (10 ms to 1 s), so every EP update (once per RTT) sees at least one fresh AB; at the
//! paper's smallest capacity, 10 Mbit/s, a period still holds 12.5 packets of 1000 bytes.
//! CHOICE: BR is every byte offered to the port (the engine's `bytes_offered`), every protocol
//! and dropped packets included: the paper counts "the quantity of bytes received at this
//! interface", and load from non-OBP traffic is load the OBP flows must leave room for.
//! CHOICE: no timers. A period ends at the first packet offered at or after its end; AB then
//! uses the period's real length T. The next period starts at that packet, which counts in it;
//! BI is the queue that packet finds. When the packet comes a whole period or more after the
//! period's end, a timer would have closed at least one period without arrivals: AB is that
//! empty period's, IC - BI / period with BI the queue the packet finds (the queue the empty
//! period started with was at least that), so an idle port with an empty queue stamps IC, as a
//! new port does, and a transfer alone on an idle path runs as on an empty network.
//! CHOICE: before the first period ends the port has measured nothing and stamps AB = IC (an
//! empty link, as far as it knows).

use ccsim_core::{Dur, Packet, SimTime};

use crate::Hdr;

/// What the router reads of its egress port when a packet is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObpPort {
    /// Link capacity, bits per second.
    pub rate: ccsim_core::Rate,
    /// Bytes waiting in the queue (the packet in service and the offered one excluded).
    pub queue_bytes: u64,
    /// Bytes offered to the port so far, every protocol, the offered packet included (the
    /// engine's `PortState::bytes_offered` at the hook).
    pub bytes_offered: u64,
}

/// Router parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObpRouterConfig {
    /// The measurement period of AB (10 ms).
    pub period: Dur,
}

impl Default for ObpRouterConfig {
    fn default() -> Self {
        ObpRouterConfig {
            period: Dur::from_millis(10),
        }
    }
}

/// The OBP router function of one egress port.
#[derive(Clone, Debug)]
pub struct ObpRouter {
    cfg: ObpRouterConfig,
    started: bool,
    period_start: SimTime,
    /// `bytes_offered` before the packet that opened the period.
    offered_mark: u64,
    /// BI: queue bytes when the period started.
    queue_mark: u64,
    /// The last AB, bytes per second (`None` before the first period ends).
    ab: Option<f64>,
    periods: u64,
}

impl ObpRouter {
    /// A router with `cfg`.
    #[must_use]
    pub fn new(cfg: ObpRouterConfig) -> Self {
        ObpRouter {
            cfg,
            started: false,
            period_start: SimTime::ZERO,
            offered_mark: 0,
            queue_mark: 0,
            ab: None,
            periods: 0,
        }
    }

    /// The available bandwidth of the last complete period, bytes per second (`None` before
    /// one has ended).
    #[must_use]
    pub fn available(&self) -> Option<f64> {
        self.ab
    }

    /// Periods completed so far.
    #[must_use]
    pub fn periods(&self) -> u64 {
        self.periods
    }

    /// A packet is offered to the port: close the period if it is over, then stamp the packet
    /// if it is an OBP data packet.
    pub fn on_packet(&mut self, now: SimTime, pkt: &mut Packet<Hdr>, port: ObpPort) {
        let ic = port.rate.bps() as f64 / 8.0;
        let before = port.bytes_offered.saturating_sub(u64::from(pkt.size));
        if !self.started {
            self.started = true;
            self.open(now, before, port.queue_bytes);
        } else if now.since(self.period_start) >= self.cfg.period + self.cfg.period {
            // At least one whole period without arrivals since the last one ended.
            let empty = self.cfg.period.as_secs_f64();
            self.ab = Some(ic - port.queue_bytes as f64 / empty);
            self.periods += now.since(self.period_start).0 / self.cfg.period.0.max(1);
            self.open(now, before, port.queue_bytes);
        } else if now.since(self.period_start) >= self.cfg.period {
            let t = now.since(self.period_start).as_secs_f64();
            let br = before.saturating_sub(self.offered_mark) as f64;
            let bi = self.queue_mark as f64;
            self.ab = Some(ic - (br + bi) / t);
            self.periods += 1;
            self.open(now, before, port.queue_bytes);
        }
        if let Hdr::ObpData { narrow, tight, .. } = &mut pkt.header {
            let ab = self.ab.unwrap_or(ic);
            *narrow = narrow.min(ic as f32);
            *tight = tight.min(ab as f32);
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> ObpRouterConfig {
        self.cfg
    }

    fn open(&mut self, now: SimTime, offered: u64, queue: u64) {
        self.period_start = now;
        self.offered_mark = offered;
        self.queue_mark = queue;
    }
}

impl Default for ObpRouter {
    fn default() -> Self {
        ObpRouter::new(ObpRouterConfig::default())
    }
}
