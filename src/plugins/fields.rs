//! Every key of `.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json` and a
//! marketplace's plugin entries in one table: its shape (what the checks accept), whether it is
//! required, and the words of hover and completion. Measured on Claude Code 2.1.328
//! (`claude plugin validate`); a new key is one entry.

/// Which object a key belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The top level of plugin.json.
    Plugin,
    /// The top level of marketplace.json.
    Marketplace,
    /// One item of marketplace.json's `plugins`.
    Entry,
}

/// What a key's value must look like for `claude plugin validate` to accept it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Any JSON string.
    Text,
    /// A string that parses as an absolute URL.
    Url,
    Bool,
    /// An array of strings.
    TextList,
    /// An object with a non-empty string `name` and optional string `email` and `url`.
    Person,
    /// A plugin name: non-empty, no spaces, no control or bidirectional characters.
    PluginName,
    /// A marketplace name: a plugin name's rules, no path separators, not an official name.
    MarketplaceName,
    /// Plugin ids this plugin needs: names, optionally `@marketplace`.
    Dependencies,
    /// A path starting with `./`, or a list of them; `ends_with` is a required suffix.
    Paths {
        ends_with: Option<&'static str>,
    },
    /// Like [`Shape::Paths`], and `.` also names the plugin root.
    SkillPaths,
    /// A `./` path, a list of them, or an object naming commands.
    Commands,
    /// A `./….json` path, an inline object, or a list of either.
    JsonOrInline,
    /// An object whose string values are checked by the marketplace code (`metadata`).
    MarketplaceMetadata,
    /// The plugin entries of a marketplace.
    Entries,
    /// Where a marketplace entry's plugin comes from: a `./` path or a source object.
    Source,
    /// Read by Claude Code with checks of its own that skill-lsp does not repeat.
    Opaque,
    /// Known to the plugin directory's listing only: never warned about as unknown.
    Listing,
}

/// One manifest key.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub key: &'static str,
    pub shape: Shape,
    pub required: bool,
    /// One sentence for hover and completion (Markdown).
    pub doc: &'static str,
}

const fn field(key: &'static str, shape: Shape, doc: &'static str) -> Field {
    Field {
        key,
        shape,
        required: false,
        doc,
    }
}

const fn required(key: &'static str, shape: Shape, doc: &'static str) -> Field {
    Field {
        key,
        shape,
        required: true,
        doc,
    }
}

