//! Fault lists: each kind applied to the hand-written two-level fabric
//! (fixtures/yaml/two-level.yaml: 4 switches, 4 CAs, 1 router, 11 cables)
//! with counted effects, and every kind of bad list with its line.

use crate::doc_blocks;

use std::path::Path;

use routec::model::faults::FaultSummary;
use routec::model::{Fabric, Fault, Guid, PortRef};
use routec::parse::faults::{is_yaml, parse_and_apply, parse_text, parse_yaml};
use routec::{Error, ParseError};

fn fabric() -> Fabric {
    let text = std::fs::read_to_string("fixtures/yaml/two-level.yaml").unwrap();
    routec::parse::yaml::parse_topology("two-level.yaml", &text).unwrap()
}

fn apply(list: &str) -> (Fabric, FaultSummary) {
    parse_and_apply(&fabric(), "f", list, false).unwrap_or_else(|e| panic!("{e}"))
}

fn apply_err(list: &str, yaml: bool) -> Box<ParseError> {
    match parse_and_apply(&fabric(), "f", list, yaml) {
        Err(Error::Parse(e)) => e,
        other => panic!("expected a parse error, got {other:?}"),
    }
}

fn has_cable(f: &Fabric, g: u64, p: u8) -> bool {
    f.node_by_guid(Guid(g))
        .is_some_and(|n| f.peer(n, p).is_some())
}

#[test]
fn link_fault_removes_one_cable() {
    let (f, s) = apply("link 0x200002/1\n");
    assert_eq!(
        (f.num_nodes(), f.links().count(), s.cables_removed),
        (9, 10, 1)
    );
    assert!(!has_cable(&f, 0x200000, 1) && !has_cable(&f, 0x200002, 1));
    // ibnetdiscover spelling: no 0x, zero padding; far end given and checked
    let (f, s) = apply("link 0000000000200003/3 0x200001/3\n");
    assert_eq!((f.links().count(), s.cables_removed), (10, 1));
    assert!(
        has_cable(&f, 0x200003, 2),
        "the other cable of the parallel pair stays"
    );
    // both ends of one cable named twice: removed once
    let (f, s) = apply("link 0x200002/1\nlink 0x200000/1 0x200002/1\n");
    assert_eq!((f.links().count(), s.cables_removed), (10, 1));
}

#[test]
fn port_fault_takes_the_cable_down() {
    let (f, s) = apply("port 0x100030/2\n");
    assert_eq!(
        (f.num_nodes(), f.links().count(), s.cables_removed),
        (9, 10, 1)
    );
    assert!(has_cable(&f, 0x100030, 1), "h4 keeps port 1, so it stays");
    let (f, _) = apply("port \"S-0000000000200003\"[6]\n");
    assert!(!has_cable(&f, 0x100030, 2));
}

#[test]
fn switch_fault_removes_the_switch_and_isolated_hosts() {
    let (f, s) = apply("switch 0x200000\n");
    assert_eq!(
        (f.num_nodes(), f.links().count(), s.nodes_removed),
        (8, 9, 1)
    );
    let (f, s) = apply("switch \"S-0000000000200003\"\n");
    // leaf2 had 6 cables; h3 and the router hung on it alone
    assert_eq!((f.num_nodes(), f.links().count()), (6, 5));
    assert_eq!(s.isolated, vec![Guid(0x100020), Guid(0x300000)]);
}

#[test]
fn node_fault_by_node_or_port_guid() {
    let (f, s) = apply("node 0x100000\n");
    assert_eq!(
        (f.num_nodes(), f.links().count(), s.nodes_removed),
        (8, 10, 1)
    );
    assert!(f.node_by_guid(Guid(0x100000)).is_none());
    let (g, _) = apply("node 100001   # h1's port GUID\n");
    assert_eq!(g.num_nodes(), 8);
    assert!(g.node_by_guid(Guid(0x100000)).is_none());
}

