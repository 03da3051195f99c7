//! Loss recovery, one flavour per branch:
//!
//! * Tahoe (Jacobson 1988; RFC 5681 section 3.2 steps 1-2 without fast recovery): on the
//!   DupThresh-th duplicate ACK, ssthresh from the algorithm, cwnd = 1 segment, go back N.
//! * Reno (RFC 5681 section 3.2): fast retransmit, cwnd = ssthresh + 3 segments, one more
//!   per further duplicate, and on the first ACK of new data (partial or not) cwnd =
//!   ssthresh and recovery ends.
//! * NewReno (RFC 6582 section 3.2): as Reno, but a partial ACK retransmits the next hole
//!   and stays in recovery until the ACK point passes `recover`.
//! * SACK (RFC 6675 section 5): recovery starts on the DupThresh-th duplicate ACK or when
//!   IsLost(HighACK + 1); RecoveryPoint = HighData, cwnd = ssthresh; then on every ACK the
//!   sender sends, while cwnd - pipe >= 1 segment, the segment NextSeg() names (rules 1-3,
//!   and with `rescue_retransmission` rule 4: once per recovery, the highest unSACKed
//!   segment when nothing else may go). With `prr`, cwnd follows RFC 9937's Proportional
//!   Rate Reduction on every ACK of the recovery (`tcp/prr.rs`) instead of staying at
//!   ssthresh.
//!
//! With `RecoveryPolicy::Ns2` (`recovery = "ns2"`), Tahoe, Reno and NewReno follow ns-2.35's
//! `dupack_action` with `bug_fix_ true` (tcp.cc, tcp-reno.cc, tcp-newreno.cc): a fast
//! retransmit needs `highest_ack_ > recover_`, the last segment received beyond the highest
//! sent at the last fast retransmit or timeout (one segment more than RFC 6582's ACK beyond
//! `recover`), and Reno sets `recover_` at its fast retransmit too, so a second loss in the
//! window of the first waits for the timer; the fast retransmit restarts the timer
//! (`reset_rtx_timer`), where RFC 6298 restarts it only on new ACKs. Without it, Tahoe's go-back-N after a fast
//! retransmit resends a window the receiver holds, whose duplicate ACKs can start the next
//! one. CHOICE: ns-2's exception for a lost first segment (`bugfix_ss_`, `highest_ack_ ==
//! 0`) is left out: it differs only at a flow's first segment.
//!
//! The SACK flavour has two policies ([`RecoveryPolicy`]). `Rfc6675` is the RFCs to the
//! letter: ssthresh = FlightSize / 2 on entering recovery (RFC 6675 step 4.2, RFC 5681
//! eq. 4), and after a timeout go-back-N within cwnd counted from the ACK point (RFC 6675
//! section 5.1 ends the SACK recovery; RFC 5681 section 3.1), skipping what the scoreboard
//! records as SACKed. `Ns3` does what ns-3 3.44 does (and Linux, for the timeout):
//! * entering recovery, ssthresh = max(pipe / 2, 2 MSS), pipe as SetPipe counts it after the
//!   ACK's SACK blocks are recorded (tcp-socket-base.cc `EnterRecovery`:
//!   `GetSsThresh(m_tcb, BytesInFlight())`). FlightSize counts every SACKed segment above a
//!   hole: a flow that leaves one recovery and enters the next while data above an
//!   unrepaired hole is SACKed would otherwise set ssthresh from that backlog, not from what
//!   is in the network;
//! * a timeout marks every unSACKed outstanding segment lost and forgets the recovery's
//!   retransmissions (tcp-tx-buffer.cc `SetSentListLost`; Linux `tcp_timeout_mark_lost`);
//!   the sender then sends NextSeg() while cwnd - pipe >= 1 segment, as in recovery
//!   (ns-3 `SendPendingData` with `AvailableWindow` = cwnd - `BytesInFlight`; Linux
//!   `tcp_xmit_retransmit_queue` under `tcp_packets_in_flight`): cwnd counts
//!   retransmissions in flight, not sequence numbers from the ACK point, so the holes under
//!   a long SACKed backlog are repaired at cwnd per round trip instead of a few per round
//!   trip.
//!
//! CHOICE: `Ns3` retransmits after a timeout every lost segment, also those above the
//! highest SACKed one (Linux); ns-3's NextSeg rule 1 keeps to those below it.
//! CHOICE: `Ns3` keeps the rest of RFC 6675 as ccsim has it: the pipe rule rather than ns-3's
//! default PRR (ns-3's `TcpClassicRecovery` gives the same backlog on the 100-flow
//! dumbbell of docs/validation.md), no extra retransmission on a partial ACK, the timer
//! restarted by every partial ACK (measured: ns-3's restart on the first one only, its
//! retransmission on each partial ACK, and keeping the retransmitted flags into the next
//! recovery change the dumbbell's goodput by less than 1 %).
//!
//! CHOICE: after a timeout no variant starts a fast retransmit before the ACK point
//! passes the data outstanding at the timeout (RFC 6582 section 4, RFC 6675 section 5.1,
//! and ns-2's `bug_fix_` for Tahoe and Reno); Tahoe also sets this point at its fast
//! retransmit, since its go-back-N resends data the receiver may hold.

