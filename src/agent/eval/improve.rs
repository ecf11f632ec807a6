//! `eval --improve`: rewrite a description until its trigger evals pass. The eval set is split
//! into train and test queries (stratified by `should_trigger`, seeded, 60/40); each round the
//! model gets the best description so far and the train queries it fails, and writes a new one;
//! every candidate is measured on all queries, and the best by its test score (then its train
//! score) wins. Test queries are never shown to the model, so the test score says how the
//! description does on queries it was not written for.

use serde::Serialize;

use super::estimate::Estimate;
use super::report::{QueryResult, SkillReport};
use super::run::{EvalError, EvalOptions, Evaluator, Progress, Round, SkillUnderTest};
use crate::agent::provider::{Block, Message, Request, Role};

/// The share of each kind of query that goes to train.
const TRAIN_SHARE: f64 = 0.6;
/// The most characters a description may have (the Agent Skills specification).
pub(crate) const DESCRIPTION_MAX: usize = 1024;
/// Tokens for one rewrite: a description is at most about 250.
const REWRITE_MAX_TOKENS: u32 = 700;

/// Which queries are train and which test, by index into the eval set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Split {
    pub seed: u64,
    pub train: Vec<usize>,
    pub test: Vec<usize>,
}

/// Splits `should_trigger` (one flag per query) 60/40 within each kind, in an order fixed by
/// `seed`: the same set and seed give the same split on every machine.
#[must_use]
pub(crate) fn split(should_trigger: &[bool], seed: u64) -> Split {
    let mut state = seed;
    let mut train = Vec::new();
    let mut test = Vec::new();
    for kind in [true, false] {
        let mut indices: Vec<usize> = (0..should_trigger.len())
            .filter(|&i| should_trigger[i] == kind)
            .collect();
        // Fisher-Yates with splitmix64: no dependency, stable across platforms.
        for i in (1..indices.len()).rev() {
            let j = usize::try_from(splitmix64(&mut state) % (i as u64 + 1)).unwrap_or(0);
            indices.swap(i, j);
        }
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a few dozen queries"
        )]
        let cut = ((indices.len() as f64) * TRAIN_SHARE).round() as usize;
        // Both halves keep a query of each kind when there are two or more.
        let cut = cut.clamp(
            usize::from(indices.len() > 1),
            indices
                .len()
                .saturating_sub(1)
                .max(usize::from(indices.len() == 1)),
        );
        train.extend_from_slice(&indices[..cut]);
        test.extend_from_slice(&indices[cut..]);
    }
    train.sort_unstable();
    test.sort_unstable();
    Split { seed, train, test }
}

/// Tags each progress report of a measurement with the round it belongs to.
fn in_round(
    round: Round,
    on_progress: &mut (dyn FnMut(Progress) + Send),
) -> impl FnMut(Progress) + Send + '_ {
    move |progress: Progress| {
        on_progress(Progress {
            round: Some(round),
            ..progress
        });
    }
}

/// About how long a rewrite prompt is: the fixed words, the outline and current description,
/// and every should-trigger query failing (the most it can hold).
fn rewrite_prompt_bytes(tested: &SkillUnderTest) -> usize {
    let queries: usize = tested
        .set
        .cases
        .iter()
        .map(|case| case.query.len() + 60)
        .sum();
    400 + OUTLINE_CHARS + DESCRIPTION_MAX + queries
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One description measured: how many train and test queries passed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Iteration {
    pub description: String,
    pub train_passed: usize,
    pub train_total: usize,
    pub test_passed: usize,
    pub test_total: usize,
    /// Under `--target`: what the client did with this description when it did not list it
    /// whole (cut it, listed the skill by name only, left it out), as the eval report says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_note: Option<String>,
}

impl Iteration {
    fn of(description: String, report: &SkillReport, split: &Split) -> Self {
        let passed = |indices: &[usize]| {
            indices
                .iter()
                .filter(|&&i| report.results.get(i).is_some_and(|result| result.pass))
                .count()
        };
        Self {
            description,
            train_passed: passed(&split.train),
            train_total: split.train.len(),
            test_passed: passed(&split.test),
            test_total: split.test.len(),
            target_note: report.target.as_ref().and_then(|view| view.note.clone()),
        }
    }

    fn all_pass(&self) -> bool {
        self.train_passed == self.train_total && self.test_passed == self.test_total
    }

    /// Whether this one beats `other`: more test queries passed, then more train queries.
    fn beats(&self, other: &Self) -> bool {
        (self.test_passed, self.train_passed) > (other.test_passed, other.train_passed)
    }
}

/// What `--improve` found: every description tried (the first is the file's) and the best.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Improvement {
    pub skill: String,
    pub split: Split,
    pub iterations: Vec<Iteration>,
    pub best: usize,
    /// Why the loop stopped early, when it did (a rewrite the model could not get right).
    pub warnings: Vec<String>,
}

