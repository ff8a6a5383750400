//! routec sssp against OpenSM's sssp on the issue-14 fabrics (README
//! "Balanced shortest paths and LMC"): the most loaded switch cable over
//! every shift permutation and over 100 and 1,000 random permutations
//! (seed 1), scored by the same `routec report` for both tables.
//!
//! OpenSM's figures are pinned in `fixtures/sssp-quality/opensm-sssp.txt`
//! (OpenSM 3.3.23 `sssp -Q` over ibsim, command in its header) and, for
//! LMC 2 (`sssp -Q -l 2` against routec's `sssp --lmc 2`, permutations over
//! the base LIDs), `opensm-sssp-lmc2.txt`; routec's are computed here. The
//! peer-gated tests re-run OpenSM on the 4×4×4 torus and check its pins.

use std::path::Path;

use crate::common::routec;
use crate::pinned::{Load, fixture_rows, generate, load_on, opensm_dump, scratch};

const FIXTURE: &str = "fixtures/sssp-quality/opensm-sssp.txt";
const FIXTURE_LMC2: &str = "fixtures/sssp-quality/opensm-sssp-lmc2.txt";

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

fn rows(fixture: &str) -> Vec<Row> {
    let rows: Vec<Row> = fixture_rows(fixture, 8)
        .into_iter()
        .map(|f| Row {
            opensm: Figures {
                shift: f[2].parse().unwrap(),
                random100: Load::of(&f[3], &f[4]),
                random1000: Load::of(&f[5], &f[6]),
            },
            all: match f[7].as_str() {
                "all" => true,
                "r1000" => false,
                other => panic!("BAR {other}"),
            },
            name: f[0].clone(),
            args: f[1].clone(),
        })
        .collect();
    assert_eq!(rows.len(), 4, "{fixture}: the four issue-14 fabrics");
    rows
}

fn tmp(name: &str) -> std::path::PathBuf {
    scratch("sssp_quality", name)
}

/// Scores tables as the fixture's header does (`lmc`: `report --lmc`, for
/// routec's `compile --lmc` tables).
fn score(dir: &Path, topo: &str, lfts: &str, lmc: Option<&str>) -> Figures {
    let report = |extra: &[&str]| {
        let mut a = vec!["report", topo, "--lfts", lfts, "--seed", "1"];
        if let Some(l) = lmc {
            a.extend(["--lmc", l]);
        }
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

/// routec sssp's figures on the row's fabric with `--lmc lmc` (tori and
/// dragonflies have credit loops without `--vls`: written anyway, the loads
/// are what count).
fn routec_sssp(row: &Row, lmc: &str) -> Figures {
    let dir = tmp(&format!("{}-lmc{lmc}", row.name));
    let topo = generate(&dir, &row.args);
    let (code, out) = routec(
        &[
            "compile",
            "-q",
            "--engine",
            "sssp",
            "--lmc",
            lmc,
            "--allow-invalid",
            &topo,
            "-o",
            "s",
        ],
        &dir,
    );
    assert!(dir.join("s/routes.lft").exists(), "exit {code}: {out}");
    score(&dir, &topo, "s", Some(lmc))
}

#[test]
fn sssp_is_never_worse_than_opensm_sssp_on_the_issue_fabrics() {
    never_worse(FIXTURE, "0");
}

/// With LMC 2 on both sides (OpenSM `-l 2`), over the base LIDs.
#[test]
fn sssp_lmc2_is_never_worse_than_opensm_sssp_lmc2() {
    never_worse(FIXTURE_LMC2, "2");
}

fn never_worse(fixture: &str, lmc: &str) {
    for row in rows(fixture) {
        let ours = routec_sssp(&row, lmc);
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
    let rows = rows(FIXTURE);
    let row = rows.iter().find(|r| r.name == "torus444").expect("row");
    let dir = tmp("osm");
    let topo = generate(&dir, &row.args);
    let Some(dump) = opensm_dump(&dir, &topo, &["sssp", "-Q"], "routec-sssp-quality") else {
        return;
    };
    assert_eq!(score(&dir, &topo, dump, None), row.opensm);
}

/// The LMC 2 pin, scored against the fabric as OpenSM discovered it (its
/// LIDs, LMC 2).
#[test]
fn opensm_sssp_lmc2_reproduces_its_pinned_figures() {
    let rows = rows(FIXTURE_LMC2);
    let row = rows.iter().find(|r| r.name == "torus444").expect("row");
    let dir = tmp("osm-lmc2");
    let topo = generate(&dir, &row.args);
    let engine = ["sssp", "-Q", "-l", "2"];
    let Some(dump) = opensm_dump(&dir, &topo, &engine, "routec-sssp-quality-lmc2") else {
        return;
    };
    assert_eq!(score(&dir, "osm/ibnetdiscover.txt", dump, None), row.opensm);
}

const FIXTURE_TAIL: &str = "fixtures/sssp-quality/opensm-sssp-tail.txt";

/// Permutations (of `report`'s random histogram in `out`) whose most
/// loaded switch cable carries `load` flows or more.
fn at_least(out: &str, load: u32) -> u32 {
    let line = out
        .lines()
        .find(|l| l.starts_with("random max-load histogram"))
        .unwrap_or_else(|| panic!("no histogram in\n{out}"));
    let counts = line.split("): ").nth(1).unwrap().split(';').next().unwrap();
    counts
        .split_whitespace()
        .map(|kv| kv.split_once(':').unwrap())
        .filter(|(k, _)| k.parse::<u32>().unwrap() >= load)
        .map(|(_, v)| v.parse::<u32>().unwrap())
        .sum()
}

/// The PGFT's random-permutation tail, where routec's 100-permutation
/// maximum is one above OpenSM's: over 2 × 10,000 permutations routec sssp
/// reaches load 7 no more often than OpenSM's sssp, within sampling noise.
/// Both tables sit at the fabric's floor for destination-based routes
/// (README: the pods' spine uplinks carry 15 whole destinations each, and
/// a hypergeometric tail at 7 follows), so the counts are ≈ 340 each: a
/// Poisson spread of ≈ 18 (5 %), and the same permutations score both
/// tables; 10 % of slack. A table that split destinations over uplinks or
/// unbalanced them would exceed it (routec minhop's tables reach 11 or
/// more in every one of 10,000).
#[test]
fn sssp_tail_is_opensm_sssp_tail() {
    let rows = fixture_rows(FIXTURE_TAIL, 7);
    let f = &rows[0];
    let (load, samples): (u32, &str) = (f[2].parse().unwrap(), &f[3]);
    let theirs: u32 = f[4].parse::<u32>().unwrap() + f[5].parse::<u32>().unwrap();
    let dir = tmp("tail");
    let topo = generate(&dir, &f[1]);
    let (code, out) = routec(
        &["compile", "-q", "--engine", "sssp", &topo, "-o", "s"],
        &dir,
    );
    assert_eq!(code, 0, "{out}");
    let ours: u32 = ["1", "2"]
        .iter()
        .map(|seed| {
            let args = ["report", &topo, "--lfts", "s", "--pattern", "random"];
            let mut a = args.to_vec();
            a.extend(["--samples", samples, "--seed", seed]);
            let (code, out) = routec(&a, &dir);
            assert_eq!(code, 0, "{out}");
            at_least(&out, load)
        })
        .sum();
    assert!(
        ours * 10 <= theirs * 11,
        "{}: {ours} permutations of 2 x {samples} reach {load}, OpenSM {theirs}",
        f[0]
    );
}
