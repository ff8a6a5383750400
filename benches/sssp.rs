//! The balanced shortest-path engine (`--engine sssp`, issue 14) on the
//! 11,664-host RLFT, PGFT(3; 18,18,36; 1,18,18): route + verify with LMC 0,
//! route + layer (`--vls 8`) + verify, and route + verify with LMC 2
//! (LIDs assigned anew as `compile --lmc 2` does). Each figure is printed
//! as a ratio to the machine reference of `common`; the whole `compile`
//! (parse and image too) is measured with `/usr/bin/time` in README.md.
//! Targets (issue 14, whole compile on 2 cores): LMC 0 under 5 s, with
//! `--vls 8` under 6 s, LMC 2 under 15 s.
//!
//! `cargo bench --bench sssp` (ROUTEC_BENCH_SMALL=1: LMC 0 only).

mod common;

use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::lids::{apply_port_lids, assign_with_lmc};
use routec::model::{Fabric, LidMap};
use routec::route::layers::assign_layers;
use routec::route::sssp::Sssp;
use routec::route::{Engine, RouteOptions};
use routec::verify::{VerifyOptions, verify_tables};

fn rlft() -> Fabric {
    pgft(&PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None)).expect("PGFT")
}

/// Route, optionally layer onto `vls` lanes, verify; best of `runs`.
fn route_verify(name: &str, f: &Fabric, vls: u8, runs: usize, reference: std::time::Duration) {
    let lids = LidMap::new(f).expect("LIDs");
    let mut used = 1;
    let mut route_only = std::time::Duration::MAX;
    let took = common::best(runs, || {
        let t = std::time::Instant::now();
        let r = Sssp
            .route(f, &lids, &RouteOptions::default())
            .expect("routed");
        route_only = route_only.min(t.elapsed());
        let plan = (vls > 1).then(|| assign_layers(f, &lids, &r.lfts, vls).plan);
        used = plan.as_ref().map_or(1, |p| p.vls);
        let opts = VerifyOptions {
            vl_plan: plan.filter(|p| p.vls > 1),
            ..Default::default()
        };
        let v = verify_tables(f, &lids, &r.lfts, &opts);
        assert!(v.is_clean(), "{}", v.render());
    });
    eprintln!("{name}: {used} VL(s) used");
    common::report(&format!("{name} route"), route_only, reference);
    common::report(&format!("{name} route+verify"), took, reference);
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let reference = common::reference();
    let f = rlft();
    route_verify("rlft11664 sssp LMC 0", &f, 1, 3, reference);
    if std::env::var_os("ROUTEC_BENCH_SMALL").is_some() {
        return;
    }
    route_verify("rlft11664 sssp LMC 0 --vls 8", &f, 8, 2, reference);
    let mut f2 = f.clone();
    apply_port_lids(&mut f2, &assign_with_lmc(&f, 2).expect("LMC 2 LIDs"));
    route_verify("rlft11664 sssp LMC 2", &f2, 1, 1, reference);
}
