//! `queue = { kind = "dualpi2", ... }`: tc-dualpi2(8)'s keys with Linux's defaults
//! (`dualpi2_reset_default` in `net/sched/sch_dualpi2.c`), one clear error naming the field
//! and the value for every bad input, and the per-queue results in a run's summary.

use crate::common;

use ccsim_engine::{Discipline, DualPi2Config, L4sClass, QueueLimit, StepThresh};
use ccsim_scenario::{parse_spec_value, ScenarioError, Spec};
use common::{run_spec, spec};
use serde_json::{json, Value};

fn with_queue(queue: Value) -> Value {
    json!({
        "run": {"duration": "3s", "seed": 1, "warmup": "1s"},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms"},
            {"between": ["r", "d"], "rate": "10Mbps", "delay": "10ms", "queue": queue},
        ],
        "flows": [{"name": "f", "protocol": "cubic", "from": "s", "to": "d"}],
        "output": {"series": []},
    })
}

fn err_of(v: Value) -> (String, String) {
    match parse_spec_value(v) {
        Ok(_) => panic!("spec unexpectedly accepted"),
        Err(ScenarioError::Spec { path, message }) => (path, message),
        Err(e) => panic!("not a spec error: {e}"),
    }
}

fn discipline(s: &Spec) -> (Discipline, QueueLimit) {
    let c = s.links[1].config();
    (c.discipline, c.limit)
}

#[test]
fn every_key_defaults_to_linux() {
    let s = spec(with_queue(json!({"kind": "dualpi2"})));
    let (d, limit) = discipline(&s);
    let linux = DualPi2Config {
        target: 15_000_000,
        tupdate: 16_000_000,
        alpha: 41,
        beta: 819,
        step_thresh: StepThresh::Time(1_000_000),
        min_qlen_step: 0,
        coupling_factor: 2,
        classic_protection: 10,
        class: L4sClass::L4sEct,
        drop_on_overload: true,
        drop_enqueue: false,
    };
    assert_eq!(d, Discipline::DualPi2(linux));
    assert_eq!(DualPi2Config::default(), linux);
    assert_eq!(limit, QueueLimit::Packets(10_000));
    // A RED table's limit default is unchanged.
    let s = spec(with_queue(json!({"kind": "red"})));
    assert_eq!(discipline(&s).1, QueueLimit::Packets(100));
}

#[test]
fn every_key_reaches_the_engine() {
    let s = spec(with_queue(json!({
        "kind": "dualpi2", "limit": "500p", "target": "5ms", "tupdate": "8ms", "alpha": 0.32,
        "beta": 6.4, "coupling_factor": 3, "step_thresh": "5p", "min_qlen_step": 2,
        "classic_protection": 25, "classify": "any_ect", "overload": "overflow",
        "drop_at": "drop_enqueue"})));
    let (d, limit) = discipline(&s);
    assert_eq!(
        d,
        Discipline::DualPi2(DualPi2Config {
            target: 5_000_000,
            tupdate: 8_000_000,
            alpha: 82,
            beta: 1638,
            step_thresh: StepThresh::Packets(5),
            min_qlen_step: 2,
            coupling_factor: 3,
            classic_protection: 25,
            class: L4sClass::AnyEct,
            drop_on_overload: false,
            drop_enqueue: true,
        })
    );
    assert_eq!(limit, QueueLimit::Packets(500));
    // The canonical form parses back to the same spec.
    let again = spec(serde_json::from_str(&s.canonical_json()).unwrap());
    assert_eq!(discipline(&again), discipline(&s));
    let s = spec(with_queue(
        json!({"kind": "dualpi2", "step_thresh": "500us",
                                  "classify": "l4s_ect", "overload": "drop_on_overload",
                                  "drop_at": "drop_dequeue"}),
    ));
    assert_eq!(
        discipline(&s).0,
        Discipline::DualPi2(DualPi2Config {
            step_thresh: StepThresh::Time(500_000),
            ..DualPi2Config::default()
        })
    );
}

