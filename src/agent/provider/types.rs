//! What the agent loop and the providers say to each other: the conversation (`Message`,
//! `Block`), one call (`Request`) and its reply (`Response`, `StreamEvent`), the `Provider` trait
//! and `ProviderError`. No HTTP here.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

/// One piece of a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Text {
        text: String,
    },
    /// Only in assistant messages.
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// Only in user messages.
    ToolResult {
        tool_use_id: String,
        content: String,
        is_error: bool,
    },
}

/// Who wrote a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

/// One turn of the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub role: Role,
    pub content: Vec<Block>,
}

/// A tool the model may call.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

/// Token counts of one response.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// One call to the model.
pub struct Request<'a> {
    pub model: &'a str,
    pub system: &'a str,
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
    pub max_tokens: u32,
}

/// The model's whole reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// Text and tool-use blocks in the order the model wrote them; empty text blocks are dropped.
    pub content: Vec<Block>,
    /// In Anthropic's words for both providers: `end_turn`, `tool_use`, `max_tokens`, ...
    pub stop_reason: String,
    pub usage: Usage,
    /// The tool whose call the token limit cut off (`stop_reason` `max_tokens`): its input is
    /// incomplete, so it is not in `content`; the calls before it are.
    pub cut_tool: Option<String>,
}

impl Response {
    /// The reply's text blocks joined, without its tool calls.
    #[must_use]
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|block| match block {
                Block::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// Streamed pieces, for live rendering.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    Text(String),
    ToolUseStart {
        id: String,
        name: String,
    },
    /// A tool call whose input is complete, sent as soon as it is: the rest of the reply may
    /// still be streaming. `usage` is what the stream had counted so far (the input tokens, for
    /// Anthropic; nothing yet, for OpenAI-compatible servers, which count at the end).
    ToolUse {
        id: String,
        name: String,
        input: Value,
        usage: Usage,
    },
    /// A try failed for `reason` and the request goes out again after `delay`, as try
    /// `attempt` of `max_attempts`: nothing of the reply had arrived, so it is not shown twice.
    Retry {
        attempt: u32,
        max_attempts: u32,
        delay: std::time::Duration,
        reason: String,
    },
}

/// Where streamed pieces go while a response comes in.
pub type Sink<'a> = &'a mut (dyn FnMut(StreamEvent) + Send);

/// A boxed future that can move between threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A chat model behind an API.
pub trait Provider: Send + Sync {
    /// `anthropic` or `openai`.
    fn name(&self) -> &str;
    /// The model every request is sent to.
    fn model(&self) -> &str;
    /// Where requests go (the URL, never a key): two servers may serve models of one name.
    fn endpoint(&self) -> &str;
    /// Sends one request, streaming text and tool starts to `sink`, and returns the whole
    /// response. Transient failures are retried inside (design.md §6) unless part of the reply
    /// already reached `sink`. Dropping the future drops the HTTP request.
    ///
    /// # Errors
    ///
    /// A [`ProviderError`] once the last try failed or the failure is not worth another.
    fn send<'a>(
        &'a self,
        request: Request<'a>,
        sink: Sink<'a>,
    ) -> BoxFuture<'a, Result<Response, ProviderError>>;
}

/// Why a request failed. No message contains an API key.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// No model, or no provider, is set: the message names what to set. Kept apart from
    /// [`Self::Config`] so a front end can point at its own setting instead.
    #[error("{}", .0.message())]
    Unset(Unset),
    /// A setting that cannot work (a malformed URL, a key that cannot go in a header).
    #[error("{0}")]
    Config(String),
    /// The server answered with an error status; `message` is the provider's own message.
    #[error("the model provider answered HTTP {status}: {message}")]
    Http {
        status: u16,
        message: String,
        retryable: bool,
    },
    /// No connection, or it dropped.
    #[error("could not reach the model provider: {0}")]
    Network(String),
    /// No answer (or no next piece of the stream) within the request timeout.
    #[error("the model provider did not answer in time")]
    Timeout,
    /// An answer that breaks the protocol: bad JSON, an HTML page, a stream cut mid-response.
    #[error("unexpected reply from the model provider: {0}")]
    Protocol(String),
}

/// What is missing before any model can be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unset {
    Model,
    Provider,
}

impl Unset {
    /// `model` or `provider`, as the protocol's error data names it.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Unset::Model => "model",
            Unset::Provider => "provider",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Unset::Model => {
                "no model is set: set MODEL_ID (or pass --model, or set model under [agent] in skill-lsp.toml) to the model to use"
            }
            Unset::Provider => {
                "no model provider is configured: set ANTHROPIC_API_KEY for Anthropic, or OPENAI_BASE_URL for an OpenAI-compatible server, and MODEL_ID"
            }
        }
    }
}

impl ProviderError {
    /// Whether another try may succeed.
    #[must_use]
    pub(crate) fn is_retryable(&self) -> bool {
        match self {
            Self::Http { retryable, .. } => *retryable,
            Self::Network(_) | Self::Timeout => true,
            Self::Unset(_) | Self::Config(_) | Self::Protocol(_) => false,
        }
    }

    /// The error to report after `attempts` tries: the count is named once there were several.
    pub(super) fn after_attempts(self, attempts: u32) -> Self {
        if attempts < 2 {
            return self;
        }
        match self {
            Self::Http {
                status,
                message,
                retryable,
            } => Self::Http {
                status,
                message: format!("{message} (gave up after {attempts} attempts)"),
                retryable,
            },
            Self::Network(message) => {
                Self::Network(format!("{message} (gave up after {attempts} attempts)"))
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ProviderError;

    #[test]
    fn error_messages_are_lowercase_without_a_full_stop() {
        let errors = [
            ProviderError::Unset(super::Unset::Model),
            ProviderError::Unset(super::Unset::Provider),
            ProviderError::Config("no model is set".to_owned()),
            ProviderError::Http {
                status: 529,
                message: "Overloaded".to_owned(),
                retryable: true,
            },
            ProviderError::Network("connection refused".to_owned()),
            ProviderError::Timeout,
            ProviderError::Protocol("bad".to_owned()),
        ];
        for error in errors {
            let text = error.to_string();
            assert!(text.starts_with(|it: char| it.is_lowercase()), "{text}");
            assert!(!text.ends_with('.'), "{text}");
        }
    }
}
