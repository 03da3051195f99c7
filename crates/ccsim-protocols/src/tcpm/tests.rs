//! TCP-M's parts as state machines, each expected output worked by hand from the paper:
//! Figure 4 (fresh ACKs, duplicates), Figure 6 (a dead child releases the minimum), section
//! 4.1 (set-up and its failure reports), section 4.4 (tear-down).

use ccsim_core::{Addr, Agent, Ctx, Dur, Ecn, FlowId, Header, Packet, SimTime, TimerSlot};

use super::*;
use crate::testing::MockCtx;
use crate::{Hdr, SackBlock, SackBlocks, TcpConfig, TcpSender, TcpSink};

const GROUP: u32 = 7;
const A: Addr = Addr { node: 1, agent: 1 };
const B: Addr = Addr { node: 2, agent: 2 };
const C: Addr = Addr { node: 3, agent: 3 };
const PARENT: Addr = Addr { node: 9, agent: 9 };

fn secs(x: f64) -> SimTime {
    SimTime((x * 1e9) as u64)
}

fn table_with(children: &[Addr]) -> FusionTable {
    let mut t = FusionTable::new(5, Dur::from_secs(2));
    for &c in children {
        assert!(t.on_reverse_path(c, SimTime::ZERO));
    }
    t
}

fn acked(sent: Option<Sent>) -> Option<u64> {
    sent.map(|s| s.ack)
}

#[test]
fn a_fresh_ack_goes_up_only_when_the_minimum_rises() {
    let mut t = table_with(&[A, B]);
    // Seq = [-1, -1]: A's ACK 3 leaves the minimum at -1.
    assert_eq!(acked(t.on_ack(A, 3, false, None)), None);
    // B's 2: the minimum is 2 > last_acked (-1): fresh.
    assert_eq!(acked(t.on_ack(B, 2, false, None)), Some(2));
    // A's 4: fresh for A (duplicate = 0) but the minimum stays 2: nothing.
    assert_eq!(acked(t.on_ack(A, 4, false, None)), None);
    assert_eq!(acked(t.on_ack(B, 4, false, None)), Some(4));
    assert_eq!(t.last_acked(), Some(4));
    assert_eq!(t.ack_counts(), (4, 2));
}

#[test]
fn duplicates_pass_up_to_max_duplicate_and_no_more() {
    let mut t = table_with(&[A, B]);
    t.on_ack(A, 4, false, None);
    assert_eq!(acked(t.on_ack(B, 4, false, None)), Some(4));
    // Segment 4 is lost: every child repeats 4. Duplicates 1..=5 go up, the sixth does not.
    let mut passed = 0;
    for (i, child) in [A, B, A, B, A, B, A].into_iter().enumerate() {
        let sent = t.on_ack(child, 4, false, None);
        assert_eq!(t.duplicate(), u32::try_from(i + 1).unwrap());
        if let Some(s) = sent {
            assert_eq!(s.ack, 4);
            passed += 1;
        }
    }
    assert_eq!(passed, 5);
    // A fresh ACK from B resets the counter but the minimum (A at 4) holds: nothing.
    assert_eq!(acked(t.on_ack(B, 9, false, None)), None);
    assert_eq!(t.duplicate(), 0);
    // Now A's duplicate 4 is the first of a new run: it goes up.
    assert_eq!(acked(t.on_ack(A, 4, false, None)), Some(4));
    assert_eq!(acked(t.on_ack(A, 9, false, None)), Some(9));
}

