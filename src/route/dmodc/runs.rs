//! Strength reduction of formulas (3)–(4) (seed
//! `dmodc-fault-resiliency-in-fat-trees.txt` §3.4) for the common cases of
//! a row, so the route stage writes whole runs of LIDs instead of one
//! division chain per (switch, LID):
//!
//! * a target's destinations come as **runs** — consecutive LIDs with
//!   consecutive node indices `d` (a leaf's hosts in the default order);
//! * at switch s, every target whose candidates are *all* the up groups of
//!   s (every up-mode target of an intact fat-tree) gets the same port for
//!   the same `d`: the row's **up table** `port(d)`, built once per row, and
//!   a run is a copy of a slice of it;
//! * a target with one candidate group of one port gets that port: a run is
//!   a fill.
//!
//! Everything else (degraded candidate sets, parallel cables in a single
//! candidate group, escape hops, LMC > 0) keeps the per-destination
//! odometer of [`super::routes`]. The bytes are the formulas' either way;
//! `tests::up_table_is_the_formula` checks the table against them.

use super::dests::Dests;
use super::groups::{Group, Ranked};

/// Consecutive destinations of one target: LIDs `lid..lid + len` are nodes
/// `d..d + len`, one LID each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub lid: u16,
    pub d: u32,
    pub len: u32,
}

/// The destinations of every target as runs.
#[derive(Clone, Debug)]
pub struct Runs {
    start: Vec<u32>,
    list: Vec<Run>,
    /// One more than the largest `d`: the length of an up table.
    pub span: usize,
}

impl Runs {
    /// Runs of every target; `None` when a destination owns several LIDs
    /// (LMC > 0: `lmc::spread` needs the per-destination path).
    pub fn build(dests: &Dests, targets: usize) -> Option<Runs> {
        let mut start = Vec::with_capacity(targets + 1);
        let mut list: Vec<Run> = Vec::new();
        let mut span = 0;
        for t in 0..targets {
            start.push(list.len() as u32);
            let first = list.len();
            for d in dests.of(t) {
                if d.nlids != 1 {
                    return None;
                }
                span = span.max(d.d as usize + 1);
                match list[first..].last_mut() {
                    Some(run)
                        if u32::from(run.lid) + run.len == u32::from(d.lid)
                            && run.d + run.len == d.d =>
                    {
                        run.len += 1
                    }
                    _ => list.push(Run {
                        lid: d.lid,
                        d: d.d,
                        len: 1,
                    }),
                }
            }
        }
        start.push(list.len() as u32);
        Some(Runs { start, list, span })
    }

    /// The runs of target `t`.
    #[inline]
    pub fn of(&self, t: usize) -> &[Run] {
        &self.list[self.start[t] as usize..self.start[t + 1] as usize]
    }
}

/// Writes `port(d)` of formulas (3)–(4) for `d = 0..out.len()`: candidates
/// `cand` (indices into `groups`), divider `pi` (≥ 1). `port(d)` is
/// periodic with period Π·#C·lcm(|g|) (⌊d/Π⌋ mod #C and ⌊d/(Π·#C)⌋ mod |g|
/// both repeat), so one period is computed and the rest copied.
pub fn up_table(r: &Ranked, groups: &[Group], cand: &[u8], pi: u32, out: &mut [u8]) {
    let c = cand.len() as u64;
    let lcm = cand.iter().fold(1u64, |l, &gi| {
        lcm_sat(l, u64::from(groups[gi as usize].len))
    });
    let period = u64::from(pi).saturating_mul(c).saturating_mul(lcm);
    let head = (period.min(out.len() as u64)) as usize;
    let (pi, c) = (pi as usize, c as usize);
    // One period: Π equal ports per step of ⌊d/Π⌋; q2 = ⌊d/(Π·#C)⌋.
    let (mut pos, mut k, mut q2) = (0usize, 0usize, 0u64);
    while pos < head {
        let g = &groups[cand[k] as usize];
        let j = (q2 % u64::from(g.len)) as usize;
        let end = (pos + pi).min(head);
        out[pos..end].fill(r.ports[g.start as usize + j]);
        pos = end;
        k += 1;
        if k == c {
            k = 0;
            q2 += 1;
        }
    }
    let mut done = head;
    while done < out.len() {
        let n = done.min(out.len() - done);
        out.copy_within(0..n, done);
        done += n;
    }
}

/// Runs of an up table waiting to be copied into a row: runs that continue
/// each other in both LID and `d` (the hosts of consecutive leaves in the
/// default order) become one copy instead of one per leaf. Every LID has
/// one destination, so copying later writes the same bytes; the row's
/// owner flushes before it reads the row back.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pending {
    lo: usize,
    d: usize,
    len: usize,
}

impl Pending {
    /// Adds `table[d..d + len]` for LIDs `lo..lo + len` (inside `row`).
    #[inline]
    pub fn add(&mut self, row: &mut [u8], table: &[u8], lo: usize, d: usize, len: usize) {
        if self.len > 0 && lo == self.lo + self.len && d == self.d + self.len {
            self.len += len;
            return;
        }
        self.flush(row, table);
        *self = Pending { lo, d, len };
    }

    /// Copies what is waiting.
    pub fn flush(&mut self, row: &mut [u8], table: &[u8]) {
        if self.len > 0 {
            row[self.lo..self.lo + self.len].copy_from_slice(&table[self.d..self.d + self.len]);
            self.len = 0;
        }
    }
}

fn lcm_sat(a: u64, b: u64) -> u64 {
    let (mut x, mut y) = (a, b.max(1));
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).saturating_mul(b.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::dmodc::groups::Dir;

    /// Formula (3)–(4) written out with plain division (the independent
    /// oracle of the table).
    fn formula(ports: &[u8], groups: &[Group], cand: &[u8], pi: u32, d: u64) -> u8 {
        let q = d / u64::from(pi);
        let g = &groups[cand[(q % cand.len() as u64) as usize] as usize];
        ports[(u64::from(g.start) + (q / cand.len() as u64) % u64::from(g.len)) as usize]
    }

    #[test]
    fn up_table_is_the_formula() {
        // Groups of 1, 2 and 3 parallel ports (lcm 6), ports 1..=6.
        let lens = [1u32, 2, 3];
        let mut groups = Vec::new();
        let mut start = 0;
        for (i, &len) in lens.iter().enumerate() {
            groups.push(Group {
                peer: i as u32,
                dir: Dir::Up,
                start,
                len,
            });
            start += len;
        }
        let ports: Vec<u8> = (1..=6).collect();
        let r = Ranked {
            order: vec![],
            internal: vec![],
            rank: vec![],
            guid: vec![],
            rank_start: vec![],
            num_leaves: 0,
            group_start: vec![],
            groups: groups.clone(),
            ports: ports.clone(),
            unranked: vec![],
        };
        for cand in [&[0u8, 1, 2][..], &[2, 0], &[1], &[0]] {
            for pi in [1u32, 2, 5, 24, 1000, 1 << 17] {
                for len in [0usize, 1, 7, 100, 3001] {
                    let mut out = vec![0u8; len];
                    up_table(&r, &groups, cand, pi, &mut out);
                    for (d, &p) in out.iter().enumerate() {
                        assert_eq!(
                            p,
                            formula(&ports, &groups, cand, pi, d as u64),
                            "cand {cand:?} pi {pi} d {d}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn lcm_saturates() {
        assert_eq!(lcm_sat(4, 6), 12);
        assert_eq!(lcm_sat(1, 0), 1);
        assert_eq!(lcm_sat(u64::MAX, 3), u64::MAX);
    }
}
