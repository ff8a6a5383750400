//! MR4LMS evaluation and timing on the paper's 16,000-host fat tree,
//! PGFT(3; 20,20,40; 1,20,20; 1,1,1) (seed:mr4lms §4.2.1). Run in release:
//! `cargo bench --bench mcast` (`-- quick`: timing only; `-- merge`: also
//! time 10,000 groups in 128 colours; `-- probe 1000x64`: one run of random
//! groups in 128 colours with a fingerprint of the trees, to check that a
//! faster implementation makes the same choices).
//!
//! Measured on 2 shared cores (merge path, `-- probe`, mft 128):
//! random 1000x64: 7.9 s before the merge speed-up, 0.67 s after;
//! random 2000x32: 13.0 s before, 1.0 s after (same fingerprints);
//! random 10000x32: did not finish in 15 min before, 8.8 s after
//! (9,397 merges, max TFI 101, no verification findings).
//! Prints colours used and max EFI without a colour limit, the same with
//! `--mft-size 128`, and OpenSM's baseline (one MLID per group, unbalanced
//! min-hop trees) on the same groups.

use std::time::Instant;

use routec::generate::mcast_pattern::{Pattern, generate};
use routec::generate::pgft::PgftSpec;
use routec::mcast::{
    McastConfig, McastResult, SwitchGraph, assign, group_colours, opensm_baseline,
};
use routec::model::{Fabric, McastGroup};
use routec::verify::mcast::verify_mfts;

/// PGFT(h; m; w; 1..1) as the OpenSM harness numbers it.
fn pgft(m: &[u32], w: &[u32]) -> Fabric {
    routec::generate::pgft::pgft(&PgftSpec::new(m.len(), m, w, None)).unwrap()
}

fn row(f: &Fabric, name: &str, pattern: Pattern, dims: &[usize], k: u32) {
    let groups = generate(f, pattern, dims, k, 1).unwrap();
    let graph = SwitchGraph::new(f);
    let base = opensm_baseline(f, &graph, &groups);
    let mut cells = Vec::new();
    for mft in [routec::mcast::MAX_COLOURS, 128] {
        let t0 = Instant::now();
        let r = assign(
            f,
            &groups,
            McastConfig {
                mft_size: mft,
                rebuild_merged: false,
            },
        )
        .unwrap();
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let s = routec::mcast::summary(&r);
        let bad = findings(f, &groups, &r);
        cells.push(format!(
            "{:>5} | {:>4} | {:>4} | {:>4} | {:>3} | {:>7.1} ms ({:.3} ms/group) | {bad}",
            s.colours_used,
            s.max_efi,
            s.merges,
            s.max_tfi,
            s.max_height,
            ms,
            ms / groups.len() as f64
        ));
    }
    println!(
        "| {name:<22} | {:>5} | {} || {} | OpenSM: {:>5} colours, max EFI {:>4} |",
        groups.len(),
        cells[0],
        cells[1],
        base.colours_used,
        base.max_efi
    );
}

/// `-- probe GROUPSxMEMBERS`: one timed run with `--mft-size 128`, a
/// fingerprint of every tree (to compare implementations) and the
/// verification findings.
fn probe(f: &Fabric, spec: &str) {
    let dims = routec::generate::mcast_pattern::parse_dims(spec).unwrap();
    let groups = generate(f, Pattern::Random, &dims, 1, 1).unwrap();
    let t = Instant::now();
    let cfg = McastConfig {
        mft_size: 128,
        rebuild_merged: false,
    };
    let r = assign(f, &groups, cfg).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let mut fp: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| fp = (fp ^ x).wrapping_mul(0x100_0000_01b3);
    for (g, &tree) in r.group_tree.iter().enumerate() {
        let t = &r.state.trees[tree as usize];
        mix(g as u64);
        mix(t.colour as u64);
        for n in &t.nodes {
            mix(n.sw.0 as u64);
            mix(n.up.map_or(0, |(p, s, pp)| {
                (p as u64) << 40 | (s.0 as u64) << 8 | pp as u64
            }));
        }
    }
    let s = routec::mcast::summary(&r);
    let bad = findings(f, &groups, &r);
    println!(
        "probe random {spec} mft 128: {:.3} s = {:.3} ms/group; colours {} merges {} max EFI {} max TFI {} findings {bad} fingerprint {fp:016x}",
        secs,
        secs * 1e3 / groups.len() as f64,
        s.colours_used,
        s.merges,
        s.max_efi,
        s.max_tfi
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let t0 = Instant::now();
    let f = pgft(&[20, 20, 40], &[1, 20, 20]);
    let t1 = Instant::now();
    let g = SwitchGraph::new(&f);
    eprintln!(
        "fabric: {} nodes, {} switches, built in {:.0} ms, hop matrix in {:.0} ms",
        f.num_nodes(),
        g.num_switches(),
        (t1 - t0).as_secs_f64() * 1e3,
        t1.elapsed().as_secs_f64() * 1e3
    );
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "probe") {
        probe(&f, args.get(i + 1).map_or("1000x64", String::as_str));
        return;
    }
    if !quick {
        println!(
            "| pattern | groups | unlimited: colours | max EFI | merges | max TFI | height | time | findings || mft 128: same columns | OpenSM |"
        );
        for (name, p, d, k) in [
            ("grid2d 125x128", Pattern::Grid2d, vec![125, 128], 1),
            ("grid2d 20x800", Pattern::Grid2d, vec![20, 800], 1),
            ("grid3d 20x20x40", Pattern::Grid3d, vec![20, 20, 40], 1),
            ("grid3d 25x25x25", Pattern::Grid3d, vec![25, 25, 25], 1),
            ("grid3d 40x40x40 K=4", Pattern::Grid3d, vec![40, 40, 40], 4),
            ("random 1000x64", Pattern::Random, vec![1000, 64], 1),
        ] {
            row(&f, name, p, &d, k);
        }
    }
    let groups = generate(&f, Pattern::Random, &[10_000, 32], 1, 1).unwrap();
    let limits: &[u32] = if std::env::args().any(|a| a == "merge") {
        &[routec::mcast::MAX_COLOURS, 128]
    } else {
        &[routec::mcast::MAX_COLOURS]
    };
    for &mft in limits {
        let mut best = f64::MAX;
        let mut s = None;
        for _ in 0..3 {
            let t = Instant::now();
            let r = assign(
                &f,
                &groups,
                McastConfig {
                    mft_size: mft,
                    rebuild_merged: false,
                },
            )
            .unwrap();
            best = best.min(t.elapsed().as_secs_f64());
            s = Some(routec::mcast::summary(&r));
        }
        let s = s.unwrap();
        println!(
            "bench: 10,000 random groups x 32 members, mft {mft}: best of 3 {:.3} s = {:.3} ms/group; colours {} merges {} max EFI {}",
            best,
            best * 1e3 / 1e4,
            s.colours_used,
            s.merges,
            s.max_efi
        );
    }
}

/// Verification findings on the MFTs of a run (0 = every tree sound).
fn findings(f: &Fabric, groups: &[McastGroup], r: &McastResult) -> usize {
    verify_mfts(
        f,
        &routec::mcast::mfts(f, r),
        groups,
        &group_colours(groups, r),
    )
    .findings
    .len()
}