#[test]
fn a_dead_child_releases_the_minimum_and_a_late_reverse_path_revives_it() {
    let mut t = table_with(&[A, B]);
    t.on_ack(A, 10, false, None);
    assert_eq!(acked(t.on_ack(B, 5, false, None)), Some(5));
    // A keeps sending REVERSE_PATH; B's last was at 0, so its timer expires at 2 s.
    t.on_reverse_path(A, secs(1.5));
    assert_eq!(t.next_deadline(), Some(secs(2.0)));
    let (dead, sent) = t.expire(secs(1.9));
    assert!(dead.is_empty() && sent.is_none());
    let (dead, sent) = t.expire(secs(2.0));
    assert_eq!(dead, vec![B]);
    assert_eq!(
        acked(sent),
        Some(10),
        "the minimum over live children is A's 10"
    );
    assert_eq!(t.alive_children(), 1);
    assert_eq!(t.next_deadline(), Some(secs(3.5)));
    // B's REVERSE_PATH arrives late: alive again, but it lacks segments 5..10, which the
    // sender will not send again, so it counts only once it has caught up.
    assert!(!t.on_reverse_path(B, secs(3.0)));
    assert_eq!(t.alive_children(), 2);
    assert_eq!(acked(t.on_ack(A, 12, false, None)), Some(12));
    assert_eq!(acked(t.on_ack(B, 5, false, None)), None);
    assert_eq!(
        acked(t.on_ack(B, 12, false, None)),
        None,
        "caught up, counted again"
    );
    assert_eq!(
        acked(t.on_ack(A, 13, false, None)),
        None,
        "B holds the minimum at 12"
    );
    assert_eq!(acked(t.on_ack(B, 13, false, None)), Some(13));
}

#[test]
fn acks_from_hosts_without_reverse_path_are_ignored() {
    let mut t = table_with(&[A]);
    assert_eq!(acked(t.on_ack(C, 3, false, None)), None);
    assert_eq!(t.ack_counts(), (0, 0));
    assert_eq!(acked(t.on_ack(A, 3, false, None)), Some(3));
}

#[test]
fn fused_sack_blocks_are_what_every_child_holds() {
    let mut t = table_with(&[A, B, C]);
    let blocks = |b: &[(u64, u64)]| {
        SackBlocks::new(
            &b.iter()
                .map(|&(start, end)| SackBlock { start, end })
                .collect::<Vec<_>>(),
        )
    };
    t.on_ack(A, 5, false, Some(&blocks(&[(7, 9)])));
    t.on_ack(C, 12, false, None);
    let s = t
        .on_ack(B, 5, false, Some(&blocks(&[(8, 10), (11, 13)])))
        .unwrap();
    assert_eq!(s.ack, 5);
    // A holds 7..9, B 8..10 and 11..13, C everything below 12: together only 8.
    assert_eq!(
        s.sack.unwrap().as_slice(),
        &[SackBlock { start: 8, end: 9 }]
    );
    // A child at the minimum with no blocks: the fused ACK carries none.
    let mut t = table_with(&[A, B]);
    t.on_ack(A, 5, false, Some(&blocks(&[(7, 9)])));
    assert!(t.on_ack(B, 5, false, None).unwrap().sack.is_none());
}

#[test]
fn fin_ack_goes_up_once_every_child_has_sent_one() {
    let mut t = table_with(&[A, B]);
    t.on_ack(A, 3, false, None);
    t.on_ack(B, 3, false, None);
    assert!(!t.on_fin_ack(A));
    assert!(t.on_fin_ack(B));
    assert!(t.on_fin_ack(B), "a repeated FIN_ACK is passed on again");
    assert!(!t.on_fin_ack(C), "unknown host");
}

#[test]
fn memory_is_three_words_per_child_and_three() {
    let t = table_with(&[A, B, C]);
    assert_eq!(t.children(), 3);
    assert_eq!(t.memory_words(), 12);
}

fn path(about: Addr) -> Packet<Hdr> {
    Packet {
        src: Addr {
            node: 0,
            agent: 100,
        },
        dst: Addr::group(GROUP),
        flow: FlowId(4),
        size: CONTROL_BYTES,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpmControl {
            kind: TcpmKind::Path,
            about,
            value: 0,
        },
    }
}

