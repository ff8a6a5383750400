//! What the tests that compare routec with pinned OpenSM figures share
//! (`dmodc_balance`, `sssp_quality`): the fixture reader, generated fabrics,
//! `routec report`'s load lines, and the peer-gated OpenSM re-run.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{have, peer, routec, run_osm};

/// (largest, mean) over the permutations of the most loaded switch cable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Load {
    pub max: u32,
    pub mean: f64,
}

impl Load {
    /// From a fixture's `max | mean` fields.
    pub fn of(max: &str, mean: &str) -> Load {
        Load {
            max: max.parse().unwrap(),
            mean: mean.parse().unwrap(),
        }
    }

    pub fn at_most(self, o: Load) -> bool {
        self.max <= o.max && self.mean <= o.mean
    }
}

/// The rows of a pinned fixture (`#` comments and blank lines skipped),
/// each cut at ` | ` into exactly `fields` fields.
pub fn fixture_rows(fixture: &str, fields: usize) -> Vec<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<String> = l.split(" | ").map(String::from).collect();
            assert_eq!(f.len(), fields, "{l}");
            f
        })
        .collect()
}

/// An empty scratch directory `<test>_<name>` under the target directory.
pub fn scratch(test: &str, name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{test}_{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `routec gen GENERATOR ARGS…` (`args` starts with the generator),
/// converted with its fault list applied when it has one (as the fixtures'
/// headers do for OpenSM): the topology path.
pub fn generate(dir: &Path, args: &str) -> String {
    let mut a: Vec<&str> = args.split_whitespace().collect();
    a.splice(0..0, ["gen"]);
    a.splice(2..2, ["-q", "-o", "raw.topo"]);
    assert_eq!(routec(&a, dir).0, 0, "gen {args}");
    if !dir.join("raw.topo.faults").exists() {
        return "raw.topo".into();
    }
    let conv = [
        "convert",
        "--faults",
        "raw.topo.faults",
        "--to",
        "ibnetdiscover",
        "raw.topo",
        "-o",
        "topo",
    ];
    assert_eq!(routec(&conv, dir).0, 0);
    "topo".into()
}

/// The `max M (mean X)` of report's line starting with `pattern`.
pub fn load_on(out: &str, pattern: &str) -> Load {
    let line = out
        .lines()
        .find(|l| l.starts_with(pattern))
        .unwrap_or_else(|| panic!("no {pattern} line in\n{out}"));
    let after = line.split("max ").nth(1).unwrap();
    let (max, rest) = after.split_once(" (mean ").unwrap();
    Load::of(max, rest.split(')').next().unwrap())
}

/// OpenSM's tables of `topo` in `dir` (`run_osm.sh TOPO osm ENGINE…`, its
/// own ibsim socket named after `tag`): the dump's path, or `None` when the
/// harness or the peers are missing (a failure under `CI`, see
/// [`peer`]). The harness lives beside the repository on the development
/// machine, not in it: without it there is nothing to run, CI or not.
pub fn opensm_dump(dir: &Path, topo: &str, engine: &[&str], tag: &str) -> Option<&'static str> {
    if !run_osm().exists() {
        eprintln!("SKIPPED: no OpenSM harness at {}", run_osm().display());
        return None;
    }
    if !peer("opensm and ibsim", have("opensm") && have("ibsim")) {
        return None;
    }
    let out = Command::new(run_osm())
        .args([topo, "osm"])
        .args(engine)
        .env("IBSIM_SOCKNAME", format!("{tag}-{}", std::process::id()))
        .current_dir(dir)
        .output()
        .unwrap();
    let dump = "osm/dump/opensm-lfts.dump";
    assert!(
        dir.join(dump).exists(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(dump)
}
