//! `routec diff --plan` on tables with VL plans (`formats/diff-plan.md`,
//! "Virtual lanes"): channel dependencies are kept per VL, and while the
//! upload runs a path may be on the VL of its old SL or of its new one.
//!
//! The oracle is written here: every (source switch, LID) path followed
//! hop by hop in a state, its channel dependencies added to the graph of
//! the VL its old SL maps to and of the VL its new SL maps to (one of them
//! for the pure old and the pure new tables), each graph checked by
//! petgraph. Checked against it: the verdict on OLD and NEW, every state a
//! plan's phases pass through, and (brute force over the 2^S mixtures of
//! whole switch tables) an all-at-once verdict.

use std::collections::HashMap;

use petgraph::graphmap::DiGraphMap;
use routec::diff::plan::{Cycle, PlanOptions, UploadPlan, Verdict, plan_upload};
use routec::model::{Fabric, Lfts, LidMap, PathSl, TableSet, VlPlan};

use super::diff_plan::{
    Rows, assert_states_safe, hand_fabric, mixtures, oracle_paths, rows_of, without_cable,
};
use super::incremental::generate;
use super::incremental_escape::dmodc_on;

/// Path SLs by fabric switch (LID-indexed) and the SL → VL map of a set.
struct Lanes {
    sl: Rows,
    vl_of_sl: [u8; 16],
}

fn lanes_of(f: &Fabric, lids: &LidMap, t: &TableSet) -> Lanes {
    let plan = t.align(f, lids).unwrap().vl_plan;
    let len = lids.max_lid() as usize + 1;
    let sl = (0..f.num_switches())
        .map(|s| {
            (0..len)
                .map(|l| plan.as_ref().map_or(0, |p| p.sl(s, l as u16)))
                .collect()
        })
        .collect();
    let vl_of_sl = plan.map_or(std::array::from_fn(|i| i as u8), |p| {
        p.sl2vl.port_map().unwrap()
    });
    Lanes { sl, vl_of_sl }
}

/// The oracle: is `rows` safe when each path may be on the VL of its SL in
/// any of `lanes`?
fn unsafe_state(f: &Fabric, lids: &LidMap, rows: &Rows, lanes: &[&Lanes]) -> Option<String> {
    let paths = match oracle_paths(f, lids, rows, false) {
        Ok(p) => p,
        Err(why) => return Some(why),
    };
    let mut cdg: HashMap<u8, DiGraphMap<(usize, u8), ()>> = HashMap::new();
    // switch LIDs: loops only, as `routec check`
    for (src, lid, _, chans) in paths.iter().filter(|p| p.2) {
        for l in lanes {
            let vl = l.vl_of_sl[usize::from(l.sl[*src][*lid as usize] & 15)];
            let g = cdg.entry(vl).or_default();
            for pair in chans.windows(2) {
                g.add_edge(pair[0], pair[1], ());
            }
        }
    }
    let mut bad: Vec<u8> = cdg
        .iter()
        .filter(|(_, g)| petgraph::algo::is_cyclic_directed(*g))
        .map(|(&vl, _)| vl)
        .collect();
    bad.sort_unstable();
    (!bad.is_empty()).then(|| format!("credit loop on VL(s) {bad:?}"))
}

