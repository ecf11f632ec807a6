//! The custom protocol (`skill/*`, the approval request, the chat's `$/progress`) as one
//! example of each message, serialised from the types of `lsp::ext` into
//! `docs/protocol/messages.json`. The VS Code and Neovim glue read the same file in their own
//! tests, so the server and the two editors cannot drift apart; `docs/protocol.md` describes it.
//! `UPDATE_DOCS=1 cargo test --test protocol` rewrites the file after a deliberate change.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};
use skill_lsp::agent::AgentEvent;
use skill_lsp::lsp::agent::event_json;
use skill_lsp::lsp::ext;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const PDF: &str =
    "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF form.\n---\n# PDF\n";

fn messages() -> Value {
    let session = "chat-1";
    let events: Vec<Value> = [
        AgentEvent::ToolCall {
            id: "toolu_1".into(),
            name: "load_skill".into(),
            input: json!({"name": "pdf"}),
        },
        AgentEvent::ToolResult {
            id: "toolu_1".into(),
            name: "load_skill".into(),
            content: PDF.into(),
            is_error: false,
        },
        AgentEvent::ToolCall {
            id: "toolu_2".into(),
            name: "bash".into(),
            input: json!({"command": "python scripts/fill.py form.pdf"}),
        },
        AgentEvent::ToolResult {
            id: "toolu_2".into(),
            name: "bash".into(),
            content: "denied by the user".into(),
            is_error: true,
        },
        AgentEvent::Text("The form is filled.".into()),
    ]
    .iter()
    .map(|event| json!({"params": event_json(session, event)}))
    .chain([
        json!({"params": {"sessionId": session, "kind": "done", "stopReason": "end_turn"}}),
        json!({"params": {"sessionId": session, "kind": "done", "stopReason": "cancelled"}}),
        json!({"params": {"sessionId": session, "kind": "error", "message": "the model provider answered 401 Unauthorized"}}),
    ])
    .collect();
    json!({
        "initialize": [{
            "result": {"capabilities": {
                "codeActionProvider": {"codeActionKinds": ["quickfix", ext::FIX_ALL_KIND]},
                "executeCommandProvider": {"commands": ext::COMMANDS},
            }},
        }],
        ext::CATALOG: [{
            "params": {},
            "result": ext::CatalogResult {
                skills: vec![ext::CatalogSkill {
                    name: "pdf".into(),
                    description: "Fills PDF forms. Use when the user has a PDF form.".into(),
                    uri: "file:///work/skills/pdf/SKILL.md".into(),
                    root: "/work/skills".into(),
                    diagnostics: 0,
                }],
                prompt: "- pdf: Fills PDF forms. Use when the user has a PDF form.".into(),
            },
        }],
        ext::LOAD_SKILL: [
            {"params": {"name": "pdf"}, "result": ext::LoadSkillResult { content: PDF.into() }},
            {"params": {"name": "nope"}, "error": {"code": -32602, "message": "Error: Unknown skill 'nope'. Available: pdf"}},
        ],
        "workspace/executeCommand": [{
            "params": {"command": ext::LOAD_SKILL, "arguments": [{"name": "pdf"}]},
            "result": ext::LoadSkillResult { content: PDF.into() },
        }],
        skill_lsp::lsp::agent::AGENT_CHAT: [{
            "params": {"prompt": "Fill in form.pdf", "sessionId": null, "workDoneToken": "skill-lsp/agent/1"},
            "result": skill_lsp::lsp::agent::AgentChatResult {
                session_id: session.into(),
                reply: "The form is filled.".into(),
                stop_reason: "end_turn".into(),
                loaded_skills: vec!["pdf".into()],
                transcript: vec![
                    json!({"role": "user", "content": "Fill in form.pdf"}),
                    json!({"role": "assistant", "content": "The form is filled."}),
                ],
                usage: skill_lsp::lsp::agent::ChatUsage { input_tokens: 1200, output_tokens: 80 },
            },
        }],
        "skill/agentEvent": events,
        "$/progress": [
            {"params": {"token": "skill-lsp/agent/1", "value": {"kind": "begin", "title": "Skill agent", "cancellable": true, "message": "Fill in form.pdf"}}},
            {"params": {"token": "skill-lsp/agent/1", "value": {"kind": "report", "cancellable": true, "message": "load_skill {\"name\":\"pdf\"}"}}},
            {"params": {"token": "skill-lsp/agent/1", "value": {"kind": "end", "message": "end_turn"}}},
        ],
        "window/showMessageRequest": [{
            "params": {
                "type": 2,
                "message": "The skill agent wants to run `python scripts/fill.py form.pdf`.",
                "actions": [{"title": "Allow once"}, {"title": "Allow for this chat"}, {"title": "Deny"}],
            },
            "result": {"title": "Allow once"},
        }],
    })
}

#[test]
fn protocol_snapshot_is_in_step_with_the_code() {
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(&messages()).expect("the messages serialise")
    );
    let path = Path::new(ROOT).join("docs/protocol/messages.json");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        fs::write(&path, &text).unwrap();
    }
    assert_eq!(
        fs::read_to_string(&path).unwrap_or_default(),
        text,
        "docs/protocol/messages.json is stale: run UPDATE_DOCS=1 cargo test --test protocol"
    );
}
