//! OpenSM GUID files: strtoull base 0, comments, the rest of the line, and
//! the errors that make OpenSM reject the whole file.

use crate::doc_blocks;

use routec::model::Guid;
use routec::parse::guids::{GuidLine, load_guid_file, parse_guid_file};
use routec::{Error, ParseError};

fn err(text: &str) -> Box<ParseError> {
    match parse_guid_file("g", text) {
        Err(Error::Parse(e)) => e,
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn spec_example_parses() {
    let blocks = doc_blocks::fenced("formats/guid-file.md", "text");
    let lines = parse_guid_file("guid-file.md", &blocks[0]).unwrap();
    let got: Vec<(u64, &str, usize)> = lines
        .iter()
        .map(|l| (l.guid.0, l.rest.as_str(), l.line))
        .collect();
    assert_eq!(
        got,
        vec![
            (0x0002c90300a1b2c0, "", 2),
            (
                0x0002c90300a1b2c8,
                "spine-2 (anything after the GUID is kept as \"rest\")",
                3
            ),
            (0x200000, "# decimal: 0x200000", 6),
            (
                0x200001,
                "#comment     # a '#' may follow the GUID directly",
                7
            ),
        ]
    );
}

#[test]
fn bases_follow_strtoull() {
    let lines = parse_guid_file("g", "0x1F\n0X1f\n31\n037\n0\n0002000000000001\r\n").unwrap();
    let g: Vec<u64> = lines.iter().map(|l| l.guid.0).collect();
    assert_eq!(g, vec![31, 31, 31, 31, 0, 0o2000000000001]);
    let octal: Vec<bool> = lines.iter().map(|l| l.octal).collect();
    assert_eq!(octal, vec![false, false, false, true, false, true]);
    assert_eq!(lines[5].rest, "", "CR is not part of the rest");
}

#[test]
fn ids_file_keeps_the_rest() {
    let lines = parse_guid_file("ids", "0x200000 0x10\n\t0x200001\t7 # second\n").unwrap();
    assert_eq!(
        lines[1],
        GuidLine {
            guid: Guid(0x200001),
            rest: "7 # second".into(),
            line: 2,
            octal: false
        }
    );
}

#[test]
fn a_token_that_is_not_a_number_fails_the_file() {
    let e = err("0x1\n# c\n  spine1\n");
    assert_eq!((e.line, e.column, e.found.as_str()), (3, 3, "`spine1`"));
    assert!(e.expected.contains("strtoull"), "{}", e.expected);
    let e = err("0xzz\n");
    assert_eq!((e.line, e.column, e.found.as_str()), (1, 1, "`0xzz`"));
    // the octal trap: a hex GUID without 0x stops at its first 8 or 9
    let e = err("0x1\n0008f10400410015\n");
    assert_eq!((e.line, e.column), (2, 1));
    let rendered = format!("{:?}", miette::Report::new(*e));
    assert!(rendered.contains("write hex GUIDs with 0x"), "{rendered}");
    let e = err("-1\n");
    assert_eq!(e.found, "`-1`");
    let e = err("0x1ffffffffffffffff\n");
    assert_eq!(e.line, 1);
    let e = err("12ab\n");
    assert_eq!(e.found, "`12ab`");
}

#[test]
fn empty_and_comment_only_files_are_empty() {
    assert!(parse_guid_file("g", "").unwrap().is_empty());
    assert!(
        parse_guid_file("g", "# nothing\n\n   \n")
            .unwrap()
            .is_empty()
    );
}

#[test]
fn load_reads_a_file_and_reports_a_missing_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("roots");
    std::fs::write(&p, "0x200000\n0x200001 spine2\n").unwrap();
    assert_eq!(
        load_guid_file(&p).unwrap(),
        vec![Guid(0x200000), Guid(0x200001)]
    );
    assert!(matches!(
        load_guid_file(&dir.path().join("nope")),
        Err(Error::Io { .. })
    ));
}
