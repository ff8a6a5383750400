//! Escape candidates of one row (`formats/dmodc.md` §9): for every target
//! with escape lengths at once, which groups lead to a neighbour one escape
//! step shorter, counted by direction so that the common sets (none, one,
//! all groups, all up groups, all down groups) need no per-target walk of
//! the groups; split from [`super::routes`], whose rows use them.

use super::costs::INF;
use super::escape;
use super::groups::Dir;
use super::routes::{RouteCtx, Scratch};

impl RouteCtx<'_> {
    /// Counts the escape candidates of switch `s` for every target with
    /// escape lengths at once (byte-wide passes over the rows of `s` and of
    /// its neighbours): the groups to a neighbour one step shorter, as
    /// [`escape::candidates`] lists them.
    pub(super) fn count_escape_candidates(&self, s: usize, sc: &mut Scratch) {
        let k = self.escape.columns();
        sc.esc_count.clear();
        sc.esc_count.resize(k, 0);
        sc.esc_first.clear();
        sc.esc_first.resize(k, 0);
        for v in [&mut sc.esc_up, &mut sc.esc_down, &mut sc.esc_level] {
            v.clear();
            v.resize(k, 0);
        }
        // The wanted e[n] + 1 per column: e[s] when 0 < e[s] < ∞, else 0
        // (never hit, as in `count_candidates`).
        sc.esc_want.clear();
        sc.esc_want.extend(
            self.escape
                .row(s)
                .iter()
                .map(|&e| if e != INF && e != 0 { e } else { 0 }),
        );
        for (gi, g) in self.r.groups(s).iter().enumerate() {
            let ep = self.escape.row(g.peer as usize);
            let by_dir = match g.dir {
                Dir::Up => &mut sc.esc_up,
                Dir::Down => &mut sc.esc_down,
                Dir::Level => &mut sc.esc_level,
            };
            let it = sc
                .esc_count
                .iter_mut()
                .zip(sc.esc_first.iter_mut())
                .zip(by_dir.iter_mut())
                .zip(sc.esc_want.iter().zip(ep));
            for (((cnt, only), dir_cnt), (&w, &o)) in it {
                let hit = o.saturating_add(1) == w;
                *cnt += hit as u8;
                *dir_cnt += hit as u8;
                *only = only.wrapping_add(gi as u8 & 0u8.wrapping_sub(hit as u8));
            }
        }
        sc.esc_ready = true;
    }

    /// The escape candidates of `s` toward `t` (column `k`) into `sc.cand`:
    /// the counted fast cases (none, one, all groups, all up groups, all
    /// down groups — group order is kept since `up_groups` and
    /// `down_groups` ascend), else [`escape::candidates`].
    pub(super) fn escape_candidates(&self, s: usize, t: usize, k: usize, sc: &mut Scratch) {
        if !sc.esc_ready {
            self.count_escape_candidates(s, sc);
        }
        sc.cand.clear();
        let groups = self.r.groups(s).len();
        match sc.esc_count[k] {
            0 => {}
            1 => sc.cand.push(sc.esc_first[k]),
            n if n as usize == groups => sc.cand.extend(0..groups as u8),
            n if sc.esc_up[k] == n && n as usize == sc.up_groups.len() => {
                sc.cand.extend_from_slice(&sc.up_groups)
            }
            n if sc.esc_down[k] == n && n as usize == sc.down_groups.len() => {
                sc.cand.extend_from_slice(&sc.down_groups)
            }
            _ => {
                if let Some(e) = self.escape.toward(t) {
                    escape::candidates(self.r, s, e, &mut sc.cand);
                }
            }
        }
    }
}
