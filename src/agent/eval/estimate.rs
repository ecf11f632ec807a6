//! What an eval would cost before anything is sent (`--dry-run`): the runs the cache does not
//! answer, the requests they make and the tokens those take. Tokens are counted from each first
//! request's size in bytes, at the ratio this model's earlier runs showed (their records keep
//! both numbers) or, before any, at a rough 3.5 bytes a token.

use serde::Serialize;
use serde_json::{Value, json};

use super::report::RunRecord;
use crate::config::Price;
use crate::text::thousands;

/// Bytes a token before any run of the model has calibrated it. English prose and JSON come to
/// 3.5 to 4.5 with the common tokenizers, but a request's bytes as we measure them leave out what
/// the provider wraps around them (its tool-call instructions, the chat template): measured on
/// Qwen2.5-Coder behind llama-server, 4 bytes a token came to 0.88 of the tokens it reported,
/// 3.5 to within 1 % (BENCHMARKS.md).
const ROUGH_BYTES_PER_TOKEN: f64 = 3.5;
/// Output tokens a routing request takes before any run has measured it: one tool call.
const ROUGH_OUTPUT_TOKENS: f64 = 30.0;
/// What one more turn adds to a request: the call before it and the look around's answer (at
/// most 2,000 characters).
const TURN_TOKENS: f64 = 600.0;

/// The tokens-per-byte ratio and output size of a model, from its cached runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub(crate) struct Calibration {
    /// Runs calibrated on: one request each, with the input tokens the provider reported.
    pub runs: u64,
    pub bytes: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Calibration {
    /// The ratio `records` of one model tell: the runs of one model call each whose usage the
    /// provider reported (not the ones we estimated).
    pub(crate) fn of(records: &[RunRecord]) -> Self {
        let mut calibration = Self::default();
        for record in records.iter().filter(|record| {
            record.turns == 1
                && record.restarts == 0
                && !record.usage_estimated
                && record.input_tokens > 0
                && record.request_bytes > 0
        }) {
            calibration.runs += 1;
            calibration.bytes += record.request_bytes;
            calibration.input_tokens += record.input_tokens;
            calibration.output_tokens += record.output_tokens;
        }
        calibration
    }

    #[allow(
        clippy::cast_precision_loss,
        reason = "byte and token counts far below 2^52"
    )]
    fn bytes_per_token(&self) -> f64 {
        if self.input_tokens == 0 {
            ROUGH_BYTES_PER_TOKEN
        } else {
            self.bytes as f64 / self.input_tokens as f64
        }
    }

    /// The tokens `bytes` of a request or reply come to, at this ratio (at least one).
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "byte and token counts far below 2^52"
    )]
    pub(crate) fn tokens_of(&self, bytes: u64) -> u64 {
        ((bytes as f64 / self.bytes_per_token()).round() as u64).max(1)
    }

    #[allow(clippy::cast_precision_loss, reason = "token counts far below 2^52")]
    fn output_per_request(&self) -> f64 {
        if self.runs == 0 {
            ROUGH_OUTPUT_TOKENS
        } else {
            self.output_tokens as f64 / self.runs as f64
        }
    }
}

/// An eval's cost, before it runs: the least (every run decides at its first call) and the
/// most (every run takes all its turns), capped by `--max-requests`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Estimate {
    pub runs: usize,
    pub cached_runs: usize,
    pub requests: u64,
    pub requests_at_most: u64,
    pub input_tokens: u64,
    pub input_tokens_at_most: u64,
    pub output_tokens: u64,
    pub output_tokens_at_most: u64,
    pub max_turns: u32,
    pub calibration: Calibration,
    /// For `--improve`: the rewrites it may try, each measured on `rewrite_runs` fresh runs
    /// (both 0 for a plain eval).
    pub rewrites: u32,
    pub rewrite_runs: usize,
    /// For `--runs auto`: the runs it may make when every query stays undecided (0 otherwise).
    pub runs_at_most: usize,
    /// Under `--target`: per skill the client cut or dropped, `skill: what it did`, so that a
    /// run whose skill the client never shows can be called off before it is paid for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target_notes: Vec<String>,
}

