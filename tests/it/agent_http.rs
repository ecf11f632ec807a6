//! The model providers against a scripted HTTP server on 127.0.0.1 (design.md §8.4: the agent is
//! tested offline): streaming, request shapes, retries, errors, timeouts, cancellation, and that
//! the key shows up nowhere but in its header.

use crate::scripted_server;

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use skill_lsp::agent::provider::anthropic::Anthropic;
use skill_lsp::agent::provider::openai::OpenAi;
use skill_lsp::agent::provider::retry::RetryPolicy;
use skill_lsp::agent::provider::{
    ApiKey, Block, HttpSettings, Message, Provider, ProviderError, Request, Response, Role,
    StreamEvent, ToolSpec, Unset, from_env, from_env_with,
};

use scripted_server::{End, Reply, Server};

const PLANTED: &str = "sk-ant-test-PLANTED-KEY-123";

/// An Anthropic stream with text (multi-byte characters included) and a tool call whose input
/// arrives in three pieces.
const ANTHROPIC_STREAM: &str = include_str!("../streams/anthropic-text-and-split-tool.sse");

const SHORT_STREAM: &str = include_str!("../streams/anthropic-short-text.sse");

const OPENAI_STREAM: &str = include_str!("../streams/openai-text-and-two-split-tools.sse");

// ---- helpers ----

fn env_of(pairs: Vec<(&str, String)>) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
    move |name| map.get(name).cloned()
}

/// An Anthropic provider for `server`, with fast retries.
fn anthropic(server: &Server, extra: &[(&str, &str)]) -> Box<dyn Provider> {
    let mut pairs = vec![
        ("ANTHROPIC_API_KEY", PLANTED.to_owned()),
        ("ANTHROPIC_BASE_URL", server.url()),
        ("MODEL_ID", "claude-test".to_owned()),
        ("SKILL_LSP_RETRY_BASE_MS", "5".to_owned()),
        ("SKILL_LSP_TIMEOUT_MS", "5000".to_owned()),
    ];
    pairs.extend(
        extra
            .iter()
            .map(|(name, value)| (*name, (*value).to_owned())),
    );
    from_env(&env_of(pairs), None, None).expect("the provider is configured")
}

fn openai(server: &Server, key: Option<&str>) -> Box<dyn Provider> {
    let mut pairs = vec![
        ("OPENAI_BASE_URL", format!("{}/v1", server.url())),
        ("MODEL_ID", "qwen-test".to_owned()),
        ("SKILL_LSP_RETRY_BASE_MS", "5".to_owned()),
    ];
    if let Some(key) = key {
        pairs.push(("OPENAI_API_KEY", key.to_owned()));
    }
    from_env(&env_of(pairs), None, None).expect("the provider is configured")
}

fn text(text: &str) -> Block {
    Block::Text {
        text: text.to_owned(),
    }
}

/// A conversation with a finished tool round: a call and its (failed) result.
fn conversation() -> Vec<Message> {
    vec![
        Message {
            role: Role::User,
            content: vec![text("Fix the PDF skill")],
        },
        Message {
            role: Role::Assistant,
            content: vec![
                text("Running it."),
                Block::ToolUse {
                    id: "toolu_A".to_owned(),
                    name: "bash".to_owned(),
                    input: json!({"command": "make"}),
                },
                Block::ToolUse {
                    id: "toolu_B".to_owned(),
                    name: "read_file".to_owned(),
                    input: json!({"path": "SKILL.md"}),
                },
            ],
        },
        Message {
            role: Role::User,
            content: vec![
                Block::ToolResult {
                    tool_use_id: "toolu_A".to_owned(),
                    content: "denied by the user".to_owned(),
                    is_error: true,
                },
                Block::ToolResult {
                    tool_use_id: "toolu_B".to_owned(),
                    content: "---\nname: pdf\n---".to_owned(),
                    is_error: false,
                },
            ],
        },
    ]
}

fn tools() -> Vec<ToolSpec> {
    [
        "bash",
        "read_file",
        "write_file",
        "edit_file",
        "glob",
        "load_skill",
    ]
    .into_iter()
    .map(|name| ToolSpec {
        name: name.to_owned(),
        description: format!("The {name} tool."),
        input_schema: json!({"type": "object", "properties": {}}),
    })
    .collect()
}

