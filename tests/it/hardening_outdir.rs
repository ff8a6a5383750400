//! Hardening (issue 11, items 6–7): the output directory under kills and
//! failures. A real `routec compile` is killed at spread delays; after each
//! kill the directory must hold no temporary file (SIGINT, SIGTERM) or none
//! after the next run (SIGKILL), and either the whole old set, the whole
//! new set, or a manifest that makes `check` refuse the mix.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

pub(crate) const MARKER: &str = "# routec: replacing outputs";

pub(crate) fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("routec")
}

/// Every file of `dir` by name, with its bytes.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

pub(crate) fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".routec-"))
        .collect()
}

pub(crate) fn copy_set(set: &BTreeMap<String, Vec<u8>>, dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    for (n, b) in set {
        std::fs::write(dir.join(n), b).unwrap();
    }
}

/// A 3-level PGFT with 4 cut cables as a fault list: the topology and
/// the list.
pub(crate) fn gen_pgft(dir: &Path) -> (PathBuf, PathBuf) {
    let topo = dir.join("f.topo");
    let ok = Command::new(bin())
        .args(["-q", "gen", "pgft", "--h", "3", "--m", "8,8,16", "--w"])
        .args(["1,8,8", "--faults", "4", "-o"])
        .arg(&topo)
        .status()
        .unwrap();
    assert!(ok.success());
    (topo, dir.join("f.topo.faults"))
}

/// The compile whose outputs replace the old set: a faulted fabric, so
/// every output differs from the intact one's.
pub(crate) fn compile(topo: &Path, faults: Option<&Path>, out: &Path) -> Command {
    let mut c = Command::new(bin());
    c.args(["-q", "compile"]).arg(topo);
    if let Some(f) = faults {
        c.arg("--faults").arg(f);
    }
    c.args(["--engine", "dmodc", "--emit", "image,report,opensm", "-o"])
        .arg(out)
        .stderr(Stdio::null());
    c
}

/// Item 6: SIGINT, SIGTERM and SIGKILL at spread moments of a compile
/// (parse, route, render, commit). Before the fix a kill while rendering
/// left `.routec-XXXXXX` files (SIGKILL's stayed forever), and a kill in
/// the commit loop a mixed set that `check` read as consistent. Now a
/// temporary file is named only inside the commit, one at a time, while
/// the manifest is marked: a SIGKILL leaves the old set, the new set, or a
/// marked mix with at most one such file, which the next run removes;
/// SIGINT and SIGTERM leave the old or the new set and nothing else
/// (`hardening_signals.rs` lands them inside the commit).
#[test]
fn a_killed_compile_leaves_no_temp_file_and_no_unmarked_mix() {
    let dir = tempfile::tempdir().unwrap();
    let (topo, faults) = gen_pgft(dir.path());
    let (old_dir, new_dir, out) = (
        dir.path().join("old"),
        dir.path().join("new"),
        dir.path().join("out"),
    );
    assert!(compile(&topo, None, &old_dir).status().unwrap().success());
    let t0 = Instant::now();
    assert!(
        compile(&topo, Some(&faults), &new_dir)
            .status()
            .unwrap()
            .success()
    );
    let whole = t0.elapsed();
    let (old, new) = (files(&old_dir), files(&new_dir));
    assert!(
        old.iter()
            .all(|(n, b)| n == "routec.manifest" || new[n] != *b)
    );

    let mut interrupted = 0;
    for (sig, k) in ["INT", "TERM", "KILL"]
        .iter()
        .flat_map(|s| (1..=5).map(move |k| (*s, k)))
    {
        copy_set(&old, &out);
        let mut child = compile(&topo, Some(&faults), &out).spawn().unwrap();
        std::thread::sleep(whole.mul_f64(k as f64 / 5.5));
        let pid = child.id().to_string();
        let _ = Command::new("kill").args(["-s", sig, &pid]).status();
        let child_code = child.wait().unwrap().code();
        if sig == "KILL" {
            // what a SIGKILL left is removed by the next run
            assert!(
                compile(&topo, Some(&faults), &out)
                    .status()
                    .unwrap()
                    .success()
            );
            assert!(
                temps(&out).is_empty(),
                "SIGKILL at {k}/5.5: {:?}",
                temps(&out)
            );
            assert_eq!(
                files(&out),
                new,
                "the run after a SIGKILL lands the new set"
            );
            continue;
        }
        // SIGINT and SIGTERM (item 6, `io::interrupt`): the commit, if
        // begun, finishes; never a marked mix, never a temporary file
        // killed before the handler was installed (the first instants):
        // the default action, nothing was touched yet
        let code = child_code.unwrap_or(if sig == "INT" { 130 } else { 143 });
        let now = files(&out);
        let left = temps(&out);
        let manifest = String::from_utf8_lossy(&now["routec.manifest"]).into_owned();
        assert!(
            !manifest.starts_with(MARKER),
            "SIG{sig} at {k}/5.5: marked mix"
        );
        assert!(left.is_empty(), "SIG{sig} at {k}/5.5 left {left:?}");
        assert!(
            [0, 130, 143].contains(&code),
            "SIG{sig} at {k}/5.5: exit {code}"
        );
        assert!(
            now == old || now == new,
            "SIG{sig} at {k}/5.5: a mix of old and new"
        );
        interrupted += usize::from(code != 0);
    }
    eprintln!("{interrupted} SIGINT/SIGTERM runs exited 130/143");
}

