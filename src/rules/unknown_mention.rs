//! `unknown-mention`: a `/name` or `$name` in a skill's Markdown that names no skill of the
//! workspace but comes close to one ("did you mean"). Prose mentions only: in code, `/name` is
//! as often a path or another tool's command.

use super::Rule;
use super::suggest::NearNames;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::document::mentions::Mention;

/// The `unknown-mention` findings among `mentions`, against the names `near` knows.
#[must_use]
pub(crate) fn unknown_mentions(near: &NearNames<'_>, mentions: &[Mention]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for mention in mentions {
        if mention.in_code || near.contains(&mention.name) {
            continue;
        }
        let Some(suggestion) = near.nearest(&mention.name) else {
            continue;
        };
        let sigil = mention.sigil;
        let mut diagnostic = Diagnostic::new(
            Rule::UnknownMention,
            mention.range,
            format!(
                "'{sigil}{}' names no skill in this workspace; did you mean '{sigil}{suggestion}'? — the agent finds nothing to load",
                mention.name
            ),
        );
        diagnostic.fixes.push(Fix::new(
            format!("Change to '{sigil}{suggestion}'"),
            false,
            vec![Edit::replace(mention.range, suggestion)],
        ));
        found.push(diagnostic);
    }
    found
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::UnknownMention => RuleDoc::new(
            "A `/name` or `$name` mention in a skill's body is close to, but not, a skill of the workspace. Mentions in code, HTML comments and link targets, and URL paths (`/docs` in `https://x.dev/docs`), are not judged.",
            "Agents and users follow mentions to other skills; a misspelt one leads nowhere.",
            "`Then run /pdff on the output` when the skill is `pdf`.",
            "Correct the name to the suggested skill (offered in the editor).",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::rules::suggest::NearIndex;
    use crate::text::TextRange;
    use crate::workspace::{Registry, Skill};

    fn skill(name: &str) -> Skill {
        Skill {
            name: name.into(),
            description: "Use when testing.".into(),
            when_to_use: None,
            path: PathBuf::from(format!("skills/{name}/SKILL.md")),
            root: PathBuf::from("skills"),
            folder: name.into(),
            name_range: None,
            description_range: None,
            name_span: None,
            readings: crate::clients::Readings::default(),
        }
    }

    /// The index finds what its definition says: among the names that share the mention or one
    /// of its one-character deletions, or one of theirs, the nearest within the edit budget
    /// (ties to the first name in byte order), on every short word over a small alphabet.
    #[test]
    fn nearest_follows_its_definition() {
        use crate::rules::suggest::{MENTION_LENGTH, edit_budget, edit_distance};
        fn variants(word: &str) -> Vec<String> {
            let mut all = vec![word.to_owned()];
            for (at, ch) in word.char_indices() {
                all.push(format!("{}{}", &word[..at], &word[at + ch.len_utf8()..]));
            }
            all
        }
        fn words(alphabet: &[char], longest: usize) -> Vec<String> {
            let mut all = vec![String::new()];
            let mut last = vec![String::new()];
            for _ in 0..longest {
                last = last
                    .iter()
                    .flat_map(|word| alphabet.iter().map(move |ch| format!("{word}{ch}")))
                    .collect();
                all.extend(last.iter().cloned());
            }
            all
        }
        let names: Vec<String> = words(&['a', 'b', '-'], 4)
            .into_iter()
            .filter(|word| !word.is_empty())
            .step_by(3)
            .chain(["abab-ab", "ba-baba", "aaaaaa", "é-a"].map(String::from))
            .collect();
        let mut registry = Registry::default();
        for name in &names {
            registry.add(skill(name));
        }
        let index = NearIndex::default();
        let near = NearNames::new(&registry, &index);
        for word in words(&['a', 'b', '-', 'é'], 4)
            .iter()
            .chain(&["abab-a".to_owned()])
        {
            let own = variants(word);
            let expected = names
                .iter()
                .filter(|name| variants(name).iter().any(|variant| own.contains(variant)))
                .map(|name| (edit_distance(word, name), name.as_str()))
                .filter(|(distance, _)| *distance <= edit_budget(word, MENTION_LENGTH))
                .min()
                .map(|(_, name)| name);
            assert_eq!(near.nearest(word), expected, "{word:?}");
        }
    }

    #[test]
    fn unknown_mentions_suggest_a_near_name() {
        let mut registry = Registry::default();
        registry.add(skill("pdf"));
        registry.add(skill("code-review"));
        let text = "Run /pdff, $code-reveiw, /pdf and /unrelated.";
        let mentions = crate::document::mentions::mentions(text, TextRange::new(0, text.len()));
        let found = unknown_mentions(&NearNames::new(&registry, &NearIndex::default()), &mentions);
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0]
                .starts_with("'/pdff' names no skill in this workspace; did you mean '/pdf'?")
        );
        assert!(messages[1].contains("did you mean '$code-review'?"));
        assert_eq!(&text[found[0].range.as_range()], "pdff");
        assert!(
            unknown_mentions(
                &NearNames::new(&Registry::default(), &NearIndex::default()),
                &mentions
            )
            .is_empty()
        );
        let registry_ref = &registry;
        assert_eq!(
            NearNames::new(registry_ref, &NearIndex::default()).nearest("pdx"),
            Some("pdf"),
            "a substitution"
        );
        assert_eq!(
            NearNames::new(registry_ref, &NearIndex::default()).nearest("code-reveiw"),
            Some("code-review"),
            "a transposition"
        );
        assert_eq!(
            NearNames::new(registry_ref, &NearIndex::default()).nearest("code-rev"),
            None
        );
    }

    #[test]
    fn unknown_mentions_skip_code_comments_and_urls() {
        let mut registry = Registry::default();
        registry.add(skill("docs"));
        let text = "See https://x.dev/doc, example.com/doc, src/doc, [d](/doc) and `/doc`.\n\n\
                    ```\n/doc\n```\n\n    /doc\n\n<!-- /doc -->\n\nBut /doc here.\n";
        let mentions = crate::document::mentions::mentions(text, TextRange::new(0, text.len()));
        let found = unknown_mentions(&NearNames::new(&registry, &NearIndex::default()), &mentions);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].range.start, text.rfind("doc here").unwrap());
    }
}
