//! The mutation campaign through the `routec` binary (issue 11, "Done
//! means"): every subcommand and every reader (`cases/`), each run in its
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
//!
//! This file holds the knobs; the submodules run one process under the
//! limits, prepare and keep its inputs, and run the campaign's slice.

mod inputs;
mod process;
mod runs;

use std::path::PathBuf;
use std::time::Duration;

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
