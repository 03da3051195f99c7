//! Prague on scripted ACK sequences.
