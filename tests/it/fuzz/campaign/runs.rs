//! The campaign itself: the control pass that every case must pass
//! unmutated, this process's slice of runs and their tally, and the
//! bounded test of the suite.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::inputs::{copy_dir, keep, seeds};
use super::process::{Verdict, run_one};
use super::{Knobs, knobs};
use crate::fuzz::cases::{CASES, PREPARE, fill};

/// What the whole campaign saw.
#[derive(Default)]
struct Tally {
    per_case: BTreeMap<&'static str, u64>,
    verdicts: BTreeMap<String, u64>,
    slowest: (Duration, String),
    max_rss_kb: (u64, String),
    failures: Vec<String>,
}

/// Runs the campaign's slice of this process and returns what it saw.
fn campaign(k: &Knobs) -> Tally {
    let work = tempfile::tempdir().unwrap();
    let w = work.path().display().to_string();
    for line in PREPARE {
        let args: Vec<String> = line
            .replace("{w}", &w)
            .split(' ')
            .map(String::from)
            .collect();
        let o = Command::new(&k.bin)
            .arg("-q")
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    controls(k, work.path());
    let corpora: Vec<Vec<(String, Vec<u8>)>> =
        CASES.iter().map(|c| seeds(c, work.path())).collect();
    let mut t = Tally::default();
    for run in k.first..k.end {
        let ci = (run % CASES.len() as u64) as usize;
        let case = &CASES[ci];
        let corpus = &corpora[ci];
        let round = run / CASES.len() as u64;
        let (name, seed) = &corpus[(round % corpus.len() as u64) as usize];
        let all: Vec<Vec<u8>> = corpus.iter().map(|(_, b)| b.clone()).collect();
        let s = k.stream.wrapping_mul(1000).wrapping_add(ci as u64);
        let rd = tempfile::tempdir().unwrap();
        let input = rd.path().join(if name.is_empty() { "in" } else { name });
        let bytes = crate::fuzz::mutate::mutate(seed, &all, s, run);
        let in_arg = match case.dir {
            Some((from, file)) => {
                let d = rd.path().join("d");
                copy_dir(&work.path().join(from), &d);
                std::fs::write(d.join(file), &bytes).unwrap();
                d.join(file)
            }
            None => {
                std::fs::write(&input, &bytes).unwrap();
                input
            }
        };
        let mut rng = ChaCha8Rng::seed_from_u64(s ^ run.rotate_left(32));
        let mut args = vec!["-j".to_string(), "1".to_string()];
        args.extend(fill(
            case.args,
            &in_arg.display().to_string(),
            &rd.path().display().to_string(),
            &w,
            Some(&mut rng),
        ));
        let (verdict, took, rss) = run_one(k, &args, rd.path());
        *t.per_case.entry(case.label).or_default() += 1;
        *t.verdicts.entry(format!("{verdict:?}")).or_default() += 1;
        let what = format!(
            "run {run} stream {} [{}] routec {}",
            k.stream,
            case.label,
            args.join(" ")
        );
        if took > t.slowest.0 {
            t.slowest = (took, what.clone());
        }
        if rss > t.max_rss_kb.0 {
            t.max_rss_kb = (rss, what.clone());
        }
        if (run + 1 - k.first).is_multiple_of(1000) {
            eprintln!(
                "campaign: {} runs, {} failures",
                run + 1 - k.first,
                t.failures.len()
            );
        }
        if !verdict.allowed() {
            let kept = keep(k, run, &in_arg, &args, rd.path());
            t.failures.push(format!(
                "{what}: {verdict:?} in {took:?} (kept in {})",
                kept.display()
            ));
        }
    }
    t
}

/// Every case, unmutated with the default numbers, must succeed on at
/// least one of its seeds (exit 0; 1 for findings the fixture has; 3 for
/// differences): a template that is itself a usage error would test
/// nothing.
fn controls(k: &Knobs, w: &Path) {
    let wd = w.display().to_string();
    let mut bad = Vec::new();
    for case in CASES {
        let mut seen = Vec::new();
        for (name, seed) in &seeds(case, w) {
            let rd = tempfile::tempdir().unwrap();
            let in_arg = match case.dir {
                Some((from, file)) => {
                    let d = rd.path().join("d");
                    copy_dir(&w.join(from), &d);
                    d.join(file)
                }
                None => {
                    let p = rd.path().join(if name.is_empty() { "in" } else { name });
                    std::fs::write(&p, seed).unwrap();
                    p
                }
            };
            let out = rd.path().display().to_string();
            let args = fill(case.args, &in_arg.display().to_string(), &out, &wd, None);
            let (verdict, _, _) = run_one(k, &args, rd.path());
            let err = std::fs::read_to_string(rd.path().join("stderr")).unwrap_or_default();
            seen.push((verdict, format!("routec {}\n{err}", args.join(" "))));
        }
        if !seen
            .iter()
            .any(|(v, _)| matches!(v, Verdict::Exit(0 | 1 | 3)))
        {
            bad.push(format!("control [{}]: {seen:?}", case.label));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The bounded campaign of the test suite (250 runs, every case at least
/// five times); `ROUTEC_CAMPAIGN_RUNS=20000` (and the other knobs) make it
/// the full one. Asserts no run failed, and prints the tally.
#[test]
fn every_subcommand_survives_mutated_inputs_through_the_binary() {
    let k = knobs();
    let t = campaign(&k);
    eprintln!(
        "campaign: runs {}..{} of stream {} with {}",
        k.first,
        k.end,
        k.stream,
        k.bin.display()
    );
    for (label, n) in &t.per_case {
        eprintln!("  {n:>7}  {label}");
    }
    eprintln!("exits: {:?}", t.verdicts);
    eprintln!("slowest: {:?} {}", t.slowest.0, t.slowest.1);
    eprintln!("max RSS: {} KB {}", t.max_rss_kb.0, t.max_rss_kb.1);
    assert_eq!(
        t.per_case.len(),
        CASES.len().min((k.end - k.first) as usize),
        "every case ran"
    );
    assert!(
        t.failures.is_empty(),
        "{} failures:\n{}",
        t.failures.len(),
        t.failures.join("\n")
    );
    let allowed: u64 = t
        .verdicts
        .iter()
        .filter(|(v, _)| v.starts_with("Exit(0)"))
        .map(|(_, n)| n)
        .sum();
    assert!(
        allowed > 0,
        "some runs succeed: the mutations are not all rejected"
    );
}
