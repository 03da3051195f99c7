//! A spec is read strictly and its errors speak the user's language (issue 13, section 3),
//! and every key whose value sizes memory is bounded in validation (section 1).

use ccsim_scenario::{parse_spec_json, parse_spec_toml, parse_spec_value, ScenarioError, Spec};
use serde_json::{json, Value};

fn err_of(r: Result<Spec, ScenarioError>) -> (String, String) {
    match r {
        Ok(_) => panic!("spec unexpectedly accepted"),
        Err(ScenarioError::Spec { path, message }) => (path, message),
        Err(e) => panic!("not a spec error: {e}"),
    }
}

const LINK: &str = "[[links]]\nbetween = [\"s\", \"d\"]\nrate = \"10Mbps\"\ndelay = \"1ms\"\n";

fn toml_err(text: &str) -> (String, String) {
    err_of(parse_spec_toml(text))
}

/// A small valid spec to change one key of.
fn base() -> Value {
    json!({
        "run": {"duration": "5s"},
        "links": [{"between": ["s", "d"], "rate": "10Mbps", "delay": "10ms"}],
        "flows": [{"name": "f", "protocol": "newreno", "from": "s", "to": "d"}],
    })
}

fn with(path: &[&str], v: Value) -> Value {
    let mut spec = base();
    let mut node = &mut spec;
    for key in &path[..path.len() - 1] {
        node = match key.parse::<usize>() {
            Ok(i) => &mut node[i],
            Err(_) => &mut node[*key],
        };
    }
    match path[path.len() - 1].parse::<usize>() {
        Ok(i) => node[i] = v,
        Err(_) => node[path[path.len() - 1]] = v,
    }
    spec
}

fn json_err(v: Value) -> (String, String) {
    err_of(parse_spec_value(v))
}

#[test]
fn only_a_table_fills_a_table() {
    // Each of these ran on 8b46e84, filled by position.
    let (path, msg) = toml_err(&format!("run = [\"5s\", 1]\n{LINK}"));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("run", "expected a table, found an array")
    );
    let (path, msg) = toml_err(
        "run = { duration = \"5s\" }\nlinks = [[[\"s1\", \"r1\"], \"100Mbps\", \"1ms\"]]\n",
    );
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("links[0]", "expected a table, found an array")
    );
    let (path, msg) = toml_err(&format!(
        "output = [\"rate\", \"cwnd\"]\n[run]\nduration = \"5s\"\n{LINK}"
    ));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("output", "expected a table, found an array")
    );
    for (key, v, at) in [
        ("vegas", json!([1, 3, 1]), "flows[0].vegas"),
        ("cbraa", json!([1.5, 0.5, 0.5, 0.5]), "flows[0].cbraa"),
        ("primo", json!([0.3]), "flows[0].primo"),
        ("tfrc", json!([true]), "flows[0].tfrc"),
    ] {
        let (path, msg) = json_err(with(&["flows", "0", key], v));
        assert_eq!(path, at);
        assert_eq!(msg, "expected a table, found an array");
    }
    let (path, msg) = json_err(with(&["flows", "0"], json!(["f", "newreno", "s", "d"])));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("flows[0]", "expected a table, found an array")
    );
    let (path, msg) = json_err(with(&["links", "0", "queue"], json!(["red", "100p"])));
    assert_eq!(path, "links[0].queue");
    assert!(msg.starts_with("expected a DropTail limit"), "{msg}");
    assert!(msg.ends_with("found an array"), "{msg}");
    let (path, msg) = json_err(json!(["5s"]));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("(document)", "expected a table, found an array")
    );
    let (path, msg) = json_err(with(&["ticp"], json!([["t", "s", {"d": 1}]])));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("ticp[0]", "expected a table, found an array")
    );
    let (path, msg) = json_err(with(&["drops"], json!([["f", "s->d", [1]]])));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        ("drops[0]", "expected a table, found an array")
    );
}

#[test]
fn between_takes_exactly_two_node_names() {
    for v in [
        json!(["s", "d", "e"]),
        json!(["s"]),
        json!("s-d"),
        json!(["s", 1]),
    ] {
        let (path, msg) = json_err(with(&["links", "0", "between"], v.clone()));
        assert_eq!(path, "links[0].between");
        assert!(msg.starts_with("expected exactly two node names"), "{msg}");
        assert!(msg.ends_with(&v.to_string()), "{msg}");
    }
}

