//! The mutation campaign through the `routec` binary (issue 11, "Done
//! means"): every subcommand and every reader (`cases.rs`), each run in its
//! own process with a wall-clock limit and an address-space limit, every
//! exit classified. Allowed: exit 0–3 with no panic message. Failures: a
//! panic (101), any other exit (134 is an abort, e.g. an allocation over
//! the limit), death by a signal, a run over the time limit (a hang), a
//! peak RSS over 1 GiB. Each failing input is kept, with the command line
//! that replays it.
//!
//! Knobs (environment): `ROUTEC_CAMPAIGN_RUNS` (total runs, default 250:
//! the bounded run of the test suite), `ROUTEC_CAMPAIGN_STREAM` (another
//! mutation stream, default 1), `ROUTEC_CAMPAIGN_SHARD=i/n` (this process
//! runs the i-th of n equal slices: two processes share a campaign),
//! `ROUTEC_CAMPAIGN_BIN` (the binary, e.g. `target/release/routec`;
//! default the test build's), `ROUTEC_CAMPAIGN_TIMEOUT_S` (default 10),
//! `ROUTEC_CAMPAIGN_AS_MB` (address-space limit through `prlimit`, default
//! 1024), `ROUTEC_CAMPAIGN_KEEP` (where failing inputs go, default
//! `/tmp/routec-campaign`). Run `r` of stream `s` is the same command on
//! the same bytes on every machine: a failure replays with
//! `ROUTEC_CAMPAIGN_FIRST=r ROUTEC_CAMPAIGN_RUNS=1`. See `tests/it/fuzz/README.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::cases::{CASES, Case, Corpus, PREPARE, fill};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The knobs of one campaign process.
struct Knobs {
    bin: PathBuf,
    stream: u64,
    /// The runs of this process: `first..end`.
    first: u64,
    end: u64,
    timeout: Duration,
    as_mb: u64,
    keep: PathBuf,
}

fn knobs() -> Knobs {
    let runs = env_u64("ROUTEC_CAMPAIGN_RUNS", 250);
    let first = env_u64("ROUTEC_CAMPAIGN_FIRST", 0);
    let (i, n) = std::env::var("ROUTEC_CAMPAIGN_SHARD")
        .ok()
        .and_then(|s| {
            let (i, n) = s.split_once('/')?;
            Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?))
        })
        .filter(|&(i, n)| i < n)
        .unwrap_or((0, 1));
    Knobs {
        bin: std::env::var_os("ROUTEC_CAMPAIGN_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| assert_cmd::cargo::cargo_bin("routec")),
        stream: env_u64("ROUTEC_CAMPAIGN_STREAM", 1),
        first: first + runs * i / n,
        end: first + runs * (i + 1) / n,
        timeout: Duration::from_secs(env_u64("ROUTEC_CAMPAIGN_TIMEOUT_S", 10)),
        as_mb: env_u64("ROUTEC_CAMPAIGN_AS_MB", 1024),
        keep: std::env::var_os("ROUTEC_CAMPAIGN_KEEP")
            .map_or_else(|| PathBuf::from("/tmp/routec-campaign"), PathBuf::from),
    }
}

/// The seeds of a case by name (sorted, so that runs replay).
fn seeds(case: &Case, w: &Path) -> Vec<(String, Vec<u8>)> {
    let files: Vec<PathBuf> = match &case.corpus {
        Corpus::Args => return vec![(String::new(), Vec::new())],
        Corpus::Fuzz(name) => {
            let mut v: Vec<PathBuf> = std::fs::read_dir(Path::new("fixtures/fuzz").join(name))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            v.sort();
            v
        }
        Corpus::Files(fs) => fs
            .iter()
            .map(|f| PathBuf::from(f.replace("{w}", &w.display().to_string())))
            .collect(),
    };
    files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect()
}

/// How one run ended.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Exit(i32),
    Panic,
    Signal(String),
    Hang,
    Memory(u64),
}

impl Verdict {
    fn allowed(&self) -> bool {
        matches!(self, Verdict::Exit(0..=3))
    }
}

/// What the whole campaign saw.
#[derive(Default)]
struct Tally {
    per_case: BTreeMap<&'static str, u64>,
    verdicts: BTreeMap<String, u64>,
    slowest: (Duration, String),
    max_rss_kb: (u64, String),
    failures: Vec<String>,
}

/// Runs `routec` under the limits; (verdict, wall time, peak RSS in KB).
fn run_one(k: &Knobs, args: &[String], dir: &Path) -> (Verdict, Duration, u64) {
    use std::os::unix::process::CommandExt;
    let time = Path::new("/usr/bin/time");
    let prlimit = Path::new("/usr/bin/prlimit");
    let mut c = if prlimit.exists() {
        let mut c = Command::new(prlimit);
        c.arg(format!("--as={}", k.as_mb << 20)).arg("--");
        c
    } else {
        Command::new("env")
    };
    if time.exists() {
        c.arg(time).args(["-f", "routec-max-rss-kb %M"]);
    }
    let err_path = dir.join("stderr");
    c.arg(&k.bin)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap())
        // its own process group, so that a hang is killed with its wrappers
        .process_group(0);
    let t0 = Instant::now();
    let mut child = c.spawn().unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t0.elapsed() > k.timeout {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &group])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = t0.elapsed();
    let err = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    let rss_kb = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("routec-max-rss-kb "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let verdict = match status {
        None => Verdict::Hang,
        Some(_) if rss_kb > 1 << 20 => Verdict::Memory(rss_kb),
        Some(_) if err.contains("panicked") => Verdict::Panic,
        Some(_) if err.contains("terminated by signal") => Verdict::Signal(
            err.lines()
                .find(|l| l.contains("terminated by signal"))
                .unwrap_or("")
                .to_string(),
        ),
        Some(s) => match s.code() {
            Some(101) => Verdict::Panic,
            Some(c) => Verdict::Exit(c),
            None => Verdict::Signal(format!("{s:?}")),
        },
    };
    (verdict, took, rss_kb)
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
        let bytes = super::mutate::mutate(seed, &all, s, run);
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

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Keeps a failing run's input, stderr and command line under the keep
/// directory; returns the folder.
fn keep(k: &Knobs, run: u64, input: &Path, args: &[String], dir: &Path) -> PathBuf {
    let to = k.keep.join(format!("stream{}-run{run}", k.stream));
    std::fs::create_dir_all(&to).unwrap();
    let _ = std::fs::copy(input, to.join(input.file_name().unwrap()));
    let _ = std::fs::copy(dir.join("stderr"), to.join("stderr"));
    let _ = std::fs::write(
        to.join("cmd"),
        format!("{} {}\n", k.bin.display(), args.join(" ")),
    );
    to
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