use ccsim_core::Ctx;

use super::transmit::{send_quota, SendCut};
use super::{CaState, CongestionControl, Recovery, TcpSender, Window};
use crate::tcp::prr::{Prr, PrrAck};
use crate::Hdr;

/// How a SACK sender recovers (see the module docs); other variants ignore it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecoveryPolicy {
    /// ns-3 3.44's `TcpSocketBase` and `TcpTxBuffer`: ssthresh from the pipe on entering
    /// recovery; after a timeout, every unSACKed segment lost and sending by the pipe.
    #[default]
    Ns3,
    /// RFC 6675 and RFC 5681 to the letter: ssthresh from FlightSize; go-back-N after a
    /// timeout.
    Rfc6675,
    /// Linux 6.x: ssthresh from the congestion window, on entering recovery
    /// (`tcp_init_cwnd_reduction`) and at a timeout (`tcp_enter_loss`); after a timeout as
    /// `Ns3` (`tcp_timeout_mark_lost`).
    Linux,
    /// Tahoe, Reno and NewReno only: ns-2.35's agents' rules (module docs), as
    /// `recovery = "ns2"` names them.
    Ns2,
}

/// RFC 9937 Proportional Rate Reduction, for a sender that runs it: the current recovery's
/// state, if one is under way.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RateReduction {
    /// The recovery episode's counters (`None` outside fast recovery, and for a model-based
    /// algorithm, whose window is its own).
    pub(super) episode: Option<Prr>,
}

/// RFC 6675 NextSeg rule 4, for a sender that sends the rescue retransmission.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Rescue {
    /// `RescueRxt`: the RecoveryPoint of the recovery that last sent a rescue.
    pub(super) rescue_rxt: Option<u64>,
}

