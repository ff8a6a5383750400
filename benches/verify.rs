//! Checks 1–3 (`verify_tables`) on routed PGFTs: the 11,664-host
//! PGFT(3; 18,18,36; 1,18,18) (target < 1 s on 2 cores) and the 27,648-host
//! PGFT(3; 24,24,48; 1,24,24) (target < 2.5 s). Tables come from the Dmodc
//! engine; building and routing are outside the measurement.
//!
//! `cargo bench --bench verify` (ROUTEC_BENCH_SMALL=1: the 11,664-host case only).
//!
//! Measured on the shared 2-core machine (rayon on 2 threads): 82 ms for
//! 11,664 hosts, 315 ms for 27,648 hosts (one pass per LID over a
//! transposed 64-LID LFT block; see `src/verify/walk.rs`).
//! 2026-11-25, after issue 17's fast path for clean destinations
//! (`src/verify/walk/fast.rs`), machine loaded (load average 9): 11,664
//! hosts 288 ms = 1.02 × reference, 27,648 hosts 1,077 ms = 3.96 ×
//! reference (5.10 × before, quiet); CPU samples of the stage on the
//! 27,648-host compile 1.85× fewer than before.
//! 2026-11-26, after the fast walk keeps a list of the in-tree's switches
//! and sources whose next hop is known skip the walk stack (load 5–8,
//! back to back with the old code, which gave 231.8 ms = 1.35 × and
//! 669.5 ms = 6.18 ×): 11,664 hosts 175.2 / 141.2 ms = 1.11 / 1.25 ×
//! reference, 27,648 hosts 416.5 / 442.3 ms = 3.50 / 3.95 × reference; the stage under `compile -v`, old and new binaries
//! back to back at load 10: 1,370 → 930 ms (27,648 hosts), 3,600 →
//! 2,460 ms (the same with aggregation nodes, `--vls 3`).
//! 2026-11-27 (stop 35), the walk's loop holding the walk alone (one mask
//! word per switch, weights gathered after it), four alternating runs
//! against stop 34's build: criterion medians 51.3 / 203 ms against 64.9 /
//! 244 ms (11,664 / 27,648 hosts).

use criterion::{Criterion, criterion_group, criterion_main};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::LidMap;
use routec::model::rank::leaf_ranks;
use routec::route::{Dmodc, Engine, RouteOptions};
use routec::verify::{VerifyOptions, verify_tables};

mod common;

fn case(c: &mut Criterion, name: &str, spec: PgftSpec) {
    let fabric = pgft(&spec).expect("valid PGFT");
    let lids = LidMap::new(&fabric).expect("LIDs");
    let routing = Dmodc::default()
        .route(&fabric, &lids, &RouteOptions::default())
        .expect("routed");
    let ranks = leaf_ranks(&fabric);
    let max = *ranks.iter().max().unwrap_or(&0);
    // up/down with the top level as roots: rank counted from the top
    let opts = VerifyOptions {
        up_down_ranks: Some(ranks.iter().map(|r| max - r).collect()),
        ..Default::default()
    };
    let v = verify_tables(&fabric, &lids, &routing.lfts, &opts);
    eprintln!("{name}: {}", v.render().lines().last().unwrap_or(""));
    eprintln!(
        "{name}: {:?} pairs, CDG {} channels {} edges",
        v.stats.ca_pairs, v.stats.cdg_channels, v.stats.cdg_edges
    );
    // best of 3 as a ratio to the machine reference (issue 17)
    let took = common::best(3, || verify_tables(&fabric, &lids, &routing.lfts, &opts));
    common::report(&format!("verify_tables {name}"), took, common::reference());
    let mut g = c.benchmark_group("verify_tables");
    g.sample_size(10);
    g.bench_function(name, |b| {
        b.iter(|| verify_tables(&fabric, &lids, &routing.lfts, &opts))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    case(
        c,
        "pgft_11664",
        PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None),
    );
    if std::env::var_os("ROUTEC_BENCH_SMALL").is_none() {
        case(
            c,
            "pgft_27648",
            PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None),
        );
    }
}

criterion_group!(verify, benches);
criterion_main!(verify);