fn from(src: Addr, header: Hdr) -> Packet<Hdr> {
    Packet {
        src,
        dst: Addr::default(),
        flow: FlowId(4),
        size: 40,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header,
    }
}

fn kind_of(p: &Packet<Hdr>) -> Option<(TcpmKind, Addr)> {
    match p.header {
        Hdr::TcpmControl { kind, about, .. } => Some((kind, about)),
        _ => None,
    }
}

#[test]
fn a_fusion_node_rewrites_path_and_forwards_reverse_path_and_fused_acks() {
    let mut n = FusionNode::new(FlowId(4), GROUP, &TcpmParams::default());
    let mut ctx = MockCtx::new();
    n.on_packet(&path(PARENT), &mut ctx);
    assert_eq!(n.parent(), Some(PARENT));
    let relayed = std::mem::take(&mut ctx.relayed);
    assert_eq!(relayed.len(), 1);
    assert_eq!(relayed[0].dst, Addr::group(GROUP));
    assert_eq!(
        relayed[0].src,
        Addr {
            node: 0,
            agent: 100
        },
        "the source is kept"
    );
    assert_eq!(kind_of(&relayed[0]), Some((TcpmKind::Path, ctx.addr())));
    // A REVERSE_PATH from child A about receiver C goes to the parent, still about C.
    ctx.now = secs(0.5);
    let rp = Hdr::TcpmControl {
        kind: TcpmKind::ReversePath,
        about: C,
        value: 0,
    };
    n.on_packet(&from(A, rp), &mut ctx);
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].dst, PARENT);
    assert_eq!(kind_of(&out[0]), Some((TcpmKind::ReversePath, C)));
    assert_eq!(ctx.timers[0], Some(secs(2.5)));
    // Its only child's ACK goes up as a 60-byte encapsulated ACK.
    let ack = Hdr::TcpmAck {
        ack: 7,
        ece: true,
        sack: None,
    };
    n.on_packet(&from(A, ack), &mut ctx);
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].dst, PARENT);
    assert_eq!(out[0].size, 60);
    assert!(matches!(
        out[0].header,
        Hdr::TcpmAck {
            ack: 7,
            ece: true,
            ..
        }
    ));
    // At 2.5 s A is dead: the node notes it and has nothing to send.
    ctx.now = secs(2.5);
    n.on_timer(TimerSlot(0), &mut ctx);
    assert_eq!(n.deaths(), &[(A, secs(2.5))]);
    assert!(ctx.drain().is_empty());
    assert_eq!(ctx.timers[0], None);
}

fn data(seq: u64) -> Packet<Hdr> {
    Packet {
        src: Addr {
            node: 0,
            agent: 100,
        },
        dst: Addr::group(GROUP),
        flow: FlowId(4),
        size: 1000,
        sent_at: SimTime::ZERO,
        ecn: Ecn::NotEct,
        header: Hdr::TcpData {
            seq,
            payload: 960,
            retx: false,
            cwr: false,
            psh: false,
        },
    }
}

