//! The checks of one manifest, as `claude plugin validate` (Claude Code 2.1.328) makes them.
//!
//! Order matters the way it does in Claude Code: the schema is checked first; paths are checked
//! whatever the schema said; the advice that needs a well-formed manifest (recommended keys, the
//! kebab-case name, duplicate entries) is given only when the schema found nothing, because
//! Claude Code gives it only then.

use std::path::{Component, Path};

use super::fields::{self, Field, MARKETPLACE_METADATA, Scope, Shape};
use super::json::{self, Member, Node, Value};
use super::{EntryKind, ManifestContext, ManifestKind, Profile};
use crate::diagnostic::Diagnostic;
use crate::rule_table::Rule;
use crate::rules::suggest::edit_distance;
use crate::text::TextRange;

/// The closing words of a finding: what Claude Code does about it.
const REJECTS: &str = "claude plugin validate rejects it";
const WARNS: &str = "claude plugin validate warns, and fails with --strict";
const DIRECTORY: &str =
    "the plugin directory refuses the submission (claude plugin validate --profile directory)";

pub(super) fn check(
    text: &str,
    kind: ManifestKind,
    context: &ManifestContext<'_>,
) -> Vec<Diagnostic> {
    let mut checker = Checker {
        context,
        out: Vec::new(),
        schema_errors: 0,
    };
    match json::parse(text) {
        Err(error) => {
            let width = text[error.at..].chars().next().map_or(0, char::len_utf8);
            checker.out.push(Diagnostic::new(
                Rule::ManifestJson,
                TextRange::new(error.at, error.at + width),
                format!(
                    "{} is not valid JSON: {} — {REJECTS}, and Claude Code cannot load it",
                    kind.file_name(),
                    error.message
                ),
            ));
        }
        Ok(root) => match kind {
            ManifestKind::Plugin => {
                // Claude Code strips a byte-order mark; the plugin directory's reader does not.
                if context.profile == Some(Profile::Directory) && text.starts_with('\u{feff}') {
                    checker.push(
                        Rule::ManifestJson,
                        TextRange::new(0, 3),
                        "plugin.json starts with a UTF-8 byte-order mark, which Claude Code skips but the plugin directory's reader does not".to_owned(),
                        DIRECTORY,
                    );
                }
                checker.plugin(&root);
            }
            ManifestKind::Marketplace => checker.marketplace(&root),
        },
    }
    checker.out
}

struct Checker<'a> {
    context: &'a ManifestContext<'a>,
    out: Vec<Diagnostic>,
    /// Schema findings so far: Claude Code's advice needs a manifest its schema accepts.
    schema_errors: usize,
}

/// The first byte of an object, where a finding about a missing key goes.
fn opening(node: &Node) -> TextRange {
    TextRange::new(node.range.start, node.range.start + 1)
}

