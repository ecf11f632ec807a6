//! Model providers (SPEC section 6): the conversation types the agent loop speaks, the `Provider`
//! trait, the choice of provider from the environment, and the HTTP exchange with retries that the
//! Anthropic and OpenAI-compatible providers share.
//!
//! Keys live in [`ApiKey`], which prints as `***`; no error, log line or `Debug` output built here
//! contains one.

pub mod anthropic;
pub mod key;
pub mod openai;
pub mod retry;
pub mod sse;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::HeaderMap;
use serde_json::Value;

pub use key::ApiKey;
pub use retry::RetryPolicy;

use sse::{SseEvent, SseParser};

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
}

/// Streamed pieces, for live rendering.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    Text(String),
    ToolUseStart { id: String, name: String },
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
    /// Sends one request, streaming text and tool starts to `sink`, and returns the whole
    /// response. Transient failures are retried inside (SPEC section 6) unless part of the reply
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
    /// The environment does not say which model or key to use; the message names the variable
    /// to set.
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

impl ProviderError {
    /// Whether another try may succeed.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Http { retryable, .. } => *retryable,
            Self::Network(_) | Self::Timeout => true,
            Self::Config(_) | Self::Protocol(_) => false,
        }
    }

    fn after_attempts(self, attempts: u32) -> Self {
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

/// How patient the HTTP layer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpSettings {
    /// The longest wait for the response headers, and for each next piece of a streamed body.
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// A response body larger than this is cut with a protocol error.
    pub max_response_bytes: usize,
    /// The longest a whole response may take, however steadily it trickles in: the per-piece
    /// `timeout` alone would let a server sending a byte a minute hold the chat forever.
    pub deadline: Duration,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(120),
            retry: RetryPolicy::default(),
            max_response_bytes: 32 * 1024 * 1024,
            deadline: Duration::from_secs(15 * 60),
        }
    }
}

impl HttpSettings {
    /// The defaults, changed by `SKILL_LSP_TIMEOUT_MS` (request timeout),
    /// `SKILL_LSP_DEADLINE_MS` (whole-response deadline), `SKILL_LSP_RETRY_BASE_MS` (first
    /// backoff wait) and `SKILL_LSP_MAX_ATTEMPTS` where set.
    #[must_use]
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Self {
        let number = |name: &str| env(name).and_then(|it| it.trim().parse::<u64>().ok());
        let mut settings = Self::default();
        if let Some(ms) = number("SKILL_LSP_TIMEOUT_MS") {
            settings.timeout = Duration::from_millis(ms.max(1));
        }
        if let Some(ms) = number("SKILL_LSP_DEADLINE_MS") {
            settings.deadline = Duration::from_millis(ms.max(1));
        }
        if let Some(ms) = number("SKILL_LSP_RETRY_BASE_MS") {
            settings.retry.base_delay = Duration::from_millis(ms);
        }
        if let Some(attempts) = number("SKILL_LSP_MAX_ATTEMPTS") {
            settings.retry.max_attempts = u32::try_from(attempts).unwrap_or(u32::MAX).max(1);
        }
        settings
    }
}

/// Builds the provider from the environment (SPEC section 6): `ANTHROPIC_API_KEY` (with
/// `ANTHROPIC_BASE_URL`, default the public endpoint) selects Anthropic; else `OPENAI_BASE_URL`
/// (with an optional `OPENAI_API_KEY`) selects an OpenAI-compatible server, and an
/// `OPENAI_API_KEY` alone selects OpenAI's public endpoint. `model_override` (from `--model` or
/// the config) wins over `MODEL_ID`. `env` is a lookup so tests need not touch the process
/// environment; empty values count as unset. HTTP settings come from [`HttpSettings::from_env`].
///
/// # Errors
///
/// [`ProviderError::Config`] naming the variable to set when no provider or model is configured,
/// or when a base URL or key is malformed. No request is made.
pub fn from_env(
    env: &dyn Fn(&str) -> Option<String>,
    model_override: Option<&str>,
) -> Result<Box<dyn Provider>, ProviderError> {
    from_env_with(env, model_override, HttpSettings::from_env(env))
}

