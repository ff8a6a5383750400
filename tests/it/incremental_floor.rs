//! The floor of `compile --previous` (issue 16, `report.json`
//! `incremental.floor_entries` / `floor_blocks`) against brute force: on a
//! two-level fat tree of 6 switches, every column (destination LID) of
//! every possible table — each switch any port, 0 or no route — is judged
//! by an oracle written here, which knows nothing of the floor's rules:
//! every switch's route reaches the LID, and routes from switches with end
//! ports to a CA LID never go up after going down (up = toward the higher
//! PGFT level in the GUID). An entry must change exactly when no valid
//! column keeps it; the fewest blocks any valid result uploads is the
//! smallest set of switches (one 64-entry block each here) such that every
//! column has a valid option changing only those.

use std::path::Path;

use routec::model::{Fabric, LidMap, NO_ROUTE, SwIdx};

use super::incremental::{Rows, compile, generate, level, load, report, rows};

/// PGFT(2;2,4;1,2): 4 leaves of 2 hosts, 2 spines.
const TREE: &str = "--h 2 --m 2,4 --w 1,2";

/// One destination column on the new fabric, for the oracle.
struct Column<'a> {
    f: &'a Fabric,
    lid: u16,
    /// The LID's owner is an end port (not a switch).
    ca: bool,
}

impl Column<'_> {
    fn switch(&self, s: usize) -> routec::model::NodeIdx {
        self.f.switch_node(SwIdx(s as u32))
    }

    /// The route from switch `s` under `col` (one port per switch).
    fn route_ok(&self, lids: &LidMap, col: &[u8], s: usize, updown: bool) -> bool {
        let owner = lids.owner(self.lid).unwrap();
        let (mut cur, mut down) = (s, false);
        for _ in 0..=col.len() {
            let node = self.switch(cur);
            let p = col[cur];
            if owner.node == node {
                return p == 0;
            }
            if p == 0 || p == NO_ROUTE || p > self.f.node(node).num_ports {
                return false;
            }
            let Some(peer) = self.f.peer(node, p).filter(|q| q.node != node) else {
                return false;
            };
            let Some(t) = self.f.switch_index(peer.node) else {
                return peer.node == owner.node && peer.port == owner.port;
            };
            let up = level(self.f.node(peer.node).guid) > level(self.f.node(node).guid);
            if updown && up && down {
                return false;
            }
            down |= !up;
            cur = t.ix();
        }
        false // a loop
    }

    /// End ports on switch `s` that send to this LID.
    fn sources(&self, lids: &LidMap, s: usize) -> usize {
        let node = self.switch(s);
        let owner = lids.owner(self.lid).unwrap();
        (1..=self.f.node(node).num_ports)
            .filter_map(|p| self.f.peer(node, p))
            .filter(|q| !self.f.is_switch(q.node) && (q.node, q.port) != (owner.node, owner.port))
            .count()
    }

    fn valid(&self, lids: &LidMap, col: &[u8]) -> bool {
        (0..col.len()).all(|s| {
            let strict = self.ca && self.sources(lids, s) > 0;
            self.route_ok(lids, col, s, false) && (!strict || self.route_ok(lids, col, s, true))
        })
    }
}

/// Per column with any valid option: the masks of switches a valid option
/// changes against `old`.
fn options(f: &Fabric, lids: &LidMap, lid: u16, old: &[u8]) -> Vec<u32> {
    let ca = !f.is_switch(lids.owner(lid).unwrap().node);
    let c = Column { f, lid, ca };
    let choices: Vec<Vec<u8>> = (0..old.len())
        .map(|s| {
            let np = f.node(c.switch(s)).num_ports;
            (0..=np).chain([NO_ROUTE]).collect()
        })
        .collect();
    let mut masks = Vec::new();
    let mut digit = vec![0usize; old.len()];
    let mut col: Vec<u8> = choices.iter().map(|o| o[0]).collect();
    loop {
        if c.valid(lids, &col) {
            let m = (0..old.len()).filter(|&s| col[s] != old[s]);
            masks.push(m.fold(0u32, |a, s| a | 1 << s));
        }
        // next combination (mixed radix)
        let mut i = 0;
        while i < digit.len() {
            digit[i] += 1;
            if digit[i] < choices[i].len() {
                col[i] = choices[i][digit[i]];
                break;
            }
            digit[i] = 0;
            col[i] = choices[i][0];
            i += 1;
        }
        if i == digit.len() {
            return masks;
        }
    }
}