/// `check` and `diff` refuse a directory (or an output of it) whose
/// manifest says a commit was cut short.
fn assert_refused(topo: &Path, out: &Path) {
    for lfts in [out.to_path_buf(), out.join("routes.lft")] {
        let o = Command::new(bin())
            .arg("check")
            .arg(topo)
            .arg("--lfts")
            .arg(&lfts)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("mix of"), "{err}");
    }
    let o = Command::new(bin())
        .arg("diff")
        .arg(out)
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// Item 6: a directory left mid-commit (the marker first in the manifest,
/// as `emit::commit` writes it before the first rename) is refused by
/// `check` and `diff`, and the next compile makes it whole.
#[test]
fn a_directory_left_mid_commit_is_refused_then_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let topo = Path::new(crate::common::FT2);
    let out = dir.path().join("out");
    let run = |args: &[&str]| {
        Command::new(bin())
            .args(args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap()
    };
    assert!(
        run(&["-q", "compile", crate::common::FT2, "--engine", "minhop"])
            .status
            .success()
    );
    let manifest = out.join("routec.manifest");
    let listed = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{MARKER} (a compile stopped here: run it again)\n{listed}"),
    )
    .unwrap();
    assert_refused(topo, &out);
    assert!(
        run(&["-q", "compile", crate::common::FT2, "--engine", "minhop"])
            .status
            .success()
    );
    assert_eq!(std::fs::read_to_string(&manifest).unwrap(), listed);
    let o = Command::new(bin())
        .arg("check")
        .arg(topo)
        .arg("--lfts")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Item 7: a `--stamp` or `--depfile` that cannot be written fails the run
/// before any output is replaced (it used to exit 2 after replacing them).
#[test]
fn an_unwritable_stamp_or_depfile_replaces_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let compile = |engine: &str, extra: &[&str]| {
        Command::new(bin())
            .args([
                "-q",
                "compile",
                crate::common::FT2,
                "--engine",
                engine,
                "-o",
            ])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(compile("minhop", &[]).status.success());
    let before = files(&out);
    let missing = dir.path().join("no/such/dir");
    for flag in ["--stamp", "--depfile"] {
        let target = missing.join("x").display().to_string();
        let o = compile("updn", &[flag, &target]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert_eq!(
            files(&out),
            before,
            "{flag}: outputs replaced though the run failed"
        );
    }
    // and when both can be written, everything lands
    let stamp = dir.path().join("stamp");
    let dep = dir.path().join("routes.d");
    let o = compile(
        "updn",
        &[
            "--stamp",
            &stamp.display().to_string(),
            "--depfile",
            &dep.display().to_string(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_ne!(files(&out), before);
    assert!(stamp.is_file());
    assert!(
        std::fs::read_to_string(&dep)
            .unwrap()
            .contains("routes.lft")
    );
    assert!(temps(dir.path()).is_empty() && temps(&out).is_empty());
}
