//! Figures of a multicast run (seed:mr4lms §2.2, Def. 6–7): EFI =
//! groups per switch-to-switch link, TFI = groups per tree, tree height.

use crate::model::McastSummary;

use super::policy::McastResult;
use super::state::Builder;

/// Figures of `result`.
pub fn summary(result: &McastResult) -> McastSummary {
    let state = &result.state;
    let graph = &result.graph;
    let live: Vec<_> = state.trees.iter().filter(|t| t.alive).collect();
    let mut efi = vec![0u32; graph.num_port_slots()];
    for t in &live {
        for n in &t.nodes {
            if let Some((p, _, _)) = n.up {
                efi[graph.port_slot(n.sw, p)] += t.groups.len() as u32;
            }
        }
    }
    let used: Vec<u32> = efi.into_iter().filter(|&e| e > 0).collect();
    let heights: Vec<u32> = live.iter().map(|t| t.height() as u32).collect();
    let mut colours: Vec<u16> = live.iter().map(|t| t.colour).collect();
    colours.sort_unstable();
    colours.dedup();
    let count = |b: Builder| live.iter().filter(|t| t.built_by == b).count();
    McastSummary {
        groups: result.group_tree.len(),
        trees: live.len(),
        colours_used: colours.len(),
        mft_size: state.mft_size,
        max_colours_per_switch: state.sw_load.iter().copied().max().unwrap_or(0),
        max_efi: used.iter().copied().max().unwrap_or(0),
        mean_efi: mean(&used),
        max_tfi: live
            .iter()
            .map(|t| t.groups.len() as u32)
            .max()
            .unwrap_or(0),
        mean_tfi: mean(
            &live
                .iter()
                .map(|t| t.groups.len() as u32)
                .collect::<Vec<_>>(),
        ),
        max_height: heights.iter().copied().max().unwrap_or(0),
        mean_height: mean(&heights),
        merges: result.merges,
        merged_groups: live
            .iter()
            .filter(|t| t.groups.len() > 1)
            .map(|t| t.groups.len())
            .sum(),
        fbtc_trees: count(Builder::Fbtc),
        fctb_trees: count(Builder::Fctb),
        merged_trees: count(Builder::Merge),
    }
}

/// Mean rounded to 3 decimals, so the JSON is stable and readable.
fn mean(v: &[u32]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let m = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
    (m * 1000.0).round() / 1000.0
}
