//! `routec convert`: ibnetdiscover → YAML → ibnetdiscover keeps every
//! switch, CA, port, cable, GUID and LID (compared node by node and port by
//! port, not as text), plus the command line itself.

use crate::fabric_eq;

use std::path::Path;

use assert_cmd::Command;
use routec::model::Fabric;
use routec::parse::{LoadOptions, TopoFormat, load_topology, parse_topology};

fn load(path: &Path) -> Fabric {
    load_topology(path, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .fabric
}

fn reparse(text: &str, format: TopoFormat) -> Fabric {
    let opts = LoadOptions {
        format: Some(format),
        lenient: false,
    };
    parse_topology("converted", text, &opts)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .fabric
}

fn real_fixtures() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = ["fixtures/real", "fixtures/ibnetdiscover"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| {
            let name = p.to_string_lossy();
            !name.contains("lenient") && !name.ends_with(".md")
        })
        .collect();
    v.sort();
    assert!(v.len() >= 5, "the real fixtures are missing");
    v
}

#[test]
fn real_topologies_survive_ibnetdiscover_yaml_ibnetdiscover() {
    for path in real_fixtures() {
        let original = load(&path);
        let yaml = routec::emit::yaml::to_string(&original);
        let from_yaml = reparse(&yaml, TopoFormat::Yaml);
        fabric_eq::assert_same_fabric(&original, &from_yaml);
        let mut ibnd = Vec::new();
        routec::emit::ibnetdiscover::write(&from_yaml, &mut ibnd).unwrap();
        let back = reparse(&String::from_utf8(ibnd).unwrap(), TopoFormat::Ibnetdiscover);
        fabric_eq::assert_same_cabled_fabric(&original, &back);
        assert!(original.num_nodes() > 0, "{}", path.display());
    }
}

#[test]
fn hand_written_yaml_survives_ibnetdiscover_and_back() {
    let f = load(Path::new("fixtures/yaml/two-level.yaml"));
    let mut ibnd = Vec::new();
    routec::emit::ibnetdiscover::write(&f, &mut ibnd).unwrap();
    let g = reparse(&String::from_utf8(ibnd).unwrap(), TopoFormat::Ibnetdiscover);
    fabric_eq::assert_same_fabric(&f, &g);
    assert_eq!(
        routec::emit::yaml::to_string(&g),
        routec::emit::yaml::to_string(&f)
    );
}

fn routec() -> Command {
    Command::cargo_bin("routec").unwrap()
}

#[test]
fn cli_writes_yaml_to_stdout() {
    let out = routec()
        .args([
            "convert",
            "fixtures/real/ibsim-net-example.ibsim.net",
            "--to",
            "yaml",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!("ibsim_net_example_yaml", String::from_utf8(out).unwrap());
}

#[test]
fn cli_writes_ibnetdiscover_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("two-level.ibnetdiscover");
    routec()
        .args([
            "convert",
            "fixtures/yaml/two-level.yaml",
            "--to",
            "ibnetdiscover",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&out).unwrap();
    insta::assert_snapshot!("two_level_ibnetdiscover", text);
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "no temporary file left behind");
}

#[test]
fn cli_applies_faults_before_converting() {
    let out = routec()
        .args([
            "convert",
            "fixtures/yaml/two-level.yaml",
            "--to",
            "yaml",
            "--faults",
            "fixtures/faults/two-level.faults",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let f = reparse(&String::from_utf8(out).unwrap(), TopoFormat::Yaml);
    assert_eq!((f.num_nodes(), f.links().count()), (7, 6));
}

#[test]
fn cli_bad_input_exits_2_with_location() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "switches:\n  - {guid: 0x1, name: s}\nlinks:\n  - [s/1, h/1]\n",
    )
    .unwrap();
    let out = routec()
        .args(["convert", "--to", "yaml"])
        .arg(&bad)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.yaml:4:11"), "{err}");
    assert!(err.contains("unknown node `h`"), "{err}");
    routec()
        .args([
            "convert",
            "fixtures/yaml/two-level.yaml",
            "--to",
            "yaml",
            "--faults",
        ])
        .arg(dir.path().join("missing.faults"))
        .assert()
        .code(2);
    routec()
        .args(["convert", "fixtures/yaml/two-level.yaml", "--to", "dot"])
        .assert()
        .code(2);
}
