//! The exact per-destination pass (algorithms.md §3.2): every source's
//! route toward one LID followed by a memoised next-hop walk, each
//! switch's fate (delivered, dead, looping) found once, and the fates
//! turned into findings and counts. Destinations the fast path
//! (`fast.rs`) cannot prove clean come here, so findings have one source.

use super::super::topo::{Link, Target};
use super::{
    Acc, DEAD, DELIVERED, DeadKind, LOOPING, Loop, ON_STACK, TooLong, UNKNOWN, Unreach, WalkCtx,
};
use crate::model::{LFT_BLOCK, Lid, NO_ROUTE, PortNum};

impl Acc {
    /// Checks every route toward `lid` (in the loaded block) and collects
    /// its turns.
    pub fn destination(&mut self, cx: &WalkCtx, lid: Lid) {
        let Some(tgt) = cx.topo.target.get(lid as usize).copied().flatten() else {
            return;
        };
        let sources = if tgt.is_end && !cx.all_paths {
            cx.leaves
        } else {
            cx.all
        };
        self.load_bytes(cx, lid as usize / LFT_BLOCK);
        self.deads.clear();
        self.loops.clear();
        for &s in sources {
            if self.weight(cx, s, tgt) > 0 {
                self.walk(cx, lid, tgt, s);
            }
        }
        self.tally(cx, lid, tgt, sources);
        if tgt.is_end || cx.all_paths {
            self.collect_turns(cx, lid, tgt, sources);
        }
        for &s in &self.active {
            self.st[s as usize] = UNKNOWN;
            self.vlmask[s as usize] = 0;
        }
        self.active.clear();
    }

    /// Source end ports (or 1 for a switch source) whose route to the LID
    /// starts at switch `s`; an end port is not its own source.
    pub(super) fn weight(&self, cx: &WalkCtx, s: u32, tgt: Target) -> u64 {
        if !tgt.is_end {
            return 1;
        }
        let own = u32::from(tgt.sw == s);
        let hosts = u64::from(cx.topo.hosts[s as usize] - own);
        if cx.all_paths { hosts + 1 } else { hosts }
    }

    fn step(
        cx: &WalkCtx,
        s: u32,
        p: PortNum,
        tgt: Target,
    ) -> Result<Option<(u32, PortNum)>, DeadKind> {
        if tgt.sw == u32::MAX {
            return Err(DeadKind::NoSwitch);
        }
        if p == NO_ROUTE {
            return Err(DeadKind::NoRoute);
        }
        let link = cx.topo.link(s as usize, p).ok_or(DeadKind::BadPort)?;
        if p == 0 {
            return if !tgt.is_end && tgt.sw == s {
                Ok(None)
            } else {
                Err(DeadKind::Port0)
            };
        }
        match link {
            Link::None => Err(DeadKind::NotCabled),
            Link::Switch(n, q) => Ok(Some((n, q))),
            Link::End(node, port) => {
                if tgt.is_end && tgt.sw == s && tgt.port == p {
                    Ok(None)
                } else {
                    Err(DeadKind::WrongEnd(node, port))
                }
            }
        }
    }