impl Estimate {
    /// `first_requests` holds the first request's size in bytes of each run to make.
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "token estimates: whole, positive and far below 2^52"
    )]
    pub(crate) fn new(
        runs: usize,
        cached_runs: usize,
        first_requests: &[u64],
        max_turns: u32,
        max_requests: Option<u64>,
        calibration: Calibration,
    ) -> Self {
        let turns = u64::from(max_turns.max(1));
        let per_byte = 1.0 / calibration.bytes_per_token();
        let output = calibration.output_per_request();
        let made = first_requests.len() as u64;
        let cap = |requests: u64| max_requests.map_or(requests, |cap| requests.min(cap));
        let (requests, requests_at_most) = (cap(made), cap(made * turns));
        // Runs in order until the cap: the first requests of the runs that fit it.
        let first: f64 = first_requests
            .iter()
            .take(usize::try_from(requests).unwrap_or(usize::MAX))
            .map(|bytes| *bytes as f64 * per_byte)
            .sum();
        let mut most = 0.0;
        let mut sent = 0;
        'runs: for bytes in first_requests {
            for turn in 0..turns {
                if sent == requests_at_most {
                    break 'runs;
                }
                most += *bytes as f64 * per_byte + turn as f64 * TURN_TOKENS;
                sent += 1;
            }
        }
        Self {
            runs,
            cached_runs,
            requests,
            requests_at_most,
            input_tokens: first.round() as u64,
            input_tokens_at_most: most.round() as u64,
            output_tokens: (requests as f64 * output).round() as u64,
            output_tokens_at_most: (requests_at_most as f64 * output).round() as u64,
            max_turns: max_turns.max(1),
            calibration,
            rewrites: 0,
            rewrite_runs: 0,
            runs_at_most: 0,
            target_notes: Vec::new(),
        }
    }

    /// This estimate with the most of `most` (the same eval with more runs per query): what
    /// `--runs auto` may send if it adds runs to every query.
    #[must_use]
    pub(crate) fn up_to(mut self, most: &Self) -> Self {
        self.runs_at_most = most.runs;
        self.requests_at_most = self.requests_at_most.max(most.requests_at_most);
        self.input_tokens_at_most = self.input_tokens_at_most.max(most.input_tokens_at_most);
        self.output_tokens_at_most = self.output_tokens_at_most.max(most.output_tokens_at_most);
        self
    }

    /// This estimate (of the file's description) followed by up to `rewrites` rewrites: each
    /// two writing requests of about `rewrite_bytes` (a reply may be refused and asked again)
    /// answered in up to `rewrite_tokens`, then the runs of `candidate` (the same queries,
    /// none cached). The least stays this estimate's: every query may pass at once.
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "token estimates: whole, positive and far below 2^52"
    )]
    #[must_use]
    pub(crate) fn with_rewrites(
        mut self,
        candidate: &Self,
        rewrites: u32,
        rewrite_bytes: u64,
        rewrite_tokens: u64,
        max_requests: Option<u64>,
    ) -> Self {
        let times = u64::from(rewrites);
        let writing = rewrite_bytes as f64 / self.calibration.bytes_per_token();
        let requests = self.requests_at_most + times * (2 + candidate.requests_at_most);
        let input = self.input_tokens_at_most
            + times * (candidate.input_tokens_at_most + 2 * writing as u64);
        let output = self.output_tokens_at_most
            + times * (candidate.output_tokens_at_most + 2 * rewrite_tokens);
        // A cap stops the loop part way: scale the tokens by the share of requests it allows.
        let capped = max_requests.map_or(requests, |cap| requests.min(cap));
        let share = if requests == 0 {
            1.0
        } else {
            capped as f64 / requests as f64
        };
        self.requests_at_most = capped;
        self.input_tokens_at_most = ((input as f64) * share).round() as u64;
        self.output_tokens_at_most = ((output as f64) * share).round() as u64;
        self.input_tokens_at_most = self.input_tokens_at_most.max(self.input_tokens);
        self.output_tokens_at_most = self.output_tokens_at_most.max(self.output_tokens);
        self.rewrites = rewrites;
        self.rewrite_runs = candidate.runs;
        self
    }
}

impl Estimate {
    /// The least and most the estimate costs at `price` (per million tokens).
    #[allow(clippy::cast_precision_loss, reason = "token counts far below 2^52")]
    #[must_use]
    pub(crate) fn cost(&self, price: &Price) -> (f64, f64) {
        let at = |input: u64, output: u64| {
            (input as f64 * price.input + output as f64 * price.output) / 1_000_000.0
        };
        (
            at(self.input_tokens, self.output_tokens),
            at(self.input_tokens_at_most, self.output_tokens_at_most),
        )
    }

    /// The estimate in one line, as the editors show it before a run: `up to 27 model requests
    /// (9 runs, 0 cached), about 4,100 to 18,300 input tokens, 0.0140 to 0.0620 USD`, then each
    /// of [`Estimate::target_notes`] as a sentence.
    #[must_use]
    pub(crate) fn summary(&self, price: Option<&Price>) -> String {
        let mut text = format!(
            "up to {} model requests ({} runs, {} cached",
            thousands(self.requests_at_most),
            thousands(self.runs as u64),
            thousands(self.cached_runs as u64),
        );
        if self.runs_at_most > self.runs {
            text.push_str(&format!(
                ", up to {} as undecided queries get more",
                thousands(self.runs_at_most as u64)
            ));
        }
        if self.rewrites > 0 {
            text.push_str(&format!(
                "; then up to {} rewrites of {} runs each",
                self.rewrites,
                thousands(self.rewrite_runs as u64)
            ));
        }
        text.push_str(&format!(
            "), about {} input tokens",
            range(self.input_tokens, self.input_tokens_at_most)
        ));
        if let Some(price) = price {
            let (least, most) = self.cost(price);
            text.push_str(", ");
            text.push_str(&money_range(least, most, &price.currency));
        }
        // What the target does with the skill belongs in the question asked before a run.
        for note in &self.target_notes {
            text.push_str(". ");
            text.push_str(note);
        }
        text
    }

