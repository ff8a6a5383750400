//! LID ownership and deterministic LID assignment.

use super::fabric::{Fabric, NodeKind};
use super::ids::{Lid, NodeIdx, PortNum};
use super::routing::PortLids;
use crate::error::Error;

/// Who owns a LID: a switch (port 0) or an end port.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LidOwner {
    pub node: NodeIdx,
    pub port: PortNum,
    /// Offset of this LID in the port's LMC range (0 = base LID).
    pub offset: u8,
}

/// LID → owner, for LIDs `0..=max_lid`.
#[derive(Clone, Debug)]
pub struct LidMap {
    owners: Vec<Option<LidOwner>>,
}

/// The highest unicast LID (0xBFFF).
pub const MAX_UNICAST_LID: Lid = 0xBFFF;

/// Whether a LID value means "assigned" (0 and 0xFFFF mean not yet).
pub fn is_assigned(lid: Lid) -> bool {
    lid != 0 && lid != 0xFFFF
}

impl LidMap {
    /// Maps every assigned LID of `fabric` to its owner. Two ports claiming
    /// one LID, or a LID beyond the unicast range, is an input error.
    pub fn new(fabric: &Fabric) -> Result<Self, Error> {
        let mut owners: Vec<Option<LidOwner>> = Vec::new();
        for (node, port) in lid_ports(fabric) {
            let p = fabric.port(node, port);
            if !is_assigned(p.lid) {
                continue;
            }
            let count = u32::from(p.lid_count());
            check_lmc_base(fabric, node, port)?;
            for offset in 0..count {
                let lid = p.lid as u32 + offset;
                if lid > MAX_UNICAST_LID as u32 {
                    return Err(Error::Input(format!(
                        "{} port {port}: LID {lid} is beyond the unicast range (max {MAX_UNICAST_LID})",
                        fabric.node(node).guid
                    )));
                }
                let lid = lid as usize;
                if owners.len() <= lid {
                    owners.resize(lid + 1, None);
                }
                if let Some(prev) = owners[lid] {
                    return Err(Error::Input(format!(
                        "LID {lid} is claimed by both {} port {} and {} port {port}",
                        fabric.node(prev.node).guid,
                        prev.port,
                        fabric.node(node).guid
                    )));
                }
                owners[lid] = Some(LidOwner {
                    node,
                    port,
                    offset: offset as u8,
                });
            }
        }
        if owners.is_empty() {
            owners.push(None);
        }
        Ok(LidMap { owners })
    }

    /// The highest assigned LID (0 if none).
    pub fn max_lid(&self) -> Lid {
        (self.owners.len() - 1) as Lid
    }

    /// The owner of `lid`.
    pub fn owner(&self, lid: Lid) -> Option<LidOwner> {
        self.owners.get(lid as usize).copied().flatten()
    }

    /// `(lid, owner)` for every assigned LID, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (Lid, LidOwner)> + '_ {
        self.owners
            .iter()
            .enumerate()
            .filter_map(|(l, o)| o.map(|o| (l as Lid, o)))
    }
}

/// The ports that need a LID: every switch's port 0 and every cabled port of
/// a CA or router.
pub fn lid_ports(fabric: &Fabric) -> impl Iterator<Item = (NodeIdx, PortNum)> + '_ {
    fabric.node_indices().flat_map(move |n| {
        let node = fabric.node(n);
        let ports: Vec<PortNum> = if node.kind == NodeKind::Switch {
            vec![0]
        } else {
            (1..=node.num_ports)
                .filter(|&p| fabric.port(n, p).peer.is_some())
                .collect()
        };
        ports.into_iter().map(move |p| (n, p))
    })
}

/// How complete the LID assignment of a fabric is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LidState {
    /// Every port that needs a LID has one.
    Complete,
    /// No port has a LID (a fabric before the SM ran, or a generated one).
    None,
    /// Some have, some have not: `missing` ports lack one.
    Partial { missing: usize },
}

/// Tells whether `fabric` carries LIDs.
pub fn lid_state(fabric: &Fabric) -> LidState {
    let (mut have, mut missing) = (0usize, 0usize);
    for (n, p) in lid_ports(fabric) {
        if is_assigned(fabric.port(n, p).lid) {
            have += 1;
        } else {
            missing += 1;
        }
    }
    match (have, missing) {
        (_, 0) => LidState::Complete,
        (0, _) => LidState::None,
        _ => LidState::Partial { missing },
    }
}

