//! What a trigger eval found: per query (trigger rate, pass, the skills loaded instead) and per
//! skill (passed/total, precision and recall of triggering, confusions). Plain data, serialized
//! as the JSON of `skill-lsp eval --format json` (a superset of skill-creator's `run_eval.py`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Value, json};

use super::set::EvalCase;
use super::target::TargetView;

/// What one run of one query did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub(crate) struct RunRecord {
    /// The skill named by the model's first `load_skill` call within the run, if it made one.
    pub loaded: Option<String>,
    /// The tools the model called, in order (only listing and reading run during evals).
    pub tools: Vec<String>,
    /// Model calls made (at most `--max-turns`).
    pub turns: u32,
    /// Times the run was started again because its stream broke mid-reply.
    #[serde(default)]
    pub restarts: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Whether a call's stream was dropped after its deciding tool call, before the reply
    /// ended (the grace for its usage ran out).
    pub abandoned: bool,
    /// Whether a call's usage is ours, not the provider's: its stream was dropped or broke
    /// before the usage came, or it reported none. Its tokens are then estimated from the bytes
    /// sent and received (keeping what the provider had reported by then).
    #[serde(default)]
    pub usage_estimated: bool,
    /// Whether the token limit ended the reply before any tool call (counted as not triggered).
    #[serde(default)]
    pub cut: bool,
    /// The size of the run's first request (system prompt, tool specs, query), in bytes: with
    /// the input tokens the provider reported for it, what `--dry-run` calibrates on.
    #[serde(default)]
    pub request_bytes: u64,
    /// Whether this record came from the on-disk cache.
    #[serde(skip)]
    pub cached: bool,
}

/// Whether a query passes (as skill-creator decides): a should-trigger query when its trigger
/// rate reaches the threshold, a should-not-trigger query when it stays below it.
#[must_use]
pub(crate) fn passes(should_trigger: bool, trigger_rate: f64, threshold: f64) -> bool {
    if should_trigger {
        trigger_rate >= threshold
    } else {
        trigger_rate < threshold
    }
}

/// What the runs of a query say for sure: its 95 % interval lies on one side of the threshold
/// (`Pass` or `Fail`), or straddles it (`Undecided`: more runs could go either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Verdict {
    Pass,
    Fail,
    Undecided,
}

impl Verdict {
    /// The verdict of a trigger rate's `interval` against `threshold` for a query that should
    /// (or should not) trigger; no runs decide nothing.
    #[must_use]
    pub(crate) fn of(should_trigger: bool, interval: Option<[f64; 2]>, threshold: f64) -> Self {
        let Some([low, high]) = interval else {
            return Self::Undecided;
        };
        let (all_above, all_below) = (low >= threshold, high < threshold);
        match (should_trigger, all_above, all_below) {
            (true, true, _) | (false, _, true) => Self::Pass,
            (true, _, true) | (false, true, _) => Self::Fail,
            _ => Self::Undecided,
        }
    }
}

