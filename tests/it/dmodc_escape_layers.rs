//! Dmodc's escape lanes walk only the paths toward escape targets
//! (`route::dmodc::lanes`, `layers::assign_layers_keeping_up_down`): the
//! other paths are up–down and go on VL 0 uncounted one by one. The plan
//! and the per-VL load must be exactly those of the layering that walks
//! every path (`assign_layers_keeping_base`), on fabrics where the escape
//! needs several VLs, and on ones where it needs one (the shortcut cannot
//! tell those apart from the escape targets' paths alone and walks all).

use crate::common::{aggregation_nodes as aggregation, pgft_with as fabric};

use routec::generate::features::{Features, MgmtPod, apply};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, LidMap};
use routec::route::layers::{Fit, assign_layers_keeping_base};
use routec::route::{RouteOptions, engine_by_name};

/// The source end ports per VL that Dmodc's note D005 states.
fn loads_in_note(message: &str) -> Vec<u64> {
    let (_, tail) = message
        .split_once("source end ports per VL: ")
        .unwrap_or_else(|| panic!("no loads in {message}"));
    tail.trim_end_matches(')')
        .split(", ")
        .map(|x| x.parse().expect("a load"))
        .collect()
}

/// Routes `f` with Dmodc (up to 15 VLs) and compares its plan and note
/// with the layering of every path; returns the VLs used.
fn same_as_walking_every_path(f: &Fabric) -> u8 {
    let lids = LidMap::new(f).unwrap();
    let opts = RouteOptions {
        vls: 15,
        ..Default::default()
    };
    let r = engine_by_name("dmodc")
        .unwrap()
        .route(f, &lids, &opts)
        .expect("dmodc routes");
    let note = r.notes.iter().find(|n| n.code == "D005").expect("D005");
    let all = assign_layers_keeping_base(f, &lids, &r.lfts, Fit::engine(15, 15));
    assert_eq!(all.unplaced, 0);
    assert_eq!(loads_in_note(&note.message), all.load);
    match &r.vl_plan {
        Some(plan) => assert!(*plan == all.plan, "plans differ"),
        None => assert_eq!(all.plan.vls, 1),
    }
    all.plan.vls
}

#[test]
fn aggregation_nodes_layer_as_when_every_path_is_walked() {
    assert_eq!(
        same_as_walking_every_path(&fabric(&[2, 2], &[1, 2], &aggregation())),
        1
    );
    assert_eq!(
        same_as_walking_every_path(&fabric(&[2, 2, 2], &[1, 2, 2], &aggregation())),
        2
    );
    assert!(same_as_walking_every_path(&fabric(&[4, 4, 4], &[1, 4, 4], &aggregation())) >= 2);
}

#[test]
fn leaves_without_a_common_ancestor_layer_as_when_every_path_is_walked() {
    let pod = Features {
        mgmt_pod: Some(MgmtPod {
            leaves: 1,
            hosts: 2,
            tops: 2,
        }),
        isolated_pods: 1,
        ..Features::default()
    };
    assert_eq!(
        same_as_walking_every_path(&fabric(&[4, 4, 4], &[1, 4, 4], &pod)),
        1
    );
    let both = Features {
        aggregation_nodes: true,
        ..pod.clone()
    };
    assert_eq!(
        same_as_walking_every_path(&fabric(&[4, 4, 4], &[1, 4, 4], &both)),
        3
    );
    let degraded = Features {
        empty_host_ports: 0.2,
        cross_cables: 2,
        drop_top: 1,
        seed: 3,
        ..both
    };
    assert!(same_as_walking_every_path(&fabric(&[4, 4, 4], &[1, 4, 4], &degraded)) >= 3);
}

/// A path's shape read off the tables: the number of runs of hops in one
/// direction, and whether the first goes up, a hop going up when it leads
/// to a higher (leaf rank, GUID) — the order `layers::shapes` states.
fn shape(
    f: &Fabric,
    lfts: &routec::model::Lfts,
    rank: &[u32],
    src: usize,
    lid: u16,
) -> (u32, bool) {
    let key = |s: usize| (rank[s].min(1 << 20), f.node(f.switches()[s]).guid.0);
    let (mut cur, mut dirs) = (src, Vec::new());
    for _ in 0..64 {
        let out = lfts.get(cur, lid);
        let next = f
            .peer(f.switches()[cur], out)
            .and_then(|p| f.switch_index(p.node));
        let Some(next) = next.filter(|_| out != routec::model::NO_ROUTE) else {
            break;
        };
        dirs.push(key(next.ix()) > key(cur));
        cur = next.ix();
    }
    let runs = 1 + dirs.windows(2).filter(|w| w[0] != w[1]).count() as u32;
    (runs, dirs.first().copied().unwrap_or(false))
}

