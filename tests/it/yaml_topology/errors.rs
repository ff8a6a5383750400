//! One test per class of bad input: each error names the line and column
//! and says what was expected and what was found.

use routec::parse::yaml::parse_topology;
use routec::{Error, ParseError};

fn parse_err(text: &str) -> Box<ParseError> {
    match parse_topology("t.yaml", text) {
        Err(Error::Parse(e)) => e,
        other => panic!("expected a parse error, got {other:?}"),
    }
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
