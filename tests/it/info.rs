//! `routec info`: text and JSON output of the binary.

use assert_cmd::Command;

fn fixture(rel: &str) -> String {
    format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn info(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("routec")
        .unwrap()
        .arg("info")
        .args(args)
        .output()
        .unwrap();
    let s = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap_or(-1),
        s(out.stdout),
        s(out.stderr),
    )
}

#[test]
fn text_summary_of_tiny() {
    let (code, out, err) = info(&[&fixture("ibnetdiscover/tiny.ibnetdiscover")]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("info_tiny_text", out);
}

#[test]
fn json_summary_of_tiny() {
    let (code, out, err) = info(&["--json", &fixture("ibnetdiscover/tiny.ibnetdiscover")]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("info_tiny_json", out);
}

#[test]
fn json_has_the_integer_keys() {
    // loginoff: 8 switches, 144 CAs, 192 links (SOURCES.md), one component.
    let (code, out, _) = info(&[
        "--json",
        &fixture("real/loginoff-sx6036-2level.ibnetdiscover"),
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for (k, want) in [
        ("switches", 8),
        ("cas", 144),
        ("routers", 0),
        ("links", 192),
        ("components", 1),
    ] {
        assert_eq!(v[k].as_u64(), Some(want), "{k}");
    }
}

#[test]
fn split_fabric_is_reported() {
    let (code, out, _) = info(&[&fixture("ibnetdiscover/split-fabric.ibnetdiscover")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("components      2 -- SPLIT FABRIC, nodes per component: 2, 2"),
        "{out}"
    );
}

#[test]
fn lenient_warnings_go_to_stderr_and_errors_exit_2() {
    let log = fixture("ibnetdiscover/terminal-log-lenient.ibnetdiscover");
    let (code, _, err) = info(&[&log]);
    assert_eq!(code, 2);
    assert!(
        err.contains("terminal-log-lenient.ibnetdiscover:1:1"),
        "{err}"
    );
    let (code, out, err) = info(&["--lenient", "--json", &log]);
    assert_eq!(code, 0);
    assert_eq!(err.matches("warning: ").count(), 4, "{err}");
    assert!(out.contains("\"switches\": 2"));
}