    /// What `eval --dry-run --format json` prints and `skill/runEvals` with `dryRun` answers:
    /// `{"dry_run": {…}, "model", "summary", "cost"?: {"least", "most", "currency"}}`.
    #[must_use]
    pub(crate) fn json(&self, model: &str, price: Option<&Price>) -> Value {
        let mut value = json!({"dry_run": self, "model": model, "summary": self.summary(price)});
        if let Some(price) = price {
            let (least, most) = self.cost(price);
            value["cost"] = json!({"least": least, "most": most, "currency": price.currency});
        }
        value
    }
}

/// `4,100`, or `4,100 to 18,300` when the least and the most differ.
#[must_use]
pub(crate) fn range(least: u64, most: u64) -> String {
    if least == most {
        thousands(least)
    } else {
        format!("{} to {}", thousands(least), thousands(most))
    }
}

/// `0.0140 USD`, or `0.0140 USD to 0.0620 USD`: four decimals below one unit, where cents would
/// hide a small eval's cost.
#[must_use]
pub(crate) fn money_range(least: f64, most: f64, currency: &str) -> String {
    let money = |value: f64| {
        if value < 1.0 {
            format!("{value:.4} {currency}")
        } else {
            format!("{value:.2} {currency}")
        }
    };
    let (least, most) = (money(least), money(most));
    if least == most {
        least
    } else {
        format!("{least} to {most}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rough_until_calibrated_then_at_the_measured_ratio() {
        let rough = Estimate::new(
            5,
            1,
            &[3500, 3500, 3850, 3500],
            3,
            None,
            Calibration::default(),
        );
        assert_eq!((rough.requests, rough.requests_at_most), (4, 12));
        assert_eq!(rough.input_tokens, 4100);
        // Each extra turn re-sends the request and what came back.
        assert_eq!(rough.input_tokens_at_most, 3 * 4100 + 4 * (600 + 1200));
        assert_eq!(
            (rough.output_tokens, rough.output_tokens_at_most),
            (120, 360)
        );

        let measured = Calibration {
            runs: 2,
            bytes: 7000,
            input_tokens: 2000,
            output_tokens: 50,
        };
        let estimate = Estimate::new(5, 1, &[3500, 3500], 1, None, measured);
        assert_eq!(estimate.input_tokens, 2000);
        assert_eq!(estimate.output_tokens, 50);
        assert_eq!(estimate.requests_at_most, 2);
    }

    #[test]
    fn rewrites_add_to_the_most_and_never_to_the_least() {
        let first = Estimate::new(4, 2, &[350, 350], 1, None, Calibration::default());
        let fresh = Estimate::new(4, 0, &[350; 4], 1, None, Calibration::default());
        let improve = first.clone().with_rewrites(&fresh, 3, 1750, 700, None);
        assert_eq!((improve.requests, improve.input_tokens), (2, 200));
        // 2 runs, then 3 rewrites of 2 writing requests and 4 runs each.
        assert_eq!(improve.requests_at_most, 2 + 3 * (2 + 4));
        assert_eq!(improve.input_tokens_at_most, 200 + 3 * (400 + 2 * 500));
        assert_eq!(improve.output_tokens_at_most, 60 + 3 * (120 + 2 * 700));
        assert!(
            improve.summary(None).starts_with(
                "up to 20 model requests (4 runs, 2 cached; then up to 3 rewrites of 4 runs each)"
            ),
            "{}",
            improve.summary(None)
        );
        let capped = first.with_rewrites(&fresh, 3, 1750, 700, Some(10));
        assert_eq!(capped.requests_at_most, 10);
        assert!(capped.input_tokens_at_most < improve.input_tokens_at_most);
    }

    #[test]
    fn the_request_cap_bounds_the_estimate() {
        let estimate = Estimate::new(3, 0, &[350, 350, 350], 2, Some(4), Calibration::default());
        assert_eq!((estimate.requests, estimate.requests_at_most), (3, 4));
        assert_eq!(estimate.input_tokens, 300);
        assert_eq!(estimate.input_tokens_at_most, 100 + 700 + 100 + 700);
    }
}
