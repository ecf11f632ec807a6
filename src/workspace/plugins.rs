//! The Claude Code plugins a workspace offers, with their skills read as the loader reads any
//! SKILL.md: what Claude Code lists once a plugin is installed (`catalog::installed_listing`),
//! kept apart from the loader's own skills, which plugin skills neither shadow nor join (Claude
//! Code names them `plugin:skill`, design.md §4).

use std::path::{Path, PathBuf};

use super::loader::Source;
use super::read::DiskFiles;
use super::registry::Skill;
use crate::targets::{Client, ClientSet};

/// One plugin of the workspace and its skills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plugin {
    /// The name Claude Code lists its skills under, `name:skill`.
    pub name: String,
    /// The marketplace that lists it, when one does.
    pub marketplace: Option<String>,
    /// The marketplace entry's name when it differs from `name` (what `claude plugin install`
    /// is given).
    pub entry: Option<String>,
    pub root: PathBuf,
    /// Its skills, each with `folder` the name it has within the plugin and `root` the folder
    /// that holds its skill folder; those that cannot be read are left out.
    pub skills: Vec<Skill>,
}

impl Plugin {
    /// What `claude plugin install` is given: `entry@marketplace`, or the name alone.
    #[must_use]
    pub(crate) fn install_id(&self) -> String {
        let entry = self.entry.as_deref().unwrap_or(&self.name);
        match &self.marketplace {
            Some(marketplace) => format!("{entry}@{marketplace}"),
            None => entry.to_owned(),
        }
    }

    /// How a user gets it: `claude plugin install entry@marketplace`, or, for a plugin no
    /// marketplace here lists, `claude --plugin-dir ROOT`.
    #[must_use]
    pub(crate) fn install_command(&self) -> String {
        if self.marketplace.is_some() {
            format!("claude plugin install {}", self.install_id())
        } else {
            format!("claude --plugin-dir {}", self.root.display())
        }
    }

    /// The skill's id in Claude Code: `plugin:skill`.
    #[must_use]
    pub(crate) fn skill_id(&self, skill: &Skill) -> String {
        format!("{}:{}", self.name, skill.folder)
    }
}

/// The plugins the workspace at `folder` offers Claude Code (`plugins::offered`), their skills
/// read through `source` with Claude Code's reading.
#[must_use]
pub(crate) fn read_plugins(folder: &Path, source: &dyn Source) -> Vec<Plugin> {
    crate::plugins::offered(folder, &DiskFiles)
        .into_iter()
        .map(|offered| Plugin {
            skills: offered
                .skills
                .iter()
                .filter_map(|(name, path)| read_skill(path, name, source))
                .collect(),
            name: offered.name,
            marketplace: offered.marketplace,
            entry: offered.entry,
            root: offered.root,
        })
        .collect()
}

fn read_skill(path: &Path, name: &str, source: &dyn Source) -> Option<Skill> {
    let folder = path.parent()?;
    let metadata = source
        .metadata(path, name, ClientSet::of([Client::ClaudeCode]))
        .ok()?;
    Some(Skill::new(
        metadata,
        path.to_path_buf(),
        folder.parent().unwrap_or(folder).to_path_buf(),
        name.to_owned(),
    ))
}

/// Reads again the plugin skill at `path` after its text changed (one that can no longer be
/// read is dropped); whether any plugin changed.
pub(crate) fn refresh(plugins: &mut [Plugin], path: &Path, source: &dyn Source) -> bool {
    let mut changed = false;
    for plugin in plugins {
        let Some(at) = plugin.skills.iter().position(|skill| skill.path == path) else {
            continue;
        };
        match read_skill(path, &plugin.skills[at].folder, source) {
            Some(again) if again == plugin.skills[at] => {}
            Some(again) => {
                plugin.skills[at] = again;
                changed = true;
            }
            None => {
                plugin.skills.remove(at);
                changed = true;
            }
        }
    }
    changed
}

/// The plugin providing the SKILL.md at `path`, and that skill.
#[must_use]
pub(crate) fn plugin_skill<'p>(
    plugins: &'p [Plugin],
    path: &Path,
) -> Option<(&'p Plugin, &'p Skill)> {
    plugins.iter().find_map(|plugin| {
        plugin
            .skills
            .iter()
            .find(|skill| skill.path == path)
            .map(|skill| (plugin, skill))
    })
}
