//! VTFTR (issue 15): the whole compile — parse, faults, route, verify per
//! VL, emit — of a 32×32-leaf 2-D fat tree with 16 hosts per leaf (16,384
//! hosts) and 10 faulty leaves (seeded, random), as
//! `routec compile T --faults F --engine vtftr -o OUT` runs it (the release
//! binary, OUT emptied before each run so every output is written).
//! Target: under 1 s on 2 cores. Also the route and verify stages alone,
//! through the library.
//!
//! `cargo bench --bench vtftr`.

mod common;

use std::path::Path;
use std::process::Command;

use routec::generate::ft2d::{FaultPattern, Ft2dSpec, faulty_leaves, ft2d, leaf_guid};
use routec::model::{Fault, LidMap};
use routec::route::vtftr::Vtftr;
use routec::route::{Engine, RouteOptions};
use routec::verify::{VerifyOptions, verify_tables};

fn main() {
    let reference = common::reference();
    let spec = Ft2dSpec {
        nx: 32,
        ny: 32,
        hosts: 16,
        rsw: 1,
        csw: 1,
    };
    let fabric = ft2d(&spec).expect("ft2d");
    let faults: Vec<Fault> = faulty_leaves(&spec, 10, FaultPattern::Random, 1)
        .expect("faults")
        .iter()
        .map(|&(x, y)| Fault::Switch(leaf_guid(&spec, x, y)))
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench_vtftr");
    std::fs::create_dir_all(&dir).expect("dir");
    let (topo, list, out) = (dir.join("ft2d.topo"), dir.join("faults"), dir.join("out"));
    let mut text = Vec::new();
    routec::emit::ibnetdiscover::write(&fabric, &mut text).expect("text");
    std::fs::write(&topo, text).expect("topology");
    let mut text = Vec::new();
    routec::generate::faults::write_faults(&faults, "bench", &mut text).expect("faults");
    std::fs::write(&list, text).expect("faults");

    let compile = || {
        let _ = std::fs::remove_dir_all(&out);
        let st = Command::new(env!("CARGO_BIN_EXE_routec"))
            .args(["-q", "compile"])
            .arg(&topo)
            .arg("--faults")
            .arg(&list)
            .args(["--engine", "vtftr", "-o"])
            .arg(&out)
            .status()
            .expect("routec");
        assert!(st.success(), "compile failed");
    };
    let took = common::best(3, compile);
    common::report(
        "ft2d 32x32x16, 10 faulty leaves: whole compile (CLI)",
        took,
        reference,
    );

    let (f, _) = fabric.apply_faults(&faults).expect("faults");
    let lids = LidMap::new(&f).expect("LIDs");
    let opts = RouteOptions::default();
    let route = common::best(3, || Vtftr.route(&f, &lids, &opts).expect("routed"));
    common::report("  route (vtftr)", route, reference);
    let r = Vtftr.route(&f, &lids, &opts).expect("routed");
    let vo = VerifyOptions {
        operational_vls: 2,
        ..VerifyOptions::promised_by(&r)
    };
    let check = common::best(3, || {
        let v = verify_tables(&f, &lids, &r.lfts, &vo);
        assert!(v.is_clean(), "{}", v.render());
    });
    common::report("  verify per VL", check, reference);
}
