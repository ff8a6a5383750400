//! Comparisons of two runs: forwarding tables (what a re-route will
//! upload), MFTs ([`mft`]) and topologies ([`cabling`], the cabling check
//! of `check --expect`).
//!
//! Switches are matched by node GUID. Destinations are matched by port GUID
//! when both sides tell LID → port GUID (so a LID renumbering shows as
//! renumbered LIDs, not as every entry changed), by LID otherwise.
//! Uploads are counted in the new LID space: a 64-entry block of the new
//! table whose bytes differ from the old is one LinearForwardingTable SMP.
//! `formats/diff-json.md` documents the JSON.

pub mod cabling;
pub mod mft;

use std::collections::BTreeMap;

use fixedbitset::FixedBitSet;
use rayon::prelude::*;
use serde::Serialize;

use crate::model::{Guid, LFT_BLOCK, Lid, NO_ROUTE, TableSet};

/// Version of the JSON below (`formats/diff-json.md`).
pub const DIFF_SCHEMA_VERSION: u32 = 1;

/// GUIDs print as OpenSM prints them (`0x%016x`), not as JSON integers
/// (which lose precision above 2^53 in most JSON readers).
fn guid_hex<S: serde::Serializer>(g: &Guid, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(g)
}

fn opt_guid_hex<S: serde::Serializer>(g: &Option<Guid>, s: S) -> Result<S::Ok, S::Error> {
    match g {
        Some(g) => s.collect_str(g),
        None => s.serialize_none(),
    }
}

/// A switch named in a diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchRef {
    #[serde(serialize_with = "guid_hex")]
    pub guid: Guid,
    pub lid: Lid,
    pub desc: Option<String>,
}

/// A destination that exists on one side only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LidRef {
    pub lid: Lid,
    #[serde(serialize_with = "opt_guid_hex")]
    pub port_guid: Option<Guid>,
}

/// A port whose LID changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Renumbered {
    #[serde(serialize_with = "guid_hex")]
    pub port_guid: Guid,
    pub old_lid: Lid,
    pub new_lid: Lid,
}

/// One changed entry of one switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryChange {
    /// LID in the new tables (in the old ones when renumbered: `old_lid`).
    pub lid: Lid,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_lid: Option<Lid>,
    /// Old and new output port (255 = no route).
    pub old_port: u8,
    pub new_port: u8,
}

/// What changed on one switch present on both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchDiff {
    #[serde(flatten)]
    pub switch: SwitchRef,
    pub entries_changed: u64,
    pub blocks_changed: u64,
    /// Indices of the blocks to upload (block `b` holds LIDs `64b..64b+63`).
    pub blocks: Vec<u32>,
    /// Every changed entry (only with detail).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<EntryChange>,
}

/// The result of comparing two table sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableDiff {
    pub schema_version: u32,
    /// `port-guid` or `lid`.
    pub destinations_matched_by: &'static str,
    pub switches_old: usize,
    pub switches_new: usize,
    pub switches_changed: usize,
    pub entries_changed: u64,
    pub blocks_changed: u64,
    /// `blocks_changed` plus every block of the new switches: SMPs to send.
    pub blocks_to_upload: u64,
    pub destinations_changed: usize,
    pub switches_added: Vec<SwitchRef>,
    pub switches_removed: Vec<SwitchRef>,
    pub lids_added: Vec<LidRef>,
    pub lids_removed: Vec<LidRef>,
    pub lids_renumbered: Vec<Renumbered>,
    /// Changed switches, by GUID.
    pub switches: Vec<SwitchDiff>,
    /// MFT changes, when both sides have `opensm.mcfdbs` (fields flattened).
    #[serde(flatten)]
    pub mft: Option<mft::MftDiff>,
}

impl TableDiff {
    /// Whether anything differs.
    pub fn is_empty(&self) -> bool {
        self.switches_changed == 0
            && self.switches_added.is_empty()
            && self.switches_removed.is_empty()
            && self.lids_added.is_empty()
            && self.lids_removed.is_empty()
            && self.lids_renumbered.is_empty()
            && self.mft.as_ref().is_none_or(mft::MftDiff::is_empty)
    }
}

