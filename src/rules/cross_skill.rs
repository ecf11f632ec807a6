//! The cross-skill rules (group `Workspace`) over the loader's registry: `duplicate-name`,
//! `symlink-escape` and `catalog-budget`. `unknown-mention` is `suggest::NearNames`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::Rule;
use crate::clients::{Fate, claude_code, codex};
use crate::diagnostic::{Diagnostic, Related};
use crate::targets::{Client, ClientSet, join_names};
use crate::text::TextRange;
use crate::workspace::catalog::{client_listing, listing_budget};
use crate::workspace::loader::root_readers;
use crate::workspace::registry::Refusal;
use crate::workspace::{Registry, Skill};

/// Findings of the workspace rules, each with the file it belongs to.
#[must_use]
pub(crate) fn check(
    registry: &Registry,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
    context_window: Option<u64>,
) -> Vec<(PathBuf, Diagnostic)> {
    let mut findings = Vec::new();
    duplicate_names(registry, targets_for, &mut findings);
    symlink_escapes(registry, targets_for, &mut findings);
    catalog_budget(registry, targets_for, context_window, &mut findings);
    findings
}

/// The workspace findings of one file, for an editor that analyses one document at a time:
/// `catalog-budget` (which lists every skill) is only computed when a selected target has a
/// listing budget.
#[must_use]
pub(crate) fn check_file(
    registry: &Registry,
    path: &Path,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
    context_window: Option<u64>,
) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    duplicate_names(registry, targets_for, &mut findings);
    symlink_escapes(registry, targets_for, &mut findings);
    if !listed_among(&targets_for(path)).is_empty() {
        catalog_budget(registry, targets_for, context_window, &mut findings);
    }
    findings
        .into_iter()
        .filter(|(finding_path, _)| finding_path == path)
        .map(|(_, diagnostic)| diagnostic)
        .collect()
}

fn name_range(skill: &Skill) -> TextRange {
    skill.name_range.unwrap_or_default()
}

/// `duplicate-name`: skills of one name that a selected client actually sees together (both
/// roots scanned by it), reported on each with the others as related places.
fn duplicate_names(
    registry: &Registry,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
    findings: &mut Vec<(PathBuf, Diagnostic)>,
) {
    let mut groups: Vec<Vec<&Skill>> = Vec::new();
    let mut group_of: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (shadowed, winner) in &registry.shadowed {
        let group = *group_of.entry(*winner).or_insert_with(|| {
            groups.push(vec![&registry.skills[*winner]]);
            groups.len() - 1
        });
        groups[group].push(shadowed);
    }
    for group in &groups {
        let winner = group[0];
        for this in group {
            let targets = targets_for(&this.path);
            let others: Vec<(&Skill, Vec<Client>)> = group
                .iter()
                .filter(|other| other.path != this.path)
                .map(|other| {
                    let other_targets = targets_for(&other.path);
                    let seeing = targets
                        .iter()
                        .copied()
                        .filter(|&target| {
                            match (root_readers(&this.root), root_readers(&other.root)) {
                                // Two client folders: the client must scan both.
                                (Some(these), Some(those)) => {
                                    these.contains(&target) && those.contains(&target)
                                }
                                // Two folders no client owns (`skills/`, config roots): the
                                // clients selected for both read them together.
                                (None, None) => other_targets.contains(&target),
                                // A published `skills/` next to an installed `.agents/skills`
                                // copy: no client scans both.
                                _ => false,
                            }
                        })
                        .collect::<Vec<_>>();
                    (*other, seeing)
                })
                .filter(|(_, seeing)| !seeing.is_empty())
                .collect();
            let Some((first, _)) = others.first() else {
                continue;
            };
            let mut affected: Vec<Client> = others
                .iter()
                .flat_map(|(_, seeing)| seeing.iter().copied())
                .collect();
            affected.sort();
            affected.dedup();
            let names: Vec<&str> = affected.iter().map(|target| target.display()).collect();
            let keeps = if this.path == winner.path {
                "skill-lsp's agent keeps this one (first root, first folder)".to_owned()
            } else {
                format!(
                    "skill-lsp's agent keeps {} (first root, first folder)",
                    winner.path.display()
                )
            };
            // Copies of one skill (a sync tool writing it to each client's folder): whichever a
            // client keeps is the same skill, so nothing is lost (clients keep one of two
            // entries of one name; where one lists both, the lines are the same).
            if others
                .iter()
                .all(|(other, _)| other.description == this.description)
            {
                continue;
            }
            let message = format!(
                "the skill name '{}' is also used by {} — {} {} both, and an agent can load only one of them; {keeps}",
                this.name,
                first.path.display(),
                join_names(&names),
                if names.len() > 1 { "see" } else { "sees" },
            );
            let mut diagnostic = Diagnostic::new(Rule::DuplicateName, name_range(this), message);
            diagnostic.targets = affected;
            for (other, _) in &others {
                diagnostic.related.push(Related {
                    path: other.path.clone(),
                    span: other.name_span.unwrap_or_default(),
                    message: format!("the other skill named '{}'", other.name),
                });
            }
            findings.push((this.path.clone(), diagnostic));
        }
    }
}

