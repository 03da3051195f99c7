//! A context for an agent that wraps another (TCP-M's source and receivers around our TCP
//! sender and sink, XCP's and OBP's around the TCP machinery): everything passes through to the
//! outer context but `send`, which goes through `on_send` (to rewrite, hold back or redirect the
//! inner agent's packets), and `finish`, which is noted in `finished` and passed on or not.

use ccsim_core::{Addr, Ctx, Packet, RngStream, SimTime, TimerSlot, VarId};

use crate::Hdr;

/// The inner agent's context.
pub(crate) struct Wrapped<'a, C, F> {
    pub outer: &'a mut C,
    pub on_send: F,
    /// The inner agent said its work is done.
    pub finished: bool,
    /// Whether `finish` reaches the outer context too.
    pass_finish: bool,
}

impl<'a, C, F> Wrapped<'a, C, F> {
    /// A context whose `finish` is passed on.
    pub fn new(outer: &'a mut C, on_send: F) -> Self {
        Wrapped {
            outer,
            on_send,
            finished: false,
            pass_finish: true,
        }
    }

    /// A context whose `finish` is only noted, for the wrapper to act on.
    pub fn catching_finish(outer: &'a mut C, on_send: F) -> Self {
        Wrapped {
            outer,
            on_send,
            finished: false,
            pass_finish: false,
        }
    }
}

impl<C: Ctx<Hdr>, F: FnMut(&mut C, Packet<Hdr>)> Ctx<Hdr> for Wrapped<'_, C, F> {
    fn now(&self) -> SimTime {
        self.outer.now()
    }
    fn addr(&self) -> Addr {
        self.outer.addr()
    }
    fn send(&mut self, pkt: Packet<Hdr>) {
        (self.on_send)(self.outer, pkt);
    }
    fn set_timer(&mut self, slot: TimerSlot, at: SimTime) {
        self.outer.set_timer(slot, at);
    }
    fn cancel_timer(&mut self, slot: TimerSlot) {
        self.outer.cancel_timer(slot);
    }
    fn rng(&mut self) -> &mut RngStream {
        self.outer.rng()
    }
    fn tracing(&self, var: VarId) -> bool {
        self.outer.tracing(var)
    }
    fn trace(&mut self, var: VarId, value: f64) {
        self.outer.trace(var, value);
    }
    fn relay(&mut self, pkt: Packet<Hdr>) {
        self.outer.relay(pkt);
    }
    fn join_group(&mut self, key: u32) {
        self.outer.join_group(key);
    }
    fn leave_group(&mut self, key: u32) {
        self.outer.leave_group(key);
    }
    fn finish(&mut self) {
        self.finished = true;
        if self.pass_finish {
            self.outer.finish();
        }
    }
}
