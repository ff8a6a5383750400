//! `compile --engine vtftr`: the VL count and unroutable pairs, the refusal
//! of fabrics that are not 2-D fat trees, ibdmchk on the emitted SL/SL2VL
//! files.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn compile(topo: &Path, faults: Option<&Path>, out: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "compile".to_string(),
        topo.display().to_string(),
        "--engine".into(),
        "vtftr".into(),
        "-o".into(),
        out.display().to_string(),
    ];
    if let Some(f) = faults {
        args.extend(["--faults".into(), f.display().to_string()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let o = assert_cmd::Command::cargo_bin("routec")
        .unwrap()
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    // error text unwrapped: the terminal renderer breaks lines at its width
    let flat = err
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (o.status.code().unwrap_or(-1), flat)
}

fn gen_ft2d(name: &str, args: &[&str]) -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("vtftr_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let topo = dir.join("fabric.topo");
    let mut a = vec!["gen", "ft2d", "-o", topo.to_str().unwrap()];
    a.extend(args);
    let (code, _) = crate::common::routec(&a, Path::new(ROOT));
    assert_eq!(code, 0);
    (topo.clone(), dir.join("fabric.topo.faults"))
}

#[test]
fn cli_vls_and_unroutable_pairs() {
    let (topo, faults) = gen_ft2d(
        "cli",
        &[
            "--nx",
            "4",
            "--ny",
            "4",
            "--hosts",
            "1",
            "--fail-leaves",
            "2",
            "--seed",
            "1",
        ],
    );
    let out = topo.with_file_name("out");
    let (code, err) = compile(&topo, Some(&faults), &out, &["--vls", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("needs at least 2 VLs") && err.contains("escape VL"),
        "{err}"
    );
    // without --vls: 2 VLs, in the report
    let (code, err) = compile(&topo, Some(&faults), &out, &[]);
    assert_eq!(code, 0, "{err}");
    let rep: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(rep["vl_plan"]["vls"], 2, "{rep}");
    // faults in every row and column (the 4 of a spread set): unroutable
    // pairs named, exit 1, nothing written
    let (topo, faults) = gen_ft2d(
        "cover",
        &[
            "--nx",
            "4",
            "--ny",
            "4",
            "--hosts",
            "1",
            "--fail-leaves",
            "4",
            "--fail-pattern",
            "spread",
        ],
    );
    let (code, err) = compile(&topo, Some(&faults), &topo.with_file_name("out"), &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("note[VT003]") && err.contains("unroutable") && err.contains(" -> LSW_"),
        "{err}"
    );
    assert!(err.contains("V001"), "{err}");
}

#[test]
fn refuses_fabrics_that_are_not_2d_fat_trees() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vtftr_refuse");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let torus = dir.join("torus.topo");
    let pgft = dir.join("pgft.topo");
    for a in [
        vec![
            "gen",
            "torus",
            "--dims",
            "4,4",
            "-o",
            torus.to_str().unwrap(),
        ],
        vec![
            "gen",
            "pgft",
            "--h",
            "3",
            "--m",
            "2,2,2",
            "--w",
            "1,2,2",
            "-o",
            pgft.to_str().unwrap(),
        ],
    ] {
        assert_eq!(crate::common::routec(&a, Path::new(ROOT)).0, 0);
    }
    for (topo, says) in [
        (&torus, "two leaf switches"),
        (&pgft, "two switches without hosts"),
    ] {
        let (code, err) = compile(topo, None, &dir.join("out"), &[]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("not a 2-D fat tree") && err.contains(says),
            "{err}"
        );
        // both switches of the offending cable are named
        assert!(err.matches("0x").count() >= 2, "{err}");
    }
}

#[test]
fn ibdmchk_finds_no_credit_loop_in_the_emitted_vl_files() {
    let usable = Command::new("ibdmchk").arg("-h").output().is_ok();
    if !crate::common::peer("ibdmchk", usable) {
        return;
    }
    let mut loops_on_one_vl = 0;
    for (name, k, pattern, seed) in [
        ("r3", "3", "random", "2"),
        ("r6", "6", "random", "5"),
        ("spread5", "5", "spread", "1"),
        ("col6", "6", "column", "3"),
    ] {
        let (topo, faults) = gen_ft2d(
            &format!("ibdmchk_{name}"),
            &[
                "--nx",
                "6",
                "--ny",
                "6",
                "--hosts",
                "1",
                "--fail-leaves",
                k,
                "--fail-pattern",
                pattern,
                "--seed",
                seed,
            ],
        );
        let out = topo.with_file_name("out");
        let (code, err) = compile(&topo, Some(&faults), &out, &["--emit", "fdbs,report"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            !crate::common::ibdmchk_loops(&out, Some("ibdmchk.psl")).expect("ibdmchk runs"),
            "{name}"
        );
        loops_on_one_vl +=
            usize::from(crate::common::ibdmchk_loops(&out, None).expect("ibdmchk runs"));
    }
    // (col6 kills a whole column: its column switch keeps no cable, and
    // ibdmchk accepts the files only because routec leaves it out of them)
    // the VL files matter: the same tables on one VL have credit loops
    assert!(loops_on_one_vl > 0);
}