impl Checker<'_> {
    fn push(&mut self, rule: Rule, range: TextRange, message: String, why: &str) {
        if rule == Rule::ManifestSchema {
            self.schema_errors += 1;
        }
        self.out
            .push(Diagnostic::new(rule, range, format!("{message} — {why}")));
    }

    fn schema(&mut self, range: TextRange, message: String) {
        self.push(Rule::ManifestSchema, range, message, REJECTS);
    }

    // ---- plugin.json ----

    fn plugin(&mut self, root: &Node) {
        if root.members().is_none() {
            self.schema(
                root.range,
                format!("the manifest is {}, not a JSON object", article(root)),
            );
            return;
        }
        self.fields(root, Scope::Plugin, "");
        self.unknown_keys(root, Scope::Plugin, "");
        for key in ["monitors", "themes"] {
            if let Some(member) = root.get(key) {
                self.push(
                    Rule::ManifestExperimental,
                    member.key_range,
                    format!("{key} is an experimental component; declare it under experimental.{key}, as the top-level key will stop loading in a future release"),
                    WARNS,
                );
            }
        }
        self.paths(root);
        if self.schema_errors == 0 {
            self.plugin_advice(root);
        }
        if self.context.profile == Some(Profile::Directory) {
            self.directory(root);
        }
    }

    /// Claude Code's advice on a manifest its schema accepts.
    fn plugin_advice(&mut self, root: &Node) {
        let name = root.get("name");
        let at = name.map_or_else(|| opening(root), |name| name.key_range);
        if let Some(name) =
            name.and_then(|name| name.value.as_str().map(|text| (text, name.value.range)))
        {
            // A plugin of Anthropic's own marketplace may use its names, as the marketplace's
            // entries may: Claude Code installs it from there.
            if !self.listed_by_first_party_marketplace() {
                self.brand(name.0, name.1);
            }
            if !is_kebab(name.0) {
                self.push(
                    Rule::PluginNameKebab,
                    name.1,
                    format!("the plugin name '{}' is not kebab-case (lowercase letters, digits and single hyphens); claude.ai's marketplace sync refuses it", name.0),
                    WARNS,
                );
            }
        }
        for (key, what) in [
            ("version", "a version (semver, such as '1.0.0')"),
            ("description", "a description of what the plugin does"),
            ("author", "an author"),
        ] {
            // An empty string counts as missing: Claude Code tests the value, not the key.
            let present = root
                .get(key)
                .is_some_and(|member| match &member.value.value {
                    Value::String(text) => !text.is_empty(),
                    Value::Null | Value::Bool(false) => false,
                    Value::Number(number) => *number != 0.0 && !number.is_nan(),
                    _ => true,
                });
            if !present {
                self.push(
                    Rule::ManifestRecommended,
                    at,
                    format!("plugin.json has no {key}; add {what}"),
                    WARNS,
                );
            }
        }
    }

    /// Every path the manifest points to must exist in the plugin.
    fn paths(&mut self, root: &Node) {
        let plugin_root = super::root_of(self.context.path);
        for (key, json_file, accepts_url) in [
            ("commands", false, false),
            ("hooks", true, false),
            ("agents", false, false),
            ("skills", false, false),
            ("outputStyles", false, false),
            ("themes", false, false),
            ("monitors", true, false),
            ("lspServers", true, false),
            ("workflows", false, false),
            ("mcpServers", true, true),
        ] {
            let Some(member) = root.get(key) else {
                continue;
            };
            let mut strings: Vec<&Node> = Vec::new();
            match &member.value.value {
                Value::Array(items) => strings.extend(items),
                // Commands may be an object of named commands, each with its own source path.
                Value::Object(members) if key == "commands" => {
                    strings.extend(members.iter().filter_map(|command| {
                        command.value.get("source").map(|source| &source.value)
                    }));
                }
                Value::Object(_) => {}
                _ => strings.push(&member.value),
            }
            for node in strings {
                let Some(path) = node.as_str() else { continue };
                if accepts_url && has_scheme(path) {
                    continue;
                }
                if climbs(path) {
                    self.push(
                        Rule::ManifestPath,
                        node.range,
                        format!("the {key} path '{path}' contains '..', which could reach outside the plugin"),
                        REJECTS,
                    );
                    continue;
                }
                if is_absolute(path) {
                    continue;
                }
                let full = plugin_root.join(path);
                match self.context.files.kind(&full) {
                    None => {
                        let consequence = if key == "mcpServers" && path.ends_with(".json") {
                            "; none of its MCP servers will load"
                        } else {
                            "; loading the plugin reports it as a failure"
                        };
                        self.push(
                            Rule::ManifestPath,
                            node.range,
                            format!(
                                "the {key} path '{path}' does not exist in the plugin{consequence}"
                            ),
                            REJECTS,
                        );
                    }
                    Some(kind) => {
                        if key == "skills" && kind != EntryKind::Folder {
                            self.push(
                                Rule::ManifestPath,
                                node.range,
                                format!("the skills path '{path}' is a file; a skills entry must be a folder holding SKILL.md"),
                                REJECTS,
                            );
                        } else if json_file && path.ends_with(".json") && kind == EntryKind::Folder
                        {
                            self.push(
                                Rule::ManifestPath,
                                node.range,
                                format!(
                                    "the {key} path '{path}' is a folder; it must name a JSON file"
                                ),
                                REJECTS,
                            );
                        }
                    }
                }
            }
        }
    }

    // ---- the plugin directory's submission checks ----

    fn directory(&mut self, root: &Node) {
        let plugin_root = super::root_of(self.context.path);
        let files = self.context.files;
        let repository = repository_root(files, &plugin_root);
        let at = root
            .get("name")
            .map_or_else(|| opening(root), |name| name.key_range);
        let readme = README_NAMES
            .iter()
            .map(|name| plugin_root.join(name))
            .chain(repository.iter().flat_map(|repository| {
                README_NAMES
                    .iter()
                    .filter(|name| !name.contains('/'))
                    .map(|name| repository.join(name))
            }))
            .find(|path| files.kind(path) == Some(EntryKind::File));
        match readme {
            None => self.push(
                Rule::DirectoryReadme,
                at,
                "the plugin has no README.md; people and the directory's review read it to learn what the plugin does".to_owned(),
                DIRECTORY,
            ),
            Some(path) => {
                let words = files
                    .read(&path)
                    .map_or(0, |text| text.split_whitespace().count());
                if words < README_WORDS {
                    self.push(
                        Rule::DirectoryReadme,
                        at,
                        format!("the plugin's README has {words} words; the directory needs at least {README_WORDS}"),
                        DIRECTORY,
                    );
                }
            }
        }
        let licensed = root.get("license").is_some_and(|member| {
            member
                .value
                .as_str()
                .is_some_and(|text| !text.trim().is_empty())
        }) || LICENSE_NAMES.iter().any(|name| {
            std::iter::once(&plugin_root)
                .chain(repository.iter())
                .any(|folder| files.kind(&folder.join(name)) == Some(EntryKind::File))
        });
        if !licensed {
            self.push(
                Rule::DirectoryLicense,
                at,
                "the plugin has no LICENSE file and plugin.json has no license".to_owned(),
                DIRECTORY,
            );
        }
    }

    // ---- marketplace.json ----

    fn marketplace(&mut self, root: &Node) {
        if root.members().is_none() {
            self.schema(
                root.range,
                format!("the marketplace is {}, not a JSON object", article(root)),
            );
            return;
        }
        self.fields(root, Scope::Marketplace, "");
        self.unknown_keys(root, Scope::Marketplace, "");
        if let Some(metadata) = root.get("metadata") {
            if metadata.value.members().is_some() {
                self.unknown_keys_of(&metadata.value, "metadata.", |key| {
                    MARKETPLACE_METADATA.contains(&key)
                });
            }
        }
        if let Some(name) = root.get("name") {
            if let Some(text) = name.value.as_str().filter(|text| !text.is_empty()) {
                self.id_chars(text, name.value.range, "marketplace");
                if ["org", "org-provisioned", "unknown"].contains(&text.to_lowercase().as_str()) {
                    self.push(
                        Rule::DesktopName,
                        name.value.range,
                        format!("the marketplace name '{text}' is reserved in Claude Desktop, whose managed sync refuses the whole marketplace"),
                        WARNS,
                    );
                } else {
                    self.desktop_name(text, name.value.range, "the whole marketplace");
                }
            }
        }
        let plugin_root_set = root
            .get("metadata")
            .and_then(|metadata| metadata.value.get("pluginRoot"))
            .is_some_and(|member| member.value.as_str().is_some());
        let entries: Vec<&Node> = root
            .get("plugins")
            .and_then(|plugins| plugins.value.items())
            .map(|items| items.iter().collect())
            .unwrap_or_default();
        // Anthropic's own marketplaces may list plugins with its names.
        let first_party = root
            .get("name")
            .and_then(|name| name.value.as_str())
            .is_some_and(|name| FIRST_PARTY_MARKETPLACES.contains(&name.to_lowercase().as_str()));
        for (index, entry) in entries.iter().enumerate() {
            self.entry(entry, index, plugin_root_set, first_party);
        }
        if self.schema_errors == 0 {
            self.marketplace_advice(root, &entries);
        }
    }

    fn entry(&mut self, entry: &Node, index: usize, plugin_root_set: bool, first_party: bool) {
        let prefix = format!("plugins[{index}].");
        if entry.members().is_none() {
            self.schema(
                entry.range,
                format!(
                    "plugins[{index}] is {}, not an object with a name and a source",
                    article(entry)
                ),
            );
            return;
        }
        let before = self.schema_errors;
        self.fields_with(entry, Scope::Entry, &prefix, plugin_root_set);
        self.unknown_keys(entry, Scope::Entry, &prefix);
        if let Some(name) = entry.get("name") {
            if let Some(text) = name.value.as_str().filter(|text| !text.is_empty()) {
                self.id_chars(text, name.value.range, "plugin");
                self.desktop_name(text, name.value.range, "this entry");
                if !first_party {
                    self.brand(text, name.value.range);
                }
            }
        }
        if let Some(source) = entry.get("source") {
            if let Some(path) = source.value.as_str() {
                if climbs(path) {
                    self.push(
                        Rule::ManifestPath,
                        source.value.range,
                        format!("the source '{path}' contains '..'; a source is resolved inside the marketplace's root (the folder holding .claude-plugin)"),
                        REJECTS,
                    );
                }
            }
        }
        if self.schema_errors == before {
            self.version_skew(entry);
        }
    }

    /// An entry's version that its own plugin.json contradicts: plugin.json wins at install.
    fn version_skew(&mut self, entry: &Node) {
        let Some(version) = entry.get("version") else {
            return;
        };
        let Some(declared) = version.value.as_str().filter(|text| !text.is_empty()) else {
            return;
        };
        let Some(source) = entry.get("source").and_then(|source| source.value.as_str()) else {
            return;
        };
        if climbs(source) || is_absolute(source) {
            return;
        }
        // Bare names resolve under metadata.pluginRoot; skill-lsp leaves them unchecked.
        if !source.starts_with("./") && source != "." {
            return;
        }
        let marketplace_root = super::root_of(self.context.path);
        let manifest = marketplace_root
            .join(source)
            .join(super::MANIFEST_FOLDER)
            .join("plugin.json");
        let Some(text) = self.context.files.read(&manifest) else {
            return;
        };
        let Ok(node) = json::parse(&text) else { return };
        let Some(actual) = node.get("version").and_then(|member| member.value.as_str()) else {
            return;
        };
        if !actual.is_empty() && actual != declared {
            let shown = Path::new(source.trim_start_matches("./"))
                .join(super::MANIFEST_FOLDER)
                .join("plugin.json");
            self.push(
                Rule::MarketplaceVersionSkew,
                version.value.range,
                format!(
                    "this entry says version '{declared}' but {} says '{actual}'; plugin.json wins at install and this version is ignored",
                    shown.display()
                ),
                WARNS,
            );
        }
    }

    fn marketplace_advice(&mut self, root: &Node, entries: &[&Node]) {
        let at = root
            .get("name")
            .map_or_else(|| opening(root), |name| name.key_range);
        if entries.is_empty() {
            let at = root
                .get("plugins")
                .map_or(at, |plugins| plugins.value.range);
            self.push(
                Rule::ManifestRecommended,
                at,
                "the marketplace lists no plugins".to_owned(),
                WARNS,
            );
        }
        for (index, entry) in entries.iter().enumerate() {
            let Some(name) = entry.get("name") else {
                continue;
            };
            let Some(text) = name.value.as_str() else {
                continue;
            };
            let first = entries
                .iter()
                .position(|other| other.get("name").and_then(|n| n.value.as_str()) == Some(text));
            let count = entries
                .iter()
                .filter(|other| other.get("name").and_then(|n| n.value.as_str()) == Some(text))
                .count();
            if count > 1 {
                let which = if first == Some(index) {
                    "another"
                } else {
                    "an earlier"
                };
                self.push(
                    Rule::MarketplaceDuplicatePlugin,
                    name.value.range,
                    format!("{which} entry of this marketplace is also named '{text}'"),
                    REJECTS,
                );
            }
        }
        let described = |node: Option<&Member>| {
            node.and_then(|member| member.value.as_str())
                .is_some_and(|text| !text.is_empty())
        };
        let metadata_description = root
            .get("metadata")
            .and_then(|metadata| metadata.value.get("description"));
        if !described(root.get("description")) && !described(metadata_description) {
            self.push(
                Rule::ManifestRecommended,
                at,
                "marketplace.json has no description; add one saying what the marketplace offers"
                    .to_owned(),
                WARNS,
            );
        }
    }

    /// Whether a marketplace at or up to three folders above the plugin's root is one of
    /// Anthropic's own ([`FIRST_PARTY_MARKETPLACES`]).
    fn listed_by_first_party_marketplace(&self) -> bool {
        let plugin_root = super::root_of(self.context.path);
        plugin_root.ancestors().take(4).any(|folder| {
            let manifest = folder.join(super::MANIFEST_FOLDER).join("marketplace.json");
            self.context
                .files
                .read(&manifest)
                .and_then(|text| super::json::parse(&text).ok())
                .and_then(|root| {
                    root.get("name")
                        .and_then(|name| name.value.as_str().map(str::to_lowercase))
                })
                .is_some_and(|name| FIRST_PARTY_MARKETPLACES.contains(&name.as_str()))
        })
    }

    /// A plugin name that passes for, or reads as, one of Anthropic's own.
    fn brand(&mut self, name: &str, range: TextRange) {
        match brand(name) {
            Some(Brand::Reserved) => self.push(
                Rule::PluginNameReserved,
                range,
                format!("the plugin name '{name}' passes as one of Anthropic's own: a third party's plugin name may not start with 'claude-', 'anthropic-', 'anthropics-' or 'cc-plugin-', be 'claude', 'anthropic', 'anthropics', 'claude-code' or 'claude-mods', or put 'official' next to 'claude' or 'anthropic'"),
                REJECTS,
            ),
            Some(Brand::Reads) => self.push(
                Rule::PluginNameBrand,
                range,
                format!("the plugin name '{name}' reads as one of Anthropic's own; name it for what it does"),
                WARNS,
            ),
            None => {}
        }
    }

    /// A name that cannot be part of a plugin id (`plugin@marketplace`).
    fn id_chars(&mut self, name: &str, range: TextRange, what: &str) {
        if !is_id_part(name) {
            self.push(
                Rule::PluginIdChars,
                range,
                format!("the {what} name '{name}' cannot be part of a plugin id (plugin@marketplace): only letters, digits, '.', '_' and '-', starting with a letter or digit; Claude Code cannot install from it"),
                REJECTS,
            );
        }
    }

    /// A name Claude Desktop's managed marketplace sync refuses.
    fn desktop_name(&mut self, name: &str, range: TextRange, dropped: &str) {
        let accepted = is_id_part(name) && name.chars().count() <= 128;
        if !accepted {
            self.push(
                Rule::DesktopName,
                range,
                format!("the name '{name}' is not one Claude Desktop accepts (letters, digits, '.', '_', '-', starting with a letter or digit, at most 128); its managed sync drops {dropped}"),
                WARNS,
            );
        }
    }

    // ---- the schema ----

    fn fields(&mut self, object: &Node, scope: Scope, prefix: &str) {
        self.fields_with(object, scope, prefix, false);
    }

    fn fields_with(&mut self, object: &Node, scope: Scope, prefix: &str, plugin_root_set: bool) {
        for field in fields::fields(scope) {
            match object.get(field.key) {
                Some(member) => self.shape(field, member, prefix, plugin_root_set),
                None if field.required => {
                    self.schema(
                        opening(object),
                        format!(
                            "{} has no {prefix}{} (required)",
                            self.owner(scope),
                            field.key
                        ),
                    );
                }
                None => {}
            }
        }
    }

    fn owner(&self, scope: Scope) -> &'static str {
        match scope {
            Scope::Plugin => "plugin.json",
            Scope::Marketplace => "marketplace.json",
            Scope::Entry => "this entry",
        }
    }

    fn shape(&mut self, field: &Field, member: &Member, prefix: &str, plugin_root_set: bool) {
        let key = format!("{prefix}{}", field.key);
        let value = &member.value;
        let range = value.range;
        let expected = |this: &mut Self, what: &str| {
            this.schema(
                range,
                format!("{key} must be {what}, not {}", article(value)),
            );
        };
        match field.shape {
            Shape::Text => {
                if value.as_str().is_none() {
                    expected(self, "a string");
                }
            }
            Shape::Bool => {
                if !matches!(value.value, Value::Bool(_)) {
                    expected(self, "true or false");
                }
            }
            Shape::Url => match value.as_str() {
                None => expected(self, "a URL string"),
                Some(text) if !is_url(text) => {
                    self.schema(range, format!("{key} '{text}' is not an absolute URL"));
                }
                Some(_) => {}
            },
            Shape::TextList => self.text_list(&key, value),
            Shape::Person => self.person(&key, value),
            Shape::PluginName => {
                if let Some(name) = value.as_str() {
                    if let Some(problem) = plugin_name_problem(name) {
                        self.schema(range, format!("{key} {problem}"));
                    }
                } else {
                    expected(self, "a string");
                }
            }
            Shape::MarketplaceName => {
                if let Some(name) = value.as_str() {
                    let problem =
                        plugin_name_problem(name).or_else(|| marketplace_name_problem(name));
                    if let Some(problem) = problem {
                        self.schema(range, format!("{key} {problem}"));
                    }
                } else {
                    expected(self, "a string");
                }
            }
            Shape::Dependencies => self.dependencies(&key, value),
            Shape::Paths { ends_with } => self.paths_shape(&key, value, false, ends_with),
            Shape::SkillPaths => self.paths_shape(&key, value, true, None),
            Shape::Commands => {
                if let Some(members) = value.members() {
                    for command in members {
                        self.command(&format!("{key}.{}", command.key), &command.value);
                    }
                } else {
                    self.paths_shape(&key, value, false, None);
                }
            }
            Shape::JsonOrInline => self.json_or_inline(&key, field.key, value),
            Shape::MarketplaceMetadata => {
                if value.members().is_none() {
                    expected(self, "an object");
                    return;
                }
                for inner in MARKETPLACE_METADATA {
                    if let Some(member) = value.get(inner) {
                        if member.value.as_str().is_none() {
                            self.schema(
                                member.value.range,
                                format!(
                                    "{key}.{inner} must be a string, not {}",
                                    article(&member.value)
                                ),
                            );
                        }
                    }
                }
            }
            Shape::Entries => {
                if value.items().is_none() {
                    expected(self, "an array of plugin entries");
                }
            }
            Shape::Source => self.source(&key, value, plugin_root_set),
            Shape::Opaque | Shape::Listing => {}
        }
    }

    fn text_list(&mut self, key: &str, value: &Node) {
        let Some(items) = value.items() else {
            self.schema(
                value.range,
                format!("{key} must be an array of strings, not {}", article(value)),
            );
            return;
        };
        for item in items {
            if item.as_str().is_none() {
                self.schema(
                    item.range,
                    format!("each item of {key} must be a string, not {}", article(item)),
                );
            }
        }
    }

    fn person(&mut self, key: &str, value: &Node) {
        if value.members().is_none() {
            self.schema(
                value.range,
                format!(
                    "{key} must be an object with a name, not {}",
                    article(value)
                ),
            );
            return;
        }
        match value.get("name") {
            None => self.schema(opening(value), format!("{key} has no name (required)")),
            Some(name) => match name.value.as_str() {
                None => self.schema(
                    name.value.range,
                    format!("{key}.name must be a string, not {}", article(&name.value)),
                ),
                Some("") => self.schema(name.value.range, format!("{key}.name is empty")),
                Some(_) => {}
            },
        }
        for inner in ["email", "url"] {
            if let Some(member) = value.get(inner) {
                if member.value.as_str().is_none() {
                    self.schema(
                        member.value.range,
                        format!(
                            "{key}.{inner} must be a string, not {}",
                            article(&member.value)
                        ),
                    );
                }
            }
        }
    }

    fn dependencies(&mut self, key: &str, value: &Node) {
        let Some(items) = value.items() else {
            self.schema(
                value.range,
                format!(
                    "{key} must be an array of plugin names, not {}",
                    article(value)
                ),
            );
            return;
        };
        for item in items {
            let ok = match &item.value {
                Value::String(text) => is_dependency(text),
                Value::Object(_) => {
                    let part = |inner: &str, required: bool| match item.get(inner) {
                        None => !required,
                        Some(member) => member.value.as_str().is_some_and(is_id_part),
                    };
                    part("name", true) && part("marketplace", false)
                }
                _ => false,
            };
            if !ok {
                let shown = item
                    .as_str()
                    .map_or_else(|| article(item).to_owned(), |text| format!("'{text}'"));
                self.schema(
                    item.range,
                    format!(
                        "the dependency {shown} is not a plugin name, optionally with @marketplace"
                    ),
                );
            }
        }
    }

    /// A `./` path or a list of them (`.` too when `root_allowed`), with an optional suffix.
    fn paths_shape(
        &mut self,
        key: &str,
        value: &Node,
        root_allowed: bool,
        ends_with: Option<&str>,
    ) {
        let check_one = |this: &mut Self, node: &Node| {
            let Some(path) = node.as_str() else {
                this.schema(
                    node.range,
                    format!(
                        "{key} must be a path string or a list of them, not {}",
                        article(node)
                    ),
                );
                return;
            };
            if root_allowed && path == "." {
                return;
            }
            if !path.starts_with("./") {
                this.schema(
                    node.range,
                    format!(
                        "the {key} path '{path}' must start with './' (relative to the plugin root)"
                    ),
                );
            } else if let Some(suffix) = ends_with {
                if !path.ends_with(suffix) {
                    this.schema(
                        node.range,
                        format!("the {key} path '{path}' must end with '{suffix}'"),
                    );
                }
            }
        };
        match value.items() {
            Some(items) => {
                for item in items {
                    check_one(self, item);
                }
            }
            None => check_one(self, value),
        }
    }

    /// One command of the object form: a `source` file or inline `content`, not both.
    fn command(&mut self, key: &str, value: &Node) {
        if value.members().is_none() {
            self.schema(
                value.range,
                format!(
                    "{key} must be an object with a source or a content, not {}",
                    article(value)
                ),
            );
            return;
        }
        let source = value.get("source");
        let content = value.get("content");
        match (source, content) {
            (Some(_), Some(_)) | (None, None) => self.schema(
                opening(value),
                format!("{key} must have either a source (a file) or a content (inline Markdown), not both or neither"),
            ),
            (Some(source), None) => self.paths_shape(&format!("{key}.source"), &source.value, false, None),
            (None, Some(content)) => {
                if content.value.as_str().is_none() {
                    self.schema(content.value.range, format!("{key}.content must be a string, not {}", article(&content.value)));
                }
            }
        }
    }

    /// hooks, mcpServers and lspServers: a `./….json` file, an inline object, or a list of either.
    fn json_or_inline(&mut self, key: &str, field: &str, value: &Node) {
        let check_one = |this: &mut Self, node: &Node| match &node.value {
            Value::Object(_) => {}
            Value::String(path) => {
                let bundle =
                    field == "mcpServers" && (path.ends_with(".mcpb") || path.ends_with(".dxt"));
                if bundle && (path.starts_with("./") || is_url(path)) {
                    return;
                }
                if !path.starts_with("./") {
                    this.schema(node.range, format!("the {key} path '{path}' must start with './' (relative to the plugin root)"));
                } else if !path.ends_with(".json") {
                    this.schema(
                        node.range,
                        format!("the {key} path '{path}' must name a .json file"),
                    );
                }
            }
            _ => this.schema(
                node.range,
                format!(
                    "{key} must be a ./….json path, an object or a list of them, not {}",
                    article(node)
                ),
            ),
        };
        match value.items() {
            Some(items) => {
                for item in items {
                    check_one(self, item);
                }
            }
            None => check_one(self, value),
        }
    }

    fn source(&mut self, key: &str, value: &Node, plugin_root_set: bool) {
        match &value.value {
            Value::String(path) => {
                // A bare name resolves under metadata.pluginRoot when there is one.
                let bare = !path.contains('/') && !path.contains('\\') && !path.is_empty();
                if !(path.starts_with("./") || path == "." || bare && plugin_root_set) {
                    self.schema(
                        value.range,
                        format!("the source '{path}' must start with './' (a folder in this marketplace) or be a source object"),
                    );
                }
            }
            Value::Object(_) => self.source_object(key, value),
            _ => self.schema(
                value.range,
                format!(
                    "{key} must be a './' path or a source object, not {}",
                    article(value)
                ),
            ),
        }
    }

    /// A source object: a kind Claude Code knows, with the fields that kind needs.
    fn source_object(&mut self, key: &str, value: &Node) {
        let Some(kind) = value.get("source") else {
            self.schema(
                opening(value),
                format!("{key} must say what kind of source it is, such as \"source\": \"github\""),
            );
            return;
        };
        let Some((_, required)) = kind
            .value
            .as_str()
            .and_then(|name| SOURCE_KINDS.iter().find(|(known, _)| *known == name))
        else {
            let known: Vec<&str> = SOURCE_KINDS.iter().map(|(name, _)| *name).collect();
            self.schema(
                kind.value.range,
                format!("{key}.source must be one of {}", known.join(", ")),
            );
            return;
        };
        for field in *required {
            match value.get(field) {
                None => self.schema(
                    opening(value),
                    format!("{key} has no {field} (required for this kind of source)"),
                ),
                Some(member) => match member.value.as_str() {
                    None => self.schema(
                        member.value.range,
                        format!(
                            "{key}.{field} must be a string, not {}",
                            article(&member.value)
                        ),
                    ),
                    Some("") if matches!(*field, "path" | "command") => {
                        self.schema(member.value.range, format!("{key}.{field} is empty"));
                    }
                    Some(_) => {}
                },
            }
        }
        for (field, digits, what) in [
            ("sha", 40, "a full 40-character lowercase git commit SHA"),
            ("sha256", 64, "a 64-character hexadecimal SHA-256 digest"),
        ] {
            let Some(member) = value.get(field) else {
                continue;
            };
            let ok = member.value.as_str().is_some_and(|text| {
                text.len() == digits
                    && text.bytes().all(|b| {
                        b.is_ascii_digit()
                            || b.is_ascii_lowercase() && b.is_ascii_hexdigit()
                            || field == "sha256" && b.is_ascii_hexdigit()
                    })
            });
            if !ok {
                self.schema(member.value.range, format!("{key}.{field} must be {what}"));
            }
        }
    }

    // ---- unknown keys ----

    fn unknown_keys(&mut self, object: &Node, scope: Scope, prefix: &str) {
        let known = |key: &str| fields::lookup(scope, key).is_some();
        let prefix = prefix.to_owned();
        let members: Vec<Member> = object.unique_members().cloned().collect();
        for member in &members {
            if known(&member.key) {
                continue;
            }
            let message = if scope == Scope::Plugin && fields::is_entry_only(&member.key) {
                format!(
                    "'{}' belongs in a marketplace entry, not plugin.json; Claude Code ignores it here",
                    member.key
                )
            } else if let Some(near) = near_key(&member.key, scope) {
                format!(
                    "unknown key '{prefix}{}'; did you mean '{near}'? Claude Code ignores it",
                    member.key
                )
            } else {
                format!(
                    "unknown key '{prefix}{}'; Claude Code ignores it",
                    member.key
                )
            };
            self.push(Rule::ManifestUnknownKey, member.key_range, message, WARNS);
        }
    }

    fn unknown_keys_of(&mut self, object: &Node, prefix: &str, known: impl Fn(&str) -> bool) {
        let members: Vec<Member> = object.unique_members().cloned().collect();
        for member in members {
            if !known(&member.key) {
                self.push(
                    Rule::ManifestUnknownKey,
                    member.key_range,
                    format!(
                        "unknown key '{prefix}{}'; Claude Code ignores it",
                        member.key
                    ),
                    WARNS,
                );
            }
        }
    }
}

