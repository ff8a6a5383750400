//! `routec convert`: topology format conversion.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::Outcome;
use super::common::{Global, TopoArgs};
use crate::error::Error;
use crate::model::Fabric;

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
    /// Output file (standard output by default), written atomically.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `routec convert`: read (and apply `--faults`), write in the other
/// format. The output is a pure function of the fabric, so converting twice
/// gives the same bytes.
pub fn run(args: ConvertArgs, g: &Global) -> crate::Result<Outcome> {
    let loaded = args.topo.load(g)?;
    let to = args.to;
    let fill = |w: &mut dyn Write| write_as(&loaded.fabric, to, w);
    match &args.output {
        Some(path) => crate::io::write_atomic(path, fill)?,
        None => {
            let stdout = std::io::stdout();
            let mut lock = std::io::BufWriter::new(stdout.lock());
            match fill(&mut lock).and_then(|()| lock.flush()) {
                Ok(()) => {}
                // `routec convert … | head` is not an error (as in ripgrep).
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => return Err(Error::io("standard output", e)),
            }
        }
    }
    Ok(Outcome::Clean)
}

fn write_as(fabric: &Fabric, to: ConvertTo, w: &mut dyn Write) -> std::io::Result<()> {
    match to {
        ConvertTo::Yaml => crate::emit::yaml::write(fabric, w),
        ConvertTo::Ibnetdiscover => Err(std::io::Error::other(
            "the ibnetdiscover writer is not merged yet",
        )),
    }
}