/// (entries every valid column changes, the fewest blocks a valid result
/// changes) by brute force.
fn brute_force(f: &Fabric, lids: &LidMap, prev: &Rows) -> (u64, u32) {
    let n = f.num_switches();
    assert!(n <= 8, "brute force is for tiny fabrics");
    let mut all = Vec::new();
    let mut entries = 0u64;
    for (lid, _) in lids.iter() {
        let old: Vec<u8> = (0..n)
            .map(|s| prev[&f.node(f.switch_node(SwIdx(s as u32))).guid][lid as usize])
            .collect();
        let masks = options(f, lids, lid, &old);
        if masks.is_empty() {
            continue; // nothing valid: no claim
        }
        let always = masks.iter().fold(u32::MAX, |a, &m| a & m);
        entries += u64::from(always.count_ones());
        all.push(masks);
    }
    let blocks = (0u32..1 << n)
        .filter(|&set| all.iter().all(|ms| ms.iter().any(|&m| m & !set == 0)))
        .map(u32::count_ones)
        .min()
        .unwrap();
    (entries, blocks)
}

/// LIDs owned before the change and by nobody after it carry no traffic:
/// asserts the incremental result keeps their previous entries on every
/// remaining switch (no cable came back here), returns how many.
fn vanished_kept(dir: &Path, topo: &Path, f: &Fabric, lids: &LidMap) -> usize {
    let (_, before) = load(topo, None);
    let (prev, inc) = (rows(&dir.join("prev")), rows(&dir.join("inc")));
    let gone: Vec<u16> = before
        .iter()
        .map(|(l, _)| l)
        .filter(|&l| lids.owner(l).is_none())
        .collect();
    for &sw in f.switches() {
        let g = f.node(sw).guid;
        for &l in &gone {
            assert_eq!(inc[&g][l as usize], prev[&g][l as usize], "{g} LID {l}");
        }
    }
    gone.len()
}

/// The floor and the result's blocks from `report.json`, and brute force.
struct Found {
    floor_entries: u64,
    floor_blocks: u64,
    changed_blocks: u64,
    must_entries: u64,
    min_blocks: u64,
    /// LIDs the change left without an owner (their columns checked kept).
    vanished: usize,
}

fn case(faults: &str) -> Found {
    let tmp = tempfile::tempdir().unwrap();
    let dir: &Path = tmp.path();
    let (topo, fault_file) = generate(dir, &format!("{TREE} {faults}"));
    let eng = "--engine dmodc";
    assert_eq!(compile(dir, &topo, None, eng, "prev", &[]), 0);
    let prev_arg = ["--previous", "prev"];
    assert_eq!(
        compile(dir, &topo, Some(&fault_file), eng, "inc", &prev_arg),
        0
    );
    let (f, lids) = load(&topo, Some(&fault_file));
    assert!(lids.iter().all(|(l, _)| l < 64), "one block per switch");
    let (must_entries, min_blocks) = brute_force(&f, &lids, &rows(&dir.join("prev")));
    let vanished = vanished_kept(dir, &topo, &f, &lids);
    let inc = &report(&dir.join("inc"))["incremental"];
    let get = |k: &str| inc[k].as_u64().unwrap();
    let found = Found {
        floor_entries: get("floor_entries"),
        floor_blocks: get("floor_blocks"),
        changed_blocks: get("changed_blocks"),
        must_entries,
        min_blocks: u64::from(min_blocks),
        vanished,
    };
    // a floor: never above what every valid result changes
    assert!(found.floor_entries <= found.must_entries, "{faults}: {inc}");
    assert!(found.floor_blocks <= found.min_blocks, "{faults}: {inc}");
    assert!(found.changed_blocks >= found.min_blocks, "{faults}: {inc}");
    assert!(
        found.floor_entries > 0,
        "{faults}: the change forces nothing"
    );
    found
}

#[test]
fn floor_is_brute_force_minus_a_loop_for_one_cut_cable() {
    // leaf L2 lost its cable to spine S1 (LID 5). Spine S2's entry for
    // S1's LID leads to L2, whose only way on is back through S2: a loop
    // that no single entry shows, so the floor (entry by entry) misses that
    // one entry and its block. The merge reaches the brute-force minimum.
    let f = case("--faults 1 --seed 1");
    assert_eq!((f.must_entries, f.min_blocks), (13, 6));
    assert_eq!((f.floor_entries, f.floor_blocks), (12, 5));
    assert_eq!(f.changed_blocks, f.min_blocks);
}

#[test]
fn floor_is_brute_force_for_two_cut_cables() {
    let f = case("--faults 2 --seed 5");
    assert_eq!(f.floor_entries, f.must_entries);
    assert_eq!(f.floor_blocks, f.min_blocks);
    assert_eq!(f.changed_blocks, f.min_blocks);
}

#[test]
fn floor_is_brute_force_for_a_removed_switch() {
    // the removed switch's own LID (and its hosts', if a leaf) vanish:
    // their columns are kept, and the upload is the brute-force minimum
    let f = case("--faults 0 --fail-switches 1 --seed 3");
    assert!(f.vanished >= 1);
    assert_eq!(f.floor_entries, f.must_entries);
    assert_eq!(f.floor_blocks, f.min_blocks);
    assert_eq!(f.changed_blocks, f.min_blocks);
}
