//! The torus, dragonfly, 2-D fat tree and real-fabric PGFT generators:
//! counts and cables worked out by hand from `formats/{torus,dragonfly,
//! ft2d,pgft}.md`, the ibnetdiscover round trip, and what min-hop and
//! layering make of them (every pair reachable; credit loops on one VL on
//! tori and dragonflies, none once layered, by the petgraph oracle).

use std::collections::BTreeMap;

use crate::verify::brute_force;
use routec::generate::dragonfly::{DragonflySpec, dragonfly};
use routec::generate::features::{Features, MgmtPod, apply};
use routec::generate::ft2d::{FaultPattern, Ft2dSpec, faulty_leaves, ft2d};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::generate::torus::{TorusSpec, torus};
use routec::model::{Fabric, LidMap, NodeKind, VlPlan};
use routec::route::layers::assign_layers;
use routec::route::{RouteOptions, engine_by_name};

fn counts(f: &Fabric) -> (usize, usize, usize) {
    let cas = f.nodes().iter().filter(|n| n.kind == NodeKind::Ca).count();
    let sw_links = f
        .links()
        .filter(|&(a, _, b, _)| f.is_switch(a) && f.is_switch(b))
        .count();
    (f.num_switches(), cas, sw_links)
}

/// Switch-to-switch cables per unordered pair of switch GUIDs.
fn cable_pairs(f: &Fabric) -> BTreeMap<(u64, u64), usize> {
    let mut m = BTreeMap::new();
    for (a, _, b, _) in f
        .links()
        .filter(|&(a, _, b, _)| f.is_switch(a) && f.is_switch(b))
    {
        let (x, y) = (f.node(a).guid.0, f.node(b).guid.0);
        *m.entry((x.min(y), x.max(y))).or_default() += 1;
    }
    m
}

