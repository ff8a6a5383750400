//! `compile --previous DIR` (issue 16, 2005 OpenSM memo §6–7): tables are
//! read back and judged by an oracle written here — each (switch, CA LID)
//! path followed hop by hop over the new fabric's cables, up/down by the
//! fat-tree level the PGFT generator writes into each switch GUID (byte 3:
//! `0x0002c901LL......`), shortest by a BFS of the test's own. Asserted:
//! every previous entry the oracle finds valid is kept byte for byte, every
//! entry of the result is valid, the result changes fewer entries than a
//! full re-route; a state from another engine, fabric, version, a corrupt
//! one, or one whose tables were replaced is ignored (note R020, the
//! result identical to a full compile); `--max-changed-blocks` and
//! `--restore`.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use routec::model::{Fabric, Guid, LidMap, NO_ROUTE, SwIdx};
use routec::parse::{LoadOptions, load_topology};

use crate::common::routec;

/// Tables by switch GUID, LID-indexed.
pub(super) type Rows = HashMap<Guid, Vec<u8>>;

pub(super) fn rows(dir: &Path) -> Rows {
    let set = routec::parse::lfts::read_tables(dir).unwrap();
    (0..set.switches.len())
        .map(|i| (set.switches[i].guid, set.lft(i).to_vec()))
        .collect()
}

pub(super) fn generate(dir: &Path, args: &str) -> (PathBuf, PathBuf) {
    let mut a: Vec<&str> = vec!["gen", "pgft"];
    a.extend(args.split_whitespace());
    a.extend(["-o", "t.topo"]);
    assert_eq!(routec(&a, dir).0, 0);
    (dir.join("t.topo"), dir.join("t.topo.faults"))
}

/// The fabric with `faults`, LIDs as compile assigns them.
pub(super) fn load(topo: &Path, faults: Option<&Path>) -> (Fabric, LidMap) {
    let mut f = load_topology(topo, &LoadOptions::default()).unwrap().fabric;
    if let Some(p) = faults {
        f = routec::parse::faults::load_and_apply(&f, p).unwrap().0;
    }
    if routec::model::lids::lid_state(&f) != routec::model::lids::LidState::Complete {
        routec::model::lids::assign_missing_lids(&mut f).unwrap();
    }
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}

#[derive(Clone, Copy)]
enum Rule {
    /// Up/down by the PGFT level in the GUID.
    UpDown,
    /// As short as the fabric allows.
    Shortest,
}

pub(super) fn level(g: Guid) -> u64 {
    (g.0 >> 24) & 0xff
}

/// Switch hops between every pair (the test's own BFS).
fn bfs_all(f: &Fabric) -> Vec<Vec<u32>> {
    let n = f.num_switches();
    (0..n)
        .map(|s| {
            let mut d = vec![u32::MAX; n];
            d[s] = 0;
            let mut q = VecDeque::from([s]);
            while let Some(u) = q.pop_front() {
                let node = f.switch_node(SwIdx(u as u32));
                for (_, peer) in f.switch_links(node) {
                    let t = f.switch_index(peer.node).unwrap().ix();
                    if d[t] == u32::MAX {
                        d[t] = d[u] + 1;
                        q.push_back(t);
                    }
                }
            }
            d
        })
        .collect()
}