/// One query's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct QueryResult {
    pub query: String,
    pub should_trigger: bool,
    /// `triggers / runs`.
    pub trigger_rate: f64,
    /// The 95 % Wilson score interval of the trigger rate, `[low, high]` (`[0, 1]` without runs).
    pub trigger_interval: [f64; 2],
    /// Runs in which the model loaded the skill under test.
    pub triggers: u32,
    pub runs: u32,
    /// Whether the trigger rate is on the right side of the threshold (as skill-creator
    /// decides, however few the runs).
    pub pass: bool,
    /// Whether its interval is (`pass`/`fail`), or more runs are needed (`undecided`).
    pub verdict: Verdict,
    /// Other skills the model loaded instead, with how many runs each.
    pub loaded_instead: BTreeMap<String, u32>,
    /// Runs whose first action was a tool other than `load_skill` (by tool).
    pub other_tools: BTreeMap<String, u32>,
    /// Runs answered from the cache.
    pub cached_runs: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl QueryResult {
    /// Sums the runs of `case` for the skill `skill`.
    #[must_use]
    pub(crate) fn from_runs(
        case: &EvalCase,
        skill: &str,
        records: &[RunRecord],
        threshold: f64,
    ) -> Self {
        let runs = u32::try_from(records.len()).unwrap_or(u32::MAX);
        let mut triggers = 0;
        let mut loaded_instead = BTreeMap::new();
        let mut other_tools = BTreeMap::new();
        for record in records {
            match &record.loaded {
                Some(name) if name == skill => triggers += 1,
                Some(name) => *loaded_instead.entry(name.clone()).or_insert(0) += 1,
                None => {
                    if let Some(tool) = record.tools.first() {
                        *other_tools.entry(tool.clone()).or_insert(0) += 1;
                    }
                }
            }
        }
        let trigger_rate = if runs == 0 {
            0.0
        } else {
            f64::from(triggers) / f64::from(runs)
        };
        Self {
            query: case.query.clone(),
            should_trigger: case.should_trigger,
            trigger_rate,
            trigger_interval: wilson(triggers, runs).unwrap_or([0.0, 1.0]),
            triggers,
            runs,
            pass: runs > 0 && passes(case.should_trigger, trigger_rate, threshold),
            verdict: Verdict::of(case.should_trigger, wilson(triggers, runs), threshold),
            loaded_instead,
            other_tools,
            cached_runs: u32::try_from(records.iter().filter(|it| it.cached).count())
                .unwrap_or(u32::MAX),
            input_tokens: records.iter().map(|it| it.input_tokens).sum(),
            output_tokens: records.iter().map(|it| it.output_tokens).sum(),
        }
    }

    /// Why a failing query failed, in one sentence; `None` when it passed.
    #[must_use]
    pub(crate) fn failure_reason(&self, threshold: f64) -> Option<String> {
        if self.pass {
            return None;
        }
        let instead = if self.loaded_instead.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = self
                .loaded_instead
                .iter()
                .map(|(name, runs)| format!("{name} ({runs}/{})", self.runs))
                .collect();
            format!("; loaded instead: {}", names.join(", "))
        };
        Some(if self.should_trigger {
            format!(
                "should trigger, but triggered in {}/{} runs (rate {:.2} < threshold {threshold}){instead}",
                self.triggers, self.runs, self.trigger_rate
            )
        } else {
            format!(
                "should not trigger, but triggered in {}/{} runs (rate {:.2} >= threshold {threshold})",
                self.triggers, self.runs, self.trigger_rate
            )
        })
    }
}

/// A should-trigger query that loaded another skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Confusion {
    pub query: String,
    /// The skill that won.
    pub skill: String,
    /// In how many runs.
    pub runs: u32,
}

/// Counts over one skill's queries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct SkillSummary {
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
    /// Queries whose interval straddles the threshold: more runs would tell.
    pub undecided: usize,
    /// Of the runs that loaded this skill, the share whose query should trigger it; `None`
    /// when no run loaded it.
    pub precision: Option<f64>,
    /// Of the runs of should-trigger queries, the share that loaded it; `None` without such
    /// queries.
    pub recall: Option<f64>,
    /// The 95 % Wilson score intervals of `precision` and `recall`, `[low, high]`.
    pub precision_interval: Option<[f64; 2]>,
    pub recall_interval: Option<[f64; 2]>,
    /// Of the runs of should-not-trigger queries, the share that loaded it (the false trigger
    /// rate), with its 95 % Wilson interval; `None` without such queries.
    pub false_trigger_rate: Option<f64>,
    pub false_trigger_interval: Option<[f64; 2]>,
    pub runs: u32,
    pub cached_runs: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// The 95 % Wilson score interval of `successes` out of `trials`, `[low, high]`; `None` without
/// trials. Unlike the normal approximation it stays inside `[0, 1]` and is not empty at 0/n or
/// n/n, which matters for the few runs an eval makes.
#[must_use]
pub(crate) fn wilson(successes: u32, trials: u32) -> Option<[f64; 2]> {
    const Z: f64 = 1.959_963_984_540_054;
    if trials == 0 {
        return None;
    }
    let n = f64::from(trials);
    let p = f64::from(successes.min(trials)) / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    // The interval always holds the observed rate; at 0/n and n/n its end is that rate, which
    // the subtraction above misses by a rounding error (2.8e-17 above 0 at 0/6).
    Some([(centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0)])
}

