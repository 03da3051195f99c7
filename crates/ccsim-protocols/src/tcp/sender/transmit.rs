//! Sending: segments, the handshake's SYN, pacing and paced slow start.
//!
//! Satellite slow-start options (Barakat, Chafer, Dabbous and Altman, "Improving TCP/IP
//! over geostationary satellite links"): an initial ssthresh (set from the path's
//! bandwidth-delay product by the scenario, or given), and paced slow start: in slow
//! start, segments leave at least a spacing apart, so the second segment of each
//! ACK-triggered pair waits; the spacing is by default half the estimated time between
//! ACKs.
//! CHOICE: the spacing applies between any two slow-start transmissions, not only within
//! a pair, so ACKs that arrive bunched do not release bursts either; a spacing at or above
//! the inter-ACK time lowers the slow-start sending rate to the ACK rate.
//! CHOICE: the inter-ACK time is an EWMA (gain 1/8, as SRTT) of the gaps between ACKs
//! that advance the ACK point; until two such ACKs have arrived there is no spacing.
//!
//! PSH, as Linux's sender sets it: `tcp_write_xmit` cuts the new data the window allows
//! into sends (skbs) of up to the TSO goal's segments (`tcp_tso_autosize`: about 1 ms of
//! data at the pacing rate, at least two) and of at most half the window
//! (`tcp_cwnd_test`), and `__tcp_transmit_skb` sets PSH on every send of more than one
//! segment ("tcp: force a PSH flag on TSO packets", Linux 4.9), which GSO leaves on its
//! last segment. A one-segment send carries none (so none with a window of three segments
//! or less). A send ends before a segment the receiver holds, which go-back-N skips. The
//! last segment of the data carries PSH too (`tcp_push` at the end of the application's
//! write). Receivers with `ack_on_push` acknowledge such a segment at once (`tcp/sink.rs`).
//! CHOICE: a paced flow's send is its pacing quantum (`tcp/pacing.rs`; one segment for a
//! window-based flow with `pacing = true`, which therefore sets no PSH); an unpaced flow
//! computes the goal from Linux's pacing rate for its window (`window_rate`), which Linux
//! keeps whether or not it paces; with paced slow start, slow-start segments leave singly.
//! CHOICE: the application writes without end (only the data's last segment marks a write's
//! end): Linux's `tcp_push` also marks the end of each write, and `forced_push` every half
//! window written, which a bulk sender's many-segment sends already carry.
//! New data that SACK recovery sends is cut into sends the same way (a retransmission
//! between ends a send).
//! CHOICE: SACK recovery's retransmissions carry no PSH, where Linux retransmits a lost
//! send of several segments as one (`__tcp_retransmit_skb`), with PSH; go-back-N's resends
//! after a timeout are cut as new data. `tcp_tso_should_defer` is not modelled: a send as small as
//! one segment leaves when the window allows it. The kernel captures at 10 Mbit/s show such
//! sends after one-segment ACKs (docs/validation.md, "The receiver's single-segment ACKs").

use super::{Recovery, RecoveryPolicy, TcpSender, Timer};
use crate::tcp::cc::CaState;
use crate::tcp::pacing::{tso_autosize, window_rate};
use crate::{tcp_syn_bytes, Hdr};
use ccsim_core::{Addr, Ctx, Dur, Ecn, Packet, SimTime, VarId};

/// Paced slow-start state.
#[derive(Clone, Debug)]
pub(super) struct Pacer {
    pub(super) spacing: Option<Dur>,
    /// EWMA of the time between ACKs, ns.
    pub(super) inter_ack: Option<u64>,
    pub(super) last_ack_at: Option<SimTime>,
    /// The earliest time the next slow-start segment may go.
    pub(super) next_at: SimTime,
    pub(super) armed: bool,
}

impl Pacer {
    pub(super) fn spacing(&self) -> Option<u64> {
        self.spacing.map(|d| d.0).or(self.inter_ack.map(|g| g / 2))
    }
}

/// Linux's `tcp_cwnd_test`: the segments one send may take, at most half the window (at
/// least one) and what it leaves.
pub(super) fn send_quota(cwnd_segments: u64, in_flight: u64) -> u64 {
    (cwnd_segments - in_flight).min((cwnd_segments / 2).max(1))
}

/// A send (Linux's skb) being cut from consecutive segments: its length and the segments
/// still to go in it.
#[derive(Default)]
pub(super) struct SendCut {
    len: u64,
    left: u64,
}

impl SendCut {
    /// Count one segment, starting a send of `len()` segments (at least one) if none is open;
    /// returns whether the segment ends a send of several (PSH).
    pub(super) fn next(&mut self, len: impl FnOnce() -> u64) -> bool {
        if self.left == 0 {
            self.len = len().max(1);
            self.left = self.len;
        }
        self.left -= 1;
        self.len > 1 && self.left == 0
    }

