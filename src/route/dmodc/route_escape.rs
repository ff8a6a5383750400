//! Escape candidates of one row (`formats/dmodc.md` §9): for every target
//! with escape lengths at once, which groups lead to a neighbour one escape
//! step shorter, counted by direction so that the common sets (none, one,
//! all groups, all up groups, all down groups) need no per-target walk of
//! the groups; split from [`super::routes`], whose rows use them.

use super::dests::Dest;
use super::escape;
use super::hits::count_hits;
use super::routes::{RouteCtx, Scratch};
use super::runs;

/// How a row routes the escape entries of one target.
enum Choice {
    /// No candidate: the entries stay unrouted.
    None,
    /// One candidate group (its index among the groups of the row).
    One(u8),
    /// Every up group, every down group, every group: the row's table of
    /// formulas (3)–(4) over that set, by `d`.
    Up,
    Down,
    All,
    /// Any other set: the formula per destination over `sc.cand`.
    Listed,
}

impl RouteCtx<'_> {
    /// Counts the escape candidates of switch `s` for every target with
    /// escape lengths at once (byte-wide passes over the rows of `s` and of
    /// its neighbours): the groups to a neighbour one step shorter, as
    /// [`escape::candidates`] lists them.
    pub(super) fn count_escape_candidates(&self, s: usize, sc: &mut Scratch) {
        let k = self.escape.columns();
        sc.esc_first.clear();
        sc.esc_first.resize(k, 0);
        for v in [&mut sc.esc_up, &mut sc.esc_down, &mut sc.esc_level] {
            v.clear();
            v.resize(k, 0);
        }
        // The wanted e[n] + 1 per column: e[s] when 0 < e[s] < ∞, else 0
        // (never hit, as in `count_candidates`).
        // (INF + 1 wraps to 0, so one compare per byte: vector code.)
        sc.esc_want.clear();
        sc.esc_want.extend(
            self.escape
                .row(s)
                .iter()
                .map(|&e| if e.wrapping_add(1) > 1 { e } else { 0 }),
        );
        // One count per direction; their sum is the count of every group.
        let groups = self.r.groups(s);
        let row = |gi: u8| self.escape.row(groups[gi as usize].peer as usize);
        let Scratch {
            esc_want,
            esc_first,
            esc_up,
            esc_down,
            esc_level,
            up_groups,
            down_groups,
            level_groups,
            ..
        } = sc;
        count_hits(up_groups, row, esc_want, esc_up, esc_first);
        count_hits(down_groups, row, esc_want, esc_down, esc_first);
        count_hits(level_groups, row, esc_want, esc_level, esc_first);
        sc.esc_ready = true;
    }

    /// The escape candidates of `s` toward `t` (column `k`) into `sc.cand`:
    /// the counted sets of [`RouteCtx::escape_choice`] (group order is kept
    /// since `up_groups` and `down_groups` ascend), else
    /// [`escape::candidates`].
    pub(super) fn escape_candidates(&self, s: usize, t: usize, k: usize, sc: &mut Scratch) {
        let choice = self.escape_choice(s, k, sc);
        sc.cand.clear();
        match choice {
            Choice::None => {}
            Choice::One(gi) => sc.cand.push(gi),
            Choice::All => sc.cand.extend(0..self.r.groups(s).len() as u8),
            Choice::Up => sc.cand.extend_from_slice(&sc.up_groups),
            Choice::Down => sc.cand.extend_from_slice(&sc.down_groups),
            Choice::Listed => {
                if let Some(e) = self.escape.toward(t) {
                    escape::candidates(self.r, s, e, &mut sc.cand);
                }
            }
        }
    }

    /// Routes the escape entries of target `t` (column `k`) at `s` on
    /// tables of one LID per destination (`self.runs` is set), as
    /// [`RouteCtx::escape_candidates`] and formulas (3)–(4) route them: the
    /// counted sets need no candidate list, and the whole-set ones read the
    /// port of `d` from a per-row table built once ([`runs::up_table`]).
    /// False, writing nothing, when `s` has no escape candidate.
    pub(super) fn route_escape(
        &self,
        s: usize,
        t: usize,
        k: usize,
        dests: &[Dest],
        row: &mut [u8],
        sc: &mut Scratch,
    ) -> bool {
        let table = match self.escape_choice(s, k, sc) {
            Choice::None => return false,
            Choice::One(gi) if self.r.groups(s)[gi as usize].len == 1 => {
                let port = self.r.ports[self.r.groups(s)[gi as usize].start as usize];
                for d in dests {
                    put(row, d, port);
                }
                return true;
            }
            Choice::One(_) | Choice::Listed => {
                self.escape_candidates(s, t, k, sc);
                for d in dests {
                    put(row, d, self.port_of(s, d.d, sc));
                }
                return true;
            }
            Choice::Up => self.set_table(s, sc, Choice::Up),
            Choice::Down => self.set_table(s, sc, Choice::Down),
            Choice::All => self.set_table(s, sc, Choice::All),
        };
        for d in dests {
            put(row, d, table[d.d as usize]);
        }
        true
    }

    /// Which of [`Choice`] the escape candidates of `s` in column `k` are:
    /// none, one, all groups, all up groups, all down groups (counted by
    /// direction, no per-target walk of the groups), or another set.
    fn escape_choice(&self, s: usize, k: usize, sc: &mut Scratch) -> Choice {
        if !sc.esc_ready {
            self.count_escape_candidates(s, sc);
        }
        let groups = self.r.groups(s).len();
        let (up, down) = (sc.esc_up[k], sc.esc_down[k]);
        match up + down + sc.esc_level[k] {
            0 => Choice::None,
            1 => Choice::One(sc.esc_first[k]),
            n if n as usize == groups => Choice::All,
            n if up == n && n as usize == sc.up_groups.len() => Choice::Up,
            n if down == n && n as usize == sc.down_groups.len() => Choice::Down,
            _ => Choice::Listed,
        }
    }

    /// The row's table of formulas (3)–(4) over every up group, every
    /// down group or every group (`which`), built on first use.
    fn set_table<'s>(&self, s: usize, sc: &'s mut Scratch, which: Choice) -> &'s [u8] {
        let span = self.runs.as_ref().map_or(0, |r| r.span);
        let groups = self.r.groups(s);
        let Scratch {
            up_table,
            up_ready,
            down_table,
            down_ready,
            all_table,
            all_ready,
            up_groups,
            down_groups,
            cand,
            pi_val,
            ..
        } = sc;
        let (table, ready, set): (_, _, &[u8]) = match which {
            Choice::Up => (up_table, up_ready, up_groups),
            Choice::Down => (down_table, down_ready, down_groups),
            _ => {
                cand.clear();
                cand.extend(0..groups.len() as u8);
                (all_table, all_ready, cand)
            }
        };
        if !*ready {
            table.resize(span, 0);
            runs::up_table(self.r, groups, set, *pi_val, table);
            *ready = true;
        }
        table
    }
}

