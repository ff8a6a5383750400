//! The house rules as a test: data flows one way and dependencies point
//! down to the fabric model. Every `crate::<stage>` path in a stage's
//! non-test code must be an edge of [`ALLOWED`]; changing the rules is
//! changing one line of that table.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Which stages each stage may use. `cli` may use everything.
const ALLOWED: &[(&str, &[&str])] = &[
    ("error", &[]),
    ("io", &["error"]),
    ("model", &["error", "io"]),
    ("parse", &["model", "error", "io"]),
    ("generate", &["model", "error", "io"]),
    ("route", &["model", "error", "io"]),
    ("mcast", &["model", "error", "io"]),
    ("verify", &["model", "error", "io"]),
    // report.json and mcast.json carry the verifier's findings as data
    ("emit", &["model", "error", "io", "verify"]),
    ("diff", &["model", "error", "io"]),
    ("cli", &["*"]),
];

/// The stage a path under `src/` belongs to: its first folder, or the
/// file's stem for top-level modules (`io.rs`, `error.rs`).
fn stage_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let stage = first.strip_suffix(".rs").unwrap_or(first);
    (stage != "lib" && stage != "main").then(|| stage.to_string())
}

/// The stages `text` (one source file) names as `crate::<stage>` outside
/// comments and `#[cfg(test)]` code (test modules come last in a file).
fn used_stages(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `crate::{a, b}` would hide its stages from this check
            if rest.starts_with('{') {
                used.insert("{grouped import}".to_string());
            // `crate::Error`, `crate::Result`: the root re-exports of `error`
            } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                used.insert("error".to_string());
            } else if !name.is_empty() {
                used.insert(name);
            }
        }
    }
    used
}

/// Files declared as `#[cfg(test)] mod x;` are test code as a whole.
fn test_only_modules(text: &str, dir: &Path) -> Vec<std::path::PathBuf> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for w in lines.windows(2) {
        if w[0] == "#[cfg(test)]" {
            let decl = w[1]
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            if let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                out.push(dir.join(format!("{name}.rs")));
                out.push(dir.join(name).join("mod.rs"));
            }
        }
    }
    out
}

/// Every forbidden edge, as `stage -> used (file)`.
fn violations(files: &[(std::path::PathBuf, String)]) -> Vec<String> {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut skip = BTreeSet::new();
    for (path, text) in files {
        let dir = path.parent().unwrap_or(Path::new(""));
        skip.extend(test_only_modules(text, dir));
    }
    let mut bad = Vec::new();
    for (path, text) in files {
        if skip.contains(path) {
            continue;
        }
        let Some(stage) = stage_of(path) else {
            continue;
        };
        let Some(ok) = allowed.get(stage.as_str()) else {
            bad.push(format!(
                "{}: stage `{stage}` is not in the rules table",
                path.display()
            ));
            continue;
        };
        for used in used_stages(text) {
            if used != stage && !ok.contains(&"*") && !ok.contains(&used.as_str()) {
                bad.push(format!("{stage} -> {used} ({})", path.display()));
            }
        }
    }
    bad.sort();
    bad
}

fn source_files(root: &Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap().to_path_buf();
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn stages_import_only_downwards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = source_files(&root);
    assert!(files.len() > 50, "read {} files", files.len());
    let bad = violations(&files);
    assert!(bad.is_empty(), "forbidden imports:\n{}", bad.join("\n"));
}

#[test]
fn the_rules_have_no_cycle() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    // Depth-first from every stage; `cli` (the `*`) is the top and is
    // used by no one.
    fn reaches(
        a: &BTreeMap<&str, &[&str]>,
        from: &str,
        to: &str,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        a.get(from).is_some_and(|next| {
            next.iter().any(|&n| {
                n == to || (n != "*" && seen.insert(n.to_string()) && reaches(a, n, to, seen))
            })
        })
    }
    for &(stage, _) in ALLOWED {
        if stage == "cli" {
            continue;
        }
        assert!(
            !reaches(&allowed, stage, stage, &mut BTreeSet::new()),
            "{stage} reaches itself"
        );
        assert!(
            !reaches(&allowed, stage, "cli", &mut BTreeSet::new()),
            "{stage} may use cli"
        );
    }
}

#[test]
fn a_forbidden_import_is_caught() {
    let file = |path: &str, text: &str| (std::path::PathBuf::from(path), text.to_string());
    let files = vec![
        file(
            "route/x.rs",
            "//! uses crate::verify in a comment only\nuse crate::model::Fabric;\n",
        ),
        file("route/y.rs", "use crate::verify::Code;\n"),
        file(
            "mcast/z.rs",
            "fn f() { crate::emit::mcast::write_colours(); }\n",
        ),
        file(
            "model/w.rs",
            "use crate::model::Lfts;\n#[cfg(test)]\nmod tests { use crate::route::Engine; }\n",
        ),
        file(
            "route/opensm/mod.rs",
            "#[cfg(test)]\npub(crate) mod testfab;\n",
        ),
        file(
            "route/opensm/testfab.rs",
            "use crate::parse::load_topology;\n",
        ),
        file(
            "verify/v.rs",
            "let x = crate::mcast::assign; // crate::route in a comment\n",
        ),
        file("diff/g.rs", "use crate::{model::Lfts, route::Engine};\n"),
    ];
    assert_eq!(
        violations(&files),
        [
            "diff -> {grouped import} (diff/g.rs)",
            "mcast -> emit (mcast/z.rs)",
            "route -> verify (route/y.rs)",
            "verify -> mcast (verify/v.rs)",
        ]
    );
}
