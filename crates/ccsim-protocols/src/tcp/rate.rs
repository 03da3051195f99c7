//! Delivery-rate sampling (draft-cheng-iccrg-delivery-rate-estimation), per segment.
//!
//! Each segment records, when sent, how much had been delivered and when; when it is
//! delivered (cumulatively or by SACK) the sample is the data delivered since over the
//! longer of the send and ACK intervals. Congestion control receives the sample in
//! [`AckEvent::rate`](super::cc::AckEvent); it never computes rates itself.
//!
//! CHOICE: no application-limited marking (every built-in source is bulk or a fixed-size
//! transfer that is window-limited until its end).

use ccsim_core::{Dur, SimTime};

/// The delivery state a segment carries from its (last) transmission.
#[derive(Clone, Copy, Debug, Default)]
pub struct SendSnapshot {
    /// Segments delivered when it was sent.
    pub delivered: u64,
    /// When the delivered count last changed, as of sending.
    pub delivered_time: SimTime,
    /// Send time of the segment whose delivery opened the current interval.
    pub first_sent_time: SimTime,
    /// When it was sent.
    pub sent_time: SimTime,
}

/// One delivery-rate sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    /// Segments delivered in the interval.
    pub delivered: u64,
    /// The interval.
    pub interval: Dur,
}

impl RateSample {
    /// The rate, segments per second.
    #[must_use]
    pub fn segments_per_sec(&self) -> f64 {
        self.delivered as f64 / self.interval.as_secs_f64()
    }
}

/// The connection's delivery counters.
#[derive(Clone, Debug, Default)]
pub struct DeliveryRate {
    delivered: u64,
    delivered_time: SimTime,
    first_sent_time: SimTime,
    /// The snapshot of the most recently sent segment delivered by the current ACK.
    prior: Option<SendSnapshot>,
}

impl DeliveryRate {
    /// Snapshot for a segment sent now; `idle` when nothing was in flight.
    pub fn on_send(&mut self, now: SimTime, idle: bool) -> SendSnapshot {
        if idle {
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        SendSnapshot {
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent_time: self.first_sent_time,
            sent_time: now,
        }
    }

    /// A segment sent with `snap` was delivered now.
    pub fn on_delivered(&mut self, snap: &SendSnapshot, now: SimTime) {
        self.delivered += 1;
        self.delivered_time = now;
        if self.prior.is_none_or(|p| snap.delivered >= p.delivered) {
            self.first_sent_time = snap.sent_time;
            self.prior = Some(*snap);
        }
    }

    /// Segments delivered so far.
    #[must_use]
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// The sample of the ACK just processed, if it delivered anything measurable.
    pub fn take_sample(&mut self) -> Option<RateSample> {
        let prior = self.prior.take()?;
        let send_elapsed = prior.sent_time.0 - prior.first_sent_time.0;
        let ack_elapsed = self.delivered_time.0 - prior.delivered_time.0;
        let interval = send_elapsed.max(ack_elapsed);
        (interval > 0).then(|| RateSample {
            delivered: self.delivered - prior.delivered,
            interval: Dur(interval),
        })
    }
}
