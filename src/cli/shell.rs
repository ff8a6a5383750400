//! Shell completions and manual pages, generated from the same clap
//! definitions as `--help` (clap_complete, clap_mangen), so that they can
//! never disagree with the options the binary takes.

use std::path::PathBuf;

use clap::{Args, CommandFactory};

use super::{Cli, Outcome};
use crate::error::{Error, Result};

/// `routec completions SHELL`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// Shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `routec man [--dir DIR]`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write one page per command (`routec.1`, `routec-compile.1`, ...)
    /// into DIR instead of `routec.1` on standard output.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Prints the completion script for a shell on stdout.
pub fn completions(args: CompletionsArgs) -> Result<Outcome> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "routec", &mut out);
    crate::io::to_stdout(|w| w.write_all(&out))?;
    Ok(Outcome::Clean)
}

/// Writes the manual pages.
pub fn man(args: ManArgs) -> Result<Outcome> {
    let cmd = Cli::command();
    match args.dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            clap_mangen::generate_to(cmd, &dir).map_err(|e| Error::io(&dir, e))?;
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .map_err(|e| Error::io("<stdout>", e))?;
            crate::io::to_stdout(|w| w.write_all(&out))?;
        }
    }
    Ok(Outcome::Clean)
}
