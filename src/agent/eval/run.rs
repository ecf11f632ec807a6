//! The measurement: for each query of each eval set, the routing step of the agent loop (SPEC
//! section 6) — the real system prompt with the whole workspace catalog, the six tool specs, the
//! query as the user message — repeated `runs` times, concurrently, through the provider's own
//! retry policy, with every run cached on disk.
//!
//! The model's first tool call decides a run: `load_skill` for the skill under test triggers it,
//! `load_skill` for another skill is a confusion, any other tool (or none) does not trigger. The
//! stream is abandoned as soon as that call is complete. Tools never run: with `max_turns` above
//! 1, a first call to another tool is answered with a "not available during evals" error and
//! the model gets another turn.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Value, json};
use tokio::sync::Notify;

use super::report::{EvalReport, QueryResult, RunRecord, SkillReport, Summary};
use super::set::{EvalCase, EvalSet};
use crate::agent::provider::{
    Block, Message, Provider, ProviderError, Request, Role, StreamEvent, ToolSpec, Usage,
};
use crate::agent::session::system_prompt;
use crate::agent::tools;
use crate::workspace::Registry;
use crate::workspace::open::{SkillRef, find_skill};

/// Defaults of `skill-lsp eval`.
pub(crate) const DEFAULT_RUNS: u32 = 3;
pub(crate) const DEFAULT_THRESHOLD: f64 = 0.5;
pub(crate) const DEFAULT_JOBS: usize = 4;
pub(crate) const DEFAULT_MAX_TURNS: u32 = 1;

/// The tool result the model gets for a tool other than `load_skill` when it may look around.
pub(crate) const NOT_AVAILABLE: &str =
    "This tool is not available during evals; nothing was run. Continue without it.";

/// The cache folder under a workspace.
pub(crate) const CACHE_DIR: &str = ".skill-lsp/cache/evals";

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
}

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

/// The workspace an eval runs in: its provider, folder and registry.
pub(crate) struct Evaluator {
    pub provider: Arc<dyn Provider>,
    pub workspace: PathBuf,
    pub registry: Registry,
}

