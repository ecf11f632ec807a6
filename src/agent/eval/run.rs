//! The measurement: for each query of each eval set, the routing step of the agent loop
//! (design.md §6) — the real system prompt with the whole workspace catalog, the six tool specs, the
//! query as the user message — repeated `runs` times, concurrently, through the provider's own
//! retry policy, with every run cached on disk.
//!
//! The model's first `load_skill` within `max_turns` model calls decides a run: for the skill
//! under test it triggers it, for another skill it is a confusion; no load (a text answer, or
//! the turns spent looking around) does not trigger. Each call is decided by its first complete
//! tool call; its stream is read on only for a short grace, for the usage the provider reports
//! at its end (`route`), so a run's tokens are the provider's or marked as estimated. A call
//! other than `load_skill` is answered from a read-only view of the workspace (files are listed
//! and read for real; commands and writes are refused) and the model goes on, as it would in a
//! chat. With `max_turns` 1 (`--first-call-only`) only
//! the first call counts.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use super::cache::{cache_key, model_records, prepare_cache, read_cached, write_cached};
use super::estimate::{Calibration, Estimate};
use super::report::{EvalReport, QueryResult, RunRecord, SkillReport, Summary, Verdict};
use super::route::{Limits, ROUTING_MAX_TOKENS, RequestBudget, request_bytes, route};
use super::set::EvalSet;
use super::target::{self, Target, TargetView};
use crate::agent::provider::{Provider, ProviderError, ToolSpec, Usage};
use crate::agent::session::system_prompt;
use crate::agent::tools;
use crate::workspace::open::{SkillRef, find_skill};
use crate::workspace::{Disk, Registry};

/// Defaults of `skill-lsp eval`.
pub(crate) const DEFAULT_RUNS: u32 = 3;
pub(crate) const DEFAULT_THRESHOLD: f64 = 0.5;
pub(crate) const DEFAULT_JOBS: usize = 4;
pub(crate) const DEFAULT_MAX_TURNS: u32 = 3;

/// One skill under test.
#[derive(Clone, Debug)]
pub(crate) struct SkillUnderTest {
    /// Its name in the registry.
    pub skill: String,
    /// A candidate description shown in the catalog instead of the file's.
    pub description: Option<String>,
    pub set: EvalSet,
}

/// How to measure.
#[derive(Clone, Debug)]
pub(crate) struct EvalOptions {
    pub runs: u32,
    pub threshold: f64,
    pub jobs: usize,
    pub max_turns: u32,
    /// Tokens per model call.
    pub max_tokens: u32,
    /// Where runs are cached; `None` keeps nothing.
    pub cache_dir: Option<PathBuf>,
    /// Whether cached runs are used (`--no-cache` sends every run again, and caches it anew).
    pub read_cache: bool,
    /// The most model calls the eval may send (`--max-requests`); `None` for no cap. Runs the
    /// cap leaves unmade are reported as such, and the ones made stay cached.
    pub max_requests: Option<u64>,
    /// `--runs auto`: after `runs` runs of every query, one more run at a time for each query
    /// still undecided, up to [`AUTO_RUNS_CAP`] runs.
    pub auto_runs: bool,
}

/// The most runs `--runs auto` gives a query: at a trigger rate near the threshold, ten runs
/// still leave an interval about 0.5 wide, and further runs cost more than they tell.
pub(crate) const AUTO_RUNS_CAP: u32 = 10;

impl Default for EvalOptions {
    fn default() -> Self {
        Self {
            runs: DEFAULT_RUNS,
            threshold: DEFAULT_THRESHOLD,
            jobs: DEFAULT_JOBS,
            max_turns: DEFAULT_MAX_TURNS,
            max_tokens: ROUTING_MAX_TOKENS,
            cache_dir: None,
            read_cache: true,
            max_requests: None,
            auto_runs: false,
        }
    }
}

