//! Per-port fields of the semantic pass: LIDs, LMC and port GUIDs, once
//! the port counts and cables are known.

// Parse errors carry their source text for miette (see the module above).
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use serde_saphyr::{Location, Spanned};

use super::GuidValue;
use super::NodeDoc;
use super::topology::{Pending, Topology};
use crate::error::ParseError;
use crate::model::lids::MAX_UNICAST_LID;
use crate::model::{FabricBuilder, Guid, Lid, NodeIdx, NodeKind, PortNum, Speed, Width};

impl Topology<'_> {
    /// LIDs, LMC and port GUIDs, once the port counts and cables are known.
    pub(super) fn fill_ports(
        &self,
        b: &mut FabricBuilder,
        nodes: &[Pending],
    ) -> Result<(), ParseError> {
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
