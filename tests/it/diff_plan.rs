//! `routec diff --plan`: every state an upload plan can pass through is
//! checked by an oracle written here (each source's path followed hop by
//! hop, loops by hop count, credit loops by petgraph on the channel graph
//! of those paths), against brute force over all 2^S mixtures of old and
//! new switch tables on fabrics of up to 12 switches; two hand-made cases
//! where writing everything at once loops (forwarding, credit) and the
//! plan does not; a hand-made `blocked` case (two writes, each order a
//! credit loop); a proptest over random small fabrics and changes.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use petgraph::graphmap::DiGraphMap;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use routec::diff::plan::{Cycle, PlanOptions, UploadPlan, Verdict, plan_upload};
use routec::model::faults::{Fault, PortRef};
use routec::model::{
    Fabric, FabricBuilder, Guid, LFT_BLOCK, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec, SwIdx,
    TableSet,
};
use routec::parse::{LoadOptions, load_topology};
use routec::route::{RootSpec, RouteOptions, engine_by_name};

use crate::common;

/// Tables as the oracle reads them: one LID-indexed row per fabric switch.
pub(super) type Rows = Vec<Vec<u8>>;

/// A path an oracle follows: source switch, LID, whether the LID is an end
/// port's, and the channels `(switch, out port)` it takes.
pub(super) type OraclePath = (usize, u16, bool, Vec<(usize, u8)>);

/// Every path of `rows` from its sources as `routec check` counts them
/// (an end port's from the switches with another end port, a switch
/// LID's, and with `all_paths` every LID's, from every switch), followed
/// hop by hop; `Err` names a forwarding loop.
pub(super) fn oracle_paths(
    f: &Fabric,
    lids: &LidMap,
    rows: &Rows,
    all_paths: bool,
) -> Result<Vec<OraclePath>, String> {
    let nsw = f.num_switches();
    let hosts: Vec<usize> = (0..nsw)
        .map(|s| {
            let n = f.switch_node(SwIdx(s as u32));
            (1..=f.node(n).num_ports)
                .filter(|&p| f.peer(n, p).is_some_and(|q| !f.is_switch(q.node)))
                .count()
        })
        .collect();
    let mut paths = Vec::new();
    for (lid, o) in lids.iter() {
        let (tsw, is_end) = match f.switch_index(o.node) {
            Some(s) => (s.ix(), false),
            None => match f.peer(o.node, o.port).and_then(|p| f.switch_index(p.node)) {
                Some(s) => (s.ix(), true),
                None => continue,
            },
        };
        for (src, &h) in hosts.iter().enumerate() {
            if is_end && !all_paths && h - usize::from(src == tsw) == 0 {
                continue;
            }
            let (mut cur, mut chans) = (src, Vec::new());
            loop {
                let p = rows[cur].get(lid as usize).copied().unwrap_or(NO_ROUTE);
                let n = f.switch_node(SwIdx(cur as u32));
                let next = (p != NO_ROUTE)
                    .then(|| f.peer(n, p))
                    .flatten()
                    .filter(|q| q.node != n)
                    .and_then(|q| f.switch_index(q.node));
                let Some(w) = next else { break };
                chans.push((cur, p));
                cur = w.ix();
                if chans.len() > nsw {
                    return Err(format!("forwarding loop for LID {lid} from switch {src}"));
                }
            }
            paths.push((src, lid, is_end, chans));
        }
    }
    Ok(paths)
}

/// The independent oracle: is this static state safe?
fn unsafe_state(f: &Fabric, lids: &LidMap, rows: &Rows, all_paths: bool) -> Option<String> {
    let paths = match oracle_paths(f, lids, rows, all_paths) {
        Ok(p) => p,
        Err(why) => return Some(why),
    };
    let mut cdg: DiGraphMap<(usize, u8), ()> = DiGraphMap::new();
    for (_, _, _, chans) in paths.iter().filter(|p| p.2 || all_paths) {
        for pair in chans.windows(2) {
            cdg.add_edge(pair[0], pair[1], ());
        }
    }
    petgraph::algo::is_cyclic_directed(&cdg).then(|| "credit loop".to_string())
}