/// The nearest known key within Claude Code's budget: one edit for keys of up to three
/// characters, two otherwise; a case-only difference always counts.
fn near_key(key: &str, scope: Scope) -> Option<&'static str> {
    let budget = if key.chars().count() <= 3 { 1 } else { 2 };
    let lower = key.to_lowercase();
    let mut best: Option<(usize, &'static str)> = None;
    for field in fields::fields(scope) {
        if field.shape == Shape::Listing {
            continue;
        }
        let length = field.key.chars().count();
        if length.abs_diff(key.chars().count()) > budget {
            continue;
        }
        if field.key.to_lowercase() == lower {
            return Some(field.key);
        }
        let distance = edit_distance(key, field.key);
        if distance <= budget && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, field.key));
        }
    }
    best.map(|(_, key)| key)
}

fn article(node: &Node) -> &'static str {
    match node.value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Why a plugin name is refused, if it is.
fn plugin_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name.contains(' ') {
        Some("contains a space; use kebab-case, such as 'my-plugin'")
    } else if name.chars().any(is_control_or_bidi) {
        Some("contains a control or bidirectional-formatting character")
    } else {
        None
    }
}

/// Why a marketplace name is refused beyond a plugin name's rules, if it is.
fn marketplace_name_problem(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    if name.contains('/') || name.contains('\\') || name.contains("..") || name == "." {
        Some("contains a path separator or '..', or is '.'")
    } else if impersonates(name) {
        Some("reads as an official Anthropic or Claude marketplace")
    } else if [
        "inline",
        "builtin",
        "skills-dir",
        "synced",
        "claude-plugin-test",
    ]
    .contains(&lower.as_str())
    {
        Some("is reserved by Claude Code for plugins it loads itself")
    } else {
        None
    }
}

