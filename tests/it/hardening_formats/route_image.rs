//! Item 16: a route image whose layout disagrees with its header or
//! directory is a format error, checked under a digest recomputed here
//! from the spec so that only the layout is wrong.

use std::process::Command;

use sha2::{Digest, Sha256};

use super::bin;

fn u64_at(b: &[u8], at: usize) -> usize {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
}

/// The content digest as `formats/route-image.md` defines it (version 1):
/// SHA-256 over the SHA-256 of `dir_offset..tables_offset` and of each
/// directory entry's row, computed here from the spec, not by routec.
fn reseal(b: &mut [u8]) {
    let (dir, n, tables) = (
        u64_at(b, 24),
        u32::from_le_bytes(b[16..20].try_into().unwrap()) as usize,
        u64_at(b, 56),
    );
    let mut h = Sha256::new();
    h.update(Sha256::digest(&b[dir..tables]));
    for i in 0..n {
        let e = dir + 32 * i;
        let start = u64_at(b, e + 8);
        let len = u16::from_le_bytes(b[e + 20..e + 22].try_into().unwrap()) as usize * 64;
        h.update(Sha256::digest(&b[start..start + len]));
    }
    let d: [u8; 32] = h.finalize().into();
    b[104..136].copy_from_slice(&d);
}

/// Item 16: an image whose header or directory disagrees with the layout —
/// under a digest made to match, so only the layout is wrong — is a format
/// error (exit 2) naming the field, never tables read at odd offsets.
#[test]
fn route_image_header_and_directory_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let topo = crate::common::FT2;
    let ok = Command::new(bin())
        .args(["-q", "compile", topo, "--engine", "minhop", "-o"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(ok.success());
    let good = std::fs::read(out.join("routes.lft")).unwrap();
    let d = u64_at(&good, 24);
    type Damage = fn(&mut Vec<u8>, usize);
    let cases: [(&str, Damage, &str); 5] = [
        (
            "unaligned table offset",
            |b, d| {
                let v = u64_at(b, d + 8) + 1;
                b[d + 8..d + 16].copy_from_slice(&(v as u64).to_le_bytes());
            },
            "multiple of 64",
        ),
        (
            "table offset moved by a block",
            |b, d| {
                let v = u64_at(b, d + 32 + 8) + 64;
                b[d + 40..d + 48].copy_from_slice(&(v as u64).to_le_bytes());
            },
            "expected",
        ),
        (
            "duplicate GUID",
            |b, d| {
                let g: [u8; 8] = b[d..d + 8].try_into().unwrap();
                b[d + 32..d + 40].copy_from_slice(&g);
            },
            "listed",
        ),
        (
            "header_len",
            |b, _| {
                b[12] = b[12].wrapping_add(8);
            },
            "header_len",
        ),
        (
            "tables_offset",
            |b, _| {
                let v = u64_at(b, 56) + 64;
                b[56..64].copy_from_slice(&(v as u64).to_le_bytes());
            },
            "tables_offset",
        ),
    ];
    for (what, damage, says) in cases {
        let mut b = good.clone();
        damage(&mut b, d);
        reseal(&mut b);
        let img = dir.path().join("bad.lft");
        std::fs::write(&img, &b).unwrap();
        let o = Command::new(bin())
            .args(["check", topo, "--lfts"])
            .arg(&img)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        assert!(
            !err.contains("digest"),
            "{what}: resealed, so not a digest error: {err}"
        );
    }
    // the reseal itself is faithful: the intact image resealed still reads
    let mut same = good.clone();
    reseal(&mut same);
    assert_eq!(same, good);
}
