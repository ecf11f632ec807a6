//! Retry and backoff: the retry loop, which failures are worth another try, how long to wait, and
//! how to read a provider's error reply (design.md §6: retries on 429, 500, 502, 503, 529 and
//! dropped connections; a clear error with status and provider message after the last try).

use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::types::ProviderError;

/// A failed try, with what the server said about when to come back.
pub(crate) struct Failure {
    pub(crate) error: ProviderError,
    pub(crate) retry_after: Option<Duration>,
}

impl From<ProviderError> for Failure {
    fn from(error: ProviderError) -> Self {
        Self {
            error,
            retry_after: None,
        }
    }
}

/// Runs `attempt` (given the try number, 1 for the first) until it succeeds, its failure is not
/// worth another try, or `policy` says that was the last. `may_retry` is asked after each failure:
/// once part of a reply has reached the user, another try would show it twice. `on_retry` hears
/// of each new try before its wait (the try's number, the wait, the failure), so the user is told.
/// `provider` names the provider in log lines.
///
/// # Errors
///
/// The last failure's error, saying how many tries were made when there were several.
pub(crate) async fn with_retries<T, F, Fut>(
    policy: &RetryPolicy,
    provider: &'static str,
    may_retry: impl Fn() -> bool,
    on_retry: impl Fn(u32, Duration, &ProviderError),
    mut attempt: F,
) -> Result<T, ProviderError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let mut n_attempts = 0;
    loop {
        n_attempts += 1;
        let failure = match attempt(n_attempts).await {
            Ok(it) => return Ok(it),
            Err(failure) => failure,
        };
        let delay = if failure.error.is_retryable() && may_retry() {
            policy.delay(n_attempts, failure.retry_after, jitter())
        } else {
            None
        };
        let Some(delay) = delay else {
            tracing::debug!(provider, attempt = n_attempts, error = %failure.error, "model request failed");
            return Err(failure.error.after_attempts(n_attempts));
        };
        tracing::warn!(
            provider,
            attempt = n_attempts,
            delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
            error = %failure.error,
            "model request failed; retrying"
        );
        on_retry(n_attempts + 1, delay, &failure.error);
        tokio::time::sleep(delay).await;
    }
}

/// How often and how patiently to retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries in all, the first included; at least 1.
    pub max_attempts: u32,
    /// The wait before the second try; it doubles for each try after that.
    pub base_delay: Duration,
    /// The longest backoff wait.
    pub max_delay: Duration,
    /// The longest `retry-after` honoured; a server asking for more is asked again after this.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The wait after failed try number `attempt` (1 for the first), or `None` when that was the
    /// last try. `retry_after` (from the server) wins over the backoff; `jitter` in `0.0..=1.0`
    /// picks a wait between half and all of the exponential step.
    #[must_use]
    pub(crate) fn delay(
        &self,
        attempt: u32,
        retry_after: Option<Duration>,
        jitter: f64,
    ) -> Option<Duration> {
        if attempt >= self.max_attempts {
            return None;
        }
        if let Some(retry_after) = retry_after {
            return Some(retry_after.min(self.max_retry_after));
        }
        let step = self
            .base_delay
            .saturating_mul(1 << attempt.saturating_sub(1).min(20))
            .min(self.max_delay);
        Some(step.mul_f64(0.5 + 0.5 * jitter.clamp(0.0, 1.0)))
    }
}

/// A number in `0.0..1.0` that differs from call to call, for backoff jitter. It needs no
/// cryptographic quality, so it avoids a random-number dependency.
#[must_use]
pub(crate) fn jitter() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |it| it.subsec_nanos());
    let mut x = u64::from(nanos) ^ COUNTER.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
    // SplitMix64 finaliser.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    #[expect(clippy::cast_precision_loss, reason = "53 bits are kept on purpose")]
    let unit = (x >> 11) as f64 / (1u64 << 53) as f64;
    unit
}

/// Statuses worth another try: rate limited, overloaded, or a server or gateway failure. Other 4xx
/// statuses will fail the same way again.
#[must_use]
pub(crate) fn is_retryable_status(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 504 | 529)
}