/// The kinds of source object a marketplace entry may have, and the string fields each needs
/// (Claude Code 2.1.328; `unsupported` is a placeholder Claude Code writes, never authored).
const SOURCE_KINDS: &[(&str, &[&str])] = &[
    ("npm", &["package"]),
    ("url", &["url"]),
    ("github", &["repo"]),
    ("git-subdir", &["url", "path"]),
    ("archive", &["url"]),
    ("command", &["command"]),
];

/// The marketplace names Anthropic uses itself: allowed, whatever they look like.
const OFFICIAL_MARKETPLACES: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "first-party-plugins",
    "claude-tag-plugins",
    "healthcare",
    "claude-community",
    "claude-plugins-community",
    "anthropic-plugin-directory",
    "claude-plugin-directory",
];

/// Whether a marketplace name passes for an official one, as Claude Code 2.1.328 judges: any
/// character outside printable ASCII; "official" beside "anthropic" or "claude"; or a name that
/// starts with "anthropic" or "claude" followed by a word such as "marketplace" or "plugins".
fn impersonates(name: &str) -> bool {
    let lower = name.to_lowercase();
    if OFFICIAL_MARKETPLACES.contains(&lower.as_str()) {
        return false;
    }
    if name.chars().any(|c| !(' '..='~').contains(&c)) {
        return true;
    }
    let words: Vec<String> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect();
    let joined: String = words.concat();
    for brand in ["anthropic", "claude"] {
        if joined.contains(&format!("official{brand}"))
            || joined.contains(&format!("{brand}official"))
        {
            return true;
        }
    }
    // "official" and a brand separated only by punctuation also reads as official.
    for pair in words.windows(2) {
        let brand = |word: &str| word == "anthropic" || word == "claude";
        if (pair[0] == "official" && brand(&pair[1])) || (brand(&pair[0]) && pair[1] == "official")
        {
            return true;
        }
    }
    let stems = [
        "marketplace",
        "plugins",
        "official",
        "directory",
        "directories",
    ];
    let Some(first) = words.first() else {
        return false;
    };
    for brand in ["anthropic", "claude"] {
        // The brand, then one of the words, whether written apart or run together.
        if let Some(rest) = first.strip_prefix(brand) {
            let second = words.get(1).map_or("", String::as_str);
            let tail = if rest.is_empty() { second } else { rest };
            if stems.iter().any(|stem| tail.starts_with(stem)) {
                return true;
            }
        }
    }
    false
}