/// [`from_env`] with the HTTP settings given.
///
/// # Errors
///
/// As [`from_env`].
pub fn from_env_with(
    env: &dyn Fn(&str) -> Option<String>,
    model_override: Option<&str>,
    settings: HttpSettings,
) -> Result<Box<dyn Provider>, ProviderError> {
    let var = |name: &str| env(name).filter(|it| !it.trim().is_empty());
    let model = || {
        model_override
            .filter(|it| !it.trim().is_empty())
            .map(str::to_owned)
            .or_else(|| var("MODEL_ID"))
            .ok_or_else(|| {
                ProviderError::Config(
                    "no model is set: set MODEL_ID (or pass --model) to the model to use"
                        .to_owned(),
                )
            })
    };
    if let Some(key) = var("ANTHROPIC_API_KEY") {
        let base_url =
            var("ANTHROPIC_BASE_URL").unwrap_or_else(|| anthropic::DEFAULT_BASE_URL.to_owned());
        let provider = anthropic::Anthropic::new(&base_url, ApiKey::new(key), model()?, settings)?;
        return Ok(Box::new(provider));
    }
    let openai_key = var("OPENAI_API_KEY").map(ApiKey::new);
    let openai_base = var("OPENAI_BASE_URL").or_else(|| {
        openai_key
            .is_some()
            .then(|| openai::DEFAULT_BASE_URL.to_owned())
    });
    if let Some(base_url) = openai_base {
        let provider = openai::OpenAi::new(&base_url, openai_key, model()?, settings)?;
        return Ok(Box::new(provider));
    }
    Err(ProviderError::Config(
        "no model provider is configured: set ANTHROPIC_API_KEY for Anthropic, or OPENAI_BASE_URL \
         for an OpenAI-compatible server, and MODEL_ID"
            .to_owned(),
    ))
}

/// Turns one provider's event stream into a [`Response`].
pub(crate) trait Decoder: Send {
    /// Takes the next event, passing streamed pieces to `sink`.
    fn on_event(
        &mut self,
        event: SseEvent,
        sink: &mut dyn FnMut(StreamEvent),
    ) -> Result<(), ProviderError>;
    /// The stream said it is complete; the rest of the body need not be read.
    fn is_done(&self) -> bool;
    /// The tool whose input is being streamed, if any.
    fn open_tool(&self) -> Option<&str>;
    /// The whole response, or a protocol error if the stream stopped short.
    fn finish(self) -> Result<Response, ProviderError>;
}

/// A failed try, with what the server said about when to come back.
struct Failure {
    error: ProviderError,
    retry_after: Option<Duration>,
}

impl From<ProviderError> for Failure {
    fn from(error: ProviderError) -> Self {
        Self {
            error,
            retry_after: None,
        }
    }
}

/// Passes streamed pieces on and remembers whether any went out, after which a retry would
/// show the user the same text twice.
struct Emitter<'s> {
    sink: Sink<'s>,
    touched: bool,
}

impl Emitter<'_> {
    fn emit(&mut self, event: StreamEvent) {
        self.touched = true;
        (self.sink)(event);
    }
}

/// Error bodies are read up to this size for their message.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// The HTTP client and the retry loop shared by both providers.
#[derive(Debug)]
pub(crate) struct Transport {
    client: reqwest::Client,
    settings: HttpSettings,
    provider: &'static str,
    /// The variable that holds the key, named in authentication errors.
    key_var: &'static str,
    key: Option<ApiKey>,
}

