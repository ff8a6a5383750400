//! Parallel Generalised Fat-Trees PGFT(h; m; w; p) (Zahavi 2010; the Dmodc
//! paper's Fig. 1 notation), numbered exactly as the OpenSM harness's
//! `peers/opensm/gen_pgft.py` numbers them, so that a fabric made here and
//! one made there have the same GUIDs, ports and cables (`formats/pgft.md`).
//!
//! A node at level `l` (0 = hosts, 1..=h = switches) is the digit tuple
//! `(a_h, .., a_1)` with `a_i < m_i` for `i > l` and `a_i < w_i` for
//! `i <= l`; its index in the level is that tuple read as a mixed-radix
//! number, `a_h` most significant. A level-`l-1` node and a level-`l` node
//! are joined by `p_l` parallel cables iff their tuples differ at most in
//! digit `l`.

use crate::model::lids::{self, MAX_UNICAST_LID};
use crate::model::{Fabric, FabricBuilder, Guid, NodeIdx, NodeKind, NodeSpec, Speed, Width};

/// Node GUID of switch 0 of level 0 (`SW_BASE` in gen_pgft.py).
pub const SWITCH_GUID_BASE: u64 = 0x0002_c901_0000_0000;
/// Node GUID of host 0 (`CA_BASE` in gen_pgft.py).
pub const HOST_GUID_BASE: u64 = 0x0002_c902_0000_0000;

/// PGFT(h; m_1..m_h; w_1..w_h; p_1..p_h).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgftSpec {
    pub h: usize,
    /// Children per node at each level.
    pub m: Vec<u32>,
    /// Parents per node at each level (`w_1`: leaf switches per host).
    pub w: Vec<u32>,
    /// Parallel cables between a node and each of its parents.
    pub p: Vec<u32>,
}

impl PgftSpec {
    /// A spec with `p` all 1 when `p` is `None`.
    pub fn new(h: usize, m: &[u32], w: &[u32], p: Option<&[u32]>) -> Self {
        PgftSpec {
            h,
            m: m.to_vec(),
            w: w.to_vec(),
            p: p.map_or_else(|| vec![1; h], <[u32]>::to_vec),
        }
    }

    /// Number of nodes at level `l` (0 = hosts).
    pub fn level_size(&self, l: usize) -> u64 {
        self.radices(l).iter().map(|&r| r as u64).product()
    }

    /// Radix of digit `i` (1-based) for a level-`l` node.
    fn radix(&self, l: usize, i: usize) -> u32 {
        if i > l { self.m[i - 1] } else { self.w[i - 1] }
    }

    /// Radices of digits 1..=h (index 0 = digit 1) of a level-`l` node.
    fn radices(&self, l: usize) -> Vec<u32> {
        (1..=self.h).map(|i| self.radix(l, i)).collect()
    }

    /// Ports of a switch at level `l` (down ports, then up ports).
    pub fn switch_ports(&self, l: usize) -> u64 {
        let down = self.m[l - 1] as u64 * self.p[l - 1] as u64;
        let up = if l < self.h {
            self.w[l] as u64 * self.p[l] as u64
        } else {
            0
        };
        down + up
    }

    /// Ports of a host: `w_1 · p_1`.
    pub fn host_ports(&self) -> u64 {
        self.w[0] as u64 * self.p[0] as u64
    }

    /// Total switches (levels 1..=h).
    pub fn num_switches(&self) -> u64 {
        (1..=self.h).map(|l| self.level_size(l)).sum()
    }

    /// Checks the spec can be built: lengths, values >= 1, radix <= 254,
    /// level indices fitting the GUID scheme, and the LID space.
    pub fn validate(&self) -> Result<(), String> {
        if self.h == 0 {
            return Err("h must be at least 1".into());
        }
        for (name, v) in [("m", &self.m), ("w", &self.w), ("p", &self.p)] {
            if v.len() != self.h {
                return Err(format!(
                    "--{name} needs {} values (h = {}), got {}",
                    self.h,
                    self.h,
                    v.len()
                ));
            }
            if let Some(i) = v.iter().position(|&x| x < 1) {
                return Err(format!(
                    "--{name}: value {} (level {}) must be >= 1",
                    v[i],
                    i + 1
                ));
            }
        }
        for l in 1..=self.h {
            let ports = self.switch_ports(l);
            if ports > 254 {
                return Err(format!(
                    "a level-{l} switch would need {ports} ports (at most 254)"
                ));
            }
        }
        if self.host_ports() > 254 {
            return Err(format!(
                "a host would need {} ports (at most 254)",
                self.host_ports()
            ));
        }
        let mut lid_ports: u64 = 0;
        for l in 0..=self.h {
            let n = self
                .radices(l)
                .iter()
                .try_fold(1u64, |a, &r| a.checked_mul(r as u64));
            let Some(n) = n.filter(|&n| n < 1 << 24) else {
                return Err(format!("level {l} would have more than 2^24 nodes"));
            };
            lid_ports += if l == 0 { n * self.host_ports() } else { n };
        }
        if lid_ports > MAX_UNICAST_LID as u64 {
            return Err(format!(
                "the fabric needs {lid_ports} LIDs, more than the {MAX_UNICAST_LID} unicast LIDs"
            ));
        }
        Ok(())
    }
}

/// Node GUID of switch `idx` of level `l` (1..=h).
pub fn switch_guid(l: usize, idx: u64) -> Guid {
    Guid(SWITCH_GUID_BASE + ((l as u64) << 24) + idx)
}

