//! The shapes of `allowed-tools` (a space-separated string) and `hooks`.

use super::*;

pub(super) fn hooks_shape_ok(value: &Node) -> bool {
    let Some(events) = value.as_mapping() else {
        return false;
    };
    events.iter().all(|event| {
        let NodeKind::Sequence(matchers) = &event.value.kind else {
            return false;
        };
        matchers.iter().all(|matcher| {
            matcher
                .get("hooks")
                .is_some_and(|hooks| match &hooks.value.kind {
                    NodeKind::Sequence(handlers) => handlers.iter().all(|handler| {
                        handler
                            .get("type")
                            .is_some_and(|kind| kind.value.is_string())
                    }),
                    _ => false,
                })
        })
    })
}

pub(super) fn allowed_tools_shape(checker: &mut Checker<'_>, entry: &Entry) {
    let value = &entry.value;
    let tools: Vec<String> = match &value.kind {
        NodeKind::Sequence(items) => items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_owned))
            .collect(),
        NodeKind::Scalar { value: text, .. } if text.contains(',') => text
            .split(',')
            .map(|tool| tool.trim().to_owned())
            .filter(|tool| !tool.is_empty())
            .collect(),
        _ => return,
    };
    let is_list = matches!(value.kind, NodeKind::Sequence(_));
    let joinable = tools.iter().all(|tool| !tool.contains(char::is_whitespace));
    let mut fixes = Vec::new();
    if joinable && !tools.is_empty() {
        let joined = tools.join(" ");
        let edit = Edit::replace(
            TextRange::new(entry.key.range.end, value.range.end),
            format!(": {}", yaml_string(&joined)),
        );
        let ok = verify(checker.text, std::slice::from_ref(&edit), |_, document| {
            document
                .field("allowed-tools")
                .and_then(|entry| entry.value.as_str().map(str::to_owned))
                .as_deref()
                == Some(joined.as_str())
        });
        if ok {
            fixes.push(Fix::new(
                "Rewrite as a space-separated string",
                true,
                vec![edit],
            ));
        }
    }
    checker.report(
        Rule::AllowedToolsShape,
        value.range,
        if is_list {
            "allowed-tools is a list; the spec wants one space-separated string".to_owned()
        } else {
            "allowed-tools is comma-separated; the spec wants tools separated by spaces"
                .to_owned()
        },
        // Neither skills-ref 0.1.1 nor Anthropic's upload check looks at `allowed-tools` (a flow
        // list fails skills-ref's parse, which `flow-style` reports); Claude Code takes lists and
        // commas; the other clients do not read the field.
        move |target| match target {
            Client::AgentSkills | Client::ClaudeUpload if is_list => Effect::Degrade(
                "passes it through unchecked, but clients that follow the spec expect a string",
                "pass it through unchecked, but clients that follow the spec expect a string",
            ),
            Client::AgentSkills | Client::ClaudeUpload => Effect::Degrade(
                "passes it through unchecked, but clients that follow the spec split it at spaces only",
                "pass it through unchecked, but clients that follow the spec split it at spaces only",
            ),
            _ => Effect::Load,
        },
        fixes,
    );
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::AllowedToolsShape => RuleDoc::new(
            "`allowed-tools` is a list or comma-separated where the spec wants a space-separated string.",
            "The spec defines one space-separated string. skills-ref and Anthropic's upload check do not look at the field and Claude Code takes lists and commas, but a client that follows the spec splits at spaces, so `Read, Grep` names the tool `Read,`. A flow list `[Read, Grep]` fails skills-ref's parser (`flow-style`).",
            "`allowed-tools: Read, Grep`",
            "Rewrite as `allowed-tools: Read Grep` (safe when no tool pattern holds a space).",
        ),
        _ => return None,
    })
}
