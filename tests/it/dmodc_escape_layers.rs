//! Dmodc's escape lanes walk only the paths toward escape targets
//! (`route::dmodc::lanes`, `layers::assign_layers_keeping_up_down`): the
//! other paths are up–down and go on VL 0 uncounted one by one. The plan
//! and the per-VL load must be exactly those of the layering that walks
//! every path (`assign_layers_keeping_base`), on fabrics where the escape
//! needs several VLs, and on ones where it needs one (the shortcut cannot
//! tell those apart from the escape targets' paths alone and walks all).

use routec::generate::features::{Features, MgmtPod, apply};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, LidMap};
use routec::route::layers::assign_layers_keeping_base;
use routec::route::{RouteOptions, engine_by_name};

fn fabric(m: &[u32], w: &[u32], feat: &Features) -> Fabric {
    let spec = PgftSpec::new(m.len(), m, w, None);
    let plain = pgft(&spec).expect("PGFT");
    apply(&spec, &plain, feat).expect("features")
}

fn aggregation() -> Features {
    Features {
        aggregation_nodes: true,
        ..Features::default()
    }
}

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
    let all = assign_layers_keeping_base(f, &lids, &r.lfts, 15);
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
