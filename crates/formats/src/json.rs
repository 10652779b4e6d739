//! A small JSON reader that remembers where each value starts.
//!
//! serde_json reports syntax errors with a line, but forgets positions once a
//! value is parsed; a KPuzzle file that is valid JSON but a bad puzzle
//! ("permutation of MOVE R, orbit EDGES repeats 3") deserves a line number
//! too. Nesting is limited to [`MAX_DEPTH`] so no input can exhaust the stack.

use crate::error::{At, JsonReason, ParseError, ParseErrorKind as K};

/// Deepest nesting accepted.
pub(crate) const MAX_DEPTH: usize = 128;

/// A JSON value and the (1-based) line and column where it starts.
#[derive(Debug, Clone)]
pub(crate) struct Json {
    pub line: usize,
    pub column: usize,
    pub value: Value,
}

#[derive(Debug, Clone)]
pub(crate) enum Value {
    Null,
    Bool,
    /// The number as written.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// Typed access that turns surprises into located errors.
impl Json {
    fn shape(&self, at: At, path: &str, expected: impl Into<String>) -> ParseError {
        at.err_col(
            self.line,
            self.column,
            K::JsonShape {
                path: path.to_string(),
                expected: format!("expected {}, found {}", expected.into(), self.value.kind()),
            },
        )
    }

    pub fn object(&self, at: At, path: &str) -> Result<&[(String, Json)], ParseError> {
        match &self.value {
            Value::Object(o) => Ok(o),
            _ => Err(self.shape(at, path, "an object")),
        }
    }

    pub fn array(&self, at: At, path: &str) -> Result<&[Json], ParseError> {
        match &self.value {
            Value::Array(a) => Ok(a),
            _ => Err(self.shape(at, path, "an array")),
        }
    }

    pub fn string(&self, at: At, path: &str) -> Result<&str, ParseError> {
        match &self.value {
            Value::String(s) => Ok(s),
            _ => Err(self.shape(at, path, "a string")),
        }
    }

    /// A whole number in `0..=max`.
    pub fn uint(&self, at: At, path: &str, max: u64) -> Result<u64, ParseError> {
        let expected = || format!("a whole number from 0 to {max}");
        match &self.value {
            Value::Number(n) => match n.parse::<u64>() {
                Ok(v) if v <= max => Ok(v),
                Ok(v) => Err(at.err_col(
                    self.line,
                    self.column,
                    K::JsonShape {
                        path: path.to_string(),
                        expected: format!("expected {}, found {v}", expected()),
                    },
                )),
                Err(_) => Err(at.err_col(
                    self.line,
                    self.column,
                    K::JsonShape {
                        path: path.to_string(),
                        expected: format!("expected {}, found {n}", expected()),
                    },
                )),
            },
            _ => Err(self.shape(at, path, expected())),
        }
    }

    /// An array of whole numbers in `0..=max`.
    pub fn uints(&self, at: At, path: &str, max: u64) -> Result<Vec<u64>, ParseError> {
        self.array(at, path)?
            .iter()
            .enumerate()
            .map(|(i, v)| v.uint(at, &format!("{path}[{i}]"), max))
            .collect()
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match &self.value {
            Value::Object(o) => o.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses JSON text.
pub(crate) fn parse(at: At, text: &str) -> Result<Json, ParseError> {
    let mut p = Parser {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
        at,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.b.len() {
        return Err(p.err(JsonReason::TrailingText));
    }
    Ok(v)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
    at: At<'a>,
}

impl Parser<'_> {
    fn err(&self, reason: JsonReason) -> ParseError {
        self.at.err_col(self.line, self.col, K::Json { reason })
    }

    fn bump(&mut self) -> Option<u8> {
        let c = *self.b.get(self.i)?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if c & 0xC0 != 0x80 {
            self.col += 1;
        }
        Some(c)
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    fn expect_word(&mut self, w: &str) -> Result<(), ParseError> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            for _ in 0..w.len() {
                self.bump();
            }
            Ok(())
        } else {
            Err(self.err(JsonReason::UnexpectedCharacter))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err(JsonReason::TooDeep));
        }
        let (line, column) = (self.line, self.col);
        let value = match self.peek() {
            None => return Err(self.err(JsonReason::UnexpectedEnd)),
            Some(b'{') => {
                self.bump();
                let mut members = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.bump();
                } else {
                    loop {
                        self.ws();
                        if self.peek() != Some(b'"') {
                            return Err(self.err(JsonReason::ExpectedKey));
                        }
                        let k = self.string()?;
                        self.ws();
                        if self.bump() != Some(b':') {
                            return Err(self.err(JsonReason::ExpectedColon));
                        }
                        self.ws();
                        let v = self.value(depth + 1)?;
                        members.push((k, v));
                        self.ws();
                        match self.bump() {
                            Some(b',') => continue,
                            Some(b'}') => break,
                            _ => return Err(self.err(JsonReason::ExpectedCommaOrBrace)),
                        }
                    }
                }
                Value::Object(members)
            }
            Some(b'[') => {
                self.bump();
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.bump();
                } else {
                    loop {
                        self.ws();
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.bump() {
                            Some(b',') => continue,
                            Some(b']') => break,
                            _ => return Err(self.err(JsonReason::ExpectedCommaOrBracket)),
                        }
                    }
                }
                Value::Array(items)
            }
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => {
                self.expect_word("true")?;
                Value::Bool
            }
            Some(b'f') => {
                self.expect_word("false")?;
                Value::Bool
            }
            Some(b'n') => {
                self.expect_word("null")?;
                Value::Null
            }
            Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
            Some(_) => return Err(self.err(JsonReason::UnexpectedCharacter)),
        };
        Ok(Json {
            line,
            column,
            value,
        })
    }

