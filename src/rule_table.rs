//! The rule table of design.md §4: each rule's stable id, default severity and group, and the
//! severities themselves. A leaf module: `diagnostic` (a finding names its rule) and `rules` (the
//! checks) both read it, and it reads neither.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Hint,
    Info,
    Warning,
    Error,
}

impl Severity {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Hint => "hint",
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "hint" => Some(Severity::Hint),
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// What a rule checks, why it matters, an example and its fix: the text of `skill-lsp rules`.
/// Each rule's is written next to its check (a `rule_doc` function in the checking module).
#[derive(Clone, Copy, Debug)]
pub struct RuleDoc {
    pub summary: &'static str,
    pub why: &'static str,
    pub example: &'static str,
    pub fix: &'static str,
}

impl RuleDoc {
    #[must_use]
    pub(crate) const fn new(
        summary: &'static str,
        why: &'static str,
        example: &'static str,
        fix: &'static str,
    ) -> Self {
        Self {
            summary,
            why,
            example,
            fix,
        }
    }
}

macro_rules! rules {
    ($($variant:ident => $id:literal, $severity:ident, $group:ident;)*) => {
        /// A rule, named by its stable kebab-case id.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule { $($variant,)* }

        impl Rule {
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            #[must_use]
            pub fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity,)* }
            }

            #[must_use]
            pub fn group(self) -> Group {
                match self { $(Rule::$variant => Group::$group,)* }
            }
        }
    };
}

rules! {
    InvalidUtf8 => "invalid-utf8", Error, File;
    Bom => "bom", Error, File;
    MissingFrontmatter => "missing-frontmatter", Error, File;
    FrontmatterNotFirst => "frontmatter-not-first", Error, File;
    MalformedDelimiter => "malformed-delimiter", Error, File;
    UnterminatedFrontmatter => "unterminated-frontmatter", Error, File;
    YamlSyntax => "yaml-syntax", Error, File;
    UnquotedColon => "unquoted-colon", Error, File;
    NotAMapping => "not-a-mapping", Error, File;
    DuplicateKey => "duplicate-key", Error, File;
    FlowStyle => "flow-style", Warning, File;
    AnchorOrTag => "anchor-or-tag", Warning, File;
    MissingName => "missing-name", Error, Fields;
    MissingDescription => "missing-description", Error, Fields;
    FieldType => "field-type", Error, Fields;
    FieldValue => "field-value", Error, Fields;
    NameLength => "name-length", Error, Fields;
    NameFormat => "name-format", Error, Fields;
    NameMismatch => "name-mismatch", Error, Fields;
    ReservedWord => "reserved-word", Error, Fields;
    DescriptionEmpty => "description-empty", Error, Fields;
    DescriptionLength => "description-length", Error, Fields;
    DescriptionTrigger => "description-trigger", Hint, Fields;
    DescriptionAngleBrackets => "description-angle-brackets", Warning, Fields;
    CompatibilityLength => "compatibility-length", Error, Fields;
    MetadataValue => "metadata-value", Warning, Fields;
    Yaml11Type => "yaml11-type", Warning, Fields;
    AllowedToolsShape => "allowed-tools-shape", Warning, Fields;
    UnknownField => "unknown-field", Warning, Fields;
    BodyEmpty => "body-empty", Warning, Body;
    BodyTooLong => "body-too-long", Warning, Body;
    BrokenLink => "broken-link", Warning, Body;
    LinkEscapesSkill => "link-escapes-skill", Warning, Body;
    SkillMdCase => "skill-md-case", Error, Body;
    DuplicateName => "duplicate-name", Error, Workspace;
    SymlinkEscape => "symlink-escape", Warning, Workspace;
    CatalogBudget => "catalog-budget", Warning, Workspace;
    UnknownMention => "unknown-mention", Warning, Workspace;
    OpenaiYamlInvalid => "openai-yaml-invalid", Error, Codex;
    OpenaiYamlIgnored => "openai-yaml-ignored", Warning, Codex;
    OpenaiYamlIcon => "openai-yaml-icon", Warning, Codex;
    OpenaiYamlExplicitOnly => "openai-yaml-explicit-only", Info, Codex;
    ManifestJson => "manifest-json", Error, Plugin;
    ManifestSchema => "manifest-schema", Error, Plugin;
    ManifestUnknownKey => "manifest-unknown-key", Warning, Plugin;
    ManifestPath => "manifest-path", Error, Plugin;
    ManifestRecommended => "manifest-recommended", Warning, Plugin;
    PluginNameKebab => "plugin-name-kebab", Warning, Plugin;
    PluginNameReserved => "plugin-name-reserved", Error, Plugin;
    PluginNameBrand => "plugin-name-brand", Warning, Plugin;
    ManifestExperimental => "manifest-experimental", Warning, Plugin;
    PluginIdChars => "plugin-id-chars", Error, Plugin;
    DesktopName => "desktop-name", Warning, Plugin;
    MarketplaceDuplicatePlugin => "marketplace-duplicate-plugin", Error, Plugin;
    MarketplaceVersionSkew => "marketplace-version-skew", Warning, Plugin;
    DirectoryReadme => "directory-readme", Error, Plugin;
    DirectoryLicense => "directory-license", Error, Plugin;
    HiddenText => "hidden-text", Error, Security;
    PromptInjection => "prompt-injection", Error, Security;
    RemoteCode => "remote-code", Error, Security;
    CredentialAccess => "credential-access", Warning, Security;
    Exfiltration => "exfiltration", Error, Security;
    Persistence => "persistence", Warning, Security;
    Destructive => "destructive", Error, Security;
    Obfuscation => "obfuscation", Warning, Security;
    Permissions => "permissions", Warning, Security;
    CapabilityMismatch => "capability-mismatch", Warning, Security;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    File,
    Fields,
    Body,
    Workspace,
    /// Codex's `agents/openai.yaml` beside a SKILL.md.
    Codex,
    /// Claude Code plugin and marketplace manifests (`.claude-plugin/*.json`).
    Plugin,
    /// What a skill's files can do to the user's machine (`security`); a finding's severity is
    /// graded by where its text sits, up to the rule's default.
    Security,
}

impl Group {
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Group::File => "File and frontmatter",
            Group::Fields => "Fields",
            Group::Body => "Body and folder",
            Group::Workspace => "Workspace",
            Group::Codex => "Codex agents/openai.yaml",
            Group::Plugin => "Plugin and marketplace manifests",
            Group::Security => "Security",
        }
    }
}

impl Rule {
    #[must_use]
    pub fn parse(id: &str) -> Option<Self> {
        Rule::ALL.iter().copied().find(|rule| rule.as_str() == id)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}
