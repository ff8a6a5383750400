//! Hand-made cases: writing everything at once loops (forwarding, credit)
//! and the plan does not; two writes that no order makes safe.

use routec::diff::plan::{Cycle, Verdict};
use routec::model::{FabricBuilder, Guid, LidMap, NodeKind, NodeSpec};

use super::fabrics::{hand_fabric, hand_tables};
use super::oracle::{check_plan, rows_of, unsafe_state};

/// Triangle D(0), X(1), Y(2): D1–X1, D2–Y1, X2–Y2, hosts on port 3. The
/// route from X to D's host moves from X→D to X→Y→D, Y's from Y→X→D to
/// Y→D. X new while Y old loops; the plan writes Y first.
#[test]
fn hand_made_forwarding_loop_avoided() {
    let (f, lids) = hand_fabric(3, 3, &[(0, 1, 1, 1), (0, 2, 2, 1), (1, 2, 2, 2)], 3);
    // Everything direct, except the routes to D's host (LID 4).
    let mut base = Vec::new();
    for s in 0..3usize {
        for d in 0..3usize {
            let port = match (s, d) {
                _ if s == d => 0,
                (0, 1) | (1, 0) => 1,
                (0, 2) => 2,
                (2, 0) => 1,
                (1, 2) | (2, 1) => 2,
                _ => unreachable!(),
            };
            base.push((s, 1 + d as u16, port));
            let host = if s == d { 3 } else { port };
            base.push((s, 4 + d as u16, host));
        }
    }
    let with = |x: u8, y: u8| {
        let mut e = base.clone();
        e.push((1, 4, x));
        e.push((2, 4, y));
        hand_tables(&f, &lids, &e)
    };
    let (old, new) = (with(1, 2), with(2, 1));
    let (plan, bad, _) = check_plan(&f, &lids, &old, &new);
    // X new and Y old loops, whatever D holds (its table does not change).
    assert_eq!(bad, 2, "exactly the mixtures X new, Y old loop");
    assert_eq!(plan.verdict, Verdict::Phased);
    let Some(Cycle::ForwardingLoop { lid: 4, switches }) = &plan.all_at_once_cycle else {
        panic!("expected a forwarding loop for LID 4: {plan:#?}");
    };
    let mut looped = switches.clone();
    looped.sort();
    assert_eq!(looped, vec![Guid(0x11), Guid(0x12)]);
    let order: Vec<Vec<Guid>> = plan
        .phases
        .iter()
        .map(|p| p.switches.iter().map(|s| s.guid).collect())
        .collect();
    assert_eq!(order, vec![vec![Guid(0x12)], vec![Guid(0x11)]]);
    assert_eq!(plan.smps, 2);
}

/// Ring A(0)–B(1)–C(2)–D(3)–A, hosts on port 3; opposite hosts are two hops
/// away. Old: A→c and B→d clockwise, C→a and D→b counter-clockwise; new:
/// the other way round. Each table's channel graph is acyclic, but C and D
/// new while A and B are old closes AB→BC→CD→DA→AB: uploading all at once
/// can deadlock. The plan orders the writes so no state has a credit loop.
#[test]
fn hand_made_credit_loop_avoided() {
    // A1–B2, B1–C2, C1–D2, D1–A2: port 1 clockwise, port 2 counter-clockwise.
    let (f, lids) = hand_fabric(
        4,
        3,
        &[(0, 1, 1, 2), (1, 1, 2, 2), (2, 1, 3, 2), (3, 1, 0, 2)],
        3,
    );
    let tables = |clockwise_first: bool| {
        let mut e = Vec::new();
        for s in 0..4usize {
            for d in 0..4usize {
                let dist = (d + 4 - s) % 4;
                let port = match dist {
                    0 => 0,
                    1 => 1,
                    3 => 2,
                    // Opposite: A, B one way, C, D the other.
                    _ => {
                        if (s < 2) == clockwise_first {
                            1
                        } else {
                            2
                        }
                    }
                };
                e.push((s, 1 + d as u16, port));
                e.push((s, 5 + d as u16, if dist == 0 { 3 } else { port }));
            }
        }
        hand_tables(&f, &lids, &e)
    };
    let (old, new) = (tables(true), tables(false));
    let (plan, bad, states) = check_plan(&f, &lids, &old, &new);
    assert!(bad > 0, "some mixture has a credit loop");
    // The mixture C, D new and A, B old is one of them.
    let len = lids.max_lid() as usize + 1;
    let (o, n) = (rows_of(&f, &old, len), rows_of(&f, &new, len));
    let mix = vec![o[0].clone(), o[1].clone(), n[2].clone(), n[3].clone()];
    assert_eq!(
        unsafe_state(&f, &lids, &mix, false).as_deref(),
        Some("credit loop")
    );
    assert_eq!(plan.verdict, Verdict::Phased, "{plan:#?}");
    assert!(matches!(
        plan.all_at_once_cycle,
        Some(Cycle::CreditLoop { .. })
    ));
    assert!(plan.phases.len() >= 2);
    assert!(states >= 4);
}