/// Counts of one skill's runs: true and false positives, and the runs that should and should
/// not trigger it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TriggerCounts {
    pub true_positives: u32,
    pub false_positives: u32,
    pub actual_positives: u32,
    pub actual_negatives: u32,
}

impl TriggerCounts {
    #[must_use]
    pub(crate) fn of(results: &[QueryResult]) -> Self {
        let mut counts = Self::default();
        for result in results {
            if result.should_trigger {
                counts.true_positives += result.triggers;
                counts.actual_positives += result.runs;
            } else {
                counts.false_positives += result.triggers;
                counts.actual_negatives += result.runs;
            }
        }
        counts
    }
}

/// Precision and recall of triggering, counted over runs: a run that loads the skill is a
/// positive, a should-trigger query's run is an actual positive.
#[must_use]
pub(crate) fn precision_recall(results: &[QueryResult]) -> (Option<f64>, Option<f64>) {
    let counts = TriggerCounts::of(results);
    (
        ratio(
            counts.true_positives,
            counts.true_positives + counts.false_positives,
        ),
        ratio(counts.true_positives, counts.actual_positives),
    )
}

fn ratio(part: u32, whole: u32) -> Option<f64> {
    (whole > 0).then(|| f64::from(part) / f64::from(whole))
}

/// One skill's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct SkillReport {
    pub skill_name: String,
    /// The description evaluated (the candidate of `--description`, or the file's).
    pub description: String,
    /// Whether `description` is a candidate rather than the file's.
    pub candidate: bool,
    pub eval_set: PathBuf,
    pub results: Vec<QueryResult>,
    pub confusions: Vec<Confusion>,
    pub summary: SkillSummary,
    /// With `--target`: what that client did with the skill (listed it whole, cut, by name
    /// only, or left it out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetView>,
}

impl SkillReport {
    #[must_use]
    pub(crate) fn new(
        skill_name: String,
        description: String,
        candidate: bool,
        eval_set: PathBuf,
        results: Vec<QueryResult>,
    ) -> Self {
        let passed = results.iter().filter(|it| it.pass).count();
        let (precision, recall) = precision_recall(&results);
        let counts = TriggerCounts::of(&results);
        let confusions = results
            .iter()
            .filter(|it| it.should_trigger)
            .flat_map(|result| {
                result.loaded_instead.iter().map(|(skill, runs)| Confusion {
                    query: result.query.clone(),
                    skill: skill.clone(),
                    runs: *runs,
                })
            })
            .collect();
        let summary = SkillSummary {
            total: results.len(),
            passed,
            failed: results.len() - passed,
            undecided: results
                .iter()
                .filter(|it| it.verdict == Verdict::Undecided)
                .count(),
            precision,
            recall,
            precision_interval: wilson(
                counts.true_positives,
                counts.true_positives + counts.false_positives,
            ),
            recall_interval: wilson(counts.true_positives, counts.actual_positives),
            false_trigger_rate: ratio(counts.false_positives, counts.actual_negatives),
            false_trigger_interval: wilson(counts.false_positives, counts.actual_negatives),
            runs: results.iter().map(|it| it.runs).sum(),
            cached_runs: results.iter().map(|it| it.cached_runs).sum(),
            input_tokens: results.iter().map(|it| it.input_tokens).sum(),
            output_tokens: results.iter().map(|it| it.output_tokens).sum(),
        };
        Self {
            skill_name,
            description,
            candidate,
            eval_set,
            results,
            confusions,
            summary,
            target: None,
        }
    }
}

/// Totals over a whole eval run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct Summary {
    pub skills: usize,
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
    pub undecided: usize,
    pub runs: u32,
    pub cached_runs: u32,
    /// Model calls made by this run (cached runs make none).
    pub requests: u32,
    /// Tokens spent by this run: cached runs cost nothing (their own counts stay in their
    /// query's result).
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Runs of this run whose tokens are partly estimated (see `RunRecord::usage_estimated`).
    pub usage_estimated_runs: u32,
    pub elapsed_ms: u64,
}

