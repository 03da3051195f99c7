//! ccsim-wire: typed views over byte buffers, with checked parsing, and the encoders of the
//! simulator's packets: IPv4 (RFC 791), UDP (RFC 768), TCP (RFC 9293, with SACK RFC 2018,
//! timestamps and window scale RFC 7323, ECN bits RFC 3168 and AccECN,
//! draft-ietf-tcpm-accurate-ecn) and the private header that carries ccsim's own protocols
//! inside UDP (docs/pcap.md has its byte table).
//!
//! Each wire format is a view `X<T: AsRef<[u8]>>` over a buffer. `X::new_checked` checks
//! every length the accessors rely on, so that after it succeeds no accessor panics;
//! `X::new_unchecked` skips the checks, for buffers the caller built itself. A malformed,
//! truncated or hostile buffer is a [`WireError`], never a panic: the `wire` fuzz target
//! (fuzz/README.md, [`fuzzing::check`]) holds every parser to that.
//!
//! The pcap writer of ccsim-scenario and the real-socket driver use the same encoders
//! ([`packet::encode_packet`], [`private::encode_private`]), so a capture and a real datagram
//! are the same bytes.

#![forbid(unsafe_code)]

pub mod checksum;
pub mod ecn;
mod error;
pub mod fuzzing;
pub mod ipv4;
pub mod packet;
pub mod private;
pub mod tcp;
pub mod udp;

pub use error::WireError;
pub use ipv4::Ipv4Packet;
pub use private::{decode_private, encode_private, PrivateMessage, PrivateType};
pub use tcp::{TcpOption, TcpOptions, TcpSegment};
pub use udp::UdpDatagram;
