//! What a multicast run hands to the rest of the pipeline: the MFT of every
//! switch and the colour of every group. Masks follow OpenSM's tree entries
//! (`osm_mcast_mgr.c`, `mcast_mgr_branch`): the port towards the parent, the
//! ports to child switches, and the ports of member end ports (port 0 when
//! the switch itself is a member).

use crate::model::{ColourLine, Fabric, GroupColour, MLID_BASE, McastGroup, Mfts, PortMask, SwIdx};

use super::policy::McastResult;

/// The MFTs of `result`: one row per (switch, live tree).
pub fn mfts(fabric: &Fabric, result: &McastResult) -> Mfts {
    let mut rows: Vec<Vec<(u16, PortMask)>> = vec![Vec::new(); fabric.num_switches()];
    for tree in result.state.trees.iter().filter(|t| t.alive) {
        let mlid = MLID_BASE + tree.colour;
        let mut masks: Vec<(SwIdx, PortMask)> = tree
            .nodes
            .iter()
            .map(|n| (n.sw, PortMask::default()))
            .collect();
        let pos = |masks: &[(SwIdx, PortMask)], s: SwIdx| masks.iter().position(|m| m.0 == s);
        for n in &tree.nodes {
            if let Some((p, parent, pp)) = n.up {
                if let Some(i) = pos(&masks, n.sw) {
                    masks[i].1.set(p);
                }
                if let Some(i) = pos(&masks, parent) {
                    masks[i].1.set(pp);
                }
            }
        }
        for m in &tree.members {
            if let Some(i) = pos(&masks, m.leaf) {
                masks[i].1.set(m.leaf_port);
            }
        }
        for (s, mask) in masks {
            rows[s.ix()].push((mlid, mask));
        }
    }
    Mfts::from_rows(rows)
}

/// The colour of every group of `result`, as the colour table states it.
pub fn group_colours(groups: &[McastGroup], result: &McastResult) -> Vec<GroupColour> {
    groups
        .iter()
        .enumerate()
        .map(|(g, group)| GroupColour {
            name: group.name.clone(),
            mlid: result.mlid(g),
            tree: result.group_tree[g],
        })
        .collect()
}

/// The colour table of `result` (groups in input order), with each group's
/// tree described.
pub fn colour_lines(
    fabric: &Fabric,
    groups: &[McastGroup],
    result: &McastResult,
) -> Vec<ColourLine> {
    group_colours(groups, result)
        .into_iter()
        .zip(groups)
        .map(|(colour, group)| {
            let tree = &result.state.trees[colour.tree as usize];
            ColourLine {
                root: fabric.node(fabric.switch_node(tree.root)).guid,
                switches: tree.nodes.len(),
                height: tree.height() as usize,
                groups: tree.groups.len(),
                was: group.mlid,
                colour,
            }
        })
        .collect()
}
