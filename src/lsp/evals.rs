//! `skill/runEvals`: a skill's trigger evals run by the server, as `skill-lsp eval` runs them
//! (`agent::eval`), against the catalog the agent sees (`State::agent_view`), with the provider
//! from the environment and the workspace's on-disk cache. Streams `$/progress` and one
//! `skill/evalResult` per finished query; a `$/cancelRequest` drops the run. The result is kept
//! for the skill's code lens and `trigger-evals` diagnostic (`State::eval_results`).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::request::CodeLensRefresh;
use tower_lsp_server::ls_types::{NumberOrString, ProgressToken, Uri};

use super::backend::Backend;
use super::convert::uri_path;
use super::diagnostics::publish_or_refresh;
use super::eval_results::{EvalSummary, description_of, eval_key};
use super::ext::{
    EVAL_PROGRESS_TITLE, EvalResultNotification, EvalResultParams, RunEvalsParams, RunEvalsResult,
};
use super::handlers::{invalid_params, provider_setup_error};
use super::outgoing::Outgoing;
use super::progress;
use crate::agent::eval::cache::cache_dir;
use crate::agent::eval::set::{find_set, no_set_message, parse};
use crate::agent::eval::target::Target;
use crate::agent::eval::{EvalError, EvalOptions, Evaluator, Progress, SkillUnderTest};
use crate::workspace::Source;
use crate::workspace::open::{SkillRef, find_skill};

/// What a request that measures a skill's evals works on, from its params: the skill, its
/// SKILL.md's uri, the queries, the measuring options and the model. `skill/runEvals` and
/// `skill/improveDescription` both start here.
pub(super) struct Prepared {
    pub skill: crate::workspace::Skill,
    pub uri: Uri,
    pub tested: SkillUnderTest,
    pub options: EvalOptions,
    pub evaluator: Evaluator,
    pub price: Option<crate::config::Price>,
    pub overlay: super::state::Overlay,
    pub set_text: String,
    /// Whether the client takes `$/progress` the server starts.
    pub work_done: bool,
}

/// Resolves `params` to what a measurement needs, or the invalid-params error that says what
/// is missing (a workspace folder, the skill, its eval set, a model).
pub(super) async fn prepare(backend: &Backend, params: &RunEvalsParams) -> Result<Prepared> {
    backend.wait_ready().await;
    let wanted = params.uri.as_deref().map(|uri| {
        uri.parse::<Uri>()
            .ok()
            .and_then(|uri| uri_path(&uri))
            .ok_or_else(|| invalid_params(format!("{uri} is not a file uri")))
    });
    let (context, work_done) = {
        let state = backend.lock();
        let context = state
            .agent_context()
            .ok_or_else(|| invalid_params("trigger evals need a workspace folder"))?;
        (context, state.caps().work_done_progress)
    };
    let (workspace, mut registry, overlay) = (context.folder, context.registry, context.overlay);
    let target = params
        .target
        .as_deref()
        .map(crate::agent::eval::target::parse)
        .transpose()
        .map_err(|message| invalid_params(format!("target: {message}")))?;
    if target.is_none() && params.context_window.is_some() {
        return Err(invalid_params(
            "contextWindow sets the budget of a target's listing: it needs a target",
        ));
    }
    // The target's own readings, of the buffers as they stand: its listing is what is sent.
    registry.read_clients(crate::targets::ClientSet::of(target), &overlay);
    let target = target.map(|client| Target {
        client,
        context_window: params.context_window,
    });
    let (model, price) = (context.agent.model, context.agent.price);
    let found = match (&wanted, &params.skill) {
        (Some(path), _) => {
            let path = path.clone()?;
            find_skill(&registry, SkillRef::Path(&path), &workspace).cloned()
        }
        (None, Some(name)) => find_skill(&registry, SkillRef::Name(name), &workspace).cloned(),
        (None, None) => {
            return Err(invalid_params(
                "the request wants the skill's \"skill\" (name) or \"uri\" (its SKILL.md)",
            ));
        }
    };
    let skill = found.map_err(|error| invalid_params(error.to_string()))?;
    if params
        .description
        .as_deref()
        .is_some_and(|text| text.trim().is_empty())
    {
        return Err(invalid_params("the candidate description is empty"));
    }
    let defaults = EvalOptions::default();
    let options = EvalOptions {
        runs: params.runs.unwrap_or(defaults.runs),
        threshold: params.threshold.unwrap_or(defaults.threshold),
        jobs: params.jobs.unwrap_or(defaults.jobs),
        max_turns: params.max_turns.unwrap_or(defaults.max_turns),
        max_tokens: crate::agent::eval::route::routing_max_tokens(
            &|name| std::env::var(name).ok(),
            params.max_tokens,
            context.agent.max_tokens,
        )
        .map_err(invalid_params)?,
        cache_dir: Some(cache_dir(&workspace)),
        read_cache: !params.no_cache.unwrap_or(false),
        max_requests: params.max_requests,
        auto_runs: params.auto_runs.unwrap_or(false),
    };
    let problems = options.problems(camel_case);
    if !problems.is_empty() {
        return Err(invalid_params(problems.join("; ")));
    }
    // The set every front end measures: the first of set::SET_FILES, open buffers included.
    let exists = |path: &std::path::Path| overlay.is_open(path) || path.is_file();
    let skill_dir = skill.path.parent().unwrap_or(std::path::Path::new(""));
    let set_path = find_set(&skill.path, &exists)
        .map(|found| found.path)
        .ok_or_else(|| invalid_params(no_set_message(skill_dir, &skill.name, &exists)))?;
    let set_text = overlay
        .read(&set_path)
        .map_err(|error| invalid_params(format!("{}: {error}", set_path.display())))?;
    let set = parse(&set_path, &set_text).map_err(|error| invalid_params(error.to_string()))?;
    let provider =
        crate::agent::provider::from_env(&|name| std::env::var(name).ok(), None, model.as_deref())
            .map_err(|error| provider_setup_error(&error))?;
    let uri = Uri::from_file_path(&skill.path).ok_or_else(Error::internal_error)?;
    let tested = SkillUnderTest {
        skill: skill.name.clone(),
        description: params.description.clone(),
        set,
    };
    let evaluator = Evaluator {
        provider: Arc::from(provider),
        workspace,
        registry,
        target,
    };
    Ok(Prepared {
        skill,
        uri,
        tested,
        options,
        evaluator,
        price,
        overlay,
        set_text,
        work_done,
    })
}

