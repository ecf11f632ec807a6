//! Codex's `agents/openai.yaml` beside a SKILL.md: the app's face of the skill (`interface`), the
//! tools it needs (`dependencies`) and whether the model may pick it on its own (`policy`).
//! Codex reads the file in two steps, and the rules follow them: a file that fails to parse or
//! whose shape is wrong is ignored whole (`openai-yaml-invalid`, and a `policy` in it has no
//! effect); in a file that reads, each value Codex cannot use is dropped on its own
//! (`openai-yaml-ignored`). `openai-yaml-icon` looks for the icon files, which Codex does not,
//! and `openai-yaml-explicit-only` says what `allow_implicit_invocation: false` does.

use std::path::{Component, Path};

use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::document::yaml::{self, Node, NodeKind, ScalarType};
use crate::targets::Client;
use crate::text::TextRange;

use super::Rule;

/// Where Codex looks for the file, relative to the skill folder.
pub(crate) const PATH: &str = crate::workspace::discovery::OPENAI_YAML;

/// The `interface` strings and the longest value Codex keeps, in characters (`None`: no limit).
const INTERFACE: [(&str, Option<usize>); 6] = [
    ("display_name", Some(64)),
    ("short_description", Some(1_024)),
    ("icon_small", None),
    ("icon_large", None),
    ("brand_color", None),
    ("default_prompt", Some(1_024)),
];
const TOOL_FIELDS: [&str; 6] = [
    "type",
    "value",
    "description",
    "transport",
    "command",
    "url",
];

const WHOLE_FILE: &str = "Codex ignores the whole agents/openai.yaml";

/// The findings of one `agents/openai.yaml`. `skill_dir` is the skill folder, `exists` answers
/// whether a file is there, and `skill_name` (the SKILL.md's name, when known) is how the user
/// invokes the skill.
#[must_use]
pub(crate) fn check(
    text: &str,
    skill_dir: &Path,
    exists: &dyn Fn(&Path) -> bool,
    skill_name: Option<&str>,
) -> Vec<Diagnostic> {
    let document = yaml::parse(text, TextRange::new(crate::text::bom_len(text), text.len()));
    let mut out = Vec::new();
    if let Some(error) = &document.error {
        let at = error.offset.min(text.len());
        out.push(invalid(
            TextRange::new(at, next_char(text, at)),
            format!("YAML syntax error: {}", error.message),
        ));
        return out;
    }
    if document.extra_documents {
        let at = second_document(text).unwrap_or(0);
        out.push(invalid(
            TextRange::new(at, (at + 3).min(text.len())),
            "a second YAML document ('---'): Codex reads a single document".to_owned(),
        ));
        return out;
    }
    let Some(root) = &document.root else {
        return out;
    };
    if let Some((node, problem)) = shape_error(root) {
        let mut diagnostic = invalid(node.range, problem);
        if let Some(fix) = boolean_fix(node) {
            diagnostic.fixes.push(fix);
        }
        out.push(diagnostic);
        return out;
    }
    let section = |key: &str| root.get(key).map(|entry| &entry.value);
    if let Some(entries) = section("interface").and_then(Node::as_mapping) {
        for entry in entries {
            let Some(key) = entry.key.as_str() else {
                continue;
            };
            let Some(&(_, limit)) = INTERFACE.iter().find(|(name, _)| *name == key) else {
                continue;
            };
            let Some(value) = string_value(&entry.value) else {
                continue;
            };
            let problem = if key.starts_with("icon_") {
                icon_problem(&value).map(str::to_owned)
            } else {
                interface_problem(key, &value, limit)
            };
            match problem {
                Some(problem) => out.push(ignored(
                    entry.value.range,
                    format!("interface.{key} {problem}"),
                )),
                None if key.starts_with("icon_") && !value.is_empty() => {
                    let file = skill_dir.join(value.trim());
                    if !exists(&file) {
                        out.push(Diagnostic::new(
                            Rule::OpenaiYamlIcon,
                            entry.value.range,
                            format!(
                                "interface.{key} names {}, which is not a file in the skill folder",
                                value.trim()
                            ),
                        ));
                    }
                }
                None => {}
            }
        }
    }
    if let Some(tools) = section("dependencies")
        .and_then(|dependencies| dependencies.get("tools"))
        .and_then(|entry| match &entry.value.kind {
            NodeKind::Sequence(items) => Some(items),
            _ => None,
        })
    {
        for tool in tools {
            for field in ["type", "value"] {
                let value = tool.get(field).and_then(|entry| string_value(&entry.value));
                let state = match value {
                    None => Some("is missing"),
                    Some(value) if value.trim().is_empty() => Some("is empty"),
                    Some(_) => None,
                };
                if let Some(state) = state {
                    let range = tool
                        .get(field)
                        .map_or(tool.range, |entry| entry.value.range);
                    out.push(ignored(
                        range,
                        format!("this tool's {field} {state}; Codex drops the tool"),
                    ));
                }
            }
        }
    }
    if let Some(entry) =
        section("policy").and_then(|policy| policy.get("allow_implicit_invocation"))
    {
        if entry.value.scalar_type() == Some(ScalarType::Bool)
            && entry
                .value
                .as_str()
                .is_some_and(|value| value.eq_ignore_ascii_case("false"))
        {
            let invoke = skill_name.map_or_else(
                || "with $ and its name".to_owned(),
                |name| format!("as ${name}"),
            );
            out.push(Diagnostic::new(
                Rule::OpenaiYamlExplicitOnly,
                entry.value.range,
                format!(
                    "allow_implicit_invocation is false — Codex leaves this skill out of the model's listing; it runs only when the user invokes it {invoke}"
                ),
            ));
        }
    }
    for diagnostic in &mut out {
        diagnostic.targets = vec![Client::Codex];
    }
    out
}

