//! Hardening (issue 11, item 6): SIGINT and SIGTERM remove routec's
//! temporary files before it exits, and a signal inside a commit lets the
//! commit finish (`io::interrupt`, `formats/output-directory.md`,
//! "Signals"). The signals are sent to a real `routec` at moments the test
//! observes — the manifest's marker, a `.routec-*` file appearing — so
//! that they land in the window under test every time.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::hardening_outdir::{MARKER, bin, compile, copy_set, files, gen_pgft, temps};

/// Polls (every millisecond, 20 s at most) until `ready` holds or the
/// child has exited; whether it held.
fn wait_for(child: &mut Child, ready: impl Fn() -> bool) -> bool {
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(20) {
        if ready() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

fn signal(child: &Child, sig: &str) {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-s", sig, &pid])
            .status()
            .unwrap()
            .success()
    );
}

/// A SIGINT or SIGTERM that arrives while the outputs are being renamed
/// (the manifest marked; the commit slowed by the test hook
/// `ROUTEC_COMMIT_PAUSE_MS` so the window is wide) lets the commit finish,
/// then routec exits 130 or 143: the directory holds the whole new set,
/// `check` passes on it, and no `.routec-*` file is left. Before the
/// handler the signal ended routec inside the loop, leaving the marked mix
/// and the file being renamed.
#[test]
fn a_signal_inside_the_commit_lets_it_finish_then_exits_130_or_143() {
    let dir = tempfile::tempdir().unwrap();
    let (topo, faults) = gen_pgft(dir.path());
    let (old_dir, new_dir) = (dir.path().join("old"), dir.path().join("new"));
    assert!(compile(&topo, None, &old_dir).status().unwrap().success());
    assert!(
        compile(&topo, Some(&faults), &new_dir)
            .status()
            .unwrap()
            .success()
    );
    let (old, new) = (files(&old_dir), files(&new_dir));
    let out = dir.path().join("out");
    for (i, (sig, code)) in [("INT", 130), ("TERM", 143)]
        .iter()
        .cycle()
        .take(6)
        .enumerate()
    {
        copy_set(&old, &out);
        let mut child = compile(&topo, Some(&faults), &out)
            .env("ROUTEC_COMMIT_PAUSE_MS", "200")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let marked = || {
            std::fs::read_to_string(out.join("routec.manifest"))
                .is_ok_and(|m| m.starts_with(MARKER))
        };
        assert!(wait_for(&mut child, marked), "the commit never began");
        // at the first, second or third of the three renames
        std::thread::sleep(Duration::from_millis(100 * (i as u64 % 3)));
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(*code), "SIG{sig}: {err}");
        assert!(err.contains("interrupted by SIG"), "{err}");
        assert!(temps(&out).is_empty(), "SIG{sig} left {:?}", temps(&out));
        assert!(files(&out) == new, "SIG{sig} #{i}: not the whole new set");
        let check = Command::new(bin())
            .arg("check")
            .arg(&topo)
            .arg("--faults")
            .arg(&faults)
            .arg("--lfts")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(check.status.code(), Some(0), "SIG{sig} #{i}");
    }
}

/// A SIGTERM or SIGINT while a named temporary file exists outside any
/// output directory — `gen -o FILE` writes through a `.routec-*` file and a
/// rename — removes it before routec exits 143/130, and FILE is not
/// created. Before the handler the signal ended routec with the file left.
#[test]
fn a_signal_while_writing_removes_the_named_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("rlft.topo");
    for (sig, code) in [("TERM", 143), ("INT", 130), ("TERM", 143)] {
        let mut child = Command::new(bin())
            .args(["-q", "gen", "pgft", "--h", "3", "--m", "18,18,36"])
            .args(["--w", "1,18,18", "-o"])
            .arg(&target)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let appeared = || !temps(dir.path()).is_empty();
        if !wait_for(&mut child, appeared) {
            // finished before the test saw the file: a fast machine
            assert!(child.wait().unwrap().success());
            std::fs::remove_file(&target).unwrap();
            continue;
        }
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let left = temps(dir.path());
        assert!(left.is_empty(), "SIG{sig} left {left:?}");
        if o.status.code() == Some(0) {
            // the rename won the race with the signal
            std::fs::remove_file(&target).unwrap();
            continue;
        }
        assert_eq!(o.status.code(), Some(code), "SIG{sig}: {err}");
        if err.contains("0 temporary file(s) removed") {
            // the signal came just after the rename: the output is whole
            assert!(std::fs::read_to_string(&target).unwrap().ends_with('\n'));
            std::fs::remove_file(&target).unwrap();
        } else {
            assert!(err.contains("1 temporary file(s) removed"), "{err}");
            assert!(!target.exists(), "SIG{sig}: the output was created");
        }
    }
}
