//! `textDocument/documentSymbol`: the frontmatter keys (with `metadata` children) and the
//! Markdown headings as a tree.

use ropey::Rope;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, Range, SymbolKind,
};

use crate::document::{NodeKind, SkillDocument};
use crate::lsp::documents::{Encoding, range_of};
use crate::lsp::snapshot::Snapshot;

pub(crate) fn document_symbol(
    snapshot: &Snapshot,
    _: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    Ok(Some(DocumentSymbolResponse::Nested(document_symbols(
        snapshot,
    ))))
}

#[allow(
    deprecated,
    reason = "DocumentSymbol::deprecated is required by the struct"
)]
fn symbol(
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    range: Range,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: if name.is_empty() {
            " ".to_owned()
        } else {
            name
        },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: (!children.is_empty()).then_some(children),
    }
}

/// Frontmatter keys (with `metadata` children) and the Markdown headings as a tree.
#[must_use]
pub(crate) fn document_symbols(snapshot: &Snapshot) -> Vec<DocumentSymbol> {
    let encoding = snapshot.encoding;
    let text: &str = &snapshot.document.text;
    let rope = &snapshot.document.rope;
    let document = SkillDocument::parse_for_editing(text);
    let mut symbols = Vec::new();
    if let (Some(block), Some(root)) = (document.block(), document.mapping()) {
        let mut keys = Vec::new();
        for entry in root.as_mapping().unwrap_or_default() {
            let name = entry.key.as_str().unwrap_or("?").to_owned();
            let end = entry.value.range.end.max(entry.key.range.end);
            let children = entry
                .value
                .as_mapping()
                .map(|inner| {
                    inner
                        .iter()
                        .map(|child| {
                            let end = child.value.range.end.max(child.key.range.end);
                            symbol(
                                child.key.as_str().unwrap_or("?").to_owned(),
                                child.value.as_str().map(preview),
                                SymbolKind::KEY,
                                range_of(rope, child.key.range.start, end, encoding),
                                Vec::new(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let kind = match entry.value.kind {
                NodeKind::Mapping(_) => SymbolKind::OBJECT,
                NodeKind::Sequence(_) => SymbolKind::ARRAY,
                _ => SymbolKind::PROPERTY,
            };
            keys.push(symbol(
                name,
                entry.value.as_str().map(preview),
                kind,
                range_of(rope, entry.key.range.start, end, encoding),
                children,
            ));
        }
        let end = block.close.map_or(block.yaml.end, |close| close.line.end);
        symbols.push(symbol(
            "frontmatter".to_owned(),
            None,
            SymbolKind::NAMESPACE,
            range_of(rope, block.open.line.start, end, encoding),
            keys,
        ));
    }
    // Headings nest by level: each one holds the deeper ones that follow it.
    let headings = &crate::document::body::headings(text, document.body.range);
    fn build(
        headings: &[crate::document::Heading],
        index: &mut usize,
        level: u8,
        rope: &Rope,
        encoding: Encoding,
        body_end: usize,
    ) -> Vec<DocumentSymbol> {
        let mut out = Vec::new();
        while *index < headings.len() && headings[*index].level > level {
            let heading = &headings[*index];
            *index += 1;
            let children = build(headings, index, heading.level, rope, encoding, body_end);
            let section_end = headings
                .get(*index)
                .filter(|next| next.level <= heading.level)
                .map_or(body_end, |next| next.range.start);
            let mut item = symbol(
                heading.title.clone(),
                None,
                SymbolKind::STRING,
                range_of(
                    rope,
                    heading.range.start,
                    section_end.max(heading.range.end),
                    encoding,
                ),
                children,
            );
            item.selection_range = range_of(rope, heading.range.start, heading.range.end, encoding);
            out.push(item);
        }
        out
    }
    let mut index = 0;
    symbols.extend(build(headings, &mut index, 0, rope, encoding, text.len()));
    symbols
}

fn preview(value: &str) -> String {
    let line = value.lines().next().unwrap_or("");
    if line.chars().count() > 60 {
        format!("{}…", line.chars().take(59).collect::<String>())
    } else {
        line.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lsp::snapshot::test_snapshot as snapshot;

    #[test]
    fn symbols_cover_keys_and_nested_headings() {
        let text =
            "---\nname: pdf\nmetadata:\n  version: \"1\"\n---\n# Top\n## A\ntext\n## B\n# Next\n";
        let symbols = document_symbols(&snapshot(text));
        let names = |symbols: &[DocumentSymbol]| -> Vec<String> {
            symbols.iter().map(|symbol| symbol.name.clone()).collect()
        };
        assert_eq!(names(&symbols), vec!["frontmatter", "Top", "Next"]);
        assert_eq!(
            names(symbols[0].children.as_ref().unwrap()),
            vec!["name", "metadata"]
        );
        assert_eq!(names(symbols[1].children.as_ref().unwrap()), vec!["A", "B"]);
    }
}
