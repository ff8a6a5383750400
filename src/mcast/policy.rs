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
    let mut run = Colouring {
        graph: &graph,
        state: ColourState::new(&graph, mft_size),
        scratch: Scratch::new(graph.num_switches()),
        prox: Proximity::default(),
        mode: Mode::Fbtc,
        merges: 0,
        rebuild_merged: cfg.rebuild_merged,
    };
    for (gi, (group, cand)) in groups.iter().zip(&cands).enumerate() {
        let cand = cand.as_ref().ok_or_else(|| {
            Error::Input(format!(
                "multicast group {}: its members are not connected to each other",
                group.name
            ))
        })?;
        match run.place(group, cand) {
            Some((p, by)) => run.add(new_tree(p, vec![gi as u32], group.members.clone(), by)),
            None => run.merge_in(gi, group)?,
        }
    }
    let Colouring { state, merges, .. } = run;
    let group_tree = group_trees(&state, groups.len());
    Ok(McastResult {
        graph,
        state,
        group_tree,
        merges,
    })
}

/// Alg. 7 part way through the groups: the colours and trees so far, the
/// mode, and the buffers every group reuses.
struct Colouring<'g> {
    graph: &'g SwitchGraph,
    state: ColourState,
    scratch: Scratch,
    prox: Proximity,
    mode: Mode,
    /// Merge operations so far.
    merges: u32,
    rebuild_merged: bool,
}

impl Colouring<'_> {
    /// Places `group` with the current mode's algorithm, and moves to the
    /// next mode: FBTC's first failure hands over to FCTB, which hands back
    /// after [`FCTB_STREAK`] successes in a row. `None`: it must merge.
    fn place(&mut self, group: &McastGroup, cand: &Candidates) -> Option<(Placed, Builder)> {
        let (graph, state, members) = (self.graph, &self.state, &group.members);
        match self.mode {
            Mode::Fbtc => {
                let p = fbtc(graph, state, members, cand, &mut self.scratch);
                if p.is_none() {
                    self.mode = Mode::Fctb { streak: 0 };
                }
                p.map(|p| (p, Builder::Fbtc))
            }
            Mode::Fctb { streak } => {
                let p = fctb(graph, state, members, cand, &mut self.scratch);
                self.mode = match (&p, streak + 1 >= FCTB_STREAK) {
                    (Some(_), true) => Mode::Fbtc,
                    (Some(_), false) => Mode::Fctb { streak: streak + 1 },
                    (None, _) => Mode::Fctb { streak: 0 },
                };
                p.map(|p| (p, Builder::Fctb))
            }
        }
    }

    /// Gives `tree` its colour on its switches.
    fn add(&mut self, tree: Tree) {
        let id = self.state.commit(self.graph, tree);
        self.prox.added(self.graph, &self.state, id);
    }

    /// No colour fits group `gi` (Alg. 4): it joins the trees `merge` picks,
    /// whose groups then share one tree and one colour.
    fn merge_in(&mut self, gi: usize, group: &McastGroup) -> Result<()> {
        let m = merge(
            self.graph,
            &self.state,
            &group.members,
            !self.rebuild_merged,
            &mut self.prox,
            &mut self.scratch,
        )
        .ok_or_else(|| Error::Route {
            message: format!(
                "multicast group {}: no colour fits and no tree can absorb it",
                group.name
            ),
            help: Some("raise --mft-size".into()),
        })?;
        self.merges += 1;
        let mut tree_groups = vec![gi as u32];
        for &t in &m.absorbed {
            tree_groups.extend_from_slice(&self.state.trees[t as usize].groups);
            self.state.retire(self.graph, t);
            self.prox.removed(&self.state, t);
        }
        tree_groups.sort_unstable();
        self.add(new_tree(m.placed, tree_groups, m.members, Builder::Merge));
        Ok(())
    }
}

/// The live tree serving each of `num_groups` groups.
fn group_trees(state: &ColourState, num_groups: usize) -> Vec<TreeId> {
    let mut group_tree = vec![0; num_groups];
    for (id, t) in state.trees.iter().enumerate().filter(|(_, t)| t.alive) {
        for &g in &t.groups {
            group_tree[g as usize] = id as TreeId;
        }
    }
    group_tree
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