    /// Follows next hops from `src` until a switch of known fate, then
    /// gives every switch on the way that fate.
    fn walk(&mut self, cx: &WalkCtx, lid: Lid, tgt: Target, src: u32) {
        self.stack.clear();
        let mut cur = src;
        let (state, mut value) = loop {
            let c = cur as usize;
            match self.st[c] {
                UNKNOWN => {
                    self.st[c] = ON_STACK;
                    self.val[c] = self.stack.len() as u32;
                    self.stack.push(cur);
                    self.active.push(cur);
                    let p = self.block_entry(c, lid);
                    self.out[c] = p;
                    match Self::step(cx, cur, p, tgt) {
                        Ok(Some((n, q))) => {
                            self.nxt[c] = n;
                            self.nin[c] = q;
                            cur = n;
                        }
                        Ok(None) => {
                            self.nxt[c] = u32::MAX;
                            self.stack.pop();
                            self.st[c] = DELIVERED;
                            self.val[c] = 0;
                            break (DELIVERED, 0);
                        }
                        Err(kind) => {
                            self.nxt[c] = u32::MAX;
                            self.deads.push((cur, p, kind));
                            break (DEAD, (self.deads.len() - 1) as u32);
                        }
                    }
                }
                ON_STACK => {
                    let from = self.val[c] as usize;
                    let cyc = self.stack[from..].to_vec();
                    let last = *cyc.last().unwrap_or(&cur) as usize;
                    let mut prev_in = self.nin[last];
                    let mut cycle = Vec::with_capacity(cyc.len());
                    for &s in &cyc {
                        cycle.push((s, prev_in, self.out[s as usize]));
                        prev_in = self.nin[s as usize];
                    }
                    self.loops.push(cycle);
                    break (LOOPING, (self.loops.len() - 1) as u32);
                }
                st => break (st, self.val[c]),
            }
        };
        while let Some(s) = self.stack.pop() {
            if state == DELIVERED {
                value += 1;
            }
            self.st[s as usize] = state;
            self.val[s as usize] = value;
        }
    }

    /// Turns fates into findings and counts.
    fn tally(&mut self, cx: &WalkCtx, lid: Lid, tgt: Target, sources: &[u32]) {
        let mut dead_srcs: Vec<(u32, u32)> = vec![(u32::MAX, 0); self.deads.len()];
        let mut loop_srcs: Vec<u32> = vec![0; self.loops.len()];
        let mut longest: Option<(u32, u32)> = None;
        for &s in sources {
            let w = self.weight(cx, s, tgt);
            if w == 0 {
                continue;
            }
            let (st, v) = (self.st[s as usize], self.val[s as usize]);
            if tgt.is_end {
                self.ca_pairs += w;
            } else {
                self.switch_pairs += w;
            }
            match st {
                DELIVERED => {
                    if tgt.is_end {
                        let h = v as usize;
                        if self.hop_hist.len() <= h {
                            self.hop_hist.resize(h + 1, 0);
                        }
                        self.hop_hist[h] += w;
                    }
                    if v > cx.hop_limit && longest.is_none_or(|(_, h)| v > h) {
                        longest = Some((s, v));
                    }
                }
                DEAD => {
                    let e = &mut dead_srcs[v as usize];
                    e.0 = e.0.min(s);
                    e.1 += 1;
                    if tgt.is_end {
                        self.unreachable_pairs += w;
                    } else {
                        self.switch_pairs_unreachable += w;
                    }
                }
                _ => {
                    loop_srcs[v as usize] += 1;
                    self.looping_pairs += w;
                }
            }
        }
        for (i, &(sw, port, kind)) in self.deads.iter().enumerate() {
            let (example_src, n) = dead_srcs[i];
            // A dead end found while walking is always reached by some source.
            let u = Unreach {
                lid,
                dead_sw: sw,
                dead_port: port,
                kind,
                example_src,
                sources: n,
            };
            if tgt.is_end {
                self.unreach_ca.push(u)
            } else {
                self.unreach_sw.push(u)
            }
        }
        for (i, cycle) in self.loops.drain(..).enumerate() {
            self.loops_found.push(Loop {
                lid,
                cycle,
                sources: loop_srcs[i],
            });
        }
        if let Some((src, hops)) = longest {
            self.too_long.push(TooLong { lid, src, hops });
        }
    }

    /// Whether switch `s` passes packets toward the LID on to a neighbour
    /// (delivered or dead further on, not looping, not the last switch).
    pub(super) fn forwards(&self, s: u32) -> bool {
        let st = self.st[s as usize];
        (st == DELIVERED || st == DEAD) && self.nxt[s as usize] != u32::MAX
    }
}
