//! Trigger eval sets: a JSON array of `{"query": string, "should_trigger": bool}` objects, the
//! shape Anthropic's skill-creator and the Agent Skills specification's guide both use, kept in a
//! skill's folder under one of the names of [`SET_FILES`].
//!
//! The rules (`docs/schemas/triggers.schema.json` says the same):
//! - the file is one JSON array with at least one element, or an object whose `queries` member is
//!   that array (some sets wrap it so, beside a `skill_name`; the object's other keys are ignored);
//! - each element is an object with a non-blank string `query` and a boolean `should_trigger`;
//! - other keys are tolerated and ignored (sets in the wild carry notes, ids, a train/validation
//!   `split`);
//! - the same query may not appear twice (it would count twice, or contradict itself).
//!
//! Every error names the file, line and column where the parser stopped.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// The names a skill's trigger eval set goes by, relative to its folder, in the order they are
/// looked for: the first that exists is the set every front end measures (`skill-lsp eval`,
/// `skill/runEvals`, the code lens, the stored result's key). Why this order (docs/design.md §6,
/// "Eval set files"):
/// 1. skill-lsp's own name, so that a set written for skill-lsp is always the one measured;
/// 2. the Agent Skills specification guide's `eval_queries.json` under `evals/`, then in the
///    `evals/trigger/` folder some keep apart from the output evals: a name written for skills
///    in general;
/// 3. skill-creator's names under `evals/`: the path its `--eval-set` examples use, then the
///    name its review page exports (`eval_set.json`), a download people move into the skill;
/// 4. the same exports left at the top of the skill folder, last, because a file named only
///    `eval_set.json` beside a SKILL.md is the least certain to be meant as this skill's set.
pub(crate) const SET_FILES: &[&str] = &[
    "evals/triggers.json",
    "evals/eval_queries.json",
    "evals/trigger/eval_queries.json",
    "evals/trigger-eval.json",
    "evals/eval_set.json",
    "eval_set.json",
    "eval_queries.json",
];

/// The trigger set of a skill as found on disk (or in an editor's buffers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundSet {
    /// The skill's folder.
    pub dir: PathBuf,
    /// The set measured: the first of [`SET_FILES`] that exists.
    pub path: PathBuf,
    /// The other names of [`SET_FILES`] that exist too, in order: not read.
    pub ignored: Vec<PathBuf>,
}