/// Dmodc's SLs of `f` with `fit`, checked: every escape path of one shape
/// on one VL (a plan by shape), and the verifier and the per-pair petgraph
/// oracle of `verify/oracle.rs` find no credit loop. Returns the VLs used.
fn shapes_one_vl_each(f: &Fabric, fit: Fit) -> u8 {
    let lids = LidMap::new(f).unwrap();
    let r = engine_by_name("dmodc")
        .unwrap()
        .route(f, &lids, &vls15())
        .expect("dmodc routes");
    let l = assign_layers_keeping_base(f, &lids, &r.lfts, fit);
    assert_eq!(l.unplaced, 0);
    let rank = routec::model::rank::leaf_ranks(f);
    let mut vl_of = std::collections::BTreeMap::new();
    for (lid, o) in lids.iter().filter(|(_, o)| !f.is_switch(o.node)) {
        for s in 0..f.num_switches() {
            let sl = l.plan.sl(s, lid);
            if sl > 0 {
                let k = shape(f, &r.lfts, &rank, s, lid);
                assert!(k.0 >= 2, "escape path {s} -> {lid} ({o:?}) has one run");
                let v = vl_of.entry(k).or_insert(sl);
                assert_eq!(*v, sl, "shape {k:?} on two VLs");
            }
        }
    }
    let opts = routec::verify::VerifyOptions {
        vl_plan: Some(l.plan.clone()),
        ..Default::default()
    };
    let v = routec::verify::verify_tables(f, &lids, &r.lfts, &opts);
    assert!(v.is_clean(), "{}", v.render());
    assert_eq!(
        crate::verify::brute_force(f, &lids, &r.lfts, &l.plan),
        (0, false)
    );
    l.plan.vls
}

/// A plan by shape, forced on the small escape fabrics: valleys (down
/// then up) and the other shapes each on one VL, no credit loop, and no
/// more VLs than first fit on these fabrics.
#[test]
fn plans_by_shape_are_deadlock_free() {
    let forced = Fit {
        shapes_from: 0,
        ..Fit::engine(15, 15)
    };
    let degraded = Features {
        empty_host_ports: 0.2,
        drop_top: 1,
        seed: 3,
        ..aggregation()
    };
    for (m, w, feat) in [
        (&[2, 2, 2][..], &[1, 2, 2][..], aggregation()),
        (&[4, 4, 4], &[1, 4, 4], aggregation()),
        (&[4, 4, 4], &[1, 4, 4], degraded),
    ] {
        let f = fabric(m, w, &feat);
        let lids = LidMap::new(&f).unwrap();
        let r = engine_by_name("dmodc")
            .unwrap()
            .route(&f, &lids, &vls15())
            .unwrap();
        let first = assign_layers_keeping_base(&f, &lids, &r.lfts, Fit::first(15));
        assert_eq!(
            shapes_one_vl_each(&f, forced),
            first.plan.vls,
            "{m:?} {w:?}"
        );
    }
}

/// Past [`routec::route::layers::SHAPES_FROM`] escape paths Dmodc plans by
/// shape: PGFT(3; 8,8,16; 1,8,8) with aggregation nodes, 32 K escape
/// paths (valleys from the spines and tops, dips between spines of two
/// pods, hills from a spine over a top).
#[test]
fn many_escape_paths_are_planned_by_shape() {
    let f = fabric(&[8, 8, 16], &[1, 8, 8], &aggregation());
    let vls = same_as_walking_every_path(&f);
    assert_eq!(shapes_one_vl_each(&f, Fit::engine(15, 15)), vls);
    assert_eq!(vls, 3);
}

fn vls15() -> RouteOptions {
    RouteOptions {
        vls: 15,
        ..Default::default()
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Plans by shape, forced on random 3-level PGFTs with aggregation
    /// nodes and random real-fabric features (empty host ports, a missing
    /// top, spine-to-spine cables, a management pod, an isolated pod):
    /// whether the shapes settle it or first fit does, every path is
    /// placed and the verifier finds no credit loop.
    #[test]
    fn plans_by_shape_never_close_a_credit_loop(
        m2 in 2u32..5,
        m3 in 2u32..5,
        w3 in 1u32..4,
        empty in 0u32..4,
        drop_top in 0u32..2,
        cross in 0u32..3,
        pod in proptest::bool::ANY,
        seed in 0u64..1000,
    ) {
        let feat = Features {
            aggregation_nodes: true,
            empty_host_ports: f64::from(empty) / 10.0,
            drop_top: drop_top.min(w3 * m2 - 1),
            cross_cables: cross,
            mgmt_pod: pod.then_some(MgmtPod { leaves: 1, hosts: 2, tops: 1 }),
            isolated_pods: u32::from(pod),
            seed,
        };
        let spec = PgftSpec::new(3, &[2, m2, m3], &[1, m2, w3], None);
        let Ok(f) = apply(&spec, &pgft(&spec).expect("PGFT"), &feat) else {
            // features this PGFT cannot take (the generator says which)
            return Ok(());
        };
        let lids = LidMap::new(&f).unwrap();
        let Ok(r) = engine_by_name("dmodc").unwrap().route(&f, &lids, &vls15()) else {
            // a feature left some pair with no path at all: refused, fine
            return Ok(());
        };
        let forced = Fit { shapes_from: 0, ..Fit::engine(15, 15) };
        let l = assign_layers_keeping_base(&f, &lids, &r.lfts, forced);
        proptest::prop_assert_eq!(l.unplaced, 0);
        let opts = routec::verify::VerifyOptions {
            vl_plan: Some(l.plan.clone()),
            ..Default::default()
        };
        let v = routec::verify::verify_tables(&f, &lids, &r.lfts, &opts);
        proptest::prop_assert!(v.count(routec::verify::Code::V020) == 0, "{}", v.render());
    }
}
