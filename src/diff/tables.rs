//! The table comparison itself: switches matched by GUID, each matched
//! switch's entries compared along the destination pairing (only the
//! blocks whose bytes differ, when LIDs pair in place), blocks counted in
//! the new LID space.

use fixedbitset::FixedBitSet;
use rayon::prelude::*;

use super::destinations::{Pairs, pair_destinations};
use super::{DIFF_SCHEMA_VERSION, EntryChange, SwitchDiff, SwitchRef, TableDiff};
use crate::model::{Guid, LFT_BLOCK, Lid, NO_ROUTE, TableSet};

/// Compares `old` with `new`; with `detail`, every changed entry is listed.
pub fn diff_tables(old: &TableSet, new: &TableSet, detail: bool) -> TableDiff {
    let pairs = pair_destinations(old, new);
    let (matched, added, removed) = match_switches(old, new);
    let slot = pair_slots(&pairs);
    let results: Vec<(SwitchDiff, FixedBitSet)> = matched
        .par_iter()
        .filter_map(|&(oi, ni)| diff_switch(old, new, oi, ni, &pairs, &slot, detail))
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
    let refs = |t: &TableSet, ix: &[usize]| {
        let mut v: Vec<SwitchRef> = ix.iter().map(|&i| switch_ref(t, i)).collect();
        v.sort_unstable_by_key(|s| s.guid);
        v
    };
    let vl = super::vl::diff_vl(old, new, &matched, &pairs);
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
        switches_added: refs(new, &added),
        switches_removed: refs(old, &removed),
        lids_added: pairs.added,
        lids_removed: pairs.removed,
        lids_renumbered: pairs.renumbered,
        vl,
        switches,
        mft: None,
        plan: None,
    }
}

/// Switches of both sides by GUID: `(old, new)` index pairs, then the new
/// switches added and the old ones removed.
type Matched = (Vec<(usize, usize)>, Vec<usize>, Vec<usize>);

fn match_switches(old: &TableSet, new: &TableSet) -> Matched {
    let by_guid = |t: &TableSet| {
        let mut v: Vec<(Guid, usize)> = t
            .switches
            .iter()
            .enumerate()
            .map(|(i, s)| (s.guid, i))
            .collect();
        v.sort_unstable();
        v
    };
    let (o_ix, n_ix) = (by_guid(old), by_guid(new));
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
    (matched, added, removed)
}

/// New LID → index of its pair (`u32::MAX`: unpaired).
fn pair_slots(pairs: &Pairs) -> Vec<u32> {
    let len = pairs
        .pairs
        .iter()
        .map(|p| p.1 as usize + 1)
        .max()
        .unwrap_or(0);
    let mut v = vec![u32::MAX; len];
    for (k, &(_, n)) in pairs.pairs.iter().enumerate() {
        v[n as usize] = k as u32;
    }
    v
}

/// One matched switch: its changed entries and blocks, and which
/// destinations (pair indices) changed on it; `None` when nothing did.
fn diff_switch(
    old: &TableSet,
    new: &TableSet,
    oi: usize,
    ni: usize,
    pairs: &Pairs,
    slot: &[u32],
    detail: bool,
) -> Option<(SwitchDiff, FixedBitSet)> {
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
    if pairs.identity && orow != nrow {
        // Only blocks whose bytes differ can hold a changed entry.
        let nb = orow.len().max(nrow.len()) / LFT_BLOCK;
        let empty = [NO_ROUTE; LFT_BLOCK];
        for blk in 0..nb {
            if block_of(orow, blk).unwrap_or(&empty) == block_of(nrow, blk).unwrap_or(&empty) {
                continue;
            }
            for l in blk * LFT_BLOCK..(blk + 1) * LFT_BLOCK {
                if let Some(&k) = slot.get(l).filter(|&&k| k != u32::MAX) {
                    visit(k as usize, l as Lid, l as Lid);
                }
            }
        }
    } else if !pairs.identity {
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
