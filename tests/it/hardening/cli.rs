//! The command line: numeric options range-checked when parsed, a reader
//! closing the pipe early.

use super::{RING6, routec};

/// Item 2: numeric options are range-checked when parsed (`--samples
/// 99999999999` aborted on allocation, `-j 100000` stalled the machine,
/// `--procs-per-node 0` was taken as 1); `-j` above the CPU count is capped
/// with a warning.
#[test]
fn numeric_options_have_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let bad = |args: &[&str], what: &str| {
        let out = routec()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what), "{args:?}: {err}");
    };
    let ring = format!("{}/{RING6}", env!("CARGO_MANIFEST_DIR"));
    bad(
        &["report", &ring, "--lfts", "x", "--samples", "99999999999"],
        "--samples",
    );
    bad(
        &["report", &ring, "--lfts", "x", "--samples", "0"],
        "--samples",
    );
    bad(&["info", &ring, "-j", "100000"], "--threads");
    bad(
        &[
            "gen",
            "mcast",
            "--pattern",
            "grid2d",
            "--dims",
            "2x2",
            "--procs-per-node",
            "0",
            "--topology",
            &ring,
        ],
        "--procs-per-node",
    );
    let out = routec()
        .args(["info", &ring, "-j", "4000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let cpus = std::thread::available_parallelism().unwrap().get();
    if cpus < 4000 {
        assert!(
            err.contains("more than the") && err.contains("CPUs"),
            "{err}"
        );
    }
}

/// Item 19: a reader that closes the pipe early (`| head -1`) is not an
/// error: exit 0, no "Broken pipe".
#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["gen", "pgft", "--h", "3", "--m", "8,8,16", "--w", "1,8,8"][..],
        &["convert", "--to", "yaml", RING6][..],
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("routec"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // stdout dropped: the pipe is closed
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!String::from_utf8_lossy(&out.stderr).contains("Broken pipe"));
    }
}