/// Checks a plan against the oracle; returns (the plan, unsafe whole-switch
/// mixtures, states visited).
fn check_plan(
    f: &Fabric,
    lids: &LidMap,
    old: &TableSet,
    new: &TableSet,
) -> (UploadPlan, usize, usize) {
    let plan = plan_upload(f, lids, old, new, PlanOptions::default());
    let len = lids.max_lid() as usize + 1;
    let (o, n) = (rows_of(f, old, len), rows_of(f, new, len));
    let (ol, nl) = (lanes_of(f, lids, old), lanes_of(f, lids, new));
    let either = [&ol, &nl];
    let old_bad = unsafe_state(f, lids, &o, &[&ol]);
    let new_bad = unsafe_state(f, lids, &n, &[&nl]);
    let start_bad = unsafe_state(f, lids, &o, &either);
    match plan.verdict {
        Verdict::NewUnsafe => assert!(new_bad.is_some(), "{:?}", plan.cycle),
        Verdict::OldUnsafe => assert!(old_bad.is_some() && new_bad.is_none(), "{:?}", plan.cycle),
        _ => assert!(
            old_bad.is_none() && new_bad.is_none(),
            "{old_bad:?} {new_bad:?}"
        ),
    }
    if matches!(plan.verdict, Verdict::NewUnsafe | Verdict::OldUnsafe) {
        return (plan, 0, 0);
    }
    if plan.verdict == Verdict::Blocked
        && plan.phases.is_empty()
        && plan.entries_left == plan.entries
    {
        // a lane of several VLs also stands for switches mapping an SL by
        // the old or the new SL2VL table, which this oracle does not model
        let merged = plan.lanes.iter().any(|l| l.len() > 1);
        assert!(
            start_bad.is_some() || merged,
            "blocked at the start, the oracle disagrees {plan:?}"
        );
    }
    let nsw = f.num_switches();
    assert!(nsw <= 12);
    let bad = mixtures(&o, &n)
        .filter(|st| unsafe_state(f, lids, st, &either).is_some())
        .count();
    if matches!(plan.verdict, Verdict::AllAtOnce | Verdict::Unchanged) {
        assert_eq!(bad, 0, "the plan says all at once, brute force disagrees");
    }
    // SLs first: the sources took their new SLs over the old tables (the
    // start, either SL), and the phases meet new SLs only
    let during: &[&Lanes] = if plan.sls_first {
        assert!(start_bad.is_none(), "SLs first from an unsafe start");
        &[&nl]
    } else {
        &either
    };
    let states = assert_states_safe(f, (&o, &n), &plan, &|st| unsafe_state(f, lids, st, during));
    (plan, bad, states)
}

/// Ring of four: S_i port 1 to S_{i+1} port 2, a host on port 3 of each.
/// Shortest routes; the distance-2 routes go clockwise (`ccw` false) or
/// counter-clockwise. On one VL they close a credit loop; with SL =
/// source parity on two VLs they do not.
fn ring_tables(f: &Fabric, lids: &LidMap, ccw: bool, parity_sls: bool) -> TableSet {
    let mut t = Lfts::new(4, lids.max_lid());
    let mut sl = PathSl::zeros(&t);
    for s in 0..4usize {
        for d in 0..4usize {
            let port = match (d + 4 - s) % 4 {
                0 => 3,
                1 => 1,
                3 => 2,
                _ if ccw => 2,
                _ => 1,
            };
            t.set(s, 5 + d as u16, port);
            t.set(s, 1 + d as u16, if s == d { 0 } else { port });
            for lid in [1 + d as u16, 5 + d as u16] {
                sl.set(s, lid, (s % 2) as u8);
            }
        }
    }
    if parity_sls {
        TableSet::from_routing_with_plan(f, lids, &t, &VlPlan::layered(sl, 2))
    } else {
        TableSet::from_routing(f, lids, &t)
    }
}

/// Both directions of the ring are deadlock-free only on two VLs: with the
/// VL plans the plan sees it and finds a safe upload the oracle agrees
/// with; without them (one lane) the old tables are unsafe, as before.
#[test]
fn ring_on_two_vls_is_planned_per_lane() {
    let (f, lids) = hand_fabric(
        4,
        3,
        &[(0, 1, 1, 2), (1, 1, 2, 2), (2, 1, 3, 2), (3, 1, 0, 2)],
        3,
    );
    let (old, new) = (
        ring_tables(&f, &lids, false, true),
        ring_tables(&f, &lids, true, true),
    );
    let (plan, _, states) = check_plan(&f, &lids, &old, &new);
    assert!(plan.is_safe(), "{plan:#?}");
    assert_eq!(plan.lanes, vec![vec![0], vec![1]]);
    assert!(states > 0);
    let (old1, new1) = (
        ring_tables(&f, &lids, false, false),
        ring_tables(&f, &lids, true, false),
    );
    let one = plan_upload(&f, &lids, &old1, &new1, PlanOptions::default());
    assert!(
        one.verdict == Verdict::NewUnsafe || one.verdict == Verdict::OldUnsafe,
        "{one:#?}"
    );
    assert!(one.lanes.len() <= 1);
}

/// The same LFTs with the sources' SLs swapped (odd sources on VL 0):
/// nothing to write, but a source holding its old SL beside one holding
/// its new one puts both parities on one VL, which closes the loop.
#[test]
fn an_sl_change_alone_can_close_a_credit_loop() {
    let (f, lids) = hand_fabric(
        4,
        3,
        &[(0, 1, 1, 2), (1, 1, 2, 2), (2, 1, 3, 2), (3, 1, 0, 2)],
        3,
    );
    let old = ring_tables(&f, &lids, false, true);
    let plan0 = old.align(&f, &lids).unwrap().vl_plan.unwrap();
    let mut swapped = plan0.path_sl.clone();
    for s in 0..4usize {
        for lid in 1..=8u16 {
            swapped.set(s, lid, 1 - plan0.sl(s, lid));
        }
    }
    let lfts = old.align(&f, &lids).unwrap().lfts;
    let new = TableSet::from_routing_with_plan(&f, &lids, &lfts, &VlPlan::layered(swapped, 2));
    let (plan, _, _) = check_plan(&f, &lids, &old, &new);
    assert_eq!(plan.verdict, Verdict::Blocked, "{plan:#?}");
    assert!(matches!(
        plan.cycle,
        Some(Cycle::CreditLoop { vls: Some(_), .. })
    ));
}

