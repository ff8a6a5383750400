//! `routec diff` and `routec::diff`: counts checked against an independent
//! count over the two tables, LID renumbering, added/removed switches, the
//! CLI's JSON and exit codes.

use crate::common;
use crate::doc_blocks;

use std::path::Path;

use assert_cmd::Command;
use routec::diff::diff_tables;
use routec::model::TableSet;
use routec::model::faults::{Fault, PortRef};
use routec::model::{Fabric, Guid, LFT_BLOCK, Lfts, LidMap};
use routec::parse::lfts::{parse_text, read_tables};
use routec::parse::{LoadOptions, load_topology};
use routec::route::{RouteOptions, engine_by_name};

const FT2: &str = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";

fn route(f: &Fabric) -> (LidMap, Lfts) {
    let lids = LidMap::new(f).unwrap();
    let r = engine_by_name("minhop")
        .unwrap()
        .route(f, &lids, &RouteOptions::default())
        .unwrap();
    (lids, r.lfts)
}

fn ft2() -> Fabric {
    load_topology(Path::new(FT2), &LoadOptions::default())
        .unwrap()
        .fabric
}

/// The cable L1S0007/5 — L2S0000/8 removed.
fn ft2_faulted() -> Fabric {
    let fault = Fault::Link {
        end: PortRef {
            guid: Guid(0x0002c90101000007),
            port: 5,
        },
        other: None,
    };
    ft2().apply_faults(&[fault]).unwrap().0
}

/// (switches changed, entries changed, blocks changed), counted by brute
/// force over LIDs, matching switches by GUID.
fn brute_force(old: &TableSet, new: &TableSet) -> (usize, u64, u64) {
    let (mut sw, mut entries, mut blocks) = (0, 0, 0);
    for (ni, s) in new.switches.iter().enumerate() {
        let Some(oi) = old.switch_by_guid(s.guid) else {
            continue;
        };
        let top = s.top.max(old.switches[oi].top) as usize;
        let e = (0..=top as u16)
            .filter(|&l| old.port(oi, l) != new.port(ni, l))
            .count() as u64;
        let b = (0..=s.top as usize / LFT_BLOCK)
            .filter(|b| {
                (b * LFT_BLOCK..(b + 1) * LFT_BLOCK)
                    .any(|l| old.port(oi, l as u16) != new.port(ni, l as u16))
            })
            .count() as u64;
        sw += usize::from(e > 0 || b > 0);
        entries += e;
        blocks += b;
    }
    (sw, entries, blocks)
}

#[test]
fn link_fault_diff_matches_an_independent_count() {
    let (f0, f1) = (ft2(), ft2_faulted());
    let ((l0, t0), (l1, t1)) = (route(&f0), route(&f1));
    let old = TableSet::from_routing(&f0, &l0, &t0);
    let new = TableSet::from_routing(&f1, &l1, &t1);
    let d = diff_tables(&old, &new, true);
    let (sw, entries, blocks) = brute_force(&old, &new);
    assert!(sw > 0, "the fault must move some routes");
    assert_eq!(
        (d.switches_changed, d.entries_changed, d.blocks_changed),
        (sw, entries, blocks)
    );
    assert_eq!(d.blocks_to_upload, blocks);
    assert_eq!(d.destinations_matched_by, "port-guid");
    assert!(d.lids_renumbered.is_empty() && d.lids_added.is_empty() && d.lids_removed.is_empty());
    let listed: usize = d.switches.iter().map(|s| s.changes.len()).sum();
    assert_eq!(listed as u64, entries);
    for s in &d.switches {
        let (oi, ni) = (
            old.switch_by_guid(s.switch.guid).unwrap(),
            new.switch_by_guid(s.switch.guid).unwrap(),
        );
        for c in &s.changes {
            assert_eq!(
                (old.port(oi, c.lid), new.port(ni, c.lid)),
                (c.old_port, c.new_port)
            );
        }
    }
    let dests: std::collections::BTreeSet<u16> = d
        .switches
        .iter()
        .flat_map(|s| s.changes.iter().map(|c| c.lid))
        .collect();
    assert_eq!(d.destinations_changed, dests.len());
    assert!(diff_tables(&old, &old, false).is_empty());
}

