//! Test helpers shared by several integration tests (`mod common;`).
//!
//! The one reader of OpenSM's `opensm-subnet.lst` (formats.md §5.5, the
//! topology with LIDs that ibdmchk reads): the library has no parser for it,
//! and `fixtures/verify/s128` has no other topology file. Tables are read
//! with the library's own `parse::lfts`. Panics on bad input: fixtures only.

#![allow(dead_code)]

use std::path::Path;

use routec::model::{Fabric, FabricBuilder, Guid, Lfts, LidMap, NodeKind, NodeSpec};

/// One end of an `opensm-subnet.lst` line.
struct End<'a> {
    kind: NodeKind,
    ports: u8,
    node_guid: Guid,
    port_guid: Guid,
    desc: &'a str,
    lid: u16,
    pn: u8,
}

/// The hex value after `key` (up to a space or `}`).
fn hex_field(s: &str, key: &str) -> u64 {
    let at = s.find(key).unwrap_or_else(|| panic!("no {key} in {s}")) + key.len();
    let rest = &s[at..];
    let v = &rest[..rest.find([' ', '}']).unwrap_or(rest.len())];
    u64::from_str_radix(v, 16).unwrap_or_else(|_| panic!("{key} {v}: not hex"))
}

fn end(s: &str) -> End<'_> {
    let kind = match s.trim_start_matches("{ ").split([' ', '-']).next() {
        Some("SW") => NodeKind::Switch,
        Some("Rt") => NodeKind::Router,
        _ => NodeKind::Ca,
    };
    let d0 = s.find("Rev:").expect("Rev:");
    let d1 = s[d0..].find(" {").expect("description") + d0 + 2;
    let d2 = s.rfind("} LID:").expect("LID:");
    End {
        kind,
        ports: hex_field(s, "Ports:") as u8,
        node_guid: Guid(hex_field(s, "NodeGUID:")),
        port_guid: Guid(hex_field(s, "PortGUID:")),
        desc: &s[d1..d2],
        lid: hex_field(&s[d2..], "LID:") as u16,
        pn: hex_field(&s[d2..], "PN:") as u8,
    }
}

/// Loads an `opensm-subnet.lst`: nodes, cables, GUIDs and OpenSM's LIDs.
pub fn subnet_lst(path: &Path) -> (Fabric, LidMap) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut b = FabricBuilder::new();
    for line in text.lines().filter(|l| l.starts_with("{ ")) {
        let split = line.find("} { ").expect("two ends") + 2;
        let ends = [end(&line[..split]), end(&line[split..])];
        let mut idx = Vec::new();
        for e in &ends {
            let n = match b.node_by_guid(e.node_guid) {
                Some(n) => n,
                None => b
                    .add_node(NodeSpec::new(e.kind, e.node_guid, e.ports, e.desc))
                    .unwrap(),
            };
            let port = if e.kind == NodeKind::Switch { 0 } else { e.pn };
            let p = b.port_mut(n, port).unwrap();
            p.guid = e.port_guid;
            p.lid = e.lid;
            idx.push(n);
        }
        b.connect(idx[0], ends[0].pn, idx[1], ends[1].pn).unwrap();
    }
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}

/// Reads tables (an `opensm-lfts.dump`, ...) with `parse::lfts` and lays
/// them out in `fabric`'s switch order with the library's own alignment.
pub fn lfts_for(fabric: &Fabric, lids: &LidMap, path: &Path) -> Lfts {
    let set = routec::parse::lfts::read_tables(path).unwrap();
    let aligned = set
        .align(fabric, lids)
        .unwrap_or_else(|g| panic!("{}: unknown switch {g}", path.display()));
    aligned.lfts
}

/// Runs `routec ARGS` in `cwd`: (exit code, stdout). A panic in the binary
/// fails the test whatever the exit code.
pub fn routec(args: &[&str], cwd: &Path) -> (i32, String) {
    let (code, out, _) = routec_output(args, cwd);
    (code, out)
}