impl FoundSet {
    /// `path` as the messages name it: relative to the skill's folder.
    fn short(&self, path: &Path) -> String {
        path.strip_prefix(&self.dir)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// When more than one set exists, which one is measured and which are not, in one line:
    /// `skill 'pdf': measuring evals/triggers.json; eval_set.json is not read (…)`.
    #[must_use]
    pub(crate) fn shadow_warning(&self, skill: &str) -> Option<String> {
        if self.ignored.is_empty() {
            return None;
        }
        let ignored: Vec<String> = self.ignored.iter().map(|path| self.short(path)).collect();
        Some(format!(
            "skill '{skill}': measuring {}; {} {} not read (the first of {} that exists is the eval set)",
            self.short(&self.path),
            ignored.join(", "),
            if ignored.len() == 1 { "is" } else { "are" },
            searched()
        ))
    }
}

/// The trigger set of the skill whose SKILL.md is `skill_file`: the first of [`SET_FILES`] in
/// its folder for which `exists` holds, with the others that exist. `exists` is the front end's
/// view of the files (an editor's open buffers count).
#[must_use]
pub(crate) fn find_set(skill_file: &Path, exists: &dyn Fn(&Path) -> bool) -> Option<FoundSet> {
    let dir = skill_file.parent().unwrap_or(Path::new(""));
    let mut found = SET_FILES
        .iter()
        .map(|name| dir.join(name))
        .filter(|path| exists(path));
    let path = found.next()?;
    Some(FoundSet {
        dir: dir.to_path_buf(),
        path,
        ignored: found.collect(),
    })
}

/// The names searched, for a message that says a skill has none: `evals/triggers.json, …`.
#[must_use]
pub(crate) fn searched() -> String {
    SET_FILES.join(", ")
}

/// Why the skill in `dir` has nothing to measure: the files looked for, and, when it has output
/// evals (`evals/evals.json`), that those are not run yet.
#[must_use]
pub(crate) fn no_set_message(dir: &Path, skill: &str, exists: &dyn Fn(&Path) -> bool) -> String {
    let mut message = format!(
        "{}: skill '{skill}' has no eval set (trigger evals: looked for {})",
        dir.display(),
        searched()
    );
    if exists(&dir.join(OUTPUT_EVALS_FILE)) {
        message.push_str(&format!(
            "; its {OUTPUT_EVALS_FILE} holds output evals (prompts and expected outputs), which skill-lsp does not run yet"
        ));
    }
    message
}

/// Whether `dir` holds a SKILL.md (the loader's spelling, or an all-lower-case one).
fn has_skill_file(dir: &Path, exists: &dyn Fn(&Path) -> bool) -> bool {
    ["SKILL.md", "skill.md", "Skill.md"]
        .iter()
        .any(|name| exists(&dir.join(name)))
}

/// The skill folder that `path` is a trigger set of by its name (one of [`SET_FILES`] under a
/// folder that holds a SKILL.md), with the name's place in [`SET_FILES`]. Any other JSON file
/// (a RAG project's `eval_set.json`, an `evals/` folder that is no skill's) is not a set.
#[must_use]
pub(crate) fn set_skill_dir(
    path: &Path,
    exists: &dyn Fn(&Path) -> bool,
) -> Option<(PathBuf, usize)> {
    SET_FILES.iter().enumerate().find_map(|(at, name)| {
        let name = Path::new(name);
        if !path.ends_with(name) {
            return None;
        }
        let dir = path.ancestors().nth(name.components().count())?;
        has_skill_file(dir, exists).then(|| (dir.to_path_buf(), at))
    })
}

/// Where a skill keeps its output evals (prompts and expected outputs, not run yet), relative to
/// its folder.
pub(crate) const OUTPUT_EVALS_FILE: &str = "evals/evals.json";

/// The skill folder that `path` is the output evals of: `<skill>/evals/evals.json` beside a
/// SKILL.md.
#[must_use]
pub(crate) fn output_evals_skill_dir(
    path: &Path,
    exists: &dyn Fn(&Path) -> bool,
) -> Option<PathBuf> {
    if !path.ends_with(OUTPUT_EVALS_FILE) {
        return None;
    }
    let dir = path.parent()?.parent()?;
    has_skill_file(dir, exists).then(|| dir.to_path_buf())
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
    let text = crate::workspace::read::read_text(path).map_err(|error| SetError::Io {
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

const EXPECTED_FILE: &str = "a JSON array of {\"query\": string, \"should_trigger\": bool} objects (or an object whose \"queries\" is one)";

impl<'de> Visitor<'de> for CasesVisitor {
    type Value = Cases;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(EXPECTED_FILE)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Cases, A::Error> {
        read_cases(seq).map(Cases)
    }

    /// `{"skill_name": …, "queries": [...]}`: the array is the `queries` member.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cases, A::Error> {
        let mut cases = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "queries" {
                if cases.is_some() {
                    return Err(de::Error::duplicate_field("queries"));
                }
                cases = Some(map.next_value::<CaseList>()?.0);
            } else if key == "query" || key == "should_trigger" {
                // One case on its own: said at once, where it starts, not at the file's end.
                return Err(de::Error::custom(format!(
                    "expected {EXPECTED_FILE}, found an object"
                )));
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
        cases.map(Cases).ok_or_else(|| {
            de::Error::custom(format!(
                "expected {EXPECTED_FILE}, found an object without \"queries\""
            ))
        })
    }
}

/// The cases of the array, checked: each unique, at least one.
fn read_cases<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<EvalCase>, A::Error> {
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
    Ok(cases)
}

/// The `queries` member of a wrapped set: an array only.
struct CaseList(Vec<EvalCase>);

impl<'de> Deserialize<'de> for CaseList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(CaseListVisitor)
    }
}

struct CaseListVisitor;

impl<'de> Visitor<'de> for CaseListVisitor {
    type Value = CaseList;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON array of {\"query\": string, \"should_trigger\": bool} objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<CaseList, A::Error> {
        read_cases(seq).map(CaseList)
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
pub(crate) mod tests {
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

    /// The subset of JSON Schema that `docs/schemas/triggers.schema.json` and
    /// `evals.schema.json` use, enough to check that a schema and its parser agree. `root` is the
    /// schema file, for `$ref`s into its `$defs`.
    pub(crate) fn schema_accepts(
        root: &serde_json::Value,
        schema: &serde_json::Value,
        value: &serde_json::Value,
    ) -> bool {
        use serde_json::Value;
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference
                .strip_prefix("#/$defs/")
                .unwrap_or_else(|| panic!("the test knows only #/$defs/ refs, not {reference}"));
            return schema_accepts(root, &root["$defs"][name], value);
        }
        if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
            let matching = options
                .iter()
                .filter(|option| schema_accepts(root, option, value))
                .count();
            if matching != 1 {
                return false;
            }
        }
        let type_is = |name: &str| match name {
            "array" => value.is_array(),
            "object" => value.is_object(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_i64() || value.is_u64(),
            other => panic!("the test does not know type {other}"),
        };
        let type_ok = match schema.get("type") {
            Some(Value::String(name)) => type_is(name),
            Some(Value::Array(names)) => names.iter().any(|name| type_is(name.as_str().unwrap())),
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
            if !items
                .iter()
                .all(|item| schema_accepts(root, item_schema, item))
            {
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
                match schema.get("properties").and_then(|it| it.get(key)) {
                    Some(property) => {
                        if !schema_accepts(root, property, member) {
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
            schema["$defs"]["cases"]["items"]["required"],
            serde_json::json!(["query", "should_trigger"])
        );
        // The schema names every file looked for, in order.
        let description = schema["description"].as_str().unwrap();
        assert!(description.contains(&SET_FILES.join(", ")), "{description}");
        let accepts = |value: &serde_json::Value| schema_accepts(&schema, &schema, value);
        let mut bundled = 0;
        for entry in std::fs::read_dir(root.join("skills")).unwrap() {
            let skill = entry.unwrap().path().join("SKILL.md");
            let Some(found) = find_set(&skill, &|path| path.is_file()) else {
                continue;
            };
            bundled += 1;
            let path = found.path;
            let text = std::fs::read_to_string(&path).unwrap();
            let set = parse(&path, &text).unwrap_or_else(|error| panic!("{error}"));
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(accepts(&value), "{}", path.display());
            let polarities: HashSet<bool> = set.cases.iter().map(|it| it.should_trigger).collect();
            assert_eq!(polarities.len(), 2, "{}: both polarities", path.display());
        }
        assert!(bundled >= 1, "skills/pdf/evals/triggers.json is bundled");
        for (text, valid) in [
            (r#"[{"query": "a", "should_trigger": true}]"#, true),
            (
                r#"[{"query": "a", "should_trigger": false, "note": "x", "id": 3, "split": "train"}]"#,
                true,
            ),
            (
                r#"{"skill_name": "s", "note": "n", "queries": [{"query": "a", "should_trigger": true}]}"#,
                true,
            ),
            (r#"{"queries": []}"#, false),
            (
                r#"{"queries": {"query": "a", "should_trigger": true}}"#,
                false,
            ),
            (r#"{"skill_name": "s"}"#, false),
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
            assert_eq!(accepts(&value), valid, "schema: {text}");
            assert_eq!(
                parse(Path::new("t.json"), text).is_ok(),
                valid,
                "parser: {text}"
            );
        }
    }

    #[test]
    fn a_wrapped_set_is_its_queries_and_its_errors_keep_their_positions() {
        let set = parse(
            Path::new("evals/eval_queries.json"),
            "{\"skill_name\": \"t\", \"queries\": [{\"query\": \"a\", \"should_trigger\": true}]}",
        )
        .unwrap();
        assert_eq!(set.cases.len(), 1);
        let (line, column, message) =
            error("{\"queries\": [\n  {\"query\": \"a\", \"should_trigger\": \"yes\"}]}");
        assert_eq!((line, column), (2, 40));
        assert!(message.contains("expected a boolean"), "{message}");
        assert!(
            error("{\"skill_name\": \"t\"}")
                .2
                .contains("found an object without \"queries\"")
        );
    }

    /// A skill folder with these files, and `exists` over it.
    fn skill_with(files: &[&str]) -> (PathBuf, impl Fn(&Path) -> bool + use<>) {
        let dir = PathBuf::from("/w/skills/pdf");
        let present: Vec<PathBuf> = files.iter().map(|file| dir.join(file)).collect();
        (dir, move |path: &Path| present.iter().any(|it| it == path))
    }

    #[test]
    fn the_first_name_in_the_order_is_measured_and_the_others_are_named() {
        let (dir, exists) = skill_with(&[
            "SKILL.md",
            "eval_set.json",
            "evals/eval_set.json",
            "evals/eval_queries.json",
        ]);
        let found = find_set(&dir.join("SKILL.md"), &exists).unwrap();
        assert_eq!(found.path, dir.join("evals/eval_queries.json"));
        assert_eq!(
            found.ignored,
            [dir.join("evals/eval_set.json"), dir.join("eval_set.json")]
        );
        assert_eq!(
            found.shadow_warning("pdf").unwrap(),
            format!(
                "skill 'pdf': measuring evals/eval_queries.json; evals/eval_set.json, eval_set.json are not read (the first of {} that exists is the eval set)",
                SET_FILES.join(", ")
            )
        );
        // Each name alone is found, and ours wins over every other.
        for name in SET_FILES {
            let (dir, exists) = skill_with(&[name]);
            let found = find_set(&dir.join("SKILL.md"), &exists).unwrap();
            assert_eq!((found.path, found.ignored.len()), (dir.join(name), 0));
            let (dir, exists) = skill_with(&[name, "evals/triggers.json"]);
            let found = find_set(&dir.join("SKILL.md"), &exists).unwrap();
            assert_eq!(found.path, dir.join("evals/triggers.json"));
            assert_eq!(
                found.shadow_warning("pdf").is_some(),
                *name != "evals/triggers.json"
            );
        }
        let (dir, exists) = skill_with(&["SKILL.md", "evals/evals.json"]);
        assert_eq!(find_set(&dir.join("SKILL.md"), &exists), None);
    }

    #[test]
    fn a_set_file_belongs_to_the_skill_folder_its_name_is_relative_to() {
        let (dir, exists) = skill_with(&["SKILL.md"]);
        for (at, name) in SET_FILES.iter().enumerate() {
            assert_eq!(
                set_skill_dir(&dir.join(name), &exists),
                Some((dir.clone(), at)),
                "{name}"
            );
        }
        // Without a SKILL.md beside it, an eval_set.json is some other project's file.
        let (_, nothing) = skill_with(&[]);
        assert_eq!(set_skill_dir(&dir.join("eval_set.json"), &nothing), None);
        assert_eq!(set_skill_dir(&dir.join("evals/notes.json"), &exists), None);
        assert_eq!(
            output_evals_skill_dir(&dir.join("evals/evals.json"), &exists),
            Some(dir.clone())
        );
        assert_eq!(
            output_evals_skill_dir(&dir.join("evals/evals.json"), &nothing),
            None
        );
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
