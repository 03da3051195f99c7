//! Round-trip time estimation and the retransmission timeout, as four references compute them
//! ([`RtoPolicy`]): Linux, RFC 6298, ns-2.35 and ns-3. They share the RFC 6298 recipe
//! (a smoothed RTT, a mean deviation, RTO = SRTT + 4 deviations, doubled per expiry) but not
//! its arithmetic, and the arithmetic decides the timer at a steady RTT, where the deviation
//! decays (research/modern-tcp.md section 1):
//!
//! * `Linux` (net/ipv4/tcp_input.c `tcp_rtt_estimator`, `tcp_set_rto`; include/net/tcp.h):
//!   microsecond samples; srtt kept x8 and mdev x4; a sample below SRTT moves mdev with gain
//!   1/32 instead of 1/4; `rttvar` follows the largest mdev of the last round trip and decays
//!   toward it once per round trip (when `snd_una` passes `rtt_seq`), never below `rto_min`
//!   (the round trip's maximum restarts at `rto_min`); RTO = SRTT + rttvar, rounded up to
//!   whole jiffies (1 ms, HZ = 1000), at most 120 s; backed off by doubling. So RTO = SRTT +
//!   max(4 mdev over the last round trip, rto_min): 400 ms at a steady 200 ms.
//! * `Rfc6298`: RTO = SRTT + max(G, 4 RTTVAR) in nanoseconds, clamped to [min, max] (2.4,
//!   2.5), doubled per expiry (5.5). With G = 1 ns and min 200 ms this was ccsim's only timer.
//! * `Ns2` (ns-2.35 tcp/tcp.cc `rtt_update`, `rtt_timeout`, `rtt_backoff`; ns-default.tcl):
//!   samples in whole ticks, counted as the tick boundaries crossed between the send and the
//!   ACK (no timestamps), at least 1; srtt x8 and rttvar x4 in integer ticks, neither below 1;
//!   rtxcur = floor(srtt + 4 rttvar) ticks; the timeout is minrto x backoff when rtxcur is
//!   below minrto, else rtxcur x backoff, at most maxrto, at least 2 ticks; backoff doubles
//!   (below 64, or while the timeout is under maxrto) and past 8 folds srtt into rttvar and
//!   forgets it. rttvar never decays below 3 (0.75 tick, as 3 >> 2 = 0), so a steady RTT
//!   keeps RTO = SRTT + 3 ticks: 230 ms at 200 ms with 10 ms ticks.
//! * `Ns3` (src/internet/model/rtt-estimator.cc `RttMeanDeviation::IntegerUpdate`,
//!   tcp-socket-base.cc): nanosecond integers with no fractional bits kept between samples
//!   (est = (8 est + m - est) >> 3, var = (4 var + |m - est| - var) >> 2), so var decays to 0;
//!   samples from millisecond timestamps (a zero difference counts as 1 us); RTO = max(est +
//!   max(G, 4 var), MinRto), doubled per expiry up to 60 s.
//!
//! CHOICE: every policy takes one timed segment per round trip (Karn's rule), as ns-2 without
//! timestamps does; Linux and ns-3 with timestamps sample every ACK. The policy decides the
//! arithmetic, not the sampling.
//! CHOICE: ns-2's clock phase (`boot_time_`, uniform in one tick per agent) is 0: every
//! sender's tick boundaries fall on whole multiples of the tick.
//! CHOICE: back-off doubles at most 16 times for Linux, RFC 6298 and ns-3 (their maxima cap
//! the timer long before); ns-2 keeps its own rule.

use ccsim_core::{Dur, SimTime};

/// Which reference computes the retransmission timeout (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtoPolicy {
    /// Linux's `tcp_rtt_estimator` and `tcp_set_rto`.
    Linux,
    /// RFC 6298 with clock granularity `granularity`.
    Rfc6298 {
        /// G of RFC 6298 section 2.
        granularity: Dur,
    },
    /// ns-2.35's `TcpAgent` with `tick` (`tcpTick_`).
    Ns2 {
        /// The clock tick samples and timeouts are counted in.
        tick: Dur,
    },
    /// ns-3's `RttMeanDeviation` and `TcpSocketBase`, clock granularity `granularity`.
    Ns3 {
        /// `ClockGranularity`.
        granularity: Dur,
    },
}

impl RtoPolicy {
    /// The policy's name as scenario files write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RtoPolicy::Linux => "linux",
            RtoPolicy::Rfc6298 { .. } => "rfc6298",
            RtoPolicy::Ns2 { .. } => "ns2",
            RtoPolicy::Ns3 { .. } => "ns3",
        }
    }

    /// The reference's defaults: (initial RTO, minimum RTO, maximum RTO). Linux: 1 s
    /// (`TCP_TIMEOUT_INIT`), 200 ms (`TCP_RTO_MIN`), 120 s (`TCP_RTO_MAX`); RFC 6298: 1 s,
    /// 1 s, 60 s (sections 2.1, 2.4, 2.5); ns-2.35: 3 s (`rtxcur_init_`), 200 ms (`minrto_`),
    /// 60 s (`maxrto_`); ns-3: 1 s (`InitialEstimation`), 1 s (`MinRto`), 60 s.
    #[must_use]
    pub fn defaults(self) -> (Dur, Dur, Dur) {
        match self {
            RtoPolicy::Linux => (
                Dur::from_secs(1),
                Dur::from_millis(200),
                Dur::from_secs(120),
            ),
            RtoPolicy::Rfc6298 { .. } => (Dur::from_secs(1), Dur::from_secs(1), Dur::from_secs(60)),
            RtoPolicy::Ns2 { .. } => (Dur::from_secs(3), Dur::from_millis(200), Dur::from_secs(60)),
            RtoPolicy::Ns3 { .. } => (Dur::from_secs(1), Dur::from_secs(1), Dur::from_secs(60)),
        }
    }
}

