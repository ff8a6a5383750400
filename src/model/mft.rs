//! Multicast forwarding tables: for each switch, the port mask of every
//! MLID it carries. The multicast engine (`crate::mcast`) fills them, the
//! `opensm.mcfdbs` reader and writer convert them, the verifier checks them. A colour `c` is MLID `0xC000 + c` (seed:mr4lms Def. 4).
//! Masks follow OpenSM's tree entries (`osm_mcast_mgr.c`, `mcast_mgr_branch`):
//! the port towards the parent, the ports to child switches, and the ports of
//! member end ports (port 0 when the switch itself is a member).

use std::collections::BTreeMap;

use super::{Guid, PortNum, SwIdx};

/// First multicast LID (`IB_LID_MCAST_START_HO`).
pub const MLID_BASE: u16 = 0xC000;

/// A set of ports 0..=255 of one switch.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct PortMask(pub [u64; 4]);

impl PortMask {
    /// Adds port `p`.
    pub fn set(&mut self, p: PortNum) {
        self.0[p as usize / 64] |= 1 << (p % 64);
    }

    /// Whether port `p` is in the set.
    pub fn has(&self, p: PortNum) -> bool {
        self.0[p as usize / 64] & (1 << (p % 64)) != 0
    }

    /// Ports in ascending order.
    pub fn ports(&self) -> impl Iterator<Item = PortNum> + '_ {
        (0..=255u8).filter(|&p| self.has(p))
    }

    /// Whether no port is set.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
}

/// The MFT of every switch: `(mlid, mask)` rows sorted by MLID.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Mfts {
    rows: Vec<Vec<(u16, PortMask)>>,
}

impl Mfts {
    /// Empty tables for `num_switches` switches.
    pub fn new(num_switches: usize) -> Self {
        Mfts {
            rows: vec![Vec::new(); num_switches],
        }
    }

    /// Tables from per-switch rows in any order (sorted here by MLID; an
    /// MLID given twice for one switch keeps the last mask).
    pub fn from_rows(mut rows: Vec<Vec<(u16, PortMask)>>) -> Self {
        for r in &mut rows {
            r.sort_by_key(|e| e.0);
            r.dedup_by(|later, earlier| {
                let same = later.0 == earlier.0;
                if same {
                    earlier.1 = later.1;
                }
                same
            });
        }
        Mfts { rows }
    }

    /// Sets the mask of `mlid` on switch `s`.
    pub fn insert(&mut self, s: SwIdx, mlid: u16, mask: PortMask) {
        let row = &mut self.rows[s.ix()];
        match row.binary_search_by_key(&mlid, |e| e.0) {
            Ok(i) => row[i].1 = mask,
            Err(i) => row.insert(i, (mlid, mask)),
        }
    }

    /// The rows of switch `s`, by MLID.
    pub fn rows(&self, s: SwIdx) -> &[(u16, PortMask)] {
        &self.rows[s.ix()]
    }

    /// The mask of `mlid` on switch `s`.
    pub fn get(&self, s: SwIdx, mlid: u16) -> Option<&PortMask> {
        let row = &self.rows[s.ix()];
        row.binary_search_by_key(&mlid, |e| e.0)
            .ok()
            .map(|i| &row[i].1)
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.rows.len()
    }

    /// Total entries, all switches.
    pub fn num_entries(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }
}

/// MFT rows by switch GUID, `(MLID, ports)` sorted by MLID: tables read
/// without a topology (`routec diff`).
pub type MftsByGuid = BTreeMap<Guid, Vec<(u16, PortMask)>>;
