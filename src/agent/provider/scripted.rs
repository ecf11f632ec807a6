//! Test support: a provider that replays scripted responses and records every request, for tests
//! of the agent loop and its tools (unit and integration tests alike). Tests of the HTTP
//! providers use a real server instead (`tests/support/scripted_server.rs`).

use std::collections::VecDeque;
use std::sync::Mutex;

use super::{Block, BoxFuture, Message, Provider, ProviderError, Request, Response, Sink};
use super::{StreamEvent, ToolSpec};

/// What one request carried.
#[derive(Clone, Debug)]
pub struct Seen {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
}

/// Replays `replies` in order, streaming their text and tool calls to the sink, and records
/// each request.
/// Once the script is used up it answers `after_end`, or panics when there is none (the loop
/// asked the model more often than the test expected).
pub struct ScriptedProvider {
    replies: Mutex<VecDeque<Response>>,
    after_end: Option<Response>,
    /// Every request, in order.
    pub seen: Mutex<Vec<Seen>>,
}

impl ScriptedProvider {
    /// A provider that panics when asked for more than `replies`.
    #[must_use]
    pub fn new(replies: Vec<Response>) -> Self {
        Self {
            replies: Mutex::new(replies.into()),
            after_end: None,
            seen: Mutex::new(Vec::new()),
        }
    }

    /// The same, answering `reply` to every request after the script.
    #[must_use]
    pub fn then_always(mut self, reply: Response) -> Self {
        self.after_end = Some(reply);
        self
    }
}

impl Provider for ScriptedProvider {
    fn name(&self) -> &str {
        "scripted"
    }

    fn model(&self) -> &str {
        "scripted-model"
    }

    fn endpoint(&self) -> &str {
        "scripted"
    }

    fn send<'a>(
        &'a self,
        request: Request<'a>,
        sink: Sink<'a>,
    ) -> BoxFuture<'a, Result<Response, ProviderError>> {
        self.seen.lock().unwrap().push(Seen {
            system: request.system.to_owned(),
            messages: request.messages.to_vec(),
            tools: request.tools.to_vec(),
        });
        let next = self.replies.lock().unwrap().pop_front();
        let reply = next
            .or_else(|| self.after_end.clone())
            .expect("the scripted provider was asked for more replies than scripted");
        // Streamed as the HTTP providers stream: text, then each tool's start and completion.
        for block in &reply.content {
            match block {
                Block::Text { text } => sink(StreamEvent::Text(text.clone())),
                Block::ToolUse { id, name, input } => {
                    sink(StreamEvent::ToolUseStart {
                        id: id.clone(),
                        name: name.clone(),
                    });
                    sink(StreamEvent::ToolUse {
                        id: id.clone(),
                        name: name.clone(),
                        input: input.clone(),
                        usage: reply.usage,
                    });
                }
                Block::ToolResult { .. } => {}
            }
        }
        Box::pin(async move { Ok(reply) })
    }
}
