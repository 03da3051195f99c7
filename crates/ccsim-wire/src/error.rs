//! What is wrong with a buffer, and where.

use std::fmt;

/// Why a buffer does not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    /// `what` needs `need` bytes and the buffer has `have`.
    Truncated {
        /// The structure being read ("IPv4 header", "TCP option 8", ...).
        what: &'static str,
        /// Bytes it needs.
        need: usize,
        /// Bytes there are.
        have: usize,
    },
    /// A field holds a value its format does not allow.
    BadField {
        /// The field ("IPv4 version", "TCP data offset", ...).
        what: &'static str,
        /// The value found.
        value: u64,
    },
    /// A TCP option whose length field is wrong: below 2, past the header, or not its kind's
    /// fixed length.
    BadOption {
        /// The option's kind.
        kind: u8,
        /// Its length field (0 when the length byte itself is missing).
        len: u8,
    },
    /// A UDP payload that does not start with the private header's magic, `CCSM`.
    BadMagic,
    /// A private header of a version this crate does not read.
    BadVersion(u8),
    /// A private header of a message type this crate does not know.
    UnknownType(u8),
    /// A private header whose length field is not its type's length.
    BadLength {
        /// The message type.
        ty: u8,
        /// The length field.
        len: u16,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WireError::Truncated { what, need, have } => {
                write!(f, "truncated: {what} needs {need} bytes, have {have}")
            }
            WireError::BadField { what, value } => write!(f, "bad {what}: {value}"),
            WireError::BadOption { kind, len } => {
                write!(f, "malformed TCP option: kind {kind}, length {len}")
            }
            WireError::BadMagic => write!(f, "bad private magic"),
            WireError::BadVersion(v) => write!(f, "unknown private header version {v}"),
            WireError::UnknownType(t) => write!(f, "unknown private type {t}"),
            WireError::BadLength { ty, len } => {
                write!(f, "bad private header length {len} for type {ty}")
            }
        }
    }
}

impl std::error::Error for WireError {}

/// `Err(Truncated)` unless `have >= need`.
pub(crate) fn need(what: &'static str, need: usize, have: usize) -> Result<(), WireError> {
    if have < need {
        Err(WireError::Truncated { what, need, have })
    } else {
        Ok(())
    }
}
