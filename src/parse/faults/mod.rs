//! Fault lists (`formats/faults.md`): text and YAML.
//!
//! There is no standard InfiniBand fault-list format (formats.md §8); this
//! one mirrors the `<guid> <port>` habit of OpenSM's GUID files and names
//! GUIDs as ibnetdiscover prints them (with or without `0x`, or as the
//! quoted `"S-<guid>"[port]` references of ibnetdiscover and ibsim).

// Parse errors carry their source text for miette; they are built once, on
// the way out, so their size does not matter (the crate's `Error` boxes them).
#![allow(clippy::result_large_err)]

mod yaml;

pub use yaml::parse_yaml;

use std::path::Path;

use crate::error::{ParseError, Result};
use crate::model::faults::FaultSummary;
use crate::model::{Fabric, Fault, Guid, PortNum, PortRef};

/// A fault and where the file wrote it (byte offset and length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedFault {
    pub fault: Fault,
    pub offset: usize,
    pub len: usize,
}

/// Reads the fault list at `path` and applies it to `fabric`. A fault naming
/// something the topology lacks is an error naming the fault's line.
pub fn load_and_apply(fabric: &Fabric, path: &Path) -> Result<(Fabric, FaultSummary)> {
    let text = crate::io::read_text(path)?;
    let name = path.display().to_string();
    let yaml = is_yaml(path, &text);
    parse_and_apply(fabric, &name, &text, yaml)
}

/// [`load_and_apply`] on text already read.
pub fn parse_and_apply(
    fabric: &Fabric,
    name: &str,
    text: &str,
    yaml: bool,
) -> Result<(Fabric, FaultSummary)> {
    let faults = if yaml {
        parse_yaml(name, text)?
    } else {
        parse_text(name, text)?
    };
    let list: Vec<Fault> = faults.iter().map(|f| f.fault.clone()).collect();
    fabric.apply_faults(&list).map_err(|e| {
        let at = &faults[e.index.min(faults.len().saturating_sub(1))];
        ParseError::at(
            name,
            text,
            at.offset,
            at.len,
            "a fault naming a node, port or cable of the topology",
            e.message,
        )
        .into()
    })
}

/// YAML when the extension says so, or when the first line that is not a
/// comment or blank starts with `faults:` or `---`.
pub fn is_yaml(path: &Path, text: &str) -> bool {
    if matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    ) {
        return true;
    }
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with("faults:") || l.starts_with("---"))
}

/// Parses the text form: one fault per line, `#` comments.
pub fn parse_text(name: &str, text: &str) -> Result<Vec<LocatedFault>, ParseError> {
    let mut out = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']);
        let body = body.split('#').next().unwrap_or("");
        let mut words = Words::new(body, start);
        let Some((kw, kw_at)) = words.next() else {
            continue;
        };
        let fault = match kw {
            "link" => {
                let end = words.port_ref(name, text)?;
                let other = match words.next() {
                    Some((w, at)) => {
                        Some(port_ref(w).ok_or_else(|| bad_port_ref(name, text, at, w))?)
                    }
                    None => None,
                };
                Fault::Link { end, other }
            }
            "port" => Fault::Port(words.port_ref(name, text)?),
            "switch" => Fault::Switch(words.guid(name, text)?),
            "node" => Fault::Node(words.guid(name, text)?),
            _ => {
                return Err(ParseError::at(
                    name,
                    text,
                    kw_at,
                    kw.len(),
                    "`link`, `port`, `switch` or `node`",
                    format!("`{kw}`"),
                ));
            }
        };
        if let Some((w, at)) = words.next() {
            return Err(ParseError::at(
                name,
                text,
                at,
                w.len(),
                "end of line or `#` comment",
                format!("`{w}`"),
            ));
        }
        let len = body.trim_end().len() - (kw_at - start);
        out.push(LocatedFault {
            fault,
            offset: kw_at,
            len,
        });
    }
    Ok(out)
}

/// Blank-separated words of a line with their byte offsets in the file.
struct Words<'a> {
    iter: std::str::SplitWhitespace<'a>,
    base: usize,
    line: &'a str,
    end: usize,
}

impl<'a> Words<'a> {
    fn new(line: &'a str, base: usize) -> Self {
        Words {
            iter: line.split_whitespace(),
            base,
            line,
            end: base + line.trim_end().len(),
        }
    }

    fn next(&mut self) -> Option<(&'a str, usize)> {
        let w = self.iter.next()?;
        let at = w.as_ptr() as usize - self.line.as_ptr() as usize;
        Some((w, self.base + at))
    }

    fn port_ref(&mut self, name: &str, text: &str) -> Result<PortRef, ParseError> {
        match self.next() {
            Some((w, at)) => port_ref(w).ok_or_else(|| bad_port_ref(name, text, at, w)),
            None => Err(ParseError::at(
                name,
                text,
                self.end,
                0,
                "GUID/PORT",
                "end of line",
            )),
        }
    }

    fn guid(&mut self, name: &str, text: &str) -> Result<Guid, ParseError> {
        match self.next() {
            Some((w, at)) => guid_token(w).ok_or_else(|| {
                ParseError::at(
                    name,
                    text,
                    at,
                    w.len(),
                    "a GUID (hex, with or without 0x, or \"S-<guid>\")",
                    format!("`{w}`"),
                )
            }),
            None => Err(ParseError::at(
                name,
                text,
                self.end,
                0,
                "a GUID",
                "end of line",
            )),
        }
    }
}

fn bad_port_ref(name: &str, text: &str, at: usize, w: &str) -> ParseError {
    ParseError::at(
        name,
        text,
        at,
        w.len(),
        "GUID/PORT (hex GUID with or without 0x, port 1..255) or \"S-<guid>\"[PORT]",
        format!("`{w}`"),
    )
}

/// A GUID as ibnetdiscover prints it: `0x8f104004`, `0008f104004`, or the
/// quoted node name `"S-0008f104004"` (also `H-`, `R-`).
pub fn guid_token(w: &str) -> Option<Guid> {
    match w.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(q) => {
            let hex = q
                .strip_prefix("S-")
                .or_else(|| q.strip_prefix("H-"))
                .or_else(|| q.strip_prefix("R-"))?;
            Guid::parse(hex)
        }
        None => Guid::parse(w),
    }
}

/// `GUID/PORT` or `"S-<guid>"[PORT]`.
pub fn port_ref(w: &str) -> Option<PortRef> {
    let (g, port) = if let Some(open) = w.strip_suffix(']') {
        let (g, p) = open.rsplit_once('[')?;
        (g, p)
    } else {
        w.rsplit_once('/')?
    };
    if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let port: PortNum = port.parse().ok()?;
    Some(PortRef {
        guid: guid_token(g)?,
        port,
    })
}
