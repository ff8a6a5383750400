//! Min-hop and up/down on PGFT(3;18,18,36;1,18,18;1,1,1): 11,664 hosts,
//! 1,620 switches of 36 ports (the size OpenSM 3.3.23 needs 24–42 s for).
//! Also times the `opensm-lfts.dump` writer (≈1.4 GB, into a sink).
//!
//!   cargo bench --bench minhop   (the route also as a ratio to `common::reference`)

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::LidMap;
use routec::route::{RootSpec, RouteOptions, engine_by_name};

mod common;

fn bench(c: &mut Criterion) {
    // Built as `peers/opensm/gen_pgft.py` does, LIDs assigned.
    let fabric = pgft(&PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None)).unwrap();
    assert_eq!(fabric.num_switches(), 1620);
    let lids = LidMap::new(&fabric).unwrap();
    let mut g = c.benchmark_group("pgft-11664");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    let minhop = engine_by_name("minhop").unwrap();
    let opts = RouteOptions::default();
    // best of 3 as a ratio to the machine reference (issue 17)
    let reference = common::reference();
    let took = common::best(3, || minhop.route(&fabric, &lids, &opts).unwrap());
    common::report("route minhop, 11,664 hosts", took, reference);
    g.bench_function("route minhop", |b| {
        b.iter(|| black_box(minhop.route(&fabric, &lids, &opts).unwrap()))
    });
    let updn = engine_by_name("updn").unwrap();
    let top = RouteOptions {
        roots: RootSpec::Top,
        ..Default::default()
    };
    g.bench_function("route updn --roots top", |b| {
        b.iter(|| black_box(updn.route(&fabric, &lids, &top).unwrap()))
    });
    let routing = minhop.route(&fabric, &lids, &opts).unwrap();
    g.bench_function("write opensm-lfts.dump (sink)", |b| {
        b.iter(|| {
            let mut sink = std::io::sink();
            routec::emit::opensm::write_lfts_dump(&fabric, &lids, &routing.lfts, &mut sink).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