fn invalid(range: TextRange, problem: String) -> Diagnostic {
    Diagnostic::new(
        Rule::OpenaiYamlInvalid,
        range,
        format!("{problem} — {WHOLE_FILE}"),
    )
}

fn ignored(range: TextRange, problem: String) -> Diagnostic {
    let message = if problem.ends_with("drops the tool") {
        problem
    } else {
        format!("{problem} — Codex ignores this value")
    };
    Diagnostic::new(Rule::OpenaiYamlIgnored, range, message)
}

fn next_char(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

/// Where the second document starts: a `---` line after some content.
fn second_document(text: &str) -> Option<usize> {
    let mut offset = 0;
    let mut seen_content = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if (bare == "---" || bare.starts_with("--- ")) && seen_content {
            return Some(offset);
        }
        if !bare.is_empty() && !bare.starts_with('#') && bare != "---" {
            seen_content = true;
        }
        offset += line.len();
    }
    None
}

/// The scalar's text as Codex reads a string (numbers and booleans as written); `None` for null
/// and for what is not a scalar.
fn string_value(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Scalar { value, .. } if node.scalar_type() != Some(ScalarType::Null) => {
            Some(value.clone())
        }
        _ => None,
    }
}

/// The first value whose type makes Codex ignore the whole file, and why.
fn shape_error(root: &Node) -> Option<(&Node, String)> {
    let mapping_or_null = |node: &Node| node.as_mapping().is_some() || is_null(node);
    if !mapping_or_null(root) {
        return Some((
            root,
            format!("the file is {}, not a mapping", root.describe()),
        ));
    }
    let section = |key: &str| root.get(key).map(|entry| &entry.value);
    for key in ["interface", "dependencies", "policy"] {
        if let Some(node) = section(key).filter(|node| !mapping_or_null(node)) {
            return Some((node, format!("{key} is {}, not a mapping", node.describe())));
        }
    }
    if let Some(entries) = section("interface").and_then(Node::as_mapping) {
        for entry in entries {
            let known = entry
                .key
                .as_str()
                .is_some_and(|key| INTERFACE.iter().any(|(name, _)| *name == key));
            if known && !is_scalar(&entry.value) {
                return Some((
                    &entry.value,
                    format!(
                        "interface.{} is {}, not a string",
                        entry.key.as_str().unwrap_or_default(),
                        entry.value.describe()
                    ),
                ));
            }
        }
    }
    if let Some(tools) = section("dependencies").and_then(|node| node.get("tools")) {
        let NodeKind::Sequence(items) = &tools.value.kind else {
            return Some((
                &tools.value,
                format!(
                    "dependencies.tools is {}, not a list",
                    tools.value.describe()
                ),
            ));
        };
        for (index, tool) in items.iter().enumerate() {
            let Some(fields) = tool.as_mapping() else {
                return Some((
                    tool,
                    format!(
                        "dependencies.tools[{index}] is {}, not a mapping",
                        tool.describe()
                    ),
                ));
            };
            for entry in fields {
                let known = entry
                    .key
                    .as_str()
                    .is_some_and(|key| TOOL_FIELDS.contains(&key));
                if known && !is_scalar(&entry.value) {
                    return Some((
                        &entry.value,
                        format!(
                            "dependencies.tools[{index}].{} is {}, not a string",
                            entry.key.as_str().unwrap_or_default(),
                            entry.value.describe()
                        ),
                    ));
                }
            }
        }
    }
    if let Some(value) = section("policy")
        .and_then(|policy| policy.get("allow_implicit_invocation"))
        .map(|entry| &entry.value)
        .filter(|value| !is_null(value) && value.scalar_type() != Some(ScalarType::Bool))
    {
        let written = match (&value.kind, value.scalar_type()) {
            (NodeKind::Scalar { value: text, .. }, Some(ScalarType::Str)) => {
                format!("the string '{text}'")
            }
            (NodeKind::Scalar { value: text, .. }, _) => format!("'{text}'"),
            _ => value.describe().to_owned(),
        };
        return Some((
            value,
            format!("policy.allow_implicit_invocation must be true or false, not {written}"),
        ));
    }
    None
}

