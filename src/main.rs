//! The `routec` binary: parse the command line, run the library, map the
//! outcome to an exit code (see `formats/exit-codes.md`).

use std::process::ExitCode;

fn main() -> ExitCode {
    routec::cli::main()
}