impl Improvement {
    #[must_use]
    pub(crate) fn best(&self) -> &Iteration {
        &self.iterations[self.best]
    }

    /// What `eval --improve --format json` prints and `skill/improveDescription` answers, before
    /// each front end adds where the file is: `{"improve": {skill, split, iterations, best,
    /// warnings}, "best_description", "improved", "summary"}`.
    #[must_use]
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "improve": self,
            "best_description": self.best().description,
            "improved": self.best > 0,
            "summary": self.summary(),
        })
    }

    /// The outcome in one sentence: `rewrite 3 passes 3/4 test and 6/8 train queries (the
    /// file's description: 1/4 and 6/8)`, or why nothing beat the file's description; then
    /// what the target did with the best, when it did not list it whole.
    #[must_use]
    pub(crate) fn summary(&self) -> String {
        let outcome = self.outcome();
        match &self.best().target_note {
            Some(note) => format!("{outcome}. {note}"),
            None => outcome,
        }
    }

    fn outcome(&self) -> String {
        let (first, best) = (&self.iterations[0], self.best());
        if self.best > 0 {
            return format!(
                "rewrite {} passes {}/{} test and {}/{} train queries (the file's description: {}/{} and {}/{})",
                self.best,
                best.test_passed,
                best.test_total,
                best.train_passed,
                best.train_total,
                first.test_passed,
                first.test_total,
                first.train_passed,
                first.train_total
            );
        }
        if first.all_pass() {
            "every query passes with the file's description: nothing to improve".to_owned()
        } else {
            format!(
                "no rewrite beat the file's description ({}/{} test, {}/{} train queries) in {} tries",
                first.test_passed,
                first.test_total,
                first.train_passed,
                first.train_total,
                self.iterations.len() - 1
            )
        }
    }
}

/// What is wrong with a candidate description, if anything.
#[must_use]
pub(crate) fn candidate_problem(description: &str) -> Option<String> {
    if description.trim().is_empty() {
        return Some("it is empty".to_owned());
    }
    let chars = description.chars().count();
    if chars > DESCRIPTION_MAX {
        return Some(format!(
            "it has {chars} characters; the most is {DESCRIPTION_MAX}"
        ));
    }
    if description.contains(['<', '>']) {
        return Some("it contains < or >, which clients reject".to_owned());
    }
    None
}

/// The description in a rewrite reply: the text, out of a code fence or quotes if the model
/// put it in one, on one line.
#[must_use]
pub(crate) fn description_in(reply: &str) -> String {
    let mut text = reply.trim();
    if let Some(inner) = text.strip_prefix("```") {
        let inner = inner.split_once('\n').map_or("", |(_, rest)| rest);
        text = inner
            .rsplit_once("```")
            .map_or(inner, |(body, _)| body)
            .trim();
    }
    for quote in ['"', '\'', '`'] {
        if text.len() > 1 && text.starts_with(quote) && text.ends_with(quote) {
            text = &text[1..text.len() - 1];
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

const REWRITE_SYSTEM: &str = "You improve the description of an Agent Skill. An agent sees only \
each skill's name and description in a catalog, and loads a skill when a user's request matches \
its description. Write a description that makes the agent load this skill for the requests it \
is for, and not for the others: say what the skill does and when to use it, naming the words \
users write. Answer with the description alone: one paragraph of plain text, at most 1024 \
characters, without < or >.";

/// How much of the skill's outline a rewrite sees.
const OUTLINE_CHARS: usize = 800;

/// What a rewrite is asked from: the skill, what it does, its best description so far and the
/// train queries that one fails, and the rewrites that did no better.
struct RewriteAsk<'a> {
    skill: &'a str,
    outline: &'a str,
    current: &'a str,
    failing: &'a [&'a QueryResult],
    tried: &'a [&'a Iteration],
}

