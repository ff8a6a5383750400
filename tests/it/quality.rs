//! Route quality (issue 6 check 4): hand-worked loads on a 2-leaf, 2-spine
//! fat tree, Dmodc on full-bisection PGFTs, agreement with the pair-by-pair
//! tracer of `verify::congestion`, and `routec report` on OpenSM tables.

use assert_cmd::Command;
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::lids::assign_missing_lids;
use routec::model::{Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec};
use routec::route::{Dmodc, Engine, RouteOptions};
use routec::verify::congestion::{
    EndPort, LinkIndex, pattern_load, shift_congestion, topological_nodes,
};
use routec::verify::quality::{LoadCount, QualityOptions, QualityReport, evaluate};

/// Leaves 0x10, 0x11 (ports 1–2: hosts, 3: spine 0x20, 4: spine 0x21);
/// spines' port 1 → leaf 0x10, port 2 → leaf 0x11. Hosts h0..h3 (node GUID
/// 0x100+i, port GUID 0x200+i): h0, h1 on leaf 0x10, h2, h3 on leaf 0x11,
/// so the topological order is h0, h1, h2, h3.
fn tiny() -> Fabric {
    let mut b = FabricBuilder::new();
    let mut add = |k, g: u64, ports| {
        b.add_node(NodeSpec::new(k, Guid(g), ports, format!("n{g:x}")))
            .unwrap()
    };
    let l = [
        add(NodeKind::Switch, 0x10, 4),
        add(NodeKind::Switch, 0x11, 4),
    ];
    let s = [
        add(NodeKind::Switch, 0x20, 2),
        add(NodeKind::Switch, 0x21, 2),
    ];
    let h: Vec<_> = (0..4).map(|i| add(NodeKind::Ca, 0x100 + i, 1)).collect();
    for i in 0..4 {
        b.port_mut(h[i], 1).unwrap().guid = Guid(0x200 + i as u64);
        b.connect(h[i], 1, l[i / 2], 1 + (i % 2) as u8).unwrap();
    }
    for (li, &leaf) in l.iter().enumerate() {
        for (si, &spine) in s.iter().enumerate() {
            b.connect(leaf, 3 + si as u8, spine, 1 + li as u8).unwrap();
        }
    }
    let mut f = b.build();
    assign_missing_lids(&mut f).unwrap();
    f
}

fn sw(f: &Fabric, g: u64) -> usize {
    f.switch_index(f.node_by_guid(Guid(g)).unwrap())
        .unwrap()
        .ix()
}

fn host_lid(f: &Fabric, i: u64) -> u16 {
    f.port(f.node_by_guid(Guid(0x100 + i)).unwrap(), 1).lid
}

/// Tables where host d leaves its source leaf by the port `up(d)` (3 or 4)
/// and goes down the obvious way. D-mod-k with 2 spines: `up(d) = 3 + d % 2`.
fn tables(f: &Fabric, up: impl Fn(u64) -> u8) -> Lfts {
    let lids = LidMap::new(f).unwrap();
    let mut t = Lfts::new(f.num_switches(), lids.max_lid());
    for d in 0..4u64 {
        let lid = host_lid(f, d);
        let (home, port) = (d / 2, 1 + (d % 2) as u8);
        for leaf in 0..2u64 {
            let p = if leaf == home { port } else { up(d) };
            t.set(sw(f, 0x10 + leaf), lid, p);
        }
        for spine in [0x20, 0x21] {
            t.set(sw(f, spine), lid, 1 + home as u8);
        }
    }
    t
}

fn report(f: &Fabric, t: &Lfts, nodes: &[EndPort]) -> QualityReport {
    let lids = LidMap::new(f).unwrap();
    let opts = QualityOptions {
        samples: 20,
        ..Default::default()
    };
    evaluate(f, &lids, t, nodes, "topological", &opts)
}

