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

use std::collections::HashMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use crate::error::{ParseError, Result};
use crate::model::lids::MAX_UNICAST_LID;
use crate::model::{
    Fabric, FabricBuilder, Guid, Lid, NodeIdx, NodeKind, NodeSpec, PortNum, Speed, Width,
};

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

/// A GUID as written: a YAML integer (`0x200000`), or a string of hex
/// digits with or without `0x` (as ibnetdiscover prints them). Anything else
/// is kept as a description of what was found, so that the error points at
/// the value rather than at wherever serde gave up.
#[derive(Clone, Debug)]
pub(crate) enum GuidValue {
    Ok(Guid),
    Bad(String),
}

impl GuidValue {
    /// The GUID, or a located error.
    pub(crate) fn get(v: &Spanned<GuidValue>, file: &str, text: &str) -> Result<Guid, ParseError> {
        match &v.value {
            GuidValue::Ok(g) => Ok(*g),
            GuidValue::Bad(found) => Err(located(
                file,
                text,
                v.referenced,
                "a GUID (0x followed by up to 16 hex digits)",
                found.clone(),
            )),
        }
    }
}

impl<'de> Deserialize<'de> for GuidValue {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(GuidVisitor)
    }
}

struct GuidVisitor;

impl<'de> Visitor<'de> for GuidVisitor {
    type Value = GuidValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a GUID")
    }
    fn visit_u64<E>(self, v: u64) -> Result<GuidValue, E> {
        Ok(GuidValue::Ok(Guid(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad(format!("negative number {v}")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad(format!(
            "the number {v} (YAML reads `017` and `1e3` as floats; write GUIDs with 0x)"
        )))
    }
    fn visit_bool<E>(self, v: bool) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad(format!("boolean {v}")))
    }
    fn visit_unit<E>(self) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad("nothing".into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<GuidValue, E> {
        Ok(match Guid::parse(v.trim()) {
            Some(g) => GuidValue::Ok(g),
            None => GuidValue::Bad(format!("`{v}`")),
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<GuidValue, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(GuidValue::Bad("a sequence".into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<GuidValue, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(GuidValue::Bad("a mapping".into()))
    }
}

/// `{port: value}` with the location of every key (a `BTreeMap` key cannot
/// carry one), in file order.
struct PortMap<T>(Vec<(Spanned<PortNum>, Spanned<T>)>);

impl<T> Default for PortMap<T> {
    fn default() -> Self {
        PortMap(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PortMap<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = PortMap<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping from port numbers to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<PortMap<T>, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key()? {
                    v.push((k, m.next_value()?));
                }
                Ok(PortMap(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
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

/// One node after its own fields were checked.
struct Pending<'d> {
    kind: NodeKind,
    doc: &'d NodeDoc,
    guid: Guid,
}

/// State of the semantic pass over a parsed document.
struct Topology<'a> {
    file: &'a str,
    text: &'a str,
    /// Where each LID was given, so that a clash names both places.
    lids_seen: std::cell::RefCell<HashMap<Lid, Location>>,
}

/// A resolved link end: node, port, and where it was written.
type End = (usize, PortNum, Location);

/// A link's two ends and the rate of each.
type ResolvedLink = ([End; 2], [(Width, Speed); 2]);

impl<'a> Topology<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        Topology {
            file,
            text,
            lids_seen: Default::default(),
        }
    }

    fn err(
        &self,
        loc: Location,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        located(self.file, self.text, loc, expected, found)
    }

    fn build(&self, doc: Doc) -> Result<Fabric, ParseError> {
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

    fn secondary(&self, e: ParseError, loc: Location, label: &str) -> ParseError {
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

    fn add_node(
        &self,
        b: &mut FabricBuilder,
        p: &Pending,
        max_port: PortNum,
    ) -> Result<(), ParseError> {
        let d = p.doc;
        let num_ports = d.ports.as_ref().map_or(max_port, |s| s.value);
        if num_ports == 0 {
            let loc = d.ports.as_ref().map_or(d.guid.referenced, |s| s.referenced);
            return Err(self.err(loc, "a port count of 1 to 255", "0"));
        }
        if p.kind == NodeKind::Switch && num_ports == 255 {
            let loc = d.ports.as_ref().map_or(d.guid.referenced, |s| s.referenced);
            return Err(self.err(
                loc,
                "a switch with 1 to 254 ports (IB: LFT entry 255 = no route)",
                "255",
            ));
        }
        if p.guid.0 == 0 {
            return Err(self.err(d.guid.referenced, "a non-zero node GUID", "0"));
        }
        let desc = d
            .desc
            .clone()
            .or_else(|| d.name.as_ref().map(|n| n.value.clone()));
        let n = b
            .add_node(NodeSpec::new(
                p.kind,
                p.guid,
                num_ports,
                desc.unwrap_or_default(),
            ))
            .map_err(|e| self.err(d.guid.referenced, "a unique GUID", e.to_string()))?;
        let node = b.node_mut(n);
        node.vendor_id = d.vendid;
        node.device_id = d.devid;
        node.enhanced_port0 = d.enhanced;
        if let Some(v) = &d.vls {
            if p.kind != NodeKind::Switch || !(1..=15).contains(&v.value) {
                let what = if p.kind == NodeKind::Switch {
                    "1..15 data VLs"
                } else {
                    "no `vls` (switches only)"
                };
                return Err(self.err(v.referenced, what, v.value.to_string()));
            }
            node.op_vls = Some(v.value);
        }
        if let Some(s) = &d.sysimgguid {
            node.sysimg_guid = Some(GuidValue::get(s, self.file, self.text)?);
        }
        Ok(())
    }

    fn connect_all(
        &self,
        b: &mut FabricBuilder,
        nodes: &[Pending],
        links: &[ResolvedLink],
    ) -> Result<(), ParseError> {
        let mut first_use: HashMap<(usize, PortNum), Location> = HashMap::new();
        for ([a, z], rates) in links {
            for &(n, p, loc) in [a, z] {
                if let Some(first) = first_use.insert((n, p), loc) {
                    let what = format!("port {p} of `{}`", nodes[n].guid);
                    return Err(self.secondary(
                        self.err(
                            loc,
                            "a port that no other link uses",
                            format!("{what}, already cabled"),
                        ),
                        first,
                        "first cabled here",
                    ));
                }
            }
            let (na, nz) = (NodeIdx(a.0 as u32), NodeIdx(z.0 as u32));
            b.connect(na, a.1, nz, z.1)
                .map_err(|e| self.err(z.2, "a free port", e.to_string()))?;
            for (&(n, p, _), &(w, s)) in [a, z].into_iter().zip(rates) {
                if let Ok(port) = b.port_mut(NodeIdx(n as u32), p) {
                    port.width = w;
                    port.speed = s;
                }
            }
        }
        Ok(())
    }

    /// LIDs, LMC and port GUIDs, once the port counts and cables are known.
    fn fill_ports(&self, b: &mut FabricBuilder, nodes: &[Pending]) -> Result<(), ParseError> {
        let mut port_guids: HashMap<Guid, (usize, Location)> = HashMap::new();
        for (i, p) in nodes.iter().enumerate() {
            let n = NodeIdx(i as u32);
            let ports = PortRange::of(b.node(n).num_ports, p.kind == NodeKind::Switch);
            self.fill_lids(b, n, p.doc, &ports)?;
            let explicit = self.fill_port_guids(b, n, p.doc, &ports)?;
            if !ports.switch {
                // Cabled CA ports without a GUID of their own: node GUID + port.
                for port in 1..=ports.hi {
                    let has_cable = b.port(n, port).is_some_and(|s| s.peer.is_some());
                    if !explicit[port as usize] && has_cable {
                        let g = Guid(p.guid.0.wrapping_add(port as u64));
                        if let Ok(slot) = b.port_mut(n, port) {
                            slot.guid = g;
                        }
                    }
                }
                self.check_port_guids(b, nodes, n, &mut port_guids)?;
            }
        }
        Ok(())
    }

    /// The node's `lid`/`lids` (and `lmc`) onto its ports.
    fn fill_lids(
        &self,
        b: &mut FabricBuilder,
        n: NodeIdx,
        d: &NodeDoc,
        ports: &PortRange,
    ) -> Result<(), ParseError> {
        let lmc = match &d.lmc {
            Some(s) if s.value > 7 => {
                return Err(self.err(s.referenced, "an LMC of 0 to 7", s.value.to_string()));
            }
            Some(s) => s.value,
            None => 0,
        };
        let mut lids: Vec<(PortNum, Spanned<Lid>)> = Vec::new();
        if let Some(l) = &d.lid {
            lids.push((ports.lo, l.clone()));
        }
        for (k, v) in &d.lids.0 {
            self.check_port(k, ports)?;
            if lids.iter().any(|(q, _)| *q == k.value) {
                return Err(self.err(
                    k.referenced,
                    "one LID per port",
                    format!("a second LID for port {}", k.value),
                ));
            }
            lids.push((k.value, v.clone()));
        }
        for (port, l) in lids {
            if l.value > MAX_UNICAST_LID && l.value != 0xFFFF {
                return Err(self.err(
                    l.referenced,
                    "a unicast LID (1..49151), or 0 for none",
                    l.value.to_string(),
                ));
            }
            self.claim_lids(&l, lmc)?;
            let slot = b
                .port_mut(n, port)
                .map_err(|e| self.err(l.referenced, "a port of the node", e.to_string()))?;
            slot.lid = l.value;
            slot.lmc = lmc;
        }
        Ok(())
    }

    /// Records the LIDs `l` (with `lmc`) covers; a LID given twice is an
    /// error at the second place, with the first (it used to surface only
    /// when routing, with no file or line).
    fn claim_lids(&self, l: &Spanned<Lid>, lmc: u8) -> Result<(), ParseError> {
        if l.value == 0 || l.value > MAX_UNICAST_LID {
            return Ok(());
        }
        let mut seen = self.lids_seen.borrow_mut();
        let top = (u32::from(l.value) + (1u32 << lmc) - 1).min(u32::from(MAX_UNICAST_LID));
        for lid in u32::from(l.value)..=top {
            let lid = lid as Lid;
            if let Some(first) = seen.insert(lid, l.referenced) {
                return Err(self.secondary(
                    self.err(
                        l.referenced,
                        "a LID no other port has",
                        format!("LID {lid}, already given"),
                    ),
                    first,
                    "first given here",
                ));
            }
        }
        Ok(())
    }

    /// The node's `port_guids` onto its ports; which ports had one.
    fn fill_port_guids(
        &self,
        b: &mut FabricBuilder,
        n: NodeIdx,
        d: &NodeDoc,
        ports: &PortRange,
    ) -> Result<Vec<bool>, ParseError> {
        let mut explicit = vec![false; ports.hi as usize + 1];
        for (k, v) in &d.port_guids.0 {
            self.check_port(k, ports)?;
            let g = GuidValue::get(v, self.file, self.text)?;
            explicit[k.value as usize] = true;
            if let Ok(slot) = b.port_mut(n, k.value) {
                slot.guid = g;
            }
        }
        Ok(explicit)
    }

    /// A port number a node's `lids` or `port_guids` may name.
    fn check_port(&self, k: &Spanned<PortNum>, ports: &PortRange) -> Result<(), ParseError> {
        if k.value < ports.lo || k.value > ports.hi {
            let expected = if ports.switch {
                "a port 0 (a switch has one LID and one port GUID, on port 0)".to_string()
            } else {
                format!("a port 1..{}", ports.hi)
            };
            return Err(self.err(k.referenced, expected, format!("port {}", k.value)));
        }
        Ok(())
    }

    /// A CA port GUID may equal its own node GUID (ConnectX-4 and later) but
    /// not another node's GUID or another port's GUID: faults and GUID files
    /// name ports by GUID.
    fn check_port_guids(
        &self,
        b: &FabricBuilder,
        nodes: &[Pending],
        n: NodeIdx,
        seen: &mut HashMap<Guid, (usize, Location)>,
    ) -> Result<(), ParseError> {
        let me = &nodes[n.ix()];
        for port in 1..=b.node(n).num_ports {
            let g = b.port(n, port).map_or(Guid(0), |s| s.guid);
            if g.0 == 0 {
                continue;
            }
            let loc = me
                .doc
                .port_guids
                .0
                .iter()
                .find(|(k, _)| k.value == port)
                .map_or(me.doc.guid.referenced, |(_, v)| v.referenced);
            let clash = match b.node_by_guid(g).filter(|&o| o != n) {
                Some(o) => Some(b.node(o).guid),
                None => seen.insert(g, (n.ix(), loc)).map(|(o, _)| nodes[o].guid),
            };
            if let Some(other) = clash {
                return Err(self
                    .err(loc, "a port GUID used by no other node or port", format!("port {port} GUID {g}, also used by node {other}"))
                    .with_help("a CA port's GUID defaults to node GUID + port number (as in ibsim); give `port_guids` to choose another"));
            }
        }
        Ok(())
    }
}

/// Parses `4xHDR`, `1xSDR`, `4x???`, `??HDR`: a width then a speed, as
/// ibnetdiscover prints them.
pub fn parse_rate(s: &str) -> Option<(Width, Speed)> {
    let split = if s.starts_with("??") {
        2
    } else {
        s.find('x')? + 1
    };
    let (w, sp) = s.split_at(split);
    Some((Width::parse(w)?, Speed::parse(sp)?))
}
/// The ports a node's `lids` and `port_guids` may name: 0 for a switch,
/// 1..NumPorts for an end node.
struct PortRange {
    switch: bool,
    lo: PortNum,
    hi: PortNum,
}

impl PortRange {
    fn of(num_ports: PortNum, switch: bool) -> Self {
        let (lo, hi) = if switch { (0, 0) } else { (1, num_ports) };
        PortRange { switch, lo, hi }
    }
}
