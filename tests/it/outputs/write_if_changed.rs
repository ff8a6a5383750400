//! Write-if-changed: the default outputs, a rerun that leaves every file and
//! its mtime alone, `--check`'s exit codes without a write, the same bytes
//! whatever the thread count.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::common;

use super::{ALL, FT2, compile_cmd, mtime, routec, snapshot};

/// Sets every output's mtime an hour back, so an unwanted rewrite shows even
/// on file systems with coarse timestamps.
fn age(dir: &Path) -> SystemTime {
    let old = SystemTime::now() - Duration::from_secs(3600);
    for e in std::fs::read_dir(dir).unwrap() {
        let f = std::fs::File::options()
            .append(true)
            .open(e.unwrap().path())
            .unwrap();
        f.set_modified(old).unwrap();
    }
    old
}

#[test]
fn default_outputs_are_image_and_report_and_rerun_keeps_mtimes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    compile_cmd(Path::new(FT2), &out).assert().code(0);
    let names: Vec<String> = snapshot(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            "report.json",
            "routec-state.json.zst",
            "routec.manifest",
            "routes.lft"
        ]
    );
    // OUTDIR holds deterministic outputs only: no run log (issue 11, item 10)
    assert!(!out.join("run.json").exists());

    compile_cmd(Path::new(FT2), &out).args(ALL).assert().code(0);
    let before = snapshot(&out);
    let listing = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let files = listing(&out);
    let old = age(&out);
    let dir_mtime = mtime(&out);
    let timings = dir.path().join("timings.json");
    compile_cmd(Path::new(FT2), &out)
        .args(ALL)
        .arg("--timings")
        .arg(&timings)
        .assert()
        .code(0);
    assert_eq!(snapshot(&out), before);
    assert_eq!(
        listing(&out),
        files,
        "the second run added or removed a file"
    );
    assert_eq!(mtime(&out), dir_mtime, "OUTDIR's own mtime moved");
    for f in [
        "routes.lft",
        "report.json",
        "opensm-lfts.dump",
        "opensm.fdbs",
        "opensm-subnet.lst",
        "opensm.mcfdbs",
    ] {
        assert_eq!(mtime(&out.join(f)), old, "{f} was rewritten");
    }
    let run: serde_json::Value = serde_json::from_slice(&std::fs::read(&timings).unwrap()).unwrap();
    let statuses: Vec<&str> = run["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["status"].as_str().unwrap())
        .collect();
    // seven outputs (the state among them) and the manifest
    assert_eq!(statuses, ["unchanged"; 8]);
    // parse, lids, route, verify, emit
    assert_eq!(run["timings"].as_array().unwrap().len(), 5);
    let leftovers = std::fs::read_dir(&out).unwrap().filter(|e| {
        e.as_ref()
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".routec-")
    });
    assert_eq!(leftovers.count(), 0, "temporary files left behind");
}

#[test]
fn check_exit_codes_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // Missing outputs would change.
    compile_cmd(Path::new(FT2), &out)
        .arg("--check")
        .assert()
        .code(3);
    assert!(!out.exists(), "--check created the output directory");
    compile_cmd(Path::new(FT2), &out).assert().code(0);
    compile_cmd(Path::new(FT2), &out)
        .arg("--check")
        .assert()
        .code(0);
    let before = snapshot(&out);
    let old = age(&out);
    routec()
        .args(["compile", "--engine", "minhop", "--check", "-o"])
        .arg(&out)
        .arg(common::ft2_without_one_cable(dir.path()))
        .assert()
        .code(3)
        .stderr(predicates::str::contains("would change: routes.lft"));
    assert_eq!(snapshot(&out), before);
    assert_eq!(mtime(&out.join("routes.lft")), old);
    // --compress replaces routes.lft: a change too.
    compile_cmd(Path::new(FT2), &out)
        .args(["--compress", "--check"])
        .assert()
        .code(3);
    compile_cmd(Path::new(FT2), &out)
        .arg("--compress")
        .assert()
        .code(0);
    assert!(out.join("routes.lft.zst").exists() && !out.join("routes.lft").exists());
    compile_cmd(Path::new(FT2), &out)
        .args(["--compress", "--check"])
        .assert()
        .code(0);
}

#[test]
fn thread_count_does_not_change_a_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("j1"), dir.path().join("j2"));
    compile_cmd(Path::new(FT2), &a)
        .args(ALL)
        .args(["-j", "1"])
        .assert()
        .code(0);
    compile_cmd(Path::new(FT2), &b)
        .args(ALL)
        .args(["-j", "2"])
        .assert()
        .code(0);
    assert_eq!(snapshot(&a), snapshot(&b));
    compile_cmd(Path::new(FT2), &a)
        .args(["--emit", "image", "--compress", "-j", "1"])
        .assert()
        .code(0);
    compile_cmd(Path::new(FT2), &b)
        .args(["--emit", "image", "--compress", "-j", "2"])
        .assert()
        .code(0);
    assert_eq!(
        std::fs::read(a.join("routes.lft.zst")).unwrap(),
        std::fs::read(b.join("routes.lft.zst")).unwrap()
    );
}