/// The rows of `t` in `f`'s switch order (matched by GUID), `len` LIDs.
pub(super) fn rows_of(f: &Fabric, t: &TableSet, len: usize) -> Rows {
    f.switches()
        .iter()
        .map(|&n| {
            let mut row = vec![NO_ROUTE; len];
            if let Some(i) = t.switch_by_guid(f.node(n).guid) {
                for (l, r) in row.iter_mut().enumerate() {
                    *r = t.port(i, l as u16);
                }
            }
            row
        })
        .collect()
}

/// Every state the plan's phases can pass through: all earlier phases
/// written, any subset of the current phase's SMPs (switch, block) written.
/// Calls `visit` on each; returns the final state.
pub(super) fn plan_states(
    f: &Fabric,
    old: &Rows,
    new: &Rows,
    plan: &UploadPlan,
    visit: &mut dyn FnMut(&Rows),
) -> Rows {
    let sw_of = |g: Guid| f.switch_index(f.node_by_guid(g).unwrap()).unwrap().ix();
    let mut base = old.clone();
    let mut written: HashSet<(usize, u16)> = HashSet::new();
    for ph in &plan.phases {
        let mut smps: BTreeMap<(usize, u32), Vec<u16>> = BTreeMap::new();
        for s in &ph.switches {
            for &l in &s.lids {
                smps.entry((sw_of(s.guid), (l as usize / LFT_BLOCK) as u32))
                    .or_default()
                    .push(l);
                assert!(written.insert((sw_of(s.guid), l)), "entry written twice");
            }
        }
        assert_eq!(ph.smps as usize, smps.len());
        let smps: Vec<_> = smps.into_iter().collect();
        assert!(smps.len() <= 16, "too many SMPs in a phase to enumerate");
        for mask in 0u32..1 << smps.len() {
            let mut st = base.clone();
            for (i, ((s, _), ls)) in smps.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    ls.iter()
                        .for_each(|&l| st[*s][l as usize] = new[*s][l as usize]);
                }
            }
            visit(&st);
        }
        for ((s, _), ls) in &smps {
            ls.iter()
                .for_each(|&l| base[*s][l as usize] = new[*s][l as usize]);
        }
    }
    base
}

/// Checks a plan against brute force; returns (unsafe whole-switch
/// mixtures, states of the plan visited).
fn check_plan(
    f: &Fabric,
    lids: &LidMap,
    old: &TableSet,
    new: &TableSet,
) -> (UploadPlan, usize, usize) {
    let opts = PlanOptions::default();
    let plan = plan_upload(f, lids, old, new, opts);
    let len = lids.max_lid() as usize + 1;
    let (o, n) = (rows_of(f, old, len), rows_of(f, new, len));
    let nsw = f.num_switches();
    assert!(nsw <= 12);
    let old_bad = unsafe_state(f, lids, &o, false);
    let new_bad = unsafe_state(f, lids, &n, false);
    match plan.verdict {
        Verdict::NewUnsafe => assert!(new_bad.is_some(), "plan says NEW unsafe: {:?}", plan.cycle),
        Verdict::OldUnsafe => {
            assert!(old_bad.is_some(), "plan says OLD unsafe: {:?}", plan.cycle);
            assert!(new_bad.is_none());
        }
        _ => assert!(
            old_bad.is_none() && new_bad.is_none(),
            "{old_bad:?} {new_bad:?}"
        ),
    }
    if matches!(plan.verdict, Verdict::NewUnsafe | Verdict::OldUnsafe) {
        return (plan, 0, 0);
    }
    // Brute force: every mixture of whole old and whole new switch tables.
    let mut bad_mixtures = 0;
    for st in mixtures(&o, &n) {
        if unsafe_state(f, lids, &st, false).is_some() {
            bad_mixtures += 1;
        }
    }
    if plan.verdict == Verdict::AllAtOnce || plan.verdict == Verdict::Unchanged {
        assert_eq!(
            bad_mixtures, 0,
            "plan says all at once, brute force disagrees"
        );
    }
    let states = assert_states_safe(f, (&o, &n), &plan, &|st| unsafe_state(f, lids, st, false));
    (plan, bad_mixtures, states)
}

/// Follows every state `plan` passes through from `o` (`plan_states`),
/// failing at the first one the oracle `unsafe_at` finds unsafe, and, for
/// a safe plan, checks that it ends at `n`; returns the states seen.
pub(super) fn assert_states_safe(
    f: &Fabric,
    (o, n): (&Rows, &Rows),
    plan: &UploadPlan,
    unsafe_at: &dyn Fn(&Rows) -> Option<String>,
) -> usize {
    let mut states = 0;
    let end = plan_states(f, o, n, plan, &mut |st| {
        states += 1;
        if let Some(why) = unsafe_at(st) {
            panic!("the plan passes through an unsafe state: {why}\n{plan:#?}");
        }
    });
    if plan.is_safe() {
        assert_eq!(&end, n, "the plan does not end at the new tables");
    }
    states
}

