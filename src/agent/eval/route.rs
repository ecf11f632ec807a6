//! One run of the routing step: the real system prompt, the tools and the query, up to
//! `max_turns` model calls, each abandoned as soon as its first tool call is complete.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;
use tokio::sync::Notify;

use super::report::RunRecord;
use crate::agent::provider::{
    Block, Message, Provider, ProviderError, Request, Role, StreamEvent, ToolSpec, Usage,
};

/// The tool result the model gets for a tool other than `load_skill` when it may look around.
pub(crate) const NOT_AVAILABLE: &str =
    "This tool is not available during evals; nothing was run. Continue without it.";

/// The first complete tool call of a reply.
struct Call {
    id: String,
    name: String,
    input: Value,
}

/// How often a run is started again after its stream broke mid-reply.
pub(crate) const MID_STREAM_RESTARTS: u32 = 2;

/// One run of the routing step for `query`: up to `max_turns` model calls, each abandoned as
/// soon as its first tool call is complete.
///
/// The provider retries a failed call until part of its reply has streamed (after that, a chat
/// would show the text twice). Nobody sees an eval's text, so a run whose stream broke with a
/// retryable error after it started is run again from the start, up to
/// [`MID_STREAM_RESTARTS`] times.
///
/// # Errors
/// A model call that failed after the provider's retries (and the restarts above).
pub(crate) async fn route(
    provider: &dyn Provider,
    system: &str,
    tools: &[ToolSpec],
    query: &str,
    limits: Limits,
) -> Result<RunRecord, ProviderError> {
    let mut restarts = 0;
    loop {
        match route_once(provider, system, tools, query, limits).await {
            Ok(mut record) => {
                record.restarts = restarts;
                return Ok(record);
            }
            Err((error, true)) if error.is_retryable() && restarts < MID_STREAM_RESTARTS => {
                restarts += 1;
                tracing::debug!(restarts, %error, "eval run restarted after its stream broke");
                tokio::time::sleep(std::time::Duration::from_millis(200 * u64::from(restarts)))
                    .await;
            }
            Err((error, _)) => return Err(error),
        }
    }
}

/// One try of [`route`]; an error says whether part of the reply had streamed.
async fn route_once(
    provider: &dyn Provider,
    system: &str,
    tools: &[ToolSpec],
    query: &str,
    limits: Limits,
) -> Result<RunRecord, (ProviderError, bool)> {
    let mut record = RunRecord::default();
    let mut messages = vec![Message {
        role: Role::User,
        content: vec![Block::Text {
            text: query.to_owned(),
        }],
    }];
    for turn in 1..=limits.max_turns.max(1) {
        record.turns = turn;
        let first: Mutex<Option<(Call, Usage)>> = Mutex::new(None);
        let decided = Notify::new();
        let streamed = AtomicBool::new(false);
        let finished = {
            let mut sink = |event: StreamEvent| {
                streamed.store(true, Ordering::Relaxed);
                if let StreamEvent::ToolUse {
                    id,
                    name,
                    input,
                    usage,
                } = event
                {
                    let mut slot = first
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    if slot.is_none() {
                        *slot = Some((Call { id, name, input }, usage));
                        decided.notify_one();
                    }
                }
            };
            let request = Request {
                model: provider.model(),
                system,
                messages: &messages,
                tools,
                max_tokens: limits.max_tokens,
            };
            let send = provider.send(request, &mut sink);
            // Dropping `send` drops the HTTP request: the rest of the reply is never read.
            tokio::select! {
                biased;
                result = send => Some(result),
                () = decided.notified() => None,
            }
        };
        let first = first
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let call = match (first, finished) {
            (Some((call, usage)), finished) => {
                let whole = finished.and_then(Result::ok);
                record.abandoned = whole.is_none();
                let usage = whole.map_or(usage, |response| response.usage);
                record.input_tokens += usage.input_tokens;
                record.output_tokens += usage.output_tokens;
                call
            }
            (None, Some(Ok(response))) => {
                record.input_tokens += response.usage.input_tokens;
                record.output_tokens += response.usage.output_tokens;
                let call = response.content.into_iter().find_map(|block| match block {
                    Block::ToolUse { id, name, input } => Some(Call { id, name, input }),
                    _ => None,
                });
                match call {
                    Some(call) => call,
                    // A reply without tools: the model answered without loading anything, or
                    // the token limit stopped it first.
                    None => {
                        record.cut = response.stop_reason == "max_tokens";
                        return Ok(record);
                    }
                }
            }
            (None, Some(Err(error))) => return Err((error, streamed.load(Ordering::Relaxed))),
            (None, None) => unreachable!("the stream is only abandoned after a tool call"),
        };
        record.tools.push(call.name.clone());
        if call.name == "load_skill" {
            record.loaded = call
                .input
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_owned);
            return Ok(record);
        }
        messages.push(Message {
            role: Role::Assistant,
            content: vec![Block::ToolUse {
                id: call.id.clone(),
                name: call.name,
                input: call.input,
            }],
        });
        messages.push(Message {
            role: Role::User,
            content: vec![Block::ToolResult {
                tool_use_id: call.id,
                content: NOT_AVAILABLE.to_owned(),
                is_error: true,
            }],
        });
    }
    Ok(record)
}

/// The default token limit of a routing request: the first tool call is all an eval reads, and
/// a model that reasons in text first needs a few hundred tokens, not the agent's thousands.
pub(crate) const ROUTING_MAX_TOKENS: u32 = 1_024;

/// The routing requests' token limit: `flag` (`--max-tokens`), else [`ROUTING_MAX_TOKENS`] or
/// the agent's limit (`SKILL_LSP_MAX_TOKENS`, `[agent] max-tokens`) where that is lower.
///
/// # Errors
/// As [`crate::agent::session::max_tokens`].
pub(crate) fn routing_max_tokens(
    env: &dyn Fn(&str) -> Option<String>,
    flag: Option<u32>,
    config: Option<u32>,
) -> Result<u32, String> {
    match flag {
        Some(tokens) => Ok(tokens),
        None => Ok(crate::agent::session::max_tokens(env, None, config)?.min(ROUTING_MAX_TOKENS)),
    }
}

/// How far one run may go: model calls, and tokens per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_turns: u32,
    pub max_tokens: u32,
}
