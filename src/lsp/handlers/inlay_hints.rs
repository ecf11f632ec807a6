//! `textDocument/inlayHint`: the length of `name` and `description` against their limits.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{InlayHint, InlayHintLabel, InlayHintParams};

use crate::document::SkillDocument;
use crate::field_table::FIELDS;
use crate::lsp::documents::range_of;
use crate::lsp::snapshot::Snapshot;

/// Hints for a SKILL.md; none for other Markdown.
pub(crate) fn inlay_hint(
    snapshot: &Snapshot,
    _: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    if !snapshot.document.is_skill_file() {
        return Ok(None);
    }
    Ok(Some(inlay_hints(snapshot)))
}

/// `312/1024` after the description, `3/64` after the name.
#[must_use]
pub(crate) fn inlay_hints(snapshot: &Snapshot) -> Vec<InlayHint> {
    let document = SkillDocument::parse_for_editing(&snapshot.document.text);
    let mut hints = Vec::new();
    let limited = FIELDS
        .iter()
        .filter_map(|field| Some((field.name, field.hinted_limit()?)));
    for (key, limit) in limited {
        let Some(entry) = document.field(key) else {
            continue;
        };
        let Some(value) = entry.value.as_str().filter(|_| entry.value.is_string()) else {
            continue;
        };
        let length = value.chars().count();
        hints.push(InlayHint {
            position: range_of(
                &snapshot.document.rope,
                entry.value.range.end,
                entry.value.range.end,
                snapshot.encoding,
            )
            .end,
            label: InlayHintLabel::String(format!("{length}/{limit}")),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    hints
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lsp::snapshot::test_snapshot as snapshot;

    fn labels(text: &str) -> Vec<String> {
        inlay_hints(&snapshot(text))
            .into_iter()
            .map(|hint| match hint.label {
                InlayHintLabel::String(label) => label,
                InlayHintLabel::LabelParts(_) => String::new(),
            })
            .collect()
    }

    #[test]
    fn inlay_hints_stay_while_a_key_is_half_typed() {
        let text = "---\nname: pdf\nuser-invo\ndescription: Fills forms.\n---\n";
        assert_eq!(labels(text), vec!["3/64", "12/1024"]);
    }

    #[test]
    fn inlay_hints_count_characters() {
        let text = "---\nname: pdf\ndescription: 日本語 text\n---\n";
        assert_eq!(labels(text), vec!["3/64", "8/1024"]);
    }
}
