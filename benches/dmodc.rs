//! Route stage of Dmodc on the Real-Life Fat-Trees of issue 4:
//! PGFT(3;18,18,36;1,18,18;1,1,1) (11,664 hosts) and
//! PGFT(3;24,24,48;1,24,24;1,1,1) (27,648 hosts), intact and with 1% of the
//! switch-to-switch cables removed. `cargo bench --bench dmodc`. Each case
//! also prints its best of 3 as a ratio to `common::reference`, and to a
//! copy of a buffer of the tables' size and to writing their route image
//! (`common::copy_reference`, `common::image_reference`), timed in the same
//! run.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;
use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, LidMap};
use routec::route::{Dmodc, Engine, RouteOptions};

fn degraded(f: &Fabric, percent: usize) -> Fabric {
    let cables = f
        .links()
        .filter(|&(a, _, b, _)| f.is_switch(a) && f.is_switch(b))
        .count();
    let plan = FaultPlan {
        links: cables * percent / 100,
        switches: 0,
        seed: 1,
    };
    f.apply_faults(&random_faults(f, &plan).expect("faults"))
        .expect("apply")
        .0
}

fn bench_route(c: &mut Criterion, name: &str, f: &Fabric) {
    let lids = LidMap::new(f).expect("lids");
    let opts = RouteOptions::default();
    // best of 3 as a ratio to the machine reference (issue 17)
    let took = common::best(3, || {
        Dmodc::default().route(f, &lids, &opts).expect("route")
    });
    common::report(name, took, reference());
    // ... and to this machine's memory and output speed for these tables.
    let lfts = Dmodc::default().route(f, &lids, &opts).expect("route").lfts;
    let copy = common::copy_reference(lfts.as_bytes().len());
    let image = common::image_reference(f, &lids, &lfts);
    common::report_io(name, took, copy, image);
    c.bench_function(name, |b| {
        b.iter(|| Dmodc::default().route(f, &lids, &opts).expect("route"))
    });
}

/// The machine reference, measured once per run.
fn reference() -> std::time::Duration {
    static REF: std::sync::OnceLock<std::time::Duration> = std::sync::OnceLock::new();
    *REF.get_or_init(common::reference)
}

fn rlft(c: &mut Criterion) {
    let small = pgft(&PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None)).expect("pgft");
    bench_route(c, "route 11664 hosts", &small);
    bench_route(c, "route 11664 hosts, 1% links cut", &degraded(&small, 1));
    let big = pgft(&PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None)).expect("pgft");
    bench_route(c, "route 27648 hosts", &big);
    bench_route(c, "route 27648 hosts, 1% links cut", &degraded(&big, 1));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = rlft
}
criterion_main!(benches);