#[test]
fn type_confusions_are_worded_for_users() {
    let cases = [
        (&["run", "seed"][..], json!(1.5), "expected a whole number from 0 to 18446744073709551615, found 1.5"),
        (&["run", "seed"][..], json!(-1), "expected a whole number from 0 to 18446744073709551615, found -1"),
        (&["flows", "0", "initial_window"][..], json!(5_000_000_000u64), "expected a whole number from 1 to 100000, found 5000000000"),
        (&["flows", "0", "max_window"][..], json!(-3), "expected a whole number, at least 1, found -3"),
        (&["flows", "0", "delayed_ack"][..], json!("yes"), "expected true or false, found \"yes\""),
        (&["links", "0", "loss"][..], json!("0.1"), "expected a number, found \"0.1\""),
        (&["flows", "0", "protocol"][..], json!("tcp"), "expected one of: tahoe, reno, newreno, sack, vegas, cubic, dctcp, bbr, bbr3, prague, cbr, poisson, tfrc, tcp-friend, cbraa, primo, xcp, obp, found \"tcp\""),
        (&["flows", "0", "protocol"][..], json!(3), "expected one of: tahoe, reno, newreno, sack, vegas, cubic, dctcp, bbr, bbr3, prague, cbr, poisson, tfrc, tcp-friend, cbraa, primo, xcp, obp, found 3"),
        (&["run", "routing"][..], json!(["hops"]), "expected one of: delay, hops, found an array"),
        (&["flows", "0", "name"][..], json!(7), "expected a string, found 7"),
        (&["flows"][..], json!({"name": "f"}), "expected an array, found a table"),
        (&["links", "0", "rate"][..], json!(true), "expected a rate string such as \"10Mbps\", found true"),
        (&["flows", "0", "colour"][..], json!(1), "unknown key \"colour\""),
    ];
    for (path, v, want) in cases {
        let (at, msg) = json_err(with(path, v));
        assert_eq!(at, path.join(".").replace(".0", "[0]"));
        assert!(msg.starts_with(want), "{at}: {msg}\n  wanted: {want}");
    }
    let (at, msg) = json_err(json!({"links": []}));
    assert_eq!(
        (at.as_str(), msg.as_str()),
        ("(document)", "the key \"run\" is required")
    );
}

/// Words of Rust's vocabulary that must never reach a user.
const RUST_WORDS: [&str; 24] = [
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i32",
    "i64",
    "f32",
    "f64",
    "struct",
    "enum",
    "variant",
    "sequence",
    "invalid type",
    "invalid value",
    "invalid length",
    "unknown field",
    "missing field",
    "floating point",
    "integer `",
    "`",
    "Option",
    "unit value",
];

fn rust_word_in(msg: &str) -> Option<&'static str> {
    // `vegas.variant` is a key, not Rust's vocabulary, in a path or in a table's list of keys.
    let msg = &msg
        .replace("vegas.variant", "vegas.<key>")
        .replace(", variant)", ")");
    let words: Vec<&str> = msg
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    RUST_WORDS.iter().copied().find(|w| {
        if w.contains(' ') || !w.chars().all(|c| c.is_ascii_alphanumeric()) {
            msg.contains(w)
        } else {
            words.contains(w)
        }
    })
}

