//! routec's YAML topology: the hand-written fixture, the writer's round
//! trip, and one test per class of bad input (line, column and message).

use crate::doc_blocks;
use crate::fabric_eq;

use proptest::prelude::*;
use routec::model::{Fabric, FabricBuilder, Guid, NodeKind, NodeSpec, Speed, Width};
use routec::parse::yaml::parse_topology;
use routec::{Error, ParseError};

fn fixture() -> (String, Fabric) {
    let text = std::fs::read_to_string("fixtures/yaml/two-level.yaml").unwrap();
    let f = parse_topology("two-level.yaml", &text).unwrap();
    (text, f)
}

fn parse_err(text: &str) -> Box<ParseError> {
    match parse_topology("t.yaml", text) {
        Err(Error::Parse(e)) => e,
        other => panic!("expected a parse error, got {other:?}"),
    }
}

fn node(f: &Fabric, g: u64) -> routec::model::NodeIdx {
    f.node_by_guid(Guid(g)).unwrap()
}

#[test]
fn fixture_counts_lids_and_port_guids() {
    let (_, f) = fixture();
    let kinds = |k| f.nodes().iter().filter(|n| n.kind == k).count();
    assert_eq!(
        (
            kinds(NodeKind::Switch),
            kinds(NodeKind::Ca),
            kinds(NodeKind::Router)
        ),
        (4, 4, 1)
    );
    assert_eq!(f.links().count(), 11);
    let spine2 = node(&f, 0x200001);
    assert_eq!(
        f.switch_links(spine2).count(),
        3,
        "spine2 has a parallel pair to leaf2"
    );
    assert_eq!(f.switch_lid(spine2), 2);
    let leaf1 = node(&f, 0x200002);
    assert_eq!(f.node(leaf1).desc, "MF0;leaf1:SX6036/U1");
    assert_eq!(
        f.node(node(&f, 0x200000)).desc,
        "spine1",
        "desc defaults to the name"
    );
    assert_eq!(f.node(node(&f, 0x200003)).enhanced_port0, Some(true));
    assert_eq!(f.port(leaf1, 1).width, Width::X4);
    assert_eq!(
        f.port(node(&f, 0x200000), 1).speed,
        Speed::Edr,
        "the rate applies to both ends"
    );
    assert_eq!(f.port(leaf1, 5).width, Width::Unknown);
    let h1 = node(&f, 0x100000);
    assert_eq!(
        f.port(h1, 1).guid,
        Guid(0x100001),
        "default port GUID = node GUID + port"
    );
    assert_eq!(f.port(h1, 1).lid, 10);
    assert_eq!(f.node(node(&f, 0x100010)).num_ports, 1);
    assert_eq!(f.port(node(&f, 0x100020), 1).guid, Guid(0xabc));
    let h4 = node(&f, 0x100030);
    assert_eq!((f.port(h4, 1).lid, f.port(h4, 1).lmc), (16, 2));
    assert_eq!((f.port(h4, 2).lid, f.port(h4, 2).lmc), (20, 2));
    assert_eq!(f.port_by_guid(Guid(0x100032)), Some((h4, 2)));
    let r = node(&f, 0x300000);
    assert_eq!(f.node(r).desc, "gateway router");
    assert_eq!(
        f.peer(r, 1).map(|p| (p.node, p.port)),
        Some((node(&f, 0x200003), 8))
    );
}

#[test]
fn writer_output_reads_back_to_the_same_fabric() {
    let (_, f) = fixture();
    let yaml = routec::emit::yaml::to_string(&f);
    let g = parse_topology("out.yaml", &yaml).unwrap();
    fabric_eq::assert_same_fabric(&f, &g);
    assert_eq!(
        routec::emit::yaml::to_string(&g),
        yaml,
        "writing is deterministic"
    );
    insta::assert_snapshot!("two_level_yaml", yaml);
}

