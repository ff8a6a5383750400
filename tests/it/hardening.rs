//! Hardening (issue 11): inputs that once aborted, hung, flooded the
//! terminal or were silently misread. Each test failed before its fix.

use std::path::Path;

use assert_cmd::Command;

fn routec() -> Command {
    Command::cargo_bin("routec").unwrap()
}

const RING6: &str = "fixtures/verify/ring6/ibnetdiscover.txt";

/// Item 3: an error on a 20 MB line shows a window around the column, not
/// the line (it once echoed the whole line: 0.8 s and 4.5 MB of stderr per
/// MB of line).
#[test]
fn an_error_on_a_huge_line_shows_a_window() {
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join("long.topo");
    let mut text = String::from("Switch 4 \"S-0000000000000001\" ");
    text.push_str(&"x".repeat(20 << 20));
    std::fs::write(&topo, &text).unwrap();
    let out = routec().arg("info").arg(&topo).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.len() < 4096,
        "{} bytes of stderr",
        out.stderr.len()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("long.topo:1:"), "{err}");
}

/// Item 4: control bytes of an input (ESC, BEL) reach the terminal escaped.
#[test]
fn control_bytes_are_escaped_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join("esc.topo");
    std::fs::write(
        &topo,
        "Switch 4 \"S-0000000000000001\" # \"\x1b]0;pwned\x07\x1b[2J\" bogus\n[1x] oops\x1b[2J\n",
    )
    .unwrap();
    let out = routec().arg("info").arg(&topo).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !out.stderr.iter().any(|&b| b == 0x1b || b == 0x07),
        "raw control bytes in: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("\\u{1b}"));
}

/// Item 3: a file routec writes, given where a topology belongs, is named
/// from its first bytes (without reading the rest) with the command that
/// reads it.
#[test]
fn an_lft_dump_given_as_topology_is_named() {
    let out = routec()
        .args(["info", "fixtures/opensm/ft2/minhop/opensm-lfts.dump"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("OpenSM LFT dump") && err.contains("routec check TOPO --lfts FILE"),
        "{err}"
    );
}

/// Item 18: CR-only line ends are line ends; an empty topology is an
/// input error for `info` too (it printed an empty fabric and exited 0).
#[test]
fn cr_line_ends_and_empty_topologies() {
    let dir = tempfile::tempdir().unwrap();
    let cr = dir.path().join("cr.topo");
    let text = std::fs::read_to_string(RING6).unwrap();
    std::fs::write(&cr, text.replace('\n', "\r")).unwrap();
    let info = |p: &Path| routec().arg("info").arg(p).output().unwrap();
    let (a, b) = (info(Path::new(RING6)), info(&cr));
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(
        b.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&b.stderr)
    );
    assert_eq!(a.stdout, b.stdout);
    let empty = dir.path().join("empty.topo");
    std::fs::write(&empty, "# nothing here\n\n").unwrap();
    let e = info(&empty);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("no node found"));
}

fn info_err(name: &str, text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join(name);
    std::fs::write(&topo, text).unwrap();
    let out = routec().arg("info").arg(&topo).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{name}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const LEAF_AND_HOST: &str = "switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"leaf\" base port 0 lid 1 lmc 0\n[1]\t\"H-0000000000000100\"[1](101)\t\t# \"h\" lid LIDX 4xQDR\n\ncaguid=0x100\nCa\t1 \"H-0000000000000100\"\t\t# \"h\"\n[1](101) \t\"S-0000000000000010\"[1]\t\t# lid LIDX lmc LMCX \"leaf\" lid 1 4xQDR\n";

/// Items 11–13 and 17: inputs the IB rules forbid are input errors naming
/// the culprit, not silently routed (a misaligned LMC base black-holed a
/// LID; port 255 of a switch cannot be an LFT entry; `lmc 255` was clamped
/// to 7; GUID 0 was routed).
#[test]
fn ib_limits_are_input_errors() {
    let ok = LEAF_AND_HOST.replace("LIDX", "4").replace("LMCX", "2");
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.topo");
    std::fs::write(&good, &ok).unwrap();
    routec().arg("info").arg(&good).assert().code(0);
    // base 17 with LMC 2: the port owns 16..19
    let e = info_err(
        "lmc.topo",
        &LEAF_AND_HOST.replace("LIDX", "17").replace("LMCX", "2"),
    );
    assert!(
        e.contains("0x0000000000000100") && e.contains("not a multiple of") && e.contains("16..19"),
        "{e}"
    );
    let e = info_err(
        "lmc8.topo",
        &LEAF_AND_HOST.replace("LIDX", "4").replace("LMCX", "8"),
    );
    assert!(e.contains("LMC") && e.contains("lmc8.topo:7:"), "{e}");
    // the switch's header line: `lmc 255` was clamped to 7
    let e = info_err("hdr.topo", &ok.replace("lid 1 lmc 0", "lid 1 lmc 255"));
    assert!(
        e.contains("an LMC from 0 to 7") && e.contains("hdr.topo:2:"),
        "{e}"
    );
    let e = info_err("p255.topo", &ok.replace("Switch\t4", "Switch\t255"));
    assert!(e.contains("1 to 254 ports") && e.contains(":2:"), "{e}");
    let e = info_err(
        "guid0.topo",
        &ok.replace("switchguid=0x10\n", "switchguid=0x0\n")
            .replace("S-0000000000000010", "S-0000000000000000"),
    );
    assert!(e.contains("non-zero node GUID"), "{e}");
    let e = info_err(
        "p255.yaml",
        "switches:\n  - {guid: 0x10, name: s, ports: 255}\n",
    );
    assert!(
        e.contains("1 to 254 ports") && e.contains("p255.yaml:2"),
        "{e}"
    );
    let e = info_err(
        "guid0.yaml",
        "switches:\n  - {guid: 0x0, name: s, ports: 4}\n",
    );
    assert!(e.contains("non-zero node GUID"), "{e}");
}

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

/// Item 16: one changed table byte in a route image, under its stale
/// digest, is a format error on every read (it passed `check` with exit 0).
#[test]
fn a_damaged_route_image_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    routec()
        .args([
            "compile",
            "--engine",
            "minhop",
            "-q",
            "--allow-invalid",
            "-o",
        ])
        .arg(&out)
        .arg(RING6)
        .assert()
        .code(1);
    let image = out.join("routes.lft");
    let mut bytes = std::fs::read(&image).unwrap();
    let good = routec()
        .args(["check", RING6, "--lfts"])
        .arg(&image)
        .output()
        .unwrap();
    assert_ne!(
        good.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    // the last byte of the last LFT block: a table byte, not a header field
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&image, &bytes).unwrap();
    for args in [vec!["check", RING6, "--lfts"], vec!["diff"]] {
        let mut cmd = routec();
        cmd.args(&args).arg(&image);
        if args[0] == "diff" {
            cmd.arg(&image);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("digest"),
            "{args:?}"
        );
    }
}

