//! Every rule's explanation, gathered from the modules that check the rules: each writes its
//! rules' texts beside their checks (`rule_doc`), and this is the one place that asks them all.

use crate::rule_table::{Rule, RuleDoc};

impl Rule {
    /// What the rule checks, why, an example and the fix: `skill-lsp rules RULE`,
    /// `docs/rules.md` and SARIF's rule descriptions.
    #[must_use]
    pub fn doc(self) -> RuleDoc {
        crate::rules::rule_docs(self)
            .or_else(|| crate::security::rule_docs(self))
            .or_else(|| crate::plugins::rule_docs(self))
            .unwrap_or(RuleDoc::new(
                "No explanation is written for this rule yet.",
                "",
                "",
                "",
            ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule is explained, and by one module only.
    #[test]
    fn every_rule_has_one_explanation() {
        for &rule in Rule::ALL {
            let found = [
                crate::rules::rule_docs(rule),
                crate::security::rule_docs(rule),
                crate::plugins::rule_docs(rule),
            ]
            .iter()
            .filter(|doc| doc.is_some())
            .count();
            assert_eq!(found, 1, "{} is explained {found} times", rule.as_str());
            assert!(!rule.doc().why.is_empty(), "{}", rule.as_str());
        }
    }
}
