//! Forwarding tables as read from a file (an OpenSM dump, `ibroute`
//! output, a route image) before they meet a topology: per-switch rows by
//! GUID over one buffer, and their alignment to a fabric's switch order,
//! which `check`, `report` and `diff` share.

use std::ops::Range;

use super::image::ImageHeader;
use super::vl::NUM_SL;
use super::{Fabric, Guid, Lfts, Lid, LidMap, NO_ROUTE, SwIdx, VlPlan};
use crate::io::Bytes;

/// Where a [`TableSet`] came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableKind {
    /// routec route image (`routes.lft`, possibly zstd-compressed).
    Image,
    /// OpenSM `opensm-lfts.dump`.
    OpensmDump,
    /// infiniband-diags `ibroute` / `dump_fts` output.
    Ibroute,
    /// Built in memory from routed tables.
    Memory,
}

/// One switch's forwarding table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchTable {
    pub guid: Guid,
    /// The switch's LID (0 when the file does not tell).
    pub lid: Lid,
    pub desc: Option<String>,
    /// NumPorts, when the file tells (images do, dumps do not).
    pub num_ports: Option<u8>,
    /// LinearFDBTop: the highest LID with an entry.
    pub top: Lid,
    /// The row's bytes in the set's buffer.
    pub(crate) range: Range<usize>,
}

/// Forwarding tables read from a file: per-switch rows (LID-indexed, padded
/// with [`NO_ROUTE`] to whole blocks) over one buffer, which for an
/// uncompressed image is the memory map itself.
#[derive(Debug)]
pub struct TableSet {
    pub kind: TableKind,
    /// Switches in file order.
    pub switches: Vec<SwitchTable>,
    /// LID → port GUID where the file tells (`Guid(0)` = unknown).
    pub lid_guids: Vec<Guid>,
    /// The image header, for images.
    pub header: Option<ImageHeader>,
    /// The VL plan the file carries (version 2 route images).
    pub vl: Option<TableVl>,
    /// The buffer the rows live in (a file's bytes or memory map).
    pub(crate) data: Bytes,
}

/// A VL plan as a file carries it: byte ranges of the set's buffer,
/// switches in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableVl {
    pub vls: u8,
    pub end_port: Option<[u8; NUM_SL]>,
    /// The map of switches without a table of their own (`None` = identity).
    pub default: Option<[u8; NUM_SL]>,
    /// `(ports + 1, table)` per switch; `None` = the default map.
    pub sl2vl: Vec<Option<(usize, Range<usize>)>>,
    /// Path SLs per switch, LID-indexed, as long as its LFT row.
    pub path_sl: Vec<Range<usize>>,
}

impl TableSet {
    /// The LFT of switch `i`, LID-indexed, whole blocks (entries past `top`
    /// are [`NO_ROUTE`]).
    pub fn lft(&self, i: usize) -> &[u8] {
        &self.data[self.switches[i].range.clone()]
    }

    /// The output port of switch `i` for `lid` ([`NO_ROUTE`] past the table).
    pub fn port(&self, i: usize, lid: Lid) -> u8 {
        self.lft(i).get(lid as usize).copied().unwrap_or(NO_ROUTE)
    }

    /// The port GUID owning `lid`, when known.
    pub fn lid_guid(&self, lid: Lid) -> Option<Guid> {
        self.lid_guids
            .get(lid as usize)
            .copied()
            .filter(|g| g.0 != 0)
    }

    /// The index of the switch with node GUID `g` (linear; build a map for many).
    pub fn switch_by_guid(&self, g: Guid) -> Option<usize> {
        self.switches.iter().position(|s| s.guid == g)
    }

    /// Tables routed in memory, as `compile` would write them.
    pub fn from_routing(fabric: &Fabric, lids: &LidMap, lfts: &Lfts) -> TableSet {
        let switches = fabric
            .switches()
            .iter()
            .enumerate()
            .map(|(s, &n)| SwitchTable {
                guid: fabric.node(n).guid,
                lid: fabric.switch_lid(n),
                desc: Some(fabric.node(n).desc.clone()),
                num_ports: Some(fabric.node(n).num_ports),
                top: lfts.top(),
                range: s * lfts.stride()..(s + 1) * lfts.stride(),
            })
            .collect();
        TableSet {
            kind: TableKind::Memory,
            switches,
            lid_guids: lid_port_guids(fabric, lids),
            header: None,
            vl: None,
            data: Bytes::Owned(lfts.as_bytes().to_vec()),
        }
    }

