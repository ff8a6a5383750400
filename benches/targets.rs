//! Every target of issue 17 in one run, timed as a user meets it: the
//! release `routec` binary run whole, each run into a fresh output
//! directory, its stages and peak memory read from `-v`. Each figure is
//! printed beside its target and as ratios to two machine references timed
//! in the same run on the same tables — one copy of a buffer of the tables'
//! size (memory speed) and one write of their route image (output speed) —
//! so that figures taken on different machines can be compared.
//!
//!   cargo bench --bench targets
//!
//! `ROUTEC_TARGET_RUNS=N` (default 9) runs per row, medians and ranges
//! printed; `ROUTEC_OPENSM_ROUTING_S=S` is OpenSM 3.3.23's minhop routing
//! phase on the same 11,664-host fabric measured on this machine
//! (`routing_s` of `run_osm.sh`), for the minhop row's ratio;
//! `ROUTEC_TARGET_SKIP_DUMP=1` skips the row that writes and checks the
//! 1.4 GB `opensm-lfts.dump`; `ROUTEC_TARGET_BIN=PATH` times another
//! build (an earlier commit's) on the same fabrics and references.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::LidMap;
use routec::route::{Dmodc, Engine, RouteOptions};

mod common;

/// The binary timed: this build's, or `ROUTEC_TARGET_BIN`.
fn bin() -> String {
    std::env::var("ROUTEC_TARGET_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_routec").into())
}

/// One fabric: its file, and the machine references on its Dmodc tables.
struct Fabric {
    topo: PathBuf,
    copy: Duration,
    image: Duration,
    table_mb: f64,
}

/// The figures of one command over several runs.
#[derive(Default)]
struct Runs {
    wall: Vec<f64>,
    stages: Vec<(String, Vec<f64>)>,
    peak_mb: Vec<f64>,
}

fn main() {
    // `cargo bench` passes `--bench`; a name filter is not supported
    let runs = std::env::var("ROUTEC_TARGET_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9usize);
    let dir = tempfile::tempdir().expect("temp dir");
    let t11 = fabric(dir.path(), "t11", [18, 18, 36], [1, 18, 18]);
    let t27 = fabric(dir.path(), "t27", [24, 24, 48], [1, 24, 24]);
    eprintln!(
        "machine references: sort-and-walk {:.1} ms; tables {:.1} MB / {:.1} MB: copy {:.1} / {:.1} ms, image write {:.1} / {:.1} ms (11,664 / 27,648 hosts)",
        common::reference().as_secs_f64() * 1e3,
        t11.table_mb,
        t27.table_mb,
        t11.copy.as_secs_f64() * 1e3,
        t27.copy.as_secs_f64() * 1e3,
        t11.image.as_secs_f64() * 1e3,
        t27.image.as_secs_f64() * 1e3
    );
    let out = dir.path().join("out");
    rlft_27648_rows(&t27, &out, runs);
    rlft_11664_rows(&t11, &out, runs);
    reading_rows(&t11, dir.path(), runs);
}

const IMAGE: [&str; 4] = ["--engine", "dmodc", "--emit", "image"];
const MINHOP: [&str; 4] = ["--engine", "minhop", "--emit", "none"];

/// The whole Dmodc compile of 27,648 hosts, its stages and its memory.
fn rlft_27648_rows(t27: &Fabric, out: &Path, runs: usize) {
    let r = compile(t27, &IMAGE, out, runs);
    row("27,648 hosts, dmodc compile --emit image", &r, t27, 400.0);
    for (stage, target) in [("parse", 60.0), ("route", 120.0), ("verify", 150.0)] {
        stage_row(&r, stage, t27, target);
    }
    memory_row(&r, t27);
}

/// The whole Dmodc and minhop compiles of 11,664 hosts, and minhop
/// against OpenSM's routing phase.
fn rlft_11664_rows(t11: &Fabric, out: &Path, runs: usize) {
    let r = compile(t11, &IMAGE, out, runs);
    row("11,664 hosts, dmodc compile --emit image", &r, t11, 150.0);
    let r = compile(t11, &MINHOP, out, runs);
    row("11,664 hosts, minhop compile --emit none", &r, t11, 200.0);
    opensm_ratio(&r);
}

/// The commands that read tables: the shift report of a Dmodc image and
/// `check` of the 1.4 GB text dump of minhop's tables.
fn reading_rows(t11: &Fabric, dir: &Path, runs: usize) {
    let kept = dir.join("kept");
    let mut args = vec!["compile", path(&t11.topo)];
    args.extend_from_slice(&IMAGE);
    args.extend_from_slice(&["-o", path(&kept)]);
    run(&args);
    let lft = kept.join("routes.lft");
    let shift = [
        "report",
        path(&t11.topo),
        "--lfts",
        path(&lft),
        "--pattern",
        "shift",
    ];
    let name = "11,664 hosts, report --pattern shift";
    row(name, &timed(&shift, runs), t11, 1000.0);
    if std::env::var_os("ROUTEC_TARGET_SKIP_DUMP").is_some() {
        return;
    }
    let dump_dir = dir.join("dump");
    let mut args = vec!["compile", path(&t11.topo)];
    args.extend_from_slice(&MINHOP[..2]);
    args.extend_from_slice(&["--emit", "opensm", "-o", path(&dump_dir)]);
    run(&args);
    let dump = dump_dir.join("opensm-lfts.dump");
    let check = ["check", path(&t11.topo), "--lfts", path(&dump)];
    let name = "11,664 hosts, check of opensm-lfts.dump (1.4 GB)";
    row(name, &timed(&check, runs.min(5)), t11, 1500.0);
}

/// Writes the PGFT's ibnetdiscover file with `routec gen pgft` and times
/// the two references on its Dmodc tables (in process).
fn fabric(dir: &Path, name: &str, m: [u32; 3], w: [u32; 3]) -> Fabric {
    let topo = dir.join(format!("{name}.topo"));
    let list = |v: [u32; 3]| format!("{},{},{}", v[0], v[1], v[2]);
    let (m, w) = (list(m), list(w));
    run(&[
        "gen",
        "pgft",
        "--h",
        "3",
        "--m",
        &m,
        "--w",
        &w,
        "-o",
        path(&topo),
    ]);
    let spec = |s: &str| {
        s.split(',')
            .map(|x| x.parse().unwrap())
            .collect::<Vec<u32>>()
    };
    let f = pgft(&PgftSpec::new(3, &spec(&m), &spec(&w), None)).expect("pgft");
    let lids = LidMap::new(&f).expect("lids");
    let lfts = Dmodc::default()
        .route(&f, &lids, &RouteOptions::default())
        .expect("route")
        .lfts;
    Fabric {
        topo,
        copy: common::copy_reference(lfts.as_bytes().len()),
        image: common::image_reference(&f, &lids, &lfts),
        table_mb: lfts.as_bytes().len() as f64 / (1 << 20) as f64,
    }
}

/// `routec compile TOPO ARGS -o OUT -v`, `runs` times, `OUT` removed
/// before each run (a fresh directory: nothing to skip as unchanged).
fn compile(f: &Fabric, args: &[&str], out: &Path, runs: usize) -> Runs {
    let mut all = vec!["compile", path(&f.topo)];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", path(out), "-v"]);
    let mut r = Runs::default();
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(out);
        let (wall, stderr) = run(&all);
        r.wall.push(wall);
        for line in stderr.lines() {
            if let Some(mb) = line.strip_prefix("peak memory: ") {
                r.peak_mb.push(number(mb));
            } else if let Some((stage, ms)) = line.split_once(": ")
                && ms.ends_with(" ms")
                && !stage.contains(' ')
            {
                match r.stages.iter_mut().find(|(s, _)| s == stage) {
                    Some((_, v)) => v.push(number(ms)),
                    None => r.stages.push((stage.to_string(), vec![number(ms)])),
                }
            }
        }
    }
    r
}

