//! The engines against OpenSM 3.3.23's own dumps (fixtures/opensm), on
//! fabrics loaded from OpenSM's `opensm-subnet.lst` of the same run.

use std::path::Path;

use super::testfab::{dump_entries, from_subnet_lst};
use crate::model::{Guid, LidMap, NO_ROUTE};
use crate::route::{RootSpec, RouteOptions, engine_by_name};

fn fixture(case: &str, run: &str, file: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opensm").join(case).join(run).join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn root_file(case: &str) -> RootSpec {
    let text = fixture(case, "", "roots.guids");
    RootSpec::Guids(text.lines().filter_map(|l| Guid::parse(l.trim())).collect())
}

/// Routes one fixture run and compares every (switch, LID) with OpenSM:
/// the dump's entries, and 0xFF for every LID the dump leaves out.
fn check(case: &str, run: &str, engine: &str, roots: RootSpec) -> usize {
    let fabric = from_subnet_lst(&fixture(case, run, "opensm-subnet.lst"));
    let lids = LidMap::new(&fabric).unwrap();
    let opts = RouteOptions { roots, node_order: None };
    let routing = engine_by_name(engine).unwrap().route(&fabric, &lids, &opts).unwrap();
    let dump = fixture(case, run, "opensm-lfts.dump");
    let mut expected = routing.lfts.clone();
    for s in 0..expected.num_switches() {
        expected.row_mut(s).fill(NO_ROUTE);
    }
    let entries = dump_entries(&dump);
    for &(sw, lid, port) in &entries {
        let s = fabric.switch_index(fabric.node_by_guid(Guid(sw)).unwrap()).unwrap();
        expected.set(s.ix(), lid, port);
    }
    for s in 0..expected.num_switches() {
        for lid in 0..=lids.max_lid() {
            let (want, got) = (expected.get(s, lid), routing.lfts.get(s, lid));
            assert_eq!(
                want,
                got,
                "{case}/{run}: switch {} LID {lid}: OpenSM {want}, routec {got}",
                fabric.node(fabric.switch_node(crate::model::SwIdx(s as u32))).guid
            );
        }
    }
    let mut text = Vec::new();
    crate::emit::opensm::write_lfts_dump(&fabric, &lids, &routing.lfts, &mut text).unwrap();
    assert!(String::from_utf8(text).unwrap() == dump, "{case}/{run}: dump text differs");
    entries.len()
}

#[test]
fn minhop_is_opensm_on_every_fixture() {
    for case in ["ft2", "ft3", "ft3f", "heur", "irr"] {
        let n = check(case, "minhop", "minhop", RootSpec::Auto);
        eprintln!("{case}/minhop: {n} entries identical");
    }
}

#[test]
fn updn_is_opensm_on_every_fixture() {
    for case in ["ft2", "ft3", "ft3f", "heur"] {
        let n = check(case, "updn", "updn", RootSpec::Auto);
        eprintln!("{case}/updn: {n} entries identical");
    }
    for case in ["ft3f", "irr"] {
        let n = check(case, "updn-roots", "updn", root_file(case));
        eprintln!("{case}/updn-roots: {n} entries identical");
    }
}
