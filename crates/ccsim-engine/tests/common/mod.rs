//! The minimal header the engine tests share: data packets numbered by `seq`.

use ccsim_core::Header;

#[derive(Clone, Debug)]
pub struct H {
    pub seq: u64,
}

impl Header for H {
    fn is_data(&self) -> bool {
        true
    }
    fn data_seq(&self) -> Option<u64> {
        Some(self.seq)
    }
    /// Odd-numbered packets to a group stop at its relays.
    fn stops_at_relays(&self) -> bool {
        self.seq % 2 == 1
    }
}