/// Runs the trigger evals of one skill and answers the JSON of `skill-lsp eval --format json`.
pub(crate) async fn run_evals(backend: &Backend, params: RunEvalsParams) -> Result<RunEvalsResult> {
    let Prepared {
        skill,
        uri,
        tested,
        options,
        evaluator,
        price,
        overlay,
        set_text,
        work_done,
    } = prepare(backend, &params).await?;
    // What the stored result is valid for: the file's description (a candidate's result is
    // not the file's) and the set's text.
    let key = params.description.is_none().then(|| {
        let skill_text = overlay.read(&skill.path).unwrap_or_default();
        eval_key(&description_of(&skill_text), &set_text)
    });
    let total = tested.set.cases.len();
    if params.dry_run == Some(true) {
        let estimate = evaluator
            .estimate(std::slice::from_ref(&tested), &options)
            .map_err(|error| invalid_params(error.to_string()))?;
        return Ok(RunEvalsResult(
            estimate.json(evaluator.provider.model(), price.as_ref()),
        ));
    }

    let ended = EndOnDrop::begin(
        backend,
        (params.work_done_token.clone(), work_done),
        ("evals", EVAL_PROGRESS_TITLE),
        &skill.name,
        format!("0/{total} queries"),
    )
    .await;
    // Finished queries leave through a channel: the progress callback is synchronous.
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel::<Progress>();
    let forward = tokio::spawn(forward_results(
        backend.outgoing.clone(),
        ended.token(),
        skill.name.clone(),
        uri.as_str().to_owned(),
        total,
        receiver,
    ));
    let outcome = {
        let mut on_progress = move |progress: Progress| {
            if progress.finished.is_some() {
                let _ = sender.send(progress);
            }
        };
        evaluator
            .run(std::slice::from_ref(&tested), &options, &mut on_progress)
            .await
    };
    let _ = forward.await;
    let report = ended
        .finish(outcome, |report| {
            format!("{}/{} passed", report.summary.passed, report.summary.total)
        })
        .await?;
    let skill_report = report.skills.first().ok_or_else(Error::internal_error)?;
    let result = report.skill_json(skill_report);
    if let Some(key) = key {
        let refresh = {
            let mut state = backend.lock();
            state.set_eval_result(skill.path.clone(), EvalSummary::new(key, skill_report));
            state.caps().code_lens_refresh
        };
        publish_or_refresh(backend, &uri).await;
        if refresh {
            let _ = backend.client.send_request::<CodeLensRefresh>(()).await;
        }
    }
    Ok(RunEvalsResult(result))
}