#[test]
fn dmodk_tables_on_the_tiny_tree_are_congestion_free() {
    let f = tiny();
    let r = report(
        &f,
        &tables(&f, |d| 3 + (d % 2) as u8),
        &topological_nodes(&f),
    );
    let s = r.shift.as_ref().unwrap();
    // k=1: 0→1 and 2→3 stay on their leaf; 1→2 goes up spine 0 (d=2 even),
    // 3→0 up spine 0 from the other leaf: four distinct links, load 1.
    // k=2: 0→2 (spine 0), 1→3 (spine 1), 2→0 (spine 0), 3→1 (spine 1).
    // k=3: 0→3 and 2→1 over spine 1. So every shift has max load 1.
    assert_eq!(s.permutations, 3);
    assert_eq!(s.max_switch_load, 1);
    assert_eq!(s.histogram, vec![LoadCount { load: 1, count: 3 }]);
    assert_eq!(s.max_host_load, 1);
    // Each up link leaf→spine x carries only the one remote host with
    // parity x, so *every* permutation is congestion-free here.
    let rnd = r.random.as_ref().unwrap();
    assert_eq!((rnd.permutations, rnd.max_switch_load), (20, 1));
    // All-to-all: leaf 0x10's sources {0,1} to host 2 go via spine 0 and to
    // host 3 via spine 1: 2 pairs per up link, and 2 per down link likewise.
    // Bound: n·(N−n)/uplinks = 2·2/2 = 2, so the ratio is 1. Host links:
    // each host sends to and receives from 3 others.
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!((a.pairs, a.efi_switch, a.efi_host), (12, 2, 3));
    assert_eq!((a.lower_bound_switch, a.ratio), (2.0, Some(1.0)));
    // 4 same-leaf ordered pairs with 0 switch hops, 8 with 2 (leaf-spine-leaf):
    // mean 16/12.
    assert_eq!(r.hops.histogram, vec![4, 0, 8]);
    assert_eq!((r.hops.min, r.hops.max, r.hops.mean), (0, 2, 1.3333));
}

#[test]
fn one_spine_tables_double_the_load() {
    let f = tiny();
    let r = report(&f, &tables(&f, |_| 3), &topological_nodes(&f));
    let s = r.shift.as_ref().unwrap();
    // Everything climbs to spine 0x20. k=2: 0→2 and 1→3 both take
    // 0x10:3 → 0x20:1 and then 0x20:2 → 0x11:3, so load 2 (and 2→0, 3→1
    // the reverse links); k=1 and k=3 have one cross pair per direction.
    assert_eq!(s.max_switch_load, 2);
    assert_eq!(
        s.histogram,
        vec![
            LoadCount { load: 1, count: 2 },
            LoadCount { load: 2, count: 1 }
        ]
    );
    assert_eq!(s.worst, vec![2]);
    // All-to-all: the 2·2 pairs from leaf 0x10 to leaf 0x11 share the one
    // link 0x10 port 3 → 0x20: EFI 4, twice the bound of 2.
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!((a.efi_switch, a.ratio), (4, Some(2.0)));
    let w = a.worst_link.as_ref().unwrap();
    assert_eq!((w.from.as_str(), w.port), ("0x0000000000000010", 3));
    assert_eq!((w.to.as_str(), w.to_port), ("0x0000000000000020", 1));
}