/// Sends the standard conversation and collects the streamed events.
async fn send(provider: &dyn Provider) -> (Result<Response, ProviderError>, Vec<StreamEvent>) {
    let messages = conversation();
    let tools = tools();
    let mut events = Vec::new();
    let mut sink = |event: StreamEvent| events.push(event);
    let result = provider
        .send(
            Request {
                model: provider.model(),
                system: "You are a coding agent.",
                messages: &messages,
                tools: &tools,
                max_tokens: 1024,
            },
            &mut sink,
        )
        .await;
    (result, events)
}

fn streamed_text(events: &[StreamEvent]) -> String {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Text(text) => Some(text.as_str()),
            StreamEvent::ToolUseStart { .. }
            | StreamEvent::ToolUse { .. }
            | StreamEvent::Retry { .. } => None,
        })
        .collect()
}

// ---- Anthropic ----

#[tokio::test]
async fn anthropic_streams_text_and_assembles_split_tool_input() {
    let server = Server::start(vec![Reply::sse(ANTHROPIC_STREAM)]);
    let provider = anthropic(&server, &[]);
    let (result, events) = send(&*provider).await;
    let response = result.unwrap();

    assert_eq!(
        response.content,
        [
            text("Loading the pdf skill — ✓ 😀"),
            Block::ToolUse {
                id: "toolu_01".to_owned(),
                name: "load_skill".to_owned(),
                input: json!({"name": "pdf", "note": "é"}),
            },
        ]
    );
    assert_eq!(response.stop_reason, "tool_use");
    assert_eq!(
        (response.usage.input_tokens, response.usage.output_tokens),
        (321, 57)
    );
    assert_eq!(streamed_text(&events), "Loading the pdf skill — ✓ 😀");
    assert_eq!(
        events
            .iter()
            .rfind(|event| matches!(event, StreamEvent::ToolUseStart { .. })),
        Some(&StreamEvent::ToolUseStart {
            id: "toolu_01".to_owned(),
            name: "load_skill".to_owned()
        })
    );
    assert!(
        matches!(events.last(), Some(StreamEvent::ToolUse { name, input, .. }) if name == "load_skill" && input["name"] == "pdf"),
        "{events:?}"
    );

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some(PLANTED));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("authorization"), None);
}

#[tokio::test]
async fn anthropic_request_body_has_system_tools_and_tool_results() {
    let server = Server::start(vec![Reply::sse(SHORT_STREAM)]);
    let provider = anthropic(&server, &[]);
    let (result, _) = send(&*provider).await;
    assert_eq!(result.unwrap().content, [text("done")]);

    let body = server.requests()[0].json();
    assert_eq!(body["model"], "claude-test");
    assert_eq!(body["max_tokens"], 1024);
    assert_eq!(body["system"], "You are a coding agent.");
    assert_eq!(body["stream"], true);
    let tool_names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tool_names,
        [
            "bash",
            "read_file",
            "write_file",
            "edit_file",
            "glob",
            "load_skill"
        ]
    );
    assert_eq!(
        body["tools"][0],
        json!({"name": "bash", "description": "The bash tool.", "input_schema": {"type": "object", "properties": {}}})
    );
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "Fix the PDF skill"}]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Running it."},
                {"type": "tool_use", "id": "toolu_A", "name": "bash", "input": {"command": "make"}},
                {"type": "tool_use", "id": "toolu_B", "name": "read_file", "input": {"path": "SKILL.md"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_A", "content": "denied by the user", "is_error": true},
                {"type": "tool_result", "tool_use_id": "toolu_B", "content": "---\nname: pdf\n---", "is_error": false}
            ]}
        ])
    );
}

// ---- OpenAI-compatible ----