/// Gives a LID (LMC 0) to every port that lacks one, deterministically:
/// switches first in ascending node GUID order, then CA and router ports in
/// ascending (node GUID, port number) order, each taking the lowest LID not
/// already in use, from 1. Returns how many LIDs were assigned, or an error
/// when the unicast LID space (1..=0xBFFF) runs out.
/// This scheme is documented in `formats/lid-assignment.md`.
pub fn assign_missing_lids(fabric: &mut Fabric) -> Result<usize, Error> {
    let mut used = vec![false; MAX_UNICAST_LID as usize + 1];
    used[0] = true;
    let mut todo = Vec::new();
    for (n, p) in lid_ports(fabric) {
        let port = fabric.port(n, p);
        if is_assigned(port.lid) {
            let count = usize::from(port.lid_count());
            for l in port.lid as usize..(port.lid as usize + count).min(used.len()) {
                used[l] = true;
            }
        } else {
            let node = fabric.node(n);
            todo.push((node.kind != NodeKind::Switch, node.guid, p, n));
        }
    }
    todo.sort_unstable();
    let free = used.iter().filter(|&&u| !u).count();
    if todo.len() > free {
        return Err(Error::Input(format!(
            "{} ports need a LID but only {free} unicast LIDs are free (max LID {MAX_UNICAST_LID})",
            todo.len()
        )));
    }
    let mut next = 1usize;
    let assigned = todo.len();
    for (_, _, p, n) in todo {
        while used[next] {
            next += 1;
        }
        used[next] = true;
        fabric.set_lid(n, p, next as Lid, 0);
    }
    Ok(assigned)
}

/// A fresh LID assignment in which every end port owns `2^lmc` LIDs from
/// a base aligned to `2^lmc` (IBA: the low `lmc` bits of the base are 0);
/// switches keep one LID (base port 0, LMC 0, as OpenSM assigns without
/// `lmc_esp0`). Switches take the lowest LIDs in ascending node GUID order,
/// then end ports in ascending (node GUID, port) order, each the lowest free
/// aligned range: deterministic, and `formats/lid-assignment.md` documents it.
pub fn assign_with_lmc(fabric: &Fabric, lmc: u8) -> Result<Vec<PortLids>, Error> {
    let lmc = lmc.min(7);
    let mut ports: Vec<(bool, crate::model::Guid, PortNum, NodeIdx)> = lid_ports(fabric)
        .map(|(n, p)| {
            let node = fabric.node(n);
            (node.kind != NodeKind::Switch, node.guid, p, n)
        })
        .collect();
    ports.sort_unstable();
    let mut next = 1u32;
    let mut out = Vec::with_capacity(ports.len());
    for (end, _, port, node) in ports {
        let (size, l) = if end { (1u32 << lmc, lmc) } else { (1, 0) };
        let base = next.div_ceil(size) * size;
        if base + size - 1 > u32::from(MAX_UNICAST_LID) {
            return Err(Error::Input(format!(
                "LMC {lmc} needs more than the {MAX_UNICAST_LID} unicast LIDs for this fabric's {} ports",
                out.len() + 1
            )));
        }
        out.push(PortLids {
            node,
            port,
            lid: base as Lid,
            lmc: l,
        });
        next = base + size;
    }
    Ok(out)
}

/// Sets the LIDs an engine assigned (`Routing::lids`) on `fabric`.
pub fn apply_port_lids(fabric: &mut Fabric, lids: &[PortLids]) {
    for p in lids {
        fabric.set_lid(p.node, p.port, p.lid, p.lmc);
    }
}

/// IBA §7.11.1: a port with LMC n answers to the 2^n LIDs that share its
/// base LID's upper bits, so the base is a multiple of 2^n; LIDs 17..20
/// for `lid 17 lmc 2` would route 20 to a port that owns 16..19.
pub fn check_lmc_base(fabric: &Fabric, node: NodeIdx, port: PortNum) -> Result<(), Error> {
    let p = fabric.port(node, port);
    let count = u32::from(p.lid_count());
    if !is_assigned(p.lid) || u32::from(p.lid) % count == 0 {
        return Ok(());
    }
    let low = u32::from(p.lid) / count * count;
    Err(Error::Input(format!(
        "{} {:?} port {port}: base LID {} with LMC {} is not a multiple of {count} \
         (the port owns LIDs {low}..{})",
        fabric.node(node).guid,
        fabric.node(node).desc,
        p.lid,
        p.lmc,
        low + count - 1
    )))
}

/// [`check_lmc_base`] for every port with a LID.
pub fn check_lmc_bases(fabric: &Fabric) -> Result<(), Error> {
    lid_ports(fabric).try_for_each(|(node, port)| check_lmc_base(fabric, node, port))
}

#[cfg(test)]
mod tests;
