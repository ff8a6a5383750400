//! The options of an incremental run: `--max-changed-blocks`, `--restore`
//! for a cable that comes back, `--full`.

use super::oracle::{Rule, assert_incremental, differing};
use super::{compile, generate, load, prev_run, report, rows, with_previous};

#[test]
fn max_changed_blocks_is_kept_or_the_run_fails_saying_how_many() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    let (code, err) = with_previous(dir, &topo, &faults, "--engine dmodc", "inc", &[]);
    assert_eq!(code, 0, "{err}");
    let blocks = report(&dir.join("inc"))["incremental"]["changed_blocks"]
        .as_u64()
        .unwrap();
    // the blocks counted by the test: 64-entry blocks that differ
    let (prev, inc) = (rows(&dir.join("prev")), rows(&dir.join("inc")));
    let counted: u64 = inc
        .iter()
        .map(|(g, r)| {
            r.chunks(64)
                .zip(prev[g].chunks(64))
                .filter(|(a, b)| a != b)
                .count() as u64
        })
        .sum();
    assert_eq!(blocks, counted);
    let n = blocks.to_string();
    let (code, err) = with_previous(
        dir,
        &topo,
        &faults,
        "--engine dmodc",
        "fits",
        &["--max-changed-blocks", &n],
    );
    assert_eq!(code, 0, "{err}");
    let less = (blocks - 1).to_string();
    let (code, err) = with_previous(
        dir,
        &topo,
        &faults,
        "--engine dmodc",
        "over",
        &["--max-changed-blocks", &less],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("needs {blocks} LFT blocks")), "{err}");
    assert!(!dir.join("over").exists(), "nothing is written");
}

#[test]
fn a_cable_that_comes_back_is_kept_or_restored_by_option() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = generate(dir, "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7");
    let eng = "--engine dmodc";
    // the previous run had the cables cut; now they are back
    assert_eq!(compile(dir, &topo, Some(&faults), eng, "prev", &[]), 0);
    let back = |out: &str, restore: &str| {
        let a = ["--previous", "prev", "--restore", restore];
        assert_eq!(compile(dir, &topo, None, eng, out, &a), 0);
        rows(&dir.join(out))
    };
    let (keep, engine) = (back("keep", "keep"), back("engine", "engine"));
    assert_eq!(compile(dir, &topo, None, eng, "full", &[]), 0);
    let (f, lids) = load(&topo, None);
    let (prev, full) = (rows(&dir.join("prev")), rows(&dir.join("full")));
    // new cables invalidate nothing (memo Table 1): keep changes only
    // entries the oracle finds broken (Dmodc's escape hops of the degraded
    // fabric, which break up/down from their own switch)
    let kept_changed = assert_incremental(&f, &lids, &prev, &keep, &full, Rule::UpDown);
    assert!(kept_changed < differing(&f, &lids, &prev, &engine));
    let rep = report(&dir.join("keep"));
    assert!(rep["incremental"]["reasons"].get("restored").is_none());
    // engine: the routes through the restored cables are the engine's again
    let (to_full_keep, to_full_engine) = (
        differing(&f, &lids, &keep, &full),
        differing(&f, &lids, &engine, &full),
    );
    assert!(
        to_full_engine < to_full_keep,
        "{to_full_engine} vs {to_full_keep}"
    );
    assert!(differing(&f, &lids, &prev, &engine) > 0);
    let rep = report(&dir.join("engine"));
    assert!(rep["incremental"]["reasons"]["restored"].as_u64().unwrap() > 0);
    assert_eq!(rep["verification"]["status"], "pass");
}

#[test]
fn full_routes_from_scratch() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = prev_run(dir, "--engine dmodc");
    let (code, err) = with_previous(dir, &topo, &faults, "--engine dmodc", "f", &["--full"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        compile(dir, &topo, Some(&faults), "--engine dmodc", "scratch", &[]),
        0
    );
    assert_eq!(rows(&dir.join("f")), rows(&dir.join("scratch")));
    assert!(!err.contains("R021") && !err.contains("R020"));
}
