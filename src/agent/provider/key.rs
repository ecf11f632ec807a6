//! The API key newtype: it prints as `***` so no log line, transcript or error can show a key
//! (design.md §8.3, design.md §6).

use std::fmt;

/// An API key read from the environment or the editor's secret store.
///
/// `Debug` and `Display` print `***`; the only way to the text is `ApiKey::header_value`, where
/// the key goes into a request header (and `expose`, in this module's tests).
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The key itself (tests only: requests use `header_value`).
    #[cfg(test)]
    #[must_use]
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// The key as a sensitive HTTP header value, after `prefix` (such as `Bearer `); `variable`
    /// names where it came from when it cannot be a header.
    ///
    /// # Errors
    /// A config error naming `variable` (never the key) for characters a header cannot hold.
    pub(crate) fn header_value(
        &self,
        prefix: &str,
        variable: &str,
    ) -> Result<reqwest::header::HeaderValue, super::ProviderError> {
        let mut value = reqwest::header::HeaderValue::from_str(&format!("{prefix}{}", self.0))
            .map_err(|_| {
                super::ProviderError::Config(format!(
                    "{variable} holds characters that cannot go in an HTTP header"
                ))
            })?;
        value.set_sensitive(true);
        Ok(value)
    }

    /// Replaces every occurrence of the key in `text` by `***`, for text that comes back from a
    /// server (some echo the key they were given in their error message).
    #[must_use]
    pub(crate) fn redact(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_owned()
        } else {
            text.replace(&self.0, "***")
        }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::ApiKey;

    const PLANTED: &str = "sk-ant-test-PLANTED-KEY-123";

    #[test]
    fn debug_and_display_hide_the_key() {
        let key = ApiKey::new(PLANTED);
        assert_eq!(format!("{key:?}"), "***");
        assert_eq!(format!("{key}"), "***");
        assert_eq!(format!("{:#?}", Some(key.clone())), "Some(\n    ***,\n)");
        assert_eq!(key.expose(), PLANTED);
    }

    #[test]
    fn redact_removes_every_copy_of_the_key() {
        let key = ApiKey::new(PLANTED);
        assert_eq!(
            key.redact(&format!("bad key {PLANTED}, really {PLANTED}")),
            "bad key ***, really ***"
        );
        assert_eq!(ApiKey::new("").redact("text"), "text");
    }

    #[test]
    fn key_stays_out_of_a_panic_message() {
        let key = ApiKey::new(PLANTED);
        let payload = std::panic::catch_unwind(|| panic!("request failed with {key:?} / {key}"))
            .expect_err("the closure panics");
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(message.contains("***"));
        assert!(!message.contains(PLANTED));
    }
}
