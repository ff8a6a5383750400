//! `routec check` on multicast tables: a clean `compile --mcast` output on
//! the paper's Figure 2 (fixtures/mcast/), then `opensm.mcfdbs` files
//! corrupted by hand, each giving its finding with switch and MLID named.

use crate::common;

use common::routec;
use std::path::{Path, PathBuf};

use routec::model::Mfts;
use routec::model::{Fabric, Guid, SwIdx};
use routec::parse::mcfdbs::parse_mcfdbs;
use routec::parse::{LoadOptions, load_topology};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FIG2: &str = "fixtures/mcast/fig2.ibnetdiscover";
const FT2: &str = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";

fn fixture(p: &str) -> PathBuf {
    Path::new(ROOT).join(p)
}

/// A fresh `compile --mcast` output in `case/out`; returns `case`.
fn compile(name: &str, topo: &str, groups: &Path, mft_size: u32) -> PathBuf {
    let case = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mcast_check_{name}"));
    let _ = std::fs::remove_dir_all(&case);
    std::fs::create_dir_all(&case).unwrap();
    let (topo, groups) = (fixture(topo), groups.display().to_string());
    let size = mft_size.to_string();
    let args = [
        "-q",
        "compile",
        topo.to_str().unwrap(),
        "--engine",
        "minhop",
        "--mcast",
        &groups,
        "--mft-size",
        &size,
        "-o",
        "out",
    ];
    assert_eq!(routec(&args, &case).0, 0);
    case
}

fn load(topo: &str) -> Fabric {
    load_topology(&fixture(topo), &LoadOptions::default())
        .unwrap()
        .fabric
}

fn sw(f: &Fabric, guid: u64) -> SwIdx {
    f.switch_index(f.node_by_guid(Guid(guid)).unwrap()).unwrap()
}

/// Rewrites `case/out/opensm.mcfdbs` after `edit`.
fn corrupt(case: &Path, f: &Fabric, edit: impl FnOnce(&mut Mfts)) {
    let path = case.join("out/opensm.mcfdbs");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut mfts = parse_mcfdbs("opensm.mcfdbs", &text, f).unwrap();
    edit(&mut mfts);
    let mut out = Vec::new();
    routec::emit::mcfdbs::write_mcfdbs(f, &mfts, &mut out).unwrap();
    std::fs::write(&path, out).unwrap();
}

/// Adds (`true`) or removes port `p` of `mlid`'s entry on switch `s`.
fn toggle(m: &mut Mfts, s: SwIdx, mlid: u16, p: u8, on: bool) {
    let mut mask = m.get(s, mlid).copied().unwrap_or_default();
    mask.0[p as usize / 64] &= !(1 << (p % 64));
    if on {
        mask.set(p);
    }
    m.insert(s, mlid, mask);
}