#[test]
fn empty_and_comment_only_files_are_empty_fabrics() {
    assert_eq!(parse_topology("e", "").unwrap().num_nodes(), 0);
    assert_eq!(parse_topology("e", "# nothing\n").unwrap().num_nodes(), 0);
    let f = parse_topology("e", "switches:\n  - {guid: 0x1}\n").unwrap();
    assert_eq!(
        f.node(routec::model::NodeIdx(0)).num_ports,
        1,
        "ports default to the highest used, at least 1"
    );
}

#[test]
fn ports_default_to_the_highest_port_cabled() {
    let f = parse_topology(
        "t",
        "switches:\n  - {guid: 0x1, name: a}\n  - {guid: 0x2, name: b}\nlinks:\n  - [a/7, b/3]\n",
    )
    .unwrap();
    assert_eq!(f.node(node(&f, 1)).num_ports, 7);
    assert_eq!(f.node(node(&f, 2)).num_ports, 3);
}

const BASE: &str =
    "switches:\n  - {guid: 0x10, name: s1, ports: 4}\ncas:\n  - {guid: 0x20, name: h1}\n";

#[test]
fn unknown_node_in_a_link() {
    let e = parse_err(&format!("{BASE}links:\n  - [s1/1, h9/1]\n"));
    assert_eq!((e.line, e.column), (6, 12));
    assert_eq!(e.found, "unknown node `h9`");
    assert!(e.expected.contains("name or 0xGUID"), "{}", e.expected);
    let e = parse_err(&format!("{BASE}links:\n  - [s1/1, 0x99/1]\n"));
    assert_eq!(e.found, "unknown node `0x99`");
}

#[test]
fn port_out_of_range() {
    let e = parse_err(&format!("{BASE}links:\n  - [s1/5, h1/1]\n"));
    assert_eq!((e.line, e.column), (6, 6));
    assert_eq!(e.expected, "a port of `s1` (1..4)");
    assert_eq!(e.found, "port `5`");
    let e = parse_err(&format!("{BASE}links:\n  - [s1/0, h1/1]\n"));
    assert_eq!(e.found, "port `0`");
    let e = parse_err(&format!("{BASE}links:\n  - [s1, h1/1]\n"));
    assert_eq!(e.expected, "`name/port` or `0xGUID/port`");
}

#[test]
fn port_used_twice() {
    let e = parse_err(&format!(
        "{BASE}links:\n  - [s1/1, h1/1]\n  - [s1/2, h1/1]\n"
    ));
    assert_eq!((e.line, e.column), (7, 12));
    assert!(e.found.contains("already cabled"), "{}", e.found);
    let rendered = format!("{:?}", miette::Report::new(*e));
    assert!(rendered.contains("first cabled here"), "{rendered}");
}

#[test]
fn duplicate_guid_and_name() {
    let e = parse_err("switches:\n  - {guid: 0x10}\ncas:\n  - {guid: 16}\n");
    assert_eq!((e.line, e.column), (4, 12));
    assert_eq!(e.found, "duplicate GUID 0x0000000000000010");
    let e = parse_err("switches:\n  - {guid: 0x10, name: a}\n  - {guid: 0x11, name: a}\n");
    assert_eq!((e.line, e.column), (3, 24));
    assert_eq!(e.found, "duplicate name `a`");
}

#[test]
fn yaml_syntax_and_schema_errors() {
    let e = parse_err("switches: [\n");
    assert_eq!(e.line, 1);
    assert!(e.found.contains("unclosed bracket"), "{}", e.found);
    let e = parse_err("switches:\n  - {guid: 0x10, lidd: 3}\n");
    assert_eq!((e.line, e.column), (2, 18));
    assert_eq!(e.found, "unknown field `lidd`");
    assert!(e.expected.contains("lid"), "{}", e.expected);
    let e = parse_err("switches:\n  - {guid: zz}\n");
    assert_eq!((e.line, e.column), (2, 12));
    assert_eq!(e.found, "`zz`");
    let e = parse_err("switches:\n  - {guid: 017}\n");
    assert!(e.found.contains("write GUIDs with 0x"), "{}", e.found);
    let e = parse_err("switches:\n  - {guid: 0x1, ports: 300}\n");
    assert_eq!((e.line, e.column), (2, 24));
}

