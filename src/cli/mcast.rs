//! `routec mcast`: multicast trees and MFT colours on their own.

use std::path::PathBuf;

use clap::Args;

use super::common::{Global, TopoArgs, not_yet};
use super::Outcome;

/// Arguments of `routec mcast`.
#[derive(Args, Debug)]
pub struct McastArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Multicast groups (text, YAML, or opensm-sa.dump).
    #[arg(long = "mcast", value_name = "GROUPS")]
    pub groups: PathBuf,
    /// MFT entries available per switch (colours).
    #[arg(long, value_name = "N")]
    pub mft_size: Option<u32>,
    /// Rebuild the trees of merged groups instead of keeping the old ones.
    #[arg(long)]
    pub rebuild_merged: bool,
    /// Output directory.
    #[arg(short = 'o', long = "output", value_name = "OUTDIR")]
    pub outdir: PathBuf,
}

/// Runs `routec mcast`.
pub fn run(args: McastArgs, g: &Global) -> crate::Result<Outcome> {
    let _ = (args, g);
    Err(not_yet("mcast"))
}