#[test]
fn holes_and_loops_are_counted_not_followed() {
    let f = tiny();
    let mut t = tables(&f, |d| 3 + (d % 2) as u8);
    let lid3 = host_lid(&f, 3);
    // Leaf 0x10 has no entry for host 3: the pairs 0→3 and 1→3 fail.
    t.set(sw(&f, 0x10), lid3, NO_ROUTE);
    let r = report(&f, &t, &topological_nodes(&f));
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!((a.unrouted_pairs, a.over_hop_limit_pairs), (2, 0));
    // In the shifts, 1→3 is shift 2 and 0→3 shift 3.
    assert_eq!(r.shift.as_ref().unwrap().unrouted_pairs, 2);
    assert_eq!(r.hops.pairs, 10);
    // Leaf 0x10 → spine 0x21 → back to leaf 0x10 for host 3: a loop.
    t.set(sw(&f, 0x10), lid3, 4);
    t.set(sw(&f, 0x21), lid3, 1);
    let r = report(&f, &t, &topological_nodes(&f));
    let a = r.all_to_all.as_ref().unwrap();
    // Host 2 (on leaf 0x11) sends to 3 locally; 0 and 1 loop.
    assert_eq!((a.unrouted_pairs, a.over_hop_limit_pairs), (0, 2));
    assert_eq!(r.shift.as_ref().unwrap().over_hop_limit_pairs, 2);
}

#[test]
fn node_order_changes_the_shifts() {
    let f = tiny();
    let t = tables(&f, |d| 3 + (d % 2) as u8);
    let n = topological_nodes(&f);
    // Order h0, h2, h1, h3: shift 2 maps 0→1, 2→3, 1→0, 3→2, all on-leaf.
    let r = report(&f, &t, &[n[0], n[2], n[1], n[3]]);
    let s = r.shift.unwrap();
    assert_eq!(
        s.histogram,
        vec![
            LoadCount { load: 0, count: 1 },
            LoadCount { load: 1, count: 2 }
        ]
    );
}

/// The per-shift maxima agree with `congestion::shift_congestion`, and the
/// all-to-all EFI with tracing all N(N−1) pairs one by one.
fn agrees_with_the_pair_tracer(f: &Fabric, t: &Lfts) -> QualityReport {
    let lids = LidMap::new(f).unwrap();
    let nodes = topological_nodes(f);
    let r = report(f, t, &nodes);
    let slow = shift_congestion(f, &lids, t, &nodes);
    let s = r.shift.as_ref().unwrap();
    assert_eq!(s.max_switch_load, slow.max_switch);
    let mut hist = std::collections::BTreeMap::new();
    slow.per_shift
        .iter()
        .for_each(|&m| *hist.entry(m).or_insert(0u64) += 1);
    let hist: Vec<_> = hist
        .into_iter()
        .map(|(load, count)| LoadCount { load, count })
        .collect();
    assert_eq!(s.histogram, hist);
    let pairs: Vec<_> = nodes
        .iter()
        .flat_map(|&a| nodes.iter().filter(move |&&b| b != a).map(move |&b| (a, b)))
        .collect();
    let all = pattern_load(f, t, &LinkIndex::new(f), &pairs);
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!(a.efi_switch, u64::from(all.max_switch));
    assert_eq!(a.efi_host, u64::from(all.max_host));
    assert_eq!(a.unrouted_pairs, all.failed as u64);
    r
}

#[test]
fn dmodc_on_full_bisection_pgfts_has_shift_load_one() {
    for (h, m, w, p) in [
        (2, &[4, 8][..], &[1, 4][..], &[1, 1][..]),
        (3, &[4, 4, 4][..], &[1, 4, 4][..], &[1, 1, 1][..]),
        (3, &[2, 4, 3][..], &[1, 2, 2][..], &[1, 1, 2][..]),
    ] {
        let f = pgft(&PgftSpec::new(h, m, w, Some(p))).unwrap();
        let lids = LidMap::new(&f).unwrap();
        let t = Dmodc::default()
            .route(&f, &lids, &RouteOptions::default())
            .unwrap()
            .lfts;
        let r = agrees_with_the_pair_tracer(&f, &t);
        let s = r.shift.as_ref().unwrap();
        assert_eq!(s.max_switch_load, 1, "PGFT({h};{m:?};{w:?};{p:?})");
        assert_eq!(s.unrouted_pairs + s.over_hop_limit_pairs, 0);
        let a = r.all_to_all.unwrap();
        assert_eq!(a.unrouted_pairs, 0);
        assert!(a.ratio.unwrap() >= 1.0);
        assert_eq!(r.hops.pairs, a.pairs);
    }
}

