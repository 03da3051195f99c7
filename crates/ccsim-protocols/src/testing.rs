//! A recording context for driving agents without an engine.

use ccsim_core::{Addr, Ctx, Packet, RngStream, SimTime, TimerSlot, VarId};

use crate::Hdr;

/// Records what an agent does; time is set by the test.
pub struct MockCtx {
    pub now: SimTime,
    pub sent: Vec<Packet<Hdr>>,
    pub timers: [Option<SimTime>; TimerSlot::MAX],
    pub traces: Vec<(VarId, f64)>,
    pub groups: Vec<u32>,
    /// Packets handed on as a group relay.
    pub relayed: Vec<Packet<Hdr>>,
    rng: RngStream,
}

impl MockCtx {
    pub fn new() -> Self {
        MockCtx {
            now: SimTime::ZERO,
            sent: Vec::new(),
            timers: [None; TimerSlot::MAX],
            traces: Vec::new(),
            groups: Vec::new(),
            relayed: Vec::new(),
            rng: RngStream::new(1, "mock"),
        }
    }
    /// Take the packets sent since the last call.
    pub fn drain(&mut self) -> Vec<Packet<Hdr>> {
        std::mem::take(&mut self.sent)
    }
}

impl Ctx<Hdr> for MockCtx {
    fn now(&self) -> SimTime {
        self.now
    }
    fn addr(&self) -> Addr {
        Addr { node: 0, agent: 0 }
    }
    fn send(&mut self, mut pkt: Packet<Hdr>) {
        pkt.src = self.addr();
        pkt.sent_at = self.now;
        self.sent.push(pkt);
    }
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime) {
        self.timers[slot.0 as usize] = Some(at);
    }
    fn cancel_timer(&mut self, slot: TimerSlot) {
        self.timers[slot.0 as usize] = None;
    }
    fn rng(&mut self) -> &mut RngStream {
        &mut self.rng
    }
    fn tracing(&self, _var: VarId) -> bool {
        true
    }
    fn trace(&mut self, var: VarId, value: f64) {
        self.traces.push((var, value));
    }
    fn relay(&mut self, pkt: Packet<Hdr>) {
        self.relayed.push(pkt);
    }
    fn join_group(&mut self, key: u32) {
        if !self.groups.contains(&key) {
            self.groups.push(key);
        }
    }
    fn leave_group(&mut self, key: u32) {
        self.groups.retain(|&g| g != key);
    }
}
