//! Dmodc on real fabrics (issue: aggregation nodes, leaves with no common
//! ancestor). Figures printed as ratios to the machine reference of
//! `common`:
//!
//! 1. The production-like fabric (`common::prodlike`, 4,280 CAs, 658
//!    switches): Dmodc with escape paths on at most 8 VLs, then the
//!    VL-aware verification — what `routec compile --engine dmodc --vls 8`
//!    does past parsing. Target: the whole compile under 0.5 s on 2 cores.
//! 2. The 27,648-host RLFT routed and verified with and without an
//!    aggregation node on every switch. Target: at most 1.2× the time
//!    without them.
//!
//! `cargo bench --bench dmodc_real` (ROUTEC_BENCH_SMALL=1: figure 1 only).

mod common;

use std::time::Duration;

use routec::generate::features::{Features, apply};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, LidMap};
use routec::route::{Dmodc, Engine, RouteOptions};
use routec::verify::{VerifyOptions, verify_tables};

/// Best of `runs` of route + verify; the VLs the routing used.
fn route_and_verify(f: &Fabric, vls: u8, runs: usize) -> (Duration, u8) {
    let lids = LidMap::new(f).expect("LIDs");
    let opts = RouteOptions {
        vls,
        ..RouteOptions::default()
    };
    let mut used = 1;
    let took = common::best(runs, || {
        let r = Dmodc::default().route(f, &lids, &opts).expect("routed");
        let v = VerifyOptions {
            operational_vls: vls,
            ..VerifyOptions::promised_by(&r)
        };
        let verdict = verify_tables(f, &lids, &r.lfts, &v);
        assert!(verdict.is_clean(), "{}", verdict.render());
        used = r.vl_plan.as_ref().map_or(1, |p| p.vls);
    });
    (took, used)
}

fn prodlike(reference: Duration) {
    let f = common::prodlike();
    let (took, vls) = route_and_verify(&f, 8, 5);
    eprintln!("prodlike: {} switches, {vls} VLs used", f.num_switches());
    common::report(
        "prodlike dmodc route+layers+verify (--vls 8)",
        took,
        reference,
    );
}

fn rlft_with_aggregation_nodes(reference: Duration) {
    let spec = PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None);
    let plain = pgft(&spec).expect("PGFT");
    let feat = Features {
        aggregation_nodes: true,
        ..Features::default()
    };
    let agg = apply(&spec, &plain, &feat).expect("features");
    let (a, _) = route_and_verify(&plain, 8, 3);
    let (b, vls) = route_and_verify(&agg, 8, 3);
    common::report("rlft27648 dmodc route+verify", a, reference);
    common::report("rlft27648 + aggregation nodes (--vls 8)", b, reference);
    eprintln!(
        "rlft27648: aggregation nodes cost {:.2}× ({vls} VLs used)",
        b.as_secs_f64() / a.as_secs_f64()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let reference = common::reference();
    prodlike(reference);
    if std::env::var_os("ROUTEC_BENCH_SMALL").is_none() {
        rlft_with_aggregation_nodes(reference);
    }
}
