//! `compile --vls N` on a routing that promises up*/down* ranks (Dmodc
//! without escapes, updn): such a routing is deadlock-free on one VL, so
//! the layering is skipped and the tables are those of `--vls 1` — unless
//! two roots are cabled together, where routes may turn round the roots
//! and the layering still decides.

use std::path::Path;

use crate::common::{FT2, routec_stderr as run};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const RING6: &str = "fixtures/verify/ring6/ibnetdiscover.txt";

fn compile(
    cwd: &Path,
    topo: &str,
    engine: &str,
    vls: &str,
    out: &str,
    extra: &[&str],
) -> (i32, String) {
    let topo = format!("{ROOT}/{topo}");
    let mut args = vec![
        "compile", &topo, "--engine", engine, "--vls", vls, "-o", out,
    ];
    args.extend_from_slice(extra);
    run(&args, cwd)
}

#[test]
fn up_down_routings_skip_the_layering_and_keep_their_tables() {
    let dir = tempfile::tempdir().unwrap();
    for engine in ["dmodc", "updn"] {
        let one = format!("{engine}-1");
        let four = format!("{engine}-4");
        assert_eq!(compile(dir.path(), FT2, engine, "1", &one, &[]).0, 0);
        let (code, err) = compile(dir.path(), FT2, engine, "4", &four, &[]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("layers: 1 VL(s) of 4 (every route up*/down*"),
            "{err}"
        );
        let lft = |d: &str| std::fs::read(dir.path().join(d).join("routes.lft")).unwrap();
        assert!(
            lft(&one) == lft(&four),
            "{engine}: --vls 4 changed the tables"
        );
        let (code, err) = run(
            &["check", &format!("{ROOT}/{FT2}"), "--lfts", &four],
            dir.path(),
        );
        assert_eq!(code, 0, "{err}");
    }
}

/// Every switch of a ring a root: each link is up both ways, updn's routes
/// keep the promise and still close a credit loop on one VL, so the
/// layering must run (2 VLs), and `--vls 1` fails verification.
#[test]
fn linked_roots_still_layer() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(format!("{ROOT}/{RING6}")).unwrap();
    let roots: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("switchguid="))
        .map(|g| format!("{}\n", &g[..g.find('(').unwrap()]))
        .collect();
    assert_eq!(roots.lines().count(), 6);
    std::fs::write(dir.path().join("roots.txt"), roots).unwrap();
    let roots = ["--roots", "roots.txt"];
    let (code, err) = compile(dir.path(), RING6, "updn", "4", "four", &roots);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("layers: 2 VL(s) of 4"), "{err}");
    let (code, err) = compile(dir.path(), RING6, "updn", "1", "one", &roots);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("V020"), "{err}");
}
