//! Determinism (thread count), `--node-order`, and the compile command.

use super::paper::fig4;
use super::*;

#[test]
fn output_does_not_depend_on_thread_count() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 4], &[1, 4, 4], Some(&[1, 1, 1]))).unwrap();
    let faults = random_faults(
        &f,
        &FaultPlan {
            links: 10,
            switches: 1,
            seed: 7,
        },
    )
    .unwrap();
    let (f, _) = f.apply_faults(&faults).unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| route(&f).lfts)
    };
    assert_eq!(run(1).as_bytes(), run(2).as_bytes());
}

#[test]
fn node_order_renumbers_destinations() {
    // Reversing the node order of Fig. 4 moves λ's host from d = 20 to d = 0:
    // group ⌊0/4⌋ mod 2 = 0 (T1, port 2).
    let f = fig4();
    let lids = LidMap::new(&f).unwrap();
    let mut order: Vec<Guid> = topological_nodes(&f)
        .iter()
        .map(|e| f.port(e.node, e.port).guid)
        .collect();
    order.reverse();
    order.push(Guid(0xdead));
    let opts = RouteOptions {
        node_order: Some(order),
        ..RouteOptions::default()
    };
    let r = Dmodc::default().route(&f, &lids, &opts).unwrap();
    assert_eq!(r.lfts.get(sw_of(&f, 0x20).ix(), host_lid(&f, 0x2000)), 2);
    assert!(r.notes.iter().any(|n| n.code == "D003"));
}

#[test]
fn compile_cli_routes_a_generated_pgft_and_refuses_a_split_one() {
    use std::process::Command;
    let bin = assert_cmd::cargo::cargo_bin("routec");
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join("t.topo");
    let st = Command::new(&bin)
        .args([
            "gen", "pgft", "--h", "2", "--m", "4,8", "--w", "1,4", "-q", "-o",
        ])
        .arg(&topo)
        .status()
        .unwrap();
    assert!(st.success());
    let out = dir.path().join("out");
    let run = |t: &std::path::Path| {
        Command::new(&bin)
            .args(["compile", "--engine", "dmodc", "--emit", "none", "-o"])
            .arg(&out)
            .arg(t)
            .output()
            .unwrap()
    };
    let o = run(&topo);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Two leaves with no cable between them: no path at all, exit 2
    // naming the pair.
    let split = dir.path().join("split.topo");
    let mut h = Hand::new();
    h.sw(0x1, 4)
        .sw(0x2, 4)
        .host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4);
    let f = h.build();
    let mut text = Vec::new();
    routec::emit::ibnetdiscover::write(&f, &mut text).unwrap();
    std::fs::write(&split, text).unwrap();
    let o = run(&split);
    assert_eq!(o.status.code(), Some(2));
    // miette wraps the message: compare words
    let err: Vec<String> = String::from_utf8_lossy(&o.stderr)
        .split_whitespace()
        .filter(|w| *w != "│")
        .map(String::from)
        .collect();
    let err = err.join(" ");
    assert!(
        err.contains("(2 ordered leaf switch pairs) have no path at all"),
        "{err}"
    );
}