/// Every mixture of whole old (`o`) and whole new (`n`) switch tables:
/// 2^S states.
pub(super) fn mixtures<'a>(o: &'a Rows, n: &'a Rows) -> impl Iterator<Item = Rows> + 'a {
    let nsw = o.len();
    (0u32..1 << nsw).map(move |mask| {
        (0..nsw)
            .map(|s| {
                if mask >> s & 1 == 1 {
                    n[s].clone()
                } else {
                    o[s].clone()
                }
            })
            .collect()
    })
}

/// `f` without the cable on port `port` of node `guid`.
pub(super) fn without_cable(f: &Fabric, guid: u64, port: u8) -> Fabric {
    let cut = Fault::Link {
        end: PortRef {
            guid: Guid(guid),
            port,
        },
        other: None,
    };
    f.apply_faults(&[cut]).unwrap().0
}

fn ft2() -> Fabric {
    load_topology(Path::new(common::FT2), &LoadOptions::default())
        .unwrap()
        .fabric
}

fn route(f: &Fabric, lids: &LidMap, engine: &str, roots: RootSpec) -> Option<TableSet> {
    let opts = RouteOptions {
        roots,
        ..Default::default()
    };
    let r = engine_by_name(engine)?.route(f, lids, &opts).ok()?;
    Some(TableSet::from_routing(f, lids, &r.lfts))
}

/// ft2 (12 switches) losing one cable, every engine: the plan agrees with
/// brute force over the 4,096 mixtures; min-hop's all-at-once upload can
/// loop (OpenSM's own min-hop tables on this fixture), the plan cannot.
#[test]
fn ft2_cable_cut_every_engine() {
    let f = ft2();
    let g = without_cable(&f, 0x0002c90101000007, 5);
    let (lf, lg) = (LidMap::new(&f).unwrap(), LidMap::new(&g).unwrap());
    for engine in ["minhop", "updn", "dmodc"] {
        let old = route(&f, &lf, engine, RootSpec::Top).unwrap();
        let new = route(&g, &lg, engine, RootSpec::Top).unwrap();
        let (plan, bad, states) = check_plan(&g, &lg, &old, &new);
        assert!(plan.is_safe(), "{engine}: {plan:#?}");
        assert!(states > 0);
        if engine == "minhop" {
            assert!(bad > 0, "minhop: some mixture should loop");
            assert_eq!(plan.verdict, Verdict::Phased);
            assert!(matches!(
                plan.all_at_once_cycle,
                Some(Cycle::ForwardingLoop { .. })
            ));
        }
    }
}

/// A small fabric by hand: switches with `ports` ports, cables
/// `(a, pa, b, pb)`, one host on port `host_port` of each switch. LIDs:
/// switches 1..=S, hosts S+1..=2S.
pub(super) fn hand_fabric(
    nsw: usize,
    ports: u8,
    cables: &[(usize, u8, usize, u8)],
    host_port: u8,
) -> (Fabric, LidMap) {
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (0..nsw)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x10 + i as u64),
                ports,
                format!("S{i}"),
            ))
            .unwrap()
        })
        .collect();
    for &(a, pa, c, pc) in cables {
        b.connect(sw[a], pa, sw[c], pc).unwrap();
    }
    for (i, &s) in sw.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = 1 + i as u16;
        let h = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x100 + i as u64),
                1,
                format!("h{i}"),
            ))
            .unwrap();
        b.port_mut(h, 1).unwrap().lid = 1 + (nsw + i) as u16;
        b.connect(h, 1, s, host_port).unwrap();
    }
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}

/// Tables from `(switch, lid, port)` triples.
fn hand_tables(f: &Fabric, lids: &LidMap, entries: &[(usize, u16, u8)]) -> TableSet {
    let mut t = Lfts::new(f.num_switches(), lids.max_lid());
    for &(s, l, p) in entries {
        t.set(s, l, p);
    }
    TableSet::from_routing(f, lids, &t)
}

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

