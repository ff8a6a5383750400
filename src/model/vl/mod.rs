//! Virtual lanes: the SL of every path and the SL-to-VL tables that turn it
//! into the VL of every hop (IBA SLtoVLMappingTable; algorithms.md §3.1).
//!
//! InfiniBand fixes a path's SL at the source (the SA hands it out in path
//! records) and maps it, hop by hop, to a VL with the table of the switch
//! the packet crosses, indexed by (in port, out port, SL). A [`VlPlan`] is
//! what an engine promises on top of its LFTs: the SL of each (source
//! switch, destination LID) pair — every CA on a switch shares the switch's
//! path onwards, so per source switch is enough — and the tables.

use super::{Lfts, Lid};

mod path_sl;
pub use path_sl::PathSl;

/// Number of service levels.
pub const NUM_SL: usize = 16;

/// The VL value that means "drop" in an SL2VL table.
pub const VL_DROP: u8 = 15;

/// SL `i` on VL `i`.
pub const IDENTITY: [u8; NUM_SL] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// SL2VL tables for every switch, and the table of end ports. A switch with
/// no table maps SL to VL unchanged, which is also what OpenSM programs by
/// default for one VL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sl2Vl {
    /// Per switch (by `SwIdx`): `None` = identity; `Some((ports + 1), table)`
    /// where `table[(in * (ports + 1) + out) * 16 + sl]` is the VL.
    tables: Vec<Option<(usize, Box<[u8]>)>>,
    /// The table every end port (CA, router) sends with: `None` = identity.
    end_port: Option<[u8; NUM_SL]>,
    /// The table of every switch without one of its own, the same for all
    /// its port pairs: `None` = identity.
    default: Option<[u8; NUM_SL]>,
}

impl Sl2Vl {
    /// Identity mapping everywhere.
    pub fn identity() -> Self {
        Sl2Vl::default()
    }

    /// Whether every switch and end port maps SL to VL unchanged.
    pub fn is_identity(&self) -> bool {
        self.port_map().is_some_and(|m| m == IDENTITY) && self.end_port.is_none()
    }

    /// Tables that map SL to VL the same on every switch port pair
    /// (OpenSM's QoS default `0,1,..,7,0,1,..,7`, say): the map, for checks
    /// that then need not look at ports. `None` when some switch has a
    /// table of its own.
    pub fn port_map(&self) -> Option<[u8; NUM_SL]> {
        self.tables
            .iter()
            .all(Option::is_none)
            .then(|| self.default.unwrap_or(IDENTITY))
    }

    /// Sets the table of every switch without one of its own.
    pub fn set_default(&mut self, vl_of_sl: [u8; NUM_SL]) {
        self.default = Some(vl_of_sl.map(|v| v & 0x0F));
    }

    /// The table of switches without one of their own, `None` = identity.
    pub fn default_table(&self) -> Option<[u8; NUM_SL]> {
        self.default
    }

    /// Sets the table of switch `sw` (with `num_ports` ports, port 0
    /// included in the index) to `f(in, out, sl)`; VLs are taken mod 16.
    pub fn set_switch(&mut self, sw: usize, num_ports: u8, f: impl Fn(u8, u8, u8) -> u8) {
        if self.tables.len() <= sw {
            self.tables.resize(sw + 1, None);
        }
        let n = num_ports as usize + 1;
        let mut t = vec![0u8; n * n * NUM_SL].into_boxed_slice();
        for i in 0..n {
            for o in 0..n {
                for sl in 0..NUM_SL {
                    t[(i * n + o) * NUM_SL + sl] = f(i as u8, o as u8, sl as u8) & 0x0F;
                }
            }
        }
        self.tables[sw] = Some((n, t));
    }

    /// Sets the table end ports send with.
    pub fn set_end_port(&mut self, vl_of_sl: [u8; NUM_SL]) {
        self.end_port = Some(vl_of_sl.map(|v| v & 0x0F));
    }

