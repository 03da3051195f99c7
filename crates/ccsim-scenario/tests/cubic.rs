//! CUBIC and HyStart in whole scenarios, against closed forms: the response function of RFC
//! 9438 section 5.1 under deterministic periodic loss, and HyStart's slow-start exit on a
//! clean path against the bandwidth-delay product.

use crate::common;

use common::{run_spec, spec};
use serde_json::{json, Value};

/// One flow over s -(10 Gbps, 1 ms)- r -(`rate`, `delay`)- d -(10 Gbps)- ... with `flow` keys.
fn path(rate: &str, delay: &str, queue: &str, duration: &str, flow: Value) -> Value {
    let mut f = json!({"name": "f", "protocol": "cubic", "from": "s", "to": "d"});
    for (k, v) in flow.as_object().expect("flow keys") {
        f[k] = v.clone();
    }
    json!({
        "run": {"duration": duration, "seed": 1},
        "links": [
            {"between": ["s", "r"], "rate": "10Gbps", "delay": "1ms", "queue": "100000p"},
            {"between": ["r", "d"], "rate": rate, "delay": delay, "queue": queue},
        ],
        "flows": [f],
    })
}

/// RFC 9438 section 5.1: CUBIC's average window under a loss rate `p` at round trip `rtt`,
/// (C (3 + beta) / (4 (1 - beta)))^(1/4) RTT^(3/4) / p^(3/4) segments, with C = 0.4 and beta
/// = 0.7 (1.0538 x RTT^(3/4) / p^(3/4)).
fn rfc_average_window(p: f64, rtt: f64) -> f64 {
    let (c, beta) = (0.4_f64, 0.7_f64);
    (c * (3.0 + beta) / (4.0 * (1.0 - beta))).powf(0.25) * rtt.powf(0.75) / p.powf(0.75)
}

/// The average window (segments of 1000 B) of one CUBIC flow over 100 ms of propagation
/// with the bottleneck's loss `link_loss` (random) or `drops` (segment numbers), from the
/// warm-up to the end: goodput x RTT / MSS. The link is fast and its queue deep, so the
/// losses are the only ones and the RTT stays 2 x (1 + 49) ms.
fn average_window(duration: &str, link_loss: f64, drops: &[u64], cubic: Value) -> f64 {
    let mut s = path(
        "10Gbps",
        "49ms",
        "100000p",
        duration,
        json!({"packet_size": "1040B", "cubic": cubic}),
    );
    s["run"]["warmup"] = json!("200s");
    if link_loss > 0.0 {
        s["links"][1]["loss"] = json!(link_loss);
    }
    if !drops.is_empty() {
        s["drops"] = json!([{"flow": "f", "link": "r->d", "seqs": drops}]);
    }
    let out = run_spec(&spec(s));
    out.summary.flows["f"].goodput_bps / 8.0 * 0.1 / 1000.0
}

#[test]
fn the_average_window_scales_as_rfc_9438s_response_function() {
    // Section 5.1: the window goes as p^(-3/4) in the cubic region (where it exceeds the
    // Reno-friendly sqrt(3 / (2 p)): 187 against 122 segments at p = 1e-4). A loss every
    // 10 000 and every 33 333 segments on the same path: the windows in the ratio
    // (10/3)^(3/4) = 2.466, each above the closed form by the plateau of the next test.
    let every = |n: u64, count: u64| (1..=count).map(|k| k * n).collect::<Vec<u64>>();
    let w1 = average_window("500s", 0.0, &every(10_000, 200), json!({}));
    let w2 = average_window("600s", 0.0, &every(33_333, 150), json!({}));
    let expected = (10.0_f64 / 3.0).powf(0.75);
    assert!(
        ((w2 / w1) / expected - 1.0).abs() < 0.05,
        "{w1:.1} and {w2:.1} segments: ratio {:.3} against {expected:.3}",
        w2 / w1
    );
    for (p, w) in [(1e-4, w1), (3e-5, w2)] {
        let ratio = w / rfc_average_window(p, 0.1);
        assert!(
            (1.0..1.3).contains(&ratio),
            "p = {p}: {w:.1} segments, {ratio:.3} of RFC 9438's"
        );
        assert!(w > (3.0 / (2.0 * p)).sqrt(), "in the cubic region");
    }
}