impl EvalOptions {
    /// What is wrong with the measuring options, each message naming the option as `name`
    /// spells it (`--max-turns` on the command line, `maxTurns` in `skill/runEvals`) from its
    /// kebab-case name.
    pub(crate) fn problems(&self, name: impl Fn(&str) -> String) -> Vec<String> {
        let mut problems = Vec::new();
        if self.runs == 0 {
            problems.push(format!("{} must be at least 1", name("runs")));
        }
        if !(0.0..=1.0).contains(&self.threshold) {
            problems.push(format!(
                "{} must be between 0 and 1, got {}",
                name("threshold"),
                self.threshold
            ));
        }
        if self.jobs == 0 {
            problems.push(format!("{} must be at least 1", name("jobs")));
        }
        if self.max_turns == 0 {
            problems.push(format!("{} must be at least 1", name("max-turns")));
        }
        if self.max_tokens == 0 {
            problems.push(format!("{} must be at least 1", name("max-tokens")));
        }
        if self.max_requests == Some(0) {
            problems.push(format!("{} must be at least 1", name("max-requests")));
        }
        problems
    }
}

/// How far a run has got, for a progress bar, and the query whose last run just finished.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Progress {
    pub done: usize,
    pub total: usize,
    pub cached: usize,
    /// The skill under test and the result of a query all of whose runs are now done (from the
    /// cache or the model); `None` when no query finished with this step.
    pub finished: Option<(String, QueryResult)>,
    /// Which description of `--improve` this is about; `None` for a plain eval.
    pub round: Option<Round>,
}

/// Where `--improve` is: description `number` of at most `of` (the file's is 0), and whether
/// the model is writing it (no runs yet) or its runs are being measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Round {
    pub number: u32,
    pub of: u32,
    pub rewriting: bool,
}

impl Round {
    /// `measuring the description` or `rewrite 2 of 5`, what a progress line starts with.
    #[must_use]
    pub(crate) fn label(&self) -> String {
        match (self.number, self.rewriting) {
            (0, _) => "measuring the description".to_owned(),
            (number, true) => format!("rewrite {number} of {}: writing", self.of),
            (number, false) => format!("rewrite {number} of {}", self.of),
        }
    }
}

/// Why an eval run stopped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EvalError {
    #[error("{0}")]
    Setup(String),
    /// A model call failed after the provider's retries; the runs finished before it are cached.
    #[error("{skill}: query {query:?}: {error}")]
    Provider {
        skill: String,
        query: String,
        error: ProviderError,
    },
}

/// The workspace an eval runs in: its provider, folder and registry, and the client whose
/// listing of the registry the model is sent (`--target`; `None`: the agent's own catalog).
/// With a target, the registry must hold that client's readings (`Registry::read_clients`).
pub(crate) struct Evaluator {
    pub provider: Arc<dyn Provider>,
    pub workspace: PathBuf,
    pub registry: Registry,
    pub target: Option<Target>,
}

/// What one skill's runs are sent with.
struct Prompt {
    system: Arc<str>,
    tools: Arc<Vec<ToolSpec>>,
    description: String,
    /// Under a target: the skill each name the model may load counts for, and what the target
    /// did with the skill under test.
    target: Option<(HashMap<String, String>, TargetView)>,
}

impl Prompt {
    /// The run as counted: under a target, a load of a name the client lists counts for the
    /// skill listed under it, and a load of a name it does not list counts for none.
    fn counted(&self, mut record: RunRecord) -> RunRecord {
        if let (Some((loads, view)), Some(name)) = (&self.target, &record.loaded) {
            record.loaded = Some(
                loads
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| format!("{name} (not listed by {})", view.client)),
            );
        }
        record
    }
}

/// One run to make.
struct Job {
    tested: usize,
    case: usize,
    run: u32,
    key: String,
}

