//! Agreement with the pair-by-pair tracer of `verify::congestion`: Dmodc on
//! full-bisection PGFTs (shift load 1), skewed tables, and a torus's long
//! routes and a routing loop.

use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, Lfts, LidMap};
use routec::route::{Dmodc, Engine, RouteOptions};
use routec::verify::congestion::{LinkIndex, pattern_load, shift_congestion, topological_nodes};
use routec::verify::quality::{LoadCount, QualityReport};

use super::{report, tables, tiny};

/// The per-shift maxima agree with `congestion::shift_congestion`, and the
/// all-to-all EFI with tracing all N(N−1) pairs one by one.
fn agrees_with_the_pair_tracer(f: &Fabric, t: &Lfts) -> QualityReport {
    let lids = LidMap::new(f).unwrap();
    let nodes = topological_nodes(f);
    let r = report(f, t, &nodes);
    let slow = shift_congestion(f, &lids, t, &nodes);
    let s = r.shift.as_ref().unwrap();
    assert_eq!(s.max_switch_load, slow.max_switch);
    let mut hist = std::collections::BTreeMap::new();
    slow.per_shift
        .iter()
        .for_each(|&m| *hist.entry(m).or_insert(0u64) += 1);
    let hist: Vec<_> = hist
        .into_iter()
        .map(|(load, count)| LoadCount { load, count })
        .collect();
    assert_eq!(s.histogram, hist);
    let pairs: Vec<_> = nodes
        .iter()
        .flat_map(|&a| nodes.iter().filter(move |&&b| b != a).map(move |&b| (a, b)))
        .collect();
    let all = pattern_load(f, t, &LinkIndex::new(f), &pairs);
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!(a.efi_switch, u64::from(all.max_switch));
    assert_eq!(a.efi_host, u64::from(all.max_host));
    assert_eq!(a.unrouted_pairs, all.failed as u64);
    r
}

#[test]
fn dmodc_on_full_bisection_pgfts_has_shift_load_one() {
    for (h, m, w, p) in [
        (2, &[4, 8][..], &[1, 4][..], &[1, 1][..]),
        (3, &[4, 4, 4][..], &[1, 4, 4][..], &[1, 1, 1][..]),
        (3, &[2, 4, 3][..], &[1, 2, 2][..], &[1, 1, 2][..]),
    ] {
        let f = pgft(&PgftSpec::new(h, m, w, Some(p))).unwrap();
        let lids = LidMap::new(&f).unwrap();
        let t = Dmodc::default()
            .route(&f, &lids, &RouteOptions::default())
            .unwrap()
            .lfts;
        let r = agrees_with_the_pair_tracer(&f, &t);
        let s = r.shift.as_ref().unwrap();
        assert_eq!(s.max_switch_load, 1, "PGFT({h};{m:?};{w:?};{p:?})");
        assert_eq!(s.unrouted_pairs + s.over_hop_limit_pairs, 0);
        let a = r.all_to_all.unwrap();
        assert_eq!(a.unrouted_pairs, 0);
        assert!(a.ratio.unwrap() >= 1.0);
        assert_eq!(r.hops.pairs, a.pairs);
    }
}

#[test]
fn skewed_tables_agree_with_the_pair_tracer() {
    let f = tiny();
    agrees_with_the_pair_tracer(&f, &tables(&f, |_| 4));
    let f = pgft(&PgftSpec::new(2, &[4, 8], &[1, 4], None)).unwrap();
    let lids = LidMap::new(&f).unwrap();
    let mut t = Dmodc::default()
        .route(&f, &lids, &RouteOptions::default())
        .unwrap()
        .lfts;
    // Leaf 0 sends everything up through port 5.
    t.row_mut(0)
        .iter_mut()
        .filter(|v| (5..=8).contains(*v))
        .for_each(|v| *v = 5);
    let r = agrees_with_the_pair_tracer(&f, &t);
    assert_eq!(r.shift.unwrap().max_switch_load, 4);
}

/// Routes of up to 6 switch links (a 6×6 torus under min-hop) do not fit the
/// route memo's first width: the second build must agree with the tracer
/// too; and a routing loop is counted over the hop limit, as the tracer
/// counts it failed.
#[test]
fn long_routes_and_loops_agree_with_the_pair_tracer() {
    use routec::generate::torus::{TorusSpec, torus};
    use routec::model::SwIdx;
    let spec = TorusSpec {
        dims: vec![6, 6],
        wrap: true,
        hosts: 2,
    };
    let f = torus(&spec).unwrap();
    let lids = LidMap::new(&f).unwrap();
    let mut t = routec::route::minhop::MinHop
        .route(&f, &lids, &RouteOptions::default())
        .unwrap()
        .lfts;
    let r = agrees_with_the_pair_tracer(&f, &t);
    assert_eq!(r.hops.max, 6, "a 6x6 torus has routes of 6 switch links");
    // Switches 0 and 1 (neighbours) forward the first host's LID to each
    // other.
    let nodes = topological_nodes(&f);
    let lid = f.port(nodes[0].node, nodes[0].port).lid;
    let port_to = |from: u32, to: u32| {
        let (n, m) = (f.switch_node(SwIdx(from)), f.switch_node(SwIdx(to)));
        (1..f.ports(n).len() as u8)
            .find(|&p| f.peer(n, p).map(|q| q.node) == Some(m))
            .unwrap()
    };
    t.set(0, lid, port_to(0, 1));
    t.set(1, lid, port_to(1, 0));
    let r = report(&f, &t, &nodes);
    let slow = shift_congestion(&f, &lids, &t, &nodes);
    // (The tracer also loads the looping links; the report adds no load
    // for a pair it cannot deliver, so only the counts compare.)
    let s = r.shift.unwrap();
    assert!(s.over_hop_limit_pairs > 0);
    assert_eq!(
        s.over_hop_limit_pairs + s.unrouted_pairs,
        slow.failed as u64
    );
}
