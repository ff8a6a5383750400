//! Dmodc: the paper's worked examples, Dmodk behaviour on full-bisection
//! PGFTs, degraded PGFTs, determinism.

use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::lids::assign_missing_lids;
use routec::model::{
    Fabric, FabricBuilder, Guid, LidMap, NO_ROUTE, NodeIdx, NodeKind, NodeSpec, SwIdx,
};
use routec::route::dmodc::{costs, groups::Ranked};
use routec::route::{Dmodc, Engine, RouteOptions, Routing};
use routec::verify::congestion::{shift_congestion, topological_nodes, trace};

/// A hand-built fabric: switches and hosts by GUID, cables by (GUID, port).
struct Hand {
    b: FabricBuilder,
}

impl Hand {
    fn new() -> Self {
        Hand {
            b: FabricBuilder::new(),
        }
    }
    fn sw(&mut self, guid: u64, ports: u8) -> &mut Self {
        self.b
            .add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(guid),
                ports,
                format!("sw{guid:x}"),
            ))
            .unwrap();
        self
    }
    /// A one-port host `guid` on port `port` of switch `sw`.
    fn host(&mut self, guid: u64, sw: u64, port: u8) -> &mut Self {
        let h = self
            .b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(guid),
                1,
                format!("h{guid:x}"),
            ))
            .unwrap();
        self.b.port_mut(h, 1).unwrap().guid = Guid(guid + 1);
        let s = self.b.node_by_guid(Guid(sw)).unwrap();
        self.b.connect(h, 1, s, port).unwrap();
        self
    }
    fn cable(&mut self, a: u64, pa: u8, b: u64, pb: u8) -> &mut Self {
        let (a, b2) = (
            self.b.node_by_guid(Guid(a)).unwrap(),
            self.b.node_by_guid(Guid(b)).unwrap(),
        );
        self.b.connect(a, pa, b2, pb).unwrap();
        self
    }
    fn build(&mut self) -> Fabric {
        let mut f = std::mem::take(&mut self.b).build();
        assign_missing_lids(&mut f).unwrap();
        f
    }
}

fn route(f: &Fabric) -> Routing {
    let lids = LidMap::new(f).unwrap();
    Dmodc::default()
        .route(f, &lids, &RouteOptions::default())
        .unwrap()
}

/// The validity error of a fabric Dmodc must refuse.
fn route_err(f: &Fabric) -> routec::route::RouteError {
    let lids = LidMap::new(f).unwrap();
    Dmodc::default()
        .route(f, &lids, &RouteOptions::default())
        .unwrap_err()
}

fn sw_of(f: &Fabric, guid: u64) -> SwIdx {
    f.switch_index(f.node_by_guid(Guid(guid)).unwrap()).unwrap()
}

fn host_lid(f: &Fabric, guid: u64) -> u16 {
    f.port(f.node_by_guid(Guid(guid)).unwrap(), 1).lid
}

/// Fig. 3's network: leaves La (3 upswitches: B1, B3, Bx) and Lb (2: B2, By)
/// give B1 = 3, B2 = 2, B3 = 3; B1 → U1, U2; B2 → U2, U3; B3 → U1..U3.
fn fig3(with_b3: bool) -> Fabric {
    let mut h = Hand::new();
    for g in [0x1, 0x2] {
        h.sw(g, 8);
    }
    for g in [0x11, 0x12, 0x13, 0x14, 0x15, 0x21, 0x22, 0x23] {
        h.sw(g, 8);
    }
    h.host(0x100, 0x1, 8).host(0x200, 0x2, 8);
    // La = 0x1: B1 = 0x11, B3 = 0x13, Bx = 0x14; Lb = 0x2: B2 = 0x12, By = 0x15.
    h.cable(0x1, 1, 0x11, 1)
        .cable(0x1, 2, 0x14, 1)
        .cable(0x2, 1, 0x12, 1)
        .cable(0x2, 2, 0x15, 1);
    h.cable(0x11, 2, 0x21, 1).cable(0x11, 3, 0x22, 1);
    h.cable(0x12, 2, 0x22, 2).cable(0x12, 3, 0x23, 2);
    if with_b3 {
        h.cable(0x1, 3, 0x13, 1);
        h.cable(0x13, 2, 0x21, 3)
            .cable(0x13, 3, 0x22, 3)
            .cable(0x13, 4, 0x23, 3);
    } else {
        h.cable(0x1, 3, 0x13, 1);
    }
    h.build()
}