impl TcpSender {
    pub(super) fn on_dup_ack<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.recovery == Recovery::VegasNs2 {
            self.vegas_ns2_dup_ack(ctx);
            return;
        }
        self.dupacks += 1;
        if self.state == CaState::Loss && self.sends_by_pipe_after_rto() {
            self.sack_transmit(ctx);
            return;
        }
        if self.state == CaState::Recovery {
            if self.recovery == Recovery::Sack {
                self.prr_window(false);
                self.sack_transmit(ctx);
            } else {
                // RFC 5681 section 3.2 step 4, RFC 6582 section 3.2 step 4: inflate.
                self.cwnd += self.mss;
                self.send_allowed(ctx);
            }
            return;
        }
        let threshold = self.dupack_threshold;
        let triggered = if self.rack.is_some() {
            self.board.flagged_lost() > 0 // RFC 8985: RACK alone marks losses
        } else if self.recovery == Recovery::Sack {
            self.dupacks >= threshold || self.board.lost_below() > self.snd_una
        } else {
            self.dupacks == threshold
        };
        if !triggered {
            if self.limited_transmit && self.state == CaState::Open && self.dupacks <= 2 {
                self.limited_transmit(ctx);
            }
            if self.recovery == Recovery::Sack && self.policy == RecoveryPolicy::Linux {
                self.send_allowed(ctx); // what the SACKed segments freed (sender.rs)
            }
            return;
        }
        self.enter_fast_recovery(ctx);
    }

    /// A loss detected (DupThresh, IsLost or RACK): fast retransmit and recovery, by
    /// flavour.
    pub(super) fn enter_fast_recovery<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        // RFC 6582 section 3.2 step 1: enter recovery only if this ACK covers more than
        // `recover`, so duplicates of data sent before a timeout do not trigger it.
        // ns-2.35 (`dupack_action`, `highest_ack_ > recover_`): its ACK names the last
        // segment received, not the next expected, so it waits one segment longer.
        let covered = if self.ns2_rules() {
            self.recover.map(|r| r + 1)
        } else {
            self.recover
        };
        if covered.is_some_and(|r| self.snd_una <= r) {
            return;
        }
        // RFC 3168 section 6.1.2: no second reduction within the window already reduced.
        let reduced_this_window = self.state == CaState::Cwr && self.snd_una <= self.ecn_recover;
        if !reduced_this_window {
            self.ssthresh = self.recovery_ssthresh();
        }
        match self.recovery {
            Recovery::VegasNs2 => unreachable!("ns-2 Vegas has its own duplicate-ACK handling"),
            Recovery::Tahoe => {
                self.recover = Some(self.snd_max - 1);
                self.cwnd = self.mss;
                self.timed = None;
                self.snd_nxt = self.snd_una;
                self.set_state(CaState::Loss);
                self.send_allowed(ctx);
                if self.ns2_rules() {
                    self.arm_rto(ctx); // ns-2.35 tahoe_action: reset_rtx_timer(0, 0)
                }
            }
            Recovery::Reno | Recovery::NewReno => {
                // ns-2.35's Reno (`bug_fix_`) also remembers `recover_` at its fast
                // retransmit: no second one for losses in the same window.
                if self.recovery == Recovery::NewReno || self.ns2_rules() {
                    self.recover = Some(self.snd_max - 1);
                    self.partial_acks = 0;
                }
                self.set_state(CaState::Recovery);
                self.send_segment(self.snd_una, ctx);
                if self.ns2_rules() {
                    self.arm_rto(ctx); // ns-2.35 reno_action: reset_rtx_timer(1, 0)
                }
                self.cwnd = self.ssthresh + 3 * self.mss;
                self.send_allowed(ctx);
            }
            Recovery::Sack => {
                self.recover = Some(self.snd_max - 1); // RecoveryPoint = HighData
                self.reduce_window(self.ssthresh); // RFC 6675 section 5 step 4.2
                self.board.start_recovery();
                self.set_state(CaState::Recovery);
                if self.recovery_sets_window() {
                    let outstanding = self.snd_max - self.snd_una;
                    if let Some(prr) = self.prr.as_mut() {
                        prr.episode = Some(Prr::start(outstanding));
                        self.prr_window(false);
                    }
                }
                // Step 4.3: retransmit the first segment presumed dropped, then step 4.4.
                let first = if self.rack.is_some() {
                    self.board
                        .next_hole(self.snd_una, true)
                        .unwrap_or(self.snd_una)
                } else {
                    self.snd_una
                };
                self.rxt_next = first + 1;
                if self.control.deferred() {
                    // Sent once the model-based algorithm has set the window for this ACK.
                    self.first_retransmission = Some(first);
                } else {
                    self.send_segment(first, ctx);
                }
                self.sack_transmit(ctx);
            }
        }
    }

    /// An ACK of new data during fast recovery; returns whether to restart the timer.
    pub(super) fn recovery_new_ack<C: Ctx<Hdr>>(&mut self, ack: u64, ctx: &mut C) -> bool {
        let acked_segments = ack - self.snd_una;
        self.snd_una = ack;
        match self.recovery {
            Recovery::Reno => {
                // RFC 5681 section 3.2 step 6: deflate and leave recovery.
                self.cwnd = self.ssthresh;
                if self.ns2_rules() {
                    // ns-2.35's Reno `recv`: `dupwnd_ = 0`, then `opencwnd()` for this ACK.
                    self.cwnd += (self.mss * self.mss / self.cwnd).max(1);
                }
                self.dupacks = 0;
                self.set_state(CaState::Open);
                true
            }
            Recovery::NewReno if self.recover.is_some_and(|r| ack > r) => {
                if self.ns2_rules() {
                    // ns-2.35 (tcp-newreno.cc `recv`, `exit_recovery_fix_ 0`): `dupwnd_ = 0`
                    // leaves cwnd_ as the fast retransmit set it less what partial ACKs
                    // deflated past the inflation, min(cwnd, ssthresh) here; then
                    // `opencwnd()` for this ACK (tcp.cc, `wnd_option_ 1`).
                    self.cwnd = self.cwnd.min(self.ssthresh);
                    self.cwnd += if self.cwnd < self.ssthresh {
                        self.mss
                    } else {
                        (self.mss * self.mss / self.cwnd).max(1)
                    };
                } else {
                    // Full ACK (RFC 6582 3.2 step 3, option 1).
                    let flight = self.flight_size();
                    self.cwnd = self.ssthresh.min(flight.max(self.mss) + self.mss);
                }
                self.dupacks = 0;
                self.set_state(CaState::Open);
                true
            }
            Recovery::NewReno => {
                // Partial ACK (RFC 6582 3.2 step 5): retransmit the first unacknowledged
                // segment, deflate by the amount acknowledged, add back one MSS.
                self.snd_nxt = self.snd_nxt.max(ack);
                self.send_segment(ack, ctx);
                let acked = acked_segments * self.mss;
                self.cwnd = self.cwnd.saturating_sub(acked).max(self.mss);
                if acked >= self.mss {
                    self.cwnd += self.mss;
                }
                self.partial_acks += 1;
                self.partial_acks == 1
            }
            Recovery::Sack => {
                // RFC 6675 section 5 (A): a cumulative ACK beyond RecoveryPoint ends it.
                if self.recover.is_some_and(|r| ack > r) {
                    self.dupacks = 0;
                    if self.prr.is_some_and(|p| p.episode.is_some()) {
                        self.cwnd = self.ssthresh; // RFC 9937 section 6
                    }
                    self.set_state(CaState::Open);
                } else {
                    // SafeACK: the ACK point advanced and nothing more was marked lost.
                    self.prr_window(!self.ack_marked_lost);
                }
                true
            }
            Recovery::Tahoe => unreachable!("Tahoe has no fast recovery"),
            Recovery::VegasNs2 => unreachable!("ns-2 Vegas deflates before the ACK point moves"),
        }
    }

    /// RFC 9937: on an ACK in SACK recovery, cwnd = pipe + sndcnt.
    fn prr_window(&mut self, safe: bool) {
        if let Some(prr) = self.prr.as_mut().and_then(|p| p.episode.as_mut()) {
            let pipe = self.board.pipe();
            let sndcnt = prr.on_ack(&PrrAck {
                delivered: self.ack_delivered,
                pipe,
                ssthresh: self.ssthresh,
                mss: self.mss,
                safe,
            });
            self.cwnd = (pipe + sndcnt) * self.mss;
        }
    }

    /// RFC 6675 NextSeg rule 4: the highest unSACKed segment, once per recovery (while
    /// HighACK > RescueRxt or RescueRxt is undefined), when rules 1-3 offer nothing.
    fn rescue_segment(&mut self) -> Option<u64> {
        let rescue = self.rescue?;
        if self.state != CaState::Recovery || rescue.rescue_rxt.is_some_and(|r| self.snd_una <= r) {
            return None;
        }
        let seq = self.board.highest_unsacked()?;
        // RescueRxt = RecoveryPoint; HighRxt unchanged.
        self.rescue = Some(Rescue {
            rescue_rxt: self.recover,
        });
        Some(seq)
    }

    /// ssthresh on entering fast recovery, by policy: from the pipe (`Ns3`), the
    /// congestion window (`Linux`) or FlightSize (RFC 5681 eq. 4, every other case).
    pub(super) fn recovery_ssthresh(&mut self) -> u64 {
        if self.ns2_rules() {
            return self.ns2_ssthresh();
        }
        match (self.recovery, self.policy) {
            (Recovery::Sack, RecoveryPolicy::Ns3) => self.pipe_ssthresh(),
            (Recovery::Sack, RecoveryPolicy::Linux) => self.cwnd_ssthresh(),
            _ => self.loss_ssthresh(),
        }
    }

    /// Whether this sender follows ns-2.35's rules (`RecoveryPolicy::Ns2`).
    pub(super) fn ns2_rules(&self) -> bool {
        self.policy == RecoveryPolicy::Ns2
    }

    /// ns-2.35's `slowdown(CLOSE_SSTHRESH_HALF)` (tcp.cc, `precision_reduce_ true`):
    /// `ssthresh_ = (int) (windowd() / 2)`, at least 2, from the window (the inflated one in
    /// Reno's recovery, `cwnd_ + dupwnd_`; at most `window_`), not from FlightSize.
    pub(super) fn ns2_ssthresh(&self) -> u64 {
        self.ns2_half(self.cwnd)
    }

    /// `(int) (min(cwnd, window_) / 2)` segments, at least 2, in bytes.
    pub(super) fn ns2_half(&self, cwnd: u64) -> u64 {
        let window = (cwnd / self.mss).min(self.max_window);
        (window / 2).max(2) * self.mss
    }

    /// The algorithm's ssthresh with the congestion window as the data in the network
    /// (Linux's `ssthresh` hooks read `tcp_snd_cwnd`).
    pub(super) fn cwnd_ssthresh(&mut self) -> u64 {
        let w = Window {
            flight: self.cwnd,
            ..self.window()
        };
        self.control.cc_mut().loss_ssthresh(&w)
    }

    /// The algorithm's ssthresh with RFC 6675's pipe as the data in the network.
    pub(super) fn pipe_ssthresh(&mut self) -> u64 {
        let w = Window {
            flight: self.board.pipe() * self.mss,
            ..self.window()
        };
        self.control.cc_mut().loss_ssthresh(&w)
    }

    /// Whether the sender keeps sending by the pipe after a timeout (`RecoveryPolicy::Ns3`).
    pub(super) fn sends_by_pipe_after_rto(&self) -> bool {
        self.recovery == Recovery::Sack && self.policy != RecoveryPolicy::Rfc6675
    }

    /// RFC 6675 section 5 step (C): send NextSeg() while cwnd - pipe >= 1 segment.
    pub(super) fn sack_transmit<C: Ctx<Hdr>>(&mut self, ctx: &mut C) {
        if self.control.deferred() {
            return;
        }
        if let Some(first) = self.first_retransmission {
            if first < self.snd_una || self.board.is_sacked(first) {
                // Acknowledged while it waited for its release time.
                self.first_retransmission = None;
            } else {
                if !self.pace_allows(ctx) {
                    return;
                }
                self.first_retransmission = None;
                self.send_segment(first, ctx);
            }
        }
        let mut pipe = self.board.pipe();
        // New data leaves in sends as outside recovery (`transmit.rs`, PSH); a retransmission
        // ends the send before it.
        let mut cut = SendCut::default();
        while self.cwnd >= (pipe + 1) * self.mss {
            if !self.pace_allows(ctx) {
                break;
            }
            let hole = self.board.next_hole(self.rxt_next, true);
            let new_data =
                self.snd_nxt < self.data_limit() && self.snd_nxt - self.snd_una < self.max_window;
            if let Some(seq) = hole {
                self.rxt_next = seq + 1; // rule 1: HighRxt = seq
                self.send_segment(seq, ctx);
                cut.end();
            } else if new_data {
                let seq = self.snd_nxt; // rule 2
                let ends_send = cut.next(|| {
                    self.send_goal()
                        .min(send_quota(self.cwnd / self.mss, pipe))
                        .min(self.max_window - (seq - self.snd_una))
                        .min(self.data_limit() - seq)
                });
                self.send_segment_marked(seq, ends_send, ctx);
                self.snd_nxt += 1;
                self.snd_max = self.snd_max.max(self.snd_nxt);
            } else if let Some(seq) = self.board.next_hole(self.rxt_next, false) {
                self.rxt_next = seq + 1; // rule 3
                self.send_segment(seq, ctx);
                cut.end();
            } else if let Some(seq) = self.rescue_segment() {
                self.send_segment(seq, ctx); // rule 4
                cut.end();
            } else {
                break;
            }
            pipe += 1; // step (C.4)
        }
        self.note_window_use(self.cwnd < (pipe + 1) * self.mss);
    }
}
