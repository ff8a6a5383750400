//! Multicast groups as sets of end ports, resolved against a fabric, and
//! what a multicast run says about them (colours, figures).
//!
//! A member is an end port (CA or router port) or a switch port 0
//! (seed:mr4lms Def. 2: members may be terminals or switches). Each member
//! is reached through one switch port, its *attachment*, which is where the
//! MFT entry that delivers to it lives.

use crate::model::{Fabric, Guid, NodeIdx, PortNum, SwIdx};

/// One member port of a multicast group.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Member {
    /// The member's node and port (a switch member is its port 0).
    pub node: NodeIdx,
    pub port: PortNum,
    /// The switch that delivers to it (the member itself for a switch).
    pub leaf: SwIdx,
    /// The port of `leaf` facing the member (0 for a switch member).
    pub leaf_port: PortNum,
    /// Hops from `leaf` to the member: 1 for an end port, 0 for a switch.
    pub extra: u8,
}

impl Member {
    /// Resolves port GUID `guid`; the message says why it cannot be a member.
    pub fn resolve(fabric: &Fabric, guid: Guid) -> Result<Member, String> {
        let (node, port) = fabric
            .port_by_guid(guid)
            .ok_or_else(|| format!("no port has GUID {guid}"))?;
        if let Some(sw) = fabric.switch_index(node) {
            return Ok(Member {
                node,
                port: 0,
                leaf: sw,
                leaf_port: 0,
                extra: 0,
            });
        }
        let peer = fabric
            .peer(node, port)
            .ok_or_else(|| format!("port {guid} is not cabled"))?;
        let leaf = fabric
            .switch_index(peer.node)
            .ok_or_else(|| format!("port {guid} is not cabled to a switch"))?;
        Ok(Member {
            node,
            port,
            leaf,
            leaf_port: peer.port,
            extra: 1,
        })
    }

    /// The port GUID of this member.
    pub fn guid(&self, fabric: &Fabric) -> Guid {
        fabric.port(self.node, self.port).guid
    }
}

/// A multicast group: a name (an MGID or any token) and its member ports.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct McastGroup {
    pub name: String,
    /// The MLID the input gave (e.g. the SA's), kept for reference: routec
    /// assigns its own colours.
    pub mlid: Option<u16>,
    /// Members, sorted and without duplicates.
    pub members: Vec<Member>,
}

impl McastGroup {
    /// A group with `members` sorted and deduplicated.
    pub fn new(name: impl Into<String>, mlid: Option<u16>, mut members: Vec<Member>) -> Self {
        members.sort_unstable();
        members.dedup();
        McastGroup {
            name: name.into(),
            mlid,
            members,
        }
    }
}

/// One group's colour, as a colour table states it (`formats/mcast-colors.md`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GroupColour {
    pub name: String,
    pub mlid: u16,
    /// Tree id: groups with the same id intentionally share a tree.
    pub tree: u32,
}

/// One line of the colour table a multicast run writes: the group's colour
/// and the tree that serves it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ColourLine {
    pub colour: GroupColour,
    /// Root switch of the tree.
    pub root: Guid,
    /// Switches on the tree, its height, and the groups it serves.
    pub switches: usize,
    pub height: usize,
    pub groups: usize,
    /// The MLID the input gave the group, if any.
    pub was: Option<u16>,
}

/// Figures of a multicast run (seed:mr4lms §2.2, Def. 6–7): the `mcast`
/// block of `mcast.json` and `report.json`.
#[derive(Clone, PartialEq, Debug, Default, serde::Serialize)]
pub struct McastSummary {
    pub groups: usize,
    /// Live trees (after merges).
    pub trees: usize,
    /// Distinct colours (MLIDs) used.
    pub colours_used: usize,
    /// Colours available per switch.
    pub mft_size: u32,
    /// Most colours held by one switch.
    pub max_colours_per_switch: u32,
    /// Groups on the busiest switch-to-switch link (Def. 6).
    pub max_efi: u32,
    /// Mean EFI over the switch-to-switch links used by some tree.
    pub mean_efi: f64,
    /// Most groups sharing one tree (Def. 7).
    pub max_tfi: u32,
    pub mean_tfi: f64,
    /// Longest root-to-member path (hops, member link included).
    pub max_height: u32,
    pub mean_height: f64,
    /// Merge operations (Alg. 4) and groups living in merged trees.
    pub merges: u32,
    pub merged_groups: usize,
    /// Live trees by the algorithm that built them.
    pub fbtc_trees: usize,
    pub fctb_trees: usize,
    pub merged_trees: usize,
}
