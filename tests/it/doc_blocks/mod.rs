//! The fenced code blocks of a `formats/*.md` file, so that tests parse
//! the examples the specs show.

#![allow(dead_code)]

/// Every block fenced with ```` ```lang ```` in `path`, in order.
pub fn fenced(path: &str, lang: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut blocks = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match &mut cur {
            None if line.trim_start().strip_prefix("```") == Some(lang) => {
                cur = Some(String::new())
            }
            Some(_) if line.trim_start() == "```" => blocks.push(cur.take().unwrap_or_default()),
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    assert!(cur.is_none(), "{path}: unclosed code block");
    blocks
}
