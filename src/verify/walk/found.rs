//! What the pass keeps of its problems: unreachable destinations, routing
//! loops and over-long routes, the first few of each in a deterministic
//! order whatever the thread count.

use std::collections::BTreeSet;

use crate::model::{Lid, NodeIdx, PortNum};

/// Why a route stops before its destination.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum DeadKind {
    /// The entry is 0xFF (no route).
    NoRoute,
    /// The entry names a port the switch does not have.
    BadPort,
    /// The entry is port 0 on a switch that does not own the LID.
    Port0,
    /// The entry's port has no cable.
    NotCabled,
    /// The entry's port leads to another end port.
    WrongEnd(NodeIdx, PortNum),
    /// The destination's end port is not cabled to a switch.
    NoSwitch,
}

/// An unreachable destination, grouped by where the routes stop.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Unreach {
    pub lid: Lid,
    pub dead_sw: u32,
    pub dead_port: PortNum,
    pub kind: DeadKind,
    /// Lowest source switch that hits it, and how many do.
    pub example_src: u32,
    pub sources: u32,
}

/// A routing loop toward `lid`: the cycle as (switch, in port, out port).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Loop {
    pub lid: Lid,
    pub cycle: Vec<(u32, PortNum, PortNum)>,
    pub sources: u32,
}

/// The longest route toward `lid` when it exceeds the hop limit.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct TooLong {
    pub lid: Lid,
    pub src: u32,
    pub hops: u32,
}

/// A hop whose VL is 15 (SL2VL's "drop") or beyond the operational data
/// VLs of its out port.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct LaneProblem {
    pub lid: Lid,
    pub sw: u32,
    /// In port (0 when the packet comes from the switch's own end ports).
    pub in_port: PortNum,
    pub out_port: PortNum,
    pub sl: u8,
    pub vl: u8,
}

/// Keeps the `cap` smallest items: the global first-`cap` is a subset of
/// the union of each thread's first-`cap`, so the merge is deterministic.
#[derive(Clone, Debug)]
pub(crate) struct TopK<T: Ord> {
    pub items: BTreeSet<T>,
    pub total: u64,
    cap: usize,
}

impl<T: Ord> TopK<T> {
    pub fn new(cap: usize) -> Self {
        TopK {
            items: BTreeSet::new(),
            total: 0,
            cap,
        }
    }
    pub fn push(&mut self, t: T) {
        self.total += 1;
        if self.items.len() >= self.cap && self.items.last().is_some_and(|l| &t >= l) {
            return;
        }
        self.items.insert(t);
        if self.items.len() > self.cap {
            self.items.pop_last();
        }
    }
    pub fn merge(&mut self, other: TopK<T>) {
        self.total += other.total;
        for t in other.items {
            self.items.insert(t);
            if self.items.len() > self.cap {
                self.items.pop_last();
            }
        }
    }
}
