//! Every fixture loads with the detected format, hand-counted summaries,
//! whitespace / line-end / extras variants, the detection rules, and the
//! examples of the format specs.

use std::path::Path;

use routec::model::summary::FabricSummary;
use routec::parse::{self, TopoFormat};

use super::writer::assert_same_fabric;
use super::{fixture, good_fixtures, load, parse_str};

fn counts(s: &FabricSummary) -> [usize; 9] {
    [
        s.switches,
        s.cas,
        s.routers,
        s.links,
        s.parallel_bundles,
        s.self_loops,
        s.leaves,
        s.unassigned_lids,
        s.components,
    ]
}

#[test]
fn every_fixture_loads_with_the_detected_format() {
    let all = good_fixtures();
    assert!(all.len() >= 17, "{all:?}");
    for rel in all {
        let l = load(&rel);
        let want = if rel.ends_with(".ibsim.net") {
            TopoFormat::Ibsim
        } else {
            TopoFormat::Ibnetdiscover
        };
        assert_eq!(l.format, want, "{rel}");
        assert!(l.fabric.num_nodes() > 0, "{rel}");
    }
}

#[test]
fn hand_counted_summaries() {
    // [switches, cas, routers, links, bundles, self-loops, leaves, unassigned LIDs, components]
    let cases: &[(&str, [usize; 9])] = &[
        // tiny: spine<->leaf x2 (bundle), leaf<->host1 x2 (bundle), leaf<->host2,
        // leaf<->router = 6 links; spine 7<->8 self-loop; LIDs 65535 (host2) and 0 (router).
        (
            "ibnetdiscover/tiny.ibnetdiscover",
            [2, 2, 1, 6, 2, 1, 1, 2, 1],
        ),
        // SOURCES.md: 1 QM8700 + 1 SX6036, 13 CAs, 16 cables of which 2 are self-loops;
        // the QM8700's only end nodes are r-dcs96 HCA-1/2 (+ the SHARP node) so both are leaves.
        (
            "real/ufm-lab-small.ibnetdiscover",
            [2, 13, 0, 14, 0, 2, 2, 0, 1],
        ),
        // 8 SX6036, 144 CAs, 192 links; 6 leaves x 2 spines = 12 bundles (47 ISLs, one missing)
        // plus one dual-port CA with both ports on one switch = 13; storage hosts on spine ib8
        // make it a leaf too (7 leaves).
        (
            "real/loginoff-sx6036-2level.ibnetdiscover",
            [8, 144, 0, 192, 13, 0, 7, 0, 1],
        ),
        // man page: ISR9024 + SW-6IB4, 4 CAs, 7 links: ports 10/6 <-> 1/3 (bundle) and the CA
        // 0558 on ports 8 and 12 (bundle).
        (
            "real/manpage-voltaire-2007.ibnetdiscover",
            [2, 4, 0, 7, 2, 0, 2, 0, 1],
        ),
        // ibsim example: Switch1 [3],[4] <-> Switch2 (bundle), Hca1[1], Hca2[2]; no LIDs.
        (
            "real/ibsim-net-example.ibsim.net",
            [2, 2, 0, 4, 1, 0, 1, 4, 1],
        ),
        // 2 switches, 2 ISLs (bundle), each 2-port CA on both ports of one switch (2 bundles).
        (
            "real/ibsim-2sw2path4hca2port.ibsim.net",
            [2, 2, 0, 6, 3, 0, 2, 6, 1],
        ),
        // spine, leaf-a (lid 2), leaf-b; h1 on both leaves, h2, h3: 6 links, 7 LID ports, 1 LID.
        (
            "ibnetdiscover/ibsim-directives.ibsim.net",
            [3, 3, 0, 6, 0, 0, 2, 6, 1],
        ),
        // chassis: spine chip <-> line chip, line chip <-> node1.
        (
            "ibnetdiscover/chassis-grouping.ibnetdiscover",
            [2, 1, 0, 2, 0, 0, 1, 0, 1],
        ),
        (
            "ibnetdiscover/fattreebuilder-style.ibnetdiscover",
            [1, 2, 0, 2, 0, 0, 1, 3, 1],
        ),
        (
            "ibnetdiscover/split-fabric.ibnetdiscover",
            [2, 2, 0, 2, 0, 0, 2, 0, 2],
        ),
        // ft16 (ibsim): 2 spines, 4 leaves x 4 hosts, each leaf 2 cables to each spine.
        (
            "ibnetdiscover/show-progress-ft16.ibnetdiscover",
            [6, 16, 0, 32, 8, 0, 4, 0, 1],
        ),
    ];
    for (rel, want) in cases {
        let s = FabricSummary::of(&load(rel).fabric);
        assert_eq!(counts(&s), *want, "{rel}");
    }
}

#[test]
fn whitespace_line_end_and_extras_variants_read_as_the_reference() {
    let reference = load("ibnetdiscover/tiny.ibnetdiscover").fabric;
    for v in [
        "tiny-spaces",
        "tiny-crlf",
        "tiny-putty",
        "tiny-full",
        "terminal-log-lenient",
    ] {
        let f = load(&format!("ibnetdiscover/{v}.ibnetdiscover")).fabric;
        assert_same_fabric(&reference, &f, v);
    }
}

#[test]
fn detection_rules() {
    assert_eq!(
        parse::detect_format("switches:\n  - name: s1\n"),
        TopoFormat::Yaml
    );
    let tiny = std::fs::read_to_string(fixture("ibnetdiscover/tiny.ibnetdiscover")).unwrap();
    assert_eq!(parse::detect_format(&tiny), TopoFormat::Ibnetdiscover);
    let ex = std::fs::read_to_string(fixture("real/ibsim-net-example.ibsim.net")).unwrap();
    assert_eq!(parse::detect_format(&ex), TopoFormat::Ibsim);
}

/// Fenced blocks marked ```ibnetdiscover / ```ibsim in the format specs parse.
#[test]
fn spec_examples_parse() {
    let mut seen = 0;
    for (doc, tag, format) in [
        (
            "ibnetdiscover.md",
            "```ibnetdiscover",
            TopoFormat::Ibnetdiscover,
        ),
        ("ibsim-net.md", "```ibsim", TopoFormat::Ibsim),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("formats")
            .join(doc);
        let md = std::fs::read_to_string(&path).unwrap();
        let mut rest = md.as_str();
        while let Some(i) = rest.find(tag) {
            let body = &rest[i + tag.len()..];
            let body = &body[body.find('\n').unwrap() + 1..];
            let end = body.find("\n```").unwrap();
            let block = &body[..end + 1];
            assert_eq!(parse::detect_format(block), format, "{doc}:\n{block}");
            parse_str(block, None, false).unwrap_or_else(|e| panic!("{doc}: {e:?}"));
            seen += 1;
            rest = &body[end..];
        }
    }
    assert!(seen >= 3, "only {seen} examples");
}
