//! The semantic pass's last step: each checked node added to the builder
//! with its fields, then every resolved link cabled once.

// Parse errors carry their source text for miette (see the module above).
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use serde_saphyr::Location;

use super::GuidValue;
use super::topology::{Pending, ResolvedLink, Topology};
use crate::error::ParseError;
use crate::model::{FabricBuilder, NodeIdx, NodeKind, NodeSpec, PortNum};

impl Topology<'_> {
    pub(super) fn add_node(
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

    pub(super) fn connect_all(
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
}