    /// The VL a packet on `sl` takes leaving switch `sw` by `out` after
    /// arriving on `inp`. Ports beyond the table map identically.
    pub fn vl(&self, sw: usize, inp: u8, out: u8, sl: u8) -> u8 {
        match self.tables.get(sw) {
            Some(Some((n, t))) if (inp as usize) < *n && (out as usize) < *n => {
                t[(inp as usize * n + out as usize) * NUM_SL + (sl as usize & 15)]
            }
            _ => self.default.map_or(sl & 15, |t| t[sl as usize & 15]),
        }
    }

    /// The VL an end port sends `sl` on (the first hop of a path).
    pub fn end_port_vl(&self, sl: u8) -> u8 {
        self.end_port.map_or(sl & 15, |t| t[sl as usize & 15])
    }

    /// Switch `sw`'s own table: `(ports + 1, table)` laid out as in
    /// [`Sl2Vl::set_switch`], `None` for the identity.
    pub fn switch_table(&self, sw: usize) -> Option<(usize, &[u8])> {
        match self.tables.get(sw) {
            Some(Some((n, t))) => Some((*n, t)),
            _ => None,
        }
    }

    /// Sets switch `sw`'s table from its bytes (`dim² × 16`, `dim` = ports
    /// + 1), as a reader found them; VLs are taken mod 16.
    pub fn set_switch_table(&mut self, sw: usize, dim: usize, table: &[u8]) {
        if self.tables.len() <= sw {
            self.tables.resize(sw + 1, None);
        }
        let t: Box<[u8]> = table.iter().map(|v| v & 0x0F).collect();
        self.tables[sw] = Some((dim, t));
    }

    /// The end ports' table, `None` for the identity.
    pub fn end_port_table(&self) -> Option<[u8; NUM_SL]> {
        self.end_port
    }
}

/// What an engine says about virtual lanes: the path SLs, the SL2VL
/// tables, and how many data VLs the plan needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VlPlan {
    pub path_sl: PathSl,
    pub sl2vl: Sl2Vl,
    /// Data VLs the plan uses (VL 0 .. vls − 1).
    pub vls: u8,
}

impl VlPlan {
    /// Whether the plan puts every hop of every path on VL 0: SL 0
    /// everywhere, mapped to VL 0 by every table. Checking such a plan is
    /// checking one VL, and the verifier then takes its one-VL pass.
    pub fn is_single_lane(&self) -> bool {
        self.sl2vl.port_map().is_some_and(|m| m[0] == 0)
            && self.sl2vl.end_port_vl(0) == 0
            && self.path_sl.all_zero()
    }

    /// The plan of a one-VL routing: every path on SL 0, identity tables.
    pub fn single(lfts: &Lfts) -> Self {
        VlPlan {
            path_sl: PathSl::zeros(lfts),
            sl2vl: Sl2Vl::identity(),
            vls: 1,
        }
    }

    /// A plan whose SL `i` runs on VL `i` for the first `vls` SLs, and the
    /// SLs above on `i mod vls`, everywhere (end ports included): layering's
    /// tables, the shape of OpenSM's default QoS map, and no VL beyond
    /// `vls` for any SL.
    pub fn layered(path_sl: PathSl, vls: u8) -> Self {
        let v = vls.clamp(1, 15);
        Self::uniform(path_sl, std::array::from_fn(|sl| sl as u8 % v), vls)
    }

    /// A plan whose SL `i` runs on VL `map[i]` at every switch port and end
    /// port (an SL2VL that ignores ports).
    pub fn uniform(path_sl: PathSl, map: [u8; NUM_SL], vls: u8) -> Self {
        let mut sl2vl = Sl2Vl::identity();
        sl2vl.set_default(map);
        sl2vl.set_end_port(map);
        VlPlan {
            path_sl,
            sl2vl,
            vls,
        }
    }

    /// The SL of the path from switch `sw` toward `lid`.
    pub fn sl(&self, sw: usize, lid: Lid) -> u8 {
        self.path_sl.get(sw, lid)
    }
}

#[cfg(test)]
mod tests;
