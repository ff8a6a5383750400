//! A byte cursor over one line, for the hand-shaped ibnetdiscover grammar.
//!
//! Tokens are cut with nom's `complete` parsers; the cursor only tracks the
//! column so that every failure becomes a [`LineError`] pointing at the
//! offending byte (the caller adds the line's offset in the file).

use nom::character::complete::hex_digit1;

use crate::model::Guid;

/// A syntax error inside one line: byte offset in the line, span length,
/// what the grammar wanted and (optionally) what was there instead.
#[derive(Debug, Clone, PartialEq)]
pub struct LineError {
    pub at: usize,
    pub len: usize,
    pub expected: String,
    /// Empty: the rest of the line is shown.
    pub found: String,
}

impl LineError {
    pub fn new(at: usize, len: usize, expected: impl Into<String>) -> Self {
        LineError {
            at,
            len,
            expected: expected.into(),
            found: String::new(),
        }
    }

    pub fn found(mut self, found: impl Into<String>) -> Self {
        self.found = found.into();
        self
    }
}

pub type LineResult<T> = Result<T, LineError>;

/// Position in a line.
pub struct Cursor<'a> {
    pub line: &'a str,
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(line: &'a str) -> Self {
        Cursor { line, pos: 0 }
    }

    /// The unread part.
    pub fn rest(&self) -> &'a str {
        &self.line[self.pos..]
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.line.len()
    }

    /// Skips spaces and TABs (separators are optional: PuTTY logs lose them).
    pub fn ws(&mut self) {
        let b = &self.line.as_bytes()[self.pos.min(self.line.len())..];
        self.pos += b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    }

    /// Consumes `s` if the rest starts with it.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes `s` or fails with `expected`.
    pub fn expect(&mut self, s: &str, expected: &str) -> LineResult<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// An error at the cursor spanning the next token.
    pub fn error(&self, expected: impl Into<String>) -> LineError {
        let len = self
            .rest()
            .find([' ', '\t'])
            .unwrap_or(self.rest().len())
            .max(1);
        LineError::new(self.pos, len, expected)
    }

    /// A decimal integer no larger than `max`.
    pub fn uint(&mut self, max: u64, what: &str) -> LineResult<u64> {
        let start = self.pos;
        let rest = self.rest();
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return Err(self.error(what));
        }
        let digits = &rest[..len];
        self.pos += len;
        // digit by digit, `None` past u64 as `str::parse` (issue 17: its
        // generic radix loop was a tenth of classifying a port line)
        let value = digits.bytes().try_fold(0u64, |v, d| {
            v.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
        match value {
            Some(v) if v <= max => Ok(v),
            _ => Err(
                LineError::new(start, digits.len(), format!("{what} (at most {max})"))
                    .found(format!("`{digits}`")),
            ),
        }
    }

    /// A GUID: optional `0x`, 1 to 16 hex digits (formats.md §0.4). The
    /// token must end at a non-alphanumeric byte, so `9c05<redacted>` and
    /// 17-digit values are rejected rather than cut short.
    pub fn guid(&mut self) -> LineResult<Guid> {
        let start = self.pos;
        let _ = self.eat("0x") || self.eat("0X");
        let res: nom::IResult<&str, &str> = hex_digit1(self.rest());
        let digits = res.map(|(_, d)| d).unwrap_or("");
        let end = self.pos + digits.len();
        let next = self.line.as_bytes().get(end).copied();
        let bad_tail = next.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'<');
        if digits.is_empty() || digits.len() > 16 || bad_tail {
            let tok_end = self.line[start..]
                .find(['"', '(', ')', '[', ' ', '\t'])
                .map_or(self.line.len(), |i| start + i);
            let tok = &self.line[start..tok_end.max(start)];
            return Err(
                LineError::new(start, tok.len().max(1), "a GUID (1 to 16 hex digits)")
                    .found(format!("`{tok}`")),
            );
        }
        self.pos = end;
        hex_u64(digits.as_bytes())
            .map(Guid)
            .ok_or_else(|| LineError::new(start, digits.len(), "a GUID (1 to 16 hex digits)"))
    }

    /// `"text"`: returns the text and its offset. Ids never contain `"`.
    pub fn quoted(&mut self, what: &str) -> LineResult<(&'a str, usize)> {
        if !self.eat("\"") {
            return Err(self.error(format!("`\"` opening {what}")));
        }
        let start = self.pos;
        // (`memchr`'s vector search: `str::find` was 2-3 % of the parse)
        match memchr::memchr(b'"', self.rest().as_bytes()) {
            Some(i) => {
                self.pos += i + 1;
                Ok((&self.line[start..start + i], start))
            }
            None => Err(
                LineError::new(self.line.len(), 0, format!("`\"` closing {what}"))
                    .found("end of line"),
            ),
        }
    }

    /// `[N]` with `N <= 255`, and the `[ext N]` panel port that `-g` adds.
    pub fn port_number(&mut self, what: &str) -> LineResult<(u8, usize)> {
        if !self.eat("[") {
            return Err(self.error(format!("`[` before {what}")));
        }
        let at = self.pos;
        let p = self.uint(255, what)? as u8;
        if !self.eat("]") {
            return Err(self.error(format!("`]` after {what}")));
        }
        if self.rest().starts_with("[ext") {
            self.pos += 4;
            self.ws();
            self.uint(u64::MAX, "external port number")?;
            self.expect("]", "`]` after the external port number")?;
        }
        Ok((p, at))
    }

    /// `(guid)` if present.
    pub fn paren_guid(&mut self) -> LineResult<Option<Guid>> {
        if !self.eat("(") {
            return Ok(None);
        }
        let g = self.guid()?;
        self.expect(")", "`)` after the port GUID")?;
        Ok(Some(g))
    }
}