/// The estimator's state, per policy.
#[derive(Clone, Debug)]
enum State {
    /// Nanoseconds: SRTT, RTTVAR, the RTO before back-off.
    Rfc6298 {
        srtt: Option<u64>,
        rttvar: u64,
        rto: u64,
        granularity: u64,
    },
    /// Microseconds: srtt x8, mdev x4, mdev_max, rttvar; `rtt_seq`; the RTO in whole ms.
    Linux {
        srtt8: u64,
        mdev4: u64,
        mdev_max: u64,
        rttvar: u64,
        rtt_seq: u64,
        rto_ms: u64,
    },
    /// Ticks: srtt x8, rttvar x4, rtxcur; the back-off multiplier.
    Ns2 {
        tick: u64,
        srtt8: i64,
        rttvar4: i64,
        rtxcur: u64,
        backoff: u64,
    },
    /// Nanoseconds: est, var, and the stored RTO (doubled in place per expiry).
    Ns3 {
        est: Option<i64>,
        var: i64,
        rto: u64,
        granularity: u64,
    },
}

/// A sender's RTT estimator and retransmission timeout. All times in nanoseconds inside.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    state: State,
    srtt: Option<Dur>,
    backoff: u32,
    min_rto: u64,
    max_rto: u64,
}

const US: u64 = 1_000;
const MS: u64 = 1_000_000;

impl RttEstimator {
    /// A fresh estimator of `policy`: RTO = `initial` until the first sample. A maximum below
    /// the minimum is raised to the minimum.
    #[must_use]
    pub fn new(policy: RtoPolicy, initial: Dur, min_rto: Dur, max_rto: Dur) -> Self {
        let state = match policy {
            RtoPolicy::Rfc6298 { granularity } => State::Rfc6298 {
                srtt: None,
                rttvar: 0,
                rto: initial.0,
                granularity: granularity.0,
            },
            RtoPolicy::Linux => State::Linux {
                srtt8: 0,
                mdev4: 0,
                mdev_max: 0,
                rttvar: 0,
                rtt_seq: 0,
                rto_ms: initial.0.div_ceil(MS),
            },
            RtoPolicy::Ns2 { tick } => State::Ns2 {
                tick: tick.0.max(1),
                srtt8: 0,
                rttvar4: 0,
                rtxcur: initial.0,
                backoff: 1,
            },
            RtoPolicy::Ns3 { granularity } => State::Ns3 {
                est: None,
                var: 0,
                rto: initial.0,
                granularity: granularity.0,
            },
        };
        RttEstimator {
            state,
            srtt: None,
            backoff: 0,
            min_rto: min_rto.0,
            max_rto: max_rto.0.max(min_rto.0),
        }
    }