fn dividers(f: &Fabric, guids: &[u64]) -> Vec<u64> {
    let r = Ranked::new(f).unwrap();
    let c = costs::compute(&r);
    guids
        .iter()
        .map(|&g| c.divider[r.internal[sw_of(f, g).ix()] as usize])
        .collect()
}

#[test]
fn fig3_divider_propagation_keeps_the_maximum() {
    // Step 2 of Fig. 3: U1 = U2 = 3×2 = 6, U3 = 2×2 = 4 (U2 keeps 6 > 4).
    let f = fig3(false);
    assert_eq!(dividers(&f, &[0x11, 0x12, 0x13]), vec![3, 2, 3]);
    assert_eq!(dividers(&f, &[0x21, 0x22, 0x23]), vec![6, 6, 4]);
    // Step 3: B3 with 3 upswitches gives every top switch 3×3 = 9.
    let f = fig3(true);
    assert_eq!(dividers(&f, &[0x21, 0x22, 0x23]), vec![9, 9, 9]);
}

/// Fig. 4: s (Π_s = 4, cost 3 to λ) has two candidate groups, to T1 (one
/// cable) and T2 (three cables); node d = 20 takes group ⌊20/4⌋ mod 2 = 1
/// (T2) and port ⌊20/8⌋ mod 3 = 2 of it: s's port 5.
fn fig4() -> Fabric {
    let mut h = Hand::new();
    h.sw(0x10, 24).sw(0x11, 8); // leaves A (20 hosts: d = 0..19), λ (d = 20)
    h.sw(0x20, 8).sw(0x21, 8).sw(0x22, 8).sw(0x23, 8); // s, s2, s3, s4
    h.sw(0x30, 8).sw(0x31, 8); // T1, T2
    for (i, s) in [0x20, 0x21, 0x22, 0x23].into_iter().enumerate() {
        h.cable(0x10, i as u8 + 1, s, 1);
    }
    for i in 0..20u64 {
        h.host(0x1000 + (i << 4), 0x10, 5 + i as u8);
    }
    h.host(0x2000, 0x11, 5);
    h.cable(0x11, 1, 0x21, 2);
    h.cable(0x20, 2, 0x30, 1)
        .cable(0x20, 3, 0x31, 1)
        .cable(0x20, 4, 0x31, 2)
        .cable(0x20, 5, 0x31, 3);
    h.cable(0x30, 2, 0x21, 3).cable(0x31, 4, 0x21, 4);
    h.build()
}

#[test]
fn fig4_route_choice() {
    let f = fig4();
    assert_eq!(dividers(&f, &[0x20]), vec![4]);
    let lids = LidMap::new(&f).unwrap();
    let r = Dmodc {
        with_alt_ports: true,
    }
    .route(&f, &lids, &RouteOptions::default())
    .unwrap();
    let s = sw_of(&f, 0x20).ix();
    assert_eq!(r.lfts.get(s, host_lid(&f, 0x2000)), 5);
    // The 20 hosts of A are below s: the single down group, port 1.
    assert_eq!(r.lfts.get(s, host_lid(&f, 0x1000 + (19 << 4))), 1);
    // P_{s,20} (formula (2)): every port of both candidate groups.
    let alt = r.alt_ports.unwrap();
    let at = s * alt.stride + host_lid(&f, 0x2000) as usize;
    let p = &alt.ports[alt.offsets[at] as usize..alt.offsets[at + 1] as usize];
    assert_eq!(p, &[2, 3, 4, 5]);
}