impl Evaluator {
    /// The system prompt and tools the routing step of `tested` is sent (with its candidate
    /// description in the catalog, if any), and the description evaluated; under a target, its
    /// listing, and how loads count.
    ///
    /// # Errors
    /// An unknown skill; under a target, a candidate that cannot be written into its SKILL.md.
    fn prompt(&self, tested: &SkillUnderTest) -> Result<Prompt, EvalError> {
        let skill = find_skill(
            &self.registry,
            SkillRef::Name(&tested.skill),
            &self.workspace,
        )
        .map_err(|error| EvalError::Setup(error.to_string()))?;
        if let Some(listed_by) = self.target {
            let changed = match &tested.description {
                Some(candidate) => Some(
                    target::with_candidate(
                        &self.registry,
                        listed_by.client,
                        &skill.path,
                        candidate,
                        &Disk,
                    )
                    .map_err(EvalError::Setup)?,
                ),
                None => None,
            };
            let registry = changed.as_ref().unwrap_or(&self.registry);
            let routing = target::routing(registry, listed_by, &skill.path, &tested.skill);
            let names: Vec<&str> = routing.names.iter().map(String::as_str).collect();
            return Ok(Prompt {
                system: Arc::from(system_prompt(&self.workspace, &routing.catalog)),
                tools: Arc::new(tools::specs(&names)),
                description: tested
                    .description
                    .clone()
                    .unwrap_or_else(|| skill.description.clone()),
                target: Some((routing.loads, routing.view)),
            });
        }
        let mut registry = self.registry.clone();
        let description = match &tested.description {
            Some(candidate) => {
                for entry in registry
                    .skills
                    .iter_mut()
                    .filter(|entry| entry.path == skill.path)
                {
                    candidate.clone_into(&mut entry.description);
                }
                candidate.clone()
            }
            None => skill.description.clone(),
        };
        let system = system_prompt(&self.workspace, &registry.catalog());
        let tools = tools::specs(&registry.names());
        Ok(Prompt {
            system: Arc::from(system),
            tools: Arc::new(tools),
            description,
            target: None,
        })
    }

    /// What [`Self::run`] would send with these options, nothing sent: the runs the cache does
    /// not answer, their requests and tokens.
    ///
    /// # Errors
    /// An unknown skill.
    pub(crate) fn estimate(
        &self,
        under_test: &[SkillUnderTest],
        options: &EvalOptions,
    ) -> Result<Estimate, EvalError> {
        let prompts = self.prompts(under_test)?;
        let runs = RunsOf {
            under_test,
            options,
            prompts: &prompts,
        };
        let (tally, queue) = self.plan(&runs);
        let first_requests: Vec<u64> = queue
            .iter()
            .map(|job| {
                let prompt = &prompts[job.tested];
                let query = &under_test[job.tested].set.cases[job.case].query;
                request_bytes(&prompt.system, &prompt.tools, query)
            })
            .collect();
        let calibration = options
            .cache_dir
            .as_deref()
            .map(|dir| Calibration::of(&model_records(dir, self.provider.as_ref())))
            .unwrap_or_default();
        let mut estimate = Estimate::new(
            tally.total,
            tally.cached,
            &first_requests,
            options.max_turns,
            options.max_requests,
            calibration,
        );
        estimate.target_notes = prompts
            .iter()
            .zip(under_test)
            .filter_map(|(prompt, tested)| {
                let (_, view) = prompt.target.as_ref()?;
                Some(format!("{}: {}", tested.skill, view.note.as_deref()?))
            })
            .collect();
        if !options.auto_runs || options.runs >= AUTO_RUNS_CAP {
            return Ok(estimate);
        }
        // `--runs auto` may take every query to the cap: that is its most.
        let most = self.estimate(
            under_test,
            &EvalOptions {
                runs: AUTO_RUNS_CAP,
                auto_runs: false,
                ..options.clone()
            },
        )?;
        Ok(estimate.up_to(&most))
    }

