//! Delivery-rate sampling as Linux computes it (`net/ipv4/tcp_rate.c`;
//! draft-cheng-iccrg-delivery-rate-estimation), for BBR and any later model-based control.
//!
//! Each segment records, when sent, how much had been delivered and when, and whether the
//! sender was application-limited. On every ACK the sample takes the most recently sent of
//! the segments it delivered (cumulatively or by SACK; a tie goes to the higher sequence, as
//! `tcp_skb_sent_after`): the data delivered since that segment was sent, over the longer of
//! its send interval (from the send time of the segment whose delivery opened it) and its ACK
//! interval. A sample whose interval is shorter than the minimum RTT is invalid, as Linux's
//! `tcp_rate_gen` rules (an ACK-compressed burst would overstate the rate).
//!
//! Application-limited marking (`tcp_rate_check_app_limited`): when the sender has nothing
//! more to send while its window has room and no lost segment waits for retransmission, the
//! delivered count that ends the app-limited phase is `delivered + in_flight` (at least 1);
//! every segment sent before that much is delivered carries the mark, and so do the samples
//! it produces. A model-based algorithm may also set the mark (BBR's PROBE_RTT).
//!
//! CHOICE: times are kept in nanoseconds, not Linux's microseconds; an algorithm that needs
//! Linux's arithmetic rounds them itself.
//! CHOICE: the minimum RTT that invalidates short samples is the smallest RTT sample of the
//! connection (Linux's `tcp_min_rtt` keeps a 300 s windowed minimum; runs are mostly shorter).

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
    /// Segments delivered with a congestion mark when it was sent.
    pub delivered_ce: u64,
    /// Segments marked lost when it was sent (`tx.lost`).
    pub lost: u64,
    /// Segments in flight just after it was sent (`tx.in_flight`).
    pub in_flight: u64,
    /// Whether the sender was application-limited when it was sent.
    pub app_limited: bool,
}

/// One ACK's delivery-rate sample (Linux's `struct rate_sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateSample {
    /// Segments delivered over the interval (0 when the sample is invalid).
    pub delivered: u64,
    /// Of those, segments whose delivery was echoed as CE-marked (`delivered_ce`).
    pub delivered_ce: u64,
    /// The interval; `None` when the ACK gave no valid sample (nothing delivered, or an
    /// interval shorter than the minimum RTT).
    pub interval: Option<Dur>,
    /// The delivered count when the sampled segment was sent (`prior_delivered`).
    pub prior_delivered: u64,
    /// Whether the sampled segment was sent while application-limited.
    pub is_app_limited: bool,
    /// Segments this ACK delivered, cumulatively or by SACK (`acked_sacked`).
    pub acked_sacked: u64,
    /// Segments this ACK newly marked lost (`losses`).
    pub losses: u64,
    /// Segments this ACK reported CE-marked (`ece_delta`: AccECN's count, or every segment
    /// it delivered when it echoed ECE).
    pub ece_delta: u64,
    /// Segments marked lost since the sampled segment was sent (`lost`).
    pub lost: u64,
    /// Segments in flight just after the sampled segment was sent (`tx_in_flight`).
    pub tx_in_flight: u64,
    /// Segments in flight before this ACK (`prior_in_flight`).
    pub prior_in_flight: u64,
    /// RTT of the newest never-retransmitted segment this ACK delivered (`rtt_us`).
    pub rtt: Option<Dur>,
}

impl RateSample {
    /// The rate, segments per second, if the sample is valid.
    #[must_use]
    pub fn segments_per_sec(&self) -> Option<f64> {
        self.interval
            .map(|i| self.delivered as f64 / i.as_secs_f64())
    }
}

/// The sampled segment of the ACK being processed.
#[derive(Clone, Copy, Debug)]
struct Prior {
    snap: SendSnapshot,
    seq: u64,
    /// Its send interval.
    send_elapsed: u64,
}