impl Transport {
    /// A client for `base_url`; `base_var` names the variable it came from, for errors.
    pub(crate) fn new(
        provider: &'static str,
        base_url: &str,
        base_var: &str,
        key_var: &'static str,
        key: Option<ApiKey>,
        settings: HttpSettings,
    ) -> Result<Self, ProviderError> {
        let url = reqwest::Url::parse(base_url).map_err(|error| {
            ProviderError::Config(format!("{base_var} is not a valid URL ({error})"))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(ProviderError::Config(format!(
                "{base_var} must be an http or https URL"
            )));
        }
        let mut builder = reqwest::Client::builder()
            .connect_timeout(settings.timeout)
            .user_agent(concat!("skill-lsp/", env!("CARGO_PKG_VERSION")));
        // A local server (Ollama, llama.cpp, a test) is never reached through a proxy.
        let host = url.host_str().unwrap_or_default();
        let is_loopback = host.eq_ignore_ascii_case("localhost")
            || host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        if is_loopback {
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|error| {
            ProviderError::Config(format!("could not set up the HTTP client ({error})"))
        })?;
        Ok(Self {
            client,
            settings,
            provider,
            key_var,
            key,
        })
    }

    /// Posts `body` to `url` and decodes the event stream, retrying transient failures.
    pub(crate) async fn exchange<D: Decoder>(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: Bytes,
        new_decoder: impl Fn() -> D + Send,
        sink: Sink<'_>,
    ) -> Result<Response, ProviderError> {
        let mut emitter = Emitter {
            sink,
            touched: false,
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            tracing::debug!(
                provider = self.provider,
                attempt,
                url,
                "sending model request"
            );
            let failure = match self
                .attempt(url, headers, body.clone(), new_decoder(), &mut emitter)
                .await
            {
                Ok(response) => {
                    tracing::debug!(
                        provider = self.provider,
                        stop_reason = response.stop_reason,
                        input_tokens = response.usage.input_tokens,
                        output_tokens = response.usage.output_tokens,
                        "model response complete"
                    );
                    return Ok(response);
                }
                Err(failure) => failure,
            };
            let delay = if failure.error.is_retryable() && !emitter.touched {
                self.settings
                    .retry
                    .delay(attempt, failure.retry_after, retry::jitter())
            } else {
                None
            };
            let Some(delay) = delay else {
                tracing::debug!(provider = self.provider, attempt, error = %failure.error, "model request failed");
                return Err(failure.error.after_attempts(attempt));
            };
            tracing::warn!(
                provider = self.provider,
                attempt,
                delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                error = %failure.error,
                "model request failed; retrying"
            );
            tokio::time::sleep(delay).await;
        }
    }

    async fn attempt<D: Decoder>(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: Bytes,
        mut decoder: D,
        emitter: &mut Emitter<'_>,
    ) -> Result<Response, Failure> {
        let deadline = tokio::time::Instant::now() + self.settings.deadline;
        let wait = self.waits(deadline);
        let request = self.client.post(url).headers(headers.clone()).body(body);
        let mut response = match tokio::time::timeout(wait(), request.send()).await {
            Err(_) => return Err(ProviderError::Timeout.into()),
            Ok(Err(error)) => return Err(self.network_error(&error).into()),
            Ok(Ok(response)) => response,
        };
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|it| it.to_str().ok())
                .map(str::to_owned)
        };
        let content_type = header("content-type").unwrap_or_default();
        if !response.status().is_success() {
            let retry_after = retry::parse_retry_after(
                header("retry-after-ms").as_deref(),
                header("retry-after").as_deref(),
            );
            let body = self.read_limited(&mut response, &wait).await;
            return Err(Failure {
                error: self.http_error(status, &body, &content_type),
                retry_after,
            });
        }
        if content_type.contains("html") || content_type.contains("json") {
            let body = self.read_limited(&mut response, &wait).await;
            let message = self.redact(&retry::error_message(&body, Some(&content_type)));
            return Err(ProviderError::Protocol(format!(
                "expected an event stream, got {content_type} (HTTP {status}): {message}"
            ))
            .into());
        }
        let mut parser = SseParser::new();
        let mut received = 0usize;
        loop {
            let chunk = match tokio::time::timeout(wait(), response.chunk()).await {
                Err(_) => return Err(ProviderError::Timeout.into()),
                Ok(Err(error)) => {
                    let detail = self.error_chain(&error);
                    let error = match decoder.open_tool() {
                        Some(name) => ProviderError::Protocol(format!(
                            "the stream was cut inside the input of tool `{name}` ({detail})"
                        )),
                        None => ProviderError::Network(format!(
                            "the response stream was cut ({detail})"
                        )),
                    };
                    return Err(error.into());
                }
                Ok(Ok(None)) => break,
                Ok(Ok(Some(chunk))) => chunk,
            };
            received = received.saturating_add(chunk.len());
            if received > self.settings.max_response_bytes {
                return Err(ProviderError::Protocol(format!(
                    "the response is larger than {} bytes; stopped reading",
                    self.settings.max_response_bytes
                ))
                .into());
            }
            for event in parser.feed(&chunk) {
                decoder.on_event(event, &mut |it| emitter.emit(it))?;
                if decoder.is_done() {
                    return Ok(decoder.finish()?);
                }
            }
        }
        Ok(end_of_stream(decoder, &mut parser, &mut |it| {
            emitter.emit(it)
        })?)
    }

    /// How long the next wait may last: the per-piece timeout, cut short by the deadline.
    fn waits(&self, deadline: tokio::time::Instant) -> impl Fn() -> Duration {
        let timeout = self.settings.timeout;
        move || timeout.min(deadline.saturating_duration_since(tokio::time::Instant::now()))
    }

    /// The start of an error body; a failure to read it only loses the message.
    async fn read_limited(
        &self,
        response: &mut reqwest::Response,
        wait: &impl Fn() -> Duration,
    ) -> Vec<u8> {
        let mut body = Vec::new();
        while body.len() < ERROR_BODY_LIMIT {
            match tokio::time::timeout(wait(), response.chunk()).await {
                Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
                _ => break,
            }
        }
        body.truncate(ERROR_BODY_LIMIT);
        body
    }

    fn http_error(&self, status: u16, body: &[u8], content_type: &str) -> ProviderError {
        let detail = self.redact(&retry::error_message(body, Some(content_type)));
        let message = match (status, &self.key) {
            (401 | 403, Some(_)) => format!(
                "{detail}; check that {} holds a valid key with access to this model",
                self.key_var
            ),
            (401 | 403, None) => format!("{detail}; the server wants a key: set {}", self.key_var),
            _ => detail,
        };
        ProviderError::Http {
            status,
            message,
            retryable: retry::is_retryable_status(status),
        }
    }

    fn network_error(&self, error: &reqwest::Error) -> ProviderError {
        if error.is_timeout() {
            ProviderError::Timeout
        } else {
            ProviderError::Network(self.error_chain(error))
        }
    }

    /// The error and its causes in one line, since reqwest's own message is terse.
    fn error_chain(&self, error: &reqwest::Error) -> String {
        let mut text = error.to_string();
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            let cause_text = cause.to_string();
            if !text.contains(&cause_text) {
                text.push_str(": ");
                text.push_str(&cause_text);
            }
            source = cause.source();
        }
        self.redact(&text)
    }

    fn redact(&self, text: &str) -> String {
        match &self.key {
            Some(key) => key.redact(text),
            None => text.to_owned(),
        }
    }
}