/// `symlink-escape`: a skill folder or SKILL.md linked from outside its root. Clients that
/// follow links load it; skill-lsp's own loader refuses it (design.md §5).
fn symlink_escapes(
    registry: &Registry,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
    findings: &mut Vec<(PathBuf, Diagnostic)>,
) {
    for refused in &registry.refused {
        let Refusal::OutsideRoot { resolved, .. } = &refused.refusal else {
            continue;
        };
        let targets = targets_for(&refused.path);
        let followers: Vec<&str> = targets
            .iter()
            .filter(|target| matches!(target, Client::ClaudeCode | Client::Codex))
            .map(|target| target.display())
            .collect();
        let loads = if followers.is_empty() {
            String::new()
        } else {
            format!(
                "{} {} the link and load{} it; ",
                join_names(&followers),
                if followers.len() > 1 {
                    "follow"
                } else {
                    "follows"
                },
                if followers.len() > 1 { "" } else { "s" },
            )
        };
        let mut diagnostic = Diagnostic::new(
            Rule::SymlinkEscape,
            TextRange::default(),
            format!(
                "{} resolves to {}, outside its skills root {} — {loads}skill-lsp's own agent does not register it, and tools that copy the root lose it",
                refused.path.display(),
                resolved.display(),
                refused.root.display(),
            ),
        );
        diagnostic.targets = targets;
        findings.push((refused.path.clone(), diagnostic));
    }
}

/// The clients with a listing budget, whose listings `catalog-budget` computes.
const BUDGETED: [Client; 3] = [Client::ClaudeCode, Client::Codex, Client::Copilot];

/// The selected targets of each registered skill.
fn selected_targets<'a>(
    registry: &'a Registry,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
) -> HashMap<&'a Path, Vec<Client>> {
    registry
        .skills
        .iter()
        .chain(registry.shadowed.iter().map(|(skill, _)| skill))
        .map(|skill| (skill.path.as_path(), targets_for(&skill.path)))
        .collect()
}

/// The clients whose listing of `registry` the workspace rules compute (the budgeted clients
/// selected for some skill), so whose readings its skills need ([`Registry::read_clients`]).
/// Without a map of each skill's targets: most workspaces select no budgeted client, and then
/// `catalog-budget` needs nothing more.
#[must_use]
pub(crate) fn listed_clients(
    registry: &Registry,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
) -> ClientSet {
    let every = ClientSet::of(BUDGETED);
    let mut listed = ClientSet::NONE;
    for skill in registry
        .skills
        .iter()
        .chain(registry.shadowed.iter().map(|(skill, _)| skill))
    {
        for target in targets_for(&skill.path) {
            if every.contains(target) {
                listed = listed.with(target);
            }
        }
        if every.without(listed).is_empty() {
            break;
        }
    }
    listed
}

/// The clients among `targets` (one file's) whose listing the workspace rules would compute:
/// the readings a front end that reads each file before it builds registries takes at once.
#[must_use]
pub(crate) fn listed_among(targets: &[Client]) -> ClientSet {
    ClientSet::of(
        BUDGETED
            .into_iter()
            .filter(|target| targets.contains(target)),
    )
}