    /// End the open send (a retransmission comes between).
    pub(super) fn end(&mut self) {
        self.left = 0;
    }
}

impl TcpSender {
    pub(super) fn payload_of(&self, seq: u64) -> u32 {
        if seq + 1 == self.total_segments {
            self.last_payload
        } else {
            u32::try_from(self.mss).expect("mss fits u32")
        }
    }

    pub(super) fn send_segment<C: Ctx<Hdr>>(&mut self, seq: u64, ctx: &mut C) {
        self.send_segment_marked(seq, false, ctx);
    }

    /// Send segment `seq`, with PSH if `ends_send` (the last segment of a send of several);
    /// the last segment of the data always carries it.
    pub(super) fn send_segment_marked<C: Ctx<Hdr>>(
        &mut self,
        seq: u64,
        ends_send: bool,
        ctx: &mut C,
    ) {
        let retx = seq < self.snd_max;
        let psh = ends_send || seq + 1 == self.total_segments;
        let payload = self.payload_of(seq);
        let now = ctx.now();
        if retx {
            self.stats.retransmitted_packets += 1;
            self.timed = None; // Karn: never time across a retransmission.
        } else if self.timed.is_none() {
            self.timed = Some((seq, now));
        }
        let snap = self.rate.on_send(
            now,
            self.snd_una == self.snd_max,
            self.board.marked_lost(),
            self.board.pipe() + 1,
        );
        if let Some(p) = self.pacing.as_mut() {
            p.on_send(now, payload);
        }
        if let Some(rack) = self.rack.as_mut() {
            rack.on_send(seq, now);
        }
        let counted = self.state == CaState::Recovery
            || (self.state == CaState::Loss && self.sends_by_pipe_after_rto());
        if let Some(prr) = self.prr.as_mut().and_then(|p| p.episode.as_mut()) {
            prr.on_send();
        }
        self.board.on_send(seq, snap, retx, counted);
        let cwr = self.send_cwr && !retx;
        self.send_cwr &= !cwr;
        self.last_sent = Some(seq);
        if ctx.tracing(VarId::Seq) {
            ctx.trace(VarId::Seq, seq as f64);
        }
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: payload + self.header_bytes,
            sent_at: SimTime::ZERO,
            ecn: if self.ecn && !retx {
                self.ect
            } else {
                Ecn::NotEct
            },
            header: Hdr::TcpData {
                seq,
                payload,
                retx,
                cwr,
                psh,
            },
        });
        if self.rto_deadline.is_none() {
            self.arm_rto(ctx);
        }
    }

    /// The segment after the last one the application offers.
    pub(super) fn data_limit(&self) -> u64 {
        if self.stopped {
            self.snd_max
        } else {
            self.total_segments
        }
    }

    /// Pacing and paced slow start: whether one more segment may go now; arms the pacing
    /// timer if not.
    pub(super) fn pace_allows<C: Ctx<Hdr>>(&mut self, ctx: &mut C) -> bool {
        if let Some(p) = self.pacing.as_mut() {
            if !p.may_send(ctx.now()) {
                if !p.armed {
                    p.armed = true;
                    ctx.set_timer(Timer::Pacing.slot(), p.next_release());
                }
                return false;
            }
        }
        let slow_start = self.cwnd < self.ssthresh && self.state == CaState::Open;
        let Some(p) = self.pacer.as_mut() else {
            return true;
        };
        let Some(spacing) = p.spacing().filter(|_| slow_start) else {
            return true;
        };
        let now = ctx.now();
        if now >= p.next_at {
            p.next_at = now + Dur(spacing);
            return true;
        }
        if !p.armed {
            p.armed = true;
            ctx.set_timer(Timer::Pacing.slot(), p.next_at);
        }
        false
    }

    /// Send new (or go-back-N) segments while the window allows (RFC 5681 section 3.1): the
    /// data outstanding, FlightSize, against cwnd; under `RecoveryPolicy::Linux` the pipe, as
    /// Linux's `tcp_cwnd_test` counts `tcp_packets_in_flight` in every state, so a SACKed
    /// segment frees window before recovery starts. The receiver window always bounds
    /// FlightSize.
    pub(super) fn send_allowed<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.control.deferred() {
            return;
        }
        let cwnd_segments = self.cwnd / self.mss;
        let by_pipe = self.recovery == Recovery::Sack && self.policy == RecoveryPolicy::Linux;
        let mut cwnd_full = false;
        // Linux's sends (skbs), each cut when it starts.
        let mut cut = SendCut::default();
        loop {
            // Go-back-N skips what the receiver already holds (SACKed after a timeout).
            while self.snd_nxt < self.snd_max && self.board.is_sacked(self.snd_nxt) {
                self.snd_nxt += 1;
            }
            if self.snd_nxt >= self.data_limit() {
                self.check_app_limited();
                break;
            }
            let outstanding = self.snd_nxt - self.snd_una;
            let in_flight = if by_pipe {
                self.board.pipe()
            } else {
                outstanding
            };
            if in_flight >= cwnd_segments || outstanding >= self.max_window {
                cwnd_full = in_flight >= cwnd_segments;
                break;
            }
            if !self.pace_allows(ctx) {
                break;
            }
            let ends_send = cut.next(|| {
                let room = send_quota(cwnd_segments, in_flight)
                    .min(self.max_window - outstanding)
                    .min(self.data_limit() - self.snd_nxt);
                self.send_len(self.send_goal().min(room))
            });
            let seq = self.snd_nxt;
            self.send_segment_marked(seq, ends_send, ctx);
            self.snd_nxt += 1;
            self.snd_max = self.snd_max.max(self.snd_nxt);
        }
        self.note_window_use(cwnd_full);
    }

    /// The segments of a send starting at `snd_nxt` of at most `limit` (at least one): it
    /// ends before a segment the receiver holds, where go-back-N skips (Linux's skb ends
    /// there: a SACKed skb stays in the queue).
    fn send_len(&self, limit: u64) -> u64 {
        let held = |k: &u64| {
            let seq = self.snd_nxt + k;
            seq < self.snd_max && self.board.is_sacked(seq)
        };
        (1..limit).find(held).unwrap_or(limit).max(1)
    }

    /// Segments per send (Linux's skb): the pacing quantum of a paced flow, one in paced
    /// slow start, else the TSO goal at Linux's pacing rate for the window (the largest send
    /// before an RTT is measured, as Linux's unlimited initial rate gives).
    pub(super) fn send_goal(&self) -> u64 {
        if let Some(p) = self.pacing.as_ref() {
            return p.quantum();
        }
        let slow_start = self.cwnd < self.ssthresh && self.state == CaState::Open;
        if self.pacer.is_some() && slow_start {
            return 1;
        }
        let rate = self.rtt.srtt().map_or(u64::MAX, |srtt| {
            let packets_out = (self.snd_max - self.snd_una) * self.mss;
            window_rate(self.cwnd, self.ssthresh, packets_out, srtt)
        });
        tso_autosize(rate, self.mss)
    }

    /// Linux's `tcp_rate_check_app_limited` when the application has nothing more to send:
    /// application-limited if the window has room and no lost segment waits.
    pub(super) fn check_app_limited(&mut self) {
        let in_flight = self.board.pipe();
        if in_flight < self.cwnd / self.mss && matches!(self.state, CaState::Open | CaState::Cwr) {
            self.rate.mark_app_limited(in_flight);
        }
    }

    /// Send what the state allows: by the pipe in SACK recovery, by the window otherwise.
    pub(super) fn transmit<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if (self.state == CaState::Recovery && self.recovery == Recovery::Sack)
            || (self.state == CaState::Loss && self.sends_by_pipe_after_rto())
        {
            self.sack_transmit(ctx);
        } else {
            self.send_allowed(ctx);
        }
    }

    /// Send the SYN (again) with the retransmission timer, backed off per attempt (RFC 6298
    /// sections 5.5 and 5.7 apply to the SYN as to data).
    pub(super) fn send_syn<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        self.syn_sent_at = ctx.now();
        ctx.send(Packet {
            src: Addr::default(),
            dst: self.peer,
            flow: self.flow,
            size: tcp_syn_bytes(self.timestamps),
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct, // RFC 3168 section 6.1.1: a SYN is not ECN-capable
            header: Hdr::TcpSyn {
                ack: false,
                accecn: self.accecn.is_some(),
            },
        });
        self.arm_rto(ctx);
    }

    /// The SYN-ACK: the connection is open; the handshake's round trip is the first RTT
    /// sample unless the SYN was sent again (Karn), and data starts.
    pub(super) fn on_syn_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.established {
            return; // a duplicate SYN-ACK
        }
        self.established = true;
        let now = ctx.now();
        if self.syn_retries == 0 {
            self.rtt
                .sample(now - self.syn_sent_at, self.syn_sent_at, 0, 0);
            // Linux's `tcp_ack_update_rtt` on the SYN-ACK also starts the connection's
            // minimum RTT (`tcp_min_rtt`), which BBR's `bbr_init` takes as its min_rtt.
            self.rate.on_rtt(now - self.syn_sent_at);
        } else {
            // RFC 5681 section 3.1: after a lost SYN or SYN-ACK the initial window is one
            // segment.
            self.cwnd = self.mss;
        }
        ctx.cancel_timer(Timer::Retransmission.slot());
        self.rto_deadline = None;
        self.init_controller(now);
        self.send_allowed(ctx);
    }
}
