//! The paths toward one LID form an in-tree: the path from a switch is its
//! first turn followed by the path from the next switch. Whatever is
//! worked out per path (does it agree with an order, which layers take it
//! freely) is worked out once per switch along the tree and remembered,
//! rather than once per (source, LID) path: O(switches) per destination
//! instead of O(sources × hops).

use super::paths::{Col, HOP_LIMIT, PathWalk, Turn};

/// Per destination: the value of the rest of each switch's path.
#[derive(Default)]
pub(super) struct Memo<T> {
    val: Vec<T>,
    known: Vec<bool>,
    /// The switches walked to the first known one, with the channel each
    /// sends the LID out on.
    chain: Vec<(u32, Option<u32>)>,
}

impl<T: Copy + Default> Memo<T> {
    /// Forgets everything (a new destination) for `switches` switches.
    pub fn reset(&mut self, switches: usize) {
        self.known.clear();
        self.known.resize(switches, false);
        self.val.resize(switches, T::default());
    }

    /// The value of the path from `src` along column `col`: `end` past
    /// its last turn, `step(turn, rest)` before each turn, `looped` for a
    /// path that exceeds the hop limit (a routing loop). `step` is called
    /// once per switch with a turn, the first time a path crosses it.
    #[allow(clippy::too_many_arguments)]
    pub fn of(
        &mut self,
        walk: &PathWalk,
        col: Col,
        src: u32,
        end: T,
        looped: T,
        mut step: impl FnMut(&Turn, T) -> T,
    ) -> T {
        self.chain.clear();
        let mut cur = src;
        while !self.known[cur as usize] {
            if self.chain.len() > HOP_LIMIT {
                for &(s, _) in &self.chain {
                    (self.known[s as usize], self.val[s as usize]) = (true, looped);
                }
                return looped;
            }
            let hop = col.hop(cur);
            self.chain.push((cur, hop));
            match hop {
                Some(c) => cur = walk.far(c),
                None => break,
            }
        }
        for i in (0..self.chain.len()).rev() {
            let (s, hop) = self.chain[i];
            let v = match hop {
                None => end,
                Some(c) => {
                    let t = walk.far(c);
                    // the next switch's channel: walked already, or past
                    // the chain's end (a known switch)
                    let next = match self.chain.get(i + 1) {
                        Some(&(_, n)) => n,
                        None => col.hop(t),
                    };
                    match next {
                        None => end,
                        Some(n) => step(&walk.turn(c, n), self.val[t as usize]),
                    }
                }
            };
            (self.known[s as usize], self.val[s as usize]) = (true, v);
        }
        self.val[src as usize]
    }
}

/// The first turn of the path from `s` along `col`, and the switch it is
/// at (where the rest of the path starts); `None` when the path has no turn.
fn first_turn(walk: &PathWalk, col: Col, s: u32) -> Option<(Turn, u32)> {
    let c = col.hop(s)?;
    let t = walk.far(c);
    col.hop(t).map(|next| (walk.turn(c, next), t))
}

/// Calls `f` on the turns of the path from `src` along `col` that no
/// earlier call with the same `marks` (bit `bit`) has seen: paths toward
/// one LID share their tails, and the walk stops where a tail was seen.
pub(super) fn fresh_turns(
    walk: &PathWalk,
    col: Col,
    src: u32,
    marks: &mut [u16],
    bit: usize,
    mut f: impl FnMut(Turn),
) {
    let mut cur = src;
    for _ in 0..HOP_LIMIT {
        if marks[cur as usize] & 1 << bit != 0 {
            return;
        }
        marks[cur as usize] |= 1 << bit;
        let Some((turn, t)) = first_turn(walk, col, cur) else {
            return;
        };
        f(turn);
        cur = t;
    }
}
