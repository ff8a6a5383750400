//! The semantic pass over a parsed document: nodes, names, GUIDs and
//! cables, each error located where it was written.

// Parse errors carry their source text for miette (see the module above).
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use serde_saphyr::{Location, Spanned};

use super::{Doc, GuidValue, NodeDoc, byte_span, located, parse_rate};
use crate::error::ParseError;
use crate::model::{Fabric, FabricBuilder, Guid, Lid, NodeKind, PortNum, Speed, Width};

/// One node after its own fields were checked.
pub(super) struct Pending<'d> {
    pub(super) kind: NodeKind,
    pub(super) doc: &'d NodeDoc,
    pub(super) guid: Guid,
}

/// State of the semantic pass over a parsed document.
pub(super) struct Topology<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
    /// Where each LID was given, so that a clash names both places.
    pub(super) lids_seen: std::cell::RefCell<HashMap<Lid, Location>>,
}

/// A resolved link end: node, port, and where it was written.
pub(super) type End = (usize, PortNum, Location);

/// A link's two ends and the rate of each.
pub(super) type ResolvedLink = ([End; 2], [(Width, Speed); 2]);

impl<'a> Topology<'a> {
    pub(super) fn new(file: &'a str, text: &'a str) -> Self {
        Topology {
            file,
            text,
            lids_seen: Default::default(),
        }
    }

    pub(super) fn err(
        &self,
        loc: Location,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        located(self.file, self.text, loc, expected, found)
    }

    pub(super) fn build(&self, doc: Doc) -> Result<Fabric, ParseError> {
        let sections = [
            (NodeKind::Switch, &doc.switches),
            (NodeKind::Ca, &doc.cas),
            (NodeKind::Router, &doc.routers),
        ];
        let mut nodes = Vec::new();
        let mut by_guid: HashMap<Guid, Location> = HashMap::new();
        let mut by_name: HashMap<&str, (usize, Location)> = HashMap::new();
        for (kind, list) in sections {
            for n in list {
                let guid = GuidValue::get(&n.value.guid, self.file, self.text)?;
                let loc = n.value.guid.referenced;
                if let Some(first) = by_guid.insert(guid, loc) {
                    return Err(self.secondary(
                        self.err(
                            loc,
                            "a GUID not used by another node",
                            format!("duplicate GUID {guid}"),
                        ),
                        first,
                        "first used here",
                    ));
                }
                if let Some(nm) = &n.value.name {
                    self.check_name(nm)?;
                    if let Some((_, first)) =
                        by_name.insert(&nm.value, (nodes.len(), nm.referenced))
                    {
                        return Err(self.secondary(
                            self.err(
                                nm.referenced,
                                "a name not used by another node",
                                format!("duplicate name `{}`", nm.value),
                            ),
                            first,
                            "first used here",
                        ));
                    }
                }
                nodes.push(Pending {
                    kind,
                    doc: &n.value,
                    guid,
                });
            }
        }
        let guid_idx: HashMap<Guid, usize> =
            nodes.iter().enumerate().map(|(i, p)| (p.guid, i)).collect();
        let mut links = Vec::with_capacity(doc.links.len());
        for l in &doc.links {
            links.push(self.link(l, &guid_idx, &by_name, &nodes)?);
        }
        let mut max_port = vec![1 as PortNum; nodes.len()];
        for (ends, _) in &links {
            for &(n, p, _) in ends {
                max_port[n] = max_port[n].max(p);
            }
        }
        let mut b = FabricBuilder::new();
        for (i, p) in nodes.iter().enumerate() {
            self.add_node(&mut b, p, max_port[i])?;
        }
        self.connect_all(&mut b, &nodes, &links)?;
        self.fill_ports(&mut b, &nodes)?;
        Ok(b.build())
    }

    pub(super) fn secondary(&self, e: ParseError, loc: Location, label: &str) -> ParseError {
        let (o, l) = byte_span(self.text, loc);
        e.with_secondary(self.text, o, l, label)
    }

    fn check_name(&self, nm: &Spanned<String>) -> Result<(), ParseError> {
        let v = nm.value.as_str();
        if v.is_empty() || v.contains(char::is_control) {
            return Err(self.err(nm.referenced, "a non-empty name", format!("`{v}`")));
        }
        if v.starts_with("0x") || v.starts_with("0X") {
            return Err(self
                .err(
                    nm.referenced,
                    "a name that does not start with 0x",
                    format!("`{v}`"),
                )
                .with_help("in links, 0x… is read as a GUID"));
        }
        Ok(())
    }

    /// Resolves `[end, end, width-speed?, width-speed?]`.
    fn link(
        &self,
        l: &Spanned<Vec<Spanned<String>>>,
        guid_idx: &HashMap<Guid, usize>,
        by_name: &HashMap<&str, (usize, Location)>,
        nodes: &[Pending],
    ) -> Result<ResolvedLink, ParseError> {
        let items = &l.value;
        if !(2..=4).contains(&items.len()) {
            return Err(self.err(
                l.referenced,
                "a link `[node/port, node/port]` with an optional `4xHDR` (one per end)",
                format!("a sequence of {} items", items.len()),
            ));
        }
        let a = self.end(&items[0], guid_idx, by_name, nodes)?;
        let b = self.end(&items[1], guid_idx, by_name, nodes)?;
        let rate_a = match items.get(2) {
            Some(s) => self.rate(s)?,
            None => (Width::Unknown, Speed::Unknown),
        };
        let rate_b = match items.get(3) {
            Some(s) => self.rate(s)?,
            None => rate_a,
        };
        Ok(([a, b], [rate_a, rate_b]))
    }

    fn end(
        &self,
        s: &Spanned<String>,
        guid_idx: &HashMap<Guid, usize>,
        by_name: &HashMap<&str, (usize, Location)>,
        nodes: &[Pending],
    ) -> Result<End, ParseError> {
        let v = s.value.trim();
        let Some((node, port)) = v.rsplit_once('/') else {
            return Err(self.err(
                s.referenced,
                "`name/port` or `0xGUID/port`",
                format!("`{v}`"),
            ));
        };
        let idx = if node.starts_with("0x") || node.starts_with("0X") {
            Guid::parse(node).and_then(|g| guid_idx.get(&g).copied())
        } else {
            by_name.get(node).map(|&(i, _)| i)
        };
        let Some(idx) = idx else {
            return Err(self.err(
                s.referenced,
                "the name or 0xGUID of a node listed under switches, cas or routers",
                format!("unknown node `{node}`"),
            ));
        };
        let declared = nodes[idx].doc.ports.as_ref().map(|p| p.value);
        match port.parse::<PortNum>() {
            Ok(p) if p >= 1 && declared.is_none_or(|n| p <= n) => Ok((idx, p, s.referenced)),
            _ => Err(self.err(
                s.referenced,
                match declared {
                    Some(n) => format!("a port of `{node}` (1..{n})"),
                    None => format!("a port number of `{node}` (1..255)"),
                },
                format!("port `{port}`"),
            )),
        }
    }

    fn rate(&self, s: &Spanned<String>) -> Result<(Width, Speed), ParseError> {
        parse_rate(s.value.trim()).ok_or_else(|| {
            self.err(
                s.referenced,
                "a link rate such as `4xHDR`",
                format!("`{}`", s.value),
            )
        })
    }
}
