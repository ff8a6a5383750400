//! MR4LMS driver (seed:mr4lms Alg. 7): FBTC first; after an FBTC failure
//! use FCTB until it has succeeded 20 times in a row without merging; merge
//! (Alg. 4) whenever the current algorithm fails. Groups are placed in
//! input order; only the state-free candidate-root scans run in parallel,
//! so the result does not depend on the thread count.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::model::Fabric;

use super::fbtc::{Placed, fbtc};
use super::fctb::fctb;
use super::merge::merge;
use super::nearest::Proximity;
use super::state::{Builder, ColourState, Tree, TreeId};
use super::topo::SwitchGraph;
use super::walk::{Candidates, Scratch, candidate_roots};
use crate::model::McastGroup;

/// Consecutive merge-free FCTB successes before going back to FBTC (§3.4).
pub const FCTB_STREAK: u32 = 20;

/// The largest number of colours IB allows: MLIDs 0xC000..=0xFFFE.
pub const MAX_COLOURS: u32 = 0xFFFF - 0xC000;

/// Options of a multicast run.
#[derive(Clone, Copy, Debug)]
pub struct McastConfig {
    /// MFT entries (colours) per switch; capped at [`MAX_COLOURS`].
    pub mft_size: u32,
    /// Rebuild merged groups' trees instead of growing the old ones.
    pub rebuild_merged: bool,
}

impl Default for McastConfig {
    fn default() -> Self {
        McastConfig {
            mft_size: MAX_COLOURS,
            rebuild_merged: false,
        }
    }
}

/// Everything a multicast run decided.
#[derive(Clone, Debug)]
pub struct McastResult {
    pub graph: SwitchGraph,
    pub state: ColourState,
    /// The live tree serving each group.
    pub group_tree: Vec<TreeId>,
    /// Number of merge operations (Alg. 4 runs).
    pub merges: u32,
}

impl McastResult {
    /// The MLID of group `g`.
    pub fn mlid(&self, g: usize) -> u16 {
        crate::model::MLID_BASE + self.state.trees[self.group_tree[g] as usize].colour
    }
}

/// Alg. 7's two modes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Fbtc,
    Fctb { streak: u32 },
}

/// Builds and colours a tree for every group of `groups`, in order.
pub fn assign(fabric: &Fabric, groups: &[McastGroup], cfg: McastConfig) -> Result<McastResult> {
    let graph = SwitchGraph::new(fabric);
    let mft_size = cfg.mft_size.clamp(1, MAX_COLOURS);
    let cands: Vec<Option<Candidates>> = groups
        .par_iter()
        .map(|g| candidate_roots(&graph, &g.members))
        .collect();
    let mut state = ColourState::new(&graph, mft_size);
    let mut scratch = Scratch::new(graph.num_switches());
    let mut prox = Proximity::default();
    let mut mode = Mode::Fbtc;
    let mut merges = 0;
    for (gi, (group, cand)) in groups.iter().zip(&cands).enumerate() {
        let cand = cand.as_ref().ok_or_else(|| {
            Error::Input(format!(
                "multicast group {}: its members are not connected to each other",
                group.name
            ))
        })?;
        let placed = match mode {
            Mode::Fbtc => {
                let p = fbtc(&graph, &state, &group.members, cand, &mut scratch);
                if p.is_none() {
                    mode = Mode::Fctb { streak: 0 };
                }
                p.map(|p| (p, Builder::Fbtc))
            }
            Mode::Fctb { streak } => {
                let p = fctb(&graph, &state, &group.members, cand, &mut scratch);
                mode = match (&p, streak + 1 >= FCTB_STREAK) {
                    (Some(_), true) => Mode::Fbtc,
                    (Some(_), false) => Mode::Fctb { streak: streak + 1 },
                    (None, _) => Mode::Fctb { streak: 0 },
                };
                p.map(|p| (p, Builder::Fctb))
            }
        };
        match placed {
            Some((p, by)) => {
                let tree = new_tree(p, vec![gi as u32], group.members.clone(), by);
                let id = state.commit(&graph, tree);
                prox.added(&graph, &state, id);
            }
            None => {
                let m = merge(
                    &graph,
                    &state,
                    &group.members,
                    !cfg.rebuild_merged,
                    &mut prox,
                    &mut scratch,
                )
                .ok_or_else(|| Error::Route {
                    message: format!(
                        "multicast group {}: no colour fits and no tree can absorb it",
                        group.name
                    ),
                    help: Some("raise --mft-size".into()),
                })?;
                merges += 1;
                let mut tree_groups = vec![gi as u32];
                for &t in &m.absorbed {
                    tree_groups.extend_from_slice(&state.trees[t as usize].groups);
                    state.retire(&graph, t);
                    prox.removed(&state, t);
                }
                tree_groups.sort_unstable();
                let id = state.commit(
                    &graph,
                    new_tree(m.placed, tree_groups, m.members, Builder::Merge),
                );
                prox.added(&graph, &state, id);
            }
        }
    }
    let mut group_tree = vec![0; groups.len()];
    for (id, t) in state.trees.iter().enumerate().filter(|(_, t)| t.alive) {
        for &g in &t.groups {
            group_tree[g as usize] = id as TreeId;
        }
    }
    Ok(McastResult {
        graph,
        state,
        group_tree,
        merges,
    })
}

fn new_tree(
    p: Placed,
    groups: Vec<u32>,
    members: Vec<crate::model::Member>,
    built_by: Builder,
) -> Tree {
    Tree {
        colour: p.colour,
        root: p.root,
        nodes: p.nodes,
        groups,
        members,
        built_by,
        alive: true,
    }
}