/// Every CA pair routes to its destination along an up*down* path of the
/// engine's ranks; every switch has an entry for every CA LID (switches
/// without an up-down path by fallback hops; switches cut off from every
/// leaf, another component, excepted).
fn assert_complete_up_down(f: &Fabric, r: &Routing) {
    let ranks = r.promise.up_down_ranks.as_ref().unwrap();
    let nodes = topological_nodes(f);
    for s in f.switches() {
        let sw = f.switch_index(*s).unwrap();
        if ranks[sw.ix()] == routec::model::rank::UNRANKED {
            assert!(r.notes.iter().any(|n| n.code == "D001"));
            continue;
        }
        let row = r.lfts.row(sw.ix());
        for e in &nodes {
            assert_ne!(
                row[f.port(e.node, e.port).lid as usize],
                NO_ROUTE,
                "{}",
                f.node(*s).desc
            );
        }
    }
    for &a in &nodes {
        for &b in &nodes {
            if a == b {
                continue;
            }
            let mut seq: Vec<u32> = Vec::new();
            let lid = f.port(b.node, b.port).lid;
            trace(f, &r.lfts, a, lid, |n, _| {
                if let Some(s) = f.switch_index(n) {
                    seq.push(ranks[s.ix()]);
                }
            })
            .unwrap_or_else(|e| panic!("{a:?} -> {b:?}: {e:?}"));
            // Promise ranks count from the top: going up lowers the rank.
            let mut down = false;
            for w in seq.windows(2) {
                match w[1].cmp(&w[0]) {
                    std::cmp::Ordering::Less => assert!(!down, "{a:?} -> {b:?}: ranks {seq:?}"),
                    std::cmp::Ordering::Greater => down = true,
                    std::cmp::Ordering::Equal => panic!("same-rank hop {seq:?}"),
                }
            }
        }
    }
}

#[test]
fn down_path_variant_avoids_down_up_turns() {
    // Fat-tree-like, not a PGFT: s (rank 2) sees v below it with cost 3 to
    // T (via v → u → w → T, an up path from v) and t above it with cost 3.
    // Plain formula (1) would list v first (lower GUID) and node d = 0 would
    // go down to v and then up; the down-path variant keeps only t.
    let mut h = Hand::new();
    h.sw(0x1, 4).sw(0x2, 4).sw(0x3, 4); // leaves T, A, B
    h.sw(0x10, 4).sw(0x11, 4).sw(0x12, 4); // v, x, w
    h.sw(0x20, 4).sw(0x21, 4).sw(0x22, 4); // u, s, y
    h.sw(0x30, 4); // t
    h.host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4)
        .host(0x300, 0x3, 4);
    h.cable(0x2, 1, 0x10, 1)
        .cable(0x3, 1, 0x11, 1)
        .cable(0x1, 1, 0x12, 1);
    h.cable(0x10, 2, 0x20, 1).cable(0x12, 2, 0x20, 2);
    h.cable(0x10, 3, 0x21, 1).cable(0x11, 2, 0x21, 2);
    h.cable(0x12, 3, 0x22, 1);
    h.cable(0x21, 3, 0x30, 1).cable(0x22, 2, 0x30, 2);
    let f = h.build();
    let r = route(&f);
    let s = sw_of(&f, 0x21).ix();
    assert_eq!(r.lfts.get(s, host_lid(&f, 0x100)), 3, "s must go up to t");
    assert_complete_up_down(&f, &r);
}

#[test]
fn leaves_joined_by_a_level_cable_escape_over_it() {
    // Two leaves with no common ancestor, joined by one cable: no up-down
    // path, so each reaches the other's host by an escape hop over the
    // cable (port 1); two switches close no cycle, so one VL does.
    let mut h = Hand::new();
    h.sw(0x1, 4)
        .sw(0x2, 4)
        .host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4);
    h.cable(0x1, 1, 0x2, 1);
    let f = h.build();
    let r = route(&f);
    assert_eq!(r.lfts.get(sw_of(&f, 0x1).ix(), host_lid(&f, 0x200)), 1);
    assert_eq!(r.lfts.get(sw_of(&f, 0x2).ix(), host_lid(&f, 0x100)), 1);
    assert!(r.promise.up_down_ranks.is_none() && r.vl_plan.is_none());
    let d005 = r.notes.iter().find(|n| n.code == "D005").expect("D005");
    assert!(d005.message.contains("(2 leaf pairs)"), "{}", d005.message);
    assert!(d005.message.contains("1 VL(s) in all"), "{}", d005.message);
}

#[test]
fn leaves_with_no_path_at_all_are_an_error_naming_them() {
    let mut h = Hand::new();
    h.sw(0x1, 4)
        .sw(0x2, 4)
        .host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4);
    let e = route_err(&h.build());
    assert!(
        e.message
            .contains("(2 ordered leaf switch pairs) have no path at all"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("0x0000000000000001 -> 0x0000000000000002"),
        "{}",
        e.message
    );
}