fn catalog_budget(
    registry: &Registry,
    targets_for: &dyn Fn(&Path) -> Vec<Client>,
    context_window: Option<u64>,
    findings: &mut Vec<(PathBuf, Diagnostic)>,
) {
    let listed = listed_clients(registry, targets_for);
    if listed.is_empty() {
        return;
    }
    let selected = selected_targets(registry, targets_for);
    // Looked up once per listed skill: a map, not a scan of the registry each time (thousands
    // of skills can be shortened at once).
    let skills: HashMap<&Path, &Skill> = registry
        .skills
        .iter()
        .chain(registry.shadowed.iter().map(|(skill, _)| skill))
        .map(|skill| (skill.path.as_path(), skill))
        .collect();
    for target in BUDGETED {
        if !listed.contains(target) {
            continue;
        }
        let listing = client_listing(registry, target, context_window);
        let budget = listing_budget(target, context_window).unwrap_or(usize::MAX);
        let count = listing.listed.len();
        let listed_chars: usize = listing.own_chars
            + listing
                .listed
                .iter()
                .map(|item| item.name.chars().count() + 4 + item.full_chars + 1)
                .sum::<usize>();
        let own = if target == Client::ClaudeCode {
            format!(", its own {} skills included", claude_code::OWN_SKILLS)
        } else {
            String::new()
        };
        let over_budget = || {
            listing
                .omitted
                .iter()
                .filter(|item| item.reason == "over-budget")
        };
        // Codex's budget is tokens (four bytes each), its own four skills included. The same
        // words close every Codex finding: written once, not once per skill (thousands of
        // skills can be over the budget at once).
        let codex_why = if target == Client::Codex {
            format!(
                "a listing of {} skills, its own {} included, needs about {} tokens and its budget is {budget} tokens (2% of the context window)",
                count + over_budget().count() + codex::OWN.len(),
                codex::OWN.len(),
                listing.needed.unwrap_or_default(),
            )
        } else {
            String::new()
        };
        if target == Client::Codex {
            // Through the map of paths, as the listed skills below: `Registry::skill_at` scans
            // the registry, once per over-budget skill.
            for item in over_budget() {
                let Some(skill) = skills.get(item.path.as_path()).copied().filter(|skill| {
                    installed_together(skill)
                        && selected
                            .get(item.path.as_path())
                            .is_some_and(|targets| targets.contains(&target))
                }) else {
                    continue;
                };
                let mut diagnostic = Diagnostic::new(
                    Rule::CatalogBudget,
                    name_range(skill),
                    format!(
                        "Codex leaves this skill out of its skill listing: even by name only, {codex_why}"
                    ),
                );
                diagnostic.targets = vec![target];
                findings.push((skill.path.clone(), diagnostic));
            }
        }
        for item in &listing.listed {
            if !item.truncated
                || !selected
                    .get(item.path.as_path())
                    .is_some_and(|targets| targets.contains(&target))
            {
                continue;
            }
            let Some(skill) = skills.get(item.path.as_path()).copied() else {
                continue;
            };
            // A description's own cap holds wherever the skill is installed; what the size of the
            // whole listing costs, only where the skills are installed together.
            if !matches!(item.fate, Fate::Capped) && !installed_together(skill) {
                continue;
            }
            let shown = item.description.chars().count();
            let (action, why) = match item.fate {
                Fate::Capped if target == Client::Codex => (
                    format!(
                        "cuts this description from {} to {shown} characters",
                        item.full_chars
                    ),
                    format!(
                        "it lists at most {} characters of a description",
                        codex::DESCRIPTION_CAP
                    ),
                ),
                Fate::Shortened => (
                    format!(
                        "cuts this description from {} to {shown} characters",
                        item.full_chars
                    ),
                    codex_why.clone(),
                ),
                Fate::NameOnly if target == Client::Copilot => (
                    "offers this skill by name only, without its description,".to_owned(),
                    format!(
                        "it shows descriptions only while the entries, in name order, fit {budget} characters"
                    ),
                ),
                Fate::NameOnly if target == Client::Codex => (
                    "lists this skill by name only, without its description,".to_owned(),
                    codex_why.clone(),
                ),
                Fate::Capped => (
                    if shown == 0 {
                        "drops this description".to_owned()
                    } else {
                        format!(
                            "cuts this description from {} to {shown} characters",
                            item.full_chars
                        )
                    },
                    format!(
                        "its cap is {} characters per skill, when_to_use included",
                        claude_code::SKILL_CAP
                    ),
                ),
                _ => (
                    "lists this skill by name only, without its description,".to_owned(),
                    format!(
                        "a listing of {count} skill{} needs {listed_chars} characters{own} and its budget is {budget}",
                        if count == 1 { "" } else { "s" }
                    ),
                ),
            };
            let mut diagnostic = Diagnostic::new(
                Rule::CatalogBudget,
                skill.description_range.unwrap_or_else(|| name_range(skill)),
                format!("{} {action} in its skill listing: {why}", target.display()),
            );
            diagnostic.targets = vec![target];
            findings.push((skill.path.clone(), diagnostic));
        }
    }
}

