//! The client's settings (`skillLsp.targets`, `skillLsp.rules`), from `initializationOptions`
//! or `workspace/didChangeConfiguration`.

use serde_json::Value;

use crate::diagnostic::Severity;
use crate::rules::{Rule, RuleSettings};
use crate::targets::Client;

/// Settings from `workspace/didChangeConfiguration` (`skillLsp.targets`, `skillLsp.rules`).
#[derive(Clone, Debug, Default)]
pub(crate) struct ClientSettings {
    pub targets: Option<Vec<Client>>,
    pub rules: RuleSettings,
}

impl ClientSettings {
    /// Reads `{"skillLsp": {...}}` or the inner object itself; unknown values are logged and
    /// skipped.
    #[must_use]
    pub(crate) fn from_json(value: &Value) -> Self {
        let section = value.get("skillLsp").unwrap_or(value);
        let targets = section.get("targets").and_then(Value::as_array).map(|ids| {
            ids.iter()
                .filter_map(Value::as_str)
                .filter_map(|id| {
                    Client::parse(id).or_else(|| {
                        tracing::warn!("unknown target '{id}' in settings");
                        None
                    })
                })
                .collect::<Vec<_>>()
        });
        let mut rules = RuleSettings::default();
        if let Some(map) = section.get("rules").and_then(Value::as_object) {
            for (id, level) in map {
                let (Some(rule), Some(level)) = (Rule::parse(id), level.as_str()) else {
                    tracing::warn!("unknown rule setting '{id}'");
                    continue;
                };
                let severity = match (level, Severity::parse(level)) {
                    ("off", _) => None,
                    (_, Some(severity)) => Some(severity),
                    (_, None) => {
                        tracing::warn!("unknown severity '{level}' for {id}");
                        continue;
                    }
                };
                rules.overrides.insert(rule, severity);
            }
        }
        Self {
            targets: targets.filter(|targets| !targets.is_empty()),
            rules,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_targets_and_rules() {
        let settings = ClientSettings::from_json(&serde_json::json!({
            "skillLsp": {"targets": ["codex", "nope"], "rules": {"description-trigger": "off", "bom": "warning", "x": "error"}}
        }));
        assert_eq!(settings.targets, Some(vec![Client::Codex]));
        assert!(settings.rules.is_off(Rule::DescriptionTrigger));
        assert_eq!(
            settings.rules.overrides[&Rule::Bom],
            Some(Severity::Warning)
        );
        assert!(
            ClientSettings::from_json(&serde_json::json!(null))
                .targets
                .is_none()
        );
    }
}
