//! A user's crate: an AIMD window algorithm and a queue discipline written against ccsim's
//! public contracts (`ccsim_protocols::tcp::cc::CongestionControl`, version
//! `CONTRACT_VERSION`; `ccsim_engine::QueueDiscipline`), registered by name so that scenario
//! files run them (`protocol = "aimd"`, `queue = { kind = "custom", class = "drop-above" }`).
//! `src/main.rs` is a `ccsim run` of its own; docs/your-own-algorithm.md walks through it.

use std::sync::Arc;

use ccsim_engine::{Admit, QueueDiscipline, QueueState, QueuedPacket};
use ccsim_protocols::tcp::cc::{AckEvent, CongestionControl, Window, CONTRACT_VERSION};
use ccsim_scenario::registry::{self, CcArgs, CcEntry, CcOptions, QueueEntry};

/// The contract version this crate was written against.
const WRITTEN_FOR: u32 = 1;

/// Additive increase, multiplicative decrease: `alpha` segments per round trip in congestion
/// avoidance (RFC 5681 equation 3 scaled), one segment per ACK in slow start, and `beta`
/// times the flight after a congestion event. With alpha = 1 and beta = 0.5 it is RFC 5681's
/// Reno (the crate's test checks it against `protocol = "sack"`).
#[derive(Clone, Copy, Debug)]
pub struct Aimd {
    alpha: f64,
    beta: f64,
}

impl Aimd {
    /// From a flow's `cc = { alpha = ..., beta = ... }` table.
    ///
    /// # Errors
    /// A key that is not a number in range, or a key it does not know.
    pub fn from_options(options: &CcOptions) -> Result<Self, String> {
        let mut aimd = Aimd {
            alpha: 1.0,
            beta: 0.5,
        };
        for (key, value) in options {
            let x = value
                .as_f64()
                .ok_or_else(|| format!("{key} must be a number, found {value}"))?;
            match key.as_str() {
                "alpha" if x > 0.0 && x.is_finite() => aimd.alpha = x,
                "beta" if x > 0.0 && x < 1.0 => aimd.beta = x,
                "alpha" | "beta" => return Err(format!("{key} out of range: {x}")),
                _ => return Err(format!("unknown key {key:?} (known: alpha, beta)")),
            }
        }
        Ok(aimd)
    }
}

impl CongestionControl for Aimd {
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        if !w.cwnd_limited {
            return;
        }
        if w.in_slow_start() {
            w.cwnd += (ack.acked_segments * w.mss).min(w.mss);
        } else {
            let add = (self.alpha * (w.mss * w.mss) as f64 / w.cwnd as f64) as u64;
            w.cwnd += add.max(1);
        }
    }

    fn ssthresh(&mut self, w: &Window) -> u64 {
        ((w.flight as f64 * self.beta) as u64).max(2 * w.mss)
    }
}

/// Drop every arrival while more than `packets` wait: DropTail by the discipline's own
/// count, the link's `limit` above it.
#[derive(Clone, Copy, Debug)]
pub struct DropAbove {
    packets: u64,
}

impl QueueDiscipline for DropAbove {
    fn enqueue(&mut self, _pkt: &QueuedPacket, q: &QueueState) -> Admit {
        if q.packets >= self.packets {
            Admit::Drop
        } else {
            Admit::Accept
        }
    }
}

/// Register `aimd` and `drop-above` for the scenarios parsed after.
///
/// # Panics
/// If ccsim's contract is not the one this crate was written for.
pub fn register() {
    assert_eq!(
        CONTRACT_VERSION, WRITTEN_FOR,
        "written for contract {WRITTEN_FOR}"
    );
    let mut aimd = CcEntry::new(|args: &CcArgs<'_>| {
        Ok(Box::new(Aimd::from_options(args.options)?) as Box<dyn CongestionControl + Send>)
    });
    aimd.check = Some(Arc::new(|options: &CcOptions| {
        Aimd::from_options(options).map(|_| ())
    }));
    ccsim_scenario::register_cc("aimd", aimd).expect("a plain, new name");
    let packets = |options: &CcOptions| -> Result<u64, String> {
        match options.get("packets") {
            Some(v) => v
                .as_u64()
                .ok_or_else(|| format!("packets must be a whole number, found {v}")),
            None => Err("the key \"packets\" is required".into()),
        }
    };
    registry::register_queue(
        "drop-above",
        QueueEntry {
            factory: Arc::new(move |args| {
                Ok(Box::new(DropAbove {
                    packets: packets(args.options)?,
                }) as Box<dyn QueueDiscipline + Send>)
            }),
            check: Some(Arc::new(move |options| packets(options).map(|_| ()))),
        },
    )
    .expect("a plain name");
}

#[cfg(test)]
mod tests {
    use ccsim_scenario::{parse_spec_toml, run, RunOptions};

    fn scenario(protocol: &str, queue: &str) -> String {
        format!(
            r#"
[run]
duration = "5s"
[[links]]
between = ["s", "r"]
rate = "100Mbps"
delay = "1ms"
[[links]]
between = ["r", "d"]
rate = "10Mbps"
delay = "10ms"
queue = {queue}
[[flows]]
name = "a"
{protocol}
from = "s"
to = "d"
[[flows]]
name = "b"
{protocol}
from = "s"
to = "d"
start = "0.5s"
"#
        )
    }

    fn summary(text: &str) -> serde_json::Value {
        let spec = parse_spec_toml(text).expect("a valid scenario");
        let outcome = run(&spec, RunOptions::default(), &mut |_| true).expect("it runs");
        let mut flows = serde_json::to_value(&outcome.summary.flows).expect("serialisable");
        for f in flows.as_object_mut().expect("a table").values_mut() {
            f.as_object_mut().expect("a table").remove("protocol");
        }
        serde_json::json!({
            "flows": flows,
            "links": serde_json::to_value(&outcome.summary.links).expect("serialisable"),
        })
    }

    #[test]
    fn aimd_with_renos_constants_is_reno() {
        super::register();
        let mine = summary(&scenario(
            "protocol = \"aimd\"\ncc = { alpha = 1, beta = 0.5 }",
            "\"20p\"",
        ));
        let builtin = summary(&scenario("protocol = \"sack\"", "\"20p\""));
        assert_eq!(mine, builtin);
        assert!(mine["links"]["r->d"]["drops_by_reason"]["queue_full"].as_u64() > Some(10));
    }

    #[test]
    fn the_queue_drops_by_its_own_count() {
        super::register();
        let mine = summary(&scenario(
            "protocol = \"sack\"",
            "{ kind = \"custom\", class = \"drop-above\", packets = 20 }",
        ));
        let builtin = summary(&scenario("protocol = \"sack\"", "\"20p\""));
        let drops = |s: &serde_json::Value, reason: &str| {
            s["links"]["r->d"]["drops_by_reason"][reason]
                .as_u64()
                .unwrap_or(0)
        };
        assert_eq!(drops(&mine, "aqm"), drops(&builtin, "queue_full"));
        assert_eq!(mine["flows"], builtin["flows"]);
    }

    #[test]
    fn bad_options_name_their_key() {
        super::register();
        let text = scenario("protocol = \"aimd\"\ncc = { beta = 2 }", "\"20p\"");
        let e = parse_spec_toml(&text)
            .and_then(|s| ccsim_scenario::check(&s))
            .expect_err("beta out of range");
        assert!(e.to_string().contains("flows[0].cc"), "{e}");
        assert!(e.to_string().contains("beta out of range: 2"), "{e}");
    }
}
