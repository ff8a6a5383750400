//! Outputs do not depend on the order of the topology's node records.
//! `ibnetdiscover` prints nodes in discovery order, which depends on the
//! port it ran from; the same cabling must compile to the same bytes, or a
//! make or CI pipeline re-uploads tables that did not change. Before routec
//! numbered parsed fabrics by GUID, the image and the state followed the
//! file's order, and the virtual-lane layering (first fit over the switches
//! in index order) took 3 VLs for the 4×4 torus's SSSP routes where the
//! file's own order took 2.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::routec;

/// The file with its node records (blank-line separated blocks holding a
/// `Switch`, `Ca` or `Rt` header) reordered by a seeded xorshift shuffle
/// (`seed` 0: reversed); other blocks (the header comment) stay first.
fn shuffled(text: &str, seed: u64) -> String {
    let is_node = |b: &&str| {
        b.lines()
            .any(|l| ["Switch", "Ca", "Rt"].iter().any(|k| l.starts_with(k)))
    };
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let mut nodes: Vec<&str> = blocks.iter().copied().filter(is_node).collect();
    let head: Vec<&str> = blocks.iter().copied().filter(|b| !is_node(b)).collect();
    assert!(nodes.len() > 4, "too few node records to reorder");
    if seed == 0 {
        nodes.reverse();
    } else {
        let mut x = seed;
        for i in (1..nodes.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            nodes.swap(i, (x % (i as u64 + 1)) as usize);
        }
    }
    let mut out = head
        .into_iter()
        .chain(nodes)
        .collect::<Vec<_>>()
        .join("\n\n");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Every file of a compile's output directory; `report.json` without its
/// `inputs` (they name the topology file and its digest, which differ).
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut bytes = std::fs::read(&path).unwrap();
        if name == "report.json" {
            let mut v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            v.as_object_mut().unwrap().remove("inputs");
            bytes = serde_json::to_vec(&v).unwrap();
        }
        files.insert(name, bytes);
    }
    files
}

/// Compiles `topo` as it is and reordered three ways with `args`; every
/// output must be the same bytes.
fn same_outputs(topo: &str, args: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(topo).unwrap();
    let compile = |file: &Path, out: &Path| {
        let mut a = vec!["compile", file.to_str().unwrap(), "-q", "-o"];
        a.push(out.to_str().unwrap());
        a.extend_from_slice(&["--emit", "image,opensm,fdbs,report"]);
        a.extend_from_slice(args);
        let (code, _) = routec(&a, Path::new(env!("CARGO_MANIFEST_DIR")));
        assert_eq!(code, 0, "{topo} {args:?}");
        outputs(out)
    };
    let first = compile(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(topo),
        &tmp.path().join("a"),
    );
    for seed in [0, 1, 2] {
        let file = tmp.path().join(format!("s{seed}.topo"));
        let reordered = shuffled(&text, seed);
        assert_ne!(reordered, text);
        std::fs::write(&file, reordered).unwrap();
        let other = compile(&file, &tmp.path().join(format!("o{seed}")));
        assert_eq!(
            first.keys().collect::<Vec<_>>(),
            other.keys().collect::<Vec<_>>()
        );
        for (name, bytes) in &first {
            assert!(
                bytes == &other[name],
                "{topo} {args:?}: {name} differs with the records in order {seed}"
            );
        }
    }
}

#[test]
fn fat_tree_images_and_state_follow_guids_not_the_file() {
    same_outputs(
        "fixtures/opensm/ft2/minhop/ibnetdiscover.txt",
        &["--engine", "dmodc"],
    );
    same_outputs(
        "fixtures/opensm/ft3f/minhop/ibnetdiscover.txt",
        &["--engine", "minhop"],
    );
}

#[test]
fn updown_on_an_irregular_fabric() {
    same_outputs(
        "fixtures/opensm/irr/minhop/ibnetdiscover.txt",
        &["--engine", "updn", "--roots", "top"],
    );
}

#[test]
fn virtual_lane_plans_do_not_follow_the_file() {
    let torus = "fixtures/opensm-vl/torus4x4/dfsssp/ibnetdiscover.txt";
    same_outputs(torus, &["--engine", "sssp", "--vls", "4"]);
    same_outputs(torus, &["--engine", "minhop", "--vls", "4"]);
    same_outputs(
        "fixtures/opensm-vl/irr/dfsssp/ibnetdiscover.txt",
        &["--engine", "minhop", "--vls", "4"],
    );
}

#[test]
fn dmodc_escape_lanes_do_not_follow_the_file() {
    // aggregation nodes, a management pod on two tops, an isolated pod:
    // escape paths laid on VLs (formats/pgft.md, formats/dmodc.md §9)
    let tmp = tempfile::tempdir().unwrap();
    let topo = tmp.path().join("p.topo");
    let spec = "gen pgft --h 3 --m 4,4,8 --w 1,4,4 --aggregation-nodes \
                --mgmt-pod 2:4:2 --isolated-pods 1 --drop-top 1 -o";
    let mut gen_args: Vec<&str> = spec.split_whitespace().collect();
    gen_args.push(topo.to_str().unwrap());
    assert_eq!(routec(&gen_args, tmp.path()).0, 0);
    same_outputs(topo.to_str().unwrap(), &["--engine", "dmodc", "--vls", "4"]);
}