/// Full-bisection PGFTs (m_l·p_l = w_{l+1}·p_{l+1}), 2 and 3 levels, with
/// parallel cables: every shift permutation is congestion-free (Dmodk).
#[test]
fn full_bisection_pgfts_route_shifts_without_congestion() {
    type Shape<'a> = (usize, &'a [u32], &'a [u32], &'a [u32]);
    let shapes: &[Shape] = &[
        (2, &[4, 8], &[1, 4], &[1, 1]),
        (2, &[4, 4], &[1, 2], &[1, 2]),
        (2, &[6, 4], &[1, 3], &[1, 2]),
        (3, &[2, 2, 4], &[1, 2, 2], &[1, 1, 1]),
        (3, &[4, 4, 4], &[1, 4, 4], &[1, 1, 1]),
        (3, &[4, 2, 2], &[1, 2, 4], &[1, 2, 1]),
        (3, &[2, 4, 3], &[1, 2, 2], &[1, 1, 2]),
        (2, &[2, 4], &[1, 2], &[2, 2]),
        (3, &[2, 3, 2], &[1, 2, 3], &[2, 2, 2]),
    ];
    for &(h, m, w, p) in shapes {
        let spec = PgftSpec::new(h, m, w, Some(p));
        for l in 1..h {
            assert_eq!(
                m[l - 1] * p[l - 1],
                w[l] * p[l],
                "{spec:?} is not full bisection"
            );
        }
        let f = pgft(&spec).unwrap();
        let r = route(&f);
        let lids = LidMap::new(&f).unwrap();
        let rep = shift_congestion(&f, &lids, &r.lfts, &topological_nodes(&f));
        assert_eq!(rep.failed, 0, "{spec:?}");
        assert_eq!(rep.max_switch, 1, "{spec:?}: per shift {:?}", rep.per_shift);
    }
}

#[test]
fn multi_plane_pgfts_fail_validity() {
    // w_1 > 1: a host's ports reach w_1 leaves of disjoint switch planes
    // (the digit a_1 never changes above level 1), so leaves of different
    // planes have no switch path at all (formats/dmodc.md).
    let f = pgft(&PgftSpec::new(2, &[2, 4], &[2, 2], None)).unwrap();
    let e = route_err(&f);
    assert!(
        e.message
            .contains("(32 ordered leaf switch pairs) have no path at all"),
        "{}",
        e.message
    );
}

#[test]
fn congestion_check_sees_a_bad_table() {
    // Send everything a leaf routes upward through its first up port: shifts
    // then share links, and the check must say so.
    let f = pgft(&PgftSpec::new(2, &[4, 8], &[1, 4], None)).unwrap();
    let mut r = route(&f);
    let lids = LidMap::new(&f).unwrap();
    for s in 0..8 {
        for v in r
            .lfts
            .row_mut(s)
            .iter_mut()
            .filter(|v| (5..=8).contains(*v))
        {
            *v = 5;
        }
    }
    let rep = shift_congestion(&f, &lids, &r.lfts, &topological_nodes(&f));
    assert_eq!(rep.failed, 0);
    assert_eq!(rep.max_switch, 4);
}

#[test]
fn degraded_pgfts_stay_complete_and_up_down() {
    let spec = PgftSpec::new(3, &[4, 4, 4], &[1, 4, 4], None);
    let f = pgft(&spec).unwrap();
    let cables = 2 * 64 * 4 / 2; // 128 switch-to-switch cables
    let mut routed = 0;
    for (pct, switches, seed) in [
        (1, 0, 1),
        (5, 0, 2),
        (10, 0, 3),
        (10, 0, 13),
        (0, 2, 4),
        (0, 6, 6),
        (5, 3, 5),
    ] {
        let plan = FaultPlan {
            links: cables * pct / 100,
            switches,
            seed,
        };
        let faults = random_faults(&f, &plan).unwrap();
        let top_only = faults.iter().all(|x| match x {
            routec::model::Fault::Switch(g) => g.0 >> 24 & 0xff == 3,
            _ => true,
        });
        let (g, _) = f.apply_faults(&faults).unwrap();
        let expected_broken = unreachable_leaf_pairs(&g);
        if expected_broken == 0 {
            assert_complete_up_down(&g, &route(&g));
            routed += 1;
        } else {
            let why = format!("{pct}% / {switches} (top only: {top_only})");
            assert_escaped(&g, expected_broken, &why);
        }
    }
    assert!(routed >= 4, "only {routed} degraded fabrics stayed up-down");
    // Whole top switches removed (4 of the 16): still routable, up-down.
    use routec::generate::pgft::switch_guid;
    let tops: Vec<_> = [0, 5, 10, 15]
        .iter()
        .map(|&i| routec::model::Fault::Switch(switch_guid(3, i)))
        .collect();
    let (g, _) = f.apply_faults(&tops).unwrap();
    assert_eq!(unreachable_leaf_pairs(&g), 0);
    assert_complete_up_down(&g, &route(&g));
}

