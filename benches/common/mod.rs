//! The machine reference every bench reports against: absolute times
//! differ between machines, a ratio to a fixed workload measured in the
//! same run much less. The workload: sort 4 Mi pseudo-random u64 and walk a
//! 16 MiB table in a cache-hostile order (routing is sorting and table
//! lookups). On the shared 2-core machine it takes about 0.3 s.

use std::hint::black_box;
use std::time::{Duration, Instant};

fn workload() -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut v: Vec<u64> = (0..1 << 22)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    v.sort_unstable();
    let table: Vec<u32> = (0..1u32 << 22)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let mut at = 0usize;
    let mut sum = 0u64;
    for _ in 0..1 << 22 {
        at = (table[at] as usize) & ((1 << 22) - 1);
        sum = sum.wrapping_add(at as u64);
    }
    sum ^ v[v.len() / 2]
}

/// The best of three runs of the reference workload.
pub fn reference() -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            black_box(workload());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The best of `runs` runs of `f`.
pub fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Prints `name: X ms = R × reference`.
pub fn report(name: &str, took: Duration, reference: Duration) {
    eprintln!(
        "{name}: {:.1} ms = {:.2} × reference ({:.1} ms)",
        took.as_secs_f64() * 1e3,
        took.as_secs_f64() / reference.as_secs_f64().max(1e-9),
        reference.as_secs_f64() * 1e3
    );
}

/// The production-like fabric of `formats/pgft.md` ("Real-fabric
/// features": 658 switches, 4,280 CAs, aggregation nodes, a management pod
/// whose leaves share no top with three isolated pods).
#[allow(dead_code)] // not every bench uses it
pub fn prodlike() -> routec::model::Fabric {
    use routec::generate::features::{Features, MgmtPod, apply};
    use routec::generate::pgft::{PgftSpec, pgft};
    let spec = PgftSpec::new(3, &[16, 12, 22], &[1, 12, 11], None);
    let feat = Features {
        aggregation_nodes: true,
        empty_host_ports: 0.15,
        drop_top: 4,
        mgmt_pod: Some(MgmtPod {
            leaves: 2,
            hosts: 16,
            tops: 4,
        }),
        isolated_pods: 3,
        cross_cables: 6,
        seed: 1,
    };
    apply(&spec, &pgft(&spec).expect("PGFT"), &feat).expect("features")
}