/// What one skill's runs are sent with.
struct Prompt {
    system: Arc<str>,
    tools: Arc<Vec<ToolSpec>>,
    description: String,
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
    /// description in the catalog, if any), and the description evaluated.
    ///
    /// # Errors
    /// An unknown skill.
    pub(crate) fn prompt(
        &self,
        tested: &SkillUnderTest,
    ) -> Result<(String, Vec<ToolSpec>, String), EvalError> {
        let skill = find_skill(
            &self.registry,
            SkillRef::Name(&tested.skill),
            &self.workspace,
        )
        .map_err(|error| EvalError::Setup(error.to_string()))?;
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
        Ok((system, tools, description))
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
        let mut warnings = Vec::new();
        let prompts = under_test
            .iter()
            .map(|tested| {
                self.prompt(tested)
                    .map(|(system, tools, description)| Prompt {
                        system: Arc::from(system),
                        tools: Arc::new(tools),
                        description,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let runs = options.runs.max(1);
        let mut records: HashMap<(usize, usize), Vec<RunRecord>> = HashMap::new();
        let mut queue = VecDeque::new();
        let mut cached = 0;
        let mut total = 0;
        for (t, tested) in under_test.iter().enumerate() {
            for (c, case) in tested.set.cases.iter().enumerate() {
                for run in 0..runs {
                    total += 1;
                    let key = cache_key(
                        self.provider.as_ref(),
                        &prompts[t],
                        &case.query,
                        run,
                        options.max_turns,
                        options.max_tokens,
                    );
                    let hit = options
                        .cache_dir
                        .as_deref()
                        .filter(|_| options.read_cache)
                        .and_then(|dir| read_cached(dir, &key, self.provider.as_ref(), case, run));
                    match hit {
                        Some(record) => {
                            cached += 1;
                            records.entry((t, c)).or_default().push(record);
                        }
                        None => queue.push_back(Job {
                            tested: t,
                            case: c,
                            run,
                            key,
                        }),
                    }
                }
            }
        }
        let mut done = cached;
        on_progress(Progress {
            done,
            total,
            cached,
            finished: None,
        });
        let query_result =
            |records: &HashMap<(usize, usize), Vec<RunRecord>>, t: usize, c: usize| {
                let tested: &SkillUnderTest = &under_test[t];
                let runs = records.get(&(t, c)).map_or(&[][..], Vec::as_slice);
                QueryResult::from_runs(&tested.set.cases[c], &tested.skill, runs, options.threshold)
            };
        // Queries answered wholly from the cache are finished already.
        let mut complete: Vec<(usize, usize)> = records
            .iter()
            .filter(|(_, runs_done)| runs_done.len() == runs as usize)
            .map(|(key, _)| *key)
            .collect();
        complete.sort_unstable();
        for (t, c) in complete {
            on_progress(Progress {
                done,
                total,
                cached,
                finished: Some((under_test[t].skill.clone(), query_result(&records, t, c))),
            });
        }
        let mut cache_ready = match &options.cache_dir {
            Some(dir) if !queue.is_empty() => match prepare_cache(&self.workspace, dir) {
                Ok(()) => true,
                Err(error) => {
                    warnings.push(format!(
                        "results are not cached: cannot create {} ({error})",
                        dir.display()
                    ));
                    false
                }
            },
            _ => false,
        };
        let mut requests = 0u32;
        let mut spent = Usage::default();
        let mut running = tokio::task::JoinSet::new();
        let jobs = options.jobs.max(1);
        loop {
            while running.len() < jobs {
                let Some(job) = queue.pop_front() else { break };
                let provider = Arc::clone(&self.provider);
                let prompt = &prompts[job.tested];
                let (system, tools) = (Arc::clone(&prompt.system), Arc::clone(&prompt.tools));
                let query = under_test[job.tested].set.cases[job.case].query.clone();
                let limits = Limits {
                    max_turns: options.max_turns.max(1),
                    max_tokens: options.max_tokens,
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
            let tested = &under_test[job.tested];
            let case = &tested.set.cases[job.case];
            let record = result.map_err(|error| EvalError::Provider {
                skill: tested.skill.clone(),
                query: case.query.clone(),
                error,
            })?;
            requests += record.turns + record.restarts;
            spent.input_tokens += record.input_tokens;
            spent.output_tokens += record.output_tokens;
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
                        warnings.push(format!(
                            "results are not cached: cannot write to {} ({error})",
                            dir.display()
                        ));
                        cache_ready = false;
                    }
                }
            }
            let runs_done = {
                let slot = records.entry((job.tested, job.case)).or_default();
                slot.push(record);
                slot.len()
            };
            done += 1;
            let finished = (runs_done == runs as usize).then(|| {
                (
                    tested.skill.clone(),
                    query_result(&records, job.tested, job.case),
                )
            });
            on_progress(Progress {
                done,
                total,
                cached,
                finished,
            });
        }
        let cut = records
            .values()
            .flatten()
            .filter(|record| record.cut)
            .count();
        if cut > 0 {
            warnings.push(format!(
                "{cut} run{} reached the token limit ({} tokens) before any tool call and count as not triggered; a higher --max-tokens gives the model room",
                if cut == 1 { "" } else { "s" },
                options.max_tokens
            ));
        }
        let skills: Vec<SkillReport> = under_test
            .iter()
            .enumerate()
            .map(|(t, tested)| {
                let results = tested
                    .set
                    .cases
                    .iter()
                    .enumerate()
                    .map(|(c, _)| query_result(&records, t, c))
                    .collect();
                SkillReport::new(
                    tested.skill.clone(),
                    prompts[t].description.clone(),
                    tested.description.is_some(),
                    tested.set.path.clone(),
                    results,
                )
            })
            .collect();
        let summary = Summary {
            skills: skills.len(),
            total: skills.iter().map(|it| it.summary.total).sum(),
            passed: skills.iter().map(|it| it.summary.passed).sum(),
            failed: skills.iter().map(|it| it.summary.failed).sum(),
            runs: skills.iter().map(|it| it.summary.runs).sum(),
            cached_runs: skills.iter().map(|it| it.summary.cached_runs).sum(),
            requests,
            input_tokens: spent.input_tokens,
            output_tokens: spent.output_tokens,
            elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        Ok(EvalReport {
            provider: self.provider.name().to_owned(),
            model: self.provider.model().to_owned(),
            runs_per_query: runs,
            threshold: options.threshold,
            max_turns: options.max_turns.max(1),
            skills,
            summary,
            warnings,
        })
    }
}

/// The first complete tool call of a reply.
struct Call {
    id: String,
    name: String,
    input: Value,
}

/// How often a run is started again after its stream broke mid-reply.
pub(crate) const MID_STREAM_RESTARTS: u32 = 2;

/// One run of the routing step for `query`: up to `max_turns` model calls, each abandoned as
/// soon as its first tool call is complete.
///
/// The provider retries a failed call until part of its reply has streamed (after that, a chat
/// would show the text twice). Nobody sees an eval's text, so a run whose stream broke with a
/// retryable error after it started is run again from the start, up to
/// [`MID_STREAM_RESTARTS`] times.
///
/// # Errors
/// A model call that failed after the provider's retries (and the restarts above).
pub(crate) async fn route(
    provider: &dyn Provider,
    system: &str,
    tools: &[ToolSpec],
    query: &str,
    limits: Limits,
) -> Result<RunRecord, ProviderError> {
    let mut restarts = 0;
    loop {
        match route_once(provider, system, tools, query, limits).await {
            Ok(mut record) => {
                record.restarts = restarts;
                return Ok(record);
            }
            Err((error, true)) if error.is_retryable() && restarts < MID_STREAM_RESTARTS => {
                restarts += 1;
                tracing::debug!(restarts, %error, "eval run restarted after its stream broke");
                tokio::time::sleep(std::time::Duration::from_millis(200 * u64::from(restarts)))
                    .await;
            }
            Err((error, _)) => return Err(error),
        }
    }
}

/// One try of [`route`]; an error says whether part of the reply had streamed.
async fn route_once(
    provider: &dyn Provider,
    system: &str,
    tools: &[ToolSpec],
    query: &str,
    limits: Limits,
) -> Result<RunRecord, (ProviderError, bool)> {
    let mut record = RunRecord::default();
    let mut messages = vec![Message {
        role: Role::User,
        content: vec![Block::Text {
            text: query.to_owned(),
        }],
    }];
    for turn in 1..=limits.max_turns.max(1) {
        record.turns = turn;
        let first: Mutex<Option<(Call, Usage)>> = Mutex::new(None);
        let decided = Notify::new();
        let streamed = AtomicBool::new(false);
        let finished = {
            let mut sink = |event: StreamEvent| {
                streamed.store(true, Ordering::Relaxed);
                if let StreamEvent::ToolUse {
                    id,
                    name,
                    input,
                    usage,
                } = event
                {
                    let mut slot = first
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    if slot.is_none() {
                        *slot = Some((Call { id, name, input }, usage));
                        decided.notify_one();
                    }
                }
            };
            let request = Request {
                model: provider.model(),
                system,
                messages: &messages,
                tools,
                max_tokens: limits.max_tokens,
            };
            let send = provider.send(request, &mut sink);
            // Dropping `send` drops the HTTP request: the rest of the reply is never read.
            tokio::select! {
                biased;
                result = send => Some(result),
                () = decided.notified() => None,
            }
        };
        let first = first
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let call = match (first, finished) {
            (Some((call, usage)), finished) => {
                let whole = finished.and_then(Result::ok);
                record.abandoned = whole.is_none();
                let usage = whole.map_or(usage, |response| response.usage);
                record.input_tokens += usage.input_tokens;
                record.output_tokens += usage.output_tokens;
                call
            }
            (None, Some(Ok(response))) => {
                record.input_tokens += response.usage.input_tokens;
                record.output_tokens += response.usage.output_tokens;
                let call = response.content.into_iter().find_map(|block| match block {
                    Block::ToolUse { id, name, input } => Some(Call { id, name, input }),
                    _ => None,
                });
                match call {
                    Some(call) => call,
                    // A reply without tools: the model answered without loading anything, or
                    // the token limit stopped it first.
                    None => {
                        record.cut = response.stop_reason == "max_tokens";
                        return Ok(record);
                    }
                }
            }
            (None, Some(Err(error))) => return Err((error, streamed.load(Ordering::Relaxed))),
            (None, None) => unreachable!("the stream is only abandoned after a tool call"),
        };
        record.tools.push(call.name.clone());
        if call.name == "load_skill" {
            record.loaded = call
                .input
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_owned);
            return Ok(record);
        }
        messages.push(Message {
            role: Role::Assistant,
            content: vec![Block::ToolUse {
                id: call.id.clone(),
                name: call.name,
                input: call.input,
            }],
        });
        messages.push(Message {
            role: Role::User,
            content: vec![Block::ToolResult {
                tool_use_id: call.id,
                content: NOT_AVAILABLE.to_owned(),
                is_error: true,
            }],
        });
    }
    Ok(record)
}

/// The default token limit of a routing request: the first tool call is all an eval reads, and
/// a model that reasons in text first needs a few hundred tokens, not the agent's thousands.
pub(crate) const ROUTING_MAX_TOKENS: u32 = 1_024;

/// The routing requests' token limit: `flag` (`--max-tokens`), else [`ROUTING_MAX_TOKENS`] or
/// the agent's limit (`SKILL_LSP_MAX_TOKENS`, `[agent] max-tokens`) where that is lower.
///
/// # Errors
/// As [`crate::agent::session::max_tokens`].
pub(crate) fn routing_max_tokens(
    env: &dyn Fn(&str) -> Option<String>,
    flag: Option<u32>,
    config: Option<u32>,
) -> Result<u32, String> {
    match flag {
        Some(tokens) => Ok(tokens),
        None => Ok(crate::agent::session::max_tokens(env, None, config)?.min(ROUTING_MAX_TOKENS)),
    }
}

/// How far one run may go: model calls, and tokens per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_turns: u32,
    pub max_tokens: u32,
}

/// The cache key of one run: a hash of everything that decides its outcome.
fn cache_key(
    provider: &dyn Provider,
    prompt: &Prompt,
    query: &str,
    run: u32,
    max_turns: u32,
    max_tokens: u32,
) -> String {
    let tools: Vec<Value> = prompt
        .tools
        .iter()
        .map(|tool| json!([tool.name, tool.description, tool.input_schema]))
        .collect();
    let material = json!({
        "version": 2,
        "provider": provider.name(),
        "endpoint": provider.endpoint(),
        "model": provider.model(),
        "max_tokens": max_tokens,
        "system": &*prompt.system,
        "tools": tools,
        "query": query,
        "run": run,
        "max_turns": max_turns,
    });
    hex_hash(material.to_string().as_bytes())
}

/// FNV-1a, 128 bits, as 32 hex digits: stable across builds and platforms.
#[must_use]
pub(crate) fn hex_hash(bytes: &[u8]) -> String {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    let hash = bytes.iter().fold(OFFSET, |hash, byte| {
        (hash ^ u128::from(*byte)).wrapping_mul(PRIME)
    });
    format!("{hash:032x}")
}

/// The cache folder of a workspace.
#[must_use]
pub(crate) fn cache_dir(workspace: &Path) -> PathBuf {
    workspace.join(CACHE_DIR)
}

/// Creates the cache folder; a new `.skill-lsp` folder gets a `.gitignore` that ignores `cache/`.
fn prepare_cache(workspace: &Path, dir: &Path) -> io::Result<()> {
    let state = workspace.join(".skill-lsp");
    if dir.starts_with(&state) {
        std::fs::create_dir_all(&state)?;
        let ignore = state.join(".gitignore");
        if !ignore.exists() {
            std::fs::write(ignore, "cache/\n")?;
        }
    }
    std::fs::create_dir_all(dir)
}

fn cache_file(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

fn read_cached(
    dir: &Path,
    key: &str,
    provider: &dyn Provider,
    case: &EvalCase,
    run: u32,
) -> Option<RunRecord> {
    let text = std::fs::read_to_string(cache_file(dir, key)).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    // The key is a hash: the entry must also be for this very run.
    let same = value["provider"] == provider.name()
        && value["model"] == provider.model()
        && value["query"] == case.query.as_str()
        && value["run"] == run;
    if !same {
        return None;
    }
    let mut record: RunRecord = serde_json::from_value(value["record"].clone()).ok()?;
    record.cached = true;
    Some(record)
}

fn write_cached(
    dir: &Path,
    key: &str,
    provider: &dyn Provider,
    case: &EvalCase,
    run: u32,
    record: &RunRecord,
) -> io::Result<()> {
    let entry = json!({
        "provider": provider.name(),
        "model": provider.model(),
        "query": case.query,
        "run": run,
        "record": record,
    });
    let path = cache_file(dir, key);
    let temporary = dir.join(format!("{key}.json.{}.tmp", std::process::id()));
    std::fs::write(&temporary, format!("{entry:#}\n"))?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::eval::set::EvalSet;
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

    #[test]
    fn the_hash_is_stable() {
        assert_eq!(hex_hash(b""), "6c62272e07bb014262b821756295c58d");
        assert_eq!(hex_hash(b"a"), "d228cb696f1a8caf78912b704e4a8964");
        assert_ne!(hex_hash(b"query 1"), hex_hash(b"query 2"));
    }
}
