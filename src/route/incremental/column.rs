//! One destination's column of the merge (see the module above): keep the
//! previous entries, take fresh ones where a path breaks the promise, and
//! say why each changed entry changed.

use std::collections::BTreeMap;

use super::Previous;
use super::walk::{self, End, Next, Ports, Rule, Target, Walker};
use crate::model::hops::SwitchHops;
use crate::model::incremental::ChangeReason;

/// Why a re-routed entry had to change: how its path broke, and whether
/// the entry is where it broke (`at_break`, its own port `next`).
fn reason(how: End, at_break: bool, next: Next) -> ChangeReason {
    match how {
        End::PortDown if at_break && next == Next::Down => ChangeReason::PortDown,
        End::PortDown => ChangeReason::PathBroken,
        End::NoRoute | End::Elsewhere if at_break => ChangeReason::Unreached,
        End::NoRoute | End::Elsewhere => ChangeReason::PathBroken,
        End::Loop => ChangeReason::Loop,
        End::UpAfterDown => ChangeReason::UpDown,
        End::NotShortest => ChangeReason::NotShortest,
        End::Reached => unreachable!("a reached path is not re-routed"),
    }
}

/// Counts of one column (or all).
#[derive(Default)]
pub(super) struct Counts {
    pub kept: u64,
    pub changed: u64,
    pub differs: u64,
    pub reasons: BTreeMap<ChangeReason, u64>,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.kept += o.kept;
        self.changed += o.changed;
        self.differs += o.differs;
        for (&r, &c) in &o.reasons {
            *self.reasons.entry(r).or_default() += c;
        }
    }
}

pub(super) struct Ctx<'a> {
    pub ports: Ports,
    pub hops: Option<SwitchHops>,
    pub prev: &'a Previous<'a>,
    pub any_new_switch: bool,
    pub restore: bool,
}

/// Per-thread buffers.
pub(super) struct Scratch {
    walker: Walker,
    new: Vec<u8>,
    end: Vec<End>,
    /// How the merged path ends when it need only reach.
    loose: Vec<End>,
    path: Vec<usize>,
    /// How the engine's own path ends, per switch × phase.
    fresh_end: Vec<End>,
    /// `fresh_end` holds this column's walk.
    fresh_walked: bool,
    why: Vec<Option<ChangeReason>>,
}

impl Scratch {
    pub fn new(n: usize) -> Scratch {
        Scratch {
            walker: Walker::new(n),
            new: vec![0; n],
            end: vec![End::Reached; n],
            loose: vec![End::Reached; n],
            path: Vec::new(),
            fresh_walked: false,
            fresh_end: vec![End::Reached; 2 * n],
            why: vec![None; n],
        }
    }
}