/// A fabric where `broken` leaf pairs have no up-down path (and every
/// pair has some path): with one VL the engine either routes it (the D005
/// note names the pairs, and the verifier finds the tables clean) or
/// refuses naming the `--vls` that would do; with that many it routes, and
/// the verifier (VL-aware, from the tables) finds every route delivered
/// and no credit loop on any VL.
fn assert_escaped(g: &Fabric, broken: usize, why: &str) {
    let lids = LidMap::new(g).unwrap();
    let want = format!("({broken} leaf pairs)");
    let vls = match Dmodc::default().route(g, &lids, &RouteOptions::default()) {
        Ok(r) => {
            let d005 = r.notes.iter().find(|n| n.code == "D005").expect("D005");
            assert!(d005.message.contains(&want), "{why}: {}", d005.message);
            1
        }
        Err(e) => {
            let want = format!("({broken} of them leaf pairs)");
            assert!(e.message.contains(&want), "{why}: {}", e.message);
            let help = e.help.unwrap();
            let n = help.strip_prefix("--vls ").expect("--vls N");
            n.split(' ').next().unwrap().parse::<u8>().unwrap()
        }
    };
    let opts = RouteOptions {
        vls,
        ..RouteOptions::default()
    };
    let r = Dmodc::default().route(g, &lids, &opts).unwrap();
    let vopts = routec::verify::VerifyOptions {
        operational_vls: vls,
        ..routec::verify::VerifyOptions::promised_by(&r)
    };
    let v = routec::verify::verify_tables(g, &lids, &r.lfts, &vopts);
    assert!(v.is_clean(), "{why}: {:?}", v.counts);
}

/// Whether every leaf reaches every other leaf by some switch path.
fn connected_leaves(f: &Fabric) -> bool {
    use routec::model::rank::leaf_switches;
    let leaves = leaf_switches(f);
    let Some(&first) = leaves.first() else {
        return true;
    };
    let mut seen = vec![false; f.num_switches()];
    let mut stack = vec![first];
    seen[first.ix()] = true;
    while let Some(s) = stack.pop() {
        for (_, p) in f.switch_links(f.switch_node(s)) {
            let t = f.switch_index(p.node).unwrap();
            if !std::mem::replace(&mut seen[t.ix()], true) {
                stack.push(t);
            }
        }
    }
    leaves.iter().all(|l| seen[l.ix()])
}

/// Reference for §4.1: ordered leaf pairs with no up*down* path, by a BFS
/// over (switch, gone down yet) states on BFS ranks from the leaves.
fn unreachable_leaf_pairs(f: &Fabric) -> usize {
    use routec::model::rank::{leaf_ranks, leaf_switches};
    let ranks = leaf_ranks(f);
    let leaves = leaf_switches(f);
    let mut broken = 0;
    for &l in &leaves {
        let mut seen = vec![[false; 2]; f.num_switches()];
        let mut stack = vec![(l, false)];
        seen[l.ix()][0] = true;
        while let Some((s, down)) = stack.pop() {
            for (_, peer) in f.switch_links(f.switch_node(s)) {
                let t = f.switch_index(peer.node).unwrap();
                let next = match ranks[t.ix()].cmp(&ranks[s.ix()]) {
                    std::cmp::Ordering::Greater if !down => false,
                    std::cmp::Ordering::Less => true,
                    _ => continue,
                };
                if !seen[t.ix()][next as usize] {
                    seen[t.ix()][next as usize] = true;
                    stack.push((t, next));
                }
            }
        }
        broken += leaves
            .iter()
            .filter(|m| **m != l && !seen[m.ix()][0] && !seen[m.ix()][1])
            .count();
    }
    broken
}

#[test]
fn output_does_not_depend_on_thread_count() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 4], &[1, 4, 4], Some(&[1, 1, 1]))).unwrap();
    let faults = random_faults(
        &f,
        &FaultPlan {
            links: 10,
            switches: 1,
            seed: 7,
        },
    )
    .unwrap();
    let (f, _) = f.apply_faults(&faults).unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| route(&f).lfts)
    };
    assert_eq!(run(1).as_bytes(), run(2).as_bytes());
}