/// Whether a skill is used together with the others of its registry: it sits in a project's
/// client folder. A collection's `skills/` or a marketplace is picked from, skill by skill or
/// plugin by plugin, so the length of its whole listing says nothing about any client's.
fn installed_together(skill: &Skill) -> bool {
    root_readers(&skill.root).is_some()
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::DuplicateName => RuleDoc::new(
            "Two skills visible to one client have the same name.",
            "Clients keep one and silently shadow the other; which one wins differs by client.",
            "`skills/pdf/SKILL.md` and `.claude/skills/pdf/SKILL.md` both named `pdf`.",
            "Rename one of them.",
        ),
        Rule::SymlinkEscape => RuleDoc::new(
            "A SKILL.md or its folder is a symlink that resolves outside its skills root.",
            "The loader refuses skills outside their root, so the skill is not registered.",
            "`skills/pdf -> /home/me/other/pdf`",
            "Copy the skill into the root instead of linking it.",
        ),
        Rule::CatalogBudget => RuleDoc::new(
            "A client would truncate or drop this skill's description in its listing.",
            "Claude Code caps description plus `when_to_use` at 1,536 characters and the listing at about 1% of the context window; Codex at about 2% (8,000 characters when unknown).",
            "Forty skills with 900-character descriptions in a Codex project.",
            "Shorten descriptions to the trigger essentials.",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::workspace::registry::Refused;

    fn skill(name: &str, folder: &str, root: &str, description: String) -> Skill {
        let claude = claude_code::read(&format!("---\ndescription: {description}\n---\n"));
        let codex = codex::read(&format!("---\ndescription: {description}\n---\n"));
        Skill {
            name: name.into(),
            description,
            when_to_use: None,
            path: PathBuf::from(format!("{root}/{folder}/SKILL.md")),
            root: PathBuf::from(root),
            folder: folder.into(),
            name_range: Some(TextRange::new(10, 13)),
            description_range: Some(TextRange::new(27, 30)),
            name_span: None,
            readings: crate::clients::Readings {
                claude: Some(Box::new(claude)),
                codex: Some(Box::new(codex)),
                copilot: Some(Default::default()),
                opencode: Some(Default::default()),
                gemini: Some(Default::default()),
            },
        }
    }

    #[test]
    fn duplicate_name_reports_both_with_related_information() {
        let mut registry = Registry::default();
        registry.add(skill("pdf", "pdf", "skills", "a".into()));
        registry.add(skill("pdf", "pdf", "vendor/skills", "b".into()));
        let findings = check(&registry, &|_| vec![Client::AgentSkills], None);
        assert_eq!(findings.len(), 2);
        assert_eq!(findings[0].0, PathBuf::from("skills/pdf/SKILL.md"));
        assert!(findings[0].1.message.contains("keeps this one"));
        assert_eq!(
            findings[0].1.related[0].path,
            PathBuf::from("vendor/skills/pdf/SKILL.md")
        );
        assert_eq!(findings[1].0, PathBuf::from("vendor/skills/pdf/SKILL.md"));
        assert!(
            findings[1]
                .1
                .message
                .contains("keeps skills/pdf/SKILL.md (first root")
        );
        assert_eq!(findings[1].1.range, TextRange::new(10, 13));
    }

    #[test]
    fn duplicate_name_fires_only_where_one_client_reads_both_roots() {
        let mut registry = Registry::default();
        registry.add(skill("pdf", "pdf", ".claude/skills", "a".into()));
        registry.add(skill("pdf", "pdf", ".codex/skills", "b".into()));
        // Each copy checked for the client that owns its folder: Claude Code never reads
        // `.codex/skills`, Codex never reads `.claude/skills`.
        let by_folder = |path: &Path| crate::targets::Home::of(path, &|_| false).readers().0;
        assert!(check(&registry, &by_folder, None).is_empty());
        // Copilot reads `.claude/skills` and `.agents/skills`.
        let mut registry = Registry::default();
        registry.add(skill("pdf", "pdf", ".agents/skills", "a".into()));
        registry.add(skill("pdf", "pdf", ".claude/skills", "b".into()));
        let findings = check(&registry, &|_| vec![Client::Copilot], None);
        assert_eq!(findings.len(), 2);
        assert_eq!(findings[0].1.targets, vec![Client::Copilot]);
        assert!(findings[0].1.message.contains("Copilot sees both"));
        assert!(check(&registry, &|_| vec![Client::ClaudeCode], None).is_empty());
        // A published `skills/` copy next to the installed `.agents/skills` one.
        let mut registry = Registry::default();
        registry.add(skill("pdf", "pdf", "skills", "a".into()));
        registry.add(skill("pdf", "pdf", ".agents/skills", "b".into()));
        assert!(check(&registry, &|_| vec![Client::AgentSkills], None).is_empty());
        // Copies of one skill in two folders Copilot reads: whichever it keeps is the same.
        let mut registry = Registry::default();
        registry.add(skill("pdf", "pdf", ".github/skills", "same".into()));
        registry.add(skill("pdf", "pdf", ".claude/skills", "same".into()));
        assert!(check(&registry, &|_| vec![Client::Copilot], None).is_empty());
    }

    #[test]
    fn symlink_escape_names_the_resolved_path() {
        let mut registry = Registry::default();
        registry.refused.push(Refused {
            path: PathBuf::from("skills/x/SKILL.md"),
            root: PathBuf::from("skills"),
            refusal: Refusal::OutsideRoot {
                resolved: PathBuf::from("/elsewhere/x/SKILL.md"),
                readings: None,
            },
        });
        let findings = check(&registry, &|_| vec![Client::AgentSkills], None);
        assert_eq!(findings[0].1.rule, Rule::SymlinkEscape);
        assert!(findings[0].1.message.contains("/elsewhere/x/SKILL.md"));
    }

    #[test]
    fn catalog_budget_fires_only_for_selected_budgeted_targets() {
        let mut registry = Registry::default();
        registry.add(skill("big", "big", ".claude/skills", "x".repeat(2_000)));
        registry.add(skill("small", "small", ".claude/skills", "y".repeat(20)));
        let findings = check(&registry, &|_| vec![Client::ClaudeCode], None);
        assert_eq!(findings.len(), 1);
        assert!(
            findings[0]
                .1
                .message
                .starts_with("Claude Code cuts this description from 2000 to 1536 characters")
        );
        assert!(check(&registry, &|_| vec![Client::AgentSkills], None).is_empty());
        let mut registry = Registry::default();
        for index in 0..60 {
            registry.add(skill(
                &format!("s{index}"),
                &format!("s{index}"),
                ".agents/skills",
                "z".repeat(400),
            ));
        }
        let crowded_codex = check(&registry, &|_| vec![Client::Codex], None);
        assert_eq!(crowded_codex.len(), 60, "{crowded_codex:?}");
        assert!(
            crowded_codex[0]
                .1
                .message
                .contains("its budget is 5440 tokens (2% of the context window)"),
            "{}",
            crowded_codex[0].1.message
        );
        // The same 60 skills as a collection's `skills/`: nobody installs all of them at once,
        // so the listing's length is no finding; a description's own cap still is.
        let mut registry = Registry::default();
        registry.roots = vec![PathBuf::from("skills")];
        for index in 0..60 {
            registry.add(skill(
                &format!("s{index}"),
                &format!("s{index}"),
                "skills",
                "z".repeat(400),
            ));
        }
        let targets = |_: &Path| vec![Client::Codex, Client::ClaudeCode, Client::Copilot];
        assert!(check(&registry, &targets, None).is_empty());
        let mut registry = Registry::default();
        registry.roots = vec![PathBuf::from("skills")];
        registry.add(skill("big", "big", "skills", "x".repeat(2_000)));
        registry.add(skill("small", "small", "skills", "y".repeat(20)));
        let collection = check(&registry, &targets, None);
        assert!(!collection.is_empty());
        for (path, finding) in &collection {
            assert!(
                path.ends_with("big/SKILL.md"),
                "{path:?}: {}",
                finding.message
            );
        }
    }
}
