//! Tables read by `check` and `diff`: a damaged route image refused, piped
//! and compressed tables read within ROUTEC_MAX_INPUT, duplicate and
//! truncated OpenSM dumps.

use super::{RING6, routec};

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
