//! Model providers (design.md §6), one job a module:
//!
//! - `types` — the conversation the agent loop speaks, the `Provider` trait, `ProviderError`;
//! - `selection` — which provider the environment asks for (`from_env`);
//! - `http` — `HttpProvider<W>`, the one HTTP provider, over a `WireFormat`; `decode` — the
//!   `Decoder` a wire format reads its stream with, and the helpers decoders share;
//! - `anthropic`, `openai` — the two wire formats and their decoders (`AnthropicDecoder`,
//!   `OpenAiDecoder`): what differs between the APIs and nothing else;
//! - `transport` — the HTTP client and one streamed exchange; `retry` — the retry loop, backoff
//!   and error replies; `sse` — the event-stream parser; `key` — `ApiKey`;
//! - `scripted` — test support: `ScriptedProvider`, a fake that replays scripted replies.
//!
//! Keys live in [`ApiKey`], which prints as `***`; no error, log line or `Debug` output built here
//! contains one.

pub mod anthropic;
mod decode;
mod http;
mod key;
pub mod openai;
pub mod retry;
#[doc(hidden)]
pub mod scripted;
mod selection;
pub mod sse;
mod transport;
mod types;

pub use decode::Decoder;
pub(crate) use decode::input_error;
pub use http::{HttpProvider, WireFormat};
pub use key::ApiKey;
pub use retry::RetryPolicy;
pub use selection::{from_env, from_env_with};
pub use transport::HttpSettings;
pub use types::{
    Block, BoxFuture, Message, Provider, ProviderError, Request, Response, Role, Sink, StreamEvent,
    ToolSpec, Unset, Usage,
};
