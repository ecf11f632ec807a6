//! `skill/improveDescription`: `skill-lsp eval --improve` run by the server for one skill, with
//! `$/progress` for every description measured and rewritten, cancelled by `$/cancelRequest`.
//! It never writes the file: it answers the best description, the SKILL.md's text with it, and
//! the edit that makes that change, which the editor shows as a diff and applies only when the
//! user accepts it.

use std::collections::HashMap;

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    OneOf, OptionalVersionedTextDocumentIdentifier, ProgressToken, TextDocumentEdit, Uri,
    WorkspaceEdit,
};

use super::backend::Backend;
use super::convert::to_text_edit;
use super::evals::{EndOnDrop, Prepared, prepare};
use super::ext::{IMPROVE_PROGRESS_TITLE, ImproveDescriptionParams, ImproveDescriptionResult};
use super::handlers::invalid_params;
use super::outgoing::Outgoing;
use super::progress;
use crate::agent::eval::Progress;
use crate::agent::eval::improve::Improvement;

/// Rewrites `--improve` tries when the params do not say.
const DEFAULT_ITERATIONS: u32 = 5;
/// The most rewrites a request may ask for: each measures every query again.
const MAX_ITERATIONS: u32 = 20;

/// Runs the improvement loop for one skill and answers its result and the edit to accept.
pub(crate) async fn improve_description(
    backend: &Backend,
    params: ImproveDescriptionParams,
) -> Result<ImproveDescriptionResult> {
    if params.eval.description.is_some() {
        return Err(invalid_params(
            "skill/improveDescription writes its own candidates: leave out \"description\"",
        ));
    }
    let iterations = params.iterations.unwrap_or(DEFAULT_ITERATIONS);
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        return Err(invalid_params(format!(
            "iterations must be 1 to {MAX_ITERATIONS}"
        )));
    }
    let seed = params.seed.unwrap_or(1);
    let Prepared {
        skill,
        uri,
        tested,
        options,
        evaluator,
        price,
        work_done,
        ..
    } = prepare(backend, &params.eval).await?;
    if params.eval.dry_run == Some(true) {
        let estimate = evaluator
            .estimate_improve(&tested, &options, iterations)
            .map_err(|error| invalid_params(error.to_string()))?;
        return Ok(ImproveDescriptionResult(
            estimate.json(evaluator.provider.model(), price.as_ref()),
        ));
    }

    let ended = EndOnDrop::begin(
        backend,
        (params.eval.work_done_token.clone(), work_done),
        ("improve", IMPROVE_PROGRESS_TITLE),
        &skill.name,
        "measuring the description".to_owned(),
    )
    .await;
    // Reports leave through a channel: the progress callback is synchronous.
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel::<String>();
    let forward = tokio::spawn(forward_progress(
        backend.outgoing.clone(),
        ended.token(),
        receiver,
    ));
    let outcome = {
        let mut last = String::new();
        let mut on_progress = move |progress: Progress| {
            let line = progress_line(&progress);
            if line != last {
                last.clone_from(&line);
                let _ = sender.send(line);
            }
        };
        evaluator
            .improve(&tested, &options, iterations, seed, &mut on_progress)
            .await
    };
    let _ = forward.await;
    let improvement = ended.finish(outcome, Improvement::summary).await?;
    Ok(ImproveDescriptionResult(answer(
        backend,
        &uri,
        &skill.path,
        &improvement,
    )))
}

/// The progress message of one report: `measuring the description: 3/12 runs`, `rewrite 2 of
/// 5: writing`.
fn progress_line(progress: &Progress) -> String {
    let runs = format!(
        "{}/{} runs ({} cached)",
        progress.done, progress.total, progress.cached
    );
    match progress.round {
        Some(round) if round.rewriting => round.label(),
        Some(round) => format!("{}: {runs}", round.label()),
        None => runs,
    }
}

async fn forward_progress(
    outgoing: Outgoing,
    token: Option<ProgressToken>,
    mut receiver: tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    while let Some(line) = receiver.recv().await {
        if let Some(token) = &token {
            progress::send(&outgoing, token, progress::report(line)).await;
        }
    }
}

/// The result: the loop's JSON, the file's text now (the open buffer, else the disk) and, when a
/// rewrite won and can be written safely, that text with it and the edit between the two.
fn answer(
    backend: &Backend,
    uri: &Uri,
    path: &std::path::Path,
    improvement: &Improvement,
) -> Value {
    let mut value = improvement.json();
    let (buffer, encoding, document_changes) = {
        let state = backend.lock();
        (
            state.document_at(path),
            state.encoding(),
            state.caps().document_changes,
        )
    };
    let (uri, current, rope, version) = match buffer {
        Some(buffer) => (
            buffer.uri,
            buffer.text.to_string(),
            buffer.rope,
            Some(buffer.version),
        ),
        None => {
            let text = crate::workspace::read::read_text(path).unwrap_or_default();
            let rope = ropey::Rope::from_str(&text);
            (uri.clone(), text, rope, None)
        }
    };
    let uri = &uri;
    let edit = (improvement.best > 0)
        .then(|| crate::rules::fix::description_edit(&current, &improvement.best().description))
        .flatten();
    value["uri"] = uri.as_str().into();
    value["current"] = current.clone().into();
    value["proposed"] = Value::Null;
    value["edit"] = Value::Null;
    if let Some(edit) = edit {
        let proposed = crate::diagnostic::apply_edits(&current, std::slice::from_ref(&edit));
        if let Ok(proposed) = proposed {
            value["proposed"] = proposed.into();
            let text_edit = to_text_edit(&edit, &rope, encoding);
            // With a version the editor refuses the edit if the buffer changed since.
            let workspace_edit = if document_changes {
                WorkspaceEdit {
                    document_changes: Some(tower_lsp_server::ls_types::DocumentChanges::Edits(
                        vec![TextDocumentEdit {
                            text_document: OptionalVersionedTextDocumentIdentifier {
                                uri: uri.clone(),
                                version,
                            },
                            edits: vec![OneOf::Left(text_edit)],
                        }],
                    )),
                    ..WorkspaceEdit::default()
                }
            } else {
                WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![text_edit])])),
                    ..WorkspaceEdit::default()
                }
            };
            value["edit"] = serde_json::to_value(workspace_edit).unwrap_or_default();
        }
    } else if improvement.best > 0 {
        value["warning"] = "the description could not be replaced safely in the file; \
                            copy the best description by hand"
            .into();
    }
    value
}