/// A spec that sets every key of every table, so that each can be confused.
fn full() -> Value {
    json!({
        "run": {"duration": "10s", "seed": 3, "warmup": "1s", "routing": "hops"},
        "links": [
            {"between": ["s", "r"], "rate": "100Mbps", "delay": "1ms", "loss": 0.001,
             "queue": {"kind": "red", "limit": "100p", "min_th": 5, "max_th": 15, "w_q": 0.002,
                       "max_p": 0.1, "gentle": true, "bytes": false, "mean_packet_size": "500B",
                       "ecn": true}},
            {"between": ["r", "d"], "rate": "10Mbps", "delay": "20ms", "queue": "20kB"},
            {"between": ["r", "l"], "rate": "10Mbps", "delay": "5ms"},
        ],
        "flows": [
            {"name": "v", "protocol": "vegas", "from": "s", "to": "d", "start": "1s", "stop": "9s",
             "size": "1MB", "packet_size": "1000B", "delayed_ack": true, "initial_window": 4,
             "min_rto": "1s", "max_window": 100, "ecn": true,
             "vegas": {"alpha": 1, "beta": 3, "gamma": 1, "variant": "ns2"}, "initial_ssthresh": "bdp",
             "paced_slow_start": true, "pacing_spacing": "1ms"},
            {"name": "c", "protocol": "cbraa", "from": "s", "to": "d", "report_interval": "1s",
             "initial_rate": "1Mbps", "min_rate": "10kbps", "max_rate": "5Mbps",
             "cbraa": {"a": 1.5, "b": 0.5, "alpha": 0.5, "beta": 0.5}},
            {"name": "p", "protocol": "primo", "from": "s", "to": "d",
             "primo": {"tau": 1, "th_str": 0.34, "th_mod": 0.17, "th_rel": 0.15, "f_str": 0.95,
                       "f_mod": 0.99, "f_rel": 1.05, "w1": 0.5, "w2": 0.9, "rcv_samples": 2,
                       "receiver_clock_offset": "1s"}},
            {"name": "t", "protocol": "tfrc", "from": "s", "to": "d",
             "tfrc": {"history_discounting": true}},
            {"name": "u", "protocol": "cbr", "from": "s", "to": "d", "rate": "1Mbps"},
        ],
        "ticp": [{"name": "census", "collector": "s", "sources": {"d": 10}, "rs": 1,
                  "request_size": "1000B", "report_size": "100B", "report_packets": 1,
                  "delivery": "unicast", "clusters": "binning", "landmarks": ["l"],
                  "bin_thresholds": ["100ms", "200ms"], "probes": 3, "binning_phase": "2s",
                  "start": "1s", "allotted": "5s", "initial_timeout": "3s"}],
        "drops": [{"flow": "v", "link": "s->r", "seqs": [3, 4]}],
        "output": {"interval": "100ms", "series": ["rate", "cwnd"], "trace": ["cwnd"]},
    })
}

