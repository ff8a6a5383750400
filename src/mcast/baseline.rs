//! OpenSM's own multicast routing, as a yardstick (algorithms.md §2.8):
//! one MLID per group; root = the first switch in `sw_guid_tbl` order
//! (ascending byte-swapped GUID) with the smallest maximum hop count to the
//! members (strict `<`, `mcast_mgr_find_optimal_switch`); tree links = from
//! the root towards each member, the first port with least hops
//! (`osm_switch_recommend_mcast_path`), with no load balancing.

use serde::Serialize;

use crate::model::Fabric;

use super::topo::SwitchGraph;
use super::walk::{attachments, eccentricities};
use crate::model::McastGroup;

/// Colours and EFI of OpenSM's trees for the same groups.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct BaselineSummary {
    pub groups: usize,
    /// One MLID per group.
    pub colours_used: usize,
    pub max_efi: u32,
    pub max_height: u32,
}

/// Routes every group as OpenSM would and measures it.
pub fn opensm_baseline(
    fabric: &Fabric,
    graph: &SwitchGraph,
    groups: &[McastGroup],
) -> BaselineSummary {
    let order = fabric.opensm_switch_order();
    let mut efi = vec![0u32; graph.num_port_slots()];
    let mut used = Vec::new();
    let mut max_height = 0;
    for g in groups {
        let ecc = eccentricities(graph, &g.members);
        let Some(root) = order.iter().copied().reduce(|best, s| {
            if ecc[s.ix()] < ecc[best.ix()] {
                s
            } else {
                best
            }
        }) else {
            continue;
        };
        max_height = max_height.max(ecc[root.ix()] as u32);
        used.clear();
        for (leaf, _) in attachments(&g.members) {
            let mut u = root;
            while u != leaf {
                let h = graph.hops(u, leaf);
                let Some(a) = graph
                    .neighbours(u)
                    .iter()
                    .find(|a| graph.hops(a.peer, leaf) + 1 == h)
                else {
                    break;
                };
                used.push(graph.port_slot(u, a.port));
                u = a.peer;
            }
        }
        used.sort_unstable();
        used.dedup();
        used.iter().for_each(|&slot| efi[slot] += 1);
    }
    BaselineSummary {
        groups: groups.len(),
        colours_used: groups.len(),
        max_efi: efi.into_iter().max().unwrap_or(0),
        max_height,
    }
}
