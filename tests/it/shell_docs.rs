//! `routec completions SHELL` and `routec man` (issue 11, item 24): made
//! from the clap definitions, so they cover every command and option; the
//! bash script must parse, and every subcommand gets a page.

use std::path::Path;
use std::process::Command;

use crate::common::routec;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SUBCOMMANDS: [&str; 10] = [
    "info",
    "convert",
    "gen",
    "compile",
    "check",
    "report",
    "diff",
    "mcast",
    "completions",
    "man",
];

#[test]
fn completions_cover_every_command_and_parse() {
    let (code, bash) = routec(&["completions", "bash"], Path::new(ROOT));
    assert_eq!(code, 0);
    for c in SUBCOMMANDS {
        assert!(bash.contains(c), "bash completion lacks {c}");
    }
    for opt in [
        "--vls",
        "--lmc",
        "--max-hops",
        "--service-nodes",
        "--emit",
        "--plan",
    ] {
        assert!(bash.contains(opt), "bash completion lacks {opt}");
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("routec.bash");
    std::fs::write(&script, &bash).unwrap();
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .status()
        .unwrap();
    assert!(syntax.success(), "bash -n refuses the completion script");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (code, text) = routec(&["completions", shell], Path::new(ROOT));
        assert_eq!(code, 0, "{shell}");
        assert!(text.contains("compile"), "{shell}");
    }
    let (code, _) = routec(&["completions", "tcsh"], Path::new(ROOT));
    assert_eq!(code, 2, "an unknown shell is a usage error");
}

#[test]
fn man_pages_for_every_command() {
    let (code, page) = routec(&["man"], Path::new(ROOT));
    assert_eq!(code, 0);
    assert!(
        page.contains(".TH routec 1"),
        "{}",
        &page[..page.len().min(200)]
    );
    let dir = tempfile::tempdir().unwrap();
    let (code, _) = routec(
        &["man", "--dir", dir.path().to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0);
    for c in SUBCOMMANDS {
        let p = dir.path().join(format!("routec-{c}.1"));
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(text.contains(&format!(".TH routec-{c} 1")), "{c}");
    }
    let compile = std::fs::read_to_string(dir.path().join("routec-compile.1")).unwrap();
    assert!(
        compile.contains("service\\-nodes"),
        "options are in the page"
    );
}
