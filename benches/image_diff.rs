//! `routec diff` of two 27,648-host images (2,880 switches × 30,592-entry
//! rows, 88 MB each) and route image write/read throughput.
//!
//! `cargo bench --bench image_diff`. The tables are synthetic (ChaCha8 bytes,
//! ports 1..=40); the second image differs in 200 blocks of 100 switches.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use routec::emit::image::{self, ImageSwitch};
use routec::model::{Guid, LFT_BLOCK, Lfts};
use routec::parse::lfts::read_tables;

const SWITCHES: usize = 2880;
const HOSTS: usize = 27_648;

struct Fabric {
    lfts: Lfts,
    guids: Vec<Guid>,
    descs: Vec<String>,
    lid_guids: Vec<Guid>,
}

fn synthetic() -> Fabric {
    let top = (HOSTS + SWITCHES) as u16;
    let mut lfts = Lfts::new(SWITCHES, top);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for row in lfts.rows_mut() {
        for e in row[1..=top as usize].iter_mut() {
            *e = rng.random_range(1..=40);
        }
    }
    let guids = (0..SWITCHES as u64)
        .map(|i| Guid(0x0002_c901_0100_0000 + i))
        .collect();
    let descs = (0..SWITCHES).map(|i| format!("sw{i:04}")).collect();
    let lid_guids = (0..=top as u64)
        .map(|l| Guid(if l == 0 { 0 } else { 0x0002_c902_0000_0000 + l }))
        .collect();
    Fabric {
        lfts,
        guids,
        descs,
        lid_guids,
    }
}

fn switches(f: &Fabric) -> Vec<ImageSwitch<'_>> {
    (0..SWITCHES)
        .map(|s| ImageSwitch {
            guid: f.guids[s],
            lid: (HOSTS + s + 1) as u16,
            num_ports: 40,
            top: f.lfts.top(),
            desc: &f.descs[s],
            lft: f.lfts.row(s),
        })
        .collect()
}

fn write(f: &Fabric, path: &Path) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    image::write_image(
        &mut out,
        &image::ImageParts {
            meta: "engine=dmodc",
            fingerprint: &[0; 32],
            switches: &switches(f),
            lid_guids: &f.lid_guids,
            vl: None,
        },
    )
    .unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let old = synthetic();
    let mut new = Fabric {
        lfts: old.lfts.clone(),
        guids: old.guids.clone(),
        descs: old.descs.clone(),
        lid_guids: old.lid_guids.clone(),
    };
    for k in 0..100 {
        let s = k * 28;
        for b in [3 + k % 400, 450] {
            let e = b * LFT_BLOCK + 7;
            let p = new.lfts.row(s)[e];
            new.lfts.row_mut(s)[e] = p % 40 + 1;
        }
    }
    let (a, b) = (dir.path().join("old.lft"), dir.path().join("new.lft"));
    write(&old, &a);
    write(&new, &b);
    let bytes = std::fs::metadata(&a).unwrap().len();
    eprintln!("image: {bytes} bytes");

    let mut g = c.benchmark_group("image_diff");
    g.sample_size(10);
    g.bench_function("diff_27648_hosts_read_and_compare", |bench| {
        bench.iter(|| {
            let (o, n) = (read_tables(&a).unwrap(), read_tables(&b).unwrap());
            let d = routec::diff::diff_tables(&o, &n, false);
            assert_eq!((d.switches_changed, d.blocks_changed), (100, 200));
            black_box(d)
        })
    });
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("write_image_88MB_to_memory", |bench| {
        let sw = switches(&old);
        let mut buf = Vec::with_capacity(bytes as usize);
        bench.iter(|| {
            buf.clear();
            image::write_image(
                &mut buf,
                &image::ImageParts {
                    meta: "engine=dmodc",
                    fingerprint: &[0; 32],
                    switches: &sw,
                    lid_guids: &old.lid_guids,
                    vl: None,
                },
            )
            .unwrap();
            black_box(buf.len())
        })
    });
    g.bench_function("read_image_88MB_and_verify_digest", |bench| {
        bench.iter(|| {
            let bytes = routec::io::read_input(&a).unwrap();
            let idx = routec::parse::image::read_index(&bytes).unwrap();
            routec::parse::image::verify_digest(&bytes, &idx).unwrap();
            black_box(idx.switches.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