#[test]
fn node_order_renumbers_destinations() {
    // Reversing the node order of Fig. 4 moves λ's host from d = 20 to d = 0:
    // group ⌊0/4⌋ mod 2 = 0 (T1, port 2).
    let f = fig4();
    let lids = LidMap::new(&f).unwrap();
    let mut order: Vec<Guid> = topological_nodes(&f)
        .iter()
        .map(|e| f.port(e.node, e.port).guid)
        .collect();
    order.reverse();
    order.push(Guid(0xdead));
    let opts = RouteOptions {
        node_order: Some(order),
        ..RouteOptions::default()
    };
    let r = Dmodc::default().route(&f, &lids, &opts).unwrap();
    assert_eq!(r.lfts.get(sw_of(&f, 0x20).ix(), host_lid(&f, 0x2000)), 2);
    assert!(r.notes.iter().any(|n| n.code == "D003"));
}

#[test]
fn switch_lids_route_up_down_or_by_escape() {
    let f = pgft(&PgftSpec::new(2, &[2, 4], &[1, 2], None)).unwrap();
    let r = route(&f);
    let ranks = r.promise.up_down_ranks.clone().unwrap();
    let leaf = NodeIdx(0);
    let leaf_sw = f.switch_index(leaf).unwrap();
    for &t in f.switches() {
        let lid = f.switch_lid(t);
        let own = f.switch_index(t).unwrap();
        assert_eq!(r.lfts.get(own.ix(), lid), 0);
        // A leaf reaches every switch: up to any top, down to any leaf.
        let out = r.lfts.get(leaf_sw.ix(), lid);
        if t != leaf {
            assert_ne!(out, NO_ROUTE, "leaf -> {}", f.node(t).guid);
        }
    }
    // Two top switches never reach each other up-down: an escape hop down
    // to a leaf (all four have escape length 1: C = the four down groups;
    // the other top is d = N + t = 8 + 5 = 13, Π = 2, ⌊13/2⌋ mod 4 = 2 →
    // the third leaf, port 3), whose up port 4 leads to the other top
    // switch. Reported as D002; the leaves' own routes stay up-down.
    let tops: Vec<_> = f
        .switches()
        .iter()
        .filter(|s| ranks[f.switch_index(**s).unwrap().ix()] == 0)
        .collect();
    let (a, b) = (f.switch_index(*tops[0]).unwrap(), *tops[1]);
    assert_eq!(r.lfts.get(a.ix(), f.switch_lid(b)), 3);
    assert_eq!(r.lfts.get(leaf_sw.ix(), f.switch_lid(b)), 4);
    let d002 = r.notes.iter().find(|n| n.code == "D002").expect("D002");
    assert!(d002.message.starts_with("2 entries"), "{}", d002.message);
    assert!(r.notes.iter().all(|n| n.code != "D004"));
}

