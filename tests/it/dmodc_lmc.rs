//! Dmodc with LMC > 0 (`src/route/dmodc/lmc.rs`, formats/dmodc.md §10): each
//! LID offset is its own tree, offset k taking the port Dmodk gives node
//! d + k·Π_s. Oracles walk the LFTs: on intact PGFTs every CA pair on
//! different leaves gets 2^LMC pairwise link-disjoint paths, and every
//! offset's tree alone is congestion-free under every shift permutation
//! (Dmodk's property, seed `dmodc-fault-resiliency-in-fat-trees.txt` §3.4);
//! on a degraded tree every offset of every pair still arrives.

use std::collections::HashMap;

use crate::sssp::{most_disjoint, walk, with_lmc};
use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, Lfts, LidMap};
use routec::route::dmodc::Dmodc;
use routec::route::{Engine, RouteOptions};

/// (leaf switch, base LID) of every CA port, in LID order.
fn cas(f: &Fabric, lids: &LidMap) -> Vec<(usize, u16)> {
    lids.iter()
        .filter(|(_, o)| !f.is_switch(o.node) && o.offset == 0)
        .map(|(lid, o)| {
            let peer = f.port(o.node, o.port).peer.unwrap();
            (f.switch_index(peer.node).unwrap().ix(), lid)
        })
        .collect()
}

fn route(f: &Fabric, lids: &LidMap) -> Lfts {
    Dmodc::default()
        .route(f, lids, &RouteOptions::default())
        .unwrap()
        .lfts
}

/// Largest number of routes of one shift permutation, offset `k` only,
/// sharing a switch-to-switch link.
fn worst_shift_load(f: &Fabric, t: &Lfts, cas: &[(usize, u16)], k: u16) -> usize {
    let n = cas.len();
    (1..n)
        .map(|shift| {
            let mut load: HashMap<(usize, u8), usize> = HashMap::new();
            for (i, &(src, _)) in cas.iter().enumerate() {
                let (_, base) = cas[(i + shift) % n];
                for l in walk(f, t, src, base + k).expect("delivered") {
                    *load.entry(l).or_default() += 1;
                }
            }
            load.into_values().max().unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}

/// Routes `spec` with `lmc` and checks that every CA pair on different
/// leaves has `disjoint` pairwise link-disjoint paths, that the offsets
/// leave the source leaf on 2^lmc different cables, and that every offset's
/// tree is congestion-free under every shift.
fn check_intact(spec: PgftSpec, lmc: u8, disjoint: usize) {
    let (f, lids) = with_lmc(pgft(&spec).unwrap(), lmc);
    let t = route(&f, &lids);
    let cas = cas(&f, &lids);
    let per = 1u16 << lmc;
    for &(src, _) in &cas {
        for &(dst, base) in &cas {
            let paths: Vec<_> = (0..per)
                .map(|k| walk(&f, &t, src, base + k).expect("delivered"))
                .collect();
            if src != dst {
                assert_eq!(
                    most_disjoint(&paths),
                    disjoint,
                    "{spec:?}: switch {src} to LID {base}: {paths:?}"
                );
                let mut first: Vec<_> = paths.iter().map(|p| p[0]).collect();
                first.sort_unstable();
                first.dedup();
                assert_eq!(first.len(), per as usize, "{spec:?}: {paths:?}");
            }
        }
    }
    for k in 0..per {
        assert_eq!(worst_shift_load(&f, &t, &cas, k), 1, "{spec:?} offset {k}");
    }
}

/// PGFT(2;4,8;1,4), 32 hosts, 4 spines, LMC 2: the four LIDs of a port
/// climb to the four spines.
#[test]
fn two_level_offsets_take_every_spine() {
    check_intact(PgftSpec::new(2, &[4, 8], &[1, 4], None), 2, 4);
}

/// PGFT(3;4,4,4;1,4,4), 64 hosts, LMC 2: four disjoint paths through the
/// two upper levels.
#[test]
fn three_level_offsets_part_on_both_levels() {
    check_intact(PgftSpec::new(3, &[4, 4, 4], &[1, 4, 4], None), 2, 4);
}

/// Two spines, each reached by two parallel cables (PGFT(2;4,4;1,2;1,2)),
/// LMC 2: the offsets part on the groups first, then on the cables of a
/// group, so the four leave the leaf on four cables; going down, a spine
/// picks its cable from its own shift, and offsets 0 and 2 (both through
/// the first spine) meet again on one down cable: two disjoint paths, not
/// four (formats/dmodc.md §10 says so).
#[test]
fn parallel_cables_part_going_up() {
    check_intact(PgftSpec::new(2, &[4, 4], &[1, 2], Some(&[1, 2])), 2, 2);
}

/// Without LMC nothing moves: the base LIDs of an LMC 2 routing take the
/// ports of the LMC 0 routing of the same fabric (LIDs renumbered).
#[test]
fn base_lids_keep_the_lmc0_ports() {
    let spec = PgftSpec::new(2, &[4, 8], &[1, 4], None);
    let (f0, lids0) = with_lmc(pgft(&spec).unwrap(), 0);
    let (f2, lids2) = with_lmc(pgft(&spec).unwrap(), 2);
    let (t0, t2) = (route(&f0, &lids0), route(&f2, &lids2));
    let (c0, c2) = (cas(&f0, &lids0), cas(&f2, &lids2));
    assert_eq!(c0.len(), c2.len());
    for s in 0..f0.num_switches() {
        for (a, b) in c0.iter().zip(&c2) {
            assert_eq!(t0.get(s, a.1), t2.get(s, b.1), "switch {s}");
        }
    }
}

/// A degraded PGFT(3;4,4,4;1,4,4) (6 cables and a switch removed): every
/// offset of every CA pair still arrives, 99 % of the pairs keep two or
/// more disjoint paths and three quarters three or more.
#[test]
fn degraded_tree_routes_every_offset() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 4], &[1, 4, 4], None)).unwrap();
    let plan = FaultPlan {
        links: 6,
        switches: 1,
        seed: 5,
    };
    let (f, _) = f.apply_faults(&random_faults(&f, &plan).unwrap()).unwrap();
    let (f, lids) = with_lmc(f, 2);
    let t = route(&f, &lids);
    let cas = cas(&f, &lids);
    let mut hist = [0usize; 5];
    for &(src, _) in &cas {
        for &(dst, base) in &cas {
            let paths: Vec<_> = (0..4)
                .map(|k| walk(&f, &t, src, base + k).expect("delivered"))
                .collect();
            if src != dst {
                hist[most_disjoint(&paths)] += 1;
            }
        }
    }
    eprintln!("degraded PGFT, LMC 2: pairs by disjoint paths {hist:?}");
    // Measured: [0, 32, 608, 2048, 1152]; the same tables without the LMC
    // spread put all 3,840 pairs at 1.
    let pairs: usize = hist.iter().sum();
    assert_eq!(pairs, 64 * 60);
    assert!(hist[1] * 100 <= pairs, "{hist:?}");
    assert!((hist[3] + hist[4]) * 4 >= pairs * 3, "{hist:?}");
}