/// 1 to 16 hex digits, any case, as a number, in one pass: a validating
/// pass then `from_str_radix` was a tenth of classifying a port line, two
/// GUIDs a line (issue 17). `None` for anything else.
pub fn hex_u64(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    digits.iter().try_fold(0u64, |v, &b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return None,
        };
        Some(v << 4 | u64::from(d))
    })
}

/// A number as `strtoull(s, 0)` reads it: `0x` hex, leading `0` octal,
/// else decimal (ibsim's directives go through it).
pub fn c_number(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if h.is_empty() || h.len() > 16 {
            return None;
        }
        u64::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guid_tokens() {
        let mut c = Cursor::new("0x8f10400410015(");
        assert_eq!(c.guid(), Ok(Guid(0x8f10400410015)));
        assert_eq!(c.rest(), "(");
        let mut c = Cursor::new("9c05<redacted>\"");
        let e = c.guid().unwrap_err();
        assert_eq!(e.found, "`9c05<redacted>`");
        let mut c = Cursor::new("00000000000000001)");
        assert!(c.guid().is_err());
    }

    #[test]
    fn hex_digits_as_guid_parse_reads_them() {
        for s in [
            "0",
            "f",
            "FFFFffffFFFFffff",
            "0002c903007b78b0",
            "1234567890abcdef",
        ] {
            let want = u64::from_str_radix(s, 16).ok();
            assert_eq!(hex_u64(s.as_bytes()), want, "{s}");
        }
        for s in ["", "x", "12g4", "00000000000000001", "-1", "+1", " 1"] {
            assert_eq!(hex_u64(s.as_bytes()), None, "{s:?}");
        }
    }

    #[test]
    fn numbers_as_strtoull() {
        assert_eq!(c_number("0x200000"), Some(0x200000));
        assert_eq!(c_number("010"), Some(8));
        assert_eq!(c_number("12"), Some(12));
        assert_eq!(c_number("0"), Some(0));
        assert_eq!(c_number("x"), None);
    }

    #[test]
    fn ports_with_ext_and_bounds() {
        let mut c = Cursor::new("[3][ext 12]\t");
        assert_eq!(c.port_number("port").map(|p| p.0), Ok(3));
        assert_eq!(c.rest(), "\t");
        let mut c = Cursor::new("[300]");
        assert!(c.port_number("port").is_err());
        let mut c = Cursor::new(" \t 18446744073709551615x");
        c.ws();
        assert_eq!(c.uint(u64::MAX, "n"), Ok(u64::MAX));
        assert_eq!(c.rest(), "x");
        let mut c = Cursor::new("18446744073709551616");
        let e = c.uint(u64::MAX, "n").unwrap_err();
        assert_eq!(
            (e.at, e.len, e.found.as_str()),
            (0, 20, "`18446744073709551616`")
        );
    }
}
