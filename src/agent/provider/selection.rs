//! Which provider to use, from the environment (design.md §6): `ANTHROPIC_API_KEY` selects
//! Anthropic, `OPENAI_BASE_URL` or `OPENAI_API_KEY` an OpenAI-compatible server.

use super::anthropic::{self, Anthropic};
use super::key::ApiKey;
use super::openai::{self, OpenAi};
use super::transport::HttpSettings;
use super::types::{Provider, ProviderError, Unset};

/// Builds the provider from the environment (design.md §6): `ANTHROPIC_API_KEY` (with
/// `ANTHROPIC_BASE_URL`, default the public endpoint) selects Anthropic; else `OPENAI_BASE_URL`
/// (with an optional `OPENAI_API_KEY`) selects an OpenAI-compatible server, and an
/// `OPENAI_API_KEY` alone selects OpenAI's public endpoint. The model is `flag_model` (`--model`)
/// if given, else `MODEL_ID`, else `config_model` (`[agent] model` of `skill-lsp.toml`): the
/// environment wins over the file, as the README says. `env` is a lookup so tests need not touch
/// the process environment; empty values count as unset. HTTP settings come from
/// [`HttpSettings::from_env`].
///
/// # Errors
///
/// [`ProviderError::Unset`] naming the variable to set when no provider or model is configured,
/// [`ProviderError::Config`] when a base URL or key is malformed. No request is made.
pub fn from_env(
    env: &dyn Fn(&str) -> Option<String>,
    flag_model: Option<&str>,
    config_model: Option<&str>,
) -> Result<Box<dyn Provider>, ProviderError> {
    from_env_with(env, flag_model, config_model, HttpSettings::from_env(env))
}

/// [`from_env`] with the HTTP settings given.
///
/// # Errors
///
/// As [`from_env`].
pub fn from_env_with(
    env: &dyn Fn(&str) -> Option<String>,
    flag_model: Option<&str>,
    config_model: Option<&str>,
    settings: HttpSettings,
) -> Result<Box<dyn Provider>, ProviderError> {
    let var = |name: &str| env(name).filter(|it| !it.trim().is_empty());
    let given = |model: Option<&str>| model.filter(|it| !it.trim().is_empty()).map(str::to_owned);
    let model = || {
        given(flag_model)
            .or_else(|| var("MODEL_ID"))
            .or_else(|| given(config_model))
            .ok_or(ProviderError::Unset(Unset::Model))
    };
    if let Some(key) = var("ANTHROPIC_API_KEY") {
        let base_url =
            var("ANTHROPIC_BASE_URL").unwrap_or_else(|| anthropic::DEFAULT_BASE_URL.to_owned());
        let provider = Anthropic::new(&base_url, ApiKey::new(key), model()?, settings)?;
        return Ok(Box::new(provider));
    }
    let openai_key = var("OPENAI_API_KEY").map(ApiKey::new);
    let openai_base = var("OPENAI_BASE_URL").or_else(|| {
        openai_key
            .is_some()
            .then(|| openai::DEFAULT_BASE_URL.to_owned())
    });
    if let Some(base_url) = openai_base {
        let provider = OpenAi::new(&base_url, openai_key, model()?, settings)?;
        return Ok(Box::new(provider));
    }
    Err(ProviderError::Unset(Unset::Provider))
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
        match from_env(&lookup(pairs), model_override, None) {
            Err(error @ (ProviderError::Config(_) | ProviderError::Unset(_))) => error.to_string(),
            Err(other) => panic!("expected a config error, got {other}"),
            Ok(provider) => panic!("expected a config error, got {}", provider.name()),
        }
    }

    #[test]
    fn anthropic_key_selects_anthropic() {
        let env = lookup(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", "claude-x")]);
        let provider = from_env(&env, None, None).unwrap();
        assert_eq!(provider.name(), "anthropic");
        assert_eq!(provider.model(), "claude-x");
    }

    #[test]
    fn model_override_wins_over_model_id() {
        let env = lookup(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", "claude-x")]);
        assert_eq!(
            from_env(&env, Some("claude-y"), None).unwrap().model(),
            "claude-y"
        );
        let env = lookup(&[("OPENAI_BASE_URL", "http://localhost:11434/v1")]);
        assert_eq!(
            from_env(&env, Some("llama"), None).unwrap().model(),
            "llama"
        );
    }

    #[test]
    fn model_id_wins_over_the_config_file_and_the_flag_over_both() {
        let env = lookup(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", "from-env")]);
        assert_eq!(
            from_env(&env, None, Some("from-toml")).unwrap().model(),
            "from-env"
        );
        assert_eq!(
            from_env(&env, Some("from-flag"), Some("from-toml"))
                .unwrap()
                .model(),
            "from-flag"
        );
        let env = lookup(&[("ANTHROPIC_API_KEY", PLANTED), ("MODEL_ID", " ")]);
        assert_eq!(
            from_env(&env, None, Some("from-toml")).unwrap().model(),
            "from-toml"
        );
    }

    #[test]
    fn openai_base_url_selects_openai_without_a_key() {
        let env = lookup(&[
            ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1"),
            ("MODEL_ID", "qwen"),
        ]);
        let provider = from_env(&env, None, None).unwrap();
        assert_eq!(provider.name(), "openai");
        let env = lookup(&[("OPENAI_API_KEY", "sk-x"), ("MODEL_ID", "gpt")]);
        assert_eq!(from_env(&env, None, None).unwrap().name(), "openai");
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
}