fn is_null(node: &Node) -> bool {
    node.scalar_type() == Some(ScalarType::Null)
}

fn is_scalar(node: &Node) -> bool {
    matches!(node.kind, NodeKind::Scalar { .. } | NodeKind::Alias)
}

/// `no`, `off`, `"false"` and the like where Codex wants a boolean: the boolean meant, as a fix
/// that changes what Codex does (the file starts to count), so not a safe one.
fn boolean_fix(node: &Node) -> Option<Fix> {
    let NodeKind::Scalar { value, .. } = &node.kind else {
        return None;
    };
    let meant = match value.trim().to_ascii_lowercase().as_str() {
        "no" | "off" | "n" | "false" | "0" => "false",
        "yes" | "on" | "y" | "true" | "1" => "true",
        _ => return None,
    };
    Some(Fix::new(
        format!("Write '{meant}'"),
        false,
        vec![Edit {
            range: node.range,
            text: meant.to_owned(),
        }],
    ))
}

/// Why Codex drops an `interface` string other than an icon.
fn interface_problem(key: &str, value: &str, limit: Option<usize>) -> Option<String> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Some("is empty".to_owned());
    }
    if let Some(limit) = limit {
        let length = trimmed.chars().count();
        if length > limit {
            return Some(format!(
                "is {length} characters; Codex keeps at most {limit}"
            ));
        }
    }
    if key == "brand_color" && !is_hex_colour(trimmed) {
        return Some(format!("must be a colour written #RRGGBB, not '{trimmed}'"));
    }
    None
}