/// Everything an eval run found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct EvalReport {
    pub provider: String,
    pub model: String,
    pub runs_per_query: u32,
    /// `--runs auto`: undecided queries got more runs than `runs_per_query`, up to the cap.
    pub auto_runs: bool,
    pub threshold: f64,
    pub max_turns: u32,
    pub skills: Vec<SkillReport>,
    pub summary: Summary,
    /// Trouble that did not stop the run (a cache that could not be written).
    pub warnings: Vec<String>,
}

impl EvalReport {
    /// Whether every query passed.
    #[must_use]
    pub(crate) fn passed(&self) -> bool {
        self.summary.failed == 0
    }

    /// What the run was made with, for the JSON.
    fn run_json(&self) -> Value {
        json!({
            "provider": self.provider,
            "model": self.model,
            "runs_per_query": self.runs_per_query,
            "auto_runs": self.auto_runs,
            "threshold": self.threshold,
            "max_turns": self.max_turns,
            "runs": self.summary.runs,
            "cached_runs": self.summary.cached_runs,
            "requests": self.summary.requests,
            "input_tokens": self.summary.input_tokens,
            "output_tokens": self.summary.output_tokens,
            "usage_estimated_runs": self.summary.usage_estimated_runs,
            "elapsed_ms": self.summary.elapsed_ms,
            "warnings": self.warnings,
        })
    }

    /// The JSON of one skill's results as `skill-lsp eval --format json` prints it for one
    /// skill (and `skill/runEvals` answers): skill-creator's `run_eval.py` object and more,
    /// then `run`.
    #[must_use]
    pub(crate) fn skill_json(&self, skill: &SkillReport) -> Value {
        serde_json::to_value(OneSkill {
            skill,
            run: self.run_json(),
        })
        .unwrap_or_default()
    }

    /// The JSON text of `skill-lsp eval --format json`: one skill's object (see
    /// [`Self::skill_json`]), or `{"skills": [...], "summary", "run"}` for several. Keys come
    /// in the order of the structs (`skill_name` first).
    #[must_use]
    pub(crate) fn json_text(&self) -> String {
        let run = self.run_json();
        let text = if let [skill] = self.skills.as_slice() {
            serde_json::to_string_pretty(&OneSkill { skill, run })
        } else {
            serde_json::to_string_pretty(&SeveralSkills {
                skills: &self.skills,
                summary: json!({
                    "total": self.summary.total,
                    "passed": self.summary.passed,
                    "failed": self.summary.failed,
                }),
                run,
            })
        };
        text.unwrap_or_default()
    }
}

/// One skill: skill-creator's `run_eval.py` object and more, then `run`.
#[derive(Serialize)]
struct OneSkill<'a> {
    #[serde(flatten)]
    skill: &'a SkillReport,
    run: Value,
}