#[tokio::test]
async fn openai_streams_text_and_assembles_split_tool_arguments() {
    let server = Server::start(vec![Reply::sse(OPENAI_STREAM)]);
    let provider = openai(&server, Some("sk-openai-PLANTED"));
    let (result, events) = send(&*provider).await;
    let response = result.unwrap();

    assert_eq!(
        response.content,
        [
            text("Reading — ✓ 😀"),
            Block::ToolUse {
                id: "call_a".to_owned(),
                name: "read_file".to_owned(),
                input: json!({"path": "SKILL.md"}),
            },
            Block::ToolUse {
                id: "call_b".to_owned(),
                name: "glob".to_owned(),
                input: json!({"pattern": "*.md"}),
            },
        ]
    );
    assert_eq!(response.stop_reason, "tool_use");
    assert_eq!(
        (response.usage.input_tokens, response.usage.output_tokens),
        (90, 33)
    );
    assert_eq!(streamed_text(&events), "Reading — ✓ 😀");
    let starts: Vec<&StreamEvent> = events
        .iter()
        .filter(|event| matches!(event, StreamEvent::ToolUseStart { .. }))
        .collect();
    assert_eq!(starts.len(), 2);

    let request = &server.requests()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(
        request.header("authorization"),
        Some("Bearer sk-openai-PLANTED")
    );
    assert_eq!(request.header("x-api-key"), None);
}

#[tokio::test]
async fn openai_request_body_has_system_tools_and_tool_messages() {
    let stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let server = Server::start(vec![Reply::sse(stream)]);
    let provider = openai(&server, None);
    let (result, _) = send(&*provider).await;
    let response = result.unwrap();
    assert_eq!(response.content, [text("ok")]);
    assert_eq!(response.stop_reason, "end_turn");

    let request = &server.requests()[0];
    assert_eq!(request.header("authorization"), None);
    let body = request.json();
    assert_eq!(body["model"], "qwen-test");
    assert_eq!(body["stream"], true);
    let tool_names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tool_names,
        [
            "bash",
            "read_file",
            "write_file",
            "edit_file",
            "glob",
            "load_skill"
        ]
    );
    assert_eq!(
        body["tools"][0],
        json!({"type": "function", "function": {"name": "bash", "description": "The bash tool.", "parameters": {"type": "object", "properties": {}}}})
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages[0],
        json!({"role": "system", "content": "You are a coding agent."})
    );
    assert_eq!(
        messages[1],
        json!({"role": "user", "content": "Fix the PDF skill"})
    );
    assert_eq!(messages[2]["role"], "assistant");
    assert_eq!(messages[2]["content"], "Running it.");
    assert_eq!(
        messages[2]["tool_calls"][0],
        json!({"id": "toolu_A", "type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"make\"}"}})
    );
    let arguments: Value = serde_json::from_str(
        messages[2]["tool_calls"][1]["function"]["arguments"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(arguments, json!({"path": "SKILL.md"}));
    assert_eq!(messages[3]["role"], "tool");
    assert_eq!(messages[3]["tool_call_id"], "toolu_A");
    assert!(
        messages[3]["content"]
            .as_str()
            .unwrap()
            .contains("denied by the user")
    );
    assert_eq!(
        messages[4],
        json!({"role": "tool", "tool_call_id": "toolu_B", "content": "---\nname: pdf\n---"})
    );
    assert_eq!(messages.len(), 5);
}

#[tokio::test]
async fn openai_401_without_a_key_says_to_set_openai_api_key() {
    let server = Server::start(vec![Reply::json(
        401,
        &json!({"error": {"message": "You didn't provide an API key.", "type": "invalid_request_error"}}),
    )]);
    let provider = openai(&server, None);
    let error = send(&*provider).await.0.unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ProviderError::Http { status: 401, .. }),
        "{message}"
    );
    assert!(message.contains("OPENAI_API_KEY"), "{message}");
    assert_eq!(server.requests().len(), 1);
}

// ---- retries and errors ----