#[test]
fn a_receiver_joins_reports_its_path_acks_to_its_parent_and_closes() {
    let source = Addr {
        node: 0,
        agent: 100,
    };
    let mut r = TcpmReceiver::new(FlowId(4), GROUP, Dur::from_secs(1), TcpSink::new(None));
    let mut ctx = MockCtx::new();
    // Data before PATH: no parent, no ACK.
    r.on_packet(&data(0), &mut ctx);
    assert!(ctx.drain().is_empty());
    r.on_packet(
        &from(
            source,
            Hdr::TcpmControl {
                kind: TcpmKind::JoinRequest,
                about: Addr::default(),
                value: 0,
            },
        ),
        &mut ctx,
    );
    assert_eq!(ctx.groups, vec![GROUP]);
    let out = ctx.drain();
    assert_eq!(
        (out[0].dst, kind_of(&out[0]).unwrap().0),
        (source, TcpmKind::JoinAck)
    );
    ctx.now = secs(0.1);
    r.on_packet(&path(PARENT), &mut ctx);
    let out = ctx.drain();
    assert_eq!(out[0].dst, PARENT);
    assert_eq!(kind_of(&out[0]), Some((TcpmKind::ReversePath, ctx.addr())));
    assert_eq!(ctx.timers[1], Some(secs(1.1)));
    ctx.now = secs(1.1);
    r.on_timer(TimerSlot(1), &mut ctx);
    assert_eq!(kind_of(&ctx.drain()[0]).unwrap().0, TcpmKind::ReversePath);
    assert_eq!(ctx.timers[1], Some(secs(2.1)));
    r.on_packet(&data(1), &mut ctx);
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].dst, PARENT);
    assert_eq!(out[0].size, 60, "a 40-byte ACK in a 20-byte outer header");
    assert!(matches!(out[0].header, Hdr::TcpmAck { ack: 2, .. }));
    assert_eq!(r.acks_sent(), 1);
    r.on_packet(
        &from(
            source,
            Hdr::TcpmControl {
                kind: TcpmKind::Fin,
                about: Addr::default(),
                value: 0,
            },
        ),
        &mut ctx,
    );
    assert!(ctx.groups.is_empty(), "left the group");
    let out: Vec<_> = ctx
        .drain()
        .iter()
        .map(|p| (p.dst, kind_of(p).unwrap().0))
        .collect();
    assert_eq!(
        out,
        vec![(PARENT, TcpmKind::FinAck), (source, TcpmKind::Close)]
    );
    assert_eq!(ctx.timers[1], None);
}

const R1: Addr = Addr { node: 5, agent: 11 };
const R2: Addr = Addr { node: 6, agent: 12 };

fn source(size: Option<u64>) -> TcpmSource {
    let cfg = TcpConfig {
        size,
        ..TcpConfig::default()
    };
    let tcp = TcpSender::new(FlowId(4), Addr::group(GROUP), &cfg);
    TcpmSource::new(
        FlowId(4),
        GROUP,
        TcpmParams::default(),
        tcp,
        (1000, size),
        vec![R1, R2],
    )
}

fn control_from(src: Addr, kind: TcpmKind, about: Addr) -> Packet<Hdr> {
    from(
        src,
        Hdr::TcpmControl {
            kind,
            about,
            value: 0,
        },
    )
}

#[test]
fn set_up_retries_join_then_reports_the_silent_receiver_and_starts_without_it() {
    let mut s = source(None);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    let out: Vec<_> = ctx
        .drain()
        .iter()
        .map(|p| (p.dst, kind_of(p).unwrap().0))
        .collect();
    assert_eq!(
        out,
        vec![(R1, TcpmKind::JoinRequest), (R2, TcpmKind::JoinRequest)]
    );
    assert_eq!(ctx.timers[2], Some(secs(1.0)));
    s.on_packet(
        &control_from(R1, TcpmKind::JoinAck, Addr::default()),
        &mut ctx,
    );
    assert!(ctx.drain().is_empty(), "still waiting for R2");
    // JOIN_TMOUT three times: R2 is asked again each time; the fourth expiry gives up on it.
    for k in 1..=3 {
        ctx.now = secs(f64::from(k));
        s.on_timer(TimerSlot(2), &mut ctx);
        let out: Vec<_> = ctx.drain().iter().map(|p| p.dst).collect();
        assert_eq!(out, vec![R2]);
    }
    ctx.now = secs(4.0);
    s.on_timer(TimerSlot(2), &mut ctx);
    assert_eq!(s.failures().len(), 1);
    assert_eq!(s.failures()[0].receiver, 1);
    assert_eq!(s.failures()[0].stage, FailureStage::Join);
    assert_eq!(s.failures()[0].at, secs(4.0));
    let out = ctx.drain();
    assert_eq!(out[0].dst, Addr::group(GROUP));
    assert_eq!(kind_of(&out[0]), Some((TcpmKind::Path, ctx.addr())));
    // R1's REVERSE_PATH, through fusion node PARENT: the data phase begins.
    ctx.now = secs(4.1);
    s.on_packet(&control_from(PARENT, TcpmKind::ReversePath, R1), &mut ctx);
    assert_eq!(s.data_start(), Some(secs(4.1)));
    let out = ctx.drain();
    assert_eq!(out.len(), 2, "the initial window of two segments");
    assert!(out
        .iter()
        .all(|p| p.dst == Addr::group(GROUP) && p.header.is_data()));
    // PARENT's fused ACK reaches the TCP: acknowledged bytes rise.
    s.on_packet(
        &from(
            PARENT,
            Hdr::TcpmAck {
                ack: 2,
                ece: false,
                sack: None,
            },
        ),
        &mut ctx,
    );
    assert_eq!(s.acked_bytes(), 2 * 960);
    assert_eq!(s.ack_counts(), (1, 1));
}

