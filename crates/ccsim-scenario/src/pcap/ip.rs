//! The IPv4 (RFC 791), TCP (RFC 9293) and UDP (RFC 768) encoders of a record and the Internet
//! checksum (RFC 1071) are wire encodings, in ccsim-wire (`packet`, `checksum`), so that a
//! capture and a real datagram are the same bytes; this module names what the writer uses.

pub use ccsim_wire::checksum::internet_checksum;
pub use ccsim_wire::packet::{
    encode_packet as encode, ipv4_of, port_of, TcpNumbering, AGENT_PORTS, AGENT_PORT_BASE,
    TCP_WINDOW, TTL,
};

#[cfg(test)]
pub(super) use ccsim_wire::checksum::pseudo_sum;
#[cfg(test)]
pub(super) use ccsim_wire::tcp::{FLAG_ACK as TCP_ACK, FLAG_ECE as TCP_ECE, FLAG_PSH as TCP_PSH};
