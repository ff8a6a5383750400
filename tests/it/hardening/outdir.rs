//! The output directory: nothing to write succeeds on a read-only OUTDIR, a
//! narrower `--emit` removes only what routec wrote before.

use super::routec;

/// Item 9: a compile that would change nothing succeeds on a read-only
/// OUTDIR (it exited 2: every output was staged through a temporary file
/// in OUTDIR). Read-only for the user running routec: `chmod 555`, and as
/// root (which ignores modes) routec runs as `nobody` through setpriv.
/// Runs a freshly copied binary. Another test's fork may still hold the
/// copy's write descriptor for a moment (ETXTBSY, errno 26): try again.
fn status_once_not_busy(cmd: &mut std::process::Command) -> Option<i32> {
    for _ in 0..100 {
        match cmd.status() {
            Err(e) if e.raw_os_error() == Some(26) => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            r => return r.unwrap().code(),
        }
    }
    panic!("the copied binary stayed busy for 2 s")
}

#[test]
fn nothing_to_write_is_success_on_a_read_only_outdir() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let topo = dir.path().join("ft2.topo");
    std::fs::copy("fixtures/opensm/ft2/minhop/ibnetdiscover.txt", &topo).unwrap();
    let out = dir.path().join("out");
    let args = |cmd: &mut std::process::Command| {
        cmd.args(["compile", "--engine", "minhop", "-q", "-o"])
            .arg(&out)
            .arg(&topo);
    };
    // a copy in the temporary directory, so that `nobody` can run it
    // wherever the build lives
    let bin = dir.path().join("routec");
    std::fs::copy(assert_cmd::cargo::cargo_bin("routec"), &bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut first = std::process::Command::new(&bin);
    args(&mut first);
    assert_eq!(status_once_not_busy(&mut first), Some(0));
    for e in std::fs::read_dir(&out).unwrap() {
        let p = e.unwrap().path();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o555)).unwrap();
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .unwrap()
        .stdout
        == b"0\n";
    let mut again = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin);
        c
    } else {
        std::process::Command::new(&bin)
    };
    args(&mut again);
    let o = again.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // and a run that would change something still says why it cannot
    let mut changed = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin);
        c
    } else {
        std::process::Command::new(&bin)
    };
    changed
        .args([
            "compile",
            "--engine",
            "minhop",
            "-q",
            "--emit",
            "image,report,opensm",
            "-o",
        ])
        .arg(&out)
        .arg(&topo);
    let o = changed.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Item 8: a compile with a narrower `--emit` removes the outputs of the
/// previous run that it no longer writes (listed in `routec.manifest`),
/// and never a file routec did not write, whatever the manifest says.
#[test]
fn a_narrower_emit_removes_what_routec_wrote_before_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let ft2 = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";
    let compile = |emit: &str| {
        routec()
            .args(["compile", "--engine", "minhop", "-q", "--emit", emit, "-o"])
            .arg(&out)
            .arg(ft2)
            .assert()
            .code(0);
    };
    compile("image,report,opensm,fdbs");
    assert!(out.join("opensm-lfts.dump").exists() && out.join("opensm.fdbs").exists());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    // a manifest edited to name a file routec never writes
    let m = std::fs::read_to_string(out.join("routec.manifest")).unwrap();
    std::fs::write(
        out.join("routec.manifest"),
        format!("{m}notes.txt\n../escape\n"),
    )
    .unwrap();
    compile("image,report");
    let mut left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "notes.txt",
            "report.json",
            "routec-state.json.zst",
            "routec.manifest",
            "routes.lft"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(out.join("routec.manifest")).unwrap(),
        "report.json\nroutec-state.json.zst\nroutes.lft\n"
    );
}