#[test]
fn a_receiver_silent_for_tcpm_timeout_is_reported_failed() {
    let mut s = source(None);
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    s.on_packet(
        &control_from(R1, TcpmKind::JoinAck, Addr::default()),
        &mut ctx,
    );
    s.on_packet(
        &control_from(R2, TcpmKind::JoinAck, Addr::default()),
        &mut ctx,
    );
    ctx.now = secs(0.1);
    s.on_packet(&control_from(PARENT, TcpmKind::ReversePath, R1), &mut ctx);
    assert_eq!(s.data_start(), None);
    s.on_packet(&control_from(PARENT, TcpmKind::ReversePath, R2), &mut ctx);
    assert_eq!(s.data_start(), Some(secs(0.1)));
    // R1 keeps reporting, R2 falls silent: at 2.1 s it is failed.
    ctx.now = secs(1.1);
    s.on_packet(&control_from(PARENT, TcpmKind::ReversePath, R1), &mut ctx);
    assert_eq!(ctx.timers[3], Some(secs(2.1)));
    ctx.now = secs(2.1);
    s.on_timer(TimerSlot(3), &mut ctx);
    assert_eq!(s.failures().len(), 1);
    assert_eq!(
        (s.failures()[0].receiver, s.failures()[0].stage),
        (1, FailureStage::Timeout)
    );
    assert_eq!(
        s.receiver_states(),
        vec![(true, false, false), (true, false, true)]
    );
    // Its REVERSE_PATH comes back: recorded as a revival.
    ctx.now = secs(2.5);
    s.on_packet(&control_from(PARENT, TcpmKind::ReversePath, R2), &mut ctx);
    assert_eq!(s.failures()[0].revived_at, Some(secs(2.5)));
    assert_eq!(s.receiver_states()[1], (true, false, false));
}

#[test]
fn a_finite_transfer_ends_with_fin_fused_fin_ack_and_close() {
    let mut s = source(Some(960));
    let mut ctx = MockCtx::new();
    s.on_start(&mut ctx);
    for r in [R1, R2] {
        s.on_packet(
            &control_from(r, TcpmKind::JoinAck, Addr::default()),
            &mut ctx,
        );
    }
    for r in [R1, R2] {
        s.on_packet(&control_from(PARENT, TcpmKind::ReversePath, r), &mut ctx);
    }
    ctx.drain();
    ctx.now = secs(0.2);
    s.on_packet(
        &from(
            PARENT,
            Hdr::TcpmAck {
                ack: 1,
                ece: false,
                sack: None,
            },
        ),
        &mut ctx,
    );
    assert_eq!(s.data_done(), Some(secs(0.2)));
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(kind_of(&out[0]).unwrap().0, TcpmKind::Fin);
    assert_eq!(out[0].dst, Addr::group(GROUP));
    let close = |who: Addr, has: u64| {
        from(
            who,
            Hdr::TcpmControl {
                kind: TcpmKind::Close,
                about: who,
                value: has,
            },
        )
    };
    // FIN names the transfer's one segment; R2 closes without it (it lacks data), R1 with it.
    assert!(matches!(out[0].header, Hdr::TcpmControl { value: 1, .. }));
    s.on_packet(&close(R2, 0), &mut ctx);
    s.on_packet(&close(R1, 1), &mut ctx);
    ctx.now = secs(0.3);
    s.on_packet(
        &control_from(PARENT, TcpmKind::FinAck, Addr::default()),
        &mut ctx,
    );
    assert_eq!(s.closed_at(), Some(secs(0.3)));
    assert_eq!(
        s.receiver_states(),
        vec![(true, true, false), (true, false, false)]
    );
    assert_eq!(s.acked_bytes(), 960);
}