    /// Each skill's system prompt, tools and the description evaluated.
    fn prompts(&self, under_test: &[SkillUnderTest]) -> Result<Vec<Prompt>, EvalError> {
        under_test
            .iter()
            .map(|tested| self.prompt(tested))
            .collect()
    }

    /// Runs every query of every skill under test `options.runs` times and reports.
    ///
    /// # Errors
    /// An unknown skill, or the first model call that failed after its retries.
    pub(crate) async fn run(
        &self,
        under_test: &[SkillUnderTest],
        options: &EvalOptions,
        on_progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<EvalReport, EvalError> {
        let started = Instant::now();
        let prompts = self.prompts(under_test)?;
        let runs = RunsOf {
            under_test,
            options,
            prompts: &prompts,
        };
        let (mut tally, queue) = self.plan(&runs);
        tally.report_cached(&runs, on_progress);
        let budget = options
            .max_requests
            .map(|requests| Arc::new(RequestBudget::new(requests)));
        self.drive(&runs, &mut tally, queue, budget.as_ref(), on_progress)
            .await?;
        while options.auto_runs && !tally.capped {
            let more = self.more_runs(&runs, &mut tally);
            if more.is_empty() {
                break;
            }
            self.drive(&runs, &mut tally, more, budget.as_ref(), on_progress)
                .await?;
        }
        Ok(self.report(&runs, tally, started))
    }

    /// `--runs auto`: one more run of each query still undecided and under the cap, numbered
    /// after its runs so far (so the cache keeps them apart); the cache answers what it can,
    /// until a round makes no request or decides nothing more.
    fn more_runs(&self, runs: &RunsOf<'_>, tally: &mut Tally) -> VecDeque<Job> {
        loop {
            let mut queue = VecDeque::new();
            let mut answered = false;
            for (t, tested) in runs.under_test.iter().enumerate() {
                for c in 0..tested.set.cases.len() {
                    let made = tally.records.get(&(t, c)).map_or(0, Vec::len);
                    let made = u32::try_from(made).unwrap_or(u32::MAX);
                    if made >= AUTO_RUNS_CAP
                        || tally.query_result(runs, t, c).verdict != Verdict::Undecided
                    {
                        continue;
                    }
                    tally.total += 1;
                    match self.cached_or_job(runs, t, c, made) {
                        Ok(record) => {
                            tally.add_cached(t, c, record);
                            answered = true;
                        }
                        Err(job) => queue.push_back(job),
                    }
                }
            }
            // Runs the cache answered may have decided their queries: look again before
            // sending anything.
            if !queue.is_empty() || !answered {
                return queue;
            }
        }
    }

    /// Run `run` of query `c` of skill `t`: its record when the cache has it, else the job.
    fn cached_or_job(
        &self,
        runs: &RunsOf<'_>,
        t: usize,
        c: usize,
        run: u32,
    ) -> Result<RunRecord, Job> {
        let options = runs.options;
        let prompt = &runs.prompts[t];
        let case = &runs.under_test[t].set.cases[c];
        let key = cache_key(
            self.provider.as_ref(),
            &prompt.system,
            &prompt.tools,
            &case.query,
            run,
            options.max_turns,
            options.max_tokens,
            self.target.map(|target| target.client.id()),
        );
        options
            .cache_dir
            .as_deref()
            .filter(|_| options.read_cache)
            .and_then(|dir| read_cached(dir, &key, self.provider.as_ref(), case, run))
            .ok_or(Job {
                tested: t,
                case: c,
                run,
                key,
            })
    }

    /// Every run to make: those the cache answers are recorded at once, the others queued.
    fn plan(&self, runs: &RunsOf<'_>) -> (Tally, VecDeque<Job>) {
        let mut tally = Tally::default();
        let mut queue = VecDeque::new();
        for (t, tested) in runs.under_test.iter().enumerate() {
            for c in 0..tested.set.cases.len() {
                for run in 0..runs.per_query() {
                    tally.total += 1;
                    match self.cached_or_job(runs, t, c, run) {
                        Ok(record) => tally.add_cached(t, c, record),
                        Err(job) => queue.push_back(job),
                    }
                }
            }
        }
        (tally, queue)
    }

    /// Makes the queued runs, at most `jobs` at a time, caching and reporting each as it ends.
    async fn drive(
        &self,
        runs: &RunsOf<'_>,
        tally: &mut Tally,
        mut queue: VecDeque<Job>,
        budget: Option<&Arc<RequestBudget>>,
        on_progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<(), EvalError> {
        let options = runs.options;
        let mut cache_ready = match &options.cache_dir {
            Some(dir) if !queue.is_empty() => match prepare_cache(&self.workspace, dir) {
                Ok(()) => true,
                Err(error) => {
                    tally.warnings.push(format!(
                        "results are not cached: cannot create {} ({error})",
                        dir.display()
                    ));
                    false
                }
            },
            _ => false,
        };
        let view: Arc<std::path::Path> = Arc::from(self.workspace.as_path());
        // For the usage of a call whose stream did not report it.
        let calibration = options
            .cache_dir
            .as_deref()
            .map(|dir| Calibration::of(&model_records(dir, self.provider.as_ref())))
            .unwrap_or_default();
        let mut running = tokio::task::JoinSet::new();
        let jobs = options.jobs.max(1);
        loop {
            while running.len() < jobs {
                let Some(job) = queue.pop_front() else { break };
                let provider = Arc::clone(&self.provider);
                let prompt = &runs.prompts[job.tested];
                let (system, tools) = (Arc::clone(&prompt.system), Arc::clone(&prompt.tools));
                let query = runs.under_test[job.tested].set.cases[job.case]
                    .query
                    .clone();
                let limits = Limits {
                    max_turns: options.max_turns.max(1),
                    max_tokens: options.max_tokens,
                    budget: budget.cloned(),
                    workspace: Arc::clone(&view),
                    calibration,
                };
                running.spawn(async move {
                    let result = route(provider.as_ref(), &system, &tools, &query, limits).await;
                    (job, result)
                });
            }
            let Some(joined) = running.join_next().await else {
                break;
            };
            let (job, result) = joined.map_err(|error| {
                EvalError::Setup(format!("an eval task stopped unexpectedly ({error})"))
            })?;
            let tested = &runs.under_test[job.tested];
            let case = &tested.set.cases[job.case];
            let record = result.map_err(|error| EvalError::Provider {
                skill: tested.skill.clone(),
                query: case.query.clone(),
                error,
            })?;
            let Some(record) = record else {
                // The cap is reached: the runs in flight end as they try their next call, and
                // nothing new starts.
                tally.capped = true;
                queue.clear();
                continue;
            };
            let record = runs.prompts[job.tested].counted(record);
            if cache_ready {
                if let Some(dir) = &options.cache_dir {
                    if let Err(error) = write_cached(
                        dir,
                        &job.key,
                        self.provider.as_ref(),
                        case,
                        job.run,
                        &record,
                    ) {
                        tally.warnings.push(format!(
                            "results are not cached: cannot write to {} ({error})",
                            dir.display()
                        ));
                        cache_ready = false;
                    }
                }
            }
            tally.record(runs, job.tested, job.case, record, on_progress);
            // A spent budget cannot start another run.
            if budget.is_some_and(|budget| budget.spent()) && !queue.is_empty() {
                tally.capped = true;
                queue.clear();
            }
        }
        Ok(())
    }

    /// The report of a finished run.
    fn report(&self, runs: &RunsOf<'_>, mut tally: Tally, started: Instant) -> EvalReport {
        let options = runs.options;
        let cut = tally
            .records
            .values()
            .flatten()
            .filter(|record| record.cut)
            .count();
        if tally.capped {
            tally.warnings.push(format!(
                "stopped at --max-requests {}: {} of {} runs not made, and their queries are reported with the runs they have (the runs made are cached; run again to go on)",
                options.max_requests.unwrap_or_default(),
                tally.total - tally.done,
                tally.total
            ));
        }
        if cut > 0 {
            tally.warnings.push(format!(
                "{cut} run{} reached the token limit ({} tokens) before any tool call and count as not triggered; a higher --max-tokens gives the model room",
                if cut == 1 { "" } else { "s" },
                options.max_tokens
            ));
        }
        let skills: Vec<SkillReport> = runs
            .under_test
            .iter()
            .enumerate()
            .map(|(t, tested)| {
                let results = (0..tested.set.cases.len())
                    .map(|c| tally.query_result(runs, t, c))
                    .collect();
                let mut report = SkillReport::new(
                    tested.skill.clone(),
                    runs.prompts[t].description.clone(),
                    tested.description.is_some(),
                    tested.set.path.clone(),
                    results,
                );
                report.target = runs.prompts[t]
                    .target
                    .as_ref()
                    .map(|(_, view)| view.clone());
                report
            })
            .collect();
        let summary = Summary {
            skills: skills.len(),
            total: skills.iter().map(|it| it.summary.total).sum(),
            passed: skills.iter().map(|it| it.summary.passed).sum(),
            failed: skills.iter().map(|it| it.summary.failed).sum(),
            undecided: skills.iter().map(|it| it.summary.undecided).sum(),
            runs: skills.iter().map(|it| it.summary.runs).sum(),
            cached_runs: skills.iter().map(|it| it.summary.cached_runs).sum(),
            requests: tally.requests,
            input_tokens: tally.spent.input_tokens,
            output_tokens: tally.spent.output_tokens,
            usage_estimated_runs: u32::try_from(
                tally
                    .records
                    .values()
                    .flatten()
                    .filter(|record| !record.cached && record.usage_estimated)
                    .count(),
            )
            .unwrap_or(u32::MAX),
            elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        EvalReport {
            provider: self.provider.name().to_owned(),
            model: self.provider.model().to_owned(),
            runs_per_query: runs.per_query(),
            auto_runs: options.auto_runs,
            threshold: options.threshold,
            max_turns: options.max_turns.max(1),
            skills,
            summary,
            warnings: tally.warnings,
        }
    }
}

/// What one `Evaluator::run` measures: the skills under test, the options and each skill's
/// prompt.
struct RunsOf<'a> {
    under_test: &'a [SkillUnderTest],
    options: &'a EvalOptions,
    prompts: &'a [Prompt],
}

impl RunsOf<'_> {
    fn per_query(&self) -> u32 {
        self.options.runs.max(1)
    }
}

/// What a run has gathered so far.
#[derive(Default)]
struct Tally {
    /// By (skill under test, query): the records of its runs so far.
    records: HashMap<(usize, usize), Vec<RunRecord>>,
    total: usize,
    cached: usize,
    done: usize,
    requests: u32,
    spent: Usage,
    warnings: Vec<String>,
    /// The request budget ran out before every run was made.
    capped: bool,
}

impl Tally {
    /// Counts a run the cache answered: done at once, nothing sent.
    fn add_cached(&mut self, t: usize, c: usize, record: RunRecord) {
        self.cached += 1;
        self.done += 1;
        self.records.entry((t, c)).or_default().push(record);
    }

