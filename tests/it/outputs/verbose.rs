//! `-v`: each stage's time as it ends, then the peak memory (issue 17's
//! memory target; `benches/targets.rs` reads both from these lines).

use std::path::Path;

use super::{FT2, routec};

#[test]
fn verbose_prints_stages_then_peak_memory() {
    let dir = tempfile::tempdir().unwrap();
    let out = routec()
        .args(["compile", "--engine", "minhop", "-v", "-o"])
        .arg(dir.path().join("out"))
        .arg(Path::new(FT2))
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let stages: Vec<&str> = err
        .lines()
        .filter(|l| l.ends_with(" ms"))
        .filter_map(|l| l.split_once(": ").map(|(s, _)| s))
        .collect();
    assert_eq!(
        stages,
        ["parse", "lids", "route", "verify", "emit"],
        "{err}"
    );
    let last = err.lines().last().unwrap_or_default();
    if cfg!(target_os = "linux") {
        let mb: f64 = last
            .strip_prefix("peak memory: ")
            .and_then(|v| v.strip_suffix(" MB"))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("last line {last:?}"));
        // a few MB for a 20-node fabric: the binary, its threads, the tables
        assert!(mb > 1.0 && mb < 200.0, "{mb} MB");
    }
}
