//! `routec report` on OpenSM's ft2 min-hop tables: the JSON and text
//! snapshots, a node order file, bad input, and the example of
//! `formats/quality-report.md` against the real output's shape.

use assert_cmd::Command;
use routec::verify::congestion::topological_nodes;

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
    let spec = include_str!("../../../formats/quality-report.md");
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