/// Anthropic's own marketplaces, whose entries may use its names (Claude Code 2.1.328).
const FIRST_PARTY_MARKETPLACES: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "first-party-plugins",
    "claude-tag-plugins",
    "healthcare",
];

/// How a plugin name stands against Anthropic's marks.
#[derive(Debug, PartialEq, Eq)]
enum Brand {
    /// Refused: it passes as one of Anthropic's own.
    Reserved,
    /// Allowed with a warning: a word of it is one of the marks.
    Reads,
}

/// Claude Code 2.1.328's reading of a plugin name: its words (runs of ASCII letters and digits,
/// lowercased) joined one by one from the start; a joined prefix that is a mark (or the builtin
/// lead "cc-plugin"), or a whole name that is a mark or a product, is reserved, as is "official"
/// beside "claude" or "anthropic". Names with other characters are folded by Claude Code first
/// (look-alike letters to ASCII); skill-lsp reads them as written.
fn brand(name: &str) -> Option<Brand> {
    const MARKS: &[&str] = &["claude", "anthropic", "anthropics"];
    const PREFIXES: &[&str] = &["claude", "anthropic", "anthropics", "ccplugin"];
    const WHOLE: &[&str] = &[
        "claude",
        "anthropic",
        "anthropics",
        "claudecode",
        "claudemods",
    ];
    // The longest of those, joined: past it no prefix can match.
    const LONGEST: usize = 10;
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    let mut joined = String::new();
    for (index, word) in words.iter().enumerate() {
        joined.push_str(word);
        let set = if index + 1 == words.len() {
            WHOLE
        } else {
            PREFIXES
        };
        if set.contains(&joined.as_str()) {
            return Some(Brand::Reserved);
        }
        if joined.len() > LONGEST {
            break;
        }
    }
    if beside_official(&lower) || beside_official(&words.concat()) {
        return Some(Brand::Reserved);
    }
    words
        .iter()
        .any(|word| MARKS.contains(word))
        .then_some(Brand::Reads)
}

/// "official", then only characters other than ASCII letters and digits, then "claude" or
/// "anthropic"; or the reverse.
fn beside_official(text: &str) -> bool {
    let after = |from: usize| text[from..].trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    let follows = |first: &str, second: &[&str]| {
        text.match_indices(first).any(|(at, _)| {
            second
                .iter()
                .any(|word| after(at + first.len()).starts_with(word))
        })
    };
    follows("official", &["anthropic", "claude"])
        || follows("anthropic", &["official"])
        || follows("claude", &["official"])
}