#[test]
fn lid_renumbering_is_reported_as_such() {
    let f0 = ft2();
    let (l0, t0) = route(&f0);
    let old = TableSet::from_routing(&f0, &l0, &t0);
    // Swap the LIDs of two hosts and move their table columns with them:
    // the same routes under new numbers.
    let mut dump = Vec::new();
    routec::emit::opensm::write_lfts_dump(&f0, &l0, &t0, &mut dump).unwrap();
    let text = String::from_utf8(dump).unwrap();
    let (a, b) = ("0x0001 ", "0x0006 ");
    let swapped: String = text
        .lines()
        .map(|l| {
            if let Some(r) = l.strip_prefix(a) {
                format!("{b}{r}\n")
            } else if let Some(r) = l.strip_prefix(b) {
                format!("{a}{r}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let new = parse_text("swapped", &swapped).unwrap();
    let d = diff_tables(&old, &new, false);
    assert_eq!(d.lids_renumbered.len(), 2, "{:?}", d.lids_renumbered);
    assert_eq!(d.entries_changed, 0);
    assert_eq!(d.switches_changed, d.switches.len());
    assert!(d.blocks_changed > 0, "the uploads still change");
    assert!(!d.is_empty());
    // By LID alone (no GUIDs on one side) the same change is many entries.
    let bare: String = swapped
        .lines()
        .map(|l| format!("{}\n", l.split(" # ").next().unwrap()))
        .collect();
    let d2 = diff_tables(&old, &parse_text("bare", &bare).unwrap(), false);
    assert_eq!(d2.destinations_matched_by, "lid");
    assert!(d2.entries_changed > 0);
}

#[test]
fn added_and_removed_switches() {
    let f0 = ft2();
    let (l0, t0) = route(&f0);
    let mut dump = Vec::new();
    routec::emit::opensm::write_lfts_dump(&f0, &l0, &t0, &mut dump).unwrap();
    let text = String::from_utf8(dump).unwrap();
    let first_end = text.find("lids dumped\n").unwrap() + "lids dumped\n".len();
    let full = parse_text("full", &text).unwrap();
    let less = parse_text("less", &text[first_end..]).unwrap();
    let d = diff_tables(&full, &less, false);
    assert_eq!(d.switches_removed.len(), 1);
    assert_eq!(d.switches_removed[0].guid, full.switches[0].guid);
    assert_eq!(d.switches_changed, 0);
    let back = diff_tables(&less, &full, false);
    assert_eq!(back.switches_added.len(), 1);
    assert_eq!(
        back.blocks_to_upload,
        full.lft(0).len() as u64 / LFT_BLOCK as u64
    );
}

fn routec() -> Command {
    Command::cargo_bin("routec").unwrap()
}

fn compile(topo: &Path, out: &Path, extra: &[&str]) {
    routec()
        .args(["compile", "--engine", "minhop", "-q", "-o"])
        .arg(out)
        .arg(topo)
        .args(extra)
        .assert()
        .code(0);
}

#[test]
fn cli_diff_before_and_after_a_cable_loss() {
    let dir = tempfile::tempdir().unwrap();
    let faulted = common::ft2_without_one_cable(dir.path());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    compile(Path::new(FT2), &a, &["--emit", "image,opensm"]);
    compile(&faulted, &b, &["--emit", "image", "--compress"]);

    let out = routec()
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .args(["--json", "--exit-code"])
        .assert()
        .code(3);
    let j: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let (old, new) = (read_tables(&a).unwrap(), read_tables(&b).unwrap());
    let (sw, entries, blocks) = brute_force(&old, &new);
    assert_eq!(j["switches_changed"].as_u64(), Some(sw as u64));
    assert_eq!(j["entries_changed"].as_u64(), Some(entries));
    assert_eq!(j["blocks_changed"].as_u64(), Some(blocks));
    // The example of formats/diff-json.md has the real shape and numbers.
    let block = &doc_blocks::fenced("formats/diff-json.md", "json")[0];
    let example: serde_json::Value = serde_json::from_str(block).unwrap();
    for k in [
        "switches_changed",
        "entries_changed",
        "blocks_changed",
        "destinations_changed",
    ] {
        assert_eq!(example[k], j[k], "{k}");
    }
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&example), keys(&j));
    assert_eq!(keys(&example["switches"][0]), keys(&j["switches"][0]));
    assert_eq!(example["switches"][0]["guid"], j["switches"][0]["guid"]);
    let summary = routec().arg("diff").arg(&a).arg(&b).assert().code(0);
    insta::assert_snapshot!(
        "ft2_cable_loss_summary",
        String::from_utf8_lossy(&summary.get_output().stdout)
    );
    let guids: Vec<String> = j["switches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["guid"].to_string())
        .collect();
    assert_eq!(guids.len(), sw);

    // Same tables in two formats: nothing to upload, exit 0.
    routec()
        .arg("diff")
        .arg(a.join("routes.lft"))
        .arg(a.join("opensm-lfts.dump"))
        .arg("--exit-code")
        .assert()
        .code(0)
        .stdout(predicates::str::contains("LFT entries changed: 0"));
    // Without --exit-code differences still exit 0; the summary names them.
    routec()
        .arg("diff")
        .arg(&a)
        .arg(b.join("routes.lft.zst"))
        .assert()
        .code(0)
        .stdout(predicates::str::contains(format!(
            "blocks to upload: {blocks} "
        )));
    routec()
        .arg("diff")
        .arg(&a)
        .arg(dir.path().join("nope"))
        .assert()
        .code(2);
}

#[test]
fn routec_image_against_opensm_own_dump_is_empty() {
    // What OpenSM uploaded (its dump) against what routec proposes.
    let dir = tempfile::tempdir().unwrap();
    compile(Path::new(FT2), dir.path(), &[]);
    let out = routec()
        .arg("diff")
        .arg("fixtures/opensm/ft2/minhop/opensm-lfts.dump")
        .arg(dir.path())
        .args(["--json", "--exit-code"])
        .assert()
        .code(0);
    let j: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(j["switches_changed"], 0);
    assert_eq!(j["destinations_matched_by"], "port-guid");
    assert_eq!(j["switches_old"], 12);
}

/// A VL plan against none (ring6 min-hop layered onto 2 VLs): every
/// switch's SLtoVLMappingTable changes for every (in 0..8, out 1..8, in ≠
/// out) pair, 64 SMPs per 8-port switch, worked out by hand; the path SLs
/// that change are exactly the plan's non-zero (source switch, LID)
/// entries, counted here from the image's plan.
#[test]
fn vl_plan_changes_counted_as_smps_and_path_sls() {
    let dir = tempfile::tempdir().unwrap();
    let topo = Path::new("fixtures/verify/ring6/ibnetdiscover.txt");
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    // one VL: the credit loop is reported (exit 1), the tables written anyway
    routec()
        .args([
            "compile",
            "--engine",
            "minhop",
            "-q",
            "--allow-invalid",
            "-o",
        ])
        .arg(&one)
        .arg(topo)
        .assert()
        .code(1);
    compile(topo, &two, &["--vls", "8"]);
    let (a, b) = (read_tables(&one).unwrap(), read_tables(&two).unwrap());
    let d = diff_tables(&a, &b, false);
    let v = d.vl.clone().expect("a side has a plan");
    assert_eq!((v.vls_old, v.vls_new), (1, 2));
    assert_eq!((v.sl2vl_smps, v.sl2vl_switches), (6 * 64, 6));
    assert!(v.end_port_map_changed);
    assert_eq!(d.entries_changed, 0, "layering leaves the LFTs alone");
    let f = load_topology(topo, &LoadOptions::default()).unwrap().fabric;
    let lids = LidMap::new(&f).unwrap();
    let plan = b.align(&f, &lids).unwrap().vl_plan.unwrap();
    let nonzero = (0..f.num_switches())
        .flat_map(|s| (1..=lids.max_lid()).map(move |l| (s, l)))
        .filter(|&(s, l)| plan.path_sl.get(s, l) != 0)
        .count() as u64;
    assert!(nonzero > 0);
    assert_eq!(v.path_sls_changed, nonzero);
    assert!(!d.is_empty());
    // the reverse diff counts the same; a plan against itself is empty
    let back = diff_tables(&b, &a, false).vl.unwrap();
    assert_eq!(
        (back.sl2vl_smps, back.path_sls_changed),
        (v.sl2vl_smps, v.path_sls_changed)
    );
    let same = diff_tables(&b, &b, false);
    assert!(same.is_empty() && same.vl.unwrap().is_empty());
    // LFT-only on both sides: no "vl" block at all
    assert!(diff_tables(&a, &a, false).vl.is_none());
}
