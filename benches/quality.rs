//! `routec report` figures (`verify::quality::evaluate`) on Dmodc-routed
//! full-bisection PGFTs: 1,024 hosts, PGFT(3; 8,8,16; 1,8,8), and 11,664
//! hosts, PGFT(3; 18,18,36; 1,18,18). Building and routing are outside the
//! measurement. Each pattern is timed alone; the 11,664-host shift pass
//! (136 M pairs) is timed once, not by criterion, unless ROUTEC_BENCH_FULL
//! is set.
//!
//! `cargo bench --bench quality` (ROUTEC_BENCH_SMALL=1: the 1,024-host case only).
//! The 11,664-host shift pass is printed as a ratio to `common::reference`.

use std::time::Instant;

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::LidMap;
use routec::route::{Dmodc, Engine, RouteOptions};
use routec::verify::congestion::topological_nodes;
use routec::verify::quality::{QualityOptions, evaluate};

fn only(shift: bool, random: bool, a2a: bool) -> QualityOptions {
    QualityOptions {
        shift,
        random,
        all_to_all: a2a,
        samples: 100,
        ..Default::default()
    }
}

fn case(c: &mut Criterion, name: &str, spec: PgftSpec, criterion_shift: bool) {
    let fabric = pgft(&spec).expect("valid PGFT");
    let lids = LidMap::new(&fabric).expect("LIDs");
    let lfts = Dmodc::default()
        .route(&fabric, &lids, &RouteOptions::default())
        .expect("routed")
        .lfts;
    let nodes = topological_nodes(&fabric);
    let run = |o: &QualityOptions| evaluate(&fabric, &lids, &lfts, &nodes, "topological", o);
    let t = Instant::now();
    let all = run(&QualityOptions {
        samples: 100,
        ..Default::default()
    });
    eprintln!(
        "{name}: all patterns once in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    eprint!("{}", all.render());
    let mut g = c.benchmark_group(format!("quality_{name}"));
    g.sample_size(10);
    g.bench_function("a2a_and_hops", |b| {
        b.iter(|| run(&only(false, false, true)))
    });
    g.bench_function("random_100", |b| b.iter(|| run(&only(false, true, false))));
    if criterion_shift || std::env::var_os("ROUTEC_BENCH_FULL").is_some() {
        g.bench_function("shift_all", |b| b.iter(|| run(&only(true, false, false))));
    } else {
        // The issue-17 figure: all N−1 shifts (+ the route memo and hops),
        // best of three, as a ratio to the machine reference.
        let reference = common::reference();
        let took = common::best(3, || run(&only(true, false, false)));
        common::report(&format!("{name}: shift pass (+ hops)"), took, reference);
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    case(
        c,
        "pgft_1024",
        PgftSpec::new(3, &[8, 8, 16], &[1, 8, 8], None),
        true,
    );
    if std::env::var_os("ROUTEC_BENCH_SMALL").is_none() {
        case(
            c,
            "pgft_11664",
            PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None),
            false,
        );
    }
}

criterion_group!(quality, benches);
criterion_main!(quality);