#[test]
fn skewed_tables_agree_with_the_pair_tracer() {
    let f = tiny();
    agrees_with_the_pair_tracer(&f, &tables(&f, |_| 4));
    let f = pgft(&PgftSpec::new(2, &[4, 8], &[1, 4], None)).unwrap();
    let lids = LidMap::new(&f).unwrap();
    let mut t = Dmodc::default()
        .route(&f, &lids, &RouteOptions::default())
        .unwrap()
        .lfts;
    // Leaf 0 sends everything up through port 5.
    t.row_mut(0)
        .iter_mut()
        .filter(|v| (5..=8).contains(*v))
        .for_each(|v| *v = 5);
    let r = agrees_with_the_pair_tracer(&f, &t);
    assert_eq!(r.shift.unwrap().max_switch_load, 4);
}

const FT2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/opensm/ft2");

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("routec")
        .unwrap()
        .arg("report")
        .args(args)
        .current_dir(FT2)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn report_on_opensm_minhop_tables() {
    let args = [
        "minhop/ibnetdiscover.txt",
        "--lfts",
        "minhop/opensm-lfts.dump",
        "--samples",
        "50",
    ];
    let (rc, out, err) = cli(&[&args[..], &["--json"]].concat());
    assert_eq!(rc, 0, "{err}");
    insta::assert_snapshot!("ft2_minhop_json", out);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // PGFT(2;4,8;1,4): 8 leaves of 4 hosts with 4 up links each; the
    // leaf cut bound is 4·28/4 = 28 pairs per up link.
    assert_eq!(v["all_to_all"]["lower_bound_switch"], 28.0);
    assert_eq!(v["nodes"], 32);
    let (rc, text, _) = cli(&args);
    assert_eq!(rc, 0);
    insta::assert_snapshot!("ft2_minhop_text", text);
    // Sample j does not depend on how many samples are drawn: the two
    // load-4 samples of 50 (3 and 29) are the worst of the first 30 too.
    assert_eq!(v["random"]["worst"], serde_json::json!([3, 29]));
    let (_, few, _) = cli(&[
        &args[..3],
        &["--samples", "30", "--pattern", "random", "--json"],
    ]
    .concat());
    let few: serde_json::Value = serde_json::from_str(&few).unwrap();
    assert_eq!(few["random"]["worst"], serde_json::json!([3, 29]));
    // Same bytes whatever the thread count.
    let (_, one, _) = cli(&[&args[..], &["--json", "-j", "1"]].concat());
    assert_eq!(one, out);
}

#[test]
fn report_takes_a_node_order_file() {
    let dir = tempfile::tempdir().unwrap();
    let order = dir.path().join("order.guids");
    // The first four hosts of ft2, reversed (port GUIDs from the fixture).
    let text = std::fs::read_to_string(format!("{FT2}/minhop/ibnetdiscover.txt")).unwrap();
    let f = routec::parse::load_topology(
        std::path::Path::new(&format!("{FT2}/minhop/ibnetdiscover.txt")),
        &Default::default(),
    )
    .unwrap()
    .fabric;
    let _ = text;
    let nodes = topological_nodes(&f);
    let guids: Vec<String> = nodes[..4]
        .iter()
        .rev()
        .map(|e| f.port(e.node, e.port).guid.to_string())
        .collect();
    std::fs::write(&order, guids.join("\n") + "\n").unwrap();
    let o = order.to_str().unwrap();
    let (rc, out, err) = cli(&[
        "minhop/ibnetdiscover.txt",
        "--lfts",
        "minhop",
        "--pattern",
        "shift",
        "--node-order",
        o,
        "--json",
    ]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["nodes"].as_u64(), v["node_order"].as_str()),
        (Some(4), Some("file"))
    );
    // Four hosts on one leaf: no shift leaves the leaf.
    assert_eq!(v["shift"]["max_switch_load"], 0);
    assert!(v.get("random").is_none() && v.get("all_to_all").is_none());
    // A switch GUID is refused with the line.
    let sw = f.node(f.switches()[0]).guid;
    std::fs::write(&order, format!("{}\n{sw}\n", guids[0])).unwrap();
    let (rc, _, err) = cli(&[
        "minhop/ibnetdiscover.txt",
        "--lfts",
        "minhop",
        "--node-order",
        o,
    ]);
    assert_eq!(rc, 2);
    assert!(err.contains("order.guids:2:"), "{err}");
}