    fn query_result(&self, runs: &RunsOf<'_>, t: usize, c: usize) -> QueryResult {
        let tested = &runs.under_test[t];
        let records = self.records.get(&(t, c)).map_or(&[][..], Vec::as_slice);
        QueryResult::from_runs(
            &tested.set.cases[c],
            &tested.skill,
            records,
            runs.options.threshold,
        )
    }

    fn progress(&self, finished: Option<(String, QueryResult)>) -> Progress {
        Progress {
            done: self.done,
            total: self.total,
            cached: self.cached,
            finished,
            round: None,
        }
    }

    /// Reports where the cache left things: queries it answered wholly are finished already.
    fn report_cached(&self, runs: &RunsOf<'_>, on_progress: &mut (dyn FnMut(Progress) + Send)) {
        on_progress(self.progress(None));
        let mut complete: Vec<(usize, usize)> = self
            .records
            .iter()
            .filter(|(_, records)| records.len() == runs.per_query() as usize)
            .map(|(key, _)| *key)
            .collect();
        complete.sort_unstable();
        for (t, c) in complete {
            let skill = runs.under_test[t].skill.clone();
            on_progress(self.progress(Some((skill, self.query_result(runs, t, c)))));
        }
    }

    /// Counts one finished run and reports it, with its query's result when it was the last.
    fn record(
        &mut self,
        runs: &RunsOf<'_>,
        t: usize,
        c: usize,
        record: RunRecord,
        on_progress: &mut (dyn FnMut(Progress) + Send),
    ) {
        self.requests += record.turns + record.restarts;
        self.spent.input_tokens += record.input_tokens;
        self.spent.output_tokens += record.output_tokens;
        let records_done = {
            let slot = self.records.entry((t, c)).or_default();
            slot.push(record);
            slot.len()
        };
        self.done += 1;
        let finished = (records_done == runs.per_query() as usize).then(|| {
            (
                runs.under_test[t].skill.clone(),
                self.query_result(runs, t, c),
            )
        });
        on_progress(self.progress(finished));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::cache::cache_dir;
    use super::super::route::NOT_AVAILABLE;
    use super::super::set::EvalCase;
    use super::*;
    use crate::agent::eval::set::EvalSet;
    use crate::agent::provider::Block;
    use crate::agent::provider::Response;
    use crate::agent::provider::scripted::ScriptedProvider;
    use crate::workspace::Disk;
    use crate::workspace::loader::roots_for;

    fn tool(name: &str, input: Value) -> Response {
        Response {
            content: vec![
                Block::Text {
                    text: "Looking.".into(),
                },
                Block::ToolUse {
                    id: "t1".into(),
                    name: name.into(),
                    input,
                },
            ],
            stop_reason: "tool_use".into(),
            usage: Usage {
                input_tokens: 100,
                output_tokens: 7,
            },
            cut_tool: None,
        }
    }

    fn answer() -> Response {
        Response {
            content: vec![Block::Text {
                text: "Paris.".into(),
            }],
            stop_reason: "end_turn".into(),
            usage: Usage {
                input_tokens: 100,
                output_tokens: 3,
            },
            cut_tool: None,
        }
    }

    fn tested(cases: &[(&str, bool)]) -> SkillUnderTest {
        SkillUnderTest {
            skill: "pdf".into(),
            description: None,
            set: EvalSet {
                path: "skills/pdf/evals/triggers.json".into(),
                cases: cases
                    .iter()
                    .map(|(query, should_trigger)| EvalCase {
                        query: (*query).into(),
                        should_trigger: *should_trigger,
                    })
                    .collect(),
            },
        }
    }

    fn evaluator(replies: Vec<Response>) -> (Evaluator, Arc<ScriptedProvider>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        for (name, description) in [("pdf", "Fills PDF forms."), ("docx", "Edits Word files.")] {
            let folder = dir.path().join("skills").join(name);
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(
                folder.join("SKILL.md"),
                format!("---\nname: {name}\ndescription: {description}\n---\nBody\n"),
            )
            .unwrap();
        }
        let registry = Registry::scan(&roots_for(dir.path(), &[]), &Disk);
        let provider = Arc::new(ScriptedProvider::new(replies));
        let evaluator = Evaluator {
            provider: provider.clone(),
            workspace: dir.path().to_path_buf(),
            registry,
            target: None,
        };
        (evaluator, provider, dir)
    }

    #[tokio::test]
    async fn runs_are_measured_cached_and_reported_without_any_cli() {
        let (evaluator, provider, dir) = evaluator(vec![
            tool("load_skill", json!({"name": "pdf"})),
            tool("load_skill", json!({"name": "docx"})),
            answer(),
            answer(),
        ]);
        let under_test = [tested(&[
            ("fill the form", true),
            ("capital of France?", false),
        ])];
        let options = EvalOptions {
            runs: 2,
            jobs: 1,
            cache_dir: Some(cache_dir(&evaluator.workspace)),
            ..EvalOptions::default()
        };
        let mut seen = Vec::new();
        let report = evaluator
            .run(&under_test, &options, &mut |progress| seen.push(progress))
            .await
            .unwrap();
        assert_eq!(seen.first().map(|it| (it.done, it.total)), Some((0, 4)));
        assert_eq!(seen.last().map(|it| (it.done, it.cached)), Some((4, 0)));
        let skill = &report.skills[0];
        assert_eq!((skill.results[0].triggers, skill.results[0].runs), (1, 2));
        assert!(skill.results[0].pass, "1/2 reaches the threshold 0.5");
        assert_eq!(skill.results[0].loaded_instead.get("docx"), Some(&1));
        assert!(skill.results[1].pass);
        assert_eq!(report.summary.requests, 4);
        assert_eq!(report.summary.input_tokens, 400);
        {
            let requests = provider.seen.lock().unwrap();
            assert!(
                requests[0]
                    .system
                    .contains("- docx: Edits Word files.\n- pdf: Fills PDF forms.")
            );
            assert_eq!(requests[0].tools.len(), 6);
        }
        assert_eq!(
            std::fs::read_to_string(dir.path().join(".skill-lsp/.gitignore")).unwrap(),
            "cache/\n"
        );

        // Everything again: from the cache, without a model call (the script is used up).
        let report = evaluator
            .run(&under_test, &options, &mut |_| {})
            .await
            .unwrap();
        assert_eq!(report.summary.cached_runs, 4);
        assert_eq!(report.summary.requests, 0);
        assert_eq!(report.summary.input_tokens, 0);
        assert_eq!(report.skills[0].results[0].triggers, 1);
        assert_eq!(provider.seen.lock().unwrap().len(), 4);
    }

    #[tokio::test]
    async fn more_turns_answer_other_tools_and_a_candidate_fills_the_catalog() {
        let (evaluator, provider, _dir) = evaluator(vec![
            tool("bash", json!({"command": "ls"})),
            tool("load_skill", json!({"name": "pdf"})),
        ]);
        let mut tested = tested(&[("fill the form", true)]);
        tested.description = Some("CANDIDATE".into());
        let options = EvalOptions {
            runs: 1,
            max_turns: 3,
            cache_dir: None,
            ..EvalOptions::default()
        };
        let report = evaluator
            .run(&[tested], &options, &mut |_| {})
            .await
            .unwrap();
        let skill = &report.skills[0];
        assert_eq!(
            (skill.description.as_str(), skill.candidate),
            ("CANDIDATE", true)
        );
        assert_eq!(skill.results[0].triggers, 1);
        assert_eq!(report.summary.requests, 2);
        let seen = provider.seen.lock().unwrap();
        assert!(seen[0].system.contains("- pdf: CANDIDATE\n"));
        let Block::ToolResult {
            content, is_error, ..
        } = &seen[1].messages[2].content[0]
        else {
            panic!("{:?}", seen[1].messages);
        };
        assert_eq!((content.as_str(), *is_error), (NOT_AVAILABLE, true));
    }

    #[tokio::test]
    async fn an_unknown_skill_is_a_setup_error() {
        let (evaluator, _, _dir) = evaluator(vec![]);
        let mut tested = tested(&[("q", true)]);
        tested.skill = "nope".into();
        let error = evaluator
            .run(&[tested], &EvalOptions::default(), &mut |_| {})
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "no skill named 'nope' in {} (skills: docx, pdf)",
                evaluator.workspace.display()
            )
        );
    }
}