fn is_hex_colour(value: &str) -> bool {
    value.len() == 7
        && value.starts_with('#')
        && value[1..].bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// Why Codex drops an icon path: it must stay inside the skill's `assets/` folder. An empty
/// value is no icon, and fine.
fn icon_problem(value: &str) -> Option<&'static str> {
    if value.is_empty() {
        return None;
    }
    let path = Path::new(value);
    if path.is_absolute() {
        return Some("must be a path relative to the skill folder, inside assets/");
    }
    if path.components().any(|part| part == Component::ParentDir) {
        return Some("must not contain '..'");
    }
    let first = path
        .components()
        .find(|part| *part != Component::CurDir)
        .and_then(|part| part.as_os_str().to_str());
    if first != Some("assets") {
        return Some("must be a path under assets/");
    }
    None
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::OpenaiYamlInvalid => RuleDoc::new(
            "Codex cannot read the skill's `agents/openai.yaml`: a YAML syntax error, a second document, or a value of the wrong kind (a list where a string belongs, `no` or `0` where `allow_implicit_invocation` wants `true` or `false`).",
            "Codex then ignores the whole file, silently: no display name, icon or tool dependencies in the app, and a `policy.allow_implicit_invocation: false` in it has no effect, so the model is offered the skill after all.",
            "`policy:` / `  allow_implicit_invocation: no` (YAML 1.2 reads `no` as a string).",
            "Write the value in the kind Codex expects; for a boolean, `true` or `false` (offered as a fix).",
        ),
        Rule::OpenaiYamlIgnored => RuleDoc::new(
            "Codex drops one value of `agents/openai.yaml`: an empty string, `display_name` over 64 characters, `short_description` or `default_prompt` over 1,024, a `brand_color` not written `#RRGGBB`, an icon path outside the skill's `assets/` folder (absolute, with `..`, or elsewhere), a tool dependency without `type` or `value`.",
            "The rest of the file counts, but the app shows the skill without that value (or without that tool), with a warning only in Codex's log.",
            "`brand_color: \"blue\"` or `icon_small: \"./icon.png\"`.",
            "Shorten the text, write the colour as `#3B82F6`, move the icon under `assets/`, give each tool a `type` and a `value`.",
        ),
        Rule::OpenaiYamlIcon => RuleDoc::new(
            "An icon path of `agents/openai.yaml` names no file of the skill folder.",
            "Codex does not check that the file is there; the app then has no icon to show for the skill.",
            "`icon_small: \"./assets/logo-small.png\"` when `assets/` holds only `logo.png`.",
            "Add the file, or correct the path.",
        ),
        Rule::OpenaiYamlExplicitOnly => RuleDoc::new(
            "`policy.allow_implicit_invocation: false`: Codex never offers the skill to the model on its own.",
            "The skill is left out of the model's listing and runs only when the user names it with `$name`; worth knowing when a skill seems not to trigger.",
            "`policy:` / `  allow_implicit_invocation: false`.",
            "Remove the setting (or set it to `true`) to let the model pick the skill.",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<(Rule, String, String)> {
        let exists = |path: &Path| path.ends_with("assets/there.png");
        check(text, Path::new("/w/.agents/skills/sk"), &exists, Some("sk"))
            .into_iter()
            .map(|diagnostic| {
                let at = text[diagnostic.range.as_range()].to_owned();
                (diagnostic.rule, at, diagnostic.message)
            })
            .collect()
    }

    fn rules(text: &str) -> Vec<(Rule, String)> {
        findings(text)
            .into_iter()
            .map(|(rule, at, _)| (rule, at))
            .collect()
    }

    #[test]
    fn a_good_file_is_quiet() {
        let text = "interface:\n  display_name: \"PDF\"\n  short_description: \"Fill forms\"\n  icon_small: \"./assets/there.png\"\n  brand_color: \"#3b82F6 \"\n  default_prompt: \"Use $sk.\"\ndependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"github\"\n      url: 5\npolicy:\n  allow_implicit_invocation: true\nextra: 1\n";
        assert_eq!(findings(text), []);
        assert_eq!(findings(""), []);
        assert_eq!(findings("interface: ~\npolicy: ~\ndependencies: ~\n"), []);
        assert_eq!(
            findings("interface:\n  display_name: 123\n  icon_large: \"\"\n"),
            []
        );
    }

    #[test]
    fn a_wrong_shape_makes_codex_ignore_the_whole_file() {
        let cases = [
            ("just a string\n", "just a string", "the file is a string"),
            ("policy: []\n", "[]", "policy is a list"),
            (
                "interface:\n  short_description: [a]\n",
                "[a]",
                "interface.short_description is a list",
            ),
            (
                "dependencies:\n  tools: ~\n",
                "~",
                "dependencies.tools is null",
            ),
            (
                "dependencies:\n  tools:\n    - \"gh\"\n",
                "\"gh\"",
                "dependencies.tools[0] is a string",
            ),
            (
                "policy:\n  allow_implicit_invocation: no\n",
                "no",
                "not the string 'no'",
            ),
            ("policy:\n  allow_implicit_invocation: 0\n", "0", "not '0'"),
            ("interface:\n  display_name: \"x\n", "", "YAML syntax error"),
            (
                "interface: {}\n---\ninterface: {}\n",
                "---",
                "a second YAML document",
            ),
        ];
        for (text, at, words) in cases {
            let found = findings(text);
            assert_eq!(found.len(), 1, "{text:?}: {found:?}");
            let (rule, found_at, message) = &found[0];
            assert_eq!(*rule, Rule::OpenaiYamlInvalid, "{text:?}");
            assert!(at.is_empty() || found_at == at, "{text:?}: at {found_at:?}");
            assert!(message.contains(words), "{text:?}: {message}");
            assert!(message.ends_with(WHOLE_FILE), "{message}");
        }
    }

    #[test]
    fn no_for_a_boolean_is_fixed_to_false_but_not_silently() {
        let text = "policy:\n  allow_implicit_invocation: no\n";
        let diagnostics = check(text, Path::new("/s"), &|_| true, None);
        let fix = &diagnostics[0].fixes[0];
        assert!(!fix.safe);
        assert_eq!(fix.edits[0].text, "false");
        assert_eq!(&text[fix.edits[0].range.as_range()], "no");
    }

    #[test]
    fn values_codex_drops_one_by_one() {
        let text = "interface:\n  display_name: \"   \"\n  short_description: \"\"\n  brand_color: \"#FFF\"\n  default_prompt: \"".to_owned()
            + &"p".repeat(1_025)
            + "\"\n  icon_small: \"../x.png\"\n  icon_large: \"/abs/x.png\"\n";
        let found = findings(&text);
        let messages: Vec<&str> = found
            .iter()
            .map(|(_, _, message)| message.as_str())
            .collect();
        assert_eq!(found.len(), 6, "{messages:#?}");
        assert!(
            found
                .iter()
                .all(|(rule, ..)| *rule == Rule::OpenaiYamlIgnored)
        );
        assert!(
            messages[0].starts_with("interface.display_name is empty — Codex ignores this value")
        );
        assert!(messages[2].contains("#RRGGBB, not '#FFF'"));
        assert!(messages[3].contains("is 1025 characters; Codex keeps at most 1024"));
        assert!(messages[4].contains("must not contain '..'"));
        assert!(messages[5].contains("relative to the skill folder"));
        let long_name = format!("interface:\n  display_name: \"{}\"\n", "é".repeat(64));
        assert_eq!(findings(&long_name), [], "64 characters, not bytes");
    }

    #[test]
    fn icons_must_sit_under_assets_and_exist() {
        for (path, ok) in [
            ("./assets/there.png", true),
            ("assets/there.png", true),
            ("./assets/./there.png", true),
            ("./ASSETS/x.png", false),
            ("x.png", false),
            ("assets\\\\x.png", false),
            ("  ", false),
        ] {
            let text = format!("interface:\n  icon_small: \"{path}\"\n");
            let found = rules(&text);
            assert_eq!(found.is_empty(), ok, "{path}: {found:?}");
            if !ok {
                assert_eq!(found[0].0, Rule::OpenaiYamlIgnored, "{path}");
            }
        }
        assert_eq!(
            rules("interface:\n  icon_large: \"./assets/gone.png\"\n"),
            [(Rule::OpenaiYamlIcon, "\"./assets/gone.png\"".to_owned())]
        );
    }

    #[test]
    fn tools_without_type_or_value_are_dropped() {
        let text = "dependencies:\n  tools:\n    - value: \"gh\"\n    - type: \"mcp\"\n      value: \"  \"\n";
        let found = findings(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].2.starts_with("this tool's type is missing"));
        assert_eq!(found[1].1, "\"  \"");
        assert!(found[1].2.contains("value is empty"));
    }

    #[test]
    fn explicit_only_says_how_to_invoke_it() {
        let found = findings("policy:\n  allow_implicit_invocation: False\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Rule::OpenaiYamlExplicitOnly);
        assert!(found[0].2.contains("invokes it as $sk"), "{}", found[0].2);
        // In a file Codex ignores, the policy does nothing: only the invalid finding.
        let ignored =
            rules("policy:\n  allow_implicit_invocation: false\ninterface:\n  display_name: [x]\n");
        assert_eq!(ignored, [(Rule::OpenaiYamlInvalid, "[x]".to_owned())]);
    }
}
