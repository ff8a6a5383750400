//! k-ary n-cubes: tori (with wrap-around links) and meshes (without), H
//! hosts per switch (`formats/torus.md`). Switch `i` sits at coordinates
//! `(c_0, .., c_{n-1})`, `i = c_0 + k_0·(c_1 + k_1·(..))`; its ports
//! `2d+1` and `2d+2` lead to its − and + neighbours in dimension `d`, its
//! hosts hang off ports `2n+1 ..`.

use super::net::{Net, check_lids};
use crate::model::Fabric;

/// First switch GUID and first host GUID.
pub const SWITCH_GUID_BASE: u64 = 0x0002_c903_0000_0000;
pub const HOST_GUID_BASE: u64 = 0x0002_c904_0000_0000;

/// A torus or mesh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TorusSpec {
    /// Switches per dimension.
    pub dims: Vec<u32>,
    /// Wrap-around links (torus) or not (mesh).
    pub wrap: bool,
    /// Hosts per switch.
    pub hosts: u32,
}

impl TorusSpec {
    pub fn num_switches(&self) -> u64 {
        self.dims.iter().map(|&k| k as u64).product()
    }

    fn validate(&self) -> Result<(), String> {
        if self.dims.is_empty() || self.dims.contains(&0) {
            return Err("--dims needs sizes of at least 1".into());
        }
        let ports = 2 * self.dims.len() as u64 + self.hosts as u64;
        if ports > 254 {
            return Err(format!("a switch would need {ports} ports (at most 254)"));
        }
        check_lids(
            "gen torus",
            self.num_switches(),
            self.num_switches() * self.hosts as u64,
        )
    }
}

/// Coordinates of switch `i`.
pub fn coords(dims: &[u32], mut i: u64) -> Vec<u32> {
    dims.iter()
        .map(|&k| {
            let c = (i % k as u64) as u32;
            i /= k as u64;
            c
        })
        .collect()
}

fn index(dims: &[u32], c: &[u32]) -> u64 {
    dims.iter()
        .zip(c)
        .rev()
        .fold(0, |v, (&k, &x)| v * k as u64 + x as u64)
}

/// Builds the torus or mesh. In a dimension of size 2 with wrap-around the
/// − and + neighbours are the same switch: two parallel cables join them.
/// A dimension of size 1 has no cables.
pub fn torus(spec: &TorusSpec) -> Result<Fabric, String> {
    spec.validate()?;
    let n = spec.dims.len() as u32;
    let mut net = Net::default();
    let ports = 2 * n + spec.hosts;
    let switches: Vec<_> = (0..spec.num_switches())
        .map(|i| {
            let c: Vec<String> = coords(&spec.dims, i).iter().map(u32::to_string).collect();
            net.switch(SWITCH_GUID_BASE + i, ports, format!("S{}", c.join("_")))
        })
        .collect::<Result<_, _>>()?;
    for (i, &sw) in switches.iter().enumerate() {
        let c = coords(&spec.dims, i as u64);
        for (d, &k) in spec.dims.iter().enumerate() {
            // each switch cables its + port to the + neighbour's − port
            let last = c[d] + 1 == k;
            if k == 1 || (last && !spec.wrap) {
                continue;
            }
            let mut nc = c.clone();
            nc[d] = (c[d] + 1) % k;
            let next = switches[index(&spec.dims, &nc) as usize];
            net.cable(sw, 2 * d as u32 + 2, next, 2 * d as u32 + 1)?;
        }
        for h in 0..spec.hosts {
            let g = HOST_GUID_BASE + ((i as u64 * spec.hosts as u64 + h as u64) << 8);
            let c: Vec<String> = c.iter().map(u32::to_string).collect();
            let host = net.host(g, format!("H{}_{h}", c.join("_")))?;
            net.cable(host, 1, sw, 2 * n + 1 + h)?;
        }
    }
    net.finish()
}
