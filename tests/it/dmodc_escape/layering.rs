//! Escape paths laid on VLs on larger fabrics: plans by shape on a big PGFT
//! with aggregation nodes, and a production-like fabric whose leaves without
//! a common ancestor need 4 VLs; routec's check and ibdmchk agree.

use std::path::Path;

use crate::common::routec;

use super::oracle::sls_follow_up_down;
use super::{ROOT, compile, generate, ibdmchk_loops, tmp};

/// Past `layers::SHAPES_FROM` escape paths (22,848 here) the escape paths
/// go on VLs by shape (`formats/dmodc.md` §9, "Plans by shape"): 3 VLs on
/// PGFT(3; 8,8,12; 1,8,8) with aggregation nodes; routec's check and
/// ibdmchk, reading the emitted SL files, find no credit loop, and with
/// every path on one VL ibdmchk finds one.
#[test]
fn plans_by_shape_agree_with_ibdmchk() {
    let dir = tmp("shapes");
    let topo = generate(&dir, "--h 3 --m 8,8,12 --w 1,8,8 --aggregation-nodes");
    let out = dir.join("out");
    let (code, err) = compile(&topo, &out, "8");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("22848 end-port pairs take escape routes; 3 VL(s)"),
        "{err}"
    );
    let (code, text) = routec(
        &["check", &topo, "--lfts", out.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{text}");
    if let Some(loops) = ibdmchk_loops(&out, Some("ibdmchk.psl")) {
        assert!(!loops, "ibdmchk finds a credit loop in the plan by shape");
        assert_eq!(ibdmchk_loops(&out, None), Some(true), "one VL");
    }
}

/// Every feature of a production fabric at once: aggregation nodes, a
/// management pod cabled to two tops, an isolated pod whose leaves share
/// no top with it, empty host ports, cross cables, a missing top. Leaf
/// pairs without a common ancestor and the aggregation nodes escape;
/// layering needs 4 VLs here (stated in the README), and a smaller `--vls`
/// is refused with that number.
#[test]
fn leaves_without_a_common_ancestor_escape() {
    let dir = tmp("prod");
    let topo = generate(
        &dir,
        "--h 3 --m 4,4,4 --w 1,4,4 --aggregation-nodes --mgmt-pod 1:2:2 --isolated-pods 1 \
         --empty-host-ports 0.2 --cross-cables 2 --drop-top 1 --seed 1",
    );
    let (code, err) = compile(&topo, &dir.join("two"), "2");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("(32 of them leaf pairs)") && err.contains("--vls 4 routes them"),
        "{err}"
    );
    let out = dir.join("eight");
    let (code, err) = compile(&topo, &out, "8");
    assert_eq!(code, 0, "{err}");
    let (on0, escaped) = sls_follow_up_down(&out, false);
    assert!(on0 > escaped && escaped > 0, "{on0} {escaped}");
    let (code, text) = routec(
        &["check", &topo, "--lfts", out.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("4 VL(s)"), "{text}");
    if ibdmchk_loops(&out, Some("ibdmchk.psl")).is_some() {
        assert_eq!(ibdmchk_loops(&out, Some("ibdmchk.psl")), Some(false));
    }
}
