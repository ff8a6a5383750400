//! Hardening (issue 11): inputs that once aborted, hung, flooded the
//! terminal or were silently misread. Each test failed before its fix.

mod cli;
mod outdir;
mod tables;
mod topology;

use assert_cmd::Command;

fn routec() -> Command {
    Command::cargo_bin("routec").unwrap()
}

const RING6: &str = "fixtures/verify/ring6/ibnetdiscover.txt";
