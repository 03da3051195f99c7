//! Writes the `wire` fuzz target's seeds into the folder given (fuzz/README.md): for every
//! sample packet of `ccsim_wire::fuzzing::samples`, its IPv4 encoding and its private
//! header padded to the packet's size.

use ccsim_wire::fuzzing::samples;
use ccsim_wire::packet::encode_packet;
use ccsim_wire::private::encode_private;

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corpus/wire".into());
    std::fs::create_dir_all(&dir)?;
    for (i, pkt) in samples().iter().enumerate() {
        let mut ip = Vec::new();
        encode_packet(pkt, None, &mut ip);
        std::fs::write(format!("{dir}/seed-{i:02}-ipv4"), &ip)?;
        let mut private = Vec::new();
        encode_private(pkt, &mut private);
        private.resize(private.len().max(pkt.size as usize - 28), 0);
        std::fs::write(format!("{dir}/seed-{i:02}-private"), &private)?;
    }
    Ok(())
}
