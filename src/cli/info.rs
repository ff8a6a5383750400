//! `routec info`: a summary of a topology.

use clap::Args;

use super::common::{Global, TopoArgs, not_yet};
use super::Outcome;

/// Arguments of `routec info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `routec info`.
pub fn run(args: InfoArgs, g: &Global) -> crate::Result<Outcome> {
    let _ = (args, g);
    Err(not_yet("info"))
}