    fn number(&mut self) -> Result<String, ParseError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => {
                self.bump();
            }
            Some(b'1'..=b'9') => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
            }
            _ => return Err(self.err(JsonReason::BadNumber)),
        }
        if self.peek() == Some(b'.') {
            self.bump();
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.err(JsonReason::BadNumber));
            }
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.bump();
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.bump();
            }
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.err(JsonReason::BadNumber));
            }
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
        }
        Ok(String::from_utf8_lossy(&self.b[start..self.i]).into_owned())
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let c = self
                .bump()
                .ok_or_else(|| self.err(JsonReason::ShortUnicodeEscape))?;
            let d = (c as char)
                .to_digit(16)
                .ok_or_else(|| self.err(JsonReason::BadUnicodeEscape))?;
            v = v * 16 + d;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.bump(); // opening quote
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self
                .bump()
                .ok_or_else(|| self.err(JsonReason::UnterminatedString))?;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self
                        .bump()
                        .ok_or_else(|| self.err(JsonReason::UnterminatedString))?;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.bump() != Some(b'\\') || self.bump() != Some(b'u') {
                                    return Err(self.err(JsonReason::UnpairedSurrogate));
                                }
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err(JsonReason::UnpairedSurrogate));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code)
                                .ok_or_else(|| self.err(JsonReason::BadUnicodeEscape))?
                        }
                        _ => return Err(self.err(JsonReason::BadEscape)),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c if c < 0x20 => return Err(self.err(JsonReason::ControlCharacter)),
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.err(JsonReason::InvalidUtf8))
    }
}

/// Writes a string as a JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> At<'static> {
        At { file: "t.json" }
    }

    #[test]
    fn values_know_their_lines() {
        let j = parse(
            at(),
            "{\n  \"a\": [1, 2],\n  \"b\": \"x\\u00e9\\ud83d\\ude00\"\n}",
        )
        .unwrap();
        let a = j.get("a").unwrap();
        assert_eq!((a.line, a.column), (2, 8));
        assert_eq!(j.get("b").unwrap().string(at(), "b").unwrap(), "xé😀");
        assert_eq!(a.uints(at(), "a", 9).unwrap(), vec![1, 2]);
    }

    #[test]
    fn rejects_bad_json_with_a_location() {
        for bad in [
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "\"\\x\"",
            "[1] 2",
            "nul",
            "\"\\ud800\"",
        ] {
            let e = parse(at(), bad).unwrap_err();
            assert!(e.line >= 1, "{bad}");
        }
        let deep = "[".repeat(10_000);
        assert!(parse(at(), &deep).is_err());
    }

    #[test]
    fn integers_only_where_integers_belong() {
        let j = parse(at(), "[1.5, -1, 300, 7]").unwrap();
        let items = j.array(at(), "x").unwrap();
        assert!(items[0].uint(at(), "x", 255).is_err());
        assert!(items[1].uint(at(), "x", 255).is_err());
        assert!(items[2].uint(at(), "x", 255).is_err());
        assert_eq!(items[3].uint(at(), "x", 255).unwrap(), 7);
    }
}
