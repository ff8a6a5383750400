//! The compile state's tables digest (`formats/state.md`, version 2,
//! issue 17): made of the SHA-256 of each row of the route image, switches
//! in GUID order. The oracle here reads the rows out of the image bytes by
//! the layout of `formats/route-image.md` and hashes them itself; a state
//! of version 1 (the digest defined otherwise) is ignored with note R020.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::common::routec;

fn u64_at(b: &[u8], at: usize) -> usize {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
}

/// (switch GUID, row bytes) of every directory entry of an image.
fn image_rows(b: &[u8]) -> Vec<(u64, Vec<u8>)> {
    let n = u32::from_le_bytes(b[16..20].try_into().unwrap()) as usize;
    let dir = u64_at(b, 24);
    (0..n)
        .map(|i| {
            let e = dir + 32 * i;
            let start = u64_at(b, e + 8);
            let blocks = u16::from_le_bytes(b[e + 20..e + 22].try_into().unwrap()) as usize;
            (u64_at(b, e) as u64, b[start..start + 64 * blocks].to_vec())
        })
        .collect()
}

/// `lfts_digest` as formats/state.md (version 2) defines it.
fn oracle_v2(mut rows: Vec<(u64, Vec<u8>)>) -> String {
    rows.sort_by_key(|r| r.0);
    let mut h = Sha256::new();
    h.update(b"routec-lfts-v2");
    for (guid, row) in rows {
        h.update(guid.to_le_bytes());
        h.update(Sha256::digest(&row));
    }
    hex(&h.finalize())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn state_json(out: &Path) -> serde_json::Value {
    let packed = std::fs::read(out.join("routec-state.json.zst")).unwrap();
    serde_json::from_slice(&zstd::decode_all(&packed[..]).unwrap()).unwrap()
}

fn topo(dir: &Path) {
    let args = ["gen", "pgft", "--h", "3", "--m", "4,4,8", "--w", "1,4,4"];
    assert_eq!(routec(&[&args[..], &["-o", "t.topo"]].concat(), dir).0, 0);
}

/// Plain, compressed and VL (version 2) images: the state's digest is the
/// oracle's over the image's own rows.
#[test]
fn state_tables_digest_is_made_of_the_image_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    topo(dir);
    for (out, extra) in [
        ("plain", &["--engine", "dmodc"][..]),
        ("zst", &["--engine", "dmodc", "--compress"][..]),
        ("vl", &["--engine", "minhop", "--vls", "2"][..]),
    ] {
        let mut a = vec!["compile", "t.topo", "-o", out];
        a.extend(extra);
        assert_eq!(routec(&a, dir).0, 0, "{out}");
        let image = if out == "zst" {
            zstd::decode_all(&std::fs::read(dir.join("zst/routes.lft.zst")).unwrap()[..]).unwrap()
        } else {
            std::fs::read(dir.join(out).join("routes.lft")).unwrap()
        };
        let st = state_json(&dir.join(out));
        assert_eq!(st["version"], 2, "{out}");
        let rows = image_rows(&image);
        let switches = st["nodes"].as_array().unwrap().iter();
        let switches = switches.filter(|n| n[1] == 0).count();
        assert_eq!(rows.len(), switches, "{out}: one row per switch");
        assert_eq!(st["lfts_digest"], oracle_v2(rows), "{out}");
    }
}

/// A version 1 state — even one whose digest is right by version 1's
/// definition — is not reused: note R020 names the version, and the run
/// routes from scratch.
#[test]
fn a_version_1_state_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    topo(dir);
    assert_eq!(
        routec(
            &["compile", "t.topo", "--engine", "dmodc", "-o", "prev"],
            dir
        )
        .0,
        0
    );
    let image = std::fs::read(dir.join("prev/routes.lft")).unwrap();
    let st = state_json(&dir.join("prev"));
    let max_lid = st["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|n| {
            n[3].as_array()
                .unwrap()
                .iter()
                .map(|p| p[2].as_u64().unwrap())
        })
        .max()
        .unwrap() as usize;
    let mut rows = image_rows(&image);
    rows.sort_by_key(|r| r.0);
    let mut h = Sha256::new();
    h.update(b"routec-lfts-v1");
    for (guid, row) in &rows {
        h.update(guid.to_le_bytes());
        h.update(&row[..=max_lid]);
    }
    let mut v1 = st.clone();
    v1["version"] = 1.into();
    v1["lfts_digest"] = hex(&h.finalize()).into();
    let packed = zstd::encode_all(&serde_json::to_vec(&v1).unwrap()[..], 3).unwrap();
    std::fs::write(dir.join("prev/routec-state.json.zst"), packed).unwrap();
    let (o, err) = compile_previous(dir, "next", "prev");
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("note[R020]") && err.contains("state version 1"),
        "{err}"
    );
    assert!(!err.contains("note[R021]"), "{err}");
    assert_eq!(
        std::fs::read(dir.join("next/routes.lft")).unwrap(),
        image,
        "routed from scratch: the same tables"
    );
    // the state written now is version 2 and is reused
    let (_, err) = compile_previous(dir, "again", "next");
    assert!(err.contains("note[R021]"), "{err}");
}

/// `compile t.topo --engine dmodc -o OUT --previous PREV` in `dir`: the
/// output and its stderr.
fn compile_previous(dir: &Path, out: &str, prev: &str) -> (std::process::Output, String) {
    let o = assert_cmd::Command::cargo_bin("routec")
        .unwrap()
        .args(["compile", "t.topo", "--engine", "dmodc", "-o", out])
        .args(["--previous", prev])
        .current_dir(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, err)
}
