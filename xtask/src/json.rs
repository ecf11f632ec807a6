//! Just enough JSON for the package manifests, kept in the standard library like the rest of
//! xtask: objects keep their keys in file order, because `npm pack` publishes the package.json
//! we write and it should read as the one in the repository does.

use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// As written: the manifests hold no number that needs arithmetic, and written back
    /// unchanged it stays what the repository says.
    Number(String),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` (the last one, as JSON.parse and Python's json take it).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members
                .iter()
                .rev()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// Replaces the member `key` where it is, or adds it at the end (JavaScript's
    /// `Object.assign` order).
    pub fn set(&mut self, key: &str, value: Value) {
        if let Value::Object(members) = self {
            match members.iter_mut().rev().find(|(name, _)| name == key) {
                Some((_, old)) => *old = value,
                None => members.push((key.to_owned(), value)),
            }
        }
    }

    /// The text as `JSON.stringify(value, null, 2)` writes it, which is how npm and the
    /// repository's manifests are laid out.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let indent = |out: &mut String, depth: usize| out.push_str(&"  ".repeat(depth));
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Value::Number(text) => out.push_str(text),
            Value::String(text) => quote(out, text),
            Value::Array(items) if items.is_empty() => out.push_str("[]"),
            Value::Object(members) if members.is_empty() => out.push_str("{}"),
            Value::Array(items) => {
                out.push_str("[\n");
                for (at, item) in items.iter().enumerate() {
                    if at > 0 {
                        out.push_str(",\n");
                    }
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push(']');
            }
            Value::Object(members) => {
                out.push_str("{\n");
                for (at, (name, value)) in members.iter().enumerate() {
                    if at > 0 {
                        out.push_str(",\n");
                    }
                    indent(out, depth + 1);
                    quote(out, name);
                    out.push_str(": ");
                    value.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

/// A string escaped as JSON.stringify escapes it: only what JSON requires, the rest as is.
fn quote(out: &mut String, text: &str) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ch if ch < ' ' => {
                let _ = write!(out, "\\u{:04x}", ch as u32);
            }
            ch => out.push(ch),
        }
    }
    out.push('"');
}

pub fn parse(text: &str) -> Result<Value, String> {
    let mut parser = Parser {
        text: text.as_bytes(),
        at: 0,
    };
    let value = parser.value()?;
    parser.space();
    if parser.at < parser.text.len() {
        return Err(parser.error("unexpected text after the value"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.text[..self.at.min(self.text.len())]
            .iter()
            .filter(|&&byte| byte == b'\n')
            .count()
            + 1;
        format!("{what} at line {line}")
    }

    fn space(&mut self) {
        while self
            .text
            .get(self.at)
            .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.space();
        if self.text.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", byte as char)))
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.space();
        match self.text.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                if self.eat(b'}') {
                    return Ok(Value::Object(members));
                }
                loop {
                    self.space();
                    let name = self.string()?;
                    self.expect(b':')?;
                    members.push((name, self.value()?));
                    if self.eat(b'}') {
                        return Ok(Value::Object(members));
                    }
                    self.expect(b',')?;
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    if self.eat(b']') {
                        return Ok(Value::Array(items));
                    }
                    self.expect(b',')?;
                }
            }
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.at;
                while self.text.get(self.at).is_some_and(|byte| {
                    matches!(byte, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                }) {
                    self.at += 1;
                }
                let number = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
                Ok(Value::Number(number.to_owned()))
            }
            _ => {
                for (word, value) in [
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("null", Value::Null),
                ] {
                    if self.text[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(value);
                    }
                }
                Err(self.error("expected a value"))
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.text.get(self.at) != Some(&b'"') {
            return Err(self.error("expected a string"));
        }
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(&byte) = self.text.get(self.at) else {
                return Err(self.error("unterminated string"));
            };
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let Some(&escaped) = self.text.get(self.at) else {
                        return Err(self.error("unterminated string"));
                    };
                    self.at += 1;
                    let ch = match escaped {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(self.error("unknown escape")),
                    };
                    bytes.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                }
                byte => bytes.push(byte),
            }
        }
        String::from_utf8(bytes).map_err(|_| self.error("a string that is not UTF-8"))
    }

    /// The character after `\u`, joining a surrogate pair into one.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) && self.text[self.at..].starts_with(b"\\u") {
            self.at += 2;
            let second = self.hex4()?;
            let joined = 0x10000 + ((first - 0xD800) << 10) + (second.wrapping_sub(0xDC00) & 0x3FF);
            return char::from_u32(joined).ok_or_else(|| self.error("a bad surrogate pair"));
        }
        char::from_u32(first).ok_or_else(|| self.error("a lone surrogate"))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .and_then(|digits| u32::from_str_radix(digits, 16).ok())
            .ok_or_else(|| self.error("a bad \\u escape"))?;
        self.at += 4;
        Ok(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_comes_back_as_json_stringify_writes_it() {
        let text = "{\n  \"name\": \"a\\\"b\\u00e9\",\n  \"os\": [],\n  \"files\": [\n    \"bin/\"\n  ],\n  \"n\": 1.5,\n  \"ok\": true,\n  \"none\": null,\n  \"deps\": {}\n}";
        let value = parse(text).unwrap();
        assert_eq!(
            value.get("name").and_then(Value::as_str),
            Some("a\"b\u{e9}")
        );
        assert_eq!(value.pretty(), text.replace("\\u00e9", "\u{e9}"));
    }

    #[test]
    fn set_keeps_the_place_of_a_member_and_appends_a_new_one() {
        let mut value = parse(r#"{"a": 1, "b": 2}"#).unwrap();
        value.set("a", Value::String("x".into()));
        value.set("c", Value::Null);
        assert_eq!(
            value.pretty(),
            "{\n  \"a\": \"x\",\n  \"b\": 2,\n  \"c\": null\n}"
        );
    }

    #[test]
    fn broken_json_is_an_error_naming_the_line() {
        assert_eq!(
            parse("{\n  \"a\": }").unwrap_err(),
            "expected a value at line 2"
        );
        assert!(parse(r#"{"a": 1} x"#).is_err());
        assert_eq!(
            parse(r#""\ud83d\ude00""#).unwrap(),
            Value::String("\u{1F600}".into())
        );
    }
}