/// A random connected fabric of 3–8 switches (ring and chords, parallel
/// cables possible), 1–2 hosts each.
fn random_fabric(rng: &mut ChaCha8Rng) -> Fabric {
    let nsw = rng.random_range(3..=8usize);
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (0..nsw)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x10 + i as u64),
                8,
                format!("S{i}"),
            ))
            .unwrap()
        })
        .collect();
    let mut next = vec![1u8; nsw];
    let mut cable = |b: &mut FabricBuilder, a: usize, c: usize| {
        if a != c && next[a] <= 6 && next[c] <= 6 {
            b.connect(sw[a], next[a], sw[c], next[c]).unwrap();
            next[a] += 1;
            next[c] += 1;
        }
    };
    for i in 0..nsw {
        if nsw > 2 || i == 0 {
            cable(&mut b, i, (i + 1) % nsw);
        }
    }
    for _ in 0..rng.random_range(0..nsw) {
        let (a, c) = (rng.random_range(0..nsw), rng.random_range(0..nsw));
        cable(&mut b, a, c);
    }
    let mut lid = 1u16;
    for (i, &s) in sw.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = lid;
        lid += 1;
        for h in 0..rng.random_range(1..=2u8) {
            let ca = b
                .add_node(NodeSpec::new(
                    NodeKind::Ca,
                    Guid(0x1000 + i as u64 * 16 + h as u64),
                    1,
                    "h",
                ))
                .unwrap();
            b.port_mut(ca, 1).unwrap().lid = lid;
            lid += 1;
            b.connect(ca, 1, s, 7 + h).unwrap();
        }
    }
    b.build()
}

/// Min-hop tables with random ties (the oracle does not care how they
/// were made).
fn random_minhop(f: &Fabric, lids: &LidMap, rng: &mut ChaCha8Rng) -> TableSet {
    let nsw = f.num_switches();
    let mut t = Lfts::new(nsw, lids.max_lid());
    for (l, o) in lids.iter() {
        let (tsw, tport) = match f.switch_index(o.node) {
            Some(s) => (s.ix(), 0),
            None => {
                let p = f.peer(o.node, o.port).unwrap();
                (f.switch_index(p.node).unwrap().ix(), p.port)
            }
        };
        let dist = routec::model::rank::bfs_ranks(f, &[SwIdx(tsw as u32)]);
        for x in 0..nsw {
            let n = f.switch_node(SwIdx(x as u32));
            let port = if x == tsw {
                tport
            } else {
                let opts: Vec<u8> = f
                    .switch_links(n)
                    .filter(|(_, p)| {
                        dist[f.switch_index(p.node).unwrap().ix()].wrapping_add(1) == dist[x]
                    })
                    .map(|(p, _)| p)
                    .collect();
                if opts.is_empty() {
                    NO_ROUTE
                } else {
                    opts[rng.random_range(0..opts.len())]
                }
            };
            t.set(x, l, port);
        }
    }
    TableSet::from_routing(f, lids, &t)
}

fn random_case(seed: u64) -> (UploadPlan, usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let f = random_fabric(&mut rng);
    // The change: a random switch-to-switch cable cut, or none (re-balance).
    let links: Vec<_> = f
        .links()
        .filter(|&(a, _, b, _)| f.is_switch(a) && f.is_switch(b))
        .collect();
    let g = if rng.random_bool(0.7) && !links.is_empty() {
        let (a, pa, _, _) = links[rng.random_range(0..links.len())];
        let cut = Fault::Link {
            end: PortRef {
                guid: f.node(a).guid,
                port: pa,
            },
            other: None,
        };
        f.apply_faults(&[cut]).unwrap().0
    } else {
        f.clone()
    };
    let (lf, lg) = (LidMap::new(&f).unwrap(), LidMap::new(&g).unwrap());
    let make = |fab: &Fabric, l: &LidMap, rng: &mut ChaCha8Rng| {
        match rng.random_range(0..3) {
            0 => route(fab, l, "updn", RootSpec::Top),
            1 => route(fab, l, "minhop", RootSpec::Auto),
            _ => None,
        }
        .unwrap_or_else(|| random_minhop(fab, l, rng))
    };
    let old = make(&f, &lf, &mut rng);
    let new = make(&g, &lg, &mut rng);
    check_plan(&g, &lg, &old, &new)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random fabrics and changes: whatever the verdict, the oracle agrees
    /// with it, and no state a plan passes through is unsafe.
    #[test]
    fn plans_never_pass_through_an_unsafe_state(seed in any::<u64>()) {
        random_case(seed);
    }
}

