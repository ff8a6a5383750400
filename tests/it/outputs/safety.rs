//! What a run must not do to its outputs: a failed run leaves the previous
//! ones intact, an empty topology writes nothing, a pipe given as an output
//! path is written into, not replaced.

use std::path::Path;

use super::{ALL, FT2, compile_cmd, snapshot};

#[test]
fn failed_run_leaves_previous_outputs_intact() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    compile_cmd(Path::new(FT2), &out).args(ALL).assert().code(0);
    let before = snapshot(&out);
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "Switch 8 \"S-1\" # broken\n[1] \"nowhere\n").unwrap();
    compile_cmd(&bad, &out).args(ALL).assert().code(2);
    compile_cmd(Path::new(FT2), &out)
        .args(["--emit", "image,bogus"])
        .assert()
        .code(2);
    assert_eq!(snapshot(&out), before);
}

#[test]
fn an_empty_topology_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join("empty.ibnetdiscover");
    std::fs::write(&topo, "").unwrap();
    let out = dir.path().join("out");
    compile_cmd(&topo, &out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no node found"));
    assert!(!out.exists());
}

/// `-o /dev/null` (or a pipe, or `/dev/stdout`) is written into, never
/// replaced: routec replaces files by rename, and as root a rename onto
/// `/dev/null` once left a regular file in place of the device on the test
/// machine. A FIFO stands in for the device here (safe to test): it must
/// still be a FIFO afterwards, and its reader gets the bytes.
#[test]
fn a_pipe_given_as_an_output_path_is_written_into_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, args) in [
        (
            "gen",
            vec!["gen", "pgft", "--h", "2", "--m", "2,2", "--w", "1,2", "-o"],
        ),
        (
            "depfile",
            vec![
                "compile",
                "fixtures/opensm/ft2/minhop/ibnetdiscover.txt",
                "--engine",
                "minhop",
                "--emit",
                "report",
                "-o",
                "OUT",
                "--depfile",
            ],
        ),
    ] {
        let fifo = dir.path().join(name);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let out = dir.path().join("out");
        let mut a: Vec<&str> = args
            .iter()
            .map(|s| {
                if *s == "OUT" {
                    out.to_str().unwrap()
                } else {
                    s
                }
            })
            .collect();
        a.push(fifo.to_str().unwrap());
        let (code, _) = crate::common::routec(&a, root);
        assert_eq!(code, 0, "{name}");
        // checked before joining: a replaced pipe never gets a writer
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{name}: the pipe was replaced");
        let text = reader.join().unwrap();
        assert!(!text.is_empty(), "{name}: nothing written into the pipe");
    }
}
