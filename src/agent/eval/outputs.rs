//! Output evals: `<skill>/evals/evals.json`, the prompts a skill is tried on and what a good
//! answer holds. skill-lsp does not run them yet; it checks the file, for the editor.
//!
//! The shape (`docs/schemas/evals.schema.json` says the same), as the Agent Skills
//! specification's guide and skill-creator write it:
//!
//! ```json
//! {"skill_name": "csv-analyzer",
//!  "evals": [{"id": 1, "prompt": "…", "expected_output": "…", "files": ["evals/files/a.csv"],
//!             "assertions": ["…"]}]}
//! ```
//!
//! - the file is one JSON object; `evals` is a non-empty array of objects;
//! - each eval needs a non-blank string `prompt`; `id` is an integer (the guide's and
//!   skill-creator's) or a string (some runners'), unique in the file; `expected_output` and
//!   `name` are strings; `files` is an array of paths relative to the skill folder;
//!   `assertions` (the guide's name) and `expectations` (skill-creator's) are arrays of non-blank
//!   strings or of objects (runners with typed assertions);
//! - `skill_name`, a string, should be the skill's frontmatter name (a warning otherwise);
//! - other keys are tolerated (runners add their own).
//!
//! Every problem is found, not only the first, each with the byte range of the key or value it
//! is about; no LSP types here.

use std::collections::HashMap;

use crate::plugins::json::{self, Member, Node, Value};
use crate::text::TextRange;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// The file is not what the format says: a runner would refuse it or misread it.
    Error,
    /// Allowed, but probably not meant.
    Warning,
}

/// One problem of the file, at a byte range of its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub range: TextRange,
    pub level: Level,
    pub message: String,
}

/// The keys of the top-level object, with what each is, for completion.
pub(crate) const FILE_KEYS: &[(&str, &str)] = &[
    ("skill_name", "the skill's name, as its frontmatter says it"),
    (
        "evals",
        "the test cases: objects with id, prompt, expected_output, files, assertions",
    ),
];

/// The keys of one eval, with what each is, for completion.
pub(crate) const EVAL_KEYS: &[(&str, &str)] = &[
    ("id", "a unique integer"),
    ("prompt", "a realistic user message (required)"),
    ("expected_output", "what success looks like, in words"),
    ("files", "input files, relative to the skill folder"),
    (
        "assertions",
        "checkable statements about the output (the specification guide's name)",
    ),
    (
        "expectations",
        "checkable statements about the output (skill-creator's name)",
    ),
    ("name", "a short label for reports"),
];

/// Checks the text of an `evals/evals.json`. `skill_name` is the skill's frontmatter name, when
/// known; `file_exists` answers for a path of `files`, relative to the skill folder.
#[must_use]
pub(crate) fn check(
    text: &str,
    skill_name: Option<&str>,
    file_exists: &dyn Fn(&str) -> bool,
) -> Vec<Problem> {
    let mut out = Checker {
        text,
        problems: Vec::new(),
    };
    let root = match json::parse(text) {
        Ok(root) => root,
        Err(error) => {
            let at = error.at.min(text.len());
            let width = text[at..].chars().next().map_or(0, char::len_utf8);
            out.error(
                TextRange::new(at, at + width),
                format!("not JSON: {}", error.message),
            );
            return out.problems;
        }
    };
    let Some(members) = root.members() else {
        out.error(
            first_char(text, &root),
            format!(
                "expected an object {{\"skill_name\": string, \"evals\": [...]}}, found {}",
                a(root.type_name())
            ),
        );
        return out.problems;
    };
    out.duplicate_keys(members);
    if let Some(member) = root.get("skill_name") {
        match (member.value.as_str(), skill_name) {
            (None, _) => out.wrong_type(member, "a string"),
            (Some(found), Some(name)) if found != name => out.problems.push(Problem {
                range: member.value.range,
                level: Level::Warning,
                message: format!(
                    "skill_name is '{found}', but the skill's frontmatter name is '{name}'"
                ),
            }),
            _ => {}
        }
    }
    let Some(evals) = root.get("evals") else {
        out.error(
            first_char(text, &root),
            "missing \"evals\": the list of test cases".to_owned(),
        );
        return out.problems;
    };
    let Some(items) = evals.value.items() else {
        out.wrong_type(evals, "an array of eval objects");
        return out.problems;
    };
    if items.is_empty() {
        out.error(
            evals.value.range,
            "\"evals\" is empty; add at least one {\"prompt\": ...} object".to_owned(),
        );
    }
    let mut ids: HashMap<String, usize> = HashMap::new();
    for (index, item) in items.iter().enumerate() {
        out.eval(item, index + 1, &mut ids, file_exists);
    }
    out.problems
        .sort_by_key(|problem| (problem.range.start, problem.range.end));
    out.problems
}

