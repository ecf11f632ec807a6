//! The loader's registry (design.md §5): the skills of a workspace in catalog order, the
//! duplicates they shadow, the files refused, and what the agent is shown and given from them.
//! Plain data: the scan that fills it is the index's, the text it is read from the loader's.

use std::collections::HashMap;
use std::path::PathBuf;

use super::loader::{Metadata, Source};
use crate::clients::Readings;
use crate::text::{Span, TextRange};

/// A registered skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub(crate) when_to_use: Option<String>,
    /// The SKILL.md path as scanned (under its root, symlinks not resolved).
    pub path: PathBuf,
    pub root: PathBuf,
    pub folder: String,
    pub(crate) name_range: Option<TextRange>,
    pub(crate) description_range: Option<TextRange>,
    pub(crate) name_span: Option<Span>,
    /// What the clients the registry was read for read from the file.
    pub(crate) readings: Readings,
}

impl Skill {
    /// Registers what `read_metadata` found in the file at `path`.
    #[must_use]
    pub(crate) fn new(metadata: Metadata, path: PathBuf, root: PathBuf, folder: String) -> Self {
        Self {
            name: metadata.name,
            description: metadata.description,
            when_to_use: metadata.when_to_use,
            path,
            root,
            folder,
            name_range: metadata.name_range,
            description_range: metadata.description_range,
            name_span: metadata.name_span,
            readings: metadata.readings,
        }
    }
}

/// Why a `<root>/*/SKILL.md` was not registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// It, or its folder, resolves outside the root.
    OutsideRoot {
        resolved: PathBuf,
        /// What the clients the registry was read for, which all follow such links, read
        /// there; `None` when the file could not be read.
        readings: Option<Box<Readings>>,
    },
    /// It is not a regular file (a folder, a dangling link, a device).
    NotAFile,
    /// It could not be read, or is not UTF-8.
    Unreadable { reason: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub(crate) path: PathBuf,
    pub(crate) root: PathBuf,
    pub(crate) refusal: Refusal,
}

/// All skills of a workspace: the winners in catalog order, the shadowed duplicates, the refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registry {
    pub roots: Vec<PathBuf>,
    pub skills: Vec<Skill>,
    /// Skills whose name an earlier skill already took, each with the winner's index.
    pub(crate) shadowed: Vec<(Skill, usize)>,
    pub(crate) refused: Vec<Refused>,
    /// The Claude Code plugins the workspace offers, whose skills Claude Code lists once a
    /// plugin is installed: apart from `skills`, which they neither shadow nor join.
    pub(crate) plugins: Vec<super::plugins::Plugin>,
    /// Index into `skills` by name; `add` keeps it current.
    by_name: HashMap<String, usize>,
}

impl Registry {
    /// An empty registry with room for `skills` skills without growing.
    pub(crate) fn with_capacity(skills: usize) -> Self {
        Self {
            skills: Vec::with_capacity(skills),
            by_name: HashMap::with_capacity(skills),
            ..Self::default()
        }
    }

    /// Registers a skill; the first skill with a name wins (design.md §5).
    pub(crate) fn add(&mut self, skill: Skill) {
        match self.by_name.get(&skill.name) {
            Some(winner) => self.shadowed.push((skill, *winner)),
            None => {
                self.by_name.insert(skill.name.clone(), self.skills.len());
                self.skills.push(skill);
            }
        }
    }

    /// Where `skill` may take the place of the skill registered from the same SKILL.md without
    /// changing anything else: the name stayed and no skill hides behind it, or the new name is
    /// free and no skill hid behind the old one. `None` when the registry must be rebuilt
    /// instead. Typing in a skill of a 10,000-skill workspace takes this path, not a rebuild.
    #[must_use]
    pub(crate) fn replaceable(&self, skill: &Skill) -> Option<usize> {
        // Byte comparison: `Path`'s `==` walks components, and this runs over every skill.
        let position = self
            .skills
            .iter()
            .position(|existing| existing.path.as_os_str() == skill.path.as_os_str())?;
        let hides_behind = |name: &str| self.shadowed.iter().any(|(hidden, _)| hidden.name == name);
        let old_name = &self.skills[position].name;
        let free = if *old_name == skill.name {
            !hides_behind(old_name)
        } else {
            !self.by_name.contains_key(&skill.name)
                && !hides_behind(old_name)
                && !hides_behind(&skill.name)
        };
        free.then_some(position)
    }

    /// Puts `skill` at `position`, which [`Registry::replaceable`] gave for it.
    pub(crate) fn replace_at(&mut self, position: usize, skill: Skill) {
        let old = std::mem::replace(&mut self.skills[position], skill);
        let name = &self.skills[position].name;
        if old.name != *name {
            self.by_name.remove(&old.name);
            self.by_name.insert(name.clone(), position);
        }
    }

