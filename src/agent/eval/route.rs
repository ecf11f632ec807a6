//! One run of the routing step: the real system prompt, the tools and the query, up to
//! `max_turns` model calls, each decided by its first complete tool call and read on only for a
//! short grace, for the usage the provider reports at the end; between them the model's look
//! around the workspace is answered read-only.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Notify;

use super::estimate::Calibration;
use super::report::RunRecord;
use crate::agent::provider::{
    Block, Message, Provider, ProviderError, Request, Role, StreamEvent, ToolSpec, Usage,
};
use crate::agent::tools;

/// How long a call's stream is read on after its first tool call is complete, at least, for
/// the usage the provider reports only at the end of a reply (an OpenAI-compatible server in its
/// last chunk, Anthropic its output tokens in `message_delta`). A reply that ends at its call
/// ends well within it; one that does not is dropped when it runs out, its usage estimated.
pub(crate) const USAGE_GRACE: Duration = Duration::from_secs(2);

/// The longest grace: a slow model gets half the time its call took to come (a few tokens end a
/// reply after its call, against the call's few dozen and the prompt), but never more than this.
pub(crate) const USAGE_GRACE_MAX: Duration = Duration::from_secs(30);

/// The grace after a call that came `so_far` after its request was sent.
fn usage_grace(so_far: Duration) -> Duration {
    (so_far / 2).clamp(USAGE_GRACE, USAGE_GRACE_MAX)
}

/// How much more of a reply (text, further calls, in bytes) the grace reads after the first
/// call: a model that goes on writing is dropped there rather than waited for.
pub(crate) const USAGE_GRACE_BYTES: usize = 512;

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

/// The size of any request of a run by the same measure: the system prompt, the tool specs and
/// every message's text, calls and results so far.
fn turn_bytes(system: &str, tools: &[ToolSpec], messages: &[Message]) -> u64 {
    let messages: usize = messages
        .iter()
        .flat_map(|message| &message.content)
        .map(|block| match block {
            Block::Text { text } => text.len(),
            Block::ToolUse { name, input, .. } => name.len() + input.to_string().len(),
            Block::ToolResult { content, .. } => content.len(),
        })
        .sum();
    request_bytes(system, tools, "") + messages as u64
}