/// Figures 4 and 6 written the plain way, scanning every child per input: the indexed table
/// must decide exactly as it does.
#[derive(Default)]
struct PlainTable {
    children: Vec<(Addr, Option<u64>, bool, bool, SimTime, bool)>, // addr, seq, alive, counted, deadline, fin
    /// Duplicates each child sent at its current seq.
    dups: Vec<u32>,
    duplicate: u32,
    forwarded: u32,
    fused: bool,
    last: Option<u64>,
}

impl PlainTable {
    fn send(&mut self) -> Option<u64> {
        let mut temp: Option<u64> = None;
        for c in self.children.iter().filter(|c| c.3) {
            let s = c.1?;
            temp = Some(temp.map_or(s, |t: u64| t.min(s)));
        }
        let temp = temp?;
        if self.fused {
            let mut copies = 0;
            if self.last.is_none_or(|l| temp > l) {
                (self.last, self.forwarded, copies) = (Some(temp), 0, 1);
            }
            let fewest = (0..self.children.len())
                .filter(|&i| self.children[i].3 && self.children[i].1 == Some(temp))
                .map(|i| self.dups[i])
                .min()
                .unwrap_or(0)
                .min(5);
            if fewest > self.forwarded {
                copies += fewest - self.forwarded;
                self.forwarded = fewest;
            }
            return (copies > 0).then_some(temp * 100 + u64::from(copies));
        }
        if self.last.is_none_or(|l| temp > l) || (self.duplicate > 0 && self.duplicate <= 5) {
            self.last = Some(temp);
            return Some(temp * 100 + 1);
        }
        None
    }
}

#[test]
fn the_indexed_table_decides_as_the_plain_scan_of_figures_4_and_6() {
    model_run(DuplicateRule::Figure4);
}

#[test]
fn the_indexed_fused_rule_decides_as_a_plain_scan() {
    model_run(DuplicateRule::Fused);
}

