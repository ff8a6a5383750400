//! OpenSM's min-hop and up/down tables on the s128 fat tree: clean, with
//! switch-sourced paths too, and the same verdict on 1 and 4 threads.

use routec::verify::{Code, VerifyOptions, verify_tables};

use super::{fixture, roots_ranks};

#[test]
fn s128_fat_tree_tables_are_clean() {
    for dump in ["minhop.lfts.dump", "updn.lfts.dump"] {
        let (f, lids, t) = fixture("s128", dump);
        let ranks = roots_ranks(&f, "s128", "s128.roots");
        let opts = VerifyOptions {
            up_down_ranks: Some(ranks),
            ..Default::default()
        };
        let v = verify_tables(&f, &lids, &t, &opts);
        // OpenSM's updn leaves spine-to-spine switch LIDs unrouted (no
        // up*/down* path): 8 spines × 7 others, warnings only
        let holes = if dump.starts_with("updn") { 56 } else { 0 };
        assert_eq!(v.count(Code::V004), holes, "{dump}: {}", v.render());
        assert!(
            v.is_clean() && v.counts.len() == usize::from(holes > 0),
            "{dump}: {}",
            v.render()
        );
        assert_eq!(v.stats.ca_pairs, 128 * 127);
        assert_eq!(v.stats.max_hops, 2);
        // 8 leaves of 16 hosts: 16*15 same-leaf pairs each at 0 hops
        assert_eq!(v.stats.hop_histogram[0], 8 * 16 * 15);
    }
    // ibdmchk -a on s128 minhop: no credit loop with switch-sourced paths
    let (f, lids, t) = fixture("s128", "minhop.lfts.dump");
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            all_paths: true,
            ..Default::default()
        },
    );
    assert!(v.counts.is_empty(), "{}", v.render());
}

#[test]
fn output_does_not_depend_on_thread_count() {
    let (f, lids, t) = fixture("s128", "minhop.lfts.dump");
    let ranks = roots_ranks(&f, "s128", "s128.roots");
    let opts = VerifyOptions {
        up_down_ranks: Some(ranks),
        all_paths: true,
        ..Default::default()
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let a = one.install(|| verify_tables(&f, &lids, &t, &opts));
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let b = four.install(|| verify_tables(&f, &lids, &t, &opts));
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
}