#[test]
fn fixture_lists_text_and_yaml_agree() {
    let text = std::fs::read_to_string("fixtures/faults/two-level.faults").unwrap();
    let yaml = std::fs::read_to_string("fixtures/faults/two-level.faults.yaml").unwrap();
    assert!(!is_yaml(Path::new("x.faults"), &text));
    assert!(is_yaml(Path::new("x.faults"), &yaml), "detected by content");
    assert!(is_yaml(Path::new("x.yml"), ""));
    let a: Vec<Fault> = parse_text("t", &text)
        .unwrap()
        .into_iter()
        .map(|l| l.fault)
        .collect();
    let b: Vec<Fault> = parse_yaml("y", &yaml)
        .unwrap()
        .into_iter()
        .map(|l| l.fault)
        .collect();
    assert_eq!(a, b);
    assert_eq!(a.len(), 5);
    assert_eq!(
        a[1],
        Fault::Link {
            end: PortRef {
                guid: Guid(0x200003),
                port: 3
            },
            other: Some(PortRef {
                guid: Guid(0x200001),
                port: 3
            })
        }
    );
    let (f, s) = routec::parse::faults::load_and_apply(
        &fabric(),
        Path::new("fixtures/faults/two-level.faults"),
    )
    .unwrap();
    // cut: leaf1/1 (spine1/1), one parallel cable, h4/2; then spine1 takes its
    // remaining cable (leaf2/1) and h1 its own: 11 - 3 - 1 - 1
    assert_eq!(s.cables_removed, 3);
    assert_eq!(s.nodes_removed, 2);
    assert_eq!((f.num_nodes(), f.links().count()), (7, 6));
}

#[test]
fn unknown_guid_names_its_line() {
    let e = apply_err("# header\nswitch 0x200000\nswitch 0x999\n", false);
    assert_eq!((e.line, e.column), (3, 1));
    assert_eq!(e.found, "no switch with GUID 0x0000000000000999");
    let e = apply_err("faults:\n  - node: 0x100000\n  - link: 0x777/1\n", true);
    assert_eq!((e.line, e.column), (3, 5));
    assert!(
        e.found.contains("no node with GUID 0x0000000000000777"),
        "{}",
        e.found
    );
}

#[test]
fn bad_port_and_wrong_far_end() {
    let e = apply_err("\n\nport 0x200000/9\n", false);
    assert_eq!(e.line, 3);
    assert!(
        e.found.contains("port 9 does not exist") && e.found.contains("ports 1..4"),
        "{}",
        e.found
    );
    let e = apply_err("link 0x200002/1 0x200001/1\n", false);
    assert_eq!(e.line, 1);
    assert_eq!(
        e.found,
        "0x0000000000200002/1 is cabled to 0x0000000000200000/1, not to 0x0000000000200001/1"
    );
    let e = apply_err("link 0x200002/4\n", false);
    assert!(
        e.found.contains("there is no cable on this port"),
        "{}",
        e.found
    );
    let e = apply_err("switch 0x100000\n", false);
    assert!(e.found.contains("not a switch"), "{}", e.found);
}

#[test]
fn bad_tokens_have_line_and_column() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        ("link 0xzz/1\n", (1, 6), "`0xzz/1`"),
        ("# c\nport 0x10\n", (2, 6), "`0x10`"),
        ("port 0x10/300\n", (1, 6), "`0x10/300`"),
        ("switch\n", (1, 7), "end of line"),
        ("switch 0x1 0x2\n", (1, 12), "`0x2`"),
        ("unlink 0x1/1\n", (1, 1), "`unlink`"),
        (
            "  node 12345678901234567\r\n",
            (1, 8),
            "`12345678901234567`",
        ),
        ("link 0x1/1 0x2\n", (1, 12), "`0x2`"),
    ];
    for (text, at, found) in cases {
        let e = parse_text("f", text).unwrap_err();
        assert_eq!(
            ((e.line, e.column), e.found.as_str()),
            (*at, *found),
            "{text:?}"
        );
    }
    let e = parse_yaml("y", "faults:\n  - port: 0x10\n").unwrap_err();
    assert_eq!((e.line, e.column, e.found.as_str()), (2, 11, "`0x10`"));
    let e = parse_yaml("y", "faults:\n  - cable: 0x10/1\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.found.contains("cable"), "{}", e.found);
    let e = parse_yaml("y", "faults:\n  - switch: zz\n").unwrap_err();
    assert_eq!((e.line, e.column, e.found.as_str()), (2, 13, "`zz`"));
}

#[test]
fn spec_examples_parse_and_agree() {
    let text = &doc_blocks::fenced("formats/faults.md", "text")[0];
    let yaml = &doc_blocks::fenced("formats/faults.md", "yaml")[0];
    let a: Vec<Fault> = parse_text("faults.md", text)
        .unwrap()
        .into_iter()
        .map(|l| l.fault)
        .collect();
    let b: Vec<Fault> = parse_yaml("faults.md", yaml)
        .unwrap()
        .into_iter()
        .map(|l| l.fault)
        .collect();
    assert_eq!(a.len(), 5);
    assert_eq!(b.len(), 5);
    assert_eq!(a[..3], b[..3]);
    assert_eq!(b[3], Fault::Switch(Guid(0x200005)));
    // the text example is written for the two-level fixture
    let (f, s) = apply(text);
    assert_eq!((f.num_nodes(), s.cables_removed), (7, 3));
}