/// Ends a stream at the end of the body: an event left without its closing blank line still
/// counts, but if it is cut short the decoder's own complaint (a tool input left open, no final
/// event) says more than the broken JSON does.
pub(crate) fn end_of_stream<D: Decoder>(
    mut decoder: D,
    parser: &mut SseParser,
    sink: &mut dyn FnMut(StreamEvent),
) -> Result<Response, ProviderError> {
    let trailing = parser.finish().map(|event| decoder.on_event(event, sink));
    match (trailing, decoder.finish()) {
        (Some(Err(error)), _) if !matches!(error, ProviderError::Protocol(_)) => Err(error),
        (_, Err(error)) | (Some(Err(error)), Ok(_)) => Err(error),
        (_, Ok(response)) => Ok(response),
    }
}

/// Parses one event's JSON payload.
pub(crate) fn parse_event_json(event: &SseEvent) -> Result<Value, ProviderError> {
    serde_json::from_str(&event.data).map_err(|error| {
        ProviderError::Protocol(format!(
            "an event in the stream is not valid JSON ({error})"
        ))
    })
}

/// Parses a tool's assembled input; an empty input means `{}`.
pub(crate) fn parse_tool_input(name: &str, json: &str) -> Result<Value, ProviderError> {
    if json.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    serde_json::from_str(json).map_err(|error| {
        ProviderError::Protocol(format!(
            "the input of tool `{name}` is not valid JSON ({error})"
        ))
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use super::{HttpSettings, ProviderError, from_env};

    const PLANTED: &str = "sk-ant-test-PLANTED-KEY-123";

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        move |name| map.get(name).cloned()
    }

    fn config_error(pairs: &[(&str, &str)], model_override: Option<&str>) -> String {
        match from_env(&lookup(pairs), model_override) {
            Err(ProviderError::Config(message)) => message,
            Err(other) => panic!("expected a config error, got {other}"),
            Ok(provider) => panic!("expected a config error, got {}", provider.name()),
        }
    }

    #[test]
    fn anthropic_key_selects_anthropic() {
        let env = lookup(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", "claude-x")]);
        let provider = from_env(&env, None).unwrap();
        assert_eq!(provider.name(), "anthropic");
        assert_eq!(provider.model(), "claude-x");
    }

    #[test]
    fn model_override_wins_over_model_id() {
        let env = lookup(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", "claude-x")]);
        assert_eq!(
            from_env(&env, Some("claude-y")).unwrap().model(),
            "claude-y"
        );
        let env = lookup(&[("OPENAI_BASE_URL", "http://localhost:11434/v1")]);
        assert_eq!(from_env(&env, Some("llama")).unwrap().model(), "llama");
    }

    #[test]
    fn openai_base_url_selects_openai_without_a_key() {
        let env = lookup(&[
            ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1"),
            ("MODEL_ID", "qwen"),
        ]);
        let provider = from_env(&env, None).unwrap();
        assert_eq!(provider.name(), "openai");
        let env = lookup(&[("OPENAI_API_KEY", "sk-x"), ("MODEL_ID", "gpt")]);
        assert_eq!(from_env(&env, None).unwrap().name(), "openai");
    }

    #[test]
    fn missing_model_names_model_id() {
        let message = config_error(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", " ")], None);
        assert!(message.contains("MODEL_ID"), "{message}");
        assert!(!message.contains(PLANTED));
    }

    #[test]
    fn missing_provider_names_the_variables() {
        let message = config_error(&[("MODEL_ID", "m")], None);
        assert!(message.contains("ANTHROPIC_API_KEY"), "{message}");
        assert!(message.contains("OPENAI_BASE_URL"), "{message}");
        let message = config_error(
            &[("ANTHROPIC_BASE_URL", "http://x"), ("MODEL_ID", "m")],
            None,
        );
        assert!(message.contains("ANTHROPIC_API_KEY"), "{message}");
    }

    #[test]
    fn bad_base_url_and_bad_key_are_config_errors_without_the_key() {
        let message = config_error(
            &[
                ("ANTHROPIC_API_KEY", PLANTED),
                ("ANTHROPIC_BASE_URL", "not a url"),
                ("MODEL_ID", "m"),
            ],
            None,
        );
        assert!(message.contains("ANTHROPIC_BASE_URL"), "{message}");
        let bad_key = "sk-ant-\nPLANTED";
        let message = config_error(&[("ANTHROPIC_API_KEY", bad_key), ("MODEL_ID", "m")], None);
        assert!(message.contains("ANTHROPIC_API_KEY"), "{message}");
        assert!(!message.contains("PLANTED"), "{message}");
    }

    #[test]
    fn http_settings_come_from_the_environment() {
        let settings = HttpSettings::from_env(&lookup(&[
            ("SKILL_LSP_TIMEOUT_MS", "250"),
            ("SKILL_LSP_RETRY_BASE_MS", "5"),
            ("SKILL_LSP_MAX_ATTEMPTS", "0"),
            ("SKILL_LSP_DEADLINE_MS", "9000"),
        ]));
        assert_eq!(settings.timeout, Duration::from_millis(250));
        assert_eq!(settings.deadline, Duration::from_millis(9000));
        assert_eq!(settings.retry.base_delay, Duration::from_millis(5));
        assert_eq!(settings.retry.max_attempts, 1);
        assert_eq!(
            HttpSettings::from_env(&lookup(&[])),
            HttpSettings::default()
        );
    }

    #[test]
    fn error_messages_are_lowercase_without_a_full_stop() {
        let errors = [
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