/// The connection's delivery counters (Linux's `tp->delivered`, `delivered_mstamp`,
/// `first_tx_mstamp`, `app_limited`).
#[derive(Clone, Debug, Default)]
pub struct DeliveryRate {
    delivered: u64,
    delivered_ce: u64,
    delivered_time: SimTime,
    first_sent_time: SimTime,
    /// The delivered count that ends the application-limited phase; 0 when not limited.
    app_limited_until: u64,
    min_rtt: Option<Dur>,
    prior: Option<Prior>,
    /// What the ACK being processed delivered, and its newest never-retransmitted send time.
    ack_delivered: u64,
    newest_clean_send: Option<SimTime>,
}

impl DeliveryRate {
    /// Snapshot for a segment sent now (`tcp_rate_skb_sent`); `idle` when nothing was in
    /// flight, `lost` segments marked lost so far, `in_flight` segments in flight with it.
    pub fn on_send(&mut self, now: SimTime, idle: bool, lost: u64, in_flight: u64) -> SendSnapshot {
        if idle {
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        SendSnapshot {
            delivered: self.delivered,
            delivered_ce: self.delivered_ce,
            lost,
            in_flight,
            delivered_time: self.delivered_time,
            first_sent_time: self.first_sent_time,
            sent_time: now,
            app_limited: self.app_limited_until != 0,
        }
    }

    /// Segment `seq`, sent with `snap` (`retx`: ever retransmitted), was delivered now
    /// (`tcp_rate_skb_delivered`).
    pub fn on_delivered(&mut self, seq: u64, snap: &SendSnapshot, retx: bool, _now: SimTime) {
        self.delivered += 1;
        self.ack_delivered += 1;
        if !retx && self.newest_clean_send.is_none_or(|t| snap.sent_time > t) {
            self.newest_clean_send = Some(snap.sent_time);
        }
        let newer = self.prior.is_none_or(|p| {
            snap.sent_time > p.snap.sent_time || (snap.sent_time == p.snap.sent_time && seq > p.seq)
        });
        if newer {
            self.first_sent_time = snap.sent_time;
            self.prior = Some(Prior {
                snap: *snap,
                seq,
                send_elapsed: snap.sent_time.0 - snap.first_sent_time.0,
            });
        }
    }

    /// An RTT sample of the connection (for the minimum RTT).
    pub fn on_rtt(&mut self, rtt: Dur) {
        if self.min_rtt.is_none_or(|m| rtt < m) {
            self.min_rtt = Some(rtt);
        }
    }

    /// Segments delivered so far.
    #[must_use]
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// Segments delivered with a congestion mark so far (`tp->delivered_ce`).
    #[must_use]
    pub fn delivered_ce(&self) -> u64 {
        self.delivered_ce
    }

    /// When the delivered count last changed.
    #[must_use]
    pub fn delivered_time(&self) -> SimTime {
        self.delivered_time
    }

    /// The connection's minimum RTT so far.
    #[must_use]
    pub fn min_rtt(&self) -> Option<Dur> {
        self.min_rtt
    }

    /// Whether the sender is application-limited.
    #[cfg(test)]
    #[must_use]
    pub fn is_app_limited(&self) -> bool {
        self.app_limited_until != 0
    }

    /// Mark the sender application-limited until what is in flight now is delivered
    /// (`tp->app_limited = (delivered + in_flight) ?: 1`).
    pub fn mark_app_limited(&mut self, in_flight: u64) {
        self.app_limited_until = (self.delivered + in_flight).max(1);
    }

    /// The sample of the ACK just processed (`tcp_rate_gen`): `losses` segments it marked
    /// lost, `lost` segments marked lost so far, `prior_in_flight` segments in flight before
    /// it, `ce` of its deliveries echoed as CE-marked.
    pub fn generate(
        &mut self,
        now: SimTime,
        losses: u64,
        lost: u64,
        prior_in_flight: u64,
        ce: u64,
    ) -> RateSample {
        let acked_sacked = std::mem::take(&mut self.ack_delivered);
        self.delivered_ce += ce.min(acked_sacked);
        let rtt = self.newest_clean_send.take().map(|t| now - t);
        if let Some(r) = rtt {
            self.on_rtt(r);
        }
        if self.app_limited_until != 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        if acked_sacked > 0 {
            self.delivered_time = now;
        }
        let mut rs = RateSample {
            acked_sacked,
            losses,
            ece_delta: ce,
            prior_in_flight,
            rtt,
            ..RateSample::default()
        };
        let Some(prior) = self.prior.take() else {
            return rs;
        };
        rs.prior_delivered = prior.snap.delivered;
        rs.lost = lost.saturating_sub(prior.snap.lost);
        rs.tx_in_flight = prior.snap.in_flight;
        rs.is_app_limited = prior.snap.app_limited;
        let ack_elapsed = now.0 - prior.snap.delivered_time.0;
        let interval = prior.send_elapsed.max(ack_elapsed);
        if self.min_rtt.is_some_and(|m| interval < m.0) {
            return rs;
        }
        rs.delivered = self.delivered - prior.snap.delivered;
        rs.delivered_ce = self.delivered_ce - prior.snap.delivered_ce;
        rs.interval = (interval > 0).then_some(Dur(interval));
        rs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    /// A window of ten segments sent back to back at t = 0..9 ms, acknowledged one by one
    /// 100 ms later at the same spacing: each sample is the rate of 1 segment/ms.
    #[test]
    fn steady_ack_clock_samples_the_sending_rate() {
        let mut r = DeliveryRate::default();
        let snaps: Vec<_> = (0..10).map(|i| r.on_send(ms(i), i == 0, 0, 1)).collect();
        for (i, s) in snaps.iter().enumerate() {
            let now = ms(100 + i as u64);
            r.on_delivered(i as u64, s, false, now);
            r.on_rtt(now - s.sent_time);
            let rs = r.generate(now, 0, 0, 10 - i as u64, 0);
            assert_eq!(rs.acked_sacked, 1);
            assert_eq!(rs.rtt, Some(Dur::from_millis(100)));
            if i == 0 {
                // The first segment opens the interval: send interval 0, ACK interval
                // 100 ms from the idle start.
                assert_eq!(rs.delivered, 1);
                assert_eq!(rs.interval, Some(Dur::from_millis(100)));
            } else {
                // Delivered i+1 since the connection began, over max(send i ms, ack 100+i
                // ms): below the minimum RTT no sample shorter than 100 ms is valid.
                assert_eq!(rs.delivered, i as u64 + 1);
                assert_eq!(rs.interval, Some(Dur::from_millis(100 + i as u64)));
            }
        }
    }

    /// Samples from segments sent in an application-limited phase carry the mark until the
    /// data in flight at the marking is delivered.
    #[test]
    fn app_limited_mark_ends_when_the_flight_is_delivered() {
        let mut r = DeliveryRate::default();
        let a = r.on_send(ms(0), true, 0, 1);
        r.mark_app_limited(1);
        let b = r.on_send(ms(1), false, 0, 1);
        assert!(!a.app_limited);
        assert!(b.app_limited);
        r.on_delivered(0, &a, false, ms(50));
        let rs = r.generate(ms(50), 0, 0, 2, 0);
        assert!(!rs.is_app_limited);
        assert!(r.is_app_limited(), "delivered 1 is not beyond the mark 1");
        r.on_delivered(1, &b, false, ms(51));
        let rs = r.generate(ms(51), 0, 0, 1, 0);
        assert!(rs.is_app_limited);
        assert!(!r.is_app_limited(), "delivered 2 passes the mark");
    }

    /// A retransmitted segment gives no RTT; a SACK of a later-sent segment is the sample.
    #[test]
    fn newest_sent_segment_is_sampled() {
        let mut r = DeliveryRate::default();
        let s0 = r.on_send(ms(0), true, 0, 1);
        let s1 = r.on_send(ms(2), false, 0, 1);
        r.on_delivered(1, &s1, false, ms(40));
        r.on_delivered(0, &s0, true, ms(40));
        let rs = r.generate(ms(40), 1, 0, 2, 0);
        assert_eq!(rs.rtt, Some(Dur::from_millis(38)));
        assert_eq!(rs.losses, 1);
        assert_eq!(rs.prior_in_flight, 2);
        assert_eq!(rs.prior_delivered, 0);
        assert_eq!(rs.delivered, 2);
    }
}
