//! TFRC, TCP-Friendly Rate Control (RFC 5348).
