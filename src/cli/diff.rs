//! `routec diff`: what a re-route would upload.

use std::path::PathBuf;

use clap::Args;

use super::common::{Global, not_yet};
use super::Outcome;

/// Arguments of `routec diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// Old tables: an output directory, routes.lft[.zst] or opensm-lfts.dump.
    pub old: PathBuf,
    /// New tables, likewise.
    pub new: PathBuf,
    /// Print the full per-switch detail as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 3 if anything differs.
    #[arg(long)]
    pub exit_code: bool,
}

/// Runs `routec diff`.
pub fn run(args: DiffArgs, g: &Global) -> crate::Result<Outcome> {
    let _ = (args, g);
    Err(not_yet("diff"))
}
