//! `compile --engine sssp`: thread-count independence, deadlock freedom with
//! `--vls 8` within dfsssp's VLs (ibdmchk agreeing), `--max-hops`, and
//! `check`/`report` reading `--lmc` tables.

use std::path::Path;

use crate::common::routec;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn tmp(name: &str) -> std::path::PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sssp_{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes a generated fabric; returns its path.
fn generate(dir: &Path, name: &str, args: &[&str]) -> String {
    let path = dir.join(format!("{name}.topo"));
    let mut all = vec!["gen"];
    all.extend_from_slice(args);
    all.extend(["-o", path.to_str().unwrap()]);
    assert_eq!(routec(&all, Path::new(ROOT)).0, 0);
    path.to_str().unwrap().to_string()
}

/// `-j 1` and `-j 2` write the same bytes (route image with its VL plan,
/// report, OpenSM dump) on a dragonfly with LMC 1 and lanes.
#[test]
fn thread_count_does_not_change_outputs() {
    let dir = tmp("threads");
    let topo = generate(
        &dir,
        "df",
        &["dragonfly", "--a", "4", "--p", "2", "--h", "2"],
    );
    let run = |j: &str| {
        let out = dir.join(format!("j{j}"));
        let (code, _) = routec(
            &[
                "compile",
                &topo,
                "--engine",
                "sssp",
                "--lmc",
                "1",
                "--vls",
                "8",
                "-j",
                j,
                "--emit",
                "image,report,opensm",
                "-o",
                out.to_str().unwrap(),
            ],
            Path::new(ROOT),
        );
        assert_eq!(code, 0);
        ["routes.lft", "report.json", "opensm-lfts.dump"]
            .map(|f| std::fs::read(out.join(f)).unwrap())
    };
    assert!(run("1") == run("2"), "outputs differ between -j 1 and -j 2");
}

/// VLs a layered sssp routing needs, from report.json; the compile must
/// pass verification (no credit loop on any VL).
fn vls_needed(topo: &str, out: &Path) -> u64 {
    let (code, _) = routec(
        &[
            "compile",
            topo,
            "--engine",
            "sssp",
            "--vls",
            "8",
            "--emit",
            "report,fdbs",
            "-o",
            out.to_str().unwrap(),
        ],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{topo}: verification failed with 8 VLs");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    report["verification"]["stats"]["vls_used"]
        .as_u64()
        .unwrap_or_else(|| panic!("no vls_used in {report}"))
}

/// With `--vls 8` the verifier finds no credit loop on the 8×8 and
/// 4×4×4 tori and the 544-host dragonfly, and sssp needs no more VLs
/// than OpenSM 3.3.23's dfsssp on the same fabrics (measured over ibsim:
/// 8, 8 and 4 VLs; README "Balanced shortest paths and LMC"); ibdmchk,
/// given the emitted `-c`/`-d` files, agrees (and finds the loop without
/// them).
#[test]
fn layered_sssp_is_deadlock_free_within_dfsssp_vls() {
    let dir = tmp("vls");
    for (name, args, dfsssp) in [
        ("t88", vec!["torus", "--dims", "8,8"], 8),
        ("t444", vec!["torus", "--dims", "4,4,4"], 8),
        (
            "df544",
            vec!["dragonfly", "--a", "8", "--p", "4", "--h", "2"],
            4,
        ),
    ] {
        let topo = generate(&dir, name, &args);
        let vls = vls_needed(&topo, &dir.join(name));
        eprintln!("{name}: sssp + layering uses {vls} VLs (dfsssp {dfsssp})");
        assert!((2..=dfsssp).contains(&vls), "{name}: {vls} VLs");
        if ibdmchk_installed() {
            let out = dir.join(name);
            assert_eq!(
                crate::common::ibdmchk_loops(&out, None),
                Some(true),
                "{name}: one VL loops"
            );
            assert_eq!(
                crate::common::ibdmchk_loops(&out, Some("ibdmchk.psl")),
                Some(false),
                "{name}: layered"
            );
        }
    }
}

fn ibdmchk_installed() -> bool {
    crate::common::peer(
        "ibdmchk",
        std::process::Command::new("ibdmchk")
            .arg("-h")
            .output()
            .is_ok(),
    )
}

/// `--max-hops` is the verifier's hop limit: the 8×8 torus's 8-hop routes
/// fail with 7 (V003, exit 1) and pass with 8.
#[test]
fn max_hops_is_a_finding() {
    let dir = tmp("hops");
    let topo = generate(&dir, "t88", &["torus", "--dims", "8,8"]);
    let run = |h: &str| {
        routec(
            &[
                "compile",
                &topo,
                "--engine",
                "sssp",
                "--vls",
                "8",
                "--max-hops",
                h,
                "--emit",
                "none",
                "-o",
                dir.join("out").to_str().unwrap(),
            ],
            Path::new(ROOT),
        )
        .0
    };
    assert_eq!(run("7"), 1);
    assert_eq!(run("8"), 0);
}

/// Tables of `compile --lmc 2` name LIDs the topology file does not carry:
/// `check` and `report` given `--lmc 2` assign the same ones and read them
/// (clean, path diversity reported); without it every CA LID is unreachable.
#[test]
fn check_and_report_read_lmc_tables_with_lmc() {
    let dir = tmp("lmc_read");
    let topo = generate(&dir, "t44", &["torus", "--dims", "4,4"]);
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let cwd = Path::new(ROOT);
    let compile = [
        "compile", &topo, "--engine", "sssp", "--lmc", "2", "--vls", "8", "-o", out,
    ];
    assert_eq!(routec(&compile, cwd).0, 0);
    assert_eq!(
        routec(&["check", &topo, "--lfts", out, "--lmc", "2"], cwd).0,
        0
    );
    assert_eq!(routec(&["check", &topo, "--lfts", out], cwd).0, 1);
    let (code, json) = routec(
        &["report", &topo, "--lfts", out, "--lmc", "2", "--json"],
        cwd,
    );
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(&json).unwrap();
    let d = &r["path_diversity"];
    assert_eq!(d["max_lmc"], 2);
    assert_eq!(d["pairs"], 16 * 15);
    assert_eq!(d["unrouted_pairs"], 0);
}
