//! Item 23: errors in routec's words and with their place: YAML errors
//! without Rust or serde jargon, and an error found after parsing naming
//! its file.

use std::process::Command;

use super::bin;

fn info_err(yaml: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.yaml");
    std::fs::write(&p, yaml).unwrap();
    let o = Command::new(bin()).arg("info").arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{yaml}");
    // miette wraps at 80 columns: read the message as one line
    let err = String::from_utf8_lossy(&o.stderr).replace(['│', '×'], " ");
    err.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Item 23: YAML errors in routec's words, with the place: no Rust type
/// names, no serde-saphyr API names, no debug structs; a LID clash names
/// both places (it once surfaced only when routing, with no file or line).
#[test]
fn yaml_errors_speak_routec() {
    let sw = "switches:\n  - {guid: 0x200000, name: s1, ports: 8, lid: 2}\n";
    let cases: [(String, &str, &str); 4] = [
        (
            sw.replace("lid: 2", "lid: -1"),
            "t.yaml:2:",
            "a whole number from 0 to 65535, found `-1`",
        ),
        (
            sw.replace("ports: 8", "ports: 300"),
            "t.yaml:2:",
            "a whole number from 0 to 255, found `300`",
        ),
        (
            format!("{sw}---\n{sw}"),
            "t.yaml:4:",
            "a second YAML document",
        ),
        (
            format!("{sw}cas:\n  - {{guid: 0x100000, name: h1, lid: 2}}\n"),
            "t.yaml:4:",
            "LID 2, already given",
        ),
    ];
    for (yaml, at, says) in cases {
        let err = info_err(&yaml);
        assert!(err.contains(at) && err.contains(says), "{yaml}\n{err}");
        // the temporary directory's random name may hold "u8" or "u16"
        let err = err
            .split_whitespace()
            .filter(|w| !w.contains("t.yaml"))
            .collect::<Vec<_>>()
            .join(" ");
        for jargon in [
            "u16",
            "u8",
            "from_str",
            "budget breached",
            "{ ",
            "invalid type",
        ] {
            assert!(!err.contains(jargon), "{jargon:?} in {err}");
        }
    }
    assert!(
        info_err(&format!(
            "{sw}cas:\n  - {{guid: 0x100000, name: h1, lid: 2}}\n"
        ))
        .contains("first given here: line 2")
    );
}

/// Item 23: an error found after parsing names its file: a root file whose
/// GUIDs name no switch (the engine, which knows no file, once said only
/// "the root file").
#[test]
fn a_root_file_naming_no_switch_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let roots = dir.path().join("my.roots");
    std::fs::write(&roots, "0x1234\n").unwrap();
    let o = Command::new(bin())
        .args(["compile", crate::common::FT2, "--engine", "updn", "--roots"])
        .arg(&roots)
        .arg("-o")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("my.roots"), "{err}");
}
