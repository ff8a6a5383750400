//! Fuzz harness of every reader (issue 11, item 27): each reader's seeds
//! (`fixtures/fuzz/READER/`) mutated by `mutate`, read in process through
//! the same entry point the commands use. A run passes when the reader
//! returns — Ok, or an error with a message — without a panic, within 10 s.
//! A sample also goes through the `routec` binary, which must exit 0–3
//! with no panic. `ROUTEC_FUZZ_RUNS` (runs per seed, default 40) scales
//! it up for a campaign; `ROUTEC_FUZZ_STREAM` picks another mutation
//! stream. A failure names (reader, seed, stream, run) and keeps the input
//! in `target/fuzz-failures/`.

mod campaign;
mod cases;
mod findings;
mod mutate;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use routec::model::Fabric;
use routec::parse::LoadOptions;

const FUZZ: &str = "fixtures/fuzz";

/// A reader under test: its name (the corpus folder) and how it reads a
/// file.
struct Reader {
    name: &'static str,
    read: fn(&Path, &Fabrics) -> Result<(), String>,
    /// `routec` arguments reading the file (`{}` is its path), if any.
    command: Option<&'static str>,
}

/// The fabrics that readers of fabric-bound files resolve names against.
struct Fabrics {
    fig2: Fabric,
    two_level: Fabric,
}

fn load(path: &str) -> Fabric {
    routec::parse::load_topology(Path::new(path), &LoadOptions::default())
        .unwrap()
        .fabric
}

fn text(p: &Path) -> Result<String, String> {
    routec::io::read_text(p).map_err(|e| e.to_string())
}

fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<(), String> {
    r.map(|_| ()).map_err(|e| e.to_string())
}

const READERS: &[Reader] = &[
    Reader {
        name: "topology",
        read: |p, _| ok(routec::parse::load_topology(p, &LoadOptions::default())),
        command: Some("info {}"),
    },
    Reader {
        name: "guids",
        read: |p, _| ok(routec::parse::guids::load_guid_file(p)),
        command: Some(
            "check fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6.lft --roots {}",
        ),
    },
    Reader {
        name: "faults",
        read: |p, f| ok(routec::parse::faults::load_and_apply(&f.two_level, p)),
        command: Some("info fixtures/yaml/two-level.yaml --faults {}"),
    },
    Reader {
        name: "groups",
        read: |p, f| ok(routec::parse::mcast_groups::load_groups(p, &f.fig2)),
        command: None,
    },
    Reader {
        name: "tables",
        read: |p, _| ok(routec::parse::lfts::read_tables(p)),
        command: Some("check fixtures/verify/ring6/ibnetdiscover.txt --lfts {}"),
    },
    Reader {
        name: "mcfdbs",
        read: |p, f| {
            ok(routec::parse::mcfdbs::parse_mcfdbs(
                &p.display().to_string(),
                &text(p)?,
                &f.fig2,
            ))
        },
        command: Some(
            "check fixtures/mcast/fig2.ibnetdiscover --mcfdbs {} --mcast fixtures/mcast/fig2.groups",
        ),
    },
    Reader {
        name: "colours",
        read: |p, _| {
            ok(routec::parse::mcast_colours::parse_colours(
                &p.display().to_string(),
                &text(p)?,
            ))
        },
        command: None,
    },
    Reader {
        name: "report",
        read: |p, _| ok(routec::parse::report::recorded_inputs(p)),
        command: None,
    },
    Reader {
        name: "sl2vl",
        read: |p, _| ok(routec::parse::vl_files::load_sl2vl(p)),
        command: Some(
            "check fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6.lft --sl2vl {}",
        ),
    },
    Reader {
        name: "psl",
        read: |p, _| ok(routec::parse::vl_files::load_psl(p)),
        command: Some(
            "check fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6.lft --psl {}",
        ),
    },
];

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The seeds of a reader, by file name (sorted: runs replay).
fn seeds(reader: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(Path::new(FUZZ).join(reader))
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no seeds for {reader}");
    v
}

