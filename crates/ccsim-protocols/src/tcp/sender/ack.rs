//! An acknowledgement: what it delivers (SACK blocks, D-SACK, AccECN's count), one
//! delivery-rate sample for it, new data acknowledged, and the algorithm's hooks.
//!
//! CHOICE: RTT for the retransmission timer is measured on one timed segment at a time
//! (the classic BSD scheme, which RFC 6298 section 3 allows); a retransmission cancels the
//! measurement (Karn's rule). Congestion control gets one RTT sample per ACK that advances
//! the ACK point (the newest segment it covers, if never retransmitted).

use super::{Control, Recovery, TcpSender, Timer};
use crate::tcp::accecn::AccEcnOption;
use crate::tcp::cc::{AckEvent, CaState, CongestionControl, Conn, Delivery};
use crate::tcp::hystart::{HyStartKind, Verdict};
use crate::tcp::pacing::Pacing;
use crate::{Hdr, SackBlock};
use ccsim_core::{Ctx, Dur, SimTime};

impl TcpSender {
    pub(super) fn on_ack<C: Ctx<Hdr>>(
        &mut self,
        ack: u64,
        ece: bool,
        ace: Option<u8>,
        sack: Option<&[SackBlock]>,
        accecn_option: Option<&AccEcnOption>,
        ctx: &mut C,
    ) {
        let now = ctx.now();
        let mut newly_sacked = 0;
        // Whether this ACK newly SACKs the flow's short last segment (AccECN's byte count).
        let mut last_sacked = false;
        let last = self.total_segments.wrapping_sub(1);
        let marked_lost = self.board.marked_lost();
        // A model-based algorithm's sample counts what was in flight before the ACK, and
        // sending waits for its decision.
        let prior_in_flight = match &mut self.control {
            Control::Model(m) => {
                m.deferred = true;
                self.board.pipe()
            }
            Control::Window(_) => 0,
        };
        let old_ack = ack < self.snd_una;
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.begin_ack();
        }
        // An ACK for data never sent is treated as acknowledging everything sent.
        let ack = ack.min(self.snd_max);
        // RFC 2883 section 4: a first block below the ACK point or inside the second is a
        // D-SACK, a segment that arrived twice.
        let dsack = sack.and_then(|b| {
            let first = b.first()?;
            let inside_second = b
                .get(1)
                .is_some_and(|s| s.start <= first.start && first.end <= s.end);
            (first.end <= ack.max(self.snd_una) || inside_second).then_some(*first)
        });
        if let Some(blocks) = sack {
            let rate = &mut self.rate;
            let mut rack = self.rack.as_deref_mut();
            self.board.mark_sacked(blocks, |seq, s| {
                newly_sacked += 1;
                last_sacked |= seq == last;
                rate.on_delivered(seq, &s.snap, s.retx, now);
                if let Some(r) = rack.as_mut() {
                    r.on_delivered(seq, s.snap.sent_time, s.retx, now);
                }
            });
        }
        if let Some(rack) = self.rack.as_deref_mut() {
            for seq in self.snd_una..ack.max(self.snd_una) {
                if let Some(s) = self.board.get(seq).filter(|s| !s.sacked) {
                    rack.on_delivered(seq, s.snap.sent_time, s.retx, now);
                }
            }
            self.rack_detect_loss(ack.max(self.snd_una), dsack.is_some(), ctx);
        }
        self.ack_marked_lost = self.board.marked_lost() > marked_lost;
        // Segments this ACK delivers: newly SACKed, or acknowledged and not SACKed before
        // (Linux's `acked_sacked`): what PRR counts, DCTCP watches and the window grows by.
        let cumulative = (self.snd_una..ack.max(self.snd_una))
            .filter(|&q| !self.board.is_sacked(q))
            .count() as u64;
        self.ack_delivered = newly_sacked + cumulative;
        let last_delivered =
            last_sacked || ((self.snd_una..ack).contains(&last) && !self.board.is_sacked(last));
        let (ece, ce) = self.ce_reported(ece, ace, accecn_option, last_delivered);
        if self.control.cc().wants_deliveries() {
            self.control.cc_mut().on_delivery(&Delivery {
                segments: self.ack_delivered,
                ece,
                ce,
                snd_una: ack.max(self.snd_una),
                snd_nxt: self.snd_nxt.max(ack),
            });
        }
        let reduced_for_ecn = ece && self.on_ece(ack);
        let una_before = self.snd_una;
        if ack > self.snd_una {
            self.on_new_ack(ack, reduced_for_ecn, ctx);
        } else if ack == self.snd_una && self.snd_max > self.snd_una {
            self.on_dup_ack(ctx);
        }
        let losses = self.board.marked_lost() - marked_lost;
        let sample = self
            .rate
            .generate(now, losses, self.board.marked_lost(), prior_in_flight, ce);
        match &mut self.control {
            Control::Model(m) => {
                m.deferred = false;
                if !old_ack {
                    self.model_control(&sample, ctx);
                }
                self.transmit(ctx);
            }
            Control::Window(_) => {
                if self.window_pacing && !old_ack {
                    if let (Some(p), Some(srtt)) = (self.pacing.as_mut(), self.rtt.srtt()) {
                        let packets_out = self.snd_max - self.snd_una;
                        p.set_window_rate(self.cwnd, self.ssthresh, packets_out * self.mss, srtt);
                    }
                }
            }
        }
        if self.tlp.is_some() {
            self.tlp_process_ack(ack, una_before, sack.is_some(), dsack);
            self.schedule_probe(ctx);
        }
    }

    /// The connection as a model-based algorithm reads it (`cc::Conn`).
    pub(super) fn conn(&self, now: SimTime) -> Conn {
        Conn {
            now,
            state: self.state,
            in_flight: self.board.pipe(),
            delivered: self.rate.delivered(),
            delivered_time: self.rate.delivered_time(),
            delivered_ce: self.rate.delivered_ce(),
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt.max(self.snd_una),
            packet_size: self.mss + u64::from(self.header_bytes),
            lost: self.board.marked_lost(),
            srtt: self.rtt.srtt(),
            min_rtt: self.rate.min_rtt(),
            next_release: self
                .pacing
                .as_ref()
                .map_or(SimTime::ZERO, Pacing::next_release),
        }
    }

    /// Linux's `cong_control`: the algorithm sets the window and the pacing rate from this
    /// ACK's sample.
    pub(super) fn model_control<C: Ctx<Hdr>>(
        &mut self,
        sample: &crate::tcp::rate::RateSample,
        ctx: &mut C,
    ) {
        let conn = self.conn(ctx.now());
        let mut w = self.window();
        let decision = self
            .control
            .cc_mut()
            .cong_control(&mut w, sample, &conn, ctx.rng());
        self.set_window(w);
        if let (Some(rate), Some(p)) = (decision.pacing_rate, self.pacing.as_mut()) {
            p.set_rate(rate);
        }
        if let Some(p) = self.pacing.as_mut() {
            p.set_quantum(self.control.cc().tso_segs(self.mss));
        }
        if decision.mark_app_limited {
            self.rate.mark_app_limited(conn.in_flight);
        }
    }

    /// The connection is open: the algorithm's initial state and pacing rate.
    pub(super) fn init_controller(&mut self, now: SimTime) {
        let conn = self.conn(now);
        let mut w = self.window();
        let rate = self.control.cc_mut().on_init(&mut w, &conn);
        self.set_window(w);
        if let (Some(rate), Some(p)) = (rate, self.pacing.as_mut()) {
            p.set_rate(rate);
        }
    }

    pub(super) fn on_new_ack<C: Ctx<Hdr>>(&mut self, ack: u64, no_growth: bool, ctx: &mut C) {
        let now = ctx.now();
        self.backed_off = false;
        self.limited_sent = 0;
        // The window grows by what this ACK newly delivered, not by the distance the ACK
        // point moved: a hole repaired under a long SACKed run moves it far, but the SACKed
        // segments were delivered (and counted) before (Linux `tcp_cong_avoid(sk, ack,
        // acked_sacked)`). RFC 5681's growth of at most one segment per ACK reads the same.
        let acked_segments = self.ack_delivered;
        if self.timestamps {
            // RFC 7323 section 4: the ACK echoes the timestamp of the segment that started
            // at the left edge of the window when it arrived (section 4.3: TS.Recent), the
            // last transmission of the oldest segment it acknowledges; no Karn ambiguity.
            if let Some(seg) = self.board.get(self.snd_una) {
                let sent = seg.snap.sent_time;
                self.rtt.sample(now - sent, sent, ack, self.snd_max);
            }
        } else if let Some((seq, sent)) = self.timed {
            if ack > seq {
                self.rtt.sample(now - sent, sent, ack, self.snd_max);
                self.timed = None;
            }
        }
        let cc_sample = self
            .board
            .get(ack - 1)
            .filter(|s| !s.retx)
            .map(|seg| now - seg.snap.sent_time);
        if let Some(sample) = cc_sample {
            self.control.cc_mut().on_rtt(sample, now);
        }
        let rate = &mut self.rate;
        self.board
            .advance(ack, |seq, s| rate.on_delivered(seq, &s.snap, s.retx, now));
        if let Some(p) = self.pacer.as_mut() {
            if let Some(last) = p.last_ack_at {
                let gap = (now - last).0;
                p.inter_ack = Some(p.inter_ack.map_or(gap, |g| g - g / 8 + gap / 8));
            }
            p.last_ack_at = Some(now);
        }
        if self.recovery == Recovery::VegasNs2 {
            self.vegas_ns2_deflate();
        }
        let reset_timer = if self.state == CaState::Recovery {
            self.recovery_new_ack(ack, ctx)
        } else {
            self.snd_una = ack;
            self.dupacks = 0;
            if self.state == CaState::Loss && self.recover.is_some_and(|r| ack > r) {
                self.set_state(CaState::Open);
            }
            if self.state == CaState::Cwr && ack > self.ecn_recover {
                self.set_state(CaState::Open);
            }
            // An ACK on which RACK marked a loss starts recovery below without growing the
            // window first (Linux enters recovery before `tcp_cong_control`).
            let entering_recovery = self.rack.is_some() && self.board.flagged_lost() > 0;
            let window_algorithm = matches!(self.control, Control::Window(_));
            if !no_growth && !entering_recovery && window_algorithm {
                let acked_segments = self.slow_start_exit(now, cc_sample, ack, acked_segments);
                let mut w = self.window();
                let event = AckEvent {
                    now,
                    acked_segments,
                    snd_una: ack,
                    snd_nxt: self.snd_nxt.max(ack),
                };
                self.control.cc_mut().on_ack(&mut w, &event);
                self.set_window(w);
            }
            true
        };
        self.snd_nxt = self.snd_nxt.max(self.snd_una);
        if self.recovery == Recovery::VegasNs2 {
            self.vegas_ns2_worried_check(ctx);
        }
        if self.snd_una >= self.total_segments && self.stats.completed_at.is_none() {
            self.stats.completed_at = Some(now);
            ctx.finish();
        }
        if self.snd_una == self.snd_max {
            // Everything acknowledged: stop the timer (RFC 6298 5.2).
            ctx.cancel_timer(Timer::Retransmission.slot());
            self.rto_deadline = None;
        } else if reset_timer {
            self.arm_rto(ctx); // RFC 6298 5.3
        }
        // RACK marks losses on any ACK, also one that advances the ACK point.
        if self.rack.is_some()
            && matches!(self.state, CaState::Open | CaState::Cwr)
            && self.board.flagged_lost() > 0
        {
            self.enter_fast_recovery(ctx);
            return;
        }
        self.transmit(ctx);
    }

    /// HyStart on an ACK of new data in slow start: end slow start where it says so, and
    /// return the acknowledged segments slow start may grow by (fewer in RFC 9406's CSS).
    pub(super) fn slow_start_exit(
        &mut self,
        now: SimTime,
        sample: Option<Dur>,
        ack: u64,
        acked_segments: u64,
    ) -> u64 {
        if self.hystart.kind() == HyStartKind::Off
            || self.state != CaState::Open
            || self.cwnd >= self.ssthresh
        {
            return acked_segments;
        }
        let snd_nxt = self.snd_nxt.max(ack);
        if self
            .hystart
            .on_ack(now, sample, ack, snd_nxt, self.cwnd / self.mss)
            == Verdict::Exit
        {
            self.ssthresh = self.cwnd;
            return acked_segments;
        }
        self.hystart.slow_start_acked(acked_segments)
    }
}
