//! Generated PGFTs: Dmodk's shift permutations without congestion, multi-
//! plane fabrics refused, degraded fabrics complete and up*/down*.

use super::rules::assert_complete_up_down;
use super::*;

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