fn is_control_or_bidi(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`
fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// One part of a plugin id: `^[A-Za-z0-9][-A-Za-z0-9._]*$`.
fn is_id_part(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphanumeric())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
}

/// A dependency: `name`, `name@marketplace`, either with an `@^range` suffix.
fn is_dependency(text: &str) -> bool {
    let (id, _range) = match text.find("@^") {
        Some(at) if !text[at + 2..].contains('@') => (&text[..at], Some(&text[at..])),
        _ => (text, None),
    };
    let mut parts = id.split('@');
    let name = parts.next().unwrap_or_default();
    let marketplace = parts.next();
    parts.next().is_none() && is_id_part(name) && marketplace.is_none_or(is_id_part)
}

/// Whether a path has a `..` component, on either slash.
fn climbs(path: &str) -> bool {
    let path = path
        .strip_prefix(|c: char| c.is_ascii_alphabetic())
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(path);
    path.split(['/', '\\']).any(|part| part == "..")
}

fn is_absolute(path: &str) -> bool {
    Path::new(path)
        .components()
        .next()
        .is_some_and(|first| matches!(first, Component::RootDir | Component::Prefix(_)))
        || path.as_bytes().get(1) == Some(&b':') && path.as_bytes()[0].is_ascii_alphabetic()
}

/// `scheme://`
fn has_scheme(text: &str) -> bool {
    text.find("://").is_some_and(|at| {
        at > 0
            && text[..at].starts_with(|c: char| c.is_ascii_alphabetic())
            && text[..at]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    })
}

/// An absolute URL as WHATWG parsing takes one: a scheme, then for the web's schemes a host.
fn is_url(text: &str) -> bool {
    let text = text.trim();
    let Some(colon) = text.find(':') else {
        return false;
    };
    let scheme = &text[..colon];
    if !scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    {
        return false;
    }
    let rest = &text[colon + 1..];
    let special =
        ["http", "https", "ws", "wss", "ftp"].contains(&scheme.to_ascii_lowercase().as_str());
    if special {
        let host = rest.trim_start_matches(['/', '\\']);
        let host = host.split(['/', '\\', '?', '#']).next().unwrap_or_default();
        let host = host.rsplit('@').next().unwrap_or_default();
        !host.is_empty() && !host.starts_with(':') && !host.contains(' ')
    } else {
        scheme.len() > 1 || !rest.is_empty()
    }
}

const README_NAMES: &[&str] = &[
    "README.md",
    "readme.md",
    "Readme.md",
    "README.markdown",
    "README",
    "README.txt",
    "docs/README.md",
];
const LICENSE_NAMES: &[&str] = &[
    "LICENSE",
    "LICENSE.md",
    "LICENSE.txt",
    "LICENCE",
    "LICENCE.md",
    "COPYING",
    "COPYING.md",
    "LICENSE-MIT",
    "LICENSE-APACHE",
];
/// The fewest words the plugin directory takes in a README.
const README_WORDS: usize = 40;

/// The repository a plugin sits in, when it is not the plugin's own folder: the nearest folder
/// above it with a `.git`. Its README and LICENSE stand in for a plugin in a sub-folder.
fn repository_root(files: &dyn super::Files, plugin_root: &Path) -> Option<std::path::PathBuf> {
    if files.kind(&plugin_root.join(".git")).is_some() {
        return None;
    }
    plugin_root
        .ancestors()
        .skip(1)
        .find(|folder| files.kind(&folder.join(".git")).is_some())
        .map(Path::to_path_buf)
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::ManifestJson => RuleDoc::new(
            "`.claude-plugin/plugin.json` or `.claude-plugin/marketplace.json` is not valid JSON (reported where reading stopped). Comments and trailing commas count: Claude Code reads manifests with `JSON.parse`. A leading byte-order mark is allowed, except with `--profile directory`: the plugin directory's reader refuses it in plugin.json.",
            "`claude plugin validate` rejects the file and Claude Code cannot load the plugin or the marketplace.",
            "`{ \"name\": \"my-plugin\", }`",
            "Remove the trailing comma or comment, or close what is open.",
        ),
        Rule::ManifestSchema => RuleDoc::new(
            "A manifest key holds a value of the wrong type or form, or a required key is missing: plugin.json needs `name`; marketplace.json needs `name`, `owner` and `plugins`; every entry of `plugins` needs `name` and `source` (a `./` path, or an object whose `source` is `github` with `repo`, `url` or `archive` with `url`, `git-subdir` with `url` and `path`, `npm` with `package`, or `command` with `command`; a `sha` is 40 lowercase hexadecimal digits). Names may not be empty or hold spaces or control characters; a marketplace's may not hold `/` or `..` nor read as an official Anthropic or Claude marketplace. Paths must start with `./` (agents end in `.md`, hooks files in `.json`); `homepage` must be an absolute URL; `author` and `owner` are objects with a `name`. Keys that Claude Code checks with rules skill-lsp does not repeat (`engines`, `network`, `userConfig`, `settings`, `binaries`, `types`, `monitors`, `channels`, `renames`, `relevance`) are not checked.",
            "`claude plugin validate` rejects the manifest (Claude Code 2.1.328), and a plugin whose manifest fails its schema does not load.",
            "`\"version\": 1` or `\"author\": \"Jane\"` or `\"commands\": \"commands/deploy.md\"`.",
            "Write the value in the form the message names: `\"1.0.0\"`, `{ \"name\": \"Jane\" }`, `\"./commands/deploy.md\"`.",
        ),
        Rule::ManifestUnknownKey => RuleDoc::new(
            "A key Claude Code does not read: a typo (with the nearest known key), another tool's field (`main`, `publisher`), or a marketplace entry's key (`source`, `category`, `tags`, `strict`) in plugin.json. The plugin directory's listing keys (`icon`, `screenshots`, `privacyPolicyUrl`, ...) are known in plugin.json. Checked at the top of both manifests, in marketplace.json's `metadata` and in every plugin entry.",
            "Claude Code ignores the key, so a misspelt one does nothing; `claude plugin validate` warns, and `--strict` fails.",
            "`\"descripton\": \"...\"` in plugin.json.",
            "Rename a near miss; delete a key no tool reads.",
        ),
        Rule::ManifestPath => RuleDoc::new(
            "A path in plugin.json (`commands`, `agents`, `skills`, `hooks`, `mcpServers`, `lspServers`, `outputStyles`, `themes`, `monitors`, `workflows`) does not exist relative to the plugin root, climbs out with `..`, is a file where `skills` needs a folder, or is a folder where a `.json` file is named. A marketplace entry's `source` may not contain `..` either.",
            "`claude plugin validate` rejects it; at load, Claude Code reports the plugin as failed (a missing MCP servers file is skipped silently, so none of its servers run).",
            "`\"skills\": \"./skills/pdf/SKILL.md\"` (the file, not its folder) or `\"agents\": [\"./agents/reviewer.md\"]` with no such file.",
            "Point at what exists: the skill's folder (`./skills/pdf`), the real file name.",
        ),
        Rule::ManifestRecommended => RuleDoc::new(
            "A plugin.json without `version`, `description` or `author`; a marketplace.json without a description (top level or `metadata.description`) or without plugins. Given only for a manifest whose schema is otherwise valid, as Claude Code does.",
            "People browsing plugins see no description, author or version; `claude plugin validate` warns, and `--strict` fails.",
            "`{ \"name\": \"my-plugin\" }`",
            "Add the keys: `\"version\": \"1.0.0\"`, a one-line `description`, `\"author\": { \"name\": ... }`.",
        ),
        Rule::PluginNameKebab => RuleDoc::new(
            "plugin.json's `name` is not kebab-case (lowercase letters, digits, single hyphens).",
            "Claude Code accepts it, but claude.ai's marketplace sync requires kebab-case; `claude plugin validate` warns, and `--strict` fails.",
            "`\"name\": \"MyPlugin\"`",
            "Rename to `my-plugin` (every skill's and command's prefix changes with it).",
        ),
        Rule::PluginNameReserved => RuleDoc::new(
            "A plugin's name (plugin.json's `name`, or a marketplace entry's) passes as one of Anthropic's own: it starts with `claude-`, `anthropic-`, `anthropics-` or `cc-plugin-` (any separator or case), is `claude`, `anthropic`, `anthropics`, `claude-code` or `claude-mods`, or puts `official` next to `claude` or `anthropic`. Entries of Anthropic's own marketplaces are exempt. Checked in plugin.json only when its schema is otherwise valid, as Claude Code does.",
            "`claude plugin validate` rejects a third party's plugin so named (Claude Code 2.1.328).",
            "`\"name\": \"claude-hud\"`",
            "Name the plugin for what it does: `hud`, `status-hud`.",
        ),
        Rule::PluginNameBrand => RuleDoc::new(
            "A plugin's name has `claude`, `anthropic` or `anthropics` as one of its words, elsewhere than at the start (`doc-claude-md`).",
            "It reads as one of Anthropic's own; `claude plugin validate` warns, and `--strict` fails.",
            "`\"name\": \"seo-claude-skills\"`",
            "Name the plugin for what it does: `seo-skills`.",
        ),
        Rule::ManifestExperimental => RuleDoc::new(
            "plugin.json declares an experimental component (`monitors`, `themes`) at the top level instead of under `experimental`.",
            "The top-level key still loads but will stop in a future release; `claude plugin validate` warns, and `--strict` fails.",
            "`\"monitors\": \"./monitors/monitors.json\"`",
            "Move it: `\"experimental\": { \"monitors\": \"./monitors/monitors.json\" }`.",
        ),
        Rule::PluginIdChars => RuleDoc::new(
            "A marketplace's name, or a plugin entry's, cannot be part of a plugin id `plugin@marketplace`: it must start with a letter or digit and hold only letters, digits, `.`, `_` and `-`.",
            "Claude Code cannot install plugins from such a marketplace, or such an entry; `claude plugin validate` rejects it.",
            "`\"name\": \"my tools\"` or `\"name\": \"@team/plugin\"`.",
            "Rename to `my-tools`.",
        ),
        Rule::DesktopName => RuleDoc::new(
            "A marketplace's or a plugin entry's name that Claude Desktop's managed marketplace sync refuses: not letters, digits, `.`, `_`, `-` starting with a letter or digit, over 128 characters, or a marketplace named `org`, `org-provisioned` or `unknown`.",
            "Claude Code may accept it, but Claude Desktop drops the entry or the whole marketplace; `claude plugin validate` warns, and `--strict` fails.",
            "`\"name\": \"unknown\"` for a marketplace.",
            "Rename it.",
        ),
        Rule::MarketplaceDuplicatePlugin => RuleDoc::new(
            "Two entries of one marketplace have the same `name`.",
            "Plugins are installed by `name@marketplace`, so one entry hides the other; `claude plugin validate` rejects the marketplace.",
            "Two entries named `formatter`, one from `./plugins/formatter`, one from GitHub.",
            "Rename or remove one entry.",
        ),
        Rule::MarketplaceVersionSkew => RuleDoc::new(
            "A marketplace entry's `version` differs from the `version` in the plugin.json of its local source (`./path`).",
            "At install plugin.json's version wins and the entry's is silently ignored, so the marketplace advertises a version users do not get; `claude plugin validate` warns, and `--strict` fails.",
            "Entry `\"version\": \"2.0.0\"` for `./plugins/a`, whose plugin.json says `1.4.0`.",
            "Make the two agree (or drop the entry's `version`).",
        ),
        Rule::DirectoryReadme => RuleDoc::new(
            "Only with `--profile directory`: the plugin has no README (README.md, README, README.txt, docs/README.md, ... in its folder, or at the root of the repository it sits in), or the README has fewer than 40 words.",
            "The plugin directory refuses such a submission: people and its review read the README to learn what the plugin does.",
            "A plugin folder with only `.claude-plugin/plugin.json` and `skills/`.",
            "Write a README.md of at least 40 words: what the plugin does, how to use it, its setup.",
        ),
        Rule::DirectoryLicense => RuleDoc::new(
            "Only with `--profile directory`: the plugin has no LICENSE file (LICENSE, LICENSE.md, LICENCE, COPYING, LICENSE-MIT, ... in its folder or at its repository's root) and plugin.json has no `license`.",
            "The plugin directory refuses a submission without a license.",
            "A plugin.json without `license` in a repository without a LICENSE file.",
            "Add a LICENSE file, or `\"license\": \"MIT\"` (an SPDX id) to plugin.json.",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::PathBuf;

    use super::*;
    use crate::plugins::{Files, ManifestContext, lint_manifest};

    #[derive(Default)]
    struct Fake(HashMap<PathBuf, Option<String>>);

    impl Fake {
        fn file(mut self, path: &str, text: &str) -> Self {
            self.0.insert(PathBuf::from(path), Some(text.to_owned()));
            self
        }
        fn folder(mut self, path: &str) -> Self {
            self.0.insert(PathBuf::from(path), None);
            self
        }
    }

    impl Files for Fake {
        fn kind(&self, path: &Path) -> Option<EntryKind> {
            self.0.get(path).map(|text| {
                if text.is_some() {
                    EntryKind::File
                } else {
                    EntryKind::Folder
                }
            })
        }
        fn read(&self, path: &Path) -> Option<String> {
            self.0.get(path).cloned().flatten()
        }
        fn folders(&self, path: &Path) -> Vec<String> {
            self.0
                .iter()
                .filter(|(file, text)| text.is_none() && file.parent() == Some(path))
                .filter_map(|(file, _)| file.file_name()?.to_str().map(str::to_owned))
                .collect()
        }
    }

    fn lint(path: &str, text: &str, files: &Fake, profile: Option<Profile>) -> Vec<(Rule, String)> {
        let context = ManifestContext {
            path: Path::new(path),
            profile,
            files,
        };
        let (text, diagnostics) = lint_manifest(text.as_bytes(), &context).unwrap();
        diagnostics
            .into_iter()
            .map(|d| (d.rule, text[d.range.as_range()].to_owned()))
            .collect()
    }

    const PLUGIN: &str = "p/.claude-plugin/plugin.json";

    #[test]
    fn a_complete_plugin_has_no_findings() {
        let files = Fake::default()
            .folder("p/skills/x")
            .file("p/agents/a.md", "");
        let text = r#"{"name":"my-plugin","version":"1.0.0","description":"d","author":{"name":"a"},
            "skills":["./skills/x"],"agents":"./agents/a.md","homepage":"https://example.com","icon":"x.png"}"#;
        assert_eq!(lint(PLUGIN, text, &files, None), vec![]);
    }

    #[test]
    fn schema_findings_point_at_the_value_and_silence_the_advice() {
        let text = r#"{"name":"My Plugin","version":1,"author":"me","homepage":"foo","keywords":"x","agents":"./a","bogus":1}"#;
        let found = lint(PLUGIN, text, &Fake::default(), None);
        let schema: Vec<&str> = found
            .iter()
            .filter(|(rule, _)| *rule == Rule::ManifestSchema)
            .map(|(_, text)| text.as_str())
            .collect();
        assert_eq!(
            schema,
            vec![
                r#""My Plugin""#,
                "1",
                r#""me""#,
                r#""foo""#,
                r#""x""#,
                r#""./a""#
            ]
        );
        assert!(found.contains(&(Rule::ManifestUnknownKey, r#""bogus""#.to_owned())));
        assert!(found.contains(&(Rule::ManifestPath, r#""./a""#.to_owned())));
        assert!(
            !found
                .iter()
                .any(|(rule, _)| *rule == Rule::ManifestRecommended)
        );
    }

    #[test]
    fn a_well_formed_plugin_gets_the_advice() {
        let found = lint(PLUGIN, r#"{"name":"MyPlugin"}"#, &Fake::default(), None);
        let rules: Vec<Rule> = found.iter().map(|(rule, _)| *rule).collect();
        assert_eq!(
            rules,
            vec![
                Rule::PluginNameKebab,
                Rule::ManifestRecommended,
                Rule::ManifestRecommended,
                Rule::ManifestRecommended
            ]
        );
    }

    #[test]
    fn paths_must_exist_and_stay_inside() {
        let files = Fake::default()
            .file("p/skills/x/SKILL.md", "")
            .folder("p/hooks.json");
        let text = r#"{"name":"a","version":"1","description":"d","author":{"name":"a"},
            "skills":"./skills/x/SKILL.md","commands":"../up.md","hooks":"./hooks.json","mcpServers":"https://x/y.mcpb"}"#;
        let found = lint(PLUGIN, text, &files, None);
        let paths: Vec<&str> = found
            .iter()
            .filter(|(rule, _)| *rule == Rule::ManifestPath)
            .map(|(_, text)| text.as_str())
            .collect();
        assert_eq!(
            paths,
            vec![
                r#""../up.md""#,
                r#""./hooks.json""#,
                r#""./skills/x/SKILL.md""#
            ]
        );
    }

    #[test]
    fn the_directory_refuses_a_byte_order_mark_that_claude_code_skips() {
        let text = "\u{feff}{\"name\":\"a\",\"version\":\"1\",\"description\":\"d\",\"author\":{\"name\":\"a\"},\"license\":\"MIT\"}";
        assert_eq!(lint(PLUGIN, text, &Fake::default(), None), vec![]);
        let found = lint(PLUGIN, text, &Fake::default(), Some(Profile::Directory));
        assert_eq!(found[0], (Rule::ManifestJson, "\u{feff}".to_owned()));
    }

    #[test]
    fn broken_json_is_reported_where_it_breaks() {
        let found = lint(PLUGIN, "{\"name\":\"a\",}", &Fake::default(), None);
        assert_eq!(found, vec![(Rule::ManifestJson, "}".to_owned())]);
    }

    #[test]
    fn the_directory_profile_wants_a_readme_and_a_license() {
        let text = r#"{"name":"a","version":"1","description":"d","author":{"name":"a"}}"#;
        let found = lint(PLUGIN, text, &Fake::default(), Some(Profile::Directory));
        let rules: Vec<Rule> = found.iter().map(|(rule, _)| *rule).collect();
        assert_eq!(rules, vec![Rule::DirectoryReadme, Rule::DirectoryLicense]);
        let words = "word ".repeat(40);
        let files = Fake::default()
            .folder("repo/.git")
            .file("repo/README.md", &words)
            .file("repo/LICENSE", "MIT");
        let nested = "repo/p/.claude-plugin/plugin.json";
        assert_eq!(lint(nested, text, &files, Some(Profile::Directory)), vec![]);
        assert_eq!(lint(nested, text, &Fake::default(), None), vec![]);
    }

    const MARKETPLACE: &str = "m/.claude-plugin/marketplace.json";

    #[test]
    fn a_marketplace_entry_is_checked_and_its_version_compared() {
        let files = Fake::default().file(
            "m/plugins/a/.claude-plugin/plugin.json",
            r#"{"name":"a","version":"1.0.0"}"#,
        );
        let text = r#"{"name":"mk","owner":{"name":"o"},"description":"d","plugins":[
            {"name":"a","source":"./plugins/a","version":"2.0.0"},
            {"name":"a","source":{"source":"github","repo":"x/y"}}]}"#;
        let found = lint(MARKETPLACE, text, &files, None);
        assert_eq!(
            found,
            vec![
                (Rule::MarketplaceVersionSkew, r#""2.0.0""#.to_owned()),
                (Rule::MarketplaceDuplicatePlugin, r#""a""#.to_owned()),
                (Rule::MarketplaceDuplicatePlugin, r#""a""#.to_owned()),
            ]
        );
    }

    #[test]
    fn marketplace_schema_and_names() {
        let text = r#"{"name":"my market","plugins":[{"name":"A b","source":"plugins/c"},{"name":"f"},3],"x":1}"#;
        let found = lint(MARKETPLACE, text, &Fake::default(), None);
        let rules: Vec<Rule> = found.iter().map(|(rule, _)| *rule).collect();
        assert!(rules.contains(&Rule::PluginIdChars));
        assert!(rules.contains(&Rule::DesktopName));
        assert!(rules.contains(&Rule::ManifestUnknownKey));
        assert_eq!(
            rules
                .iter()
                .filter(|rule| **rule == Rule::ManifestSchema)
                .count(),
            6
        );
        assert!(!rules.contains(&Rule::ManifestRecommended));
    }

    #[test]
    fn official_looking_names_are_refused_and_official_ones_kept() {
        for name in [
            "claude-marketplace",
            "Anthropic Official",
            "official-claude",
            "claudeplugins",
            "clаude",
        ] {
            assert!(impersonates(name) || name.contains(' '), "{name}");
        }
        for name in [
            "claude-plugins-official",
            "my-claude-tools",
            "claudette",
            "team-marketplace",
        ] {
            assert!(!impersonates(name), "{name}");
        }
    }

    /// A plugin Anthropic's own marketplace lists may carry its names, in plugin.json as in
    /// the marketplace's entry; a third party's may not.
    #[test]
    fn a_first_party_marketplaces_plugin_may_use_anthropics_names() {
        let text = r#"{"name":"claude-code-setup","version":"1.0.0","description":"d","author":{"name":"a"}}"#;
        let path = "m/plugins/claude-code-setup/.claude-plugin/plugin.json";
        let reserved = |files: &Fake| {
            lint(path, text, files, None)
                .iter()
                .any(|(rule, _)| *rule == Rule::PluginNameReserved)
        };
        assert!(reserved(&Fake::default()));
        let third_party = Fake::default().file(
            "m/.claude-plugin/marketplace.json",
            r#"{"name":"my-market","owner":{"name":"a"},"plugins":[]}"#,
        );
        assert!(reserved(&third_party));
        let first_party = Fake::default().file(
            "m/.claude-plugin/marketplace.json",
            r#"{"name":"claude-plugins-official","owner":{"name":"a"},"plugins":[]}"#,
        );
        assert!(!reserved(&first_party));
    }

    #[test]
    fn plugin_names_are_judged_against_anthropics_marks() {
        for name in [
            "claude-hud",
            "claude",
            "Claude_Code",
            "cc-plugin-x",
            "anthropics-tools",
            "official-claude-kit",
            "claudeofficial",
        ] {
            assert_eq!(brand(name), Some(Brand::Reserved), "{name}");
        }
        for name in ["doc-claude-md", "cattery-claude", "seo-geo-claude-skills"] {
            assert_eq!(brand(name), Some(Brand::Reads), "{name}");
        }
        for name in ["claudette", "my-tools", "claude2go", "ccplugin"] {
            assert_eq!(brand(name), None, "{name}");
        }
    }

    /// Every prefix of a manifest, and every byte of it replaced by a troublesome one, is
    /// checked without a panic, and every range lies on character boundaries of the text.
    #[test]
    fn no_input_panics_and_every_range_is_on_char_boundaries() {
        let files = Fake::default().folder("p/skills/x");
        let plugin = r#"{"name":"é-plugin","version":"1","author":{"name":"ä"},"skills":["./skills/x","../y"],
            "commands":{"a":{"source":"./a.md"}},"mcpServers":[{"s":{}},"./m.json"],"dependencies":["a@b",{"name":"c"}]}"#;
        let market = r#"{"name":"mk","owner":{"name":"o"},"metadata":{"pluginRoot":"./p"},
            "plugins":[{"name":"a","source":"./p","version":"2"},{"name":"ü","source":{"source":"github"}},"x"]}"#;
        for (path, text) in [(PLUGIN, plugin), (MARKETPLACE, market)] {
            let mut inputs: Vec<Vec<u8>> = (0..=text.len())
                .map(|end| text.as_bytes()[..end].to_vec())
                .collect();
            for at in 0..text.len() {
                for byte in [b'"', b'{', b']', b'\\', 0xFF, 0xC3] {
                    let mut bytes = text.as_bytes().to_vec();
                    bytes[at] = byte;
                    inputs.push(bytes);
                }
            }
            for bytes in inputs {
                let context = ManifestContext {
                    path: Path::new(path),
                    profile: Some(Profile::Directory),
                    files: &files,
                };
                let (text, found) = lint_manifest(&bytes, &context).unwrap();
                for diagnostic in found {
                    let range = diagnostic.range;
                    assert!(
                        range.end <= text.len(),
                        "{range:?} past the end of {text:?}"
                    );
                    assert!(
                        text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
                        "{range:?} in {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn names_ids_and_urls() {
        assert!(is_kebab("a-1-b") && !is_kebab("a--b") && !is_kebab("A") && !is_kebab(""));
        assert!(
            is_dependency("a@b")
                && is_dependency("a@^1.2")
                && !is_dependency("x y")
                && !is_dependency("a@b@c")
        );
        assert!(
            is_url("https://x.y/z")
                && is_url("mailto:a@b")
                && !is_url("foo")
                && !is_url("https://")
        );
        assert!(climbs("../x") && climbs("./a/../b") && !climbs("./a..b"));
        assert!(has_scheme("https://x") && !has_scheme("./x"));
    }
}
