//! Recognising a 2-D fat tree (seed:vtftr §1.2) in any fabric, from its
//! cables alone: leaf switches (LSW) carry the hosts; every other switch is
//! a root that meets leaves only. Roots that share two or more leaves
//! belong to one line (a row's RSWs, or a column's CSWs); a leaf lies on at
//! most one row and one column, so the lines form a graph (two lines meet
//! when they share a leaf) that must be 2-colourable: one colour is rows
//! (X), the other columns (Y). Faulty leaves are simply absent: a row and a
//! column that do not meet in a live leaf meet in a faulty one.
//!
//! Deterministic order (`formats/vtftr.md`, "Recognition"): lines by their
//! smallest root GUID; in each connected part the colour holding the
//! smallest root GUID is X; a leaf with no row (column) line is a row
//! (column) of its own, ordered after the others by leaf GUID.

use std::collections::{BTreeMap, HashMap};

use crate::model::{Fabric, Guid, NodeIdx, PortNum, SwIdx};

/// No leaf at this grid position (a faulty leaf).
pub const NONE: u32 = u32::MAX;

/// Dimension of a line: row (X) or column (Y).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    X,
    Y,
}

/// What a switch is in the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Leaf `i` of [`Grid::leaves`].
    Leaf(u32),
    /// A root of row `y` (RSW) or column `x` (CSW).
    Root(Dim, u32),
    /// A switch that meets fewer than two leaves: it carries no route.
    Idle,
}

/// A live leaf: its switch, grid position and ports.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub sw: SwIdx,
    pub x: u32,
    pub y: u32,
    /// (port, root switch) of its X (row) cables, by root GUID.
    pub x_ports: Vec<(PortNum, SwIdx)>,
    /// (port, root switch) of its Y (column) cables, by root GUID.
    pub y_ports: Vec<(PortNum, SwIdx)>,
}

/// The recognised grid.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Columns (X extent) and rows (Y extent) seen.
    pub nx: u32,
    pub ny: u32,
    pub leaves: Vec<Leaf>,
    /// `at[y·nx + x]`: leaf index or [`NONE`].
    pub at: Vec<u32>,
    /// Per switch (by `SwIdx`).
    pub role: Vec<Role>,
    /// Per switch (by `SwIdx`), for roots: leaf position → port (0 = no
    /// cable), indexed by x for a row root, by y for a column root; empty
    /// for other switches.
    pub root_ports: Vec<Vec<PortNum>>,
    /// Columns with a live leaf in every row; rows with one in every column
    /// (seed §2.1: the only candidates for detours).
    pub free_cols: Vec<u32>,
    pub free_rows: Vec<u32>,
}

impl Grid {
    /// The leaf at (x, y), if live.
    pub fn leaf_at(&self, x: u32, y: u32) -> Option<u32> {
        let i = self.at[(y * self.nx + x) as usize];
        (i != NONE).then_some(i)
    }

    /// The port of root switch `root` toward grid position `pos` on its line.
    pub fn root_port(&self, root: SwIdx, pos: u32) -> PortNum {
        self.root_ports[root.ix()]
            .get(pos as usize)
            .copied()
            .unwrap_or(0)
    }
}

fn guid(f: &Fabric, s: SwIdx) -> Guid {
    f.node(f.switch_node(s)).guid
}

fn named(f: &Fabric, s: SwIdx) -> String {
    let n = f.node(f.switch_node(s));
    format!("{} ({:?})", n.guid, n.desc)
}

/// Recognises `fabric` as a 2-D fat tree, or says which switches break the
/// pattern.
pub fn recognise(fabric: &Fabric) -> Result<Grid, String> {
    let ns = fabric.num_switches();
    let sw_of = |n: NodeIdx| fabric.switch_index(n).expect("a switch");
    let is_leaf: Vec<bool> = (0..ns)
        .map(|s| {
            let n = fabric.switch_node(SwIdx(s as u32));
            fabric
                .ports(n)
                .iter()
                .any(|p| p.peer.is_some_and(|q| fabric.is_endpoint(q.node)))
        })
        .collect();
    if !is_leaf.iter().any(|&l| l) {
        return Err("no switch carries a host, so there is no leaf switch".into());
    }
    // leaf ↔ root adjacency; leaf–leaf and root–root cables break the pattern
    let mut leaf_roots: Vec<Vec<(PortNum, SwIdx)>> = vec![Vec::new(); ns];
    let mut root_leaves: Vec<Vec<(PortNum, SwIdx)>> = vec![Vec::new(); ns];
    for s in 0..ns {
        let sw = SwIdx(s as u32);
        for (p, peer) in fabric.switch_links(fabric.switch_node(sw)) {
            let t = sw_of(peer.node);
            match (is_leaf[s], is_leaf[t.ix()]) {
                (true, true) | (false, false) if s < t.ix() => {
                    let what = if is_leaf[s] {
                        "two leaf switches (both carry hosts)"
                    } else {
                        "two switches without hosts"
                    };
                    return Err(format!(
                        "{} port {p} and {} port {} are cabled together: {what}; in a 2-D fat \
                         tree leaves meet only row and column switches, and those only leaves",
                        named(fabric, sw),
                        named(fabric, t),
                        peer.port
                    ));
                }
                (true, false) => leaf_roots[s].push((p, t)),
                (false, true) => root_leaves[s].push((p, t)),
                _ => {}
            }
        }
    }
    for v in leaf_roots.iter_mut().chain(root_leaves.iter_mut()) {
        // one entry per neighbour (the lowest port of parallel cables)
        v.sort_by_key(|&(p, t)| (t, p));
        v.dedup_by_key(|e| e.1);
    }
    let lines = group_lines(fabric, &is_leaf, &leaf_roots, &root_leaves)?;
    super::grid::build(fabric, &is_leaf, &leaf_roots, &root_leaves, lines)
}

/// Roots grouped into lines: union of roots that share two or more leaves,
/// roots meeting fewer than two leaves left out. Lines sorted by their
/// smallest root GUID, each line's roots by GUID.
fn group_lines(
    fabric: &Fabric,
    is_leaf: &[bool],
    leaf_roots: &[Vec<(PortNum, SwIdx)>],
    root_leaves: &[Vec<(PortNum, SwIdx)>],
) -> Result<Vec<Vec<SwIdx>>, String> {
    let ns = is_leaf.len();
    let mut parent: Vec<usize> = (0..ns).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
    for roots in leaf_roots {
        for (i, &(_, a)) in roots.iter().enumerate() {
            for &(_, b) in &roots[i + 1..] {
                let (a, b) = (a.0.min(b.0), a.0.max(b.0));
                let c = shared.entry((a, b)).or_insert(0);
                *c += 1;
                if *c == 2 {
                    let (ra, rb) = (find(&mut parent, a as usize), find(&mut parent, b as usize));
                    parent[ra] = rb;
                }
            }
        }
    }
    let mut lines: BTreeMap<usize, Vec<SwIdx>> = BTreeMap::new();
    for s in (0..ns).filter(|&s| !is_leaf[s] && root_leaves[s].len() >= 2) {
        let r = find(&mut parent, s);
        lines.entry(r).or_default().push(SwIdx(s as u32));
    }
    let mut out: Vec<Vec<SwIdx>> = lines.into_values().collect();
    for l in &mut out {
        l.sort_by_key(|&s| guid(fabric, s));
    }
    out.sort_by_key(|l| guid(fabric, l[0]));
    Ok(out)
}

pub(super) fn name_switch(f: &Fabric, s: SwIdx) -> String {
    named(f, s)
}
