//! `[output] pcap`: a capture of chosen link directions, one pcap file each ([`crate::pcap`]
//! writes them; docs/pcap.md), taken by a tap on the link as each packet starts transmission,
//! so the protocols never see it.
//!
//! CHOICE: a capture is written during the run to a private temporary folder (memory stays
//! flat however long the run) and copied into the output folder by [`crate::outputs`]; the
//! temporary folder is removed when the results are dropped.
//! The file of each direction is named by [`pcap_file_name`].

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ccsim_core::{FlowId, Packet};
use ccsim_engine::{LinkId, LinkTap};

use ccsim_protocols::Hdr;

use crate::error::ScenarioError;
use crate::netsim::NetSim;
use crate::pcap::PcapWriter;
use crate::spec::flows::{family, Family, FlowSpec};
use crate::spec::output::pcap_file_name;

/// Record how TCP flow `flow`, of spec `f`, numbers its bytes (nothing for other protocols).
pub(crate) fn number_tcp_flow(flows: &TcpFlows, flow: FlowId, f: &FlowSpec) {
    if family(f.protocol) != Family::Tcp {
        return;
    }
    let mss = u32::try_from(f.packet_size.0 .0)
        .unwrap_or(u32::MAX)
        .saturating_sub(crate::spec::flows::flow_header_bytes(f));
    if let Ok(mut m) = flows.lock() {
        m.insert(flow, (mss, f.size.map(|b| b.0 .0)));
    }
}

/// How each TCP flow numbers its bytes (payload per segment, application bytes in all), shared
/// by the taps so that flows created during the run are numbered as those of the spec.
pub type TcpFlows = Arc<Mutex<std::collections::BTreeMap<FlowId, (u32, Option<u64>)>>>;

/// A capture's writer, shared by its tap (during the run) and [`Captures`] (to close it).
type SharedWriter = Arc<Mutex<Option<PcapWriter<BufWriter<File>>>>>;

struct Tap {
    writer: SharedWriter,
    flows: TcpFlows,
}

impl LinkTap<Hdr> for Tap {
    fn on_transmit(&mut self, now_ns: u64, pkt: &Packet<Hdr>) {
        let Ok(mut guard) = self.writer.lock() else {
            return;
        };
        let Some(writer) = guard.as_mut() else {
            return;
        };
        if matches!(
            pkt.header,
            Hdr::TcpData { .. } | Hdr::TcpAck { .. } | Hdr::TcpSyn { .. }
        ) && !writer.knows_tcp_flow(pkt.flow)
        {
            let known = self
                .flows
                .lock()
                .ok()
                .and_then(|m| m.get(&pkt.flow).copied());
            if let Some((mss, size)) = known {
                writer.set_tcp_flow(pkt.flow, mss, size);
            }
        }
        writer.record(now_ns, pkt);
    }
}

/// A private temporary folder, removed with what it holds when dropped.
#[derive(Debug)]
struct TempFolder(PathBuf);

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One finished capture.
#[derive(Debug)]
pub struct PcapFile {
    /// The link direction, "a->b".
    pub direction: String,
    /// Its file name in the output folder.
    pub name: String,
    /// Where it was written during the run.
    pub path: PathBuf,
    /// Packets captured.
    pub packets: u64,
}

/// The captures of a run.
#[derive(Debug, Default)]
pub struct Captures {
    /// The finished captures, in `[output] pcap` order.
    pub files: Vec<PcapFile>,
    /// Flows' byte numbering, shared with the taps.
    pub tcp_flows: TcpFlows,
    folder: Option<TempFolder>,
    writers: Vec<(String, SharedWriter)>,
}

static FOLDERS: AtomicU64 = AtomicU64::new(0);

/// A new folder of ours under the system's temporary folder: a name no one else holds (the
/// process, a counter and the clock's nanoseconds, drawn again if taken), created readable
/// by its owner only.
fn private_folder() -> Result<PathBuf, (PathBuf, std::io::Error)> {
    let base = std::env::temp_dir();
    let mut last = None;
    for _ in 0..64 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = base.join(format!(
            "ccsim-pcap-{}-{}-{nanos:09}",
            std::process::id(),
            FOLDERS.fetch_add(1, Ordering::Relaxed)
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some((path, e)),
            Err(e) => return Err((path, e)),
        }
    }
    Err(last.expect("64 attempts were made"))
}

impl Captures {
    /// Put a tap on each direction of `directions` (names and ids of `links`).
    ///
    /// # Errors
    /// [`ScenarioError::Resources`] if the temporary files cannot be created.
    pub(crate) fn start(
        sim: &mut NetSim,
        directions: &[String],
        links: &[(String, LinkId)],
    ) -> Result<Captures, ScenarioError> {
        let mut c = Captures::default();
        if directions.is_empty() {
            return Ok(c);
        }
        let failed = |what: &Path, e: std::io::Error| {
            ScenarioError::Resources(format!(
                "cannot write the pcap capture {}: {e}",
                what.display()
            ))
        };
        let folder = private_folder().map_err(|(path, e)| failed(&path, e))?;
        let folder = TempFolder(folder);
        for d in directions {
            let (_, id) = links
                .iter()
                .find(|(n, _)| n == d)
                .ok_or_else(|| ScenarioError::Internal(format!("no link direction {d}")))?;
            let path = folder.0.join(pcap_file_name(d));
            let writer = PcapWriter::create(&path).map_err(|e| failed(&path, e))?;
            let writer: SharedWriter = Arc::new(Mutex::new(Some(writer)));
            sim.set_link_tap(
                *id,
                Box::new(Tap {
                    writer: Arc::clone(&writer),
                    flows: Arc::clone(&c.tcp_flows),
                }),
            );
            c.writers.push((d.clone(), writer));
        }
        c.folder = Some(folder);
        Ok(c)
    }

    /// Close the files once the run is over.
    ///
    /// # Errors
    /// [`ScenarioError::Resources`] if a write failed (a full disk).
    pub(crate) fn finish(&mut self, sim: &mut NetSim) -> Result<(), ScenarioError> {
        let Some(folder) = &self.folder else {
            return Ok(());
        };
        drop(sim.take_link_taps());
        for (direction, writer) in &self.writers {
            let name = pcap_file_name(direction);
            let path = folder.0.join(&name);
            let writer = writer.lock().ok().and_then(|mut w| w.take());
            let Some(writer) = writer else {
                return Err(ScenarioError::Internal(format!(
                    "the capture of {direction} is gone"
                )));
            };
            let packets = writer.packets();
            writer.finish().map_err(|e| {
                ScenarioError::Resources(format!(
                    "cannot write the pcap capture {}: {e}",
                    path.display()
                ))
            })?;
            self.files.push(PcapFile {
                direction: direction.clone(),
                name,
                path,
                packets,
            });
        }
        Ok(())
    }
}