/// Every (path, value) in a tree, containers included.
fn walk(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    if !path.is_empty() {
        out.push(path.clone());
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(json!(k));
                walk(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(json!(i));
                walk(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn set(spec: &mut Value, path: &[Value], v: Value) {
    let mut node = spec;
    for key in path {
        node = match key {
            Value::Number(i) => &mut node[usize::try_from(i.as_u64().unwrap()).unwrap()],
            Value::String(k) => &mut node[k.as_str()],
            _ => unreachable!(),
        };
    }
    *node = v;
}

fn show_path(path: &[Value]) -> String {
    let mut s = String::new();
    for key in path {
        match key {
            Value::Number(i) => s += &format!("[{i}]"),
            Value::String(k) if s.is_empty() => s += k,
            Value::String(k) => s += &format!(".{k}"),
            _ => unreachable!(),
        }
    }
    s
}

#[test]
fn no_message_speaks_rust_over_many_bad_inputs() {
    assert!(
        parse_spec_value(full()).is_ok(),
        "{:?}",
        parse_spec_value(full()).err()
    );
    let mut paths = Vec::new();
    walk(&full(), &mut Vec::new(), &mut paths);
    let bad = [
        json!(null),
        json!(true),
        json!(-1),
        json!(1.5),
        json!(5_000_000_000u64),
        json!(u64::MAX),
        json!(1e300),
        json!("text"),
        json!("-5ms"),
        json!("1e30Gbps"),
        json!([1, 2, 3]),
        json!([]),
        json!({"a": 1}),
        json!({}),
    ];
    let (mut tried, mut refused) = (0, 0);
    let mut offenders = Vec::new();
    for path in &paths {
        for v in &bad {
            let mut spec = full();
            set(&mut spec, path, v.clone());
            tried += 1;
            if let Err(e) = parse_spec_value(spec) {
                refused += 1;
                let text = e.to_string();
                if let Some(w) = rust_word_in(&text) {
                    offenders.push(format!("{} = {v}: {text}  [{w}]", show_path(path)));
                }
            }
        }
    }
    // Missing keys and unknown keys, at every level.
    for path in &paths {
        let mut spec = full();
        let (parent, last) = path.split_at(path.len() - 1);
        let mut node = &mut spec;
        for key in parent {
            node = match key {
                Value::Number(i) => &mut node[usize::try_from(i.as_u64().unwrap()).unwrap()],
                Value::String(k) => &mut node[k.as_str()],
                _ => unreachable!(),
            };
        }
        if let (Value::Object(m), Value::String(k)) = (node, &last[0]) {
            m.remove(k);
            m.insert(format!("{k}x"), json!(1));
            tried += 1;
            if let Err(e) = parse_spec_value(spec) {
                refused += 1;
                if let Some(w) = rust_word_in(&e.to_string()) {
                    offenders.push(format!("{} renamed: {e}  [{w}]", show_path(path)));
                }
            }
        }
    }
    assert!(
        tried > 1500 && refused > 1000,
        "tried {tried}, refused {refused}"
    );
    assert!(
        offenders.is_empty(),
        "{} messages speak Rust:\n{}",
        offenders.len(),
        offenders.join("\n")
    );
}

#[test]
fn every_refused_type_confusion_names_its_path() {
    let mut paths = Vec::new();
    walk(&full(), &mut Vec::new(), &mut paths);
    for path in &paths {
        for v in [json!(true), json!([1, 2, 3]), json!({"a": 1})] {
            let mut spec = full();
            set(&mut spec, path, v.clone());
            let want = show_path(path);
            match parse_spec_value(spec) {
                Ok(_) => {}
                // `between` is read whole: its items are reported at the list.
                Err(ScenarioError::Spec { path: at, message }) => assert!(
                    at == want
                        || at.starts_with(&format!("{want}."))
                        || at.starts_with(&format!("{want}["))
                        || (at.ends_with(".between") && want.starts_with(&format!("{at}["))),
                    "{want} = {v}: reported at {at}: {message}"
                ),
                Err(e) => panic!("{want} = {v}: {e}"),
            }
        }
    }
}

#[test]
fn toml_numbers_that_json_cannot_hold_name_their_path() {
    let (path, msg) = toml_err(&format!("[run]\nduration = \"5s\"\n{LINK}loss = nan\n"));
    assert_eq!(path, "links[0].loss");
    assert_eq!(msg, "expected a finite number, found NaN");
    let (path, msg) = toml_err(&format!(
        "[run]\nduration = \"5s\"\n{LINK}[links.queue]\nkind = \"red\"\nmin_th = inf\n"
    ));
    assert_eq!(path, "links[0].queue.min_th");
    assert_eq!(msg, "expected a finite number, found inf");
    let (path, msg) = toml_err(&format!("[run]\nduration = 1979-05-27T07:32:00Z\n{LINK}"));
    assert_eq!(path, "run.duration");
    assert!(msg.starts_with("a scenario holds no dates"), "{msg}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = format!("x = {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse_spec_toml(&text).is_err());
    let text = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse_spec_json(&text).is_err());
}

#[test]
fn unit_strings_from_programs_parse() {
    let mut spec = base();
    spec["links"][0]["rate"] = json!("1e3Mbps");
    spec["links"][0]["delay"] = json!("1e-3s");
    spec["links"][0]["queue"] = json!("1.5e2p");
    spec["links"].as_array_mut().unwrap().push(json!(
        {"between": ["d", "e"], "rate": "1.5e9bps", "delay": "1ms", "queue": "1.5e4B"}
    ));
    spec["flows"][0]["start"] = json!("0.30000000000000004s");
    spec["flows"][0]["initial_ssthresh"] = json!("6.4e4B");
    let s = parse_spec_value(spec).expect("valid");
    let canon: Value = serde_json::from_str(&s.canonical_json()).unwrap();
    assert_eq!(canon["links"][0]["rate"], "1Gbps");
    assert_eq!(canon["links"][0]["delay"], "1ms");
    assert_eq!(canon["links"][0]["queue"], "150p");
    assert_eq!(canon["links"][1]["rate"], "1500Mbps");
    assert_eq!(canon["links"][1]["queue"], "15kB");
    assert_eq!(canon["flows"][0]["start"], "300ms");
    assert_eq!(canon["flows"][0]["initial_ssthresh"], "64kB");
}

#[test]
fn unit_strings_say_negative_or_too_large() {
    let cases = [
        (
            &["links", "0", "delay"][..],
            "-5ms",
            "must not be negative, found \"-5ms\"",
        ),
        (
            &["links", "0", "rate"][..],
            "1e30Gbps",
            "\"1e30Gbps\" is too large: a rate is at most 18446744073709551615bps",
        ),
        (
            &["links", "0", "queue"][..],
            "-5p",
            "must not be negative, found \"-5p\"",
        ),
        (
            &["links", "0", "queue"][..],
            "1e30p",
            "\"1e30p\" is too large: a packet count is at most 18446744073709551615p",
        ),
        (
            &["links", "0", "queue"][..],
            "1e30GB",
            "\"1e30GB\" is too large: a size is at most 18446744073709551615B",
        ),
        (
            &["links", "0", "queue"][..],
            "2.5p",
            "\"2.5p\" is not a whole number of packets",
        ),
        (
            &["flows", "0", "size"][..],
            "-1kB",
            "must not be negative, found \"-1kB\"",
        ),
        (
            &["flows", "0", "initial_ssthresh"][..],
            "1e30GB",
            "\"1e30GB\" is too large",
        ),
        (
            &["flows", "0", "start"][..],
            "0.1ns",
            "\"0.1ns\" is finer than the resolution of a duration (1ns)",
        ),
    ];
    for (path, v, want) in cases {
        let (at, msg) = json_err(with(path, json!(v)));
        assert_eq!(at, path.join(".").replace(".0", "[0]"));
        assert!(msg.starts_with(want), "{at}: {msg}\n  wanted: {want}");
        assert!(!msg.contains("try"), "{msg}");
    }
}

#[test]
fn memory_sizing_keys_are_bounded_with_their_path() {
    let cases = [
        (
            with(&["flows", "0", "initial_window"], json!(1_000_000_000)),
            "flows[0].initial_window",
            "must be 1 to 100000 segments",
        ),
        (
            with(&["links", "0", "queue"], json!("1000001p")),
            "links[0].queue",
            "must be at most 1000000 packets",
        ),
        (
            with(&["links", "0", "queue"], json!("2GB")),
            "links[0].queue",
            "must be at most 1000000000 bytes",
        ),
        (
            with(
                &["links", "0", "queue"],
                json!({"kind": "red", "limit": "5000000p"}),
            ),
            "links[0].queue.limit",
            "must be at most 1000000 packets",
        ),
        (
            with(&["links", "0", "rate"], json!("1000Gbps")),
            "links[0].delay",
            "holds 1250000000 bytes in flight in each direction; at most 1000000000",
        ),
        (
            with(
                &["output"],
                json!({"interval": "1ms", "series": ["rate", "cwnd", "queue"]}),
            )
            .tap(|s| s["run"]["duration"] = json!("100000s")),
            "output.interval",
            "at most 10000000",
        ),
    ];
    for (spec, path, want) in cases {
        let (at, msg) = json_err(spec);
        assert_eq!(at, path, "{msg}");
        assert!(msg.contains(want), "{at}: {msg}\n  wanted: {want}");
    }
    // At the bounds: accepted.
    for spec in [
        with(&["flows", "0", "initial_window"], json!(100_000)),
        with(&["links", "0", "queue"], json!("1000000p")),
        with(&["links", "0", "queue"], json!("1GB")),
        with(&["links", "0", "rate"], json!("800Gbps")),
    ] {
        parse_spec_value(spec.clone()).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
}

trait Tap {
    fn tap(self, f: impl FnOnce(&mut Self)) -> Self;
}
impl Tap for Value {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}

#[test]
fn recorded_values_are_bounded_across_series() {
    // 2000 flows, rate and cwnd every 10 ms for 60 s: 6000 samples x 4000 values.
    let mut spec = base();
    spec["run"]["duration"] = json!("60s");
    let flows: Vec<Value> = (0..2000)
        .map(|i| json!({"name": format!("f{i}"), "protocol": "cbr", "from": "s", "to": "d", "rate": "1kbps"}))
        .collect();
    spec["flows"] = json!(flows);
    spec["output"] = json!({"interval": "10ms", "series": ["rate", "cwnd"]});
    let (at, msg) = json_err(spec.clone());
    assert_eq!(at, "output.series");
    assert!(
        msg.contains("make 24000000 values; at most 20000000"),
        "{msg}"
    );
    spec["output"]["interval"] = json!("20ms");
    parse_spec_value(spec).expect("12 000 000 values are within the bound");
}

#[test]
fn ticp_sources_are_bounded_across_sessions() {
    let session = |name: &str, n: u64, packets: u64| json!({"name": name, "collector": "s", "sources": {"d": n}, "report_packets": packets});
    let mut spec = base();
    spec["ticp"] = json!([session("a", 3_000_000, 1), session("b", 2_000_000, 1)]);
    let (at, msg) = json_err(spec.clone());
    assert_eq!(at, "ticp[1].sources");
    assert!(msg.contains("at most 4194304 in all"), "{msg}");
}

#[test]
fn ticp_products_that_overflow_64_bits_are_refused_without_a_panic() {
    // 2 x (2^32 - 1) sources of 2^32 - 1 packets each, and (2^64 - 1) B x (2^32 - 1) messages,
    // overflow u64 (a panic with overflow checks, a wrapped product without).
    let mut spec = base();
    spec["ticp"] = json!([{"name": "a", "collector": "s", "report_packets": 4_294_967_295u64,
                          "sources": {"d": 4_294_967_295u64, "s": 4_294_967_295u64}}]);
    let r = std::panic::catch_unwind(|| parse_spec_value(spec.clone()).map(|_| ()));
    let (at, _) = match r {
        Ok(Err(ScenarioError::Spec { path, message })) => (path, message),
        other => panic!("expected a spec error, found {other:?}"),
    };
    assert_eq!(at, "ticp[0].sources");
    spec["ticp"] = json!([{"name": "a", "collector": "s", "sources": {"d": 1}, "rs": 4_294_967_295u64,
                          "request_size": "18446744073709551615B"}]);
    let r = std::panic::catch_unwind(|| parse_spec_value(spec.clone()).map(|_| ()));
    let (at, msg) = match r {
        Ok(Err(ScenarioError::Spec { path, message })) => (path, message),
        other => panic!("expected a spec error, found {other:?}"),
    };
    assert_eq!(at, "ticp[0].request_size", "{msg}");
}

#[test]
fn a_cbr_rate_is_at_most_one_packet_per_nanosecond() {
    let mut spec = base();
    spec["flows"] =
        json!([{"name": "u", "protocol": "cbr", "from": "s", "to": "d", "rate": "10000000Gbps"}]);
    let (at, msg) = json_err(spec.clone());
    assert_eq!(at, "flows[0].rate");
    assert!(
        msg.starts_with(
            "must be at most one packet per nanosecond (8000000000000bps with \"1kB\" packets)"
        ),
        "{msg}"
    );
    spec["flows"][0]["rate"] = json!("8000Gbps");
    parse_spec_value(spec).expect("one packet per nanosecond");
}

#[test]
fn toml_syntax_errors_are_one_line_in_plain_words() {
    for (body, want) in [
        ("seed = 1_", "\"_\" may only go between digits"),
        (
            "seed = 99999999999999999999",
            "a number too large for TOML (whole numbers are at most 9223372036854775807)",
        ),
        ("seed = 1\nseed = 2", "duplicate key \"seed\""),
        (
            "seed = -99999999999999999999",
            "a number too small for TOML (whole numbers are at least -9223372036854775808)",
        ),
    ] {
        let text = format!("[run]\nduration = \"5s\"\n{body}\n{LINK}");
        match parse_spec_toml(&text) {
            Err(ScenarioError::Syntax { message, .. }) => {
                assert_eq!(message, want);
                assert!(
                    !message.contains('\n') && rust_word_in(&message).is_none(),
                    "{message}"
                );
            }
            other => panic!("{body}: {other:?}"),
        }
    }
}

#[test]
fn json_refuses_a_key_given_twice_and_ignores_a_byte_order_mark() {
    let twice = r#"{"run": {"duration": "1s", "duration": "2s"},
        "links": [{"between": ["a", "b"], "rate": "1Mbps", "delay": "1ms"}]}"#;
    let e = ccsim_scenario::parse_spec_json(twice)
        .unwrap_err()
        .to_string();
    assert!(e.contains(r#"the key "duration" appears twice"#), "{e}");
    let once = twice.replace(r#", "duration": "2s""#, "");
    let with_bom = format!("\u{feff}{once}");
    let spec =
        ccsim_scenario::parse_spec_json(&with_bom).expect("a BOM is not part of the document");
    assert_eq!(spec.run.duration.0 .0, 1_000_000_000);
}

#[test]
fn rate_based_rate_bounds_are_at_most_one_packet_per_nanosecond() {
    for key in ["min_rate", "max_rate"] {
        let spec = serde_json::json!({
            "run": {"duration": "1s"},
            "links": [{"between": ["a", "b"], "rate": "10Mbps", "delay": "5ms"}],
            "flows": [{"name": "t", "protocol": "tfrc", "from": "a", "to": "b", key: "1e18bps"}],
        });
        let e = ccsim_scenario::parse_spec_value(spec)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "flows[0].{key}: must be at most one packet per nanosecond"
            )),
            "{e}"
        );
    }
}
