//! The communication patterns of seed:mr4lms §4.2.2: one group per row,
//! column (and pillar) of an MPI process grid, or random groups. Process
//! `r` runs on node `r / procs_per_node`, nodes taken in node order:
//! end ports sorted by (leaf switch GUID, leaf port).

use rand::SeedableRng;
use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;

use crate::error::{Error, Result};
use crate::model::{Fabric, Guid, McastGroup, Member};

/// Which pattern to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pattern {
    /// `dims = [A, B]`: B rows of A processes and A columns of B.
    Grid2d,
    /// `dims = [A, B, C]`: lines along each of the three axes.
    Grid3d,
    /// `dims = [G, S]`: G groups of S distinct random nodes.
    Random,
}

/// End ports in node order (ascending leaf switch GUID, then leaf port).
pub fn node_order(fabric: &Fabric) -> Vec<Member> {
    let mut v: Vec<Member> = fabric
        .node_indices()
        .filter(|&n| fabric.is_endpoint(n))
        .flat_map(|n| (1..=fabric.node(n).num_ports).map(move |p| (n, p)))
        .filter_map(|(n, p)| {
            let g = fabric.port(n, p).guid;
            (g != Guid(0))
                .then(|| Member::resolve(fabric, g).ok())
                .flatten()
        })
        .collect();
    v.sort_by_key(|m| (fabric.node(fabric.switch_node(m.leaf)).guid, m.leaf_port));
    v
}

/// InfiniBand's multicast LIDs, 0xC000..=0xFFFE: no fabric holds more
/// groups, so `random` refuses more (`--dims 2^64-1x2` once tried to
/// build them all).
pub const MAX_GROUPS: usize = 0xFFFE - 0xC000 + 1;

/// Parses `AxB` or `AxBxC`.
pub fn parse_dims(s: &str) -> Result<Vec<usize>> {
    let dims: Option<Vec<usize>> = s
        .split(['x', 'X'])
        .map(|d| d.trim().parse().ok().filter(|&v| v > 0))
        .collect();
    dims.filter(|d| (2..=3).contains(&d.len())).ok_or_else(|| {
        Error::Usage(format!(
            "--dims {s}: expected AxB or AxBxC with positive integers"
        ))
    })
}

/// Generates the groups of `pattern`. Grids place process `r` on node
/// `r / procs_per_node`; random groups take distinct nodes, so
/// `procs_per_node` does not apply to them.
pub fn generate(
    fabric: &Fabric,
    pattern: Pattern,
    dims: &[usize],
    procs_per_node: u32,
    seed: u64,
) -> Result<Vec<McastGroup>> {
    let nodes = node_order(fabric);
    let grid = ProcessGrid {
        nodes: &nodes,
        procs_per_node: procs_per_node.max(1) as usize,
    };
    match (pattern, dims) {
        (Pattern::Grid2d, &[a, b]) => grid.rows_and_columns(a, b),
        (Pattern::Grid3d, &[a, b, c]) => grid.lines_3d(a, b, c),
        (Pattern::Random, &[g, s]) => random_groups(&nodes, g, s, seed),
        _ => Err(Error::Usage(format!(
            "{pattern:?} takes {} dimensions",
            if pattern == Pattern::Grid3d { 3 } else { 2 }
        ))),
    }
}

/// MPI processes laid on the nodes in node order, `procs_per_node` to a
/// node: a group of ranks becomes a group of the nodes running them.
struct ProcessGrid<'a> {
    nodes: &'a [Member],
    procs_per_node: usize,
}

impl ProcessGrid<'_> {
    /// Refuses a grid of more processes than the nodes run. The product of
    /// the dimensions is checked: `--dims 2^64-1x2^64-1` wrapped to 1 and
    /// then built 2^64 groups.
    fn check_fits(&self, dims: &[usize]) -> Result<()> {
        let k = self.procs_per_node;
        let procs = dims.iter().try_fold(1usize, |p, &d| p.checked_mul(d));
        if procs.is_none_or(|procs| procs > self.nodes.len() * k) {
            let procs = dims
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join("x");
            return Err(Error::Usage(format!(
                "{procs} processes do not fit on {} nodes x {k} processes per node",
                self.nodes.len()
            )));
        }
        Ok(())
    }

    /// The group of the nodes running `ranks`, in rank order.
    fn line(&self, name: String, ranks: impl Iterator<Item = usize>) -> McastGroup {
        let hosts = ranks.map(|rank| self.nodes[rank / self.procs_per_node]);
        McastGroup::new(name, None, hosts.collect())
    }

    /// An `a` x `b` grid: the `b` rows (`row.y`), then the `a` columns
    /// (`col.x`); rank `x + a*y`.
    fn rows_and_columns(&self, a: usize, b: usize) -> Result<Vec<McastGroup>> {
        self.check_fits(&[a, b])?;
        let rows = (0..b).map(|y| self.line(format!("row.{y}"), (0..a).map(|x| x + a * y)));
        let cols = (0..a).map(|x| self.line(format!("col.{x}"), (0..b).map(|y| x + a * y)));
        Ok(rows.chain(cols).collect())
    }

    /// An `a` x `b` x `c` grid: the lines along x (`x.y.z`), then along y
    /// (`y.x.z`), then along z (`z.x.y`); rank `x + a*(y + b*z)`.
    fn lines_3d(&self, a: usize, b: usize, c: usize) -> Result<Vec<McastGroup>> {
        self.check_fits(&[a, b, c])?;
        let r = |x: usize, y: usize, z: usize| x + a * (y + b * z);
        let mut v = Vec::with_capacity(b * c + a * c + a * b);
        for z in 0..c {
            for y in 0..b {
                v.push(self.line(format!("x.{y}.{z}"), (0..a).map(|x| r(x, y, z))));
            }
        }
        for z in 0..c {
            for x in 0..a {
                v.push(self.line(format!("y.{x}.{z}"), (0..b).map(|y| r(x, y, z))));
            }
        }
        for y in 0..b {
            for x in 0..a {
                v.push(self.line(format!("z.{x}.{y}"), (0..c).map(|z| r(x, y, z))));
            }
        }
        Ok(v)
    }
}

/// `g` groups (`rand.i`) of `s` distinct nodes each, drawn from a ChaCha8
/// stream seeded by `seed` so the same seed gives the same groups. `g` is
/// capped at [`MAX_GROUPS`], checked before the group size.
fn random_groups(nodes: &[Member], g: usize, s: usize, seed: u64) -> Result<Vec<McastGroup>> {
    if g > MAX_GROUPS {
        return Err(Error::Usage(format!(
            "{g} groups: a fabric holds at most {MAX_GROUPS} (one MLID each, 0xC000..=0xFFFE)"
        )));
    }
    if s > nodes.len() {
        return Err(Error::Usage(format!(
            "groups of {s} do not fit on {} nodes",
            nodes.len()
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Ok((0..g)
        .map(|i| {
            McastGroup::new(
                format!("rand.{i}"),
                None,
                sample(&mut rng, nodes.len(), s)
                    .into_iter()
                    .map(|j| nodes[j])
                    .collect(),
            )
        })
        .collect())
}
