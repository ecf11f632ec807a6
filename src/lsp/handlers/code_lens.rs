//! `textDocument/codeLens`: "Run trigger evals" above `description:` in a SKILL.md whose folder
//! has a trigger eval set (`evals/triggers.json` or another name of `set::SET_FILES`; after a run
//! in this session: "Trigger evals: 8/10 — 1 missed"; with the set's name when several exist),
//! and the `trigger-evals` information diagnostic of the same last run. The lens's command is
//! the client's (`skillLsp.runTriggerEvals`), which sends `skill/runEvals`.

use serde_json::json;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeLens, CodeLensParams, Command, Diagnostic, DiagnosticSeverity, NumberOrString,
};

use crate::agent::eval::set::{FoundSet, find_set};
use crate::document::SkillDocument;
use crate::lsp::documents::{Encoding, range_of};
use crate::lsp::eval_results::EvalSummary;
use crate::lsp::ext::{RUN_TRIGGER_EVALS_COMMAND, TRIGGER_EVALS_CODE};
use crate::lsp::snapshot::Snapshot;
use crate::lsp::state::BufferText;

/// The title of the lens before any run in this session.
pub(crate) const RUN_TITLE: &str = "Run trigger evals";

/// The lens of a SKILL.md with an eval set; none otherwise.
pub(crate) fn code_lens(snapshot: &Snapshot, _: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    Ok(lenses(snapshot))
}

/// The skill's trigger set, the one a run measures (an open buffer or a file).
fn eval_set(snapshot: &Snapshot) -> Option<FoundSet> {
    let path = snapshot.document.path.as_deref()?;
    find_set(path, &|path| snapshot.exists(path))
}

/// Whether the skill's folder has an eval set (an open buffer or a file).
pub(crate) fn has_eval_set(snapshot: &Snapshot) -> bool {
    eval_set(snapshot).is_some()
}

/// The skill's name for a command's argument: its frontmatter's, else its folder's.
pub(crate) fn skill_name(snapshot: &Snapshot, document: &SkillDocument) -> Option<String> {
    document
        .field("name")
        .and_then(|entry| entry.value.as_str().map(str::to_owned))
        .or_else(|| {
            let path = snapshot.document.path.as_deref()?;
            Some(path.parent()?.file_name()?.to_str()?.to_owned())
        })
}

#[must_use]
pub(crate) fn lenses(snapshot: &Snapshot) -> Option<Vec<CodeLens>> {
    if !snapshot.caps.run_trigger_evals
        || !snapshot.document.is_skill_file()
        || !has_eval_set(snapshot)
    {
        return None;
    }
    let document = SkillDocument::parse_for_editing(&snapshot.document.text);
    let entry = document.field("description")?;
    let name = skill_name(snapshot, &document)?;
    let mut title = snapshot
        .eval
        .as_ref()
        .map_or_else(|| RUN_TITLE.to_owned(), EvalSummary::lens_title);
    // With more than one set in the folder, the lens says which one it runs.
    if let Some(found) = eval_set(snapshot).filter(|found| !found.ignored.is_empty()) {
        let shown = found.path.strip_prefix(&found.dir).unwrap_or(&found.path);
        title = format!("{title} ({})", shown.display());
    }
    let range = snapshot.range(entry.key.range.start, entry.key.range.end);
    Some(vec![CodeLens {
        range,
        command: Some(Command {
            title,
            command: RUN_TRIGGER_EVALS_COMMAND.to_owned(),
            arguments: Some(vec![json!({
                "skill": name,
                "uri": snapshot.document.uri.as_str(),
            })]),
        }),
        data: None,
    }])
}

/// The last run's results on the description, while it and the eval set are unchanged.
#[must_use]
pub(crate) fn trigger_evals_diagnostic(snapshot: &Snapshot) -> Option<Diagnostic> {
    let eval = snapshot.eval.as_ref()?;
    eval_diagnostic(&snapshot.document, eval, snapshot.encoding)
}