    /// [`TableSet::from_routing`] with the routing's VL plan, as a route
    /// image carries it (path SLs after the rows, then per-switch SL2VL
    /// tables): what `diff --plan` reads from two compiles, in memory.
    pub fn from_routing_with_plan(
        fabric: &Fabric,
        lids: &LidMap,
        lfts: &Lfts,
        plan: &VlPlan,
    ) -> TableSet {
        let mut set = TableSet::from_routing(fabric, lids, lfts);
        let mut data = lfts.as_bytes().to_vec();
        let (mut path_sl, mut sl2vl) = (Vec::new(), Vec::new());
        for s in 0..fabric.num_switches() {
            let row = plan.path_sl.row(s);
            path_sl.push(data.len()..data.len() + row.len());
            data.extend_from_slice(row);
        }
        for s in 0..fabric.num_switches() {
            sl2vl.push(plan.sl2vl.switch_table(s).map(|(dim, t)| {
                data.extend_from_slice(t);
                (dim, data.len() - t.len()..data.len())
            }));
        }
        set.vl = Some(TableVl {
            vls: plan.vls,
            end_port: plan.sl2vl.end_port_table(),
            default: plan.sl2vl.default_table(),
            sl2vl,
            path_sl,
        });
        set.data = Bytes::Owned(data);
        set
    }

    /// The tables as a model [`Lfts`] in file switch order, with the largest
    /// LinearFDBTop of the set.
    pub fn to_lfts(&self) -> Lfts {
        let top = self.switches.iter().map(|s| s.top).max().unwrap_or(0);
        let mut out = Lfts::new(self.switches.len(), top);
        for (i, row) in out.rows_mut().enumerate() {
            copy_row(self.lft(i), row);
        }
        out
    }

    /// The tables laid out in `fabric`'s switch order (matched by GUID) and
    /// LID range, for the verifier. Switches the set lacks get empty tables
    /// (the check reports what breaks) and are returned; a switch of the set
    /// that the topology lacks is an error naming its GUID.
    pub fn align(&self, fabric: &Fabric, lids: &LidMap) -> Result<Aligned, Guid> {
        let mut lfts = Lfts::new(fabric.num_switches(), lids.max_lid());
        let mut plan = self.vl.as_ref().map(|v| VlPlan {
            vls: v.vls,
            ..VlPlan::single(&lfts)
        });
        if let (Some(p), Some(v)) = (&mut plan, &self.vl) {
            v.end_port.into_iter().for_each(|t| p.sl2vl.set_end_port(t));
            v.default.into_iter().for_each(|t| p.sl2vl.set_default(t));
        }
        let mut seen = vec![false; fabric.num_switches()];
        for (i, t) in self.switches.iter().enumerate() {
            let sw = fabric
                .node_by_guid(t.guid)
                .and_then(|n| fabric.switch_index(n))
                .ok_or(t.guid)?;
            seen[sw.ix()] = true;
            copy_row(self.lft(i), lfts.row_mut(sw.ix()));
            if let (Some(p), Some(v)) = (&mut plan, &self.vl) {
                copy_row(&self.data[v.path_sl[i].clone()], p.path_sl.row_mut(sw.ix()));
                if let Some((dim, r)) = &v.sl2vl[i] {
                    p.sl2vl
                        .set_switch_table(sw.ix(), *dim, &self.data[r.clone()]);
                }
            }
        }
        let missing = (0..fabric.num_switches() as u32)
            .map(SwIdx)
            .filter(|s| !seen[s.ix()])
            .collect();
        Ok(Aligned {
            lfts,
            missing,
            vl_plan: plan,
        })
    }
}

/// A [`TableSet`] in a fabric's switch order.
#[derive(Clone, Debug)]
pub struct Aligned {
    pub lfts: Lfts,
    /// Switches of the fabric the set has no table for.
    pub missing: Vec<SwIdx>,
    /// The set's VL plan in the fabric's order, when it carries one.
    pub vl_plan: Option<VlPlan>,
}

/// Copies a file row into a model row, as far as both reach.
fn copy_row(src: &[u8], row: &mut [u8]) {
    let n = src.len().min(row.len());
    row[..n].copy_from_slice(&src[..n]);
}

/// LID → port GUID of every assigned LID (0 where none), LMC ranges included.
pub fn lid_port_guids(fabric: &Fabric, lids: &LidMap) -> Vec<Guid> {
    let mut out = vec![Guid(0); lids.max_lid() as usize + 1];
    for (lid, owner) in lids.iter() {
        out[lid as usize] = fabric.port(owner.node, owner.port).guid;
    }
    out
}
