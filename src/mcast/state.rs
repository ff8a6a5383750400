//! The colouring state MR4LMS updates group after group: trees, which tree
//! owns each colour on each switch (`μ.mcts[color]`, seed:mr4lms Table 3),
//! and link weights (number of trees using each link, §3.1.2).

use crate::model::{PortNum, SwIdx};

use super::topo::SwitchGraph;
use crate::model::Member;

/// Index of a tree in [`ColourState::trees`].
pub type TreeId = u32;
/// No tree.
pub const NO_TREE: TreeId = u32::MAX;

/// A tree switch and the link to its parent (`None` at the root).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TreeNode {
    pub sw: SwIdx,
    /// (local port, parent switch, parent port).
    pub up: Option<(PortNum, SwIdx, PortNum)>,
    /// Hops from the root.
    pub depth: u8,
}

/// Which algorithm built a tree.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Builder {
    Fbtc,
    Fctb,
    Merge,
}

/// A multicast tree (seed:mr4lms Def. 3) and the groups using it.
#[derive(Clone, Debug)]
pub struct Tree {
    pub colour: u16,
    pub root: SwIdx,
    /// Root first, then in build order; parents always precede children.
    pub nodes: Vec<TreeNode>,
    /// Group indices using the tree (TFI = its length).
    pub groups: Vec<u32>,
    /// Union of the groups' members, sorted.
    pub members: Vec<Member>,
    pub built_by: Builder,
    /// False once merged into a bigger tree.
    pub alive: bool,
}

impl Tree {
    /// Tree height: the longest root-to-member path, member link included.
    pub fn height(&self) -> u8 {
        let depth = |s: SwIdx| self.nodes.iter().find(|n| n.sw == s).map_or(0, |n| n.depth);
        self.members
            .iter()
            .map(|m| depth(m.leaf) + m.extra)
            .max()
            .unwrap_or(0)
    }
}

/// Colour ownership per switch and link loads.
#[derive(Clone, Debug)]
pub struct ColourState {
    pub mft_size: u32,
    /// owner[s][c]: the tree holding colour c on switch s (grown on demand).
    owner: Vec<Vec<TreeId>>,
    /// Number of trees through each switch (root ordering, §3.1.1).
    pub sw_load: Vec<u32>,
    /// Number of trees using each switch port (both ends of a cable).
    pub link_load: Vec<u32>,
    /// Number of live trees per colour.
    pub colour_trees: Vec<u32>,
    pub trees: Vec<Tree>,
}

impl ColourState {
    /// An empty state for `graph` with `mft_size` colours per switch.
    pub fn new(graph: &SwitchGraph, mft_size: u32) -> Self {
        let s = graph.num_switches();
        ColourState {
            mft_size,
            owner: vec![Vec::new(); s],
            sw_load: vec![0; s],
            link_load: vec![0; graph.num_port_slots()],
            colour_trees: Vec::new(),
            trees: Vec::new(),
        }
    }

    /// The tree owning colour `c` on switch `s`.
    pub fn owner(&self, s: SwIdx, c: u16) -> TreeId {
        self.owner[s.ix()]
            .get(c as usize)
            .copied()
            .unwrap_or(NO_TREE)
    }

    /// Whether every colour of switch `s` is taken.
    pub fn switch_full(&self, s: SwIdx) -> bool {
        self.sw_load[s.ix()] >= self.mft_size
    }

    /// Number of colours in use by at least one tree.
    pub fn colours_in_use(&self) -> usize {
        self.colour_trees.iter().filter(|&&n| n > 0).count()
    }

    /// The first colour free on every switch of `nodes` (§3.1.3).
    pub fn first_free_colour(&self, nodes: &[TreeNode], scratch: &mut Vec<bool>) -> Option<u16> {
        let width = nodes
            .iter()
            .map(|n| self.owner[n.sw.ix()].len())
            .max()
            .unwrap_or(0);
        scratch.clear();
        scratch.resize(width + 1, false);
        for n in nodes {
            for (c, &t) in self.owner[n.sw.ix()].iter().enumerate() {
                if t != NO_TREE {
                    scratch[c] = true;
                }
            }
        }
        let c = scratch.iter().position(|&used| !used)?;
        (c < self.mft_size as usize).then_some(c as u16)
    }

    /// Adds a tree and takes its colour on its switches and its links.
    pub fn commit(&mut self, graph: &SwitchGraph, tree: Tree) -> TreeId {
        let id = self.trees.len() as TreeId;
        let c = tree.colour as usize;
        for n in &tree.nodes {
            let row = &mut self.owner[n.sw.ix()];
            if row.len() <= c {
                row.resize(c + 1, NO_TREE);
            }
            debug_assert_eq!(row[c], NO_TREE);
            row[c] = id;
            self.sw_load[n.sw.ix()] += 1;
            if let Some((p, parent, pp)) = n.up {
                self.link_load[graph.port_slot(n.sw, p)] += 1;
                self.link_load[graph.port_slot(parent, pp)] += 1;
            }
        }
        if self.colour_trees.len() <= c {
            self.colour_trees.resize(c + 1, 0);
        }
        self.colour_trees[c] += 1;
        self.trees.push(tree);
        id
    }

    /// Releases a tree's colour and links (it was merged into another).
    pub fn retire(&mut self, graph: &SwitchGraph, id: TreeId) {
        let tree = &mut self.trees[id as usize];
        tree.alive = false;
        let c = tree.colour as usize;
        for n in &tree.nodes {
            self.owner[n.sw.ix()][c] = NO_TREE;
            self.sw_load[n.sw.ix()] -= 1;
            if let Some((p, parent, pp)) = n.up {
                self.link_load[graph.port_slot(n.sw, p)] -= 1;
                self.link_load[graph.port_slot(parent, pp)] -= 1;
            }
        }
        self.colour_trees[c] -= 1;
    }
}
