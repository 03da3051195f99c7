//! Landmark binning (Ratnasamy et al., as TICP's Section III.1 uses it): a node measures its
//! RTT to each landmark with real probe packets, maps each RTT onto a level, and its bin is
//! the vector of levels.
//!
//! CHOICE: level j of an RTT is the number of thresholds at or below it (thresholds sorted
//! ascending), so with thresholds [100 ms, 200 ms] the levels are 0, 1, 2 as in the binning
//! paper's example; a landmark that never answered gets the top level. The RTT to a landmark
//! is the minimum over the probes sent to it, which removes most queueing delay.
//! CHOICE: the distance between two bins is the Euclidean distance of their level vectors.
//! CHOICE: timeline from the start time t0 of a binning phase of length P: probe round j
//! (one probe to every landmark) at t0 + j P/10 for j < probes; the bin is formed at
//! t0 + P/2 (so RTTs up to P/2 - (probes - 1) P/10 are seen); the collector ranks the bins
//! registered by t0 + P and starts probing sources then.

use ccsim_core::{Addr, Ctx, Dur, Ecn, FlowId, Packet, SimTime, TimerSlot};

use crate::Hdr;

/// Parameters of landmark binning.
#[derive(Clone, Debug)]
pub struct BinningConfig {
    /// The landmark agents (echo responders).
    pub landmarks: Vec<Addr>,
    /// RTT level thresholds, ascending.
    pub thresholds: Vec<Dur>,
    /// Probes per landmark.
    pub probes: u32,
    /// Length of the binning phase before the session proper.
    pub phase: Dur,
    /// Multicast group key of bin index 0; bin b's group is `group_base + b`.
    pub group_base: u32,
}

impl BinningConfig {
    /// Spacing of probe rounds.
    #[must_use]
    pub fn probe_gap(&self) -> Dur {
        Dur(self.phase.0 / 10)
    }
    /// Number of levels per landmark.
    #[must_use]
    pub fn levels(&self) -> u32 {
        u32::try_from(self.thresholds.len()).unwrap_or(u32::MAX - 1) + 1
    }
}

/// The level vector of measured RTTs (`None`: no answer).
#[must_use]
pub fn bin_levels(rtts: &[Option<Dur>], thresholds: &[Dur]) -> Vec<u32> {
    let top = u32::try_from(thresholds.len()).unwrap_or(u32::MAX);
    rtts.iter()
        .map(|r| match r {
            Some(r) => {
                u32::try_from(thresholds.iter().filter(|t| **t <= *r).count()).unwrap_or(top)
            }
            None => top,
        })
        .collect()
}

/// A bin's index: its levels read as a number in base `levels`, first landmark least
/// significant.
#[must_use]
pub fn bin_index(levels: &[u32], base: u32) -> u32 {
    levels.iter().rev().fold(0, |acc, &l| acc * base + l)
}

/// The level vector of bin index `index` over `landmarks` landmarks.
#[must_use]
pub fn index_levels(mut index: u32, base: u32, landmarks: usize) -> Vec<u32> {
    (0..landmarks)
        .map(|_| {
            let l = index % base;
            index /= base;
            l
        })
        .collect()
}

/// Euclidean distance between two level vectors.
#[must_use]
pub fn bin_distance(a: &[u32], b: &[u32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| (f64::from(x) - f64::from(y)).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The probing half of binning, shared by the collector and the source hosts.
#[derive(Clone, Debug)]
pub(crate) struct LandmarkProber {
    pub cfg: BinningConfig,
    pub flow: FlowId,
    rounds_sent: u32,
    min_rtt: Vec<Option<Dur>>,
}

const PROBE_BYTES: u32 = 40;

impl LandmarkProber {
    pub fn new(cfg: BinningConfig, flow: FlowId) -> Self {
        let n = cfg.landmarks.len();
        LandmarkProber {
            cfg,
            flow,
            rounds_sent: 0,
            min_rtt: vec![None; n],
        }
    }

    /// Start probing now; `slot` carries the probe schedule.
    pub fn start<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        self.probe_round(slot, ctx);
    }

    /// The probe-schedule timer fired.
    pub fn probe_round<C: Ctx<Hdr>>(&mut self, slot: TimerSlot, ctx: &mut C) {
        if self.rounds_sent >= self.cfg.probes {
            return;
        }
        for &landmark in &self.cfg.landmarks {
            ctx.send(Packet {
                src: Addr::default(),
                dst: landmark,
                flow: self.flow,
                size: PROBE_BYTES,
                sent_at: SimTime::ZERO,
                ecn: Ecn::NotEct,
                header: Hdr::TicpPing {
                    stamp: ctx.now(),
                    landmark: self.index_of(landmark),
                    reply: false,
                },
            });
        }
        self.rounds_sent += 1;
        if self.rounds_sent < self.cfg.probes {
            ctx.set_timer(slot, ctx.now() + self.cfg.probe_gap());
        }
    }

    fn index_of(&self, landmark: Addr) -> u32 {
        let i = self.cfg.landmarks.iter().position(|&l| l == landmark);
        u32::try_from(i.unwrap_or(0)).unwrap_or(0)
    }

    /// A probe answer arrived.
    pub fn on_reply(&mut self, stamp: SimTime, landmark: u32, now: SimTime) {
        let rtt = now.since(stamp);
        if let Some(slot) = self.min_rtt.get_mut(landmark as usize) {
            *slot = Some(slot.map_or(rtt, |m: Dur| m.min(rtt)));
        }
    }

    /// The level vector measured so far.
    pub fn levels(&self) -> Vec<u32> {
        bin_levels(&self.min_rtt, &self.cfg.thresholds)
    }
}

/// Answer a landmark probe (the echo half).
pub(crate) fn echo<C: Ctx<Hdr>>(pkt: &Packet<Hdr>, ctx: &mut C) {
    if let Hdr::TicpPing {
        stamp,
        landmark,
        reply: false,
    } = pkt.header
    {
        ctx.send(Packet {
            src: Addr::default(),
            dst: pkt.src,
            flow: pkt.flow,
            size: PROBE_BYTES,
            sent_at: SimTime::ZERO,
            ecn: Ecn::NotEct,
            header: Hdr::TicpPing {
                stamp,
                landmark,
                reply: true,
            },
        });
    }
}
