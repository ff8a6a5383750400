//! Malformed inputs named by line, column and problem; links listed from
//! one end only; strict and lenient reading of foreign lines.

use routec::model::{Guid, NodeKind};
use routec::parse::TopoFormat;

use super::{load, load_err, parse_str};

/// (fixture, line, column, substring of the message)
const MALFORMED: &[(&str, usize, usize, &str)] = &[
    ("bad/asymmetric.ibnetdiscover", 8, 1, "agrees with line 3"),
    (
        "bad/duplicate-guid.ibnetdiscover",
        10,
        1,
        "duplicate node GUID 0x0000000000000100",
    ),
    (
        "bad/redacted-guid.ibnetdiscover",
        3,
        8,
        "expected a GUID (1 to 16 hex digits), found `9c05<redacted>`",
    ),
    (
        "bad/truncated.ibnetdiscover",
        4,
        22,
        "expected `\"` closing the peer id, found end of line",
    ),
    (
        "bad/port-beyond-numports.ibnetdiscover",
        4,
        2,
        "a port number from 1 to 8",
    ),
    ("bad/include.ibsim.net", 4, 1, "ibsim `include` directive"),
    ("bad/unknown-id.ibsim.net", 3, 6, "found \"h9\""),
    ("bad/port-zero-ca.ibsim.net", 5, 2, "found port 0"),
];

#[test]
fn malformed_inputs_name_line_column_and_problem() {
    for &(rel, line, col, msg) in MALFORMED {
        let e = load_err(rel);
        let routec::Error::Parse(pe) = &e else {
            panic!("{rel}: not a parse error: {e}")
        };
        assert_eq!((pe.line, pe.column), (line, col), "{rel}: {e}");
        assert!(e.to_string().contains(msg), "{rel}: {e}");
    }
}

#[test]
fn asymmetric_error_points_at_both_copies() {
    let e = load_err("bad/asymmetric.ibnetdiscover");
    let rendered = format!("{:?}", miette::Report::new(e));
    assert!(
        rendered.contains("the other copy of the link"),
        "{rendered}"
    );
    assert!(rendered.contains("[1](101)"), "{rendered}");
}

#[test]
fn truncated_lines_of_other_shapes() {
    let head = "switchguid=0x10(10)\nSwitch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n";
    for (tail, col, msg) in [
        (
            "[1]\t\"H-0000000000000100\"",
            25,
            "`[port]` after the peer name",
        ),
        (
            "[1]\t\"H-0000000000000100\"[1](101) \t\t# \"h\" lid 3 4x",
            48,
            "width and speed",
        ),
        ("[1", 3, "`]` after the port number"),
    ] {
        let e = parse_str(&format!("{head}{tail}\n"), None, false).expect_err(tail);
        let routec::Error::Parse(pe) = &e else {
            panic!()
        };
        assert_eq!((pe.line, pe.column), (3, col), "{tail}: {e}");
        assert!(e.to_string().contains(msg), "{e}");
    }
    let e = parse_str("Switch\t36 \"S-00", None, false).unwrap_err();
    assert!(
        e.to_string()
            .contains("t:1:16: expected `\"` closing the node id"),
        "{e}"
    );
}

#[test]
fn links_listed_once_in_ibnetdiscover_warn_and_unrecorded_peers_are_built() {
    let text = "switchguid=0x10(10)\nSwitch\t8 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n\
                [1]\t\"H-0000000000000100\"[1](101) \t\t# \"host\" lid 7 4xEDR\n\
                [2]\t\"S-0000000000000020\"[3]\t\t# \"other\" lid 9 4xEDR\n\n\
                switchguid=0x20(20)\nSwitch\t8 \"S-0000000000000020\"\t\t# \"other\" base port 0 lid 9 lmc 0\n";
    let l = parse_str(text, None, false).unwrap();
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    assert!(
        l.warnings[0].contains("1 node(s) have no record"),
        "{:?}",
        l.warnings
    );
    assert!(
        l.warnings[1].contains("listed from the other end only (first: \"S-0000000000000020\"[3])")
    );
    let f = &l.fabric;
    let h = f.node_by_guid(Guid(0x100)).unwrap();
    assert_eq!(
        (f.node(h).kind, f.node(h).desc.as_str()),
        (NodeKind::Ca, "host")
    );
    assert_eq!((f.port(h, 1).guid, f.port(h, 1).lid), (Guid(0x101), 7));
}

#[test]
fn strict_rejects_and_lenient_counts_foreign_lines() {
    let e = load_err("ibnetdiscover/terminal-log-lenient.ibnetdiscover");
    assert!(
        e.to_string().contains(":1:1: expected a node header"),
        "{e}"
    );
    let l = load("ibnetdiscover/terminal-log-lenient.ibnetdiscover");
    assert_eq!(l.warnings.len(), 4, "{:?}", l.warnings);
    assert!(l.warnings[0].contains(":1: skipped unrecognised line `admin@login01"));
    let many = "junk\n".repeat(8);
    let l = parse_str(&many, Some(TopoFormat::Ibnetdiscover), true).unwrap();
    assert_eq!(
        l.warnings.last().unwrap(),
        "t: skipped 8 unrecognised lines in all (--lenient)"
    );
}
