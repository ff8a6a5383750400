//! The PGFT generator: counts, numbering identical to the OpenSM harness's
//! gen_pgft.py, the formats/pgft.md example, `routec gen pgft`.

use std::collections::BTreeSet;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;
use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, Guid, NodeKind};

fn counts(f: &Fabric) -> (usize, usize, usize) {
    let hosts = f.nodes().iter().filter(|n| n.kind == NodeKind::Ca).count();
    (hosts, f.num_switches(), f.links().count())
}

#[test]
fn real_life_fat_tree_counts() {
    let f = pgft(&PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None)).unwrap();
    // 648 leaves + 648 level-2 + 324 top; cables: 11,664 host + 2 × 11,664.
    assert_eq!(counts(&f), (11_664, 1_620, 3 * 11_664));
    let spec = PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None);
    assert_eq!((spec.level_size(0), spec.num_switches()), (27_648, 2_880));
    let f = pgft(&spec).unwrap();
    assert_eq!(counts(&f), (27_648, 2_880, 3 * 27_648));
    // LIDs: switches 1..=2880 in GUID order, then hosts.
    assert_eq!(f.switch_lid(f.switches()[0]), 1);
    assert_eq!(
        f.port(f.node_by_guid(Guid(0x0002_c902_0000_0000)).unwrap(), 1)
            .lid,
        2_881
    );
}

#[test]
fn fig1_counts() {
    // The Dmodc paper's Fig. 1: 12 nodes, 6 + 6 + 4 switches.
    let f = pgft(&PgftSpec::new(3, &[2, 2, 3], &[1, 2, 2], Some(&[1, 2, 1]))).unwrap();
    let (hosts, switches, cables) = counts(&f);
    assert_eq!((hosts, switches), (12, 16));
    // 12 host cables, leaf→L2: 6 leaves × 2 parents × 2 cables, L2→top: 6 × 2.
    assert_eq!(cables, 12 + 24 + 12);
}

/// Cables of a fabric as (GUID, port, GUID, port), each once, smaller end first.
fn cable_set(f: &Fabric) -> BTreeSet<(u64, u8, u64, u8)> {
    f.links()
        .map(|(a, pa, b, pb)| {
            let x = (f.node(a).guid.0, pa);
            let y = (f.node(b).guid.0, pb);
            let (x, y) = if x < y { (x, y) } else { (y, x) };
            (x.0, x.1, y.0, y.1)
        })
        .collect()
}

/// Cables of a gen_pgft.py net file: `switchguid=`/`caguid=` lines give the
/// GUID of the next node, `[p] "name"[q]` lines its cables.
fn net_file_cables(text: &str) -> BTreeSet<(u64, u8, u64, u8)> {
    let mut guid_of = std::collections::HashMap::new();
    let mut pending = 0u64;
    let mut current = String::new();
    let mut raw = Vec::new();
    for line in text.lines() {
        if let Some(g) = line
            .strip_prefix("switchguid=")
            .or_else(|| line.strip_prefix("caguid="))
        {
            pending = u64::from_str_radix(g.trim_start_matches("0x"), 16).unwrap();
        } else if line.starts_with("Switch") || line.starts_with("Hca") {
            current = line.split('"').nth(1).unwrap().to_string();
            guid_of.insert(current.clone(), pending);
        } else if line.starts_with('[') {
            let port: u8 = line[1..line.find(']').unwrap()].parse().unwrap();
            let peer = line.split('"').nth(1).unwrap().to_string();
            let rest = &line[line.find("\"[").unwrap() + 2..];
            let rport: u8 = rest[..rest.find(']').unwrap()].parse().unwrap();
            raw.push((current.clone(), port, peer, rport));
        }
    }
    raw.into_iter()
        .map(|(a, pa, b, pb)| {
            let x = (guid_of[&a], pa);
            let y = (guid_of[&b], pb);
            let (x, y) = if x < y { (x, y) } else { (y, x) };
            (x.0, x.1, y.0, y.1)
        })
        .collect()
}