/// Writes `port` at the (one) LID of `d`, if the row has it.
#[inline]
fn put(row: &mut [u8], d: &Dest, port: u8) {
    if let Some(v) = row.get_mut(d.lid as usize) {
        *v = port;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Dmodc, costs, dests, escape, groups::Ranked};
    use crate::generate::pgft::{PgftSpec, pgft};
    use crate::model::LidMap;
    use crate::route::{Engine, RouteOptions};

    /// Every escape entry of the tables is formulas (3)–(4) over the
    /// candidates [`escape::candidates`] lists, written out with plain
    /// division: the counted sets and per-row tables of `route_escape`
    /// change no byte. PGFTs whose second-level switches reach each other
    /// only through a valley, with single and parallel cables.
    #[test]
    fn escape_entries_are_the_formula_over_the_listed_candidates() {
        for p in [None, Some(&[1u32, 2, 2][..])] {
            let f = pgft(&PgftSpec::new(3, &[4, 4, 6], &[1, 4, 4], p)).unwrap();
            let lids = LidMap::new(&f).unwrap();
            let routing = Dmodc::default()
                .route(&f, &lids, &RouteOptions::default())
                .unwrap();
            let r = Ranked::new(&f).unwrap();
            let c = costs::compute(&r);
            let e = escape::compute(&r, &c);
            let ds = dests::build(&f, &r, None);
            let mut cand = Vec::new();
            let mut checked = 0;
            for s in 0..r.len() {
                let pi = u64::from(c.divider[s].min(1 << 17) as u32);
                for t in 0..r.len() {
                    let Some(len) = e.toward(t).filter(|_| c.get(s, t) == costs::INF) else {
                        continue;
                    };
                    escape::candidates(&r, s, len, &mut cand);
                    let groups = r.groups(s);
                    for d in ds.of(t) {
                        let q = u64::from(d.d) / pi;
                        let n = cand.len() as u64;
                        let want = if cand.is_empty() {
                            crate::model::NO_ROUTE
                        } else {
                            let g = &groups[cand[(q % n) as usize] as usize];
                            r.group_ports(g)[((q / n) % u64::from(g.len)) as usize]
                        };
                        let got = routing.lfts.get(r.order[s].ix(), d.lid);
                        assert_eq!(got, want, "switch {s}, target {t}, lid {}", d.lid);
                        checked += 1;
                    }
                }
            }
            assert!(checked > 100, "{p:?}: only {checked} escape entries");
        }
    }
}