/// Ring A(0)–B(1)–C(2)–D(3) as above (port 1 clockwise, 2 counter), one
/// host on port 3 of each switch and a second on port 4 of B and D. Two
/// entries change: P = A's route to C's host (clockwise A→B→C, dependency
/// AB→BC, becomes A→D→C, AD→DC) and Q = C's route to A's host (C→B→A,
/// CB→BA, becomes C→D→A, CD→DA). The other opposite routes stay and hold
/// the rest of both ring cycles: B→C→D (BC→CD), D→A→B (DA→AB) for
/// clockwise, D→C→B (DC→CB), B→A→D (BA→AD) for counter-clockwise. Old and
/// new each miss one dependency of each cycle, but P new with Q old closes
/// the counter-clockwise cycle, and Q new with P old the clockwise one:
/// no order of the two writes avoids a credit loop.
#[test]
fn hand_made_blocked_upload() {
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (0..4u64)
        .map(|i| {
            let spec = NodeSpec::new(NodeKind::Switch, Guid(0x10 + i), 4, format!("S{i}"));
            b.add_node(spec).unwrap()
        })
        .collect();
    for i in 0..4 {
        b.connect(sw[i], 1, sw[(i + 1) % 4], 2).unwrap();
        b.port_mut(sw[i], 0).unwrap().lid = 1 + i as u16;
    }
    // (switch, port, LID): a=5, b1=6, c=7, d1=8 on port 3; b2=9, d2=10
    let hosts = [
        (0, 3, 5),
        (1, 3, 6),
        (2, 3, 7),
        (3, 3, 8),
        (1, 4, 9),
        (3, 4, 10),
    ];
    for (i, &(s, port, lid)) in hosts.iter().enumerate() {
        let spec = NodeSpec::new(NodeKind::Ca, Guid(0x100 + i as u64), 1, format!("h{i}"));
        let h = b.add_node(spec).unwrap();
        b.port_mut(h, 1).unwrap().lid = lid;
        b.connect(h, 1, sw[s], port).unwrap();
    }
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    let tables = |p: u8, q: u8| {
        let mut e = Vec::new();
        for s in 0..4usize {
            for (d, lid) in (0..4usize)
                .map(|d| (d, 1 + d as u16))
                .chain(hosts.iter().map(|h| (h.0, h.2)))
            {
                let port = match ((d + 4 - s) % 4, lid, s) {
                    (0, 1..=4, _) => 0,
                    (0, _, _) => hosts.iter().find(|h| h.2 == lid).unwrap().1,
                    (1, ..) => 1,
                    (3, ..) => 2,
                    (_, 7, 0) => p,
                    (_, 5, 2) => q,
                    (_, 8, 1) => 1,
                    (_, 10, 1) => 2,
                    (_, 6, 3) => 2,
                    (_, 9, 3) => 1,
                    _ => 1, // switch LIDs: not in the channel graph
                };
                e.push((s, lid, port));
            }
        }
        hand_tables(&f, &lids, &e)
    };
    let (old, new) = (tables(1, 2), tables(2, 1));
    let (plan, bad, _) = check_plan(&f, &lids, &old, &new);
    // brute force over the 16 mixtures: exactly those with one of A, C
    // written and the other not have a credit loop (2 × 4 choices of the
    // unchanged B and D)
    assert_eq!(bad, 8);
    assert_eq!(plan.verdict, Verdict::Blocked, "{plan:#?}");
    assert!(
        matches!(plan.cycle, Some(Cycle::CreditLoop { .. })),
        "{plan:#?}"
    );
    assert!(plan.phases.is_empty(), "{plan:#?}");
    assert_eq!(plan.entries_left, 2);
}
