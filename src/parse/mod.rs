//! The parse stage: topologies, GUID files, fault lists and route tables in.
//!
//! Every parser reports syntax errors as [`crate::ParseError`] (file, line,
//! column, expected, found) and never panics, whatever the input.

pub mod faults;
pub mod guids;
pub mod ibnetdiscover;
pub mod image;
pub mod lfts;
pub mod mcast_colours;
pub mod mcast_groups;
pub mod mcfdbs;
pub mod report;
mod text;
pub mod vl_files;
pub mod yaml;

use std::path::Path;

use crate::error::Result;
use crate::model::Fabric;

/// Topology formats routec reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TopoFormat {
    /// `ibnetdiscover` output (infiniband-diags), every link listed twice.
    Ibnetdiscover,
    /// ibsim net file: the same grammar plus directives, links listed once.
    Ibsim,
    /// routec's own YAML topology (`formats/topology-yaml.md`).
    Yaml,
}

/// How to read a topology.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Force a format instead of detecting it from the content.
    pub format: Option<TopoFormat>,
    /// Skip unrecognised lines with a counted warning instead of failing.
    pub lenient: bool,
}

/// A topology read from a file.
#[derive(Debug)]
pub struct Loaded {
    pub fabric: Fabric,
    /// The format it was read as.
    pub format: TopoFormat,
    /// Warnings (lines skipped in lenient mode, ...), already formatted.
    pub warnings: Vec<String>,
}

/// Reads the topology at `path`.
pub fn load_topology(path: &Path, opts: &LoadOptions) -> Result<Loaded> {
    let text = crate::io::read_text(path)?;
    parse_topology(&path.display().to_string(), &text, opts)
}

/// Parses topology `text`; `name` is used in error messages.
pub fn parse_topology(name: &str, text: &str, opts: &LoadOptions) -> Result<Loaded> {
    let format = opts.format.unwrap_or_else(|| detect_format(text));
    match format {
        TopoFormat::Yaml => Ok(Loaded {
            fabric: yaml::parse_topology(name, text)?,
            format,
            warnings: Vec::new(),
        }),
        TopoFormat::Ibnetdiscover | TopoFormat::Ibsim => {
            ibnetdiscover::parse(name, text, format, opts.lenient)
        }
    }
}

/// Guesses the format of a topology from its content.
pub fn detect_format(text: &str) -> TopoFormat {
    ibnetdiscover::detect(text)
}
