//! The command layer: one module per subcommand, each an `Args` struct and
//! a `run` function. It is the only layer that prints to stdout.

mod check;
mod common;
mod compile;
mod convert;
mod diff;
mod generate;
mod info;
mod mcast;
mod phases;
mod report;
mod shell;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use common::{Global, TopoArgs};

/// Offline route-table compiler for InfiniBand fabrics.
#[derive(Parser, Debug)]
#[command(name = "routec", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Summarise a topology: switches, CAs, links, ranks, LIDs, components.
    Info(info::InfoArgs),
    /// Convert a topology between ibnetdiscover and YAML.
    Convert(convert::ConvertArgs),
    /// Generate fabrics (PGFT) and multicast patterns.
    #[command(subcommand)]
    Gen(generate::GenCommand),
    /// Route a fabric and write its forwarding tables.
    Compile(compile::CompileArgs),
    /// Verify existing forwarding tables, or compare cabling with a plan.
    Check(check::CheckArgs),
    /// Route quality: link load under shift, random and all-to-all traffic.
    Report(report::ReportArgs),
    /// Compare two sets of forwarding tables.
    Diff(diff::DiffArgs),
    /// Build multicast trees and MFT colours for a groups file.
    Mcast(mcast::McastArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// Write the manual pages (roff), generated from the same definitions
    /// as --help.
    Man(shell::ManArgs),
}

/// How a successful run ended (see `formats/exit-codes.md`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Exit 0.
    Clean,
    /// Exit 1: verification findings.
    Findings,
    /// Exit 3: outputs would change / differences found.
    Changed,
}

impl Outcome {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Clean => 0,
            Outcome::Findings => 1,
            Outcome::Changed => 3,
        }
    }
}

/// Exit code for errors: usage, input or I/O.
pub const EXIT_ERROR: u8 = 2;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> crate::Result<Outcome> {
    let g = &cli.global;
    match cli.command {
        Command::Info(a) => info::run(a, g),
        Command::Convert(a) => convert::run(a, g),
        Command::Gen(a) => generate::run(a, g),
        Command::Compile(a) => compile::run(a, g),
        Command::Check(a) => check::run(a, g),
        Command::Report(a) => report::run(a, g),
        Command::Diff(a) => diff::run(a, g),
        Command::Mcast(a) => mcast::run(a, g),
        Command::Completions(a) => shell::completions(a),
        Command::Man(a) => shell::man(a),
    }
}

/// The binary's entry point: parse arguments, set up the thread pool, run,
/// render errors with miette, map the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_ERROR } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // SIGINT/SIGTERM: temp files removed, a commit finished, exit 130/143
    crate::io::interrupt::install();
    if let Some(j) = cli.global.threads {
        // More threads than CPUs only costs (-j 100000 once stalled the
        // machine): capped, with a warning.
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let j = usize::from(j);
        if j > cpus && !cli.global.quiet {
            eprintln!("warning: -j {j} is more than the {cpus} CPUs; using {cpus}");
        }
        // A pool configured twice only happens in tests that call main twice.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(j.clamp(1, cpus))
            .build_global();
    }
    match run(cli) {
        Ok(outcome) => ExitCode::from(outcome.code()),
        Err(e) => {
            eprintln!("{:?}", miette::Report::new(e));
            ExitCode::from(EXIT_ERROR)
        }
    }
}