#[test]
fn numbering_matches_gen_pgft_py() {
    // shared/ sits beside the repository (on developer machines and in CI).
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/peers/opensm/gen_pgft.py"
    );
    if !std::path::Path::new(script).exists() || Command::new("python3").arg("-V").output().is_err()
    {
        eprintln!("skipped: python3 or {script} not available");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (h, m, w, p) in [
        ("3", "2,2,3", "1,2,2", "1,2,1"),
        ("2", "4,4", "1,2", "1,2"),
        ("3", "2,3,2", "1,2,3", "2,2,2"),
    ] {
        let out = dir.path().join("t.net");
        let st = Command::new("python3")
            .args([script, "--h", h, "--m", m, "--w", w, "--p", p, "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        let parse = |s: &str| {
            s.split(',')
                .map(|x| x.parse().unwrap())
                .collect::<Vec<u32>>()
        };
        let spec = PgftSpec::new(h.parse().unwrap(), &parse(m), &parse(w), Some(&parse(p)));
        let f = pgft(&spec).unwrap();
        let theirs = net_file_cables(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(cable_set(&f), theirs, "PGFT({h};{m};{w};{p})");
    }
}

/// The listing of formats/pgft.md: one line per cable, lower end first.
fn listing(f: &Fabric) -> String {
    let mut out = String::new();
    for n in f.node_indices() {
        let node = f.node(n);
        let lid = f
            .port(n, if node.kind == NodeKind::Switch { 0 } else { 1 })
            .lid;
        out += &format!("{} {} lid {lid}\n", node.guid, node.desc);
        for (p, port) in f.ports(n).iter().enumerate() {
            if let Some(peer) = port.peer {
                out += &format!("  [{p}] -> {} [{}]\n", f.node(peer.node).desc, peer.port);
            }
        }
    }
    out
}

#[test]
fn formats_pgft_md_example() {
    let md =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/formats/pgft.md")).unwrap();
    let start =
        md.find("```text pgft-example\n").expect("example block") + "```text pgft-example\n".len();
    let block = &md[start..start + md[start..].find("```").unwrap()];
    let f = pgft(&PgftSpec::new(2, &[2, 2], &[1, 2], Some(&[1, 2]))).unwrap();
    assert_eq!(listing(&f), block);
}

#[test]
fn random_faults_are_seeded() {
    let f = pgft(&PgftSpec::new(3, &[4, 4, 4], &[1, 4, 4], None)).unwrap();
    let plan = FaultPlan {
        links: 5,
        switches: 2,
        seed: 9,
    };
    let a = random_faults(&f, &plan).unwrap();
    assert_eq!(a, random_faults(&f, &plan).unwrap());
    assert_ne!(
        a,
        random_faults(&f, &FaultPlan { seed: 10, ..plan }).unwrap()
    );
    assert_eq!(a.len(), 7);
    let (g, s) = f.apply_faults(&a).unwrap();
    assert_eq!(
        (s.nodes_removed, g.num_switches()),
        (2, f.num_switches() - 2)
    );
    let e = random_faults(
        &f,
        &FaultPlan {
            links: 0,
            switches: 33,
            seed: 1,
        },
    )
    .unwrap_err();
    assert!(e.contains("only 32 switches"), "{e}");
}

#[test]
fn cli_writes_topology_and_fault_list() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fig1.topo");
    let st = Command::new(cargo_bin("routec"))
        .args([
            "gen", "pgft", "--h", "3", "--m", "2,2,3", "--w", "1,2,2", "--p", "1,2,1",
        ])
        .args([
            "--faults",
            "3",
            "--fail-switches",
            "1",
            "--seed",
            "5",
            "-q",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let loaded = routec::parse::load_topology(&out, &Default::default()).unwrap();
    let f = pgft(&PgftSpec::new(3, &[2, 2, 3], &[1, 2, 2], Some(&[1, 2, 1]))).unwrap();
    assert_eq!(cable_set(&loaded.fabric), cable_set(&f));
    let faults = std::fs::read_to_string(dir.path().join("fig1.topo.faults")).unwrap();
    let lines: Vec<_> = faults.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("switch 0x0002c9010"), "{faults}");
    assert!(
        lines[1..].iter().all(|l| l.starts_with("link 0x0002c9010")),
        "{faults}"
    );
    // A bad spec is a usage error, exit 2.
    let st = Command::new(cargo_bin("routec"))
        .args(["gen", "pgft", "--h", "2", "--m", "2", "--w", "1,2"])
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&st.stderr).contains("--m needs 2 values"));
}
