//! `routec report`: route quality under traffic patterns.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::common::{Global, TopoArgs, not_yet};
use super::Outcome;

/// Traffic patterns.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Pattern {
    Shift,
    Random,
    A2a,
    All,
}

/// Arguments of `routec report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Tables: a route image, an opensm-lfts.dump, or an output directory.
    #[arg(long, value_name = "FILE|OUTDIR")]
    pub lfts: PathBuf,
    /// Traffic pattern(s).
    #[arg(long, value_enum, default_value = "all")]
    pub pattern: Pattern,
    /// Random permutations to sample.
    #[arg(long, default_value_t = 100)]
    pub samples: usize,
    /// Seed for random permutations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Destination order: a GUID file of end-port GUIDs.
    #[arg(long, value_name = "FILE")]
    pub node_order: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `routec report`.
pub fn run(args: ReportArgs, g: &Global) -> crate::Result<Outcome> {
    let _ = (args, g);
    Err(not_yet("report"))
}
