//! MFT changes between two `opensm.mcfdbs` files: what a re-route uploads
//! as MulticastForwardingTable SMPs. One SMP carries a block of 32 MLIDs ×
//! one 16-port position of their port masks (IBA vol. 1 §14.2.5.12:
//! attribute modifier = block and position), so a change costs one upload
//! per (switch, block, position) whose bits differ (formats.md §10,
//! algorithms.md §6). A switch without rows has an empty MFT.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::model::Guid;
use crate::model::MftsByGuid;
use crate::model::{MLID_BASE, PortMask};

/// MLIDs per MFT block.
pub const MFT_BLOCK: u16 = 32;
/// Ports per port-mask position.
pub const MFT_POSITION_PORTS: u8 = 16;

/// One MulticastForwardingTable SMP to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct MftBlock {
    /// Block `b` holds MLIDs `0xC000 + 32b ..= 0xC000 + 32b + 31`.
    pub block: u16,
    /// Position `p` holds ports `16p ..= 16p + 15`.
    pub position: u8,
}

/// What changed in one switch's MFT.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MftSwitchDiff {
    #[serde(serialize_with = "super::guid_hex")]
    pub guid: Guid,
    /// MLIDs whose port mask differs (a missing entry is an empty mask).
    pub entries_changed: u64,
    pub blocks_changed: u64,
    pub blocks: Vec<MftBlock>,
}

/// The MFT part of a diff (flattened into the diff's JSON).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize)]
pub struct MftDiff {
    pub mft_switches_changed: usize,
    /// (switch, MLID) entries whose port mask differs.
    pub mft_entries_changed: u64,
    /// MulticastForwardingTable SMPs to send.
    pub mft_blocks_changed: u64,
    /// MLIDs on both sides whose mask differs on some switch.
    pub mlids_changed: usize,
    /// MLIDs with entries on one side only.
    pub mlids_added: Vec<u16>,
    pub mlids_removed: Vec<u16>,
    pub mft_switches: Vec<MftSwitchDiff>,
}

impl MftDiff {
    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.mft_switches_changed == 0
    }
}

/// The SMPs covering `mlid`'s ports that differ between `a` and `b`.
fn positions(mlid: u16, a: PortMask, b: PortMask, out: &mut BTreeSet<MftBlock>) {
    let block = (mlid - MLID_BASE) / MFT_BLOCK;
    for (w, (x, y)) in a.0.iter().zip(b.0.iter()).enumerate() {
        let diff = x ^ y;
        for q in 0..4u8 {
            if (diff >> (q * 16)) & 0xFFFF != 0 {
                out.insert(MftBlock {
                    block,
                    position: w as u8 * 4 + q,
                });
            }
        }
    }
}

/// Compares `old` with `new`, switch by switch (by GUID).
pub fn diff_mfts(old: &MftsByGuid, new: &MftsByGuid) -> MftDiff {
    let mlids = |m: &MftsByGuid| -> BTreeSet<u16> {
        m.values().flat_map(|r| r.iter().map(|e| e.0)).collect()
    };
    let (old_mlids, new_mlids) = (mlids(old), mlids(new));
    let guids: BTreeSet<Guid> = old.keys().chain(new.keys()).copied().collect();
    let mut changed_mlids = BTreeSet::new();
    let mut d = MftDiff::default();
    for g in guids {
        let rows = |m: &MftsByGuid| -> BTreeMap<u16, PortMask> {
            m.get(&g)
                .map(|r| r.iter().copied().collect())
                .unwrap_or_default()
        };
        let (o, n) = (rows(old), rows(new));
        let mut blocks = BTreeSet::new();
        let mut entries = 0;
        for mlid in o.keys().chain(n.keys()).copied().collect::<BTreeSet<_>>() {
            let get = |r: &BTreeMap<u16, PortMask>| r.get(&mlid).copied().unwrap_or_default();
            let (a, b) = (get(&o), get(&n));
            if a != b {
                entries += 1;
                changed_mlids.insert(mlid);
                positions(mlid, a, b, &mut blocks);
            }
        }
        if entries > 0 {
            d.mft_switches.push(MftSwitchDiff {
                guid: g,
                entries_changed: entries,
                blocks_changed: blocks.len() as u64,
                blocks: blocks.into_iter().collect(),
            });
        }
    }
    d.mft_switches_changed = d.mft_switches.len();
    d.mft_entries_changed = d.mft_switches.iter().map(|s| s.entries_changed).sum();
    d.mft_blocks_changed = d.mft_switches.iter().map(|s| s.blocks_changed).sum();
    d.mlids_changed = changed_mlids
        .iter()
        .filter(|m| old_mlids.contains(m) && new_mlids.contains(m))
        .count();
    d.mlids_added = new_mlids.difference(&old_mlids).copied().collect();
    d.mlids_removed = old_mlids.difference(&new_mlids).copied().collect();
    d
}

/// The text `routec diff` adds for MFTs.
pub fn summary(d: &MftDiff) -> String {
    let mut s = format!(
        "MFT switches changed: {}; entries changed: {}\n\
         MFT blocks to upload: {} (MulticastForwardingTable SMPs: 32 MLIDs x 16 ports)\n\
         MLIDs: {} changed, {} added, {} removed\n",
        d.mft_switches_changed,
        d.mft_entries_changed,
        d.mft_blocks_changed,
        d.mlids_changed,
        d.mlids_added.len(),
        d.mlids_removed.len(),
    );
    for sw in d.mft_switches.iter().take(20) {
        s += &format!(
            "  {}: {} MFT entries, {} blocks\n",
            sw.guid, sw.entries_changed, sw.blocks_changed
        );
    }
    if d.mft_switches.len() > 20 {
        s += &format!(
            "  ... and {} more switches (see --json)\n",
            d.mft_switches.len() - 20
        );
    }
    s
}