/// The keys plugin.json and a marketplace entry share (an entry may inline the manifest).
const MANIFEST: &[Field] = &[
    field(
        "$schema",
        Shape::Text,
        "A JSON Schema address for editors; Claude Code does not read it.",
    ),
    required(
        "name",
        Shape::PluginName,
        "The plugin's identifier: it prefixes every skill, command and agent (`name:skill`). Use kebab-case.",
    ),
    field(
        "displayName",
        Shape::Text,
        "The name shown in menus; may hold spaces and capitals. Defaults to `name`.",
    ),
    field(
        "version",
        Shape::Text,
        "The plugin's version, semver (`1.2.3`). When plugin.json and the marketplace entry both set one, plugin.json's wins at install.",
    ),
    field(
        "description",
        Shape::Text,
        "One or two sentences on what the plugin does, shown when people browse plugins.",
    ),
    field(
        "author",
        Shape::Person,
        "Who made the plugin: `{ \"name\": ..., \"email\": ..., \"url\": ... }`; `name` is required.",
    ),
    field(
        "homepage",
        Shape::Url,
        "The plugin's home page or documentation, an absolute URL.",
    ),
    field(
        "repository",
        Shape::Text,
        "The source repository's address, a string.",
    ),
    field(
        "license",
        Shape::Text,
        "An SPDX license id such as `MIT` or `Apache-2.0`.",
    ),
    field(
        "keywords",
        Shape::TextList,
        "Words that help people find the plugin, a list of strings.",
    ),
    field(
        "defaultEnabled",
        Shape::Bool,
        "Whether the plugin starts enabled when the user has not chosen (default `true`).",
    ),
    field(
        "dependencies",
        Shape::Dependencies,
        "Plugins this one needs enabled: `name` or `name@marketplace`.",
    ),
    field(
        "metadata",
        Shape::Opaque,
        "Free-form data for the author's own tools; Claude Code keeps it and does not read it.",
    ),
    field(
        "engines",
        Shape::Opaque,
        "Host versions the plugin runs on: `{ \"claude-code\": \">=2.1.0\" }`.",
    ),
    field(
        "network",
        Shape::Opaque,
        "The hosts the plugin reaches, as `{ \"hosts\": [...] }`; listed by the validator, not enforced.",
    ),
    field(
        "hooks",
        Shape::JsonOrInline,
        "Hooks in addition to `hooks/hooks.json`: a `./….json` file, an inline hooks object, or a list of either.",
    ),
    field(
        "commands",
        Shape::Commands,
        "Command files or folders (`./…`), a list of them, or an object naming each command. When set, `commands/` is not scanned.",
    ),
    field(
        "agents",
        Shape::Paths {
            ends_with: Some(".md"),
        },
        "Agent files (`./….md`) or a list of them. When set, `agents/` is not scanned.",
    ),
    field(
        "skills",
        Shape::SkillPaths,
        "Skill folders (`./…`, or `.` for the plugin root) loaded besides `skills/`; each must hold a SKILL.md.",
    ),
    field(
        "outputStyles",
        Shape::Paths { ends_with: None },
        "Output-style files or folders (`./…`). When set, `output-styles/` is not scanned.",
    ),
    field(
        "themes",
        Shape::Paths { ends_with: None },
        "Theme files or folders (`./…`). When set, `themes/` is not scanned.",
    ),
    field(
        "workflows",
        Shape::Paths { ends_with: None },
        "Workflow folders or `.js` files (`./…`). When set, `workflows/` is not scanned.",
    ),
    field(
        "channels",
        Shape::Opaque,
        "Message channels the plugin provides.",
    ),
    field(
        "mcpServers",
        Shape::JsonOrInline,
        "MCP servers besides `.mcp.json`: a `./….json` file, an MCPB bundle, an inline object of servers, or a list.",
    ),
    field(
        "lspServers",
        Shape::JsonOrInline,
        "Language servers: a `./….json` file, an inline object of servers, or a list.",
    ),
    field(
        "monitors",
        Shape::Opaque,
        "Background monitors the plugin runs (experimental).",
    ),
    field(
        "settings",
        Shape::Opaque,
        "Settings the plugin applies while enabled.",
    ),
    field(
        "types",
        Shape::Opaque,
        "The plugin's TypeScript types contract (`./….d.ts`).",
    ),
    field(
        "userConfig",
        Shape::Opaque,
        "Options the user is asked for when the plugin is enabled.",
    ),
    field(
        "binaries",
        Shape::Opaque,
        "Executables fetched at install: `{ \"name\": { \"sha256\": ... } }`.",
    ),
    field(
        "experimental",
        Shape::Opaque,
        "Components still experimental (`themes`, `monitors`, ...), declared here.",
    ),
];

/// Keys the plugin directory's listing reads; `claude plugin validate` never calls them unknown.
const LISTING: &[Field] = &[
    field(
        "icon",
        Shape::Listing,
        "The listing icon: a square PNG or JPEG in the plugin, 512 to 2048 px.",
    ),
    field(
        "screenshots",
        Shape::Listing,
        "Screenshots for the plugin directory's listing.",
    ),
    field(
        "classification",
        Shape::Listing,
        "The plugin directory's classification of the plugin.",
    ),
    field(
        "privacyPolicyUrl",
        Shape::Listing,
        "The privacy policy the plugin directory links to.",
    ),
    field(
        "privacy_policy",
        Shape::Listing,
        "Another spelling of `privacyPolicyUrl` the plugin directory reads.",
    ),
    field(
        "privacyPolicy",
        Shape::Listing,
        "Another spelling of `privacyPolicyUrl` the plugin directory reads.",
    ),
    field(
        "supportUrl",
        Shape::Listing,
        "Where users get support, for the plugin directory's listing.",
    ),
    field(
        "support",
        Shape::Listing,
        "Another spelling of `supportUrl` the plugin directory reads.",
    ),
    field(
        "bugs",
        Shape::Listing,
        "Another spelling of `supportUrl` the plugin directory reads.",
    ),
    field(
        "termsOfServiceUrl",
        Shape::Listing,
        "Terms of service, for the plugin directory's listing.",
    ),
    field(
        "terms_of_service",
        Shape::Listing,
        "Another spelling of `termsOfServiceUrl` the plugin directory reads.",
    ),
    field(
        "documentationUrl",
        Shape::Listing,
        "Documentation, for the plugin directory's listing.",
    ),
    field(
        "docs",
        Shape::Listing,
        "Another spelling of `documentationUrl` the plugin directory reads.",
    ),
];

