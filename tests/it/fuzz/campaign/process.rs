//! One run: `routec` in its own process group under the address-space
//! and wall-clock limits, its peak RSS measured, and how it ended
//! classified.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Knobs;

/// How one run ended.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Verdict {
    Exit(i32),
    Panic,
    Signal(String),
    Hang,
    Memory(u64),
}

impl Verdict {
    pub(super) fn allowed(&self) -> bool {
        matches!(self, Verdict::Exit(0..=3))
    }
}

/// Runs `routec` under the limits; (verdict, wall time, peak RSS in KB).
pub(super) fn run_one(k: &Knobs, args: &[String], dir: &Path) -> (Verdict, Duration, u64) {
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