/// Any other command, `runs` times (wall only).
fn timed(args: &[&str], runs: usize) -> Runs {
    let mut r = Runs::default();
    for _ in 0..runs {
        r.wall.push(run(args).0);
    }
    r
}

/// One run: wall milliseconds and stderr; the run must succeed.
fn run(args: &[&str]) -> (f64, String) {
    let t = Instant::now();
    let o = Command::new(bin()).args(args).output().expect("run routec");
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "routec {args:?}: {stderr}");
    (ms, stderr)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

fn number(s: &str) -> f64 {
    s.trim()
        .trim_end_matches("ms")
        .trim_end_matches("MB")
        .trim()
        .parse()
        .unwrap_or(f64::NAN)
}

/// Median and range of `v` (sorted in place).
fn median(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn row(name: &str, r: &Runs, f: &Fabric, target_ms: f64) {
    line(name, &mut r.wall.clone(), f, target_ms);
}

fn stage_row(r: &Runs, stage: &str, f: &Fabric, target_ms: f64) {
    if let Some((_, v)) = r.stages.iter().find(|(s, _)| s == stage) {
        line(&format!("  stage {stage}"), &mut v.clone(), f, target_ms);
    }
}

/// `name: median ms [min–max] = R × copy of the tables = R × image write;
/// target T ms: met / missed`.
fn line(name: &str, v: &mut [f64], f: &Fabric, target_ms: f64) {
    let (mid, lo, hi) = median(v);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "{name}: {mid:.1} ms [{lo:.1}-{hi:.1}] = {:.2} × copy of the tables ({:.1} ms) = {:.2} × image write ({:.1} ms); target ≤ {target_ms} ms: {}",
        mid / ms(f.copy),
        ms(f.copy),
        mid / ms(f.image),
        ms(f.image),
        if mid <= target_ms { "met" } else { "missed" }
    );
}

fn memory_row(r: &Runs, f: &Fabric) {
    if r.peak_mb.is_empty() {
        eprintln!("  peak memory: not reported (no /proc, or a build whose -v does not print it)");
        return;
    }
    let (mid, lo, hi) = median(&mut r.peak_mb.clone());
    let limit = 2.0 * f.table_mb;
    eprintln!(
        "  peak memory: {mid:.1} MB [{lo:.1}-{hi:.1}] = {:.2} × the tables ({:.1} MB); target ≤ 2 ×: {}",
        mid / f.table_mb,
        f.table_mb,
        if mid <= limit { "met" } else { "missed" }
    );
}

/// The minhop row against OpenSM's routing phase, when it was measured.
fn opensm_ratio(r: &Runs) {
    let Some(s) = std::env::var("ROUTEC_OPENSM_ROUTING_S")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    else {
        eprintln!("  OpenSM ratio: set ROUTEC_OPENSM_ROUTING_S (run_osm.sh's routing_s)");
        return;
    };
    let (mid, lo, hi) = median(&mut r.wall.clone());
    eprintln!(
        "  OpenSM minhop routing {s:.2} s = {:.0} × this compile [{:.0}-{:.0}]; target ≥ 170 ×: {}",
        s * 1e3 / mid,
        s * 1e3 / hi,
        s * 1e3 / lo,
        if s * 1e3 / mid >= 170.0 {
            "met"
        } else {
            "missed"
        }
    );
}
