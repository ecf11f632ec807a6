//! The plugins a folder offers Claude Code, as `claude plugin install` would install them: the
//! local plugins of the marketplace at the folder, else the plugin the folder is. Each with the
//! name Claude Code namespaces its skills with and the skills it provides.
//!
//! Measured on Claude Code 2.1.328 (`tests/clients/test_plugin_listing.py`): a skill of an
//! installed plugin is listed as `plugin:folder`, the plugin's name being plugin.json's `name`
//! even when the marketplace entry names it otherwise, and the entry's name for a plugin without
//! a plugin.json.

use std::path::{Component, Path, PathBuf};

use super::json::{self, Node};
use super::{Files, MANIFEST_FOLDER, skill_folders};

/// A plugin a folder offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offered {
    /// The name its skills are listed under, `name:skill`.
    pub name: String,
    /// The marketplace that lists it, when one does: installed as `name@marketplace`.
    pub marketplace: Option<String>,
    /// The marketplace entry's own name, the one `claude plugin install` is given, when it
    /// differs from `name`.
    pub entry: Option<String>,
    /// The folder holding `.claude-plugin` (or the entry's source).
    pub root: PathBuf,
    /// Its skills: the name each is listed under within the plugin, and its SKILL.md.
    pub skills: Vec<(String, PathBuf)>,
}

/// What a marketplace.json says about its local plugins.
struct Marketplace {
    name: Option<String>,
    /// Each local entry's name and resolved folder, in the marketplace's order.
    entries: Vec<(String, PathBuf)>,
}

fn marketplace_at(folder: &Path, files: &dyn Files) -> Option<Marketplace> {
    let text = files.read(&folder.join(MANIFEST_FOLDER).join("marketplace.json"))?;
    let root = json::parse(&text).ok()?;
    let plugin_root = root
        .get("metadata")
        .and_then(|metadata| metadata.value.get("pluginRoot"))
        .and_then(|member| member.value.as_str());
    let entries = root
        .get("plugins")
        .and_then(|plugins| plugins.value.items())
        .unwrap_or_default()
        .iter()
        .filter_map(|entry| {
            let name = entry.get("name")?.value.as_str()?.to_owned();
            let source = entry.get("source")?.value.as_str()?;
            Some((name, local_source(folder, source, plugin_root)?))
        })
        .collect();
    Some(Marketplace {
        name: root
            .get("name")
            .and_then(|name| name.value.as_str())
            .map(str::to_owned),
        entries,
    })
}

/// Whether a marketplace at `folder` or up to three folders above lists `folder` as one of its
/// local plugins.
#[must_use]
pub(crate) fn listed(folder: &Path, files: &dyn Files) -> bool {
    folder.ancestors().take(4).any(|at| {
        marketplace_at(at, files)
            .is_some_and(|marketplace| marketplace.entries.iter().any(|(_, root)| root == folder))
    })
}

