//! Topologies given to `info`: errors on huge lines and control bytes shown
//! safely, a routec output named as such, CR line ends, empty topologies,
//! the IB limits on LIDs, LMCs, port counts and GUIDs.

use std::path::Path;

use super::{RING6, routec};

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
