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
#[allow(dead_code)] // not every bench uses it
pub fn report(name: &str, took: Duration, reference: Duration) {
    eprintln!(
        "{name}: {:.1} ms = {:.2} × reference ({:.1} ms)",
        took.as_secs_f64() * 1e3,
        took.as_secs_f64() / reference.as_secs_f64().max(1e-9),
        reference.as_secs_f64() * 1e3
    );
}

/// Memory-speed reference (issue 17): the best of three copies of a
/// buffer of `bytes` bytes (the tables' size), after one copy that faults
/// the destination's pages in. A stage that writes the tables once cannot
/// beat it by much.
#[allow(dead_code)] // not every bench uses it
pub fn copy_reference(bytes: usize) -> Duration {
    let src = vec![0x5au8; bytes];
    let mut dst = vec![0u8; bytes];
    dst.copy_from_slice(&src);
    best(3, || {
        dst.copy_from_slice(black_box(&src));
        dst[bytes / 2]
    })
}

/// Output-speed reference (issue 17): the best of three writes of the route
/// image of already-routed tables to a temp file, as `compile --emit
/// image` writes it (`emit::image::write_image` through a buffered file).
#[allow(dead_code)] // not every bench uses it
pub fn image_reference(
    fabric: &routec::model::Fabric,
    lids: &routec::model::LidMap,
    lfts: &routec::model::Lfts,
) -> Duration {
    use routec::emit::image;
    let switches = image::switches_of(fabric, lfts);
    let lid_guids = routec::model::table_set::lid_port_guids(fabric, lids);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("routes.lft");
    best(3, || {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        image::write_image(
            &mut out,
            &image::ImageParts {
                meta: "engine=dmodc",
                fingerprint: &[0; 32],
                switches: &switches,
                lid_guids: &lid_guids,
                vl: None,
            },
        )
        .expect("write image");
        std::io::Write::flush(&mut out).expect("flush")
    })
}

/// Prints `name: X ms = R1 × copy (C ms) = R2 × image write (W ms)`: the
/// stage against the machine's memory and output speed for the same tables.
#[allow(dead_code)] // not every bench uses it
pub fn report_io(name: &str, took: Duration, copy: Duration, image: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let ratio = |d: Duration| took.as_secs_f64() / d.as_secs_f64().max(1e-9);
    eprintln!(
        "{name}: {:.1} ms = {:.2} × copy of the tables ({:.1} ms) = {:.2} × image write ({:.1} ms)",
        ms(took),
        ratio(copy),
        ms(copy),
        ratio(image),
        ms(image)
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
