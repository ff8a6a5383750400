//! LID ownership and deterministic LID assignment.

use super::fabric::{Fabric, NodeKind};
use super::ids::{Lid, NodeIdx, PortNum};
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
            let count = 1u32 << p.lmc.min(7);
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
/// already in use, from 1. Returns how many LIDs were assigned.
/// This scheme is documented in `formats/lid-assignment.md`.
pub fn assign_missing_lids(fabric: &mut Fabric) -> usize {
    let mut used = vec![false; MAX_UNICAST_LID as usize + 1];
    used[0] = true;
    let mut todo = Vec::new();
    for (n, p) in lid_ports(fabric) {
        let port = fabric.port(n, p);
        if is_assigned(port.lid) {
            let count = 1usize << port.lmc.min(7);
            for l in port.lid as usize..(port.lid as usize + count).min(used.len()) {
                used[l] = true;
            }
        } else {
            let node = fabric.node(n);
            todo.push((node.kind != NodeKind::Switch, node.guid, p, n));
        }
    }
    todo.sort_unstable();
    let mut next = 1usize;
    let assigned = todo.len();
    for (_, _, p, n) in todo {
        while next < used.len() && used[next] {
            next += 1;
        }
        let lid = next.min(MAX_UNICAST_LID as usize) as Lid;
        let last = used.len() - 1;
        used[next.min(last)] = true;
        fabric.set_lid(n, p, lid, 0);
    }
    assigned
}