/// An option's kebab-case name as the params spell it: `max-turns` is `maxTurns`.
fn camel_case(name: &str) -> String {
    let mut parts = name.split('-');
    let mut camel = parts.next().unwrap_or_default().to_owned();
    for part in parts {
        let mut chars = part.chars();
        camel.extend(chars.next().map(|first| first.to_ascii_uppercase()));
        camel.push_str(chars.as_str());
    }
    camel
}

/// Sends one `skill/evalResult` per finished query, in order, with a `$/progress` report.
async fn forward_results(
    outgoing: Outgoing,
    token: Option<ProgressToken>,
    skill: String,
    uri: String,
    total: usize,
    mut receiver: tokio::sync::mpsc::UnboundedReceiver<Progress>,
) {
    let mut done = 0;
    while let Some(progress) = receiver.recv().await {
        let Some((_, result)) = progress.finished else {
            continue;
        };
        done += 1;
        if let Some(token) = &token {
            let report = progress::report(format!("{done}/{total} queries"));
            progress::send(&outgoing, token, report).await;
        }
        outgoing
            .notify::<EvalResultNotification>(EvalResultParams {
                skill: skill.clone(),
                uri: uri.clone(),
                result: serde_json::to_value(&result).unwrap_or_default(),
            })
            .await;
    }
}

/// Armed for the length of a run: if the request is cancelled (its future dropped), the client
/// still gets the `$/progress` end.
pub(super) struct EndOnDrop {
    outgoing: Outgoing,
    token: Option<ProgressToken>,
    armed: bool,
}

impl EndOnDrop {
    /// Begins the `$/progress` of a run of `kind` (`evals`, `improve`) on `skill`, titled
    /// `{title}: {skill}` and cancellable, and arms its end. The token is the client's
    /// (`given`), else, when the client takes them (`work_done`), one the server creates, with
    /// the kind and the skill's name in it so that a log reads well; with neither, no progress.
    pub(super) async fn begin(
        backend: &Backend,
        (given, work_done): (Option<ProgressToken>, bool),
        (kind, title): (&str, &str),
        skill: &str,
        message: String,
    ) -> Self {
        let token = match given {
            Some(token) => Some(token),
            None if work_done => {
                static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let token = NumberOrString::String(format!("skill-lsp/{kind}/{skill}/{run}"));
                progress::create(&backend.client, &token)
                    .await
                    .then_some(token)
            }
            None => None,
        };
        if let Some(token) = &token {
            let begin = progress::begin(&format!("{title}: {skill}"), true, message);
            progress::send(&backend.outgoing, token, begin).await;
        }
        Self {
            outgoing: backend.outgoing.clone(),
            token,
            armed: true,
        }
    }

    /// The run's progress token, if it reports progress.
    pub(super) fn token(&self) -> Option<ProgressToken> {
        self.token.clone()
    }

    /// Ends the progress with `words` of the outcome (`failed` for an error) and turns an eval
    /// error into the request's: a setup error is invalid params, a provider that failed for
    /// good an internal error that says the finished runs are kept.
    pub(super) async fn finish<T>(
        mut self,
        outcome: std::result::Result<T, EvalError>,
        words: impl FnOnce(&T) -> String,
    ) -> Result<T> {
        self.armed = false;
        if let Some(token) = &self.token {
            let message = outcome.as_ref().map_or_else(|_| "failed".to_owned(), words);
            progress::send(&self.outgoing, token, progress::end(message)).await;
        }
        outcome.map_err(|error| match error {
            EvalError::Setup(message) => invalid_params(message),
            error @ EvalError::Provider { .. } => Error {
                code: ErrorCode::InternalError,
                message: format!("{error} (the runs that finished are cached; run again to go on)")
                    .into(),
                data: None,
            },
        })
    }
}

impl Drop for EndOnDrop {
    fn drop(&mut self) {
        let (true, Some(token), Ok(runtime)) = (
            self.armed,
            self.token.clone(),
            tokio::runtime::Handle::try_current(),
        ) else {
            return;
        };
        let outgoing = self.outgoing.clone();
        runtime.spawn(async move {
            progress::send(&outgoing, &token, progress::end("cancelled".to_owned())).await;
        });
    }
}