// Linux's integer arithmetic keeps the window on a plateau: once the target is within a
// segment of W_max, cnt = cwnd / (target - cwnd) becomes 100 cwnd (tcp_cubic.c's "very small
// increment"), so the window sits at W_max for the last second or so before K, and a loss that
// comes there leaves W_max where it was. Under a loss every 10 000 segments at a 100 ms RTT
// (with fast convergence off, so that nothing else moves W_max) the run settles at W_max =
// 252 segments, reached at 176 + 76 within 4.4 s of each loss where K = cbrt(76 / 0.4) = 5.75
// s: the loss comes on the plateau 1.3 s before K. RFC 9438's model has the loss at K, where
// the window first reaches W_max, which gives W_max = 203 and an average of 187; the run's
// average is 228 (217 with fast convergence), and random loss gives 1.18 times the model at
// every p (previous test).
#[test]
#[should_panic(expected = "of RFC 9438's response function")]
fn the_average_window_under_periodic_loss_is_within_5_percent_of_rfc_9438() {
    let drops: Vec<u64> = (1..=150).map(|k| k * 10_000).collect();
    let window = average_window("400s", 0.0, &drops, json!({"fast_convergence": false}));
    let model = rfc_average_window(1e-4, 0.1);
    assert!(
        (1.1..1.3).contains(&(window / model)),
        "the plateau's measured effect: {window:.1} against {model:.1}"
    );
    assert!(
        (window / model - 1.0).abs() < 0.05,
        "average window {window:.1} segments, {:.3} of RFC 9438's response function ({model:.1})",
        window / model
    );
}

/// The first finite ssthresh of flow `f` (bytes), where slow start first ended, and when.
fn first_exit(out: &ccsim_scenario::RunOutcome) -> Option<(f64, f64)> {
    let t = &out.trace;
    let e = out.entity_names.iter().position(|n| *n == "f")?;
    let v = out.var_names.iter().position(|n| *n == "ssthresh:change")?;
    (0..t.len())
        .filter(|&i| t.entity[i] as usize == e && t.var[i] as usize == v && t.value[i].is_finite())
        .map(|i| (t.time_ns[i] as f64 / 1e9, t.value[i]))
        .next()
}

/// When flow `f` first entered fast recovery (ca_state 2), seconds.
fn first_recovery(out: &ccsim_scenario::RunOutcome) -> Option<f64> {
    let t = &out.trace;
    let v = out.var_names.iter().position(|n| *n == "ca_state:change")?;
    (0..t.len())
        .find(|&i| t.var[i] as usize == v && t.value[i] == 2.0)
        .map(|i| t.time_ns[i] as f64 / 1e9)
}

#[test]
fn hystart_leaves_slow_start_near_the_bandwidth_delay_product() {
    // 100 Mbps x 40 ms round trip: the path holds 481 packets of 1040 B; the buffer holds 481
    // more. Without HyStart slow start runs until the buffer overflows and a loss ends it;
    // Linux's HyStart ends it on its ACK-train or delay test near the path's packets, before
    // any loss (Ha and Rhee, "Taming the elephants", the exit close to the BDP), and RFC
    // 9406's HyStart++ after its Conservative Slow Start, also before any loss. (CUBIC's
    // growth after the exit fills the buffer later in the run: only slow start is judged.)
    let run = |hystart: &str| {
        let mut s = path(
            "100Mbps",
            "19ms",
            "481p",
            "3s",
            json!({"packet_size": "1040B", "hystart": hystart, "initial_window": 10}),
        );
        s["output"] = json!({"series": [], "trace": ["ssthresh", "ca_state"]});
        let out = run_spec(&spec(s));
        let exit = first_exit(&out).map(|(t, bytes)| (t, bytes / 1000.0));
        (exit, first_recovery(&out))
    };
    let path_packets = 481.0;
    let ((at, cwnd), loss) = match run("linux") {
        (Some(exit), loss) => (exit, loss),
        (None, _) => panic!("HyStart never ended slow start"),
    };
    assert!(
        loss.is_none_or(|l| l > at),
        "a loss at {loss:?} s before HyStart's exit at {at} s"
    );
    assert!(
        (0.5 * path_packets..=1.2 * path_packets).contains(&cwnd),
        "HyStart ended slow start at {cwnd} segments; the path holds {path_packets}"
    );
    let (plain, plain_loss) = run("off");
    let (at_off, cwnd_off) = plain.expect("a loss ended slow start");
    assert!(
        plain_loss.is_some_and(|l| (l - at_off).abs() < 1e-9),
        "off: slow start ended by a loss"
    );
    assert!(cwnd_off > cwnd, "{cwnd_off} {cwnd}");
    // HyStart++ enters CSS when a round's smallest RTT rises, which in a doubling slow start
    // shows only once the queue outlasts a round: with a buffer of one path, the round that
    // would show it overflows first and HyStart++ runs as plain slow start (its first loss at
    // the same instant). With four paths of buffer it enters CSS, grows a quarter as fast, and
    // its first loss comes later than plain slow start's, or never in the run.
    for (queue, later) in [("481p", false), ("1924p", true)] {
        let run_q = |hystart: &str| {
            let mut s = path(
                "100Mbps",
                "19ms",
                queue,
                "3s",
                json!({"packet_size": "1040B", "hystart": hystart, "initial_window": 10}),
            );
            s["output"] = json!({"series": [], "trace": ["ssthresh", "ca_state"]});
            first_recovery(&run_spec(&spec(s)))
        };
        let plain = run_q("off").expect("plain slow start overflows");
        let pp = run_q("rfc9406");
        if later {
            assert!(
                pp.is_none_or(|t| t > plain + 0.04),
                "{queue}: {pp:?} against {plain}"
            );
        } else {
            assert_eq!(pp, Some(plain), "{queue}");
        }
    }
}
