//! The custom protocol (`skill/*`, the approval request, the chat's `$/progress`) as one
//! example of each message, serialised from the types of `lsp::ext` into
//! `docs/protocol/messages.json`. The VS Code and Neovim glue read the same file in their own
//! tests, so the server and the two editors cannot drift apart; `docs/protocol.md` describes it.
//! `UPDATE_DOCS=1 cargo test --test it protocol::` rewrites the file after a deliberate change.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};
use skill_lsp::agent::AgentEvent;
use skill_lsp::agent::provider::{ProviderError, Unset};
use skill_lsp::agent::tools;
use skill_lsp::lsp::ext::{self, AgentEventKind, AgentEventParams};
use skill_lsp::lsp::progress;
use tower_lsp_server::ls_types::{
    MessageActionItem, MessageType, NumberOrString, ProgressParams, ProgressParamsValue,
    ShowMessageRequestParams,
};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const PDF: &str =
    "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF form.\n---\n# PDF\n";

/// One request: its params and its result.
fn exchange(params: impl Serialize, result: impl Serialize) -> Value {
    json!({"params": params, "result": result})
}

fn notification(params: impl Serialize) -> Value {
    json!({"params": params})
}

fn messages() -> Value {
    let session_id = "chat-1";
    let token = NumberOrString::String("skill-lsp/agent/1".into());
    let event = |event: AgentEventKind| {
        notification(AgentEventParams {
            session_id: session_id.into(),
            event,
        })
    };
    let steps = [
        AgentEvent::ToolCall {
            id: "toolu_1".into(),
            name: "load_skill".into(),
            input: json!({"name": "pdf"}),
            approval: None,
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
            approval: tools::approval_for(
                "bash",
                &json!({"command": "python scripts/fill.py form.pdf"}),
            ),
        },
        AgentEvent::ToolResult {
            id: "toolu_2".into(),
            name: "bash".into(),
            content: "denied by the user".into(),
            is_error: true,
        },
        AgentEvent::Text("The form is filled.".into()),
    ];
    let events: Vec<Value> = steps
        .iter()
        .map(|step| event(AgentEventKind::from_agent(step)))
        .chain([
            event(AgentEventKind::Done {
                stop_reason: "end_turn".into(),
            }),
            event(AgentEventKind::Done {
                stop_reason: ext::STOP_CANCELLED.into(),
            }),
            event(AgentEventKind::Error {
                message: "the model provider answered 401 Unauthorized".into(),
            }),
        ])
        .collect();
    let progress = [
        progress::begin(ext::AGENT_PROGRESS_TITLE, true, "Fill in form.pdf".into()),
        progress::report("Loading the skill pdf".into()),
        progress::end("end_turn".into()),
    ]
    .map(|value| {
        notification(ProgressParams {
            token: token.clone(),
            value: ProgressParamsValue::WorkDone(value),
        })
    });
    let approval = ShowMessageRequestParams {
        typ: MessageType::WARNING,
        message: "The skill agent wants to run 'python scripts/fill.py form.pdf'.".into(),
        actions: Some(
            ext::APPROVAL_ACTIONS
                .map(|title| MessageActionItem {
                    title: title.into(),
                    properties: HashMap::new(),
                })
                .to_vec(),
        ),
    };
    // One query's object of an eval report (`skill/runEvals` results, `skill/evalResult`).
    let eval_result = json!({
        "query": "fill in this pdf form",
        "should_trigger": true,
        "trigger_rate": 0.0,
        "trigger_interval": [0.0, 0.7935],
        "triggers": 0,
        "runs": 1,
        "pass": false,
        "verdict": "undecided",
        "loaded_instead": {"docx": 1},
        "other_tools": {},
        "cached_runs": 0,
        "input_tokens": 900,
        "output_tokens": 20,
    });
    let load_skill = ext::LoadSkillResult {
        content: PDF.into(),
    };
    json!({
        "initialize": [{
            "result": {"capabilities": {
                "codeActionProvider": {"codeActionKinds": ["quickfix", ext::FIX_ALL_KIND]},
                "executeCommandProvider": {"commands": ext::COMMANDS},
            }},
        }],
        ext::CATALOG: [exchange(
            ext::CatalogParams {},
            ext::CatalogResult {
                skills: vec![ext::CatalogSkill {
                    name: "pdf".into(),
                    description: "Fills PDF forms. Use when the user has a PDF form.".into(),
                    uri: "file:///work/skills/pdf/SKILL.md".into(),
                    root: "/work/skills".into(),
                    diagnostics: 0,
                    capabilities: vec!["shell".into()],
                    security_errors: 0,
                    claude_code_name: Some("docs:pdf".into()),
                }],
                prompt: "- pdf: Fills PDF forms. Use when the user has a PDF form.".into(),
                plugins: vec![ext::CatalogPlugin {
                    name: "docs".into(),
                    marketplace: Some("team".into()),
                    install: "claude plugin install docs@team".into(),
                    root: "/work".into(),
                    skills: vec![ext::CatalogPluginSkill {
                        claude_code_name: "docs:pdf".into(),
                        description: "Fills PDF forms. Use when the user has a PDF form.".into(),
                        uri: "file:///work/skills/pdf/SKILL.md".into(),
                    }],
                }],
            },
        )],
        ext::LOAD_SKILL: [
            exchange(ext::LoadSkillParams { name: "pdf".into() }, &load_skill),
            {
                "params": ext::LoadSkillParams { name: "nope".into() },
                "error": {"code": -32602, "message": "Error: Unknown skill 'nope'. Available: pdf"},
            },
        ],
        "workspace/executeCommand": [exchange(
            json!({"command": ext::LOAD_SKILL, "arguments": [ext::LoadSkillParams { name: "pdf".into() }]}),
            &load_skill,
        )],
        ext::AGENT_CHAT: [exchange(
            ext::AgentChatParams {
                prompt: "Fill in form.pdf".into(),
                session_id: None,
                work_done_token: Some(token.clone()),
            },
            ext::AgentChatResult {
                session_id: session_id.into(),
                reply: "The form is filled.".into(),
                stop_reason: "end_turn".into(),
                loaded_skills: vec!["pdf".into()],
                // The agent's record of every step (src/agent/session.rs), for display.
                transcript: vec![
                    json!({"type": "user", "text": "Fill in form.pdf"}),
                    json!({"type": "assistant", "text": "", "toolCalls": [{"id": "toolu_1", "name": "load_skill", "input": {"name": "pdf"}}], "stopReason": "tool_use", "usage": {"inputTokens": 500, "outputTokens": 30}}),
                    json!({"type": "tool_result", "id": "toolu_1", "name": "load_skill", "isError": false, "content": PDF}),
                    json!({"type": "assistant", "text": "The form is filled.", "toolCalls": [], "stopReason": "end_turn", "usage": {"inputTokens": 700, "outputTokens": 50}}),
                ],
                usage: ext::ChatUsage {
                    input_tokens: 1200,
                    output_tokens: 80,
                },
            },
        ), {
            "params": ext::AgentChatParams { prompt: "Fill in form.pdf".into(), session_id: None, work_done_token: None },
            "error": {"code": -32602, "message": ProviderError::Unset(Unset::Model).to_string(), "data": {"unset": Unset::Model.id()}},
        }],
        ext::AGENT_EVENT: events,
        "$/progress": progress,
        "window/showMessageRequest": [exchange(approval, json!({"title": ext::ALLOW_ONCE}))],
        ext::RUN_EVALS: [
            exchange(
                ext::RunEvalsParams {
                    skill: Some("pdf".into()),
                    uri: Some("file:///work/skills/pdf/SKILL.md".into()),
                    runs: Some(1),
                    target: Some("claude-code".into()),
                    work_done_token: Some(NumberOrString::String("skill-lsp/evals/pdf".into())),
                    ..ext::RunEvalsParams::default()
                },
                ext::RunEvalsResult(json!({
                    "skill_name": "pdf",
                    "description": "Fills PDF forms. Use when the user has a PDF form.",
                    "candidate": false,
                    "eval_set": "/work/skills/pdf/evals/triggers.json",
                    "results": [eval_result.clone()],
                    "confusions": [],
                    "summary": {"total": 1, "passed": 0, "failed": 1, "undecided": 1, "precision": null, "recall": 0.0, "precision_interval": null, "recall_interval": [0.0, 0.7935], "false_trigger_rate": null, "false_trigger_interval": null, "runs": 1, "cached_runs": 0, "input_tokens": 900, "output_tokens": 20},
                    "target": {"client": "claude-code", "measured_with": "Claude Code 2.1.328", "presence": "listed", "listed_as": "pdf", "fate": "full", "seen": "Fills PDF forms. Use when the user has a PDF form.", "seen_chars": 49, "full_chars": 49, "reason": null, "note": null},
                    "run": {"provider": "anthropic", "model": "claude-sonnet-4-5", "runs_per_query": 1, "auto_runs": false, "threshold": 0.5, "max_turns": 3, "runs": 1, "cached_runs": 0, "requests": 1, "input_tokens": 900, "output_tokens": 20, "usage_estimated_runs": 0, "elapsed_ms": 1200, "warnings": []},
                })),
            ),
            {
                "params": ext::RunEvalsParams { skill: Some("nope".into()), ..ext::RunEvalsParams::default() },
                "error": {"code": -32602, "message": "no skill named 'nope' in /work (skills: pdf)"},
            },
        ],
        ext::IMPROVE_DESCRIPTION: [exchange(
            ext::ImproveDescriptionParams {
                eval: ext::RunEvalsParams {
                    skill: Some("pdf".into()),
                    uri: Some("file:///work/skills/pdf/SKILL.md".into()),
                    runs: Some(1),
                    work_done_token: Some(NumberOrString::String("skill-lsp/improve/pdf".into())),
                    ..ext::RunEvalsParams::default()
                },
                iterations: Some(3),
                seed: None,
            },
            ext::ImproveDescriptionResult(json!({
                "improve": {
                    "skill": "pdf",
                    "split": {"seed": 1, "train": [0, 2], "test": [1]},
                    "iterations": [
                        {"description": "Notes.", "train_passed": 1, "train_total": 2, "test_passed": 0, "test_total": 1},
                        {"description": "Fills PDF forms. Use when the user mentions a PDF.", "train_passed": 2, "train_total": 2, "test_passed": 1, "test_total": 1},
                    ],
                    "best": 1,
                    "warnings": [],
                },
                "best_description": "Fills PDF forms. Use when the user mentions a PDF.",
                "improved": true,
                "summary": "rewrite 1 passes 1/1 test and 2/2 train queries (the file's description: 0/1 and 1/2)",
                "uri": "file:///work/skills/pdf/SKILL.md",
                "current": "---\nname: pdf\ndescription: Notes.\n---\n",
                "proposed": "---\nname: pdf\ndescription: Fills PDF forms. Use when the user mentions a PDF.\n---\n",
                "edit": {"documentChanges": [{
                    "textDocument": {"uri": "file:///work/skills/pdf/SKILL.md", "version": 4},
                    "edits": [{
                        "range": {"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 19}},
                        "newText": "Fills PDF forms. Use when the user mentions a PDF.",
                    }],
                }]},
            })),
        )],
        ext::EVAL_RESULT: [notification(ext::EvalResultParams {
            skill: "pdf".into(),
            uri: "file:///work/skills/pdf/SKILL.md".into(),
            result: eval_result,
        })],
        "textDocument/codeLens": [exchange(
            json!({"textDocument": {"uri": "file:///work/skills/pdf/SKILL.md"}}),
            json!([{
                "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 11}},
                "command": {
                    "title": "Trigger evals: 0/1 \u{2014} 1 missed, 1 undecided",
                    "command": ext::RUN_TRIGGER_EVALS_COMMAND,
                    "arguments": [{"skill": "pdf", "uri": "file:///work/skills/pdf/SKILL.md"}],
                },
            }]),
        )],
    })
}

/// Every kind of `skill/agentEvent` reads back as the enum it was written from.
#[test]
fn agent_events_round_trip() {
    for message in messages()[ext::AGENT_EVENT].as_array().unwrap() {
        let params: AgentEventParams = serde_json::from_value(message["params"].clone()).unwrap();
        assert_eq!(serde_json::to_value(&params).unwrap(), message["params"]);
    }
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
        "docs/protocol/messages.json is stale: run UPDATE_DOCS=1 cargo test --test it protocol::"
    );
}

/// `docs/protocol.md` describes every message of the snapshot and names every string an editor
/// matches on.
#[test]
fn protocol_doc_describes_every_message() {
    let doc = fs::read_to_string(Path::new(ROOT).join("docs/protocol.md")).unwrap();
    let messages = messages();
    let methods = messages.as_object().unwrap().keys().map(String::as_str);
    let strings = ext::APPROVAL_ACTIONS.into_iter().chain([
        ext::FIX_ALL_KIND,
        ext::AGENT_PROGRESS_TITLE,
        ext::STOP_CANCELLED,
        ext::EVAL_PROGRESS_TITLE,
        ext::RUN_TRIGGER_EVALS_COMMAND,
        ext::TRIGGER_EVALS_CODE,
    ]);
    for name in methods.chain(strings) {
        assert!(
            doc.contains(&format!("`{name}`")),
            "docs/protocol.md does not mention `{name}`"
        );
    }
    for kind in ["text", "toolCall", "toolResult", "done", "error"] {
        assert!(doc.contains(&format!("| `{kind}` |")), "no row for {kind}");
    }
}
