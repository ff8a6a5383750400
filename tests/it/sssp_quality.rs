//! routec sssp against OpenSM's sssp on the issue-14 fabrics (README
//! "Balanced shortest paths and LMC"): the most loaded switch cable over
//! every shift permutation and over 100 and 1,000 random permutations
//! (seed 1), scored by the same `routec report` for both tables.
//!
//! OpenSM's figures are pinned in `fixtures/sssp-quality/opensm-sssp.txt`
//! (OpenSM 3.3.23 `sssp -Q` over ibsim, command in its header); routec's
//! are computed here. The peer-gated test re-runs OpenSM on the 4×4×4
//! torus and checks its pin.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{have, routec, run_osm};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FIXTURE: &str = "fixtures/sssp-quality/opensm-sssp.txt";

/// (largest, mean) over the permutations of the most loaded switch cable.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Load {
    max: u32,
    mean: f64,
}

impl Load {
    fn at_most(self, o: Load) -> bool {
        self.max <= o.max && self.mean <= o.mean
    }
}

/// One fabric's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Figures {
    shift: u32,
    random100: Load,
    random1000: Load,
}

struct Row {
    name: String,
    args: String,
    opensm: Figures,
    /// routec is asserted at least as good on the 100-permutation maximum
    /// (else at most one above).
    all: bool,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(Path::new(ROOT).join(FIXTURE)).unwrap();
    let rows: Vec<Row> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(" | ").collect();
            assert_eq!(f.len(), 8, "{l}");
            let load = |a: &str, b: &str| Load {
                max: a.parse().unwrap(),
                mean: b.parse().unwrap(),
            };
            Row {
                name: f[0].into(),
                args: f[1].into(),
                opensm: Figures {
                    shift: f[2].parse().unwrap(),
                    random100: load(f[3], f[4]),
                    random1000: load(f[5], f[6]),
                },
                all: match f[7] {
                    "all" => true,
                    "r1000" => false,
                    other => panic!("BAR {other}"),
                },
            }
        })
        .collect();
    assert_eq!(rows.len(), 4, "{FIXTURE}: the four issue-14 fabrics");
    rows
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sssp_quality_{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `routec gen ARGS`, converted with its fault list applied when it has
/// one (as the fixture's header does for OpenSM): the topology path.
fn generate(dir: &Path, args: &str) -> String {
    let mut a: Vec<&str> = args.split_whitespace().collect();
    a.splice(0..0, ["gen"]);
    a.splice(2..2, ["-q", "-o", "raw.topo"]);
    assert_eq!(routec(&a, dir).0, 0, "gen {args}");
    if !dir.join("raw.topo.faults").exists() {
        return "raw.topo".into();
    }
    let conv = [
        "convert",
        "--faults",
        "raw.topo.faults",
        "--to",
        "ibnetdiscover",
        "raw.topo",
        "-o",
        "topo",
    ];
    assert_eq!(routec(&conv, dir).0, 0);
    "topo".into()
}

/// The `max M (mean X)` of report's line starting with `pattern`.
fn load_on(out: &str, pattern: &str) -> Load {
    let line = out
        .lines()
        .find(|l| l.starts_with(pattern))
        .unwrap_or_else(|| panic!("no {pattern} line in\n{out}"));
    let after = line.split("max ").nth(1).unwrap();
    let (max, rest) = after.split_once(" (mean ").unwrap();
    Load {
        max: max.parse().unwrap(),
        mean: rest.split(')').next().unwrap().parse().unwrap(),
    }
}

/// Scores tables as the fixture's header does.
fn score(dir: &Path, topo: &str, lfts: &str) -> Figures {
    let report = |extra: &[&str]| {
        let mut a = vec!["report", topo, "--lfts", lfts, "--seed", "1"];
        a.extend(extra);
        let (code, out) = routec(&a, dir);
        assert_eq!(code, 0, "{out}");
        out
    };
    let both = report(&["--pattern", "all"]);
    let many = report(&["--pattern", "random", "--samples", "1000"]);
    Figures {
        shift: load_on(&both, "shift").max,
        random100: load_on(&both, "random/1 "),
        random1000: load_on(&many, "random/1 "),
    }
}

/// routec sssp's figures on the row's fabric (tori and dragonflies have
/// credit loops without `--vls`: written anyway, the loads are what count).
fn routec_sssp(row: &Row) -> Figures {
    let dir = tmp(&row.name);
    let topo = generate(&dir, &row.args);
    let (code, out) = routec(
        &[
            "compile",
            "-q",
            "--engine",
            "sssp",
            "--allow-invalid",
            &topo,
            "-o",
            "s",
        ],
        &dir,
    );
    assert!(dir.join("s/routes.lft").exists(), "exit {code}: {out}");
    score(&dir, &topo, "s")
}

#[test]
fn sssp_is_never_worse_than_opensm_sssp_on_the_issue_fabrics() {
    for row in rows() {
        let ours = routec_sssp(&row);
        let theirs = row.opensm;
        let name = &row.name;
        assert!(
            ours.shift <= theirs.shift,
            "{name}: {ours:?} / OpenSM {theirs:?}"
        );
        assert!(
            ours.random1000.at_most(theirs.random1000),
            "{name}: {ours:?} / OpenSM {theirs:?}"
        );
        // the issue's criterion is the maximum; over 100 permutations the
        // mean of the per-permutation maxima moves with sampling noise
        // (4x4x4: 2.93 against 2.87, while over 1,000 it is 2.825 against
        // 2.885), so only the 1,000-permutation mean is asserted
        let slack = if row.all { 0 } else { 1 };
        assert!(
            ours.random100.max <= theirs.random100.max + slack,
            "{name}: {ours:?} / OpenSM {theirs:?}"
        );
    }
}

#[test]
fn opensm_sssp_reproduces_its_pinned_figures() {
    // The harness lives beside the repository on the development machine,
    // not in it: without it there is nothing to run, CI or not.
    if !run_osm().exists() {
        eprintln!("SKIPPED: no OpenSM harness at {}", run_osm().display());
        return;
    }
    if !crate::common::peer("opensm and ibsim", have("opensm") && have("ibsim")) {
        return;
    }
    let rows = rows();
    let row = rows.iter().find(|r| r.name == "torus444").expect("row");
    let dir = tmp("osm");
    let topo = generate(&dir, &row.args);
    let out = Command::new(run_osm())
        .args([&topo, "osm", "sssp", "-Q"])
        .env(
            "IBSIM_SOCKNAME",
            format!("routec-sssp-quality-{}", std::process::id()),
        )
        .current_dir(&dir)
        .output()
        .unwrap();
    let dump = "osm/dump/opensm-lfts.dump";
    assert!(
        dir.join(dump).exists(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(score(&dir, &topo, dump), row.opensm);
}
