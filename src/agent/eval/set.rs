//! Trigger eval sets: `<skill>/evals/triggers.json`, a JSON array of
//! `{"query": string, "should_trigger": bool}` objects, the shape Anthropic's skill-creator uses.
//!
//! The rules (`docs/schemas/triggers.schema.json` says the same):
//! - the file is one JSON array with at least one element;
//! - each element is an object with a non-blank string `query` and a boolean `should_trigger`;
//! - other keys are tolerated and ignored (skill-creator's own sets carry notes and ids);
//! - the same query may not appear twice (it would count twice, or contradict itself).
//!
//! Every error names the file, line and column where the parser stopped.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// Where a skill keeps its trigger evals, relative to its folder.
pub(crate) const TRIGGERS_FILE: &str = "evals/triggers.json";

/// The eval set next to a SKILL.md.
#[must_use]
pub(crate) fn triggers_path(skill_file: &std::path::Path) -> std::path::PathBuf {
    skill_file
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .join(TRIGGERS_FILE)
}

/// One query and whether it should make the model load the skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct EvalCase {
    pub query: String,
    pub should_trigger: bool,
}

/// The queries of one file, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalSet {
    pub path: PathBuf,
    pub cases: Vec<EvalCase>,
}

/// Why an eval set could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SetError {
    /// The file could not be read.
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    /// The text breaks a rule; `line` and `column` count from 1.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

/// Reads and parses the eval set at `path`.
///
/// # Errors
/// [`SetError::Io`] when it cannot be read, [`SetError::Invalid`] when it breaks a rule.
pub(crate) fn load(path: &Path) -> Result<EvalSet, SetError> {
    let text = std::fs::read_to_string(path).map_err(|error| SetError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    })?;
    parse(path, &text)
}

/// Parses the text of an eval set; `path` is only named in errors.
///
/// # Errors
/// [`SetError::Invalid`] with the line and column of the first broken rule.
pub(crate) fn parse(path: &Path, text: &str) -> Result<EvalSet, SetError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match serde_json::from_str::<Cases>(text) {
        Ok(Cases(cases)) => Ok(EvalSet {
            path: path.to_path_buf(),
            cases,
        }),
        Err(error) => {
            let message = error.to_string();
            // serde_json appends " at line L column C"; the position goes in front instead.
            let message = match message.rfind(" at line ") {
                Some(at) => message[..at].to_owned(),
                None => message,
            };
            Err(SetError::Invalid {
                path: path.to_path_buf(),
                line: error.line().max(1),
                column: error.column().max(1),
                message,
            })
        }
    }
}

/// The whole file: checked while it is read, so that every error has serde_json's position.
struct Cases(Vec<EvalCase>);

impl<'de> Deserialize<'de> for Cases {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CasesVisitor)
    }
}

struct CasesVisitor;

const EXPECTED_FILE: &str = "a JSON array of {\"query\": string, \"should_trigger\": bool} objects";

impl<'de> Visitor<'de> for CasesVisitor {
    type Value = Cases;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(EXPECTED_FILE)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cases, A::Error> {
        let mut cases = Vec::new();
        let mut seen = HashSet::new();
        while let Some(case) = seq.next_element::<CaseSeed>()? {
            let case = case.0;
            if !seen.insert(case.query.clone()) {
                return Err(de::Error::custom(format!(
                    "query {} appears twice (element {}); each query may appear once",
                    serde_json::Value::String(case.query),
                    cases.len() + 1
                )));
            }
            cases.push(case);
        }
        if cases.is_empty() {
            return Err(de::Error::custom(
                "the eval set is empty; add at least one {\"query\", \"should_trigger\"} object",
            ));
        }
        Ok(Cases(cases))
    }

    fn visit_map<A: MapAccess<'de>>(self, _map: A) -> Result<Cases, A::Error> {
        Err(de::Error::custom(format!(
            "expected {EXPECTED_FILE}, found an object"
        )))
    }
}

