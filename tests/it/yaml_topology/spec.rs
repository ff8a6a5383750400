//! The examples of the specs (`formats/topology-yaml.md`,
//! `formats/lid-assignment.md`) read as the specs say they do.

use crate::doc_blocks;

use routec::model::Guid;
use routec::parse::yaml::parse_topology;

use super::node;

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
