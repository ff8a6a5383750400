//! The `{n:D}` number options: the boundary and junk values tried besides
//! the default, and the filling in of a case's template.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Values a number option is tried with besides its default.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "15",
    "16",
    "64",
    "255",
    "256",
    "65535",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "99999999999",
    "0.5",
    "1e9",
    "",
    "x",
];

/// `args` with `{n:D}` filled in and `{in}`, `{out}`, `{w}` replaced; the
/// arguments, split on spaces. With no `rng`, every number keeps its
/// default (the control run).
pub fn fill(
    args: &str,
    input: &str,
    out: &str,
    w: &str,
    rng: Option<&mut ChaCha8Rng>,
) -> Vec<String> {
    let mut rng = rng;
    let mut s = args
        .replace("{in}", input)
        .replace("{out}", out)
        .replace("{w}", w);
    while let Some(i) = s.find("{n:") {
        let end = i + s[i..].find('}').expect("a closed {n:D}");
        let default = s[i + 3..end].to_string();
        let v = match rng.as_deref_mut() {
            None => default,
            Some(rng) => {
                if rng.random_bool(0.5) {
                    default
                } else if rng.random_bool(0.3) {
                    rng.random_range(0..40u32).to_string()
                } else {
                    NUMBERS[rng.random_range(0..NUMBERS.len())].to_string()
                }
            }
        };
        s.replace_range(i..=end, &v);
    }
    s.split(' ').map(str::to_string).collect()
}
