//! Dmodc with LMC > 0: one tree per LID offset (issue 14; `formats/dmodc.md`
//! §10). Offset `k` of destination `d` is routed at switch `s` as Dmodk
//! routes node `d + k·Π_s` (formulas (3)–(4), seed
//! `dmodc-fault-resiliency-in-fat-trees.txt` §3.4): ⌊d/Π_s⌋ advances by `k`,
//! so the offsets walk the alternative ports P_{s,d} like an odometer —
//! first to the next candidate group (another upper switch), then, once
//! every group had one, to the next port of each group (parallel cables).
//! Every offset keeps the candidate set C_{s,t} of the base LID, so each
//! offset's tree is up*/down* (or an escape hop) exactly as the base's, and
//! for a fixed `k` the shift is one constant per switch, so the offset's
//! tree is as balanced as the base tree.

use super::dests::Dest;
use super::groups::{Group, Ranked};

/// Overwrites the LIDs past the base of every destination in `dests` (the
/// base port was set for the whole range): offset `k` takes the port
/// formulas (3)–(4) give node `d + k·pi`, candidates `cand` (indices into
/// `groups`, in group order).
pub fn spread(r: &Ranked, groups: &[Group], cand: &[u8], pi: u32, dests: &[Dest], row: &mut [u8]) {
    if cand.is_empty() {
        return;
    }
    for d in dests.iter().filter(|d| d.nlids > 1) {
        for k in 1..d.nlids {
            let Some(slot) = row.get_mut(d.lid as usize + k as usize) else {
                break;
            };
            *slot = port_for(
                r,
                groups,
                cand,
                pi,
                u64::from(d.d) + u64::from(k) * u64::from(pi),
            );
        }
    }
}

/// Formulas (3)–(4) for node index `d`: group `⌊d/Π⌋ mod #C` of the
/// candidates, port `⌊d/(Π·#C)⌋ mod |g|` of that group.
fn port_for(r: &Ranked, groups: &[Group], cand: &[u8], pi: u32, d: u64) -> u8 {
    let q = d / u64::from(pi.max(1));
    let c = cand.len() as u64;
    let g = &groups[cand[(q % c) as usize] as usize];
    let j = (q / c) % u64::from(g.len.max(1));
    r.ports[(u64::from(g.start) + j) as usize]
}
