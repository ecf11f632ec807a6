//! One run of the routing step: the real system prompt, the tools and the query, up to
//! `max_turns` model calls, each abandoned as soon as its first tool call is complete; between
//! them the model's look around the workspace is answered read-only.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::Notify;

use super::report::RunRecord;
use crate::agent::provider::{
    Block, Message, Provider, ProviderError, Request, Role, StreamEvent, ToolSpec, Usage,
};
use crate::agent::tools;

/// The tool result the model gets for a tool that would change something or run a command
/// (`bash`, `write_file`, `edit_file`) when it may look around: neutral, so it neither scares the
/// model off nor invites a retry.
pub(crate) const NOT_AVAILABLE: &str =
    "This tool is not available during evals; nothing was run. Continue without it.";

/// The answer to a call other than `load_skill` within a run: what the agent would see of the
/// workspace, read-only. Listing and reading files run for real, inside the workspace as in a
/// chat; anything that would change something or run a command is refused with
/// [`NOT_AVAILABLE`]. Models look before they load; the run goes on and counts the load.
fn look_around(workspace: &Path, name: &str, input: &Value) -> (String, bool) {
    let output = match tools::Tool::parse(name) {
        Some(tools::Tool::ReadFile) => tools::files::read_file(workspace, input),
        Some(tools::Tool::Glob) => tools::files::glob(workspace, input),
        _ => return (NOT_AVAILABLE.to_owned(), true),
    };
    let mut content = output.content;
    // Enough to decide what to do next; the whole file would only make the next call dearer.
    if let Some((cut, _)) = content.char_indices().nth(LOOK_AROUND_CHARS) {
        content.truncate(cut);
        content.push_str("\n… (cut: evals show the first 2,000 characters)");
    }
    (content, output.is_error)
}

/// The size of a run's first request as `--dry-run` measures it: the system prompt, the tool
/// specs as JSON and the query. Not the bytes on the wire (each provider wraps them its own
/// way), but the same measure on both sides of the calibration.
pub(crate) fn request_bytes(system: &str, tools: &[ToolSpec], query: &str) -> u64 {
    let specs: usize = tools
        .iter()
        .map(|tool| tool.name.len() + tool.description.len() + tool.input_schema.to_string().len())
        .sum();
    (system.len() + specs + query.len()) as u64
}

/// How much of a listing or a file the model sees between the turns of an eval run.
const LOOK_AROUND_CHARS: usize = 2_000;

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
/// `None` when the eval's request budget ran out before the run was complete: such a run is
/// not counted.
///
/// # Errors
/// A model call that failed after the provider's retries (and the restarts above).
pub(crate) async fn route(
    provider: &dyn Provider,
    system: &str,
    tools: &[ToolSpec],
    query: &str,
    limits: Limits,
) -> Result<Option<RunRecord>, ProviderError> {
    let mut restarts = 0;
    loop {
        match route_once(provider, system, tools, query, &limits).await {
            Ok(Some(mut record)) => {
                record.restarts = restarts;
                return Ok(Some(record));
            }
            Ok(None) => return Ok(None),
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
    limits: &Limits,
) -> Result<Option<RunRecord>, (ProviderError, bool)> {
    let mut record = RunRecord {
        request_bytes: request_bytes(system, tools, query),
        ..RunRecord::default()
    };
    let mut messages = vec![Message {
        role: Role::User,
        content: vec![Block::Text {
            text: query.to_owned(),
        }],
    }];
    for turn in 1..=limits.max_turns.max(1) {
        if !limits.take_request() {
            return Ok(None);
        }
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
                        return Ok(Some(record));
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
            return Ok(Some(record));
        }
        let (name, input) = (call.name, call.input);
        messages.push(Message {
            role: Role::Assistant,
            content: vec![Block::ToolUse {
                id: call.id.clone(),
                name: name.clone(),
                input: input.clone(),
            }],
        });
        let (content, is_error) = look_around(&limits.workspace, &name, &input);
        messages.push(Message {
            role: Role::User,
            content: vec![Block::ToolResult {
                tool_use_id: call.id,
                content,
                is_error,
            }],
        });
    }
    Ok(Some(record))
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

/// How far one run may go: model calls, and tokens per call; and the requests the whole eval
/// may still send, shared by its runs (`--max-requests`), if capped.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    pub max_turns: u32,
    pub max_tokens: u32,
    pub budget: Option<Arc<RequestBudget>>,
    /// The workspace the model may look at between turns.
    pub workspace: Arc<Path>,
}

impl Limits {
    /// Takes one model call from the budget; false when none is left.
    fn take_request(&self) -> bool {
        self.budget.as_ref().is_none_or(|budget| budget.take())
    }
}

/// The model calls an eval may still make: taken before each call, never below zero, so the
/// cap holds however many runs are in flight.
#[derive(Debug)]
pub(crate) struct RequestBudget(AtomicU64);

impl RequestBudget {
    pub(crate) fn new(requests: u64) -> Self {
        Self(AtomicU64::new(requests))
    }

    fn take(&self) -> bool {
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                left.checked_sub(1)
            })
            .is_ok()
    }

    /// Whether every request has been taken.
    pub(crate) fn spent(&self) -> bool {
        self.0.load(Ordering::SeqCst) == 0
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{LOOK_AROUND_CHARS, NOT_AVAILABLE, look_around};

    #[test]
    fn a_look_around_reads_the_workspace_cut_refuses_the_rest_and_stays_inside() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("long.txt"),
            "é".repeat(3 * LOOK_AROUND_CHARS),
        )
        .unwrap();
        let (text, is_error) = look_around(dir.path(), "read_file", &json!({"path": "long.txt"}));
        assert!(!is_error, "{text}");
        assert!(
            text.ends_with("(cut: evals show the first 2,000 characters)"),
            "{text}"
        );
        assert_eq!(text.matches('é').count(), LOOK_AROUND_CHARS);
        let (listing, _) = look_around(dir.path(), "glob", &json!({"pattern": "*.txt"}));
        assert!(listing.contains("long.txt"), "{listing}");
        let (outside, is_error) = look_around(
            dir.path(),
            "read_file",
            &json!({"path": "../../etc/passwd"}),
        );
        assert!(is_error && !outside.contains("root:"), "{outside}");
        for tool in ["bash", "write_file", "edit_file", "fly"] {
            assert_eq!(
                look_around(
                    dir.path(),
                    tool,
                    &json!({"command": "touch x", "path": "x"})
                ),
                (NOT_AVAILABLE.to_owned(), true)
            );
        }
        assert!(!dir.path().join("x").exists());
    }
}