/// The `trigger-evals` diagnostic of `eval` on `document`'s description, for a pushed or a
/// pulled report (the workspace pull has no snapshot).
#[must_use]
pub(crate) fn eval_diagnostic(
    document: &BufferText,
    eval: &EvalSummary,
    encoding: Encoding,
) -> Option<Diagnostic> {
    let skill = SkillDocument::parse_for_editing(&document.text);
    let entry = skill.field("description")?;
    Some(Diagnostic {
        range: range_of(
            &document.rope,
            entry.value.range.start,
            entry.value.range.end,
            encoding,
        ),
        severity: Some(DiagnosticSeverity::INFORMATION),
        code: Some(NumberOrString::String(TRIGGER_EVALS_CODE.to_owned())),
        source: Some("skill-lsp".to_owned()),
        message: eval.message(),
        ..Diagnostic::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "---\nname: pdf\ndescription: Work with PDF files.\n---\n# PDF\n";

    /// A snapshot of a SKILL.md in a temporary skill folder, with or without an eval set.
    fn snapshot(with_set: bool) -> (tempfile::TempDir, Snapshot) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let skill = dir.path().join("pdf");
        std::fs::create_dir_all(skill.join("evals")).expect("mkdir");
        if with_set {
            std::fs::write(
                skill.join("evals/triggers.json"),
                r#"[{"query": "merge", "should_trigger": true}]"#,
            )
            .expect("write");
        }
        let mut snapshot = crate::lsp::snapshot::test_snapshot(TEXT);
        let path = skill.join("SKILL.md");
        snapshot.document.uri =
            tower_lsp_server::ls_types::Uri::from_file_path(&path).expect("a uri");
        snapshot.document.path = Some(path);
        snapshot.caps.run_trigger_evals = true;
        (dir, snapshot)
    }

    fn summary() -> EvalSummary {
        EvalSummary {
            key: String::new(),
            passed: 8,
            total: 10,
            missed: 1,
            wrongly_loaded: 1,
            failing: vec![
                ("query one".into(), "missed".into()),
                ("query two".into(), "loaded docx instead".into()),
            ],
            undecided: 0,
        }
    }

    #[test]
    fn the_lens_sits_on_the_description_key_and_runs_the_client_command() {
        let (_dir, mut snapshot) = snapshot(true);
        let lenses = lenses(&snapshot).expect("a lens");
        assert_eq!(lenses.len(), 1);
        assert_eq!(lenses[0].range.start.line, 2);
        let command = lenses[0].command.as_ref().expect("a command");
        assert_eq!(command.title, RUN_TITLE);
        assert_eq!(command.command, RUN_TRIGGER_EVALS_COMMAND);
        let argument = &command.arguments.as_ref().expect("arguments")[0];
        assert_eq!(argument["skill"], "pdf");
        assert_eq!(argument["uri"], snapshot.document.uri.as_str());
        assert!(trigger_evals_diagnostic(&snapshot).is_none());

        snapshot.eval = Some(summary());
        let lenses = self::lenses(&snapshot).expect("a lens");
        let title = &lenses[0].command.as_ref().expect("a command").title;
        assert_eq!(
            title,
            "Trigger evals: 8/10 \u{2014} 1 missed, 1 wrongly loaded"
        );
        let diagnostic = trigger_evals_diagnostic(&snapshot).expect("a diagnostic");
        assert_eq!(diagnostic.severity, Some(DiagnosticSeverity::INFORMATION));
        assert_eq!(
            diagnostic.message,
            "Trigger evals: 8/10 passed; failing: 'query one' (missed), 'query two' (loaded docx instead)"
        );
        assert_eq!(diagnostic.range.start.line, 2);
        assert_eq!(diagnostic.range.start.character, 13);
    }

    #[test]
    fn no_lens_for_a_client_without_the_command() {
        let (_dir, mut snapshot) = snapshot(true);
        snapshot.caps.run_trigger_evals = false;
        assert!(lenses(&snapshot).is_none());
    }

    #[test]
    fn no_lens_without_an_eval_set_or_outside_a_skill() {
        let (_dir, snapshot) = snapshot(false);
        assert!(lenses(&snapshot).is_none());
        let mut markdown = crate::lsp::snapshot::test_snapshot(TEXT);
        markdown.caps.run_trigger_evals = true;
        // test_snapshot's folder /w/skills/pdf has no eval set on this machine.
        assert!(lenses(&markdown).is_none());
    }

    /// The improve action comes only on the description entry of a skill with an eval set, and
    /// only to a client that declared its command; never as a quick fix.
    #[test]
    fn the_improve_action_is_offered_on_the_description_to_clients_with_the_command() {
        use tower_lsp_server::ls_types::{
            CodeActionContext, CodeActionKind, CodeActionOrCommand, CodeActionParams, Position,
            Range, TextDocumentIdentifier,
        };
        let ask = |snapshot: &Snapshot, line: u32, only: Option<CodeActionKind>| {
            let at = Range::new(Position::new(line, 15), Position::new(line, 15));
            let params = CodeActionParams {
                text_document: TextDocumentIdentifier::new(snapshot.document.uri.clone()),
                range: at,
                context: CodeActionContext {
                    only: only.map(|kind| vec![kind]),
                    ..CodeActionContext::default()
                },
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            };
            super::super::code_action::code_action(snapshot, params)
                .expect("an answer")
                .unwrap_or_default()
                .into_iter()
                .filter_map(|action| match action {
                    CodeActionOrCommand::CodeAction(action) => action.command,
                    CodeActionOrCommand::Command(_) => None,
                })
                .map(|command| command.command)
                .collect::<Vec<_>>()
        };
        let improve = || vec![crate::lsp::ext::IMPROVE_DESCRIPTION_COMMAND.to_owned()];
        let (_dir, mut snapshot) = snapshot(true);
        snapshot.caps.improve_description = true;
        assert_eq!(ask(&snapshot, 2, None), improve());
        assert_eq!(ask(&snapshot, 2, Some(CodeActionKind::REFACTOR)), improve());
        assert!(ask(&snapshot, 2, Some(CodeActionKind::QUICKFIX)).is_empty());
        assert!(ask(&snapshot, 1, None).is_empty(), "not on name");
        snapshot.caps.improve_description = false;
        assert!(
            ask(&snapshot, 2, None).is_empty(),
            "a client without the command"
        );
        let (_dir, mut without_set) = self::snapshot(false);
        without_set.caps.improve_description = true;
        assert!(ask(&without_set, 2, None).is_empty(), "no eval set");
    }
}