#[test]
fn formats_dmodc_md_example() {
    let md =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/formats/dmodc.md")).unwrap();
    let tag = "```text dmodc-example\n";
    let start = md.find(tag).expect("example block") + tag.len();
    let block = &md[start..start + md[start..].find("```").unwrap()];
    let f = pgft(&PgftSpec::new(2, &[2, 2], &[1, 2], Some(&[1, 2]))).unwrap();
    assert_eq!(routec::route::dmodc::lft_table(&f, &route(&f).lfts), block);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Small PGFT shapes (w_1 = 1, up to 3 levels, parallel cables) with a
    /// random share of cables and switches failed.
    fn shape() -> impl Strategy<Value = (PgftSpec, usize, usize, u64)> {
        (
            2usize..=3,
            prop::collection::vec((1u32..=3, 1u32..=3, 1u32..=2), 3),
            0usize..=20,
            0usize..=2,
            any::<u64>(),
        )
            .prop_map(|(h, lv, pct, sw, seed)| {
                let m: Vec<u32> = lv.iter().take(h).map(|x| x.0 + 1).collect();
                let mut w: Vec<u32> = lv.iter().take(h).map(|x| x.1).collect();
                w[0] = 1;
                let p: Vec<u32> = lv.iter().take(h).map(|x| x.2).collect();
                (PgftSpec::new(h, &m, &w, Some(&p)), pct, sw, seed)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn degraded_random_pgfts_route_up_down_or_escape((spec, pct, sw, seed) in shape()) {
            let f = pgft(&spec).unwrap();
            let above = f.num_switches() - spec.level_size(1) as usize;
            let plan = FaultPlan { links: 0, switches: sw.min(above), seed };
            let (g, _) = f.apply_faults(&random_faults(&f, &plan).unwrap()).unwrap();
            let cables = g.links().filter(|&(a, _, b, _)| g.is_switch(a) && g.is_switch(b)).count();
            let plan = FaultPlan { links: cables * pct / 100, switches: 0, seed };
            let (g, _) = g.apply_faults(&random_faults(&g, &plan).unwrap()).unwrap();
            let lids = LidMap::new(&g).unwrap();
            let broken = unreachable_leaf_pairs(&g);
            if broken == 0 {
                let r = Dmodc::default().route(&g, &lids, &RouteOptions::default()).unwrap();
                assert_complete_up_down(&g, &r);
            } else if connected_leaves(&g) {
                assert_escaped(&g, broken, "random");
            } else {
                let e = Dmodc::default().route(&g, &lids, &RouteOptions::default()).unwrap_err();
                prop_assert!(e.message.contains("have no path at all"), "{}", e.message);
            }
        }
    }
}

#[test]
fn groups_follow_neighbour_guid_not_port_number() {
    // Leaf A reaches leaf B through X (GUID 0x31, ports 1–2) and W (GUID
    // 0x30, ports 3–4): W's group comes first although its ports are higher.
    // A's Π = 1, #C = 2: d → group d mod 2, port ⌊d/2⌋ mod 2.
    let mut h = Hand::new();
    h.sw(0x1, 8).sw(0x2, 8).sw(0x30, 4).sw(0x31, 4);
    h.cable(0x1, 1, 0x31, 1)
        .cable(0x1, 2, 0x31, 2)
        .cable(0x1, 3, 0x30, 1)
        .cable(0x1, 4, 0x30, 2);
    h.cable(0x2, 1, 0x30, 3).cable(0x2, 2, 0x31, 3);
    // B's hosts come after A's one in the default order: d = 1..=4.
    h.host(0x100, 0x1, 8);
    for (i, g) in [0x200u64, 0x300, 0x400, 0x500].into_iter().enumerate() {
        h.host(g, 0x2, 4 + i as u8);
    }
    let f = h.build();
    let r = route(&f);
    let a = sw_of(&f, 0x1).ix();
    let ports: Vec<u8> = [0x200, 0x300, 0x400, 0x500]
        .iter()
        .map(|&g| r.lfts.get(a, host_lid(&f, g)))
        .collect();
    // d = 1: X port 1; d = 2: W port 4 (⌊2/2⌋ = 1); d = 3: X port 2; d = 4: W port 3.
    assert_eq!(ports, vec![1, 4, 2, 3]);
}

#[test]
fn compile_cli_routes_a_generated_pgft_and_refuses_a_split_one() {
    use std::process::Command;
    let bin = assert_cmd::cargo::cargo_bin("routec");
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join("t.topo");
    let st = Command::new(&bin)
        .args([
            "gen", "pgft", "--h", "2", "--m", "4,8", "--w", "1,4", "-q", "-o",
        ])
        .arg(&topo)
        .status()
        .unwrap();
    assert!(st.success());
    let out = dir.path().join("out");
    let run = |t: &std::path::Path| {
        Command::new(&bin)
            .args(["compile", "--engine", "dmodc", "--emit", "none", "-o"])
            .arg(&out)
            .arg(t)
            .output()
            .unwrap()
    };
    let o = run(&topo);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Two leaves with no cable between them: no path at all, exit 2
    // naming the pair.
    let split = dir.path().join("split.topo");
    let mut h = Hand::new();
    h.sw(0x1, 4)
        .sw(0x2, 4)
        .host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4);
    let f = h.build();
    let mut text = Vec::new();
    routec::emit::ibnetdiscover::write(&f, &mut text).unwrap();
    std::fs::write(&split, text).unwrap();
    let o = run(&split);
    assert_eq!(o.status.code(), Some(2));
    // miette wraps the message: compare words
    let err: Vec<String> = String::from_utf8_lossy(&o.stderr)
        .split_whitespace()
        .filter(|w| *w != "│")
        .map(String::from)
        .collect();
    let err = err.join(" ");
    assert!(
        err.contains("(2 ordered leaf switch pairs) have no path at all"),
        "{err}"
    );
}
