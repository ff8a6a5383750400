//! Virtual lanes (issue: deadlock freedom by layering). Two figures, each
//! printed as a ratio to the machine reference of `common`:
//!
//! 1. The production-like fabric of `formats/pgft.md` ("Real-fabric
//!    features": 658 switches, 4,280 CAs; min-hop leaves a credit loop on
//!    one VL): route min-hop, layer onto at most 8 VLs, verify per VL —
//!    what `routec compile --engine minhop --vls 8` does past parsing.
//!    Target: the whole compile under 1 s on 2 cores.
//! 2. The 27,648-host RLFT routed by Dmodc: the VL-aware check of a one-VL
//!    plan against today's check (target: at most 10 % more).
//! 3. The same RLFT with an aggregation node on every switch (issue 13):
//!    Dmodc's route with its escape lanes (`--vls 3`) against the route of
//!    the RLFT without them (target: about 1.2 × and the 10 % more LIDs;
//!    only the paths toward escape targets are layered one by one).
//!
//! `cargo bench --bench layers` (ROUTEC_BENCH_SMALL=1: figure 1 only).

mod common;

use routec::generate::features::{Features, apply};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{LidMap, VlPlan};
use routec::route::layers::assign_layers;
use routec::route::{Dmodc, Engine, RouteOptions, engine_by_name};
use routec::verify::{VerifyOptions, verify_tables};

fn layered_minhop(reference: std::time::Duration) {
    let f = common::prodlike();
    let lids = LidMap::new(&f).expect("LIDs");
    let minhop = engine_by_name("minhop").expect("minhop");
    let mut vls = 0;
    let took = common::best(3, || {
        let r = minhop
            .route(&f, &lids, &RouteOptions::default())
            .expect("routed");
        let l = assign_layers(&f, &lids, &r.lfts, 8);
        let opts = VerifyOptions {
            vl_plan: Some(l.plan.clone()),
            ..Default::default()
        };
        let v = verify_tables(&f, &lids, &r.lfts, &opts);
        assert!(v.is_clean(), "{}", v.render());
        vls = l.plan.vls;
    });
    eprintln!("prodlike: {} switches, {} VLs used", f.num_switches(), vls);
    common::report("prodlike route+layer+verify (--vls 8)", took, reference);
}

fn rlft_check_overhead(reference: std::time::Duration) {
    let f = pgft(&PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None)).expect("PGFT");
    let lids = LidMap::new(&f).expect("LIDs");
    let r = Dmodc::default()
        .route(&f, &lids, &RouteOptions::default())
        .expect("routed");
    let plain = VerifyOptions::default();
    let one_vl = VerifyOptions {
        vl_plan: Some(VlPlan::single(&r.lfts)),
        ..Default::default()
    };
    let a = common::best(3, || verify_tables(&f, &lids, &r.lfts, &plain));
    let b = common::best(3, || verify_tables(&f, &lids, &r.lfts, &one_vl));
    common::report("rlft27648 check", a, reference);
    common::report("rlft27648 check with a one-VL plan", b, reference);
    eprintln!(
        "rlft27648: one-VL plan costs {:+.1} %",
        (b.as_secs_f64() / a.as_secs_f64() - 1.0) * 100.0
    );
}

fn rlft_aggregation_route(reference: std::time::Duration) {
    let spec = PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None);
    let plain = pgft(&spec).expect("PGFT");
    let feat = Features {
        aggregation_nodes: true,
        ..Features::default()
    };
    let agg = apply(&spec, &plain, &feat).expect("aggregation nodes");
    let route = |f: &routec::model::Fabric, vls: u8| {
        let lids = LidMap::new(f).expect("LIDs");
        let opts = RouteOptions {
            vls,
            ..Default::default()
        };
        common::best(3, || {
            Dmodc::default().route(f, &lids, &opts).expect("routed")
        })
    };
    let a = route(&plain, 1);
    let b = route(&agg, 3);
    common::report("rlft27648 dmodc route", a, reference);
    common::report(
        "rlft27648 + aggregation nodes dmodc route (--vls 3)",
        b,
        reference,
    );
    eprintln!(
        "rlft27648: aggregation nodes cost {:.2} x the route without them",
        b.as_secs_f64() / a.as_secs_f64()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let reference = common::reference();
    layered_minhop(reference);
    if std::env::var_os("ROUTEC_BENCH_SMALL").is_none() {
        rlft_check_overhead(reference);
        rlft_aggregation_route(reference);
    }
}
