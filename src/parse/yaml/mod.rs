//! routec's YAML topology format (`formats/topology-yaml.md`).
//!
//! YAML goes through serde-saphyr (pure Rust, YAML 1.2, panic-free; see
//! style-and-ecosystem.md §2.1). Every value that a semantic rule can reject
//! is read as a [`Spanned`] so that the error points at it: a link to an
//! unknown node, a port out of range, a port cabled twice, a duplicate GUID
//! or name are [`ParseError`]s with file, line and column like syntax errors.

// Parse errors carry their source text for miette; they are built once, on
// the way out, so their size does not matter (the crate's `Error` boxes them).
#![allow(clippy::result_large_err)]

use serde::Deserialize;
use serde_saphyr::{Location, Spanned};

use crate::error::{ParseError, Result};
use crate::model::{Fabric, Lid};

mod build;
mod ports;
mod topology;
mod values;

pub use ports::parse_rate;
use topology::Topology;
pub(crate) use values::GuidValue;
use values::PortMap;

/// The whole document. Every section is optional: an empty file is an
/// empty fabric.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Doc {
    #[serde(default)]
    switches: Vec<Spanned<NodeDoc>>,
    #[serde(default)]
    cas: Vec<Spanned<NodeDoc>>,
    #[serde(default)]
    routers: Vec<Spanned<NodeDoc>>,
    #[serde(default)]
    links: Vec<Spanned<Vec<Spanned<String>>>>,
}

/// One switch, CA or router.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeDoc {
    guid: Spanned<GuidValue>,
    name: Option<Spanned<String>>,
    desc: Option<String>,
    ports: Option<Spanned<u8>>,
    lid: Option<Spanned<Lid>>,
    lmc: Option<Spanned<u8>>,
    #[serde(default)]
    lids: PortMap<Lid>,
    #[serde(default)]
    port_guids: PortMap<GuidValue>,
    sysimgguid: Option<Spanned<GuidValue>>,
    vendid: Option<u32>,
    devid: Option<u32>,
    enhanced: Option<bool>,
    vls: Option<Spanned<u8>>,
}

/// A [`ParseError`] at a serde-saphyr location.
pub(crate) fn located(
    file: &str,
    text: &str,
    loc: Location,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> ParseError {
    let (offset, len) = byte_span(text, loc);
    ParseError::at(file, text, offset, len, expected, found)
}

/// Byte offset and length of a location: serde-saphyr gives bytes for
/// string input, and always line and column (in characters).
pub(crate) fn byte_span(text: &str, loc: Location) -> (usize, usize) {
    let span = loc.span();
    if let (Some(o), Some(l)) = (span.byte_offset(), span.byte_len()) {
        return (o as usize, l as usize);
    }
    let line_start = text
        .split_inclusive('\n')
        .take((loc.line() as usize).saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let col = (loc.column() as usize).saturating_sub(1);
    let offset = text[line_start.min(text.len())..]
        .char_indices()
        .nth(col)
        .map_or(text.len(), |(i, _)| line_start + i);
    (offset, 1)
}

/// Turns a serde-saphyr error (syntax, wrong type, unknown field) into a
/// located [`ParseError`], splitting serde's "X, expected Y" wording.
pub(crate) fn syntax_error(
    file: &str,
    text: &str,
    e: &serde_saphyr::Error,
    what: &str,
) -> ParseError {
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => &msg[..i],
        None => &msg[..],
    };
    let span = e.location().map_or("", |loc| {
        let (o, l) = byte_span(text, loc);
        text.get(o..o + l).unwrap_or("")
    });
    let (found, expected) = super::yaml_words::in_routec_words(msg, span, what);
    match e.location() {
        Some(loc) => located(file, text, loc, expected, found),
        None => ParseError::at(file, text, 0, 0, expected, found),
    }
}

/// Reads YAML into `T` with serde-saphyr's defaults (budgets on), without
/// its own snippet: [`ParseError`] renders one through miette.
pub(crate) fn from_yaml<T: for<'de> Deserialize<'de>>(
    file: &str,
    text: &str,
    what: &str,
) -> Result<T, ParseError> {
    let opts = serde_saphyr::options! {
        with_snippet: false,
        budget: Some(super::yaml_words::budget(text.len())),
    };
    serde_saphyr::from_str_with_options(text, opts).map_err(|e| syntax_error(file, text, &e, what))
}

/// Parses a YAML topology.
pub fn parse_topology(name: &str, text: &str) -> Result<Fabric> {
    let doc: Doc = from_yaml(name, text, "a routec topology (formats/topology-yaml.md)")?;
    Ok(Topology::new(name, text).build(doc)?)
}