#[test]
fn lid_port_and_rate_values_are_checked() {
    let e = parse_err("cas:\n  - {guid: 0x20, ports: 2, lids: {3: 5}}\n");
    assert_eq!((e.line, e.column), (2, 35));
    assert_eq!(e.expected, "a port 1..2");
    let e = parse_err("switches:\n  - {guid: 0x10, lids: {1: 5}}\n");
    assert!(
        e.expected.contains("a switch has one LID"),
        "{}",
        e.expected
    );
    let e = parse_err("switches:\n  - {guid: 0x10, lid: 50000}\n");
    assert_eq!(e.found, "50000");
    let e = parse_err("switches:\n  - {guid: 0x10, lmc: 8}\n");
    assert_eq!(e.expected, "an LMC of 0 to 7");
    let e = parse_err(&format!("{BASE}links:\n  - [s1/1, h1/1, 4xFAST]\n"));
    assert_eq!((e.line, e.column), (6, 18));
    assert_eq!(e.found, "`4xFAST`");
}

#[test]
fn default_port_guid_clashing_with_a_node_guid_is_an_error() {
    let e = parse_err(
        "switches:\n  - {guid: 0x10, name: s, ports: 2}\ncas:\n  - {guid: 0x20, name: a}\n  - {guid: 0x21, name: b}\nlinks:\n  - [s/1, a/1]\n  - [s/2, b/1]\n",
    );
    assert_eq!(e.line, 4);
    assert!(
        e.found.contains("also used by node 0x0000000000000021"),
        "{}",
        e.found
    );
}

/// Descriptions that need quoting, and names that YAML would misread.
#[test]
fn awkward_descriptions_survive_the_writer() {
    let descs = [
        "true",
        "0x12",
        "1e3",
        "a \"quoted\" # hash",
        "tab\there",
        "",
        "ünï",
        "- dash",
        "x/1",
        "null",
    ];
    let mut b = FabricBuilder::new();
    let s = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(0x1), 16, "sw"))
        .unwrap();
    for (i, d) in descs.iter().enumerate() {
        let h = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x100 + 0x10 * i as u64),
                1,
                *d,
            ))
            .unwrap();
        b.connect(s, i as u8 + 1, h, 1).unwrap();
        b.port_mut(h, 1).unwrap().guid = Guid(0x100 + 0x10 * i as u64 + 1);
    }
    let f = b.build();
    let yaml = routec::emit::yaml::to_string(&f);
    let g = parse_topology("w", &yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    fabric_eq::assert_same_fabric(&f, &g);
}

/// A random LID `lid` in 0..40 made unique to node `i` (0 stays "none").
fn unique_lid(lid: u16, i: usize) -> u16 {
    if lid == 0 { 0 } else { lid + 40 * i as u16 }
}