fn model_run(rule: DuplicateRule) {
    let mut rng = ccsim_core::RngStream::new(11, "fusion-model");
    let mut table = FusionTable::new(5, Dur::from_secs(2)).with_rule(rule);
    let mut plain = PlainTable {
        fused: rule == DuplicateRule::Fused,
        ..PlainTable::default()
    };
    let hosts: Vec<Addr> = (0..12)
        .map(|i| Addr {
            node: i % 5,
            agent: i,
        })
        .collect();
    let mut now = SimTime::ZERO;
    let mut sent = 0;
    for _ in 0..50_000 {
        now = now + Dur::from_millis(1 + (rng.uniform() * 50.0) as u64);
        let child = hosts[(rng.uniform() * hosts.len() as f64) as usize];
        let draw = rng.uniform();
        if draw < 0.15 {
            let new = table.on_reverse_path(child, now);
            let deadline = now + Dur::from_secs(2);
            let counted_new = plain.last.is_none();
            match plain.children.iter_mut().find(|c| c.0 == child) {
                Some(c) => {
                    assert!(!new);
                    c.4 = deadline;
                    if !c.2 {
                        (c.2, c.3, c.5) = (true, false, false);
                    }
                }
                None => {
                    assert!(new);
                    plain
                        .children
                        .push((child, None, true, counted_new, deadline, false));
                    plain.dups.push(0);
                }
            }
        } else if draw < 0.9 {
            // ACKs mostly creep forward, sometimes repeat.
            let base = plain.last.unwrap_or(0);
            let ack = base + (rng.uniform() * 4.0) as u64;
            let got = table
                .on_ack(child, ack, false, None)
                .map(|s| s.ack * 100 + u64::from(s.copies));
            let last = plain.last;
            let at = plain.children.iter().position(|c| c.0 == child);
            let want = match at.map(|i| (i, &mut plain.children[i])) {
                None => None,
                Some((i, c)) => {
                    let fresh = c.1.is_none_or(|s| ack > s);
                    if fresh {
                        c.1 = Some(ack);
                        plain.dups[i] = 0;
                    } else if c.1 == Some(ack) {
                        plain.dups[i] += 1;
                    }
                    if !c.3 && c.2 && last.is_none_or(|l| ack >= l) {
                        c.3 = true;
                    }
                    if c.3 {
                        if fresh {
                            plain.duplicate = 0;
                        } else {
                            plain.duplicate += 1;
                        }
                        plain.send()
                    } else {
                        None
                    }
                }
            };
            assert_eq!(got, want, "ACK {ack} from {child:?} at {now:?}");
            sent += usize::from(got.is_some());
        } else if draw < 0.97 {
            let (dead, got) = table.expire(now);
            let mut want_dead = Vec::new();
            for c in &mut plain.children {
                if c.2 && c.4 <= now {
                    (c.2, c.3) = (false, false);
                    want_dead.push(c.0);
                }
            }
            let want = if want_dead.is_empty() {
                None
            } else {
                plain.duplicate = 0;
                plain.send()
            };
            let mut dead_sorted = dead.clone();
            dead_sorted.sort();
            want_dead.sort();
            assert_eq!(dead_sorted, want_dead);
            assert_eq!(got.map(|s| s.ack * 100 + u64::from(s.copies)), want);
        } else {
            let got = table.on_fin_ack(child);
            let want = match plain.children.iter_mut().find(|c| c.0 == child) {
                None => false,
                Some(c) => {
                    c.5 = true;
                    let counted: Vec<_> = plain.children.iter().filter(|c| c.3).collect();
                    !counted.is_empty() && counted.iter().all(|c| c.5)
                }
            };
            assert_eq!(got, want);
        }
        let next = plain.children.iter().filter(|c| c.2).map(|c| c.4).min();
        assert_eq!(table.next_deadline(), next);
        assert_eq!(
            table.alive_children(),
            plain.children.iter().filter(|c| c.2).count()
        );
    }
    assert!(sent > 1000, "the run exercised sending ({sent})");
}

#[test]
fn fused_duplicates_come_from_the_children_at_the_minimum_only() {
    for (rule, passed_on) in [
        (DuplicateRule::Figure4, Some(4)),
        (DuplicateRule::Fused, None),
    ] {
        let mut t = FusionTable::new(5, Dur::from_secs(2)).with_rule(rule);
        t.on_reverse_path(A, SimTime::ZERO);
        t.on_reverse_path(B, SimTime::ZERO);
        t.on_ack(B, 9, false, None);
        assert_eq!(acked(t.on_ack(A, 4, false, None)), Some(4));
        // B, ahead of the minimum, repeats 9 (it got a retransmission it already held).
        assert_eq!(acked(t.on_ack(B, 9, false, None)), passed_on, "{rule:?}");
        // A, alone at the minimum, repeats 4: a duplicate under both rules.
        assert_eq!(acked(t.on_ack(A, 4, false, None)), Some(4), "{rule:?}");
    }
}