/// Reads `retry-after-ms` or `retry-after` (seconds; an HTTP date is not honoured and falls back
/// to backoff).
#[must_use]
pub(crate) fn parse_retry_after(
    retry_after_ms: Option<&str>,
    retry_after: Option<&str>,
) -> Option<Duration> {
    let parse = |text: Option<&str>| {
        let value = text?.trim().parse::<f64>().ok()?;
        (value.is_finite() && value >= 0.0).then_some(value.min(86_400_000.0))
    };
    if let Some(ms) = parse(retry_after_ms) {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    parse(retry_after).map(|seconds| Duration::from_secs_f64(seconds.min(86_400.0)))
}

/// What an error reply says, in one line: the `error.message` of a JSON body (Anthropic and
/// OpenAI both use `{"error":{"message":..}}`; some local servers send `{"error":"..."}`), a note
/// for an HTML page (whose markup helps no one), or the start of a plain-text body.
#[must_use]
pub(crate) fn error_message(body: &[u8], content_type: Option<&str>) -> String {
    let text = String::from_utf8_lossy(body);
    let trimmed = text.trim();
    if let Ok(json) = serde_json::from_str::<Value>(trimmed) {
        let error = json.get("error").unwrap_or(&json);
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .or_else(|| error.as_str())
            .or_else(|| json.get("detail").and_then(Value::as_str));
        if let Some(message) = message {
            return one_line(message);
        }
        return one_line(trimmed);
    }
    let is_html = content_type.is_some_and(|it| it.contains("html"))
        || trimmed
            .get(..15)
            .is_some_and(|it| it.eq_ignore_ascii_case("<!doctype html>"))
        || trimmed.starts_with("<html")
        || trimmed.starts_with("<HTML");
    if is_html {
        return "the server sent an HTML error page instead of an API error (often a proxy or \
                gateway in front of the API)"
            .to_owned();
    }
    if trimmed.is_empty() {
        return "the server sent no error message".to_owned();
    }
    one_line(trimmed)
}

/// Squeezes whitespace and cuts at 300 characters.
fn one_line(text: &str) -> String {
    let mut out = String::new();
    for (n_words, word) in text.split_whitespace().enumerate() {
        if n_words > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if let Some((cut, _)) = out.char_indices().nth(300) {
        out.truncate(cut);
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{RetryPolicy, error_message, is_retryable_status, jitter, parse_retry_after};

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(300),
            max_retry_after: Duration::from_secs(5),
        }
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_then_stops() {
        let policy = policy();
        assert_eq!(policy.delay(1, None, 1.0), Some(Duration::from_millis(100)));
        assert_eq!(policy.delay(2, None, 1.0), Some(Duration::from_millis(200)));
        assert_eq!(policy.delay(3, None, 1.0), Some(Duration::from_millis(300)));
        assert_eq!(policy.delay(4, None, 1.0), None);
        assert_eq!(policy.delay(1, None, 0.0), Some(Duration::from_millis(50)));
    }

    #[test]
    fn retry_after_wins_and_is_capped() {
        let policy = policy();
        assert_eq!(
            policy.delay(1, Some(Duration::from_secs(2)), 0.3),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            policy.delay(1, Some(Duration::from_secs(600)), 0.3),
            Some(Duration::from_secs(5))
        );
        assert_eq!(policy.delay(4, Some(Duration::from_secs(1)), 0.3), None);
    }

    #[test]
    fn jitter_stays_in_range() {
        for _ in 0..1000 {
            let value = jitter();
            assert!((0.0..1.0).contains(&value));
        }
    }

    #[test]
    fn only_transient_statuses_are_retried() {
        for status in [429, 500, 502, 503, 504, 529] {
            assert!(is_retryable_status(status), "{status}");
        }
        for status in [400, 401, 403, 404, 408, 413, 422] {
            assert!(!is_retryable_status(status), "{status}");
        }
    }

    #[test]
    fn retry_after_headers() {
        assert_eq!(
            parse_retry_after(None, Some("2")),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            parse_retry_after(Some("1500"), Some("2")),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            parse_retry_after(None, Some("0.5")),
            Some(Duration::from_millis(500))
        );
        assert_eq!(
            parse_retry_after(None, Some("Wed, 21 Oct 2015 07:28:00 GMT")),
            None
        );
        assert_eq!(parse_retry_after(None, Some("-3")), None);
        assert_eq!(parse_retry_after(None, None), None);
    }

    #[test]
    fn error_messages_from_json_html_and_text() {
        let anthropic =
            br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(
            error_message(anthropic, Some("application/json")),
            "Overloaded"
        );
        let ollama = br#"{"error":"model \"x\" not found"}"#;
        assert_eq!(error_message(ollama, None), "model \"x\" not found");
        let html = b"<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>";
        let message = error_message(html, Some("text/html"));
        assert!(message.contains("HTML error page"), "{message}");
        assert!(!message.contains("<h1>"));
        assert!(error_message(b"<html>x</html>", None).contains("HTML"));
        assert_eq!(
            error_message(b"  upstream\n   failed \n", None),
            "upstream failed"
        );
        assert_eq!(error_message(b"", None), "the server sent no error message");
        assert_eq!(error_message(&[b'x'; 1000], None).chars().count(), 301);
    }
}