#[test]
fn bad_values_name_the_field_and_the_value() {
    let cases: &[(Value, &str, &str)] = &[
        (json!({"limit": "0p"}), "limit", "0p"),
        (json!({"limit": "20kB"}), "limit", "20kB"),
        (json!({"limit": "5000000p"}), "limit", "5000000p"),
        (json!({"target": "-1ms"}), "target", "-1ms"),
        (json!({"target": 15}), "target", "15"),
        (json!({"tupdate": "0s"}), "tupdate", "0s"),
        (json!({"tupdate": "100ns"}), "tupdate", "100ns"),
        (json!({"alpha": 0.0}), "alpha", "0"),
        (json!({"alpha": -0.16}), "alpha", "-0.16"),
        (json!({"alpha": 1e12}), "alpha", "1000000000000"),
        (json!({"alpha": "fast"}), "alpha", "fast"),
        (json!({"beta": 0.001}), "beta", "0.001"),
        (json!({"coupling_factor": 0}), "coupling_factor", "0"),
        (json!({"coupling_factor": 256}), "coupling_factor", "256"),
        (json!({"coupling_factor": 1.5}), "coupling_factor", "1.5"),
        (json!({"step_thresh": "1kB"}), "step_thresh", "1kB"),
        (json!({"step_thresh": "soon"}), "step_thresh", "soon"),
        (json!({"step_thresh": 1}), "step_thresh", "1"),
        (json!({"min_qlen_step": -1}), "min_qlen_step", "-1"),
        (json!({"min_qlen_step": "2p"}), "min_qlen_step", "2p"),
        (
            json!({"classic_protection": 101}),
            "classic_protection",
            "101",
        ),
        (
            json!({"classic_protection": -5}),
            "classic_protection",
            "-5",
        ),
        (json!({"classify": "ect1"}), "classify", "ect1"),
        (json!({"overload": "drop"}), "overload", "drop"),
        (json!({"drop_at": "dequeue"}), "drop_at", "dequeue"),
        (json!({"min_th": 5}), "min_th", "RED key"),
        (json!({"threshold": 5}), "threshold", "step"),
    ];
    for (extra, field, shown) in cases {
        let mut q = json!({"kind": "dualpi2"});
        for (k, v) in extra.as_object().unwrap() {
            q[k] = v.clone();
        }
        let (path, message) = err_of(with_queue(q));
        println!("{path}: {message}");
        assert_eq!(
            path,
            format!("links[1].queue.{field}"),
            "{extra}: {message}"
        );
        assert!(message.contains(shown), "{extra}: {path}: {message}");
        assert!(!message.contains('\n'), "one line: {message}");
    }
    // The DualPI2 keys belong to kind = "dualpi2" only.
    for kind in ["red", "step"] {
        let (path, message) = err_of(with_queue(
            json!({"kind": kind, "threshold": 5, "limit": "100p", "coupling_factor": 2}),
        ));
        assert_eq!(path, "links[1].queue.coupling_factor", "{message}");
        assert!(message.contains("dualpi2"), "{message}");
    }
    let (path, message) = err_of(with_queue(json!({"kind": "codel"})));
    assert_eq!(path, "links[1].queue.kind");
    assert!(
        message.contains("dualpi2") && message.contains("codel"),
        "{message}"
    );
}

#[test]
fn a_run_reports_each_queue_and_only_dualpi2_runs_list_its_drop_reasons() {
    let out = run_spec(&spec(with_queue(json!({"kind": "dualpi2"}))));
    let link = &out.summary.links["r->d"];
    let d = link
        .dualpi2
        .as_ref()
        .expect("a DualPI2 link reports its queues");
    println!("{d:?}");
    // CUBIC sends Not-ECT packets: all go to the C queue.
    assert_eq!(d.l_packets, 0);
    assert!(d.c_packets > 1000, "{d:?}");
    assert!(d.c_sojourn_mean_s.unwrap() > 0.0 && d.l_sojourn_mean_s.is_none());
    assert!(d.c_sojourn_p99_s.unwrap() >= d.c_sojourn_mean_s.unwrap());
    assert_eq!(link.drops_by_reason["dualpi2_c"], d.c_drops);
    assert_eq!(link.drops_by_reason["dualpi2_l"], 0);
    // Every link of the run lists the reasons (one table, one set of columns).
    assert!(out.summary.links["s->r"]
        .drops_by_reason
        .contains_key("dualpi2_c"));
    assert!(out.summary.links["s->r"].dualpi2.is_none());
    let json = serde_json::to_value(&out.summary.links).unwrap();
    assert!(json["r->d"]["dualpi2"]["c_sojourn_p99_s"].is_number());
    assert!(json["s->r"].get("dualpi2").is_none());
    // Without DualPI2 the summary is as before: no such reasons, no such field.
    let out = run_spec(&spec(with_queue(json!("100p"))));
    for l in out.summary.links.values() {
        assert!(!l.drops_by_reason.contains_key("dualpi2_c"));
        assert!(l.dualpi2.is_none());
    }
}