/// "an object", "a string", "null".
fn a(type_name: &str) -> String {
    match type_name {
        "null" => "null".to_owned(),
        "array" | "object" => format!("an {type_name}"),
        other => format!("a {other}"),
    }
}

/// The first character of a node: where a problem about the whole of it is shown.
fn first_char(text: &str, node: &Node) -> TextRange {
    let start = node.range.start;
    let width = text[start..].chars().next().map_or(0, char::len_utf8);
    TextRange::new(start, start + width)
}

struct Checker<'a> {
    text: &'a str,
    problems: Vec<Problem>,
}

impl Checker<'_> {
    fn error(&mut self, range: TextRange, message: String) {
        self.problems.push(Problem {
            range,
            level: Level::Error,
            message,
        });
    }

    fn wrong_type(&mut self, member: &Member, expected: &str) {
        self.error(
            member.value.range,
            format!(
                "\"{}\" must be {expected}, not {}",
                member.key,
                a(member.value.type_name())
            ),
        );
    }

    /// A key given twice in one object: JSON readers keep the last, so the first is lost.
    fn duplicate_keys(&mut self, members: &[Member]) {
        for (at, member) in members.iter().enumerate() {
            if members[at + 1..]
                .iter()
                .any(|later| later.key == member.key)
            {
                self.problems.push(Problem {
                    range: member.key_range,
                    level: Level::Warning,
                    message: format!(
                        "\"{}\" appears again later in this object; JSON readers keep the last",
                        member.key
                    ),
                });
            }
        }
    }

    fn eval(
        &mut self,
        item: &Node,
        number: usize,
        ids: &mut HashMap<String, usize>,
        file_exists: &dyn Fn(&str) -> bool,
    ) {
        let Some(members) = item.members() else {
            self.error(
                item.range,
                format!(
                    "eval {number} must be an object {{\"id\", \"prompt\", ...}}, not {}",
                    a(item.type_name())
                ),
            );
            return;
        };
        self.duplicate_keys(members);
        match item.get("prompt") {
            None => self.error(
                first_char(self.text, item),
                format!("eval {number} has no \"prompt\"; every eval needs the user message"),
            ),
            Some(member) => match member.value.as_str() {
                None => self.wrong_type(member, "a string"),
                Some(prompt) if prompt.trim().is_empty() => {
                    self.error(member.value.range, "\"prompt\" is empty".to_owned());
                }
                Some(_) => {}
            },
        }
        if let Some(member) = item.get("id") {
            self.id(member, number, ids);
        }
        for key in ["expected_output", "name"] {
            if let Some(member) = item.get(key) {
                if member.value.as_str().is_none() {
                    self.wrong_type(member, "a string");
                }
            }
        }
        if let Some(member) = item.get("files") {
            match member.value.items() {
                None => self.wrong_type(member, "an array of paths"),
                Some(files) => {
                    for file in files {
                        match file.as_str() {
                            None => self.error(
                                file.range,
                                format!(
                                    "each of \"files\" must be a path string, not {}",
                                    a(file.type_name())
                                ),
                            ),
                            Some(path) if !path.trim().is_empty() && !file_exists(path) => {
                                self.problems.push(Problem {
                                    range: file.range,
                                    level: Level::Warning,
                                    message: format!(
                                        "no file {path} in the skill folder (files are relative to it)"
                                    ),
                                });
                            }
                            Some(_) => {}
                        }
                    }
                }
            }
        }
        for key in ["assertions", "expectations"] {
            let Some(member) = item.get(key) else {
                continue;
            };
            let Some(checks) = member.value.items() else {
                self.wrong_type(member, "an array of statements");
                continue;
            };
            for check in checks {
                match &check.value {
                    Value::String(text) if text.trim().is_empty() => {
                        self.error(check.range, format!("an empty statement in \"{key}\""));
                    }
                    Value::String(_) | Value::Object(_) => {}
                    _ => self.error(
                        check.range,
                        format!(
                            "each of \"{key}\" must be a statement (a string) or an object, not {}",
                            a(check.type_name())
                        ),
                    ),
                }
            }
        }
    }

    fn id(&mut self, member: &Member, number: usize, ids: &mut HashMap<String, usize>) {
        let range = member.value.range;
        let key = match &member.value.value {
            Value::Number(_) => {
                let raw = &self.text[range.start..range.end];
                if raw.contains(['.', 'e', 'E']) {
                    self.error(range, format!("\"id\" must be an integer, not {raw}"));
                    return;
                }
                raw.to_owned()
            }
            Value::String(text) if !text.trim().is_empty() => format!("{text:?}"),
            Value::String(_) => {
                self.error(range, "\"id\" is empty".to_owned());
                return;
            }
            _ => {
                self.wrong_type(member, "an integer");
                return;
            }
        };
        if let Some(first) = ids.get(&key) {
            self.error(
                range,
                format!("id {key} is also the id of eval {first}; each eval needs its own"),
            );
        } else {
            ids.insert(key, number);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each problem as `line:column-line:column level: message`, lines and columns from 1.
    fn problems(text: &str, name: Option<&str>) -> Vec<String> {
        let position = |at: usize| {
            let line = text[..at].matches('\n').count() + 1;
            let column = at - text[..at].rfind('\n').map_or(0, |newline| newline + 1) + 1;
            format!("{line}:{column}")
        };
        check(text, name, &|path| path == "evals/files/a.csv")
            .into_iter()
            .map(|problem| {
                format!(
                    "{}-{} {:?}: {}",
                    position(problem.range.start),
                    position(problem.range.end),
                    problem.level,
                    problem.message
                )
            })
            .collect()
    }

    #[test]
    fn the_guides_and_skill_creators_files_are_clean() {
        let guide = r#"{
  "skill_name": "csv-analyzer",
  "evals": [
    {"id": 1, "prompt": "Find the top 3 months", "expected_output": "A chart", "files": ["evals/files/a.csv"],
     "assertions": ["The chart has labels"]},
    {"id": 2, "prompt": "Clean the file", "expected_output": "A cleaned file", "files": []}
  ]
}"#;
        assert_eq!(problems(guide, Some("csv-analyzer")), Vec::<String>::new());
        let creator = r#"{"skill_name": "x", "evals": [{"id": 0, "name": "n", "prompt": "p",
 "expected_output": "e", "files": [], "expectations": ["a", {"type": "contains", "value": "b"}],
 "must_have": ["runner keys are tolerated"]}]}"#;
        assert_eq!(problems(creator, None), Vec::<String>::new());
        // A string id, as some runners write them.
        assert!(problems(r#"{"evals": [{"id": "case-1", "prompt": "p"}]}"#, None).is_empty());
    }

    #[test]
    fn every_problem_is_found_at_its_key_or_value() {
        let text = r#"{
  "skill_name": "csv",
  "evals": [
    {"id": 1, "expected_output": "e"},
    {"id": 1, "prompt": 7, "files": ["evals/files/missing.csv", 3]},
    {"id": 2.5, "prompt": " ", "assertions": "one", "expectations": [""]},
    "just a prompt"
  ]
}"#;
        assert_eq!(
            problems(text, Some("csv-analyzer")),
            [
                "2:17-2:22 Warning: skill_name is 'csv', but the skill's frontmatter name is 'csv-analyzer'",
                "4:5-4:6 Error: eval 1 has no \"prompt\"; every eval needs the user message",
                "5:12-5:13 Error: id 1 is also the id of eval 1; each eval needs its own",
                "5:25-5:26 Error: \"prompt\" must be a string, not a number",
                "5:38-5:63 Warning: no file evals/files/missing.csv in the skill folder (files are relative to it)",
                "5:65-5:66 Error: each of \"files\" must be a path string, not a number",
                "6:12-6:15 Error: \"id\" must be an integer, not 2.5",
                "6:27-6:30 Error: \"prompt\" is empty",
                "6:46-6:51 Error: \"assertions\" must be an array of statements, not a string",
                "6:70-6:72 Error: an empty statement in \"expectations\"",
                "7:5-7:20 Error: eval 4 must be an object {\"id\", \"prompt\", ...}, not a string",
            ]
        );
    }

    #[test]
    fn a_file_of_another_shape_is_one_problem_at_its_start() {
        assert_eq!(
            problems("[{\"name\": \"a\", \"prompt\": \"p\"}]", None),
            [
                "1:1-1:2 Error: expected an object {\"skill_name\": string, \"evals\": [...]}, found an array"
            ]
        );
        assert_eq!(
            problems("{\"skill_name\": \"a\"}", None),
            ["1:1-1:2 Error: missing \"evals\": the list of test cases"]
        );
        assert_eq!(
            problems("{\"evals\": {}}", None),
            ["1:11-1:13 Error: \"evals\" must be an array of eval objects, not an object"]
        );
        assert_eq!(
            problems("{\"evals\": []}", None),
            ["1:11-1:13 Error: \"evals\" is empty; add at least one {\"prompt\": ...} object"]
        );
        let broken = problems("{\"evals\": [{\"prompt\": \"a\",}]}", None);
        assert_eq!(broken.len(), 1);
        assert!(
            broken[0].starts_with("1:27-1:28 Error: not JSON: "),
            "{broken:?}"
        );
        assert_eq!(
            problems(
                "{\"skill_name\": 3, \"evals\": [{\"prompt\": \"a\", \"prompt\": \"b\"}]}",
                None
            ),
            [
                "1:16-1:17 Error: \"skill_name\" must be a string, not a number",
                "1:30-1:38 Warning: \"prompt\" appears again later in this object; JSON readers keep the last",
            ]
        );
    }

    #[test]
    fn the_schema_and_the_checker_agree() {
        use crate::agent::eval::set::tests::schema_accepts;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let schema: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("docs/schemas/evals.schema.json")).unwrap(),
        )
        .unwrap();
        let keys = |value: &serde_json::Value| -> Vec<String> {
            value["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        // Completion offers the keys the schema describes.
        let mut file_keys: Vec<&str> = FILE_KEYS.iter().map(|(key, _)| *key).collect();
        let mut eval_keys: Vec<&str> = EVAL_KEYS.iter().map(|(key, _)| *key).collect();
        file_keys.sort_unstable();
        eval_keys.sort_unstable();
        assert_eq!(keys(&schema), file_keys);
        assert_eq!(keys(&schema["$defs"]["eval"]), eval_keys);
        // Valid for the schema exactly when the checker finds no error (the rules the schema
        // cannot state aside: unique ids, the name, the files on disk).
        for (text, valid) in [
            (r#"{"evals": [{"prompt": "p"}]}"#, true),
            (
                r#"{"skill_name": "s", "evals": [{"id": 1, "prompt": "p", "expected_output": "e", "files": ["a"], "assertions": ["x", {"type": "contains"}], "must_have": []}]}"#,
                true,
            ),
            (
                r#"{"evals": [{"id": "case-1", "prompt": "p", "expectations": ["x"], "name": "n"}]}"#,
                true,
            ),
            (
                r#"{"evals": [{"id": 1, "prompt": "p"}, {"id": 2, "prompt": "q"}], "x": 1}"#,
                true,
            ),
            (r#"[{"prompt": "p"}]"#, false),
            (r#"{"skill_name": "s"}"#, false),
            (r#"{"evals": []}"#, false),
            (r#"{"evals": {"prompt": "p"}}"#, false),
            (r#"{"evals": ["p"]}"#, false),
            (r#"{"skill_name": 1, "evals": [{"prompt": "p"}]}"#, false),
            (r#"{"evals": [{"id": 1}]}"#, false),
            (r#"{"evals": [{"prompt": ""}]}"#, false),
            (r#"{"evals": [{"prompt": " "}]}"#, false),
            (r#"{"evals": [{"prompt": 1}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "id": 1.5}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "id": true}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "id": ""}]}"#, false),
            (
                r#"{"evals": [{"prompt": "p", "expected_output": 1}]}"#,
                false,
            ),
            (r#"{"evals": [{"prompt": "p", "name": []}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "files": "a"}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "files": [1]}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "assertions": "x"}]}"#, false),
            (r#"{"evals": [{"prompt": "p", "assertions": [""]}]}"#, false),
            (
                r#"{"evals": [{"prompt": "p", "expectations": [1]}]}"#,
                false,
            ),
        ] {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                schema_accepts(&schema, &schema, &value),
                valid,
                "schema: {text}"
            );
            let errors = check(text, None, &|_| true)
                .into_iter()
                .filter(|problem| problem.level == Level::Error)
                .count();
            assert_eq!(errors == 0, valid, "checker: {text}");
        }
    }
}