/// One element, with its rules.
struct CaseSeed(EvalCase);

impl<'de> Deserialize<'de> for CaseSeed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CaseVisitor)
    }
}

struct CaseVisitor;

impl<'de> Visitor<'de> for CaseVisitor {
    type Value = CaseSeed;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object {\"query\": string, \"should_trigger\": bool}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CaseSeed, A::Error> {
        let mut query: Option<String> = None;
        let mut should_trigger: Option<bool> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "query" => {
                    if query.is_some() {
                        return Err(de::Error::duplicate_field("query"));
                    }
                    let value: String = map.next_value()?;
                    if value.trim().is_empty() {
                        return Err(de::Error::custom("`query` is empty"));
                    }
                    query = Some(value);
                }
                "should_trigger" => {
                    if should_trigger.is_some() {
                        return Err(de::Error::duplicate_field("should_trigger"));
                    }
                    should_trigger = Some(map.next_value()?);
                }
                // Other keys (notes, ids) are tolerated.
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        let query = query.ok_or_else(|| de::Error::missing_field("query"))?;
        let should_trigger =
            should_trigger.ok_or_else(|| de::Error::missing_field("should_trigger"))?;
        Ok(CaseSeed(EvalCase {
            query,
            should_trigger,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (usize, usize, String) {
        match parse(Path::new("s/evals/triggers.json"), text) {
            Err(SetError::Invalid {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("expected an error, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_set_keeps_its_order_and_ignores_other_keys() {
        let set = parse(
            Path::new("t.json"),
            "\u{feff}[\n  {\"query\": \"fill this form\", \"should_trigger\": true, \"note\": \"x\"},\n  {\"should_trigger\": false, \"query\": \"hello\"}\n]\n",
        )
        .unwrap();
        assert_eq!(
            set.cases,
            [
                EvalCase {
                    query: "fill this form".into(),
                    should_trigger: true
                },
                EvalCase {
                    query: "hello".into(),
                    should_trigger: false
                }
            ]
        );
    }

    #[test]
    fn errors_name_the_line_and_column() {
        assert_eq!(
            error("[\n  {\"should_trigger\": true}\n]"),
            (2, 26, "missing field `query`".into())
        );
        let (line, column, message) =
            error("[\n  {\"query\": \"a\", \"should_trigger\": \"yes\"}\n]");
        assert_eq!((line, column), (2, 40));
        assert!(message.contains("expected a boolean"), "{message}");
        let (line, _, message) = error("[\n {\"query\": 3, \"should_trigger\": true}]");
        assert_eq!(line, 2);
        assert!(message.contains("invalid type: integer"), "{message}");
        let (line, _, message) = error("[{\"query\": \"a\", \"should_trigger\": true},\n]");
        assert_eq!(line, 2);
        assert!(message.contains("trailing comma"), "{message}");
        assert!(error("[]").2.contains("empty"));
        assert!(
            error("[\n{\"query\": \"  \", \"should_trigger\": true}]")
                .2
                .contains("`query` is empty")
        );
        assert!(error("{\"query\": \"a\"}").2.contains("found an object"));
        assert!(error("\"text\"").2.contains("expected a JSON array"));
        let (line, _, message) = error(
            "[{\"query\": \"a\", \"should_trigger\": true},\n {\"query\": \"a\", \"should_trigger\": false}]",
        );
        assert_eq!(line, 2);
        assert!(message.contains("appears twice"), "{message}");
        assert!(
            error("[{\"query\": \"a\", \"query\": \"b\", \"should_trigger\": true}]")
                .2
                .contains("duplicate field `query`")
        );
        let (line, column, _) = error("");
        assert_eq!((line, column), (1, 1));
    }

    /// The subset of JSON Schema that `docs/schemas/triggers.schema.json` uses, enough to check
    /// that the schema and the parser agree.
    fn schema_accepts(schema: &serde_json::Value, value: &serde_json::Value) -> bool {
        use serde_json::Value;
        let type_ok = match schema.get("type").and_then(Value::as_str) {
            Some("array") => value.is_array(),
            Some("object") => value.is_object(),
            Some("string") => value.is_string(),
            Some("boolean") => value.is_boolean(),
            Some(other) => panic!("the test does not know type {other}"),
            None => true,
        };
        if !type_ok {
            return false;
        }
        if let (Some(min), Some(items)) = (
            schema.get("minItems").and_then(Value::as_u64),
            value.as_array(),
        ) {
            if (items.len() as u64) < min {
                return false;
            }
        }
        if let (Some(item_schema), Some(items)) = (schema.get("items"), value.as_array()) {
            if !items.iter().all(|item| schema_accepts(item_schema, item)) {
                return false;
            }
        }
        if let Some(object) = value.as_object() {
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            if !required
                .iter()
                .all(|key| object.contains_key(key.as_str().unwrap()))
            {
                return false;
            }
            for (key, member) in object {
                match schema["properties"].get(key) {
                    Some(property) => {
                        if !schema_accepts(property, member) {
                            return false;
                        }
                    }
                    None => {
                        if schema["additionalProperties"] == false {
                            return false;
                        }
                    }
                }
            }
        }
        if let Some(text) = value.as_str() {
            if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
                if (text.chars().count() as u64) < min {
                    return false;
                }
            }
            if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
                assert_eq!(pattern, "\\S", "the test knows only this pattern");
                if text.trim().is_empty() {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn the_schema_and_the_parser_agree_and_the_bundled_sets_are_valid() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let schema: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("docs/schemas/triggers.schema.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            schema["items"]["required"],
            serde_json::json!(["query", "should_trigger"])
        );
        let mut bundled = 0;
        for entry in std::fs::read_dir(root.join("skills")).unwrap() {
            let path = entry.unwrap().path().join(TRIGGERS_FILE);
            if !path.is_file() {
                continue;
            }
            bundled += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let set = parse(&path, &text).unwrap_or_else(|error| panic!("{error}"));
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(schema_accepts(&schema, &value), "{}", path.display());
            let polarities: HashSet<bool> = set.cases.iter().map(|it| it.should_trigger).collect();
            assert_eq!(polarities.len(), 2, "{}: both polarities", path.display());
        }
        assert!(bundled >= 1, "skills/pdf/evals/triggers.json is bundled");
        for (text, valid) in [
            (r#"[{"query": "a", "should_trigger": true}]"#, true),
            (
                r#"[{"query": "a", "should_trigger": false, "note": "x", "id": 3}]"#,
                true,
            ),
            (r#"[]"#, false),
            (r#"{"query": "a", "should_trigger": true}"#, false),
            (r#"[{"should_trigger": true}]"#, false),
            (r#"[{"query": "a"}]"#, false),
            (r#"[{"query": "", "should_trigger": true}]"#, false),
            (r#"[{"query": " \t", "should_trigger": true}]"#, false),
            (r#"[{"query": 1, "should_trigger": true}]"#, false),
            (r#"[{"query": "a", "should_trigger": "true"}]"#, false),
            (r#"[{"query": "a", "should_trigger": 1}]"#, false),
            (r#"["a"]"#, false),
            (r#"[null]"#, false),
        ] {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(schema_accepts(&schema, &value), valid, "schema: {text}");
            assert_eq!(
                parse(Path::new("t.json"), text).is_ok(),
                valid,
                "parser: {text}"
            );
        }
    }

    #[test]
    fn the_error_text_is_path_line_column() {
        let error = parse(Path::new("x/triggers.json"), "[\n  {}\n]").unwrap_err();
        assert_eq!(
            error.to_string(),
            "x/triggers.json:2:4: missing field `query`"
        );
    }
}