/// The bytes of a reply a streamed piece carries: its text, a call's name or its input.
fn event_bytes(event: &StreamEvent) -> usize {
    match event {
        StreamEvent::Text(text) => text.len(),
        StreamEvent::ToolUseStart { name, .. } => name.len(),
        StreamEvent::ToolUse { input, .. } => input.to_string().len(),
        StreamEvent::Retry { .. } => 0,
    }
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

/// One run of the routing step for `query`: up to `max_turns` model calls, each decided by its
/// first complete tool call. The stream is then read on for [`usage_grace`] (at most
/// [`USAGE_GRACE_BYTES`] more of the reply) for the usage the provider reports at its end, and
/// dropped: a reply that ends there is counted as reported, any other is estimated and the
/// record says so (`usage_estimated`).
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
        let overrun = Notify::new();
        let streamed = AtomicBool::new(false);
        // The reply's bytes so far, and those after the deciding call.
        let (reply_bytes, after_call) = (AtomicUsize::new(0), AtomicUsize::new(0));
        // How long after the request was sent the call was complete.
        let (sent, call_after) = (Instant::now(), OnceLock::new());
        let finished = {
            let mut sink = |event: StreamEvent| {
                streamed.store(true, Ordering::Relaxed);
                let bytes = event_bytes(&event);
                reply_bytes.fetch_add(bytes, Ordering::Relaxed);
                let mut slot = first
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if slot.is_some() {
                    if after_call.fetch_add(bytes, Ordering::Relaxed) + bytes > USAGE_GRACE_BYTES {
                        overrun.notify_one();
                    }
                } else if let StreamEvent::ToolUse {
                    id,
                    name,
                    input,
                    usage,
                } = event
                {
                    *slot = Some((Call { id, name, input }, usage));
                    let _ = call_after.set(sent.elapsed());
                    decided.notify_one();
                }
            };
            let request = Request {
                model: provider.model(),
                system,
                messages: &messages,
                tools,
                max_tokens: limits.max_tokens,
            };
            let mut send = provider.send(request, &mut sink);
            let decided_first = tokio::select! {
                biased;
                result = &mut send => Some(result),
                () = decided.notified() => None,
            };
            // The call is decided: read on for the usage at the end of the reply, within the
            // grace. Dropping `send` drops the HTTP request: the rest is never read.
            match decided_first {
                Some(result) => Some(result),
                None => tokio::select! {
                    biased;
                    result = &mut send => Some(result),
                    () = overrun.notified() => None,
                    () = tokio::time::sleep(usage_grace(
                        call_after.get().copied().unwrap_or_default()
                    )) => None,
                },
            }
        };
        let first = first
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // What the provider reported, or (for a stream dropped or broken before its usage, or
        // a server that reports none) our estimate from the bytes sent and received.
        let mut count = |usage: Option<Usage>, so_far: Usage| {
            let usage = match usage.filter(|usage| usage.input_tokens > 0) {
                Some(usage) => usage,
                None => {
                    record.usage_estimated = true;
                    let sent = turn_bytes(system, tools, &messages);
                    let received = reply_bytes.load(Ordering::Relaxed) as u64;
                    Usage {
                        input_tokens: match so_far.input_tokens {
                            0 => limits.calibration.tokens_of(sent),
                            reported => reported,
                        },
                        output_tokens: so_far
                            .output_tokens
                            .max(limits.calibration.tokens_of(received)),
                    }
                }
            };
            record.input_tokens += usage.input_tokens;
            record.output_tokens += usage.output_tokens;
        };
        let call = match (first, finished) {
            (Some((call, so_far)), finished) => {
                record.abandoned |= finished.is_none();
                let whole = finished.and_then(Result::ok);
                count(whole.map(|response| response.usage), so_far);
                call
            }
            (None, Some(Ok(response))) => {
                count(Some(response.usage), Usage::default());
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
    /// The model's tokens per byte, for the usage of a call whose stream did not report it.
    pub calibration: Calibration,
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
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use serde_json::json;

    use super::{
        LOOK_AROUND_CHARS, Limits, NOT_AVAILABLE, USAGE_GRACE, USAGE_GRACE_MAX, look_around,
        request_bytes, route, usage_grace,
    };
    use crate::agent::eval::estimate::Calibration;
    use crate::agent::provider::{
        Block, BoxFuture, Provider, ProviderError, Request, Response, Sink, StreamEvent, Usage,
    };

    /// What a reply does after its `load_skill` call has streamed.
    #[derive(Clone, Copy)]
    enum After {
        /// Ends after `delay`, reporting this usage.
        Ends(Duration, Usage),
        /// Streams a line of text every 10 ms, never ending.
        Writes,
    }

    /// A provider that streams one `load_skill` call (with no usage yet, as OpenAI-compatible
    /// servers do), then does what `after` says.
    struct Calls(After);

    impl Provider for Calls {
        fn name(&self) -> &str {
            "test"
        }
        fn model(&self) -> &str {
            "test-model"
        }
        fn endpoint(&self) -> &str {
            "test"
        }
        fn send<'a>(
            &'a self,
            _request: Request<'a>,
            sink: Sink<'a>,
        ) -> BoxFuture<'a, Result<Response, ProviderError>> {
            let after = self.0;
            Box::pin(async move {
                let input = json!({"name": "pdf"});
                sink(StreamEvent::ToolUse {
                    id: "t1".into(),
                    name: "load_skill".into(),
                    input: input.clone(),
                    usage: Usage::default(),
                });
                match after {
                    After::Ends(delay, usage) => {
                        tokio::time::sleep(delay).await;
                        Ok(Response {
                            content: vec![Block::ToolUse {
                                id: "t1".into(),
                                name: "load_skill".into(),
                                input,
                            }],
                            stop_reason: "tool_use".into(),
                            usage,
                            cut_tool: None,
                        })
                    }
                    After::Writes => loop {
                        sink(StreamEvent::Text(
                            "and now a long explanation of what the skill does. ".into(),
                        ));
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    },
                }
            })
        }
    }

    fn limits(workspace: &std::path::Path) -> Limits {
        Limits {
            max_turns: 1,
            max_tokens: 100,
            budget: None,
            workspace: Arc::from(workspace),
            calibration: Calibration::default(),
        }
    }

    #[test]
    fn a_slow_reply_gets_a_longer_grace_within_bounds() {
        let seconds = Duration::from_secs;
        assert_eq!(usage_grace(Duration::from_millis(300)), USAGE_GRACE);
        assert_eq!(usage_grace(seconds(45)), seconds(45) / 2);
        assert_eq!(usage_grace(seconds(600)), USAGE_GRACE_MAX);
    }

    #[tokio::test]
    async fn usage_after_the_call_is_waited_for_and_a_model_that_writes_on_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let reported = Usage {
            input_tokens: 1234,
            output_tokens: 56,
        };
        let provider = Calls(After::Ends(Duration::from_millis(100), reported));
        let record = route(&provider, "system", &[], "q", limits(dir.path()))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(record.loaded.as_deref(), Some("pdf"));
        assert_eq!((record.input_tokens, record.output_tokens), (1234, 56));
        assert!(!record.usage_estimated && !record.abandoned, "{record:?}");

        // Text after the call: dropped once the grace's bytes are read, long before its time.
        let started = Instant::now();
        let record = route(
            &Calls(After::Writes),
            "system",
            &[],
            "q",
            limits(dir.path()),
        )
        .await
        .unwrap()
        .unwrap();
        assert!(
            started.elapsed() < USAGE_GRACE / 2,
            "{:?}",
            started.elapsed()
        );
        assert_eq!(record.loaded.as_deref(), Some("pdf"));
        assert!(record.usage_estimated && record.abandoned, "{record:?}");
        // At the rough bytes per token: the request, and the call and text that streamed.
        assert_eq!(
            record.input_tokens,
            Calibration::default().tokens_of(request_bytes("system", &[], "q"))
        );
        assert!(record.output_tokens > 512 / 4, "{record:?}");
    }

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
