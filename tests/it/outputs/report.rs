//! The depfile, the stamp and report.json: the depfile's rule, `--stamp`
//! under `--check`, the report snapshot, and the spec's example report
//! against the real one's shape.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::doc_blocks;

use super::{FT2, compile_cmd, mtime};

#[test]
fn depfile_stamp_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (dep, stamp) = (dir.path().join("routes.d"), dir.path().join("routes.stamp"));
    compile_cmd(Path::new(FT2), &out)
        .arg("--depfile")
        .arg(&dep)
        .arg("--stamp")
        .arg(&stamp)
        .assert()
        .code(0);
    assert!(stamp.exists());
    let d = std::fs::read_to_string(&dep).unwrap();
    let o = out.display();
    assert_eq!(
        d,
        format!(
            "{o}/routes.lft {o}/routec-state.json.zst {o}/report.json {} : \\\n  {FT2}\n\n{FT2}:\n",
            stamp.display()
        )
    );
    // --check touches neither.
    let old = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .append(true)
        .open(&stamp)
        .unwrap()
        .set_modified(old)
        .unwrap();
    compile_cmd(Path::new(FT2), &out)
        .arg("--stamp")
        .arg(&stamp)
        .arg("--check")
        .assert()
        .code(0);
    assert_eq!(mtime(&stamp), old);
    compile_cmd(Path::new(FT2), &out)
        .arg("--stamp")
        .arg(&stamp)
        .assert()
        .code(0);
    assert!(mtime(&stamp) > old);

    let report = std::fs::read_to_string(out.join("report.json")).unwrap();
    let r: serde_json::Value = serde_json::from_str(&report).unwrap();
    let size = std::fs::metadata(out.join("routes.lft")).unwrap().len();
    assert_eq!(r["outputs"][0]["file"].as_str(), Some("routes.lft"));
    assert_eq!(r["outputs"][0]["bytes"].as_u64(), Some(size));
    insta::assert_snapshot!("report_ft2", report);
}

/// The field names of a JSON value, recursively (array items: the first).
fn shape(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), shape(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().take(1).map(shape).collect()),
        _ => Value::Null,
    }
}

#[test]
fn report_example_in_the_spec_has_the_real_shape() {
    let block = &doc_blocks::fenced("formats/report-json.md", "json")[0];
    let example: serde_json::Value = serde_json::from_str(block).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    compile_cmd(Path::new(FT2), &out).assert().code(0);
    let real: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(shape(&example), shape(&real));
    assert_eq!(example["schema_version"], real["schema_version"]);
    assert_eq!(example["counts"], real["counts"]);
}
