//! The CDG census (`cdg::census`) counted from the fast path's turn masks
//! (`walk/fast.rs`: per VL, per switch out port, the in ports turning into
//! it) instead of from turn bitsets.
//!
//! Why: moving the masks into bitsets (`Acc::flush_fast`, one insert per
//! turn) and decoding every bit back into a (switch, in port, out port)
//! triple for the census were the serial tail of the stage, about 28 ms
//! of the 27,648-host RLFT's 185 ms on 2 cores. Counted per mask, a
//! switch costs a popcount per out port and one walk over the in ports
//! it uses. The figures are the census's (`cdg_census_tests`).

use fixedbitset::FixedBitSet;

use super::topo::{Link, Topo};
use super::updown;

/// Per VL, per flat switch port `o`: the in ports with a turn into `o`
/// (that VL in and out), as the fast path gathers them.
pub(crate) type TurnMasks = Vec<(u8, Vec<u64>)>;

/// Adds the turns of `sets` (the exact pass's) to `masks`; `false`, with
/// `masks` untouched, when a turn changes VL or a switch has more than
/// 64 ports (the masks cannot hold it).
pub(crate) fn add_turn_sets(
    topo: &Topo,
    sets: &[((u8, u8), FixedBitSet)],
    masks: &mut TurnMasks,
) -> bool {
    if sets.iter().any(|((vin, vout), _)| vin != vout)
        || (0..topo.num_switches()).any(|s| topo.num_ports(s) > 64)
    {
        return false;
    }
    for ((vin, _), bits) in sets {
        let i = match masks.iter().position(|(v, _)| v == vin) {
            Some(i) => i,
            None => {
                masks.push((*vin, vec![0; topo.link.len()]));
                masks.len() - 1
            }
        };
        let m = &mut masks[i].1;
        let mut s = 0usize;
        for bit in bits.ones() {
            while topo.tbase[s + 1] <= bit {
                s += 1;
            }
            let (off, n) = (bit - topo.tbase[s], topo.num_ports(s));
            m[topo.base[s] as usize + off % n] |= 1 << (off / n);
        }
    }
    true
}

/// Channels, edges and the VLs of the channels (a bit set) of the graph
/// the turns in `masks` make — what `cdg::census` counts on the same turns
/// as bitsets. An edge is a turn whose in port leads to another switch;
/// its channels are the peer's port into the in port, and the out port.
pub(crate) fn census_masks(topo: &Topo, masks: &TurnMasks) -> (usize, usize, u16) {
    let key = |flat: usize, vl: u8| flat << 4 | usize::from(vl & 15);
    let mut used = FixedBitSet::with_capacity(topo.link.len() << 4);
    let (mut edges, mut vls) = (0usize, 0u16);
    for (vl, m) in masks {
        for s in 0..topo.num_switches() {
            let b = topo.base[s] as usize;
            let ports = &topo.link[b..b + topo.num_ports(s)];
            let from_switch = ports.iter().enumerate().fold(0u64, |a, (q, l)| match l {
                Link::Switch(..) => a | 1 << q,
                _ => a,
            });
            let mut ins = 0u64;
            for (o, &x) in m[b..b + ports.len()].iter().enumerate() {
                let x = x & from_switch;
                if x != 0 {
                    edges += x.count_ones() as usize;
                    used.insert(key(b + o, *vl));
                    ins |= x;
                }
            }
            if ins != 0 {
                vls |= 1 << (vl & 15);
            }
            while ins != 0 {
                let q = ins.trailing_zeros() as usize;
                ins &= ins - 1;
                if let Link::Switch(p, pq) = ports[q] {
                    used.insert(key(topo.base[p as usize] as usize + usize::from(pq), *vl));
                }
            }
        }
    }
    (used.count_ones(..), edges, vls)
}

/// The VLs of `masks` (a bit set) with a turn that goes down then up by
/// `ranks` (and `guids`, [`updown::is_up`]'s tie-break), every VL when a
/// switch has more than 64 ports: per switch, the out ports whose link
/// goes up against the in ports whose link came down — one AND per out
/// port instead of [`updown::is_violation`] per turn. With
/// [`updown::orients_every_link`] on the same ranks this proves the graph
/// of each other VL acyclic (Autonet §6.6.1; no turn changes VL where the
/// masks apply), whatever the ranks' origin: the verifier's own ranking
/// of a fabric routed without ranks (min-hop), or VL 0 of Dmodc's tables
/// whose escape routes take the other VLs.
pub(crate) fn down_up_vls(topo: &Topo, masks: &TurnMasks, ranks: &[u32], guids: &[u64]) -> u16 {
    let r = |s: usize| ranks.get(s).copied().unwrap_or(u32::MAX);
    let mut bad = 0u16;
    for s in 0..topo.num_switches() {
        let b = topo.base[s] as usize;
        let ports = &topo.link[b..b + topo.num_ports(s)];
        if ports.len() > 64 {
            return u16::MAX;
        }
        let (mut up_out, mut down_in) = (0u64, 0u64);
        for (p, l) in ports.iter().enumerate() {
            if let Link::Switch(m, _) = *l {
                let m = m as usize;
                if updown::is_up(r(s), guids[s], r(m), guids[m]) {
                    up_out |= 1 << p;
                }
                if !updown::is_up(r(m), guids[m], r(s), guids[s]) {
                    down_in |= 1 << p;
                }
            }
        }
        for (vl, m) in masks {
            if bad & 1 << (vl & 15) != 0 {
                continue;
            }
            let mut o = up_out;
            while o != 0 {
                let p = o.trailing_zeros() as usize;
                o &= o - 1;
                if m[b + p] & down_in != 0 {
                    bad |= 1 << (vl & 15);
                    break;
                }
            }
        }
    }
    bad
}