    /// Feed one RTT measurement of the segment sent at `sent_at`, taken by the ACK that
    /// moves `snd_una` up to `snd_una` while `snd_nxt` is the next new segment; clears the
    /// back-off (RFC 6298 5.7; ns-2 `newack`; Linux `tcp_ack_update_rtt`).
    pub fn sample(&mut self, rtt: Dur, sent_at: SimTime, snd_una: u64, snd_nxt: u64) {
        let min_rto = self.min_rto;
        match &mut self.state {
            State::Rfc6298 {
                srtt,
                rttvar,
                rto,
                granularity,
            } => {
                let r = rtt.0;
                match *srtt {
                    None => {
                        *srtt = Some(r);
                        *rttvar = r / 2;
                    }
                    Some(s) => {
                        // RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|; SRTT <- 7/8 SRTT + 1/8 R'.
                        *rttvar = (3 * *rttvar + s.abs_diff(r)) / 4;
                        *srtt = Some((7 * s + r) / 8);
                    }
                }
                let s = srtt.expect("set above");
                *rto = s + (4 * *rttvar).max(*granularity);
                self.srtt = Some(Dur(s));
            }
            State::Linux {
                srtt8,
                mdev4,
                mdev_max,
                rttvar,
                rtt_seq,
                rto_ms,
            } => {
                let rto_min = min_rto / US;
                let m = (rtt.0 / US) as i64;
                if *srtt8 != 0 {
                    let mut m = m - (*srtt8 >> 3) as i64; // error in the estimate
                    let srtt = (*srtt8 as i64 + m).max(1);
                    if m < 0 {
                        m = -m - (*mdev4 >> 2) as i64;
                        if m > 0 {
                            m >>= 3; // a sample below SRTT moves mdev by 1/32
                        }
                    } else {
                        m -= (*mdev4 >> 2) as i64;
                    }
                    *mdev4 = (*mdev4 as i64 + m).max(0) as u64;
                    if *mdev4 > *mdev_max {
                        *mdev_max = *mdev4;
                        if *mdev_max > *rttvar {
                            *rttvar = *mdev_max;
                        }
                    }
                    if snd_una > *rtt_seq {
                        // Once per round trip: decay toward the round trip's largest mdev.
                        if *mdev_max < *rttvar {
                            *rttvar -= (*rttvar - *mdev_max) >> 2;
                        }
                        *rtt_seq = snd_nxt;
                        *mdev_max = rto_min;
                    }
                    *srtt8 = srtt as u64;
                } else {
                    let m = m.max(0) as u64;
                    *srtt8 = (m << 3).max(1);
                    *mdev4 = m << 1;
                    *rttvar = (*mdev4).max(rto_min);
                    *mdev_max = *rttvar;
                    *rtt_seq = snd_nxt;
                }
                // usecs_to_jiffies rounds up; tcp_bound_rto caps at the maximum.
                *rto_ms = ((*srtt8 >> 3) + *rttvar).div_ceil(MS / US);
                self.srtt = Some(Dur((*srtt8 >> 3) * US));
            }
            State::Ns2 {
                tick,
                srtt8,
                rttvar4,
                rtxcur,
                backoff,
            } => {
                let now = sent_at.0 + rtt.0;
                let m = ((now / *tick) as i64 - (sent_at.0 / *tick) as i64).max(1);
                if *srtt8 != 0 {
                    let mut delta = m - (*srtt8 >> 3);
                    *srtt8 += delta;
                    if *srtt8 <= 0 {
                        *srtt8 = 1;
                    }
                    delta = delta.abs() - (*rttvar4 >> 2);
                    *rttvar4 += delta;
                    if *rttvar4 <= 0 {
                        *rttvar4 = 1;
                    }
                } else {
                    *srtt8 = m << 3;
                    *rttvar4 = m << 1;
                }
                *rtxcur = (((*rttvar4 << 3) + *srtt8) >> 3) as u64 * *tick;
                *backoff = 1;
                self.srtt = Some(Dur((*srtt8 >> 3) as u64 * *tick));
            }
            State::Ns3 {
                est,
                var,
                rto,
                granularity,
            } => {
                // Timestamps in whole milliseconds; a zero difference counts as 1 us.
                let now = sent_at.0 + rtt.0;
                let ms = (now / MS - sent_at.0 / MS) * MS;
                let m = if ms == 0 { US } else { ms } as i64;
                match *est {
                    None => {
                        *est = Some(m);
                        *var = m / 2;
                    }
                    Some(e) => {
                        let err = m - e;
                        *est = Some(((e << 3) + err) >> 3);
                        *var = ((*var << 2) + err.abs() - *var) >> 2;
                    }
                }
                let e = est.expect("set above").max(0) as u64;
                let v = (*var).max(0) as u64;
                *rto = (e + (4 * v).max(*granularity)).max(min_rto);
                self.srtt = Some(Dur(e));
            }
        }
        self.backoff = 0;
    }

    /// An expiry: the timer backs off (RFC 6298 5.5; ns-2 `rtt_backoff`).
    pub fn back_off(&mut self) {
        let timeout = self.rto().0;
        let max_rto = self.max_rto;
        if let State::Ns2 {
            srtt8,
            rttvar4,
            backoff,
            ..
        } = &mut self.state
        {
            if *backoff < 64 || timeout < max_rto {
                *backoff = backoff.saturating_mul(2);
            }
            if *backoff > 8 {
                *rttvar4 += *srtt8 >> 3;
                *srtt8 = 0;
            }
            return;
        }
        self.backoff = (self.backoff + 1).min(16);
    }

    /// The current timeout, with back-off.
    #[must_use]
    pub fn rto(&self) -> Dur {
        let (min, max) = (self.min_rto, self.max_rto);
        let doubled = |base: u64| base.saturating_mul(1 << self.backoff).min(max);
        Dur(match &self.state {
            // RFC 6298 2.4, 2.5: clamped to [min, max] before and after the back-off.
            State::Rfc6298 { rto, .. } => doubled((*rto).clamp(min, max)),
            // tcp_bound_rto caps; rto_min is already inside rttvar.
            State::Linux { rto_ms, .. } => doubled(rto_ms.saturating_mul(MS).min(max)),
            State::Ns2 {
                tick,
                rtxcur,
                backoff,
                ..
            } => {
                let base = if *rtxcur < min { min } else { *rtxcur };
                base.saturating_mul(*backoff).min(max).max(2 * *tick)
            }
            State::Ns3 { rto, .. } => doubled((*rto).min(max)),
        })
    }

    /// The smoothed RTT, if a sample has been taken (in the policy's own resolution: whole
    /// ticks for ns-2, microseconds for Linux).
    #[must_use]
    pub fn srtt(&self) -> Option<Dur> {
        self.srtt
    }
}

#[cfg(test)]
mod tests;
