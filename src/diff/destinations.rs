//! Which destination of the old tables is which of the new: the pairing
//! `diff` compares entries along.

use std::collections::BTreeMap;

use fixedbitset::FixedBitSet;
use rayon::prelude::*;

use super::{LidRef, Renumbered};
use crate::model::{Guid, Lid, NO_ROUTE, TableSet};

/// Destination pairing between the two sides.
pub(super) struct Pairs {
    /// `(old LID, new LID)` of every destination present on both sides.
    pub pairs: Vec<(Lid, Lid)>,
    /// Every pair has `old == new`: entries compare in place.
    pub identity: bool,
    pub by_guid: bool,
    pub added: Vec<LidRef>,
    pub removed: Vec<LidRef>,
    pub renumbered: Vec<Renumbered>,
}

/// LIDs a side knows: those with a port GUID, or routed by some switch.
/// Only LIDs without a GUID need the tables: few of them are looked up
/// column by column, many by one pass over every row.
fn present_lids(t: &TableSet) -> FixedBitSet {
    let len = t
        .switches
        .iter()
        .map(|s| s.top as usize + 1)
        .max()
        .unwrap_or(0)
        .max(t.lid_guids.len());
    let mut present = FixedBitSet::with_capacity(len);
    for (l, g) in t.lid_guids.iter().enumerate() {
        if g.0 != 0 {
            present.insert(l);
        }
    }
    let unnamed: Vec<usize> = (1..len).filter(|&l| !present.contains(l)).collect();
    if unnamed.len() * 8 < len {
        let routed: Vec<usize> = unnamed
            .par_iter()
            .copied()
            .filter(|&l| (0..t.switches.len()).any(|i| t.port(i, l as Lid) != NO_ROUTE))
            .collect();
        routed.into_iter().for_each(|l| present.insert(l));
    } else {
        let routed = (0..t.switches.len())
            .into_par_iter()
            .fold(
                || FixedBitSet::with_capacity(len),
                |mut acc, i| {
                    let top = t.switches[i].top as usize;
                    for (l, &p) in t.lft(i)[..=top].iter().enumerate() {
                        if p != NO_ROUTE {
                            acc.insert(l);
                        }
                    }
                    acc
                },
            )
            .reduce(
                || FixedBitSet::with_capacity(len),
                |mut a, b| {
                    a.union_with(&b);
                    a
                },
            );
        present.union_with(&routed);
    }
    present.set(0, false);
    present
}

/// Pairs the destinations of `old` and `new`: by port GUID where both
/// sides name one (so a renumbered LID is a renumbering, not a change), by
/// LID value otherwise.
pub(super) fn pair_destinations(old: &TableSet, new: &TableSet) -> Pairs {
    let (po, pn) = (present_lids(old), present_lids(new));
    let by_guid = old.lid_guids.iter().any(|g| g.0 != 0) && new.lid_guids.iter().any(|g| g.0 != 0);
    let mut p = Pairs {
        pairs: Vec::new(),
        identity: true,
        by_guid,
        added: Vec::new(),
        removed: Vec::new(),
        renumbered: Vec::new(),
    };
    let mut named = Named::default();
    let old_plain = named.split(0, &po, old, by_guid);
    let new_plain = named.split(1, &pn, new, by_guid);
    let cap = po.len().max(pn.len());
    let mut left_old: FixedBitSet = old_plain.iter().map(|&l| l as usize).collect();
    let mut left_new: FixedBitSet = new_plain.iter().map(|&l| l as usize).collect();
    left_old.grow(cap);
    left_new.grow(cap);
    let guid_of = named.pair(&mut p, &mut left_old, &mut left_new);
    pair_by_lid(&mut p, &left_old, &left_new, &guid_of);
    p.pairs.sort_unstable_by_key(|&(o, n)| (n, o));
    p.added.sort_unstable_by_key(|r| r.lid);
    p.removed.sort_unstable_by_key(|r| r.lid);
    p.renumbered.sort_unstable_by_key(|r| r.new_lid);
    p
}

/// The LIDs of each side that carry a port GUID, by GUID.
#[derive(Default)]
struct Named {
    lids: BTreeMap<Guid, (Vec<Lid>, Vec<Lid>)>,
}

impl Named {
    /// Files the named LIDs of `present` (side 0 = old, 1 = new) under
    /// their GUID; returns the others.
    fn split(
        &mut self,
        side: usize,
        present: &FixedBitSet,
        t: &TableSet,
        by_guid: bool,
    ) -> Vec<Lid> {
        let mut plain = Vec::new();
        for lid in present.ones().map(|l| l as Lid) {
            match t.lid_guid(lid).filter(|_| by_guid) {
                Some(g) => {
                    let e = self.lids.entry(g).or_default();
                    if side == 0 {
                        e.0.push(lid)
                    } else {
                        e.1.push(lid)
                    }
                }
                None => plain.push(lid),
            }
        }
        plain
    }

    /// Pairs each GUID's LIDs in order (LMC offsets pair with offsets);
    /// the LIDs left over go back to the by-LID pool, remembering their
    /// GUID for the report.
    fn pair(
        &self,
        p: &mut Pairs,
        left_old: &mut FixedBitSet,
        left_new: &mut FixedBitSet,
    ) -> BTreeMap<(u8, Lid), Guid> {
        let mut guid_of = BTreeMap::new();
        for (g, (ol, nl)) in &self.lids {
            for (i, &o) in ol.iter().enumerate() {
                match nl.get(i) {
                    Some(&n) => {
                        p.pairs.push((o, n));
                        if o != n {
                            p.identity = false;
                            p.renumbered.push(Renumbered {
                                port_guid: *g,
                                old_lid: o,
                                new_lid: n,
                            });
                        }
                    }
                    None => {
                        left_old.insert(o as usize);
                        guid_of.insert((0, o), *g);
                    }
                }
            }
            for &n in nl.iter().skip(ol.len()) {
                left_new.insert(n as usize);
                guid_of.insert((1, n), *g);
            }
        }
        guid_of
    }
}

/// What no GUID pairs (unnamed LIDs, or a GUID on one side only) pairs by
/// LID value; the rest was added or removed.
fn pair_by_lid(
    p: &mut Pairs,
    left_old: &FixedBitSet,
    left_new: &FixedBitSet,
    guid_of: &BTreeMap<(u8, Lid), Guid>,
) {
    for l in left_old.ones() {
        if left_new.contains(l) {
            p.pairs.push((l as Lid, l as Lid));
        } else {
            let port_guid = guid_of.get(&(0, l as Lid)).copied();
            p.removed.push(LidRef {
                lid: l as Lid,
                port_guid,
            });
        }
    }
    for l in left_new.ones().filter(|&l| !left_old.contains(l)) {
        let port_guid = guid_of.get(&(1, l as Lid)).copied();
        p.added.push(LidRef {
            lid: l as Lid,
            port_guid,
        });
    }
}
