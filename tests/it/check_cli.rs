//! `routec check` end to end: exit codes 0/1/2, text and JSON verdicts,
//! and the cabling check (`--expect`).

use assert_cmd::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/verify/ring6");

fn check(args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("routec")
        .unwrap()
        .arg("check")
        .args(args)
        .current_dir(DIR)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn minhop_ring_fails_with_credit_loops() {
    let (rc, out) = check(&["ibnetdiscover.txt", "--lfts", "minhop.lfts.dump"]);
    assert_eq!(rc, 1, "{out}");
    insta::assert_snapshot!("check_ring6_minhop", out);
}

#[test]
fn updn_ring_is_clean_against_its_roots() {
    let (rc, out) = check(&[
        "ibnetdiscover.txt",
        "--lfts",
        "updn.lfts.dump",
        "--roots",
        "ring6.roots",
    ]);
    assert_eq!(rc, 0, "{out}");
    assert!(out.contains("up/down respected"), "{out}");
    // minhop's tables break up/down against the same roots
    let (rc, out) = check(&[
        "ibnetdiscover.txt",
        "--lfts",
        "minhop.lfts.dump",
        "--roots",
        "ring6.roots",
        "--json",
    ]);
    assert_eq!(rc, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["counts"]["V010"], 2);
    assert_eq!(v["counts"]["V020"], 2);
    assert_eq!(v["stats"]["ca_pairs"], 132);
    assert_eq!(v["findings"][0]["code"], "V010");
    assert_eq!(v["findings"][0]["hops"][0]["name"], "R3");
}

#[test]
fn bad_input_exits_2() {
    let (rc, _) = check(&["ibnetdiscover.txt", "--lfts", "no-such-file"]);
    assert_eq!(rc, 2);
    let (rc, _) = check(&["ibnetdiscover.txt"]);
    assert_eq!(rc, 2);
    let (rc, _) = check(&[
        "ibnetdiscover.txt",
        "--lfts",
        "updn.lfts.dump",
        "--roots",
        "opensm-subnet.lst",
    ]);
    assert_eq!(rc, 2);
}

#[test]
fn cabling_check_lists_changes_and_their_effect() {
    let (rc, out) = check(&["--expect", "ibnetdiscover.txt", "recabled.ibnetdiscover"]);
    assert_eq!(
        rc, 3,
        "cabling differences exit 3 (formats/exit-codes.md): {out}"
    );
    insta::assert_snapshot!("check_ring6_recabled", out);
    let (rc, out) = check(&["--expect", "ibnetdiscover.txt", "ibnetdiscover.txt"]);
    assert_eq!(
        (rc, out.as_str()),
        (0, "cabling matches the expected topology\n")
    );
}