/// `check --json` on `case/out`: exit code, and (code, MLIDs, switches) of
/// every finding.
fn check_json(case: &Path, topo: &str) -> (i32, Vec<(String, Value, Value)>, Value) {
    let topo = fixture(topo);
    let (code, out) = routec(
        &["check", topo.to_str().unwrap(), "--lfts", "out", "--json"],
        case,
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let found = v["findings"].as_array().unwrap().iter();
    let found = found.map(|f| {
        (
            f["code"].as_str().unwrap().to_string(),
            f["lids"].clone(),
            f["switches"].clone(),
        )
    });
    (code, found.collect(), v)
}

fn one(code: &str, mlid: u16, switch: u64) -> Vec<(String, Value, Value)> {
    vec![(
        code.to_string(),
        serde_json::json!([mlid]),
        // GUIDs are "0x%016x" strings in JSON (jq rounds big integers)
        serde_json::json!([format!("{:#018x}", switch)]),
    )]
}

#[test]
fn figure2_compile_output_checks_clean() {
    for size in [1, 16383] {
        let case = compile(
            &format!("fig2_{size}"),
            FIG2,
            &fixture("fixtures/mcast/fig2.groups"),
            size,
        );
        let (code, found, v) = check_json(&case, FIG2);
        assert_eq!((code, found), (0, vec![]));
        let m = &v["multicast"];
        // One colour: three trees, the merged pair on one (TFI 2); no
        // limit: four trees on two MLIDs (seed:mr4lms Figure 2).
        let want = if size == 1 { (1, 3, 2) } else { (2, 4, 1) };
        assert_eq!(
            (
                m["mlids"].as_u64(),
                m["trees"].as_u64(),
                m["max_tfi"].as_u64()
            ),
            (Some(want.0), Some(want.1), Some(want.2))
        );
        assert_eq!(m["groups_checked"], 4);
    }
}

#[test]
fn figure2_corrupted_mfts_name_switch_and_mlid() {
    let f = load(FIG2);
    let groups = fixture("fixtures/mcast/fig2.groups");
    // B (port 3 of sw1) dropped from the A,B tree.
    let case = compile("fig2_member", FIG2, &groups, 1);
    corrupt(&case, &f, |m| toggle(m, sw(&f, 0x101), 0xC000, 3, false));
    let (code, found, v) = check_json(&case, FIG2);
    assert_eq!((code, found), (1, one("V031", 0xC000, 0x101)));
    let msg = v["findings"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("member 0x0000000000000021 of ff00::0001"),
        "{msg}"
    );
    // sw1 also forwards up and sw0 down to it: the A,B tree joins the
    // E..H tree on colour 0xC000 where it enters it, at sw0.
    let case = compile("fig2_join", FIG2, &groups, 1);
    corrupt(&case, &f, |m| {
        toggle(m, sw(&f, 0x101), 0xC000, 1, true);
        toggle(m, sw(&f, 0x100), 0xC000, 1, true);
    });
    let (code, found, _) = check_json(&case, FIG2);
    assert_eq!((code, found), (1, one("V036", 0xC000, 0x100)));
    let (_, text) = routec(
        &["check", fixture(FIG2).to_str().unwrap(), "--lfts", "out"],
        &case,
    );
    insta::assert_snapshot!("fig2_joined_trees", text);
    // sw0 sends down to sw2, which does not send back: V034 with the port.
    let case = compile("fig2_oneway", FIG2, &groups, 1);
    corrupt(&case, &f, |m| toggle(m, sw(&f, 0x100), 0xC000, 2, true));
    let (code, found, v) = check_json(&case, FIG2);
    assert_eq!((code, found), (1, one("V034", 0xC000, 0x100)));
    assert_eq!(v["findings"][0]["hops"][0]["out_port"], 2);
}

#[test]
fn a_second_spine_path_is_a_loop() {
    // H0028 on L1S0007 and H0024 on L1S0006 of the two-level fat tree.
    let f = load(FT2);
    let case = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcast_check_ft2.groups");
    std::fs::write(&case, "pair 0x0002c90200001c01 0x0002c90200001801\n").unwrap();
    let case = compile("ft2_loop", FT2, &case, 4);
    let (leaves, mlid) = (
        [sw(&f, 0x0002c90101000007), sw(&f, 0x0002c90101000006)],
        0xC000,
    );
    corrupt(&case, &f, |m| {
        // A spine the tree does not use, joined to both leaves.
        let spine = (5..=8u8)
            .map(|p| f.peer(f.switch_node(leaves[0]), p).unwrap())
            .find(|q| m.get(f.switch_index(q.node).unwrap(), mlid).is_none())
            .unwrap();
        let s = f.switch_index(spine.node).unwrap();
        for &leaf in &leaves {
            let up =
                (5..=8u8).find(|&p| f.peer(f.switch_node(leaf), p).unwrap().node == spine.node);
            toggle(m, leaf, mlid, up.unwrap(), true);
            let down = f.peer(f.switch_node(leaf), up.unwrap()).unwrap().port;
            toggle(m, s, mlid, down, true);
        }
    });
    let (code, found, _) = check_json(&case, FT2);
    assert_eq!(code, 1);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].0.as_str(), &found[0].1),
        ("V033", &serde_json::json!([mlid]))
    );
    let at = Guid::parse(found[0].2[0].as_str().unwrap()).unwrap();
    let cycle: Vec<Guid> = (0..f.num_switches() as u32)
        .map(SwIdx)
        .filter(|&s| {
            let t = std::fs::read_to_string(case.join("out/opensm.mcfdbs")).unwrap();
            parse_mcfdbs("x", &t, &f).unwrap().get(s, mlid).is_some()
        })
        .map(|s| f.node(f.switch_node(s)).guid)
        .collect();
    assert_eq!(cycle.len(), 4, "two leaves and two spines");
    assert!(cycle.contains(&at), "{at} on the cycle {cycle:?}");
}

#[test]
fn explicit_groups_and_mcfdbs_without_colour_table() {
    // OpenSM's model: each group's MLID comes from the groups file.
    let case = compile(
        "fig2_flags",
        FIG2,
        &fixture("fixtures/mcast/fig2.groups"),
        16383,
    );
    let dir = case.join("bare");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(case.join("out/opensm.mcfdbs"), dir.join("opensm.mcfdbs")).unwrap();
    let topo = fixture(FIG2);
    let groups = "ff00::0001 mlid=0xC000 0x20 0x21\nff00::0002 mlid=0xC000 0x22 0x23\n\
                  ff00::0003 mlid=0xC000 0x24 0x26\nff00::0004 mlid=0xC001 0x25 0x27\n";
    std::fs::write(dir.join("groups"), groups).unwrap();
    let args = [
        "check",
        topo.to_str().unwrap(),
        "--mcfdbs",
        "bare/opensm.mcfdbs",
        "--mcast",
        "bare/groups",
    ];
    let (code, out) = routec(&args, &case);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("checked 4 groups on 2 MLIDs"), "{out}");
    // A group without an MLID: V030.
    std::fs::write(
        dir.join("groups"),
        groups.replace("ff00::0002 mlid=0xC000", "ff00::0002"),
    )
    .unwrap();
    let (code, out) = routec(&args, &case);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("V030 error: group ff00::0002 has no MLID"),
        "{out}"
    );
    // --mcast without MFTs is a usage error.
    let (code, _) = routec(
        &["check", topo.to_str().unwrap(), "--mcast", "bare/groups"],
        &case,
    );
    assert_eq!(code, 2);
}

#[test]
fn findings_doc_lists_every_code_and_its_example_is_current() {
    let doc = std::fs::read_to_string(fixture("formats/findings.md")).unwrap();
    for code in routec::verify::Code::ALL {
        assert!(doc.contains(&format!("| {code} |")), "{code} missing");
    }
    // the multicast table has a title column
    let mcast = routec::verify::Code::ALL
        .into_iter()
        .filter(|c| *c >= routec::verify::Code::V030);
    for code in mcast {
        assert!(
            doc.contains(&format!("| {code} | {} |", code.title())),
            "{code} title"
        );
    }
    let snap = std::fs::read_to_string(fixture(
        "tests/it/snapshots/it__mcast_check__fig2_joined_trees.snap",
    ))
    .unwrap();
    let body = snap.splitn(3, "---\n").nth(2).unwrap();
    assert!(
        doc.contains(body),
        "findings.md example differs from the snapshot"
    );
}
