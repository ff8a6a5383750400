//! Dmodc's escape lengths (`formats/dmodc.md` §9, `route::dmodc::escape`):
//! e[s] toward target switch t is the length of the shortest path from s
//! made of any hops followed by an up–down path. The engine computes them
//! for all targets at once by row-wise relaxation; the oracle here is the
//! definition, one target at a time: a breadth-first search over the
//! switch graph whose sources are the switches with an up–down path,
//! started at their up–down cost (a bucket queue, as Dial's algorithm).

use std::collections::BTreeSet;

use crate::common::{aggregation_nodes, pgft_with as fabric};

use routec::generate::features::{Features, MgmtPod};
use routec::model::Fabric;
use routec::route::dmodc::costs::{self, INF};
use routec::route::dmodc::escape;
use routec::route::dmodc::groups::Ranked;

/// Neighbour switches of every ranked switch, from the fabric's cables.
fn neighbours(f: &Fabric, r: &Ranked) -> Vec<BTreeSet<usize>> {
    let mut adj = vec![BTreeSet::new(); r.len()];
    for (s, set) in adj.iter_mut().enumerate() {
        let node = f.switch_node(r.order[s]);
        for port in f.ports(node).iter().skip(1) {
            let Some(peer) = port.peer else { continue };
            let Some(sw) = f.switch_index(peer.node) else {
                continue;
            };
            let p = r.internal[sw.ix()];
            if p != u32::MAX && p as usize != s {
                set.insert(p as usize);
            }
        }
    }
    adj
}

/// Shortest "any hops, then up–down" lengths toward `t`: sources are the
/// switches with a finite cost c[s][t], at distance c[s][t].
fn oracle(adj: &[BTreeSet<usize>], c: impl Fn(usize) -> u8) -> Vec<u8> {
    let n = adj.len();
    let mut e: Vec<u8> = (0..n).map(&c).collect();
    let mut queue: Vec<Vec<usize>> = vec![Vec::new(); 256];
    for s in 0..n {
        queue[e[s] as usize].push(s);
    }
    for d in 0..254 {
        for s in std::mem::take(&mut queue[d]) {
            if e[s] as usize != d {
                continue;
            }
            for &p in &adj[s] {
                if e[p] as usize > d + 1 {
                    e[p] = (d + 1) as u8;
                    queue[d + 1].push(p);
                }
            }
        }
    }
    e
}

fn check(f: &Fabric) -> usize {
    let r = Ranked::new(f).expect("ranked");
    let c = costs::compute(&r);
    let esc = escape::compute(&r, &c);
    let adj = neighbours(f, &r);
    let mut escaping = 0;
    for t in 0..r.len() {
        let needs = (0..r.len()).any(|s| c.get(s, t) == INF);
        let Some(e) = esc.toward(t) else {
            assert!(!needs, "target {t} has switches without an up-down path");
            continue;
        };
        assert!(needs, "target {t} has escape lengths but needs none");
        let want = oracle(&adj, |s| c.get(s, t));
        for (s, &w) in want.iter().enumerate() {
            assert_eq!(e[s], w, "e[{s}] toward {t}");
            escaping += usize::from(c.get(s, t) == INF && w != INF);
        }
    }
    escaping
}

#[test]
fn escape_lengths_match_a_per_target_search_with_aggregation_nodes() {
    let feat = aggregation_nodes();
    // Top switches reach each other and other spines' aggregation nodes
    // only through valleys: many escapes, two and more hops long.
    assert!(check(&fabric(&[4, 4, 4], &[1, 4, 4], &feat)) > 100);
}

#[test]
fn escape_lengths_match_a_per_target_search_on_a_production_like_fabric() {
    let feat = Features {
        aggregation_nodes: true,
        empty_host_ports: 0.2,
        drop_top: 1,
        mgmt_pod: Some(MgmtPod {
            leaves: 1,
            hosts: 2,
            tops: 2,
        }),
        isolated_pods: 1,
        cross_cables: 2,
        seed: 3,
    };
    assert!(check(&fabric(&[4, 4, 4], &[1, 4, 4], &feat)) > 100);
}

#[test]
fn an_intact_two_level_fat_tree_escapes_only_between_top_switches() {
    // Top switches never reach each other up-down; every other pair does.
    let f = fabric(&[4, 4], &[1, 4], &Features::default());
    assert_eq!(check(&f), 4 * 3);
}
