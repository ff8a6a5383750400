//! Random small fabrics and changes (a proptest), and the verdicts their
//! plans reach.

use std::collections::BTreeMap;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use routec::diff::plan::UploadPlan;
use routec::model::faults::{Fault, PortRef};
use routec::model::{
    Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec, SwIdx, TableSet,
};
use routec::route::RootSpec;

use super::fabrics::{route, switches};
use super::oracle::check_plan;

/// A random connected fabric of 3–8 switches (ring and chords, parallel
/// cables possible), 1–2 hosts each.
fn random_fabric(rng: &mut ChaCha8Rng) -> Fabric {
    let nsw = rng.random_range(3..=8usize);
    let mut b = FabricBuilder::new();
    let sw = switches(&mut b, nsw, 8);
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
