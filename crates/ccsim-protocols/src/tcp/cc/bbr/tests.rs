//! BBR's state machine on scripted ACK sequences.
