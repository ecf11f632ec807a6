//! What the editor keeps of a skill's last trigger-eval run (the code lens and the
//! `trigger-evals` information diagnostic), and what such a result stays valid for.

/// What the editor shows of a skill's last trigger-eval run: valid while the description and
/// the eval set it was measured with are unchanged (`key`, see [`eval_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalSummary {
    pub key: String,
    pub passed: usize,
    pub total: usize,
    /// Should-trigger queries that failed.
    pub missed: usize,
    /// Should-not-trigger queries that failed.
    pub wrongly_loaded: usize,
    /// Each failing query with why: `missed`, `loaded docx instead`, `wrongly loaded`.
    pub failing: Vec<(String, String)>,
    /// Queries whose interval straddles the threshold: passed or failed by chance so far.
    pub undecided: usize,
}

impl EvalSummary {
    /// The summary of one skill's report, measured against `key`.
    #[must_use]
    pub(crate) fn new(key: String, report: &crate::agent::eval::SkillReport) -> Self {
        let failing: Vec<&crate::agent::eval::QueryResult> =
            report.results.iter().filter(|it| !it.pass).collect();
        let undecided = report
            .results
            .iter()
            .filter(|it| it.verdict == crate::agent::eval::report::Verdict::Undecided)
            .count();
        Self {
            key,
            undecided,
            passed: report.summary.passed,
            total: report.summary.total,
            missed: failing.iter().filter(|it| it.should_trigger).count(),
            wrongly_loaded: failing.iter().filter(|it| !it.should_trigger).count(),
            failing: failing
                .iter()
                .map(|result| {
                    let why = if !result.should_trigger {
                        "wrongly loaded".to_owned()
                    } else if let Some((name, _)) =
                        result.loaded_instead.iter().max_by_key(|(_, runs)| **runs)
                    {
                        format!("loaded {name} instead")
                    } else {
                        "missed".to_owned()
                    };
                    (result.query.clone(), why)
                })
                .collect(),
        }
    }

    /// The code lens title: `Trigger evals: 8/10 — 1 missed, 1 wrongly loaded`.
    #[must_use]
    pub(crate) fn lens_title(&self) -> String {
        let mut parts = Vec::new();
        if self.missed > 0 {
            parts.push(format!("{} missed", self.missed));
        }
        if self.wrongly_loaded > 0 {
            parts.push(format!("{} wrongly loaded", self.wrongly_loaded));
        }
        if parts.is_empty() {
            parts.push("all passed".to_owned());
        }
        if self.undecided > 0 {
            parts.push(format!("{} undecided", self.undecided));
        }
        format!(
            "Trigger evals: {}/{} \u{2014} {}",
            self.passed,
            self.total,
            parts.join(", ")
        )
    }

    /// The information diagnostic's message: `Trigger evals: 8/10 passed; failing: 'q' (missed)`.
    #[must_use]
    pub(crate) fn message(&self) -> String {
        let mut message = format!("Trigger evals: {}/{} passed", self.passed, self.total);
        if !self.failing.is_empty() {
            let failing: Vec<String> = self
                .failing
                .iter()
                .map(|(query, why)| format!("'{query}' ({why})"))
                .collect();
            message.push_str("; failing: ");
            message.push_str(&failing.join(", "));
        }
        if self.undecided > 0 {
            message.push_str(&format!(
                "; {} undecided (too few runs to tell pass from fail: run more)",
                self.undecided
            ));
        }
        message
    }
}

/// What a stored eval result is valid for: a hash of the description and the eval set's text.
#[must_use]
pub(crate) fn eval_key(description: &str, set_text: &str) -> String {
    crate::agent::eval::cache::hex_hash(format!("{description}\u{0}{set_text}").as_bytes())
}

/// The description of a SKILL.md's text (empty when it has none).
#[must_use]
pub(crate) fn description_of(text: &str) -> String {
    crate::document::SkillDocument::parse(text)
        .field("description")
        .and_then(|entry| entry.value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eval_summary_counts_missed_and_wrongly_loaded_queries() {
        use crate::agent::eval::report::RunRecord;
        use crate::agent::eval::set::EvalCase;
        use crate::agent::eval::{QueryResult, SkillReport};
        let run = |loaded: Option<&str>| RunRecord {
            loaded: loaded.map(str::to_owned),
            ..RunRecord::default()
        };
        let result = |query: &str, should_trigger: bool, loaded: Option<&str>| {
            let case = EvalCase {
                query: query.into(),
                should_trigger,
            };
            QueryResult::from_runs(&case, "pdf", &[run(loaded)], 0.5)
        };
        let report = SkillReport::new(
            "pdf".into(),
            "d".into(),
            false,
            "triggers.json".into(),
            vec![
                result("fill the form", true, Some("pdf")),
                result("query one", true, None),
                result("query two", true, Some("docx")),
                result("weather", false, Some("pdf")),
                result("hello", false, None),
            ],
        );
        let summary = EvalSummary::new("k".into(), &report);
        assert_eq!((summary.passed, summary.total), (2, 5));
        assert_eq!((summary.missed, summary.wrongly_loaded), (2, 1));
        assert_eq!(
            summary.lens_title(),
            "Trigger evals: 2/5 \u{2014} 2 missed, 1 wrongly loaded, 5 undecided"
        );
        assert_eq!(
            summary.message(),
            "Trigger evals: 2/5 passed; failing: 'query one' (missed), 'query two' (loaded docx instead), 'weather' (wrongly loaded); 5 undecided (too few runs to tell pass from fail: run more)"
        );
        assert_ne!(eval_key("a", "[]"), eval_key("b", "[]"));
        assert_ne!(eval_key("a", "[]"), eval_key("a", "[ ]"));
    }
}