/// Keeps a failing input for replay and returns where.
fn keep(reader: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fuzz-failures")
        .join(reader);
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Every reader, every seed, `ROUTEC_FUZZ_RUNS` mutations each.
#[test]
fn every_reader_survives_mutated_inputs() {
    let runs = env_u64("ROUTEC_FUZZ_RUNS", 40);
    let stream = env_u64("ROUTEC_FUZZ_STREAM", 1);
    let sample = env_u64("ROUTEC_FUZZ_BINARY", 3);
    let fabrics = Fabrics {
        fig2: load("fixtures/mcast/fig2.ibnetdiscover"),
        two_level: load("fixtures/yaml/two-level.yaml"),
    };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let (mut total, mut errors, mut slowest) = (0u64, 0u64, Duration::ZERO);
    let (mut binary_runs, mut max_rss_kb) = (0u64, 0u64);
    for (ri, r) in READERS.iter().enumerate() {
        let seeds = seeds(r.name);
        let all: Vec<Vec<u8>> = seeds.iter().map(|(_, b)| b.clone()).collect();
        for (si, (name, seed)) in seeds.iter().enumerate() {
            // the file keeps the seed's name: some readers go by extension
            let path = dir.path().join(name);
            let s = stream
                .wrapping_mul(1000)
                .wrapping_add((ri * 100 + si) as u64);
            for run in 0..runs {
                let bytes = mutate::mutate(seed, &all, s, run);
                std::fs::write(&path, &bytes).unwrap();
                let t0 = Instant::now();
                let got = std::panic::catch_unwind(|| (r.read)(&path, &fabrics));
                let took = t0.elapsed();
                slowest = slowest.max(took);
                total += 1;
                let what = format!("{} {name} stream {s} run {run}", r.name);
                match got {
                    Err(_) => failures.push(format!(
                        "{what}: panic (input: {})",
                        keep(r.name, &format!("{s}-{run}-{name}"), &bytes).display()
                    )),
                    Ok(Err(msg)) if msg.trim().is_empty() => {
                        failures.push(format!("{what}: an error with no message"))
                    }
                    Ok(Err(_)) => errors += 1,
                    Ok(Ok(())) => {}
                }
                if took > Duration::from_secs(10) {
                    failures.push(format!("{what}: {took:?}"));
                }
                if let Some(cmd) = r.command.filter(|_| run < sample)
                    && let Some(f) = {
                        binary_runs += 1;
                        run_binary(cmd, &path, &mut max_rss_kb)
                    }
                {
                    failures.push(format!("{what}: routec {cmd}: {f}"));
                }
            }
        }
    }
    eprintln!(
        "fuzz: {total} runs, {errors} input errors, slowest {slowest:?}; \
         {binary_runs} through routec, max RSS {max_rss_kb} KB"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        errors > 0 && errors < total,
        "the mutations reach both outcomes"
    );
}

/// Runs `routec` on the mutated file; `Some(why)` when it panicked, exited
/// outside 0–3, or (measured through `/usr/bin/time` where there is one)
/// grew past 1 GB on this under-1-MB input.
fn run_binary(cmd: &str, path: &Path, max_rss_kb: &mut u64) -> Option<String> {
    let out = tempfile::tempdir().unwrap();
    let line = cmd.replace("{}", &path.display().to_string());
    let bin = assert_cmd::cargo::cargo_bin("routec");
    let time = Path::new("/usr/bin/time");
    let mut c = if time.exists() {
        let mut c = std::process::Command::new(time);
        c.args(["-f", "routec-max-rss-kb %M"]).arg(bin);
        c
    } else {
        std::process::Command::new(bin)
    };
    let o = c
        .args(line.split_whitespace())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", out.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let rss_kb: u64 = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("routec-max-rss-kb "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    *max_rss_kb = (*max_rss_kb).max(rss_kb);
    match o.status.code() {
        _ if rss_kb > 1 << 20 => Some(format!("{rss_kb} KB of memory")),
        Some(0..=3) if !err.contains("panicked") => None,
        c => Some(format!(
            "exit {c:?}: {}",
            err.chars().take(400).collect::<String>()
        )),
    }
}