#[tokio::test]
async fn rate_limit_honours_retry_after_then_succeeds() {
    let server = Server::start(vec![
        Reply::json(
            429,
            &json!({"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}),
        )
        .with_header("retry-after", "1"),
        Reply::sse(SHORT_STREAM),
    ]);
    let provider = anthropic(&server, &[]);
    let started = Instant::now();
    let (result, events) = send(&*provider).await;
    assert_eq!(result.unwrap().content, [text("done")]);
    assert_eq!(streamed_text(&events), "done");
    assert_eq!(server.requests().len(), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited only {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn overloaded_storm_gives_up_after_the_last_attempt() {
    let overloaded = Reply::json(
        529,
        &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    );
    let server = Server::start(vec![overloaded; 6]);
    let provider = anthropic(&server, &[]);
    let error = send(&*provider).await.0.unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(
            error,
            ProviderError::Http {
                status: 529,
                retryable: true,
                ..
            }
        ),
        "{message}"
    );
    assert!(message.contains("529"), "{message}");
    assert!(message.contains("Overloaded"), "{message}");
    assert!(message.contains("4 attempts"), "{message}");
    assert_eq!(server.requests().len(), 4);
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_names_the_variable_not_the_key() {
    // The server echoes the key, as some do; it must not come back out.
    let server = Server::start(vec![Reply::json(
        401,
        &json!({"type": "error", "error": {"type": "authentication_error", "message": format!("invalid x-api-key {PLANTED}")}}),
    )]);
    let provider = anthropic(&server, &[]);
    let error = send(&*provider).await.0.unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(
            error,
            ProviderError::Http {
                status: 401,
                retryable: false,
                ..
            }
        ),
        "{message}"
    );
    assert!(message.contains("ANTHROPIC_API_KEY"), "{message}");
    assert!(message.contains("invalid x-api-key"), "{message}");
    assert!(!message.contains(PLANTED), "{message}");
    assert!(!format!("{error:?}").contains(PLANTED));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn other_client_errors_are_not_retried() {
    let server = Server::start(vec![Reply::json(
        400,
        &json!({"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: must be positive"}}),
    )]);
    let provider = anthropic(&server, &[]);
    let message = send(&*provider).await.0.unwrap_err().to_string();
    assert!(message.contains("400"), "{message}");
    assert!(
        message.contains("max_tokens: must be positive"),
        "{message}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn html_error_page_gives_a_clear_error_without_the_markup() {
    let page = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";
    let server = Server::start(vec![Reply::html(502, page), Reply::html(502, page)]);
    let provider = anthropic(&server, &[("SKILL_LSP_MAX_ATTEMPTS", "2")]);
    let error = send(&*provider).await.0.unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ProviderError::Http { status: 502, .. }),
        "{message}"
    );
    assert!(message.contains("502"), "{message}");
    assert!(message.contains("HTML error page"), "{message}");
    assert!(!message.contains('<'), "{message}");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn dropped_connection_is_retried() {
    let server = Server::start(vec![Reply::drop_connection(), Reply::sse(SHORT_STREAM)]);
    let provider = anthropic(&server, &[]);
    let (result, _) = send(&*provider).await;
    assert_eq!(result.unwrap().content, [text("done")]);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn stream_cut_inside_a_tool_input_is_a_protocol_error() {
    let cut_at = ANTHROPIC_STREAM.find("df\\\", \\\"note").unwrap();
    let server = Server::start(vec![
        Reply::sse_ending(&ANTHROPIC_STREAM[..cut_at], End::Cut),
        Reply::sse(SHORT_STREAM),
    ]);
    let provider = anthropic(&server, &[]);
    let (result, events) = send(&*provider).await;
    let error = result.unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, ProviderError::Protocol(_)), "{message}");
    assert!(message.contains("load_skill"), "{message}");
    // Part of the reply was already shown, so it is not tried again.
    assert!(!events.is_empty());
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn stream_ending_before_message_stop_is_a_protocol_error() {
    let cut_at = SHORT_STREAM.find("event: message_stop").unwrap();
    let server = Server::start(vec![Reply::sse(&SHORT_STREAM[..cut_at])]);
    let provider = anthropic(&server, &[]);
    let error = send(&*provider).await.0.unwrap_err();
    assert!(
        matches!(error, ProviderError::Protocol(ref message) if message.contains("message_stop")),
        "{error}"
    );
}

#[tokio::test]
async fn error_event_before_any_output_is_retried() {
    let overloaded = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let server = Server::start(vec![Reply::sse(overloaded), Reply::sse(SHORT_STREAM)]);
    let provider = anthropic(&server, &[]);
    let (result, _) = send(&*provider).await;
    assert_eq!(result.unwrap().content, [text("done")]);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn silent_server_times_out_within_the_configured_timeout() {
    let server = Server::start(vec![Reply::hang(), Reply::hang()]);
    let provider = anthropic(
        &server,
        &[
            ("SKILL_LSP_TIMEOUT_MS", "300"),
            ("SKILL_LSP_MAX_ATTEMPTS", "2"),
        ],
    );
    let started = Instant::now();
    let error = send(&*provider).await.0.unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(error, ProviderError::Timeout), "{error}");
    assert!(elapsed >= Duration::from_millis(600), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_server_reading_a_long_prompt_is_waited_for_after_its_headers() {
    // The first token comes three timeouts after the headers: a local model reading a long
    // prompt. One request, no timeout, no retry.
    let server = Server::start(vec![Reply::late(Duration::from_millis(900), SHORT_STREAM)]);
    let provider = anthropic(
        &server,
        &[
            ("SKILL_LSP_TIMEOUT_MS", "300"),
            ("SKILL_LSP_MAX_ATTEMPTS", "2"),
        ],
    );
    let (result, events) = send(&*provider).await;
    assert_eq!(result.unwrap().content, [text("done")]);
    assert_eq!(server.requests().len(), 1);
    assert!(
        !events
            .iter()
            .any(|it| matches!(it, StreamEvent::Retry { .. }))
    );
}

#[tokio::test]
async fn each_retry_is_announced_with_its_reason_before_the_wait() {
    let server = Server::start(vec![
        Reply::json(
            529,
            &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
        Reply::hang(),
        Reply::sse(SHORT_STREAM),
    ]);
    let provider = anthropic(&server, &[("SKILL_LSP_TIMEOUT_MS", "300")]);
    let (result, events) = send(&*provider).await;
    assert_eq!(result.unwrap().content, [text("done")]);
    let retries: Vec<(u32, u32, String)> = events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Retry {
                attempt,
                max_attempts,
                reason,
                ..
            } => Some((*attempt, *max_attempts, reason.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert_eq!((retries[0].0, retries[0].1), (2, 4));
    assert!(
        retries[0].2.contains("529") && retries[0].2.contains("Overloaded"),
        "{retries:?}"
    );
    assert_eq!(retries[1].0, 3);
    assert!(
        retries[1].2.contains("did not answer in time"),
        "{retries:?}"
    );
}

#[tokio::test]
async fn dropping_the_future_closes_the_connection() {
    let stalled = &SHORT_STREAM[..SHORT_STREAM.find("event: message_delta").unwrap()];
    let server = Server::start(vec![Reply::sse_ending(stalled, End::Stall)]);
    let provider = anthropic(&server, &[]);
    let outcome = tokio::time::timeout(Duration::from_millis(400), send(&*provider)).await;
    assert!(
        outcome.is_err(),
        "the stream never ends, so send must not finish"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.closed_by_client() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        server.closed_by_client(),
        1,
        "the connection stayed open after the future was dropped"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn oversized_response_is_cut_with_a_protocol_error() {
    let mut stream = String::from(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n",
    );
    while stream.len() < 20_000 {
        stream.push_str(": padding padding padding padding padding padding padding\n");
    }
    let server = Server::start(vec![Reply::sse(&stream)]);
    let settings = HttpSettings {
        max_response_bytes: 8_000,
        ..HttpSettings::default()
    };
    let provider =
        Anthropic::new(&server.url(), ApiKey::new(PLANTED), "claude-test", settings).unwrap();
    let error = send(&provider).await.0.unwrap_err();
    assert!(
        matches!(error, ProviderError::Protocol(ref message) if message.contains("larger than")),
        "{error}"
    );
}

#[tokio::test]
async fn slowloris_trickle_is_cut_at_the_response_deadline() {
    // Each byte comes well within the per-piece timeout; only the deadline can end it.
    let prefix = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n";
    let server = Server::start(vec![Reply::trickle(prefix, Duration::from_millis(10))]);
    let settings = HttpSettings {
        timeout: Duration::from_secs(5),
        deadline: Duration::from_millis(400),
        retry: RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        },
        ..HttpSettings::default()
    };
    let provider =
        Anthropic::new(&server.url(), ApiKey::new(PLANTED), "claude-test", settings).unwrap();
    let started = std::time::Instant::now();
    let error = send(&provider).await.0.unwrap_err();
    assert!(matches!(error, ProviderError::Timeout), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The connection was closed, not left trickling.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while server.closed_by_client() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the trickle was never hung up on"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn hundred_megabyte_response_stops_at_the_default_cap() {
    let prefix = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n";
    let server = Server::start(vec![Reply::flood(prefix, 100 * 1024 * 1024)]);
    let settings = HttpSettings::default();
    let cap = settings.max_response_bytes;
    assert!(cap < 100 * 1024 * 1024);
    let provider =
        Anthropic::new(&server.url(), ApiKey::new(PLANTED), "claude-test", settings).unwrap();
    let error = send(&provider).await.0.unwrap_err();
    assert!(
        matches!(error, ProviderError::Protocol(ref message) if message.contains(&format!("larger than {cap} bytes"))),
        "{error}"
    );
    // The client hung up long before the 100 MB were sent.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while server.closed_by_client() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the flood was read to the end"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// ---- configuration ----

#[tokio::test]
async fn missing_model_id_is_a_config_error_before_any_request() {
    let server = Server::start(vec![Reply::sse(SHORT_STREAM)]);
    let env = env_of(vec![
        ("ANTHROPIC_API_KEY", PLANTED.to_owned()),
        ("ANTHROPIC_BASE_URL", server.url()),
    ]);
    let error = match from_env(&env, None, None) {
        Err(error) => error,
        Ok(provider) => panic!("configured without MODEL_ID: {}", provider.name()),
    };
    let message = error.to_string();
    assert!(
        matches!(error, ProviderError::Unset(Unset::Model)),
        "{message}"
    );
    assert!(message.contains("MODEL_ID"), "{message}");
    assert!(!message.contains(PLANTED), "{message}");
    assert!(server.requests().is_empty());

    let env = env_of(vec![("MODEL_ID", "m".to_owned())]);
    let message = from_env_with(&env, None, None, HttpSettings::default())
        .err()
        .expect("no provider is configured")
        .to_string();
    assert!(message.contains("ANTHROPIC_API_KEY"), "{message}");
}

// ---- the key stays secret ----

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn planted_key_appears_in_no_error_debug_output_or_log() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = Server::start(vec![
        Reply::json(
            503,
            &json!({"error": {"message": format!("upstream rejected {PLANTED}")}}),
        ),
        Reply::json(
            403,
            &json!({"error": {"type": "permission_error", "message": format!("key {PLANTED} may not use this model")}}),
        ),
    ]);
    let provider = Anthropic::new(
        &server.url(),
        ApiKey::new(PLANTED),
        "claude-test",
        HttpSettings::from_env(&|name| (name == "SKILL_LSP_RETRY_BASE_MS").then(|| "5".to_owned())),
    )
    .unwrap();
    let debug = format!("{provider:?}");
    assert!(!debug.contains(PLANTED), "{debug}");
    assert!(!format!("{provider:#?}").contains(PLANTED));
    let openai = OpenAi::new(
        &server.url(),
        Some(ApiKey::new(PLANTED)),
        "gpt-test",
        HttpSettings::default(),
    )
    .unwrap();
    let debug = format!("{openai:?}");
    assert!(!debug.contains(PLANTED), "{debug}");

    let error = send(&provider).await.0.unwrap_err();
    assert!(
        matches!(error, ProviderError::Http { status: 403, .. }),
        "{error}"
    );
    for text in [error.to_string(), format!("{error:?}")] {
        assert!(!text.contains(PLANTED), "{text}");
    }
    assert_eq!(server.requests()[1].header("x-api-key"), Some(PLANTED));

    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(logs.contains("retrying"), "nothing was logged: {logs}");
    assert!(!logs.contains(PLANTED), "{logs}");
}