/// A small random fabric: switches and CAs with random cables, LIDs,
/// rates and descriptions.
fn arb_fabric() -> impl Strategy<Value = Fabric> {
    let desc = "[a-z0-9 \"#:/]{0,8}";
    (
        proptest::collection::vec((1u8..6, desc, 0u16..40), 1..5),
        proptest::collection::vec((1u8..3, desc, 0u16..40), 0..5),
        proptest::collection::vec((any::<u16>(), any::<u16>(), 0usize..6), 0..12),
    )
        .prop_map(|(sws, cas, cables)| {
            let mut b = FabricBuilder::new();
            let mut nodes = Vec::new();
            for (i, (ports, d, lid)) in sws.iter().enumerate() {
                let n = b
                    .add_node(NodeSpec::new(
                        NodeKind::Switch,
                        Guid(0x2000 + i as u64),
                        *ports,
                        d.clone(),
                    ))
                    .unwrap();
                // LIDs unique (or 0): a LID given twice is a YAML input error
                b.port_mut(n, 0).unwrap().lid = unique_lid(*lid, i);
                nodes.push((n, *ports));
            }
            for (i, (ports, d, lid)) in cas.iter().enumerate() {
                let n = b
                    .add_node(NodeSpec::new(
                        NodeKind::Ca,
                        Guid(0x10000 + 0x100 * i as u64),
                        *ports,
                        d.clone(),
                    ))
                    .unwrap();
                b.port_mut(n, 1).unwrap().lid = unique_lid(*lid, 5 + i);
                nodes.push((n, *ports));
            }
            let rates = [
                (Width::X4, Speed::Edr),
                (Width::X1, Speed::Sdr),
                (Width::Unknown, Speed::Unknown),
                (Width::X4, Speed::Unknown),
                (Width::X12, Speed::Hdr),
                (Width::X2, Speed::Ndr),
            ];
            for (x, y, r) in cables {
                let (a, na) = nodes[x as usize % nodes.len()];
                let (z, nz) = nodes[y as usize % nodes.len()];
                let (pa, pz) = (1 + (x >> 8) as u8 % na, 1 + (y >> 8) as u8 % nz);
                if b.connect(a, pa, z, pz).is_ok() {
                    let (w, s) = rates[r];
                    b.port_mut(a, pa).unwrap().width = w;
                    b.port_mut(a, pa).unwrap().speed = s;
                    let (w2, s2) = rates[(r + x as usize) % rates.len()];
                    b.port_mut(z, pz).unwrap().width = w2;
                    b.port_mut(z, pz).unwrap().speed = s2;
                }
            }
            b.build()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_fabric_round_trips(f in arb_fabric()) {
        // CA port GUIDs follow the default for cabled ports and are 0 on free
        // ones, as the parser fills them; anything else is written explicitly.
        let yaml = routec::emit::yaml::to_string(&f);
        let g = parse_topology("p", &yaml).map_err(|e| TestCaseError::fail(format!("{e}\n{yaml}")))?;
        let (va, vb) = (fabric_eq::view(&f), fabric_eq::view(&g));
        prop_assert_eq!(va.len(), vb.len());
        for (x, y) in va.iter().zip(&vb) {
            prop_assert_eq!(x, y);
        }
    }

    #[test]
    fn no_input_panics(text in "(switches|cas|links|guid|ports|lid|[-\\[\\]{}:,/ \n0-9a-z]){0,60}") {
        let _ = parse_topology("fuzz", &text);
    }
}

#[test]
fn spec_example_parses() {
    let blocks = doc_blocks::fenced("formats/topology-yaml.md", "yaml");
    let f = parse_topology("topology-yaml.md", &blocks[0]).unwrap();
    assert_eq!(
        (f.num_switches(), f.num_nodes(), f.links().count()),
        (3, 6, 7)
    );
    let h2 = node(&f, 0x100010);
    assert_eq!(f.port(h2, 1).guid, Guid(0x2c9000abc));
    let h3 = node(&f, 0x100020);
    assert_eq!((f.port(h3, 2).lid, f.port(h3, 2).lmc), (16, 2));
}

/// The worked example of formats/lid-assignment.md: the table in the spec
/// is the expected result.
#[test]
fn lid_assignment_spec_example() {
    let yaml = &doc_blocks::fenced("formats/lid-assignment.md", "yaml")[0];
    let table = &doc_blocks::fenced("formats/lid-assignment.md", "text")[0];
    let mut f = parse_topology("lid-assignment.md", yaml).unwrap();
    assert_eq!(routec::model::lids::assign_missing_lids(&mut f).unwrap(), 3);
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let n = f.node_indices().find(|&n| f.node(n).desc == w[0]).unwrap();
        assert_eq!(
            f.port(n, w[1].parse().unwrap()).lid,
            w[2].parse::<u16>().unwrap(),
            "{line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 7);
    routec::model::LidMap::new(&f).unwrap();
}
