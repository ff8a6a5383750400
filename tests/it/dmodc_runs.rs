//! Dmodc's whole-run fast paths (`src/route/dmodc/runs.rs`, issue 17)
//! write the bytes of the per-destination formulas: the same fabric routed
//! with `with_alt_ports` (which sends every entry through the per-LID
//! odometer of formulas (3)–(4), the path `tests/it/dmodc/` pins against
//! hand-worked tables) gives the same tables, the same escape count
//! (`D002`) and the same VL plan, on intact, parallel-cable, degraded and
//! real-feature fabrics.

use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::features::{Features, MgmtPod, apply};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, LidMap};
use routec::route::{Dmodc, Engine, RouteOptions, Routing};

fn route(f: &Fabric, alt: bool, vls: u8) -> Routing {
    let lids = LidMap::new(f).expect("lids");
    let opts = RouteOptions {
        vls,
        ..RouteOptions::default()
    };
    Dmodc {
        with_alt_ports: alt,
    }
    .route(f, &lids, &opts)
    .expect("route")
}

fn assert_same(name: &str, f: &Fabric, vls: u8) {
    let fast = route(f, false, vls);
    let slow = route(f, true, vls);
    assert!(slow.alt_ports.is_some() && fast.alt_ports.is_none());
    let rows = fast.lfts.num_switches();
    assert_eq!(rows, slow.lfts.num_switches(), "{name}");
    for s in 0..rows {
        assert_eq!(fast.lfts.row(s), slow.lfts.row(s), "{name}: switch {s}");
    }
    let codes = |r: &Routing| -> Vec<String> {
        r.notes
            .iter()
            .map(|n| format!("{} {}", n.code, n.message))
            .collect()
    };
    assert_eq!(codes(&fast), codes(&slow), "{name}: notes");
    assert_eq!(fast.vl_plan, slow.vl_plan, "{name}: VL plan");
}

fn degraded(f: &Fabric, links: usize, seed: u64) -> Fabric {
    let plan = FaultPlan {
        links,
        switches: 0,
        seed,
    };
    f.apply_faults(&random_faults(f, &plan).expect("faults"))
        .expect("apply")
        .0
}

#[test]
fn runs_match_the_per_destination_formulas_on_intact_pgfts() {
    for (m, w, p) in [
        (&[4, 4][..], &[1, 4][..], None),
        (&[4, 4, 4][..], &[1, 4, 4][..], None),
        (&[4, 4][..], &[1, 2][..], Some(&[1, 2][..])),
        (&[3, 4, 2][..], &[1, 2, 3][..], Some(&[1, 2, 2][..])),
    ] {
        let f = pgft(&PgftSpec::new(m.len(), m, w, p)).expect("pgft");
        assert_same(&format!("PGFT m {m:?} w {w:?} p {p:?}"), &f, 8);
    }
}

#[test]
fn runs_match_the_per_destination_formulas_on_degraded_pgfts() {
    let f = pgft(&PgftSpec::new(3, &[6, 6, 8], &[1, 6, 6], None)).expect("pgft");
    for (links, seed) in [(5, 1), (40, 2), (120, 3)] {
        assert_same(
            &format!("{links} cables cut"),
            &degraded(&f, links, seed),
            8,
        );
    }
}

/// Rows that lost an up cable keep whole runs under the `spread` variant
/// (`spread_runs.rs`): parallel cables (groups of 2 ports) and leaves of
/// several hosts per ⌊d/Π⌋ at the upper level, against the per-destination
/// `spread::route`.
#[test]
fn spread_runs_match_the_per_destination_path_with_parallel_cables() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 6], &[1, 4, 4], Some(&[1, 1, 2]))).expect("pgft");
    for (links, seed) in [(3, 1), (12, 2), (40, 3)] {
        assert_same(
            &format!("{links} cables cut, parallel top cables"),
            &degraded(&f, links, seed),
            8,
        );
    }
    let f = pgft(&PgftSpec::new(3, &[6, 3, 4], &[1, 3, 2], Some(&[1, 2, 1]))).expect("pgft");
    for (links, seed) in [(2, 4), (9, 5)] {
        assert_same(
            &format!("{links} cables cut, parallel middle cables"),
            &degraded(&f, links, seed),
            8,
        );
    }
}

#[test]
fn runs_match_the_per_destination_formulas_with_escape_paths() {
    // Aggregation nodes on every switch, empty host ports, a management
    // pod whose leaves share no top with isolated pods, cross cables: the
    // escape hops and their VLs (formats/dmodc.md §9).
    let spec = PgftSpec::new(3, &[6, 4, 8], &[1, 4, 4], None);
    let feat = Features {
        aggregation_nodes: true,
        empty_host_ports: 0.15,
        drop_top: 2,
        mgmt_pod: Some(MgmtPod {
            leaves: 2,
            hosts: 4,
            tops: 2,
        }),
        isolated_pods: 2,
        cross_cables: 3,
        seed: 1,
    };
    let f = apply(&spec, &pgft(&spec).expect("pgft"), &feat).expect("features");
    let routing = route(&f, false, 8);
    assert!(
        routing.notes.iter().any(|n| n.code == "D002"),
        "the fabric should need escape hops: {:?}",
        routing.notes
    );
    assert_same("real features", &f, 8);
}