fn rewrite_prompt(ask: &RewriteAsk<'_>, problem: Option<&str>) -> String {
    let RewriteAsk {
        skill,
        outline,
        current,
        failing,
        tried,
    } = ask;
    let mut prompt = format!("Skill: {skill}\n");
    // The headings say what the skill covers; small models given the text itself copy it back
    // instead of describing it.
    if !outline.is_empty() {
        prompt.push_str(&format!("The sections of its instructions: {outline}\n\n"));
    }
    prompt.push_str(&format!(
        "Current description: {current}\n\nWith it, the agent got these requests wrong:\n"
    ));
    for result in *failing {
        let what = if result.should_trigger {
            let instead = result
                .loaded_instead
                .keys()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            if instead.is_empty() {
                "should load this skill, but the agent did not".to_owned()
            } else {
                format!("should load this skill, but the agent loaded {instead}")
            }
        } else {
            "should not load this skill, but the agent did".to_owned()
        };
        prompt.push_str(&format!("- \"{}\": {what}\n", result.query));
    }
    if !tried.is_empty() {
        prompt.push_str(
            "\nThese descriptions were tried and did no better; write something different:\n",
        );
        for iteration in *tried {
            prompt.push_str(&format!("- {}\n", iteration.description));
        }
    }
    if let Some(problem) = problem {
        prompt.push_str(&format!(
            "\nYour last description could not be used: {problem}.\n"
        ));
    }
    // Small models tend to echo the instructions: the limit is said again, last.
    prompt.push_str(
        "\nWrite the new description now: one paragraph of at most 80 words, and nothing else.",
    );
    prompt
}

/// The headings of the SKILL.md at `path`, joined with `; ` and cut at [`OUTLINE_CHARS`];
/// empty when it cannot be read or has none.
fn skill_outline(path: &std::path::Path) -> String {
    let Ok(text) = crate::workspace::read::read_text(path) else {
        return String::new();
    };
    let split = crate::document::frontmatter::split(&text);
    let mut in_fence = false;
    let headings: Vec<&str> = text[split.body.as_range()]
        .lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            !in_fence && line.starts_with('#')
        })
        .map(|line| line.trim_start_matches('#').trim())
        .filter(|heading| !heading.is_empty())
        .collect();
    headings.join("; ").chars().take(OUTLINE_CHARS).collect()
}