#[test]
fn one_segment_held_by_every_child_makes_one_fused_duplicate() {
    // A, B and C all at 9: a retransmitted segment reaches each, each answers with one
    // duplicate. Figure 4 passes three on (the sender's fast-retransmit threshold); fused, one.
    let count = |rule: DuplicateRule| {
        let mut t = FusionTable::new(5, Dur::from_secs(2)).with_rule(rule);
        for c in [A, B, C] {
            t.on_reverse_path(c, SimTime::ZERO);
        }
        for c in [A, B, C] {
            t.on_ack(c, 9, false, None);
        }
        [A, B, C]
            .into_iter()
            .filter_map(|c| t.on_ack(c, 9, false, None))
            .map(|s| s.copies)
            .sum::<u32>()
    };
    assert_eq!(count(DuplicateRule::Figure4), 3);
    assert_eq!(count(DuplicateRule::Fused), 1);
}

#[test]
fn fused_duplicates_held_back_behind_a_lagging_child_go_up_when_it_catches_up() {
    // A misses segment 5 and repeats 5 four times while B still lags at 3 (section 6.5's
    // wasted duplicates). When B passes 5, A alone holds the minimum: the fresh ACK 5 goes up
    // with A's four duplicates behind it, so the sender can fast-retransmit.
    let mut t = FusionTable::new(5, Dur::from_secs(2)).with_rule(DuplicateRule::Fused);
    t.on_reverse_path(A, SimTime::ZERO);
    t.on_reverse_path(B, SimTime::ZERO);
    t.on_ack(A, 5, false, None);
    assert_eq!(acked(t.on_ack(B, 3, false, None)), Some(3));
    for _ in 0..4 {
        assert_eq!(t.on_ack(A, 5, false, None), None);
    }
    let s = t.on_ack(B, 9, false, None).unwrap();
    assert_eq!((s.ack, s.copies), (5, 5));
    // A's next duplicates go up one by one to MAX_DUPLICATE (5), then stop.
    assert_eq!(t.on_ack(A, 5, false, None).map(|s| s.copies), Some(1));
    assert_eq!(t.on_ack(A, 5, false, None), None);
}

#[test]
fn a_fusion_node_passes_fin_ack_on_when_the_child_it_waits_for_dies() {
    let mut n = FusionNode::new(FlowId(4), GROUP, &TcpmParams::default());
    let mut ctx = MockCtx::new();
    n.on_packet(&path(PARENT), &mut ctx);
    let rp = |c: Addr| {
        from(
            c,
            Hdr::TcpmControl {
                kind: TcpmKind::ReversePath,
                about: c,
                value: 0,
            },
        )
    };
    n.on_packet(&rp(A), &mut ctx);
    ctx.now = secs(0.5);
    n.on_packet(&rp(B), &mut ctx);
    for c in [A, B] {
        n.on_packet(
            &from(
                c,
                Hdr::TcpmAck {
                    ack: 3,
                    ece: false,
                    sack: None,
                },
            ),
            &mut ctx,
        );
    }
    ctx.drain();
    // B's FIN_ACK arrives; A's is lost, and A, having had FIN, sends no more REVERSE_PATH.
    let fin_ack = |c: Addr| {
        from(
            c,
            Hdr::TcpmControl {
                kind: TcpmKind::FinAck,
                about: c,
                value: 0,
            },
        )
    };
    ctx.now = secs(1.0);
    n.on_packet(&fin_ack(B), &mut ctx);
    assert!(ctx.drain().is_empty());
    // A's TCP-M_TMOUT (2 s after its REVERSE_PATH at 0) leaves B, which has sent FIN_ACK.
    assert_eq!(ctx.timers[0], Some(secs(2.0)));
    ctx.now = secs(2.0);
    n.on_timer(TimerSlot(0), &mut ctx);
    let out = ctx.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(
        (out[0].dst, kind_of(&out[0]).unwrap().0),
        (PARENT, TcpmKind::FinAck)
    );
    assert_eq!(ctx.timers[0], None, "the session is released");
}
