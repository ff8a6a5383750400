//! States that are ignored (note R020, routed from scratch): missing,
//! corrupt, another version, another Dmodc variant, engine, options or
//! fabric, or an image the state does not describe.

use std::path::Path;

use super::{compile, generate, prev_run, report, rows, with_previous};

/// Asserts that `out` was routed from scratch with note R020 saying `why`:
/// its tables equal a full compile's.
fn assert_ignored(dir: &Path, topo: &Path, faults: &Path, engine: &str, why: &str) {
    let (code, err) = with_previous(dir, topo, faults, engine, "ignored", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note[R020]") && err.contains(why), "{err}");
    assert!(!err.contains("note[R021]"), "{err}");
    assert_eq!(compile(dir, topo, Some(faults), engine, "scratch", &[]), 0);
    assert_eq!(rows(&dir.join("ignored")), rows(&dir.join("scratch")));
    assert!(report(&dir.join("ignored")).get("incremental").is_none());
}

fn write_state(dir: &Path, json: &str) {
    let packed = zstd::encode_all(json.as_bytes(), 3).unwrap();
    std::fs::write(dir.join("prev/routec-state.json.zst"), packed).unwrap();
}

#[test]
fn state_missing_corrupt_or_of_another_version_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    let state = dir.join("prev/routec-state.json.zst");
    let good = std::fs::read(&state).unwrap();
    std::fs::write(&state, b"not zstd, not json").unwrap();
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "corrupt");
    let mut cut = zstd::decode_all(&good[..]).unwrap();
    cut.truncate(cut.len() / 2);
    write_state(dir, &String::from_utf8(cut).unwrap());
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "corrupt");
    let json = String::from_utf8(zstd::decode_all(&good[..]).unwrap()).unwrap();
    write_state(dir, &json.replacen("\"version\":2", "\"version\":99", 1));
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "state version 99");
    // a link naming a node that does not exist
    let bad = json.replacen("\"links\":[[", "\"links\":[[999999,1,0,1],[", 1);
    write_state(dir, &bad);
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "names no node");
    std::fs::remove_file(&state).unwrap();
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "is missing");
}

/// Dmodc's variant shapes its tables: a state made with the paper's
/// formulas is not reused by the default `spread` run, nor the reverse.
#[test]
fn state_of_another_dmodc_variant_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc --dmodc-variant paper");
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "other options");
    let (code, err) = with_previous(
        dir,
        &topo,
        &faults,
        "--engine dmodc --dmodc-variant paper",
        "same",
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note[R021]"), "{err}");
    std::fs::remove_dir_all(dir.join("prev")).unwrap();
    assert_eq!(compile(dir, &topo, None, "--engine dmodc", "prev", &[]), 0);
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine dmodc --dmodc-variant paper",
        "other options",
    );
}

#[test]
fn state_of_another_engine_options_or_fabric_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine updn --roots top",
        "made by engine dmodc",
    );
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine dmodc --vls 2",
        "other options",
    );
    // another fabric: a 2-level tree whose switches the state does not know
    let other = tempfile::tempdir().unwrap();
    let (t2, _) = generate(other.path(), "--h 2 --m 8,8 --w 1,4 --faults 1");
    std::fs::rename(dir.join("prev"), dir.join("prev-ft3")).unwrap();
    assert_eq!(compile(dir, &t2, None, "--engine dmodc", "prev", &[]), 0);
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "another fabric");
    // the image of one run beside the state of another
    std::fs::remove_dir_all(dir.join("prev")).unwrap();
    std::fs::rename(dir.join("prev-ft3"), dir.join("prev")).unwrap();
    assert_eq!(
        compile(dir, &topo, Some(&faults), "--engine dmodc", "other", &[]),
        0
    );
    std::fs::copy(dir.join("other/routes.lft"), dir.join("prev/routes.lft")).unwrap();
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine dmodc",
        "not the ones the state describes",
    );
}
