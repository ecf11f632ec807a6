//! The HTTP exchange both providers share: the client (no proxy for a local server), one
//! streamed POST decoded by a wire format's `Decoder`, the error a failed reply becomes, and the
//! retry loop of [`retry::with_retries`] around it. Keys are redacted from every message built here.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::HeaderMap;

use super::decode::{Decoder, end_of_stream};
use super::key::ApiKey;
use super::retry::{self, Failure, RetryPolicy};
use super::sse::SseParser;
use super::types::{ProviderError, Response, Sink, StreamEvent};

/// How patient the HTTP layer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpSettings {
    /// The longest wait for the response headers, and for each next piece of a streamed body
    /// after the first (which only `deadline` bounds: the server is reading the prompt).
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

/// Passes streamed pieces on and remembers whether any went out, after which a retry would
/// show the user the same text twice. Shared by reference between the tries of one exchange.
struct Emitter<'s> {
    sink: Mutex<Sink<'s>>,
    touched: AtomicBool,
}

impl Emitter<'_> {
    fn emit(&self, event: StreamEvent) {
        self.touched.store(true, Ordering::Relaxed);
        self.notify(event);
    }

    /// Passes on news about the exchange itself (a retry): not part of the reply.
    fn notify(&self, event: StreamEvent) {
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (sink)(event);
    }

    fn touched(&self) -> bool {
        self.touched.load(Ordering::Relaxed)
    }
}

/// Error bodies are read up to this size for their message.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// The HTTP client shared by both providers: one try at a time, retried by [`Transport::exchange`].
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

    /// Posts `body` to `url` and decodes the event stream, retrying transient failures as long
    /// as nothing of the reply has reached `sink`.
    pub(crate) async fn exchange<D: Decoder>(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: Bytes,
        new_decoder: impl Fn() -> D + Send,
        sink: Sink<'_>,
    ) -> Result<Response, ProviderError> {
        let emitter = &Emitter {
            sink: Mutex::new(sink),
            touched: AtomicBool::new(false),
        };
        let response = retry::with_retries(
            &self.settings.retry,
            self.provider,
            || !emitter.touched(),
            |attempt, delay, error| {
                emitter.notify(StreamEvent::Retry {
                    attempt,
                    max_attempts: self.settings.retry.max_attempts,
                    delay,
                    reason: error.to_string(),
                });
            },
            move |attempt| {
                tracing::debug!(
                    provider = self.provider,
                    attempt,
                    url,
                    "sending model request"
                );
                self.attempt(url, headers, body.clone(), new_decoder(), emitter)
            },
        )
        .await?;
        tracing::debug!(
            provider = self.provider,
            stop_reason = response.stop_reason,
            input_tokens = response.usage.input_tokens,
            output_tokens = response.usage.output_tokens,
            "model response complete"
        );
        Ok(response)
    }

    async fn attempt<D: Decoder>(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: Bytes,
        mut decoder: D,
        emitter: &Emitter<'_>,
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
            // A server that has answered with its headers is at work: a local model may read a
            // long prompt for minutes before its first token, so only the deadline bounds the wait
            // for the first piece; silence after that is the per-piece timeout's business.
            let limit = if received == 0 {
                deadline.saturating_duration_since(tokio::time::Instant::now())
            } else {
                wait()
            };
            let chunk = match tokio::time::timeout(limit, response.chunk()).await {
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
            emitter.emit(it);
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