#[test]
fn bad_input_exits_2() {
    let (rc, _, _) = cli(&["minhop/ibnetdiscover.txt", "--lfts", "no-such-file"]);
    assert_eq!(rc, 2);
    let (rc, _, _) = cli(&["no-such-topology", "--lfts", "minhop/opensm-lfts.dump"]);
    assert_eq!(rc, 2);
}

/// The example of `formats/quality-report.md` has the shape of real output.
#[test]
fn format_example_parses_and_matches_the_output_shape() {
    let spec = include_str!("../../formats/quality-report.md");
    let start = spec.find("```json\n").expect("a json example") + 8;
    let end = start + spec[start..].find("```").unwrap();
    let example: serde_json::Value = serde_json::from_str(&spec[start..end]).unwrap();
    let (_, out, _) = cli(&[
        "minhop/ibnetdiscover.txt",
        "--lfts",
        "minhop/opensm-lfts.dump",
        "--json",
    ]);
    let real: serde_json::Value = serde_json::from_str(&out).unwrap();
    fn shape(v: &serde_json::Value) -> Vec<String> {
        let mut keys = Vec::new();
        if let Some(m) = v.as_object() {
            for (k, x) in m {
                keys.push(k.clone());
                keys.extend(shape(x).into_iter().map(|s| format!("{k}.{s}")));
            }
        }
        keys
    }
    assert_eq!(shape(&example), shape(&real));
}

/// Routes of up to 6 switch links (a 6×6 torus under min-hop) do not fit the
/// route memo's first width: the second build must agree with the tracer
/// too; and a routing loop is counted over the hop limit, as the tracer
/// counts it failed.
#[test]
fn long_routes_and_loops_agree_with_the_pair_tracer() {
    use routec::generate::torus::{TorusSpec, torus};
    use routec::model::SwIdx;
    let spec = TorusSpec {
        dims: vec![6, 6],
        wrap: true,
        hosts: 2,
    };
    let f = torus(&spec).unwrap();
    let lids = LidMap::new(&f).unwrap();
    let mut t = routec::route::minhop::MinHop
        .route(&f, &lids, &RouteOptions::default())
        .unwrap()
        .lfts;
    let r = agrees_with_the_pair_tracer(&f, &t);
    assert_eq!(r.hops.max, 6, "a 6x6 torus has routes of 6 switch links");
    // Switches 0 and 1 (neighbours) forward the first host's LID to each
    // other.
    let nodes = topological_nodes(&f);
    let lid = f.port(nodes[0].node, nodes[0].port).lid;
    let port_to = |from: u32, to: u32| {
        let (n, m) = (f.switch_node(SwIdx(from)), f.switch_node(SwIdx(to)));
        (1..f.ports(n).len() as u8)
            .find(|&p| f.peer(n, p).map(|q| q.node) == Some(m))
            .unwrap()
    };
    t.set(0, lid, port_to(0, 1));
    t.set(1, lid, port_to(1, 0));
    let r = report(&f, &t, &nodes);
    let slow = shift_congestion(&f, &lids, &t, &nodes);
    // (The tracer also loads the looping links; the report adds no load
    // for a pair it cannot deliver, so only the counts compare.)
    let s = r.shift.unwrap();
    assert!(s.over_hop_limit_pairs > 0);
    assert_eq!(
        s.over_hop_limit_pairs + s.unrouted_pairs,
        slow.failed as u64
    );
}
