//! Min-hop and up/down on PGFT(3;18,18,36;1,18,18;1,1,1): 11,664 hosts,
//! 1,620 switches of 36 ports (the size OpenSM 3.3.23 needs 24–42 s for).
//! Also times the `opensm-lfts.dump` writer (≈1.4 GB, into a sink).
//!
//!   cargo bench --bench minhop

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use routec::model::lids::assign_missing_lids;
use routec::model::{Fabric, FabricBuilder, Guid, LidMap, NodeIdx, NodeKind, NodeSpec};
use routec::route::{RootSpec, RouteOptions, engine_by_name};

/// PGFT(h; m; w) with one cable per link, numbered as
/// `peers/opensm/gen_pgft.py` does (level-l node = digit tuple, a_h most
/// significant; digit i ranges over w_i for i ≤ l, m_i above; down port
/// 1 + child, up port 1 + m_l + parent; hosts on port 1 + parent).
fn pgft(m: &[u32], w: &[u32], radix: u8) -> Fabric {
    let h = m.len();
    let mut b = FabricBuilder::new();
    let radices = |l: usize| -> Vec<u32> {
        (1..=h)
            .map(|i| if i <= l { w[i - 1] } else { m[i - 1] })
            .collect()
    };
    let mut levels: Vec<Vec<NodeIdx>> = Vec::new();
    for l in 0..=h {
        let count: u32 = radices(l).iter().product();
        let nodes = (0..count)
            .map(|i| {
                let spec = if l == 0 {
                    NodeSpec::new(
                        NodeKind::Ca,
                        Guid(0x0002_c902_0000_0000 + ((i as u64) << 8)),
                        w[0] as u8,
                        format!("H{i:05}"),
                    )
                } else {
                    let g = 0x0002_c901_0000_0000 + ((l as u64) << 24) + i as u64;
                    NodeSpec::new(NodeKind::Switch, Guid(g), radix, format!("L{l}S{i:04}"))
                };
                let n = b.add_node(spec).unwrap();
                if l == 0 {
                    for p in 1..=w[0] as u8 {
                        b.port_mut(n, p).unwrap().guid =
                            Guid(0x0002_c902_0000_0000 + ((i as u64) << 8) + p as u64);
                    }
                }
                n
            })
            .collect();
        levels.push(nodes);
    }
    for l in 1..=h {
        let (rb, ra) = (radices(l), radices(l - 1));
        for (bi, &bn) in levels[l].iter().enumerate() {
            let digits = decode(bi as u32, &rb);
            let parent = digits[l - 1];
            for c in 0..m[l - 1] {
                let mut a = digits.clone();
                a[l - 1] = c;
                let an = levels[l - 1][encode(&a, &ra) as usize];
                let up = if l == 1 {
                    1 + parent
                } else {
                    1 + m[l - 2] + parent
                };
                b.connect(bn, (1 + c) as u8, an, up as u8).unwrap();
            }
        }
    }
    let mut f = b.build();
    assign_missing_lids(&mut f);
    f
}

/// Digits a_1..a_h of a mixed-radix index (a_h most significant).
fn decode(mut i: u32, radices: &[u32]) -> Vec<u32> {
    let mut d = vec![0; radices.len()];
    for k in 0..radices.len() {
        d[k] = i % radices[k];
        i /= radices[k];
    }
    d
}

fn encode(d: &[u32], radices: &[u32]) -> u32 {
    d.iter()
        .zip(radices)
        .rev()
        .fold(0, |acc, (&x, &r)| acc * r + x)
}

fn bench(c: &mut Criterion) {
    let fabric = pgft(&[18, 18, 36], &[1, 18, 18], 36);
    assert_eq!(fabric.num_switches(), 1620);
    let lids = LidMap::new(&fabric).unwrap();
    let mut g = c.benchmark_group("pgft-11664");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    let minhop = engine_by_name("minhop").unwrap();
    let opts = RouteOptions::default();
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
