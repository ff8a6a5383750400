//! Dragonflies (Kim, Dally, Scott, Abts, ISCA 2008): `g` groups of `a`
//! switches, all switches of a group cabled to each other, `p` hosts and
//! `h` global cables per switch (`formats/dragonfly.md`).
//!
//! Global cables follow the "palm tree" arrangement (Camarero, Vallejo,
//! Beivide, "Topological characterization of Hamming and dragonfly
//! networks and its implications on routing", ACM TACO 11(4), 2014): the
//! `t`-th global port of group `G` (switch `t / h`, its port `t mod h`)
//! leads to group `G + (t mod (g−1)) + 1 (mod g)`, whose port
//! `g − 2 − (t mod (g−1)) + (g−1)·⌊t / (g−1)⌋` answers. With the default
//! `g = a·h + 1` every pair of groups shares exactly one cable.

use super::net::{Net, check_lids};
use crate::model::Fabric;

pub const SWITCH_GUID_BASE: u64 = 0x0002_c909_0000_0000;
pub const HOST_GUID_BASE: u64 = 0x0002_c90a_0000_0000;

/// A dragonfly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DragonflySpec {
    /// Switches per group.
    pub a: u32,
    /// Hosts per switch.
    pub p: u32,
    /// Global cables per switch.
    pub h: u32,
    /// Groups (default `a·h + 1`).
    pub groups: Option<u32>,
}

impl DragonflySpec {
    pub fn groups(&self) -> u32 {
        self.groups.unwrap_or(self.a * self.h + 1)
    }

    fn validate(&self) -> Result<(), String> {
        let (a, h, g) = (self.a, self.h, self.groups());
        if a == 0 || g < 2 {
            return Err("a dragonfly needs --a >= 1 and at least 2 groups".into());
        }
        if h == 0 || (a * h) % (g - 1) != 0 {
            return Err(format!(
                "{g} groups: the a·h = {} global cables of a group must divide evenly among the \
                 {} other groups (g − 1 must divide a·h)",
                a * h,
                g - 1
            ));
        }
        let ports = (a - 1) + h + self.p;
        if ports > 254 {
            return Err(format!("a switch would need {ports} ports (at most 254)"));
        }
        let sw = a as u64 * g as u64;
        check_lids("gen dragonfly", sw, sw * self.p as u64)
    }
}

/// Builds the dragonfly. Switch `(G, s)` is index `G·a + s`; its ports
/// `1..a−1` lead to the other switches of its group in order, then `h`
/// global ports, then `p` host ports.
pub fn dragonfly(spec: &DragonflySpec) -> Result<Fabric, String> {
    spec.validate()?;
    let (a, h, p, g) = (spec.a, spec.h, spec.p, spec.groups());
    let mut net = Net::default();
    let ports = (a - 1) + h + p;
    let mut sw = Vec::new();
    for grp in 0..g {
        for s in 0..a {
            let i = (grp * a + s) as u64;
            sw.push(net.switch(SWITCH_GUID_BASE + i, ports, format!("G{grp}S{s}"))?);
        }
    }
    let at = |grp: u32, s: u32| sw[(grp * a + s) as usize];
    // local: port of switch s toward switch t (t != s) is 1 + t − (t > s)
    let local = |s: u32, t: u32| 1 + t - u32::from(t > s);
    for grp in 0..g {
        for s in 0..a {
            for t in s + 1..a {
                net.cable(at(grp, s), local(s, t), at(grp, t), local(t, s))?;
            }
        }
    }
    let span = g - 1;
    for grp in 0..g {
        for t in 0..a * h {
            let (off, copy) = (t % span, t / span);
            let other = (grp + off + 1) % g;
            let back = span - 1 - off + span * copy;
            if (other, back) < (grp, t) {
                continue;
            }
            let port = |t: u32| a + t % h;
            net.cable(at(grp, t / h), port(t), at(other, back / h), port(back))?;
        }
    }
    for i in 0..g * a {
        for k in 0..p {
            let hid = (i * p + k) as u64;
            let host = net.host(HOST_GUID_BASE + (hid << 8), format!("H{}_{k}", i))?;
            net.cable(host, 1, sw[i as usize], a + h + k)?;
        }
    }
    net.finish()
}