/// The random cases exercise every verdict that matters (not only
/// "nothing to do"): over fixed seeds, some plans need phases.
#[test]
fn random_cases_cover_phased_plans() {
    let mut seen = BTreeMap::new();
    for seed in 0..40 {
        let (plan, _, _) = random_case(seed);
        *seen.entry(format!("{:?}", plan.verdict)).or_insert(0) += 1;
    }
    eprintln!("verdicts over 40 seeds: {seen:?}");
    assert!(seen.contains_key("Phased"), "{seen:?}");
    assert!(seen.contains_key("AllAtOnce"), "{seen:?}");
}

/// The CLI on ft2 (min-hop, one cable cut): text summary, JSON as
/// `formats/diff-plan.md` shows it, exit codes.
#[test]
fn cli_plan_text_json_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cut = common::ft2_without_one_cable(d);
    let (old, new) = (d.join("old"), d.join("new"));
    let ft2 = cwd.join(common::FT2);
    for (topo, out) in [(&ft2, &old), (&cut, &new)] {
        let args = [
            "compile",
            topo.to_str().unwrap(),
            "--engine",
            "minhop",
            "-q",
            "-o",
        ];
        let (code, _) = common::routec(&[&args[..], &[out.to_str().unwrap()]].concat(), cwd);
        assert_eq!(code, 0);
    }
    let (o, n, t) = (
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        cut.to_str().unwrap(),
    );
    let (code, text) = common::routec(&["diff", o, n, "--plan", "--topology", t], cwd);
    assert_eq!(code, 0);
    let plan_text = &text[text.find("upload plan:").unwrap()..];
    insta::assert_snapshot!("diff_plan_ft2_minhop", plan_text);
    let (code, json) = common::routec(&["diff", o, n, "--plan", "--topology", t, "--json"], cwd);
    assert_eq!(code, 0);
    let got: serde_json::Value = serde_json::from_str(&json).unwrap();
    let block = &crate::doc_blocks::fenced("formats/diff-plan.md", "json")[0];
    let doc: serde_json::Value = serde_json::from_str(block).unwrap();
    let (got, doc) = (&got["plan"], &doc["plan"]);
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(got), keys(doc));
    for k in [
        "verdict",
        "entries",
        "smps",
        "all_at_once_cycle",
        "entries_left",
    ] {
        assert_eq!(got[k], doc[k], "{k}");
    }
    assert_eq!(
        got["phases"][0]["switches"][0],
        doc["phases"][0]["switches"][0]
    );
    assert_eq!(got["phases"][1], doc["phases"][1]);
    // The same bytes whatever the thread count.
    for j in ["1", "2", "3"] {
        let args = ["diff", o, n, "--plan", "--topology", t, "--json", "-j", j];
        assert_eq!(common::routec(&args, cwd).1, json, "-j {j}");
    }
    // Usage: --plan needs the topology.
    let (code, _) = common::routec(&["diff", o, n, "--plan"], cwd);
    assert_eq!(code, 2);
    // NEW over OLD the other way round on the intact fabric: NEW (routed
    // around a cable that is there) is safe too, and so is the way back.
    let (code, _) = common::routec(
        &["diff", n, o, "--plan", "--topology", ft2.to_str().unwrap()],
        cwd,
    );
    assert_eq!(code, 0);
}

/// ft2 losing a spine switch (11 switches left): the old tables' spine is
/// ignored (named), old entries toward it drop packets, and the plan still
/// agrees with brute force over the 2,048 mixtures.
#[test]
fn ft2_switch_removed() {
    let f = ft2();
    let spine = Guid(0x0002c90102000000);
    let g = f.apply_faults(&[Fault::Switch(spine)]).unwrap().0;
    let (lf, lg) = (LidMap::new(&f).unwrap(), LidMap::new(&g).unwrap());
    for engine in ["updn", "dmodc"] {
        let old = route(&f, &lf, engine, RootSpec::Top).unwrap();
        let new = route(&g, &lg, engine, RootSpec::Top).unwrap();
        let (plan, _, states) = check_plan(&g, &lg, &old, &new);
        assert!(plan.is_safe(), "{engine}: {plan:#?}");
        assert_eq!(plan.switches_ignored, vec![spine]);
        assert!(states > 0);
    }
}
