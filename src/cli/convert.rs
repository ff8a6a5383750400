//! `routec convert`: topology format conversion.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::common::{Global, TopoArgs, not_yet};
use super::Outcome;

/// Output formats of `routec convert`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ConvertTo {
    Yaml,
    Ibnetdiscover,
}

/// Arguments of `routec convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Output format.
    #[arg(long, value_enum)]
    pub to: ConvertTo,
    /// Output file (standard output by default).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `routec convert`.
pub fn run(args: ConvertArgs, g: &Global) -> crate::Result<Outcome> {
    let _ = (args, g);
    Err(not_yet("convert"))
}
