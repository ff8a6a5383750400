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
//! build (an earlier commit's) on the same fabrics and references;
//! `ROUTEC_TARGET_BEFORE=PATH` times an earlier build too, each of its
//! runs alternating with one of this build's, and prints its medians and
//! the change under each row: a machine that drifts by a tenth within
//! minutes moves both alike, where two benches one after the other would
//! not (issue 17).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::LidMap;
use routec::route::{Dmodc, Engine, RouteOptions};

mod common;
#[path = "targets/rows.rs"]
mod rows;

use rows::{memory_row, opensm_ratio, row, stage_row};

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

/// One command's runs by this build and, alternating with them, by the
/// `ROUTEC_TARGET_BEFORE` build.
struct Timed {
    now: Runs,
    before: Option<Runs>,
}

/// The earlier build timed beside this one, if any.
fn before_bin() -> Option<String> {
    std::env::var("ROUTEC_TARGET_BEFORE").ok()
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
fn compile(f: &Fabric, args: &[&str], out: &Path, runs: usize) -> Timed {
    let mut all = vec!["compile", path(&f.topo)];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", path(out), "-v"]);
    alternate(runs, |bin, r| {
        let _ = std::fs::remove_dir_all(out);
        let (wall, stderr) = run_bin(bin, &all);
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
    })
}

/// Any other command, `runs` times (wall only).
fn timed(args: &[&str], runs: usize) -> Timed {
    alternate(runs, |bin, r| r.wall.push(run_bin(bin, args).0))
}

/// `runs` rounds of `one` with this build, each after one with the
/// `ROUTEC_TARGET_BEFORE` build when there is one.
fn alternate(runs: usize, mut one: impl FnMut(&str, &mut Runs)) -> Timed {
    let (now_bin, before) = (bin(), before_bin());
    let mut t = Timed {
        now: Runs::default(),
        before: before.as_ref().map(|_| Runs::default()),
    };
    for _ in 0..runs {
        if let (Some(b), Some(r)) = (&before, &mut t.before) {
            one(b, r);
        }
        one(&now_bin, &mut t.now);
    }
    t
}

/// One run of this build: wall milliseconds and stderr; it must succeed.
fn run(args: &[&str]) -> (f64, String) {
    run_bin(&bin(), args)
}

/// One run of the binary `bin`.
fn run_bin(bin: &str, args: &[&str]) -> (f64, String) {
    let t = Instant::now();
    let o = Command::new(bin).args(args).output().expect("run routec");
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{bin} {args:?}: {stderr}");
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