/// The oracle: does the path from switch `s` to `lid` in `rows` reach the
/// LID's owner over live cables and keep `rule`?
fn path_ok(
    f: &Fabric,
    lids: &LidMap,
    rows: &Rows,
    s: usize,
    lid: u16,
    rule: Rule,
    d: &[Vec<u32>],
) -> bool {
    let owner = lids.owner(lid).unwrap();
    let leaf = f
        .peer(owner.node, owner.port)
        .and_then(|p| f.switch_index(p.node))
        .map(|x| x.ix());
    let (mut cur, mut down, mut hops) = (s, false, 0u32);
    loop {
        let n = f.switch_node(SwIdx(cur as u32));
        let g = f.node(n).guid;
        let Some(row) = rows.get(&g) else {
            return false;
        };
        let p = row.get(lid as usize).copied().unwrap_or(NO_ROUTE);
        if p == NO_ROUTE || p > f.node(n).num_ports {
            return false;
        }
        let Some(peer) = f.peer(n, p).filter(|q| q.node != n) else {
            return false;
        };
        let Some(t) = f.switch_index(peer.node) else {
            let reached = peer.node == owner.node && peer.port == owner.port;
            return reached
                && match rule {
                    Rule::UpDown => true,
                    Rule::Shortest => leaf.is_some_and(|l| d[s][l] == hops),
                };
        };
        if let Rule::UpDown = rule {
            let up = level(f.node(peer.node).guid) > level(g);
            if up && down {
                return false;
            }
            down |= !up;
        }
        hops += 1;
        if hops as usize > f.num_switches() {
            return false;
        }
        cur = t.ix();
    }
}

/// CA LIDs of the fabric.
fn ca_lids(f: &Fabric, lids: &LidMap) -> Vec<u16> {
    lids.iter()
        .filter(|(_, o)| !f.is_switch(o.node))
        .map(|(l, _)| l)
        .collect()
}

/// Entries (over `f`'s switches and CA LIDs) where `a` and `b` differ.
fn differing(f: &Fabric, lids: &LidMap, a: &Rows, b: &Rows) -> usize {
    let mut n = 0;
    for &sw in f.switches() {
        let g = f.node(sw).guid;
        for lid in ca_lids(f, lids) {
            let x = a.get(&g).map_or(NO_ROUTE, |r| r[lid as usize]);
            let y = b.get(&g).map_or(NO_ROUTE, |r| r[lid as usize]);
            n += usize::from(x != y);
        }
    }
    n
}

/// Asserts the two properties on `inc` (incremental over `prev`), returns
/// the entries the incremental run changed.
fn assert_incremental(
    f: &Fabric,
    lids: &LidMap,
    prev: &Rows,
    inc: &Rows,
    full: &Rows,
    rule: Rule,
) -> usize {
    let d = bfs_all(f);
    let (mut kept_checked, mut changed) = (0, 0);
    for (s, &sw) in f.switches().iter().enumerate() {
        let g = f.node(sw).guid;
        let leaf =
            (1..=f.node(sw).num_ports).any(|p| f.peer(sw, p).is_some_and(|q| !f.is_switch(q.node)));
        for lid in ca_lids(f, lids) {
            if leaf {
                assert!(
                    path_ok(f, lids, inc, s, lid, rule, &d),
                    "leaf {g} LID {lid}"
                );
            }
            // from a switch where the engine's own route breaks the promise
            // (Dmodc's escape hops at switches with no up-down path, used
            // only by traffic starting there), nothing better is asked
            assert!(
                path_ok(f, lids, inc, s, lid, rule, &d)
                    || !path_ok(f, lids, full, s, lid, rule, &d),
                "switch {g} LID {lid}: the incremental path breaks the promise"
            );
            let Some(old) = prev.get(&g).map(|r| r[lid as usize]) else {
                continue;
            };
            let new = inc[&g][lid as usize];
            changed += usize::from(old != new);
            if path_ok(f, lids, prev, s, lid, rule, &d) {
                kept_checked += 1;
                assert_eq!(new, old, "switch {g} LID {lid}: a valid entry was changed");
            }
        }
    }
    assert!(kept_checked > 0);
    changed
}

pub(super) fn report(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap()
}

/// compile with `engine_args`, over `faults` or not, into `out`.
pub(super) fn compile(
    dir: &Path,
    topo: &Path,
    faults: Option<&Path>,
    engine_args: &str,
    out: &str,
    extra: &[&str],
) -> i32 {
    let mut a = vec!["compile", topo.to_str().unwrap()];
    if let Some(p) = faults {
        a.extend(["--faults", p.to_str().unwrap()]);
    }
    a.extend(engine_args.split_whitespace());
    a.extend(["-o", out]);
    a.extend(extra);
    routec(&a, dir).0
}