impl Evaluator {
    /// The loop of `--improve` for one skill: measure its description, then up to
    /// `iterations` rewrites, each measured on every query; stops once one passes them all.
    ///
    /// # Errors
    /// As [`Evaluator::run`], and a model call for a rewrite that failed.
    pub(crate) async fn improve(
        &self,
        tested: &SkillUnderTest,
        options: &EvalOptions,
        iterations: u32,
        seed: u64,
        on_progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Improvement, EvalError> {
        let kinds: Vec<bool> = tested
            .set
            .cases
            .iter()
            .map(|case| case.should_trigger)
            .collect();
        let split = split(&kinds, seed);
        let mut round = Round {
            number: 0,
            of: iterations,
            rewriting: false,
        };
        let report = self
            .run(
                std::slice::from_ref(tested),
                options,
                &mut in_round(round, on_progress),
            )
            .await?;
        let first = report
            .skills
            .first()
            .ok_or_else(|| EvalError::Setup(format!("no results for {}", tested.skill)))?;
        let outline = self
            .registry
            .get(&tested.skill)
            .map(|skill| skill_outline(&skill.path))
            .unwrap_or_default();
        let mut tried = vec![Iteration::of(first.description.clone(), first, &split)];
        let mut results = first.results.clone();
        let mut best = 0;
        let mut warnings = Vec::new();
        for number in 1..=iterations {
            if tried[best].all_pass() {
                break;
            }
            round = Round {
                number,
                rewriting: true,
                ..round
            };
            on_progress(Progress {
                done: 0,
                total: 0,
                cached: 0,
                finished: None,
                round: Some(round),
            });
            round.rewriting = false;
            let failing: Vec<&QueryResult> = split
                .train
                .iter()
                .filter_map(|&i| results.get(i))
                .filter(|result| !result.pass)
                .collect();
            // Each description that did no better, once (the model may repeat itself).
            let mut worse: Vec<&Iteration> = Vec::new();
            for iteration in &tried {
                if iteration.description != tried[best].description
                    && !worse
                        .iter()
                        .any(|it| it.description == iteration.description)
                {
                    worse.push(iteration);
                }
            }
            let ask = RewriteAsk {
                skill: &tested.skill,
                outline: &outline,
                current: &tried[best].description,
                failing: &failing,
                tried: &worse,
            };
            let candidate = match self
                .rewrite(&ask)
                .await
                .map_err(|error| EvalError::Provider {
                    skill: tested.skill.clone(),
                    query: "(rewriting the description)".to_owned(),
                    error,
                })? {
                Ok(candidate) => candidate,
                Err(problem) => {
                    warnings.push(format!(
                        "the model wrote no usable description twice in a row (the last: {problem}); stopped"
                    ));
                    break;
                }
            };
            // A rewrite already measured would measure the same: list it as tried instead.
            if let Some(same) = tried.iter().find(|it| it.description == candidate) {
                let again = same.clone();
                tried.push(again);
                continue;
            }
            let candidate_test = SkillUnderTest {
                description: Some(candidate.clone()),
                ..tested.clone()
            };
            let report = self
                .run(
                    std::slice::from_ref(&candidate_test),
                    options,
                    &mut in_round(round, on_progress),
                )
                .await?;
            let Some(measured) = report.skills.first() else {
                break;
            };
            let iteration = Iteration::of(candidate, measured, &split);
            if iteration.beats(&tried[best]) {
                best = tried.len();
                results.clone_from(&measured.results);
            }
            tried.push(iteration);
        }
        Ok(Improvement {
            skill: tested.skill.clone(),
            split,
            iterations: tried,
            best,
            warnings,
        })
    }

    /// What `--improve` may cost, before anything is sent: at least the measurement of the
    /// file's description (all queries may pass at once), at most that and, for each of the
    /// `iterations` rewrites, two writing requests and every query measured afresh.
    ///
    /// # Errors
    /// As [`Evaluator::estimate`].
    pub(crate) fn estimate_improve(
        &self,
        tested: &SkillUnderTest,
        options: &EvalOptions,
        iterations: u32,
    ) -> Result<Estimate, EvalError> {
        let first = self.estimate(std::slice::from_ref(tested), options)?;
        // A rewrite is a new description: the cache answers none of its runs.
        let afresh = EvalOptions {
            read_cache: false,
            max_requests: None,
            ..options.clone()
        };
        let candidate = self.estimate(std::slice::from_ref(tested), &afresh)?;
        let rewrite_bytes = (REWRITE_SYSTEM.len() + rewrite_prompt_bytes(tested)) as u64;
        Ok(first.with_rewrites(
            &candidate,
            iterations,
            rewrite_bytes,
            u64::from(REWRITE_MAX_TOKENS),
            options.max_requests,
        ))
    }

    /// One rewrite: the model's new description, asked again once if the first is unusable;
    /// what is wrong with the second when it is not usable either.
    async fn rewrite(
        &self,
        ask: &RewriteAsk<'_>,
    ) -> Result<Result<String, String>, crate::agent::provider::ProviderError> {
        let mut problem: Option<String> = None;
        for _ in 0..2 {
            let messages = [Message {
                role: Role::User,
                content: vec![Block::Text {
                    text: rewrite_prompt(ask, problem.as_deref()),
                }],
            }];
            let request = Request {
                model: self.provider.model(),
                system: REWRITE_SYSTEM,
                messages: &messages,
                tools: &[],
                max_tokens: REWRITE_MAX_TOKENS,
            };
            let response = self.provider.send(request, &mut |_| {}).await?;
            let reply = response.text();
            let candidate = description_in(&reply);
            match candidate_problem(&candidate) {
                None => return Ok(Ok(candidate)),
                Some(found) => problem = Some(found),
            }
        }
        Ok(Err(problem.unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_stratified_seeded_and_stable() {
        let kinds = [
            true, true, true, true, true, false, false, false, false, false,
        ];
        let one = split(&kinds, 7);
        assert_eq!(one, split(&kinds, 7));
        assert_eq!((one.train.len(), one.test.len()), (6, 4));
        let trains =
            |indices: &[usize], kind: bool| indices.iter().filter(|&&i| kinds[i] == kind).count();
        assert_eq!(
            (trains(&one.train, true), trains(&one.train, false)),
            (3, 3)
        );
        assert_ne!(
            one.train,
            split(&kinds, 8).train,
            "another seed, another split"
        );
        // Three of a kind: two train, one test; two: one each.
        let small = split(&[true, true, true, false, false], 1);
        assert_eq!((small.train.len(), small.test.len()), (3, 2));
    }

    #[test]
    fn a_reply_gives_its_description_on_one_line() {
        assert_eq!(
            description_in("  \"Fills PDF forms.\"  "),
            "Fills PDF forms."
        );
        assert_eq!(
            description_in("```text\nFills PDF forms.\nUse for PDFs.\n```"),
            "Fills PDF forms. Use for PDFs."
        );
        assert_eq!(
            candidate_problem("Use <b>"),
            Some("it contains < or >, which clients reject".to_owned())
        );
        assert!(
            candidate_problem(&"x".repeat(1025))
                .unwrap()
                .contains("1025 characters")
        );
        assert_eq!(candidate_problem("Fills PDF forms."), None);
    }
}