/// The folder a string source names: `./x` under the marketplace's root, a bare name under
/// `metadata.pluginRoot`. `None` for a source that leaves the marketplace's root or names none.
fn local_source(
    marketplace_root: &Path,
    source: &str,
    plugin_root: Option<&str>,
) -> Option<PathBuf> {
    let bare = !source.contains(['/', '\\']) && !source.is_empty() && source != ".";
    let relative: PathBuf = if bare {
        Path::new(plugin_root?).join(source)
    } else if source == "." || source.starts_with("./") {
        PathBuf::from(source)
    } else {
        return None;
    };
    let mut folder = marketplace_root.to_path_buf();
    for part in relative.components() {
        match part {
            Component::Normal(name) => folder.push(name),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(folder)
}

/// The plugin at `root`: its plugin.json's name, else `entry`'s; `None` when neither names it.
fn plugin_at(
    root: &Path,
    entry: Option<&str>,
    marketplace: Option<&str>,
    files: &dyn Files,
) -> Option<Offered> {
    let manifest: Option<Node> = files
        .read(&root.join(MANIFEST_FOLDER).join("plugin.json"))
        .and_then(|text| json::parse(&text).ok());
    let own = manifest
        .as_ref()
        .and_then(|node| node.get("name"))
        .and_then(|name| name.value.as_str())
        .map(str::to_owned);
    let name = own.or_else(|| entry.map(str::to_owned))?;
    Some(Offered {
        entry: entry.filter(|entry| *entry != name).map(str::to_owned),
        marketplace: marketplace.map(str::to_owned),
        skills: skill_folders(root, manifest.as_ref(), files)
            .into_iter()
            .map(|(skill, folder)| (skill, folder.join("SKILL.md")))
            .collect(),
        root: root.to_path_buf(),
        name,
    })
}

/// The plugins `folder` offers: every local plugin of the marketplace at `folder`, in its order;
/// else the plugin whose root `folder` is (a plugin.json there, or a marketplace up to three
/// folders above listing it), with the marketplace that lists it.
#[must_use]
pub fn offered(folder: &Path, files: &dyn Files) -> Vec<Offered> {
    if let Some(marketplace) = marketplace_at(folder, files) {
        let mut plugins: Vec<Offered> = Vec::new();
        for (entry, root) in &marketplace.entries {
            if plugins.iter().any(|known| known.root == *root) {
                continue;
            }
            plugins.extend(plugin_at(
                root,
                Some(entry),
                marketplace.name.as_deref(),
                files,
            ));
        }
        return plugins;
    }
    let listing = folder.ancestors().skip(1).take(3).find_map(|above| {
        let marketplace = marketplace_at(above, files)?;
        let (entry, _) = marketplace
            .entries
            .iter()
            .find(|(_, root)| root == folder)?;
        Some((entry.clone(), marketplace.name))
    });
    let (entry, marketplace) = listing.unzip();
    plugin_at(
        folder,
        entry.as_deref(),
        marketplace.flatten().as_deref(),
        files,
    )
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::Tree;
    use super::*;

    /// A folder is a plugin's root when it holds a plugin.json or a marketplace there or above
    /// lists it; a marketplace beside a `skills/` folder it does not list leaves that folder
    /// alone (its skills are no plugin's).
    #[test]
    fn a_plugin_root_is_one_a_marketplace_lists_or_a_plugin_json_names() {
        let tree = Tree(vec![
            (
                "m/.claude-plugin/marketplace.json",
                r#"{"name": "market", "plugins": [{"name": "notes", "source": "./plugins/notes"}]}"#,
            ),
            ("m/skills/own/SKILL.md", "---\n---\n"),
            ("m/plugins/notes/skills/tidy/SKILL.md", "---\n---\n"),
            ("m/plugins/unlisted/skills/x/SKILL.md", "---\n---\n"),
            (
                "m/plugins/named/.claude-plugin/plugin.json",
                r#"{"name": "named"}"#,
            ),
            (
                "whole/.claude-plugin/marketplace.json",
                r#"{"name": "w", "plugins": [{"name": "whole", "source": "./"}]}"#,
            ),
        ]);
        let root = |path: &str| crate::plugins::is_plugin_root(Path::new(path), &tree);
        assert!(
            !root("m"),
            "a marketplace that does not list its own folder"
        );
        assert!(root("m/plugins/notes"));
        assert!(!root("m/plugins/unlisted"));
        assert!(root("m/plugins/named"));
        assert!(
            root("whole"),
            "a marketplace whose plugin is its own folder"
        );
    }

    #[test]
    fn a_marketplace_offers_its_local_plugins_by_their_own_names() {
        let tree = Tree(vec![
            (
                "m/.claude-plugin/marketplace.json",
                r#"{"name": "market", "plugins": [
                    {"name": "alpha", "source": "./plugins/alpha"},
                    {"name": "beta", "source": "./plugins/beta-folder"},
                    {"name": "loose", "source": "./loose"},
                    {"name": "remote", "source": {"source": "github", "repo": "o/r"}},
                    {"name": "escape", "source": "../elsewhere"}
                ]}"#,
            ),
            (
                "m/plugins/alpha/.claude-plugin/plugin.json",
                r#"{"name": "alpha"}"#,
            ),
            (
                "m/plugins/alpha/skills/greet/SKILL.md",
                "---\nname: greet\n---\n",
            ),
            (
                "m/plugins/beta-folder/.claude-plugin/plugin.json",
                r#"{"name": "beta-real"}"#,
            ),
            ("m/plugins/beta-folder/skills/x/SKILL.md", "---\n---\n"),
            ("m/loose/skills/l/SKILL.md", "---\n---\n"),
        ]);
        let offered = offered(Path::new("m"), &tree);
        // Each plugin as `name@marketplace (entry) skills`.
        let summary: Vec<String> = offered
            .iter()
            .map(|plugin| {
                let skills: Vec<&str> = plugin
                    .skills
                    .iter()
                    .map(|(name, _)| name.as_str())
                    .collect();
                format!(
                    "{}@{} ({}) {}",
                    plugin.name,
                    plugin.marketplace.as_deref().unwrap_or("-"),
                    plugin.entry.as_deref().unwrap_or("-"),
                    skills.join(",")
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                "alpha@market (-) greet",
                "beta-real@market (beta) x",
                "loose@market (-) l"
            ]
        );
        assert_eq!(
            offered[0].skills[0].1,
            Path::new("m/plugins/alpha/skills/greet/SKILL.md")
        );
        // A plugin's own folder: the marketplace above still names where it comes from.
        let alone = super::offered(Path::new("m/plugins/beta-folder"), &tree);
        assert_eq!(alone.len(), 1);
        assert_eq!(
            (alone[0].name.as_str(), alone[0].marketplace.as_deref()),
            ("beta-real", Some("market"))
        );
        assert!(super::offered(Path::new("m/plugins"), &tree).is_empty());
    }
}