/// Incremental vs full on a fat tree with `gen_args` faults.
fn fat_tree_case(gen_args: &str, engine: &str, rule: Rule) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = generate(dir, gen_args);
    assert_eq!(compile(dir, &topo, None, engine, "prev", &[]), 0);
    assert!(dir.join("prev/routec-state.json.zst").is_file());
    let prev_arg = ["--previous", "prev"];
    assert_eq!(
        compile(dir, &topo, Some(&faults), engine, "inc", &prev_arg),
        0
    );
    assert_eq!(compile(dir, &topo, Some(&faults), engine, "full", &[]), 0);
    let (f, lids) = load(&topo, Some(&faults));
    let (prev, inc, full) = (
        rows(&dir.join("prev")),
        rows(&dir.join("inc")),
        rows(&dir.join("full")),
    );
    let changed = assert_incremental(&f, &lids, &prev, &inc, &full, rule);
    let by_full = differing(&f, &lids, &prev, &full);
    assert!(
        changed > 0 && changed < by_full,
        "incremental {changed}, full {by_full}"
    );
    let rep = report(&dir.join("inc"));
    assert_eq!(rep["verification"]["status"], "pass");
    assert!(rep["incremental"]["changed"].as_u64().unwrap() >= changed as u64);
    assert!(rep["notes"].to_string().contains("R021"));
}

#[test]
fn dmodc_cut_cables_keep_every_valid_entry() {
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7",
        "--engine dmodc",
        Rule::UpDown,
    );
}

#[test]
fn dmodc_switch_removed_keeps_every_valid_entry() {
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 0 --fail-switches 1 --seed 3",
        "--engine dmodc",
        Rule::UpDown,
    );
}

#[test]
fn updn_degraded_fat_tree_keeps_every_valid_entry() {
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 4 --seed 11",
        "--engine updn --roots top",
        Rule::UpDown,
    );
}

#[test]
fn sssp_degraded_fat_tree_keeps_shortest_entries() {
    // sssp promises shortest paths (no ranks): held to one switch closer
    // per hop, like minhop
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7",
        "--engine sssp",
        Rule::Shortest,
    );
}

const IRR: &str = "fixtures/opensm-vl/irr/fabric.net";

#[test]
fn minhop_irregular_fabric_keeps_shortest_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let topo = std::fs::canonicalize(IRR).unwrap();
    // S1/5 - S5/7: a switch-to-switch cable of the fixture
    let faults = dir.join("cut.faults");
    std::fs::write(&faults, "link 0xc7fde805ec99108d/5\n").unwrap();
    let eng = "--engine minhop --vls 2";
    assert_eq!(compile(dir, &topo, None, eng, "prev", &[]), 0);
    assert_eq!(
        compile(
            dir,
            &topo,
            Some(&faults),
            eng,
            "inc",
            &["--previous", "prev"]
        ),
        0
    );
    assert_eq!(compile(dir, &topo, Some(&faults), eng, "full", &[]), 0);
    let (f, lids) = load(&topo, Some(&faults));
    let (prev, inc, full) = (
        rows(&dir.join("prev")),
        rows(&dir.join("inc")),
        rows(&dir.join("full")),
    );
    let changed = assert_incremental(&f, &lids, &prev, &inc, &full, Rule::Shortest);
    assert!(changed > 0 && changed <= differing(&f, &lids, &prev, &full));
    assert_eq!(report(&dir.join("inc"))["verification"]["status"], "pass");
}

/// A small fat tree routed intact into `prev`, and its fault list.
fn prev_run(dir: &Path, engine: &str) -> (PathBuf, PathBuf) {
    let (topo, faults) = generate(dir, "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7");
    assert_eq!(compile(dir, &topo, None, engine, "prev", &[]), 0);
    (topo, faults)
}