impl Ctx<'_> {
    /// The merged column of one destination into `out`.
    pub fn column(
        &self,
        target: Target,
        old: &[u8],
        fresh: &[u8],
        out: &mut [u8],
        why: &mut [Option<ChangeReason>],
        sc: &mut Scratch,
    ) -> Counts {
        let n = old.len();
        let mut c = Counts::default();
        if old == fresh && !self.any_new_switch {
            // the engine routes this destination as before
            out.copy_from_slice(old);
            c.kept = n as u64;
            return c;
        }
        // up/down binds paths to CA LIDs; switch LIDs need only be reached
        let strict = match (&self.hops, target) {
            (Some(h), _) => Rule::Shortest(h),
            (None, Target::Switch(_)) => Rule::Reach,
            (None, _) => Rule::UpDown,
        };
        sc.fresh_walked = false;
        let restored = if self.restore {
            self.crosses_new(fresh)
        } else {
            vec![false; n]
        };
        sc.new.copy_from_slice(old);
        for s in 0..n {
            sc.why[s] = if self.prev.new_switch[s] {
                Some(ChangeReason::NewSwitch)
            } else if restored[s] && old[s] != fresh[s] {
                Some(ChangeReason::Restored)
            } else {
                None
            };
            if sc.why[s].is_some() {
                sc.new[s] = fresh[s];
            }
        }
        if matches!(target, Target::Nowhere) {
            // a LID nobody owns carries no traffic: its previous column (a
            // forest that now ends at dead ports, so loop-free) stays, but
            // for entries onto a cable that came back (which could close a
            // loop): those take the engine's
            for s in 0..n {
                if self.prev.new_cable[s].get(old[s] as usize) == Some(&true) {
                    sc.new[s] = fresh[s];
                    sc.why[s].get_or_insert(ChangeReason::Restored);
                }
            }
        } else {
            self.settle(target, strict, old, fresh, sc);
        }
        for s in 0..n {
            if sc.new[s] == old[s] && !self.prev.new_switch[s] {
                c.kept += 1;
            } else {
                c.changed += 1;
                let r = sc.why[s].expect("settle gives every entry it changes a reason");
                *c.reasons.entry(r).or_default() += 1;
                why[s] = Some(r);
            }
            c.differs += u64::from(sc.new[s] != fresh[s]);
        }
        out.copy_from_slice(&sc.new);
        c
    }

    /// Until every path of the merged column keeps the promise, re-routes
    /// one entry per broken path: the one closest to where it breaks whose
    /// fresh route keeps the promise (memo §6: spread the routes of a
    /// failing port at its switch; go back to the switches feeding it only
    /// when there is no other way). A path from a switch where the engine's
    /// own route breaks the promise (Dmodc's escape hops, used only by
    /// traffic starting there) need only reach the destination. Each round
    /// makes one more entry equal to the engine's, so it ends.
    fn settle(&self, target: Target, strict: Rule, old: &[u8], fresh: &[u8], sc: &mut Scratch) {
        let n = sc.new.len();
        loop {
            sc.walker
                .walk(&self.ports, (target, strict), &sc.new, &mut sc.end);
            if sc.end.iter().all(|&e| e == End::Reached) {
                return;
            }
            if !sc.fresh_walked {
                // needed only once some path is broken (most columns: never)
                sc.walker
                    .walk_keys(&self.ports, (target, strict), fresh, &mut sc.fresh_end);
                sc.fresh_walked = true;
            }
            let fresh_ok = |s: usize| sc.fresh_end[2 * s] == End::Reached;
            let loose = (0..n).any(|s| !fresh_ok(s) && sc.end[s] != End::Reached);
            if loose {
                sc.walker
                    .walk(&self.ports, (target, Rule::Reach), &sc.new, &mut sc.loose);
            }
            let mut changed = false;
            let mut path = std::mem::take(&mut sc.path);
            for s in 0..n {
                let (rule, end) = if sc.fresh_end[2 * s] == End::Reached {
                    (strict, sc.end[s])
                } else {
                    (Rule::Reach, sc.loose[s])
                };
                if end == End::Reached {
                    continue;
                }
                let how = walk::trace(&self.ports, (target, rule), &sc.new, s, &mut path);
                if how == End::Reached {
                    continue; // mended by an earlier pick of this round
                }
                // the entry closest to the break whose fresh route keeps
                // the promise from where the path arrives (key = phase)
                let differs = |k: &usize| sc.new[*k / 2] != fresh[*k / 2];
                let pick = path
                    .iter()
                    .rev()
                    .find(|&k| differs(k) && sc.fresh_end[*k] == End::Reached)
                    .or_else(|| path.iter().rev().find(|&k| differs(k)))
                    .copied();
                let Some(k) = pick else { continue };
                let u = k / 2;
                sc.new[u] = fresh[u];
                let at_break = Some(&k) == path.last();
                sc.why[u].get_or_insert(reason(how, at_break, self.ports.get(u, old[u])));
                changed = true;
            }
            sc.path = path;
            if !changed {
                return;
            }
        }
    }

    /// Per switch: the engine's fresh path crosses a cable the previous
    /// fabric lacked (`--restore engine`).
    fn crosses_new(&self, fresh: &[u8]) -> Vec<bool> {
        let n = fresh.len();
        // 0 unknown, 1 on the current chain, 2 no, 3 yes
        let mut mark = vec![0u8; n];
        let mut chain = Vec::new();
        for start in 0..n {
            chain.clear();
            let mut u = start;
            let mut yes = loop {
                match mark[u] {
                    2 => break false,
                    3 => break true,
                    1 => break false,
                    _ => {}
                }
                mark[u] = 1;
                chain.push(u);
                let p = fresh[u];
                if self.prev.new_cable[u].get(p as usize) == Some(&true) {
                    break true;
                }
                match self.ports.get(u, p) {
                    Next::Switch { t, .. } => u = t as usize,
                    _ => break false,
                }
            };
            for &k in chain.iter().rev() {
                yes |= self.prev.new_cable[k].get(fresh[k] as usize) == Some(&true);
                mark[k] = if yes { 3 } else { 2 };
            }
        }
        mark.into_iter().map(|m| m == 3).collect()
    }
}
