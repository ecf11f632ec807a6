//! A JSON reader that keeps the byte range of every key and value.
//!
//! serde_json reports where a syntax error is, but once a document parses it keeps no positions,
//! and every manifest finding must point at the key or value it is about. The grammar is RFC 8259
//! exactly — no comments, no trailing commas — because Claude Code reads manifests with
//! `JSON.parse` and rejects both; a leading byte-order mark is skipped, as Claude Code strips it
//! before parsing. Duplicate keys are kept in order; [`Node::get`] answers with the last one,
//! the member `JSON.parse` keeps.

use crate::text::TextRange;

/// A JSON value and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Member>),
}

/// One `"key": value` pair of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_range: TextRange,
    pub value: Node,
}

/// Why the text is not JSON, and the byte where reading stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub at: usize,
}

impl Node {
    /// The member `key` of an object (the last one when the key repeats, as `JSON.parse` keeps).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.members()?
            .iter()
            .rev()
            .find(|member| member.key == key)
    }

    #[must_use]
    pub fn members(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    #[must_use]
    pub fn items(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The JSON type's name as a validator says it ("string", "array", ...).
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Objects unique keys in the order `JSON.parse` enumerates them: first appearance, last value.
    pub fn unique_members(&self) -> impl Iterator<Item = &Member> {
        let members = self.members().unwrap_or_default();
        members.iter().enumerate().filter_map(move |(at, member)| {
            let first = members.iter().position(|other| other.key == member.key) == Some(at);
            first.then(|| self.get(&member.key)).flatten()
        })
    }
}

/// Nesting deeper than this is refused rather than risking the stack on hostile input.
const MAX_DEPTH: usize = 128;

/// Reads `text` as one JSON document.
///
/// # Errors
/// A [`SyntaxError`] at the first byte that breaks the grammar.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let start = crate::text::bom_len(text);
    let mut reader = Reader {
        bytes: text.as_bytes(),
        text,
        at: start,
    };
    reader.skip_space();
    let node = reader.value(0)?;
    reader.skip_space();
    if reader.at < reader.bytes.len() {
        return Err(reader.error("unexpected text after the JSON value"));
    }
    Ok(node)
}

struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> SyntaxError {
        SyntaxError {
            message: message.to_owned(),
            at: crate::text::floor_char_boundary(self.text, self.at.min(self.bytes.len())),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.error("the JSON is nested too deeply"));
        }
        let start = self.at;
        let value = match self.peek() {
            None => return Err(self.error("the JSON ends where a value should be")),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.error("unexpected character where a value should be")),
        };
        Ok(Node {
            value,
            range: TextRange::new(start, self.at),
        })
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, SyntaxError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("unexpected word where a value should be"))
        }
    }

    fn number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("a number needs a digit here")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("a number needs a digit after its decimal point"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("a number needs a digit in its exponent"));
            }
            self.digits();
        }
        Ok(Value::Number(
            self.text[start..self.at].parse().unwrap_or(f64::NAN),
        ))
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("the string is not closed"));
            };
            match byte {
                b'"' => {
                    self.at += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                0..=0x1F => {
                    return Err(self.error("a control character must be escaped in a string"));
                }
                _ => {
                    // Copy the run up to the next quote, backslash or control character at once.
                    let run = self.bytes[self.at..]
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                        .map_or(self.bytes.len(), |length| self.at + length);
                    out.push_str(&self.text[self.at..run]);
                    self.at = run;
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), SyntaxError> {
        let Some(byte) = self.peek() else {
            return Err(self.error("the string is not closed"));
        };
        self.at += 1;
        let plain = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&unit)
                    && self.bytes[self.at..].starts_with(b"\\u")
                {
                    let back = self.at;
                    self.at += 2;
                    let low = self.hex4()?;
                    if (0xDC00..0xE000).contains(&low) {
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        self.at = back;
                        unit
                    }
                } else {
                    unit
                };
                // A lone surrogate is valid JSON; JavaScript keeps it, Rust cannot, so it reads
                // as U+FFFD, which no check here tells apart.
                char::from_u32(code).unwrap_or('\u{fffd}')
            }
            _ => {
                self.at -= 1;
                return Err(self.error("unknown escape in a string"));
            }
        };
        out.push(plain);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let digits = self.bytes.get(self.at..self.at + 4);
        let value = digits
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .filter(|digits| digits.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|digits| u32::from_str_radix(digits, 16).ok());
        match value {
            Some(value) => {
                self.at += 4;
                Ok(value)
            }
            None => Err(self.error("\\u needs four hexadecimal digits")),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_space();
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']' after an array item")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("a key must be a string in double quotes"));
            }
            let key_start = self.at;
            let key = self.string()?;
            let key_range = TextRange::new(key_start, self.at);
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':' after a key"));
            }
            self.at += 1;
            self.skip_space();
            let value = self.value(depth + 1)?;
            members.push(Member {
                key,
                key_range,
                value,
            });
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}' after a value")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_keep_their_bytes() {
        let text = r#"{ "name": "a-b", "list": [1, true, null], "o": {"k": "\u00e9"} }"#;
        let node = parse(text).unwrap();
        let name = node.get("name").unwrap();
        assert_eq!(&text[name.key_range.as_range()], r#""name""#);
        assert_eq!(&text[name.value.range.as_range()], r#""a-b""#);
        let list = node.get("list").unwrap();
        assert_eq!(&text[list.value.range.as_range()], "[1, true, null]");
        assert_eq!(list.value.items().unwrap().len(), 3);
        let inner = node.get("o").unwrap().value.get("k").unwrap();
        assert_eq!(inner.value.as_str(), Some("é"));
    }

    #[test]
    fn what_json_parse_refuses_is_refused_where_it_breaks() {
        for (text, at) in [
            (r#"{"a":1,}"#, 7),
            ("{\"a\":1 // c\n}", 7),
            ("", 0),
            ("{'a':1}", 1),
            ("[1 2]", 3),
            ("01", 1),
            ("{\"a\":\"x\ny\"}", 7),
            ("{} x", 3),
        ] {
            let error = parse(text).unwrap_err();
            assert_eq!(error.at, at, "{text:?}: {error:?}");
        }
    }

    #[test]
    fn a_bom_is_skipped_and_the_last_duplicate_key_wins() {
        let node = parse("\u{feff}{\"n\":\"a\",\"n\":\"b\"}").unwrap();
        assert_eq!(node.get("n").unwrap().value.as_str(), Some("b"));
        assert_eq!(node.unique_members().count(), 1);
    }

    #[test]
    fn hostile_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(parse(&text).is_err());
        let surrogate = parse(r#""\ud83d\ude00 \ud800""#).unwrap();
        assert_eq!(surrogate.as_str(), Some("😀 \u{fffd}"));
    }
}