/// Runs the faulted compile with `--previous prev` (stderr kept) into
/// `out`: (exit code, stderr).
pub(super) fn with_previous(
    dir: &Path,
    topo: &Path,
    faults: &Path,
    engine: &str,
    out: &str,
    extra: &[&str],
) -> (i32, String) {
    let mut a = vec![
        "compile",
        topo.to_str().unwrap(),
        "--faults",
        faults.to_str().unwrap(),
    ];
    a.extend(engine.split_whitespace());
    a.extend(["-o", out, "--previous", "prev"]);
    a.extend(extra);
    let o = assert_cmd::Command::cargo_bin("routec")
        .unwrap()
        .args(&a)
        .current_dir(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap_or(-1), err)
}

/// Asserts that `out` was routed from scratch with note R020 saying `why`:
/// its tables equal a full compile's.
fn assert_ignored(dir: &Path, topo: &Path, faults: &Path, engine: &str, why: &str) {
    let (code, err) = with_previous(dir, topo, faults, engine, "ignored", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note[R020]") && err.contains(why), "{err}");
    assert!(!err.contains("note[R021]"), "{err}");
    assert_eq!(compile(dir, topo, Some(faults), engine, "scratch", &[]), 0);
    assert_eq!(rows(&dir.join("ignored")), rows(&dir.join("scratch")));
    assert!(report(&dir.join("ignored")).get("incremental").is_none());
}

fn write_state(dir: &Path, json: &str) {
    let packed = zstd::encode_all(json.as_bytes(), 3).unwrap();
    std::fs::write(dir.join("prev/routec-state.json.zst"), packed).unwrap();
}

#[test]
fn state_missing_corrupt_or_of_another_version_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    let state = dir.join("prev/routec-state.json.zst");
    let good = std::fs::read(&state).unwrap();
    std::fs::write(&state, b"not zstd, not json").unwrap();
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "corrupt");
    let mut cut = zstd::decode_all(&good[..]).unwrap();
    cut.truncate(cut.len() / 2);
    write_state(dir, &String::from_utf8(cut).unwrap());
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "corrupt");
    let json = String::from_utf8(zstd::decode_all(&good[..]).unwrap()).unwrap();
    write_state(dir, &json.replacen("\"version\":2", "\"version\":99", 1));
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "state version 99");
    // a link naming a node that does not exist
    let bad = json.replacen("\"links\":[[", "\"links\":[[999999,1,0,1],[", 1);
    write_state(dir, &bad);
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "names no node");
    std::fs::remove_file(&state).unwrap();
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "is missing");
}

/// Dmodc's variant shapes its tables: a state made with the paper's
/// formulas is not reused by the default `spread` run, nor the reverse.
#[test]
fn state_of_another_dmodc_variant_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc --dmodc-variant paper");
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "other options");
    let (code, err) = with_previous(
        dir,
        &topo,
        &faults,
        "--engine dmodc --dmodc-variant paper",
        "same",
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note[R021]"), "{err}");
    std::fs::remove_dir_all(dir.join("prev")).unwrap();
    assert_eq!(compile(dir, &topo, None, "--engine dmodc", "prev", &[]), 0);
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine dmodc --dmodc-variant paper",
        "other options",
    );
}

#[test]
fn state_of_another_engine_options_or_fabric_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine updn --roots top",
        "made by engine dmodc",
    );
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine dmodc --vls 2",
        "other options",
    );
    // another fabric: a 2-level tree whose switches the state does not know
    let other = tempfile::tempdir().unwrap();
    let (t2, _) = generate(other.path(), "--h 2 --m 8,8 --w 1,4 --faults 1");
    std::fs::rename(dir.join("prev"), dir.join("prev-ft3")).unwrap();
    assert_eq!(compile(dir, &t2, None, "--engine dmodc", "prev", &[]), 0);
    assert_ignored(dir, &topo, &faults, "--engine dmodc", "another fabric");
    // the image of one run beside the state of another
    std::fs::remove_dir_all(dir.join("prev")).unwrap();
    std::fs::rename(dir.join("prev-ft3"), dir.join("prev")).unwrap();
    assert_eq!(
        compile(dir, &topo, Some(&faults), "--engine dmodc", "other", &[]),
        0
    );
    std::fs::copy(dir.join("other/routes.lft"), dir.join("prev/routes.lft")).unwrap();
    assert_ignored(
        dir,
        &topo,
        &faults,
        "--engine dmodc",
        "not the ones the state describes",
    );
}

