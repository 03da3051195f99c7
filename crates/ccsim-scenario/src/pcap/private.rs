//! The simulator's private header, carried inside UDP (RFC 768) for its own protocols and for
//! plain datagrams, is a wire encoding: its encoder and decoder are in ccsim-wire (`private`;
//! docs/pcap.md has the table of offsets).

pub use ccsim_wire::private::{
    PrivateType, OBP_PORT, PRIVATE_COMMON_BYTES, PRIVATE_MAGIC, PRIVATE_NONE, PRIVATE_VERSION,
    RATE_PORT, TCPM_PORT, TICP_PORT, XCP_PORT,
};
