//! What the mutation campaign (`campaign/`) found, each pinned by the
//! run that found it, reduced: these fail before their fix.

use std::process::Command;
use std::time::{Duration, Instant};

fn routec(args: &[&str]) -> (Option<i32>, String, Duration) {
    let t0 = Instant::now();
    let o = Command::new(assert_cmd::cargo::cargo_bin("routec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code(), err, t0.elapsed())
}

/// Campaign stream 2, run 639 (`gen pgft features`, 3.2 s for
/// `--cross-cables 65536`): the spine-pair sampler retried up to 100 × N
/// times before saying there were not N pairs, so `--cross-cables
/// 1000000` took 73 s and 2^32 − 1 would have run for hours. Now a count
/// above the number of spine pairs (here 32 spines: 496 pairs) is refused
/// before any sampling.
#[test]
fn cross_cables_beyond_the_spine_pairs_are_refused_at_once() {
    let cross = |n: &str| {
        let pgft = ["gen", "pgft", "--h", "3", "--m", "4,4,8", "--w", "1,4,4"];
        routec(&[&pgft[..], &["--cross-cables", n]].concat())
    };
    let (code, err, took) = cross("4294967295");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("not that many distinct spine pairs") && err.contains("(496)"),
        "{err}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    let (code, err, _) = cross("28");
    assert!(code == Some(0) || err.contains("port"), "{code:?} {err}");
}

/// Campaign stream 3, runs 689, 1057 and 2207 (`gen mcast`, a panic on
/// `--dims 18446744073709551615x18446744073709551615`): the grid size was
/// multiplied unchecked (a debug build panicked, a release build wrapped
/// to 1 and went on to build 2^64 groups), and `random` built as many
/// groups as asked. Now the product is checked, and `random` refuses more
/// groups than the 16,383 MLIDs.
#[test]
fn mcast_pattern_sizes_past_the_limits_are_usage_errors() {
    let max = u64::MAX.to_string();
    let gen_mcast = |pattern: &str, dims: &str| {
        routec(&[
            "gen",
            "mcast",
            "--topology",
            "fixtures/mcast/fig2.ibnetdiscover",
            "--pattern",
            pattern,
            "--dims",
            dims,
        ])
    };
    for (pattern, dims) in [
        ("grid2d", format!("{max}x{max}")),
        ("grid2d", format!("10x{max}")),
        ("grid3d", format!("{max}x2x{max}")),
        ("random", format!("{max}x2")),
        ("random", "16384x2".to_string()),
    ] {
        let (code, err, _) = gen_mcast(pattern, &dims);
        assert_eq!(code, Some(2), "{pattern} {dims}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, err, _) = gen_mcast("random", "16383x2");
    assert_eq!(code, Some(0), "{err}");
}

/// Campaign stream 39, run 5330 (`gen pgft`, signal 6): `--faults
/// 4294967296` reserved room for 2^32 faults (160 GB) before checking
/// that the fabric has that many cables, and the allocation aborted the
/// process. Now the count is refused first, as any count above the cables.
#[test]
fn fault_counts_beyond_the_cables_are_refused_not_allocated() {
    let pgft = [
        "gen", "pgft", "--h", "3", "--m", "4,4,8", "--w", "1,4,4", "-o",
    ];
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p.topo");
    let out = out.to_str().unwrap();
    for n in ["4294967296", "18446744073709551615", "257"] {
        let (code, err, _) = routec(&[&pgft[..], &[out, "--faults", n, "--seed", "7"]].concat());
        assert_eq!(code, Some(2), "{n}: {err}");
        assert!(
            err.contains("only 256 switch-to-switch cables can fail"),
            "{n}: {err}"
        );
    }
    let (code, err, _) = routec(&[&pgft[..], &[out, "--faults", "256", "--seed", "7"]].concat());
    assert_eq!(code, Some(0), "{err}");
}