#[test]
fn max_changed_blocks_is_kept_or_the_run_fails_saying_how_many() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    let (code, err) = with_previous(dir, &topo, &faults, "--engine dmodc", "inc", &[]);
    assert_eq!(code, 0, "{err}");
    let blocks = report(&dir.join("inc"))["incremental"]["changed_blocks"]
        .as_u64()
        .unwrap();
    // the blocks counted by the test: 64-entry blocks that differ
    let (prev, inc) = (rows(&dir.join("prev")), rows(&dir.join("inc")));
    let counted: u64 = inc
        .iter()
        .map(|(g, r)| {
            r.chunks(64)
                .zip(prev[g].chunks(64))
                .filter(|(a, b)| a != b)
                .count() as u64
        })
        .sum();
    assert_eq!(blocks, counted);
    let n = blocks.to_string();
    let (code, err) = with_previous(
        dir,
        &topo,
        &faults,
        "--engine dmodc",
        "fits",
        &["--max-changed-blocks", &n],
    );
    assert_eq!(code, 0, "{err}");
    let less = (blocks - 1).to_string();
    let (code, err) = with_previous(
        dir,
        &topo,
        &faults,
        "--engine dmodc",
        "over",
        &["--max-changed-blocks", &less],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("needs {blocks} LFT blocks")), "{err}");
    assert!(!dir.join("over").exists(), "nothing is written");
}

#[test]
fn a_cable_that_comes_back_is_kept_or_restored_by_option() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = generate(dir, "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7");
    let eng = "--engine dmodc";
    // the previous run had the cables cut; now they are back
    assert_eq!(compile(dir, &topo, Some(&faults), eng, "prev", &[]), 0);
    let back = |out: &str, restore: &str| {
        let a = ["--previous", "prev", "--restore", restore];
        assert_eq!(compile(dir, &topo, None, eng, out, &a), 0);
        rows(&dir.join(out))
    };
    let (keep, engine) = (back("keep", "keep"), back("engine", "engine"));
    assert_eq!(compile(dir, &topo, None, eng, "full", &[]), 0);
    let (f, lids) = load(&topo, None);
    let (prev, full) = (rows(&dir.join("prev")), rows(&dir.join("full")));
    // new cables invalidate nothing (memo Table 1): keep changes only
    // entries the oracle finds broken (Dmodc's escape hops of the degraded
    // fabric, which break up/down from their own switch)
    let kept_changed = assert_incremental(&f, &lids, &prev, &keep, &full, Rule::UpDown);
    assert!(kept_changed < differing(&f, &lids, &prev, &engine));
    let rep = report(&dir.join("keep"));
    assert!(rep["incremental"]["reasons"].get("restored").is_none());
    // engine: the routes through the restored cables are the engine's again
    let (to_full_keep, to_full_engine) = (
        differing(&f, &lids, &keep, &full),
        differing(&f, &lids, &engine, &full),
    );
    assert!(
        to_full_engine < to_full_keep,
        "{to_full_engine} vs {to_full_keep}"
    );
    assert!(differing(&f, &lids, &prev, &engine) > 0);
    let rep = report(&dir.join("engine"));
    assert!(rep["incremental"]["reasons"]["restored"].as_u64().unwrap() > 0);
    assert_eq!(rep["verification"]["status"], "pass");
}

#[test]
fn full_routes_from_scratch() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    let (code, err) = with_previous(dir, &topo, &faults, "--engine dmodc", "f", &["--full"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        compile(dir, &topo, Some(&faults), "--engine dmodc", "scratch", &[]),
        0
    );
    assert_eq!(rows(&dir.join("f")), rows(&dir.join("scratch")));
    assert!(!err.contains("R021") && !err.contains("R020"));
}