fn round_trips(f: &Fabric) {
    let mut text = Vec::new();
    routec::emit::ibnetdiscover::write(f, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let back = routec::parse::ibnetdiscover::parse(
        "gen.topo",
        &text,
        routec::parse::TopoFormat::Ibnetdiscover,
        false,
    )
    .unwrap()
    .fabric;
    crate::fabric_eq::assert_same_fabric(f, &back);
}

/// Min-hop reaches every pair; returns whether one VL has a credit loop,
/// and checks that layering on up to 8 VLs removes it (oracle: petgraph).
fn minhop_loops(f: &Fabric) -> (bool, u8) {
    let lids = LidMap::new(f).unwrap();
    let r = engine_by_name("minhop")
        .unwrap()
        .route(f, &lids, &RouteOptions::default())
        .unwrap();
    let (unreachable, cyclic) = brute_force(f, &lids, &r.lfts, &VlPlan::single(&r.lfts));
    assert_eq!(unreachable, 0);
    let l = assign_layers(f, &lids, &r.lfts, 8);
    assert_eq!(l.unplaced, 0);
    assert_eq!(brute_force(f, &lids, &r.lfts, &l.plan), (0, false));
    (cyclic, l.plan.vls)
}

#[test]
fn torus_4x4_by_hand() {
    let f = torus(&TorusSpec {
        dims: vec![4, 4],
        wrap: true,
        hosts: 1,
    })
    .unwrap();
    // 16 switches of degree 4: 32 cables; one host each
    assert_eq!(counts(&f), (16, 16, 32));
    assert!(cable_pairs(&f).values().all(|&n| n == 1));
    round_trips(&f);
    let (cyclic, vls) = minhop_loops(&f);
    assert!(cyclic, "min-hop on a torus closes the ring of each row");
    assert!((2..=8).contains(&vls));
}

#[test]
fn mesh_and_size_two_dimensions() {
    let mesh = torus(&TorusSpec {
        dims: vec![3, 3],
        wrap: false,
        hosts: 2,
    })
    .unwrap();
    // 3×3 mesh: 2 dimensions × 3 lines × 2 cables
    assert_eq!(counts(&mesh), (9, 18, 12));
    // a mesh routed min-hop is dimension-free of loops only by luck: just reachability
    minhop_loops(&mesh);
    // size 2 with wrap-around: − and + neighbours coincide, two parallel cables
    let t2 = torus(&TorusSpec {
        dims: vec![2, 3],
        wrap: true,
        hosts: 1,
    })
    .unwrap();
    let pairs = cable_pairs(&t2);
    assert_eq!(pairs.values().filter(|&&n| n == 2).count(), 3, "{pairs:?}");
    assert!(
        torus(&TorusSpec {
            dims: vec![],
            wrap: true,
            hosts: 1
        })
        .is_err()
    );
    assert!(
        torus(&TorusSpec {
            dims: vec![4],
            wrap: true,
            hosts: 253
        })
        .is_err()
    );
}

#[test]
fn dragonfly_every_group_pair_shares_one_cable() {
    let spec = DragonflySpec {
        a: 4,
        p: 2,
        h: 2,
        groups: None,
    };
    let f = dragonfly(&spec).unwrap();
    let g = spec.groups();
    assert_eq!(g, 9);
    // 36 switches; local: 9 groups × C(4,2); global: C(9,2)
    assert_eq!(counts(&f), (36, 72, 9 * 6 + 36));
    let group_of = |guid: u64| (guid - routec::generate::dragonfly::SWITCH_GUID_BASE) / 4;
    let mut between: BTreeMap<(u64, u64), usize> = BTreeMap::new();
    for ((x, y), n) in cable_pairs(&f) {
        let (gx, gy) = (group_of(x), group_of(y));
        if gx != gy {
            *between.entry((gx.min(gy), gx.max(gy))).or_default() += n;
        }
    }
    assert_eq!(between.len(), 36);
    assert!(between.values().all(|&n| n == 1), "{between:?}");
    round_trips(&f);
    let (cyclic, vls) = minhop_loops(&f);
    assert!(cyclic);
    assert!(vls <= 4, "{vls}");
    // g − 1 must divide a·h
    assert!(
        dragonfly(&DragonflySpec {
            groups: Some(4),
            ..spec
        })
        .is_err()
    );
}

#[test]
fn ft2d_by_hand() {
    let spec = Ft2dSpec {
        nx: 3,
        ny: 2,
        hosts: 2,
        rsw: 2,
        csw: 1,
    };
    let f = ft2d(&spec).unwrap();
    // 6 leaves + 2 rows × 2 RSW + 3 columns × 1 CSW; every leaf to each of
    // its 2 RSWs and its CSW
    assert_eq!(counts(&f), (6 + 4 + 3, 12, 6 * 3));
    assert!(cable_pairs(&f).values().all(|&n| n == 1));
    round_trips(&f);
    minhop_loops(&f);
    let spread = faulty_leaves(&spec, 2, FaultPattern::Spread, 7).unwrap();
    assert_eq!(spread.len(), 2);
    assert_ne!(spread[0].0, spread[1].0, "distinct columns");
    assert_ne!(spread[0].1, spread[1].1, "distinct rows");
    let row = faulty_leaves(&spec, 3, FaultPattern::Row, 7).unwrap();
    assert!(row.iter().all(|&(_, y)| y == row[0].1));
    assert!(faulty_leaves(&spec, 3, FaultPattern::Spread, 7).is_err());
}

#[test]
fn real_fabric_features_by_hand() {
    // PGFT(3; 4,2,4; 1,2,2): 8 leaves, 8 spines, 4 tops, 32 hosts
    let spec = PgftSpec::new(3, &[4, 2, 4], &[1, 2, 2], None);
    let base = pgft(&spec).unwrap();
    assert_eq!(counts(&base), (20, 32, 32));
    let feat = Features {
        aggregation_nodes: true,
        empty_host_ports: 0.25,
        drop_top: 1,
        mgmt_pod: Some(MgmtPod {
            leaves: 2,
            hosts: 3,
            tops: 2,
        }),
        isolated_pods: 0,
        cross_cables: 2,
        seed: 1,
    };
    let f = apply(&spec, &base, &feat).unwrap();
    let switches = 20 - 1 + 2;
    // hosts: 32 − 8 empty + 6 in the pod; one aggregation node per switch
    assert_eq!(counts(&f).0, switches);
    assert_eq!(counts(&f).1, 32 - 8 + 6 + switches);
    // spine–top: 16 − 4 (the dropped top's); pod: 2 leaves × 2 tops; 2 cross
    assert_eq!(counts(&f).2, 16 + 16 - 4 + 4 + 2);
    round_trips(&f);
    minhop_loops(&f);
    assert_eq!(
        apply(&spec, &base, &feat.clone()).unwrap().links().count(),
        f.links().count()
    );
    assert!(
        apply(
            &spec,
            &base,
            &Features {
                drop_top: 4,
                ..feat
            }
        )
        .is_err()
    );
}
