//! The parse stage: topologies, GUID files, fault lists and route tables in.
//!
//! Every parser reports syntax errors as [`crate::ParseError`] (file, line,
//! column, expected, found) and never panics, whatever the input.

pub mod faults;
pub mod guids;
pub mod ibnetdiscover;
pub mod image;
mod image_layout;
pub mod lfts;
mod lfts_text;
pub mod mcast_colours;
pub mod mcast_groups;
pub mod mcfdbs;
pub mod psl_stream;
pub mod report;
pub mod state;
mod text;
pub mod vl_files;
pub mod yaml;
mod yaml_words;

use std::path::Path;

use crate::error::{Error, Result};
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
    let name = path.display().to_string();
    if let Some((kind, hint)) = sniff_file(path) {
        return Err(Error::Input(format!(
            "{name}: this is {kind}, not a topology: {hint}"
        )));
    }
    let bytes = read_topology_bytes(path)?;
    let text = topology_text(&bytes);
    let loaded = parse_topology(&name, &text, opts)?;
    crate::model::lids::check_lmc_bases(&loaded.fabric)?;
    if loaded.fabric.num_nodes() == 0 {
        return Err(Error::Input(format!(
            "{name}: no node found (expected ibnetdiscover, ibsim net or routec YAML topology)"
        )));
    }
    Ok(loaded)
}

/// A regular file is mapped (issue 17: `fs::read` copied the 12.8 MB of the
/// 27,648-host RLFT, 12 ms, and faulted in a buffer for it); anything else
/// (a pipe, a file named `-`) is read as before.
fn read_topology_bytes(path: &Path) -> Result<crate::io::Bytes> {
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if regular && path != Path::new("-") {
        crate::io::read_input(path)
    } else {
        crate::io::read_text(path).map(|t| crate::io::Bytes::Owned(t.into_bytes()))
    }
}

/// The bytes as text, borrowed when they are UTF-8 without a CR (nearly
/// every topology); otherwise [`crate::io::text_of`]'s owned repair, so
/// offsets, lines and columns are those of `read_text`. The CR search
/// runs in 1 MB pieces in parallel (issue 17: one serial `memchr` over the
/// 12.8 MB of the 27,648-host RLFT took 1-2 ms before parsing began).
fn topology_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    use rayon::prelude::*;
    let has_cr = bytes.par_chunks(1 << 20).any(crate::io::has_cr);
    if !has_cr && let Ok(text) = std::str::from_utf8(bytes) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(crate::io::text_of(bytes.to_vec()))
}

/// Files routec writes or reads elsewhere, recognised from their first
/// bytes before the whole file is read (an OpenSM LFT dump can be 1.4 GB):
/// what it is, and which command reads it.
fn sniff_file(path: &Path) -> Option<(&'static str, &'static str)> {
    use std::io::Read;
    let mut head = [0u8; 512];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    sniff(&head[..n])
}

fn sniff(head: &[u8]) -> Option<(&'static str, &'static str)> {
    let text = String::from_utf8_lossy(head);
    let first = text.trim_start();
    if head.starts_with(&crate::model::image::MAGIC) {
        Some((
            "a routec route image",
            "`routec check TOPO --lfts FILE`, `routec diff OLD NEW`",
        ))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Some((
            "zstd-compressed data",
            "topologies are read uncompressed; route images as `routes.lft.zst` go to `routec check TOPO --lfts FILE`",
        ))
    } else if first.starts_with("Unicast lids [") {
        Some((
            "an OpenSM LFT dump (opensm-lfts.dump)",
            "`routec check TOPO --lfts FILE`, `routec diff OLD NEW`",
        ))
    } else if first.starts_with("dump_ucast_routes:") {
        Some((
            "OpenSM's opensm.fdbs",
            "`ibdmchk -s opensm-subnet.lst -f FILE`",
        ))
    } else if first.starts_with("{ CA") || first.starts_with("{ SW") {
        Some((
            "OpenSM's opensm-subnet.lst",
            "`ibdmchk -s FILE`; give routec the ibnetdiscover output",
        ))
    } else if first.starts_with('{') {
        Some((
            "a JSON document (report.json, mcast.json?)",
            "`routec` writes these; give it the topology",
        ))
    } else {
        None
    }
}

/// Parses topology `text`; `name` is used in error messages. The fabric
/// comes in node GUID order ([`crate::model::Fabric::into_guid_order`]):
/// ibnetdiscover prints nodes in discovery order, which depends on the
/// port it ran from, and routec's outputs must not.
pub fn parse_topology(name: &str, text: &str, opts: &LoadOptions) -> Result<Loaded> {
    let format = opts.format.unwrap_or_else(|| detect_format(text));
    let loaded = match format {
        TopoFormat::Yaml => Loaded {
            fabric: yaml::parse_topology(name, text)?,
            format,
            warnings: Vec::new(),
        },
        TopoFormat::Ibnetdiscover | TopoFormat::Ibsim => {
            ibnetdiscover::parse(name, text, format, opts.lenient)?
        }
    };
    Ok(Loaded {
        fabric: loaded.fabric.into_guid_order(),
        ..loaded
    })
}

/// Guesses the format of a topology from its content.
pub fn detect_format(text: &str) -> TopoFormat {
    ibnetdiscover::detect(text)
}