/// Node GUID of host `idx`; its port `k` has GUID `node + k`.
pub fn host_guid(idx: u64) -> Guid {
    Guid(HOST_GUID_BASE + (idx << 8))
}

/// Digits `a_1..a_h` (index 0 = digit 1) of node `idx` at level `l`.
fn digits(spec: &PgftSpec, l: usize, mut idx: u64) -> Vec<u32> {
    let mut d = vec![0; spec.h];
    for i in 1..=spec.h {
        let r = spec.radix(l, i) as u64;
        d[i - 1] = (idx % r) as u32;
        idx /= r;
    }
    d
}

/// Index of the level-`l` node with digits `d` (`a_h` most significant).
fn index(spec: &PgftSpec, l: usize, d: &[u32]) -> u64 {
    (1..=spec.h)
        .rev()
        .fold(0u64, |v, i| v * spec.radix(l, i) as u64 + d[i - 1] as u64)
}

/// Zero-padded width of the names of a level with `n` nodes (gen_pgft.py).
fn name_width(n: u64) -> usize {
    (n.saturating_sub(1)).to_string().len().max(4)
}

/// Builds PGFT(`spec`) with every LID assigned (switches first, then host
/// ports, both in ascending GUID order: [`lids::assign_missing_lids`]).
/// Nodes are added switches first (level, index), then hosts, so switch
/// indices follow GUID order.
pub fn pgft(spec: &PgftSpec) -> Result<Fabric, String> {
    spec.validate()?;
    let h = spec.h;
    let mut b = FabricBuilder::new();
    // levels[l] = first NodeIdx of level l, nodes of a level are consecutive.
    let mut first = vec![NodeIdx(0); h + 1];
    let build_err = |e: crate::model::BuildError| e.to_string();
    for (l, level_first) in first.iter_mut().enumerate().skip(1) {
        let n = spec.level_size(l);
        let wid = name_width(n);
        *level_first = NodeIdx(b.num_nodes() as u32);
        for idx in 0..n {
            let desc = format!("L{l}S{idx:0wid$}");
            let spec_node = NodeSpec::new(
                NodeKind::Switch,
                switch_guid(l, idx),
                spec.switch_ports(l) as u8,
                desc,
            );
            b.add_node(spec_node).map_err(build_err)?;
        }
    }
    let hosts = spec.level_size(0);
    let wid = name_width(hosts);
    first[0] = NodeIdx(b.num_nodes() as u32);
    for idx in 0..hosts {
        let g = host_guid(idx);
        let node = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                g,
                spec.host_ports() as u8,
                format!("H{idx:0wid$}"),
            ))
            .map_err(build_err)?;
        for k in 1..=spec.host_ports() as u8 {
            b.port_mut(node, k).map_err(build_err)?.guid = Guid(g.0 + k as u64);
        }
    }
    for l in 1..=h {
        wire_level(spec, l, &first, &mut b).map_err(build_err)?;
    }
    let mut fabric = b.build();
    lids::assign_missing_lids(&mut fabric);
    Ok(fabric)
}

/// Cables every level-`l-1` node to its `w_l` parents, `p_l` cables each,
/// with gen_pgft.py's port numbers.
fn wire_level(
    spec: &PgftSpec,
    l: usize,
    first: &[NodeIdx],
    b: &mut FabricBuilder,
) -> Result<(), crate::model::BuildError> {
    let (m, w, p) = (&spec.m, &spec.w, &spec.p);
    for cidx in 0..spec.level_size(l - 1) {
        let cd = digits(spec, l - 1, cidx);
        let child_digit = cd[l - 1];
        let child = NodeIdx(first[l - 1].0 + cidx as u32);
        for j in 0..w[l - 1] {
            let mut pd = cd.clone();
            pd[l - 1] = j;
            let parent = NodeIdx(first[l].0 + index(spec, l, &pd) as u32);
            for k in 0..p[l - 1] {
                let pport = 1 + child_digit * p[l - 1] + k;
                let cport = if l == 1 {
                    1 + j * p[0] + k
                } else {
                    1 + m[l - 2] * p[l - 2] + j * p[l - 1] + k
                };
                let child_port = b.port_mut(child, cport as u8)?;
                child_port.width = Width::X4;
                child_port.speed = Speed::Qdr;
                let parent_port = b.port_mut(parent, pport as u8)?;
                parent_port.width = Width::X4;
                parent_port.speed = Speed::Qdr;
                b.connect(child, cport as u8, parent, pport as u8)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_round_trip() {
        let s = PgftSpec::new(3, &[2, 2, 3], &[1, 2, 2], Some(&[1, 2, 1]));
        for l in 0..=3 {
            for i in 0..s.level_size(l) {
                assert_eq!(index(&s, l, &digits(&s, l, i)), i);
            }
        }
    }

    #[test]
    fn validation_names_the_problem() {
        let bad = PgftSpec::new(2, &[2], &[1, 2], None);
        assert!(bad.validate().unwrap_err().contains("--m needs 2 values"));
        let bad = PgftSpec::new(2, &[2, 0], &[1, 2], None);
        assert!(bad.validate().unwrap_err().contains("must be >= 1"));
        let bad = PgftSpec::new(2, &[200, 2], &[1, 100], None);
        assert!(bad.validate().unwrap_err().contains("300 ports"));
        let bad = PgftSpec::new(3, &[36, 36, 72], &[1, 36, 36], None);
        assert!(bad.validate().is_err());
    }
}
