//! The grouped port sets against OpenSM's rule written out plainly.

use super::super::hops::Distances;
use super::super::order::{self, NO_SWITCH};
use super::super::{NO_PATH, SwitchGraph, testfab};
use super::PortSets;
use crate::generate::faults::{FaultPlan, random_faults};
use crate::generate::pgft::{PgftSpec, pgft};
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE};
use crate::route::{Engine, RouteOptions, minhop::MinHop};

/// OpenSM's rule written out plainly (algorithms.md §2.2), the oracle:
/// for every switch and target in order, scan the switch-facing ports
/// upwards, keep those one hop closer, take the strictly least counter.
fn scan_every_port(f: &Fabric, lids: &LidMap) -> Lfts {
    let g = SwitchGraph::new(f);
    let d = Distances::compute(f);
    let targets = order::port_order(f, &g, None).targets;
    let mut l = Lfts::new(g.num_switches(), lids.max_lid());
    for s in 0..g.num_switches() {
        let mut cnt = [0u32; 256];
        for t in &targets {
            let x = t.sw as usize;
            let port = if t.sw == NO_SWITCH {
                NO_ROUTE
            } else if x == s {
                t.port
            } else {
                let least = d.get(s, x);
                let mut best: Option<u8> = None;
                for e in g.ends(s) {
                    let via = d.get(g.nbr[e] as usize, x);
                    let p = g.port[e];
                    if least != NO_PATH
                        && via != NO_PATH
                        && via + 1 == least
                        && best.is_none_or(|b| cnt[p as usize] < cnt[b as usize])
                    {
                        best = Some(p);
                    }
                }
                best.unwrap_or(NO_ROUTE)
            };
            l.set(s, t.lid, port);
            if port != NO_ROUTE && !t.is_switch {
                cnt[port as usize] += 1;
            }
        }
    }
    l
}

fn assert_minhop_is_the_scan(what: &str, f: &Fabric) {
    let lids = LidMap::new(f).unwrap();
    let r = MinHop.route(f, &lids, &RouteOptions::default()).unwrap();
    assert!(r.lfts == scan_every_port(f, &lids), "{what}: tables differ");
}

/// Intact fat-tree: every up set is own (round-robin path).
#[test]
fn intact_pgft_matches_the_scan() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 6], &[1, 4, 4], None)).unwrap();
    let g = SwitchGraph::new(&f);
    let d = Distances::compute(&f);
    let mut sets = PortSets::default();
    let tables = crate::route::minhop::MinHopTables { g: &g, dist: &d };
    let mut counted = vec![false; g.num_switches()];
    for t in order::port_order(&f, &g, None).targets {
        counted[t.sw as usize] |= !t.is_switch;
    }
    assert!(sets.load(&g, &tables, 0, &counted));
    assert!(sets.own.iter().any(|&o| o), "a leaf's up set is own");
    assert_minhop_is_the_scan("intact", &f);
}

/// Cut cables make sets overlap (scan path) next to own ones; parallel
/// cables (w = 2 at the top) put two ports behind one neighbour bit.
#[test]
fn degraded_pgfts_match_the_scan() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 6], &[1, 4, 4], Some(&[1, 1, 2]))).unwrap();
    for (links, seed) in [(0, 1), (6, 1), (30, 2), (80, 3)] {
        let plan = FaultPlan {
            links,
            switches: 0,
            seed,
        };
        let cut = f
            .apply_faults(&random_faults(&f, &plan).unwrap())
            .unwrap()
            .0;
        assert_minhop_is_the_scan(&format!("{links} cut, seed {seed}"), &cut);
    }
    assert_minhop_is_the_scan("line", &testfab::line_with_island());
    assert_minhop_is_the_scan("heur", &testfab::opensm_fixture("heur", "minhop"));
}
