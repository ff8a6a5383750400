//! `routec check`: verify existing tables, or compare cabling with a plan.

use std::path::PathBuf;

use clap::Args;

use super::common::{Global, not_yet};
use super::Outcome;

/// Arguments of `routec check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Topology the tables belong to (with --expect: the actual topology).
    #[arg(value_name = "TOPO")]
    pub topology: PathBuf,
    /// Tables to check: a route image, an opensm-lfts.dump, ibroute/dump_fts
    /// output, or a compile output directory.
    #[arg(long, value_name = "FILE|OUTDIR", conflicts_with = "expect")]
    pub lfts: Option<PathBuf>,
    /// Up/down roots to check against: a GUID file or `top`.
    #[arg(long, value_name = "FILE|top")]
    pub roots: Option<String>,
    /// Expected topology: report cabling differences against TOPO instead.
    #[arg(long, value_name = "EXPECTED_TOPO")]
    pub expect: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read topologies as this format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<crate::parse::TopoFormat>,
    /// Skip unrecognised topology lines with a warning.
    #[arg(long)]
    pub lenient: bool,
}

/// Runs `routec check`.
pub fn run(args: CheckArgs, g: &Global) -> crate::Result<Outcome> {
    let _ = (args, g);
    Err(not_yet("check"))
}