/// [`routec`] with its stderr instead of its stdout.
pub fn routec_stderr(args: &[&str], cwd: &Path) -> (i32, String) {
    let (code, _, err) = routec_output(args, cwd);
    (code, err)
}

/// Exit code, stdout and stderr of `routec args` run in `cwd`; a panic
/// fails the test.
fn routec_output(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("routec")
        .unwrap()
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// The OpenSM ft2 fixture (2-level fat-tree, 32 hosts, OpenSM's LIDs).
pub const FT2: &str = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";

/// Writes the ft2 fixture with one cable (L1S0007/5 — L2S0000/8) removed
/// into `dir` and returns its path.
pub fn ft2_without_one_cable(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(FT2).unwrap();
    let cut: String = text
        .lines()
        .filter(|l| {
            !l.starts_with("[5]\t\"S-0002c90102000000\"[8]")
                && !l.starts_with("[8]\t\"S-0002c90101000007\"[5]")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let p = dir.join("faulted.txt");
    std::fs::write(&p, cut).unwrap();
    p
}

/// Whether `tool` is on the PATH or in /usr/sbin (where Debian puts
/// opensm and ibsim).
pub fn have(tool: &str) -> bool {
    std::process::Command::new("sh")
        .args([
            "-c",
            &format!("command -v {tool} || test -x /usr/sbin/{tool}"),
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The OpenSM harness of the development machine
/// (`/work/shared/peers/opensm`, beside the repository, not in it).
pub fn run_osm() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers/opensm/run_osm.sh")
}

/// Whether the peer tool `what` is usable. When it is not: with `CI` set
/// (where `.ci/run` installs every peer) the test fails; locally it says
/// so on stderr and the caller skips (`cargo test -- --nocapture` shows it).
pub fn peer(what: &str, usable: bool) -> bool {
    if !usable {
        assert!(
            std::env::var_os("CI").is_none(),
            "peer {what} is missing, and CI is set: .ci/run installs it"
        );
        eprintln!("SKIPPED: peer {what} not installed");
    }
    usable
}

/// ibdmchk's credit-loop verdict on a routec output directory written with
/// `--emit fdbs` (`Some(true)` = loops): with the path-SL file `psl` and
/// routec's `ibdmchk.sl2vl`, or on one VL when `psl` is `None`. `None` when
/// ibdmchk cannot be run. ibdmchk 1.5.7 may crash at exit after printing its
/// verdict, so it is judged from its text.
pub fn ibdmchk_loops(dir: &Path, psl: Option<&str>) -> Option<bool> {
    let mut cmd = std::process::Command::new("ibdmchk");
    cmd.current_dir(dir).args([
        "-s",
        "opensm-subnet.lst",
        "-f",
        "opensm.fdbs",
        "-m",
        "opensm.mcfdbs",
    ]);
    if let Some(p) = psl {
        cmd.args(["-c", p, "-d", "ibdmchk.sl2vl"]);
    }
    Some(ibdmchk_verdict(&cmd.output().ok()?))
}

/// Whether ibdmchk's output reports credit loops; a run that printed no
/// verdict at all fails the test (it skips unreadable lines silently).
pub fn ibdmchk_verdict(out: &std::process::Output) -> bool {
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if text.contains("-E- credit loops in routing") {
        true
    } else if text.contains("-I- no credit loops found") {
        false
    } else {
        panic!("ibdmchk gave no verdict:\n{text}")
    }
}

/// The PGFT of `m` and `w` (`routec gen pgft --h m.len()`) with the
/// generator's real-fabric features (aggregation nodes, a management pod,
/// empty host ports, ...).
pub fn pgft_with(m: &[u32], w: &[u32], feat: &routec::generate::features::Features) -> Fabric {
    use routec::generate::{features::apply, pgft};
    let spec = pgft::PgftSpec::new(m.len(), m, w, None);
    apply(&spec, &pgft::pgft(&spec).expect("PGFT"), feat).expect("features")
}

/// An aggregation-node CA on every switch, nothing else.
pub fn aggregation_nodes() -> routec::generate::features::Features {
    routec::generate::features::Features {
        aggregation_nodes: true,
        ..Default::default()
    }
}
