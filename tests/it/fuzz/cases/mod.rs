//! The command lines of the mutation campaign (`campaign/`): every
//! reader and every subcommand, each a template. In a template `{in}` is
//! the mutated input (a copy of one seed of the case's corpus, mutated by
//! `mutate.rs`), `{out}` a fresh directory of the run, `{w}` the work
//! directory the campaign prepared once (outputs of real runs), and
//! `{n:D}` a number option: its valid default `D` half the time, else a
//! boundary value (0, -1, 255, 65535, 2^32, 2^64, a fraction, junk).
//!
//! This file holds what a case is and the prepared work directory; the
//! cases themselves are in `commands.rs`, the number values in
//! `numbers.rs`.

mod commands;
mod numbers;

pub use commands::CASES;
pub use numbers::fill;

/// Where a case's seeds come from.
pub enum Corpus {
    /// Every file of `fixtures/fuzz/NAME/`.
    Fuzz(&'static str),
    /// These files (`{w}/…` for a prepared one).
    Files(&'static [&'static str]),
    /// No input file: only the `{n:D}` numbers are mutated.
    Args,
}

/// One command line of the campaign.
pub struct Case {
    /// The name the summary counts runs under (the subcommand and what
    /// varies).
    pub label: &'static str,
    pub corpus: Corpus,
    pub args: &'static str,
    /// For a directory case: the prepared output directory copied to
    /// `{out}/d`, and the file of it that `{in}` replaces.
    pub dir: Option<(&'static str, &'static str)>,
}

/// The prepared work directory: what `campaign()` runs first (each line a
/// `routec` command run from the crate root).
pub const PREPARE: &[&str] = &[
    "gen pgft --h 2 --m 4,4 --w 1,4 -o {w}/pgft.topo",
    "gen torus --dims 3,3 --hosts 1 -o {w}/torus.topo",
    "gen ft2d --nx 3 --ny 3 --hosts 1 --fail-leaves 1 -o {w}/ft2d.topo",
    "compile fixtures/yaml/two-level.yaml --engine minhop -o {w}/two",
    "compile fixtures/yaml/two-level.yaml --faults fixtures/faults/two-level.faults --engine minhop -o {w}/two-f",
    "compile fixtures/mcast/fig2.ibnetdiscover --engine minhop --mcast fixtures/mcast/fig2.groups --emit image,report,fdbs -o {w}/mcc",
];
