//! `routec compile` outputs: write-if-changed, `--check`, failed runs,
//! thread-count independence, depfile, stamp, report, `-v`, and the fdbs /
//! subnet files checked against OpenSM's own and with ibdmchk.

mod opensm;
mod report;
mod safety;
mod verbose;
mod write_if_changed;

use std::path::Path;
use std::time::SystemTime;

use assert_cmd::Command;

const FT2: &str = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";

fn routec() -> Command {
    Command::cargo_bin("routec").unwrap()
}

fn compile_cmd(topo: &Path, out: &Path) -> Command {
    let mut c = routec();
    c.args(["compile", "--engine", "minhop", "-q", "-o"])
        .arg(out)
        .arg(topo);
    c
}

/// Every file of `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p).unwrap().modified().unwrap()
}

const ALL: &[&str] = &["--emit", "image,report,opensm,fdbs"];