    /// The SKILL.md paths of every registered skill, winners then shadowed ones: the files the
    /// workspace rules speak about.
    pub(crate) fn members(&self) -> impl Iterator<Item = &PathBuf> {
        self.skills
            .iter()
            .map(|skill| &skill.path)
            .chain(self.shadowed.iter().map(|(skill, _)| &skill.path))
    }

    /// The skill registered from `path`, winner or shadowed.
    #[must_use]
    pub(crate) fn skill_at(&self, path: &std::path::Path) -> Option<&Skill> {
        self.skills
            .iter()
            .chain(self.shadowed.iter().map(|(skill, _)| skill))
            .find(|skill| skill.path == path)
    }

    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.by_name
            .get(name)
            .and_then(|index| self.skills.get(*index))
    }

    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        self.skills
            .iter()
            .map(|skill| skill.name.as_str())
            .collect()
    }

    /// The catalog text of the system prompt: `- {name}: {description}` per skill, or
    /// `(no skills found)`.
    ///
    /// Each entry is kept to one line: a name is taken as written, and YAML can put a line break
    /// in one (`name: "pdf\n\nSystem: ..."`), which would add lines of its own to an agent's
    /// system prompt, looking like instructions or other skills. Line breaks and other control
    /// characters become spaces and whitespace runs one space, in names and descriptions alike;
    /// ordinary skills are listed exactly as the loader read them.
    #[must_use]
    pub fn catalog(&self) -> String {
        if self.skills.is_empty() {
            return "(no skills found)".to_owned();
        }
        let one_line = |text: &str| {
            text.split(|c: char| c.is_whitespace() || c.is_control())
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        self.skills
            .iter()
            .map(|skill| {
                format!(
                    "- {}: {}",
                    one_line(&skill.name),
                    one_line(&skill.description)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The unknown-skill error text, verbatim from design.md §5.
    #[must_use]
    pub(crate) fn unknown_skill_error(&self, name: &str) -> String {
        let available = if self.skills.is_empty() {
            "none".to_owned()
        } else {
            self.names().join(", ")
        };
        format!("Error: Unknown skill '{name}'. Available: {available}")
    }

    /// What `load_skill(name)` returns: the whole file text, or the unknown-skill error text.
    ///
    /// # Errors
    /// The `Err` string is the text the agent receives; it never names a file path.
    pub fn load(&self, name: &str, source: &dyn Source) -> Result<String, String> {
        let skill = self
            .get(name)
            .ok_or_else(|| self.unknown_skill_error(name))?;
        source
            .read(&skill.path)
            .map_err(|error| format!("Error: Skill '{name}' could not be read: {}", error.kind()))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn skill(folder: &str, name: &str, description: &str) -> Skill {
        Skill::new(
            Metadata {
                name: name.to_owned(),
                description: description.to_owned(),
                name_from_folder: false,
                description_from_body: false,
                when_to_use: None,
                name_range: None,
                description_range: None,
                name_span: None,
                readings: Readings::default(),
            },
            PathBuf::from(format!("skills/{folder}/SKILL.md")),
            PathBuf::from("skills"),
            folder.to_owned(),
        )
    }

    #[test]
    fn replace_patches_in_place_only_when_nothing_else_changes() {
        let mut registry = Registry::default();
        registry.add(skill("a", "a", "A."));
        registry.add(skill("b", "b", "B."));
        registry.add(skill("c", "b", "Hidden behind b."));
        let replace = |registry: &mut Registry, skill: Skill| {
            let position = registry.replaceable(&skill);
            if let Some(position) = position {
                registry.replace_at(position, skill);
            }
            position.is_some()
        };
        // A new description under the same name.
        assert!(replace(&mut registry, skill("a", "a", "A, longer.")));
        assert_eq!(registry.get("a").unwrap().description, "A, longer.");
        // A new, free name: the index follows.
        assert!(replace(&mut registry, skill("a", "a2", "A.")));
        assert!(registry.get("a").is_none());
        assert_eq!(
            registry.get("a2").unwrap().path,
            Path::new("skills/a/SKILL.md")
        );
        // A name another skill holds, a skill that hides another, an unknown file: rebuild.
        assert!(!replace(&mut registry, skill("a", "b", "A.")));
        assert!(!replace(&mut registry, skill("b", "b", "B, longer.")));
        assert!(!replace(&mut registry, skill("b", "b3", "B.")));
        assert!(!replace(&mut registry, skill("z", "z", "Z.")));
        assert_eq!(registry.names(), ["a2", "b"]);
        assert_eq!(registry.get("b").unwrap().description, "B.");
    }
}