/// PGFT(3; 2,2,2; 1,2,2) with an aggregation node on every switch: Dmodc
/// routes it with escape paths on further VLs.
fn escape_fabric() -> Fabric {
    let tmp = tempfile::tempdir().unwrap();
    let (topo, _) = generate(tmp.path(), "--h 3 --m 2,2,2 --w 1,2,2 --aggregation-nodes");
    routec::parse::load_topology(&topo, &Default::default())
        .unwrap()
        .fabric
}

/// Dmodc's tables of `f` with `--vls 8`, and its LIDs.
fn dmodc_set(f: &Fabric) -> (LidMap, TableSet) {
    let lids = LidMap::new(f).unwrap();
    let r = dmodc_on(f, &lids);
    let set = TableSet::from_routing_with_plan(f, &lids, &r.lfts, r.vl_plan.as_ref().unwrap());
    (lids, set)
}

/// The escape fabric, one cable cut: the plan between the two routings
/// agrees with the oracle on every state it passes through.
#[test]
fn escape_vls_cable_cut_plan_agrees_with_the_oracle() {
    let f = escape_fabric();
    let g = without_cable(&f, 0x0002c90101000000, 3);
    let ((_, old), (lg, new)) = (dmodc_set(&f), dmodc_set(&g));
    let (plan, _, _) = check_plan(&g, &lg, &old, &new);
    assert!(plan.lanes.len() >= 2, "{plan:#?}");
    assert!(
        !matches!(plan.verdict, Verdict::OldUnsafe | Verdict::NewUnsafe),
        "{plan:#?}"
    );
}

/// The escape fabric losing a leaf's up cable: with each source on its old
/// or its new SL the upload blocks (a switch whose up-down path was cut
/// takes an escape hop while a source may still send on its old SL), so
/// the plan has the sources take their new SLs first; the oracle checks
/// the start (old tables, either SL) and every state of the phases with
/// the new SLs only.
#[test]
fn sls_first_when_either_sl_blocks() {
    let f = escape_fabric();
    let (_, old) = dmodc_set(&f);
    for port in [3, 4] {
        let g = without_cable(&f, 0x0002c90101000001, port);
        let (lg, new) = dmodc_set(&g);
        let (plan, _, states) = check_plan(&g, &lg, &old, &new);
        assert_eq!(plan.verdict, Verdict::Phased, "port {port}: {plan:#?}");
        assert!(plan.sls_first, "port {port}: {plan:#?}");
        assert!(states > 0);
        let text = routec::diff::plan::render(&plan);
        assert!(text.contains("SLs first"), "{text}");
    }
}

/// Every single cable cut of the escape fabric: the plan agrees with the
/// oracle (`check_plan`). Some cuts change an SL's VL between the
/// routings, so the plan merges those VLs into one lane for the upload's
/// mixtures; the OLD and the NEW tables alone are still judged VL by VL
/// (they were `new-unsafe` by the merged lane before).
#[test]
fn every_cable_cut_agrees_with_the_oracle() {
    let f = escape_fabric();
    let (_, old) = dmodc_set(&f);
    let (mut cuts, mut merged) = (0, 0);
    for &n in f.switches() {
        let node = f.node(n);
        for p in 1..=node.num_ports {
            let Some(peer) = f.peer(n, p) else { continue };
            if f.switch_index(peer.node).is_none() || node.guid > f.node(peer.node).guid {
                continue;
            }
            let g = without_cable(&f, node.guid.0, p);
            let (lg, new) = dmodc_set(&g);
            let (plan, _, _) = check_plan(&g, &lg, &old, &new);
            assert_ne!(plan.verdict, Verdict::NewUnsafe, "{:#x} {p}", node.guid.0);
            cuts += 1;
            merged += usize::from(plan.lanes.iter().any(|l| l.len() > 1));
        }
    }
    assert!(
        cuts >= 12 && merged > 0,
        "{cuts} cuts, {merged} with merged lanes"
    );
}