/// Keys only a marketplace entry has.
const ENTRY_ONLY: &[Field] = &[
    required(
        "source",
        Shape::Source,
        "Where the plugin comes from: `./path` inside this repository, or an object such as `{ \"source\": \"github\", \"repo\": \"owner/name\" }`.",
    ),
    field(
        "headers",
        Shape::Opaque,
        "HTTP headers for fetching an `archive` source.",
    ),
    field(
        "headersHelper",
        Shape::Text,
        "A command printing HTTP headers for an `archive` source; needs `strict: false`.",
    ),
    field(
        "category",
        Shape::Text,
        "A category for browsing, such as `productivity`.",
    ),
    field(
        "tags",
        Shape::TextList,
        "Words for search, a list of strings.",
    ),
    field(
        "strict",
        Shape::Bool,
        "`true` (default): the plugin folder must have its own plugin.json. `false`: this entry is the manifest.",
    ),
    field(
        "relevance",
        Shape::Opaque,
        "When the plugin is relevant to the user's work: `{ \"topic\": ..., \"signals\": ... }`.",
    ),
];

const MARKETPLACE: &[Field] = &[
    field(
        "$schema",
        Shape::Text,
        "A JSON Schema address for editors; Claude Code does not read it.",
    ),
    required(
        "name",
        Shape::MarketplaceName,
        "The marketplace's identifier: users install `plugin@name`. Use kebab-case.",
    ),
    field(
        "version",
        Shape::Text,
        "The marketplace manifest's version.",
    ),
    field(
        "description",
        Shape::Text,
        "What this marketplace offers, shown when it is added.",
    ),
    required(
        "owner",
        Shape::Person,
        "Who maintains the marketplace: `{ \"name\": ..., \"email\": ..., \"url\": ... }`; `name` is required.",
    ),
    required(
        "plugins",
        Shape::Entries,
        "The plugins this marketplace offers: each has a `name` and a `source`.",
    ),
    field(
        "forceRemoveDeletedPlugins",
        Shape::Bool,
        "When `true`, plugins removed from the marketplace are uninstalled for its users.",
    ),
    field(
        "metadata",
        Shape::MarketplaceMetadata,
        "`pluginRoot` (the folder bare source names resolve in), `version`, `description`.",
    ),
    field(
        "allowCrossMarketplaceDependenciesOn",
        Shape::TextList,
        "Marketplaces whose plugins may be installed as dependencies of these.",
    ),
    field(
        "renames",
        Shape::Opaque,
        "Old plugin name to new name (or `null` when removed), so installs follow a rename.",
    ),
];

/// The keys of marketplace.json's `metadata`.
pub const MARKETPLACE_METADATA: &[&str] = &["pluginRoot", "version", "description"];

/// The fields of `scope` (for an entry: the manifest's and the entry's own).
pub fn fields(scope: Scope) -> impl Iterator<Item = &'static Field> {
    // An entry may inline the whole manifest, so it has the manifest's keys (its required
    // `name` included) after its own.
    let (first, second): (&[Field], &[Field]) = match scope {
        Scope::Plugin => (MANIFEST, LISTING),
        Scope::Marketplace => (MARKETPLACE, &[]),
        Scope::Entry => (ENTRY_ONLY, MANIFEST),
    };
    first.iter().chain(second)
}

/// The field `key` of `scope`.
#[must_use]
pub fn lookup(scope: Scope, key: &str) -> Option<&'static Field> {
    fields(scope).find(|field| field.key == key)
}

/// Keys that belong in a marketplace entry: harmless but unused in plugin.json.
#[must_use]
pub fn is_entry_only(key: &str) -> bool {
    ENTRY_ONLY.iter().any(|field| field.key == key) || key == "id"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scope_lists_each_key_once_and_requires_a_name() {
        for scope in [Scope::Plugin, Scope::Marketplace, Scope::Entry] {
            let keys: Vec<&str> = fields(scope).map(|field| field.key).collect();
            let mut unique = keys.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(keys.len(), unique.len(), "{scope:?}");
            assert!(lookup(scope, "name").is_some_and(|field| field.required));
            assert!(fields(scope).all(|field| !field.doc.is_empty()));
        }
        assert!(lookup(Scope::Entry, "source").is_some_and(|field| field.required));
        assert!(lookup(Scope::Plugin, "source").is_none());
    }
}
