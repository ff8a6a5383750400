//! The multicast file formats: a groups file as text, YAML or an SA dump
//! reads to the same groups, bad groups files name line and column, and
//! the examples of the format specs parse.

use routec::model::{Guid, Member};
use routec::parse::mcast_colours::parse_colours;
use routec::parse::mcast_groups::parse_groups;

use super::{fig2_groups, figure2};

#[test]
fn groups_files_text_yaml_and_sa_dump() {
    let f = figure2();
    let text = fig2_groups(&f);
    let yaml = parse_groups(
        "fig2.yaml",
        include_str!("../../../fixtures/mcast/fig2.yaml"),
        &f,
    )
    .unwrap();
    assert_eq!(text, yaml);
    assert_eq!(text[3].mlid, Some(0xC004));
    let sa = parse_groups(
        "sa",
        include_str!("../../../fixtures/mcast/fig2-sa.dump"),
        &f,
    )
    .unwrap();
    assert_eq!(sa.len(), 2);
    assert_eq!(sa[0].name, "ff12:401b:ffff:0000:0000:0000:0000:0001");
    assert_eq!(
        (sa[0].mlid, sa[0].members.len(), sa[1].members.len()),
        (Some(0xC000), 2, 1)
    );
    let m: Member = sa[1].members[0];
    assert_eq!(m.guid(&f), Guid(0x22));
}

#[test]
fn groups_file_errors_name_line_and_column() {
    let f = figure2();
    let e = parse_groups(
        "bad.groups",
        include_str!("../../../fixtures/mcast/bad-unknown.groups"),
        &f,
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("bad.groups:3:23: expected a port GUID of the topology"),
        "{msg}"
    );
    for (text, want) in [
        ("g1\n", "bad:1:3: expected at least one member"),
        (
            "g1 0x20\ng1 0x21\n",
            "bad:2:1: expected a group name not used before",
        ),
        ("g1 mlid=0xB000 0x20\n", "bad:1:4: expected mlid="),
        ("g1 0xzz\n", "bad:1:4: expected a port GUID"),
        ("groups:\n  - name: g\n    members: [\"0x99\"]\n", "bad:3:"),
    ] {
        let msg = parse_groups("bad", text, &f).unwrap_err().to_string();
        assert!(msg.starts_with(want), "{text:?}: {msg}");
    }
}

#[test]
fn formats_docs_examples_parse() {
    let f = figure2();
    for doc in [
        "formats/mcast-groups.md",
        "formats/mcast-colors.md",
        "formats/mcfdbs.md",
    ] {
        let text = std::fs::read_to_string(doc).unwrap();
        let block = text
            .split("```text\n")
            .nth(1)
            .unwrap()
            .split("```")
            .next()
            .unwrap();
        match doc {
            "formats/mcast-groups.md" => assert_eq!(parse_groups(doc, block, &f).unwrap().len(), 4),
            "formats/mcast-colors.md" => assert_eq!(parse_colours(doc, block).unwrap().len(), 4),
            _ => assert!(
                routec::parse::mcfdbs::parse_mcfdbs(doc, block, &f)
                    .unwrap()
                    .num_entries()
                    > 0
            ),
        }
    }
}