/// Destination pairing between the two sides.
struct Pairs {
    /// `(old LID, new LID)` of every destination present on both sides.
    pairs: Vec<(Lid, Lid)>,
    /// Every pair has `old == new`: entries compare in place.
    identity: bool,
    by_guid: bool,
    added: Vec<LidRef>,
    removed: Vec<LidRef>,
    renumbered: Vec<Renumbered>,
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

fn pair_destinations(old: &TableSet, new: &TableSet) -> Pairs {
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
    let mut guid_lids: BTreeMap<Guid, (Vec<Lid>, Vec<Lid>)> = BTreeMap::new();
    let mut plain = |side: usize, lid: usize, t: &TableSet| -> bool {
        match t.lid_guid(lid as Lid).filter(|_| by_guid) {
            Some(g) => {
                let e = guid_lids.entry(g).or_default();
                if side == 0 {
                    e.0.push(lid as Lid)
                } else {
                    e.1.push(lid as Lid)
                }
                false
            }
            None => true,
        }
    };
    let old_plain: Vec<Lid> = po
        .ones()
        .filter(|&l| plain(0, l, old))
        .map(|l| l as Lid)
        .collect();
    let new_plain: Vec<Lid> = pn
        .ones()
        .filter(|&l| plain(1, l, new))
        .map(|l| l as Lid)
        .collect();
    let cap = po.len().max(pn.len());
    let mut left_old: FixedBitSet = old_plain.iter().map(|&l| l as usize).collect();
    let mut left_new: FixedBitSet = new_plain.iter().map(|&l| l as usize).collect();
    left_old.grow(cap);
    left_new.grow(cap);
    let mut guid_of = BTreeMap::new();
    for (g, (ol, nl)) in &guid_lids {
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
    // What no GUID pairs (unnamed LIDs, or a GUID on one side only) pairs by LID value.
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
    p.pairs.sort_unstable_by_key(|&(o, n)| (n, o));
    p.added.sort_unstable_by_key(|r| r.lid);
    p.removed.sort_unstable_by_key(|r| r.lid);
    p.renumbered.sort_unstable_by_key(|r| r.new_lid);
    p
}

fn switch_ref(t: &TableSet, i: usize) -> SwitchRef {
    let s = &t.switches[i];
    SwitchRef {
        guid: s.guid,
        lid: s.lid,
        desc: s.desc.clone(),
    }
}

fn block_of(row: &[u8], b: usize) -> Option<&[u8]> {
    row.get(b * LFT_BLOCK..(b + 1) * LFT_BLOCK)
}

/// Blocks of `new` (up to its LinearFDBTop) that differ from `old`.
fn changed_blocks(old: &[u8], new: &[u8], new_top: Lid) -> Vec<u32> {
    let n = (new_top as usize / LFT_BLOCK + 1) * LFT_BLOCK;
    if new.len() >= n && old.len() >= n && old[..n] == new[..n] {
        return Vec::new();
    }
    let empty = [NO_ROUTE; LFT_BLOCK];
    (0..=new_top as usize / LFT_BLOCK)
        .filter(|&b| block_of(new, b).unwrap_or(&empty) != block_of(old, b).unwrap_or(&empty))
        .map(|b| b as u32)
        .collect()
}

/// Compares `old` with `new`; with `detail`, every changed entry is listed.
pub fn diff_tables(old: &TableSet, new: &TableSet, detail: bool) -> TableDiff {
    let pairs = pair_destinations(old, new);
    let mut o_ix: Vec<(Guid, usize)> = old
        .switches
        .iter()
        .enumerate()
        .map(|(i, s)| (s.guid, i))
        .collect();
    let mut n_ix: Vec<(Guid, usize)> = new
        .switches
        .iter()
        .enumerate()
        .map(|(i, s)| (s.guid, i))
        .collect();
    o_ix.sort_unstable();
    n_ix.sort_unstable();
    let (mut matched, mut added, mut removed) = (Vec::new(), Vec::new(), Vec::new());
    let (mut a, mut b) = (0, 0);
    while a < o_ix.len() || b < n_ix.len() {
        match (o_ix.get(a), n_ix.get(b)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                matched.push((x.1, y.1));
                a += 1;
                b += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                removed.push(x.1);
                a += 1;
            }
            (Some(x), None) => {
                removed.push(x.1);
                a += 1;
            }
            (_, Some(y)) => {
                added.push(y.1);
                b += 1;
            }
            (None, None) => break,
        }
    }
    let pair_slot: Vec<u32> = {
        let mut v = vec![
            u32::MAX;
            pairs
                .pairs
                .iter()
                .map(|p| p.1 as usize + 1)
                .max()
                .unwrap_or(0)
        ];
        for (k, &(_, n)) in pairs.pairs.iter().enumerate() {
            v[n as usize] = k as u32;
        }
        v
    };
    let results: Vec<(SwitchDiff, FixedBitSet)> = matched
        .par_iter()
        .filter_map(|&(oi, ni)| {
            let (orow, nrow) = (old.lft(oi), new.lft(ni));
            let blocks = changed_blocks(orow, nrow, new.switches[ni].top);
            let mut touched = FixedBitSet::with_capacity(pairs.pairs.len());
            let mut changes = Vec::new();
            let mut count = 0u64;
            let get = |row: &[u8], l: Lid| row.get(l as usize).copied().unwrap_or(NO_ROUTE);
            let mut visit = |k: usize, o: Lid, n: Lid| {
                let (op, np) = (get(orow, o), get(nrow, n));
                if op != np {
                    count += 1;
                    touched.insert(k);
                    if detail {
                        changes.push(EntryChange {
                            lid: n,
                            old_lid: (o != n).then_some(o),
                            old_port: op,
                            new_port: np,
                        });
                    }
                }
            };
            if pairs.identity && orow == nrow {
                // Nothing to look at.
            } else if pairs.identity {
                // Only blocks whose bytes differ can hold a changed entry.
                let nb = orow.len().max(nrow.len()) / LFT_BLOCK;
                let empty = [NO_ROUTE; LFT_BLOCK];
                for blk in 0..nb {
                    if block_of(orow, blk).unwrap_or(&empty)
                        == block_of(nrow, blk).unwrap_or(&empty)
                    {
                        continue;
                    }
                    for l in blk * LFT_BLOCK..(blk + 1) * LFT_BLOCK {
                        if let Some(&k) = pair_slot.get(l).filter(|&&k| k != u32::MAX) {
                            visit(k as usize, l as Lid, l as Lid);
                        }
                    }
                }
            } else {
                for (k, &(o, n)) in pairs.pairs.iter().enumerate() {
                    visit(k, o, n);
                }
            }
            (count > 0 || !blocks.is_empty()).then(|| {
                let sd = SwitchDiff {
                    switch: switch_ref(new, ni),
                    entries_changed: count,
                    blocks_changed: blocks.len() as u64,
                    blocks,
                    changes,
                };
                (sd, touched)
            })
        })
        .collect();
    let mut dest = FixedBitSet::with_capacity(pairs.pairs.len());
    let mut switches = Vec::with_capacity(results.len());
    for (sd, t) in results {
        dest.union_with(&t);
        switches.push(sd);
    }
    switches.sort_unstable_by_key(|s| s.switch.guid);
    let blocks_changed: u64 = switches.iter().map(|s| s.blocks_changed).sum();
    let new_blocks: u64 = added
        .iter()
        .map(|&i| new.switches[i].top as u64 / LFT_BLOCK as u64 + 1)
        .sum();
    let mut switches_added: Vec<SwitchRef> = added.iter().map(|&i| switch_ref(new, i)).collect();
    let mut switches_removed: Vec<SwitchRef> =
        removed.iter().map(|&i| switch_ref(old, i)).collect();
    switches_added.sort_unstable_by_key(|s| s.guid);
    switches_removed.sort_unstable_by_key(|s| s.guid);
    TableDiff {
        schema_version: DIFF_SCHEMA_VERSION,
        destinations_matched_by: if pairs.by_guid { "port-guid" } else { "lid" },
        switches_old: old.switches.len(),
        switches_new: new.switches.len(),
        switches_changed: switches.len(),
        entries_changed: switches.iter().map(|s| s.entries_changed).sum(),
        blocks_changed,
        blocks_to_upload: blocks_changed + new_blocks,
        destinations_changed: dest.count_ones(..),
        switches_added,
        switches_removed,
        lids_added: pairs.added,
        lids_removed: pairs.removed,
        lids_renumbered: pairs.renumbered,
        switches,
        mft: None,
    }
}

/// The human summary `routec diff` prints.
pub fn summary(d: &TableDiff) -> String {
    let mut s = format!(
        "switches: {} old, {} new; {} changed, {} added, {} removed\n\
         LFT entries changed: {}\n\
         blocks to upload: {} (LinearForwardingTable SMPs; {} on changed switches)\n\
         destinations whose path changed: {} (matched by {})\n\
         LIDs: {} added, {} removed, {} renumbered\n",
        d.switches_old,
        d.switches_new,
        d.switches_changed,
        d.switches_added.len(),
        d.switches_removed.len(),
        d.entries_changed,
        d.blocks_to_upload,
        d.blocks_changed,
        d.destinations_changed,
        d.destinations_matched_by,
        d.lids_added.len(),
        d.lids_removed.len(),
        d.lids_renumbered.len(),
    );
    for sw in d.switches.iter().take(20) {
        s += &format!(
            "  {} lid {} {:?}: {} entries, {} blocks\n",
            sw.switch.guid,
            sw.switch.lid,
            sw.switch.desc.as_deref().unwrap_or(""),
            sw.entries_changed,
            sw.blocks_changed
        );
    }
    if d.switches.len() > 20 {
        s += &format!(
            "  ... and {} more switches (see --json)\n",
            d.switches.len() - 20
        );
    }
    for r in d.lids_renumbered.iter().take(20) {
        s += &format!(
            "  renumbered {}: LID {} -> {}\n",
            r.port_guid, r.old_lid, r.new_lid
        );
    }
    if let Some(m) = &d.mft {
        s += &mft::summary(m);
    }
    s
}
