//! SL-to-VL mapping tables: per switch, in port × out port × SL → VL
//! (IBA SLtoVLMappingTable; ibdmchk uses identity when none is given,
//! algorithms.md §3.1). Later engines (VL-layered ones) emit them.

/// Number of service levels.
pub const NUM_SL: usize = 16;

/// SL2VL tables for every switch. A switch with no table maps SL to VL
/// unchanged, which is also what OpenSM programs by default for one VL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sl2Vl {
    /// Per switch (by `SwIdx`): `None` = identity; `Some((ports + 1), table)`
    /// where `table[(in * (ports + 1) + out) * 16 + sl]` is the VL.
    tables: Vec<Option<(usize, Box<[u8]>)>>,
}

impl Sl2Vl {
    /// Identity mapping on every switch.
    pub fn identity() -> Self {
        Sl2Vl { tables: Vec::new() }
    }

    /// Whether every switch maps SL to VL unchanged.
    pub fn is_identity(&self) -> bool {
        self.tables.iter().all(Option::is_none)
    }

    /// Sets the table of switch `sw` (with `num_ports` ports, port 0
    /// included in the index) to `f(in, out, sl)`; VLs must be < 15.
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

    /// The VL a packet on `sl` takes leaving switch `sw` by `out` after
    /// arriving on `inp`. Ports beyond the table map identically.
    pub fn vl(&self, sw: usize, inp: u8, out: u8, sl: u8) -> u8 {
        match self.tables.get(sw) {
            Some(Some((n, t))) if (inp as usize) < *n && (out as usize) < *n => {
                t[(inp as usize * n + out as usize) * NUM_SL + (sl as usize & 15)]
            }
            _ => sl,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_and_tables() {
        let mut m = Sl2Vl::identity();
        assert!(m.is_identity());
        assert_eq!(m.vl(3, 1, 2, 5), 5);
        m.set_switch(1, 4, |i, o, sl| if i > o { sl + 1 } else { sl });
        assert!(!m.is_identity());
        assert_eq!(m.vl(1, 3, 2, 0), 1);
        assert_eq!(m.vl(1, 2, 3, 0), 0);
        assert_eq!(m.vl(0, 3, 2, 0), 0);
        assert_eq!(m.vl(1, 9, 2, 7), 7);
    }
}