/// Items 1 and 21: tables can come from a pipe (`--lfts -`, `/dev/stdin`)
/// like topologies; what is held in memory (decompressed or piped) is
/// capped by ROUTEC_MAX_INPUT, a clear exit 2 instead of an abort.
#[test]
fn piped_and_compressed_tables_are_read_within_a_cap() {
    let dump = std::fs::read("fixtures/verify/ring6/minhop.lfts.dump").unwrap();
    let from_file = routec()
        .args([
            "check",
            RING6,
            "--lfts",
            "fixtures/verify/ring6/minhop.lfts.dump",
        ])
        .output()
        .unwrap();
    let piped = routec()
        .args(["check", RING6, "--lfts", "-"])
        .write_stdin(dump.clone())
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), from_file.status.code());
    assert_eq!(piped.stdout, from_file.stdout);
    // 64 MiB of zeros in a tiny .zst, under a 1 MiB cap
    let dir = tempfile::tempdir().unwrap();
    let bomb = dir.path().join("bomb.zst");
    std::fs::write(
        &bomb,
        zstd::encode_all(&vec![0u8; 64 << 20][..], 19).unwrap(),
    )
    .unwrap();
    assert!(std::fs::metadata(&bomb).unwrap().len() < 100 << 10);
    let out = routec()
        .args(["check", RING6, "--lfts"])
        .arg(&bomb)
        .env("ROUTEC_MAX_INPUT", (1u64 << 20).to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("exceeds 1048576 bytes") && err.contains("ROUTEC_MAX_INPUT"),
        "{err}"
    );
    assert!(out.stderr.len() < 4096);
}

/// Item 15: an OpenSM dump with a switch twice, or a LID twice in one
/// switch, is an input error naming both lines (the verdict depended on
/// which copy came first); a dump cut short (its last block lacks the
/// `N lids dumped` line OpenSM ends every block with) is an input error.
#[test]
fn duplicate_and_truncated_dumps_are_input_errors() {
    let text = std::fs::read_to_string("fixtures/verify/ring6/minhop.lfts.dump").unwrap();
    let first_block: String = text
        .split_inclusive('\n')
        .take_while(|l| !l.contains("lids dumped"))
        .chain(
            text.split_inclusive('\n')
                .filter(|l| l.contains("lids dumped"))
                .take(1),
        )
        .collect();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, body: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        let o = routec()
            .args(["check", RING6, "--lfts"])
            .arg(&p)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (rc, err) = run("twice.dump", &format!("{text}{first_block}"));
    assert_eq!(rc, Some(2), "{err}");
    assert!(err.contains("again (first at line 1)"), "{err}");
    let dup_lid: String = [lines[0], lines[1], lines[1]].concat() + &lines[2..].concat();
    let (rc, err) = run("lid.dump", &dup_lid);
    assert_eq!(rc, Some(2), "{err}");
    assert!(
        err.contains("again (first at line 2)") && err.contains("lid.dump:3:"),
        "{err}"
    );
    // cut inside an entry line, after `0xLLLL P` of `0xLLLL PPP`: the
    // entry still parses (port P), the block's trailer is gone
    let line = text[..text.len() * 2 / 3].rfind("\n0x").unwrap() + 1;
    let cut = &text[..line + 8];
    let (rc, err) = run("cut.dump", cut);
    assert_eq!(rc, Some(2), "{err}");
    assert!(err.contains("cut short"), "{err}");
}

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