/// Several skills.
#[derive(Serialize)]
struct SeveralSkills<'a> {
    skills: &'a [SkillReport],
    summary: Value,
    run: Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(loaded: Option<&str>) -> RunRecord {
        RunRecord {
            loaded: loaded.map(str::to_owned),
            tools: loaded
                .map(|_| "load_skill".to_owned())
                .into_iter()
                .collect(),
            turns: 1,
            input_tokens: 10,
            output_tokens: 2,
            ..RunRecord::default()
        }
    }

    fn case(query: &str, should_trigger: bool) -> EvalCase {
        EvalCase {
            query: query.into(),
            should_trigger,
        }
    }

    #[test]
    fn pass_follows_skill_creator() {
        assert!(passes(true, 0.5, 0.5));
        assert!(!passes(true, 0.49, 0.5));
        assert!(passes(false, 0.49, 0.5));
        assert!(!passes(false, 0.5, 0.5));
        assert!(!passes(false, 0.0, 0.0));
        assert!(passes(true, 0.0, 0.0));
    }

    #[test]
    fn trigger_rate_and_loaded_instead() {
        let records = [record(Some("pdf")), record(None), record(Some("pdf"))];
        let result = QueryResult::from_runs(&case("q", true), "pdf", &records, 0.5);
        assert_eq!((result.triggers, result.runs), (2, 3));
        assert!((result.trigger_rate - 2.0 / 3.0).abs() < 1e-9);
        assert!(result.pass);
        assert_eq!((result.input_tokens, result.output_tokens), (30, 6));

        let records = [
            record(Some("docx")),
            record(Some("docx")),
            record(Some("pdf")),
        ];
        let mut tool = record(None);
        tool.tools = vec!["bash".into()];
        let mut all = records.to_vec();
        all.push(tool);
        let result = QueryResult::from_runs(&case("merge", true), "pdf", &all, 0.5);
        assert!(!result.pass);
        assert_eq!(result.loaded_instead, BTreeMap::from([("docx".into(), 2)]));
        assert_eq!(result.other_tools, BTreeMap::from([("bash".into(), 1)]));
        let reason = result.failure_reason(0.5).unwrap();
        assert!(
            reason.contains("1/4 runs") && reason.contains("docx (2/4)"),
            "{reason}"
        );

        let result = QueryResult::from_runs(&case("weather", false), "pdf", &[record(None)], 0.5);
        assert!(result.pass && result.failure_reason(0.5).is_none());
    }

    #[test]
    fn wilson_intervals() {
        let close = |got: Option<[f64; 2]>, want: [f64; 2]| {
            let got = got.unwrap();
            assert!(
                (got[0] - want[0]).abs() < 5e-4 && (got[1] - want[1]).abs() < 5e-4,
                "{got:?} against {want:?}"
            );
        };
        // Reference values computed apart from this code, with the same formula and z = 1.96.
        close(wilson(0, 6), [0.0, 0.3903]);
        close(wilson(6, 6), [0.6097, 1.0]);
        close(wilson(5, 6), [0.4365, 0.9699]);
        close(wilson(1, 2), [0.0945, 0.9055]);
        assert_eq!(wilson(0, 0), None);
        // The observed rate is inside, exactly at the ends: 0/n starts at 0, n/n ends at 1.
        for trials in 1..=100 {
            assert_eq!(wilson(0, trials).unwrap()[0], 0.0, "0/{trials}");
            assert_eq!(wilson(trials, trials).unwrap()[1], 1.0, "{trials}/{trials}");
            for successes in 0..=trials {
                let [low, high] = wilson(successes, trials).unwrap();
                let rate = f64::from(successes) / f64::from(trials);
                assert!(
                    low <= rate && rate <= high,
                    "{successes}/{trials}: {low}..{high}"
                );
            }
        }
        let result = QueryResult::from_runs(&case("q", true), "pdf", &[record(Some("pdf"))], 0.5);
        close(Some(result.trigger_interval), [0.2065, 1.0]);
    }

    #[test]
    fn precision_recall_over_runs() {
        let results = vec![
            // 3 should-trigger runs, 2 triggered.
            QueryResult::from_runs(
                &case("a", true),
                "pdf",
                &[
                    record(Some("pdf")),
                    record(Some("pdf")),
                    record(Some("docx")),
                ],
                0.5,
            ),
            // 3 should-not runs, 1 triggered.
            QueryResult::from_runs(
                &case("b", false),
                "pdf",
                &[record(Some("pdf")), record(None), record(None)],
                0.5,
            ),
        ];
        let (precision, recall) = precision_recall(&results);
        assert!((precision.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert!((recall.unwrap() - 2.0 / 3.0).abs() < 1e-9);
        let report = SkillReport::new("pdf".into(), "d".into(), false, "x".into(), results);
        assert_eq!((report.summary.passed, report.summary.failed), (2, 0));
        assert_eq!(report.summary.precision_interval, wilson(2, 3));
        assert_eq!(report.summary.recall_interval, wilson(2, 3));
        assert!((report.summary.false_trigger_rate.unwrap() - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(report.summary.false_trigger_interval, wilson(1, 3));
        assert_eq!(
            report.confusions,
            [Confusion {
                query: "a".into(),
                skill: "docx".into(),
                runs: 1
            }]
        );
        // Nothing triggered and nothing should: both undefined.
        let none = [QueryResult::from_runs(
            &case("c", false),
            "pdf",
            &[record(None)],
            0.5,
        )];
        assert_eq!(precision_recall(&none), (None, None));
        // Should trigger but never did: precision undefined, recall 0.
        let missed = [QueryResult::from_runs(
            &case("d", true),
            "pdf",
            &[record(None)],
            0.5,
        )];
        assert_eq!(precision_recall(&missed), (None, Some(0.0)));
    }
}
